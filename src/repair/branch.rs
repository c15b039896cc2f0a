//! New branches: `if (C) { body }` inserted before a suspicious statement, the body a copy of the program's own output (then `return 0;` in `main`), `return`, `break`, `continue` or assignment, and `C` synthesised from the angelic outcomes of a guard that starts false.
//!
//! The "missing case" fix: `if (k > n) { printf("-1\n"); return 0; }`, beside the
//! program's own `if (k == 0) { printf("-1\n"); return 0; }`. For each
//! suspicious statement and each candidate body, the program is compiled with the new
//! branch guarded by `0` routed through a repair hole. The failing tests' runs flip the
//! guard's evaluations ([`Lra::condition_examples`]: the first evaluation that, taken,
//! makes the test pass), the passing tests keep it false, and the condition comes from
//! those outcomes ([`Lra::new_conditions`]: the smallest one over comparisons of at most
//! two variables, and the program's own remainders; no sums such as `x + y >= 11`).
//! Every branch found is validated on every test; which of several that fit generalises
//! is what the questions settle.

use super::budget::Gate;
use super::candidates::{fresh_stmt, takes_statement_edits};
use super::cost::EditKind;
use super::holeval::FRESH_ID;
use super::localise::Suspicious;
use super::lra::{compile_hole, Hole, Lra, LraReport};
use super::mutate::int_lit;
use super::patch::{Edit, Patch, RepairSource, StmtInfo};
use super::tests::TestSuite;
use super::RepairConfig;
use crate::lang::ast::{Block, Expr, ExprKind, ScalarType, Span, Stmt, StmtKind};
use crate::lang::visit::for_each_expr;
use std::collections::{BTreeSet, HashSet};

/// Limits of the branch engine. All are counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BranchConfig {
    /// Suspicious statements a branch is tried before (most suspicious first). Default 10.
    pub max_locations: usize,
    /// Candidate bodies per statement. Default 10.
    pub max_bodies: usize,
}

impl Default for BranchConfig {
    fn default() -> Self {
        BranchConfig {
            max_locations: 10,
            max_bodies: 10,
        }
    }
}

/// Runs the branch engine over the `suspicious` statements; see the module docs.
pub fn branches(
    src: &RepairSource,
    suite: &TestSuite,
    suspicious: &[Suspicious],
    config: &RepairConfig,
    gate: &mut Gate,
) -> LraReport {
    let mut engine = Lra::new(gate, src, suite, config, &config.linear);
    let mut report = LraReport::nothing_yet();
    let mut tried: BTreeSet<String> = BTreeSet::new();
    'stmts: for s in suspicious.iter().take(config.branch.max_locations) {
        let Some(info) = src.stmt(s.stmt) else {
            continue;
        };
        if !takes_statement_edits(info) {
            continue;
        }
        for body in bodies(src, info, config.branch.max_bodies) {
            if let Err(why) = engine.gate().check() {
                report.stop = why;
                break 'stmts;
            }
            let with = |cond: Expr| Edit::InsertBefore {
                target: info.stmt.id,
                stmt: branch(cond, &body),
                kind: EditKind::InsertBranch,
            };
            let trial = with(int_lit(0, ScalarType::Int));
            if trial.cost(&config.costs) > config.budget {
                continue;
            }
            let Some(hole) = trial_hole(src, info, &trial, config) else {
                continue;
            };
            if hole.int_vars.is_empty() {
                continue;
            }
            report.locations += 1;
            let examples = match engine.condition_examples(&hole) {
                Ok(Some(ex)) => ex,
                Ok(None) => continue,
                Err(why) => {
                    report.stop = why;
                    break 'stmts;
                }
            };
            // A condition over no variable is no branch: `if (1) S` is S inserted.
            let edits: Vec<Edit> = engine
                .new_conditions(&hole, &examples, false)
                .into_iter()
                .filter(reads_a_variable)
                .map(with)
                .collect();
            if !edits.is_empty() {
                report.angelic += 1;
            }
            if let Err(why) = engine.try_edits(edits, &mut tried, &mut report) {
                report.stop = why;
                break 'stmts;
            }
        }
    }
    report.test_executions = engine.executions();
    report
}

/// Whether `e` names a variable.
fn reads_a_variable(e: &Expr) -> bool {
    let mut found = false;
    for_each_expr(e, &mut |x| found |= matches!(x.kind, ExprKind::Ident(_)));
    found
}

/// `if (cond) body` (braced when the body has more than one statement).
fn branch(cond: Expr, body: &[Stmt]) -> Stmt {
    let then = match body {
        [one] => one.clone(),
        _ => fresh_stmt(StmtKind::Block(Block {
            id: FRESH_ID,
            span: Span::default(),
            stmts: body.to_vec(),
        })),
    };
    fresh_stmt(StmtKind::If {
        cond,
        then: Box::new(then),
        els: None,
    })
}

/// The program with the `trial` branch (guarded by the literal `0`) inserted before
/// `info`'s statement, compiled with that guard as the hole; `None` when it does not
/// compile (a body naming a variable out of scope, `break` outside a loop).
fn trial_hole(
    src: &RepairSource,
    info: &StmtInfo,
    trial: &Edit,
    config: &RepairConfig,
) -> Option<Hole> {
    let text = src
        .apply(&Patch::single(trial.clone()), &config.trusted_lines)
        .ok()?;
    let patched = RepairSource::new(&text).ok()?;
    // The new `if` starts where the statement did (or just after the `{ ` that wraps a
    // statement outside a block).
    let at = info.stmt.span.start;
    let guard = patched.statements().iter().find_map(|&id| {
        let s = &patched.stmt(id)?.stmt;
        match &s.kind {
            StmtKind::If { cond, .. }
                if (at..=at + 2).contains(&s.span.start)
                    && matches!(cond.kind, ExprKind::IntLit { value: 0, .. }) =>
            {
                Some(cond.id)
            }
            _ => None,
        }
    })?;
    compile_hole(&patched, guard)
}

/// Candidate bodies for a branch before `target`, from its own function, nearest first:
/// in `main`, each output statement then `return 0;`; elsewhere each `return`; then
/// `break;`, `continue;` and assignments. At most `max`, distinct. Only the program's own
/// statements: a body printing or returning a number of the expected outputs would
/// hard-code the tests (`if (1) { printf("%d\n", -1); return 0; }` passed IntroClass
/// subjects whose every test reaching it wanted -1).
fn bodies(src: &RepairSource, target: &StmtInfo, max: usize) -> Vec<Vec<Stmt>> {
    let line = target.stmt.span.line;
    let mut near: Vec<&Stmt> = src
        .statements()
        .iter()
        .filter_map(|&id| src.stmt(id))
        .filter(|s| s.function == target.function)
        .map(|s| &s.stmt)
        .collect();
    near.sort_by_key(|s| s.span.line.abs_diff(line));
    let in_main = target.function == "main";
    let return_zero = fresh_stmt(StmtKind::Return(Some(int_lit(0, ScalarType::Int))));
    let mut outputs: Vec<Vec<Stmt>> = Vec::new();
    let mut returns: Vec<Vec<Stmt>> = Vec::new();
    let mut assignments: Vec<Vec<Stmt>> = Vec::new();
    for s in near {
        match &s.kind {
            StmtKind::Expr(e) if in_main && is_output(e) => {
                outputs.push(vec![s.clone(), return_zero.clone()]);
            }
            StmtKind::Return(Some(_)) if !in_main => returns.push(vec![s.clone()]),
            StmtKind::Expr(Expr {
                kind: ExprKind::Assign { .. },
                ..
            }) => assignments.push(vec![s.clone()]),
            _ => {}
        }
    }
    let mut out: Vec<Vec<Stmt>> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let lists = [
        (outputs, 4),
        (returns, 3),
        (
            vec![
                vec![fresh_stmt(StmtKind::Break)],
                vec![fresh_stmt(StmtKind::Continue)],
            ],
            2,
        ),
        (assignments, 2),
    ];
    for (list, take) in lists {
        let mut taken = 0;
        for body in list {
            let text = body
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join("\n");
            if taken < take && seen.insert(text) {
                out.push(body);
                taken += 1;
            }
        }
    }
    out.truncate(max);
    out
}

/// A call to `printf`, `puts` or `putchar`.
fn is_output(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call { callee, .. } if matches!(callee.as_str(), "printf" | "puts" | "putchar"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::budget::Stop;
    use crate::repair::lra::tests::{alone, passes};

    fn branches_alone(prog: &str, tests: &str) -> (RepairSource, LraReport) {
        alone(prog, tests, branches)
    }

    fn texts(src: &RepairSource, r: &LraReport) -> Vec<String> {
        r.plausible
            .iter()
            .map(|p| src.apply(p, &Default::default()).unwrap())
            .collect()
    }

    /// Whether some plausible patch passes `heldout`.
    fn one_generalises(src: &RepairSource, r: &LraReport, heldout: &str) -> bool {
        r.plausible.iter().any(|p| passes(src, p, heldout))
    }

    #[test]
    fn a_missing_case_gets_a_branch_with_the_programs_own_output() {
        // The fix: `if (k > n) { printf("-1\n"); return 0; }` before the division.
        let prog = "int main() {\n    int n, k;\n    scanf(\"%d %d\", &n, &k);\n    if (k == 0) {\n        printf(\"-1\\n\");\n        return 0;\n    }\n    printf(\"%d\\n\", n / k);\n    return 0;\n}\n";
        let tests = "5 0 => -1\n5 2 => 2\n3 4 => -1\n10 3 => 3\n2 7 => -1\n6 6 => 1\n9 1 => 9\n9 20 => -1\n1 1 => 1\n3 2 => 1\n";
        let (src, r) = branches_alone(prog, tests);
        assert_eq!(r.stop, Stop::Found, "{r}");
        assert!(r
            .plausible
            .iter()
            .all(|p| p.edits[0].kind() == EditKind::InsertBranch));
        let heldout = "1 2 => -1\n100 99 => 1\n8 9 => -1\n20 0 => -1\n";
        assert!(one_generalises(&src, &r, heldout), "{:#?}", texts(&src, &r));
    }

    #[test]
    fn a_missing_case_gets_an_early_return() {
        // The fix: `if (x > 100) return 0;`, a copy of the function's own return.
        let prog = "int f(int x) {\n    if (x < 0)\n        return 0;\n    return x;\n}\n";
        let tests = "150 => 0\n5 => 5\n-3 => 0\n100 => 100\n99 => 99\n230 => 0\n0 => 0\n";
        let (src, r) = branches_alone(prog, tests);
        assert_eq!(r.stop, Stop::Found, "{r}");
        let heldout = "101 => 0\n1000 => 0\n50 => 50\n-7 => 0\n";
        assert!(one_generalises(&src, &r, heldout), "{:#?}", texts(&src, &r));
    }

    #[test]
    fn a_branch_taken_on_every_run_that_reaches_it_is_no_branch() {
        // Every run reaching the first "small" fails (it prints twice), so the guard's
        // outcomes are all true: `if (1) { ... }` would be a copy, not a branch.
        let prog = "int main() {\n    int a;\n    scanf(\"%d\", &a);\n    if (a > 0) {\n        printf(\"big\\n\");\n        return 0;\n    }\n    printf(\"small\\n\");\n    printf(\"small\\n\");\n    return 0;\n}\n";
        let tests = "5 => big\n-1 => small\n0 => small\n";
        let (src, r) = branches_alone(prog, tests);
        for t in texts(&src, &r) {
            assert!(!t.contains("if (1)"), "{t}");
        }
    }

    #[test]
    fn no_branch_fits_when_no_body_prints_the_right_thing() {
        // Every output is wrong by a formula, not by a missing case: no copy of the
        // program's statements prints n * n.
        let prog = "int main() {\n    int n;\n    scanf(\"%d\", &n);\n    printf(\"%d\\n\", n + n);\n    return 0;\n}\n";
        let tests = "3 => 9\n4 => 16\n5 => 25\n2 => 4\n";
        let (_, r) = branches_alone(prog, tests);
        assert!(r.plausible.is_empty(), "{r}");
    }
}
