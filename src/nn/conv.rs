//! A convolutional policy-value net for Hex (issue 53): a trunk that sees the board's geometry,
//! where the [`super::Mlp`] sees 2n² unrelated inputs.
//!
//! Why: with the same solver-labelled Hex 5×5 positions (80,000 positions of noisy perfect play,
//! `examples/conv_probe.rs`), the fully connected 128 → 128 net values 94.8 % of 8,000 held-out
//! positions and 82–83 of the 100 positions of `tests/data/hex5-solve.jsonl` right after 30,000
//! Adam steps; this trunk (32 channels, 5 convolutions) 98.2 % and 89–92 of 100 after 8,000.
//!
//! The shape, in the net's frame ([`super::features::Encoding`]: the side to move connects top
//! and bottom):
//! - **Input**: the two planes (own stones, the opponent's) on the board **padded by one cell**,
//!   (n+2) × (n+2): the padding rows above and below the board are the side to move's stones
//!   (its edges), the padding columns left and right the opponent's; the four corners are empty
//!   ([`padded_planes`]). So the edges are stones the convolutions see like any other; Hex nets
//!   pad so too (NeuroHex, Young, Vasan & Hayward 2016; Gao, Hayward & Müller, "Move prediction
//!   using deep convolutional neural networks in Hex", IEEE ToG 2018, with two rows each side).
//! - **Trunk**: `first`, a 3×3 convolution without padding, 2 → C channels, (n+2)² → n², ReLU;
//!   then each of `body`, a residual 3×3 convolution with zero padding, C → C:
//!   `h ← ReLU(h + conv(h))` (He et al. 2016's identity shortcut, one convolution per block and
//!   no batch normalisation, as small Go and Hex nets without it).
//! - **Policy head**: a 1×1 convolution C → 1: one logit per cell (n², `row·n + col`).
//! - **Value head** (AlphaZero's, Silver et al. 2017, without batch normalisation): a 1×1
//!   convolution C → 2, ReLU, flattened channel by channel (index `k·n² + cell`), a dense layer
//!   2n² → H, ReLU, a dense layer H → 1, `tanh`: the value in [−1, 1] for the side to move.
//!
//! Weights are laid out as burn's and PyTorch's: a convolution's `w` is `[out][in][k][k]`
//! row-major; a [`Dense`] is `[out][in]`.
//!
//! The weights file is format version 2 ([`ConvNet::to_bytes`], [`ConvNet::from_bytes`]); the
//! search runs the net in its by-input form ([`ConvByInput`]).

use super::features::MAX_CELLS;
use super::{dot, file_head, seal, Dense, NetError, Opened, HEADER_BYTES, MAX_FILE_BYTES, MAX_HIDDEN_LAYERS, MAX_WIDTH};

/// The format version of a convolutional net's weights file ([`ConvNet::to_bytes`]).
pub const VERSION: u32 = 2;
/// Largest board side a convolutional net may have (Hex 19×19, [`MAX_CELLS`]).
pub const MAX_SIDE: usize = 19;
/// Most channels C a convolutional net may have.
pub const MAX_CHANNELS: usize = 256;
const _: () = assert!(MAX_SIDE * MAX_SIDE == MAX_CELLS);

/// Weights and biases of a net of board side `n`, `channels` C, `blocks` residual convolutions
/// and `value_hidden` H units in the value head (as [`ConvNet::parameters`]).
pub const fn parameters_of(n: usize, channels: usize, blocks: usize, value_hidden: usize) -> usize {
    let c = channels;
    (2 * c * 9 + c) + blocks * (c * c * 9 + c) + (c + 1) + (2 * c + 2) + (2 * n * n * value_hidden + value_hidden) + (value_hidden + 1)
}

/// The largest convolutional weights file the limits allow, in bytes: 40,753,208 (n = 19,
/// C = 256, 16 residual blocks, H = 1,024): the header ([`HEADER_BYTES`], the spec's u16 length
/// and `hex:19`, four u32), 10,188,292 parameters of 4 bytes, the CRC-32. Below
/// [`MAX_FILE_BYTES`] (the largest fully connected file), so the one limit
/// [`MAX_NET_BYTES`](super::MAX_NET_BYTES) holds both formats.
pub const MAX_CONV_FILE_BYTES: usize =
    HEADER_BYTES + 2 + "hex:19".len() + 4 * 4 + 4 * parameters_of(MAX_SIDE, MAX_CHANNELS, MAX_HIDDEN_LAYERS, MAX_WIDTH) + 4;
const _: () = assert!(MAX_CONV_FILE_BYTES <= MAX_FILE_BYTES, "a convolutional file fits the one limit of weights files");

/// A convolution with a square `kernel × kernel` window (3 or 1) and a bias per output channel.
#[derive(Clone, Debug, PartialEq)]
pub struct Conv {
    /// Input channels.
    pub inputs: usize,
    /// Output channels.
    pub outputs: usize,
    /// Window side: 3 (the trunk) or 1 (the heads).
    pub kernel: usize,
    /// `outputs × inputs × kernel × kernel` weights, row-major (`w[((o·inputs + i)·k + dy)·k + dx]`,
    /// `dy` the row offset + 1 for a 3×3 window, `dx` the column offset + 1).
    pub w: Vec<f32>,
    /// `outputs` biases.
    pub b: Vec<f32>,
}

impl Conv {
    /// A zero convolution of the given shape.
    pub fn zeros(inputs: usize, outputs: usize, kernel: usize) -> Conv {
        Conv { inputs, outputs, kernel, w: vec![0.0; outputs * inputs * kernel * kernel], b: vec![0.0; outputs] }
    }
}

/// The convolutional policy-value net (see the module for its shape).
#[derive(Clone, Debug, PartialEq)]
pub struct ConvNet {
    /// The game spec the net was trained for (`hex:N`).
    pub spec: String,
    /// Board side n.
    pub n: usize,
    /// 3×3, 2 → C, no padding: (n+2)² → n².
    pub first: Conv,
    /// Residual 3×3 convolutions C → C with zero padding.
    pub body: Vec<Conv>,
    /// 1×1, C → 1: the policy logits.
    pub policy: Conv,
    /// 1×1, C → 2, then ReLU: the value head's planes.
    pub value_conv: Conv,
    /// 2n² → H, then ReLU.
    pub value_hidden: Dense,
    /// H → 1, then `tanh`.
    pub value_out: Dense,
}

impl ConvNet {
    /// A net of zeros for board side `n`: `channels` C, `blocks` residual convolutions after the
    /// first, `value_hidden` H units in the value head.
    pub fn zeros(spec: &str, n: usize, channels: usize, blocks: usize, value_hidden: usize) -> ConvNet {
        ConvNet {
            spec: spec.to_string(),
            n,
            first: Conv::zeros(2, channels, 3),
            body: (0..blocks).map(|_| Conv::zeros(channels, channels, 3)).collect(),
            policy: Conv::zeros(channels, 1, 1),
            value_conv: Conv::zeros(channels, 2, 1),
            value_hidden: Dense::zeros(2 * n * n, value_hidden),
            value_out: Dense::zeros(value_hidden, 1),
        }
    }

    /// A net of random weights for Hex n×n (benchmarks, tests): each weight uniform in
    /// ±1.5/√fan-in (so activations neither vanish nor grow over the blocks), each bias in ±0.1,
    /// drawn from `seed`.
    pub fn random(n: usize, channels: usize, blocks: usize, value_hidden: usize, seed: u64) -> ConvNet {
        let mut net = ConvNet::zeros(&format!("hex:{n}"), n, channels, blocks, value_hidden);
        let mut rng = crate::rng::Rng64::new(seed);
        let mut fill = |w: &mut [f32], b: &mut [f32], fan_in: usize| {
            let s = 1.5 / (fan_in as f32).sqrt();
            w.iter_mut().for_each(|x| *x = s * (2.0 * rng.unit() as f32 - 1.0));
            b.iter_mut().for_each(|x| *x = 0.1 * (2.0 * rng.unit() as f32 - 1.0));
        };
        fill(&mut net.first.w, &mut net.first.b, 18);
        for l in &mut net.body {
            fill(&mut l.w, &mut l.b, 9 * channels);
        }
        fill(&mut net.policy.w, &mut net.policy.b, channels);
        fill(&mut net.value_conv.w, &mut net.value_conv.b, channels);
        fill(&mut net.value_hidden.w, &mut net.value_hidden.b, 2 * n * n);
        fill(&mut net.value_out.w, &mut net.value_out.b, value_hidden);
        net
    }

    /// Channels C.
    pub fn channels(&self) -> usize {
        self.first.outputs
    }

    /// Number of weights and biases.
    pub fn parameters(&self) -> usize {
        let conv = |c: &Conv| c.w.len() + c.b.len();
        let dense = |d: &Dense| d.w.len() + d.b.len();
        conv(&self.first)
            + self.body.iter().map(conv).sum::<usize>()
            + conv(&self.policy)
            + conv(&self.value_conv)
            + dense(&self.value_hidden)
            + dense(&self.value_out)
    }

    /// Residual blocks (the convolutions after the first).
    pub fn blocks(&self) -> usize {
        self.body.len()
    }

    /// Units of the value head's hidden layer, H.
    pub fn value_hidden_units(&self) -> usize {
        self.value_hidden.outputs
    }

    /// Network inputs: the encoding's two planes, 2n² ([`super::features::Encoding::inputs`]).
    pub fn inputs(&self) -> usize {
        2 * self.n * self.n
    }

    /// Policy outputs: one per cell, n².
    pub fn moves(&self) -> usize {
        self.n * self.n
    }

    /// Every tensor in the file's order: `first` (w, b), each of `body` (w, b), `policy`,
    /// `value_conv`, `value_hidden`, `value_out`.
    fn tensors(&self) -> Vec<&[f32]> {
        let mut t: Vec<&[f32]> = vec![&self.first.w, &self.first.b];
        for c in &self.body {
            t.extend([&c.w[..], &c.b[..]]);
        }
        t.extend([&self.policy.w[..], &self.policy.b[..], &self.value_conv.w[..], &self.value_conv.b[..]]);
        t.extend([&self.value_hidden.w[..], &self.value_hidden.b[..], &self.value_out.w[..], &self.value_out.b[..]]);
        t
    }

    /// [`ConvNet::tensors`], mutable.
    fn tensors_mut(&mut self) -> Vec<&mut [f32]> {
        let mut t: Vec<&mut [f32]> = vec![&mut self.first.w, &mut self.first.b];
        for c in &mut self.body {
            t.extend([&mut c.w[..], &mut c.b[..]]);
        }
        t.extend([&mut self.policy.w[..], &mut self.policy.b[..], &mut self.value_conv.w[..], &mut self.value_conv.b[..]]);
        t.extend([&mut self.value_hidden.w[..], &mut self.value_hidden.b[..], &mut self.value_out.w[..], &mut self.value_out.b[..]]);
        t
    }

    /// The weights file, format version 2: [`MAGIC`](super::MAGIC), version (u32, 2), spec (u16 length +
    /// UTF-8, `hex:N`), then as u32 the board side n, channels C, residual blocks (the length
    /// of `body`) and value head units H; then every tensor as `f32`, each in its layout (see
    /// the module): `first.w`, `first.b`, each body convolution's `w` then `b`, `policy.w`,
    /// `policy.b`, `value_conv.w`, `value_conv.b`, `value_hidden.w`, `value_hidden.b`,
    /// `value_out.w`, `value_out.b`; then the CRC-32 (IEEE) of all preceding bytes.
    /// Little-endian throughout. At most [`MAX_CONV_FILE_BYTES`].
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = file_head(VERSION, &self.spec, self.parameters());
        for v in [self.n, self.channels(), self.blocks(), self.value_hidden_units()] {
            out.extend_from_slice(&(v as u32).to_le_bytes());
        }
        for t in self.tensors() {
            for x in t {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        seal(&mut out);
        out
    }

    /// Reads a version 2 weights file (see [`ConvNet::to_bytes`]).
    ///
    /// # Errors
    /// As [`super::Mlp::from_bytes`]: a file longer than [`MAX_NET_BYTES`](super::MAX_NET_BYTES) (nothing is read),
    /// bad magic, another version ([`NetError::Version`]; a version 1 file, a fully connected
    /// net, is [`NetError::Shape`] saying so), truncation, a checksum mismatch (checked first
    /// when the lengths disagree), trailing bytes, non-finite weights; and [`NetError::Shape`]
    /// for a board side outside 1..=[`MAX_SIDE`], channels outside 1..=[`MAX_CHANNELS`], more
    /// than [`MAX_HIDDEN_LAYERS`] residual blocks, a value head outside 1..=[`MAX_WIDTH`] units,
    /// or a spec that is not `hex:N` of the file's side ([`NetError::NoEncoding`] for a spec of
    /// a game without network inputs, such as `pentago` or `hex:7:swap`).
    pub fn from_bytes(bytes: &[u8]) -> Result<ConvNet, NetError> {
        let mut f = Opened::open(bytes, VERSION)?;
        let r = &mut f.r;
        let (n, channels, blocks, hidden) = (r.u32()? as usize, r.u32()? as usize, r.u32()? as usize, r.u32()? as usize);
        for (name, v, lo, hi) in [
            ("board side", n, 1, MAX_SIDE),
            ("channels", channels, 1, MAX_CHANNELS),
            ("residual blocks", blocks, 0, MAX_HIDDEN_LAYERS),
            ("value head units", hidden, 1, MAX_WIDTH),
        ] {
            if !(lo..=hi).contains(&v) {
                return Err(NetError::Shape(format!("{name} = {v}, expected {lo}..={hi}")));
            }
        }
        check_spec(&f.spec, n)?;
        let mut net = ConvNet::zeros(&f.spec, n, channels, blocks, hidden);
        f.weights(net.tensors_mut().into_iter().flat_map(|t| t.iter_mut()))?;
        f.finish("tensor")?;
        Ok(net)
    }

    /// One forward pass: `x` (the encoding's two planes, length 2n², [`super::features::Encoding::encode`])
    /// → policy logits into `logits` (length n², the net's frame) and the value head's `tanh`
    /// output in [−1, 1] for the side to move. Builds the net's [`ConvByInput`] form for this
    /// one pass (about as long as the pass itself): hold a [`ConvByInput`] for many.
    pub fn forward(&self, x: &[f32], logits: &mut [f32]) -> f32 {
        ConvByInput::new(self).forward(x, logits)
    }
}

/// Checks that `spec` is exactly `hex:n`.
fn check_spec(spec: &str, n: usize) -> Result<(), NetError> {
    use super::features::Encoding;
    if spec == format!("hex:{n}") {
        return Ok(());
    }
    match Encoding::for_spec(spec) {
        None => Err(NetError::NoEncoding { spec: spec.to_string() }),
        Some(Encoding::Hex { n: m }) if m != n => Err(NetError::Shape(format!(
            "the net has a board side of {n}, its spec '{}' names a {m}×{m} board",
            crate::limits::abbreviate(spec)
        ))),
        Some(_) => Err(NetError::Shape(format!(
            "a convolutional net plays Hex, its spec must be 'hex:{n}', not '{}'",
            crate::limits::abbreviate(spec)
        ))),
    }
}

/// The targets of a 3×3 window at a source in padded coordinates (`pr`, `pc`: the board's
/// cell (r, c) is (r+1, c+1)) on an n×n output: calls `f(target cell, tap)` for every output
/// cell (r, c) whose window reads the source, `tap = dy·3 + dx` the window position that reads
/// it (so r + dy = pr and c + dx = pc): the first layer's, without padding, on the padded input.
#[inline(always)]
fn window(n: usize, pr: usize, pc: usize, mut f: impl FnMut(usize, usize)) {
    for dy in pr.saturating_sub(n - 1)..=pr.min(2) {
        let r = pr - dy;
        for dx in pc.saturating_sub(n - 1)..=pc.min(2) {
            f(r * n + pc - dx, dy * 3 + dx);
        }
    }
}

/// `y += a·x` over equal lengths (vectorised by the compiler; `a == 1` without the product).
#[inline(always)]
fn axpy(y: &mut [f32], a: f32, x: &[f32]) {
    if a == 1.0 {
        y.iter_mut().zip(x).for_each(|(y, w)| *y += w);
    } else {
        y.iter_mut().zip(x).for_each(|(y, w)| *y += a * w);
    }
}

/// The scratch space of a forward pass, one per thread (as the MLP's `with_activations`): the
/// activations before and after a layer, and a layer's positive inputs by cell.
#[derive(Default)]
struct Scratch {
    h: Vec<f32>,
    out: Vec<f32>,
    /// The positive entries of `h` (channel, value), cell by cell.
    positive: Vec<(u32, f32)>,
    /// Where each cell's entries start in `positive` (n² + 1 offsets).
    starts: Vec<usize>,
}

/// Runs `f` with this thread's [`Scratch`] (a nested call, none exists, gets a fresh one).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    thread_local!(static SCRATCH: std::cell::RefCell<Scratch> = Default::default());
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut s) => f(&mut s),
        Err(_) => f(&mut Scratch::default()),
    })
}

/// One residual block's operands: weights `[tap][in][out]`, biases, the input `h` (channels-last)
/// and its positive entries by cell.
struct Block<'a> {
    n: usize,
    c: usize,
    w: &'a [f32],
    b: &'a [f32],
    h: &'a [f32],
    positive: &'a [(u32, f32)],
    starts: &'a [usize],
}

impl Block<'_> {
    /// `out = ReLU(h + b + conv(h))`, each output cell's channels in groups of `K` (C a multiple
    /// of `K`) summed in `K` accumulators that stay in registers: for each of the window's
    /// cells, each positive input channel there adds its row of `K` weights times its value.
    #[inline(never)]
    fn run<const K: usize>(&self, out: &mut [f32]) {
        let Block { n, c, w, b, h, positive, starts } = *self;
        for t in 0..n * n {
            let (r, col) = (t / n, t % n);
            for ob in (0..c).step_by(K) {
                let mut acc = [0f32; K];
                for k in 0..K {
                    acc[k] = h[t * c + ob + k] + b[ob + k];
                }
                // The source (r + dy − 1, col + dx − 1) of window position (dy, dx), on the board.
                for dy in (r == 0) as usize..3 - (r + 1 == n) as usize {
                    for dx in (col == 0) as usize..3 - (col + 1 == n) as usize {
                        let s = (r + dy - 1) * n + col + dx - 1;
                        let taps = &w[(dy * 3 + dx) * c * c..(dy * 3 + dx + 1) * c * c];
                        for &(i, x) in &positive[starts[s]..starts[s + 1]] {
                            let i = i as usize;
                            let row: &[f32; K] = taps[i * c + ob..i * c + ob + K].try_into().expect("K weights");
                            for k in 0..K {
                                acc[k] += x * row[k];
                            }
                        }
                    }
                }
                for k in 0..K {
                    out[t * c + ob + k] = acc[k].max(0.0);
                }
            }
        }
    }
}

/// A [`ConvNet`] re-laid out for inference, built once per evaluator: activations
/// channels-last (`h[cell·C + c]`) and every convolution's weights stored by input, so that an
/// input adds a row of weights, one per output channel, times its value (the inner loop is a
/// vector add over output channels):
/// - **first layer**: only the stones are read ([`super::features::Encoding::active`]): the
///   padding's edge stones are the same in every position, so their contribution and the
///   biases are one precomputed map of n² × C (`base`), and each stone adds its rows to the
///   (at most 9) cells its window reaches;
/// - **body**: an input activation that the ReLU left at 0 (about half) adds nothing: each
///   block first lists every cell's positive channels; then each output cell, C channels in
///   groups of 16 (or 8, 4, 1, whichever divides C) held in registers, starts from `h + b` (the
///   identity shortcut and the bias) and adds, for each cell of its window, those channels'
///   rows (weights `[tap][in][out]`). Scattering each input into its 9 targets' rows instead
///   (adding into memory) was 1.55× slower (hex:7, C = 32, 5 blocks: 375 µs against 240 µs per
///   pass on a loaded machine); groups of 32 spill the accumulators and were 3× slower;
/// - **heads**: per cell three dot products over C (the policy logit and the value head's two
///   planes), then the value head's dense layers, the first by input over the planes' positive
///   entries.
///
/// [`ConvByInput::forward`] equals [`ConvNet`]'s computation as the module states it up to
/// float rounding (the sums run in another order; the tests compare it with a direct
/// implementation, `examples/conv_speed.rs` times it). Native and WebAssembly run the same
/// operations in the same order.
#[derive(Clone, Debug)]
pub struct ConvByInput {
    n: usize,
    c: usize,
    /// The first layer before the stones: bias + the edge stones' contribution, `n² × C`.
    base: Vec<f32>,
    /// The first layer's weights by input: `[plane][tap][out]`, 2 × 9 × C.
    first: Vec<f32>,
    /// Each body convolution: weights `[tap][in][out]` (9 × C × C) and biases (C).
    body: Vec<(Vec<f32>, Vec<f32>)>,
    /// The 1×1 heads by output: policy, value plane 0, value plane 1, C weights each.
    heads: [Vec<f32>; 3],
    /// Their biases.
    heads_b: [f32; 3],
    /// The value head's hidden layer by input: `[2n²][H]`, and its biases.
    value_hidden: (Vec<f32>, Vec<f32>),
    /// The value output's weights (H) and bias.
    value_out: (Vec<f32>, f32),
}

impl ConvByInput {
    /// The by-input form of `net`.
    pub fn new(net: &ConvNet) -> ConvByInput {
        let (n, c) = (net.n, net.channels());
        let cells = n * n;
        let by_input = |conv: &Conv| {
            let (ci, co) = (conv.inputs, conv.outputs);
            let mut t = vec![0f32; ci * 9 * co];
            for o in 0..co {
                for i in 0..ci {
                    for tap in 0..9 {
                        t[(i * 9 + tap) * co + o] = conv.w[(o * ci + i) * 9 + tap];
                    }
                }
            }
            t
        };
        let first = by_input(&net.first);
        // The edge stones (the padded input of an empty board) through the first layer.
        let mut base: Vec<f32> = (0..cells).flat_map(|_| net.first.b.iter().copied()).collect();
        let m = n + 2;
        let edges = padded_planes(n, &vec![0f32; 2 * cells]);
        for (k, &x) in edges.iter().enumerate() {
            if x != 0.0 {
                let (p, pr, pc) = (k / (m * m), k % (m * m) / m, k % m);
                window(n, pr, pc, |t, tap| axpy(&mut base[t * c..(t + 1) * c], x, &first[(p * 9 + tap) * c..(p * 9 + tap + 1) * c]));
            }
        }
        let by_tap = |conv: &Conv| {
            let (ci, co) = (conv.inputs, conv.outputs);
            let mut t = vec![0f32; 9 * ci * co];
            for o in 0..co {
                for i in 0..ci {
                    for tap in 0..9 {
                        t[(tap * ci + i) * co + o] = conv.w[(o * ci + i) * 9 + tap];
                    }
                }
            }
            t
        };
        let body = net.body.iter().map(|l| (by_tap(l), l.b.clone())).collect();
        let heads = [net.policy.w.clone(), net.value_conv.w[..c].to_vec(), net.value_conv.w[c..].to_vec()];
        let heads_b = [net.policy.b[0], net.value_conv.b[0], net.value_conv.b[1]];
        let vh = &net.value_hidden;
        let mut t = vec![0f32; vh.inputs * vh.outputs];
        for j in 0..vh.outputs {
            for i in 0..vh.inputs {
                t[i * vh.outputs + j] = vh.w[j * vh.inputs + i];
            }
        }
        ConvByInput {
            n,
            c,
            base,
            first,
            body,
            heads,
            heads_b,
            value_hidden: (t, vh.b.clone()),
            value_out: (net.value_out.w.clone(), net.value_out.b[0]),
        }
    }

    /// Board side n.
    pub fn side(&self) -> usize {
        self.n
    }

    /// One forward pass on the input that is 1 at the indices `active` (the stones, as
    /// [`super::features::Encoding::active`]: `plane·n² + cell`, each below 2n²) and 0
    /// elsewhere: the policy logits into `logits` (length n²) and the value head's `tanh`
    /// output in [−1, 1] (side to move's view), as [`ConvNet::forward`].
    pub fn forward_binary(&self, active: &[u16], logits: &mut [f32]) -> f32 {
        self.run(active.iter().map(|&i| (i as usize, 1.0)), logits)
    }

    /// One forward pass on the encoding's dense planes `x` (length 2n²; its zeros are
    /// skipped), as [`ConvNet::forward`].
    pub fn forward(&self, x: &[f32], logits: &mut [f32]) -> f32 {
        self.run(x.iter().take(2 * self.n * self.n).copied().enumerate().filter(|&(_, v)| v != 0.0), logits)
    }

    fn run(&self, inputs: impl Iterator<Item = (usize, f32)>, logits: &mut [f32]) -> f32 {
        let (n, c) = (self.n, self.c);
        let cells = n * n;
        with_scratch(|Scratch { h, out, positive, starts }| {
            // The first layer: the precomputed map, then each stone's rows.
            h.clear();
            h.extend_from_slice(&self.base);
            for (i, x) in inputs {
                let (p, cell) = (i / cells, i % cells);
                let rows = &self.first[p * 9 * c..(p + 1) * 9 * c];
                window(n, cell / n + 1, cell % n + 1, |t, tap| axpy(&mut h[t * c..(t + 1) * c], x, &rows[tap * c..(tap + 1) * c]));
            }
            h.iter_mut().for_each(|v| *v = v.max(0.0));
            // The residual blocks: out = ReLU(h + b + conv(h)), over h's positive entries.
            for (w, b) in &self.body {
                positive.clear();
                starts.clear();
                for s in 0..cells {
                    starts.push(positive.len());
                    positive.extend(h[s * c..(s + 1) * c].iter().enumerate().filter(|(_, &x)| x > 0.0).map(|(i, &x)| (i as u32, x)));
                }
                starts.push(positive.len());
                out.clear();
                out.resize(cells * c, 0.0);
                let layer = Block { n, c, w, b, h, positive, starts };
                match c {
                    _ if c % 16 == 0 => layer.run::<16>(out),
                    _ if c % 8 == 0 => layer.run::<8>(out),
                    _ if c % 4 == 0 => layer.run::<4>(out),
                    _ => layer.run::<1>(out),
                }
                std::mem::swap(h, out);
            }
            // The heads: per cell the policy logit and the value planes (ReLU), channel-major.
            let hidden = self.value_hidden.1.len();
            out.clear();
            out.resize(2 * cells + hidden, 0.0);
            let (planes, units) = out.split_at_mut(2 * cells);
            for t in 0..cells {
                let ht = &h[t * c..(t + 1) * c];
                logits[t] = self.heads_b[0] + dot(&self.heads[0], ht);
                planes[t] = (self.heads_b[1] + dot(&self.heads[1], ht)).max(0.0);
                planes[cells + t] = (self.heads_b[2] + dot(&self.heads[2], ht)).max(0.0);
            }
            let (w, b) = &self.value_hidden;
            units.copy_from_slice(b);
            for (i, &x) in planes.iter().enumerate() {
                if x > 0.0 {
                    axpy(units, x, &w[i * hidden..(i + 1) * hidden]);
                }
            }
            units.iter_mut().for_each(|v| *v = v.max(0.0));
            (self.value_out.1 + dot(&self.value_out.0, units)).tanh()
        })
    }
}

/// The padded input of a board side `n` from the encoding's planes `planes` (length 2n²: own
/// stones then the opponent's, cells `row·n + col` in the net's frame): 2 × (n+2) × (n+2)
/// values, plane-major, row-major; the board at rows and columns 1..=n, the side to move's edge
/// stones on rows 0 and n+1 (columns 1..=n), the opponent's on columns 0 and n+1 (rows 1..=n).
pub fn padded_planes(n: usize, planes: &[f32]) -> Vec<f32> {
    let m = n + 2;
    let mut x = vec![0f32; 2 * m * m];
    for r in 0..n {
        for c in 0..n {
            x[(r + 1) * m + c + 1] = planes[r * n + c];
            x[m * m + (r + 1) * m + c + 1] = planes[n * n + r * n + c];
        }
    }
    for k in 1..=n {
        x[k] = 1.0;
        x[(m - 1) * m + k] = 1.0;
        x[m * m + k * m] = 1.0;
        x[m * m + k * m + m - 1] = 1.0;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::{check_header, models, Net, NetByInput, NetEvaluator};
    use crate::rng::Rng64;

    /// The module's computation written out literally: plain loops over [`padded_planes`],
    /// activations plane-major (`h[(channel·n + row)·n + col]`).
    fn reference(net: &ConvNet, planes: &[f32], logits: &mut [f32]) -> f32 {
        let (n, c) = (net.n, net.channels());
        let m = n + 2;
        let x = padded_planes(n, planes);
        let mut h = vec![0f32; c * n * n];
        for o in 0..c {
            for r in 0..n {
                for col in 0..n {
                    let mut s = net.first.b[o];
                    for i in 0..2 {
                        for dy in 0..3 {
                            for dx in 0..3 {
                                s += net.first.w[((o * 2 + i) * 3 + dy) * 3 + dx] * x[i * m * m + (r + dy) * m + col + dx];
                            }
                        }
                    }
                    h[(o * n + r) * n + col] = s.max(0.0);
                }
            }
        }
        for l in &net.body {
            let mut out = vec![0f32; c * n * n];
            for o in 0..c {
                for r in 0..n {
                    for col in 0..n {
                        let mut s = l.b[o];
                        for i in 0..c {
                            for dy in 0..3 {
                                for dx in 0..3 {
                                    let (rr, cc) = (r as isize + dy as isize - 1, col as isize + dx as isize - 1);
                                    if (0..n as isize).contains(&rr) && (0..n as isize).contains(&cc) {
                                        s += l.w[((o * c + i) * 3 + dy) * 3 + dx] * h[(i * n + rr as usize) * n + cc as usize];
                                    }
                                }
                            }
                        }
                        out[(o * n + r) * n + col] = (h[(o * n + r) * n + col] + s).max(0.0);
                    }
                }
            }
            h = out;
        }
        let cells = n * n;
        for cell in 0..cells {
            logits[cell] = net.policy.b[0] + (0..c).map(|i| net.policy.w[i] * h[i * cells + cell]).sum::<f32>();
        }
        let mut v = vec![0f32; 2 * cells];
        for k in 0..2 {
            for cell in 0..cells {
                v[k * cells + cell] =
                    (net.value_conv.b[k] + (0..c).map(|i| net.value_conv.w[k * c + i] * h[i * cells + cell]).sum::<f32>()).max(0.0);
            }
        }
        let d = &net.value_hidden;
        let hidden: Vec<f32> =
            (0..d.outputs).map(|j| (d.b[j] + (0..d.inputs).map(|i| d.w[j * d.inputs + i] * v[i]).sum::<f32>()).max(0.0)).collect();
        (net.value_out.b[0] + (0..d.outputs).map(|j| net.value_out.w[j] * hidden[j]).sum::<f32>()).tanh()
    }

    /// A random board of stones: the encoding's planes and their active indices (ascending).
    fn random_board(n: usize, fill: f64, rng: &mut Rng64) -> (Vec<f32>, Vec<u16>) {
        let cells = n * n;
        let mut x = vec![0f32; 2 * cells];
        for cell in 0..cells {
            if rng.chance(fill) {
                x[if rng.chance(0.5) { cell } else { cells + cell }] = 1.0;
            }
        }
        let active = (0..2 * cells as u16).filter(|&i| x[i as usize] == 1.0).collect();
        (x, active)
    }

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() <= 1e-4 * a.abs().max(b.abs()).max(1.0)
    }

    #[test]
    fn the_fast_forward_equals_the_reference() {
        let mut rng = Rng64::new(53);
        for (k, &(n, channels, blocks, hidden)) in
            [(3, 4, 0, 5), (3, 8, 3, 4), (5, 6, 0, 8), (5, 16, 3, 16), (7, 32, 3, 64), (7, 12, 0, 9), (1, 3, 2, 2)].iter().enumerate()
        {
            let net = ConvNet::random(n, channels, blocks, hidden, k as u64);
            let fast = ConvByInput::new(&net);
            let cells = n * n;
            let (mut want, mut got, mut dense) = (vec![0f32; cells], vec![0f32; cells], vec![0f32; cells]);
            for b in 0..20 {
                let (x, active) = random_board(n, [0.0, 0.3, 0.6, 1.0][b % 4], &mut rng);
                let v = reference(&net, &x, &mut want);
                let vb = fast.forward_binary(&active, &mut got);
                let vd = Net::Conv(net.clone()).forward(&x, &mut dense);
                let what = format!("n {n}, C {channels}, {blocks} blocks, board {b}");
                assert!(close(v, vb) && close(v, vd), "{what}: value {v} vs {vb}, {vd}");
                for cell in 0..cells {
                    assert!(
                        close(want[cell], got[cell]) && close(want[cell], dense[cell]),
                        "{what}: logit {cell}: {} vs {}, {}",
                        want[cell],
                        got[cell],
                        dense[cell]
                    );
                }
            }
            // Not a trivial net: the logits differ between cells and the value is not saturated.
            assert!(want.iter().any(|&l| (l - want[0]).abs() > 1e-3) || n == 1, "n {n}: {want:?}");
        }
    }

    #[test]
    fn round_trip_through_bytes() {
        for (n, channels, blocks, hidden) in [(5, 4, 2, 8), (1, 1, 0, 1), (7, 3, 0, 2)] {
            let net = ConvNet::random(n, channels, blocks, hidden, 7);
            let bytes = net.to_bytes();
            assert_eq!(bytes.len(), HEADER_BYTES + 2 + net.spec.len() + 16 + 4 * net.parameters() + 4);
            assert_eq!(ConvNet::from_bytes(&bytes).unwrap(), net);
            assert!(check_header(&bytes[..HEADER_BYTES]).is_ok());
            let any = Net::from_bytes(&bytes).unwrap();
            assert_eq!(any, Net::Conv(net.clone()));
            assert_eq!(any.to_bytes(), bytes);
            assert_eq!((any.spec(), any.inputs(), any.moves(), any.parameters()), (&net.spec[..], 2 * n * n, n * n, net.parameters()));
            assert!(any.as_mlp().is_none());
        }
        let net = Net::Conv(ConvNet::zeros("hex:7", 7, 32, 5, 64));
        assert_eq!(net.describe(), "conv 32 channels × 6 layers, value head 64");
        assert_eq!(net.layers(), [98, 1568, 1568, 1568, 1568, 1568, 1568, 49]);
    }

    #[test]
    fn every_defect_is_a_typed_error() {
        let net = ConvNet::random(3, 2, 1, 3, 1);
        let bytes = net.to_bytes();
        let shape = |r: Result<ConvNet, NetError>, says: &str| match r {
            Err(NetError::Shape(s)) => assert!(s.contains(says), "{s}"),
            other => panic!("{says}: {other:?}"),
        };
        assert_eq!(ConvNet::from_bytes(b"hello"), Err(NetError::BadMagic));
        assert_eq!(Net::from_bytes(b"MCTSNEX\0\x02\0\0\0"), Err(NetError::BadMagic));
        let mut v3 = bytes.clone();
        v3[8] = 3;
        assert_eq!(ConvNet::from_bytes(&v3), Err(NetError::Version { found: 3 }));
        assert_eq!(Net::from_bytes(&v3), Err(NetError::Version { found: 3 }));
        shape(ConvNet::from_bytes(&crate::nn::Mlp::zeros("hex:3", 18, &[4], 9).to_bytes()), "fully connected");
        // Every truncation is an error (never a panic): within the header Truncated, further on
        // the last 4 bytes read as a checksum.
        for cut in 0..bytes.len() {
            let e = Net::from_bytes(&bytes[..cut]).unwrap_err();
            assert!(matches!(e, NetError::Truncated { .. } | NetError::Checksum { .. } | NetError::BadMagic), "cut at {cut}: {e:?}");
        }
        assert!(matches!(ConvNet::from_bytes(&bytes[..10]), Err(NetError::Truncated { .. })));
        assert!(matches!(ConvNet::from_bytes(&bytes[..30]), Err(NetError::Truncated { .. })));
        // A flipped bit in a weight: the checksum.
        let mut flipped = bytes.clone();
        flipped[60] ^= 0x40;
        assert!(matches!(Net::from_bytes(&flipped), Err(NetError::Checksum { .. })));
        // Trailing bytes: with a checksum over them, named; without, the checksum first.
        let mut long = bytes[..bytes.len() - 4].to_vec();
        long.extend_from_slice(&[0; 4]);
        assert!(matches!(ConvNet::from_bytes(&[&long[..], &bytes[bytes.len() - 4..]].concat()), Err(NetError::Checksum { .. })));
        let crc = crc32fast::hash(&long);
        long.extend_from_slice(&crc.to_le_bytes());
        shape(ConvNet::from_bytes(&long), "4 bytes after the last tensor");
        // A NaN or infinite weight.
        for bad in [f32::NAN, f32::INFINITY] {
            let mut nan = net.clone();
            nan.body[0].w[5] = bad;
            assert_eq!(ConvNet::from_bytes(&nan.to_bytes()), Err(NetError::NonFinite));
        }
        // Shapes and specs.
        shape(ConvNet::from_bytes(&ConvNet::zeros("hex:5", 4, 2, 0, 3).to_bytes()), "board side of 4");
        shape(ConvNet::from_bytes(&ConvNet::zeros("hex:05", 5, 2, 0, 3).to_bytes()), "'hex:5'");
        shape(ConvNet::from_bytes(&ConvNet::zeros("tictactoe", 3, 2, 0, 3).to_bytes()), "plays Hex");
        for spec in ["pentago", "hex:3:swap", "chess"] {
            assert_eq!(ConvNet::from_bytes(&ConvNet::zeros(spec, 3, 2, 0, 3).to_bytes()), Err(NetError::NoEncoding { spec: spec.into() }));
        }
        shape(ConvNet::from_bytes(&ConvNet::zeros("hex:20", 20, 1, 0, 1).to_bytes()), "board side = 20, expected 1..=19");
        shape(ConvNet::from_bytes(&ConvNet::zeros("hex:0", 0, 1, 0, 1).to_bytes()), "board side = 0");
        shape(ConvNet::from_bytes(&ConvNet::zeros("hex:3", 3, 0, 0, 1).to_bytes()), "channels = 0, expected 1..=256");
        shape(ConvNet::from_bytes(&ConvNet::zeros("hex:3", 3, 257, 0, 1).to_bytes()), "channels = 257");
        shape(ConvNet::from_bytes(&ConvNet::zeros("hex:3", 3, 1, 17, 1).to_bytes()), "residual blocks = 17, expected 0..=16");
        shape(ConvNet::from_bytes(&ConvNet::zeros("hex:3", 3, 1, 0, 0).to_bytes()), "value head units = 0");
        shape(ConvNet::from_bytes(&ConvNet::zeros("hex:3", 3, 1, 0, MAX_WIDTH + 1).to_bytes()), "value head units = 1025");
        // Random corruption never panics.
        let mut rng = Rng64::new(3);
        for _ in 0..2000 {
            let mut b = bytes.clone();
            for _ in 0..1 + rng.index(3) {
                let k = rng.index(b.len());
                b[k] = rng.next_u64() as u8;
            }
            let _ = Net::from_bytes(&b);
        }
    }

    #[test]
    fn the_largest_file_fits_the_limit() {
        let widest = ConvNet::zeros("hex:19", MAX_SIDE, MAX_CHANNELS, MAX_HIDDEN_LAYERS, MAX_WIDTH);
        assert_eq!(widest.parameters(), parameters_of(MAX_SIDE, MAX_CHANNELS, MAX_HIDDEN_LAYERS, MAX_WIDTH));
        let bytes = widest.to_bytes();
        assert_eq!(bytes.len(), MAX_CONV_FILE_BYTES);
        assert_eq!(MAX_CONV_FILE_BYTES, 40_753_208);
        assert!(bytes.len() <= crate::nn::MAX_NET_BYTES);
        assert_eq!(ConvNet::from_bytes(&bytes).unwrap().parameters(), widest.parameters());
    }

    #[test]
    fn a_conv_net_evaluates_hex_positions() {
        use crate::game::{Game, Hex, MoveList};
        use crate::mcts::Evaluator;
        let net = std::sync::Arc::new(Net::Conv(ConvNet::random(5, 8, 2, 16, 11)));
        let ev = NetEvaluator::<Hex>::new(net.clone(), "hex:5").unwrap();
        assert!(matches!(NetEvaluator::<Hex>::new(net, "hex:7"), Err(NetError::WrongGame { .. })));
        let mut g = Hex::new(5, false).unwrap();
        let mut rng = Rng64::new(2);
        let (mut legal, mut p) = (MoveList::new(), Vec::new());
        for _ in 0..12 {
            g.legal_moves(&mut legal);
            let v = ev.evaluate(&g, &legal, &mut p).unwrap();
            assert!((0.0..=1.0).contains(&v), "{v}");
            assert_eq!(p.len(), legal.len());
            assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-5 && p.iter().all(|&q| q >= 0.0), "{p:?}");
            g.play_unchecked(legal[rng.index(legal.len())]);
            if g.is_terminal() {
                break;
            }
        }
        // The inference form of a Net dispatches to the convolutional one.
        let by = NetByInput::new(&Net::Conv(ConvNet::random(3, 2, 0, 2, 1)));
        assert!(matches!(by, NetByInput::Conv(_)));
    }

    #[test]
    fn the_registry_describes_a_conv_net() {
        // hex:2: no shipped net, so no other test reads this game's registry entry.
        let net = ConvNet::random(2, 3, 1, 4, 5);
        let bytes = net.to_bytes();
        let info = models::register(&bytes, Some("conv.mctsnet")).unwrap();
        assert_eq!((info.trunk, info.channels, info.blocks, info.value_hidden), (models::Trunk::Conv, Some(3), Some(1), Some(4)));
        assert_eq!((info.layers.clone(), info.parameters, info.bytes), (vec![8, 12, 12, 4], net.parameters(), bytes.len()));
        let json = serde_json::to_value(&info).unwrap();
        assert_eq!((json["trunk"].as_str(), json["channels"].as_u64()), (Some("conv"), Some(3)));
        assert_eq!(*models::load("hex:2").unwrap(), Net::Conv(net));
        let mlp = serde_json::to_value(models::loaded("hex:5").unwrap_or_else(|| {
            models::load("hex:5").unwrap();
            models::loaded("hex:5").unwrap()
        }))
        .unwrap();
        assert_eq!(mlp["trunk"], "mlp");
        assert!(mlp.get("channels").is_none() && mlp.get("blocks").is_none(), "{mlp}");
        assert_eq!(mlp["layers"], serde_json::json!([50, 128, 128, 25]));
    }
}
