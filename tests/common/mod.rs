//! Helpers the integration tests share: Learn2fix's triangle programs, the page's stack, and expectation files.

// Each test binary compiles this module and uses only some of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Learn2fix's triangle as the playground shows it: a `main` reading three sides (the
/// first example's program).
pub const TRIANGLE_MAIN: &str = fixloop::session::examples::EXAMPLES[0].program;

/// Learn2fix's triangle as a function: 1 equilateral, 2 isosceles, 3 scalene, 4 invalid.
pub const TRIANGLE_FUNCTION: &str = "int classify(int a, int b, int c) {
    if (a <= 0 || b <= 0 || c <= 0) return 4;
    if (a >= b + c || b >= a + c || c >= a + b) return 4;
    if (a == b == c) return 1;
    if (a == b || b == c || a == c) return 2;
    return 3;
}
";

/// Either triangle with the paper's bug fixed: `a == b == c` is `(a == b) == c`.
pub fn triangle_reference(buggy: &str) -> String {
    buggy.replace("a == b == c", "a == b && b == c")
}

/// Runs `f` on a thread with the stack the page has (1 MiB, release) or debug's larger
/// frames need (16 MiB).
pub fn on_page_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let stack = if cfg!(debug_assertions) {
        16 << 20
    } else {
        1 << 20
    };
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no panic or overflow")
}

/// The `.c` files of `dir`, sorted.
pub fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

/// Compares `actual` with the file `expect`, or rewrites the file under `UPDATE_EXPECT=1`.
pub fn check_expect(expect: &Path, actual: &str) -> Result<(), String> {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(expect, actual).map_err(|e| e.to_string())?;
        return Ok(());
    }
    let want = std::fs::read_to_string(expect).unwrap_or_default();
    if want == actual {
        Ok(())
    } else {
        Err(format!(
            "{}:\n--- expected\n{want}--- actual\n{actual}",
            expect.display()
        ))
    }
}
