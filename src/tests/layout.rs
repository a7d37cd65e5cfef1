//! The source layout the README promises, checked on the sources themselves: `src/engine/` is
//! one folder per game beside the shared files, and no module of `src/arena/` reaches, through
//! its imports, back to itself (the `Player` trait's file once imported every concrete player,
//! and they imported it and each other).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src/arena/`: `player`, `players::sau`, `players` for
/// `players/mod.rs`, and the empty path for `mod.rs` itself.
fn module_of(arena: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(arena).expect("a file under src/arena");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The file's code without its unit tests: a test may import what it likes.
fn without_tests(text: &str) -> &str {
    match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    }
}

/// The arena modules `text` (the code of `module`) names through `crate::arena::` or
/// `super::` paths: the longest known module each path starts with.
fn imports(text: &str, module: &[String], known: &BTreeSet<Vec<String>>) -> BTreeSet<Vec<String>> {
    let mut found = BTreeSet::new();
    let idents = |s: &str| -> Vec<String> {
        s.split("::")
            .map(|p| {
                p.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect::<String>()
            })
            .take_while(|p| !p.is_empty())
            .collect()
    };
    for (start, _) in text.match_indices("crate::arena::") {
        let path = idents(&text[start + "crate::arena::".len()..]);
        found.extend(longest_known(&[], &path, known));
    }
    for (start, _) in text.match_indices("super::") {
        // Count the whole run of `super::`, once, from its first.
        if text[..start].ends_with("super::") {
            continue;
        }
        // `super` is the module's parent (`x` for `x/y.rs` and for `x/mod.rs`'s `x::z`
        // children alike); from `src/arena/mod.rs` it leaves the arena.
        if module.is_empty() {
            continue;
        }
        let mut base: Vec<String> = module.to_vec();
        base.pop();
        let mut rest = &text[start + "super::".len()..];
        while let Some(r) = rest.strip_prefix("super::") {
            base.pop();
            rest = r;
        }
        found.extend(longest_known(&base, &idents(rest), known));
    }
    found.remove(module);
    found
}

fn longest_known(
    base: &[String],
    path: &[String],
    known: &BTreeSet<Vec<String>>,
) -> Option<Vec<String>> {
    (1..=path.len()).rev().find_map(|n| {
        let mut m = base.to_vec();
        m.extend_from_slice(&path[..n]);
        known.contains(&m).then_some(m)
    })
}

/// A cycle in `graph`, if it has one, as the modules along it.
fn find_cycle(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<String>> {
    // 0: not seen, 1: on the current path, 2: done.
    fn visit(
        m: &Vec<String>,
        graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<Vec<String>, u8>,
        path: &mut Vec<Vec<String>>,
    ) -> Option<Vec<String>> {
        state.insert(m.clone(), 1);
        path.push(m.clone());
        for next in &graph[m] {
            match state.get(next).copied().unwrap_or(0) {
                1 => {
                    let from = path.iter().position(|p| p == next).expect("on the path");
                    let mut cycle: Vec<String> =
                        path[from..].iter().map(|p| p.join("::")).collect();
                    cycle.push(next.join("::"));
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(next, graph, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(m.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in graph.keys() {
        if state.get(m).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(m, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn arena_graph(arena: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut files = Vec::new();
    rust_files(arena, &mut files);
    let known: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(arena, f)).collect();
    files
        .iter()
        .map(|f| {
            let text = fs::read_to_string(f).expect("a readable source file");
            let module = module_of(arena, f);
            let deps = imports(without_tests(&text), &module, &known);
            (module, deps)
        })
        .collect()
}

#[test]
fn the_arena_has_no_import_circle() {
    let graph = arena_graph(&root().join("src/arena"));
    let name = |m: &[&str]| m.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // The parse sees the imports it must: otherwise an empty graph would pass.
    assert!(graph[&name(&["players", "sau"])].contains(&name(&["player"])));
    assert!(graph[&name(&["players", "gtp"])].contains(&name(&["players", "common"])));
    assert!(graph[&name(&["games"])].contains(&name(&["players", "botzone"])));
    assert!(graph[&name(&["duel"])].contains(&name(&["engines"])));
    // The Player trait's file names no concrete player.
    assert!(
        graph[&name(&["player"])]
            .iter()
            .all(|m| m.first().is_none_or(|p| p != "players")),
        "player.rs imports {:?}",
        graph[&name(&["player"])]
    );
    assert_eq!(find_cycle(&graph), None);
}

#[test]
fn a_circle_is_found() {
    // The checker itself: the old shape, where the trait's file built the players.
    let m = |s: &str| vec![s.to_string()];
    let mut graph = BTreeMap::new();
    graph.insert(m("player"), BTreeSet::from([m("sau_player"), m("record")]));
    graph.insert(m("sau_player"), BTreeSet::from([m("player")]));
    graph.insert(m("record"), BTreeSet::new());
    let cycle = find_cycle(&graph).expect("a circle");
    assert_eq!(cycle.first(), cycle.last());
    assert!(cycle.contains(&"sau_player".to_string()));
    graph.get_mut(&m("sau_player")).unwrap().clear();
    assert_eq!(find_cycle(&graph), None);
}

#[test]
fn the_engines_are_one_folder_per_game() {
    let engine = root().join("src/engine");
    let mut folders = BTreeSet::new();
    let mut files = BTreeSet::new();
    for entry in fs::read_dir(&engine).expect("src/engine") {
        let path = entry.expect("a folder entry").path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            folders.insert(name);
        } else {
            files.insert(name);
        }
    }
    let games = ["connect6", "gomoku", "nogo"].map(String::from);
    assert_eq!(folders, BTreeSet::from(games));
    // Beside them only what every game shares: the Engine trait and the random player.
    assert_eq!(
        files,
        BTreeSet::from(["mod.rs", "random.rs"].map(String::from))
    );
}
