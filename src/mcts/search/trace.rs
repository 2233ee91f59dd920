//! Step-through: one MCTS iteration at a time, with its four phases recorded in an
//! [`IterationTrace`].
//!
//! [`Search::step_traced`] runs exactly the iteration [`Search::run`] would have run next (the
//! same code, the same random draws): it calls the search's own descent (selection, expansion,
//! playout), reads the path before the update, then runs the search's own backpropagation and
//! reads the path again. The selection scores are recomputed from the tree as the descent saw it
//! (no random numbers are drawn for that) by the functions the descent itself calls (`score.rs`:
//! `amaf_source`, `child_score`); the score of an expanded move is the one
//! the descent ranked it by (`expand_score`). Nothing of this runs in an untraced iteration: the
//! only cost there is three stores per iteration (`sel_len`, `expanded`, `expand_score`) and one
//! more boolean test per playout (`record_playouts`).
//!
//! # Recorded playouts
//! A configuration whose playout moves nothing reads (plain UCT: no AMAF, no playout policy, no
//! rollout-expand, no quality bonus) runs the game's outcome-only playout ([`NoTrace`]), which
//! never produces the moves (Hex deals a random split of the empty cells). Those moves cannot
//! be recovered afterwards, and drawing them by the recording path takes other random numbers.
//! So the trace does not pretend: a search in *record mode* ([`Search::set_record_playouts`])
//! uses the recording playout for every iteration, traced or not, and [`Search::step_traced`]
//! switches record mode on. Determinism therefore holds per mode: with one seed, traced steps
//! and `run` in record mode build the same tree; a plain-UCT search outside record mode draws
//! other playouts (same distribution). Configurations that record moves anyway (RAVE, GRAVE,
//! policies, ...) are unaffected by record mode.
//!
//! [`NoTrace`]: crate::game::NoTrace

use serde::{Deserialize, Serialize};

use super::Search;
use crate::game::{Game, Player};
use crate::mcts::tree::{Proven, NIL};

/// Why [`Search::step_traced`] did not run an iteration (`run` would not iterate either).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// The root position is terminal.
    #[error("the game is over at the root: there is nothing to search")]
    GameOver,
    /// MCTS-Solver proved the root.
    #[error("the root is proven: the search stops here")]
    RootProven,
    /// The node cap is reached and `stop_at_node_cap` is set.
    #[error("the node cap is reached")]
    NodeCap,
}

/// N, Q and proof status of one node (the view of the player who made the move into it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct NodeValues {
    /// Visit count N.
    pub n: u64,
    /// Mean value Q = W/N in [0, 1] (0.5 when N = 0).
    pub q: f64,
    /// Proven status (`"win"`, `"loss"`, `"draw"` or null in JSON).
    pub proven: Option<Proven>,
}

/// The selection score of one child at its parent, with the parts it was computed from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChildScore {
    /// The move into the child.
    #[serde(rename = "move")]
    pub mv: String,
    /// The child's visits n (as the selection saw them).
    pub n: u64,
    /// The child's mean value Q (the mover's view).
    pub q: f64,
    /// AMAF value of the move in the AMAF source table (RAVE/GRAVE), when it has data.
    pub amaf_q: Option<f64>,
    /// RAVE/GRAVE weight β used with `amaf_q`.
    pub beta: Option<f64>,
    /// Prior P (PUCT).
    pub prior: Option<f64>,
    /// The score; null when infinite (an untried move, or n = 0 under UCB1).
    pub score: Option<f64>,
    /// Whether the move was not yet in the tree (chosen for expansion).
    pub untried: bool,
}

/// How a node of the iteration's path was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    /// The root.
    Root,
    /// An existing child chosen by the selection rule.
    Selected,
    /// The node this iteration added to the tree.
    Expanded,
    /// A node added along the playout by rollout-expand.
    Rollout,
}

/// One node on the iteration's path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TraceNode {
    /// Plies below the root.
    pub depth: usize,
    /// The move into the node (null at the root).
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// Dense index of that move (cell `row*size+col` in Hex), null at the root.
    pub index: Option<usize>,
    /// The player who made the move into the node (at the root: the player who is not to move).
    #[cfg_attr(test, ts(type = "0 | 1"))]
    pub mover: Player,
    /// How the node was reached (`"root"`, `"selected"`, `"expanded"` or `"rollout"` in JSON).
    pub kind: NodeKind,
    /// Values before backpropagation.
    pub before: NodeValues,
    /// Values after backpropagation.
    pub after: NodeValues,
    /// The score this node had at its parent when it was chosen (null at the root and for
    /// rollout nodes).
    pub chosen: Option<ChildScore>,
    /// The best-scoring other child of the parent (null when there was none).
    pub rival: Option<ChildScore>,
}

/// The playout's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TraceOutcome {
    /// The winner (0 first player, 1 second), null for a draw.
    #[cfg_attr(test, ts(type = "0 | 1 | null"))]
    pub winner: Option<Player>,
    /// Reward of each player (1 win, ½ draw, 0 loss), before any quality-based bonus; with a
    /// network leaf value (`leaf = value | mix`) the value backed up instead.
    pub reward: [f64; 2],
}

/// One MCTS iteration, phase by phase. Shapes: `path` from the root down (selection, then the
/// expanded node, then rollout-expand nodes); `playout` the moves played from the leaf to the
/// end of the game in notation (`playout_indices` their dense indices); `outcome` the result
/// backed up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct IterationTrace {
    /// The number of this iteration (1 for the first of the search).
    pub iteration: u64,
    /// Game spec.
    pub game: String,
    /// The player to move at the root.
    #[cfg_attr(test, ts(type = "0 | 1"))]
    pub to_move: Player,
    /// The selection formula in force, in words and symbols.
    pub formula: String,
    /// The nodes of the path with N/Q before and after.
    pub path: Vec<TraceNode>,
    /// The move of the node this iteration expanded (null: none, e.g. a terminal leaf or the
    /// node cap).
    pub expanded: Option<String>,
    /// Whether the descent stopped at a terminal position (no playout then).
    pub terminal_leaf: bool,
    /// Playout moves in notation.
    pub playout: Vec<String>,
    /// Playout moves as dense indices.
    pub playout_indices: Vec<usize>,
    /// When the playout went on past the game's end to fill the board (`fill_playouts`, a
    /// uniformly random playout): how many of `playout`'s moves were played up to the end (the
    /// winning connection); `None` when the playout ends with the game.
    pub decided_at: Option<usize>,
    /// Whether AMAF credited the filled board (`fill_playouts` in a search with AMAF, on a game
    /// that fills): the cells left empty at the end were dealt (by the policy, or at random)
    /// when the playout did not list them.
    pub filled: bool,
    /// The outcome backed up.
    pub outcome: TraceOutcome,
    /// Tree nodes before the iteration.
    pub nodes_before: u64,
    /// Tree nodes after the iteration.
    pub nodes_after: u64,
    /// Root proven status after the iteration, the side to move's view.
    pub root_proven: Option<Proven>,
}

fn values<G: Game>(s: &Search<G>, id: u32) -> NodeValues {
    let n = &s.tree.nodes[id as usize];
    NodeValues { n: n.n as u64, q: n.q(), proven: n.proof().proven() }
}

impl<G: Game> Search<G> {
    /// Record mode: when on, every playout records its moves (the recording path of
    /// `random_playout`) even in configurations that do not need them. See the module docs:
    /// this changes the random draws of outcome-only configurations (plain UCT), so compare
    /// searches in the same mode.
    pub fn set_record_playouts(&mut self, on: bool) {
        self.record_playouts = on;
    }

    /// Whether record mode is on.
    pub fn record_playouts(&self) -> bool {
        self.record_playouts
    }

    /// The selection formula of the configuration, for display: the rules of `score.rs` in the
    /// formulas' own text ([`crate::mcts::selection::Formula`]), so the trace prints what the
    /// scores compute.
    pub fn selection_formula(&self) -> String {
        self.formula_text()
    }

    /// Runs exactly one iteration — the one [`Search::run`] would run next — and returns its
    /// phases. Switches record mode on (see the module docs).
    ///
    /// # Errors
    /// The root is terminal, or (solver) already proven, or the node cap is reached with
    /// `stop_at_node_cap`: `run` would not iterate either; the search is untouched.
    pub fn step_traced(&mut self) -> Result<IterationTrace, StepError> {
        if self.root.is_terminal() {
            return Err(StepError::GameOver);
        }
        if self.config.solver && self.tree.nodes[0].proof() != crate::mcts::tree::Proof::Unknown {
            return Err(StepError::RootProven);
        }
        if self.config.stop_at_node_cap && self.tree.len() >= self.config.node_cap as usize {
            return Err(StepError::NodeCap);
        }
        self.record_playouts = true;
        let nodes_before = self.tree.len() as u64;
        self.tree.tidy();
        let outcome = self.descend();
        let sel = if self.sel_len == usize::MAX { self.path.len() } else { self.sel_len };
        // Positions along the path (root first) and the nodes' values before the update.
        let mut positions = vec![self.root.clone()];
        for k in 0..self.path.len() - 1 {
            let mut h = positions[k].clone();
            h.play_unchecked(self.seq[k]);
            positions.push(h);
        }
        let before: Vec<NodeValues> = self.path.iter().map(|st| values(self, st.node)).collect();
        // Selection scores at each parent of the selection/expansion part of the path, by the
        // functions the descent called, with the AMAF source it chose (tables allocated on the
        // way are present and still empty, as they were then).
        let mut scores: Vec<(Option<ChildScore>, Option<ChildScore>)> = vec![(None, None)];
        let mut src = NIL;
        for d in 1..sel {
            let parent = self.path[d - 1].node;
            if self.tree.with_amaf {
                src = self.amaf_source(src, parent);
            }
            let is_new = d == sel - 1 && self.expanded;
            scores.push(self.parent_scores(parent, &positions[d - 1], src, self.path[d].edge, is_new));
        }
        while scores.len() < self.path.len() {
            scores.push((None, None));
        }
        let path_moves: Vec<(String, usize)> =
            (0..self.path.len() - 1).map(|k| (positions[k].format_move(self.seq[k]), positions[k].move_index(self.seq[k]))).collect();
        let expanded = if self.expanded { Some(path_moves[sel - 2].0.clone()) } else { None };
        let terminal_leaf = self.sel_len == usize::MAX;
        // The playout's moves, from the leaf's position.
        let mut playout = Vec::new();
        let mut playout_indices = Vec::new();
        let mut decided_at = None;
        if !terminal_leaf {
            let mut h = positions[sel - 1].clone();
            for &m in &self.seq[sel - 1..] {
                playout.push(h.format_move(m));
                playout_indices.push(h.move_index(m));
                // A filled board lists moves past the game's end: they are named, not played.
                if decided_at.is_none() {
                    h.play_unchecked(m);
                    if h.is_terminal() {
                        decided_at = Some(playout.len());
                    }
                }
            }
            if decided_at == Some(playout.len()) {
                decided_at = None;
            }
        }
        self.finish(outcome);
        let root_mover = self.root.to_move();
        let path = self
            .path
            .iter()
            .enumerate()
            .zip(before)
            .zip(scores)
            .map(|(((d, st), before), (chosen, rival))| TraceNode {
                depth: d,
                mv: (d > 0).then(|| path_moves[d - 1].0.clone()),
                index: (d > 0).then(|| path_moves[d - 1].1),
                // As in backpropagation: the player who moved into the node at depth d.
                mover: if d == 0 { 1 - root_mover } else { root_mover ^ ((d as u8 - 1) & 1) },
                kind: if d == 0 {
                    NodeKind::Root
                } else if d >= sel {
                    NodeKind::Rollout
                } else if d == sel - 1 && self.expanded {
                    NodeKind::Expanded
                } else {
                    NodeKind::Selected
                },
                before,
                after: values(self, st.node),
                chosen,
                rival,
            })
            .collect();
        Ok(IterationTrace {
            iteration: self.iterations,
            game: self.root.spec(),
            to_move: root_mover,
            formula: self.selection_formula(),
            path,
            expanded,
            terminal_leaf,
            playout,
            playout_indices,
            decided_at,
            filled: self.filled,
            outcome: TraceOutcome { winner: outcome.winner(), reward: self.last_reward },
            nodes_before,
            nodes_after: self.tree.len() as u64,
            root_proven: self.tree.nodes[0].proof().flip().proven(),
        })
    }

    /// The scores `choose` compared at `parent` (position `g`, AMAF source `src`): the chosen
    /// edge's and its best-scoring sibling's (proven siblings, never selectable under
    /// MCTS-Solver, are left out). `is_new`: `chosen` was added by this iteration's expansion;
    /// its score is the untried move's score `choose` ranked it by, and its rivals are the
    /// children that existed.
    fn parent_scores(&self, parent: u32, g: &G, src: u32, chosen: u32, is_new: bool) -> (Option<ChildScore>, Option<ChildScore>) {
        let sc = self.scorer(parent, g, src);
        let score_of = |e: u32| -> ChildScore {
            let s = self.child_score(&sc, e);
            let mv = g.move_from_index(self.tree.edges[e as usize].mv as usize).map(|m| g.format_move(m)).unwrap_or_default();
            ChildScore {
                mv,
                n: s.n as u64,
                q: s.q,
                amaf_q: s.amaf.map(|a| a.0),
                beta: s.amaf.map(|a| a.1),
                prior: s.prior,
                score: s.value.is_finite().then_some(s.value),
                untried: false,
            }
        };
        let mut chosen_score = score_of(chosen);
        if is_new {
            chosen_score.untried = true;
            chosen_score.score = self.expand_score.is_finite().then_some(self.expand_score);
        }
        let mut rival: Option<(f64, u32)> = None;
        for e in self.tree.children(parent) {
            if e == chosen {
                continue;
            }
            let v = self.child_score(&sc, e).value;
            if v == f64::NEG_INFINITY {
                continue;
            }
            if rival.is_none_or(|(r, _)| v > r) {
                rival = Some((v, e));
            }
        }
        (Some(chosen_score), rival.map(|(_, e)| score_of(e)))
    }
}
