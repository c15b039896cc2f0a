//! `fixloop eval --shard I/N` and `fixloop eval merge`: the deterministic slices of a corpus, the partial report a slice writes, and the checks before parts are joined.
//!
//! Every shard reads every selected subject file, estimates each subject's cost (the
//! slowest train run, the estimate the evaluator orders subjects by, capped at
//! [`COST_FUEL`] steps) and deals the
//! subjects, costliest first, to the shards in a snake order (1, 2, .., N, N, .., 1, ..):
//! each shard gets as many subjects as any other, give or take one, and an even share of
//! the heavy ones. Every shard computes the same dealing from the same corpus and
//! settings, so the parts of one evaluation never overlap and together cover it.

use crate::eval_setup::{parallel_map, EvalArgs, ShardSpec};
use fixloop::active::eval::slowest_train_steps;
use fixloop::corpus::Subject;
use fixloop::lang::Limits;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The `format` of a partial report.
pub const FORMAT: &str = "fixloop-eval-partial";
/// The partial report version this build writes and reads.
pub const VERSION: u32 = 1;

/// The shard (1-based) of every subject, from their costs in file order: costliest
/// first (ties in file order), dealt to shards 1..=n and back n..=1, and so on.
pub fn deal(costs: &[u64], n: usize) -> Vec<usize> {
    let n = n.max(1);
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(costs[i]), i));
    let mut shard = vec![0; costs.len()];
    for (k, &i) in order.iter().enumerate() {
        let (round, pos) = (k / n, k % n);
        shard[i] = 1 + if round % 2 == 0 { pos } else { n - 1 - pos };
    }
    shard
}

/// Fuel of one run of the cost estimate: a subject whose train runs take longer ties
/// with the others that do, in file order. Every shard estimates every subject, so the
/// estimate must stay cheap (uncapped, at the evaluation's fuel of 10^7, it cost each
/// Codeflaws shard more than a minute of CPU).
pub const COST_FUEL: u64 = 1_000_000;

/// The cost estimate of a subject file under `limits`:
/// [`fixloop::active::eval::slowest_train_steps`], the estimate the evaluator orders
/// subjects by, with at most [`COST_FUEL`] steps per run; 0 when the file cannot be read.
pub fn cost_of(path: &Path, limits: &Limits) -> u64 {
    let limits = Limits {
        fuel: limits.fuel.min(COST_FUEL),
        ..limits.clone()
    };
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| Subject::from_json(&t).ok())
        .map_or(0, |s| slowest_train_steps(&s, &limits))
}

/// What a part says about the build, settings and corpus it came from: the parts of
/// one evaluation agree on all of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// `oracle` or `repair`.
    pub kind: String,
    /// Version and a fingerprint of the executable.
    pub build: String,
    /// Every setting that can change a result (the command line without --shard,
    /// --threads, --json, --csv and --no-timing).
    pub settings: serde_json::Value,
    /// Selected subject files.
    pub files: usize,
    /// A fingerprint of their names (relative to the folder) and contents.
    pub corpus: String,
    /// The shard of every selected file, in file order.
    pub assignment: Vec<usize>,
    /// Number of shards.
    pub shards: usize,
}

/// One shard's results, with everything `eval merge` needs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Partial<R> {
    /// [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// Which evaluation this part is of.
    pub provenance: Provenance,
    /// This part's shard, 1-based.
    pub shard: usize,
    /// Worker threads the shard ran on.
    pub threads: usize,
    /// The shard's wall time in seconds (a clock reading: left out of --no-timing reports).
    pub wall_s: f64,
    /// The results of the shard's subjects: (index in file order, result).
    pub results: Vec<(usize, R)>,
}

/// The settings of `args` that can change a result, as JSON.
pub fn settings(args: &EvalArgs) -> serde_json::Value {
    let mut v = serde_json::to_value(args).unwrap_or_default();
    if let Some(m) = v.as_object_mut() {
        for k in ["shard", "threads", "json", "csv", "no_timing"] {
            m.remove(k);
        }
    }
    v
}

/// The version and an FNV-1a fingerprint of the running executable.
pub fn build_id() -> String {
    let exe = std::env::current_exe()
        .and_then(std::fs::read)
        .map(|b| format!("{:016x}", fixloop::fingerprint::fnv1a64(&b)))
        .unwrap_or_else(|_| "unknown".into());
    format!("fixloop {} {exe}", env!("CARGO_PKG_VERSION"))
}

/// A fingerprint of `files` (names relative to `dir`, and contents); unreadable files
/// count by name.
pub fn corpus_id(dir: &Path, files: &[PathBuf]) -> String {
    let mut parts: Vec<Vec<u8>> = Vec::new();
    for f in files {
        let name = f.strip_prefix(dir).unwrap_or(f);
        parts.push(name.to_string_lossy().into_owned().into_bytes());
        parts.push(std::fs::read(f).unwrap_or_default());
    }
    format!(
        "{:016x}",
        fixloop::fingerprint::of_parts(parts.iter().map(Vec::as_slice))
    )
}

/// The provenance of a shard of `kind` over `files` with `assignment`.
fn provenance(
    kind: &str,
    args: &EvalArgs,
    files: &[PathBuf],
    assignment: Vec<usize>,
    shards: usize,
) -> Provenance {
    Provenance {
        kind: kind.into(),
        build: build_id(),
        settings: settings(args),
        files: files.len(),
        corpus: corpus_id(&args.dir, files),
        assignment,
        shards,
    }
}

/// Why parts cannot be merged.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum MergeError {
    /// No part given.
    #[error("no parts to merge")]
    NoParts,
    /// A file is not a partial report.
    #[error("{0}: not a partial report of `fixloop eval --shard` ({1})")]
    NotAPart(String, String),
    /// Parts of different kinds (oracle / repair).
    #[error("{0} is a partial {1} evaluation, {2} a partial {3} evaluation")]
    Kind(String, String, String, String),
    /// Parts from different builds.
    #[error(
        "{0} and {1} come from different builds ({2}; {3}): run every shard with the same binary"
    )]
    Build(String, String, String, String),
    /// Parts with different settings.
    #[error("{0} and {1} ran with different settings: {2}")]
    Settings(String, String, String),
    /// Parts over different corpora.
    #[error("{0} and {1} ran on different corpora ({2})")]
    Corpus(String, String, String),
    /// Parts that split the corpus into different numbers of shards.
    #[error("{0} is one of {1} shards, {2} one of {3}")]
    ShardCount(String, usize, String, usize),
    /// The same shard twice.
    #[error("shard {0} is given twice ({1} and {2}): the parts overlap")]
    Overlap(String, String, String),
    /// Shards missing.
    #[error("missing shard(s) {0} of {1}")]
    Missing(String, usize),
    /// A part whose results are not its shard's subjects.
    #[error("{0} does not hold exactly the subjects of its shard {1}")]
    Subjects(String, String),
}

/// The names of the settings that differ between `a` and `b`, with both values.
fn settings_diff(a: &serde_json::Value, b: &serde_json::Value) -> String {
    let empty = serde_json::Map::new();
    let (am, bm) = (
        a.as_object().unwrap_or(&empty),
        b.as_object().unwrap_or(&empty),
    );
    let mut keys: Vec<&String> = am.keys().chain(bm.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| am.get(*k) != bm.get(*k))
        .map(|k| {
            let show = |v: Option<&serde_json::Value>| v.map_or("unset".into(), |v| v.to_string());
            format!("{k} {} vs {}", show(am.get(k)), show(bm.get(k)))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `kind` of a part's JSON text, or why it is not a part.
pub fn kind_of(name: &str, text: &str) -> Result<String, MergeError> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| MergeError::NotAPart(name.into(), e.to_string()))?;
    if v.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(MergeError::NotAPart(
            name.into(),
            "no partial-report format".into(),
        ));
    }
    if v.get("version").and_then(|f| f.as_u64()) != Some(u64::from(VERSION)) {
        return Err(MergeError::NotAPart(
            name.into(),
            format!("version {} (this build reads {VERSION})", v["version"]),
        ));
    }
    v.pointer("/provenance/kind")
        .and_then(|k| k.as_str())
        .map(str::to_string)
        .ok_or_else(|| MergeError::NotAPart(name.into(), "no kind".into()))
}

/// Parts checked to be one evaluation, complete and without overlap: the results of
/// every subject in file order, the provenance, the parts' most threads and longest wall.
pub struct Joined<R> {
    /// The evaluation's provenance (as every part has it).
    pub provenance: Provenance,
    /// Every subject's result in file order.
    pub results: Vec<R>,
    /// The most threads a shard ran on.
    pub threads: usize,
    /// The longest shard wall time (s).
    pub wall_s: f64,
}

/// Parses and checks `parts` (name, JSON text) and joins their results.
pub fn join<R: DeserializeOwned>(parts: &[(String, String)]) -> Result<Joined<R>, MergeError> {
    let mut parsed: Vec<(String, Partial<R>)> = Vec::new();
    let mut first_kind: Option<(&str, String)> = None;
    for (name, text) in parts {
        let kind = kind_of(name, text)?;
        match &first_kind {
            Some((first, k)) if *k != kind => {
                return Err(MergeError::Kind(
                    first.to_string(),
                    k.clone(),
                    name.clone(),
                    kind,
                ))
            }
            Some(_) => {}
            None => first_kind = Some((name, kind)),
        }
        let p: Partial<R> = serde_json::from_str(text)
            .map_err(|e| MergeError::NotAPart(name.clone(), e.to_string()))?;
        parsed.push((name.clone(), p));
    }
    let Some((first_name, first)) = parsed.first() else {
        return Err(MergeError::NoParts);
    };
    let a = &first.provenance;
    for (name, p) in &parsed[1..] {
        let b = &p.provenance;
        let pair = || (first_name.clone(), name.clone());
        if a.build != b.build {
            let (x, y) = pair();
            return Err(MergeError::Build(x, y, a.build.clone(), b.build.clone()));
        }
        if a.settings != b.settings {
            let (x, y) = pair();
            return Err(MergeError::Settings(
                x,
                y,
                settings_diff(&a.settings, &b.settings),
            ));
        }
        if a.corpus != b.corpus || a.files != b.files {
            let (x, y) = pair();
            return Err(MergeError::Corpus(
                x,
                y,
                format!(
                    "{} files, fingerprint {} vs {} files, fingerprint {}",
                    a.files, a.corpus, b.files, b.corpus
                ),
            ));
        }
        if a.shards != b.shards {
            let (x, y) = pair();
            return Err(MergeError::ShardCount(x, a.shards, y, b.shards));
        }
        if a.assignment != b.assignment {
            let (x, y) = pair();
            return Err(MergeError::Corpus(
                x,
                y,
                "different dealing of subjects".into(),
            ));
        }
    }
    let n = a.shards;
    let mut seen: Vec<Option<&str>> = vec![None; n + 1];
    for (name, p) in &parsed {
        let shard = format!("{}/{n}", p.shard);
        match seen.get(p.shard) {
            None => return Err(MergeError::Subjects(name.clone(), shard)),
            Some(Some(other)) => {
                return Err(MergeError::Overlap(shard, other.to_string(), name.clone()))
            }
            Some(None) => seen[p.shard] = Some(name),
        }
        let mut want: Vec<usize> = (0..a.files)
            .filter(|&i| a.assignment[i] == p.shard)
            .collect();
        let mut got: Vec<usize> = p.results.iter().map(|(i, _)| *i).collect();
        want.sort_unstable();
        got.sort_unstable();
        if want != got {
            return Err(MergeError::Subjects(name.clone(), shard));
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|&s| seen[s].is_none())
        .map(|s| s.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing(missing.join(", "), n));
    }
    let provenance = a.clone();
    let threads = parsed.iter().map(|(_, p)| p.threads).max().unwrap_or(1);
    let wall_s = parsed.iter().map(|(_, p)| p.wall_s).fold(0.0, f64::max);
    let mut indexed: Vec<(usize, R)> = parsed.into_iter().flat_map(|(_, p)| p.results).collect();
    indexed.sort_by_key(|(i, _)| *i);
    Ok(Joined {
        provenance,
        results: indexed.into_iter().map(|(_, r)| r).collect(),
        threads,
        wall_s,
    })
}

/// The partial report of `spec`'s shard as pretty JSON.
fn partial_json<R: Serialize>(
    provenance: Provenance,
    spec: ShardSpec,
    threads: usize,
    wall_s: f64,
    results: Vec<(usize, R)>,
) -> String {
    let p = Partial {
        format: FORMAT.into(),
        version: VERSION,
        provenance,
        shard: spec.index,
        threads,
        wall_s,
        results,
    };
    serde_json::to_string_pretty(&p).unwrap_or_default()
}

/// A shard's plan: its subjects (indices into `files`, ascending) and the provenance its
/// partial report carries.
pub struct Plan {
    /// The shard.
    pub spec: ShardSpec,
    /// Its subjects.
    pub own: Vec<usize>,
    /// What its partial report says it is part of.
    pub provenance: Provenance,
}

/// Deals `files` (costs under `limits`, on `threads`) and plans `spec`'s shard of a
/// `kind` evaluation.
pub fn plan(
    kind: &str,
    args: &EvalArgs,
    files: &[PathBuf],
    spec: ShardSpec,
    limits: &Limits,
    threads: usize,
) -> Plan {
    let costs = parallel_map(files.len(), threads, |i| cost_of(&files[i], limits));
    let assignment = deal(&costs, spec.count);
    let own = (0..files.len())
        .filter(|&i| assignment[i] == spec.index)
        .collect();
    Plan {
        spec,
        own,
        provenance: provenance(kind, args, files, assignment, spec.count),
    }
}

impl Plan {
    /// Prints the partial report: `results` of the shard's subjects (in `own`'s order),
    /// the threads and the wall time since `started`.
    pub fn print<R: Serialize>(self, results: Vec<R>, threads: usize, started: Instant) {
        let wall_s = started.elapsed().as_secs_f64();
        let results = self.own.into_iter().zip(results).collect();
        println!(
            "{}",
            partial_json(self.provenance, self.spec, threads, wall_s, results)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_numbers_count_from_one() {
        assert_eq!("2/8".parse(), Ok(ShardSpec { index: 2, count: 8 }));
        for bad in ["0/3", "4/3", "1/0", "x/3", "3", "-1/3"] {
            assert!(bad.parse::<ShardSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn dealing_is_a_snake_over_the_costliest_first() {
        // Costs in file order; the order by cost is 1, 4, 0, 2, 3, 5 (ties in file order).
        let costs = [5, 100, 5, 5, 7, 1];
        assert_eq!(deal(&costs, 2), vec![2, 1, 1, 1, 2, 2]);
        assert_eq!(deal(&costs, 1), vec![1; 6]);
        let shards = deal(&costs, 4);
        for s in 1..=4 {
            let n = shards.iter().filter(|&&x| x == s).count();
            assert!((1..=2).contains(&n), "{shards:?}");
        }
        // More shards than subjects: some get none.
        assert_eq!(deal(&[3, 2], 3), vec![1, 2]);
    }

    fn part(shard: usize, assignment: &[usize], settings: serde_json::Value) -> (String, String) {
        let files = assignment.len();
        let provenance = Provenance {
            kind: "oracle".into(),
            build: "b".into(),
            settings,
            files,
            corpus: "c".into(),
            assignment: assignment.to_vec(),
            shards: assignment.iter().copied().max().unwrap_or(1),
        };
        let results: Vec<(usize, String)> = (0..files)
            .filter(|&i| assignment[i] == shard)
            .map(|i| (i, format!("r{i}")))
            .collect();
        let spec = ShardSpec {
            index: shard,
            count: provenance.shards,
        };
        (
            format!("part{shard}.json"),
            partial_json(provenance, spec, 2, shard as f64, results),
        )
    }

    #[test]
    fn complete_parts_join_in_file_order() {
        let a = [2, 1, 1, 2, 3];
        let s = serde_json::json!({"labels": [20]});
        let parts = [
            part(3, &a, s.clone()),
            part(1, &a, s.clone()),
            part(2, &a, s),
        ];
        let j = join::<String>(&parts).expect("joins");
        assert_eq!(j.results, ["r0", "r1", "r2", "r3", "r4"]);
        assert_eq!((j.threads, j.wall_s), (2, 3.0));
    }

    #[test]
    fn mismatched_overlapping_or_missing_parts_are_refused() {
        let a = [2, 1, 1, 2];
        let s = serde_json::json!({"labels": [20], "seed": 0});
        let ok = |k| part(k, &a, s.clone());
        let err = |parts: &[(String, String)]| join::<String>(parts).err().map(|e| e.to_string());
        assert_eq!(err(&[ok(1)]), Some("missing shard(s) 2 of 2".to_string()));
        assert!(matches!(
            join::<String>(&[ok(1), ok(1)]),
            Err(MergeError::Overlap(..))
        ));
        let other = part(2, &a, serde_json::json!({"labels": [10], "seed": 0}));
        assert_eq!(
            err(&[ok(1), other]),
            Some(
                "part1.json and part2.json ran with different settings: labels [20] vs [10]".into()
            )
        );
        let mut foreign = ok(2);
        foreign.1 = foreign.1.replace("\"corpus\": \"c\"", "\"corpus\": \"d\"");
        assert!(matches!(
            join::<String>(&[ok(1), foreign]),
            Err(MergeError::Corpus(..))
        ));
        let mut rebuilt = ok(2);
        rebuilt.1 = rebuilt.1.replace("\"build\": \"b\"", "\"build\": \"b2\"");
        assert!(matches!(
            join::<String>(&[ok(1), rebuilt]),
            Err(MergeError::Build(..))
        ));
        let three = part(3, &[2, 1, 3, 2], s.clone());
        assert!(matches!(
            join::<String>(&[ok(1), three]),
            Err(MergeError::ShardCount(..))
        ));
        let mut short = ok(2);
        let mut v: serde_json::Value = serde_json::from_str(&short.1).expect("json");
        v["results"].as_array_mut().expect("results").pop();
        short.1 = v.to_string();
        assert!(matches!(
            join::<String>(&[ok(1), short]),
            Err(MergeError::Subjects(..))
        ));
        assert!(matches!(
            join::<String>(&[("x".into(), "{}".into())]),
            Err(MergeError::NotAPart(..))
        ));
        assert_eq!(join::<String>(&[]).err(), Some(MergeError::NoParts));
    }
}
