//! `fixloop eval --shard I/N` and `eval merge`: a small corpus evaluated whole and as three
//! shards in parallel processes gives byte-for-byte the same report (oracle evaluation:
//! JSON and CSV; `--repair --tests train`: the table), and merge refuses incomplete or
//! mismatched parts. The subjects are copied from `../shared/benchmarks` (or
//! `$FIXLOOP_BENCHMARKS`); the test skips with a message when it is absent.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_fixloop");

/// The single run's bytes and the merged bytes.
type Pair = (Vec<u8>, Vec<u8>);

/// Six cheap subjects (five IntroClass, one Codeflaws) in a fresh folder, or `None`.
fn small_corpus(name: &str) -> Option<PathBuf> {
    let root = std::env::var_os("FIXLOOP_BENCHMARKS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks"));
    if !root.is_dir() {
        eprintln!("{} not found: skipping the shard test", root.display());
        return None;
    }
    let dir = std::env::temp_dir().join(format!("fixloop-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(dir.with_extension("out"));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // Three of them have a plausible patch with their train tests.
    let picked = [
        "introclass/introclass-digits-070455301c2e-000.json",
        "introclass/introclass-digits-cd2d9b5b5cff-003.json",
        "introclass/introclass-grade-bfad6d21d636-001.json",
        "introclass/introclass-median-2c1556672751-000.json",
        "introclass/introclass-smallest-88394fc00b70-007.json",
        "codeflaws/495-A-bug-12401275-12401288.json",
    ]
    .map(|p| root.join(p));
    for p in picked {
        std::fs::copy(&p, dir.join(p.file_name().expect("name"))).expect("copy subject");
    }
    Some(dir)
}

/// Where the reports of the evaluations of `dir` go (beside it: not a subject file).
fn out_dir(dir: &Path) -> PathBuf {
    let out = dir.with_extension("out");
    std::fs::create_dir_all(&out).expect("output dir");
    out
}

fn fixloop(args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args);
    c
}

fn ok(out: Output, what: &str) -> Vec<u8> {
    assert!(
        out.status.success(),
        "{what}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Runs `settings` over `dir` whole and as three concurrent shards, merges; `output`
/// (e.g. `--json --no-timing`) goes to the single run and the merge, and returns (single stdout, merged stdout); with `csv`, also
/// the two CSV files' bytes.
fn whole_and_sharded(
    dir: &Path,
    settings: &[&str],
    output: &[&str],
    csv: bool,
) -> (Pair, Option<Pair>) {
    let d = dir.to_str().expect("utf-8 path");
    let work = out_dir(dir);
    let single_csv = work.join("single.csv");
    let merged_csv = work.join("merged.csv");
    let mut single_args: Vec<&str> = vec!["eval", d];
    single_args.extend(settings);
    single_args.extend(output);
    let sc = single_csv.to_str().expect("path");
    if csv {
        single_args.extend(["--csv", sc]);
    }
    let single = ok(fixloop(&single_args).output().expect("run"), "single run");
    let specs = ["1/3", "2/3", "3/3"];
    let children: Vec<_> = specs
        .iter()
        .map(|spec| {
            let mut a: Vec<&str> = vec!["eval", d];
            a.extend(settings);
            a.extend(["--shard", spec]);
            fixloop(&a).output_async()
        })
        .collect();
    let mut parts = Vec::new();
    for (k, child) in children.into_iter().enumerate() {
        let out = ok(child.wait_with_output().expect("shard"), specs[k]);
        let path = work.join(format!("part{}.json", k + 1));
        std::fs::write(&path, out).expect("write part");
        parts.push(path);
    }
    let mut merge_args: Vec<String> = vec!["eval".into(), "merge".into()];
    // Any order of parts.
    merge_args.extend(parts.iter().rev().map(|p| p.display().to_string()));
    merge_args.extend(output.iter().map(|s| s.to_string()));
    if csv {
        merge_args.extend(["--csv".into(), merged_csv.display().to_string()]);
    }
    let merged = ok(
        Command::new(BIN).args(&merge_args).output().expect("merge"),
        "merge",
    );
    let csvs = csv.then(|| {
        (
            std::fs::read(&single_csv).expect("single csv"),
            std::fs::read(&merged_csv).expect("merged csv"),
        )
    });
    ((single, merged), csvs)
}

/// Spawning with piped output, so the three shards run at the same time.
trait Spawn {
    fn output_async(&mut self) -> std::process::Child;
}

impl Spawn for Command {
    fn output_async(&mut self) -> std::process::Child {
        self.stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn")
    }
}

#[test]
fn merged_shards_print_exactly_the_single_runs_report() {
    let Some(dir) = small_corpus("shards") else {
        return;
    };
    let settings = ["--labels", "3,6", "--committee", "4", "--threads", "1"];
    let output = ["--json", "--no-timing"];
    let ((single, merged), csv) = whole_and_sharded(&dir, &settings, &output, true);
    let text = String::from_utf8_lossy(&single);
    assert!(text.contains("\"evaluated\": 6"), "{text}");
    assert!(!text.contains("time_s"), "{text}");
    assert_eq!(text, String::from_utf8_lossy(&merged));
    let (single_csv, merged_csv) = csv.expect("csv");
    assert_eq!(
        single_csv.iter().filter(|&&b| b == b'\n').count(),
        1 + 6 * 2
    );
    assert_eq!(
        String::from_utf8_lossy(&single_csv),
        String::from_utf8_lossy(&merged_csv)
    );

    // Repair with the train tests, bounded by counts only (no CPU-time bound).
    let settings = [
        "--repair",
        "--tests",
        "train",
        "--repair-timeout-ms",
        "0",
        "--threads",
        "1",
    ];
    let ((single, merged), _) = whole_and_sharded(&dir, &settings, &["--no-timing"], false);
    let text = String::from_utf8_lossy(&single);
    assert!(text.starts_with("6 subjects"), "{text}");
    assert!(text.contains("repairability 0.500 (3/6)"), "{text}");
    assert_eq!(text, String::from_utf8_lossy(&merged));

    // Two of three shards: refused, naming the missing one.
    let parts: Vec<String> = (1..=2)
        .map(|k| {
            out_dir(&dir)
                .join(format!("part{k}.json"))
                .display()
                .to_string()
        })
        .collect();
    let out = Command::new(BIN)
        .args(["eval", "merge"])
        .args(&parts)
        .output()
        .expect("merge");
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: missing shard(s) 3 of 3"
    );
    // A shard of another evaluation (other label budgets) is refused.
    let d = dir.to_str().expect("path");
    let other = ok(
        fixloop(&[
            "eval",
            d,
            "--repair",
            "--tests",
            "train",
            "--repair-timeout-ms",
            "1",
            "--threads",
            "1",
            "--no-timing",
            "--shard",
            "3/3",
        ])
        .output()
        .expect("run"),
        "other shard",
    );
    let other_path = out_dir(&dir).join("other.json");
    std::fs::write(&other_path, other).expect("write");
    let out = Command::new(BIN)
        .args(["eval", "merge"])
        .args(&parts)
        .arg(&other_path)
        .output()
        .expect("merge");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("ran with different settings: repair_timeout_ms 0 vs 1"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(out_dir(&dir));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_repair_evaluation_counts_every_phase_of_a_subjects_cpu() {
    let Some(dir) = small_corpus("phases") else {
        return;
    };
    let d = dir.to_str().expect("utf-8 path");
    let out = fixloop(&[
        "eval",
        d,
        "--repair",
        "--tests",
        "labels",
        "--labels",
        "4",
        "--questions",
        "0,2",
        "--threads",
        "1",
        "--json",
    ])
    .output()
    .expect("runs");
    let report: serde_json::Value =
        serde_json::from_slice(&ok(out, "eval --repair --json")).expect("JSON");
    let rows = report["per_subject"].as_array().expect("rows");
    assert!(!rows.is_empty());
    let mut total = 0.0;
    for r in rows {
        let (bounded, all) = (r["cpu_ms"].as_f64(), r["all_phases_cpu_ms"].as_f64());
        let (Some(bounded), Some(all)) = (bounded, all) else {
            panic!("no CPU columns: {r}");
        };
        // Labelling and the held-out measurement come on top of the bounded searches.
        assert!(all > bounded && all > 0.0, "{r}");
        total += all / 1e3;
    }
    let summed = report["all_phases_cpu_s_total"].as_f64().expect("total");
    assert!((summed - total).abs() < 1e-6, "{summed} vs {total}");
    let most = report["all_phases_cpu_s_max"].as_f64().expect("max");
    assert!(rows
        .iter()
        .any(|r| (r["all_phases_cpu_ms"].as_f64().unwrap_or(0.0) / 1e3 - most).abs() < 1e-9));
    let _ = std::fs::remove_dir_all(&dir);
}
