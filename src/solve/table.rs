//! The memory of the exact solvers' transposition tables (the proof-number solver's
//! [`super::hex::dfpn`], the Hex negamax's [`super::hex::negamax`], the endgame solver's
//! [`super::endgame`]): a budget in bytes, a table that starts small and doubles up to it, and an
//! allocation the system refuses reported as a sentence instead of an abort.
//!
//! # Growth that does not change the search
//! Each table is a cache of fixed-size buckets indexed by bits of a hash, which replaces an entry
//! when a bucket is full. A table that starts at [`INITIAL_LOG2`] entries and, instead of
//! replacing, doubles (moving every entry to the bucket it has in the larger table) holds every
//! entry ever stored until it reaches its largest size; then it holds exactly what a table
//! allocated at that size from the start would hold, in the same slots, since the larger table's
//! buckets refine the smaller one's and nothing was replaced in either. So a solve gives the same
//! values, moves and node counts as with the whole table allocated up front, and a position that
//! needs few entries gets a small table. (Doubling on a load factor instead would keep tables
//! smaller but replace entries the full table keeps, which changes the search.) With 2- and
//! 4-entry buckets a first bucket overflows while most of the table is empty, so a search that
//! stores more than a few percent of the budget's entries ends at the whole budget, as before.
//!
//! A doubling the system refuses leaves the table at its size: the solve goes on with it (an
//! entry is replaced as in any full table: the result is still exact, the search may be slower)
//! and the solver keeps the refusal ([`TableMemoryError`]) for its report.

/// log2 of a table's entries when it is created (at most its budget's): 1,024 entries.
pub const INITIAL_LOG2: u32 = 10;

/// The system refused the memory of a solver's transposition table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the exact solver's transposition table could not have {} of memory: the system refused it (a smaller table, --tt-mib, needs less)",
    size_text(*bytes)
)]
pub struct TableMemoryError {
    /// The bytes asked for.
    pub bytes: u64,
}

/// `bytes` as people write it: `64 KiB`, `256 MiB`, `16 GiB` (rounded down).
pub fn size_text(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// A vector of `len` copies of `fill`, or the refusal.
///
/// # Errors
/// [`TableMemoryError`] when the allocator refuses `len` elements (or their size overflows).
pub fn try_filled<T: Clone>(len: usize, fill: T) -> Result<Vec<T>, TableMemoryError> {
    let mut v = Vec::new();
    try_extend(&mut v, len, fill)?;
    Ok(v)
}

/// Lengthens `v` to `len` elements with copies of `fill` (nothing when it is as long already).
///
/// # Errors
/// [`TableMemoryError`] when the allocator refuses; `v` is unchanged then.
pub fn try_extend<T: Clone>(v: &mut Vec<T>, len: usize, fill: T) -> Result<(), TableMemoryError> {
    let more = len.saturating_sub(v.len());
    let bytes = (len as u64).saturating_mul(std::mem::size_of::<T>() as u64);
    v.try_reserve_exact(more).map_err(|_| TableMemoryError { bytes })?;
    v.resize(len, fill);
    Ok(())
}

/// log2 of the most entries of `entry_bytes` bytes that fit in `budget_bytes` (0 when not even
/// one does).
pub fn log2_within(budget_bytes: u64, entry_bytes: usize) -> u32 {
    let entries = budget_bytes / entry_bytes.max(1) as u64;
    63 - entries.max(1).leading_zeros()
}

/// Each of `threads` solvers' share of one budget of `budget_bytes` (the budget is split evenly,
/// so that the tables together never take more than it).
pub fn share(budget_bytes: u64, threads: usize) -> u64 {
    budget_bytes / threads.max(1) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_shares() {
        assert_eq!(log2_within(256 << 20, 64), 22);
        assert_eq!(log2_within(256 << 20, 24), 23);
        assert_eq!(log2_within(16, 64), 0);
        assert_eq!(size_text(64 << 10), "64 KiB");
        assert_eq!(size_text(3 << 30), "3 GiB");
        // 64 threads on the largest budget: each share times the threads is within the budget.
        for threads in 1..=64 {
            let each = share(16384 << 20, threads);
            assert!(each * threads as u64 <= 16384 << 20);
            assert!((1u64 << log2_within(each, 64)) * 64 * threads as u64 <= 16384 << 20);
        }
    }

    /// A request no allocator grants is an error with a sentence, not an abort.
    #[test]
    fn a_refused_allocation_is_a_sentence() {
        let e = try_filled(usize::MAX / 64, [0u64; 8]).unwrap_err();
        assert!(e.to_string().starts_with("the exact solver's transposition table could not have"), "{e}");
        let e = try_filled(1usize << 44, [0u64; 8]).unwrap_err();
        assert_eq!(e.bytes, 1 << 50);
        assert!(e.to_string().contains("1048576 GiB"), "{e}");
        let mut v = vec![1u8; 4];
        assert!(try_extend(&mut v, usize::MAX, 0).is_err());
        assert_eq!(v, [1; 4], "unchanged");
    }
}
