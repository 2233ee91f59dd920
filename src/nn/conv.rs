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

use super::Dense;

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
