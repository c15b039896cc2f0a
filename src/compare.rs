//! Output comparison as the benchmarks do it: blank lines dropped, per-line whitespace trimmed.

/// Canonical form of a program output for comparison: every line with leading and trailing
/// whitespace removed, blank (or whitespace-only) lines dropped, lines joined with `'\n'`
/// (no trailing newline). `\r\n` line ends count as whitespace.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(t);
    }
    out
}

/// True when `actual` and `expected` are equal after [`normalize`] (no allocation).
pub fn outputs_match(actual: &str, expected: &str) -> bool {
    let mut a = actual.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut e = expected.lines().map(str::trim).filter(|l| !l.is_empty());
    loop {
        match (a.next(), e.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x == y => {}
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_drops_blank_lines_and_trims() {
        assert_eq!(normalize("  a b \n\n\t\nc\t \r\n\n"), "a b\nc");
        assert_eq!(normalize(""), "");
        assert_eq!(normalize("\n \n"), "");
        assert_eq!(normalize("x"), "x");
    }

    #[test]
    fn matching_ignores_layout_whitespace_only() {
        assert!(outputs_match("1 2\n\n3\n", "  1 2\n3"));
        assert!(outputs_match("1\r\n2\r\n", "1\n2\n\n"));
        assert!(outputs_match("", "\n\n  \n"));
        assert!(
            !outputs_match("1  2", "1 2"),
            "inner whitespace is significant"
        );
        assert!(!outputs_match("1\n2", "1 2"));
        assert!(!outputs_match("1\n2", "1"));
        assert!(!outputs_match("", "0"));
    }

    #[test]
    fn match_agrees_with_normalize() {
        let cases = ["a\n b", " a\nb ", "a\n\nb\n", "ab", "a b", "", "\n"];
        for x in cases {
            for y in cases {
                assert_eq!(
                    outputs_match(x, y),
                    normalize(x) == normalize(y),
                    "{x:?} vs {y:?}"
                );
            }
        }
    }
}
