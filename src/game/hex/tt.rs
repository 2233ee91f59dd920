//! The proof-number solver's transposition table: a fixed number of 64-byte entries in buckets of
//! four, keyed exactly by both colours' stone sets (no false hits), replacing the entry with the
//! least work in a full bucket, as benzene's `SgHashTable<DfpnData, 4>` (Arneson, Hayward &
//! Henderson 2010, "Solving Hex: beyond humans"). A solved entry is never replaced by an unsolved
//! one of the same position.

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

    /// The entry of `pos`, if stored.
    #[inline]
    pub fn get(&self, pos: &Pos) -> Option<&Entry> {
        let b = self.bucket(pos.stones);
        self.entries[b..b + WAYS].iter().find(|e| e.stones == pos.stones && e.work != 0)
    }

    /// The bounds of `pos`: stored, or [`Bounds::UNKNOWN`].
    #[inline]
    pub fn bounds(&self, pos: &Pos) -> Bounds {
        self.get(pos).map_or(Bounds::UNKNOWN, |e| e.bounds)
    }

    /// Stores `e` (its `work` at least 1): over the same position (unless that one is solved and
    /// `e` is not), else in an empty slot, else over the bucket's entry with the least work.
    pub fn put(&mut self, mut e: Entry) {
        e.work = e.work.max(1);
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
