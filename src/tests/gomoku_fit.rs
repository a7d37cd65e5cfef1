//! `stonebrain-fit` through its real binary: positions from an arena record, labels from a
//! Gomocup engine (a small shell script standing in for Rapfi, which tests never need), and the
//! fit's refusal of too few samples. The fitting itself is tested in `engine::gomoku::fit`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fit_bin() -> &'static str {
    env!("CARGO_BIN_EXE_stonebrain-fit")
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stonebrain-fit-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(fit_bin()).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Three games as the arena records them: Black's five along row 7 (a quiet start, then a
/// four), the same opening reached in another order, and a 19x19 game, which is skipped.
const GAMES: &str = r#"{"board_size":15,"moves":[[7,7],[0,0],[8,7],[0,2],[9,7],[0,4],[10,7],[0,6],[11,7]]}
{"board_size":15,"moves":[[8,7],[0,2],[7,7],[0,0],[9,8],[3,9]]}
{"board_size":19,"moves":[[9,9],[0,0],[10,9],[0,2],[11,9],[0,4]]}
"#;

#[test]
fn positions_are_the_quiet_ones_each_once() {
    let dir = scratch("positions");
    let games = dir.join("games.jsonl");
    std::fs::write(&games, GAMES).unwrap();
    let out = dir.join("positions.txt");
    let (ok, _, err) = run(&["positions", "--out", path(&out), path(&games)]);
    assert!(ok, "{err}");
    let mut got: Vec<String> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    got.sort();
    // Plies 4 to 6 of the first game (from ply 7 Black has a five to make; the last is the
    // end), and ply 5 of the second: its ply 4 is the first game's in another order.
    assert_eq!(
        got,
        vec![
            "7,7 0,0 8,7 0,2",
            "7,7 0,0 8,7 0,2 9,7",
            "7,7 0,0 8,7 0,2 9,7 0,4",
            "8,7 0,2 7,7 0,0 9,8",
        ],
        "{err}"
    );
    assert!(err.contains("4 quiet positions"), "{err}");
    let (ok, _, err) = run(&[
        "positions",
        "--out",
        path(&out),
        path(&dir.join("none.jsonl")),
    ]);
    assert!(!ok && err.contains("none.jsonl"), "{err}");
}

#[cfg(unix)]
#[test]
fn an_engine_labels_positions_and_too_few_are_not_fitted() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("label");
    let engine = dir.join("engine.sh");
    // Answers every board with an evaluation of 12 times its stone count, then a move.
    std::fs::write(
        &engine,
        "#!/bin/sh\nn=0\nwhile read -r line; do\n  case \"$line\" in\n    START*) echo OK ;;\n    \
         BOARD*) n=0 ;;\n    DONE*) echo \"MESSAGE Depth 3 | Eval $((n * 12)) | Node 9\"; echo 7,8 ;;\n    \
         END*) exit 0 ;;\n    *,*) n=$((n + 1)) ;;\n  esac\ndone\n",
    )
    .unwrap();
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let positions = dir.join("positions.txt");
    std::fs::write(&positions, "7,7 0,0 8,7 0,2\n7,7 0,0 8,7 0,2 9,7\n").unwrap();
    let labels = dir.join("labels.txt");
    let (ok, _, err) = run(&[
        "label",
        "--engine",
        path(&engine),
        "--workers",
        "2",
        path(&positions),
        path(&labels),
    ]);
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read_to_string(&labels).unwrap(),
        "7,7 0,0 8,7 0,2\t48\t7,8\n7,7 0,0 8,7 0,2 9,7\t60\t7,8\n"
    );
    let (ok, _, err) = run(&["fit", path(&labels)]);
    assert!(!ok && err.contains("too few"), "{err}");
    // A position that is not a game is named, not a panic.
    std::fs::write(&positions, "7,7 7,7\n").unwrap();
    let (ok, _, err) = run(&[
        "label",
        "--engine",
        path(&engine),
        path(&positions),
        path(&labels),
    ]);
    assert!(!ok && err.contains("position 1"), "{err}");
}
