//! No two source files import each other, directly or in a circle: every `use crate::..`, `use super::..` and `use fixloop::..` (and every inline `crate::module::` path) of a file under `src/` is resolved to the file that defines it, and the import graph must have no cycle (a folder's `mod.rs` declaring and re-exporting its children is not an import).

use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Which crate a file belongs to (`lib`, or the binary's name) and its module path.
fn module_of(root: &Path, file: &Path) -> (String, Vec<String>) {
    let rel = file.strip_prefix(root.join("src")).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    let krate = if parts[0] == "bin" {
        parts.remove(0);
        parts.remove(0)
    } else {
        "lib".to_string()
    };
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "main" | "lib")
    ) {
        parts.pop();
    }
    (krate, parts)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every path a `use` names, braces expanded (`a::{b, c::d}` gives `a::b`, `a::c::d`).
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let (prefix, inner) = (&tree[..open], &tree[open + 1..tree.len() - 1]);
    let (mut items, mut depth, mut current) = (Vec::new(), 0, String::new());
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    items.push(current);
    items
        .iter()
        .filter(|i| !i.is_empty())
        .flat_map(|i| expand(&format!("{prefix}{i}")))
        .collect()
}

#[test]
fn no_two_source_files_import_each_other_directly_or_in_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let modules: BTreeMap<(String, Vec<String>), PathBuf> = files
        .iter()
        .map(|f| (module_of(root, f), f.clone()))
        .collect();
    // The file defining the longest prefix of `path` in `krate`.
    let resolve = |krate: &str, path: &[String]| {
        (1..=path.len())
            .rev()
            .find_map(|k| modules.get(&(krate.to_string(), path[..k].to_vec())))
            .cloned()
    };
    let use_item = Regex::new(r"(?m)^\s*(?:pub(?:\([^)]*\))? )?use ([^;]+);").expect("regex");
    let inline = Regex::new(r"(?:^|[^A-Za-z_:])crate::([a-z_][a-z0-9_]*)::").expect("regex");
    let tests = Regex::new(r"#\[cfg\(test\)\]\s*mod \w+").expect("regex");
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("source");
        let text = tests.split(&text).next().unwrap_or_default();
        let (krate, me) = module_of(root, file);
        let is_folder =
            file.ends_with("mod.rs") || file.ends_with("main.rs") || file.ends_with("lib.rs");
        let mut targets = Vec::new();
        for c in use_item.captures_iter(text) {
            for path in expand(&c[1]) {
                let segs: Vec<String> = path
                    .split("::")
                    .filter(|s| !s.is_empty() && *s != "self")
                    .map(String::from)
                    .collect();
                match segs.first().map(String::as_str) {
                    Some("crate") => targets.push(resolve(&krate, &segs[1..])),
                    Some("fixloop") => targets.push(resolve("lib", &segs[1..])),
                    Some("super") => {
                        let mut base = me.clone();
                        if !is_folder {
                            base.pop();
                        }
                        let mut rest = &segs[..];
                        while rest.first().map(String::as_str) == Some("super") {
                            rest = &rest[1..];
                            if rest.first().map(String::as_str) == Some("super") {
                                base.pop();
                            }
                        }
                        base.extend(rest.iter().cloned());
                        targets.push(resolve(&krate, &base));
                    }
                    _ => {}
                }
            }
        }
        for c in inline.captures_iter(text) {
            targets.push(resolve(&krate, &[c[1].to_string()]));
        }
        let out = edges.entry(file.clone()).or_default();
        out.extend(targets.into_iter().flatten().filter(|t| t != file));
    }
    assert!(
        edges.values().map(BTreeSet::len).sum::<usize>() > 200,
        "too few imports found: the parsing broke"
    );
    // A depth-first search; a back edge closes a circle.
    fn visit(
        f: &PathBuf,
        edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        state: &mut BTreeMap<PathBuf, bool>,
        stack: &mut Vec<PathBuf>,
        cycles: &mut Vec<Vec<PathBuf>>,
    ) {
        state.insert(f.clone(), false);
        stack.push(f.clone());
        for g in edges.get(f).into_iter().flatten() {
            match state.get(g) {
                None => visit(g, edges, state, stack, cycles),
                Some(false) => {
                    let at = stack.iter().position(|s| s == g).unwrap_or(0);
                    cycles.push(stack[at..].to_vec());
                }
                Some(true) => {}
            }
        }
        stack.pop();
        state.insert(f.clone(), true);
    }
    let (mut state, mut cycles) = (BTreeMap::new(), Vec::new());
    for f in edges.keys() {
        if !state.contains_key(f) {
            visit(f, &edges, &mut state, &mut Vec::new(), &mut cycles);
        }
    }
    let shown: Vec<Vec<String>> = cycles
        .iter()
        .map(|c| {
            c.iter()
                .map(|p| p.strip_prefix(root).unwrap_or(p).display().to_string())
                .collect()
        })
        .collect();
    assert!(shown.is_empty(), "files that import each other: {shown:?}");
}
