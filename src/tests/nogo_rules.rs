//! Rule tests for NoGo (`stonebrain::game::nogo`).
//!
//! Two layers. First, one small hand-built position per rule, so that a failure names the rule
//! that broke. Second, a randomized comparison against a reference board written here from the
//! rules alone: a plain 9x9 array with a flood fill per question. The fast board keeps union-find
//! groups, liberty bitboards, an "atari" set and per-colour ban masks, all of which are
//! incremental state that can drift; the reference recomputes everything from scratch on every
//! question, so it shares none of those failure modes. The random games pick their moves from
//! the reference, so a wrong legal-move list in the fast board cannot steer the games away from
//! the positions that would expose it.

mod common;
use common::XorShift;

use std::collections::HashMap;

use stonebrain::game::nogo::{
    coords, neighbours, point, Nogo, NogoRules, Point, CENTRE, POINTS, SIZE,
};
use stonebrain::game::{Color, Game, IllegalMove, Outcome};

const BLACK: Color = Color::Black;
const WHITE: Color = Color::White;

// ---------------------------------------------------------------------------------------------
// Helpers for hand-built positions.

fn bit(p: usize) -> u128 {
    1u128 << p
}

/// Plays `moves` from the empty board, Black first and alternating. Every move goes through
/// `try_play`, so a slip in a hand-built position fails here, naming the move, instead of
/// surfacing later as a puzzling assertion about the position it was meant to build.
fn build(centre_ban: bool, moves: &[(usize, usize)]) -> Nogo {
    let mut g = Nogo::new(NogoRules { centre_ban });
    for (i, &(x, y)) in moves.iter().enumerate() {
        if let Err(e) = g.try_play(point(x, y)) {
            panic!("setup move {i} at ({x},{y}) was refused: {e}\n{g}");
        }
    }
    g
}

/// The reason text of a move that must be refused by a game rule (not for being occupied or off
/// the board).
fn forbidden_reason(g: &Nogo, p: Point) -> &'static str {
    match g.check_move(p) {
        Err(IllegalMove::Forbidden(why)) => why,
        other => panic!("expected Forbidden for {:?}, got {other:?}\n{g}", coords(p)),
    }
}

fn is_set(mask: u128, p: Point) -> bool {
    mask & bit(p as usize) != 0
}

// ---------------------------------------------------------------------------------------------
// The deterministic generator (`common::XorShift`) replays identically on every run and machine
// and shares nothing with the code under test; here it also picks points from sets.

impl XorShift {
    /// A uniformly random member of a non-empty set of points.
    fn pick(&mut self, set: u128) -> Point {
        let members: Vec<usize> = (0..POINTS).filter(|&p| set & bit(p) != 0).collect();
        members[self.below(members.len())] as Point
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reference implementation: the rules as stated, with no incremental state at all.

/// What the rules say about one colour playing one point, in the order the crate reports
/// reasons: a move that would both capture and be suicide is reported as a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Legal,
    Occupied,
    CentreBan,
    Capture,
    Suicide,
}

#[derive(Clone)]
struct RefBoard {
    /// `cells[x][y]`, the same orientation as Botzone's `grid[x][y]`.
    cells: [[Option<Color>; SIZE]; SIZE],
    to_move: Color,
    ply: usize,
    centre_ban: bool,
}

/// The point index the spec defines: `y * 9 + x`. Written out here instead of calling `point`,
/// so that the reference does not inherit a mistake in the crate's own helper.
fn ref_index(x: usize, y: usize) -> usize {
    y * SIZE + x
}

/// Orthogonal neighbours from signed offsets and a bounds check, independent of the crate's
/// precomputed tables.
fn ref_adjacent(x: usize, y: usize) -> impl Iterator<Item = (usize, usize)> {
    [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)]
        .into_iter()
        .filter_map(move |(dx, dy)| {
            let (nx, ny) = (x as i32 + dx, y as i32 + dy);
            let inside = (0..SIZE as i32).contains(&nx) && (0..SIZE as i32).contains(&ny);
            inside.then_some((nx as usize, ny as usize))
        })
}

impl RefBoard {
    fn new(centre_ban: bool) -> RefBoard {
        RefBoard {
            cells: [[None; SIZE]; SIZE],
            to_move: BLACK,
            ply: 0,
            centre_ban,
        }
    }

    fn at(&self, p: usize) -> Option<Color> {
        self.cells[p % SIZE][p / SIZE]
    }

    /// Stones and liberties of the group holding the stone at `(x, y)`, by a stack flood fill.
    fn group(&self, x: usize, y: usize) -> (u128, u128) {
        let colour = self.cells[x][y].expect("group of an empty point");
        let mut seen = [[false; SIZE]; SIZE];
        let mut stack = vec![(x, y)];
        seen[x][y] = true;
        let (mut stones, mut libs) = (0u128, 0u128);
        while let Some((cx, cy)) = stack.pop() {
            stones |= bit(ref_index(cx, cy));
            for (nx, ny) in ref_adjacent(cx, cy) {
                match self.cells[nx][ny] {
                    None => libs |= bit(ref_index(nx, ny)),
                    Some(c) if c == colour && !seen[nx][ny] => {
                        seen[nx][ny] = true;
                        stack.push((nx, ny));
                    }
                    _ => {}
                }
            }
        }
        (stones, libs)
    }

    /// Places the stone on a copy and looks at the groups around it: the rule as written.
    fn verdict(&self, p: usize, c: Color) -> Verdict {
        let (x, y) = (p % SIZE, p / SIZE);
        if self.cells[x][y].is_some() {
            return Verdict::Occupied;
        }
        if self.centre_ban && self.ply == 0 && c == BLACK && (x, y) == (SIZE / 2, SIZE / 2) {
            return Verdict::CentreBan;
        }
        let mut after = self.clone();
        after.cells[x][y] = Some(c);
        let captures = ref_adjacent(x, y).any(|(nx, ny)| {
            after.cells[nx][ny] == Some(c.opponent()) && after.group(nx, ny).1 == 0
        });
        let suicide = after.group(x, y).1 == 0;
        if captures {
            Verdict::Capture
        } else if suicide {
            Verdict::Suicide
        } else {
            Verdict::Legal
        }
    }

    fn play(&mut self, p: usize) {
        assert_eq!(
            self.verdict(p, self.to_move),
            Verdict::Legal,
            "reference asked to play an illegal move"
        );
        self.cells[p % SIZE][p / SIZE] = Some(self.to_move);
        self.to_move = self.to_move.opponent();
        self.ply += 1;
    }

    fn stones(&self, c: Color) -> u128 {
        (0..POINTS)
            .filter(|&p| self.at(p) == Some(c))
            .fold(0, |m, p| m | bit(p))
    }

    fn legal_set(&self, c: Color) -> u128 {
        (0..POINTS)
            .filter(|&p| self.verdict(p, c) == Verdict::Legal)
            .fold(0, |m, p| m | bit(p))
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.legal_set(self.to_move) == 0 {
            Some(Outcome::Win(self.to_move.opponent()))
        } else {
            None
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Geometry and the empty board.

#[test]
fn geometry_helpers_follow_the_point_convention() {
    assert_eq!((SIZE, POINTS), (9, 81));
    assert_eq!(CENTRE, point(4, 4));
    for y in 0..SIZE {
        for x in 0..SIZE {
            let p = point(x, y);
            assert_eq!(p as usize, y * 9 + x);
            assert_eq!(coords(p), (x, y));
            // Compare as sets: the order of the neighbour list is not part of the contract.
            let mut got: Vec<usize> = neighbours(p).iter().map(|&q| q as usize).collect();
            let mut want: Vec<usize> = ref_adjacent(x, y).map(|(a, b)| ref_index(a, b)).collect();
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want, "neighbours of ({x},{y})");
        }
    }
    // Corners have two neighbours, edges three, the interior four.
    assert_eq!(neighbours(point(0, 0)).len(), 2);
    assert_eq!(neighbours(point(8, 8)).len(), 2);
    assert_eq!(neighbours(point(4, 0)).len(), 3);
    assert_eq!(neighbours(point(0, 4)).len(), 3);
    assert_eq!(neighbours(CENTRE).len(), 4);
}

#[test]
fn empty_board_allows_all_81_points_by_default() {
    let g = Nogo::new(NogoRules::default());
    assert!(
        !g.rules().centre_ban,
        "the default must be Botzone's rules, without the centre ban"
    );
    assert_eq!(g.side_to_move(), BLACK);
    assert_eq!(g.ply(), 0);
    assert_eq!(g.outcome(), None);
    let moves = g.legal_moves();
    assert_eq!(moves, (0..POINTS as Point).collect::<Vec<_>>());
    assert!(g.is_legal(CENTRE));
    assert_eq!(g.check_move(CENTRE), Ok(()));
    assert_eq!(g.legal_mask(BLACK).count_ones(), 81);
    assert_eq!(g.legal_mask(WHITE).count_ones(), 81);
}

#[test]
fn centre_ban_forbids_only_blacks_first_move_on_the_centre() {
    let g = Nogo::new(NogoRules { centre_ban: true });
    let moves = g.legal_moves();
    assert_eq!(moves.len(), 80);
    assert!(!moves.contains(&CENTRE));
    assert!(!g.is_legal(CENTRE));
    assert!(!is_set(g.legal_mask(BLACK), CENTRE));
    // The rule binds Black's opening move only; White is not concerned even at ply 0.
    assert!(is_set(g.legal_mask(WHITE), CENTRE));
    let why = forbidden_reason(&g, CENTRE);
    assert!(
        why.contains("centre"),
        "reason should name the centre rule: {why}"
    );
    assert_eq!(g.outcome(), None);

    // A refused move must leave the position untouched.
    let mut refused = g.clone();
    assert!(matches!(
        refused.try_play(CENTRE),
        Err(IllegalMove::Forbidden(_))
    ));
    assert_eq!((refused.ply(), refused.hash()), (0, g.hash()));
    assert_eq!(refused.side_to_move(), BLACK);

    // After Black's first move the centre is open to White ...
    let mut g = g;
    g.try_play(point(0, 0)).unwrap();
    assert_eq!(g.check_move(CENTRE), Ok(()));
    assert_eq!(g.legal_moves().len(), 80);
    // ... and, if White plays elsewhere, to Black on a later move.
    g.try_play(point(8, 8)).unwrap();
    assert_eq!(g.check_move(CENTRE), Ok(()));
    assert!(is_set(g.legal_mask(BLACK), CENTRE));
    g.try_play(CENTRE).unwrap();
    assert_eq!(g.color_at(CENTRE), Some(BLACK));
}

#[test]
fn centre_ban_does_not_stop_white_taking_the_centre() {
    let mut g = build(true, &[(2, 2)]);
    assert_eq!(g.try_play(CENTRE), Ok(()));
    assert_eq!(g.color_at(CENTRE), Some(WHITE));
}

#[test]
fn occupied_and_off_board_points_are_refused() {
    let mut g = build(false, &[(3, 3), (5, 5)]);
    assert_eq!(g.check_move(point(3, 3)), Err(IllegalMove::Occupied));
    assert_eq!(g.check_move(point(5, 5)), Err(IllegalMove::Occupied));
    assert!(!g.is_legal(point(3, 3)));
    for off in [81u8, 82, 127, 128, 200, 255] {
        assert_eq!(g.check_move(off), Err(IllegalMove::OffBoard), "point {off}");
        assert!(!g.is_legal(off));
    }
    let before = (g.hash(), g.ply(), g.stones(BLACK), g.stones(WHITE));
    assert_eq!(g.try_play(point(5, 5)), Err(IllegalMove::Occupied));
    assert_eq!(g.try_play(200), Err(IllegalMove::OffBoard));
    assert_eq!(
        (g.hash(), g.ply(), g.stones(BLACK), g.stones(WHITE)),
        before
    );
    assert_eq!(g.legal_moves().len(), 79);
}

// ---------------------------------------------------------------------------------------------
// Suicide.

#[test]
fn corner_eye_is_suicide_for_the_surrounded_colour() {
    // . O        White owns the corner point (0,0). The white stones keep other liberties, so a
    // O .        black stone there captures nothing: it is plain suicide.
    let g = build(false, &[(8, 8), (1, 0), (8, 6), (0, 1)]);
    assert_eq!(g.side_to_move(), BLACK);
    let why = forbidden_reason(&g, point(0, 0));
    assert!(
        why.contains("suicide") && !why.contains("capture"),
        "reason: {why}"
    );
    assert!(!g.legal_moves().contains(&point(0, 0)));
    assert!(!is_set(g.legal_mask(BLACK), point(0, 0)));
    // White filling its own eye joins both stones into a group that still breathes.
    assert!(is_set(g.legal_mask(WHITE), point(0, 0)));
}

#[test]
fn edge_and_centre_eyes_are_suicide_too() {
    // Edge eye at (4,0) and a four-sided eye at (4,4), both made of white stones; Black plays
    // far away on the bottom row in between.
    let g = build(
        false,
        &[
            (0, 8),
            (3, 0),
            (1, 8),
            (5, 0),
            (2, 8),
            (4, 1),
            (6, 8),
            (4, 3),
            (7, 8),
            (3, 4),
            (8, 8),
            (5, 4),
            (8, 7),
            (4, 5),
        ],
    );
    assert_eq!(g.side_to_move(), BLACK);
    for eye in [point(4, 0), CENTRE] {
        let why = forbidden_reason(&g, eye);
        assert!(
            why.contains("suicide"),
            "reason at {:?}: {why}",
            coords(eye)
        );
        assert!(
            is_set(g.legal_mask(WHITE), eye),
            "White may fill its own eye {:?}",
            coords(eye)
        );
    }
}

#[test]
fn filling_own_last_liberty_is_legal_when_it_connects_to_a_group_with_liberties() {
    // y=0: . X O       The black stone at (1,0) has one liberty left, (0,0). Black playing there
    // y=1: X O .       has no empty neighbour, but joins (0,1), which still has (0,2).
    let g = build(false, &[(1, 0), (2, 0), (0, 1), (1, 1)]);
    assert_eq!(g.side_to_move(), BLACK);
    assert_eq!(g.group_liberties(point(1, 0)), bit(point(0, 0) as usize));
    assert_eq!(g.check_move(point(0, 0)), Ok(()));
    assert!(g.legal_moves().contains(&point(0, 0)));
    // For White the same point takes the last liberty of (1,0): a capture, so forbidden.
    assert!(!is_set(g.legal_mask(WHITE), point(0, 0)));

    let mut g = g;
    g.try_play(point(0, 0)).unwrap();
    let group = point(0, 0);
    assert_eq!(g.group_liberties(group), bit(point(0, 2) as usize));
    assert_eq!(
        g.group_liberties(point(1, 0)),
        g.group_liberties(point(0, 1))
    );
}

#[test]
fn filling_own_last_liberty_without_other_liberties_is_suicide() {
    // y=0: . X O       Both black stones have (0,0) as their only liberty; joining them there
    // y=1: X O .       leaves the merged group with none. No white group is touched, so this is
    // y=2: O . .       suicide, not capture.
    let g = build(false, &[(1, 0), (2, 0), (0, 1), (1, 1), (8, 8), (0, 2)]);
    assert_eq!(g.side_to_move(), BLACK);
    let why = forbidden_reason(&g, point(0, 0));
    assert!(why.contains("suicide"), "reason: {why}");
    // White there would capture both black stones.
    assert!(!is_set(g.legal_mask(WHITE), point(0, 0)));
}

// ---------------------------------------------------------------------------------------------
// Capture.

#[test]
fn taking_the_last_liberty_of_a_single_stone_is_forbidden() {
    // y=0: O X         The white corner stone has one liberty, (0,1). A black stone there would
    // y=1: . .         itself have two liberties, so only the capture rule forbids it.
    let g = build(false, &[(1, 0), (0, 0)]);
    assert_eq!(g.side_to_move(), BLACK);
    let why = forbidden_reason(&g, point(0, 1));
    assert!(why.contains("capture"), "reason: {why}");
    assert!(!g.legal_moves().contains(&point(0, 1)));
    // White may extend into its own last liberty: the same point is legal for the other side.
    assert!(is_set(g.legal_mask(WHITE), point(0, 1)));
}

#[test]
fn taking_the_last_liberty_of_a_group_in_the_middle_is_forbidden() {
    //        x: 3 4 5 6
    // y=3:      . X X .     The white pair (4,4)-(5,4) is left with the single liberty (5,5).
    // y=4:      X O O X     A black stone on (5,5) would have liberties (6,5) and (5,6), but it
    // y=5:      . X . .     would capture the pair.
    let g = build(
        false,
        &[
            (3, 4),
            (4, 4),
            (4, 3),
            (5, 4),
            (5, 3),
            (0, 8),
            (6, 4),
            (2, 8),
            (4, 5),
            (8, 0),
        ],
    );
    assert_eq!(g.side_to_move(), BLACK);
    assert_eq!(g.group_liberties(point(4, 4)), bit(point(5, 5) as usize));
    let why = forbidden_reason(&g, point(5, 5));
    assert!(why.contains("capture"), "reason: {why}");
    assert!(!g.is_legal(point(5, 5)));
    assert!(is_set(g.legal_mask(WHITE), point(5, 5)));
    // Only (5,5) is affected: every other empty point is still open to Black.
    assert_eq!(g.legal_moves().len(), 81 - 10 - 1);
}

#[test]
fn move_that_is_both_suicide_and_capture_is_forbidden() {
    // y=0: . O X       A black stone on (0,0) would have no liberty and would also take the
    // y=1: O X .       last liberty of the white stone (1,0). Either rule alone forbids it. White,
    //                  on the other hand, connects (1,0) to (0,1), which still has (0,2).
    let g = build(false, &[(2, 0), (1, 0), (1, 1), (0, 1)]);
    assert_eq!(g.side_to_move(), BLACK);
    let why = forbidden_reason(&g, point(0, 0));
    assert!(
        why.contains("capture") || why.contains("suicide"),
        "reason: {why}"
    );
    assert!(is_set(g.legal_mask(WHITE), point(0, 0)));
}

#[test]
fn a_point_can_be_legal_for_one_colour_only() {
    // A black eye at the opposite corner (8,8) and a white eye at (0,0), each stone with spare
    // liberties: each side may fill its own eye and not the other's.
    let mut g = build(false, &[(7, 8), (1, 0), (8, 7), (0, 1)]);
    let (black_eye, white_eye) = (point(8, 8), point(0, 0));
    assert_eq!(g.side_to_move(), BLACK);
    assert!(g.is_legal(black_eye));
    assert!(!g.is_legal(white_eye));
    assert!(is_set(g.legal_mask(BLACK), black_eye) && !is_set(g.legal_mask(BLACK), white_eye));
    assert!(is_set(g.legal_mask(WHITE), white_eye) && !is_set(g.legal_mask(WHITE), black_eye));
    // The same answers once it is White's turn.
    g.try_play(point(4, 4)).unwrap();
    assert!(g.is_legal(white_eye));
    assert!(!g.is_legal(black_eye));
    assert!(g.check_move(black_eye).is_err());
}

// ---------------------------------------------------------------------------------------------
// End of the game.

/// Plays random games (moves drawn from the reference rules) with seeds from `first_seed` on,
/// and returns the first position, with its reference twin, that satisfies `wanted`.
fn find_position(first_seed: u64, wanted: impl Fn(&RefBoard) -> bool) -> (Nogo, RefBoard) {
    for seed in first_seed..first_seed + 200 {
        let mut rng = XorShift::new(seed);
        let mut g = Nogo::new(NogoRules::default());
        let mut r = RefBoard::new(false);
        loop {
            if wanted(&r) {
                return (g, r);
            }
            let legal = r.legal_set(r.to_move);
            if legal == 0 {
                break;
            }
            let p = rng.pick(legal);
            g.try_play(p).unwrap();
            r.play(p as usize);
        }
    }
    panic!("no random game from seed {first_seed} reached the wanted position");
}

#[test]
fn side_to_move_without_a_legal_move_loses() {
    let (g, r) = find_position(7, |r| r.legal_set(r.to_move) == 0);
    let me = g.side_to_move();
    assert_eq!(me, r.to_move);
    assert!(g.legal_moves().is_empty(), "\n{g}");
    assert_eq!(g.legal_mask(me), 0);
    assert!(!g.has_legal_move(me));
    assert_eq!(g.outcome(), Some(Outcome::Win(me.opponent())), "\n{g}");
    assert_eq!(g.outcome(), r.outcome());
    // Every point is refused, each for the right kind of reason.
    for p in 0..POINTS as Point {
        match g.check_move(p) {
            Err(IllegalMove::Occupied) => assert!(g.color_at(p).is_some()),
            Err(IllegalMove::Forbidden(_)) => assert!(g.color_at(p).is_none()),
            other => panic!("{:?} should be refused, got {other:?}\n{g}", coords(p)),
        }
    }
    // The loser is out of moves but the board is not full: NoGo ends on legality, not space.
    assert!(g.empty() != 0);
}

#[test]
fn position_with_exactly_one_legal_move() {
    let (mut g, r) = find_position(11, |r| r.legal_set(r.to_move).count_ones() == 1);
    let only = r.legal_set(r.to_move).trailing_zeros() as Point;
    assert_eq!(g.legal_moves(), vec![only], "\n{g}");
    assert_eq!(g.outcome(), None);
    assert!(g.is_legal(only));
    let me = g.side_to_move();
    g.try_play(only).unwrap();
    assert_eq!(g.side_to_move(), me.opponent());
}

// ---------------------------------------------------------------------------------------------
// Hashing.

#[test]
fn transposed_move_orders_give_the_same_hash() {
    let a = build(false, &[(2, 2), (6, 6), (2, 6), (6, 2), (4, 4)]);
    let b = build(false, &[(4, 4), (6, 2), (2, 2), (6, 6), (2, 6)]);
    assert_eq!(a.hash(), b.hash());
    assert_eq!(a.legal_moves(), b.legal_moves());
    // Swapping which colour holds two of the points is a different position.
    let c = build(false, &[(6, 6), (2, 2), (2, 6), (6, 2), (4, 4)]);
    assert_ne!(a.hash(), c.hash());
}

#[test]
fn hash_depends_on_side_to_move() {
    // Under alternating play the stone count fixes the side to move, so the same stones with
    // the other side to move cannot be reached. What can be checked: every move changes the
    // key, no key repeats along a game, and swapping the colours of the stones changes it.
    let mut g = Nogo::new(NogoRules::default());
    let mut seen = vec![g.hash()];
    for &(x, y) in &[(0, 0), (8, 8), (4, 4), (3, 3), (5, 5)] {
        let before = g.hash();
        g.try_play(point(x, y)).unwrap();
        assert_ne!(g.hash(), before);
        assert!(!seen.contains(&g.hash()));
        seen.push(g.hash());
    }
    let black_on = build(false, &[(4, 4), (0, 0)]);
    let white_on = build(false, &[(0, 0), (4, 4)]);
    assert_ne!(black_on.hash(), white_on.hash());
    // Same stones, same side to move, different order: equal.
    let again = build(false, &[(4, 4), (0, 0), (3, 3), (5, 5)]);
    let other = build(false, &[(3, 3), (5, 5), (4, 4), (0, 0)]);
    assert_eq!(again.hash(), other.hash());
    assert_eq!(again.side_to_move(), other.side_to_move());
}

/// Per-stone key contributions recovered from one- and two-move games. The crate XORs a key per
/// stone and a side-to-move key per move; the side key cancels in pairs, so the hash of any
/// position reached by alternating play must equal the XOR of these contributions. This gives
/// the randomized test an independent check that the hash depends on the stones only, not on
/// the order they arrived in.
fn stone_keys() -> [[u64; POINTS]; 2] {
    let mut keys = [[0u64; POINTS]; 2];
    for p in 0..POINTS as Point {
        let g = build(false, &[coords(p)]);
        keys[0][p as usize] = g.hash();
        let filler = if p == 0 { 80 } else { 0 };
        let one = build(false, &[coords(filler)]);
        let two = build(false, &[coords(filler), coords(p)]);
        keys[1][p as usize] = one.hash() ^ two.hash();
    }
    keys
}

#[test]
fn stone_keys_are_distinct_and_nonzero() {
    let keys = stone_keys();
    let mut all: Vec<u64> = keys.iter().flatten().copied().collect();
    assert!(all.iter().all(|&k| k != 0));
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 2 * POINTS);
}

// ---------------------------------------------------------------------------------------------
// Randomized comparison with the reference.

/// How a random game treats the ban masks of the board it checks, so that `legal_mask` and
/// friends are exercised both with no bans and with bans accumulated over many moves (the crate
/// claims an illegal point stays illegal for good; a stale ban would break that).
#[derive(Clone, Copy, Debug)]
enum BanPolicy {
    /// Never touch the bans of the game under test.
    Untouched,
    /// `refresh_bans` for both colours before every move, as a search would.
    RefreshEveryPly,
    /// `refresh_bans` for one random colour now and then.
    RefreshSometimes,
    /// Ban single points that are truly illegal, the way the engine's playouts do.
    BanByHand,
}

/// Checks every question the fast board answers about `g` against the reference `r`, and
/// returns the reference legal sets so the caller can pick a move.
fn compare(g: &Nogo, r: &RefBoard, keys: &[[u64; POINTS]; 2], ctx: &str) -> [u128; 2] {
    let board = || format!("{ctx}\n{g}");
    assert_eq!(g.side_to_move(), r.to_move, "side to move: {}", board());
    assert_eq!(g.ply(), r.ply, "ply: {}", board());
    assert_eq!(
        g.stones(BLACK),
        r.stones(BLACK),
        "black stones: {}",
        board()
    );
    assert_eq!(
        g.stones(WHITE),
        r.stones(WHITE),
        "white stones: {}",
        board()
    );
    assert_eq!(
        g.empty(),
        !(r.stones(BLACK) | r.stones(WHITE)) & ((1u128 << POINTS) - 1)
    );

    // Verdicts once per point and colour; everything below is derived from them.
    let verdicts: [[Verdict; POINTS]; 2] =
        [BLACK, WHITE].map(|c| std::array::from_fn(|p| r.verdict(p, c)));
    let mut legal = [0u128; 2];
    let mut stone_legal = [0u128; 2];
    for i in 0..2 {
        for (p, &v) in verdicts[i].iter().enumerate() {
            if v == Verdict::Legal {
                legal[i] |= bit(p);
            }
            // The stone rules alone, which is what `refresh_bans` and `stone_rules_allow` see.
            if matches!(v, Verdict::Legal | Verdict::CentreBan) {
                stone_legal[i] |= bit(p);
            }
        }
    }

    for c in [BLACK, WHITE] {
        let i = c.index();
        assert_eq!(
            g.legal_mask(c),
            legal[i],
            "legal_mask({c:?}) differs on {:?}: {}",
            diff_points(g.legal_mask(c), legal[i]),
            board()
        );
        assert_eq!(
            g.has_legal_move(c),
            legal[i] != 0,
            "has_legal_move({c:?}): {}",
            board()
        );
        // Bans are a promise that a point is illegal; one on a legal point would hide a move.
        assert_eq!(
            g.banned(c) & legal[i],
            0,
            "{c:?} banned from legal points {:?}: {}",
            diff_points(g.banned(c) & legal[i], 0),
            board()
        );
    }

    let expected_moves: Vec<Point> = (0..POINTS)
        .filter(|&p| legal[r.to_move.index()] & bit(p) != 0)
        .map(|p| p as Point)
        .collect();
    assert_eq!(g.legal_moves(), expected_moves, "legal_moves: {}", board());

    let me = r.to_move.index();
    for (p, &v) in verdicts[me].iter().enumerate() {
        let pt = p as Point;
        let got = g.check_move(pt);
        let ok = match (&got, v) {
            (Ok(()), Verdict::Legal) => true,
            (Err(IllegalMove::Occupied), Verdict::Occupied) => true,
            (Err(IllegalMove::Forbidden(why)), Verdict::CentreBan) => why.contains("centre"),
            (Err(IllegalMove::Forbidden(why)), Verdict::Capture) => why.contains("capture"),
            (Err(IllegalMove::Forbidden(why)), Verdict::Suicide) => why.contains("suicide"),
            _ => false,
        };
        assert!(
            ok,
            "check_move{:?} = {got:?}, reference says {v:?}: {}",
            coords(pt),
            board()
        );
        assert_eq!(
            g.is_legal(pt),
            v == Verdict::Legal,
            "is_legal{:?}: {}",
            coords(pt),
            board()
        );
        for c in [BLACK, WHITE] {
            let i = c.index();
            assert_eq!(
                g.allows(pt, c),
                legal[i] & bit(p) != 0,
                "allows{:?} {c:?}: {}",
                coords(pt),
                board()
            );
        }
        if r.at(p).is_none() {
            let both = g.stone_rules_allow_both(pt, g.empty());
            for c in [BLACK, WHITE] {
                let want = stone_legal[c.index()] & bit(p) != 0;
                assert_eq!(
                    g.stone_rules_allow(pt, c),
                    want,
                    "stone_rules_allow{:?} {c:?}: {}",
                    coords(pt),
                    board()
                );
                assert_eq!(
                    both[c.index()],
                    want,
                    "stone_rules_allow_both{:?} {c:?}: {}",
                    coords(pt),
                    board()
                );
            }
        } else {
            // Liberties of every group, from the union-find root, against a fresh flood fill.
            let (_, libs) = r.group(p % SIZE, p / SIZE);
            assert_eq!(
                g.group_liberties(pt),
                libs,
                "liberties of the group at {:?}: {}",
                coords(pt),
                board()
            );
            assert_eq!(g.color_at(pt), r.at(p));
        }
    }
    for off in [POINTS as Point, 100, 200, 255] {
        assert_eq!(g.check_move(off), Err(IllegalMove::OffBoard));
    }

    // The reference outcome, from the legal set already computed (same rule as `r.outcome()`).
    let outcome = (legal[me] == 0).then_some(Outcome::Win(r.to_move.opponent()));
    assert_eq!(g.outcome(), outcome, "outcome: {}", board());

    // Zobrist: the XOR of per-stone contributions, whatever the move order was.
    let want_hash = (0..POINTS).fold(0u64, |h, p| match r.at(p) {
        Some(c) => h ^ keys[c.index()][p],
        None => h,
    });
    assert_eq!(g.hash(), want_hash, "hash: {}", board());

    // On a copy: after `refresh_bans(c)` the unbanned empty points are exactly the points the
    // stone rules allow (the centre rule is deliberately outside the bans), and the ban-aware
    // queries must still agree.
    let mut h = g.clone();
    for c in [BLACK, WHITE] {
        h.refresh_bans(c);
        let i = c.index();
        assert_eq!(
            h.empty() & !h.banned(c),
            stone_legal[i],
            "after refresh_bans({c:?}) differs on {:?}: {}",
            diff_points(h.empty() & !h.banned(c), stone_legal[i]),
            board()
        );
        if !(r.centre_ban && r.ply == 0) {
            assert_eq!(h.empty() & !h.banned(c), legal[i]);
        }
        assert_eq!(
            h.legal_mask(c),
            legal[i],
            "legal_mask({c:?}) after refresh: {}",
            board()
        );
    }
    assert_eq!(h.legal_moves(), expected_moves);
    assert_eq!(h.outcome(), outcome);

    legal
}

fn diff_points(a: u128, b: u128) -> Vec<(usize, usize)> {
    (0..POINTS as Point)
        .filter(|&p| (a ^ b) & bit(p as usize) != 0)
        .map(coords)
        .collect()
}

/// Replays the stones of `r` in a shuffled order (colours still alternating) and checks that
/// the result is the same position with the same key. Any order is legal: a group present
/// part-way through is part of a final group and is bordered only by stones that are also on
/// the final board, so if it had no liberty then, it would have none at the end either.
fn check_transposition(r: &RefBoard, rng: &mut XorShift, g: &Nogo) {
    let mut black: Vec<usize> = (0..POINTS).filter(|&p| r.at(p) == Some(BLACK)).collect();
    let mut white: Vec<usize> = (0..POINTS).filter(|&p| r.at(p) == Some(WHITE)).collect();
    rng.shuffle(&mut black);
    rng.shuffle(&mut white);
    if r.centre_ban && black.first() == Some(&(CENTRE as usize)) {
        // Black played a non-centre first move in the real game, so another black stone exists.
        let last = black.len() - 1;
        black.swap(0, last);
    }
    let mut t = Nogo::new(g.rules());
    for (i, &b) in black.iter().enumerate() {
        for p in [Some(b), white.get(i).copied()].into_iter().flatten() {
            if let Err(e) = t.try_play(p as Point) {
                panic!(
                    "transposed replay refused {:?}: {e}\n{t}",
                    coords(p as Point)
                );
            }
        }
    }
    assert_eq!(t.stones(BLACK), g.stones(BLACK));
    assert_eq!(t.stones(WHITE), g.stones(WHITE));
    assert_eq!(t.side_to_move(), g.side_to_move());
    assert_eq!(t.hash(), g.hash(), "transposition changed the hash\n{g}");
    for c in [BLACK, WHITE] {
        assert_eq!(
            t.legal_mask(c),
            g.legal_mask(c),
            "transposition changed legality\n{g}"
        );
    }
    assert_eq!(t.outcome(), g.outcome());
}

#[test]
fn random_games_agree_with_the_reference_rules() {
    const GAMES: u64 = 1000;
    let keys = stone_keys();
    let policies = [
        BanPolicy::Untouched,
        BanPolicy::RefreshEveryPly,
        BanPolicy::RefreshSometimes,
        BanPolicy::BanByHand,
    ];
    let mut positions = 0usize;
    let mut terminal = [0usize; 2];
    let mut plies_total = 0usize;
    // Every distinct position seen, by key: two different positions sharing a key would be a
    // collision the search's transposition table would silently merge.
    let mut by_hash: HashMap<u64, [u128; 2]> = HashMap::new();

    for game in 0..GAMES {
        let mut rng = XorShift::new(0x5eed_0000 + game);
        // A third of the games use the centre ban, so its ply-0 handling is covered often.
        let centre_ban = game % 3 == 0;
        let policy = policies[game as usize % policies.len()];
        let mut g = Nogo::new(NogoRules { centre_ban });
        let mut r = RefBoard::new(centre_ban);
        loop {
            let ctx = format!(
                "game {game} ({policy:?}, centre_ban {centre_ban}) ply {}",
                r.ply
            );
            let legal = compare(&g, &r, &keys, &ctx);
            positions += 1;
            let stones = [g.stones(BLACK), g.stones(WHITE)];
            let prior = by_hash.entry(g.hash()).or_insert(stones);
            assert_eq!(
                *prior, stones,
                "hash collision between different positions: {ctx}"
            );
            // Transposition replays are cheap; do them on a sample to keep the run short.
            if rng.below(2) == 0 {
                check_transposition(&r, &mut rng, &g);
            }

            let me = r.to_move;
            if legal[me.index()] == 0 {
                assert_eq!(g.outcome(), Some(Outcome::Win(me.opponent())));
                terminal[me.index()] += 1;
                break;
            }

            match policy {
                BanPolicy::Untouched => {}
                BanPolicy::RefreshEveryPly => {
                    g.refresh_bans(BLACK);
                    g.refresh_bans(WHITE);
                }
                BanPolicy::RefreshSometimes => {
                    if rng.below(3) == 0 {
                        g.refresh_bans(if rng.below(2) == 0 { BLACK } else { WHITE });
                    }
                }
                BanPolicy::BanByHand => {
                    for _ in 0..4 {
                        let p = rng.below(POINTS);
                        let c = if rng.below(2) == 0 { BLACK } else { WHITE };
                        let v = r.verdict(p, c);
                        if matches!(v, Verdict::Capture | Verdict::Suicide) {
                            g.ban(c, p as Point);
                        }
                    }
                }
            }
            if !matches!(policy, BanPolicy::Untouched) {
                // The bans just added must not change any answer.
                compare(&g, &r, &keys, &format!("{ctx} after bans"));
            }

            let p = rng.pick(legal[me.index()]);
            g.try_play(p)
                .unwrap_or_else(|e| panic!("{ctx}: fast board refused {:?}: {e}\n{g}", coords(p)));
            r.play(p as usize);
            plies_total += 1;
        }
    }

    eprintln!(
        "checked {positions} positions in {GAMES} games ({plies_total} moves); \
         losses by running out of moves: black {}, white {}",
        terminal[0], terminal[1]
    );
    assert!(positions >= 3000, "only {positions} positions checked");
    assert_eq!(
        terminal[0] + terminal[1],
        GAMES as usize,
        "every game must end with no legal move"
    );
}
