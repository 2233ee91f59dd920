//! The convolutional Hex net ([`ConvNet`], issue 53) as a burn module, for training: the same
//! computation as [`crate::nn::conv`]'s definition (a 3×3 convolution without padding over the
//! board padded by its edge stones, residual 3×3 convolutions, AlphaZero's policy and value heads
//! without batch normalisation), with exact weight copies to and from the inference format.
//!
//! Its [`BurnConv::forward`] takes the encoding's planes `[B, 2n²]` as [`super::learner::BurnNet`]
//! does and builds the padded input itself, so the trainer's rows, their symmetries and the loss
//! stay those of the MLP.

use super::learner::{dense, linear};
use crate::nn::conv::{padded_planes, Conv, ConvNet};
use crate::nn::Dense;
use burn::module::{Module, Param};
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{Linear, LinearConfig, PaddingConfig2d, Relu};
use burn::tensor::ops::PadMode;
use burn::tensor::{activation, Device, Tensor, TensorData};

/// The convolutional policy-value net as a burn module (same layout as [`ConvNet`]; weights
/// `[out, in, k, k]` in each convolution, as [`Conv::w`]).
#[derive(Module, Debug)]
pub struct BurnConv {
    /// Board side n.
    n: usize,
    /// 3×3, 2 → C, no padding: (n+2)² → n².
    first: Conv2d,
    /// Residual 3×3 convolutions C → C, zero padding 1.
    body: Vec<Conv2d>,
    /// 1×1, C → 1: the policy logits.
    policy: Conv2d,
    /// 1×1, C → 2: the value head's planes.
    value_conv: Conv2d,
    /// 2n² → H.
    value_hidden: Linear,
    /// H → 1.
    value_out: Linear,
    act: Relu,
}

/// The zero padding of the body's 3×3 convolutions (top, left, bottom, right): n² → n².
fn same() -> PaddingConfig2d {
    PaddingConfig2d::Explicit(1, 1, 1, 1)
}

impl BurnConv {
    /// A freshly initialised net (burn's default initialisation, Kaiming-uniform as PyTorch's,
    /// drawn from burn's process-wide generator on first use) for board side `n`: `channels` C,
    /// `blocks` residual convolutions after the first, `value_hidden` H units in the value head.
    pub fn new(n: usize, channels: usize, blocks: usize, value_hidden: usize, device: &Device) -> BurnConv {
        BurnConv {
            n,
            first: Conv2dConfig::new([2, channels], [3, 3]).init(device),
            body: (0..blocks).map(|_| Conv2dConfig::new([channels, channels], [3, 3]).with_padding(same()).init(device)).collect(),
            policy: Conv2dConfig::new([channels, 1], [1, 1]).init(device),
            value_conv: Conv2dConfig::new([channels, 2], [1, 1]).init(device),
            value_hidden: LinearConfig::new(2 * n * n, value_hidden).init(device),
            value_out: LinearConfig::new(value_hidden, 1).init(device),
            act: Relu::new(),
        }
    }

    /// The net holding `net`'s weights (exact copies).
    pub fn from_conv(net: &ConvNet, device: &Device) -> BurnConv {
        let conv = |c: &Conv, padding: PaddingConfig2d| -> Conv2d {
            // burn's Conv2d weight is `[out, in, kh, kw]`: the layout of `Conv::w`.
            Conv2d {
                weight: Param::from_data(TensorData::new(c.w.clone(), [c.outputs, c.inputs, c.kernel, c.kernel]), device),
                bias: Some(Param::from_data(TensorData::new(c.b.clone(), [c.outputs]), device)),
                stride: [1, 1],
                kernel_size: [c.kernel, c.kernel],
                dilation: [1, 1],
                groups: 1,
                padding,
            }
        };
        let lin = |d: &Dense| linear(d, device);
        BurnConv {
            n: net.n,
            first: conv(&net.first, PaddingConfig2d::Valid),
            body: net.body.iter().map(|c| conv(c, same())).collect(),
            policy: conv(&net.policy, PaddingConfig2d::Valid),
            value_conv: conv(&net.value_conv, PaddingConfig2d::Valid),
            value_hidden: lin(&net.value_hidden),
            value_out: lin(&net.value_out),
            act: Relu::new(),
        }
    }

    /// The weights in the inference format (exact copies), for game `spec` (`hex:N`).
    pub fn to_conv(&self, spec: &str) -> ConvNet {
        let conv = |c: &Conv2d| -> Conv {
            let w = c.weight.to_data();
            let (outputs, inputs, kernel) = (w.shape()[0], w.shape()[1], w.shape()[2]);
            let w = w.try_to_vec::<f32>().expect("f32 weights");
            let b = c.bias.as_ref().map(|b| b.to_data().try_to_vec::<f32>().expect("f32 bias")).unwrap_or_else(|| vec![0.0; outputs]);
            Conv { inputs, outputs, kernel, w, b }
        };
        ConvNet {
            spec: spec.to_string(),
            n: self.n,
            first: conv(&self.first),
            body: self.body.iter().map(conv).collect(),
            policy: conv(&self.policy),
            value_conv: conv(&self.value_conv),
            value_hidden: dense(&self.value_hidden),
            value_out: dense(&self.value_out),
        }
    }

    /// Board side n.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Forward pass on a batch of the encoding's planes `[B, 2n²]` (own stones then the
    /// opponent's, cells `row·n + col` in the net's frame, as [`super::learner::BurnNet`] takes
    /// them): policy logits `[B, n²]` and value `[B, 1]` (after `tanh`, for the side to move).
    ///
    /// The padded input `[B, 2, n+2, n+2]` of [`padded_planes`] is built here: the planes
    /// zero-padded by one cell, plus the constant edge stones (`padded_planes` of an empty
    /// board). Then the trunk (`first`, ReLU; each residual block `h ← ReLU(h + conv(h))`,
    /// He et al. 2016) and AlphaZero's two heads (Silver et al. 2017, without batch
    /// normalisation): a 1×1 convolution to one logit per cell; a 1×1 convolution to two planes,
    /// ReLU, flattened channel by channel (`k·n² + cell`), dense, ReLU, dense, `tanh`.
    pub fn forward(&self, x: Tensor<2>) -> (Tensor<2>, Tensor<2>) {
        let (n, m) = (self.n, self.n + 2);
        let [b, inputs] = x.dims();
        assert_eq!(inputs, 2 * n * n, "BurnConv::forward: {inputs} inputs for a {n}×{n} board");
        let device = x.device();
        let edges = Tensor::<4>::from_data(TensorData::new(padded_planes(n, &vec![0f32; 2 * n * n]), [1, 2, m, m]), &device);
        let x = x.reshape([b, 2, n, n]).pad([(1, 1), (1, 1)], PadMode::Constant(0.0)) + edges.expand([b, 2, m, m]);
        let mut h = self.act.forward(self.first.forward(x));
        for c in &self.body {
            h = self.act.forward(h.clone() + c.forward(h));
        }
        let p = self.policy.forward(h.clone()).reshape([b, n * n]);
        let v = self.act.forward(self.value_conv.forward(h)).reshape([b, 2 * n * n]);
        let v = self.act.forward(self.value_hidden.forward(v));
        (p, activation::tanh(self.value_out.forward(v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng64;
    use burn::optim::{AdamConfig, GradientsParams};

    /// Uniform in [−a, a] from `rng`.
    fn uniform(rng: &mut Rng64, a: f32) -> f32 {
        (rng.unit() as f32 * 2.0 - 1.0) * a
    }

    /// A net of pseudo-random weights, each of scale 1/√fan-in (so the activations stay of order
    /// 1 through the residual blocks).
    fn random_net(seed: u64, n: usize, channels: usize, blocks: usize, value_hidden: usize) -> ConvNet {
        let mut rng = Rng64::new(seed);
        let mut net = ConvNet::zeros(&format!("hex:{n}"), n, channels, blocks, value_hidden);
        let mut fill_conv = |c: &mut Conv| {
            let a = 1.0 / ((c.inputs * c.kernel * c.kernel) as f32).sqrt();
            c.w.iter_mut().for_each(|w| *w = uniform(&mut rng, a));
            c.b.iter_mut().for_each(|b| *b = uniform(&mut rng, a));
        };
        fill_conv(&mut net.first);
        net.body.iter_mut().for_each(&mut fill_conv);
        fill_conv(&mut net.policy);
        fill_conv(&mut net.value_conv);
        let mut rng = Rng64::new(seed ^ 0x5eed);
        for d in [&mut net.value_hidden, &mut net.value_out] {
            let a = 1.0 / (d.inputs as f32).sqrt();
            d.w.iter_mut().for_each(|w| *w = uniform(&mut rng, a));
            d.b.iter_mut().for_each(|b| *b = uniform(&mut rng, a));
        }
        net
    }

    /// The planes (2n²) of a random board: each cell empty, own or the opponent's.
    fn random_planes(rng: &mut Rng64, n: usize) -> Vec<f32> {
        let cells = n * n;
        let mut x = vec![0f32; 2 * cells];
        for c in 0..cells {
            match rng.below(3) {
                1 => x[c] = 1.0,
                2 => x[cells + c] = 1.0,
                _ => {}
            }
        }
        x
    }

    /// `conv.rs`'s definition, literally: a convolution of `c` on `h` (`c.inputs` planes of
    /// `side × side`) with `pad` zero cells each side.
    fn conv_ref(c: &Conv, h: &[f32], side: usize, pad: usize) -> (Vec<f32>, usize) {
        let k = c.kernel;
        let out = side + 2 * pad + 1 - k;
        let mut y = vec![0f32; c.outputs * out * out];
        for o in 0..c.outputs {
            for r in 0..out {
                for col in 0..out {
                    let mut s = c.b[o];
                    for i in 0..c.inputs {
                        for dy in 0..k {
                            for dx in 0..k {
                                let (yr, xc) = ((r + dy) as isize - pad as isize, (col + dx) as isize - pad as isize);
                                if yr < 0 || xc < 0 || yr >= side as isize || xc >= side as isize {
                                    continue;
                                }
                                s += c.w[((o * c.inputs + i) * k + dy) * k + dx] * h[(i * side + yr as usize) * side + xc as usize];
                            }
                        }
                    }
                    y[(o * out + r) * out + col] = s;
                }
            }
        }
        (y, out)
    }

    /// The reference forward of one position (planes 2n²): policy logits n² and value.
    fn forward_ref(net: &ConvNet, planes: &[f32]) -> (Vec<f32>, f32) {
        let n = net.n;
        let relu = |v: &mut Vec<f32>| v.iter_mut().for_each(|x| *x = x.max(0.0));
        let x = padded_planes(n, planes);
        let (mut h, side) = conv_ref(&net.first, &x, n + 2, 0);
        assert_eq!(side, n);
        relu(&mut h);
        for c in &net.body {
            let (d, side) = conv_ref(c, &h, n, 1);
            assert_eq!(side, n);
            h = h.iter().zip(&d).map(|(a, b)| (a + b).max(0.0)).collect();
        }
        let (p, _) = conv_ref(&net.policy, &h, n, 0);
        let (mut v, _) = conv_ref(&net.value_conv, &h, n, 0);
        relu(&mut v);
        let mut hidden = vec![0f32; net.value_hidden.outputs];
        net.value_hidden.forward(&v, &mut hidden);
        relu(&mut hidden);
        let mut out = [0f32];
        net.value_out.forward(&hidden, &mut out);
        (p, out[0].tanh())
    }

    #[test]
    fn weights_round_trip_exactly() {
        let device = Device::flex();
        for (n, blocks) in [(3, 0), (5, 2)] {
            let net = random_net(11 + n as u64, n, 4, blocks, 6);
            let back = BurnConv::from_conv(&net, &device).to_conv(&net.spec);
            assert_eq!(back, net, "n {n}, blocks {blocks}");
        }
    }

    #[test]
    fn forward_matches_the_definition() {
        let device = Device::flex();
        let mut rng = Rng64::new(5);
        for n in [3, 5] {
            for blocks in [0, 2] {
                let net = random_net(100 + (n * 10 + blocks) as u64, n, 6, blocks, 8);
                let burn = BurnConv::from_conv(&net, &device);
                let boards: Vec<Vec<f32>> = (0..6).map(|_| random_planes(&mut rng, n)).collect();
                let x: Vec<f32> = boards.iter().flatten().copied().collect();
                let (p, v) = burn.forward(Tensor::<2>::from_data(TensorData::new(x, [boards.len(), 2 * n * n]), &device));
                assert_eq!(p.dims(), [boards.len(), n * n]);
                assert_eq!(v.dims(), [boards.len(), 1]);
                let p = p.into_data().try_to_vec::<f32>().expect("f32");
                let v = v.into_data().try_to_vec::<f32>().expect("f32");
                for (i, b) in boards.iter().enumerate() {
                    let (pr, vr) = forward_ref(&net, b);
                    for (c, &want) in pr.iter().enumerate() {
                        let got = p[i * n * n + c];
                        assert!(
                            (got - want).abs() <= 1e-4 * want.abs().max(1.0),
                            "n {n} blocks {blocks} board {i} cell {c}: {got} vs {want}"
                        );
                    }
                    assert!((v[i] - vr).abs() <= 1e-4, "n {n} blocks {blocks} board {i} value: {} vs {vr}", v[i]);
                }
            }
        }
    }

    /// A batch of `b` random positions for board side `n`: planes, target policies π (summing
    /// to 1 over the empty cells) and outcomes z = ±1, as tensors on `device`.
    fn random_batch(rng: &mut Rng64, n: usize, b: usize, device: &Device) -> (Tensor<2>, Tensor<2>, Tensor<2>) {
        let cells = n * n;
        let (mut x, mut pi, mut z) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..b {
            let planes = random_planes(rng, n);
            let mut p: Vec<f32> =
                (0..cells).map(|c| if planes[c] + planes[cells + c] == 0.0 { rng.unit() as f32 + 0.01 } else { 0.0 }).collect();
            let sum: f32 = p.iter().sum::<f32>().max(1e-6);
            p.iter_mut().for_each(|v| *v /= sum);
            x.extend(planes);
            pi.extend(p);
            z.push(if rng.chance(0.5) { 1.0 } else { -1.0 });
        }
        (
            Tensor::<2>::from_data(TensorData::new(x, [b, 2 * cells]), device),
            Tensor::<2>::from_data(TensorData::new(pi, [b, cells]), device),
            Tensor::<2>::from_data(TensorData::new(z, [b, 1]), device),
        )
    }

    /// The learner's loss ([`super::super::learner::Learner::step`]): policy cross-entropy plus
    /// value mean squared error.
    fn loss(net: &BurnConv, x: &Tensor<2>, pi: &Tensor<2>, z: &Tensor<2>) -> Tensor<1> {
        let (logits, v) = net.forward(x.clone());
        let logp = activation::log_softmax(logits, 1);
        let policy = (pi.clone() * logp).sum_dim(1).mean().neg();
        let value = (v - z.clone()).powi_scalar(2).mean();
        policy + value
    }

    #[test]
    fn adam_steps_reduce_the_loss() {
        let device = Device::flex().autodiff();
        let n = 3;
        let mut net = BurnConv::from_conv(&random_net(7, n, 4, 1, 8), &device);
        let (x, pi, z) = random_batch(&mut Rng64::new(9), n, 8, &device);
        let mut opt = AdamConfig::new().init();
        let before = loss(&net, &x, &pi, &z).into_scalar::<f64>();
        for _ in 0..30 {
            let l = loss(&net, &x, &pi, &z);
            let grads = GradientsParams::from_grads(l.backward(), &net);
            net = opt.step(1e-2, net, grads);
        }
        let after = loss(&net, &x, &pi, &z).into_scalar::<f64>();
        assert!(after < 0.8 * before, "loss {before:.4} → {after:.4}");
    }

    /// Time of one training step (forward, backward, Adam) on a batch of 256, printed:
    /// `cargo test --release --features train --lib nn::train::conv -- --ignored --nocapture`.
    #[test]
    #[ignore = "timing, prints only"]
    fn step_time() {
        let device = Device::flex().autodiff();
        for (n, channels, blocks, hidden) in [(5, 32, 5, 64), (7, 32, 5, 64), (7, 32, 4, 64)] {
            let mut net = BurnConv::new(n, channels, blocks, hidden, &device);
            let (x, pi, z) = random_batch(&mut Rng64::new(1), n, 256, &device);
            let mut opt = AdamConfig::new().init();
            let mut step = |net: BurnConv| -> BurnConv {
                let l = loss(&net, &x, &pi, &z);
                let grads = GradientsParams::from_grads(l.backward(), &net);
                opt.step(1e-3, net, grads)
            };
            net = step(net); // warm-up (lazy initialisation, allocations)
            let steps = 5;
            let t = std::time::Instant::now();
            for _ in 0..steps {
                net = step(net);
            }
            let ms = t.elapsed().as_secs_f64() * 1e3 / steps as f64;
            let t = std::time::Instant::now();
            for _ in 0..steps {
                let _ = loss(&net, &x, &pi, &z).into_scalar::<f64>();
            }
            let forward = t.elapsed().as_secs_f64() * 1e3 / steps as f64;
            println!(
                "hex:{n} C {channels} blocks {blocks} H {hidden}: {} parameters, {ms:.0} ms a step (batch 256; forward alone {forward:.0} ms)",
                net.to_conv("").parameters()
            );
        }
        // For comparison: the MLP learner's step (hidden 128, 128) on the same batch size.
        for n in [5, 7] {
            let mut rng = Rng64::new(2);
            let cells = n * n;
            let batch: Vec<super::super::selfplay::Sample> = (0..256)
                .map(|_| super::super::selfplay::Sample { x: random_planes(&mut rng, n), pi: vec![1.0 / cells as f32; cells], z: 1.0 })
                .collect();
            let mut learner = super::super::learner::Learner::new(2 * cells, &[128, 128], cells, 1e-3, 1e-4);
            learner.step(&batch);
            let steps = 5;
            let t = std::time::Instant::now();
            for _ in 0..steps {
                learner.step(&batch);
            }
            let ms = t.elapsed().as_secs_f64() * 1e3 / steps as f64;
            println!("hex:{n} MLP 128, 128: {} parameters, {ms:.0} ms a step (batch 256)", learner.export("").parameters());
        }
    }
}
