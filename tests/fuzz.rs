//! Fuzz targets in CI: a short fixed-seed campaign per target, and every saved crasher in `tests/fuzz_regressions/<target>/` replayed.
//!
//! The long campaigns (>= 1M executions per target) are `scripts/fuzz`; results in
//! docs/results-robustness.md.

use fixloop::fuzzing::{self, Campaign, TARGETS};
use std::path::PathBuf;

/// Debug builds' parser frames need more than the test thread's 2 MiB at the nesting limit.
fn on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("the campaign runner catches panics")
}

/// Runs `execs` executions of `name` with seed 1 and asserts no findings.
fn short_pass(name: &'static str, execs: u64) {
    let report = on_big_stack(move || {
        let target = fuzzing::target(name).expect("target exists");
        Campaign::new(target, 1, &[], 5).run(execs).report()
    });
    assert_eq!(report.execs, execs);
    assert_eq!(report.findings, 0, "{report}");
}

#[test]
fn parse_short_pass() {
    short_pass("parse", 300);
}

#[test]
fn interp_short_pass() {
    short_pass("interp", 200);
}

#[test]
fn formula_short_pass() {
    short_pass("formula", 1_000);
}

#[test]
fn learn_short_pass() {
    short_pass("learn", 200);
}

#[test]
fn session_short_pass() {
    short_pass("session", 300);
}

#[test]
fn repair_short_pass() {
    short_pass("repair", 10);
}

/// A few thousand executions per target, in release (`cargo test --release -- --ignored`).
#[test]
#[ignore]
fn every_target_release_pass() {
    for t in TARGETS {
        // The repair target runs about 5 executions/s in release (a whole repair each):
        // 5 000 would take over 15 minutes, so this pass keeps its short run; its
        // campaigns are in docs/results-robustness.md.
        let execs = if t.name == "repair" { 10 } else { 5_000 };
        short_pass(t.name, execs);
    }
}

#[test]
fn saved_crashers_stay_fixed() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut checked = 0;
    for t in TARGETS {
        let Ok(dir) = std::fs::read_dir(root.join(t.name)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let input = std::fs::read(&path).expect("readable regression input");
            let result = on_big_stack(move || fuzzing::check(t, &input));
            assert_eq!(result, Ok(()), "{}", path.display());
            checked += 1;
        }
    }
    assert!(
        checked > 0,
        "no regression inputs found under {}",
        root.display()
    );
}

#[test]
fn replay_seeds_reproduce_inputs() {
    for t in TARGETS {
        let seed = fuzzing::exec_seed(1, 17);
        assert_eq!(
            fuzzing::generate(t, seed, &[]),
            fuzzing::generate(t, seed, &[])
        );
    }
}
