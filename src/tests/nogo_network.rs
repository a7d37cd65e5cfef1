//! The NoGo network through the real binary: a network file given with `--nogo-net` advises
//! the search, and a file that is missing, cut short or of another kind stops the bot with a
//! message naming the file and what was expected (never a panic, never play without it).
//! With the trainer's fixed tiny network (`test_vectors/nogo/network/`) this is the pipeline's
//! last step, checked without the training framework.

mod common;

use common::run_once;
use std::path::PathBuf;
use stonebrain::engine::nogo::network::weights::Weights;
use stonebrain::game::nogo::{point, Nogo, NogoRules};
use stonebrain::game::Game;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stonebrain-nogo-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

const REQUEST: &str = "{\"requests\":[{\"x\":-1,\"y\":-1}],\"responses\":[]}\n";

/// Plays Black's first move with the network file at `path`, at a fixed number of playouts
/// (enough for nodes to reach the advice's visits), and checks the answer is legal.
fn plays_a_legal_move(path: &str) {
    let args = [
        "--game",
        "nogo",
        "--nogo-net",
        path,
        "--playouts",
        "3000",
        "--net-after",
        "64",
        "--seed",
        "3",
    ];
    let (out, err, code) = run_once(&args, REQUEST);
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("a JSON answer");
    let (x, y) = (
        v["response"]["x"].as_u64().unwrap(),
        v["response"]["y"].as_u64().unwrap(),
    );
    let pos = Nogo::new(NogoRules::default());
    assert!(pos.is_legal(point(x as usize, y as usize)), "{out}");
}

#[test]
fn a_network_file_advises_the_search() {
    let path = scratch("random.sbnn");
    std::fs::write(&path, Weights::random(16, 2, 16, 4).to_bytes()).unwrap();
    plays_a_legal_move(path.to_str().unwrap());
}

#[test]
fn the_trainers_tiny_network_plays() {
    let tiny = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/test_vectors/nogo/network/tiny.sbnn"
    );
    plays_a_legal_move(tiny);
}

#[test]
fn the_built_in_network_plays() {
    plays_a_legal_move("builtin");
}

#[test]
fn a_bad_network_file_stops_the_bot_with_a_clear_message() {
    let good = Weights::random(8, 1, 8, 4).to_bytes();
    let cut = scratch("cut.sbnn");
    std::fs::write(&cut, &good[..good.len() / 2]).unwrap();
    let foreign = scratch("foreign.sbnn");
    std::fs::write(&foreign, b"{\"not\": \"a network\"}").unwrap();
    let missing = scratch("missing.sbnn");
    for (path, words) in [
        (&cut, "truncated"),
        (&foreign, "not a stonebrain NoGo network"),
        (&missing, "No such file"),
    ] {
        let p = path.to_str().unwrap();
        let (out, err, code) = run_once(&["--game", "nogo", "--nogo-net", p], REQUEST);
        assert_eq!(code, Some(2), "{p}: {err}");
        assert!(out.is_empty(), "no move without the network: {out}");
        assert!(err.contains(p) && err.contains(words), "{p}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
