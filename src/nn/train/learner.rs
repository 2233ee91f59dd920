//! The learner: the [`Mlp`] shape (or the convolutional [`ConvNet`]'s, [`super::conv`]) as a
//! burn module (pure-Rust CPU backend `flex`, with autodiff), trained by Adam on AlphaZero's loss (Silver et al. 2017):
//! `l = (z − v)² − πᵀ·log p + c‖θ‖²` — value mean squared error, policy cross-entropy against
//! the root visit distribution, L2 regularisation (as Adam's weight decay, c = 1e-4, the
//! paper's value). Exports to and imports from the inference format ([`Net`]).

use super::conv::BurnConv;
use super::selfplay::Sample;
use crate::nn::{ConvNet, Dense, Mlp, Net};
use burn::module::{Module, Param};
use burn::nn::{Linear, LinearConfig, Relu};
use burn::optim::decay::WeightDecayConfig;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::{activation, Device, Tensor, TensorData};

/// The policy-value MLP as a burn module (same layout as [`Mlp`]).
#[derive(Module, Debug)]
pub struct BurnNet {
    trunk: Vec<Linear>,
    policy: Linear,
    value: Linear,
    act: Relu,
}

impl BurnNet {
    /// A freshly initialised net (burn's default initialisation, Kaiming-uniform as PyTorch's)
    /// with the given widths.
    pub fn new(inputs: usize, hidden: &[usize], moves: usize, device: &Device) -> BurnNet {
        let mut trunk = Vec::new();
        let mut w = inputs;
        for &h in hidden {
            trunk.push(LinearConfig::new(w, h).init(device));
            w = h;
        }
        BurnNet { trunk, policy: LinearConfig::new(w, moves).init(device), value: LinearConfig::new(w, 1).init(device), act: Relu::new() }
    }

    /// The net holding `m`'s weights.
    pub fn from_mlp(m: &Mlp, device: &Device) -> BurnNet {
        let lin = |d: &Dense| linear(d, device);
        BurnNet { trunk: m.trunk.iter().map(lin).collect(), policy: lin(&m.policy), value: lin(&m.value), act: Relu::new() }
    }

    /// The weights in the inference format, for game `spec`.
    pub fn to_mlp(&self, spec: &str) -> Mlp {
        Mlp {
            spec: spec.to_string(),
            trunk: self.trunk.iter().map(dense).collect(),
            policy: dense(&self.policy),
            value: dense(&self.value),
        }
    }

    /// Forward pass on a batch `[B, inputs]`: policy logits `[B, moves]` and value `[B, 1]`
    /// (after `tanh`).
    pub fn forward(&self, x: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        let mut h = x;
        for l in &self.trunk {
            h = self.act.forward(l.forward(h));
        }
        (self.policy.forward(h.clone()), activation::tanh(self.value.forward(h)))
    }
}

/// Losses of one step (means over the batch).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Losses {
    /// Policy cross-entropy `−πᵀ·log p`.
    pub policy: f64,
    /// Value mean squared error `(z − v)²`.
    pub value: f64,
    /// Entropy of the net's policy `−pᵀ·log p` (nats).
    pub entropy: f64,
}

/// A dense layer as burn's `Linear` (exact copies): burn's weight is `[inputs, outputs]`, the
/// transpose of [`Dense::w`].
pub(super) fn linear(d: &Dense, device: &Device) -> Linear {
    let mut wt = vec![0f32; d.w.len()];
    for j in 0..d.outputs {
        for i in 0..d.inputs {
            wt[i * d.outputs + j] = d.w[j * d.inputs + i];
        }
    }
    Linear {
        weight: Param::from_data(TensorData::new(wt, [d.inputs, d.outputs]), device),
        bias: Some(Param::from_data(TensorData::new(d.b.clone(), [d.outputs]), device)),
    }
}

/// burn's `Linear` as a [`Dense`] layer (exact copies; the inverse of [`linear`]; a layer
/// without bias gets zeros).
pub(super) fn dense(l: &Linear) -> Dense {
    let w = l.weight.to_data();
    let (inputs, outputs) = (w.shape()[0], w.shape()[1]);
    let wt = w.try_to_vec::<f32>().expect("f32 weights");
    let mut wr = vec![0f32; wt.len()];
    for i in 0..inputs {
        for j in 0..outputs {
            wr[j * inputs + i] = wt[i * outputs + j];
        }
    }
    let b = l.bias.as_ref().map(|b| b.to_data().try_to_vec::<f32>().expect("f32 bias")).unwrap_or_else(|| vec![0.0; outputs]);
    Dense { inputs, outputs, w: wr, b }
}

/// The net being trained: the fully connected [`BurnNet`] or the convolutional
/// [`BurnConv`] (Hex only). One per learner, so the variants' sizes do not matter.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Model {
    /// The MLP ([`Mlp`]'s layout).
    Mlp(BurnNet),
    /// The convolutional net ([`ConvNet`]'s layout).
    Conv(BurnConv),
}

impl Model {
    /// Forward pass on a batch `[B, inputs]` (the encoding's planes): policy logits
    /// `[B, moves]` and value `[B, 1]` after `tanh`, whichever the trunk.
    pub fn forward(&self, x: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        match self {
            Model::Mlp(m) => m.forward(x),
            Model::Conv(c) => c.forward(x),
        }
    }

    /// The weights in the inference format, for game `spec`.
    pub fn export(&self, spec: &str) -> Net {
        match self {
            Model::Mlp(m) => Net::Mlp(m.to_mlp(spec)),
            Model::Conv(c) => Net::Conv(c.to_conv(spec)),
        }
    }
}

/// The net, its Adam state and device.
pub struct Learner {
    net: Option<Model>,
    opt: ModuleOptimizer,
    device: Device,
    lr: f64,
    inputs: usize,
    moves: usize,
}

/// burn's random generator is process-wide: a fresh net's initial weights are drawn from it.
/// Seeding it and drawing the weights happen under this lock, so two nets initialised at the
/// same time (tests on parallel threads, two trainers in one process) cannot interleave their
/// draws and a seeded run stays reproducible.
static INIT: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl Learner {
    /// A learner for a fresh MLP (weights from burn's generator as it stands); `lr` Adam's step
    /// size, `l2` the weight decay.
    pub fn new(inputs: usize, hidden: &[usize], moves: usize, lr: f64, l2: f64) -> Learner {
        let _init = INIT.lock().unwrap_or_else(|e| e.into_inner());
        Learner::fresh(inputs, hidden, moves, lr, l2)
    }

    /// A learner for a fresh MLP whose initial weights depend on `seed` alone (burn's generator
    /// is seeded and the weights drawn under one lock, see [`INIT`]).
    pub fn seeded(seed: u64, inputs: usize, hidden: &[usize], moves: usize, lr: f64, l2: f64) -> Learner {
        let _init = INIT.lock().unwrap_or_else(|e| e.into_inner());
        Device::flex().seed(seed);
        Learner::fresh(inputs, hidden, moves, lr, l2)
    }

    fn fresh(inputs: usize, hidden: &[usize], moves: usize, lr: f64, l2: f64) -> Learner {
        let device = Device::flex().autodiff();
        let net = BurnNet::new(inputs, hidden, moves, &device);
        Learner::drawn(Learner::with_net(Model::Mlp(net), device, inputs, moves, lr, l2))
    }

    /// A learner for a fresh convolutional net for Hex n×n ([`ConvNet`]: `channels` C, `blocks`
    /// residual convolutions, `value_hidden` H) whose initial weights depend on `seed` alone.
    pub fn seeded_conv(seed: u64, n: usize, channels: usize, blocks: usize, value_hidden: usize, lr: f64, l2: f64) -> Learner {
        let _init = INIT.lock().unwrap_or_else(|e| e.into_inner());
        Device::flex().seed(seed);
        let device = Device::flex().autodiff();
        let net = BurnConv::new(n, channels, blocks, value_hidden, &device);
        Learner::drawn(Learner::with_net(Model::Conv(net), device, 2 * n * n, n * n, lr, l2))
    }

    /// burn initialises parameters lazily, on first use: read them all now, while the caller
    /// holds [`INIT`], so the draws happen here and not during some later (unlocked) step.
    fn drawn(l: Learner) -> Learner {
        let _ = l.export("");
        l
    }

    /// A learner starting from the weights of `m`.
    pub fn from_mlp(m: &Mlp, lr: f64, l2: f64) -> Learner {
        let device = Device::flex().autodiff();
        let net = BurnNet::from_mlp(m, &device);
        Learner::with_net(Model::Mlp(net), device, m.inputs(), m.moves(), lr, l2)
    }

    /// A learner starting from the weights of the convolutional net `c`.
    pub fn from_conv(c: &ConvNet, lr: f64, l2: f64) -> Learner {
        let device = Device::flex().autodiff();
        let net = BurnConv::from_conv(c, &device);
        Learner::with_net(Model::Conv(net), device, 2 * c.n * c.n, c.n * c.n, lr, l2)
    }

    fn with_net(net: Model, device: Device, inputs: usize, moves: usize, lr: f64, l2: f64) -> Learner {
        let opt = AdamConfig::new().with_weight_decay(Some(WeightDecayConfig::new(l2 as f32 as _))).init();
        Learner { net: Some(net), opt, device, lr, inputs, moves }
    }

    /// The burn net.
    pub fn net(&self) -> &Model {
        self.net.as_ref().expect("a net")
    }

    /// The device (flex CPU with autodiff).
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// One Adam step on a minibatch; returns the losses before the step.
    pub fn step(&mut self, batch: &[Sample]) -> Losses {
        let b = batch.len();
        let x: Vec<f32> = batch.iter().flat_map(|s| s.x.iter().copied()).collect();
        let pi: Vec<f32> = batch.iter().flat_map(|s| s.pi.iter().copied()).collect();
        let z: Vec<f32> = batch.iter().map(|s| s.z).collect();
        let x = Tensor::<2>::from_data(TensorData::new(x, [b, self.inputs]), &self.device);
        let pi = Tensor::<2>::from_data(TensorData::new(pi, [b, self.moves]), &self.device);
        let z = Tensor::<2>::from_data(TensorData::new(z, [b, 1]), &self.device);
        let net = self.net.take().expect("a net");
        let (logits, v) = net.forward(x);
        let logp = activation::log_softmax(logits, 1);
        let policy_loss = (pi * logp.clone()).sum_dim(1).mean().neg();
        let value_loss = (v - z).powi_scalar(2).mean();
        let entropy = (logp.clone().exp() * logp).sum_dim(1).mean().neg();
        let loss = policy_loss.clone() + value_loss.clone();
        let losses = Losses {
            policy: policy_loss.into_scalar::<f64>(),
            value: value_loss.into_scalar::<f64>(),
            entropy: entropy.into_scalar::<f64>(),
        };
        let grads = loss.backward();
        self.net = Some(match net {
            Model::Mlp(m) => {
                let grads = GradientsParams::from_grads(grads, &m);
                Model::Mlp(self.opt.step(self.lr, m, grads))
            }
            Model::Conv(c) => {
                let grads = GradientsParams::from_grads(grads, &c);
                Model::Conv(self.opt.step(self.lr, c, grads))
            }
        });
        losses
    }

    /// The current weights in the inference format.
    pub fn export(&self, spec: &str) -> Net {
        self.net().export(spec)
    }
}
