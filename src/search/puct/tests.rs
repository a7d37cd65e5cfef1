use super::*;
use crate::game::nogo::{Nogo, NogoRules, Point};
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};

/// Every legal move alike, and a fixed value: the tree learns only from finished games.
pub(super) struct Even {
    pub(super) value: f32,
}

impl Evaluator<Nogo> for Even {
    fn evaluate(&mut self, pos: &mut Nogo) -> Evaluated<Point> {
        let moves = pos.legal_moves();
        let share = 1.0 / moves.len() as f32;
        Evaluated {
            priors: moves.into_iter().map(|m| (m, share)).collect(),
            value: self.value,
        }
    }
}

/// Nearly all the prior on one move where it is legal.
pub(super) struct Fond {
    pub(super) favourite: Point,
}

impl Evaluator<Nogo> for Fond {
    fn evaluate(&mut self, pos: &mut Nogo) -> Evaluated<Point> {
        let moves = pos.legal_moves();
        let rest = 0.1 / moves.len() as f32;
        Evaluated {
            priors: moves
                .into_iter()
                .map(|m| (m, if m == self.favourite { 0.9 } else { rest }))
                .collect(),
            value: 0.0,
        }
    }
}

pub(super) fn random_position(rng: &mut SmallRng, plies: usize) -> Nogo {
    let mut pos = Nogo::new(NogoRules::default());
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play(moves[(rng.next_u32() as usize) % moves.len()]);
    }
    pos
}

/// An expanded node's visits are its own evaluation plus its children's visits; a leaf never
/// expanded is either unvisited or a finished game, visited any number of times.
pub(super) fn check_counts(tree: &Puct<Nogo>) {
    let mut stack = vec![tree.root];
    let mut seen = 0;
    while let Some(n) = stack.pop() {
        seen += 1;
        let node = &tree.nodes[n];
        if node.expanded {
            let below: u32 = tree.children(n).map(|c| tree.nodes[c].visits).sum();
            assert_eq!(node.visits, below + 1, "node {n}");
            stack.extend(tree.children(n));
        } else {
            assert_eq!(node.num_children, 0);
        }
        assert!(node.total.abs() <= node.visits as f32 + 1e-3);
    }
    assert!(seen <= tree.nodes.len());
}

#[test]
fn a_search_makes_exactly_the_visits_asked_and_counts_add_up() {
    let mut rng = SmallRng::seed_from_u64(1);
    for plies in [0, 10, 30] {
        let pos = random_position(&mut rng, plies);
        let mut tree = Puct::new(
            pos.clone(),
            PuctParams::default(),
            Box::new(Even { value: 0.2 }),
        );
        let report = tree.search(Limits::iterations(300));
        assert_eq!(report.playouts, 300);
        assert!(pos.is_legal(report.best.unwrap()));
        assert_eq!(
            tree.root_visits(),
            301,
            "the root's evaluation and 300 visits"
        );
        check_counts(&tree);
        let visits: u32 = tree.root_child_visits().iter().map(|v| v.1).sum();
        assert_eq!(visits, 300);
    }
}

#[test]
fn the_prior_leads_the_visits() {
    let pos = Nogo::new(NogoRules::default());
    let favourite = 30;
    let mut tree = Puct::new(pos, PuctParams::default(), Box::new(Fond { favourite }));
    let report = tree.search(Limits::iterations(400));
    assert_eq!(report.best, Some(favourite));
    // Every move evaluated alike (value 0), so the prior alone decides: the favourite takes
    // most of the visits.
    assert!(report.best_visits > 200, "{}", report.best_visits);
}

/// `count` positions of random games where some, not all, of the side to move's moves leave
/// the opponent without a legal move, each with those winning moves.
pub(super) fn positions_with_a_winning_move(seed: u64, count: usize) -> Vec<(Nogo, Vec<Point>)> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut found = Vec::new();
    for _ in 0..500 {
        let mut pos = Nogo::new(NogoRules::default());
        while pos.outcome().is_none() {
            let me = pos.side_to_move();
            let moves = pos.legal_moves();
            let wins: Vec<Point> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let mut after = pos.clone();
                    after.play(m);
                    after.outcome() == Some(Outcome::Win(me))
                })
                .collect();
            if !wins.is_empty() && wins.len() < moves.len() {
                found.push((pos, wins));
                if found.len() == count {
                    return found;
                }
                break;
            }
            pos.play(moves[(rng.next_u32() as usize) % moves.len()]);
        }
    }
    panic!("only {} positions with a winning move", found.len());
}

#[test]
fn a_move_that_wins_at_once_is_found_by_results_alone() {
    // With an even prior and no opinion of the value, the finished games decide.
    for (pos, wins) in positions_with_a_winning_move(7, 5) {
        let evaluator = Box::new(Even { value: 0.0 });
        let mut tree = Puct::new(pos.clone(), PuctParams::default(), evaluator);
        let report = tree.search(Limits::iterations(200));
        let best = report.best.unwrap();
        assert!(wins.contains(&best), "{best} not among {wins:?}\n{pos}");
        assert!(report.win_rate > 0.9, "{}", report.win_rate);
        check_counts(&tree);
    }
}

#[test]
fn advancing_keeps_the_subtree_and_compaction_keeps_its_counts() {
    let mut rng = SmallRng::seed_from_u64(3);
    let mut pos = random_position(&mut rng, 6);
    let params = PuctParams {
        max_nodes: 60_000,
        ..PuctParams::default()
    };
    let mut tree = Puct::new(pos.clone(), params, Box::new(Even { value: 0.0 }));
    for _ in 0..12 {
        let report = tree.search(Limits::iterations(250));
        let Some(mv) = report.best else { break };
        assert!(pos.is_legal(mv));
        let child_visits = tree
            .root_child_visits()
            .into_iter()
            .find(|c| c.0 == mv)
            .unwrap()
            .1;
        assert!(tree.advance(mv));
        pos.play(mv);
        assert_eq!(tree.root_visits(), child_visits);
        assert_eq!(tree.root_position().hash(), pos.hash());
        if pos.outcome().is_some() {
            break;
        }
        let before = tree.root_visits();
        let report = tree.search(Limits::iterations(50));
        assert_eq!(tree.root_visits(), before + 50);
        // Past half of the limit the search starts by dropping the unreachable part.
        assert!(tree.tree_size() <= params.max_nodes);
        check_counts(&tree);
        let Some(reply) = report.best else { break };
        tree.advance(reply);
        pos.play(reply);
        if pos.outcome().is_some() {
            break;
        }
    }
    // Compaction leaves exactly the root's subtree, root first.
    tree.search(Limits::iterations(100));
    let reachable = {
        let mut stack = vec![tree.root];
        let mut count = 0;
        while let Some(n) = stack.pop() {
            count += 1;
            stack.extend(tree.children(n));
        }
        count
    };
    let visits = tree.root_visits();
    tree.compact();
    assert_eq!(
        (tree.root, tree.tree_size(), tree.root_visits()),
        (0, reachable, visits)
    );
    check_counts(&tree);
}

#[test]
fn a_full_tree_stops_the_search_with_a_legal_move() {
    let pos = Nogo::new(NogoRules::default());
    let params = PuctParams {
        max_nodes: 500,
        ..PuctParams::default()
    };
    let mut tree = Puct::new(pos.clone(), params, Box::new(Even { value: 0.0 }));
    let report = tree.search(Limits::iterations(10_000));
    assert!(report.playouts < 10, "{}", report.playouts);
    assert!(tree.tree_size() <= 500);
    assert!(pos.is_legal(report.best.unwrap()));
}

/// A position of a random game where the side to move has a single legal move.
pub(super) fn position_with_a_forced_move(seed: u64) -> Nogo {
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..300 {
        let mut pos = Nogo::new(NogoRules::default());
        while pos.outcome().is_none() {
            let moves = pos.legal_moves();
            if moves.len() == 1 {
                return pos;
            }
            pos.play(moves[(rng.next_u32() as usize) % moves.len()]);
        }
    }
    panic!("no position with a single legal move");
}

#[test]
fn a_forced_move_is_answered_without_visits() {
    let pos = position_with_a_forced_move(5);
    let only = pos.legal_moves()[0];
    let mut tree = Puct::new(pos, PuctParams::default(), Box::new(Even { value: 0.0 }));
    let report = tree.search(Limits::iterations(100));
    assert_eq!((report.best, report.playouts), (Some(only), 0));
}
