//! The proof-number solver's transposition table: a fixed number of 64-byte entries in buckets of
//! four, keyed exactly by both colours' stone sets (no false hits), replacing the entry with the
//! least work in a full bucket, as benzene's `SgHashTable<DfpnData, 4>` (Arneson, Hayward &
//! Henderson 2010, "Solving Hex: beyond humans"). A solved entry is never replaced by an unsolved
//! one of the same position.
//!
//! A position and its 180° rotation (cell i ↦ n² − 1 − i, which maps each player's edges onto
//! themselves) have the same value, so they share one entry: the key is the smaller of the two
//! stone sets, and an entry's moves (its children, or its winning cell) are stored in that
//! orientation and mapped back on reading. (Benzene keys its table by the position alone and
//! removes rotations only from a self-symmetric position's moves.)

use super::position::Pos;

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

/// The table: `2^log2` entries.
pub(crate) struct Table {
    entries: Vec<Entry>,
    /// Bits of the bucket index.
    bucket_bits: u32,
    /// Entries in use.
    pub used: usize,
    /// Entries overwritten by another position.
    pub replaced: u64,
}

impl Table {
    /// A table of `2^log2` entries (`2 ≤ log2 ≤ 30`), 64 bytes each.
    pub fn new(log2: u32) -> Table {
        let log2 = log2.clamp(2, 30);
        Table { entries: vec![Entry::EMPTY; 1 << log2], bucket_bits: log2 - 2, used: 0, replaced: 0 }
    }

    /// Bytes the table occupies.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    /// Empties the table (keeps its memory).
    pub fn clear(&mut self) {
        self.entries.fill(Entry::EMPTY);
        self.used = 0;
    }

    #[inline]
    fn bucket(&self, stones: [u64; 2]) -> usize {
        let h = (stones[0].wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ stones[1].rotate_left(29)).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        if self.bucket_bits == 0 {
            0
        } else {
            ((h >> (64 - self.bucket_bits)) as usize) * WAYS
        }
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
        let victim = bucket.iter_mut().min_by_key(|x| x.work).expect("four ways");
        *victim = e;
        self.replaced += 1;
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
        let mut t = Table::new(8);
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
}
