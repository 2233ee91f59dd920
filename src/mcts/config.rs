//! [`SearchConfig`]: every switch and constant of the search as plain data (serde), presets by
//! name, and one field set by name from a typed value ([`SearchConfig::set_value`], a
//! [`ParamValue`]) or from `--set` text ([`SearchConfig::set`]: read by the field's type, then
//! the same setter), with range checks.
//!
//! Field names are the serde (snake_case) names used by `mcts search --set key=value`, by the page
//! and by the tests. Defaults are plain UCT with random playouts and c = √2.

use serde::{Deserialize, Serialize};

use super::param::{enum_field, FieldType, Misfit, ParamType, ParamValue};

/// Why a configuration, a preset name or a `key=value` setting was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ConfigError {
    /// No preset has this name.
    #[error("unknown preset '{}'; expected one of: {}", crate::limits::abbreviate(name), SearchConfig::PRESETS.join(" "))]
    UnknownPreset {
        /// The name asked for.
        name: String,
    },
    /// No configuration field has this (serde) name.
    #[error("unknown config key '{}'; keys: {}", crate::limits::abbreviate(key), .keys.join(" "))]
    UnknownKey {
        /// The key asked for.
        key: String,
        /// The valid keys, sorted.
        keys: Vec<String>,
    },
    /// The value cannot be read as the field's type (number, boolean, enum name).
    #[error(
        "bad value '{}' for '{}': {}",
        crate::limits::abbreviate(value),
        crate::limits::abbreviate(key),
        crate::limits::abbreviate(reason)
    )]
    BadValue {
        /// The field.
        key: String,
        /// The text given.
        value: String,
        /// What the reader said.
        reason: String,
    },
    /// A field is out of its allowed range.
    #[error("{field} = {value} is out of range {range}")]
    OutOfRange {
        /// The field.
        field: &'static str,
        /// Its value.
        value: f64,
        /// The allowed range, e.g. `[0, 100]` or `(0, 1e9]`.
        range: &'static str,
    },
    /// Two settings that do not go together, e.g. a value leaf evaluation without a network.
    #[error("{setting} needs {needs}")]
    Needs {
        /// The setting that was asked for, e.g. `leaf = value`.
        setting: &'static str,
        /// What it needs, e.g. `prior = net (a trained network)`.
        needs: &'static str,
    },
}

/// Tree policy: how a child is chosen during the descent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Selection {
    /// UCB1 applied to trees (Kocsis & Szepesvári 2006): `Q + c·√(ln N / n)`; unvisited children
    /// first, in seeded random order.
    Uct,
    /// AlphaGo/AlphaZero PUCT (Silver et al. 2016, 2017): `Q + c·P·√N / (1 + n)`, priors `P` from
    /// the evaluator (see [`PriorKind`]); unvisited children valued `fpu`.
    Puct,
}

/// Value estimate blended into Q during selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueEstimate {
    /// The plain Monte Carlo mean Q = w / n.
    Mean,
    /// MC-RAVE (Gelly & Silver 2007, 2011): `(1−β)·Q + β·Q_AMAF` with the node's own AMAF statistics.
    Rave,
    /// GRAVE (Cazenave 2015): AMAF statistics of the nearest ancestor with at least `grave_ref`
    /// playouts, `β = n_a / (n_a + n + bias·n_a·n)`.
    Grave,
}

/// Schedule of the RAVE weight β.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RaveSchedule {
    /// `β = √(k / (3n + k))` (Gelly & Silver 2007, "hand-selected schedule"; equivalence parameter k).
    Sqrt,
    /// `β = max(0, (V − n) / V)` (a linear schedule, as used by earlier Hex RAVE agents with V = 300).
    Linear,
}

/// Last-Good-Reply playout policy variant (Drake 2009; Baier & Drake 2010).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LgrMode {
    /// No reply table.
    Off,
    /// LGR-1: replies to the previous move are stored for the winner and never forgotten.
    Lgr1,
    /// LGRF-1: as LGR-1, and the loser's replies are forgotten.
    Lgrf1,
    /// LGRF-2: replies to the previous two moves first, then to the previous move; with forgetting.
    Lgrf2,
}

/// MAST move selection in playouts (Finnsson & Björnsson 2008).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MastMode {
    /// Off.
    Off,
    /// Gibbs (softmax) sampling `P(a) ∝ e^{Q(a)/τ}` (Finnsson & Björnsson 2008).
    Gibbs,
    /// ε-greedy: the best-Q move with probability 1−ε, else uniform (Tak, Winands & Björnsson 2012).
    EpsilonGreedy,
}

/// The rule that picks the move to play after the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum FinalMove {
    /// Most visits ("robust child"), ties by Q (after a proven win, which always comes first).
    Robust,
    /// Highest mean value Q ("max child"), ties by visits.
    Max,
    /// Highest lower bound `Q − A/√n` ("secure child", Chaslot et al. 2008), A = `secure_a`.
    Secure,
}

/// Prior evaluator for PUCT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PriorKind {
    /// Uniform priors 1/|legal moves|.
    Uniform,
    /// A cheap tactical heuristic through the game's threat checks: winning moves weight 16,
    /// moves on an opponent threat (blocks) weight 4, others 1; normalised.
    Tactical,
    /// The game's trained policy-value network (`src/nn`, the nets of `models/` embedded in the
    /// binary): the softmax of the policy head over the legal moves. Games without a shipped
    /// net (Pentago, Hex sizes other than those in `models/`) refuse it with a clear error.
    Net,
    /// Hex's local patterns (MoHex 2.0: Huang, Arneson, Hayward, Müller & Pawlewicz 2013): the
    /// 12-cell neighbourhood of each legal move, weighted by its trained γ (the shipped
    /// `models/hex-patterns.mctspat`, [`crate::game::hex::patterns`]); P = γ / Σγ. Under UCT
    /// selection it enters as MoHex's progressive bias (`progressive_bias`), under PUCT as P.
    /// A game without local patterns (Tic-Tac-Toe, Pentago) searches with the uniform prior and
    /// no progressive bias instead, as it ignores Hex's other options (`Search::new`), so a Hex
    /// preset such as `mohex` plays every game; only asking for the pattern prior's own
    /// evaluator (`PatternPrior::for_game`) on such a game is refused.
    Patterns,
}

/// How a newly expanded leaf is valued (see `src/mcts/evaluator.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum LeafEval {
    /// A playout to the end of the game; its result z (classic MCTS).
    Rollout,
    /// The evaluator's value v, no playout (AlphaZero, Silver et al. 2017). Needs an
    /// evaluator with a value (`prior = net`); the search refuses it otherwise.
    Value,
    /// `V = (1 − λ)·v + λ·z`, λ = `mix_lambda` (AlphaGo, Silver et al. 2016). Needs an
    /// evaluator with a value, as `Value`.
    Mix,
}

/// Transposition update rule (Childs, Brodeur & Kocsis 2008).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TranspositionRule {
    /// UCT1: the statistics (n, Q) live in the shared position node, so every path to a position
    /// sees all playouts through it; the exploration term uses the parent's own visit count N
    /// and the shared child's n (which can exceed N when other paths reach the child). The default.
    Uct1,
    /// UCT1's shared Q with per-edge counts in the exploration term: `Q(s') + c·√(ln N / n(s,a))`,
    /// n(s,a) the visits through this edge (Childs, Brodeur & Kocsis 2008, UCT2; the edge counts
    /// of UCD, Saffidine, Cazenave & Méhat 2012), so Σ n(s,a) ≤ N at every node.
    Uct2,
}

/// How the root chooses which child each iteration visits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RootRule {
    /// The root selects like every other node (UCB1, RAVE, PUCT, ... as `selection` says).
    Puct,
    /// Gumbel AlphaZero's root (Danihelka, Guez, Schrittwieser & Silver 2022, "Policy improvement
    /// by planning with Gumbel", ICLR): Gumbel-top-k sampling of `gumbel_m` root moves by
    /// `g(a) + logit(a)`, then sequential halving of the playout budget among them, ranked by
    /// `g(a) + logit(a) + σ(q̂(a))`; the final move is the last survivor. Needs priors
    /// (`selection = puct`) and a playout budget known in advance: it applies to `run` with an
    /// iteration budget only (a time budget, or a search resumed in chunks, selects at the root
    /// by PUCT). Below the root, PUCT as usual.
    Gumbel,
}

/// c of the network presets (`alphazero`, `alphago`, `puct-net`): 1.25, AlphaZero's `c_init`
/// (Silver et al. 2018, pseudocode; the `c_base` growth term is left out, as it only matters past
/// ~20,000 visits). Q here is in [0, 1], half the [−1, 1] scale of the paper, so this explores
/// twice as much relative to Q as c = 1.25 there (not tuned for the nets of `models/`).
pub const NET_PUCT_C: f64 = 1.25;

/// A named configuration (see [`SearchConfig::of`]); its name (`"uct"`, `"rave"`, ...) is what
/// `mcts search --algo`, the page and [`SearchConfig::preset`] take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// Plain UCT, the default configuration.
    Uct,
    /// MC-RAVE with c = 0.
    Rave,
    /// GRAVE with c = 0.
    Grave,
    /// UCT with decisive and anti-decisive moves and MCTS-Solver.
    Decisive,
    /// RAVE with LGR-1 playouts (p = 1).
    Lgr,
    /// RAVE with LGRF-2 playouts.
    Lgrf2,
    /// RAVE with PoolRAVE playouts.
    Poolrave,
    /// RAVE with MAST (Gibbs) playouts.
    Mast,
    /// RAVE with quality-based rewards.
    Qb,
    /// UCT with the depth-2 critical-move filter at the root.
    Depth2,
    /// UCT with MCTS-Solver and the secure child as final move.
    Solver,
    /// PUCT with the tactical prior.
    Puct,
    /// RAVE, decisive/anti-decisive moves, MCTS-Solver and depth-2.
    Best,
    /// MoHex-style Hex player: RAVE with save-bridge playouts, pattern priors as progressive
    /// bias, Hex knowledge in the tree and MCTS-Solver (Huang et al. 2013).
    Mohex,
    /// AlphaZero: PUCT with the network's priors, leaves valued by the value head only.
    Alphazero,
    /// AlphaGo: PUCT with the network's priors, leaves valued by `(1−λ)·v + λ·z`, λ = 0.5.
    Alphago,
    /// PUCT with the network's priors and random playouts (no value head).
    #[serde(rename = "puct-net")]
    PuctNet,
}

impl Preset {
    /// Every preset, in the order of [`SearchConfig::PRESETS`].
    pub const ALL: [Preset; 17] = [
        Preset::Uct,
        Preset::Rave,
        Preset::Grave,
        Preset::Decisive,
        Preset::Lgr,
        Preset::Lgrf2,
        Preset::Poolrave,
        Preset::Mast,
        Preset::Qb,
        Preset::Depth2,
        Preset::Solver,
        Preset::Puct,
        Preset::Best,
        Preset::Mohex,
        Preset::Alphazero,
        Preset::Alphago,
        Preset::PuctNet,
    ];

    /// The preset's name, as serialised.
    pub fn name(self) -> &'static str {
        SearchConfig::PRESETS[self as usize]
    }

    /// Whether the preset needs the game's trained network (`alphazero`, `alphago`,
    /// `puct-net`); see `nn::models::presets_for` for the presets a game can use.
    pub fn needs_net(self) -> bool {
        matches!(self, Preset::Alphazero | Preset::Alphago | Preset::PuctNet)
    }
}

impl std::fmt::Display for Preset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Preset {
    type Err = ConfigError;

    /// A preset by name, ignoring case and surrounding blanks.
    fn from_str(name: &str) -> Result<Preset, ConfigError> {
        let n = name.trim().to_ascii_lowercase();
        Preset::ALL.into_iter().find(|p| p.name() == n).ok_or(ConfigError::UnknownPreset { name: n })
    }
}

/// Declares [`SearchConfig`] and, from the same list of fields, its field table: every field's
/// serde name (the Rust name: no field is renamed) and [`ParamType`], and the match on the name
/// that sets a field from a [`ParamValue`] or reads it as one. Names and types are written once,
/// in the struct below; ranges once, in [`SearchConfig::ranged_fields`].
macro_rules! search_config {
    (
        $(#[$meta:meta])*
        pub struct SearchConfig {
            $( $(#[$fmeta:meta])* pub $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$meta])*
        pub struct SearchConfig {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl SearchConfig {
            /// Every field's serde name and type, in the order of the struct: the table that
            /// [`SearchConfig::set_value`] and [`super::schema::schema`] read.
            pub const FIELDS: &'static [(&'static str, ParamType)] = &[$( (stringify!($field), <$ty as FieldType>::KIND), )*];

            /// Sets field `key` from `v` (read from text already), without checks across fields.
            fn take_field(&mut self, key: &str, v: &ParamValue) -> Option<Result<(), Misfit>> {
                match key {
                    $( stringify!($field) => Some(FieldType::take(&mut self.$field, v)), )*
                    _ => None,
                }
            }

            /// Field `key`'s value, typed (`None`: no such field).
            pub fn value_of(&self, key: &str) -> Option<ParamValue> {
                match key {
                    $( stringify!($field) => Some(FieldType::value(&self.$field)), )*
                    _ => None,
                }
            }

            /// The names enum field `key` takes (empty for a field of another type or no field).
            pub fn enum_names(key: &str) -> Vec<String> {
                match key {
                    $( stringify!($field) => <$ty as FieldType>::names(), )*
                    _ => Vec::new(),
                }
            }
        }
    };
}

search_config! {
/// The whole search configuration. `Default` = plain UCT, random playouts, c = √2, seed 1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchConfig {
    /// Tree policy.
    pub selection: Selection,
    /// Exploration constant c of UCB1 / PUCT. Default √2, the UCB1 constant for rewards in [0, 1]
    /// (Auer, Cesa-Bianchi & Fischer 2002; Kocsis & Szepesvári 2006). Range 0..=100.
    pub c: f64,
    /// Value estimate blended into Q.
    pub value: ValueEstimate,
    /// RAVE β schedule.
    pub rave_schedule: RaveSchedule,
    /// Equivalence parameter k of `β = √(k/(3n+k))`; default 1000, the value Gelly & Silver (2007)
    /// found best for 9×9 MoGo. Range (0, 1e9].
    pub rave_k: f64,
    /// V of the linear schedule `β = max(0, (V−n)/V)`; default 300 (the value of earlier Hex RAVE agents).
    pub rave_v: f64,
    /// Visits after which a node gets its dense AMAF table (RAVE, GRAVE, PoolRAVE): AMAF values
    /// for every move of both players, so untried moves can be ranked too. Younger nodes use the
    /// table of their nearest ancestor that has one (as GRAVE does). Default 128: with the `rave`
    /// preset (c = 0) the tree then takes 59 / 64 / 70 bytes per node on Hex 7×7 / 11×11 /
    /// Pentago after a 1-s search (32: 72 / 86 / 108), and 128 against 32 made no measurable
    /// difference in strength (`mcts arena`, `rave` with 128 vs 32: Hex 7×7 2,000 iterations
    /// 0.465 [0.397, 0.534], Pentago 5,000 iterations 0.460 [0.392, 0.529], Hex 11×11 5,000
    /// iterations 0.540 [0.443, 0.634]). 1 = a table at every visited node (MC-RAVE as
    /// published, much more memory). Range 1..=1e9.
    pub rave_table_visits: u32,
    /// GRAVE: minimum playouts of the ancestor whose AMAF statistics are used (Cazenave 2015; 100).
    pub grave_ref: u32,
    /// GRAVE bias in `β = n_a/(n_a + n + bias·n_a·n)`; default 1e-6. Range [0, 1].
    pub grave_bias: f64,
    /// Playouts fill the board (Hex), as MoHex's do (Arneson, Hayward & Henderson 2010;
    /// Benzene stops a playout "when board is filled"), and AMAF credits every cell each player
    /// owns on the filled board, not only the moves before the winning connection. The winner
    /// is the same (a full Hex board has one winner; connection is monotone). A uniformly
    /// random playout is the filled board itself ([`crate::game::Game::fill_playout`]); a
    /// playout that must stop at the game's end keeps its real end for everything but AMAF:
    /// LGR/LGRF-2, PoolRAVE and MAST playouts, which choose the whole board anyway, add their
    /// own moves after the end; decisive-move playouts and quality-based rewards (which read
    /// the real length) have the rest dealt at random ([`crate::game::Game::fill_rest`]).
    /// Only searches with AMAF (RAVE, GRAVE, PoolRAVE) read it; games whose play stops at the
    /// end (Pentago, Tic-Tac-Toe) ignore it. Off by default; on in the presets built on RAVE
    /// and GRAVE (measured: `rave` with it against without, Hex 11×11, 5,000 playouts per move,
    /// 200 games: 0.67 [0.60, 0.73]; `grave` 0.60 [0.53, 0.67]).
    pub fill_playouts: bool,
    /// PUCT: Q of unvisited children ("first-play urgency"), in [0, 1]; default 0.5 (a draw).
    pub fpu: f64,
    /// Prior evaluator: PUCT's P, and under UCT selection the P of the progressive bias
    /// (`progressive_bias`).
    pub prior: PriorKind,
    /// Progressive bias constant c_pb under UCT selection: a child scores its UCT score plus
    /// `c_pb · P / √(n + 1)`, P its prior (`prior`), n its visits, and an untried move its
    /// untried score plus `c_pb · P` (n = 0). MoHex 2.0's tree formula (benzene
    /// `SgUctSearch::GetBound`: `value += m_progressiveBiasConstant * child.Prior() /
    /// sqrt(child.MoveCount() + 1)`; `MoHexSearch` sets the constant to 2.47, P = γ/Σγ of its
    /// patterns, `MoHexPriorKnowledge`); after Chaslot et al. 2008 ("Progressive strategies for
    /// Monte-Carlo tree search"). 0 (the default) turns it off: the search is the one without
    /// it. Range [0, 100]; needs `selection = uct`.
    pub progressive_bias: f64,
    /// How a new leaf is valued: playout, network value, or AlphaGo's mix.
    pub leaf: LeafEval,
    /// λ of AlphaGo's leaf value `V = (1 − λ)·v + λ·z` (`leaf = mix`); default 0.5, the value
    /// Silver et al. (2016) found best ("mixing parameter λ = 0.5"). Range [0, 1].
    pub mix_lambda: f64,

    /// Decisive moves in playouts (Teytaud & Teytaud 2010): play a move that wins at once.
    pub decisive: bool,
    /// Anti-decisive moves: if the opponent threatens to win at once, play on its threat.
    pub anti_decisive: bool,
    /// Save-bridge playouts (Hex), as MoHex's (Arneson, Hayward & Henderson 2010): when the
    /// opponent's last move intrudes into a bridge of the player to move (two of its stones, or
    /// a stone and its own edge, with two common empty neighbours), that player answers in the
    /// other common neighbour; one drawn uniformly when several bridges are intruded
    /// ([`crate::game::hex::bridges`]). After decisive and anti-decisive moves, before LGR, PoolRAVE
    /// and the default policy. Games without bridges (Pentago, Tic-Tac-Toe: no
    /// [`crate::game::Game::bridge_rings`]) ignore it: their searches play as without it.
    /// Off by default and in every preset but `mohex`; `--set save_bridge=true` adds it to any.
    pub save_bridge: bool,
    /// Last-Good-Reply playout policy.
    pub lgr: LgrMode,
    /// Probability of playing a stored legal reply; default 1.0, as Drake (2009) and Baier & Drake
    /// (2010), who always play it. Range [0, 1].
    pub lgr_p: f64,
    /// PoolRAVE (Rimmel, Teytaud et al. 2010; Hoock et al. 2010) on/off.
    pub poolrave: bool,
    /// PoolRAVE pool size k (default 10). The pools are cached per AMAF table and rebuilt when
    /// its node has gained 1/8 more visits (`search/rollout.rs`). Range 1..=400.
    pub pool_k: usize,
    /// PoolRAVE probability p of trying a pool move (default 0.5).
    pub pool_p: f64,
    /// PoolRAVE: minimum AMAF visits of a move to enter the pool (default 1).
    pub pool_min_amaf: u32,
    /// MAST playout policy.
    pub mast: MastMode,
    /// MAST Gibbs temperature τ of `P(a) ∝ e^{Q(a)/τ}` on the [0, 1] reward scale; default 0.1 =
    /// Finnsson & Björnsson's (2008) τ = 10 on their 0..100 score scale. Range (0, 100].
    pub mast_tau: f64,
    /// MAST ε of ε-greedy; default 0.4 (Tak, Winands & Björnsson 2012).
    pub mast_epsilon: f64,
    /// Quality-based rewards, relative bonus on the playout length (Pepels et al. 2014).
    pub qb: bool,
    /// QB weight a (default 0.25).
    pub qb_a: f64,
    /// QB sigmoid steepness k of `−1 + 2/(1 + e^{−kλ})` (default 1).
    pub qb_k: f64,

    /// MCTS-Solver (Winands, Björnsson & Saito 2008): back up proven wins, losses and draws.
    pub solver: bool,
    /// Hex knowledge in the tree, as MoHex's (Arneson, Hayward & Henderson 2010; Huang et al.
    /// 2013; benzene's `MoHexThreadState::ComputeKnowledge`): once a node has
    /// `knowledge_threshold` visits, its children are cut to the game's consider set
    /// ([`crate::game::Game::knowledge_moves`]: Hex's dead and captured cells and the moves
    /// outside the must-play region pruned, `docs/hex-knowledge.md`); the node's missing
    /// children are added at once. Games without it (Pentago, Tic-Tac-Toe) ignore it. Off by
    /// default and in every preset but `mohex`; `--set knowledge=true` adds it to any.
    pub knowledge: bool,
    /// Visits of a node before its knowledge is computed (`knowledge`); default 256, MoHex's
    /// (`MoHexSearch::MoHexSearch`: `SetKnowledgeThreshold` to 256). Range 1..=1e9.
    pub knowledge_threshold: u32,
    /// Visits a node needs before children are added to it (the expansion threshold of Coulom
    /// 2006 and benzene's `SgUctSearch::SetExpandThreshold`, MoHex's 10 in
    /// `MoHexSearch::MoHexSearch`): below it an iteration that reaches the node plays out from
    /// the node itself. The root always expands. Default 1: a node gets its first child on its
    /// second visit, as in every preset but `mohex` (10). Range 1..=1e9 visits.
    pub expand_threshold: u32,
    /// Transpositions (Childs, Brodeur & Kocsis 2008): Zobrist-keyed shared nodes (a DAG).
    pub transpositions: bool,
    /// Which transposition update rule.
    pub transposition_rule: TranspositionRule,
    /// Depth-2 critical-move search at the root before MCTS: a move that wins at once restricts the
    /// root to the winning moves, else moves after which the opponent wins at once are excluded.
    pub depth2: bool,
    /// Rollout-expand: add the playout's positions to the tree as a chain of nodes below the leaf.
    pub rollout_expand: bool,
    /// Jump exploration: at a not fully expanded node, descend into an existing child
    /// with probability (expanded children / legal moves) instead of expanding.
    pub jump: bool,

    /// Final move rule.
    pub final_move: FinalMove,
    /// A of the secure child `Q − A/√n` (default 1).
    pub secure_a: f64,
    /// Seed of the one random generator.
    pub seed: u64,
    /// Maximum tree nodes (arena entries). At the cap the tree stops growing and statistics keep
    /// improving, unless `stop_at_node_cap`. Range 1..=1e9; default 5,000,000 (about 300 MB at ≈ 60 B/node).
    pub node_cap: u64,
    /// Memory cap of the search, in MiB (2^20 bytes): the tree's storage (nodes, edges, AMAF
    /// tables, PUCT priors, the transposition table; `Search::tree_bytes`) and, in
    /// WebAssembly, the module's whole linear memory. The tree stops growing once its next
    /// growth step could pass the cap (every arena grows by at most a quarter, so a capped tree
    /// holds 75–100 % of it) and is kept; statistics keep improving, unless `stop_at_node_cap`.
    /// A root-parallel search (`--threads N`) gives each worker 1/N. Range 1..=1,048,576
    /// (1 TiB); default 2,048 (2 GiB) natively, [`crate::limits::PAGE_MEMORY_CAP_MIB`] (512) in
    /// the page's workers. Before it, `node_cap` alone did not bound memory: AMAF tables of
    /// 5.8 KB per node (Hex 19×19 with `rave_table_visits = 1`) grew a search to 2.8 GB.
    pub memory_cap_mib: u64,
    /// Stop `run` when the node cap or the memory cap is reached (`StopReason::NodeCap`,
    /// `StopReason::MemoryCap`).
    pub stop_at_node_cap: bool,
    /// The root's rule: `puct` (as every node, the default) or `gumbel` (see [`RootRule`]).
    pub root: RootRule,
    /// m of the Gumbel root: moves sampled by Gumbel-top-k (range 1..=400; default 16,
    /// `max_num_considered_actions` of DeepMind's mctx `gumbel_muzero_policy`).
    pub gumbel_m: usize,
    /// c_visit of `σ(q̂) = (c_visit + max_b N(b)) · c_scale · q̂` (range [0, 1e6]; default 50,
    /// Danihelka et al. 2022, and mctx's `maxvisit_init`).
    pub gumbel_c_visit: f64,
    /// c_scale of σ (range (0, 100]; default 0.1, mctx's `value_scale` with Q rescaled to
    /// [0, 1] by the min and max of the completed Q values, as mctx does; the paper's 1.0 is on
    /// its [−1, 1] value scale without rescaling).
    pub gumbel_c_scale: f64,
}
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            selection: Selection::Uct,
            c: std::f64::consts::SQRT_2,
            value: ValueEstimate::Mean,
            rave_schedule: RaveSchedule::Sqrt,
            rave_k: 1000.0,
            rave_v: 300.0,
            rave_table_visits: 128,
            grave_ref: 100,
            grave_bias: 1e-6,
            fill_playouts: false,
            fpu: 0.5,
            prior: PriorKind::Uniform,
            progressive_bias: 0.0,
            leaf: LeafEval::Rollout,
            mix_lambda: 0.5,
            decisive: false,
            anti_decisive: false,
            save_bridge: false,
            lgr: LgrMode::Off,
            lgr_p: 1.0,
            poolrave: false,
            pool_k: 10,
            pool_p: 0.5,
            pool_min_amaf: 1,
            mast: MastMode::Off,
            mast_tau: 0.1,
            mast_epsilon: 0.4,
            qb: false,
            qb_a: 0.25,
            qb_k: 1.0,
            solver: false,
            knowledge: false,
            knowledge_threshold: 256,
            expand_threshold: 1,
            transpositions: false,
            transposition_rule: TranspositionRule::Uct1,
            depth2: false,
            rollout_expand: false,
            jump: false,
            final_move: FinalMove::Robust,
            secure_a: 1.0,
            seed: 1,
            node_cap: 5_000_000,
            memory_cap_mib: 2048,
            stop_at_node_cap: false,
            root: RootRule::Puct,
            gumbel_m: 16,
            gumbel_c_visit: 50.0,
            gumbel_c_scale: 0.1,
        }
    }
}

impl SearchConfig {
    /// Preset names accepted by [`SearchConfig::preset`], in the order of [`Preset::ALL`].
    pub const PRESETS: &'static [&'static str] = &[
        "uct",
        "rave",
        "grave",
        "decisive",
        "lgr",
        "lgrf2",
        "poolrave",
        "mast",
        "qb",
        "depth2",
        "solver",
        "puct",
        "best",
        "mohex",
        "alphazero",
        "alphago",
        "puct-net",
    ];

    /// A named preset:
    /// - `uct`: the default; `rave`: MC-RAVE, √ schedule, k = 1000, c = 0 (expanded and untried
    ///   moves ranked alike by `(1−β)·Q + β·AMAF`, Gelly & Silver 2011); `grave`: GRAVE, ref 100,
    ///   bias 1e-6, c = 0 (Cazenave 2015, as Ludii: no exploration term); both, and every preset
    ///   built on them, fill the board in Hex playouts for AMAF (`fill_playouts`, as MoHex);
    /// - `decisive`: UCT with decisive and anti-decisive moves (Teytaud & Teytaud 2010) in the
    ///   playouts and first in the expansion order, plus MCTS-Solver: averaging alone (UCT or RAVE)
    ///   does not reliably see a one-move refutation at small budgets, the solver does (a child
    ///   with an expanded winning reply is a proven loss); see `tests/mcts_tactics.rs`;
    /// - `lgr` (LGR-1, p = 1: a stored legal reply is always played, Drake 2009), `lgrf2`
    ///   (LGRF-2, p = 1, Baier & Drake 2010), `poolrave`,
    ///   `mast` (Gibbs), `qb`: each playout enhancement on top of `rave` (each enhancement is
    ///   measured against RAVE, the agent it refines);
    /// - `depth2`: UCT plus the depth-2 filter; `solver`: UCT plus MCTS-Solver with the final
    ///   move by secure child `Q − A/√n`, A = 1 (Winands, Björnsson & Saito 2008);
    ///   `puct`: PUCT with the tactical prior, c = 1.5;
    /// - `best`: RAVE + decisive/anti-decisive moves + MCTS-Solver + depth-2;
    /// - `mohex`: MoHex 2.0's recipe on our engine (Huang, Arneson, Hayward, Müller & Pawlewicz,
    ///   "MoHex 2.0: a pattern-based MCTS Hex player", CG 2013; Arneson, Hayward & Henderson,
    ///   "Monte Carlo Tree Search in Hex", IEEE TCIAIG 2010) on `best`: RAVE (filling playouts)
    ///   with decisive/anti-decisive moves, MCTS-Solver (MoHex marks proven nodes) and depth-2,
    ///   plus save-bridge playouts (`save_bridge`), the 12-cell pattern prior as progressive bias
    ///   `c_pb·P/√(n+1)` with MoHex's c_pb = 2.47 (`prior = patterns`, `progressive_bias`), Hex
    ///   knowledge at 256 visits (`knowledge`: inferior cells and the must-play region) and
    ///   MoHex's expansion threshold of 10 visits (`expand_threshold`). Other games ignore the
    ///   Hex parts (it is `best` with the expansion threshold there);
    /// - `alphazero`: PUCT with the game's network (priors) and its value head at the leaves, no
    ///   playouts (Silver et al. 2017); `alphago`: the same priors, leaves valued
    ///   `(1−λ)·v + λ·z` with λ = 0.5 (Silver et al. 2016); `puct-net`: the network's priors
    ///   with random playouts. All three use c = [`NET_PUCT_C`]; they need a trained net for the
    ///   game (`models/`), else creating the search fails with a clear error.
    ///
    /// # Errors
    /// Unknown name (the message lists the valid ones).
    pub fn preset(name: &str) -> Result<SearchConfig, ConfigError> {
        Ok(SearchConfig::of(name.parse()?))
    }

    /// The configuration of preset `p` (see [`SearchConfig::preset`] for what each one is).
    pub fn of(p: Preset) -> SearchConfig {
        let mut c = SearchConfig::default();
        // MC-RAVE without an exploration term: Gelly & Silver (2011) found c = 0 best with RAVE,
        // and here (2000 iterations/move, 400 games) RAVE c = 0 beat RAVE c = √2 by 0.667
        // [0.620, 0.712] on Hex 7×7 and 0.792 [0.731, 0.843] (200 games) on Pentago.
        // Hex playouts fill the board for AMAF, as MoHex's (`fill_playouts`: rave with it beat
        // rave without 0.67 [0.60, 0.73] on Hex 11×11 at 5,000 playouts per move).
        let rave = |c: &mut SearchConfig| {
            c.value = ValueEstimate::Rave;
            c.c = 0.0;
            c.fill_playouts = true;
        };
        match p {
            Preset::Uct => {}
            Preset::Rave => rave(&mut c),
            // Cazenave (2015) and Ludii's GRAVE select on the blended value alone (no UCB term);
            // with c = √2 GRAVE lost to RAVE 0.105 at 10k playouts (our measurement).
            Preset::Grave => {
                c.value = ValueEstimate::Grave;
                c.c = 0.0;
                c.fill_playouts = true;
            }
            Preset::Decisive => {
                c.solver = true;
                c.decisive = true;
                c.anti_decisive = true;
            }
            Preset::Lgr => {
                rave(&mut c);
                c.lgr = LgrMode::Lgr1;
                // Drake (2009) always plays a stored legal reply.
                c.lgr_p = 1.0;
            }
            Preset::Lgrf2 => {
                rave(&mut c);
                c.lgr = LgrMode::Lgrf2;
                c.lgr_p = 1.0;
            }
            Preset::Poolrave => {
                rave(&mut c);
                c.poolrave = true;
            }
            Preset::Mast => {
                rave(&mut c);
                c.mast = MastMode::Gibbs;
            }
            Preset::Qb => {
                rave(&mut c);
                c.qb = true;
            }
            Preset::Depth2 => c.depth2 = true,
            Preset::Solver => {
                c.solver = true;
                // Winands, Björnsson & Saito (2008) play the secure child (A = 1).
                c.final_move = FinalMove::Secure;
            }
            Preset::Puct => {
                c.selection = Selection::Puct;
                c.prior = PriorKind::Tactical;
                c.c = 1.5;
            }
            Preset::Best => {
                rave(&mut c);
                c.decisive = true;
                c.anti_decisive = true;
                c.solver = true;
                c.depth2 = true;
            }
            Preset::Mohex => {
                // `best`'s tactics (decisive and anti-decisive moves, MCTS-Solver, depth-2) under
                // MoHex's parts: at equal time on Hex 11×11 the parts on RAVE alone lost to
                // `best` (0.38), on `best` they beat it (0.95; `docs/hex-knowledge.md`).
                rave(&mut c);
                c.decisive = true;
                c.anti_decisive = true;
                c.solver = true;
                c.depth2 = true;
                c.save_bridge = true;
                c.prior = PriorKind::Patterns;
                // MoHex's `SgUctSearch` bias constant (benzene `MoHexSearch.cpp`).
                c.progressive_bias = 2.47;
                c.knowledge = true;
                // MoHex's expansion threshold (`MoHexSearch::MoHexSearch`: `SetExpandThreshold(10)`).
                c.expand_threshold = 10;
            }
            Preset::Alphazero | Preset::Alphago | Preset::PuctNet => {
                c.selection = Selection::Puct;
                c.prior = PriorKind::Net;
                c.c = NET_PUCT_C;
                c.leaf = match p {
                    Preset::Alphazero => LeafEval::Value,
                    Preset::Alphago => LeafEval::Mix,
                    _ => LeafEval::Rollout,
                };
            }
        }
        c
    }

    /// Sets one field by its serde name from text, as `mcts search --set key=value` gives it:
    /// the text is read by the field's type ([`SearchConfig::parse_param`]: numbers `"0.7"`,
    /// whole numbers `"500"`, `"true"`/`"false"`, enum names `"grave"`, `"LGRF2"`) and set by
    /// [`SearchConfig::set_value`], the one path for text and typed values. Out-of-range values
    /// and unknown keys are errors; on error the configuration is untouched.
    ///
    /// # Errors
    /// Unknown key, unreadable value, value out of range (see each field's doc).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        self.set_value(key, &ParamValue::Text(value.to_string()))
    }

    /// Sets one field by its serde name from a typed value: a number for a number field, a
    /// whole number for an integer field, `true`/`false` for a switch, a name for an enum
    /// field. A [`ParamValue::Text`] is read by the field's type first, as
    /// [`SearchConfig::set`] reads text. The value is checked against the field's range, then
    /// the whole configuration as [`SearchConfig::validate`] does; on error the configuration
    /// is untouched. Only the field is touched (no serialisation of the configuration).
    ///
    /// # Errors
    /// [`ConfigError::UnknownKey`]; [`ConfigError::BadValue`] for a value of another type (the
    /// reason says what the field takes); [`ConfigError::OutOfRange`], [`ConfigError::Needs`].
    pub fn set_value(&mut self, key: &str, value: &ParamValue) -> Result<(), ConfigError> {
        let key = key.trim();
        let typed = SearchConfig::parse_param(key, value)?;
        let bad = |reason: String| ConfigError::BadValue { key: key.to_string(), value: value.to_string(), reason };
        if let Some(x) = typed.as_f64() {
            if let Some((range, _)) = self.ranged_fields().into_iter().find(|(r, _)| r.field == key) {
                range.check(x)?;
            }
        }
        let mut next = self.clone();
        match next.take_field(key, &typed) {
            Some(Ok(())) => {}
            Some(Err(Misfit::TooLarge(max))) => return Err(bad(format!("expected a whole number at most {max}"))),
            Some(Err(Misfit::Kind)) | None => return Err(bad(format!("expected {}", SearchConfig::expected(key)))),
        }
        next.validate()?;
        *self = next;
        Ok(())
    }

    /// `value` for field `key`, with text read by the field's type: a number (`f64`'s own
    /// reading, finite), a whole number (`u64`'s), `true` or `false`, or for an enum field the
    /// name in lower case (surrounding blanks dropped in all). Values that are not text are
    /// returned as they are (their type is checked when set).
    ///
    /// # Errors
    /// [`ConfigError::UnknownKey`]; [`ConfigError::BadValue`] for text that is not of the type.
    pub fn parse_param(key: &str, value: &ParamValue) -> Result<ParamValue, ConfigError> {
        let key = key.trim();
        let Some(kind) = SearchConfig::kind_of(key) else { return Err(SearchConfig::unknown_key(key)) };
        let ParamValue::Text(text) = value else { return Ok(value.clone()) };
        let t = text.trim();
        let read = match kind {
            ParamType::Number => t.parse::<f64>().ok().filter(|x| x.is_finite()).map(ParamValue::Number),
            ParamType::Integer => t.parse::<u64>().ok().map(ParamValue::Int),
            ParamType::Boolean => match t {
                "true" => Some(ParamValue::Bool(true)),
                "false" => Some(ParamValue::Bool(false)),
                _ => None,
            },
            ParamType::Enum => Some(ParamValue::Text(t.to_ascii_lowercase())),
        };
        read.ok_or_else(|| ConfigError::BadValue {
            key: key.to_string(),
            value: text.clone(),
            reason: format!("expected {}", SearchConfig::expected(key)),
        })
    }

    /// [`ConfigError::UnknownKey`] for `key`, with every field's name.
    pub fn unknown_key(key: &str) -> ConfigError {
        let mut keys: Vec<String> = SearchConfig::FIELDS.iter().map(|(k, _)| k.to_string()).collect();
        keys.sort();
        ConfigError::UnknownKey { key: key.to_string(), keys }
    }

    /// The type of field `key` (`None`: no such field).
    pub fn kind_of(key: &str) -> Option<ParamType> {
        SearchConfig::FIELDS.iter().find(|(k, _)| *k == key).map(|&(_, t)| t)
    }

    /// What field `key` takes, in words: `a number`, `a whole number`, `true or false`, `one of
    /// uct, puct` (empty for no such field).
    pub fn expected(key: &str) -> String {
        match SearchConfig::kind_of(key) {
            Some(ParamType::Number) => "a number".to_string(),
            Some(ParamType::Integer) => "a whole number".to_string(),
            Some(ParamType::Boolean) => "true or false".to_string(),
            Some(ParamType::Enum) => format!("one of {}", SearchConfig::enum_names(key).join(", ")),
            None => String::new(),
        }
    }

    /// Checks every range.
    ///
    /// # Errors
    /// The first field out of range, with its allowed range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        // One table of ranges for this check and for `mcts schema` (the page's copy).
        for (range, value) in self.ranged_fields() {
            range.check(value)?;
        }
        if self.progressive_bias > 0.0 && self.selection != Selection::Uct {
            return Err(ConfigError::Needs { setting: "progressive_bias > 0", needs: "selection = uct (PUCT has its prior term)" });
        }
        if self.root == RootRule::Gumbel && self.selection != Selection::Puct {
            return Err(ConfigError::Needs { setting: "root = gumbel", needs: "selection = puct (priors at the root)" });
        }
        Ok(())
    }

    /// Whether any playout needs the step-by-step policy loop (anything but uniform random),
    /// save-bridge aside: whether it applies depends on the game (the search's
    /// `policy_playouts`).
    pub fn policy_playouts(&self) -> bool {
        self.decisive || self.anti_decisive || self.lgr != LgrMode::Off || self.poolrave || self.mast != MastMode::Off
    }

    /// Whether decisive and/or anti-decisive moves are the only playout policies (no
    /// save-bridge, LGR, MAST or PoolRAVE): the playout the game may play in its own loop
    /// ([`crate::game::Game::decisive_playout`]; presets `decisive` and `best`).
    pub fn threat_checks_only(&self) -> bool {
        (self.decisive || self.anti_decisive)
            && self.lgr == LgrMode::Off
            && self.mast == MastMode::Off
            && !self.poolrave
            && !self.save_bridge
    }

    /// Whether anything reads the moves (or the length) of a playout: AMAF (RAVE, GRAVE,
    /// PoolRAVE), rollout-expand, policy playouts (LGR/LGRF, MAST learn from the sequence) or
    /// quality-based rewards (the playout length). When false, the search runs the game's
    /// outcome-only playout (`random_playout` with `NoTrace`).
    pub fn playout_moves_needed(&self) -> bool {
        self.needs_amaf() || self.rollout_expand || self.policy_playouts() || self.qb
    }

    /// Whether AMAF statistics must be collected.
    pub fn needs_amaf(&self) -> bool {
        self.value != ValueEstimate::Mean || self.poolrave
    }

    /// Whether the tree keeps a bound on each node's children (`ChildBound`, 20 bytes per node):
    /// MC-RAVE with c = 0, UCT-style selection and no transpositions, the only selection that
    /// reads one.
    pub fn child_bounds(&self) -> bool {
        self.value == ValueEstimate::Rave
            && self.c == 0.0
            && self.selection == Selection::Uct
            && !self.transpositions
            && self.progressive_bias == 0.0
    }
}

/// The allowed range of a numeric [`SearchConfig`] field: `min ≤ v ≤ max`, or `min < v ≤ max`
/// when `min_open`; always finite.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FieldRange {
    /// The field's serde name.
    #[serde(skip)]
    pub field: &'static str,
    /// Lower bound.
    pub min: f64,
    /// Upper bound (always included).
    pub max: f64,
    /// Whether `min` itself is excluded.
    pub min_open: bool,
    /// The range as the engine's messages write it, e.g. `[0, 100]` or `(0, 1e9]`.
    pub text: &'static str,
    /// What the field is, in a few words (for messages: "the exploration constant c").
    #[serde(skip)]
    pub what: &'static str,
    /// Units of the value, when it has any (`MiB`, `nodes`).
    #[serde(skip)]
    pub units: Option<&'static str>,
}

impl FieldRange {
    pub(crate) const fn closed(field: &'static str, min: f64, max: f64, text: &'static str, what: &'static str) -> FieldRange {
        FieldRange { field, min, max, min_open: false, text, what, units: None }
    }

    pub(crate) const fn open(field: &'static str, min: f64, max: f64, text: &'static str, what: &'static str) -> FieldRange {
        FieldRange { field, min, max, min_open: true, text, what, units: None }
    }

    pub(crate) const fn units(self, units: &'static str) -> FieldRange {
        FieldRange { units: Some(units), ..self }
    }

    /// Whether `v` is in the range (finite, above or at `min` as `min_open` says, at most `max`).
    pub fn contains(&self, v: f64) -> bool {
        v.is_finite() && (v > self.min || (!self.min_open && v == self.min)) && v <= self.max
    }

    /// `Ok` when `v` is in the range, else [`ConfigError::OutOfRange`].
    ///
    /// # Errors
    /// `v` out of the range.
    pub fn check(&self, v: f64) -> Result<(), ConfigError> {
        if self.contains(v) {
            Ok(())
        } else {
            Err(ConfigError::OutOfRange { field: self.field, value: v, range: self.text })
        }
    }
}

impl SearchConfig {
    /// Every numeric field that has a range, with its value here: the one list that
    /// [`SearchConfig::validate`] checks and [`super::schema::schema`] publishes (sources of each default and
    /// range: the fields' docs).
    pub fn ranged_fields(&self) -> [(FieldRange, f64); 23] {
        use FieldRange as R;
        [
            (R::closed("c", 0.0, 100.0, "[0, 100]", "the exploration constant c"), self.c),
            (R::open("rave_k", 0.0, 1e9, "(0, 1e9]", "the RAVE equivalence parameter k"), self.rave_k),
            (R::open("rave_v", 0.0, 1e9, "(0, 1e9]", "V of the linear RAVE schedule"), self.rave_v),
            (
                R::closed("rave_table_visits", 1.0, 1e9, "[1, 1e9]", "the visits before a node gets its AMAF table").units("visits"),
                self.rave_table_visits as f64,
            ),
            (R::closed("grave_bias", 0.0, 1.0, "[0, 1]", "the GRAVE bias"), self.grave_bias),
            (R::closed("fpu", 0.0, 1.0, "[0, 1]", "the first-play urgency"), self.fpu),
            (R::closed("lgr_p", 0.0, 1.0, "[0, 1]", "the LGR reply probability p"), self.lgr_p),
            (R::closed("pool_p", 0.0, 1.0, "[0, 1]", "the PoolRAVE probability p"), self.pool_p),
            (R::closed("pool_k", 1.0, 400.0, "[1, 400]", "the PoolRAVE pool size").units("moves"), self.pool_k as f64),
            (R::open("mast_tau", 0.0, 100.0, "(0, 100]", "the MAST temperature τ"), self.mast_tau),
            (R::closed("mast_epsilon", 0.0, 1.0, "[0, 1]", "the MAST ε"), self.mast_epsilon),
            (R::closed("qb_a", 0.0, 1.0, "[0, 1]", "the quality-based reward weight a"), self.qb_a),
            (R::closed("qb_k", 0.0, 100.0, "[0, 100]", "the quality-based reward steepness k"), self.qb_k),
            (R::closed("secure_a", 0.0, 100.0, "[0, 100]", "A of the secure child"), self.secure_a),
            (R::closed("node_cap", 1.0, 1e9, "[1, 1e9]", "the node cap").units("nodes"), self.node_cap as f64),
            (R::closed("memory_cap_mib", 1.0, 1_048_576.0, "[1, 1048576]", "the memory cap").units("MiB"), self.memory_cap_mib as f64),
            (R::closed("mix_lambda", 0.0, 1.0, "[0, 1]", "λ of AlphaGo's leaf value"), self.mix_lambda),
            (R::closed("gumbel_m", 1.0, 400.0, "[1, 400]", "m of the Gumbel root").units("moves"), self.gumbel_m as f64),
            (R::closed("gumbel_c_visit", 0.0, 1e6, "[0, 1e6]", "c_visit of the Gumbel root"), self.gumbel_c_visit),
            (R::open("gumbel_c_scale", 0.0, 100.0, "(0, 100]", "c_scale of the Gumbel root"), self.gumbel_c_scale),
            (R::closed("progressive_bias", 0.0, 100.0, "[0, 100]", "c_pb of MoHex's progressive bias"), self.progressive_bias),
            (
                R::closed("knowledge_threshold", 1.0, 1e9, "[1, 1e9]", "the visits before a node's children are cut by Hex knowledge")
                    .units("visits"),
                self.knowledge_threshold as f64,
            ),
            (
                R::closed("expand_threshold", 1.0, 1e9, "[1, 1e9]", "the visits before a node gets children").units("visits"),
                self.expand_threshold as f64,
            ),
        ]
    }
}

enum_field!(Selection, ValueEstimate, RaveSchedule, LgrMode, MastMode, FinalMove, PriorKind, LeafEval, TranspositionRule, RootRule);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enum_fields_take_their_names() {
        let mut s = Selection::Uct;
        assert_eq!(s.take(&ParamValue::Text("puct".into())), Ok(()));
        assert_eq!(s, Selection::Puct);
        assert_eq!(s.take(&ParamValue::Int(3)), Err(Misfit::Kind));
        assert_eq!(s.take(&ParamValue::Text("minimax".into())), Err(Misfit::Kind));
        assert_eq!(Selection::names(), ["uct", "puct"]);
        assert_eq!(s.value(), ParamValue::Text("puct".into()));
    }

    #[test]
    fn presets_all_valid_and_unknown_rejected() {
        for p in SearchConfig::PRESETS {
            SearchConfig::preset(p).unwrap().validate().unwrap();
        }
        for (p, name) in Preset::ALL.into_iter().zip(SearchConfig::PRESETS) {
            assert_eq!(p.name(), *name);
            assert_eq!(name.parse::<Preset>(), Ok(p));
            assert_eq!(serde_json::to_value(p).unwrap(), serde_json::json!(name));
        }
        assert_eq!(" RAVE ".parse::<Preset>(), Ok(Preset::Rave));
        assert!(SearchConfig::preset("alphabeta").unwrap_err().to_string().contains("unknown preset"));
    }

    #[test]
    fn set_checks_keys_values_and_ranges() {
        let mut c = SearchConfig::default();
        c.set("c", "0.7").unwrap();
        assert_eq!(c.c, 0.7);
        c.set("value", "grave").unwrap();
        assert_eq!(c.value, ValueEstimate::Grave);
        c.set("lgr", "LGRF2").unwrap();
        assert_eq!(c.lgr, LgrMode::Lgrf2);
        c.set("solver", "true").unwrap();
        assert!(c.solver);
        c.set("rave_k", "500").unwrap();
        assert_eq!(c.rave_k, 500.0);
        c.set("save_bridge", "true").unwrap();
        assert!(c.save_bridge);
        let before = c.clone();
        assert!(c.set("c", "-1").unwrap_err().to_string().contains("out of range"));
        assert_eq!(c.set("c", "-1").unwrap_err().to_string(), "c = -1 is out of range [0, 100]");
        assert!(c.set("c", "abc").is_err());
        assert!(c.set("colour", "1").unwrap_err().to_string().contains("unknown config key"));
        assert!(c.set("value", "minimax").is_err());
        assert!(c.set("solver", "maybe").is_err());
        assert!(c.set("pool_k", "0").is_err());
        assert!(c.set("node_cap", "-5").is_err());
        assert!(c.set("lgr_p", "1.5").is_err());
        assert_eq!(c, before, "a refused set leaves the config untouched");
    }

    /// The field table is the struct: every serde field, with the type its JSON value has.
    #[test]
    fn field_table_is_every_serde_field() {
        let json = serde_json::to_value(SearchConfig::default()).unwrap();
        let fields = json.as_object().unwrap();
        assert_eq!(SearchConfig::FIELDS.len(), fields.len());
        for &(name, kind) in SearchConfig::FIELDS {
            let want = match &fields[name] {
                serde_json::Value::Bool(_) => ParamType::Boolean,
                serde_json::Value::String(_) => ParamType::Enum,
                serde_json::Value::Number(n) if n.is_u64() => ParamType::Integer,
                _ => ParamType::Number,
            };
            assert_eq!(kind, want, "{name}");
            assert_eq!(serde_json::to_value(SearchConfig::default().value_of(name).unwrap()).unwrap(), fields[name], "{name}");
        }
        assert_eq!(SearchConfig::enum_names("lgr"), ["off", "lgr1", "lgrf1", "lgrf2"]);
        assert!(SearchConfig::enum_names("c").is_empty() && SearchConfig::enum_names("nope").is_empty());
    }

    /// The typed setter: each type takes its own kind of value, checks the range, and refuses
    /// anything else with the reason naming what the field takes, leaving the config as it was.
    #[test]
    fn set_value_takes_each_type_and_refuses_the_rest() {
        use ParamValue as V;
        let mut c = SearchConfig::default();
        c.set_value("c", &V::Number(0.7)).unwrap();
        assert_eq!(c.c, 0.7);
        c.set_value("c", &V::Int(2)).unwrap();
        assert_eq!(c.c, 2.0, "a whole number is a number");
        c.set_value("pool_k", &V::Int(20)).unwrap();
        assert_eq!(c.pool_k, 20);
        c.set_value("rave_table_visits", &V::Number(64.0)).unwrap();
        assert_eq!(c.rave_table_visits, 64, "a number without a fraction is a whole number");
        c.set_value("seed", &V::Int(u64::MAX)).unwrap();
        assert_eq!(c.seed, u64::MAX);
        c.set_value("solver", &V::Bool(true)).unwrap();
        assert!(c.solver);
        c.set_value("value", &V::Text("grave".into())).unwrap();
        assert_eq!(c.value, ValueEstimate::Grave);
        c.set_value("lgr", &V::Text(" LGRF2 ".into())).unwrap();
        assert_eq!(c.lgr, LgrMode::Lgrf2);
        // Text is read by the field's type, as `--set` reads it.
        c.set_value("rave_k", &V::Text("500".into())).unwrap();
        assert_eq!(c.rave_k, 500.0);
        c.set_value("solver", &V::Text("false".into())).unwrap();
        assert!(!c.solver);

        let before = c.clone();
        let bad = |c: &mut SearchConfig, key: &str, v: V| c.set_value(key, &v).unwrap_err().to_string();
        assert_eq!(bad(&mut c, "c", V::Bool(true)), "bad value 'true' for 'c': expected a number");
        assert_eq!(bad(&mut c, "rave_k", V::Text("abc".into())), "bad value 'abc' for 'rave_k': expected a number");
        assert_eq!(bad(&mut c, "selection", V::Int(3)), "bad value '3' for 'selection': expected one of uct, puct");
        assert_eq!(bad(&mut c, "selection", V::Text("minimax".into())), "bad value 'minimax' for 'selection': expected one of uct, puct");
        assert_eq!(bad(&mut c, "solver", V::Int(1)), "bad value '1' for 'solver': expected true or false");
        assert_eq!(bad(&mut c, "solver", V::Text("yes".into())), "bad value 'yes' for 'solver': expected true or false");
        assert_eq!(bad(&mut c, "pool_k", V::Number(2.5)), "bad value '2.5' for 'pool_k': expected a whole number");
        assert_eq!(bad(&mut c, "grave_ref", V::Number(-1.0)), "bad value '-1' for 'grave_ref': expected a whole number");
        assert_eq!(
            bad(&mut c, "grave_ref", V::Int(1 << 40)),
            "bad value '1099511627776' for 'grave_ref': expected a whole number at most 4294967295"
        );
        // Ranges before types: a number outside the range is out of range, whatever its type.
        assert_eq!(c.set_value("c", &V::Number(200.0)), Err(ConfigError::OutOfRange { field: "c", value: 200.0, range: "[0, 100]" }));
        assert_eq!(
            c.set_value("node_cap", &V::Number(-5.0)),
            Err(ConfigError::OutOfRange { field: "node_cap", value: -5.0, range: "[1, 1e9]" })
        );
        assert_eq!(
            c.set_value("rave_table_visits", &V::Int(5_000_000_000)),
            Err(ConfigError::OutOfRange { field: "rave_table_visits", value: 5e9, range: "[1, 1e9]" })
        );
        assert!(matches!(c.set_value("c", &V::Number(f64::NAN)), Err(ConfigError::OutOfRange { field: "c", .. })));
        assert!(matches!(c.set_value("colour", &V::Int(1)), Err(ConfigError::UnknownKey { .. })));
        assert!(c
            .set_value("colour", &V::Int(1))
            .unwrap_err()
            .to_string()
            .starts_with("unknown config key 'colour'; keys: anti_decisive c "));
        // Checks across fields (validate) still apply.
        assert!(matches!(c.set_value("progressive_bias", &V::Number(1.0)), Ok(())));
        assert!(matches!(c.set_value("selection", &V::Text("puct".into())), Err(ConfigError::Needs { .. })));
        c.set_value("progressive_bias", &V::Int(0)).unwrap();
        assert_eq!(c, before, "every refused set left the config untouched");
    }

    /// `set(key, text)` is `set_value` of the text read by the field's type: for every field
    /// (the field table) and every preset's value of it, the text form and the typed form give
    /// the same configuration (or the same error).
    #[test]
    fn text_and_typed_values_set_alike_for_every_field() {
        for p in Preset::ALL {
            let source = SearchConfig::of(p);
            for &(name, _) in SearchConfig::FIELDS {
                let v = source.value_of(name).unwrap();
                let (mut by_text, mut by_value) = (SearchConfig::default(), SearchConfig::default());
                let a = by_text.set(name, &v.to_string());
                let b = by_value.set_value(name, &v);
                assert_eq!(a, b, "{p}: {name} = {v}");
                assert_eq!(by_text, by_value, "{p}: {name} = {v}");
                if a.is_ok() {
                    assert_eq!(by_value.value_of(name), Some(v), "{p}: {name}");
                }
            }
        }
        // The example of the CLI: `--set c=0.7` is the number 0.7.
        let (mut a, mut b) = (SearchConfig::default(), SearchConfig::default());
        a.set("c", "0.7").unwrap();
        b.set_value("c", &ParamValue::Number(0.7)).unwrap();
        assert_eq!(a, b);
        assert_eq!(SearchConfig::parse_param("seed", &"18446744073709551615".into()), Ok(ParamValue::Int(u64::MAX)));
        assert_eq!(SearchConfig::parse_param("c", &" 1e-3 ".into()), Ok(ParamValue::Number(0.001)));
        assert!(SearchConfig::parse_param("c", &"inf".into()).is_err());
        assert!(SearchConfig::parse_param("pool_k", &"1e3".into()).is_err());
    }

    #[test]
    fn outcome_only_playouts_exactly_when_nothing_reads_the_moves() {
        for p in ["uct", "solver", "depth2", "puct"] {
            assert!(!SearchConfig::preset(p).unwrap().playout_moves_needed(), "{p}");
        }
        for p in ["rave", "grave", "decisive", "lgr", "lgrf2", "poolrave", "mast", "qb", "best"] {
            assert!(SearchConfig::preset(p).unwrap().playout_moves_needed(), "{p}");
        }
        let c = SearchConfig { rollout_expand: true, ..SearchConfig::default() };
        assert!(c.playout_moves_needed());
        let c = SearchConfig { qb: true, ..SearchConfig::default() };
        assert!(c.playout_moves_needed());
    }

    /// Save-bridge is no threat check: with it the game's own decisive loop (which knows no
    /// bridges) is not taken, and the playouts go move by move through the policy.
    #[test]
    fn save_bridge_leaves_the_decisive_loop() {
        let best = SearchConfig::preset("best").unwrap();
        assert!(best.threat_checks_only());
        assert!(!SearchConfig { save_bridge: true, ..best }.threat_checks_only());
        for p in SearchConfig::PRESETS {
            assert_eq!(SearchConfig::preset(p).unwrap().save_bridge, *p == "mohex", "{p}: on in mohex only");
        }
    }

    #[test]
    fn knowledge_is_set_by_name_and_on_in_mohex_only() {
        let mut c = SearchConfig::preset("best").unwrap();
        c.set("knowledge", "true").unwrap();
        c.set("knowledge_threshold", "64").unwrap();
        assert!(c.knowledge);
        assert_eq!(c.knowledge_threshold, 64);
        assert_eq!(SearchConfig::default().knowledge_threshold, 256);
        let before = c.clone();
        assert!(c.set("knowledge_threshold", "0").unwrap_err().to_string().contains("knowledge_threshold"));
        assert_eq!(c, before);
        for p in SearchConfig::PRESETS {
            assert_eq!(SearchConfig::preset(p).unwrap().knowledge, *p == "mohex", "{p}: on in mohex only");
        }
        // mohex is MoHex 2.0's recipe on best: save-bridge, the pattern prior with c_pb = 2.47,
        // knowledge at MoHex's threshold, MoHex's expansion threshold.
        let m = SearchConfig::preset("mohex").unwrap();
        let best = SearchConfig::preset("best").unwrap();
        assert_eq!((m.selection, m.value, m.c, m.fill_playouts), (best.selection, best.value, best.c, best.fill_playouts));
        assert_eq!((m.decisive, m.anti_decisive, m.solver, m.depth2), (true, true, true, true));
        assert_eq!((m.prior, m.progressive_bias, m.knowledge_threshold, m.expand_threshold), (PriorKind::Patterns, 2.47, 256, 10));
        for p in SearchConfig::PRESETS {
            assert_eq!(SearchConfig::preset(p).unwrap().expand_threshold, if *p == "mohex" { 10 } else { 1 }, "{p}");
        }
    }

    #[test]
    fn serde_round_trip() {
        let c = SearchConfig::preset("best").unwrap();
        let j = serde_json::to_string(&c).unwrap();
        assert!(j.contains("\"rave_k\":1000.0"));
        let back: SearchConfig = serde_json::from_str(&j).unwrap();
        assert_eq!(back, c);
        let partial: SearchConfig = serde_json::from_str(r#"{"c": 0.5}"#).unwrap();
        assert_eq!(partial.c, 0.5);
        assert_eq!(partial.rave_k, 1000.0);
    }
}
