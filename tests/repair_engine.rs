//! Repair engine properties: test-equivalence classes agree with brute force, trusted lines and the cost budget are honoured, the stop hook stops.

use fixloop::corpus::AnswerExtractor;
use fixloop::lang::ast::StmtKind;
use fixloop::lang::{compile, Limits};
use fixloop::repair::enumerate::{batches_at, split_classes};
use fixloop::repair::holeval::Resolved;
use fixloop::repair::tests::{parse_tests, TestSuite};
use fixloop::repair::{
    repair, repair_with_progress, Control, Engine, RepairConfig, RepairSource, StopReason,
};

const LOOP: &str = "int f(int n, int k) {\n    int s = 0;\n    int i;\n    for (i = 0; i < n; i++) {\n        if (i % 3 == k)\n            s = s + i;\n    }\n    return s;\n}\n";

#[test]
fn equivalence_classes_match_brute_force() {
    let src = RepairSource::new(LOOP).unwrap();
    let program = compile(LOOP).unwrap();
    let tests = parse_tests("7 1 => 5\n5 0 => 3\n0 2 => 0\n9 2 => 15\n").unwrap();
    let suite = TestSuite::new(
        &program,
        tests,
        AnswerExtractor::WholeOutput,
        None,
        &Limits::default(),
    );
    let config = RepairConfig::default();
    let mut checked_batches = 0;
    let mut executions = 0;
    let mut decided = 0;
    for &id in src.statements() {
        let kind = &src.stmt(id).unwrap().stmt.kind;
        if !matches!(kind, StmtKind::If { .. } | StmtKind::Expr(_)) {
            continue;
        }
        let (batches, _plain) = batches_at(&src, id, &config);
        for batch in &batches {
            checked_batches += 1;
            let all: Vec<usize> = (0..batch.patches.len()).collect();
            // u64::MAX: every run follows all its candidates; the small budgets make hot
            // holes, where a run stops following them part-way.
            for (t, max_evaluations) in
                (0..suite.tests().len()).flat_map(|t| [u64::MAX, 0, 3, 40].map(|m| (t, m)))
            {
                let classes = split_classes(batch, &suite, t, &all, max_evaluations, &mut || true);
                if max_evaluations == u64::MAX {
                    executions += classes.len();
                    decided += all.len();
                }
                let mut covered: Vec<usize> =
                    classes.iter().flat_map(|c| c.members.clone()).collect();
                covered.sort_unstable();
                assert_eq!(covered, all, "every candidate in exactly one class");
                for c in &classes {
                    for &m in &c.members {
                        let text = src.apply(&batch.patches[m], &Default::default()).unwrap();
                        let p = compile(&text).unwrap_or_else(|e| panic!("{text}\n{e}"));
                        let brute = p.run_test(&suite.tests()[t].input, &suite.limits_for(t));
                        assert_eq!(
                            (&brute.stdout, &brute.outcome),
                            (&c.exec.stdout, &c.exec.outcome),
                            "candidate {m} of a class behaves differently:\n{text}"
                        );
                    }
                }
            }
        }
    }
    assert!(
        checked_batches >= 4,
        "holes for conditions, guards and assignments"
    );
    assert!(
        decided > 5 * executions,
        "test-equivalence decides many candidates per run ({decided} / {executions})"
    );
}

const MAX: &str = "int max(int a, int b) {\n    if (a < b)\n        return a;\n    return b;\n}\n";

#[test]
fn trusted_lines_are_never_edited() {
    let prog = "int f(int x) {\n    int y = x + 1;\n    return y;\n}\n";
    let tests = parse_tests("1 => 3\n5 => 7\n0 => 2\n").unwrap();
    let free = repair(prog, &tests, None, &RepairConfig::default());
    assert!(
        free.patches[0].description[0].starts_with("line 2:"),
        "{free}"
    );
    let config = RepairConfig {
        trusted_lines: [2].into(),
        ..RepairConfig::default()
    };
    let report = repair(prog, &tests, None, &config);
    assert!(!report.patches.is_empty(), "{report}");
    for p in &report.patches {
        for d in &p.description {
            assert!(!d.starts_with("line 2:"), "edited a trusted line: {d}");
        }
        assert!(
            p.patched_source.contains("    int y = x + 1;\n"),
            "{}",
            p.patched_source
        );
    }
}

#[test]
fn the_budget_bounds_patch_cost() {
    let tests = parse_tests("1 2 => 2\n5 3 => 5\n4 4 => 4\n").unwrap();
    for budget in [0, 1, 3] {
        let config = RepairConfig {
            budget,
            ..RepairConfig::default()
        };
        let report = repair(MAX, &tests, None, &config);
        assert!(report.patches.iter().all(|p| p.cost <= budget));
        assert_eq!(report.patches.is_empty(), budget == 0, "{report}");
    }
}

#[test]
fn the_stop_hook_stops_and_budgets_are_typed() {
    let tests = parse_tests("1 2 => 2\n5 3 => 5\n4 4 => 4\n").unwrap();
    let report = repair_with_progress(MAX, &tests, None, &RepairConfig::default(), &mut |_| {
        Control::Stop
    });
    assert_eq!(report.stop, StopReason::Stopped);
    assert_eq!(report.stats.test_executions, 0);
    let config = RepairConfig {
        max_test_executions: 3,
        ..RepairConfig::default()
    };
    let report = repair(MAX, &tests, None, &config);
    assert_eq!(report.stop, StopReason::BudgetExhausted);
    assert!(report.stats.test_executions <= 3);
    let ok = parse_tests("2 1 => 1\n").unwrap();
    assert_eq!(
        repair(MAX, &ok, None, &RepairConfig::default()).stop,
        StopReason::NothingToRepair
    );
}

/// Needs `n * n`: no single cheap edit repairs it, so no engine ends early with a patch.
const SQUARE: &str = "int f(int n) {\n    int r = n + 1;\n    return r;\n}\n";
const SQUARE_TESTS: &str = "2 => 4\n3 => 9\n4 => 16\n5 => 25\n1 => 1\n";
const ENGINES: [Engine; 4] = [
    Engine::Enumerate,
    Engine::Genetic,
    Engine::Linear,
    Engine::All,
];

#[test]
fn every_engine_stops_promptly_when_asked() {
    let tests = parse_tests(SQUARE_TESTS).unwrap();
    for engine in ENGINES {
        let config = RepairConfig {
            engine,
            ..RepairConfig::default()
        };
        let mut calls_after_stop = 0;
        let report = repair_with_progress(SQUARE, &tests, None, &config, &mut |p| {
            if p.test_executions >= 4 {
                calls_after_stop += 1;
                Control::Stop
            } else {
                Control::Continue
            }
        });
        assert_eq!(report.stop, StopReason::Stopped, "{engine:?}: {report}");
        // The hook is asked before every execution: not one more runs after it says stop.
        assert_eq!(report.stats.test_executions, 4, "{engine:?}: {report}");
        // Nothing plausible, so nothing to validate: no fuzzed input runs either.
        assert!(report.patches.is_empty(), "{engine:?}: {report}");
        assert_eq!(
            report.stats.validation_executions, 0,
            "{engine:?}: {report}"
        );
        // Once refused, an engine (and the engines after it under `All`) stop asking.
        assert!(
            calls_after_stop <= 2,
            "{engine:?}: {calls_after_stop} calls"
        );
    }
}

#[test]
fn every_engine_keeps_the_execution_and_candidate_budgets_exactly() {
    let tests = parse_tests(SQUARE_TESTS).unwrap();
    for engine in ENGINES {
        for n in [1, 3, 7] {
            let config = RepairConfig {
                engine,
                max_test_executions: n,
                ..RepairConfig::default()
            };
            let report = repair(SQUARE, &tests, None, &config);
            assert_eq!(
                report.stop,
                StopReason::BudgetExhausted,
                "{engine:?} {n}: {report}"
            );
            assert_eq!(report.stats.test_executions, n, "{engine:?} {n}: {report}");
        }
        for n in [1, 2, 5] {
            let config = RepairConfig {
                engine,
                max_candidates: n,
                ..RepairConfig::default()
            };
            let report = repair(SQUARE, &tests, None, &config);
            let used = report.stats.candidates;
            assert!(used <= n as u64, "{engine:?} {n}: {report}");
            // The budget is the stop reason unless the engine ran out of candidates or
            // found its plausible patches first (LRA synthesises `n * n` in two).
            assert!(
                report.stop == StopReason::CandidateBudget
                    || (report.stop == StopReason::CandidatesExhausted && used < n as u64)
                    || (report.stop == StopReason::Found && engine == Engine::Linear),
                "{engine:?} {n}: {report}"
            );
        }
    }
}

#[test]
fn single_value_tests_are_recognised() {
    use fixloop::repair::validate::{adds_single_value_test, single_value_tests};
    use fixloop::repair::{Edit, EditKind, Patch};
    let text = "int f(int x) {\n    int r = 1;\n    if (x < 3)\n        r = 2;\n    if (x == 1)\n        r = 4;\n    return r;\n}\n";
    let src = RepairSource::new(text).unwrap();
    let conds: Vec<_> = src
        .statements()
        .iter()
        .filter_map(|&s| match &src.stmt(s).unwrap().stmt.kind {
            StmtKind::If { cond, .. } => Some(cond.clone()),
            _ => None,
        })
        .collect();
    let (lt, eq) = (&conds[0], &conds[1]);
    assert_eq!(single_value_tests(lt), 0);
    assert_eq!(single_value_tests(eq), 1);
    let with_op = |e: &fixloop::lang::ast::Expr, op| {
        let mut e = e.clone();
        if let fixloop::lang::ast::ExprKind::Binary { op: o, .. } = &mut e.kind {
            *o = op;
        }
        e
    };
    use fixloop::lang::ast::BinaryOp;
    let replace = |target: &fixloop::lang::ast::Expr, with, kind| {
        Patch::single(Edit::ReplaceExpr {
            target: target.id,
            with,
            kind,
        })
    };
    // `x < 3` -> `x == 3` adds one; `x < 3` -> `x <= 3` does not.
    let to_eq = replace(lt, with_op(lt, BinaryOp::Eq), EditKind::ReplaceOperator);
    assert!(adds_single_value_test(&src, &to_eq));
    let to_le = replace(lt, with_op(lt, BinaryOp::Le), EditKind::ReplaceOperator);
    assert!(!adds_single_value_test(&src, &to_le));
    // `x == 1` -> `x != 1` keeps the one it had.
    let to_ne = replace(eq, with_op(eq, BinaryOp::Ne), EditKind::ReplaceOperator);
    assert!(!adds_single_value_test(&src, &to_ne));
    // A guard `if (x == 1) S` adds one, `if (x < 3) S` does not.
    let body = src.statements()[0];
    let guard = |cond: &fixloop::lang::ast::Expr| {
        Patch::single(Edit::InsertGuard {
            target: body,
            cond: cond.clone(),
        })
    };
    assert!(adds_single_value_test(&src, &guard(eq)));
    assert!(!adds_single_value_test(&src, &guard(lt)));
}

#[test]
fn single_value_tests_rank_after_equal_cost_alternatives() {
    // `r = 2` should happen for large x; the tests see only x = 3 as large, so the guard
    // `x == 3` fits them as well as `x > 2` or `x >= 3`, at the same cost, and changes
    // the fewest fuzzed inputs.
    let buggy = "int f(int x) {\n    int r = 1;\n    r = 2;\n    return r + 3 - 3;\n}\n";
    let tests = parse_tests("3 => 2\n1 => 1\n0 => 1\n2 => 1\n").unwrap();
    let report = repair(buggy, &tests, None, &RepairConfig::default());
    let top = &report.patches[0];
    assert!(!top.single_value_test, "{report}");
    assert!(
        report
            .patches
            .iter()
            .any(|p| p.single_value_test && p.cost == top.cost),
        "{report}"
    );
    assert!(!top.changed.is_empty());
    assert!(top
        .changed
        .iter()
        .all(|c| c.first_line >= 1 && c.last_line >= c.first_line));
}

#[test]
fn a_general_patch_one_cost_unit_dearer_beats_a_single_value_test() {
    // The result should depend on `b`, not `a`. The tests only see a = 5 among the
    // inputs where the answer is 0, so the cost-1 operator swap `a != 5` fits them as
    // well as the cost-2 variable swap `b < 5`; the swap must rank first (the
    // single-value test singles out the test's value 5 and is wrong for a = 6, b = 9).
    let buggy = "int f(int a, int b) {\n    if (a < 5)\n        return 1;\n    return 0;\n}\n";
    let tests = parse_tests("5 9 => 0\n7 1 => 1\n1 2 => 1\n3 0 => 1\n").unwrap();
    let report = repair(buggy, &tests, None, &RepairConfig::default());
    let top = &report.patches[0];
    assert!(!top.single_value_test, "{report}");
    assert!(top.patched_source.contains("b < 5"), "{report}");
    assert!(
        report
            .patches
            .iter()
            .any(|p| p.single_value_test && p.cost < top.cost),
        "{report}"
    );
    // Without the cost slack the cheaper single-value test is first, as before.
    let strict = RepairConfig {
        cost_tie: 0,
        ..RepairConfig::default()
    };
    let report = repair(buggy, &tests, None, &strict);
    assert!(report.patches[0].single_value_test, "{report}");
}

#[test]
fn a_stop_during_validation_cuts_it_short_but_keeps_the_first_patch() {
    let buggy = "int f(int x) {\n    return x - 1;\n}\n";
    let tests = parse_tests("1 => 2\n2 => 3\n5 => 6\n0 => 1\n").unwrap();
    let config = RepairConfig::default();
    let full = repair(buggy, &tests, None, &config);
    assert!(!full.patches.is_empty(), "{full}");
    assert!(full
        .patches
        .iter()
        .all(|p| p.validated_inputs == config.validation_inputs));
    // Stop as soon as a patch is plausible: the search ends, the first patch is validated
    // on `min_validation_inputs` fuzzed inputs only, and no other patch is validated.
    let report = repair_with_progress(buggy, &tests, None, &config, &mut |p| {
        if p.plausible > 0 {
            Control::Stop
        } else {
            Control::Continue
        }
    });
    assert_eq!(report.stop, StopReason::Stopped, "{report}");
    assert_eq!(report.patches.len(), 1, "{report}");
    let top = &report.patches[0];
    assert_eq!(
        top.validated_inputs, config.min_validation_inputs,
        "{report}"
    );
    assert!(
        report.to_string().contains("on 10 fuzzed inputs"),
        "{report}"
    );
    // Each of those inputs ran the original and the patched program once.
    assert_eq!(
        report.stats.validation_executions,
        (tests.len() + 2 * config.min_validation_inputs) as u64,
        "{report}"
    );
}

/// Integers of several widths and signs, floats, division, casts, shifts, logical and
/// bitwise operators, a conditional: what candidate expressions are made of.
const RESOLVE_TYPES: &str = "int main() {\n    long long a; int b; double d;\n    scanf(\"%lld %d %lf\", &a, &b, &d);\n    unsigned u = b * 3u;\n    char c = (char)(a % 100);\n    short h = (short)(b << 3);\n    int m = (b > 0 && a < 100) || !(c == 'x') ? ~b + (int)(a >> 2) + -b % 7 : 1;\n    if (a / (b + 1) > d)\n        printf(\"%lld\\n\", a - u + m);\n    else\n        printf(\"%f\\n\", d * c - h / 2.0 + (u ^ 5u));\n    return 0;\n}\n";

/// At each hit of a hole on expression `expr`, the resolved copy of `expr` (not treated
/// as the hole) must give what the interpreter computed for it.
struct AgainstVm<'e> {
    expr: &'e fixloop::lang::ast::Expr,
    checked: usize,
}

/// An expression's operator, or its kind of node: what the check covered.
fn node_kind(e: &fixloop::lang::ast::Expr) -> String {
    use fixloop::lang::ast::ExprKind;
    match &e.kind {
        ExprKind::Binary { op, .. } => format!("{op:?}"),
        ExprKind::Unary { op, .. } => format!("{op:?}"),
        k => format!("{k:?}")
            .chars()
            .take_while(|c| c.is_alphanumeric())
            .collect(),
    }
}

impl fixloop::lang::HoleHandler for AgainstVm<'_> {
    fn value(
        &mut self,
        site: &fixloop::lang::bytecode::HoleSite,
        original: u64,
        vars: &[u64],
    ) -> Result<u64, String> {
        let mut elsewhere = site.clone();
        elsewhere.node = fixloop::repair::holeval::FRESH_ID;
        let resolved = Resolved::new(self.expr, &elsewhere).eval_at_hole(original, vars);
        if resolved.as_ref().err().map(String::as_str) != Some("unsupported expression at hole") {
            self.checked += 1;
            assert_eq!(resolved, Ok(original), "{:?}", self.expr);
        }
        Ok(original)
    }
}

#[test]
fn resolved_expressions_evaluate_as_the_interpreter_does() {
    let programs = [
        (LOOP, "7 1\n9 2\n"),
        (RESOLVE_TYPES, "-4 -1 0.25\n9000000000 7 -3\n5 2 1.5\n"),
    ];
    let mut checked = 0;
    let mut covered = std::collections::BTreeSet::new();
    for (text, inputs) in programs {
        let src = RepairSource::new(text).unwrap();
        let mut ids = Vec::new();
        for &id in src.statements() {
            fixloop::lang::visit::for_each_expr_in_stmt(&src.stmt(id).unwrap().stmt, &mut |e| {
                ids.push(e.id)
            });
        }
        for id in ids {
            let Some(expr) = src.expr(id) else { continue };
            let Ok(program) = src.compile_with_hole(id) else {
                continue;
            };
            for line in inputs.lines() {
                let input = fixloop::active::num::parse_input(line).unwrap();
                let mut h = AgainstVm { expr, checked: 0 };
                program.run_test_with_hole(&input, &Limits::default(), &mut h);
                checked += h.checked;
                if h.checked > 0 {
                    covered.insert(node_kind(expr));
                }
            }
        }
    }
    assert!(
        checked > 200,
        "expressions checked at their holes ({checked})"
    );
    for kind in [
        "LogAnd",
        "LogOr",
        "Not",
        "BitNot",
        "Neg",
        "Shl",
        "Shr",
        "Rem",
        "Div",
        "BitXor",
        "Lt",
        "Gt",
        "Eq",
        "Conditional",
        "Cast",
        "CharLit",
        "FloatLit",
        "Ident",
    ] {
        assert!(covered.contains(kind), "no {kind} checked: {covered:?}");
    }
}
