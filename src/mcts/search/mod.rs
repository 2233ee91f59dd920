//! [`Search`]: the anytime, resumable MCTS loop over the arena tree. One concern per file:
//!
//! - `mod.rs`: the search's state, creation, configuration and the loop (`run`; an iteration is
//!   `descend` — selection, expansion, playout — then `finish` — backpropagation);
//! - `score.rs`: the score of a child (UCB1, RAVE/GRAVE blend, PUCT, first-play urgency, proven
//!   children) and the AMAF source node, the one place the selection formulas are applied;
//! - `expand.rs`: choosing a child or an untried move at a node, adding children;
//! - `rollout.rs`: the playout phase, rollout-expand, PoolRAVE pools;
//! - `backprop.rs`: backpropagation, AMAF updates, policy learning, solver proofs;
//! - `root.rs`: root initialisation, the depth-2 filter, tree reuse;
//! - `report.rs`: final move, principal variation, statistics and tree exports;
//! - [`trace`]: one iteration at a time, phase by phase (the step-through view).

use crate::game::hex::patterns::PatternError;
use crate::game::{Game, MoveList, MoveSets, Outcome};
use crate::mcts::config::{ConfigError, LeafEval, PriorKind, SearchConfig, Selection};
use crate::mcts::evaluator::{Evaluator, PatternPrior, TacticalPrior, UniformPrior};
use crate::mcts::playout::PolicyState;
use crate::mcts::transposition::{table_bytes, TransTable};
use crate::mcts::tree::{Proof, Tree, KNOWN, NIL};
use crate::mcts::{Budget, Clock, RunReport, StopReason};
use crate::rng::Rng64;

mod backprop;
mod expand;
mod knowledge;
mod priors;
mod report;
mod rollout;
mod root;
mod score;
pub mod trace;

pub use knowledge::KnowledgeStats;

pub use expand::affine_index;
pub use rollout::pool_order;
pub use root::{depth2, sequential_halving_visits, GumbelReport};

/// Why a search could not be created, reconfigured or advanced.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SearchError {
    /// The configuration was refused.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The move is not legal at the root.
    #[error("illegal move {} at the root", crate::limits::abbreviate(.0))]
    IllegalMove(String),
    /// The move text could not be read (the game's message).
    #[error("{0}")]
    BadMove(String),
    /// `prior = net` and the game's network is missing or defective (the network's sentence:
    /// `crate::nn::NetError` turns into this), or the search was built without networks
    /// ([`Builtin`]).
    #[error("{0}")]
    Net(String),
    /// `prior = patterns` and the pattern weights could not be loaded (a game without local
    /// patterns never gets here: [`Search::new`] turns the pattern prior off for it).
    #[error(transparent)]
    Patterns(#[from] PatternError),
}

/// Where a search gets the evaluator its `prior` setting names, when it is created and when
/// [`Search::set_config`] changes the prior. The search knows no network: a source that has
/// them (`crate::nn::search::Nets`) is chosen above both.
pub trait Evaluators {
    /// The evaluator of `prior` for games like `root`.
    ///
    /// # Errors
    /// The evaluator cannot be made for the game (`prior = patterns` without weights, `prior =
    /// net` without a usable network or without networks at all).
    fn make<G: Game>(root: &G, prior: PriorKind) -> Result<Box<dyn Evaluator<G>>, SearchError>;
}

/// The evaluators that need no network: uniform, tactical and pattern priors; `prior = net`
/// is refused ([`SearchError::Net`]), a search that may use a network is built with
/// `crate::nn::search`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Builtin;

impl Evaluators for Builtin {
    fn make<G: Game>(root: &G, prior: PriorKind) -> Result<Box<dyn Evaluator<G>>, SearchError> {
        Ok(match prior {
            PriorKind::Uniform => Box::new(UniformPrior),
            PriorKind::Tactical => Box::new(TacticalPrior),
            PriorKind::Patterns => Box::new(PatternPrior::for_game(root)?),
            PriorKind::Net => return Err(SearchError::Net("prior = net needs a search built with networks (nn::search)".into())),
        })
    }
}

/// The constructor of the evaluators of a search over `G` ([`Evaluators::make`] of one source).
type MakeEvaluator<G> = fn(&G, PriorKind) -> Result<Box<dyn Evaluator<G>>, SearchError>;

/// A network leaf value (`leaf = value | mix`) needs an evaluator with a value.
fn check_leaf<G: Game>(config: &SearchConfig, e: &dyn Evaluator<G>) -> Result<(), SearchError> {
    let setting = match config.leaf {
        LeafEval::Rollout => return Ok(()),
        LeafEval::Value => "leaf = value",
        LeafEval::Mix => "leaf = mix",
    };
    if e.has_value() {
        Ok(())
    } else {
        Err(ConfigError::Needs { setting, needs: "an evaluator with a value head (prior = net)" }.into())
    }
}

/// One step of the current descent.
#[derive(Clone, Copy, Debug)]
struct Step {
    /// Index of the edge taken into the node ([`NIL`] for the root).
    edge: u32,
    /// The node.
    node: u32,
}

/// What `choose` decided at a node.
enum Choice<M> {
    /// Add the child reached by this move (with its prior).
    Expand(M, f32),
    /// Descend through this edge.
    Descend(u32),
    /// Nothing to expand or descend into (every child proven, or the node cap): play out from here.
    Leaf,
}

/// An MCTS search over a game `G` from a root position. See the module docs of `mcts`.
pub struct Search<G: Game> {
    root: G,
    config: SearchConfig,
    tree: Tree,
    rng: Rng64,
    tt: Option<TransTable>,
    policy: PolicyState,
    /// Whether the playouts answer bridge intrusions: `save_bridge` on a game with bridges
    /// ([`Game::bridge_rings`]; elsewhere the option is ignored).
    bridges: bool,
    /// Counts of the knowledge computations (`knowledge`).
    know: KnowledgeStats,
    evaluator: Box<dyn Evaluator<G>>,
    /// Makes the evaluator of a new `prior` ([`Search::set_config`]).
    make_evaluator: MakeEvaluator<G>,
    /// PUCT priors per node, asked once (see `priors.rs`).
    node_priors: priors::NodePriors,
    /// Moves kept per non-root node's prior list ([`priors::PRIOR_KEEP`]; tests set it to
    /// `usize::MAX` to compare with whole lists).
    prior_keep: usize,
    /// Evaluator calls so far (one per node with priors, plus value-only calls).
    evaluations: u64,
    /// Rewards `[player 0, player 1]` of the current iteration's leaf when the network valued
    /// it (`leaf = value | mix`); `None` = the playout's outcome.
    leaf_value: Option<[f64; 2]>,
    /// Rewards backpropagated by the last iteration (for the step-through).
    last_reward: [f64; 2],
    /// Depth-2 root filter: allowed dense indices (None = all legal moves).
    root_filter: Option<Vec<bool>>,
    depth2_note: String,
    depth2_firings: u64,
    iterations: u64,
    playouts: u64,
    elapsed_ms: f64,
    max_depth: u32,
    // scratch
    path: Vec<Step>,
    seq: Vec<G::Move>,
    seq_idx: Vec<u16>,
    legal: MoveList<G::Move>,
    priors: Vec<f32>,
    stamp: u32,
    mark: Vec<u32>,
    /// Scratch for the untried-move scan (`expand.rs`, `best_untried_in_set`): the candidates'
    /// lane mask, and the AMAF value and negated sample count of every move of the player to
    /// move; `3 × ms + 8` floats.
    amaf_values: Vec<f32>,
    /// Scratch for RAVE's children's pass (`expand.rs`, `amaf_children_bounded`): each child's
    /// score and AMAF sample count; `ms` long (a node has at most `ms` children).
    child_scores: Vec<f64>,
    child_counts: Vec<u32>,
    ms: usize,
    /// Record every playout's moves even when nothing reads them (step-through; see
    /// [`Search::set_record_playouts`]).
    record_playouts: bool,
    /// Length of `path` when the current iteration's playout started (`usize::MAX`: no playout).
    sel_len: usize,
    /// Whether the current iteration expanded a node in the tree descent.
    expanded: bool,
    /// The score of the move the current iteration expanded, as `choose` ranked it.
    expand_score: f64,
    /// The playout's moves as per-player sets when `sets_valid` (then `seq` holds only the
    /// tree moves), see `rollout.rs`.
    psets: MoveSets,
    /// Whether the current iteration's playout moves are in `psets` rather than `seq`.
    sets_valid: bool,
    /// With `fill_playouts`, the cells dealt after the end of a playout that stopped there
    /// (a policy playout, quality-based rewards): AMAF credits them too when `fill_valid`.
    pfill: MoveSets,
    /// Whether `pfill` holds the current iteration's after-the-end cells.
    fill_valid: bool,
    /// Whether the current iteration's AMAF update credits a filled board (`fill_playouts`).
    filled: bool,
    /// Scratch list for games without their own set playout ([`Game::random_playout_sets`]).
    pscratch: Vec<G::Move>,
    /// RAVE β by visits below [`score::BETA_TABLE`] (see `score.rs`).
    beta_table: Vec<f64>,
    /// `ln N` by visits below [`score::LN_TABLE`] (see `score.rs`).
    ln_table: &'static [f64],
    /// PoolRAVE pools cached per AMAF table (index = table), see `rollout.rs`.
    pool_cache: Vec<rollout::PoolEntry>,
    /// Scratch candidates of a pool rebuild.
    pool_scratch: Vec<(f64, u16)>,
    /// Gumbel root (`root.rs`): the root move (dense index) every iteration takes while set.
    forced_root: Option<u16>,
    /// Gumbel root: the move the last `run_gumbel` chose (the final move while set).
    gumbel_choice: Option<u16>,
    /// The memory cap's hold on the tree (see [`Search::check_memory_cap`]): the node count
    /// the tree may grow to (`usize::MAX` while the cap is not reached), and the iteration
    /// count at which the next check is due.
    grow_to: usize,
    cap_check_at: u64,
}

/// Iterations between two checks of the memory cap: the bound of [`Search::memory_bound`]
/// covers the growth of this many iterations.
const CAP_CHECK_EVERY: u64 = 16;

/// Bytes the small arenas may grow by in [`CAP_CHECK_EVERY`] iterations beyond a quarter of
/// their size (each grows by at least 1,024 entries; one iteration adds at most one node's
/// AMAF table, 5.8 KB on Hex 19×19, or a `rollout_expand` chain of at most 362 nodes).
const GROWTH_SLACK: usize = 4 << 20;

impl<G: Game> Search<G> {
    /// A search from `root` with `config` (validated), its evaluators the ones that need no
    /// network ([`Builtin`]).
    ///
    /// # Errors
    /// An invalid configuration, or `prior = net` ([`Builtin`]).
    pub fn new(root: G, config: SearchConfig) -> Result<Self, SearchError> {
        Search::with_evaluators::<Builtin>(root, config)
    }

    /// A search from `root` with `config` (validated), its evaluators made by `E` (for a
    /// network, `crate::nn::search`).
    ///
    /// # Errors
    /// An invalid configuration, or an evaluator `E` cannot make.
    pub fn with_evaluators<E: Evaluators>(root: G, mut config: SearchConfig) -> Result<Self, SearchError> {
        config.validate()?;
        // Hex's options are ignored by games without them, as `save_bridge` and `knowledge`
        // are: without local patterns the pattern prior and its progressive bias are off (so a
        // Hex preset such as `mohex` searches Pentago as its other settings say).
        if config.prior == PriorKind::Patterns && !root.pattern_keys(&[], &mut Vec::new()) {
            config.prior = PriorKind::Uniform;
            config.progressive_bias = 0.0;
        }
        let ms = root.move_space();
        let evaluator = E::make(&root, config.prior)?;
        check_leaf(&config, evaluator.as_ref())?;
        let mut s = Search {
            rng: Rng64::new(config.seed),
            tt: None,
            policy: PolicyState::new(ms, &config),
            bridges: config.save_bridge && root.bridge_rings().is_some(),
            know: KnowledgeStats::default(),
            evaluator,
            make_evaluator: E::make::<G>,
            node_priors: priors::NodePriors::default(),
            prior_keep: priors::PRIOR_KEEP,
            evaluations: 0,
            leaf_value: None,
            last_reward: [0.5, 0.5],
            root_filter: None,
            depth2_note: "off".into(),
            depth2_firings: 0,
            iterations: 0,
            playouts: 0,
            elapsed_ms: 0.0,
            max_depth: 0,
            path: Vec::with_capacity(512),
            seq: Vec::with_capacity(512),
            seq_idx: Vec::with_capacity(512),
            legal: MoveList::new(),
            priors: Vec::new(),
            stamp: 0,
            mark: vec![0; ms],
            amaf_values: vec![0.0; 3 * ms + 8],
            child_scores: vec![0.0; ms],
            child_counts: vec![0; ms],
            ms,
            record_playouts: false,
            sel_len: usize::MAX,
            expanded: false,
            expand_score: f64::NEG_INFINITY,
            pool_cache: Vec::new(),
            pool_scratch: Vec::new(),
            forced_root: None,
            gumbel_choice: None,
            grow_to: usize::MAX,
            cap_check_at: 0,
            psets: MoveSets::default(),
            beta_table: score::beta_table(&config),
            ln_table: score::ln_table(),
            sets_valid: false,
            pfill: MoveSets::default(),
            fill_valid: false,
            filled: false,
            pscratch: Vec::new(),
            tree: Tree::default(),
            root,
            config,
        };
        s.reset_tree();
        Ok(s)
    }

    /// A search from `root` with `config` and the evaluator `e` in place of the one `config.prior`
    /// names (a network, a test's fake evaluator, self-play's noisy root).
    ///
    /// # Errors
    /// An invalid configuration, or a network leaf value (`leaf = value | mix`) with an
    /// evaluator that has no value.
    pub fn with_evaluator(root: G, config: SearchConfig, e: Box<dyn Evaluator<G>>) -> Result<Self, SearchError> {
        let mut c = config.clone();
        c.prior = crate::mcts::config::PriorKind::Uniform;
        c.leaf = LeafEval::Rollout;
        let mut s = Search::new(root, c)?;
        check_leaf(&config, e.as_ref())?;
        s.evaluator = e;
        s.config = config;
        s.reset_tree();
        Ok(s)
    }

    /// Replaces the evaluator (PUCT priors, and the leaf value with `leaf = value | mix`); the
    /// tree is rebuilt, its priors came from the old one.
    ///
    /// # Errors
    /// The configuration values leaves by the network (`leaf = value | mix`) and `e` has no
    /// value (the search is untouched).
    pub fn set_evaluator(&mut self, e: Box<dyn Evaluator<G>>) -> Result<(), SearchError> {
        check_leaf(&self.config, e.as_ref())?;
        self.evaluator = e;
        self.reset_tree();
        Ok(())
    }

    /// Evaluator calls so far (each node's priors once, plus leaf values).
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    /// A fresh tree laid out for the configuration (priors for PUCT and for the progressive
    /// bias, AMAF tables when needed).
    fn new_tree(&self) -> Tree {
        let width = if self.config.needs_amaf() { 2 * self.ms } else { 0 };
        let priors = self.config.selection == Selection::Puct || self.config.progressive_bias > 0.0;
        Tree::with_root(priors, width, self.config.child_bounds())
    }

    fn reset_tree(&mut self) {
        self.tree = self.new_tree();
        self.node_priors = priors::NodePriors::default();
        self.tt = if self.config.transpositions {
            let mut t = TransTable::default();
            t.insert(self.root.hash(), 0);
            Some(t)
        } else {
            None
        };
        self.init_root();
    }

    /// The root position.
    pub fn root(&self) -> &G {
        &self.root
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Tree nodes.
    pub fn node_count(&self) -> usize {
        self.tree.len()
    }

    /// Bytes of tree storage (node and edge arenas, AMAF tables, PUCT prior lists, PoolRAVE
    /// pools, transposition table), by capacity.
    pub fn tree_bytes(&self) -> usize {
        self.tree.bytes()
            + self.tt.as_ref().map_or(0, table_bytes)
            + self.node_priors.bytes()
            + rollout::pool_bytes(&self.pool_cache, self.config.pool_k)
    }

    /// The memory cap in bytes (`memory_cap_mib` MiB).
    pub fn memory_cap_bytes(&self) -> u64 {
        self.config.memory_cap_mib << 20
    }

    /// The cap that holds the tree at its size, if one does: the node cap (`node_cap` nodes),
    /// or the memory cap (the last check found that one more growth step could pass
    /// `memory_cap_mib`).
    pub fn tree_cap(&self) -> Option<crate::mcts::TreeCap> {
        if self.tree.len() >= self.config.node_cap as usize {
            Some(crate::mcts::TreeCap::NodeCap)
        } else if self.grow_to != usize::MAX {
            Some(crate::mcts::TreeCap::MemoryCap)
        } else {
            None
        }
    }

    /// An upper bound of the memory the search holds after [`CAP_CHECK_EVERY`] more
    /// iterations, in bytes. Every arena grows by a quarter of its capacity at a time
    /// (`tree.rs`, `reserve_step`) and the transposition table doubles, so natively: the tree's
    /// bytes, a quarter more, the table's size again when it is nearly full, and
    /// [`GROWTH_SLACK`]. In WebAssembly the module's linear memory never shrinks and a vector
    /// that grows is copied to a new block, so the bound is the memory's size plus the new
    /// blocks of the two largest arenas (5/4 of each: the AMAF counts and rewards grow in the
    /// same iteration), the table's growth and the slack.
    fn memory_bound(&self) -> usize {
        let tt_growth = self.tt.as_ref().map_or(0, |t| if t.capacity() - t.len() < 4096 { table_bytes(t) } else { 0 });
        let bytes = self.tree_bytes();
        let native = bytes + bytes / 4 + tt_growth + GROWTH_SLACK;
        #[cfg(target_arch = "wasm32")]
        {
            let memory = core::arch::wasm32::memory_size::<0>() * 65_536;
            let largest = self.tree.two_largest_arenas_bytes();
            native.max(memory + largest + largest / 4 + 2 * tt_growth + GROWTH_SLACK)
        }
        #[cfg(not(target_arch = "wasm32"))]
        native
    }

    /// Checks the memory cap when due (every [`CAP_CHECK_EVERY`] iterations, counted over the
    /// search's life so that chunked and whole runs agree): once [`Search::memory_bound`] passes
    /// `memory_cap_mib`, the tree stops growing at its size (no new node, AMAF table or
    /// transposition entry); it may grow again after tree reuse frees room.
    #[inline]
    fn check_memory_cap(&mut self) {
        if self.iterations < self.cap_check_at {
            return;
        }
        self.cap_check_at = self.iterations + CAP_CHECK_EVERY;
        self.grow_to = if self.memory_bound() as u64 > self.memory_cap_bytes() { self.tree.len() } else { usize::MAX };
    }

    /// Root visit count.
    pub fn root_visits(&self) -> u64 {
        self.tree.nodes[0].n as u64
    }

    /// Proven value of the root from the side to move's view.
    pub fn root_proof(&self) -> Proof {
        self.tree.nodes[0].proof().flip()
    }

    /// Replaces the configuration, keeping the tree where it stays valid: a change of
    /// `transpositions`, `depth2`, `rollout_expand`, `knowledge`, `knowledge_threshold`, of whether AMAF tables are needed or of
    /// PUCT on/off (the tree layout) rebuilds it; a new `seed` reseeds the
    /// generator; playout tables are kept where their shape is unchanged; a new `prior`
    /// replaces the evaluator and rebuilds the tree (its priors came from the old one).
    ///
    /// # Errors
    /// An invalid configuration, or `prior = net` without a network for the game (the search
    /// is untouched).
    pub fn set_config(&mut self, c: SearchConfig) -> Result<(), SearchError> {
        c.validate()?;
        let new_evaluator = if c.prior != self.config.prior { Some((self.make_evaluator)(&self.root, c.prior)?) } else { None };
        check_leaf(&c, new_evaluator.as_deref().unwrap_or(self.evaluator.as_ref()))?;
        let rebuild = new_evaluator.is_some()
            || c.transpositions != self.config.transpositions
            || c.depth2 != self.config.depth2
            || c.rollout_expand != self.config.rollout_expand
            || c.knowledge != self.config.knowledge
            || c.knowledge_threshold != self.config.knowledge_threshold
            || c.needs_amaf() != self.config.needs_amaf()
            || (c.selection == Selection::Puct) != (self.config.selection == Selection::Puct);
        if c.seed != self.config.seed {
            self.rng = Rng64::new(c.seed);
        }
        if let Some(e) = new_evaluator {
            self.evaluator = e;
        }
        self.policy.reconfigure(&c);
        self.bridges = c.save_bridge && self.root.bridge_rings().is_some();
        if c.pool_k != self.config.pool_k || c.pool_min_amaf != self.config.pool_min_amaf {
            self.pool_cache.clear();
        }
        self.beta_table = score::beta_table(&c);
        self.config = c;
        self.cap_check_at = self.iterations;
        if rebuild {
            self.reset_tree();
        } else {
            // The children's bounds assume that only the child chosen by this selection was
            // visited since: a new configuration drops them.
            self.tree.reset_child_bounds(self.config.child_bounds());
        }
        Ok(())
    }

    /// Runs iterations until the budget is spent, the root is proven (solver), the game is
    /// over, or (with `stop_at_node_cap`) the node cap is reached. Anytime and resumable.
    pub fn run(&mut self, budget: Budget, clock: Clock) -> RunReport {
        let t0 = clock();
        let mut done = 0u64;
        let stop;
        if self.root.is_terminal() {
            return RunReport { iterations: 0, elapsed_ms: 0.0, stop: StopReason::GameOver };
        }
        if let (crate::mcts::config::RootRule::Gumbel, Some(n), None) = (self.config.root, budget.iterations, budget.millis) {
            let t0 = clock();
            let r = self.run_gumbel(n);
            let elapsed = (clock() - t0).max(0.0);
            self.elapsed_ms += elapsed;
            return RunReport { iterations: r.map_or(0, |r| r.iterations), elapsed_ms: elapsed, stop: StopReason::Iterations };
        }
        self.gumbel_choice = None;
        let cap = self.config.node_cap as usize;
        loop {
            if self.config.solver && self.tree.nodes[0].proof() != Proof::Unknown {
                stop = StopReason::RootProven;
                break;
            }
            if let Some(n) = budget.iterations {
                if done >= n {
                    stop = StopReason::Iterations;
                    break;
                }
            }
            if self.config.stop_at_node_cap && self.tree.len() >= cap {
                stop = StopReason::NodeCap;
                break;
            }
            self.check_memory_cap();
            if self.config.stop_at_node_cap && self.grow_to != usize::MAX {
                stop = StopReason::MemoryCap;
                break;
            }
            if let Some(ms) = budget.millis {
                // A timed run whose root has no children yet (a new tree) does one iteration
                // whatever the clock says, so that it always has a move to play: on a loaded
                // machine the thread can lose the whole budget before its first iteration.
                let has_move = !self.tree.children(0).is_empty();
                if done.is_multiple_of(16) && has_move && clock() - t0 >= ms {
                    stop = StopReason::Time;
                    break;
                }
            } else if budget.iterations.is_none() {
                stop = StopReason::Iterations;
                break;
            }
            self.iterate();
            done += 1;
        }
        let elapsed = (clock() - t0).max(0.0);
        self.elapsed_ms += elapsed;
        RunReport { iterations: done, elapsed_ms: elapsed, stop }
    }

    /// One MCTS iteration.
    #[inline]
    fn iterate(&mut self) {
        self.tree.tidy();
        let outcome = self.descend();
        self.finish(outcome);
    }

    /// The first three phases of an iteration: selection and expansion (filling `path` and
    /// `seq`), then the playout; returns the outcome reached.
    #[inline(always)]
    fn descend(&mut self) -> Outcome {
        let mut g = self.root.clone();
        self.path.clear();
        self.seq.clear();
        self.sel_len = usize::MAX;
        self.sets_valid = false;
        self.fill_valid = false;
        self.filled = false;
        self.expanded = false;
        self.path.push(Step { edge: NIL, node: 0 });
        let mut cur = 0u32;
        self.check_memory_cap();
        // The memory cap never keeps the root from trying its moves (at most 362 children), so
        // a search held at the cap still has a move to play.
        let root_cap = self.config.node_cap as usize;
        let cap = root_cap.min(self.grow_to);
        let amaf_on = self.tree.with_amaf;
        // At the memory cap no node gets a new AMAF table (it reads an ancestor's, as below
        // `rave_table_visits`).
        let table_visits = if self.grow_to == usize::MAX { self.config.rave_table_visits } else { u32::MAX };
        // The AMAF source node (`amaf_source` in score.rs), updated at each node of the path.
        let mut src = NIL;
        loop {
            if let Some(o) = g.outcome() {
                break o;
            }
            if amaf_on {
                if self.tree.amaf.of_node[cur as usize] == NIL && self.tree.nodes[cur as usize].n >= table_visits {
                    let derived = self.derived_amaf(&g);
                    self.tree.amaf.alloc(cur, derived);
                }
                src = self.amaf_source(src, cur);
            }
            let depth = self.path.len() - 1;
            if self.config.knowledge {
                let node = &self.tree.nodes[cur as usize];
                if node.flags & KNOWN == 0 && node.n >= self.config.knowledge_threshold && (depth > 0 || self.forced_root.is_none()) {
                    self.apply_knowledge(cur, &g, depth == 0, if depth == 0 { root_cap } else { cap });
                }
            }
            let choice = match self.forced_root {
                Some(a) if depth == 0 => self.forced_choice(a, &g),
                // Below the expansion threshold a node is a leaf: the playout starts there.
                _ if depth > 0 && self.config.expand_threshold > 1 && self.tree.nodes[cur as usize].n < self.config.expand_threshold => {
                    Choice::Leaf
                }
                _ => self.choose(cur, &g, depth == 0, src, if depth == 0 { root_cap } else { cap }),
            };
            match choice {
                Choice::Expand(m, prior) => {
                    let mover = g.to_move();
                    g.play_unchecked(m);
                    self.seq.push(m);
                    let step = self.add_child(cur, &g, m, prior, mover);
                    self.path.push(step);
                    self.expanded = true;
                    if let Some(o) = g.outcome() {
                        break o;
                    }
                    if self.config.leaf != LeafEval::Rollout {
                        let v = self.evaluate_leaf(step, &g);
                        break self.value_leaf(v, &mut g, cap);
                    }
                    break self.playout(&mut g, cap);
                }
                Choice::Descend(edge) => {
                    let e = self.tree.edges[edge as usize];
                    let m = g.move_from_index(e.mv as usize).expect("stored move index");
                    g.play_unchecked(m);
                    self.seq.push(m);
                    self.path.push(Step { edge, node: e.child });
                    cur = e.child;
                }
                Choice::Leaf if self.config.leaf != LeafEval::Rollout => {
                    let node = self.path.last().expect("the root at least").node;
                    let v = self.evaluate_leaf(Step { edge: NIL, node }, &g);
                    break self.value_leaf(v, &mut g, cap);
                }
                Choice::Leaf => break self.playout(&mut g, cap),
            }
        }
    }

    /// The leaf's rewards from the network's value `v` (side to move at `g`): AlphaZero's
    /// `v` alone (`leaf = value`; no playout, the returned outcome is a placeholder that only
    /// the playout-learning policies would read, and they are off without playouts), or
    /// AlphaGo's `(1 − λ)·v + λ·z` with z the playout's result (`leaf = mix`, Silver et al.
    /// 2016). Stored in `leaf_value` for backpropagation.
    fn value_leaf(&mut self, v: f64, g: &mut G, cap: usize) -> Outcome {
        let p = g.to_move() as usize;
        let mut r = [0.0; 2];
        r[p] = v;
        r[1 - p] = 1.0 - v;
        if self.config.leaf == LeafEval::Mix {
            let o = self.playout(g, cap);
            let l = self.config.mix_lambda;
            for (k, x) in r.iter_mut().enumerate() {
                *x = (1.0 - l) * *x + l * o.reward(k as u8);
            }
            self.leaf_value = Some(r);
            return o;
        }
        self.leaf_value = Some(r);
        Outcome::Draw
    }

    /// The last phase of an iteration: counters, then backpropagation of `outcome` along `path`.
    #[inline(always)]
    fn finish(&mut self, outcome: Outcome) {
        self.iterations += 1;
        let depth = (self.path.len() - 1) as u32;
        if depth > self.max_depth {
            self.max_depth = depth;
        }
        self.backprop(outcome);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::config::TranspositionRule;
    use crate::mcts::selection::{blend, rave_beta_sqrt, ucb1};

    /// With `expand_threshold` T, no node but the root gets a child before its T-th visit,
    /// every visit still counts, and the search is deterministic for a seed; `mohex` searches
    /// with T = 10, MoHex's.
    #[test]
    fn expand_threshold_holds_children_back() {
        use crate::game::Hex;
        let g = Hex::new(7, false).unwrap();
        let search = |t: Option<u32>| {
            let mut cfg = SearchConfig::preset("mohex").unwrap();
            if let Some(t) = t {
                cfg.expand_threshold = t;
            }
            cfg.seed = 3;
            let mut s = Search::new(g.clone(), cfg).unwrap();
            s.run(Budget::iterations(5000), &|| 0.0);
            s
        };
        let visits =
            |s: &Search<Hex>| s.tree.children(0).map(|e| (s.tree.edges[e as usize].mv, s.tree.edges[e as usize].n)).collect::<Vec<_>>();
        let plain = search(Some(1));
        let held = search(Some(10));
        assert_eq!(visits(&held), visits(&search(None)), "mohex: T = 10");
        assert_eq!(held.tree.nodes[0].n, 5000);
        for (id, node) in held.tree.nodes.iter().enumerate().skip(1) {
            if node.n_children > 0 {
                assert!(node.n >= 10, "node {id} has children at {} visits", node.n);
            }
        }
        assert!(plain.tree.nodes.iter().skip(1).any(|n| n.n_children > 0 && n.n < 10), "T = 1: children from the second visit");
        assert!(held.tree.len() < plain.tree.len() / 4, "{} nodes against {}", held.tree.len(), plain.tree.len());
        assert_eq!(visits(&held), visits(&search(Some(10))), "deterministic for a seed");
    }

    #[test]
    fn affine_order_is_a_permutation() {
        for n in 1..130 {
            for seed in 0..5u64 {
                let mut seen = vec![false; n];
                for k in 0..n {
                    let i = affine_index(seed * 7919 + n as u64, n, k);
                    assert!(!seen[i], "n {n} seed {seed} repeats {i}");
                    seen[i] = true;
                }
            }
        }
    }

    /// The permutation is the one of the plain 64-bit formula (Euclid's GCD, `u64` products),
    /// for every n up to 2¹⁶ at a few seeds and positions, and on random ones.
    #[test]
    fn affine_index_matches_the_64_bit_formula() {
        fn gcd64(mut a: u64, mut b: u64) -> u64 {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        }
        fn reference(seed: u64, n: usize, k: usize) -> usize {
            let h = crate::game::zobrist_key(seed);
            let n64 = n as u64;
            let b = h % n64;
            if n <= 2 {
                return ((k as u64 + b) % n64) as usize;
            }
            let mut a = 1 + (h >> 32) % (n64 - 1);
            while gcd64(a, n64) != 1 {
                a = a % (n64 - 1) + 1;
            }
            ((a * k as u64 + b) % n64) as usize
        }
        let mut rng = crate::rng::Rng64::new(5);
        for n in 1..=1usize << 16 {
            for seed in [0u64, 1, 0x9e37_79b9, u64::MAX] {
                for k in [0, n / 2, n - 1] {
                    assert_eq!(affine_index(seed, n, k), reference(seed, n, k), "n {n} seed {seed} k {k}");
                }
            }
        }
        for _ in 0..200_000 {
            let n = 1 + rng.index(1 << 16);
            let (seed, k) = (rng.next_u64(), rng.index(n));
            assert_eq!(affine_index(seed, n, k), reference(seed, n, k), "n {n} seed {seed} k {k}");
        }
    }

    use crate::game::Hex;

    fn rave_search(c: f64, table_visits: u32) -> Search<Hex> {
        let mut cfg = SearchConfig::preset("rave").unwrap();
        cfg.c = c;
        cfg.rave_table_visits = table_visits;
        Search::new(Hex::new(5, false).unwrap(), cfg).unwrap()
    }

    /// AMAF value (side to move at the root) of dense move `i` in the root's table.
    fn root_amaf(s: &Search<Hex>, i: usize) -> Option<f64> {
        let t = s.tree.amaf.table(0).unwrap();
        let (n, w2) = s.tree.amaf.get(t, s.root.to_move(), i, s.ms);
        (n > 0).then(|| w2 as f64 * 0.5 / n as f64)
    }

    #[test]
    fn untried_moves_ranked_with_expanded_ones_by_amaf() {
        // c = 0 (Gelly & Silver 2011): an untried move (β = 1) is expanded only when its AMAF
        // value beats every expanded move's (1−β)·Q + β·AMAF; c = √2: UCB1 on both sides, the
        // untried move with the bonus of one visit, c·√(ln N).
        for c in [0.0, std::f64::consts::SQRT_2] {
            untried_vs_expanded(c);
        }
    }

    fn untried_vs_expanded(c: f64) {
        let mut s = rave_search(c, 32);
        let mut expanded = 0;
        let mut descended = 0;
        for _ in 0..300 {
            let kids = s.root_children();
            let ln_n = (s.tree.nodes[0].n.max(1) as f64).ln();
            let done: Vec<usize> = kids.iter().map(|c| c.0).collect();
            let me = s.root.to_move();
            let t = s.tree.amaf.table(0).unwrap();
            let best_kid = kids
                .iter()
                .map(|&(i, n, q)| {
                    let (an, aw2) = s.tree.amaf.get(t, me, i, s.ms);
                    let v = if an == 0 { q } else { blend(q, aw2 as f64 * 0.5 / an as f64, rave_beta_sqrt(n as u32, 1000.0)) };
                    ucb1(v, n as u32, ln_n, c)
                })
                .fold(f64::NEG_INFINITY, f64::max);
            let best_untried = (0..25)
                .filter(|i| !done.contains(i))
                .map(|i| root_amaf(&s, i).unwrap_or(s.config.fpu) + c * ln_n.sqrt())
                .fold(f64::NEG_INFINITY, f64::max);
            s.run(Budget::iterations(1), &|| 0.0);
            let grew = s.root_children().len() > kids.len();
            if kids.is_empty() {
                continue;
            }
            // f32 caching of Q can blur near-ties; skip those.
            if (best_untried - best_kid).abs() < 1e-4 {
                continue;
            }
            assert_eq!(grew, best_untried > best_kid, "untried {best_untried} vs expanded {best_kid}");
            if grew {
                expanded += 1;
            } else {
                descended += 1;
            }
        }
        assert!(expanded > 0 && descended > 0, "c = {c}: both cases seen ({expanded}, {descended})");
    }

    /// AMAF from the playout's move sets (the default) and from its recorded list (record mode,
    /// as the step-through runs) give the same tables, the same tree and the same choices, for
    /// every game, with and without the swap rule, with playouts to the game's end and filling
    /// the board (`fill_playouts`).
    #[test]
    fn amaf_by_sets_equals_amaf_by_list() {
        for spec in ["hex:5", "hex:4:swap", "pentago", "tictactoe"] {
            for preset in ["rave", "grave", "qb"] {
                for fill in [false, true] {
                    let g = crate::game::AnyGame::from_spec(spec).unwrap();
                    crate::with_game!(&g, g => sets_vs_list(g, spec, preset, fill));
                }
            }
        }
    }

    fn sets_vs_list<G: Game>(g: &G, spec: &str, preset: &str, fill: bool) {
        let mut cfg = SearchConfig::preset(preset).unwrap();
        cfg.fill_playouts = fill;
        cfg.rave_table_visits = 8;
        let mut a = Search::new(g.clone(), cfg.clone()).unwrap();
        let mut b = Search::new(g.clone(), cfg).unwrap();
        b.set_record_playouts(true);
        a.run(Budget::iterations(3000), &|| 0.0);
        b.run(Budget::iterations(3000), &|| 0.0);
        assert!(a.tree.amaf.n.iter().any(|&n| n > 0), "{spec} {preset}: tables filled");
        assert_eq!(a.tree.amaf.n, b.tree.amaf.n, "{spec} {preset}: AMAF counts");
        assert_eq!(a.tree.amaf.w2, b.tree.amaf.w2, "{spec} {preset}: AMAF sums");
        assert_eq!(a.tree.len(), b.tree.len());
        let stats = |s: &Search<G>| s.tree.nodes.iter().map(|n| (n.n, n.w.to_bits())).collect::<Vec<_>>();
        assert_eq!(stats(&a), stats(&b), "{spec} {preset}: node statistics");
    }

    /// With `fill_playouts`, every playout credits the whole board to the root's AMAF table:
    /// each cell once per iteration, to one player or the other, whatever stopped the playout
    /// (a uniformly random fill, a policy playout with the rest chosen by its policy or dealt at
    /// random, quality-based rewards' real end then the rest dealt). Without it, cells left
    /// empty at the game's end are not credited. Hex 5×5, and 4×4 with the swap rule.
    #[test]
    fn fill_playouts_credit_the_whole_board() {
        for spec in ["hex:5", "hex:4:swap"] {
            for preset in ["rave", "grave", "qb", "lgr", "lgrf2", "poolrave", "mast", "best"] {
                for fill in [true, false] {
                    let g = crate::game::AnyGame::from_spec(spec).unwrap();
                    let crate::game::AnyGame::Hex(h) = g else { unreachable!() };
                    let mut cfg = SearchConfig::preset(preset).unwrap();
                    cfg.fill_playouts = fill;
                    cfg.rave_table_visits = 1;
                    cfg.depth2 = false;
                    let mut s = Search::new(h.clone(), cfg).unwrap();
                    let iters = 200;
                    s.run(Budget::iterations(iters), &|| 0.0);
                    let t = s.tree.amaf.table(0).expect("a root table");
                    let cells = h.size() * h.size();
                    let credits: Vec<u32> =
                        (0..cells).map(|i| s.tree.amaf.get(t, 0, i, s.ms).0 + s.tree.amaf.get(t, 1, i, s.ms).0).collect();
                    // The root's table exists from its first visit on (`rave_table_visits` = 1):
                    // every later iteration credits it.
                    let n = s.tree.amaf.updates[t as usize] as u32;
                    if fill && h.swap_enabled() {
                        // A swap moves the first stone to its mirrored cell, which no move of
                        // the playout played: at most that one cell goes uncredited.
                        let total: u32 = credits.iter().sum();
                        assert!(credits.iter().all(|&c| c <= n) && total >= n * (cells as u32 - 1), "{spec} {preset}: {credits:?}");
                    } else if fill {
                        assert!(credits.iter().all(|&c| c == n), "{spec} {preset}: every cell credited {n} times, got {credits:?}");
                    } else {
                        assert!(credits.iter().any(|&c| c < n), "{spec} {preset}: without fill some cell stays empty at some end");
                    }
                }
            }
        }
    }

    /// PUCT prior lists cut to their first moves ([`priors::PRIOR_KEEP`]) change no decision:
    /// the same tree, statistics and best move as with whole lists, on fewer bytes, and the
    /// evaluator was asked again for the nodes that wanted more (with and without tree reuse).
    #[test]
    fn cut_prior_lists_search_as_whole_lists() {
        for (spec, preset, n) in
            [("hex:7", "puct", 20_000), ("hex:11", "puct", 20_000), ("pentago", "puct", 5_000), ("hex:7", "alphazero", 2_000)]
        {
            let g = crate::game::AnyGame::from_spec(spec).unwrap();
            crate::with_game!(&g, g => cut_vs_whole(g, spec, preset, n));
        }
    }

    fn cut_vs_whole<G: Game>(g: &G, spec: &str, preset: &str, n: u64) {
        let cfg = SearchConfig::preset(preset).unwrap();
        // `alphazero` asks for the game's network.
        let mut a = crate::nn::search::search(g.clone(), cfg.clone()).unwrap();
        let mut b = crate::nn::search::search(g.clone(), cfg).unwrap();
        b.prior_keep = usize::MAX;
        let stats = |s: &Search<G>| s.tree.nodes.iter().map(|n| (n.n, n.w.to_bits())).collect::<Vec<_>>();
        for round in 0..2 {
            a.run(Budget::iterations(n), &|| 0.0);
            b.run(Budget::iterations(n), &|| 0.0);
            assert_eq!(a.tree.len(), b.tree.len(), "{spec} {preset} round {round}: nodes");
            assert_eq!(stats(&a), stats(&b), "{spec} {preset} round {round}: node statistics");
            assert_eq!(a.best_move(), b.best_move(), "{spec} {preset} round {round}");
            assert!(a.evaluations() > b.evaluations(), "{spec} {preset}: some node asked again");
            assert!(
                a.node_priors.bytes() < b.node_priors.bytes(),
                "{spec} {preset}: {} vs {} bytes",
                a.node_priors.bytes(),
                b.node_priors.bytes()
            );
            // Tree reuse: play the best move in both and go on.
            let m = a.best_move().unwrap();
            a.advance(m).unwrap();
            b.advance(m).unwrap();
        }
    }

    /// The children's bounds (`ChildBound`) exist only where MC-RAVE with c = 0 reads them, one
    /// per node, and a new configuration drops them: a search with c = 0, then c > 0 (which
    /// visits other children), then c = 0 again on the same tree never skips wrongly (debug
    /// builds check every skip against the full pass).
    #[test]
    fn child_bounds_follow_the_configuration() {
        let g = crate::game::Hex::new(7, false).unwrap();
        let mut cfg = SearchConfig::preset("rave").unwrap();
        let mut s = Search::new(g.clone(), cfg.clone()).unwrap();
        s.run(Budget::iterations(3000), &|| 0.0);
        assert!(s.tree.with_child_bounds);
        assert_eq!(s.tree.amaf.children.len(), s.tree.len(), "one bound per node");
        assert!(s.tree.amaf.children.iter().any(|b| b.table != crate::mcts::tree::NIL), "bounds left by passes");
        cfg.c = 0.7;
        s.set_config(cfg.clone()).unwrap();
        assert!(!s.tree.with_child_bounds && s.tree.amaf.children.is_empty(), "c > 0: none");
        s.run(Budget::iterations(3000), &|| 0.0);
        cfg.c = 0.0;
        s.set_config(cfg).unwrap();
        assert!(s.tree.with_child_bounds);
        assert!(s.tree.amaf.children.iter().all(|b| b.table == crate::mcts::tree::NIL), "dropped");
        s.run(Budget::iterations(3000), &|| 0.0);
        assert_eq!(s.tree.amaf.children.len(), s.tree.len());
        let grave = Search::new(g, SearchConfig::preset("grave").unwrap()).unwrap();
        assert!(!grave.tree.with_child_bounds && grave.tree.amaf.children.is_empty(), "GRAVE reads none");
    }

    /// Visit and AMAF counters saturate at `u32::MAX` instead of wrapping: Q stays a mean.
    #[test]
    fn counters_saturate_instead_of_wrapping() {
        let mut s = rave_search(0.0, 1);
        s.run(Budget::iterations(200), &|| 0.0);
        let root = &mut s.tree.nodes[0];
        root.n = u32::MAX - 2;
        root.w = root.n as f64 * 0.25;
        let t = s.tree.amaf.table(0).unwrap() as usize;
        // Both rows stored (player 1's is derived until then), so that the entries can be set.
        s.tree.amaf.materialize(t as u32, s.ms);
        for k in s.tree.amaf.entries(t as u32) {
            s.tree.amaf.n[k] = crate::mcts::amaf::AMAF_MAX - 1;
            s.tree.amaf.w2[k] = 2 * (crate::mcts::amaf::AMAF_MAX - 1);
        }
        // As many updates as the entries' counts (the update counter bounds them all; below
        // AMAF_MAX updates the rows are credited without a saturation check).
        s.tree.amaf.updates[t] = (crate::mcts::amaf::AMAF_MAX - 1) as u64;
        // The tables were rewritten, not updated: the scans' bounds on them no longer hold.
        s.tree.amaf.untried.fill(crate::mcts::amaf::UntriedBound::NONE);
        s.tree.amaf.children.fill(crate::mcts::amaf::ChildBound::NONE);
        s.run(Budget::iterations(10), &|| 0.0);
        let root = &s.tree.nodes[0];
        assert_eq!(root.n, u32::MAX, "saturated, not wrapped");
        assert!((0.0..=1.0).contains(&root.q()), "Q = {}", root.q());
        let amax = crate::mcts::amaf::AMAF_MAX;
        assert!(s.tree.amaf.n[s.tree.amaf.entries(t as u32)].iter().all(|&n| n == amax - 1 || n == amax), "AMAF counts saturate");
        assert!(s.tree.amaf.n[s.tree.amaf.entries(t as u32)].contains(&amax), "some AMAF entry reached the cap");
        assert!(s.tree.amaf.w2[s.tree.amaf.entries(t as u32)].iter().all(|&x| x >= 2 * (amax - 1)), "AMAF sums never wrap");
        for i in 0..25 {
            if let Some(v) = root_amaf(&s, i) {
                assert!((0.0..=1.0).contains(&v), "AMAF value {v}");
            }
        }
        assert_eq!(s.root_visits(), u32::MAX as u64);
    }

    /// A table whose player-1 row is derived (`AmafTables`) reads exactly as one with both rows
    /// stored: two equal searches, all of one's tables stored halfway (`materialize`), go on
    /// alike (every entry, the root's statistics, the best move), on boards where games end
    /// inside the tree (whose updates store the row by themselves) and with GRAVE and a policy.
    #[test]
    fn derived_amaf_rows_read_as_stored_ones() {
        for (size, preset) in [(4, "rave"), (5, "rave"), (7, "rave"), (5, "grave"), (5, "lgr"), (5, "best")] {
            let mk = || Search::new(Hex::new(size, false).unwrap(), SearchConfig::preset(preset).unwrap()).unwrap();
            let (mut a, mut b) = (mk(), mk());
            a.run(Budget::iterations(1500), &|| 0.0);
            b.run(Budget::iterations(1500), &|| 0.0);
            let derived = b.tree.amaf.derived.iter().filter(|d| d.is_some()).count();
            assert!(derived > 0, "hex:{size} {preset}: some tables derived");
            let tables = b.tree.amaf.derived.len() as u32;
            for t in 0..tables {
                b.tree.amaf.materialize(t, b.ms);
            }
            a.run(Budget::iterations(1500), &|| 0.0);
            b.run(Budget::iterations(1500), &|| 0.0);
            assert!(b.tree.amaf.derived[..tables as usize].iter().all(|d| d.is_none()), "hex:{size} {preset}: stored stays stored");
            assert!(a.tree.amaf.derived.iter().any(|d| d.is_some()), "hex:{size} {preset}: still derived");
            assert_eq!(a.tree.amaf.derived.len(), b.tree.amaf.derived.len(), "hex:{size} {preset}: tables");
            for t in 0..a.tree.amaf.derived.len() as u32 {
                for p in 0..2u8 {
                    for i in 0..a.ms {
                        assert_eq!(a.tree.amaf.get(t, p, i, a.ms), b.tree.amaf.get(t, p, i, b.ms), "hex:{size} {preset} t{t} p{p} i{i}");
                    }
                }
            }
            assert_eq!(a.root_visits(), b.root_visits());
            assert_eq!(a.best_move(), b.best_move(), "hex:{size} {preset}");
            assert_eq!(a.tree.nodes[0].w, b.tree.nodes[0].w, "hex:{size} {preset}: root value");
        }
    }

    /// Each AMAF table's update count bounds every entry's count (first occurrence: one sample
    /// per update at most), also after tree reuse copies the tables: below `AMAF_MAX` updates
    /// the rows are credited without a saturation check (`credit_row`).
    #[test]
    fn amaf_update_counts_bound_the_entries_across_reuse() {
        let mut s = rave_search(0.0, 1);
        for round in 0..3 {
            s.run(Budget::iterations(400), &|| 0.0);
            let mut tables = 0;
            for node in 0..s.tree.len() as u32 {
                if let Some(t) = s.tree.amaf.table(node) {
                    let t = t as usize;
                    let most = s.tree.amaf.n[s.tree.amaf.entries(t as u32)].iter().copied().max().unwrap();
                    assert!(most as u64 <= s.tree.amaf.updates[t], "round {round} node {node}");
                    tables += 1;
                }
            }
            assert!(tables > 1, "round {round}");
            assert!(s.tree.amaf.updates[s.tree.amaf.table(0).unwrap() as usize] >= 400, "round {round}: the root's updates kept");
            let m = s.best_move().unwrap();
            s.advance(m).unwrap();
        }
    }

    /// Quality-based rewards: after tree reuse the length statistics hold only playouts from the
    /// new root (every Hex playout has a winner, so one sample per iteration).
    #[test]
    fn qb_statistics_restart_after_advance() {
        let mut s = Search::new(Hex::new(5, false).unwrap(), SearchConfig::preset("qb").unwrap()).unwrap();
        s.run(Budget::iterations(500), &|| 0.0);
        assert_eq!(s.policy.qb[0].n + s.policy.qb[1].n, 500);
        let m = s.best_move().unwrap();
        s.advance(m).unwrap();
        assert_eq!(s.policy.qb[0].n + s.policy.qb[1].n, 0);
        s.run(Budget::iterations(300), &|| 0.0);
        assert_eq!(s.policy.qb[0].n + s.policy.qb[1].n, 300);
        let longest = (25 - 1) as f64;
        assert!(s.policy.qb.iter().all(|w| w.mean <= longest), "lengths from the new root");
    }

    /// Transpositions: with UCT2 the edges count the visits through them, n(s,a), and the
    /// children's edge counts never exceed the parent's visits (UCT1 reads the shared node's n).
    #[test]
    fn transposition_edges_count_their_own_visits() {
        for rule in [TranspositionRule::Uct1, TranspositionRule::Uct2] {
            let cfg = SearchConfig { transpositions: true, transposition_rule: rule, ..SearchConfig::default() };
            let mut s = Search::new(Hex::new(4, false).unwrap(), cfg).unwrap();
            s.run(Budget::iterations(20_000), &|| 0.0);
            let mut over = 0;
            let mut aliases = 0;
            for id in 0..s.tree.len() as u32 {
                let sum: u64 = s.tree.children(id).map(|e| s.tree.edges[e as usize].n as u64).sum();
                assert!(sum <= s.tree.nodes[id as usize].n as u64, "{rule:?}: Σ n(s,a) ≤ N");
                for e in s.tree.children(id) {
                    let edge = s.tree.edges[e as usize];
                    aliases += (edge.flags & crate::mcts::tree::ALIAS != 0) as u32;
                    over += (s.tree.nodes[edge.child as usize].n > s.tree.nodes[id as usize].n) as u32;
                }
            }
            assert!(aliases > 0, "transpositions happened");
            assert!(over > 0, "some shared child has more visits than one of its parents");
        }
    }

    #[test]
    fn tables_only_at_visited_nodes_and_counted_in_bytes() {
        let mut s = rave_search(std::f64::consts::SQRT_2, 16);
        s.run(Budget::iterations(3000), &|| 0.0);
        let with_table = (0..s.tree.len() as u32).filter(|&i| s.tree.amaf.table(i).is_some()).count();
        let heavy = s.tree.nodes.iter().filter(|n| n.n >= 16).count();
        assert!(with_table >= heavy.saturating_sub(1) && with_table <= heavy + 1, "{with_table} tables, {heavy} nodes with >= 16 visits");
        assert!(s.tree_bytes() >= with_table * 2 * 25 * 8);
    }

    #[test]
    fn pool_order_best_amaf_first() {
        let pool = pool_order(vec![(0.2, 5), (0.9, 1), (0.5, 7), (0.9, 0), (0.1, 3)], 3);
        assert_eq!(pool, vec![0, 1, 7]);
        assert_eq!(pool_order(vec![(0.2, 5), (0.9, 1)], 3), vec![1, 5], "fewer candidates than k");
        // partial selection gives the full sort's first k
        let mut rng = Rng64::new(4);
        for _ in 0..200 {
            let cands: Vec<(f64, u16)> = (0..60u16).map(|i| ((rng.below(7) as f64) / 6.0, i)).collect();
            let mut full = cands.clone();
            full.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap().then(a.1.cmp(&b.1)));
            let want: Vec<u16> = full.iter().take(10).map(|x| x.1).collect();
            assert_eq!(pool_order(cands, 10), want);
        }
    }
}
