//! The proof-number solver's transposition table: 64-byte entries in buckets of four, keyed
//! exactly by both colours' stone sets (no false hits), replacing the entry with the least work in
//! a full bucket, as benzene's `SgHashTable<DfpnData, 4>` (Arneson, Hayward & Henderson 2010,
//! "Solving Hex: beyond humans"). A solved entry is never replaced by an unsolved one of the same
//! position. The table starts at [`INITIAL_LOG2`] entries and doubles instead of replacing until
//! it reaches its largest size, which gives the same search as that size allocated up front
//! ([`crate::solve::table`]).
//!
//! A position and its 180° rotation (cell i ↦ n² − 1 − i, which maps each player's edges onto
//! themselves) have the same value, so they share one entry: the key is the smaller of the two
//! stone sets, and an entry's moves (its children, or its winning cell) are stored in that
//! orientation and mapped back on reading. (Benzene keys its table by the position alone and
//! removes rotations only from a self-symmetric position's moves.)

use crate::game::hex::position::Pos;
use crate::solve::table::{try_extend, try_filled, TableMemoryError, INITIAL_LOG2};

/// The "infinite" proof or disproof number: a proven value (`INFTY` as benzene's
/// `DfpnBounds::INFTY`).
pub const INFTY: u32 = 2_000_000_000;

/// How many children an entry holds in its move-ordered list; a node with more is re-expanded
/// (its knowledge recomputed) each time it is searched again.
pub(crate) const MAX_STORED_CHILDREN: usize = 34;

/// Entries per bucket.
const WAYS: usize = 4;

/// Proof and disproof numbers of a node for its side to move: `phi` = the work to prove the side
/// to move wins, `delta` = the work to prove it loses (Allis, van der Meulen & van den Herik
/// 1994, "Proof-number search"; the negamax form of Nagai 2002). Won: `(0, INFTY)`, lost:
/// `(INFTY, 0)`, never seen: `(1, 1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Proof number.
    pub phi: u32,
    /// Disproof number.
    pub delta: u32,
}

impl Bounds {
    /// The bounds of a node never searched.
    pub const UNKNOWN: Bounds = Bounds { phi: 1, delta: 1 };
    /// The side to move wins.
    pub const WIN: Bounds = Bounds { phi: 0, delta: INFTY };
    /// The side to move loses.
    pub const LOSS: Bounds = Bounds { phi: INFTY, delta: 0 };

    /// Whether the side to move is proven to win.
    #[inline]
    pub fn is_win(self) -> bool {
        self.phi == 0
    }

    /// Whether the side to move is proven to lose.
    #[inline]
    pub fn is_loss(self) -> bool {
        self.delta == 0
    }

    /// Whether the value is proven.
    #[inline]
    pub fn is_solved(self) -> bool {
        self.phi == 0 || self.delta == 0
    }
}

/// One node of the search as stored.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// Black's and White's stones; `[0, 0]` with `work == 0` is an empty slot.
    pub stones: [u64; 2],
    /// The node's bounds.
    pub bounds: Bounds,
    /// Work spent under this node (nodes created), saturating.
    pub work: u32,
    /// The most recently selected child (an index into `children`), or the winning move's index
    /// when won; `u8::MAX` when none.
    pub best: u8,
    /// How many children are listed; `u8::MAX` when the node had more than
    /// [`MAX_STORED_CHILDREN`] (then the list is recomputed on each visit), 0 for a node solved
    /// by knowledge alone.
    pub len: u8,
    /// The children's moves (cells) in search order.
    pub children: [u8; MAX_STORED_CHILDREN],
}

const _: () = assert!(std::mem::size_of::<Entry>() == 64);

impl Entry {
    const EMPTY: Entry =
        Entry { stones: [0; 2], bounds: Bounds::UNKNOWN, work: 0, best: u8::MAX, len: 0, children: [0; MAX_STORED_CHILDREN] };
}

/// The table: `2^log2` entries, `log2` growing up to `max_log2`.
pub(crate) struct Table {
    entries: Vec<Entry>,
    /// Bits of the bucket index.
    bucket_bits: u32,
    /// log2 of the most entries the table may have.
    max_log2: u32,
    /// Entries in use.
    pub used: usize,
    /// Entries overwritten by another position.
    pub replaced: u64,
    /// The doubling the system refused, if one was (the table then stays at its size).
    pub refused: Option<TableMemoryError>,
}

impl Table {
    /// A table that may grow to `2^max_log2` entries (`2 ≤ max_log2 ≤ 30`), 64 bytes each; it
    /// starts with `2^min(max_log2, INITIAL_LOG2)`.
    ///
    /// # Errors
    /// The system refused the first entries' memory.
    pub fn new(max_log2: u32) -> Result<Table, TableMemoryError> {
        let max_log2 = max_log2.clamp(2, 30);
        let log2 = max_log2.min(INITIAL_LOG2);
        Table::sized(log2, max_log2)
    }

    /// A table of `2^log2` entries that may grow to `2^max_log2`.
    pub(crate) fn sized(log2: u32, max_log2: u32) -> Result<Table, TableMemoryError> {
        Ok(Table { entries: try_filled(1 << log2, Entry::EMPTY)?, bucket_bits: log2 - 2, max_log2, used: 0, replaced: 0, refused: None })
    }

    /// The most bytes the table may grow to.
    pub fn max_bytes(&self) -> usize {
        (1usize << self.max_log2) * std::mem::size_of::<Entry>()
    }

    /// Bytes the table has allocated (its entries' capacity).
    pub fn bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>()
    }

    /// Empties the table (keeps its memory).
    pub fn clear(&mut self) {
        self.entries.fill(Entry::EMPTY);
        self.used = 0;
    }

    #[inline]
    fn bucket(&self, stones: [u64; 2]) -> usize {
        bucket_of(stones, self.bucket_bits) * WAYS
    }

    /// Doubles the table, moving each entry to its bucket in the larger table (bucket `b`'s
    /// entries go to `2b` or `2b + 1`, in the order they had), in place. False when the system
    /// refused the memory (then [`Table::refused`] says so and the table is unchanged).
    fn grow(&mut self) -> bool {
        let old_buckets = self.entries.len() / WAYS;
        if let Err(e) = try_extend(&mut self.entries, 2 * old_buckets * WAYS, Entry::EMPTY) {
            self.refused = Some(e);
            return false;
        }
        let bits = self.bucket_bits + 1;
        // From the last bucket down: buckets 2b and 2b + 1 are then already emptied (or new).
        for b in (0..old_buckets).rev() {
            let mut old = [Entry::EMPTY; WAYS];
            old.copy_from_slice(&self.entries[b * WAYS..(b + 1) * WAYS]);
            self.entries[b * WAYS..(b + 1) * WAYS].fill(Entry::EMPTY);
            let mut filled = [0usize; 2];
            for e in old.into_iter().filter(|e| e.work != 0) {
                let nb = bucket_of(e.stones, bits);
                let half = nb - 2 * b;
                self.entries[nb * WAYS + filled[half]] = e;
                filled[half] += 1;
            }
        }
        self.bucket_bits = bits;
        true
    }

    /// The key of `pos`: the smaller of its stone sets and its rotation's, and whether that is
    /// the rotation.
    #[inline]
    fn key(pos: &Pos) -> ([u64; 2], bool) {
        let r = pos.rotated().stones;
        if r < pos.stones {
            (r, true)
        } else {
            (pos.stones, false)
        }
    }

    /// An entry's moves in the other orientation: the children (when listed) or the winning
    /// cell of a node solved by knowledge (`len == 0`).
    fn rotate_moves(e: &mut Entry, n: u8) {
        let last = (n as usize * n as usize - 1) as u8;
        if (e.len as usize) <= MAX_STORED_CHILDREN {
            for c in &mut e.children[..e.len as usize] {
                *c = last - *c;
            }
        }
        if e.len == 0 && e.best != u8::MAX {
            e.best = last - e.best;
        }
    }

    /// The entry of `pos` (or of its rotation, mapped back onto `pos`), if stored.
    #[inline]
    pub fn get(&self, pos: &Pos) -> Option<Entry> {
        let (key, rotated) = Table::key(pos);
        let b = self.bucket(key);
        let mut e = *self.entries[b..b + WAYS].iter().find(|e| e.stones == key && e.work != 0)?;
        if rotated {
            Table::rotate_moves(&mut e, pos.n);
            e.stones = pos.stones;
        }
        Some(e)
    }

    /// The bounds of `pos`: stored, or [`Bounds::UNKNOWN`].
    #[inline]
    pub fn bounds(&self, pos: &Pos) -> Bounds {
        let key = Table::key(pos).0;
        let b = self.bucket(key);
        self.entries[b..b + WAYS].iter().find(|e| e.stones == key && e.work != 0).map_or(Bounds::UNKNOWN, |e| e.bounds)
    }

    /// Stores `e`, the entry of `pos` (its `work` at least 1): over the same position or its
    /// rotation (unless that one is solved and `e` is not), else in an empty slot, else over the
    /// bucket's entry with the least work.
    pub fn put(&mut self, pos: &Pos, mut e: Entry) {
        e.work = e.work.max(1);
        let (key, rotated) = Table::key(pos);
        if rotated {
            Table::rotate_moves(&mut e, pos.n);
        }
        e.stones = key;
        loop {
            let b = self.bucket(e.stones);
            let bucket = &mut self.entries[b..b + WAYS];
            if let Some(old) = bucket.iter_mut().find(|x| x.stones == e.stones && x.work != 0) {
                if old.bounds.is_solved() && !e.bounds.is_solved() {
                    return;
                }
                *old = e;
                return;
            }
            if let Some(free) = bucket.iter_mut().find(|x| x.work == 0) {
                *free = e;
                self.used += 1;
                return;
            }
            // A full bucket: double instead of replacing while the table may grow.
            if self.bucket_bits + 2 < self.max_log2 && self.refused.is_none() && self.grow() {
                continue;
            }
            let bucket = &mut self.entries[b..b + WAYS];
            let victim = bucket.iter_mut().min_by_key(|x| x.work).expect("four ways");
            *victim = e;
            self.replaced += 1;
            return;
        }
    }
}

/// The bucket of a key in a table of `2^bits` buckets: the top `bits` bits of the stone sets
/// mixed by multiplication (so that doubling the table splits bucket `b` into `2b` and `2b + 1`).
#[inline]
fn bucket_of(stones: [u64; 2], bits: u32) -> usize {
    let h = (stones[0].wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ stones[1].rotate_left(29)).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    if bits == 0 {
        0
    } else {
        (h >> (64 - bits)) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position and its 180° rotation share one entry; the moves read back are in the
    /// orientation of the position asked about.
    #[test]
    fn a_position_and_its_rotation_share_an_entry() {
        let n = 5;
        let mut pos = Pos::empty_board(n);
        for cell in [0, 7, 13] {
            pos = pos.play(cell);
        }
        let rot = pos.rotated();
        assert_ne!(pos.stones, rot.stones);
        let mut t = Table::new(8).unwrap();
        let mut e = Entry::EMPTY;
        e.bounds = Bounds { phi: 3, delta: 5 };
        e.len = 3;
        e.best = 1;
        e.children[..3].copy_from_slice(&[1, 2, 24]);
        t.put(&pos, e);
        assert_eq!(t.used, 1);
        let back = t.get(&pos).expect("stored");
        assert_eq!(&back.children[..3], &[1, 2, 24]);
        assert_eq!(back.stones, pos.stones);
        let r = t.get(&rot).expect("the rotation finds it");
        assert_eq!(&r.children[..3], &[23, 22, 0]);
        assert_eq!((r.best, r.stones, r.bounds), (1, rot.stones, e.bounds));
        // A node solved by knowledge keeps its winning cell, mapped.
        let mut w = Entry::EMPTY;
        w.bounds = Bounds::WIN;
        w.best = 4;
        t.put(&rot, w);
        assert_eq!(t.used, 1, "the same entry");
        assert_eq!(t.get(&pos).unwrap().best, 20);
        assert_eq!(t.get(&rot).unwrap().best, 4);
        assert!(t.bounds(&pos).is_win());
    }

    fn entry(seed: u64, work: u32, solved: bool) -> (Pos, Entry) {
        // A position on 8×8 from the seed's bits: distinct seeds give distinct stone sets.
        let mut pos = Pos::empty_board(8);
        let mut x = seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1;
        for _ in 0..6 {
            let cell = (x % 64) as usize;
            x = x.rotate_left(17).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ seed;
            if pos.empty() >> cell & 1 == 1 {
                pos = pos.play(cell);
            }
        }
        let mut e = Entry::EMPTY;
        e.work = work;
        e.bounds = if solved { Bounds::WIN } else { Bounds { phi: work, delta: 2 } };
        (pos, e)
    }

    /// A table that starts small and doubles holds, once at its largest size, exactly what a
    /// table of that size from the start holds (the same entries in the same slots, the same
    /// counts), after any sequence of stores, so the solver's search is the same.
    #[test]
    fn growing_gives_the_same_table_as_the_whole_size_up_front() {
        for max_log2 in [10, 12, 13] {
            let mut grown = Table::sized(4, max_log2).unwrap();
            let mut whole = Table::sized(max_log2, max_log2).unwrap();
            assert_eq!(grown.bytes(), 16 * 64);
            for i in 0..30_000u64 {
                // Some positions come back (updates), some are solved.
                let (pos, e) = entry(i % 9_000 + (i % 7) * 100_000, (i % 97) as u32 + 1, i % 11 == 0);
                grown.put(&pos, e);
                whole.put(&pos, e);
                assert_eq!((grown.used, grown.replaced), (whole.used, whole.replaced), "store {i}");
                let probe = entry(i * 31 % 9_000, 0, false).0;
                assert_eq!(grown.get(&probe).map(|e| e.work), whole.get(&probe).map(|e| e.work), "store {i}");
            }
            assert_eq!(grown.bytes(), whole.bytes(), "grown to its largest size");
            let same = grown.entries.iter().zip(&whole.entries).all(|(a, b)| a.stones == b.stones && a.work == b.work);
            assert!(same, "the same entries in the same slots");
            assert!(whole.replaced > 0, "the test reaches replacements");
        }
    }

    /// A table stays as small as what was stored needs, below its largest size; a doubling the
    /// system refused leaves it at its size, replacing as a full table does.
    #[test]
    fn a_table_grows_only_as_needed_and_a_refusal_keeps_its_size() {
        let mut t = Table::new(24).unwrap();
        assert_eq!(t.bytes(), 64 << 10, "1,024 entries to start, whatever the budget");
        assert_eq!(t.max_bytes(), 1 << 30);
        for i in 0..200 {
            let (pos, e) = entry(i, 1, false);
            t.put(&pos, e);
        }
        assert!(t.bytes() <= 1 << 20, "{} bytes for 200 positions", t.bytes());
        assert_eq!(t.replaced, 0);
        let mut r = Table::new(24).unwrap();
        r.refused = Some(TableMemoryError { bytes: 128 << 10 });
        for i in 0..5_000 {
            let (pos, e) = entry(i, 1, false);
            r.put(&pos, e);
        }
        assert_eq!(r.bytes(), 64 << 10, "no growth after a refusal");
        assert!(r.replaced > 0);
    }
}
