//! Speed of a forward pass (a figure, never a pass/fail; issue 53): the convolutional Hex net's
//! inference form (`nn::ConvByInput`) against the shipped hex:7 MLP's (`nn::ByInput`), both on
//! the same positions as the search gives them (the stones' indices, `Encoding::active`).
//!
//! ```sh
//! cargo run --release --example conv_speed -- [CHANNELS] [BLOCKS] [VALUE_HIDDEN] [RUNS]
//! ```
//! Defaults: hex:7, C = 32, 5 residual blocks, H = 64 (random weights: the time does not depend
//! on them, but on how many activations the ReLUs leave positive, which random weights of the
//! trained nets' scale put near half), 201 runs. Each run times one pass over 256 positions of
//! random play (0 to 40 stones); the figure is the median run's microseconds per forward pass.

use std::time::Instant;

use mcts_playground::game::{Game, Hex, MoveList};
use mcts_playground::nn::features::Encoding;
use mcts_playground::nn::{models, ConvByInput, ConvNet, NetByInput};
use mcts_playground::rng::Rng64;

/// The active inputs of 256 positions of random play from the empty board.
fn positions() -> Vec<Vec<u16>> {
    let enc = Encoding::Hex { n: 7 };
    let mut rng = Rng64::new(7);
    let mut out = Vec::new();
    let mut legal = MoveList::new();
    while out.len() < 256 {
        let mut g = Hex::new(7, false).expect("7×7");
        let stones = rng.index(41);
        for _ in 0..stones {
            g.legal_moves(&mut legal);
            if g.is_terminal() || legal.is_empty() {
                break;
            }
            g.play_unchecked(legal[rng.index(legal.len())]);
        }
        let mut owners = [0i8; 49];
        g.cell_owners(&mut owners);
        let mut active = [0u16; 98];
        let k = enc.active(&owners, g.to_move(), &mut active);
        out.push(active[..k].to_vec());
    }
    out
}

/// The median over `runs` of the microseconds per call of `f` over every position.
fn median_us(runs: usize, boards: &[Vec<u16>], mut f: impl FnMut(&[u16], &mut [f32]) -> f32) -> f64 {
    let mut logits = [0f32; 49];
    let mut sink = 0f32;
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            for b in boards {
                sink += f(b, &mut logits);
            }
            t.elapsed().as_secs_f64() * 1e6 / boards.len() as f64
        })
        .collect();
    std::hint::black_box(sink);
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().expect("a number")).collect();
    let arg = |i: usize, d: usize| args.get(i).copied().unwrap_or(d);
    let (channels, blocks, hidden, runs) = (arg(0, 32), arg(1, 5), arg(2, 64), arg(3, 201));
    let boards = positions();
    let conv = ConvNet::random(7, channels, blocks, hidden, 1);
    let fast = ConvByInput::new(&conv);
    let mlp = models::load("hex:7").expect("the shipped hex:7 net");
    let by_input = NetByInput::new(&mlp);
    // Warm up both.
    median_us(5, &boards, |a, l| fast.forward_binary(a, l));
    median_us(5, &boards, |a, l| by_input.forward_binary(a, l));
    let c = median_us(runs, &boards, |a, l| fast.forward_binary(a, l));
    let m = median_us(runs, &boards, |a, l| by_input.forward_binary(a, l));
    println!("hex:7 forward pass, median of {runs} runs over {} positions of random play:", boards.len());
    println!("  conv {channels} channels × {} layers, value head {hidden} ({} parameters): {c:.2} µs", 1 + blocks, conv.parameters());
    println!("  shipped MLP {} ({} parameters): {m:.2} µs", mlp.describe(), mlp.parameters());
    println!("  ratio conv / MLP: {:.1}", c / m);
}
