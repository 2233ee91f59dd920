//! The game registry: the one list of the games the engine plays, and each game's facts.
//!
//! A game is registered in two steps (docs/adding-a-game.md walks them):
//! 1. its rules implement [`Game`] and its facts implement [`Registered`] (both in the game's own
//!    file: the spec name and options, the players' names, draws, board shape and sizes, which
//!    exact solver takes its positions and up to where, an example record);
//! 2. one line in [`registered_games!`](crate::registered_games) (in `game/mod.rs`, beside the
//!    game's `pub mod`).
//!
//! Everything that dispatches over the games at run time is generated from that list:
//! [`AnyGame`](super::AnyGame) and [`with_game!`](crate::with_game), the spec table
//! ([`AnyGame::from_spec`](super::AnyGame::from_spec), the unknown-game error's list),
//! [`AnySearch`](crate::mcts::AnySearch), the endgame sessions
//! ([`EndgameSession`](crate::solve::endgame::EndgameSession)), and [`GAMES`], the facts `mcts schema
//! --json` publishes as `games` for the page, the Python package and the conformance suite.

use serde::Serialize;

use super::Game;

/// Which exact solver takes a game's positions (`mcts solve`, the page's Solve, the review).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExactSolverKind {
    /// The alpha-beta solver over win/draw/loss with a transposition table
    /// ([`crate::solve::endgame`]; Knuth & Moore 1975).
    AlphaBeta,
    /// Hex's depth-first proof-number search with its connection knowledge
    /// ([`crate::solve::hex::dfpn`]; Nagai 2002, as in Benzene).
    ProofNumber,
}

/// What a game's exact solver takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SolverFacts {
    /// The solver.
    pub kind: ExactSolverKind,
    /// The positions it takes, one sentence for people.
    pub takes: &'static str,
    /// The largest board side it takes (`None`: every size the game has). Hex: 8.
    pub max_side: Option<u32>,
    /// The most empty cells a position may have (`None`: no limit). Pentago: 16.
    pub max_empty: Option<u32>,
    /// Whether positions under a swap (pie) rule are taken.
    pub swap: bool,
}

/// The board sizes a game's spec may ask for (`None` in [`GameFacts::sizes`]: one size only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SizeFacts {
    /// Smallest side (cells).
    pub min: u32,
    /// Largest side (cells).
    pub max: u32,
    /// The side of the spec without a size.
    pub default: u32,
    /// The sides the page's chooser offers.
    pub offered: &'static [u32],
    /// How a size is written in a spec, e.g. `hex:N`.
    pub syntax: &'static str,
}

/// One entry of the page's game chooser: a spec and its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Choice {
    /// The spec the entry starts (a size, where the game has sizes, comes from the size chooser).
    pub spec: &'static str,
    /// The label shown.
    pub label: &'static str,
}

/// A game's facts: everything the engine, the page and the docs say about a game besides its
/// rules. Published by `mcts schema --json` as `games` (serde names as below).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GameFacts {
    /// The spec name (`hex`), which is also [`super::BoardView::kind`] and the page's board
    /// renderer's key.
    pub name: &'static str,
    /// The game's name for people (`Hex`, `Tic-Tac-Toe`).
    pub title: &'static str,
    /// Other names the spec accepts (`ttt`).
    pub aliases: &'static [&'static str],
    /// The spec's grammar for error messages and docs (`hex:N[:swap]`).
    pub syntax: &'static str,
    /// The spec the plain name stands for, as the engine writes it (`hex` is `hex:11`,
    /// `pentago` is `pentago:official`).
    pub default_spec: &'static str,
    /// Spec strings the docs and the page offer as examples.
    pub examples: &'static [&'static str],
    /// Specs the conformance suite (`tests/conformance.rs`) plays besides the default, the
    /// examples and the choices: the corner cases of the options (the smallest and largest
    /// boards, each rule set).
    pub test_specs: &'static [&'static str],
    /// The page chooser's entries.
    pub choices: &'static [Choice],
    /// The players' names in lower case as reports write them (`mcts solve --json`'s `winner`),
    /// player 0 (who moves first) then player 1 (`black`, `white`; `x`, `o`); the page
    /// capitalises them.
    pub players: [&'static str; 2],
    /// What each player aims at, a phrase for the page (`top and bottom connected`), shown
    /// after a win ("Black wins (top and bottom connected)"); empty where the rules say it all.
    pub goals: [&'static str; 2],
    /// The rules in a sentence for people (the page's help line).
    pub rules: &'static str,
    /// Whether a game can end drawn.
    pub draws: bool,
    /// The board sizes, for games with more than one.
    pub sizes: Option<SizeFacts>,
    /// How a move is written, one phrase with an example (`a cell, e.g. d4`).
    pub notation: &'static str,
    /// A short legal game in this notation (a record's example), moves separated by spaces.
    pub example_moves: &'static str,
    /// The exact solver that takes its positions, if any.
    pub solver: Option<SolverFacts>,
    /// Whether neural networks have an input encoding for it (`src/nn/features.rs`): the
    /// AlphaZero presets and training work only there.
    pub net_input: bool,
    /// Whether the pattern prior (`prior = patterns`, MoHex's local patterns; Huang et al.
    /// 2013) works for it: the game gives local-pattern keys ([`Game::pattern_keys`]) and the
    /// shipped weights (`models/hex-patterns.mctspat`) are its own; the page's worker loads them
    /// only for such a game.
    pub patterns: bool,
}

impl GameFacts {
    /// Whether `name` (lower case) names this game: its name or one of its aliases.
    pub fn answers_to(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }
}

/// Why the endgame solver does not take a position ([`Registered::endgame_table_log2`]; the
/// solver's [`ExactError`](crate::solve::endgame::ExactError) says it in a sentence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndgameRefusal {
    /// More empty cells than the game's limit.
    TooLarge {
        /// Empty cells of the position.
        empty: usize,
        /// The most the solver takes.
        limit: usize,
    },
    /// The game's positions are taken by the proof-number solver (Hex).
    ProofNumber,
}

/// A game the registry knows: its facts and the parts of its spec handling and solving that
/// differ between games. Implemented next to the game's [`Game`] implementation.
pub trait Registered: Game + Sized {
    /// The game's facts.
    const FACTS: GameFacts;

    /// The start position from the options after `name:` in a spec string (`["7", "swap"]`
    /// for `hex:7:swap`; empty for the plain name).
    ///
    /// # Errors
    /// A sentence saying which option is wrong and what is expected.
    fn from_options(options: &[&str]) -> Result<Self, String>;

    /// Whether the alpha-beta endgame solver ([`crate::solve::endgame`]) takes this position, and if so
    /// the log2 of the most table entries it can use (so a small game does not ask for a large
    /// table): e.g. 14 for every Tic-Tac-Toe position (5,478 positions in all).
    ///
    /// # Errors
    /// Why it does not take it (too many empty cells; Hex, which the proof-number solver takes).
    fn endgame_table_log2(&self) -> Result<u32, EndgameRefusal>;
}

/// Generates an enum with one variant per registered game holding `$W<Game>` (see
/// [`registered_games!`](crate::registered_games)).
#[doc(hidden)]
#[macro_export]
macro_rules! __game_enum {
    ($(#[$attr:meta])* $vis:vis enum $Any:ident of $W:ident ; $($V:ident: $T:ty),* $(,)?) => {
        $(#[$attr])*
        $vis enum $Any {
            $( #[doc = concat!("`", stringify!($T), "`")] $V($W<$T>), )*
        }
    };
}

/// A `match` of `$s` (an enum generated by [`__game_enum!`](crate::__game_enum), named `$Any`
/// and in scope) that binds each variant's value to `$x` and runs `$body`.
#[doc(hidden)]
#[macro_export]
macro_rules! __game_match {
    ($Any:ident, $s:expr, $x:ident, $body:expr ; $($V:ident: $T:ty),* $(,)?) => {
        match $s {
            $( $Any::$V($x) => $body, )*
        }
    };
}

/// A `match` of two enums generated by [`__game_enum!`](crate::__game_enum) at once: `$body` where
/// both hold the same game, `$other` where they differ.
#[doc(hidden)]
#[macro_export]
macro_rules! __game_match2 {
    ($A:ident, $B:ident, $a:expr, $b:expr, $x:ident, $y:ident, $body:expr, $other:expr ; $($V:ident: $T:ty),* $(,)?) => {
        match ($a, $b) {
            $( ($A::$V($x), $B::$V($y)) => $body, )*
            #[allow(unreachable_patterns)]
            _ => $other,
        }
    };
}

/// A `match` of `$s` (an enum `$A` generated by [`__game_enum!`](crate::__game_enum) or
/// [`AnyGame`](super::AnyGame)) that binds each variant's value to `$x` and makes the same variant
/// of `$B` (another such enum) holding `$body`.
#[doc(hidden)]
#[macro_export]
macro_rules! __game_map {
    ($A:ident => $B:ident, $s:expr, $x:ident, $body:expr ; $($V:ident: $T:ty),* $(,)?) => {
        match $s {
            $( $A::$V($x) => $B::$V($body), )*
        }
    };
}

/// The facts of every registered game, in registry order.
#[doc(hidden)]
#[macro_export]
macro_rules! __game_facts {
    (; $($V:ident: $T:ty),* $(,)?) => {
        &[ $( <$T as $crate::game::registry::Registered>::FACTS, )* ]
    };
}

/// The start position of the registered game that answers to `$name`, from `$options`, as an
/// `Option<Result<AnyGame, String>>` (`None`: no game answers to the name).
#[doc(hidden)]
#[macro_export]
macro_rules! __game_from_options {
    ($name:expr, $options:expr ; $($V:ident: $T:ty),* $(,)?) => {{
        use $crate::game::registry::Registered;
        let name: &str = $name;
        let options: &[&str] = $options;
        let mut found = None;
        $(
            if found.is_none() && <$T>::FACTS.answers_to(name) {
                found = Some(<$T as Registered>::from_options(options).map($crate::game::AnyGame::$V));
            }
        )*
        found
    }};
}

/// The facts of every registered game, in registry order (`mcts schema --json`'s `games`).
pub const GAMES: &[GameFacts] = crate::registered_games!(__game_facts!());

/// The facts of the game a spec names (by its name or an alias before the first `:`); `None`
/// for an unknown game.
pub fn facts_of(spec: &str) -> Option<&'static GameFacts> {
    let name = spec.trim().split(':').next().unwrap_or("").to_ascii_lowercase();
    GAMES.iter().find(|f| f.answers_to(&name))
}

/// Every spec the conformance suite plays: of each registered game its default, examples,
/// choices and [`GameFacts::test_specs`], each once, in registry order.
pub fn conformance_specs() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for f in GAMES {
        let all = [f.default_spec]
            .into_iter()
            .chain(f.examples.iter().copied())
            .chain(f.choices.iter().map(|c| c.spec))
            .chain(f.test_specs.iter().copied());
        for spec in all {
            if !out.contains(&spec) {
                out.push(spec);
            }
        }
    }
    out
}

/// The spec grammars of every game, for the unknown-game error: `tictactoe, hex:N[:swap] or …`.
pub fn syntax_list() -> String {
    let all: Vec<&str> = GAMES.iter().map(|f| f.syntax).collect();
    match all.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_consistent_facts() {
        let mut names = std::collections::HashSet::new();
        for f in GAMES {
            assert!(names.insert(f.name), "{} registered twice", f.name);
            for a in f.aliases {
                assert!(names.insert(a), "alias {a} of {} is taken", f.name);
            }
            for spec in f.examples.iter().chain([&f.default_spec]).chain(f.choices.iter().map(|c| &c.spec)).chain(f.test_specs) {
                let g = super::super::AnyGame::from_spec(spec).unwrap_or_else(|e| panic!("{}: {spec}: {e}", f.name));
                assert_eq!(g.view().kind, f.name, "{spec}");
            }
            assert_eq!(super::super::AnyGame::from_spec(f.name).unwrap().spec(), f.default_spec, "{}", f.name);
            let mut g = super::super::AnyGame::from_spec(f.default_spec).unwrap();
            for m in f.example_moves.split_whitespace() {
                g.play_text(m).unwrap_or_else(|e| panic!("{}: example move {m}: {e}", f.name));
            }
            let keys = crate::with_game!(&g, g => g.pattern_keys(&[], &mut Vec::new()));
            assert_eq!(keys, f.patterns, "{}: the patterns fact against Game::pattern_keys", f.name);
            if let Some(s) = f.sizes {
                assert!(s.min <= s.default && s.default <= s.max, "{}", f.name);
                assert!(s.offered.iter().all(|n| (s.min..=s.max).contains(n)), "{}", f.name);
            }
        }
        assert_eq!(
            syntax_list(),
            GAMES.iter().map(|f| f.syntax).collect::<Vec<_>>()[..GAMES.len() - 1].join(", ") + " or " + GAMES.last().unwrap().syntax
        );
    }
}
