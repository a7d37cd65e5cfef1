//! `stonebrain bracket` end to end: a 5-entrant field (three byes) and an 8-entrant field, with
//! external entrants as real child processes, the results JSON and the HTML report.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_stonebrain")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stonebrain-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs a bracket; returns (results JSON, HTML, terminal output).
fn run_bracket(name: &str, entrants: &str, extra: &[&str]) -> (Value, String, String) {
    let dir = temp_dir(name);
    let file = dir.join("entrants.txt");
    std::fs::write(&file, entrants).unwrap();
    let (json, html) = (dir.join("results.json"), dir.join("report.html"));
    let out = Command::new(bin())
        .args(["bracket", "--entrants"])
        .arg(&file)
        .args(["--json"])
        .arg(&json)
        .args(["--html"])
        .arg(&html)
        .args(["--tc", "60", "--seed", "7", "--concurrency", "2"])
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "bracket failed: {}{}",
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let page = std::fs::read_to_string(&html).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (results, page, stdout)
}

fn pair(series: &Value) -> (Option<String>, Option<String>) {
    (
        series["a"].as_str().map(str::to_string),
        series["b"].as_str().map(str::to_string),
    )
}

fn s(x: &str) -> Option<String> {
    Some(x.to_string())
}

#[test]
fn five_entrants_byes_for_the_top_three_seeds() {
    let entrants = format!(
        "# seed,name,protocol,command\n\
         1,alpha,botzone-keep-running,{bin} --keep-running --playouts 300 --seed 1\n\
         2,bravo,builtin,mcts:300p\n\
         3,charlie,botzone,{bin} --playouts 150 --seed 2\n\
         4,delta,builtin,random\n\
         5,echo,botzone-simple,{bin} --playouts 50 --seed 3\n",
        bin = bin()
    );
    let (r, page, stdout) = run_bracket("five", &entrants, &[]);
    let rounds = r["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 3, "8-slot bracket: three rounds");
    let first: Vec<_> = rounds[0].as_array().unwrap().iter().map(pair).collect();
    assert_eq!(
        first,
        vec![
            (s("alpha"), None),
            (s("delta"), s("echo")),
            (s("bravo"), None),
            (s("charlie"), None)
        ]
    );
    // Byes play no games; the one real first-round series plays one game.
    let games = |series: &Value| series["games"].as_array().unwrap().len();
    assert_eq!(games(&rounds[0][0]), 0);
    assert_eq!(games(&rounds[0][1]), 1);
    // Round two: alpha meets the 4/5 winner, bravo meets charlie.
    let second: Vec<_> = rounds[1].as_array().unwrap().iter().map(pair).collect();
    assert_eq!(second[0].0, s("alpha"));
    assert_eq!(
        second[0].1,
        rounds[0][1]["winner"].as_str().map(str::to_string)
    );
    assert_eq!(second[1], (s("bravo"), s("charlie")));
    // The final is best of 3 and decided.
    let fin = &rounds[2][0];
    assert_eq!(fin["best_of"], 3);
    let score = fin["score"].as_array().unwrap();
    assert!(
        score.iter().any(|w| w.as_u64() == Some(2)),
        "someone won two games: {score:?}"
    );
    assert!((2..=3).contains(&games(fin)));
    assert!(r["champion"].is_string());
    assert_eq!(r["champion"], fin["winner"]);
    // Every game has a result and a reason.
    for round in rounds {
        for series in round.as_array().unwrap() {
            for g in series["games"].as_array().unwrap() {
                assert!(["1-0", "0-1", "1/2-1/2"].contains(&g["result"].as_str().unwrap()));
                assert!(!g["reason_text"].as_str().unwrap().is_empty());
            }
        }
    }
    // The terminal shows the bracket as it goes and the champion at the end.
    assert!(stdout.contains("has a bye"), "{stdout}");
    assert!(stdout.contains("Champion:"), "{stdout}");
    // The report: three rounds, one picture per game, the champion, nothing fetched from outside.
    assert_eq!(
        page.matches("class=\"round\"").count() + page.matches("class=\"round ").count(),
        3
    );
    let total_games: usize = rounds
        .iter()
        .flat_map(|r| r.as_array().unwrap())
        .map(games)
        .sum();
    assert_eq!(page.matches("<svg").count(), total_games);
    assert!(page.contains("id=\"champion\""));
    assert!(!page.contains("http://") && !page.contains("https://"));
}

#[test]
fn eight_entrants_full_bracket_with_a_grand_final() {
    let mut entrants = String::new();
    for seed in 1..=8 {
        let line = match seed % 3 {
            0 => format!(
                "{seed},bot{seed},botzone,{} --playouts {} --seed {seed}\n",
                bin(),
                20 * seed
            ),
            1 => format!("{seed},bot{seed},builtin,mcts:{}p\n", 30 * seed),
            _ => format!("{seed},bot{seed},builtin,random\n"),
        };
        entrants.push_str(&line);
    }
    let (r, page, _) = run_bracket("eight", &entrants, &["--grand-final", "5"]);
    let rounds = r["rounds"].as_array().unwrap();
    assert_eq!(
        rounds
            .iter()
            .map(|r| r.as_array().unwrap().len())
            .collect::<Vec<_>>(),
        vec![4, 2, 1]
    );
    let first: Vec<_> = rounds[0].as_array().unwrap().iter().map(pair).collect();
    assert_eq!(
        first,
        vec![
            (s("bot1"), s("bot8")),
            (s("bot4"), s("bot5")),
            (s("bot2"), s("bot7")),
            (s("bot3"), s("bot6"))
        ]
    );
    for round in rounds {
        for series in round.as_array().unwrap() {
            assert!(
                series["winner"].is_string(),
                "every series is decided: {series}"
            );
        }
    }
    let fin = &rounds[2][0];
    assert_eq!(fin["best_of"], 5);
    assert!(fin["score"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_u64() == Some(3)));
    assert!(page.contains("id=\"champion\""));
}

#[test]
fn a_bad_entrants_file_is_explained() {
    let dir = temp_dir("bad");
    let file = dir.join("entrants.txt");
    std::fs::write(&file, "1,a,builtin,random\n3,b,builtin,random\n").unwrap();
    let out = Command::new(bin())
        .args(["bracket", "--entrants"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("seeds must be 1..2"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_command_writes_games_and_a_summary() {
    let dir = temp_dir("arena");
    let out_file = dir.join("games.jsonl");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "# two balanced starts\n4,4 4,5\n0,0 8,8\n").unwrap();
    let cmd = format!("{} --keep-running --playouts 300 --seed 9", bin());
    let out = Command::new(bin())
        .args([
            "arena",
            "--engine",
            "name=sb",
            &format!("cmd={cmd}"),
            "proto=botzone-keep-running",
        ])
        .args([
            "--engine",
            "name=rnd",
            "builtin=random",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--tc",
            "60",
        ])
        .arg("--openings")
        .arg(&openings)
        .arg("--out")
        .arg(&out_file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("W-D-L 4-0-0 for sb"), "{stdout}");
    assert!(stdout.contains("Elo difference"), "{stdout}");
    assert!(stdout.contains("likelihood of superiority"), "{stdout}");
    let lines: Vec<Value> = std::fs::read_to_string(&out_file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    // Openings are played from both sides: games 1 and 2 share opening 0, 3 and 4 opening 1.
    let mut by_opening: Vec<(u64, String)> = lines
        .iter()
        .map(|g| {
            (
                g["opening"].as_u64().unwrap(),
                g["black"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    by_opening.sort();
    assert_eq!(
        by_opening,
        vec![
            (0, "rnd".into()),
            (0, "sb".into()),
            (1, "rnd".into()),
            (1, "sb".into())
        ]
    );
    for g in &lines {
        let first = &g["moves"][0];
        assert!(first == &serde_json::json!([4, 4]) || first == &serde_json::json!([0, 0]));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_stops_a_one_sided_match_early() {
    let out = Command::new(bin())
        .args([
            "arena",
            "--engine",
            "name=strong",
            "builtin=mcts:300p",
            "--engine",
            "name=weak",
            "builtin=random",
        ])
        .args([
            "--games",
            "200",
            "--concurrency",
            "2",
            "--sprt",
            "elo0=0",
            "elo1=50",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let games: u32 = stdout
        .lines()
        .next()
        .unwrap()
        .split(": ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        games < 200,
        "the test should stop well before 200 games: {stdout}"
    );
    assert!(stdout.contains("SPRT"), "{stdout}");
    assert!(stdout.contains("H1 accepted"), "{stdout}");
}

/// Between 0 and +100 Elo, a won pair is worth ln(0.64 / 0.5) = 0.247 to the pentanomial test
/// (and a won game the same to the trinomial one), so straight wins decide after twelve pairs
/// (24 games) or twelve games: never after five, as the old normal approximation did.
#[test]
fn sprt_needs_the_wins_the_exact_test_needs() {
    let run = |model: &str| {
        let out = Command::new(bin())
            .args(["arena", "--engine", "name=strong", "builtin=mcts:300p"])
            .args(["--engine", "name=weak", "builtin=random", "--games", "200"])
            .args(["--sprt", "elo0=0", "elo1=100", model])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(out.status.success(), "{stdout}");
        stdout
    };
    let pairs = run("model=pentanomial");
    // Every game won, as 300 playouts against random always do: the first line counts them.
    assert!(pairs.contains("W-D-L 24-0-0 for strong"), "{pairs}");
    assert!(
        pairs.contains("strong vs weak: 24 games (12 pairs)"),
        "{pairs}"
    );
    assert!(pairs.contains("pairs 0-0-0-0-12"), "{pairs}");
    assert!(
        pairs.contains("pentanomial: LLR 2.96 (bounds -2.94, 2.94): H1 accepted after 12 pairs"),
        "{pairs}"
    );
    assert!(pairs.contains("logistic Elo, from 12 pairs"), "{pairs}");
    let games = run("model=trinomial");
    assert!(games.contains("W-D-L 12-0-0 for strong"), "{games}");
    assert!(
        games.contains("trinomial: LLR 2.96 (bounds -2.94, 2.94): H1 accepted after 12 games"),
        "{games}"
    );
}
