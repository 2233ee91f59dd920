//! Reading a network weights file (`.mctsnet`) from disk in bounded memory and time: the one
//! reader of `mcts --net`, `mcts train --init` and the Python package's nets. Native only.

use std::path::{Path, PathBuf};

use super::{check_header, HEADER_BYTES, MAX_FILE_BYTES};

/// Why a weights file could not be read; the message starts with the path.
#[derive(Debug, thiserror::Error)]
#[error("{}: {reason}", path.display())]
pub struct NetFileError {
    /// The path as given.
    pub path: PathBuf,
    /// What is wrong: the system's error, the kind of file, its size, or the header's defect.
    pub reason: String,
}

/// What a path that is not a regular file names, in words ("a directory", "a device", ...).
pub fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

/// Reads a weights file: the path must name a regular file (checked before opening it: opening
/// a named pipe without a writer would block) of at most [`MAX_FILE_BYTES`] (the largest net the
/// format allows), whose header ([`check_header`]: magic and version) is read and checked before
/// the rest.
///
/// # Errors
/// The file is missing or unreadable, not a regular file (a directory, a device such as
/// `/dev/zero`, a named pipe), larger than any weights file, or does not start as one.
pub fn read_net(path: &Path) -> Result<Vec<u8>, NetFileError> {
    use std::io::Read;
    let at = |e: &dyn std::fmt::Display| NetFileError { path: path.to_path_buf(), reason: e.to_string() };
    let meta = std::fs::metadata(path).map_err(|e| at(&e))?;
    if !meta.is_file() {
        return Err(at(&format!("{}, not a network weights file (a regular file such as latest.mctsnet)", file_kind(&meta.file_type()))));
    }
    let too_large = |len: u64| at(&format!("{len} bytes, larger than any network weights file (at most {MAX_FILE_BYTES} bytes)"));
    if meta.len() > MAX_FILE_BYTES as u64 {
        return Err(too_large(meta.len()));
    }
    let mut file = std::fs::File::open(path).map_err(|e| at(&e))?;
    let mut bytes = Vec::with_capacity(HEADER_BYTES);
    (&mut file).take(HEADER_BYTES as u64).read_to_end(&mut bytes).map_err(|e| at(&e))?;
    check_header(&bytes).map_err(|e| at(&e))?;
    // The file may have grown since its size was read: never read more than the limit and a byte.
    bytes.reserve(meta.len() as usize - bytes.len().min(meta.len() as usize));
    file.take(MAX_FILE_BYTES as u64 + 1 - bytes.len() as u64).read_to_end(&mut bytes).map_err(|e| at(&e))?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}
