//! Local patterns of Hex cells and their trained weights (MoHex 2.0's move patterns: Huang,
//! Arneson, Hayward, Müller & Pawlewicz, "MoHex 2.0: a pattern-based MCTS Hex player",
//! Computers and Games 2013; benzene's `src/mohex/MoHexPatterns.cpp`).
//!
//! # The pattern of an empty cell
//! Its 12-cell neighbourhood, as MoHex's size-12 patterns: the 6 adjacent cells, then the 6
//! cells at bridge distance (the far cell of each bridge, between two consecutive neighbours).
//! With cells at `(row, col)` and the board's neighbour offsets, clockwise from above:
//!
//! | slot | 0 | 1 | 2 | 3 | 4 | 5 |
//! |---|---|---|---|---|---|---|
//! | neighbour (Δrow, Δcol) | (−1, 0) | (−1, +1) | (0, +1) | (+1, 0) | (+1, −1) | (0, −1) |
//! | bridge cell (slots 6–11) | (−2, +1) | (−1, +2) | (+1, +1) | (+2, −1) | (+1, −2) | (−1, −1) |
//!
//! Bridge slot `6 + i` is the sum of neighbours `i` and `i + 1`. Each slot has one of six
//! states, read **for the player to move**: 0 empty, 1 a stone of the mover, 2 a stone of the
//! opponent, 3 off the board beyond one of the mover's edges, 4 off the board beyond one of the
//! opponent's edges, 5 off the board beyond both (a corner). MoHex too gives off-board cells
//! the colour of their edge (its states 3 and 4, `MoHexPatterns::GetKeyFromBoard`); it folds
//! the obtuse corner into Black's edge, where this module keeps a separate corner state (the
//! weights are ours, trained with it).
//!
//! **Colour normalisation.** MoHex keeps one table per colour to play, the White one the
//! Black one mirrored and colour-flipped (`MirrorAndFlipPattern`). Here the White mover reads
//! its neighbourhood in the transposed frame (`(row, col) → (col, row)`, which swaps Black's
//! top–bottom edges with White's left–right ones): the pattern of cell x for White in a
//! position is the pattern of the transposed cell for Black in the transposed, colour-swapped
//! position, so one weight table serves both players.
//!
//! **Symmetry.** The only symmetry of the Hex board that keeps each player's edges is the 180°
//! rotation `(r, c) → (n−1−r, n−1−c)`; it maps slot i to slot i + 3 in each ring. The key is
//! canonical: the smaller of the raw key and the raw key of the rotated neighbourhood
//! ([`canonical`]). MoHex gets the same effect by inserting each pattern and its rotation.
//!
//! **Key.** 3 bits per slot, slot i at bits `3i..3i+3`: 36 bits in a `u64` ([`NO_PATTERN`]
//! for moves that are not cells, the swap).
//!
//! # Weights
//! One weight γ per canonical key, the strength of a move with that pattern in the
//! Bradley–Terry model of move choice (Coulom, "Computing Elo ratings of move patterns in the
//! game of Go", 2007): P(move a) = γ(a) / Σ_b γ(b) over the legal moves. Trained by
//! minorization–maximization ([`train_mm`]), stored in a small binary file ([`PatternWeights`],
//! `.mctspat`), γ = 1 for keys not in the file.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::MAX_SIZE;

/// Cells in a pattern: 6 neighbours and 6 cells at bridge distance.
pub const PATTERN_CELLS: usize = 12;

/// The key of a move that is not a cell (the swap move): no pattern, γ = 1 unless trained.
pub const NO_PATTERN: u64 = u64::MAX;

/// Slot states (see the module docs).
const EMPTY: u64 = 0;
const OWN: u64 = 1;
const OPP: u64 = 2;
const OWN_EDGE: u64 = 3;
const OPP_EDGE: u64 = 4;
const CORNER: u64 = 5;

/// Offsets `(Δrow, Δcol)` of the slots, Black's frame.
pub const OFFSETS: [(i32, i32); PATTERN_CELLS] =
    [(-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1), (-2, 1), (-1, 2), (1, 1), (2, -1), (1, -2), (-1, -1)];

/// Off-board markers in the slot tables (cell indices are below 361).
const T_OWN_EDGE: u16 = 0xFFFD;
const T_OPP_EDGE: u16 = 0xFFFE;
const T_CORNER: u16 = 0xFFFF;

/// Per board size and mover: per cell, what each slot reads (a cell index or an off-board
/// marker), built on first use.
fn slot_table(n: usize, mover: usize) -> &'static [[u16; PATTERN_CELLS]] {
    static TABLES: [[OnceLock<Vec<[u16; PATTERN_CELLS]>>; 2]; MAX_SIZE + 1] =
        [const { [const { OnceLock::new() }, const { OnceLock::new() }] }; MAX_SIZE + 1];
    TABLES[n][mover].get_or_init(|| {
        let ni = n as i32;
        (0..n * n)
            .map(|cell| {
                let (r, c) = ((cell / n) as i32, (cell % n) as i32);
                // The mover's frame: White reads the transposed board.
                let (fr, fc) = if mover == 0 { (r, c) } else { (c, r) };
                let mut t = [0u16; PATTERN_CELLS];
                for (s, &(dr, dc)) in OFFSETS.iter().enumerate() {
                    let (qr, qc) = (fr + dr, fc + dc);
                    let row_out = !(0..ni).contains(&qr);
                    let col_out = !(0..ni).contains(&qc);
                    t[s] = match (row_out, col_out) {
                        // In the mover's frame its own edges are the rows' ends.
                        (true, true) => T_CORNER,
                        (true, false) => T_OWN_EDGE,
                        (false, true) => T_OPP_EDGE,
                        (false, false) => {
                            let (br, bc) = if mover == 0 { (qr, qc) } else { (qc, qr) };
                            (br * ni + bc) as u16
                        }
                    };
                }
                t
            })
            .collect()
    })
}

/// The raw (not canonical) key of `cell`'s neighbourhood on an `n`×`n` board whose cells'
/// owners are `owners` (−1 empty, 0 Black, 1 White; index `row·n + col`), for `mover`.
pub fn raw_key(owners: &[i8], n: usize, cell: usize, mover: usize) -> u64 {
    let slots = &slot_table(n, mover)[cell];
    let mut key = 0u64;
    for (s, &t) in slots.iter().enumerate() {
        let state = match t {
            T_OWN_EDGE => OWN_EDGE,
            T_OPP_EDGE => OPP_EDGE,
            T_CORNER => CORNER,
            c => match owners[c as usize] {
                -1 => EMPTY,
                o if o as usize == mover => OWN,
                _ => OPP,
            },
        };
        key |= state << (3 * s);
    }
    key
}

/// The key of the 180°-rotated neighbourhood: slot i ↦ slot i + 3 in each ring of six.
pub fn rotate(key: u64) -> u64 {
    let ring = |k: u64| ((k >> 9) | (k << 9)) & 0x3_FFFF;
    ring(key & 0x3_FFFF) | (ring(key >> 18) << 18)
}

/// The canonical key: the smaller of `key` and its rotation ([`rotate`]), so that a cell and
/// its image under the board's 180° rotation have the same key.
#[inline]
pub fn canonical(key: u64) -> u64 {
    key.min(rotate(key))
}

/// The canonical pattern key of `cell` ([`raw_key`], [`canonical`]).
#[inline]
pub fn key(owners: &[i8], n: usize, cell: usize, mover: usize) -> u64 {
    canonical(raw_key(owners, n, cell, mover))
}

/// The pattern as text, slots in order (`.` empty, `x` mover, `o` opponent, `#` mover's edge,
/// `%` opponent's edge, `+` corner), neighbours then bridge cells: for the docs and reports.
pub fn show(key: u64) -> String {
    if key == NO_PATTERN {
        return "swap".into();
    }
    (0..PATTERN_CELLS)
        .map(|s| match (key >> (3 * s)) & 7 {
            EMPTY => '.',
            OWN => 'x',
            OPP => 'o',
            OWN_EDGE => '#',
            OPP_EDGE => '%',
            _ => '+',
        })
        .enumerate()
        .flat_map(|(i, ch)| if i == 6 { vec![' ', ch] } else { vec![ch] })
        .collect()
}

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PatternError {
    /// Not a pattern weights file (bad magic).
    #[error("not a pattern weights file (expected the magic 'MCTSPAT', found {found:?})")]
    BadMagic {
        /// The first bytes found.
        found: String,
    },
    /// A version this build cannot read.
    #[error("pattern weights version {found}, this build reads version {FORMAT_VERSION}")]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// Patterns of another size.
    #[error("patterns of {found} cells, this build uses {PATTERN_CELLS}")]
    Cells {
        /// The pattern size in the file.
        found: u32,
    },
    /// The file is shorter or longer than its header says.
    #[error("pattern weights file of {found} bytes, its header announces {want}")]
    Length {
        /// Bytes found.
        found: usize,
        /// Bytes the header announces.
        want: usize,
    },
    /// An entry is defective.
    #[error("pattern weights entry {index}: {reason}")]
    Entry {
        /// Its index.
        index: usize,
        /// What is wrong.
        reason: &'static str,
    },
    /// The page has not fetched the shipped file yet (WebAssembly).
    #[error("the pattern weights ({SHIPPED_FILE}) are not loaded yet")]
    NotLoaded,
    /// The game has no local patterns (not Hex).
    #[error("prior = patterns needs Hex (local patterns of board cells); '{spec}' has none")]
    NoPatterns {
        /// The game spec.
        spec: String,
    },
}

/// File magic (8 bytes).
pub const MAGIC: &[u8; 8] = b"MCTSPAT\0";
/// File format version.
pub const FORMAT_VERSION: u32 = 1;
/// The shipped weights file, in `models/` (copied to the page's `models/`).
pub const SHIPPED_FILE: &str = "hex-patterns.mctspat";
/// Header bytes: magic, version, cells, count.
const HEADER: usize = 8 + 4 + 4 + 4;
/// Bytes per entry: key (u64) and γ (f32).
const ENTRY: usize = 12;

/// Trained pattern weights γ, by canonical key; γ = 1 for keys not stored.
///
/// File (`.mctspat`, little-endian): the magic `MCTSPAT\0`, `u32` format version (1), `u32`
/// pattern cells (12), `u32` entry count, then per entry `u64` canonical key and `f32` γ
/// (finite, > 0), keys strictly increasing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PatternWeights {
    keys: Vec<u64>,
    gammas: Vec<f32>,
    /// Open-addressing table: slot → index into `keys`/`gammas` + 1 (0 empty).
    table: Vec<u32>,
}

/// The hash slot of `key` in a table of `mask + 1` slots.
#[inline(always)]
fn slot(key: u64, mask: usize) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & mask
}

impl PatternWeights {
    /// Weights from `(canonical key, γ)` pairs (sorted here).
    pub fn new(mut pairs: Vec<(u64, f32)>) -> PatternWeights {
        pairs.sort_by_key(|p| p.0);
        pairs.dedup_by_key(|p| p.0);
        let (keys, gammas): (Vec<u64>, Vec<f32>) = pairs.into_iter().unzip();
        let size = (keys.len() * 2).next_power_of_two().max(16);
        let mut table = vec![0u32; size];
        for (i, &k) in keys.iter().enumerate() {
            let mut s = slot(k, size - 1);
            while table[s] != 0 {
                s = (s + 1) & (size - 1);
            }
            table[s] = i as u32 + 1;
        }
        PatternWeights { keys, gammas, table }
    }

    /// γ of a canonical key (1 when not stored).
    #[inline]
    pub fn gamma(&self, key: u64) -> f32 {
        let mask = self.table.len().wrapping_sub(1);
        if self.table.is_empty() {
            return 1.0;
        }
        let mut s = slot(key, mask);
        loop {
            match self.table[s] {
                0 => return 1.0,
                i if self.keys[i as usize - 1] == key => return self.gammas[i as usize - 1],
                _ => s = (s + 1) & mask,
            }
        }
    }

    /// Patterns stored.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no pattern is stored (every γ is 1: uniform priors).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The stored `(key, γ)` pairs, keys increasing.
    pub fn pairs(&self) -> impl Iterator<Item = (u64, f32)> + '_ {
        self.keys.iter().copied().zip(self.gammas.iter().copied())
    }

    /// The file's bytes (see the type's docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + ENTRY * self.keys.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(PATTERN_CELLS as u32).to_le_bytes());
        out.extend_from_slice(&(self.keys.len() as u32).to_le_bytes());
        for (k, g) in self.pairs() {
            out.extend_from_slice(&k.to_le_bytes());
            out.extend_from_slice(&g.to_le_bytes());
        }
        out
    }

    /// Reads a weights file.
    ///
    /// # Errors
    /// A [`PatternError`] naming the defect: magic, version, pattern size, length, or an entry
    /// whose key is not canonical, not increasing or out of range, or whose γ is not finite
    /// and positive.
    pub fn from_bytes(b: &[u8]) -> Result<PatternWeights, PatternError> {
        if b.len() < 8 || &b[..8] != MAGIC {
            return Err(PatternError::BadMagic { found: String::from_utf8_lossy(&b[..b.len().min(8)]).into_owned() });
        }
        if b.len() < HEADER {
            return Err(PatternError::Length { found: b.len(), want: HEADER });
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return Err(PatternError::Version { found: version });
        }
        let cells = u32_at(12);
        if cells as usize != PATTERN_CELLS {
            return Err(PatternError::Cells { found: cells });
        }
        let count = u32_at(16) as usize;
        let want = HEADER + ENTRY * count;
        if b.len() != want {
            return Err(PatternError::Length { found: b.len(), want });
        }
        let mut pairs = Vec::with_capacity(count);
        let mut last = None;
        for i in 0..count {
            let at = HEADER + ENTRY * i;
            let k = u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
            let g = f32::from_le_bytes(b[at + 8..at + 12].try_into().expect("4 bytes"));
            if k != NO_PATTERN && (k >> (3 * PATTERN_CELLS) != 0 || canonical(k) != k) {
                return Err(PatternError::Entry { index: i, reason: "key not a canonical 12-cell pattern" });
            }
            if last.is_some_and(|l| k <= l) {
                return Err(PatternError::Entry { index: i, reason: "keys not strictly increasing" });
            }
            if !(g.is_finite() && g > 0.0) {
                return Err(PatternError::Entry { index: i, reason: "gamma not finite and positive" });
            }
            last = Some(k);
            pairs.push((k, g));
        }
        Ok(PatternWeights::new(pairs))
    }
}

/// The registered weights (the page's fetched file, or a file given on the command line).
fn registry() -> std::sync::MutexGuard<'static, Option<Arc<PatternWeights>>> {
    static R: Mutex<Option<Arc<PatternWeights>>> = Mutex::new(None);
    R.lock().unwrap_or_else(|e| e.into_inner())
}

/// Registers weights from a file's bytes: every search built afterwards with `prior =
/// patterns` uses them (replacing the shipped file).
///
/// # Errors
/// Any [`PatternWeights::from_bytes`] error; the registry is unchanged on error.
pub fn register(bytes: &[u8]) -> Result<usize, PatternError> {
    let w = PatternWeights::from_bytes(bytes)?;
    let n = w.len();
    *registry() = Some(Arc::new(w));
    Ok(n)
}

/// Whether weights are registered (natively the shipped file is registered on first [`load`]).
pub fn loaded() -> bool {
    registry().is_some()
}

/// The shipped weights file, embedded natively (the WebAssembly build fetches
/// `models/hex-patterns.mctspat` and [`register`]s it).
#[cfg(not(target_arch = "wasm32"))]
fn embedded() -> Option<&'static [u8]> {
    Some(include_bytes!("../../../models/hex-patterns.mctspat"))
}

#[cfg(target_arch = "wasm32")]
fn embedded() -> Option<&'static [u8]> {
    None
}

/// The weights the search uses: the registered ones, else (native) the shipped file, parsed
/// once.
///
/// # Errors
/// [`PatternError::NotLoaded`] in WebAssembly before the page registered the file; a format
/// error if the embedded file is defective (a test loads it).
pub fn load() -> Result<Arc<PatternWeights>, PatternError> {
    let mut r = registry();
    if let Some(w) = r.as_ref() {
        return Ok(w.clone());
    }
    let b = embedded().ok_or(PatternError::NotLoaded)?;
    let w = Arc::new(PatternWeights::from_bytes(b)?);
    *r = Some(w.clone());
    Ok(w)
}

/// Patterns and positions for [`train_mm`]: each position a competition among its legal moves'
/// patterns, won by the played move's pattern. A position is kept as its teams — `(pattern id,
/// number of legal moves with that pattern)` for each distinct pattern, as one `u32` (the id)
/// when the count is 1 and two (the id marked, then the count) otherwise — and its winner, all
/// positions in three flat vectors, so that a set of many positions costs what its teams take
/// ([`TrainingSet::bytes`]: about 4.5 bytes a distinct pattern of a position on Hex 19×19);
/// `mcts patterns train` folds each game into it as the game ends and bounds its size.
#[derive(Clone, Debug, Default)]
pub struct TrainingSet {
    /// Pattern keys by id.
    pub keys: Vec<u64>,
    ids: HashMap<u64, u32>,
    /// Every position's teams, one position after another, each sorted by id: a team of count 1
    /// is its id, another its id with [`TEAM_COUNTED`] set followed by its count.
    teams: Vec<u32>,
    /// Where each position's teams end in `teams`.
    ends: Vec<usize>,
    /// Each position's winner: the played move's pattern id.
    winners: Vec<u32>,
}

impl TrainingSet {
    /// The id of `key`, added if new.
    pub fn id(&mut self, key: u64) -> u32 {
        let next = self.keys.len() as u32;
        let id = *self.ids.entry(key).or_insert(next);
        if id == next {
            self.keys.push(key);
        }
        id
    }

    /// Adds a position: the legal moves' keys and the index among them of the move played.
    pub fn add(&mut self, keys: &[u64], played: usize) {
        let mut counts: HashMap<u32, u32> = HashMap::new();
        for &k in keys {
            *counts.entry(self.id(k)).or_insert(0) += 1;
        }
        let winner = self.id(keys[played]);
        let mut teams: Vec<(u32, u32)> = counts.into_iter().collect();
        teams.sort_unstable();
        for (id, count) in teams {
            debug_assert!(id < TEAM_COUNTED, "pattern ids below 2^31");
            if count == 1 {
                self.teams.push(id);
            } else {
                self.teams.extend([id | TEAM_COUNTED, count]);
            }
        }
        self.ends.push(self.teams.len());
        self.winners.push(winner);
    }

    /// Positions in the set.
    pub fn len(&self) -> usize {
        self.winners.len()
    }

    /// Whether the set has no position.
    pub fn is_empty(&self) -> bool {
        self.winners.is_empty()
    }

    /// Position `j`'s teams, `(pattern id, count)` sorted by id, and its winner's id.
    pub fn position(&self, j: usize) -> (Teams<'_>, u32) {
        let start = if j == 0 { 0 } else { self.ends[j - 1] };
        (Teams(&self.teams[start..self.ends[j]]), self.winners[j])
    }

    /// Every position, in the order added ([`TrainingSet::position`]).
    pub fn positions(&self) -> impl Iterator<Item = (Teams<'_>, u32)> + '_ {
        (0..self.len()).map(|j| self.position(j))
    }

    /// Bytes the set holds: its teams, positions and pattern table (the keys and their ids; the
    /// hash map counted at 16 bytes an entry), by length.
    pub fn bytes(&self) -> usize {
        self.teams.len() * std::mem::size_of::<u32>()
            + self.len() * (std::mem::size_of::<usize>() + std::mem::size_of::<u32>())
            + self.keys.len() * (std::mem::size_of::<u64>() + 16)
    }
}

/// The mark of a team whose count follows its id in [`TrainingSet`]'s storage.
const TEAM_COUNTED: u32 = 1 << 31;

/// One position's teams in a [`TrainingSet`]: `(pattern id, count)` pairs, sorted by id.
#[derive(Clone, Debug)]
pub struct Teams<'a>(&'a [u32]);

impl Iterator for Teams<'_> {
    type Item = (u32, u32);

    #[inline]
    fn next(&mut self) -> Option<(u32, u32)> {
        let (&first, rest) = self.0.split_first()?;
        if first & TEAM_COUNTED == 0 {
            self.0 = rest;
            return Some((first, 1));
        }
        let (&count, rest) = rest.split_first()?;
        self.0 = rest;
        Some((first & !TEAM_COUNTED, count))
    }
}

/// The log-likelihood of the set's positions under weights `gamma` (by id): `Σ ln(γ_winner / Σ
/// count·γ)`.
pub fn log_likelihood(set: &TrainingSet, gamma: &[f64]) -> f64 {
    set.positions()
        .map(|(teams, winner)| {
            let e: f64 = teams.map(|(i, c)| c as f64 * gamma[i as usize]).sum();
            (gamma[winner as usize] / e).ln()
        })
        .sum()
}

/// Minorization–maximization for the Bradley–Terry model of move choice (Coulom 2007, with
/// one-pattern teams): `iterations` sweeps of
///
/// `γ_i ← (W_i + 1) / (Σ_j C_ij / E_j + 2 / (γ_i + 1))`,
///
/// where `W_i` counts the positions won by pattern i, `C_ij` the legal moves with pattern i in
/// position j, `E_j = Σ_k C_kj·γ_k`, and the `+1` and `2/(γ_i+1)` are Coulom's prior: one
/// virtual win and one virtual loss against a virtual opponent of γ = 1 (which keeps γ finite
/// and positive for patterns never or always played). All γ are updated at once from the same
/// `E_j` (a parallel sweep; each sweep does not decrease the posterior). Returns γ by id and the
/// log-likelihood after each sweep. Each sweep reads every position again, so the whole set is
/// kept in memory.
pub fn train_mm(set: &TrainingSet, iterations: usize) -> (Vec<f64>, Vec<f64>) {
    let m = set.keys.len();
    let mut gamma = vec![1.0f64; m];
    let mut wins = vec![0.0f64; m];
    for &w in &set.winners {
        wins[w as usize] += 1.0;
    }
    let mut history = Vec::with_capacity(iterations);
    let mut denom = vec![0.0f64; m];
    for _ in 0..iterations {
        denom.iter_mut().for_each(|d| *d = 0.0);
        for (teams, _) in set.positions() {
            let e: f64 = teams.clone().map(|(i, c)| c as f64 * gamma[i as usize]).sum();
            for (i, c) in teams {
                denom[i as usize] += c as f64 / e;
            }
        }
        for i in 0..m {
            gamma[i] = (wins[i] + 1.0) / (denom[i] + 2.0 / (gamma[i] + 1.0));
        }
        history.push(log_likelihood(set, &gamma));
    }
    (gamma, history)
}

/// [`top_k`] for position `j` of `set` (whose ids are `set`'s own; the weights are read by key):
/// the same figure from the position's teams.
pub fn top_k_of(w: &PatternWeights, set: &TrainingSet, j: usize, k: usize) -> f64 {
    let (teams, winner) = set.position(j);
    let gp = w.gamma(set.keys[winner as usize]);
    let (mut above, mut tied) = (0usize, 0usize);
    for (i, c) in teams {
        let g = w.gamma(set.keys[i as usize]);
        above += (g > gp) as usize * c as usize;
        tied += (g == gp) as usize * c as usize;
    }
    // The played move itself is among the tied.
    ((k as f64 - above as f64) / (tied as f64)).clamp(0.0, 1.0)
}

/// The chance that the played move (index `played` of a position's per-move `keys`) is among
/// the first `k` moves when they are sorted by γ, ties in uniformly random order: 1 when fewer
/// than `k` moves rank above or with it, 0 when `k` or more rank strictly above, the share of
/// the tied places within the first `k` otherwise. Uniform weights give `k / moves`.
pub fn top_k(w: &PatternWeights, keys: &[u64], played: usize, k: usize) -> f64 {
    let gp = w.gamma(keys[played]);
    let (mut above, mut tied) = (0usize, 0usize);
    for (i, &x) in keys.iter().enumerate() {
        if i != played {
            let g = w.gamma(x);
            above += (g > gp) as usize;
            tied += (g == gp) as usize;
        }
    }
    ((k as f64 - above as f64) / (tied as f64 + 1.0)).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng64;

    /// A random position's owners on an n×n board.
    fn random_owners(n: usize, rng: &mut Rng64) -> Vec<i8> {
        (0..n * n).map(|_| [-1i8, -1, 0, 1][rng.index(4)]).collect()
    }

    /// The pattern of cell x equals the pattern of the rotated cell in the rotated position
    /// (the board's 180° symmetry), for both movers, on every size and many positions; and the
    /// raw keys differ by [`rotate`].
    #[test]
    fn pattern_is_invariant_under_the_half_turn() {
        let mut rng = Rng64::new(38);
        for n in [1usize, 2, 3, 5, 8, 11, 19] {
            for _ in 0..40 {
                let owners = random_owners(n, &mut rng);
                let rot: Vec<i8> = (0..n * n).map(|c| owners[n * n - 1 - c]).collect();
                for cell in 0..n * n {
                    for mover in 0..2 {
                        let (a, b) = (raw_key(&owners, n, cell, mover), raw_key(&rot, n, n * n - 1 - cell, mover));
                        assert_eq!(rotate(a), b, "n {n} cell {cell} mover {mover}");
                        assert_eq!(key(&owners, n, cell, mover), key(&rot, n, n * n - 1 - cell, mover));
                    }
                }
            }
        }
    }

    /// White's pattern of cell x is Black's pattern of the transposed cell in the transposed,
    /// colour-swapped position (colour normalisation).
    #[test]
    fn white_reads_the_transposed_colour_swapped_board() {
        let mut rng = Rng64::new(7);
        for n in [3usize, 6, 11] {
            for _ in 0..40 {
                let owners = random_owners(n, &mut rng);
                let t = |c: usize| (c % n) * n + c / n;
                let swapped: Vec<i8> = (0..n * n)
                    .map(|c| match owners[t(c)] {
                        -1 => -1,
                        o => 1 - o,
                    })
                    .collect();
                for cell in 0..n * n {
                    assert_eq!(raw_key(&owners, n, cell, 1), raw_key(&swapped, n, t(cell), 0), "n {n} cell {cell}");
                }
            }
        }
    }

    /// Known patterns: the centre of an empty board is all empty; the corner cell a1 of an
    /// empty 11×11 board has the mover's edge above and the opponent's to its left, for both
    /// movers (a1 is on the diagonal); f1's edge is the mover's for Black, the opponent's for White.
    #[test]
    fn known_patterns_read_as_expected() {
        let empty = vec![-1i8; 121];
        assert_eq!(key(&empty, 11, 60, 0), 0);
        assert_eq!(show(raw_key(&empty, 11, 0, 0)), "##..%% ##.%%+");
        assert_eq!(show(raw_key(&empty, 11, 0, 1)), "##..%% ##.%%+", "a1 is its own transpose");
        // f1 (row 0, column 5): Black's own edge above; for White the same edge is the
        // opponent's, read in the transposed frame on its left.
        assert_eq!(show(raw_key(&empty, 11, 5, 0)), "##.... ##...#");
        assert_eq!(show(raw_key(&empty, 11, 5, 1)), "....%% ...%%%");
        let mut o = empty.clone();
        o[61] = 0;
        o[49] = 1;
        // Black to move at 60 (row 5, column 5): its own stone to the right (slot 2), White's
        // above (slot 0); White to move: the colours swap and the frame transposes.
        assert_eq!(show(raw_key(&o, 11, 60, 0)), "o.x... ......");
        assert_eq!(show(raw_key(&o, 11, 60, 1)), "...o.x ......");
        assert_eq!(rotate(rotate(0o123450123455)), 0o123450123455);
    }

    /// The file format round-trips and every defect is refused with its reason.
    #[test]
    fn weights_file_round_trips_and_refuses_defects() {
        let w = PatternWeights::new(vec![(5, 2.5), (0, 0.5), (NO_PATTERN, 1.5)]);
        let b = w.to_bytes();
        let r = PatternWeights::from_bytes(&b).unwrap();
        assert_eq!(r, w);
        assert_eq!(r.gamma(5), 2.5);
        assert_eq!(r.gamma(0), 0.5);
        assert_eq!(r.gamma(7), 1.0, "unknown pattern: γ = 1");
        assert!(matches!(PatternWeights::from_bytes(b"hello world"), Err(PatternError::BadMagic { .. })));
        assert!(matches!(PatternWeights::from_bytes(&b[..b.len() - 1]), Err(PatternError::Length { .. })));
        let mut v = b.clone();
        v[8] = 9;
        assert_eq!(PatternWeights::from_bytes(&v), Err(PatternError::Version { found: 9 }));
        let mut v = b.clone();
        v[12] = 6;
        assert_eq!(PatternWeights::from_bytes(&v), Err(PatternError::Cells { found: 6 }));
        let mut v = b.clone();
        v[HEADER + 8..HEADER + 12].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(matches!(PatternWeights::from_bytes(&v), Err(PatternError::Entry { index: 0, .. })));
        let nc = PatternWeights::new(vec![(rotate(1).max(1), 2.0)]);
        assert!(matches!(PatternWeights::from_bytes(&nc.to_bytes()), Err(PatternError::Entry { .. })), "a non-canonical key");
    }

    /// The shipped file loads.
    #[test]
    fn shipped_weights_load() {
        let w = PatternWeights::from_bytes(embedded().unwrap()).unwrap();
        assert!(w.len() > 100, "{} patterns", w.len());
    }

    /// MM recovers known weights from positions drawn from the model itself, and the
    /// likelihood never decreases from one sweep to the next.
    #[test]
    fn mm_recovers_known_weights() {
        let truth = [1.0f64, 4.0, 0.25, 2.0, 8.0];
        let mut rng = Rng64::new(2007);
        let mut set = TrainingSet::default();
        for k in 0..truth.len() as u64 {
            set.id(k);
        }
        for _ in 0..20_000 {
            let moves: Vec<u64> = (0..6).map(|_| rng.index(truth.len()) as u64).collect();
            let total: f64 = moves.iter().map(|&k| truth[k as usize]).sum();
            let mut r = rng.next_u64() as f64 / u64::MAX as f64 * total;
            let mut played = moves.len() - 1;
            for (i, &k) in moves.iter().enumerate() {
                r -= truth[k as usize];
                if r <= 0.0 {
                    played = i;
                    break;
                }
            }
            set.add(&moves, played);
        }
        let (gamma, history) = train_mm(&set, 60);
        for w in history.windows(2) {
            assert!(w[1] >= w[0] - 1e-9, "likelihood decreased: {} then {}", w[0], w[1]);
        }
        // γ is defined up to a common factor: compare ratios to pattern 0.
        for (i, &t) in truth.iter().enumerate() {
            let got = gamma[i] / gamma[0];
            assert!((got / t - 1.0).abs() < 0.1, "pattern {i}: {got} against {t}");
        }
    }

    /// [`top_k_of`] on a set's teams gives [`top_k`] on the moves' keys.
    #[test]
    fn top_k_of_a_set_equals_top_k_of_the_keys() {
        let w = PatternWeights::new(vec![(1, 3.0), (2, 0.5), (3, 1.0)]);
        let mut rng = Rng64::new(5);
        let mut set = TrainingSet::default();
        let mut kept = Vec::new();
        for _ in 0..200 {
            let keys: Vec<u64> = (0..1 + rng.index(12)).map(|_| rng.index(6) as u64).collect();
            let played = rng.index(keys.len());
            set.add(&keys, played);
            kept.push((keys, played));
        }
        for (j, (keys, played)) in kept.iter().enumerate() {
            for k in [1, 5] {
                assert_eq!(top_k_of(&w, &set, j, k), top_k(&w, keys, *played, k), "position {j}, top-{k}");
            }
        }
        assert_eq!(set.len(), 200);
        assert!(set.bytes() < 200 * 7 * 8 + 200 * 12 + 6 * 24 + 1, "{} bytes", set.bytes());
        // Teams read back as added: counts of 1 and more.
        let mut one = TrainingSet::default();
        one.add(&[7, 3, 7, 9, 7], 1);
        let (teams, winner) = one.position(0);
        assert_eq!(teams.collect::<Vec<_>>(), [(0, 3), (1, 1), (2, 1)]);
        assert_eq!(one.keys[winner as usize], 3);
    }

    /// Top-k shares: moves strictly above push the played move down, ties share the places.
    #[test]
    fn top_k_shares_tied_places() {
        let w = PatternWeights::new(vec![(1, 3.0), (2, 0.5)]);
        assert_eq!(top_k(&w, &[1, 2, 0, 0], 2, 1), 0.0);
        assert_eq!(top_k(&w, &[1, 2, 0, 0], 2, 2), 0.5);
        assert_eq!(top_k(&w, &[1, 2, 0, 0], 2, 3), 1.0);
        assert_eq!(top_k(&w, &[1, 2, 0, 0], 0, 1), 1.0);
        let uniform = PatternWeights::default();
        assert!((top_k(&uniform, &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 3, 5) - 0.5).abs() < 1e-12, "uniform: k / moves");
    }
}
