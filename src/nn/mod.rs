//! Policy-value networks in plain Rust: the inference side of the AlphaZero-style presets.
//!
//! - [`Mlp`]: a multilayer perceptron, dense layers with ReLU, then two heads: a policy head
//!   (one logit per cell of the game's move space) and a value head (one output, `tanh`, in
//!   [−1, 1] for the side to move). The shape of AlphaZero's heads (Silver et al. 2017) on a
//!   small fully connected trunk; sizes in `models/README.md`.
//! - [`ConvNet`] ([`conv`]): a convolutional trunk for Hex with the same two heads.
//! - [`Net`]: either, as the search, the registry and the tools hold a net.
//! - The weights file format ([`Net::from_bytes`], [`Mlp::to_bytes`], [`ConvNet::to_bytes`]):
//!   small, versioned (version 1: fully connected, version 2: convolutional) and checked (magic,
//!   version, game spec, shapes, CRC-32); any defect is a [`NetError`].
//! - [`features`]: the input planes of each game and their symmetries.
//! - [`NetEvaluator`]: the [`crate::mcts::Evaluator`] the search uses (`prior = net`).
//! - [`search`]: the searches whose configuration may ask for a network ([`search::Nets`]).
//! - [`models`]: the registry of nets: the trained nets shipped in `models/` (embedded in the
//!   native binary; fetched by the page and registered) and nets registered at run time.
//!
//! Training (module `train`, feature `train`: `mcts train` natively, and the browser's Train panel
//! through the second wasm package `pkg-train/`) writes this format, and a test checks that this
//! forward pass equals the trainer's.

pub mod conv;
pub mod features;
#[cfg(not(target_arch = "wasm32"))]
pub mod file;
pub mod models;
pub mod search;

mod evaluator;
#[cfg(feature = "train")]
pub mod train;

pub use crate::limits::MAX_NET_BYTES;
pub use conv::{Conv, ConvByInput, ConvNet};
pub use evaluator::NetEvaluator;

/// The first 8 bytes of a weights file.
pub const MAGIC: &[u8; 8] = b"MCTSNET\0";
/// The format version of a fully connected net's weights file ([`Mlp::to_bytes`]); a
/// convolutional net's is [`conv::VERSION`] (2). This build reads and writes both.
pub const VERSION: u32 = 1;
/// Widest layer accepted (inputs, hidden units or outputs).
pub const MAX_WIDTH: usize = 1024;
/// Most hidden layers a weights file may declare.
pub const MAX_HIDDEN_LAYERS: usize = 16;
/// Bytes of a weights file before its spec: [`MAGIC`] and the version (u32). Enough to tell a
/// weights file from anything else ([`check_header`]).
pub const HEADER_BYTES: usize = MAGIC.len() + 4;

/// The largest weights file the format allows, in bytes: 71,442,529 (about 71 MB). Derived from
/// the format ([`Mlp::to_bytes`]) at its maximum dimensions: the header at its longest
/// ([`HEADER_BYTES`], the spec's u16 length and 65,535 bytes of spec, inputs, layer count,
/// [`MAX_HIDDEN_LAYERS`] widths and the policy outputs as u32: 65,625 bytes); the weights and
/// biases of the widest net, [`MAX_HIDDEN_LAYERS`] hidden layers of [`MAX_WIDTH`] units on
/// [`MAX_WIDTH`] inputs, a policy head of [`MAX_WIDTH`] outputs and the value head
/// (17 × (1024 × 1024 + 1024) + 1024 + 1 = 17,844,225 parameters, 4 bytes each); and the CRC-32
/// (4 bytes). A larger file cannot be a weights file, and readers refuse it before reading it.
pub const MAX_FILE_BYTES: usize = HEADER_BYTES
    + 2
    + u16::MAX as usize
    + 4 * (3 + MAX_HIDDEN_LAYERS)
    + 4 * ((MAX_HIDDEN_LAYERS + 1) * (MAX_WIDTH * MAX_WIDTH + MAX_WIDTH) + MAX_WIDTH + 1)
    + 4;
const _: () = assert!(crate::limits::MAX_NET_BYTES == MAX_FILE_BYTES, "limits::MAX_NET_BYTES is MAX_FILE_BYTES, derived from the format");

/// Checks the first [`HEADER_BYTES`] of a weights file (fewer when the file is shorter): the
/// magic and the version (1 or 2), before the rest is read.
///
/// # Errors
/// [`NetError::BadMagic`] for anything that does not start with [`MAGIC`] (a file too short
/// included); [`NetError::Version`] for a version other than [`VERSION`] and [`conv::VERSION`].
pub fn check_header(head: &[u8]) -> Result<(), NetError> {
    if head.len() < MAGIC.len() || &head[..MAGIC.len()] != MAGIC {
        return Err(NetError::BadMagic);
    }
    if let Some(found) = file_version(head) {
        if found != VERSION && found != conv::VERSION {
            return Err(NetError::Version { found });
        }
    }
    Ok(())
}

/// The version field of a weights file's header (the u32 after [`MAGIC`]), if the bytes reach it.
fn file_version(bytes: &[u8]) -> Option<u32> {
    bytes.get(MAGIC.len()..HEADER_BYTES).map(|v| u32::from_le_bytes(v.try_into().expect("4 bytes")))
}

/// The forward pass's two activation buffers, one pair per thread, grown to the widest layer
/// seen (zeroing two [`MAX_WIDTH`] arrays on the stack per pass cost a fifth of a search
/// iteration of `alphazero`). A nested call (none exists) gets fresh buffers.
fn with_activations<R>(f: impl FnOnce(&mut Vec<f32>, &mut Vec<f32>) -> R) -> R {
    thread_local!(static BUFFERS: std::cell::RefCell<(Vec<f32>, Vec<f32>)> = Default::default());
    BUFFERS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut pair) => {
            let (a, b) = &mut *pair;
            f(a, b)
        }
        Err(_) => f(&mut Vec::new(), &mut Vec::new()),
    })
}

/// Why a weights file could not be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NetError {
    /// No trained network ships for this game.
    #[error("no trained network for '{}' (nets ship for: {}); use a preset without a network, e.g. puct or best", crate::limits::abbreviate(spec), models::AVAILABLE.join(", "))]
    NoModel {
        /// The game spec asked for.
        spec: String,
    },
    /// A net ships for the game but was not registered yet (the WebAssembly build embeds no
    /// weights: the page fetches `models/<file>` and registers it, see [`models`]).
    #[error("the network for '{spec}' is not loaded yet (models/{file})")]
    NotLoaded {
        /// The game spec asked for.
        spec: String,
        /// Its file in `models/`.
        file: String,
    },
    /// The file holds a net for a game that has no input encoding ([`features::Encoding`]).
    #[error(
        "the network was trained for '{}', a game without network inputs (nets play: tictactoe, hex:N without swap)",
        crate::limits::abbreviate(spec)
    )]
    NoEncoding {
        /// The spec in the file.
        spec: String,
    },
    /// The file does not start with [`MAGIC`].
    #[error("not a network weights file (bad magic)")]
    BadMagic,
    /// The file's format version is neither [`VERSION`] (1) nor [`conv::VERSION`] (2).
    #[error("weights file version {found}, this build reads versions {VERSION} (fully connected) and {} (convolutional)", conv::VERSION)]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// The file ends before its declared contents.
    #[error("weights file truncated at byte {at} (needs {need} more)")]
    Truncated {
        /// Offset where data was missing.
        at: usize,
        /// Bytes missing there.
        need: usize,
    },
    /// The CRC-32 of the contents does not match the stored one.
    #[error("weights file corrupt: checksum {found:08x}, expected {expected:08x}")]
    Checksum {
        /// CRC-32 computed over the file.
        found: u32,
        /// CRC-32 stored in the file.
        expected: u32,
    },
    /// A shape is zero, too wide, or inconsistent with the game.
    #[error("bad network shape: {0}")]
    Shape(String),
    /// The file holds a net for another game.
    #[error("the network was trained for '{}', not '{}'", crate::limits::abbreviate(file), crate::limits::abbreviate(want))]
    WrongGame {
        /// The spec in the file.
        file: String,
        /// The spec asked for.
        want: String,
    },
    /// A weight is NaN or infinite.
    #[error("weights file holds a non-finite weight")]
    NonFinite,
    /// The file is longer than [`MAX_NET_BYTES`], the largest the format can hold; nothing was
    /// read.
    #[error("the weights file is {len} bytes long; weights files of at most {max} bytes are read")]
    TooLong {
        /// Its length in bytes.
        len: usize,
        /// The limit, [`MAX_NET_BYTES`].
        max: usize,
    },
}

/// A dense layer `y = W·x + b`, `W` row-major `out × in`.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    /// Inputs.
    pub inputs: usize,
    /// Outputs.
    pub outputs: usize,
    /// `outputs × inputs` weights, row-major (row j = the weights of output j).
    pub w: Vec<f32>,
    /// `outputs` biases.
    pub b: Vec<f32>,
}

impl Dense {
    /// A zero layer of the given shape.
    pub fn zeros(inputs: usize, outputs: usize) -> Dense {
        Dense { inputs, outputs, w: vec![0.0; inputs * outputs], b: vec![0.0; outputs] }
    }

    /// `y = W·x + b` (`x.len() == inputs`, `y.len() == outputs`).
    #[inline]
    pub fn forward(&self, x: &[f32], y: &mut [f32]) {
        debug_assert_eq!(x.len(), self.inputs);
        for (j, out) in y.iter_mut().enumerate().take(self.outputs) {
            let row = &self.w[j * self.inputs..(j + 1) * self.inputs];
            *out = self.b[j] + dot(row, x);
        }
    }
}

/// Dot product in 8 independent lanes (so the compiler vectorises it).
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    let (ca, ra) = a.split_at(a.len() / 8 * 8);
    let (cb, rb) = b.split_at(ca.len());
    for (x, y) in ca.chunks_exact(8).zip(cb.chunks_exact(8)) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    let mut s: f32 = acc.iter().sum();
    for (x, y) in ra.iter().zip(rb) {
        s += x * y;
    }
    s
}

/// A policy-value MLP: `trunk` (dense + ReLU each), then `policy` (logits over the game's move
/// space) and `value` (one output through `tanh`), both reading the last trunk layer.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    /// The game spec the net was trained for (`tictactoe`, `hex:5`, ...).
    pub spec: String,
    /// Hidden layers, each followed by ReLU.
    pub trunk: Vec<Dense>,
    /// Policy head: hidden → move space (logits).
    pub policy: Dense,
    /// Value head: hidden → 1 (then `tanh`).
    pub value: Dense,
}

impl Mlp {
    /// A net of zeros with the given layer widths: `inputs`, `hidden` (one entry per trunk
    /// layer), `moves` policy outputs.
    pub fn zeros(spec: &str, inputs: usize, hidden: &[usize], moves: usize) -> Mlp {
        let mut trunk = Vec::new();
        let mut w = inputs;
        for &h in hidden {
            trunk.push(Dense::zeros(w, h));
            w = h;
        }
        Mlp { spec: spec.to_string(), trunk, policy: Dense::zeros(w, moves), value: Dense::zeros(w, 1) }
    }

    /// Input width.
    pub fn inputs(&self) -> usize {
        self.trunk.first().map_or(self.policy.inputs, |l| l.inputs)
    }

    /// Policy outputs (the game's move space).
    pub fn moves(&self) -> usize {
        self.policy.outputs
    }

    /// Number of weights and biases.
    pub fn parameters(&self) -> usize {
        self.trunk.iter().chain([&self.policy, &self.value]).map(|l| l.w.len() + l.b.len()).sum()
    }

    /// One forward pass: `x` (length [`Mlp::inputs`]) → policy logits into `logits` (length
    /// [`Mlp::moves`]) and the value head's `tanh` output in [−1, 1] (side to move's view).
    pub fn forward(&self, x: &[f32], logits: &mut [f32]) -> f32 {
        with_activations(|a, b| {
            a.clear();
            a.extend_from_slice(x);
            self.forward_from(a, b, logits)
        })
    }

    /// The trunk (its input: all of `a`; `b` is scratch), then both heads.
    fn forward_from(&self, a: &mut Vec<f32>, b: &mut Vec<f32>, logits: &mut [f32]) -> f32 {
        let (mut a, mut b) = (a, b);
        for l in &self.trunk {
            b.resize(l.outputs, 0.0);
            l.forward(a, b);
            for v in b.iter_mut() {
                *v = v.max(0.0);
            }
            std::mem::swap(&mut a, &mut b);
        }
        self.policy.forward(a, logits);
        let mut v = [0f32; 1];
        self.value.forward(a, &mut v);
        v[0].tanh()
    }

    /// The hidden layer widths, input side first.
    pub fn hidden(&self) -> Vec<usize> {
        self.trunk.iter().map(|l| l.outputs).collect()
    }

    /// The same function in a larger trunk of widths `hidden` (at least as many layers, each at
    /// least as wide as this net's), by Net2Net (Chen, Goodfellow & Shlens 2016, "Net2Net:
    /// Accelerating Learning via Knowledge Transfer", ICLR), so that training can go on in the
    /// larger net from where this one stands:
    /// - **Net2DeeperNet**: each missing layer is an identity layer (`W = I`, `b = 0`) appended
    ///   after the last trunk layer. Its input has passed a ReLU, so is ≥ 0, and ReLU(I·h) = h.
    /// - **Net2WiderNet**: a layer of `n` units grown to `q` keeps its units 0..n and gives each
    ///   new unit j the incoming weights and bias of a unit g(j) drawn uniformly from 0..n; the
    ///   next layer's (or both heads') weights from a unit u are shared among u's copies. The
    ///   paper shares them equally (1/count) and adds noise to break the copies' symmetry; here
    ///   the shares are random positive weights summing to 1 (each (1 + ½·r) normalised, r
    ///   uniform in [−1, 1]), which breaks the symmetry (copies get different gradients) and keeps
    ///   the function exact.
    ///
    /// The outputs equal this net's up to float rounding. `seed` draws g and the shares.
    ///
    /// # Errors
    /// [`NetError::Shape`] when `hidden` has fewer layers than this net, a layer narrower than
    /// this net's, a width of 0 or over [`MAX_WIDTH`], or more than [`MAX_HIDDEN_LAYERS`] layers.
    pub fn grown(&self, hidden: &[usize], seed: u64) -> Result<Mlp, NetError> {
        let have = self.hidden();
        if hidden.len() < have.len() || hidden.len() > MAX_HIDDEN_LAYERS || self.trunk.is_empty() {
            return Err(NetError::Shape(format!(
                "cannot grow hidden layers {have:?} to {hidden:?} (same or more layers, at most {MAX_HIDDEN_LAYERS})"
            )));
        }
        if let Some((k, _)) = hidden.iter().enumerate().find(|&(k, &h)| h == 0 || h > MAX_WIDTH || have.get(k).is_some_and(|&n| h < n)) {
            return Err(NetError::Shape(format!(
                "cannot grow hidden layers {have:?} to {hidden:?}: layer {} must be {} to {MAX_WIDTH} units wide",
                k + 1,
                have.get(k).copied().unwrap_or(1)
            )));
        }
        let mut net = self.clone();
        // Net2DeeperNet: identity layers after the last trunk layer.
        while net.trunk.len() < hidden.len() {
            let w = net.policy.inputs;
            let mut id = Dense::zeros(w, w);
            (0..w).for_each(|i| id.w[i * w + i] = 1.0);
            net.trunk.push(id);
        }
        // Net2WiderNet, layer by layer.
        let mut rng = crate::rng::Rng64::new(seed);
        for (k, &q) in hidden.iter().enumerate() {
            let n = net.trunk[k].outputs;
            if q == n {
                continue;
            }
            let g: Vec<usize> = (0..q).map(|j| if j < n { j } else { rng.below(n as u32) as usize }).collect();
            let share: Vec<f32> = (0..q).map(|_| 1.0 + 0.5 * (2.0 * rng.unit() as f32 - 1.0)).collect();
            let mut total = vec![0f32; n];
            g.iter().zip(&share).for_each(|(&u, &s)| total[u] += s);
            let share: Vec<f32> = g.iter().zip(&share).map(|(&u, &s)| s / total[u]).collect();
            let old = &net.trunk[k];
            let mut wide = Dense::zeros(old.inputs, q);
            for (j, &u) in g.iter().enumerate() {
                wide.w[j * old.inputs..(j + 1) * old.inputs].copy_from_slice(&old.w[u * old.inputs..(u + 1) * old.inputs]);
                wide.b[j] = old.b[u];
            }
            net.trunk[k] = wide;
            let widen_inputs = |d: &Dense| {
                let mut e = Dense::zeros(q, d.outputs);
                e.b.copy_from_slice(&d.b);
                for o in 0..d.outputs {
                    for (j, &u) in g.iter().enumerate() {
                        e.w[o * q + j] = d.w[o * n + u] * share[j];
                    }
                }
                e
            };
            if k + 1 < net.trunk.len() {
                net.trunk[k + 1] = widen_inputs(&net.trunk[k + 1]);
            } else {
                net.policy = widen_inputs(&net.policy);
                net.value = widen_inputs(&net.value);
            }
        }
        Ok(net)
    }

    /// The weights file: [`MAGIC`], version (u32), spec (u16 length + UTF-8), inputs (u32),
    /// hidden layer count (u32) and widths (u32 each), policy outputs (u32), then every
    /// layer's `W` (row-major) and `b` as `f32` (trunk layers in order, policy head, value
    /// head), then the CRC-32 (IEEE) of all preceding bytes. Little-endian throughout.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = file_head(VERSION, &self.spec, self.parameters());
        out.extend_from_slice(&(self.inputs() as u32).to_le_bytes());
        out.extend_from_slice(&(self.trunk.len() as u32).to_le_bytes());
        for l in &self.trunk {
            out.extend_from_slice(&(l.outputs as u32).to_le_bytes());
        }
        out.extend_from_slice(&(self.moves() as u32).to_le_bytes());
        for l in self.trunk.iter().chain([&self.policy, &self.value]) {
            for x in l.w.iter().chain(&l.b) {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        seal(&mut out);
        out
    }

    /// Reads a version 1 weights file (see [`Mlp::to_bytes`]); [`Net::from_bytes`] reads either
    /// version.
    ///
    /// # Errors
    /// A file longer than [`MAX_NET_BYTES`] (nothing is read), bad magic, another version
    /// ([`NetError::Shape`] for a version 2 file, a convolutional net), truncation, a checksum
    /// mismatch, zero or too wide layers (over [`MAX_WIDTH`]), trailing bytes, non-finite
    /// weights.
    pub fn from_bytes(bytes: &[u8]) -> Result<Mlp, NetError> {
        let mut f = Opened::open(bytes, VERSION)?;
        let r = &mut f.r;
        let inputs = r.u32()? as usize;
        let layers = r.u32()? as usize;
        if layers > MAX_HIDDEN_LAYERS {
            return Err(NetError::Shape(format!("{layers} hidden layers (at most {MAX_HIDDEN_LAYERS})")));
        }
        let mut widths = Vec::with_capacity(layers);
        for _ in 0..layers {
            widths.push(r.u32()? as usize);
        }
        let moves = r.u32()? as usize;
        for (name, w) in [("inputs", inputs), ("policy outputs", moves)].into_iter().chain(widths.iter().map(|&w| ("hidden width", w))) {
            if w == 0 || w > MAX_WIDTH {
                return Err(NetError::Shape(format!("{name} = {w}, expected 1..={MAX_WIDTH}")));
            }
        }
        let mut net = Mlp::zeros(&f.spec, inputs, &widths, moves);
        f.weights(net.trunk.iter_mut().chain([&mut net.policy, &mut net.value]).flat_map(|l| l.w.iter_mut().chain(l.b.iter_mut())))?;
        f.finish("layer")?;
        Ok(net)
    }
}

/// The start of a weights file of either version ([`Mlp::to_bytes`], [`ConvNet::to_bytes`]):
/// [`MAGIC`], `version` (u32) and the spec (u16 length + UTF-8), with room for `parameters`
/// weights; [`seal`] ends it.
fn file_head(version: u32, spec: &str, parameters: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + spec.len() + parameters * 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(spec.len() as u16).to_le_bytes());
    out.extend_from_slice(spec.as_bytes());
    out
}

/// Ends a weights file: appends the CRC-32 (IEEE) of every byte before it.
fn seal(out: &mut Vec<u8>) {
    let crc = crc32fast::hash(out);
    out.extend_from_slice(&crc.to_le_bytes());
}

/// A weights file of a known version, opened: its length, magic and version checked, its spec
/// read and its checksum computed; `r` stands after the spec, on the version's shapes. The
/// readers of both versions ([`Mlp::from_bytes`], [`ConvNet::from_bytes`]) go on from here.
struct Opened<'a> {
    r: Reader<'a>,
    spec: String,
    found: u32,
    expected: u32,
}

impl<'a> Opened<'a> {
    /// Opens `bytes` as a file of format version `want` ([`VERSION`] or [`conv::VERSION`]).
    ///
    /// # Errors
    /// [`NetError::TooLong`] (nothing is read), [`NetError::BadMagic`], [`NetError::Shape`]
    /// for a file of the other version (saying which kind of net it holds),
    /// [`NetError::Version`] for any other version, [`NetError::Truncated`], a spec that is not
    /// UTF-8.
    fn open(bytes: &'a [u8], want: u32) -> Result<Opened<'a>, NetError> {
        if bytes.len() > MAX_NET_BYTES {
            return Err(NetError::TooLong { len: bytes.len(), max: MAX_NET_BYTES });
        }
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let mut r = Reader { b: bytes, at: MAGIC.len() };
        let version = r.u32()?;
        if version != want {
            return Err(match version {
                VERSION => NetError::Shape("the file holds a fully connected net (format version 1), not a convolutional one".into()),
                conv::VERSION => NetError::Shape("the file holds a convolutional net (format version 2), not a fully connected one".into()),
                found => NetError::Version { found },
            });
        }
        if bytes.len() < r.at + 4 {
            return Err(NetError::Truncated { at: bytes.len(), need: r.at + 4 - bytes.len() });
        }
        let body = &bytes[..bytes.len() - 4];
        let expected = u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().expect("4 bytes"));
        let found = crc32fast::hash(body);
        let mut r = Reader { b: body, at: r.at };
        let spec_len = r.u16()? as usize;
        let spec = String::from_utf8(r.take(spec_len)?.to_vec()).map_err(|_| NetError::Shape("spec is not UTF-8".into()))?;
        Ok(Opened { r, spec, found, expected })
    }

    /// Reads the weights into `slots`, in order: little-endian `f32`, each finite.
    ///
    /// # Errors
    /// [`NetError::Truncated`], [`NetError::NonFinite`].
    fn weights<'w>(&mut self, slots: impl Iterator<Item = &'w mut f32>) -> Result<(), NetError> {
        for x in slots {
            *x = self.r.f32()?;
            if !x.is_finite() {
                return Err(NetError::NonFinite);
            }
        }
        Ok(())
    }

    /// Checks the end: the checksum (first: a corrupt length field is a corrupt file), then no
    /// byte after the last `what` (layer, tensor).
    ///
    /// # Errors
    /// [`NetError::Checksum`], then [`NetError::Shape`] for trailing bytes.
    fn finish(self, what: &str) -> Result<(), NetError> {
        if self.found != self.expected {
            return Err(NetError::Checksum { found: self.found, expected: self.expected });
        }
        if self.r.at != self.r.b.len() {
            return Err(NetError::Shape(format!("{} bytes after the last {what}", self.r.b.len() - self.r.at)));
        }
        Ok(())
    }
}

/// A little-endian cursor that reports truncation.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], NetError> {
        if self.at + n > self.b.len() {
            return Err(NetError::Truncated { at: self.at, need: self.at + n - self.b.len() });
        }
        let s = &self.b[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    fn u16(&mut self) -> Result<u16, NetError> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2 bytes")))
    }
    fn u32(&mut self) -> Result<u32, NetError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    fn f32(&mut self) -> Result<f32, NetError> {
        Ok(f32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
}

/// A net's layers stored by input, for inference on a board of stones: layer `k`'s weights as
/// `inputs × outputs` (row `i` = what input `i` adds to every output; the transpose of
/// [`Dense::w`]), the policy and value heads as one layer of `moves + 1` outputs.
///
/// [`ByInput::forward_binary`] computes each layer as `y = b + Σ_i x_i·row_i` over the inputs
/// that are not zero: the board's stones for the first layer (one vector add each), the units
/// a ReLU left positive for the others (about half). It gives [`Mlp::forward`]'s outputs up to
/// float rounding (the sums run in another order); native and WebAssembly run the same
/// operations in the same order, so they agree (`tests/data/nn_forward.json`).
#[derive(Clone, Debug)]
pub struct ByInput {
    /// Trunk layers then the joint head: (outputs, weights by input, biases); the weights of
    /// input i are `outputs` floats from `i * outputs`.
    layers: Vec<(usize, Vec<f32>, Vec<f32>)>,
    moves: usize,
}

impl ByInput {
    /// The by-input form of `net`.
    pub fn new(net: &Mlp) -> ByInput {
        let transpose = |inputs: usize, parts: &[&Dense]| {
            let outputs: usize = parts.iter().map(|d| d.outputs).sum();
            let mut t = vec![0f32; inputs * outputs];
            let mut b = Vec::with_capacity(outputs);
            let mut o = 0;
            for d in parts {
                for j in 0..d.outputs {
                    for i in 0..inputs {
                        t[i * outputs + o + j] = d.w[j * inputs + i];
                    }
                }
                b.extend_from_slice(&d.b);
                o += d.outputs;
            }
            (outputs, t, b)
        };
        let mut layers: Vec<_> = net.trunk.iter().map(|l| transpose(l.inputs, &[l])).collect();
        layers.push(transpose(net.policy.inputs, &[&net.policy, &net.value]));
        ByInput { layers, moves: net.moves() }
    }

    /// One forward pass on the input that is 1 at the indices `active` (ascending) and 0
    /// elsewhere: the policy logits into `logits` (length = moves) and the value head's `tanh`
    /// output in [−1, 1] (side to move's view), as [`Mlp::forward`].
    pub fn forward_binary(&self, active: &[u16], logits: &mut [f32]) -> f32 {
        with_activations(|a, b| {
            let last = self.layers.len() - 1;
            for (k, (outputs, t, bias)) in self.layers.iter().enumerate() {
                b.clear();
                b.extend_from_slice(bias);
                let mut add = |i: usize, x: f32| {
                    let row = &t[i * outputs..(i + 1) * outputs];
                    if x == 1.0 {
                        b.iter_mut().zip(row).for_each(|(y, w)| *y += w);
                    } else {
                        b.iter_mut().zip(row).for_each(|(y, w)| *y += x * w);
                    }
                };
                if k == 0 {
                    active.iter().for_each(|&i| add(i as usize, 1.0));
                } else {
                    a.iter().enumerate().filter(|(_, &x)| x > 0.0).for_each(|(i, &x)| add(i, x));
                }
                if k < last {
                    b.iter_mut().for_each(|v| *v = v.max(0.0));
                }
                std::mem::swap(a, b);
            }
            logits[..self.moves].copy_from_slice(&a[..self.moves]);
            a[self.moves].tanh()
        })
    }
}

/// A policy-value net of either trunk, as the search, the registry ([`models`]) and the tools
/// hold one: both read the encoding's two planes (2n² or 18 inputs, [`features::Encoding`]) and
/// give a logit per cell and a value in [−1, 1] for the side to move.
// A net is held once (in an `Arc`, or in the registry): its few hundred bytes of fields are no
// cost, and a box would add an indirection to every use.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Net {
    /// A fully connected net (weights file version 1).
    Mlp(Mlp),
    /// A convolutional Hex net (weights file version 2).
    Conv(ConvNet),
}

impl From<Mlp> for Net {
    fn from(m: Mlp) -> Net {
        Net::Mlp(m)
    }
}

impl From<ConvNet> for Net {
    fn from(c: ConvNet) -> Net {
        Net::Conv(c)
    }
}

impl Net {
    /// The game spec the net was trained for (`tictactoe`, `hex:5`, ...).
    pub fn spec(&self) -> &str {
        match self {
            Net::Mlp(m) => &m.spec,
            Net::Conv(c) => &c.spec,
        }
    }

    /// Input width: the encoding's two planes (2 × cells).
    pub fn inputs(&self) -> usize {
        match self {
            Net::Mlp(m) => m.inputs(),
            Net::Conv(c) => c.inputs(),
        }
    }

    /// Policy outputs (the game's move space, one per cell).
    pub fn moves(&self) -> usize {
        match self {
            Net::Mlp(m) => m.moves(),
            Net::Conv(c) => c.moves(),
        }
    }

    /// Number of weights and biases.
    pub fn parameters(&self) -> usize {
        match self {
            Net::Mlp(m) => m.parameters(),
            Net::Conv(c) => c.parameters(),
        }
    }

    /// The weights file: version 1 for an MLP ([`Mlp::to_bytes`]), 2 for a convolutional net
    /// ([`ConvNet::to_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Net::Mlp(m) => m.to_bytes(),
            Net::Conv(c) => c.to_bytes(),
        }
    }

    /// Reads a weights file of either version: 2 is a [`ConvNet`], anything else is read as
    /// version 1 ([`Mlp::from_bytes`], so every error of a version 1 reader is unchanged).
    ///
    /// # Errors
    /// Those of [`Mlp::from_bytes`] and [`ConvNet::from_bytes`]: a file longer than
    /// [`MAX_NET_BYTES`], bad magic, another version, truncation, a checksum mismatch, shapes,
    /// trailing bytes, non-finite weights.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetError> {
        let conv = bytes.len() <= MAX_NET_BYTES && bytes.starts_with(MAGIC) && file_version(bytes) == Some(conv::VERSION);
        if conv {
            ConvNet::from_bytes(bytes).map(Net::Conv)
        } else {
            Mlp::from_bytes(bytes).map(Net::Mlp)
        }
    }

    /// One forward pass: `x` (the encoding's planes, length [`Net::inputs`]) → policy logits
    /// into `logits` (length [`Net::moves`]) and the value head's `tanh` output in [−1, 1]
    /// (side to move's view). For many passes hold a [`NetByInput`].
    pub fn forward(&self, x: &[f32], logits: &mut [f32]) -> f32 {
        match self {
            Net::Mlp(m) => m.forward(x, logits),
            Net::Conv(c) => c.forward(x, logits),
        }
    }

    /// The MLP, if the net is one.
    pub fn as_mlp(&self) -> Option<&Mlp> {
        match self {
            Net::Mlp(m) => Some(m),
            Net::Conv(_) => None,
        }
    }

    /// The convolutional net, if the net is one.
    pub fn as_conv(&self) -> Option<&ConvNet> {
        match self {
            Net::Mlp(_) => None,
            Net::Conv(c) => Some(c),
        }
    }

    /// The sizes of the layers' outputs, inputs first: for an MLP the inputs, each hidden
    /// layer's width and the policy outputs (`[98, 128, 128, 49]`); for a convolutional net the
    /// inputs (2n²), each trunk convolution's units (C·n², the first and each residual block)
    /// and the policy outputs (n²): `[98, 1568, 1568, 49]` for hex:7, C = 32, one block.
    pub fn layers(&self) -> Vec<usize> {
        let mut layers = vec![self.inputs()];
        match self {
            Net::Mlp(m) => layers.extend(m.hidden()),
            Net::Conv(c) => layers.extend(std::iter::repeat_n(c.channels() * c.moves(), 1 + c.blocks())),
        }
        layers.push(self.moves());
        layers
    }

    /// A short description for logs and the page: `98 → 128 → 128 → 49` (an MLP's layers) or
    /// `conv 32 channels × 6 layers, value head 64` (a convolutional net: C, the trunk's 3×3
    /// convolutions, the first and the residual ones, and H).
    pub fn describe(&self) -> String {
        match self {
            Net::Mlp(_) => self.layers().iter().map(|w| w.to_string()).collect::<Vec<_>>().join(" → "),
            Net::Conv(c) => format!("conv {} channels × {} layers, value head {}", c.channels(), 1 + c.blocks(), c.value_hidden_units()),
        }
    }
}

/// A [`Net`] in its inference form, built once per evaluator: [`ByInput`] or [`ConvByInput`].
// Held once per evaluator, behind an `Arc` (see `Net`).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum NetByInput {
    /// An MLP's.
    Mlp(ByInput),
    /// A convolutional net's.
    Conv(ConvByInput),
}

impl NetByInput {
    /// The inference form of `net`.
    pub fn new(net: &Net) -> NetByInput {
        match net {
            Net::Mlp(m) => NetByInput::Mlp(ByInput::new(m)),
            Net::Conv(c) => NetByInput::Conv(ConvByInput::new(c)),
        }
    }

    /// One forward pass on the input that is 1 at the indices `active` (ascending, the stones:
    /// [`features::Encoding::active`]) and 0 elsewhere: the policy logits into `logits` and the
    /// value head's `tanh` output in [−1, 1] (side to move's view), as [`Net::forward`].
    pub fn forward_binary(&self, active: &[u16], logits: &mut [f32]) -> f32 {
        match self {
            NetByInput::Mlp(b) => b.forward_binary(active, logits),
            NetByInput::Conv(c) => c.forward_binary(active, logits),
        }
    }
}

/// Softmax of `logits` over the entries `idx` (the legal moves' output indices) into `out`
/// (cleared first, one probability per entry of `idx`, same order); numerically stable
/// (the maximum logit is subtracted first).
pub fn softmax_over(logits: &[f32], idx: impl Iterator<Item = usize> + Clone, out: &mut Vec<f32>) {
    out.clear();
    let m = idx.clone().map(|i| logits[i]).fold(f32::NEG_INFINITY, f32::max);
    out.extend(idx.map(|i| (logits[i] - m).exp()));
    let s: f32 = out.iter().sum();
    if s > 0.0 {
        for x in out.iter_mut() {
            *x /= s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Mlp {
        let mut n = Mlp::zeros("tictactoe", 18, &[4, 3], 9);
        let mut k = 0.0f32;
        for l in n.trunk.iter_mut().chain([&mut n.policy, &mut n.value]) {
            for x in l.w.iter_mut().chain(l.b.iter_mut()) {
                k += 1.0;
                *x = ((k * 0.37).sin()) * 0.5;
            }
        }
        n
    }

    #[test]
    fn grown_nets_compute_the_same_function() {
        let n = small();
        for hidden in [vec![4, 3], vec![4, 3, 3], vec![7, 5], vec![9, 3, 6, 2 + 3]] {
            let g = n.grown(&hidden, 5).unwrap();
            assert_eq!(g.hidden(), hidden);
            assert_eq!((g.inputs(), g.moves()), (18, 9));
            for s in 0..20u32 {
                let x: Vec<f32> = (0..18).map(|i| if (i * 7 + s * 3) % 5 < 2 { 1.0 } else { 0.0 }).collect();
                let (mut a, mut b) = (vec![0.0; 9], vec![0.0; 9]);
                let (va, vb) = (n.forward(&x, &mut a), g.forward(&x, &mut b));
                assert!((va - vb).abs() < 1e-5, "{hidden:?}: value {va} vs {vb}");
                a.iter().zip(&b).for_each(|(p, q)| assert!((p - q).abs() < 1e-5, "{hidden:?}: logit {p} vs {q}"));
            }
        }
        // The copies of a unit differ in their outgoing weights (the symmetry is broken).
        let g = n.grown(&[8, 3], 5).unwrap();
        let col = |j: usize| (0..3).map(|o| g.trunk[1].w[o * 8 + j]).collect::<Vec<_>>();
        let row = |j: usize| &g.trunk[0].w[j * 18..(j + 1) * 18];
        for j in 4..8 {
            let u = (0..4).find(|&u| row(u) == row(j)).expect("a new unit copies an old one");
            assert_ne!(col(j), col(u), "unit {j} and its source {u}");
        }
        for bad in [vec![4], vec![3, 3], vec![4, 0], vec![4, MAX_WIDTH + 1]] {
            assert!(matches!(n.grown(&bad, 5), Err(NetError::Shape(_))), "{bad:?}");
        }
    }

    #[test]
    fn round_trip_and_forward_by_hand() {
        let n = small();
        let bytes = n.to_bytes();
        assert_eq!(Mlp::from_bytes(&bytes).unwrap(), n);
        // The forward pass against a direct computation.
        let x: Vec<f32> = (0..18).map(|i| if i % 3 == 0 { 1.0 } else { 0.0 }).collect();
        let mut h = x.clone();
        for l in &n.trunk {
            h = (0..l.outputs).map(|j| (l.b[j] + (0..l.inputs).map(|i| l.w[j * l.inputs + i] * h[i]).sum::<f32>()).max(0.0)).collect();
        }
        let mut logits = vec![0.0; 9];
        let v = n.forward(&x, &mut logits);
        for (j, &lg) in logits.iter().enumerate() {
            let want = n.policy.b[j] + (0..3).map(|i| n.policy.w[j * 3 + i] * h[i]).sum::<f32>();
            assert!((lg - want).abs() < 1e-6);
        }
        let want_v = (n.value.b[0] + (0..3).map(|i| n.value.w[i] * h[i]).sum::<f32>()).tanh();
        assert!((v - want_v).abs() < 1e-6);
    }

    #[test]
    fn binary_forward_equals_dense_forward() {
        // Every shipped MLP (the convolutional hex:7 net has its own test in `conv`), on random
        // boards of stones: the sparse first layer gives the dense pass's logits and value up
        // to rounding. And a net without a trunk layer.
        let mut rng = crate::rng::Rng64::new(9);
        let mut nets: Vec<Mlp> = models::AVAILABLE.iter().filter_map(|s| models::load(s).unwrap().as_mlp().cloned()).collect();
        assert!(nets.len() >= 2, "the shipped MLPs (tictactoe, hex:5)");
        let mut flat = Mlp::zeros("tictactoe", 18, &[], 9);
        flat.policy.w.iter_mut().enumerate().for_each(|(i, w)| *w = (i % 7) as f32 * 0.1 - 0.3);
        nets.push(flat);
        for net in &nets {
            let (inputs, moves) = (net.inputs(), net.moves());
            let by_input = ByInput::new(net);
            for _ in 0..50 {
                let active: Vec<u16> = (0..inputs as u16).filter(|_| rng.chance(0.3)).collect();
                let mut x = vec![0f32; inputs];
                active.iter().for_each(|&i| x[i as usize] = 1.0);
                let (mut a, mut b) = (vec![0f32; moves], vec![0f32; moves]);
                let (va, vb) = (net.forward(&x, &mut a), by_input.forward_binary(&active, &mut b));
                assert!((va - vb).abs() < 1e-5, "{}: value {va} vs {vb}", net.spec);
                for (p, q) in a.iter().zip(&b) {
                    assert!((p - q).abs() < 1e-4 * p.abs().max(1.0), "{}: logit {p} vs {q}", net.spec);
                }
            }
        }
    }

    #[test]
    fn defects_are_typed_errors() {
        let bytes = small().to_bytes();
        assert_eq!(Mlp::from_bytes(b"hello"), Err(NetError::BadMagic));
        assert!(matches!(Mlp::from_bytes(&bytes[..bytes.len() - 9]), Err(NetError::Checksum { .. }) | Err(NetError::Truncated { .. })));
        let mut flipped = bytes.clone();
        flipped[60] ^= 0x40;
        assert!(matches!(Mlp::from_bytes(&flipped), Err(NetError::Checksum { .. })));
        let mut v3 = bytes.clone();
        v3[8] = 3;
        assert_eq!(Mlp::from_bytes(&v3), Err(NetError::Version { found: 3 }));
        assert_eq!(Net::from_bytes(&v3), Err(NetError::Version { found: 3 }));
        // A version 2 file is a convolutional net, which this reader says.
        let mut v2 = bytes.clone();
        v2[8] = 2;
        assert!(matches!(Mlp::from_bytes(&v2), Err(NetError::Shape(s)) if s.contains("convolutional")));
        assert!(matches!(Mlp::from_bytes(&bytes[..10]), Err(NetError::Truncated { .. })));
        assert!(Mlp::from_bytes(&flipped).unwrap_err().to_string().contains("corrupt"));
    }

    #[test]
    fn largest_file_is_the_widest_net() {
        assert_eq!(MAX_FILE_BYTES, 71_442_529);
        assert_eq!(MAX_NET_BYTES, MAX_FILE_BYTES, "limits.rs states the same number");
        let widest = Mlp::zeros(&"x".repeat(u16::MAX as usize), MAX_WIDTH, &[MAX_WIDTH; MAX_HIDDEN_LAYERS], MAX_WIDTH);
        let bytes = widest.to_bytes();
        assert_eq!(bytes.len(), MAX_FILE_BYTES);
        assert!(check_header(&bytes[..HEADER_BYTES]).is_ok());
        assert_eq!(check_header(b"MCTSNE"), Err(NetError::BadMagic));
        let mut v3 = bytes[..HEADER_BYTES].to_vec();
        v3[MAGIC.len()] = 3;
        assert_eq!(check_header(&v3), Err(NetError::Version { found: 3 }));
        assert_eq!(
            NetError::Version { found: 3 }.to_string(),
            "weights file version 3, this build reads versions 1 (fully connected) and 2 (convolutional)"
        );
        v3[MAGIC.len()] = 2;
        assert_eq!(check_header(&v3), Ok(()));
    }

    #[test]
    fn softmax_over_legal_moves() {
        let logits = [0.0, 1.0, 2.0, 100.0];
        let mut p = Vec::new();
        softmax_over(&logits, [0usize, 1, 2].into_iter(), &mut p);
        assert_eq!(p.len(), 3);
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(p[2] > p[1] && p[1] > p[0]);
    }
}
