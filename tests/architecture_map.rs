//! ARCHITECTURE.md's code map stays true: every `src/...` path it lists exists, every module it names inside a folder's entry (`` `name` (what it does) ``) is a file or folder there, and every folder under `src/` has an entry.

use regex::Regex;
use std::path::Path;

/// The code map's entries: each top-level bullet that starts with a `src/...` path, as
/// (path, the bullet's text).
fn entries(map: &str) -> Vec<(String, String)> {
    let start = Regex::new(r"^- `(src/[^`]*)`").expect("regex");
    let mut out: Vec<(String, String)> = Vec::new();
    for line in map.lines() {
        if let Some(c) = start.captures(line) {
            out.push((c[1].to_string(), line.to_string()));
        } else if line.starts_with("- ") || line.starts_with('#') {
            out.push((String::new(), String::new()));
        } else if let Some((path, text)) = out.last_mut() {
            if !path.is_empty() {
                text.push('\n');
                text.push_str(line);
            }
        }
    }
    out.retain(|(p, _)| !p.is_empty());
    out
}

#[test]
fn every_path_and_module_in_the_code_map_exists_and_every_folder_is_mapped() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let named = Regex::new(r"`([a-z][a-z0-9_]*)` \(").expect("regex");
    let entries = entries(&map);
    assert!(
        entries.len() >= 10,
        "the code map has {} entries",
        entries.len()
    );
    let mut missing = Vec::new();
    let mut modules = 0;
    for (path, text) in &entries {
        if !root.join(path).exists() {
            missing.push(path.clone());
            continue;
        }
        if !path.ends_with('/') {
            continue;
        }
        for c in named.captures_iter(text) {
            modules += 1;
            let name = &c[1];
            let found = [format!("{path}{name}.rs"), format!("{path}{name}")]
                .iter()
                .any(|p| root.join(p).exists());
            if !found {
                missing.push(format!("{path}{name}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "named in ARCHITECTURE.md but not in the tree: {missing:?}"
    );
    assert!(
        modules >= 50,
        "only {modules} modules named: the map's format changed?"
    );
    // Every folder of src/ has its entry.
    let mapped: Vec<&str> = entries.iter().map(|(p, _)| p.as_str()).collect();
    for dir in std::fs::read_dir(root.join("src")).expect("src") {
        let dir = dir.expect("entry").path();
        if dir.is_dir() {
            let name = format!("src/{}/", dir.file_name().unwrap().to_string_lossy());
            assert!(
                mapped.iter().any(|p| p.starts_with(&name)),
                "{name} has no entry in the code map"
            );
        }
    }
}
