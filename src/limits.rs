//! The engine's input limits, in one place (`docs/limits.md` lists them with the page's and the
//! command line's, and what each door answers when a limit is passed).
//!
//! Every limit is answered with a typed error naming the limit; nothing panics and nothing already
//! played is lost.

/// Longest game record read, in bytes (UTF-8): 1,000,000. The longest game of any supported rule
/// set is Hex 19×19 with the swap move, 362 moves, about 2,000 bytes as a move list and 4,000 as
/// HexGui's SGF; the rest of the room is for comments and player names. Longer texts are refused
/// with [`crate::record::RecordError::TooLong`] before anything is parsed.
pub const MAX_RECORD_BYTES: usize = 1_000_000;

/// Largest network weights file read (a `.mctsnet` file, [`crate::nn::Net::from_bytes`]), in
/// bytes: 71,442,529, the largest file the format can hold (version 1: a spec of 65,535 bytes,
/// 16 hidden layers, every layer [`crate::nn::MAX_WIDTH`] wide; a convolutional file, version 2,
/// is at most 40,753,208 bytes), so no file the format allows is refused; the shipped nets are
/// 80–150 kB. A longer file is refused with
/// [`crate::nn::NetError::TooLong`] before anything is read; the page checks a chosen file's
/// size against it and does not read a longer one.
/// (`nn` checks at compile time that it equals the format's own bound, `nn::MAX_FILE_BYTES`: this
/// floor imports nothing above it.)
pub const MAX_NET_BYTES: usize = 71_442_529;

/// Longest Go Text Protocol command line `mcts gtp` reads, in bytes: 65,536 (GTP 2, Farnebäck
/// 2002, sets no limit; the longest meaningful command, `play white swap-pieces`, is 23 bytes).
/// A longer line is answered `? command line too long` and skipped up to its end, in bounded
/// memory.
pub const MAX_GTP_LINE_BYTES: usize = 65_536;

/// Longest answer `mcts match` reads from an engine (the text of one response, all its lines),
/// in bytes: 1 MiB (`genmove`, `final_score` and `name` answer a few bytes). A longer answer
/// stops the match ("engine B (NAME) answered \`genmove w\` with an answer of more than 1048576
/// bytes"), read no further than the limit ([`crate::gtp::ResponseReader`]).
pub const MAX_GTP_ANSWER_BYTES: usize = 1 << 20;

/// Lines kept of an engine's output that answers no command (`info` lines, logs printed on
/// standard output, responses when no command was sent), per engine in `mcts match`: the first
/// 10 and the last 10, each quoted in at most [`MAX_ECHO_CHARS`] characters ([`abbreviate`]),
/// with the count of all of them; the rest is read and dropped. An engine that printed
/// `yes info` while the other thought once grew the referee past 1.4 GB in 4 seconds (every line
/// was queued); now it costs the referee no memory, and the count and the kept lines are in
/// `--json` (`unrequested`) and a note on standard error.
pub const UNREQUESTED_LINES_KEPT: usize = 10;

/// Largest board side: Hex up to 19×19 (`hex:19`), as HexGui and Little Golem; Tic-Tac-Toe is 3×3
/// and Pentago 6×6. [`crate::game::MAX_MOVES`] follows from it.
pub const MAX_BOARD_SIDE: usize = 19;

/// Largest search budget accepted from the page or a request, in milliseconds or playouts:
/// 2^53 − 1, JavaScript's `Number.MAX_SAFE_INTEGER` (the largest integer a page message carries
/// exactly). A search that long is bounded in memory by the node cap (`SearchConfig::node_cap`).
pub const MAX_BUDGET: f64 = 9_007_199_254_740_991.0;

/// The page's node cap when the engine parameters do not set `node_cap`: 2,000,000 nodes (about
/// 120 MB at the engine's 50–65 bytes per node, measured by `mcts bench`; PUCT presets about
/// 110–120 bytes per node on Hex 11×11, a WebAssembly memory of about 330 MB at the cap), a size
/// a browser tab carries comfortably. Natively the default is
/// `SearchConfig::default().node_cap` (5,000,000); either may be set in 1..=1e9 (`node_cap`).
pub const PAGE_NODE_CAP: u64 = 2_000_000;

/// The page's memory cap per search when the engine parameters do not set `memory_cap_mib`:
/// 512 MiB of the worker's WebAssembly memory (`SearchConfig::memory_cap_mib`; the check counts
/// the module's whole linear memory, which never shrinks). Before it, an Arena on Hex 19×19
/// with `rave_table_visits = 1` grew a worker to about 3.7 GB and killed it ("unreachable").
/// Natively the default is `SearchConfig::default().memory_cap_mib` (2,048 MiB).
pub const PAGE_MEMORY_CAP_MIB: u64 = 512;

/// Most bytes of training data `mcts patterns train` holds: 1 GiB. Each game's positions are
/// folded into the training set as the game ends (a position's legal moves kept as their
/// distinct patterns with counts, 4 or 8 bytes each, not one 8-byte key per move: 1,000 Hex 19×19
/// games of one playout a move fold into 224 MB), because minorization–maximization reads every
/// position on each sweep; once the folded data
/// ([`crate::game::hex::patterns::TrainingSet::bytes`], training and held-out positions) reaches
/// this, no further game is started, the games folded so far are trained on, and the command says
/// so (`data_limit_reached` in `--json`). Besides it, at most `2 · --threads + 2` finished games
/// wait whole for an earlier one to be folded (about 0.85 MB each on Hex 19×19).
pub const PATTERN_TRAIN_MAX_BYTES: usize = 1 << 30;

/// Defaults for the tree's caps where the engine parameters do not set them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeLimits {
    /// `node_cap`, nodes.
    pub node_cap: u64,
    /// `memory_cap_mib`, MiB.
    pub memory_cap_mib: u64,
}

/// The page's caps: [`PAGE_NODE_CAP`] nodes and [`PAGE_MEMORY_CAP_MIB`] MiB.
pub const PAGE_TREE_LIMITS: TreeLimits = TreeLimits { node_cap: PAGE_NODE_CAP, memory_cap_mib: PAGE_MEMORY_CAP_MIB };

/// Most moves a request or a page message may carry: 1,000 (a game never has more than 362).
pub const MAX_REQUEST_MOVES: usize = 1_000;

/// Deepest nesting of variations within variations a game record may carry (`record::Variation`,
/// the game JSON's `variations`, SGF variations, the page's `writeRecord`): 50. Real analysis
/// nests a few levels; 50 keeps the game JSON within serde_json's nesting limit of 128 (two levels
/// per variation) and every reader's recursion small.
pub const MAX_VARIATION_DEPTH: usize = 50;

/// Most iterations one step-through request (`stepRun`) may run: 100,000 (as `www/src/protocol.ts`).
pub const MAX_STEP_ITERATIONS: u64 = 100_000;

/// Most nodes a tree snapshot request (`inspect`, `stepNew`, `stepRun`) may ask for: 1,000,000
/// (the page asks for at most 200,000; each costs about 30 bytes of message).
pub const MAX_SNAPSHOT_NODES: u64 = 1_000_000;

/// Most games one `mcts arena` match plays (`--games`): 1,000,000. The Wilson interval of a
/// million games is already about ±0.001 wide, and a match that long takes days (a Tic-Tac-Toe
/// game at 200 iterations per move takes about a millisecond of one core, a Hex 11×11 game at
/// 10,000 a few seconds). Each game's record (its moves) is kept for the standings and the
/// `--json` output, from about 0.4 KB (Tic-Tac-Toe) to about 12 KB (Hex 19×19), and is stored
/// only once the game is played. A larger count is refused when the arguments are read
/// (`invalid value '…' for '--games <GAMES>': … at most 1000000 games per match`, exit 2).
pub const MAX_ARENA_GAMES: usize = 1_000_000;

/// Largest file of openings read (`mcts arena --openings FILE`), in bytes: 10,000,000, room for
/// every two-move opening of Hex 19×19 (361 × 360 = 129,960 lines of at most 8 bytes) nine times over. The
/// path must name a regular file (a device or a named pipe is refused before it is opened); a
/// longer file is refused before it is read.
pub const MAX_OPENINGS_BYTES: u64 = 10_000_000;

/// Longest quotation of an input in an error message, in characters: 200. An error names what
/// it refused ("move 3 'zz': …", "bad spec '…'"), and the input may be as long as a record
/// (1,000,000 bytes) or a request; [`abbreviate`] cuts every such quotation to this length, so
/// each message stays a sentence (a 1,000,000-move record once gave a 3,000,093-character
/// message, a 514,314-pixel block on the page).
pub const MAX_ECHO_CHARS: usize = 200;

/// `text` as an error message quotes it: whole when it has at most [`MAX_ECHO_CHARS`]
/// characters, else its first 100 and last 50 characters around
/// ` … (N characters left out) … `, at most [`MAX_ECHO_CHARS`] characters in all, with its
/// control characters quoted ([`quote_controls`]). Use it wherever an error message quotes an
/// input: the message then reaches a terminal (the CLI, a Python traceback) or the page as
/// plain text.
pub fn abbreviate(text: &str) -> std::borrow::Cow<'_, str> {
    const HEAD: usize = 100;
    const TAIL: usize = 50;
    let chars = text.chars().count();
    let cut = if chars <= MAX_ECHO_CHARS {
        std::borrow::Cow::Borrowed(text)
    } else {
        let head_end = text.char_indices().nth(HEAD).map_or(text.len(), |(i, _)| i);
        let tail_start = text.char_indices().nth(chars - TAIL).map_or(text.len(), |(i, _)| i);
        let omitted = chars - HEAD - TAIL;
        std::borrow::Cow::Owned(format!("{} … ({omitted} characters left out) … {}", &text[..head_end], &text[tail_start..]))
    };
    match quote_controls(&cut) {
        std::borrow::Cow::Borrowed(_) => cut,
        std::borrow::Cow::Owned(quoted) => std::borrow::Cow::Owned(quoted),
    }
}

/// `text` with every control character but tab written as Rust writes it in a quotation
/// (`\n`, `\r`, `\u{1b}`, `\u{9b}`, …; `char::escape_debug`), so that a message quoting user
/// text cannot move the cursor, clear the screen or retitle the terminal. Other text unchanged.
pub fn quote_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && c != '\t') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() && c != '\t' {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abbreviate_quotes_control_characters() {
        assert_eq!(abbreviate("a\u{1b}[2Jb\nc\td"), "a\\u{1b}[2Jb\\nc\td");
        let long = format!("\u{9b}{}", "x".repeat(MAX_ECHO_CHARS));
        assert!(abbreviate(&long).starts_with("\\u{9b}x"));
        assert!(!abbreviate(&long).chars().any(|c| c.is_control()));
    }

    #[test]
    fn abbreviate_keeps_short_texts_and_cuts_long_ones() {
        assert_eq!(abbreviate("zz"), "zz");
        let exact = "é".repeat(MAX_ECHO_CHARS);
        assert_eq!(abbreviate(&exact), exact);
        let long = format!("{}{}{}", "a".repeat(100), "é".repeat(999_850), "b".repeat(50));
        let short = abbreviate(&long);
        assert_eq!(short, format!("{} … (999850 characters left out) … {}", "a".repeat(100), "b".repeat(50)));
        assert!(short.chars().count() <= MAX_ECHO_CHARS);
        let odd = "é".repeat(usize::MAX.to_string().len() + MAX_ECHO_CHARS);
        assert!(abbreviate(&odd).chars().count() <= MAX_ECHO_CHARS);
    }
}
