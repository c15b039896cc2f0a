//! The playground's example gallery: the Learn2fix triangle program and small classroom bugs, each a ready session.

use super::{InputRange, Session};

/// One gallery entry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Example {
    /// Stable id (kept in sessions, so Reset finds the example).
    pub id: &'static str,
    /// Title in the gallery.
    pub title: &'static str,
    /// What the bug is about, in one line (no spoiler of the fix).
    pub blurb: &'static str,
    /// The buggy program.
    pub program: &'static str,
    /// An input on which it misbehaves.
    pub failing_input: &'static str,
    /// What it should print there.
    pub expected_output: &'static str,
    /// Range of every input position (inclusive), where the problem has one ("a score
    /// from 0 to 100"); the page shows it beside the program.
    pub range: Option<(f64, f64)>,
    /// The fix, as the one text of the program to replace and its replacement: the
    /// reference program when the example becomes an exercise.
    pub fix: (&'static str, &'static str),
}

impl Example {
    /// A fresh (not started) session of this example.
    pub fn session(&self) -> Session {
        let mut s = Session::new(self.program, self.failing_input);
        s.expected_output = Some(self.expected_output.to_string());
        let arity = self.failing_input.split_whitespace().count();
        s.ranges = match self.range {
            Some((min, max)) => vec![Some(InputRange { min, max }); arity],
            None => Vec::new(),
        };
        s.example = Some(self.id.to_string());
        s
    }

    /// The fixed program (the buggy one with [`Example::fix`] applied).
    pub fn reference(&self) -> String {
        self.program.replacen(self.fix.0, self.fix.1, 1)
    }
}

/// The example with this id.
pub fn find(id: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.id == id)
}

/// Every example, the paper's triangle first.
pub const EXAMPLES: &[Example] = &[
    Example {
        id: "triangle",
        title: "Triangle (Learn2fix)",
        blurb: "Classifies a triangle from its three sides; equilateral ones come out wrong.",
        program: r#"#include <stdio.h>

int main(void) {
    int a, b, c;
    scanf("%d %d %d", &a, &b, &c);
    if (a <= 0 || b <= 0 || c <= 0 || a >= b + c || b >= a + c || c >= a + b)
        printf("invalid\n");
    else if (a == b == c)
        printf("equilateral\n");
    else if (a == b || b == c || a == c)
        printf("isosceles\n");
    else
        printf("scalene\n");
    return 0;
}
"#,
        failing_input: "2 2 2",
        expected_output: "equilateral",
        range: None,
        fix: ("a == b == c", "a == b && b == c"),
    },
    Example {
        id: "median",
        title: "Median of three",
        blurb: "Prints the middle one of three numbers; some orders go wrong.",
        program: r#"#include <stdio.h>

int main(void) {
    int a, b, c, m;
    scanf("%d %d %d", &a, &b, &c);
    if ((a >= b && a <= c) || (a <= b && a >= c))
        m = a;
    else if (b >= a && b <= c)
        m = b;
    else
        m = c;
    printf("%d is the median\n", m);
    return 0;
}
"#,
        failing_input: "3 2 1",
        expected_output: "2 is the median",
        range: None,
        fix: (
            "else if (b >= a && b <= c)",
            "else if ((b >= a && b <= c) || (b <= a && b >= c))",
        ),
    },
    Example {
        id: "smallest",
        title: "Smallest of four",
        blurb: "Prints the smallest of four numbers; the last comparison is off.",
        program: r#"#include <stdio.h>

int main(void) {
    int a, b, c, d, s;
    scanf("%d %d %d %d", &a, &b, &c, &d);
    s = a;
    if (b < s)
        s = b;
    if (c < s)
        s = c;
    if (d < a)
        s = d;
    printf("%d is the smallest\n", s);
    return 0;
}
"#,
        failing_input: "5 1 3 2",
        expected_output: "1 is the smallest",
        range: None,
        fix: ("if (d < a)", "if (d < s)"),
    },
    Example {
        id: "grade",
        title: "Letter grade",
        blurb: "Turns a score 0-100 into a letter (A from 90, B from 80, C from 70, D from 60).",
        program: r#"#include <stdio.h>

int main(void) {
    int score;
    scanf("%d", &score);
    if (score > 90)
        printf("A\n");
    else if (score >= 80)
        printf("B\n");
    else if (score >= 70)
        printf("C\n");
    else if (score >= 60)
        printf("D\n");
    else
        printf("F\n");
    return 0;
}
"#,
        failing_input: "90",
        expected_output: "A",
        range: Some((0.0, 100.0)),
        fix: ("if (score > 90)", "if (score >= 90)"),
    },
    Example {
        id: "digit-sum",
        title: "Digit sum",
        blurb: "Adds up the decimal digits of a number; negative numbers go wrong.",
        program: r#"#include <stdio.h>

int main(void) {
    int n, sum = 0;
    scanf("%d", &n);
    while (n > 0) {
        sum += n % 10;
        n /= 10;
    }
    printf("%d\n", sum);
    return 0;
}
"#,
        failing_input: "-123",
        expected_output: "6",
        range: None,
        fix: (
            "    while (n > 0) {",
            "    if (n < 0)\n        n = -n;\n    while (n > 0) {",
        ),
    },
    Example {
        id: "sum-to-n",
        title: "Sum 1..n (loop)",
        blurb: "Adds 1 + 2 + ... + n with a loop; the loop bound is off by one.",
        program: r#"#include <stdio.h>

int main(void) {
    int n, i, total = 0;
    scanf("%d", &n);
    for (i = 1; i < n; i++)
        total += i;
    printf("%d\n", total);
    return 0;
}
"#,
        failing_input: "3",
        expected_output: "6",
        range: Some((0.0, 100.0)),
        fix: ("i < n;", "i <= n;"),
    },
    Example {
        id: "leap-year",
        title: "Leap year",
        blurb: "Says whether a year is a leap year; some century years come out wrong.",
        program: r#"#include <stdio.h>

int main(void) {
    int y;
    scanf("%d", &y);
    if (y % 4 == 0 && y % 100 != 0)
        printf("leap\n");
    else
        printf("common\n");
    return 0;
}
"#,
        failing_input: "2000",
        expected_output: "leap",
        range: Some((1.0, 3000.0)),
        fix: (
            "if (y % 4 == 0 && y % 100 != 0)",
            "if ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)",
        ),
    },
    Example {
        id: "sum-formula",
        title: "Sum 1..n (formula)",
        blurb: "Adds 1 + 2 + ... + n with a formula instead of a loop; the formula is wrong.",
        program: r#"#include <stdio.h>

int main(void) {
    int n;
    scanf("%d", &n);
    printf("%d\n", n * n / 2);
    return 0;
}
"#,
        failing_input: "3",
        expected_output: "6",
        range: Some((0.0, 1000.0)),
        fix: ("n * n / 2", "n * (n + 1) / 2"),
    },
    Example {
        id: "sum-product",
        title: "Sum and product",
        blurb: "Prints the sum and the product of two numbers; both are computed wrong.",
        program: r#"#include <stdio.h>

int main(void) {
    int a, b;
    scanf("%d %d", &a, &b);
    int sum = a - b;
    int product = a + b;
    printf("%d %d\n", sum, product);
    return 0;
}
"#,
        failing_input: "1 2",
        expected_output: "3 2",
        range: Some((0.0, 100.0)),
        fix: (
            "int sum = a - b;\n    int product = a + b;",
            "int sum = a + b;\n    int product = a * b;",
        ),
    },
];
