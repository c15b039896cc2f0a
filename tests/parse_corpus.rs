//! Parses every buggy and golden program of the benchmark corpus: no errors except `unsupported:` ones.

use std::path::PathBuf;

use fixloop::lang::parse;

/// `../shared/benchmarks` beside the repository checkout (or `$FIXLOOP_BENCHMARKS`;
/// git worktrees one level deeper find `../../shared/benchmarks`).
fn corpus_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("FIXLOOP_BENCHMARKS") {
        return PathBuf::from(dir);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let beside = root.join("../shared/benchmarks");
    let worktree = root.join("../../shared/benchmarks");
    if !beside.is_dir() && worktree.is_dir() {
        worktree
    } else {
        beside
    }
}

/// Every `(name, source)` program in the corpus (buggy and golden of each subject).
fn programs() -> Option<Vec<(String, String)>> {
    let dir = corpus_dir();
    if !dir.is_dir() {
        return None;
    }
    let mut out = Vec::new();
    for bench in ["codeflaws", "introclass"] {
        let Ok(entries) = std::fs::read_dir(dir.join(bench)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if !name.ends_with(".json") || name == "manifest.json" {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable subject file");
            let json: serde_json::Value = serde_json::from_str(&text).expect("valid subject JSON");
            for version in ["buggy", "golden"] {
                if let Some(src) = json.get(version).and_then(|v| v.as_str()) {
                    out.push((format!("{bench}/{name}:{version}"), src.to_string()));
                }
            }
        }
    }
    Some(out)
}

#[test]
fn corpus_parses_without_errors() {
    let Some(programs) = programs() else {
        eprintln!("skipping: corpus not found at {}", corpus_dir().display());
        return;
    };
    assert!(
        programs.len() >= 1000,
        "expected the whole corpus, found {} programs",
        programs.len()
    );
    let mut failures = Vec::new();
    let mut unsupported = Vec::new();
    for (name, src) in &programs {
        let (tu, diags) = parse(src);
        assert!(!tu.items.is_empty(), "{name}: no items");
        let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
        let real: Vec<_> = errors.iter().filter(|d| !d.is_unsupported()).collect();
        if !real.is_empty() {
            failures.push(format!(
                "{name}:\n    {}",
                real.iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join("\n    ")
            ));
        } else if !errors.is_empty() {
            let mut reasons: Vec<String> = errors.iter().map(|d| d.message.clone()).collect();
            reasons.dedup();
            unsupported.push(format!("{name}: {}", reasons.join("; ")));
        }
    }
    eprintln!(
        "parsed {} programs; {} unsupported:",
        programs.len(),
        unsupported.len()
    );
    for u in &unsupported {
        eprintln!("  {u}");
    }
    assert!(
        failures.is_empty(),
        "{} programs with parse errors:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        unsupported.len() * 100 <= programs.len(),
        "too many unsupported programs: {} of {}",
        unsupported.len(),
        programs.len()
    );
}

#[test]
fn corpus_prints_back_to_a_fixpoint() {
    let Some(programs) = programs() else {
        eprintln!("skipping: corpus not found at {}", corpus_dir().display());
        return;
    };
    let dump = std::env::var_os("FIXLOOP_DUMP_PRINTED").map(PathBuf::from);
    let mut bad = Vec::new();
    for (name, src) in &programs {
        let (tu, diags) = parse(src);
        if diags.iter().any(|d| d.is_error()) {
            continue;
        }
        let printed = tu.to_string();
        if let Some(dir) = &dump {
            let file = name.replace(['/', ':'], "__");
            std::fs::write(dir.join(format!("{file}.c")), &printed).expect("dump");
        }
        let (tu2, diags2) = parse(&printed);
        let reprinted = tu2.to_string();
        if diags2.iter().any(|d| d.is_error()) || reprinted != printed {
            bad.push(format!(
                "{name}: {}\n{}",
                diags2
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join("; "),
                printed
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} programs do not print back:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
