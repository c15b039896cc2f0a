//! Fault localisation: statement coverage of failing vs passing tests, scored by Ochiai or GenProg's path weighting.

use super::tests::TestSuite;
use crate::lang::{NodeId, Program};

/// How statements are scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Weighting {
    /// Ochiai: `failed(s) / sqrt(total_failed * (failed(s) + passed(s)))`.
    #[default]
    Ochiai,
    /// GenProg: 1.0 when only failing tests reach the statement, 0.1 when passing ones
    /// do too.
    GenProg,
}

/// A statement the failing tests reach, with its suspiciousness.
#[derive(Debug, Clone, PartialEq)]
pub struct Suspicious {
    /// The statement's node id.
    pub stmt: NodeId,
    /// Its source line.
    pub line: u32,
    /// Suspiciousness in `(0, 1]`.
    pub score: f64,
}

/// Scores every statement that at least one failing test executes, most suspicious
/// first (ties: source order). Returns the list and the number of test executions used.
pub fn localise(
    program: &Program,
    suite: &TestSuite,
    weighting: Weighting,
) -> (Vec<Suspicious>, u64) {
    let lines = program.statement_lines();
    let mut failed = vec![0u32; lines.len()];
    let mut passed = vec![0u32; lines.len()];
    let mut total_failed = 0u32;
    let mut limits = suite.limits().clone();
    limits.record_coverage = true;
    let mut runs = 0;
    for i in 0..suite.tests().len() {
        let exec = program.run_test(&suite.tests()[i].input, &limits);
        runs += 1;
        let ok = suite.passes(i, &exec);
        if !ok {
            total_failed += 1;
        }
        for &s in exec.coverage.as_deref().unwrap_or(&[]) {
            let counts = if ok { &mut passed } else { &mut failed };
            if let Some(c) = counts.get_mut(s as usize) {
                *c += 1;
            }
        }
    }
    let mut out: Vec<Suspicious> = lines
        .iter()
        .enumerate()
        .filter(|&(i, _)| failed[i] > 0)
        .map(|(i, &(stmt, line))| {
            let (f, p) = (f64::from(failed[i]), f64::from(passed[i]));
            let score = match weighting {
                Weighting::Ochiai => f / (f64::from(total_failed) * (f + p)).sqrt(),
                Weighting::GenProg => {
                    if p > 0.0 {
                        0.1
                    } else {
                        1.0
                    }
                }
            };
            Suspicious { stmt, line, score }
        })
        .collect();
    // Stable sort: equal scores stay in source (coverage index) order.
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    (out, runs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::compile;

    #[test]
    fn the_statement_only_failing_tests_reach_ranks_first() {
        let src = "int f(int x) {\n  int r = 0;\n  if (x > 5)\n    r = x - 1;\n  else\n    r = x + 1;\n  return r;\n}\n";
        let p = compile(src).unwrap();
        // The "x > 5" branch is wrong: f(7) should be 8.
        let suite = TestSuite::from_text(&p, "7 => 8\n1 => 2\n2 => 3\n");
        let (s, runs) = localise(&p, &suite, Weighting::Ochiai);
        assert_eq!(runs, 3);
        assert_eq!(s[0].line, 4);
        assert!((s[0].score - 1.0).abs() < 1e-9);
        assert!(
            s.iter().all(|x| x.line != 6),
            "else branch not reached by the failing test"
        );
        let (g, _) = localise(&p, &suite, Weighting::GenProg);
        assert_eq!(g[0].line, 4);
        assert!(g.iter().any(|x| x.score == 0.1));
    }
}
