//! An exact Hex solver by depth-first proof-number search (df-pn: Nagai 2002, "Df-pn algorithm
//! for searching AND/OR trees and its applications", PhD thesis, University of Tokyo), as
//! benzene's DFPN solver runs it (Arneson, Hayward & Henderson 2010, "Solving Hex: beyond
//! humans", Computers and Games; `src/solver/DfpnSolver.cpp` of benzene): negamax bounds, the
//! widening of the child set, the 1+ε threshold (Pawlewicz & Lew 2007, "Improving depth-first
//! PN-search: 1+ε trick", Computers and Games), a bounded transposition table ([`super::tt`])
//! that also keeps each node's ordered child list, and Hex knowledge at every new node.
//!
//! # Bounds (negamax form)
//! Each node's proof number φ and disproof number δ are for its own side to move. With children
//! c₁…c_L in move order and k = the widening index (below):
//! - φ(n) = min over c₁…c_k of δ(cᵢ) — the mover wins once one child is proven a loss for the
//!   opponent; 0 as soon as some child has δ = 0;
//! - δ(n) = Σ over all children of φ(cᵢ) — the mover loses once every child is a win for the
//!   opponent (saturating below [`INFTY`]).
//!
//! A node is searched with thresholds (Tφ, Tδ) until φ ≥ Tφ or δ ≥ Tδ. The child with the
//! smallest δ (δ₁; the second smallest δ₂) is searched with
//! Tδ(c) = min(Tφ, max(δ₂ + 1, ⌊δ₂ (1 + ε)⌋)) and Tφ(c) = Tδ − δ(n) + φ(c), except that the child
//! searched last keeps its turn while its δ stays below min(Tφ, max(δ₁ + 1, ⌊δ₁ (1 + ε)⌋))
//! (benzene's `SelectChild`). The root is searched with thresholds (∞, ∞), so it returns only
//! when solved or stopped.
//!
//! Widening (benzene's `ComputeMaxChildIndex`): with L children not yet proven wins for the
//! opponent, only the first k such that k of them are among c₁…c_k count, k = `widening_base` +
//! ⌈L · `widening_factor`⌉ (all when L < 2), so the move order steers the whole search.
//!
//! # Knowledge at a new node ([`Dfpn::expand`], as benzene's `CreateData`)
//! - the mover has a cell that joins its edges: a win;
//! - the opponent has two or more such cells: a loss (one stone blocks one of them); exactly one:
//!   it is the only move (every other move loses to it);
//! - fill-in ([`crate::game::hex::ice`], Henderson 2010): dead and captured cells are filled on a copy of
//!   the board, which has the same value; a connection on it decides the node;
//! - virtual connections ([`super::vc`], H-search: Anshelevich 2002): an edge-to-edge full
//!   connection of the opponent is a loss, an edge-to-edge semi- or full connection of the mover
//!   a win (the semi's key is the winning move); otherwise the children are the empty cells of
//!   the filled board inside every carrier of the opponent's edge-to-edge semi-connections (the
//!   must-play region: a move outside one lets the opponent play that semi's key and connect;
//!   Hayward et al. 2003, "Solving 7×7 Hex: virtual connections and game-state reduction"),
//!   ordered by circuit resistance ([`super::resist`]).
//!
//! The table is keyed by the real position; the fill-in only changes the board the knowledge is
//! computed on, and children are always moves on the real board.
//!
//! # Correctness
//! A run that is stopped (work or time) reports nothing: the value of a position is only ever
//! read from a proven entry (φ = 0 or δ = 0). A transposition (the same stones reached by other
//! move orders) shares one entry; Hex positions never repeat along a line (stones only accrue),
//! so the graph has no cycles and df-pn's graph-history interaction cannot arise. Proof numbers
//! in a DAG over-count shared subtrees, which only changes the order of the search.

use super::tt::{Bounds, Entry, Table, INFTY, MAX_STORED_CHILDREN};
use super::SolveError;
use crate::game::hex::position::{Pos, MAX_N};
use crate::game::hex::Hex;
use crate::game::{Game, Outcome, Player};
use crate::solve::table::TableMemoryError;

/// The solver's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DfpnConfig {
    /// log2 of the most entries (64 bytes each) the transposition table may grow to: 22 =
    /// 256 MiB (the default natively), 20 = 64 MiB. Clamped to 10..=30. The table starts at
    /// 1,024 entries and doubles only when a bucket is full ([`crate::solve::table`]).
    pub tt_log2: u32,
    /// ε of the 1+ε trick; benzene's default is 0 (plain df-pn thresholds, δ + 1).
    pub epsilon: f32,
    /// The widening's base (benzene's `WideningBase`, default 1).
    pub widening_base: u32,
    /// The widening's factor (benzene's `WideningFactor`, default 0.25).
    pub widening_factor: f32,
    /// Virtual connections ([`super::vc`]) at every new node: edge-to-edge connections decide
    /// it, the opponent's semi-connections restrict the mover to the must-play region.
    pub vc: bool,
    /// Inferior-cell fill-in ([`crate::game::hex::ice`]: dead and captured cells) at every new node, before
    /// the virtual connections; filled cells are not searched.
    pub fillin: bool,
}

impl Default for DfpnConfig {
    /// A 256 MiB table; ε = 0, widening 1 + ⌈0.25 L⌉ as benzene's defaults
    /// (`DfpnSolver::DfpnSolver`).
    fn default() -> Self {
        DfpnConfig { tt_log2: 22, epsilon: 0.0, widening_base: 1, widening_factor: 0.25, vc: true, fillin: true }
    }
}

/// Counters of a solver's work since it was created.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DfpnStats {
    /// Calls of the recursive search (MID).
    pub mid_calls: u64,
    /// Nodes created (knowledge computed for a position not in the table): the search's "work".
    pub expansions: u64,
    /// Created nodes that knowledge settled without children.
    pub terminal: u64,
    /// Virtual-connection builds (one per colour and node).
    pub vc_builds: u64,
    /// Transposition-table entries in use.
    pub tt_used: u64,
    /// Transposition-table entries overwritten by another position.
    pub tt_replaced: u64,
}

/// A proven result of [`Dfpn::solve`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DfpnSolved {
    /// The player who wins with perfect play.
    pub winner: Player,
    /// A winning move of the side to move (cell `row * size + col`) when it is the winner and the
    /// game is not over.
    pub winning_move: Option<u16>,
}

/// The proof-number solver: owns its transposition table, which it keeps between calls (a
/// second position reuses what the first proved).
pub struct Dfpn {
    cfg: DfpnConfig,
    /// The board side of the positions in the table (keys are stone sets, which mean different
    /// positions on different sides): a position of another side empties the table first.
    side: u8,
    tt: Table,
    stats: DfpnStats,
    /// Set when the caller's `stop` said so: every MID call returns at once.
    stopped: bool,
    /// The virtual-connection builder (its buffers reused from node to node).
    vcs: super::vc::VcBuilder,
    /// Scratch for the full connections of one build (the resistance order's circuit).
    links: Vec<(u8, u8, u8)>,
}

/// Children of a node, in search order.
#[derive(Clone, Copy)]
struct Moves {
    len: usize,
    cells: [u8; MAX_N * MAX_N],
}

/// What knowledge says about a new node.
enum Expansion {
    /// The mover wins; the winning cell when known.
    Win(Option<u8>),
    /// The mover loses.
    Loss,
    /// Search these moves.
    Moves(Moves),
}

/// How often (in MID calls) the `stop` callback is asked.
const STOP_EVERY: u64 = 256;

impl Dfpn {
    /// A solver with an empty table (of 1,024 entries, growing up to `2^cfg.tt_log2`).
    ///
    /// # Errors
    /// The system refused the table's first entries.
    pub fn new(cfg: DfpnConfig) -> Result<Dfpn, TableMemoryError> {
        Ok(Dfpn {
            tt: Table::new(cfg.tt_log2.clamp(10, 30))?,
            cfg,
            side: 0,
            stats: DfpnStats::default(),
            stopped: false,
            vcs: super::vc::VcBuilder::new(),
            links: Vec::with_capacity(2048),
        })
    }

    /// The settings.
    pub fn config(&self) -> &DfpnConfig {
        &self.cfg
    }

    /// Work counters since the solver was created.
    pub fn stats(&self) -> DfpnStats {
        DfpnStats { tt_used: self.tt.used as u64, tt_replaced: self.tt.replaced, ..self.stats }
    }

    /// Bytes of the transposition table as it stands (it only grows).
    pub fn tt_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// The most bytes the transposition table may grow to.
    pub fn tt_max_bytes(&self) -> usize {
        self.tt.max_bytes()
    }

    /// The table's doubling the system refused, if one was: the solver went on with the table it
    /// had (its results are exact; the search may have been slower).
    pub fn tt_refused(&self) -> Option<TableMemoryError> {
        self.tt.refused
    }

    /// Solves `g`: who wins with perfect play and, when it is the side to move, a winning move.
    /// `stop` is asked every few hundred MID calls (with the counters so far); when it returns
    /// true the search returns `Ok(None)` ("unknown"), and a later call resumes from the table.
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] above 8×8, [`SolveError::Swap`] with the swap rule.
    pub fn solve(&mut self, g: &Hex, stop: &mut dyn FnMut(&DfpnStats) -> bool) -> Result<Option<DfpnSolved>, SolveError> {
        let n = g.size();
        if n > MAX_N {
            return Err(SolveError::TooLarge(n));
        }
        if g.swap_enabled() {
            return Err(SolveError::Swap);
        }
        if let Some(Outcome::Win(p)) = g.outcome() {
            return Ok(Some(DfpnSolved { winner: p, winning_move: None }));
        }
        let root = Pos::from_hex(g);
        let me = root.to_move as Player;
        let Some(wins) = self.solve_pos(root, stop) else { return Ok(None) };
        if !wins {
            return Ok(Some(DfpnSolved { winner: 1 - me, winning_move: None }));
        }
        let Some(m) = self.winning_move(root, stop) else { return Ok(None) };
        Ok(Some(DfpnSolved { winner: me, winning_move: Some(m as u16) }))
    }

    /// Whether the side to move wins `g` with perfect play, without looking for a winning move
    /// (which [`Dfpn::solve`] adds, and which may cost more than the value: a win the knowledge
    /// settles by a connection of the filled board names no cell). `Ok(None)`: `stop` ended the
    /// search first; a later call resumes from the table.
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] above 8×8, [`SolveError::Swap`] with the swap rule.
    pub fn solve_value(&mut self, g: &Hex, stop: &mut dyn FnMut(&DfpnStats) -> bool) -> Result<Option<bool>, SolveError> {
        if g.size() > MAX_N {
            return Err(SolveError::TooLarge(g.size()));
        }
        if g.swap_enabled() {
            return Err(SolveError::Swap);
        }
        if let Some(Outcome::Win(p)) = g.outcome() {
            return Ok(Some(p == g.to_move()));
        }
        Ok(self.solve_pos(Pos::from_hex(g), stop))
    }

    /// Whether the side to move wins `g`, when the table already proves it (no search; `None`
    /// when unproven, or `g` of another board size than the table's positions).
    pub fn proven(&self, g: &Hex) -> Option<bool> {
        if g.size() > MAX_N || g.size() as u8 != self.side {
            return None;
        }
        let b = self.tt.bounds(&Pos::from_hex(g));
        b.is_solved().then(|| b.is_win())
    }

    /// The empty cells (bit `row * size + col`) that the node's knowledge alone proves losing
    /// moves for the side to move of `g` (not over): every other cell when the opponent has
    /// exactly one cell that joins its edges; every cell when it has two, or an edge-to-edge
    /// connection (of the fill-in board, or a full virtual connection); otherwise the empty cells
    /// of the fill-in board outside the must-play region (the intersection of the carriers of
    /// the opponent's edge-to-edge semi-connections: after a move outside one, the opponent
    /// plays its key and connects; Hayward et al. 2003). The same knowledge [`Dfpn::solve`]
    /// prunes its children with ([`Dfpn::expand`]); a cell the fill-in filled is never in the
    /// set (playing there is not proven losing). 0 when the mover has a winning cell or a
    /// connection of the fill-in board, or the board is above 8×8.
    pub fn losing_moves(&mut self, g: &Hex) -> u64 {
        if g.size() > MAX_N || g.outcome().is_some() {
            return 0;
        }
        let pos = Pos::from_hex(g);
        let me = pos.to_move as usize;
        let empty = pos.empty();
        if pos.winning_cells(me) != 0 {
            return 0;
        }
        let threats = pos.winning_cells(me ^ 1);
        match threats.count_ones() {
            0 => {}
            1 => return empty & !threats,
            _ => return empty,
        }
        let kb = if self.cfg.fillin { crate::game::hex::ice::fillin(&pos).apply(&pos) } else { pos };
        if kb.connected(me) {
            return 0;
        }
        if kb.connected(me ^ 1) {
            return empty;
        }
        if !self.cfg.vc {
            return 0;
        }
        let theirs = self.vcs.build(&kb, me ^ 1);
        if theirs.full.is_some() {
            return empty;
        }
        kb.empty() & !theirs.semi_intersection
    }

    /// Whether the side to move wins `root` (not over), or `None` when `stop` ended the search.
    fn solve_pos(&mut self, root: Pos, stop: &mut dyn FnMut(&DfpnStats) -> bool) -> Option<bool> {
        if root.n != self.side {
            // (A new table is empty already: clearing 256 MiB costs more than a small solve.)
            if self.tt.used > 0 {
                self.tt.clear();
            }
            self.side = root.n;
        }
        self.stopped = false;
        let b = self.mid(root, Bounds { phi: INFTY, delta: INFTY }, stop);
        if b.is_solved() {
            Some(b.is_win())
        } else {
            None
        }
    }

    /// A winning move of `root`, a proven win for its side to move: the stored winning child, or
    /// else a child the table already proves a loss for the opponent, or else the first child,
    /// in the search's order, that a further solve proves so.
    fn winning_move(&mut self, root: Pos, stop: &mut dyn FnMut(&DfpnStats) -> bool) -> Option<u8> {
        let me = root.to_move as usize;
        let mut best = usize::MAX;
        let moves = match self.tt.get(&root) {
            Some(e) if e.bounds.is_win() && e.len == 0 && e.best != u8::MAX => return Some(e.best),
            Some(e) if e.len > 0 => {
                best = e.best as usize;
                match self.children_of(&root, &e) {
                    Ok(m) => m,
                    Err(_) => return self.tt.get(&root).and_then(|e| (e.best != u8::MAX).then_some(e.best)),
                }
            }
            _ => match self.expand(&root) {
                Expansion::Moves(m) => m,
                Expansion::Win(Some(m)) => return Some(m),
                _ => {
                    let mut m = Moves { len: 0, cells: [0; MAX_N * MAX_N] };
                    order(&[0.0; MAX_N * MAX_N], root.empty(), &mut m);
                    m
                }
            },
        };
        let list = &moves.cells[..moves.len];
        // The recorded winning child first, then any child the table proves lost.
        let proven = |s: &Self, m: u8| {
            let child = root.play(m as usize);
            child.connected(me) || s.tt.bounds(&child).is_loss()
        };
        if best < list.len() && proven(self, list[best]) {
            return Some(list[best]);
        }
        if let Some(&m) = list.iter().find(|&&m| proven(self, m)) {
            return Some(m);
        }
        for &m in list {
            if !self.solve_pos(root.play(m as usize), stop)? {
                return Some(m);
            }
        }
        None
    }

    /// Knowledge for a position not in the table.
    fn expand(&mut self, pos: &Pos) -> Expansion {
        let me = pos.to_move as usize;
        let win = pos.winning_cells(me);
        if win != 0 {
            return Expansion::Win(Some(win.trailing_zeros() as u8));
        }
        let threats = pos.winning_cells(me ^ 1);
        let mut moves = Moves { len: 0, cells: [0; MAX_N * MAX_N] };
        match threats.count_ones() {
            0 => {}
            1 => {
                moves.cells[0] = threats.trailing_zeros() as u8;
                moves.len = 1;
                return Expansion::Moves(moves);
            }
            _ => return Expansion::Loss,
        }
        // The board the knowledge sees: the real stones plus the fill-in (which keeps the value
        // for either side to move, so a connection on it decides the real position).
        let kb = if self.cfg.fillin { crate::game::hex::ice::fillin(pos).apply(pos) } else { *pos };
        if kb.connected(me) {
            return Expansion::Win(None);
        }
        if kb.connected(me ^ 1) {
            return Expansion::Loss;
        }
        let mut consider = kb.empty();
        let score = if self.cfg.vc {
            self.stats.vc_builds += 2;
            let theirs = self.vcs.build(&kb, me ^ 1);
            if theirs.full.is_some() {
                return Expansion::Loss;
            }
            // Moves outside one of the opponent's semi-connection carriers lose to its key.
            consider &= theirs.semi_intersection;
            // The resistance on the circuits of each colour's full connections (benzene's order).
            let mut score = [0.0; MAX_N * MAX_N];
            self.vcs.full_links(&mut self.links);
            super::resist::energy_with(&kb, me ^ 1, Some(&self.links), &mut score);
            let mine = self.vcs.build(&kb, me);
            if let Some((_, key)) = mine.semi {
                return Expansion::Win(Some(key));
            }
            if mine.full.is_some() {
                return Expansion::Win(None);
            }
            self.vcs.full_links(&mut self.links);
            super::resist::energy_with(&kb, me, Some(&self.links), &mut score);
            score
        } else {
            super::resist::scores(&kb)
        };
        order(&score, consider, &mut moves);
        if moves.len == 0 {
            return Expansion::Loss;
        }
        Expansion::Moves(moves)
    }

    /// The children of a stored node, from its entry or (when the list did not fit) expanded
    /// again. `Err(bounds)`: expanding again settled the node. Knowledge is sound but not
    /// symmetric: the entry may have been made for the position's 180° rotation (the table keys
    /// both alike), where H-search, whose result depends on the order it meets the cells in,
    /// found less.
    fn children_of(&mut self, pos: &Pos, e: &Entry) -> Result<Moves, Bounds> {
        if (e.len as usize) <= MAX_STORED_CHILDREN {
            let mut m = Moves { len: e.len as usize, cells: [0; MAX_N * MAX_N] };
            m.cells[..m.len].copy_from_slice(&e.children[..m.len]);
            return Ok(m);
        }
        match self.expand(pos) {
            Expansion::Moves(m) => Ok(m),
            Expansion::Win(m) => {
                let mut won = *e;
                won.bounds = Bounds::WIN;
                won.len = 0;
                won.best = m.unwrap_or(u8::MAX);
                self.tt.put(pos, won);
                Err(won.bounds)
            }
            Expansion::Loss => {
                let mut lost = *e;
                lost.bounds = Bounds::LOSS;
                lost.len = 0;
                lost.best = u8::MAX;
                self.tt.put(pos, lost);
                Err(lost.bounds)
            }
        }
    }

    /// The recursive search of one node with thresholds `th` (Nagai's MID, benzene's
    /// `DfpnSolver::MID`); returns the node's bounds.
    fn mid(&mut self, pos: Pos, th: Bounds, stop: &mut dyn FnMut(&DfpnStats) -> bool) -> Bounds {
        self.stats.mid_calls += 1;
        if self.stats.mid_calls.is_multiple_of(STOP_EVERY) && !self.stopped {
            let s = self.stats();
            self.stopped = stop(&s);
        }
        let work0 = self.stats.expansions;
        let (mut entry, moves) = match self.tt.get(&pos) {
            Some(e) => {
                if e.bounds.is_solved() || e.len == 0 {
                    return e.bounds;
                }
                match self.children_of(&pos, &e) {
                    Ok(m) => (e, m),
                    Err(settled) => return settled,
                }
            }
            None => {
                self.stats.expansions += 1;
                let mut e = Entry {
                    stones: pos.stones,
                    bounds: Bounds::UNKNOWN,
                    work: 1,
                    best: u8::MAX,
                    len: 0,
                    children: [0; MAX_STORED_CHILDREN],
                };
                match self.expand(&pos) {
                    Expansion::Win(m) => {
                        self.stats.terminal += 1;
                        e.bounds = Bounds::WIN;
                        e.best = m.unwrap_or(u8::MAX);
                        self.tt.put(&pos, e);
                        return e.bounds;
                    }
                    Expansion::Loss => {
                        self.stats.terminal += 1;
                        e.bounds = Bounds::LOSS;
                        self.tt.put(&pos, e);
                        return e.bounds;
                    }
                    Expansion::Moves(m) => {
                        if m.len <= MAX_STORED_CHILDREN {
                            e.len = m.len as u8;
                            e.children[..m.len].copy_from_slice(&m.cells[..m.len]);
                        } else {
                            e.len = u8::MAX;
                        }
                        (e, m)
                    }
                }
            }
        };
        let work_before = entry.work;
        let len = moves.len;
        let mut cb = [Bounds::UNKNOWN; MAX_N * MAX_N];
        for (b, &m) in cb.iter_mut().zip(&moves.cells[..len]) {
            *b = self.tt.bounds(&pos.play(m as usize));
        }
        let mut best = if (entry.best as usize) < len { entry.best as usize } else { usize::MAX };
        loop {
            let k = self.widening(&cb[..len]);
            let (bounds, winner) = update_bounds(&cb[..len], k);
            if let Some(w) = winner {
                best = w;
            }
            entry.bounds = bounds;
            entry.best = if best < len { best as u8 } else { u8::MAX };
            entry.work = work_before.saturating_add((self.stats.expansions - work0).min(u32::MAX as u64) as u32);
            self.tt.put(&pos, entry);
            if bounds.phi >= th.phi || bounds.delta >= th.delta || self.stopped {
                return bounds;
            }
            let (i, cth) = self.select_child(&cb[..len], k, best, bounds, th);
            best = i;
            cb[i] = self.mid(pos.play(moves.cells[i] as usize), cth, stop);
        }
    }

    /// The widening index k: the shortest prefix of the children that holds
    /// `widening_base + ⌈L · widening_factor⌉` of the L children not proven wins for the
    /// opponent (all children when L < 2).
    fn widening(&self, cb: &[Bounds]) -> usize {
        let live = cb.iter().filter(|b| !b.is_win()).count();
        if live < 2 {
            return cb.len();
        }
        let look = self.cfg.widening_base as usize + (live as f32 * self.cfg.widening_factor).ceil() as usize;
        let look = look.max(2);
        let mut seen = 0;
        for (i, b) in cb.iter().enumerate() {
            if !b.is_win() {
                seen += 1;
                if seen == look {
                    return i + 1;
                }
            }
        }
        cb.len()
    }

    /// The 1+ε bound on a child's δ: max(d + 1, ⌊d (1 + ε)⌋).
    fn delta_bound(&self, d: u32) -> u32 {
        let scaled = (d as f64 * (1.0 + self.cfg.epsilon as f64)) as u64;
        (d as u64 + 1).max(scaled).min(INFTY as u64) as u32
    }

    /// The child to search and its thresholds (benzene's `SelectChild`).
    fn select_child(&self, cb: &[Bounds], k: usize, prev: usize, node: Bounds, th: Bounds) -> (usize, Bounds) {
        let (mut d1, mut d2, mut cand) = (INFTY, INFTY, 0);
        for (i, b) in cb[..k].iter().enumerate() {
            if b.delta < d1 {
                d2 = d1;
                d1 = b.delta;
                cand = i;
            } else if b.delta < d2 {
                d2 = b.delta;
            }
        }
        let mut best = prev;
        let mut tdelta = th.phi.min(self.delta_bound(d1));
        if cand == prev || prev >= k || cb[prev].delta >= tdelta {
            best = cand;
            tdelta = th.phi.min(self.delta_bound(d2));
        }
        let c = cb[best];
        // Tφ(c) = Tδ − (δ(n) − φ(c)); δ(n) ≥ φ(c) and δ(n) < Tδ here.
        let tphi = th.delta - (node.delta - c.phi);
        (best, Bounds { phi: tphi, delta: tdelta })
    }
}

/// Where a [`SolveSession`] stands.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveProgress {
    /// Whether the side to move at the root wins, once proven.
    pub root_wins: Option<bool>,
    /// A winning move of the root's side to move, once proven.
    pub winning_move: Option<u16>,
    /// Every legal move of the root (cell `row * size + col`) with whether the side to move wins
    /// after playing it, once proven (`None`: not yet).
    pub moves: Vec<(u16, Option<bool>)>,
    /// The solver's counters.
    pub stats: DfpnStats,
    /// Whether everything is proven (the root and every move).
    pub done: bool,
}

/// A resumable solve of one position and of each of its moves, for a caller that runs it in
/// slices (the page's worker between messages): the root first, then every legal move in turn
/// (the child positions, sharing the table, as benzene's `dfpn-solver-find-winning`). Each
/// [`SolveSession::run`] call continues where the last stopped.
pub struct SolveSession {
    dfpn: Dfpn,
    root: Pos,
    game_over: Option<Player>,
    root_wins: Option<bool>,
    winning_move: Option<u16>,
    moves: Vec<(u16, Option<bool>)>,
    next: usize,
}

impl SolveSession {
    /// A session for `g` with a new solver of settings `cfg`.
    ///
    /// # Errors
    /// [`SolveError::TooLarge`] above 8×8, [`SolveError::Swap`] with the swap rule,
    /// [`SolveError::Memory`] when the system refused the table's first entries.
    pub fn new(g: &Hex, cfg: DfpnConfig) -> Result<SolveSession, SolveError> {
        if g.size() > MAX_N {
            return Err(SolveError::TooLarge(g.size()));
        }
        if g.swap_enabled() {
            return Err(SolveError::Swap);
        }
        let root = Pos::from_hex(g);
        let game_over = match g.outcome() {
            Some(Outcome::Win(p)) => Some(p),
            _ => None,
        };
        let moves = if game_over.is_some() {
            Vec::new()
        } else {
            let mut e = root.empty();
            let mut v = Vec::new();
            while e != 0 {
                v.push((e.trailing_zeros() as u16, None));
                e &= e - 1;
            }
            v
        };
        let root_wins = game_over.map(|p| p == root.to_move as Player);
        Ok(SolveSession { dfpn: Dfpn::new(cfg)?, root, game_over, root_wins, winning_move: None, moves, next: 0 })
    }

    /// Runs until everything is proven (returns true) or `stop` says stop (false).
    pub fn run(&mut self, stop: &mut dyn FnMut(&DfpnStats) -> bool) -> bool {
        if self.game_over.is_some() {
            return true;
        }
        let me = self.root.to_move as usize;
        if self.root_wins.is_none() {
            let Some(w) = self.dfpn.solve_pos(self.root, stop) else { return false };
            self.root_wins = Some(w);
            if w {
                let Some(m) = self.dfpn.winning_move(self.root, stop) else {
                    self.root_wins = None;
                    return false;
                };
                self.winning_move = Some(m as u16);
            }
        }
        while self.next < self.moves.len() {
            let (m, _) = self.moves[self.next];
            let child = self.root.play(m as usize);
            let wins = if child.connected(me) {
                true
            } else {
                match self.dfpn.solve_pos(child, stop) {
                    Some(opponent_wins) => !opponent_wins,
                    None => return false,
                }
            };
            self.moves[self.next].1 = Some(wins);
            self.next += 1;
        }
        true
    }

    /// The results so far.
    pub fn progress(&self) -> SolveProgress {
        SolveProgress {
            root_wins: self.root_wins,
            winning_move: self.winning_move,
            moves: self.moves.clone(),
            stats: self.dfpn.stats(),
            done: self.root_wins.is_some() && self.next == self.moves.len(),
        }
    }

    /// Bytes of the solver's table as it stands (it grows up to `2^tt_log2` entries).
    pub fn tt_bytes(&self) -> usize {
        self.dfpn.tt_bytes()
    }

    /// The table's doubling the system refused, if one was ([`Dfpn::tt_refused`]).
    pub fn tt_refused(&self) -> Option<TableMemoryError> {
        self.dfpn.tt_refused()
    }
}

/// The node's bounds from its children's (the first `k` feeding φ), and the index of a child
/// proven lost (a winning move), if any.
fn update_bounds(cb: &[Bounds], k: usize) -> (Bounds, Option<usize>) {
    let mut phi = INFTY;
    let mut delta: u64 = 0;
    for (i, b) in cb.iter().enumerate() {
        if b.is_loss() {
            return (Bounds::WIN, Some(i));
        }
        if i < k {
            phi = phi.min(b.delta);
        }
        delta += b.phi as u64;
    }
    if phi == INFTY {
        return (Bounds::LOSS, None);
    }
    (Bounds { phi, delta: delta.min(INFTY as u64 - 1) as u32 }, None)
}

/// Orders the cells of `cells` into `out` by decreasing circuit-resistance score (`score`, of
/// [`super::resist`], as benzene's DFPN orders its children), ties by cell index.
fn order(score: &[f64; MAX_N * MAX_N], cells: u64, out: &mut Moves) {
    let mut len = 0;
    let mut c = cells;
    while c != 0 {
        out.cells[len] = c.trailing_zeros() as u8;
        c &= c - 1;
        len += 1;
    }
    out.cells[..len].sort_by(|&a, &b| score[b as usize].total_cmp(&score[a as usize]).then(a.cmp(&b)));
    out.len = len;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng64;
    use crate::solve::hex::negamax::{solve, SolveLimits};

    fn dfpn_wins(s: &mut Dfpn, g: &Hex) -> bool {
        let r = s.solve(g, &mut |_| false).unwrap().unwrap();
        if r.winner == g.to_move() {
            let m = r.winning_move.expect("a winning move");
            let mut c = g.clone();
            c.play_unchecked(m);
            assert!(c.outcome().is_some() || solve(&c, SolveLimits::default()).unwrap().winner != c.to_move(), "{g:?}: {m} does not win");
        }
        r.winner == g.to_move()
    }

    fn random_position(n: usize, plies: usize, rng: &mut Rng64) -> Option<Hex> {
        let mut g = Hex::new(n, false).unwrap();
        for _ in 0..plies {
            let mut moves = crate::game::MoveList::new();
            g.legal_moves(&mut moves);
            g.play_unchecked(moves[rng.index(moves.len())]);
            if g.outcome().is_some() {
                return None;
            }
        }
        Some(g)
    }

    /// A stored node whose children did not fit in its entry is expanded again on its next
    /// visit; when that expansion settles it (the entry came from the position's rotation, where
    /// H-search found less), the node takes the settled value instead of failing.
    #[test]
    fn a_node_settled_when_expanded_again_takes_that_value() {
        let mut d = Dfpn::new(DfpnConfig { tt_log2: 10, ..DfpnConfig::default() }).unwrap();
        d.side = 5;
        // Black's c3 on 5×5: White to move has lost (Black is connected by templates).
        let pos = Pos::empty_board(5).play(12);
        assert!(matches!(d.expand(&pos), Expansion::Loss));
        let e =
            Entry { stones: pos.stones, bounds: Bounds::UNKNOWN, work: 5, best: u8::MAX, len: u8::MAX, children: [0; MAX_STORED_CHILDREN] };
        d.tt.put(&pos, e);
        let b = d.mid(pos, Bounds { phi: INFTY, delta: INFTY }, &mut |_| false);
        assert!(b.is_loss());
        assert!(d.tt.bounds(&pos).is_loss());
        assert!(d.tt.bounds(&pos.rotated()).is_loss());
    }

    #[test]
    fn agrees_with_the_negamax_on_random_positions() {
        let mut rng = Rng64::new(7);
        for (n, lo, hi, count) in [(3, 0, 6, 40), (4, 0, 10, 80), (5, 6, 16, 60), (6, 18, 26, 12)] {
            // Every knowledge setting (none, fill-in, VCs, both), each with its own table.
            let mut solvers: Vec<Dfpn> = [(false, false), (true, false), (false, true), (true, true)]
                .iter()
                .map(|&(fillin, vc)| Dfpn::new(DfpnConfig { tt_log2: 16, fillin, vc, ..DfpnConfig::default() }).unwrap())
                .collect();
            let mut done = 0;
            while done < count {
                let plies = lo + rng.index(hi - lo);
                let Some(g) = random_position(n, plies, &mut rng) else { continue };
                let want = solve(&g, SolveLimits::default()).unwrap().winner == g.to_move();
                for s in &mut solvers {
                    let c = *s.config();
                    assert_eq!(dfpn_wins(s, &g), want, "fill-in {} vc {}: {g:?}", c.fillin, c.vc);
                }
                done += 1;
            }
        }
    }

    #[test]
    fn four_by_four_openings_and_the_empty_board() {
        let mut s = Dfpn::new(DfpnConfig { tt_log2: 16, ..DfpnConfig::default() }).unwrap();
        let g = Hex::new(4, false).unwrap();
        assert!(dfpn_wins(&mut s, &g));
        let wins: Vec<u16> = (0..16)
            .filter(|&c| {
                let mut h = g.clone();
                h.play_unchecked(c);
                !dfpn_wins(&mut s, &h)
            })
            .collect();
        assert_eq!(wins, vec![3, 6, 9, 12]);
    }

    #[test]
    fn a_stopped_search_says_unknown_and_resumes() {
        let mut g = Hex::new(5, false).unwrap();
        g.play_unchecked(12);
        // Without knowledge, so that the first 1,000 MID calls do not settle it.
        let mut s = Dfpn::new(DfpnConfig { tt_log2: 18, vc: false, fillin: false, ..DfpnConfig::default() }).unwrap();
        assert_eq!(s.solve(&g, &mut |st| st.mid_calls > 1000).unwrap(), None);
        let r = s.solve(&g, &mut |_| false).unwrap().unwrap();
        assert_eq!(r.winner, 0);
        // A session in slices: the root, then every move, each slice resuming the last.
        let mut h = Hex::new(4, false).unwrap();
        h.play_unchecked(5);
        let mut session = SolveSession::new(&h, DfpnConfig { tt_log2: 14, ..DfpnConfig::default() }).unwrap();
        let mut slices = 0;
        while !session.run(&mut |st| st.mid_calls % 512 == 0) {
            slices += 1;
            assert!(slices < 100_000);
        }
        let p = session.progress();
        assert!(p.done && p.root_wins == Some(true));
        for &(m, wins) in &p.moves {
            let mut c = h.clone();
            c.play_unchecked(m);
            let want = c.outcome().is_some() || solve(&c, SolveLimits::default()).unwrap().winner != c.to_move();
            assert_eq!(wins, Some(want), "move {m}");
        }
        assert!(p.moves.iter().any(|&(m, w)| w == Some(true) && Some(m) == p.winning_move));
        assert_eq!(s.solve(&Hex::new(9, false).unwrap(), &mut |_| false), Err(SolveError::TooLarge(9)));
        assert_eq!(s.solve(&Hex::new(4, true).unwrap(), &mut |_| false), Err(SolveError::Swap));
    }

    /// The winning move of a root with more children than an entry lists is read from the
    /// search that proved it: no child is solved again (on the old code each child was solved in
    /// cell order until one lost, which cost 100 times the proof on 7×7 corner openings).
    #[test]
    fn a_wide_roots_winning_move_comes_from_its_proof() {
        // Hex 6×6 after a1: White to move with 35 replies (more than an entry lists) and wins.
        let mut g = Hex::new(6, false).unwrap();
        g.play_unchecked(g.parse_move("a1").unwrap());
        let root = Pos::from_hex(&g);
        assert!(root.empty().count_ones() as usize > MAX_STORED_CHILDREN);
        let mut s = Dfpn::new(DfpnConfig { tt_log2: 16, ..DfpnConfig::default() }).unwrap();
        assert_eq!(s.solve_pos(root, &mut |_| false), Some(true));
        let calls = s.stats().mid_calls;
        let m = s.winning_move(root, &mut |_| false).expect("a winning move");
        assert_eq!(s.stats().mid_calls, calls, "the winning move was searched again");
        let mut after = g.clone();
        after.play_unchecked(m as u16);
        // Checked by a fresh solver (the negamax reference is too slow on 6×6 with two stones).
        let mut fresh = Dfpn::new(DfpnConfig { tt_log2: 16, ..DfpnConfig::default() }).unwrap();
        assert_ne!(fresh.solve(&after, &mut |_| false).unwrap().unwrap().winner, after.to_move(), "{m} does not win");
    }

    /// A small board's solve keeps a small table whatever the budget: Hex 3×3 and each of its
    /// openings with room for 2^24 entries (1 GiB, which the table took up front before).
    #[test]
    fn a_small_board_gets_a_small_table() {
        let mut s = Dfpn::new(DfpnConfig { tt_log2: 24, ..DfpnConfig::default() }).unwrap();
        let g = Hex::new(3, false).unwrap();
        assert!(dfpn_wins(&mut s, &g));
        for cell in 0..9 {
            let mut c = g.clone();
            c.play_unchecked(cell);
            dfpn_wins(&mut s, &c);
        }
        assert_eq!(s.tt_max_bytes(), 1 << 30);
        assert!(s.tt_bytes() <= 64 << 10, "{} bytes for Hex 3x3", s.tt_bytes());
        assert_eq!(s.tt_refused(), None);
    }

    /// A table that grows gives the very search of one allocated whole: the same counters and
    /// winning moves, here with a largest size the solves overflow (so it reaches it and
    /// replaces entries from then on).
    #[test]
    fn a_growing_table_searches_as_the_whole_table() {
        // Without knowledge, so that the solves store thousands of nodes.
        let cfg = DfpnConfig { tt_log2: 11, vc: false, fillin: false, ..DfpnConfig::default() };
        let mut grown = Dfpn::new(cfg).unwrap();
        let mut whole = Dfpn::new(cfg).unwrap();
        whole.tt = Table::sized(11, 11).unwrap();
        let mut rng = Rng64::new(48);
        let mut done = 0;
        while done < 16 {
            let Some(g) = random_position(5, 3 + rng.index(6), &mut rng) else { continue };
            let a = grown.solve(&g, &mut |_| false).unwrap();
            let b = whole.solve(&g, &mut |_| false).unwrap();
            assert_eq!(a, b, "{g:?}");
            assert_eq!(grown.stats(), whole.stats(), "{g:?}");
            done += 1;
        }
        assert!(whole.stats().tt_replaced > 0, "the solves fill the table");
        assert_eq!(grown.tt_bytes(), whole.tt_bytes());
    }
}
