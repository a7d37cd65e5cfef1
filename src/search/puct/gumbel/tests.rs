use super::*;
use crate::game::nogo::{Nogo, NogoRules, Point};
use crate::search::puct::tests::{
    check_counts, position_with_a_forced_move, positions_with_a_winning_move, random_position,
    Even, Fond,
};
use crate::search::puct::PuctParams;
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn policy_is_a_distribution_over(choice: &GumbelChoice<Point>, pos: &Nogo) {
    let mut moves: Vec<Point> = choice.policy.iter().map(|p| p.0).collect();
    moves.sort_unstable();
    assert_eq!(moves, pos.legal_moves());
    let total: f32 = choice.policy.iter().map(|p| p.1).sum();
    assert!((total - 1.0).abs() < 1e-4, "{total}");
    assert!(choice.policy.iter().all(|p| p.1 >= 0.0));
}

#[test]
fn a_gumbel_search_spends_exactly_its_visits_on_a_legal_move() {
    let mut rng = SmallRng::seed_from_u64(21);
    for (plies, sims) in [(0, 64), (10, 200), (30, 5), (20, 17)] {
        let pos = random_position(&mut rng, plies);
        let mut tree = Puct::new(
            pos.clone(),
            PuctParams::default(),
            Box::new(Even { value: 0.1 }),
        );
        let choice = tree.search_gumbel(sims, GumbelParams::default(), &mut rng);
        assert_eq!(choice.visits, sims as u64);
        assert!(pos.is_legal(choice.chosen.unwrap()));
        assert_eq!(
            tree.root_visits(),
            sims + 1,
            "the root's evaluation and the visits"
        );
        policy_is_a_distribution_over(&choice, &pos);
        check_counts(&tree);
    }
}

#[test]
fn halving_spends_its_visits_only_on_the_considered_moves() {
    let pos = Nogo::new(NogoRules::default());
    let mut tree = Puct::new(pos, PuctParams::default(), Box::new(Even { value: 0.0 }));
    let params = GumbelParams {
        considered: 4,
        ..GumbelParams::default()
    };
    let choice = tree.search_gumbel(100, params, &mut SmallRng::seed_from_u64(1));
    let visited: Vec<(Point, u32)> = tree
        .root_child_visits()
        .into_iter()
        .filter(|c| c.1 > 0)
        .collect();
    assert_eq!(visited.len(), 4, "{visited:?}");
    // Two phases: 100 / 2 / 4 = 12 visits each, then the best two share the other 52.
    let mut counts: Vec<u32> = visited.iter().map(|c| c.1).collect();
    counts.sort_unstable();
    assert_eq!(counts, vec![12, 12, 38, 38]);
    // The chosen move is one of the two that went through.
    let finalists: Vec<Point> = visited.iter().filter(|c| c.1 == 38).map(|c| c.0).collect();
    assert!(finalists.contains(&choice.chosen.unwrap()));
}

#[test]
fn without_noise_the_prior_decides_between_equal_results() {
    let pos = Nogo::new(NogoRules::default());
    let favourite = 30;
    let mut tree = Puct::new(
        pos.clone(),
        PuctParams::default(),
        Box::new(Fond { favourite }),
    );
    let params = GumbelParams {
        noise: false,
        ..GumbelParams::default()
    };
    let choice = tree.search_gumbel(64, params, &mut SmallRng::seed_from_u64(2));
    assert_eq!(choice.chosen, Some(favourite));
    policy_is_a_distribution_over(&choice, &pos);
    let best = choice
        .policy
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap();
    assert_eq!(best.0, favourite);
}

#[test]
fn the_noise_varies_the_choice_between_games() {
    // An even prior and no opinion of the value: each draw of the noise picks its own moves.
    let pos = Nogo::new(NogoRules::default());
    let mut chosen = Vec::new();
    for seed in 0..12 {
        let mut tree = Puct::new(
            pos.clone(),
            PuctParams::default(),
            Box::new(Even { value: 0.0 }),
        );
        let choice = tree.search_gumbel(
            32,
            GumbelParams::default(),
            &mut SmallRng::seed_from_u64(seed),
        );
        chosen.push(choice.chosen.unwrap());
    }
    chosen.sort_unstable();
    chosen.dedup();
    assert!(chosen.len() >= 6, "{chosen:?}");
}

#[test]
fn a_move_that_wins_at_once_is_chosen_and_taught() {
    // As PUCT's own test: every move considered, an even prior, the finished games decide the
    // choice and the policy.
    let mut rng = SmallRng::seed_from_u64(8);
    for (pos, wins) in positions_with_a_winning_move(8, 5) {
        let moves = pos.legal_moves();
        let mut tree = Puct::new(
            pos.clone(),
            PuctParams::default(),
            Box::new(Even { value: 0.0 }),
        );
        let params = GumbelParams {
            considered: moves.len(),
            ..GumbelParams::default()
        };
        let choice = tree.search_gumbel(4 * moves.len() as u32, params, &mut rng);
        let chosen = choice.chosen.unwrap();
        assert!(wins.contains(&chosen), "{chosen} not among {wins:?}\n{pos}");
        assert!(choice.value > 0.99, "{}", choice.value);
        let taught: f32 = choice
            .policy
            .iter()
            .filter(|p| wins.contains(&p.0))
            .map(|p| p.1)
            .sum();
        assert!(taught > 0.9, "{taught}");
        policy_is_a_distribution_over(&choice, &pos);
    }
}

#[test]
fn a_forced_move_needs_no_visits_and_a_finished_game_has_no_move() {
    let mut rng = SmallRng::seed_from_u64(5);
    let pos = position_with_a_forced_move(5);
    let only = pos.legal_moves()[0];
    let mut tree = Puct::new(pos, PuctParams::default(), Box::new(Even { value: 0.0 }));
    let choice = tree.search_gumbel(50, GumbelParams::default(), &mut rng);
    assert_eq!((choice.chosen, choice.visits), (Some(only), 0));
    assert_eq!(choice.policy, vec![(only, 1.0)]);

    let mut over = random_position(&mut rng, 200);
    while over.outcome().is_none() {
        over.play(over.legal_moves()[0]);
    }
    let mut tree = Puct::new(over, PuctParams::default(), Box::new(Even { value: 0.0 }));
    let choice = tree.search_gumbel(50, GumbelParams::default(), &mut rng);
    assert_eq!((choice.chosen, choice.visits), (None, 0));
    assert!(choice.policy.is_empty());
}
