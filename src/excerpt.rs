//! Long program outputs shortened for display: the first and last lines, each cut to a readable width, with a count of what was left out.
//!
//! A program may print up to the output cap (1 MiB) and a question, a patch comparison or
//! a report shows that output inline; [`Excerpt::of`] keeps the page a readable size while
//! saying exactly how much is hidden, and [`one_line`] gives the short form for tooltips
//! and table cells. Pure text in, text out: the page and the printed report share it.

/// Lines shown from the start of a long output.
pub const HEAD_LINES: usize = 8;
/// Lines shown from its end.
pub const TAIL_LINES: usize = 3;
/// Characters shown of one line (longer lines end in `…`).
pub const LINE_CHARS: usize = 160;

/// An output as the page shows it: whole when short, else head, a gap and tail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Excerpt {
    /// The first lines (each cut to [`LINE_CHARS`]), joined by newlines.
    pub head: String,
    /// Lines left out between head and tail (0 when the output is shown whole).
    pub omitted_lines: usize,
    /// The last lines (empty when nothing was left out).
    pub tail: String,
    /// Lines in the whole output.
    pub total_lines: usize,
    /// Bytes in the whole output.
    pub total_bytes: usize,
    /// Whether anything was cut (lines left out, or a line shortened).
    pub shortened: bool,
}

/// `line` cut to `max` characters, with `…` when cut; whether it was cut.
fn cut(line: &str, max: usize) -> (String, bool) {
    match line.char_indices().nth(max) {
        None => (line.to_string(), false),
        Some((at, _)) => (format!("{}…", &line[..at]), true),
    }
}

/// The lines of `lines` cut to [`LINE_CHARS`] and joined; whether any was cut.
fn cut_all<'a>(lines: impl Iterator<Item = &'a str>) -> (String, bool) {
    let mut any = false;
    let cut: Vec<String> = lines
        .map(|l| {
            let (c, was) = cut(l, LINE_CHARS);
            any |= was;
            c
        })
        .collect();
    (cut.join("\n"), any)
}

impl Excerpt {
    /// The excerpt of `text` (trailing newlines do not count as lines).
    pub fn of(text: &str) -> Excerpt {
        let trimmed = text.trim_end_matches(['\n', '\r']);
        let lines: Vec<&str> = if trimmed.is_empty() {
            Vec::new()
        } else {
            trimmed.lines().collect()
        };
        let total_lines = lines.len();
        let total_bytes = text.len();
        if total_lines <= HEAD_LINES + TAIL_LINES {
            let (head, shortened) = cut_all(lines.iter().copied());
            return Excerpt {
                head,
                omitted_lines: 0,
                tail: String::new(),
                total_lines,
                total_bytes,
                shortened,
            };
        }
        let (head, _) = cut_all(lines[..HEAD_LINES].iter().copied());
        let (tail, _) = cut_all(lines[total_lines - TAIL_LINES..].iter().copied());
        Excerpt {
            head,
            omitted_lines: total_lines - HEAD_LINES - TAIL_LINES,
            tail,
            total_lines,
            total_bytes,
            shortened: true,
        }
    }

    /// The line that stands for the gap: "… 99 989 more lines …".
    pub fn gap(&self) -> String {
        format!(
            "… {} more line{} …",
            grouped(self.omitted_lines),
            if self.omitted_lines == 1 { "" } else { "s" }
        )
    }

    /// The whole excerpt as one text (head, gap line, tail).
    pub fn text(&self) -> String {
        if self.omitted_lines == 0 {
            self.head.clone()
        } else {
            format!("{}\n{}\n{}", self.head, self.gap(), self.tail)
        }
    }

    /// What the whole output is: "100 000 000 lines, 1 048 576 bytes".
    pub fn size(&self) -> String {
        format!(
            "{} line{}, {} bytes",
            grouped(self.total_lines),
            if self.total_lines == 1 { "" } else { "s" },
            grouped(self.total_bytes)
        )
    }
}

/// `text` as one short line for a tooltip or a table cell: its first line cut to `max`
/// characters, with the number of further lines when there are any.
pub fn one_line(text: &str, max: usize) -> String {
    let trimmed = text.trim();
    let mut lines = trimmed.lines();
    let first = lines.next().unwrap_or("");
    let (first, _) = cut(first, max);
    let more = lines.count();
    if more == 0 {
        first
    } else {
        format!(
            "{first} (+{} more line{})",
            grouped(more),
            if more == 1 { "" } else { "s" }
        )
    }
}

/// `n` and the noun in its number: `count(1, "test", "tests")` is "1 test", with any
/// other `n` "tests" ("0 tests", "3 tests").
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `n` with thin groups of three digits (`1 048 576`).
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_takes_the_noun_in_its_number() {
        assert_eq!(count(1, "test", "tests"), "1 test");
        assert_eq!(count(0, "test", "tests"), "0 tests");
        assert_eq!(count(2, "patch", "patches"), "2 patches");
    }

    #[test]
    fn a_short_output_is_shown_whole() {
        let e = Excerpt::of("equilateral\n");
        assert_eq!(e.text(), "equilateral");
        assert!(!e.shortened);
        assert_eq!((e.omitted_lines, e.total_lines), (0, 1));
        assert_eq!(Excerpt::of("").total_lines, 0);
    }

    #[test]
    fn a_long_output_keeps_its_first_and_last_lines_and_counts_the_rest() {
        let text: String = (1..=100_000).map(|i| format!("{i}\n")).collect();
        let e = Excerpt::of(&text);
        assert!(e.shortened);
        assert_eq!(e.total_lines, 100_000);
        assert_eq!(e.omitted_lines, 100_000 - HEAD_LINES - TAIL_LINES);
        assert!(e.head.starts_with("1\n2\n"));
        assert!(e.tail.ends_with("99999\n100000"));
        assert!(e.text().contains("… 99 989 more lines …"), "{}", e.text());
        assert_eq!(e.text().lines().count(), HEAD_LINES + 1 + TAIL_LINES);
        assert_eq!(
            e.size(),
            format!("100 000 lines, {} bytes", grouped(text.len()))
        );
    }

    #[test]
    fn one_long_line_is_cut_to_a_readable_width() {
        let text = "7".repeat(1 << 20);
        let e = Excerpt::of(&text);
        assert!(e.shortened);
        assert_eq!(e.head.chars().count(), LINE_CHARS + 1);
        assert!(e.head.ends_with('…'));
        // Cutting respects characters, not bytes.
        let (c, was) = cut("ééé", 2);
        assert_eq!((c.as_str(), was), ("éé…", true));
    }

    #[test]
    fn one_line_names_how_many_lines_follow() {
        assert_eq!(one_line("YES\n", 40), "YES");
        assert_eq!(one_line("1\n2\n3\n", 40), "1 (+2 more lines)");
        assert_eq!(one_line("1\n2", 40), "1 (+1 more line)");
        assert_eq!(one_line(&"x".repeat(50), 4), "xxxx…");
    }

    #[test]
    fn numbers_are_grouped_by_three() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1 000");
        assert_eq!(grouped(1_048_576), "1 048 576");
    }
}
