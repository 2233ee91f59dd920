//! Transposition table (Childs, Brodeur & Kocsis 2008): Zobrist hash → shared node id.
//!
//! Update rule UCT1 of that paper: the statistics of a position live in its one shared node, so
//! every path that reaches the position sees every playout through it. A second path links the
//! node through an alias entry (see `tree.rs`). The positions of these games cannot repeat (every
//! move adds a stone), so the graph is acyclic. Keys are the games' 64-bit Zobrist hashes
//! (which include the side to move); a collision would merge two positions (probability about
//! n²/2⁶⁵ for n nodes).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The keys are already uniformly random: use them as their own hash.
#[derive(Default, Clone, Copy)]
pub struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ b as u64;
        }
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = i;
    }
}

/// Zobrist hash → node id.
pub type TransTable = HashMap<u64, u32, BuildHasherDefault<IdentityHasher>>;

/// Approximate bytes held by a table (buckets × (key + value + control byte)).
pub fn table_bytes(t: &TransTable) -> usize {
    t.capacity() * (std::mem::size_of::<u64>() + std::mem::size_of::<u32>() + 4 + 1)
}
