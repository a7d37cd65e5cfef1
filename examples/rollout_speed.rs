use rand::SeedableRng;
use stonebrain::game::nogo::{Nogo, NogoRules};
use stonebrain::search::mcts::Playout;
fn main() {
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    let pos = Nogo::new(NogoRules::default());
    let start = std::time::Instant::now();
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300_000);
    for _ in 0..n {
        let mut p = pos.clone();
        let mut s = [0u128; 2];
        p.rollout(&mut rng, &mut s);
    }
    println!("rollouts/s {:.0}", n as f64 / start.elapsed().as_secs_f64());
}
