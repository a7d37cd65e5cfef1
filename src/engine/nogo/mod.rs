//! The NoGo engine: MCTS with RAVE (`crate::search::mcts`) over a NoGo-aware playout policy
//! (`playout`), with the tree's priors sharpened by a mobility count (`knowledge`) at nodes that
//! have earned it, and an exact solver (`solver`) asked first in the endgame. With a network,
//! either its policy advises that tree (`advice`), or it drives a PUCT search of its own
//! (`evaluator`, `search::puct`).

mod advice;
mod evaluator;
pub mod features;
mod knowledge;
pub mod network;
pub mod options;
mod playout;
pub mod solver;

use super::{Decision, Engine};
use crate::game::nogo::{Nogo, Point};
use crate::game::Game;
use crate::search::clock::{share_of_time_left, Limits};
use crate::search::mcts::{Mcts, MctsParams, SearchReport};
use crate::search::puct::{GumbelChoice, GumbelParams, Puct, PuctParams};
use advice::NetworkAdvisor;
use evaluator::NetworkEvaluator;
use network::Network;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use solver::{Solver, Verdict};
use std::sync::Arc;

/// Settings of the NoGo engine.
#[derive(Clone, Copy, Debug)]
pub struct NogoConfig {
    pub mcts: MctsParams,
    /// Keep the tree between turns (keep-running platforms, console, arena).
    pub reuse_tree: bool,
    pub seed: u64,
    /// Nodes the endgame solver may visit before each search (0: no solver).
    pub solve_nodes: u64,
    /// The solver is asked only once this few points are empty: earlier it cannot finish.
    pub solve_empty: u32,
    /// The share of the turn's time the solver may take; the search has the rest.
    pub solve_share: f64,
    /// How far the network's advice moves the priors (`advice::NetworkAdvisor::spread`); the
    /// advice is asked at `mcts.advice_after` visits, when the engine has a network.
    pub net_spread: f32,
    /// With a network: search by PUCT with these settings instead of advising the playout
    /// search.
    pub puct: Option<PuctSettings>,
}

impl Default for NogoConfig {
    fn default() -> NogoConfig {
        // A reserve point starts with a pessimistic AMAF value (0.3 beat 0.5, 116-84 over 200
        // games at 2000 playouts; 0.15 was no better than 0.3).
        // Mobility priors (`knowledge`) once a node has 16 visits: +63 (+4 to +125) over 134
        // games at 300 ms a move against none (`know=0`); +78 at 20,000 playouts a move.
        // With HaHaNoGo's playout policy (commit f79091d) the priors weigh more: their shifts
        // taken 1.5 times beat 1 by +41 (+10 to +74) over 474 games at 20,000 playouts a move.
        // Not shown against HaHaNoGo at 200,000: 61-59 over 120 games (16-24, 22-18, 23-17),
        // where 1 had gone 31-36 over 67. Weight 2 against 1.5: +18 (-7 to +43) over 728.
        let mcts = MctsParams {
            weak_prior: 0.3,
            knowledge_after: 16,
            knowledge_weight: 1.5,
            ..MctsParams::default()
        };
        NogoConfig {
            mcts,
            reuse_tree: true,
            seed: 0x5eed,
            // Off: with 35% of each turn from 30 empty points on, it went 58-54 against the engine
            // without it (two runs at 250 ms a move). It proves results only some 16 moves from
            // the end, where the search already finds them; the games are decided earlier.
            solve_nodes: 0,
            solve_empty: 30,
            solve_share: 0.35,
            net_spread: 0.3,
            puct: None,
        }
    }
}

/// How the network's advice enters the search (`--net-after`, `--net-weight`, `--net-spread`,
/// `--net-again`).
/// The defaults are the settings the built-in network was measured with (docs/experiments/
/// nogo.md, 2026-12-04): asked at 1,024 visits (at 256 it costs a fifth of a 1 s search's
/// playouts; at 1,024, 4% to 10%), a quarter of a virtual visit per visit, prior win rates
/// within 0.3 of one half. So set, it beat the engine without a network at Botzone's 1 s
/// (keep-running): 58-32 over 90 games, +103 (+38 to +177), SPRT (0, 50) H1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Advice {
    pub after: u32,
    pub weight: f32,
    pub spread: f32,
    /// Ask again each time a node's visits grow this many times over (0: once).
    pub again: u32,
    /// The search the network serves (`--nogo-search`); the fields above are the playout
    /// search's.
    pub search: NetSearch,
}

impl Default for Advice {
    fn default() -> Advice {
        Advice {
            after: 1024,
            weight: 0.25,
            spread: 0.3,
            again: 0,
            // The shipped engine (measured in docs/experiments/nogo.md, 2026-12): PUCT.
            search: NetSearch::Puct(PuctSettings::default()),
        }
    }
}

/// Which search a network serves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NetSearch {
    /// The playout search (MCTS with RAVE), its nodes advised by the policy.
    Advised,
    /// PUCT: the policy as the prior, the value head (mixed with playouts) judging the leaves.
    Puct(PuctSettings),
}

/// PUCT's settings (`--puct-c`, `--puct-fpu`, `--puct-rollouts`, `--puct-mix`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuctSettings {
    pub params: PuctParams,
    /// Playouts from each leaf, mixed with the value head.
    pub rollouts: u32,
    /// The playouts' share of a leaf's value, 0 to 1.
    pub mix: f32,
}

impl Default for PuctSettings {
    fn default() -> PuctSettings {
        PuctSettings {
            params: PuctParams::default(),
            rollouts: 8,
            mix: 0.5,
        }
    }
}

pub struct NogoEngine {
    config: NogoConfig,
    /// The policy-value network, when the engine plays with one.
    network: Option<Arc<Network>>,
    tree: Option<Mcts<Nogo>>,
    /// The PUCT tree, when the network drives the search (`config.puct`).
    puct: Option<Puct<Nogo>>,
    games: u64,
    /// Made at the first endgame turn and kept through the game: its table holds results.
    solver: Option<Solver>,
}

impl NogoEngine {
    pub fn new(config: NogoConfig) -> NogoEngine {
        NogoEngine {
            config,
            network: None,
            tree: None,
            puct: None,
            games: 0,
            solver: None,
        }
    }

    /// The engine with a network to advise its tree (at `config.mcts.advice_after` visits).
    pub fn with_network(config: NogoConfig, network: Arc<Network>) -> NogoEngine {
        NogoEngine {
            network: Some(network),
            ..NogoEngine::new(config)
        }
    }

    /// The engine whose tree `network` advises as `advice` says.
    pub fn advised(mut config: NogoConfig, network: Arc<Network>, advice: Advice) -> NogoEngine {
        config.mcts.advice_after = advice.after;
        config.mcts.advice_weight = advice.weight;
        config.mcts.advice_again = advice.again;
        config.net_spread = advice.spread;
        config.puct = match advice.search {
            NetSearch::Advised => None,
            NetSearch::Puct(settings) => Some(settings),
        };
        NogoEngine::with_network(config, network)
    }

    /// Size of the kept tree (for tests of tree reuse).
    pub fn tree_visits(&self) -> u32 {
        match (&self.tree, &self.puct) {
            (Some(t), _) => t.root_visits(),
            (None, Some(p)) => p.root_visits(),
            (None, None) => 0,
        }
    }

    /// The last search's visits of each root move (empty when no tree is kept: a forced move,
    /// a solved endgame, or `reuse_tree` off).
    pub fn root_child_visits(&self) -> Vec<(Point, u32)> {
        match (&self.tree, &self.puct) {
            (Some(t), _) => t.root_child_visits(),
            (None, Some(p)) => p.root_child_visits(),
            (None, None) => Vec::new(),
        }
    }

    /// The seed of a fresh tree at `pos`: the engine's, the game's and the ply's.
    fn search_seed(&self, pos: &Nogo) -> u64 {
        self.config.seed ^ (self.games << 32) ^ pos.ply() as u64
    }

    /// The kept PUCT tree when it stands at `pos`, else a fresh one.
    fn puct_tree(
        &mut self,
        pos: &Nogo,
        settings: PuctSettings,
        net: Arc<Network>,
        seed: u64,
    ) -> &mut Puct<Nogo> {
        let kept = matches!(&self.puct, Some(t) if t.root_position().hash() == pos.hash());
        if !kept {
            let evaluator = NetworkEvaluator::new(
                net,
                settings.rollouts,
                settings.mix,
                SmallRng::seed_from_u64(seed),
            );
            self.puct = Some(Puct::new(pos.clone(), settings.params, Box::new(evaluator)));
        }
        self.puct.as_mut().expect("set just above")
    }

    /// The PUCT search of `pos`, in the kept tree when it stands at `pos`.
    fn search_puct(
        &mut self,
        pos: &Nogo,
        limits: Limits,
        settings: PuctSettings,
        net: Arc<Network>,
        seed: u64,
    ) -> SearchReport<Point> {
        let report = self.puct_tree(pos, settings, net, seed).search(limits);
        if !self.config.reuse_tree {
            self.puct = None;
        }
        report
    }

    /// Self-play's search when the network drives PUCT: `simulations` visits shared out by
    /// Gumbel sequential halving at the root, giving the move and the improved policy to learn.
    /// `None` when the engine has no PUCT (no network, or the playout search).
    pub fn think_gumbel(
        &mut self,
        pos: &Nogo,
        simulations: u32,
        params: GumbelParams,
        rng: &mut SmallRng,
    ) -> Option<GumbelChoice<Point>> {
        let (Some(settings), Some(net)) = (self.config.puct, self.network.clone()) else {
            return None;
        };
        if let Some(proved) = self.solve(pos, Limits::iterations(simulations as u64)) {
            let mv = proved.mv.expect("a proved win has its move");
            return Some(GumbelChoice {
                chosen: Some(mv),
                policy: vec![(mv, 1.0)],
                value: 1.0,
                visits: 0,
            });
        }
        let seed = self.search_seed(pos);
        let choice =
            self.puct_tree(pos, settings, net, seed)
                .search_gumbel(simulations, params, rng);
        if !self.config.reuse_tree {
            self.puct = None;
        }
        Some(choice)
    }

    /// Asks the endgame solver, when the board is full enough; a proved win is the decision.
    fn solve(&mut self, pos: &Nogo, limits: Limits) -> Option<Decision<Point>> {
        let c = &self.config;
        if c.solve_nodes == 0 || pos.empty().count_ones() > c.solve_empty {
            return None;
        }
        let start = std::time::Instant::now();
        let deadline = share_of_time_left(limits.stop_at, c.solve_share);
        let solver = self.solver.get_or_insert_with(Default::default);
        match solver.solve(pos, c.solve_nodes, deadline) {
            Verdict::Win(mv) => Some(Decision {
                mv: Some(mv),
                win_rate: Some(1.0),
                work: solver.nodes(),
                work_unit: "solver nodes",
                elapsed: start.elapsed(),
            }),
            // A proved loss is still played out by the search, whose move makes the opponent's
            // win hardest to find; so is an unknown result.
            Verdict::Loss | Verdict::Unknown => None,
        }
    }
}

impl Engine<Nogo> for NogoEngine {
    fn new_game(&mut self) {
        self.tree = None;
        self.puct = None;
        if let Some(s) = &mut self.solver {
            s.clear();
        }
        self.games += 1;
    }

    fn observe(&mut self, _pos_before: &Nogo, m: Point) {
        if !self.config.reuse_tree {
            self.tree = None;
            self.puct = None;
            return;
        }
        if let Some(tree) = &mut self.tree {
            tree.advance(m);
        }
        if let Some(tree) = &mut self.puct {
            tree.advance(m);
        }
    }

    fn think(&mut self, pos: &Nogo, limits: Limits) -> Decision<Point> {
        if let Some(proved) = self.solve(pos, limits) {
            return proved;
        }
        let seed = self.search_seed(pos);
        if let (Some(settings), Some(net)) = (self.config.puct, &self.network) {
            let report = self.search_puct(pos, limits, settings, Arc::clone(net), seed);
            return Decision {
                mv: report.best,
                win_rate: Some(report.win_rate),
                work: report.playouts,
                work_unit: "evaluations",
                elapsed: report.elapsed,
            };
        }
        let tree = match &mut self.tree {
            Some(t) if t.root_position().hash() == pos.hash() => t,
            slot => {
                // The old tree goes before the new one is made: each reserves the arena's
                // whole size, and two at once would count double against a memory limit.
                *slot = None;
                let tree = slot.insert(Mcts::new(pos.clone(), self.config.mcts, seed));
                if let Some(net) = &self.network {
                    tree.set_advisor(Box::new(NetworkAdvisor {
                        net: Arc::clone(net),
                        spread: self.config.net_spread,
                    }));
                }
                tree
            }
        };
        let report = tree.search(limits);
        if !self.config.reuse_tree {
            self.tree = None;
        }
        Decision {
            mv: report.best,
            win_rate: Some(report.win_rate),
            work: report.playouts,
            work_unit: "playouts",
            elapsed: report.elapsed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::nogo::{point, NogoRules};
    use crate::search::mcts::Playout;
    use rand::rngs::SmallRng;
    use rand::{RngCore, SeedableRng};

    fn engine(reuse_tree: bool) -> NogoEngine {
        NogoEngine::new(NogoConfig {
            reuse_tree,
            seed: 9,
            ..NogoConfig::default()
        })
    }

    #[test]
    fn keeps_the_tree_across_moves_when_asked() {
        let mut e = engine(true);
        let mut pos = Nogo::new(NogoRules::default());
        let d = e.think(&pos, Limits::iterations(3000));
        let ours = d.mv.unwrap();
        e.observe(&pos, ours);
        pos.play(ours);
        // The opponent answers with our search's own favourite reply, which the tree has visited.
        let reply = e
            .tree
            .as_mut()
            .unwrap()
            .search(Limits::iterations(0))
            .best
            .unwrap();
        e.observe(&pos, reply);
        pos.play(reply);
        let inherited = e.tree_visits();
        assert!(
            inherited > 0,
            "visits below the played moves should survive"
        );
        let d2 = e.think(&pos, Limits::iterations(1000));
        assert!(pos.is_legal(d2.mv.unwrap()));
        assert_eq!(d2.work, 1000);
        assert!(e.tree_visits() >= inherited + 1000);
    }

    #[test]
    fn puct_plays_a_whole_game_of_legal_moves_and_keeps_its_tree() {
        use network::weights::Weights;
        let net = Arc::new(Network::new(&Weights::random(8, 1, 8, 3)));
        let settings = PuctSettings {
            rollouts: 2,
            ..PuctSettings::default()
        };
        let advice = Advice {
            search: NetSearch::Puct(settings),
            ..Advice::default()
        };
        let config = NogoConfig {
            seed: 5,
            ..NogoConfig::default()
        };
        let mut e = NogoEngine::advised(config, net, advice);
        e.new_game();
        let mut pos = Nogo::new(NogoRules::default());
        let (mut searched, mut inherited) = (0, 0);
        while pos.outcome().is_none() {
            if e.tree_visits() > 0 {
                inherited += 1;
            }
            let d = e.think(&pos, Limits::iterations(60));
            let mv = d.mv.expect("a move while the game goes on");
            assert!(pos.is_legal(mv), "{mv} at ply {}", pos.ply());
            if d.work > 0 {
                assert_eq!((d.work_unit, d.work), ("evaluations", 60));
                searched += 1;
            }
            assert!(e.tree.is_none(), "no playout tree beside PUCT's");
            e.observe(&pos, mv);
            pos.play(mv);
        }
        // Both sides are this engine: each search starts in the subtree the last one grew.
        assert!(
            searched > 20 && inherited > searched / 2,
            "{searched} {inherited}"
        );
    }

    #[test]
    fn forgets_the_tree_when_not_reusing() {
        let mut e = engine(false);
        let pos = Nogo::new(NogoRules::default());
        e.think(&pos, Limits::iterations(500));
        assert_eq!(e.tree_visits(), 0);
    }

    /// Endgames of random games where the side to move can win: the engine plays the solver's
    /// proved win at once, without a playout, and the move does win; with the solver off it
    /// searches instead.
    #[test]
    fn a_proved_endgame_win_is_played_without_search() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut proved = 0;
        for _ in 0..200 {
            let mut pos = Nogo::new(NogoRules::default());
            while pos.outcome().is_none() && pos.empty().count_ones() > 18 {
                let moves = pos.legal_moves();
                pos.play(moves[(rng.next_u32() as usize) % moves.len()]);
            }
            if pos.outcome().is_some() || pos.legal_moves().len() < 2 {
                continue;
            }
            let Verdict::Win(_) = Solver::new().solve(&pos, u64::MAX, None) else {
                continue;
            };
            let mut on = NogoEngine::new(NogoConfig {
                solve_nodes: 1_500_000,
                ..NogoConfig::default()
            });
            let d = on.think(&pos, Limits::iterations(500));
            assert_eq!((d.work_unit, d.win_rate), ("solver nodes", Some(1.0)));
            let mut after = pos.clone();
            after.play(d.mv.expect("a move"));
            assert_eq!(
                Solver::new().solve(&after, u64::MAX, None),
                Verdict::Loss,
                "the opponent has no way out"
            );
            let mut off = NogoEngine::new(NogoConfig {
                solve_nodes: 0,
                ..NogoConfig::default()
            });
            let d = off.think(&pos, Limits::iterations(500));
            assert_eq!((d.work_unit, d.work), ("playouts", 500));
            proved += 1;
            if proved == 5 {
                return;
            }
        }
        panic!("only {proved} won endgames found");
    }

    #[test]
    fn a_single_legal_move_is_answered_without_search() {
        // Fill the board by random legal play until the side to move has exactly one move.
        let mut rng = SmallRng::seed_from_u64(3);
        let mut found = false;
        for _ in 0..200 {
            let mut pos = Nogo::new(NogoRules::default());
            while pos.outcome().is_none() {
                let moves = pos.legal_moves();
                if moves.len() == 1 {
                    let d = engine(false).think(&pos, Limits::iterations(10_000));
                    assert_eq!(d.mv, Some(moves[0]));
                    assert_eq!(d.work, 0, "no playouts for a forced move");
                    found = true;
                    break;
                }
                pos.play(moves[(rng.next_u32() as usize) % moves.len()]);
            }
            if found {
                break;
            }
        }
        assert!(found, "random games reach a one-move position");
    }

    #[test]
    fn the_opening_centre_rule_holds_in_tree_and_playouts() {
        let mut pos = Nogo::new(NogoRules { centre_ban: true });
        let mut expansion = Vec::new();
        pos.expansion_moves(&mut expansion);
        let moves: Vec<Point> = expansion.into_iter().map(|(m, _)| m).collect();
        assert_eq!(moves.len(), 80);
        assert!(!moves.contains(&point(4, 4)));
        // Playouts from the empty board start with the rule in force and still end properly.
        let mut rng = SmallRng::seed_from_u64(4);
        for _ in 0..100 {
            let mut p = Nogo::new(NogoRules { centre_ban: true });
            p.rollout(&mut rng, &mut [0u128; 2]);
            assert!(p.outcome().is_some(), "a rollout plays to the end");
        }
        let mut e = engine(false);
        for _ in 0..5 {
            let d = e.think(&pos, Limits::iterations(200));
            assert_ne!(d.mv, Some(point(4, 4)));
        }
    }
}
