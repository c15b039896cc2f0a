//! The Learn2fix triangle workload (labelled points, balanced draws, committee neighbours) shared by tests and benchmarks.
//!
//! Output encoding of both classifiers: 1 scalene, 2 isosceles, 3 equilateral, 4 invalid.
//! The buggy one writes the equilateral test as C's `a == b == c`, i.e. `(a == b) == c`,
//! which (for sides 1..10) holds exactly when `a == b && c == 1`. So a run shows the bug
//! when `a = b != 1` and either `b = c` (prints 2 instead of 3) or `c = 1` (prints 3
//! instead of 2): 18 of the 1000 points with sides in 1..=10.

use super::{Example, Value};
use rand::rngs::StdRng;
use rand::RngExt;

/// The classifier's output for sides `a, b, c`; `buggy` selects the `a == b == c` version.
pub fn classify(a: i64, b: i64, c: i64, buggy: bool) -> i64 {
    if a <= 0 || b <= 0 || c <= 0 || a + b <= c || a + c <= b || b + c <= a {
        return 4;
    }
    let equilateral = if buggy {
        i64::from(a == b) == c
    } else {
        a == b && b == c
    };
    if equilateral {
        3
    } else if a == b || b == c || a == c {
        2
    } else {
        1
    }
}

/// The variable names of a triangle point: `a, b, c, out`.
pub fn vars() -> Vec<String> {
    ["a", "b", "c", "out"].map(String::from).to_vec()
}

/// The labelled point for sides `a, b, c`: the buggy output, bug = it differs from the
/// correct classifier's.
pub fn example(a: i64, b: i64, c: i64) -> Example {
    let out = classify(a, b, c, true);
    Example {
        point: vec![Value::Int(a), Value::Int(b), Value::Int(c), Value::Int(out)],
        bug: out != classify(a, b, c, false),
    }
}

/// All 1000 labelled points with sides in 1..=10.
pub fn all_examples() -> Vec<Example> {
    (1..=10)
        .flat_map(|a| (1..=10).flat_map(move |b| (1..=10).map(move |c| example(a, b, c))))
        .collect()
}

/// `n` examples, alternately a bug and an ok point, each drawn uniformly with replacement
/// from its class in `all` (as the paper's 50/50 training sets).
pub fn draw_balanced(all: &[Example], n: usize, rng: &mut StdRng) -> Vec<Example> {
    let bugs: Vec<&Example> = all.iter().filter(|e| e.bug).collect();
    let oks: Vec<&Example> = all.iter().filter(|e| !e.bug).collect();
    (0..n)
        .map(|i| {
            let class = if i % 2 == 0 { &bugs } else { &oks };
            class[rng.random_range(0..class.len())].clone()
        })
        .collect()
}

/// The active loop's committee input: `count` fuzzed neighbours (each side moved by at
/// most 2, kept in 1..=10) of a random centre, as labelled points.
pub fn neighbours(count: usize, rng: &mut StdRng) -> Vec<Vec<Value>> {
    let centre: Vec<i64> = (0..3).map(|_| rng.random_range(1..=10)).collect();
    (0..count)
        .map(|_| {
            let p: Vec<i64> = centre
                .iter()
                .map(|&v| (v + rng.random_range(-2..=2)).clamp(1, 10))
                .collect();
            example(p[0], p[1], p[2]).point
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bug_region_has_18_points() {
        let all = all_examples();
        assert_eq!(all.len(), 1000);
        let bugs: Vec<&Example> = all.iter().filter(|e| e.bug).collect();
        assert_eq!(bugs.len(), 18);
        for e in bugs {
            let [Value::Int(a), Value::Int(b), Value::Int(c), _] = e.point[..] else {
                panic!("integer point expected");
            };
            assert!(a == b && a != 1 && (b == c || c == 1), "{:?}", e.point);
        }
    }
}
