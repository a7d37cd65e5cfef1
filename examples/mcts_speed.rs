//! Fixed-work MCTS run on the empty board, for instruction-count profiling (callgrind).
use stonebrain::engine::nogo::{NogoConfig, NogoEngine};
use stonebrain::engine::Engine;
use stonebrain::game::nogo::{Nogo, NogoRules};
use stonebrain::search::clock::Limits;
fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    let mut e = NogoEngine::new(NogoConfig::default());
    let d = e.think(&Nogo::new(NogoRules::default()), Limits::iterations(n));
    println!(
        "{} playouts in {:.3} s: {:.0}/s",
        d.work,
        d.elapsed.as_secs_f64(),
        d.work as f64 / d.elapsed.as_secs_f64()
    );
}
