//! The fuzzer inside `make test`: a short deterministic slice of every target (fixed seed, a
//! thousand inputs per unit of each target's weight), and every input the fuzzer ever found
//! failing, from `test_vectors/fuzz/<target>/`, replayed to check the bot now answers it
//! correctly. `make fuzz` is the long run.

use std::path::Path;
use std::time::{Duration, Instant};
use stonebrain::fuzz::runner::{self, Settings};
use stonebrain::fuzz::{all_targets, target};

/// Inputs per unit of weight: every target gets at least this many.
const PER_WEIGHT: u64 = 1000;

#[test]
fn a_slice_of_every_target_passes() {
    let targets = all_targets();
    let round: u64 = targets.iter().map(|t| u64::from(t.weight)).sum();
    let settings = Settings {
        seed: 16,
        inputs: Some(round * PER_WEIGHT),
        seconds: None,
        targets: targets.clone(),
        workers: 2,
        // Generous: test builds may run next to other tests; a real hang runs forever.
        hang_after: Duration::from_secs(20),
        failure_dir: std::env::temp_dir().join("stonebrain-fuzz-slice"),
        progress: false,
    };
    let started = Instant::now();
    let report = runner::run(&settings);
    println!("{}", report.text());
    assert!(report.failures.is_empty(), "{}", report.text());
    for (t, count) in targets.iter().zip(&report.counts) {
        assert_eq!(count.target, t.name);
        assert_eq!(
            count.inputs,
            u64::from(t.weight) * PER_WEIGHT,
            "{} ran {} inputs",
            t.name,
            count.inputs
        );
    }
    assert_eq!(report.total(), round * PER_WEIGHT);
    println!("slice: {:.1} s", started.elapsed().as_secs_f64());
}

#[test]
fn every_failure_the_fuzzer_found_is_answered_now() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_vectors/fuzz");
    let mut replayed = 0;
    for folder in std::fs::read_dir(&dir).expect("test_vectors/fuzz") {
        let folder = folder.expect("a folder entry").path();
        let name = folder.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let t = target(name).unwrap_or_else(|| panic!("{name}: no fuzz target of that name"));
        for file in std::fs::read_dir(&folder).expect("a target's folder") {
            let file = file.expect("a file entry").path();
            let input = std::fs::read(&file).expect("a saved input");
            if let Err((kind, message)) = runner::replay(t, &input) {
                panic!("{}: {kind:?}: {message}", file.display());
            }
            replayed += 1;
        }
    }
    assert!(replayed > 0, "no saved failures under {}", dir.display());
}
