//! `mcts_playground._core`: the engine crate behind a Python door (PyO3).
//!
//! Games and states are classes here; `search`, `arena` and `solve` return the very JSON text
//! `mcts search|arena|solve --json` prints (built by `mcts_playground::report`, the code the CLI
//! calls), which the Python package (`mcts_playground/__init__.py`) turns into dicts. The GIL is
//! released while the engine works; every engine error is a `ValueError` carrying the engine's
//! sentence, and a refused input changes nothing.

use std::path::PathBuf;

use mcts_playground::game::AnyGame;
use mcts_playground::nn::features::Encoding;
use mcts_playground::report::{self, Clock, Match, MatchSpec, ReportError, SolveOptions, Solver};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// An engine error as a Python `ValueError` with the engine's sentence.
fn err(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A game chosen by its spec string (`tictactoe`, `hex:7`, `hex:11:swap`, `pentago:twist`, ...):
/// the same strings as the command line and the page's URL.
#[pyclass(module = "mcts_playground._core", frozen)]
#[derive(Clone)]
struct Game {
    start: AnyGame,
}

#[pymethods]
impl Game {
    /// Game(spec): the game a spec string names. Raises ValueError naming what is wrong.
    #[new]
    fn new(spec: &str) -> PyResult<Game> {
        Ok(Game { start: AnyGame::from_spec(spec).map_err(err)? })
    }

    /// The canonical spec string (`hex` alone is `hex:11`).
    #[getter]
    fn spec(&self) -> String {
        self.start.spec()
    }

    /// `tictactoe`, `hex` or `pentago`.
    #[getter]
    fn kind(&self) -> String {
        self.start.view().kind
    }

    /// Board height in cells.
    #[getter]
    fn rows(&self) -> usize {
        self.start.view().rows
    }

    /// Board width in cells.
    #[getter]
    fn cols(&self) -> usize {
        self.start.view().cols
    }

    /// Size of the dense move space: every move's index is below it (9 for Tic-Tac-Toe, n² for
    /// Hex, n² + 1 with the swap rule, 288 for Pentago).
    fn num_distinct_actions(&self) -> usize {
        self.start.move_space()
    }

    /// The shape of `State.observation()`: (2, rows, cols).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let v = self.start.view();
        (2, v.rows, v.cols)
    }

    /// The preset names usable in this game (network presets only where a net plays it).
    fn presets(&self) -> Vec<&'static str> {
        mcts_playground::nn::models::presets_for(&self.start.spec())
    }

    /// The start position.
    fn new_initial_state(&self) -> State {
        State { history: vec![self.start.clone()], moves: Vec::new() }
    }

    fn __repr__(&self) -> String {
        format!("Game('{}')", self.start.spec())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Game>().is_ok_and(|o| o.get().start.spec() == self.start.spec())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.start.spec().hash(&mut h);
        h.finish()
    }
}

/// A position of a game and the moves that led to it from the start (undo goes back along them).
#[pyclass(module = "mcts_playground._core")]
#[derive(Clone)]
struct State {
    /// The start position, then the position after each move.
    history: Vec<AnyGame>,
    /// The moves played, in the game's notation.
    moves: Vec<String>,
}

impl State {
    fn now(&self) -> &AnyGame {
        &self.history[self.history.len() - 1]
    }
}

#[pymethods]
impl State {
    /// State(spec, moves=()): the position after `moves` (reference notation, a list or one
    /// string separated by spaces) from the start of the game `spec`. Raises ValueError naming a
    /// bad spec, or the first bad move with its 1-based index.
    #[new]
    #[pyo3(signature = (spec, moves = None))]
    fn new(spec: &str, moves: Option<&Bound<'_, PyAny>>) -> PyResult<State> {
        let list = move_list(moves)?;
        let mut s = State { history: vec![AnyGame::from_spec(spec).map_err(err)?], moves: Vec::new() };
        for (i, m) in list.iter().enumerate() {
            s.play(m).map_err(|e| err(ReportError::Move { index: i + 1, text: m.clone(), source: e }))?;
        }
        Ok(s)
    }

    /// The game's canonical spec string.
    #[getter]
    fn spec(&self) -> String {
        self.now().spec()
    }

    /// The game (its start position's spec).
    fn game(&self) -> Game {
        Game { start: self.history[0].clone() }
    }

    /// The moves played from the start, in the reference notation.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.moves.clone()
    }

    /// The side to move: 0 (first player, X, Black) or 1; None once the game is over.
    fn current_player(&self) -> Option<u8> {
        self.now().outcome().is_none().then(|| self.now().to_move())
    }

    /// Moves played from the start (the swap move counts as one).
    #[getter]
    fn ply(&self) -> usize {
        self.now().ply()
    }

    /// The legal moves in the reference notation, in ascending dense index (empty once over).
    fn legal_moves(&self) -> Vec<String> {
        if self.now().outcome().is_some() {
            return Vec::new();
        }
        self.now().legal_moves_text()
    }

    /// The legal moves as dense indices, ascending (empty once over).
    fn legal_actions(&self) -> PyResult<Vec<usize>> {
        self.legal_moves().iter().map(|m| self.now().parse_index(m).map_err(err)).collect()
    }

    /// Plays a move, given in the reference notation (`d4`, `d4-BR-cw`, `swap`) or as a dense
    /// index. Raises ValueError with the engine's sentence for an unreadable or illegal move, or
    /// a finished game; the state is then unchanged.
    fn apply(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = r#move;
        let text = match mv.extract::<usize>() {
            Ok(i) => self
                .now()
                .format_index(i)
                .ok_or_else(|| err(format!("move index {i} out of range 0..{} for '{}'", self.now().move_space(), self.now().spec())))?,
            Err(_) => mv.extract::<String>().map_err(|_| err("a move is a string in the reference notation or a dense index"))?,
        };
        self.play(&text).map_err(err)
    }

    /// Takes back the last move and returns it. Raises ValueError at the start position.
    fn undo(&mut self) -> PyResult<String> {
        if self.history.len() == 1 {
            return Err(err("nothing to undo: no move has been played"));
        }
        self.history.pop();
        Ok(self.moves.pop().unwrap_or_default())
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.now().outcome().is_some()
    }

    /// The winner (0 or 1) once the game is over; None for a draw or an unfinished game.
    fn winner(&self) -> Option<u8> {
        self.now().outcome().and_then(|o| o.winner())
    }

    /// OpenSpiel's returns [r0, r1]: +1 for a win, −1 for a loss, 0 each for a draw, and [0, 0]
    /// while the game goes on (as `mcts replay --json`'s `returns`).
    fn returns(&self) -> [f64; 2] {
        self.now().outcome().map_or([0.0, 0.0], |o| o.returns())
    }

    /// The board in the reference notation: rows top to bottom joined by `/`, cells `.`, `X`
    /// (player 0), `O` (player 1).
    fn board(&self) -> String {
        self.now().board_string()
    }

    /// The cells, row by row (index row·cols + col): −1 empty, 0 or 1 the owner.
    fn cells(&self) -> Vec<i8> {
        self.now().view().cells
    }

    /// The dense index of a move in the reference notation (not played; it need not be legal
    /// here). Raises ValueError naming what is wrong with the text.
    fn string_to_move(&self, text: &str) -> PyResult<usize> {
        self.now().parse_index(text).map_err(err)
    }

    /// The reference notation of a dense move index. Raises ValueError out of range.
    fn move_to_string(&self, index: usize) -> PyResult<String> {
        self.now().format_index(index).ok_or_else(|| err(format!("move index {index} out of range 0..{}", self.now().move_space())))
    }

    /// The observation as the network's input planes, float32 of shape (2, rows, cols):
    /// plane 0 the side to move's stones, plane 1 the opponent's (1.0 where a stone is, else 0.0).
    /// In Hex with White to move the board is transposed (cell (r, c) at [·, c, r]), as the net
    /// sees it ("I connect top and bottom"; `src/nn/features.rs`). Pentago and Hex with the swap
    /// rule have no net: the same two planes, never transposed. Needs NumPy.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let g = self.now();
        let v = g.view();
        let to_move = g.to_move();
        let cells = v.rows * v.cols;
        let mut x = vec![0f32; 2 * cells];
        match Encoding::for_spec(&g.spec()) {
            Some(enc) => enc.encode(&v.cells, to_move, &mut x),
            None => {
                for (i, &o) in v.cells.iter().enumerate() {
                    if o >= 0 {
                        x[if o as u8 == to_move { i } else { cells + i }] = 1.0;
                    }
                }
            }
        }
        let bytes: Vec<u8> = x.iter().flat_map(|f| f.to_le_bytes()).collect();
        let np = py.import("numpy")?;
        let dtype = np.getattr("dtype")?.call1(("<f4",))?;
        let arr = np.getattr("frombuffer")?.call1((PyBytes::new(py, &bytes), dtype))?;
        arr.call_method1("reshape", ((2, v.rows, v.cols),))?.call_method1("copy", ())
    }

    /// A copy of this state (its own history).
    fn clone(&self) -> State {
        Clone::clone(self)
    }

    fn __copy__(&self) -> State {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        Clone::clone(self)
    }

    fn __str__(&self) -> String {
        self.now().board_string()
    }

    fn __repr__(&self) -> String {
        format!("State('{}', moves={:?})", self.now().spec(), self.moves.join(" "))
    }
}

impl State {
    /// Plays `text`; on error nothing changes.
    fn play(&mut self, text: &str) -> Result<(), mcts_playground::game::MoveError> {
        let mut next = self.now().clone();
        let index = next.play_text(text)?;
        self.moves.push(next.format_index(index).unwrap_or_else(|| text.to_string()));
        self.history.push(next);
        Ok(())
    }
}

/// Moves as a list of strings, or one string separated by spaces (or commas).
fn move_list(moves: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    let Some(m) = moves else { return Ok(Vec::new()) };
    if let Ok(s) = m.extract::<String>() {
        return Ok(s.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).map(str::to_string).collect());
    }
    m.extract::<Vec<String>>().map_err(|_| err("moves are a list of strings or one string of moves separated by spaces"))
}

/// The position a search or solve starts from: a `State`, or a spec string with `moves`.
fn position_of(state: &Bound<'_, PyAny>) -> PyResult<(AnyGame, Vec<String>, String)> {
    if let Ok(s) = state.cast::<State>() {
        let s = s.borrow();
        return Ok((s.now().clone(), s.moves.clone(), s.history[0].spec()));
    }
    Err(err("expected a State (e.g. Game('hex:7').new_initial_state())"))
}

/// search(state, preset, overrides, iterations, ms, seed, threads, net) -> str: the JSON of
/// `mcts search --json` for the same settings.
#[pyfunction]
#[pyo3(signature = (state, preset = "uct", overrides = Vec::new(), iterations = None, ms = None, seed = None, threads = 1, net = None))]
#[allow(clippy::too_many_arguments)]
fn search(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    preset: &str,
    overrides: Vec<String>,
    iterations: Option<u64>,
    ms: Option<f64>,
    seed: Option<u64>,
    threads: usize,
    net: Option<PathBuf>,
) -> PyResult<String> {
    let (g, _, _) = position_of(state)?;
    if iterations.is_some() && ms.is_some() {
        return Err(err("give iterations or ms, not both"));
    }
    if let Some(ms) = ms {
        report::check_ms(ms).map_err(err)?;
    }
    if g.outcome().is_some() {
        return Err(err(ReportError::GameOver));
    }
    let config = report::config_from(preset, &overrides, seed).map_err(err)?;
    if let Some(p) = &net {
        report::register_net(p, Some(&g.spec())).map_err(err)?;
    }
    let budget = report::budget_from(iterations, ms);
    py.detach(move || report::search::search(&g, &config, budget, threads).and_then(|r| r.to_json())).map_err(err)
}

/// The arguments every arena entry point takes, as a [`MatchSpec`].
#[allow(clippy::too_many_arguments)]
fn match_spec(
    game: String,
    a: String,
    b: String,
    set_a: Vec<String>,
    set_b: Vec<String>,
    games: Option<usize>,
    openings: Option<String>,
    iterations: Option<u64>,
    ms: Option<f64>,
    clock: &str,
    seed: u64,
    net: Option<PathBuf>,
) -> PyResult<Match> {
    if iterations.is_some() && ms.is_some() {
        return Err(err("give iterations or ms, not both"));
    }
    let clock = Clock::from_name(clock).map_err(err)?;
    Match::prepare(MatchSpec { game, a, b, set_a, set_b, games, openings, iterations, ms, clock, seed, net }).map_err(err)
}

/// arena(game, a, b, ...) -> str: the JSON of `mcts arena --json`, the games played on
/// `threads` threads (default: the machine's cores).
#[pyfunction]
#[pyo3(signature = (game, a, b, set_a = Vec::new(), set_b = Vec::new(), games = None, openings = None, iterations = None, ms = None, clock = "wall", seed = 1, net = None, threads = None))]
#[allow(clippy::too_many_arguments)]
fn arena(
    py: Python<'_>,
    game: String,
    a: String,
    b: String,
    set_a: Vec<String>,
    set_b: Vec<String>,
    games: Option<usize>,
    openings: Option<String>,
    iterations: Option<u64>,
    ms: Option<f64>,
    clock: &str,
    seed: u64,
    net: Option<PathBuf>,
    threads: Option<usize>,
) -> PyResult<String> {
    let m = match_spec(game, a, b, set_a, set_b, games, openings, iterations, ms, clock, seed, net)?;
    let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    py.detach(move || {
        let t0 = std::time::Instant::now();
        let recs = m.play_all(threads, &|_| {})?;
        Ok::<_, ReportError>(m.report(&recs, t0.elapsed().as_secs_f64()).to_string())
    })
    .map_err(err)
}

/// arena_plan(game, a, b, ...) -> (games, note): checks a match as `arena` does and says how
/// many games it has (and the note on openings `mcts arena` writes, or None).
#[pyfunction]
#[pyo3(signature = (game, a, b, set_a = Vec::new(), set_b = Vec::new(), games = None, openings = None, iterations = None, ms = None, clock = "wall", seed = 1, net = None))]
#[allow(clippy::too_many_arguments)]
fn arena_plan(
    game: String,
    a: String,
    b: String,
    set_a: Vec<String>,
    set_b: Vec<String>,
    games: Option<usize>,
    openings: Option<String>,
    iterations: Option<u64>,
    ms: Option<f64>,
    clock: &str,
    seed: u64,
    net: Option<PathBuf>,
) -> PyResult<(usize, Option<String>)> {
    let m = match_spec(game, a, b, set_a, set_b, games, openings, iterations, ms, clock, seed, net)?;
    Ok((m.games, m.rounds_note()))
}

/// arena_games(game, a, b, ..., indices) -> str: the JSON list of the records of games
/// `indices` of the match (any indices, in any order, on this thread): what a Ray task plays.
#[pyfunction]
#[pyo3(signature = (game, a, b, indices, set_a = Vec::new(), set_b = Vec::new(), games = None, openings = None, iterations = None, ms = None, clock = "wall", seed = 1, net = None))]
#[allow(clippy::too_many_arguments)]
fn arena_games(
    py: Python<'_>,
    game: String,
    a: String,
    b: String,
    indices: Vec<usize>,
    set_a: Vec<String>,
    set_b: Vec<String>,
    games: Option<usize>,
    openings: Option<String>,
    iterations: Option<u64>,
    ms: Option<f64>,
    clock: &str,
    seed: u64,
    net: Option<PathBuf>,
) -> PyResult<String> {
    let m = match_spec(game, a, b, set_a, set_b, games, openings, iterations, ms, clock, seed, net)?;
    py.detach(move || {
        let clock = m.spec.clock.start();
        let recs = indices.iter().map(|&i| m.play(i, &*clock)).collect::<Result<Vec<_>, _>>()?;
        Ok::<_, ReportError>(serde_json::to_string(&recs)?)
    })
    .map_err(err)
}

/// arena_report(game, a, b, ..., records, seconds) -> str: the JSON of `mcts arena --json` from
/// records (JSON list, any order; an index that comes twice counts once).
#[pyfunction]
#[pyo3(signature = (game, a, b, records, seconds, set_a = Vec::new(), set_b = Vec::new(), games = None, openings = None, iterations = None, ms = None, clock = "wall", seed = 1, net = None))]
#[allow(clippy::too_many_arguments)]
fn arena_report(
    game: String,
    a: String,
    b: String,
    records: &str,
    seconds: f64,
    set_a: Vec<String>,
    set_b: Vec<String>,
    games: Option<usize>,
    openings: Option<String>,
    iterations: Option<u64>,
    ms: Option<f64>,
    clock: &str,
    seed: u64,
    net: Option<PathBuf>,
) -> PyResult<String> {
    let m = match_spec(game, a, b, set_a, set_b, games, openings, iterations, ms, clock, seed, net)?;
    let recs: Vec<mcts_playground::arena::GameRecord> =
        serde_json::from_str(records).map_err(|e| err(format!("records are not arena game records: {e}")))?;
    Ok(m.report(&recs, seconds).to_string())
}

/// solve(state, openings, ...) -> str: the JSON of `mcts solve --json` (`solver` None: the
/// game's own, dfpn for Hex and alphabeta for Tic-Tac-Toe and Pentago endgames of at most
/// [`mcts_playground::solve::endgame::PENTAGO_MAX_EMPTY`] empty cells).
#[pyfunction]
#[pyo3(signature = (state, openings = false, net = None, solver = None, max_nodes = None, time = 0.0, tt_mib = 256, epsilon = 0.0, widening = 0.25, vc = true, fillin = true))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    state: &Bound<'_, PyAny>,
    openings: bool,
    net: Option<PathBuf>,
    solver: Option<&str>,
    max_nodes: Option<u64>,
    time: f64,
    tt_mib: u32,
    epsilon: f64,
    widening: f64,
    vc: bool,
    fillin: bool,
) -> PyResult<String> {
    let (_, moves, spec) = position_of(state)?;
    let opts = SolveOptions {
        openings,
        net,
        solver: solver.map(Solver::from_name).transpose().map_err(err)?,
        max_nodes: max_nodes.unwrap_or(SolveOptions::default().max_nodes),
        no_vc: !vc,
        epsilon,
        widening,
        no_fillin: !fillin,
        time,
        tt_mib,
        threads: 1,
    };
    let moves = moves.join(" ");
    py.detach(move || report::solve::solve_position(&spec, &moves, &opts).map(|r| r.json().to_string())).map_err(err)
}

/// review(game, moves, preset, iterations, ms, solve_ms, seed, threads) -> str: the JSON of
/// `mcts review --json` for the same settings (the main line `moves`, a list or one string).
#[pyfunction]
#[pyo3(signature = (game, moves = None, preset = None, iterations = None, ms = None, solve_ms = None, seed = None, threads = 1))]
#[allow(clippy::too_many_arguments)]
fn review(
    py: Python<'_>,
    game: &str,
    moves: Option<&Bound<'_, PyAny>>,
    preset: Option<&str>,
    iterations: Option<u64>,
    ms: Option<f64>,
    solve_ms: Option<f64>,
    seed: Option<u64>,
    threads: usize,
) -> PyResult<String> {
    use mcts_playground::report::review::{review_threads, Review, ReviewSettings};
    let moves = move_list(moves)?;
    let settings = ReviewSettings::new(preset, iterations, ms, solve_ms, seed).map_err(err)?;
    let mut r = Review::new(game, &moves, settings).map_err(err)?;
    py.detach(move || {
        review_threads(&mut r, threads)?;
        Ok::<_, ReportError>(serde_json::to_string(&r.report()?)?)
    })
    .map_err(err)
}

/// load_net(path, spec=None) -> str: reads a `.mctsnet` weights file and registers it as the net
/// of its game for this process (as `mcts --net`); JSON of what was registered.
#[pyfunction]
#[pyo3(signature = (path, spec = None))]
fn load_net(path: PathBuf, spec: Option<&str>) -> PyResult<String> {
    let info = report::register_net(&path, spec).map_err(err)?;
    serde_json::to_string(&info).map_err(err)
}

/// games() -> str: JSON of every registered game's facts (`mcts schema --json`'s `games`:
/// name, title, spec syntax, players, draws, sizes, notation, exact solver, ...), in the
/// engine's order.
#[pyfunction]
fn games() -> PyResult<String> {
    serde_json::to_string(mcts_playground::game::registry::GAMES).map_err(err)
}

/// The package's extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(arena, m)?)?;
    m.add_function(wrap_pyfunction!(arena_plan, m)?)?;
    m.add_function(wrap_pyfunction!(arena_games, m)?)?;
    m.add_function(wrap_pyfunction!(arena_report, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(review, m)?)?;
    m.add_function(wrap_pyfunction!(load_net, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add("PRESETS", mcts_playground::mcts::SearchConfig::PRESETS.to_vec())?;
    m.add("EXAMPLE_SPECS", mcts_playground::game::example_specs())?;
    Ok(())
}
