//! Data-driven repair cases: each folder of `tests/repair/cases` (named after the edit kind, optionally `kind-variant`) holds `buggy.c`, `tests` (the `fixloop repair` format), an optional `costs` file, and `expected` (the top patch: its edit kind, description and diff). `UPDATE_EXPECT=1 cargo test --test repair_cases` rewrites the expectations.

use fixloop::repair::tests::parse_tests;
use fixloop::repair::{repair, CostTable, RepairConfig};
use std::path::Path;

fn render(dir: &Path) -> (String, String) {
    let buggy = std::fs::read_to_string(dir.join("buggy.c")).unwrap();
    let tests = parse_tests(&std::fs::read_to_string(dir.join("tests")).unwrap()).unwrap();
    let mut config = RepairConfig::default();
    if let Ok(c) = std::fs::read_to_string(dir.join("costs")) {
        config.costs = CostTable::parse(&c).unwrap();
    }
    let report = repair(&buggy, &tests, None, &config);
    let Some(top) = report.patches.first() else {
        return (String::new(), format!("no patch: {}\n", report.stop));
    };
    let kind = top.patch.edits[0].kind().name().to_string();
    let text = format!(
        "kind: {kind}\ncost: {}\n{}\n{}",
        top.cost,
        top.description.join("\n"),
        top.diff
    );
    (kind, text)
}

#[test]
fn repair_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/repair/cases");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 10, "one case per edit kind");
    let mut failures = Vec::new();
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let (kind, text) = render(dir);
        let expected_path = dir.join("expected");
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::write(&expected_path, &text).unwrap();
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if text != expected {
            failures.push(format!(
                "{name}: top patch changed:\n{text}\n--- expected:\n{expected}"
            ));
        }
        // The case's folder names the edit kind its cheapest repair needs (`kind` or
        // `kind-variant`).
        if name.split('-').next() != Some(kind.as_str()) {
            failures.push(format!("{name}: top patch is a {kind} edit"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
