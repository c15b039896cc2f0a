//! Unified diff of two texts (line-based, 3 lines of context), written here because patches touch a few lines of small programs.
//!
//! Why not a crate: common prefix and suffix are stripped first, so the LCS table only
//! spans the few changed lines; a 60-line function beats a dependency in the wasm build.

/// Unified diff of `old` vs `new` with `---`/`+++` headers naming `path`; empty when the
/// texts are equal.
pub fn unified_diff(path: &str, old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    if a == b {
        return String::new();
    }
    let ops = line_ops(&a, &b);
    let mut out = format!("--- a/{path}\n+++ b/{path}\n");
    const CONTEXT: usize = 3;
    // Indices (into ops) of changes; group into hunks with CONTEXT lines around.
    let changed: Vec<usize> = (0..ops.len())
        .filter(|&i| !matches!(ops[i], Op::Same(..)))
        .collect();
    let mut i = 0;
    while i < changed.len() {
        let start = changed[i].saturating_sub(CONTEXT);
        let mut end = changed[i];
        while i < changed.len() && changed[i] <= end + 2 * CONTEXT {
            end = changed[i];
            i += 1;
        }
        let end = (end + CONTEXT + 1).min(ops.len());
        let (mut a0, mut b0) = (None, None);
        let (mut na, mut nb) = (0, 0);
        let mut body = String::new();
        for op in &ops[start..end] {
            match *op {
                Op::Same(x, y) => {
                    a0.get_or_insert(x);
                    b0.get_or_insert(y);
                    na += 1;
                    nb += 1;
                    body.push_str(&format!(" {}\n", a[x]));
                }
                Op::Del(x, y) => {
                    a0.get_or_insert(x);
                    b0.get_or_insert(y);
                    na += 1;
                    body.push_str(&format!("-{}\n", a[x]));
                }
                Op::Ins(x, y) => {
                    a0.get_or_insert(x);
                    b0.get_or_insert(y);
                    nb += 1;
                    body.push_str(&format!("+{}\n", b[y]));
                }
            }
        }
        let first = |s: Option<usize>, n: usize| {
            if n == 0 {
                s.unwrap_or(0)
            } else {
                s.unwrap_or(0) + 1
            }
        };
        out.push_str(&format!(
            "@@ -{},{} +{},{} @@\n",
            first(a0, na),
            na,
            first(b0, nb),
            nb
        ));
        out.push_str(&body);
    }
    out
}

/// One line of the alignment: (index in old, index in new) at that point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Same(usize, usize),
    Del(usize, usize),
    Ins(usize, usize),
}

/// Longest-common-subsequence alignment of two line lists (prefix/suffix stripped first).
fn line_ops(a: &[&str], b: &[&str]) -> Vec<Op> {
    let pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suf = a[pre..]
        .iter()
        .rev()
        .zip(b[pre..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[pre..a.len() - suf], &b[pre..b.len() - suf]);
    let (n, m) = (ma.len(), mb.len());
    // lcs[i][j] = LCS length of ma[i..] and mb[j..].
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if ma[i] == mb[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut ops: Vec<Op> = (0..pre).map(|k| Op::Same(k, k)).collect();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && ma[i] == mb[j] {
            ops.push(Op::Same(pre + i, pre + j));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            ops.push(Op::Del(pre + i, pre + j));
            i += 1;
        } else {
            ops.push(Op::Ins(pre + i, pre + j));
            j += 1;
        }
    }
    for k in 0..suf {
        ops.push(Op::Same(a.len() - suf + k, b.len() - suf + k));
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_shows_changed_line_with_context() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let new = "a\nb\nc\nd\nE\nf\ng\nh\n";
        let d = unified_diff("p.c", old, new);
        assert_eq!(
            d,
            "--- a/p.c\n+++ b/p.c\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n"
        );
        assert_eq!(unified_diff("p.c", old, old), "");
        let ins = unified_diff("p.c", "x\ny\n", "x\nnew\ny\n");
        assert_eq!(ins, "--- a/p.c\n+++ b/p.c\n@@ -1,2 +1,3 @@\n x\n+new\n y\n");
    }
}
