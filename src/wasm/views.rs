//! What the page draws from a search beyond its statistics: the compact tree snapshot for the
//! tree views, and the step-through, one MCTS iteration at a time (the engine's
//! `Search::step_traced`) for the Step-through panel.

use std::collections::{BTreeMap, HashSet, VecDeque};

use wasm_bindgen::prelude::*;

use super::search::SearchSession;
use super::{js_err, to_js, WasmError};
use crate::mcts::TreeNodeExport;

/// Proof status byte of the snapshot arrays: 0 unknown, 1 win, 2 loss, 3 draw (the view of the
/// player who made the move into the node, as in the engine's `Proof`).
fn proof_byte(p: Option<&str>) -> u8 {
    match p {
        Some("win") => 1,
        Some("loss") => 2,
        Some("draw") => 3,
        _ => 0,
    }
}

/// Flat, pre-order arrays of a tree export, children by visits descending.
#[derive(Default)]
struct FlatTree {
    parent: Vec<i32>,
    mv: Vec<u16>,
    visits: Vec<u32>,
    q: Vec<f32>,
    proven: Vec<u8>,
    depth: Vec<u8>,
    hidden: Vec<u32>,
    dict: Vec<String>,
    dict_index: BTreeMap<String, u16>,
}

impl FlatTree {
    fn move_id(&mut self, mv: &Option<String>) -> u16 {
        let Some(m) = mv else { return u16::MAX };
        if let Some(&i) = self.dict_index.get(m) {
            return i;
        }
        let i = self.dict.len().min(u16::MAX as usize - 1) as u16;
        self.dict.push(m.clone());
        self.dict_index.insert(m.clone(), i);
        i
    }

    /// Appends `n` and its children that `keep` holds, in pre-order (children come sorted by
    /// visits); the others count as hidden.
    fn push(&mut self, n: &TreeNodeExport, parent: i32, depth: u8, keep: &HashSet<*const TreeNodeExport>) {
        let id = self.parent.len() as i32;
        let mv = self.move_id(&n.mv);
        self.parent.push(parent);
        self.mv.push(mv);
        self.visits.push(n.visits.min(u32::MAX as u64) as u32);
        self.q.push(n.q as f32);
        self.proven.push(proof_byte(n.proven.map(|p| p.name())));
        self.depth.push(depth);
        self.hidden.push(n.hidden_children.min(u32::MAX as u64) as u32);
        let mut shown = 0u32;
        for c in &n.children {
            if !keep.contains(&(c as *const TreeNodeExport)) {
                break;
            }
            shown += 1;
            self.push(c, id, depth.saturating_add(1), keep);
        }
        self.hidden[id as usize] += n.children.len() as u32 - shown;
    }
}

/// The nodes a snapshot keeps: breadth-first from the root (level by level, each node's children
/// most visits first) until `max_nodes` nodes, skipping children under `min_visits` visits. A cut
/// by the node budget thus takes the deepest levels away and keeps every shallow one whole, so an
/// overview drawn from it (width = visits) spans the whole root, never only its first subtrees.
fn breadth_first(root: &TreeNodeExport, min_visits: u64, max_nodes: usize) -> HashSet<*const TreeNodeExport> {
    let mut keep = HashSet::new();
    let mut queue = VecDeque::new();
    keep.insert(root as *const TreeNodeExport);
    queue.push_back(root);
    while let Some(n) = queue.pop_front() {
        for c in &n.children {
            if c.visits < min_visits {
                break;
            }
            if keep.len() >= max_nodes {
                return keep;
            }
            keep.insert(c as *const TreeNodeExport);
            queue.push_back(c);
        }
    }
    keep
}

fn set(obj: &js_sys::Object, key: &str, value: &JsValue) -> Result<(), JsError> {
    js_sys::Reflect::set(obj, &JsValue::from_str(key), value).map(|_| ()).map_err(|_| WasmError::SnapshotObject.into())
}

#[wasm_bindgen]
impl SearchSession {
    /// A compact snapshot of the search tree for drawing: the nodes with at least `min_visits`
    /// visits, at most `top_k` children per node (most visits first), `depth` levels below the
    /// root and `max_nodes` nodes in all, chosen breadth-first (shallow levels whole before
    /// deeper ones) and listed in pre-order. Returns
    /// `{ total, count, moves, parent, move, visits, q, proven, depth, hidden }` where `total` is
    /// the number of nodes in the engine's tree, `moves` the move texts that `move` indexes
    /// (65535 at the root), `parent` an `Int32Array` (-1 at the root), `visits` a `Uint32Array`
    /// (visit count N), `q` a `Float32Array` (mean value Q in [0, 1] for the player who made the
    /// move into the node), `proven` a `Uint8Array` (0 unknown, 1 win, 2 loss, 3 draw, same
    /// view), `depth` a `Uint8Array` (plies below the root), `hidden` a `Uint32Array` (expanded
    /// children left out). Typed arrays own their buffers, so the worker can transfer them.
    ///
    /// # Errors
    /// Only if building the object fails (a bug).
    #[wasm_bindgen(js_name = treeSnapshot)]
    pub fn tree_snapshot(&self, min_visits: f64, top_k: usize, depth: usize, max_nodes: usize) -> Result<JsValue, JsError> {
        let min_visits = if min_visits.is_finite() && min_visits > 1.0 { min_visits as u64 } else { 1 };
        // The engine applies the visit cut while exporting, so only the kept nodes are built.
        let export = self.search.tree_export_min(top_k.max(1), depth, min_visits);
        let mut flat = FlatTree::default();
        let keep = breadth_first(&export.root, min_visits, max_nodes.max(1));
        flat.push(&export.root, -1, 0, &keep);
        let obj = js_sys::Object::new();
        set(&obj, "total", &JsValue::from_f64(export.nodes as f64))?;
        set(&obj, "count", &JsValue::from_f64(flat.parent.len() as f64))?;
        let moves = js_sys::Array::new();
        for m in &flat.dict {
            moves.push(&JsValue::from_str(m));
        }
        set(&obj, "moves", &moves)?;
        set(&obj, "parent", &js_sys::Int32Array::from(&flat.parent[..]))?;
        set(&obj, "move", &js_sys::Uint16Array::from(&flat.mv[..]))?;
        set(&obj, "visits", &js_sys::Uint32Array::from(&flat.visits[..]))?;
        set(&obj, "q", &js_sys::Float32Array::from(&flat.q[..]))?;
        set(&obj, "proven", &js_sys::Uint8Array::from(&flat.proven[..]))?;
        set(&obj, "depth", &js_sys::Uint8Array::from(&flat.depth[..]))?;
        set(&obj, "hidden", &js_sys::Uint32Array::from(&flat.hidden[..]))?;
        Ok(obj.into())
    }
}

#[wasm_bindgen]
impl SearchSession {
    /// Runs exactly one iteration — the one `run` would run next — and returns its
    /// `IterationTrace`: `{ iteration, game, to_move, formula, path: [{ depth, move, index,
    /// mover, kind: "root" | "selected" | "expanded" | "rollout", before: { n, q, proven },
    /// after: { n, q, proven }, chosen, rival }], expanded, terminal_leaf, playout,
    /// playout_indices, outcome: { winner, reward: [r0, r1] }, nodes_before, nodes_after,
    /// root_proven }` (`chosen`/`rival`: `{ move, n, q, amaf_q, beta, prior, score, untried }`,
    /// score null = +∞). Turns record mode on (see `setRecordPlayouts`).
    ///
    /// # Errors
    /// The root is terminal or proven, or the node cap is reached (the search is untouched).
    #[wasm_bindgen(js_name = stepIteration)]
    pub fn step_iteration(&mut self) -> Result<JsValue, JsError> {
        let t = self.search.step_traced().map_err(js_err)?;
        to_js(&t)
    }

    /// Record mode: every playout records its moves, as traced iterations must; with it on,
    /// `run(…, n)` runs the same iterations as `n` calls of `stepIteration` (plain UCT otherwise
    /// takes Hex's outcome-only playout, which draws other random numbers).
    #[wasm_bindgen(js_name = setRecordPlayouts)]
    pub fn set_record_playouts(&mut self, on: bool) {
        self.search.set_record_playouts(on);
    }
}
