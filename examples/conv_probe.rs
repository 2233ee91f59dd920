//! Benchmark (figures, never a pass/fail): does a convolutional trunk value Hex positions better
//! than the MLP, on the same solver-labelled data? The probe behind `src/nn/conv.rs` (issue 53).
//!
//! Supervised, no self-play: `count` positions of `1..=max_k` moves, each move uniformly random
//! or, with probability `greedy`, a winning move of the side to move when it has one (noisy
//! perfect play), each labelled by the exact solver (`Labeller`: the proven value, and the
//! winning moves as the policy target); 10 % held out. Then `steps` Adam steps of 256 rows
//! (lr 0.001, then 0.0002 for the last quarter; the 180° rotation as augmentation) of either
//! an MLP (`mlp`: `L` layers of `C` units) or a convolutional net (`conv`: the first 3×3
//! convolution on the board padded with edge stones, then `L − 1` residual 3×3 convolutions of
//! `C` channels, a 1×1 policy head, a value head of 2 planes and 64 units, as `nn::conv`).
//! Every 500 steps it prints the value head's sign agreement with the proven result on the
//! held-out positions, on `tests/data/hex{n}-solve.jsonl` and on `hex{n}-openings.jsonl`. The
//! labelled positions are cached in `/tmp/conv_probe_*.bin`.
//!
//! ```sh
//! cargo run --release --features train --example conv_probe -- 5 80000 mlp 128 2 30000 16 0.7
//! cargo run --release --features train --example conv_probe -- 5 80000 conv 32 5 8000 16 0.7
//! ```
//! Arguments: n, count, `mlp|conv`, C, L, steps, max_k (default 3n²/5), greedy (default 0).
//! Measured 2026-11-30 on hex:5 with the two lines above: MLP 7,582 of 8,000 held-out (94.8 %),
//! 82–83 of 100; conv 7,852 of 8,000 (98.2 %), 89–92 of 100; both 25 of 25 openings.

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{Linear, LinearConfig, PaddingConfig2d, Relu};
use burn::optim::decay::WeightDecayConfig;
use burn::optim::{AdamConfig, GradientsParams};
use burn::tensor::{activation, Device, Tensor, TensorData};
use mcts_playground::game::{Game, Hex, MoveList};
use mcts_playground::nn::conv::padded_planes;
use mcts_playground::nn::features::Encoding;
use mcts_playground::nn::train::exact::{ExactTargets, Labeller};
use mcts_playground::rng::Rng64;

#[derive(Module, Debug)]
struct ProbeConv {
    first: Conv2d,
    body: Vec<Conv2d>,
    pol: Conv2d,
    val1: Conv2d,
    val2: Linear,
    val3: Linear,
    act: Relu,
}

#[derive(Module, Debug)]
struct ProbeMlp {
    trunk: Vec<Linear>,
    pol: Linear,
    val: Linear,
    act: Relu,
}

/// The net under test (one per run, so the variants' sizes do not matter).
#[allow(clippy::large_enum_variant)]
enum Probe {
    Conv(ProbeConv),
    Mlp(ProbeMlp),
}

/// One row: `x` the padded planes (2 × (n+2)², the conv net's input), `flat` the encoding's
/// planes (2n², the MLP's), `pi` the policy target (uniform over the winning moves; zero for a
/// lost position), `z` the proven value for the side to move.
struct Row {
    x: Vec<f32>,
    flat: Vec<f32>,
    pi: Vec<f32>,
    z: f32,
}

fn row_of(g: &Hex, n: usize, enc: Encoding, z: f32, win_moves: &[u16], rot: bool) -> Row {
    let cells = n * n;
    let mut owners = vec![0i8; cells];
    g.cell_owners(&mut owners);
    let mut flat = vec![0f32; 2 * cells];
    enc.encode(&owners, g.to_move(), &mut flat);
    let mut pi = vec![0f32; cells];
    for &m in win_moves {
        pi[enc.canonical(m as usize, g.to_move())] = 1.0 / win_moves.len() as f32;
    }
    if rot {
        let f2 = flat.clone();
        for p in 0..2 {
            for i in 0..cells {
                flat[p * cells + cells - 1 - i] = f2[p * cells + i];
            }
        }
        let p2 = pi.clone();
        for i in 0..cells {
            pi[cells - 1 - i] = p2[i];
        }
    }
    Row { x: padded_planes(n, &flat), flat, pi, z }
}

fn forward(net: &Probe, rows: &[&Row], n: usize, dev: &Device) -> (Tensor<2>, Tensor<2>) {
    let b = rows.len();
    match net {
        Probe::Conv(c) => {
            let m = n + 2;
            let x: Vec<f32> = rows.iter().flat_map(|r| r.x.iter().copied()).collect();
            let x = Tensor::<4>::from_data(TensorData::new(x, [b, 2, m, m]), dev);
            let mut h = c.act.forward(c.first.forward(x));
            for l in &c.body {
                h = c.act.forward(h.clone() + l.forward(h));
            }
            let p = c.pol.forward(h.clone()).reshape([b, n * n]);
            let v = c.act.forward(c.val1.forward(h)).reshape([b as i64, -1]);
            let v = c.act.forward(c.val2.forward(v));
            (p, activation::tanh(c.val3.forward(v)))
        }
        Probe::Mlp(mm) => {
            let x: Vec<f32> = rows.iter().flat_map(|r| r.flat.iter().copied()).collect();
            let mut h = Tensor::<2>::from_data(TensorData::new(x, [b, 2 * n * n]), dev);
            for l in &mm.trunk {
                h = mm.act.forward(l.forward(h));
            }
            (mm.pol.forward(h.clone()), activation::tanh(mm.val.forward(h)))
        }
    }
}

fn load_test(path: &str, n: usize, enc: Encoding) -> Vec<Row> {
    let text = std::fs::read_to_string(path).expect("file");
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut g = Hex::new(n, false).unwrap();
        for m in v["moves"].as_str().unwrap_or("").split_whitespace() {
            let m = g.parse_move(m).unwrap();
            g.play(m).unwrap();
        }
        let winner = if v["winner"] == "black" { 0 } else { 1 };
        let z = if winner == g.to_move() { 1.0 } else { -1.0 };
        out.push(row_of(&g, n, enc, z, &[], false));
    }
    out
}

fn accuracy(net: &Probe, rows: &[Row], n: usize, dev: &Device) -> (usize, usize) {
    let mut ok = 0;
    for chunk in rows.chunks(256) {
        let refs: Vec<&Row> = chunk.iter().collect();
        let (_, v) = forward(net, &refs, n, dev);
        let v = v.into_data().try_to_vec::<f32>().unwrap();
        ok += v.iter().zip(chunk).filter(|(v, r)| (**v > 0.0) == (r.z > 0.0)).count();
    }
    (ok, rows.len())
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = a.first().map(|s| s.parse().unwrap()).unwrap_or(5);
    let count: usize = a.get(1).map(|s| s.parse().unwrap()).unwrap_or(40000);
    let kind = a.get(2).cloned().unwrap_or_else(|| "conv".into());
    let ch: usize = a.get(3).map(|s| s.parse().unwrap()).unwrap_or(32);
    let layers: usize = a.get(4).map(|s| s.parse().unwrap()).unwrap_or(5);
    let steps: usize = a.get(5).map(|s| s.parse().unwrap()).unwrap_or(4000);
    let max_k: usize = a.get(6).map(|s| s.parse().unwrap()).unwrap_or(n * n * 3 / 5);
    let greedy: f64 = a.get(7).map(|s| s.parse().unwrap()).unwrap_or(0.0);
    let spec = format!("hex:{n}");
    let enc = Encoding::for_spec(&spec).unwrap();
    let cache = format!("/tmp/conv_probe_{n}_{count}_{max_k}_{greedy}.bin");
    // Data: random positions, labelled.
    let mut data: Vec<(Hex, f32, Vec<u16>)> = Vec::new();
    let mut rng = Rng64::new(7);
    let mut lab = Labeller::new(&ExactTargets { solve_nodes: 200_000, ..ExactTargets::default() }).unwrap();
    let t0 = std::time::Instant::now();
    let mut stored: Vec<(Vec<u16>, f32, Vec<u16>)> = Vec::new();
    if let Ok(bytes) = std::fs::read(&cache) {
        stored = serde_json::from_slice(&bytes).unwrap();
    } else {
        while stored.len() < count {
            let k = 1 + rng.below(max_k as u32) as usize;
            let mut g = Hex::new(n, false).unwrap();
            let mut seq = Vec::new();
            let mut ok = true;
            for _ in 0..k {
                let mut ms = MoveList::new();
                g.legal_moves(&mut ms);
                let mut m = ms[rng.below(ms.len() as u32) as usize];
                if greedy > 0.0 && rng.chance(greedy) {
                    if let Some(l) = lab.label(&g) {
                        if !l.moves.is_empty() {
                            m = g.move_from_index(l.moves[rng.below(l.moves.len() as u32) as usize] as usize).unwrap();
                        }
                    }
                }
                seq.push(g.move_index(m) as u16);
                g.play_unchecked(m);
                if g.is_terminal() {
                    ok = false;
                    break;
                }
            }
            if !ok {
                continue;
            }
            if let Some(l) = lab.label(&g) {
                stored.push((seq, l.z(), l.moves.clone()));
            }
        }
        std::fs::write(&cache, serde_json::to_vec(&stored).unwrap()).unwrap();
    }
    for (seq, z, w) in &stored {
        let mut g = Hex::new(n, false).unwrap();
        for &i in seq {
            g.play_unchecked(g.move_from_index(i as usize).unwrap());
        }
        data.push((g, *z, w.clone()));
    }
    let wins = data.iter().filter(|d| d.1 > 0.0).count();
    eprintln!("{} positions ({} mover wins) in {:.1}s", data.len(), wins, t0.elapsed().as_secs_f64());
    let held = data.len() / 10;
    let test_rand: Vec<Row> = data[..held].iter().map(|(g, z, w)| row_of(g, n, enc, *z, w, false)).collect();
    let train: Vec<(Hex, f32, Vec<u16>)> = data[held..].to_vec();
    let test_games = load_test(&format!("tests/data/hex{n}-solve.jsonl"), n, enc);
    let test_open = load_test(&format!("tests/data/hex{n}-openings.jsonl"), n, enc);

    let dev = Device::flex().autodiff();
    dev.seed(3);
    let cells = n * n;
    let mut net = if kind == "conv" {
        let pad1 = PaddingConfig2d::Explicit(1, 1, 1, 1);
        Probe::Conv(ProbeConv {
            first: Conv2dConfig::new([2, ch], [3, 3]).init(&dev),
            body: (1..layers).map(|_| Conv2dConfig::new([ch, ch], [3, 3]).with_padding(pad1.clone()).init(&dev)).collect(),
            pol: Conv2dConfig::new([ch, 1], [1, 1]).init(&dev),
            val1: Conv2dConfig::new([ch, 2], [1, 1]).init(&dev),
            val2: LinearConfig::new(2 * cells, 64).init(&dev),
            val3: LinearConfig::new(64, 1).init(&dev),
            act: Relu::new(),
        })
    } else {
        let mut trunk = Vec::new();
        let mut w = 2 * cells;
        for _ in 0..layers {
            trunk.push(LinearConfig::new(w, ch).init(&dev));
            w = ch;
        }
        Probe::Mlp(ProbeMlp {
            trunk,
            pol: LinearConfig::new(w, cells).init(&dev),
            val: LinearConfig::new(w, 1).init(&dev),
            act: Relu::new(),
        })
    };
    let mut opt = AdamConfig::new().with_weight_decay(Some(WeightDecayConfig::new(1e-4))).init();
    let batch = 256;
    let t1 = std::time::Instant::now();
    for step in 1..=steps {
        let rows: Vec<Row> = (0..batch)
            .map(|_| {
                let (g, z, w) = &train[rng.below(train.len() as u32) as usize];
                row_of(g, n, enc, *z, w, rng.chance(0.5))
            })
            .collect();
        let refs: Vec<&Row> = rows.iter().collect();
        let (logits, v) = forward(&net, &refs, n, &dev);
        let pi = Tensor::<2>::from_data(
            TensorData::new(rows.iter().flat_map(|r| r.pi.iter().copied()).collect::<Vec<_>>(), [batch, cells]),
            &dev,
        );
        let z = Tensor::<2>::from_data(TensorData::new(rows.iter().map(|r| r.z).collect::<Vec<_>>(), [batch, 1]), &dev);
        let logp = activation::log_softmax(logits, 1);
        let pl = (pi * logp).sum_dim(1).mean().neg();
        let vl = (v - z).powi_scalar(2).mean();
        let loss = pl.clone() + vl.clone();
        let lr = if step > steps * 3 / 4 { 0.0002 } else { 0.001 };
        let grads = match &net {
            Probe::Conv(c) => GradientsParams::from_grads(loss.backward(), c),
            Probe::Mlp(c) => GradientsParams::from_grads(loss.backward(), c),
        };
        net = match net {
            Probe::Conv(c) => Probe::Conv(opt.step(lr, c, grads)),
            Probe::Mlp(c) => Probe::Mlp(opt.step(lr, c, grads)),
        };
        if step % 500 == 0 || step == steps {
            let (a1, t1n) = accuracy(&net, &test_rand, n, &dev);
            let (a2, t2) = accuracy(&net, &test_games, n, &dev);
            let (a3, t3) = accuracy(&net, &test_open, n, &dev);
            println!(
                "{kind} C{ch} L{layers} step {step}: vloss {:.3} ploss {:.3} | held-out random {a1}/{t1n} | solve set {a2}/{t2} | openings {a3}/{t3} | {:.0}s",
                vl.into_scalar::<f64>(),
                pl.into_scalar::<f64>(),
                t1.elapsed().as_secs_f64()
            );
        }
    }
}
