//! The tree's arenas, below the tree and its AMAF tables (both use these): the "no index" marker
//! and the growth step of every arena vector.

/// "No node / no edge / no run" marker.
pub const NIL: u32 = u32::MAX;

/// Grows a vector by 25 % steps (bounded slack) before a push of `more` entries: by a quarter
/// of its length, at least 1,024 entries and at least `more`. Every arena of the tree grows
/// this way, which is what the memory cap's bound assumes (`Search::memory_bound`).
#[inline]
pub(crate) fn reserve_step<T>(v: &mut Vec<T>, more: usize) {
    if v.len() + more > v.capacity() {
        let extra = (v.len() / 4).max(1024).max(more);
        v.reserve_exact(extra);
    }
}
