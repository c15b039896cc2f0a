//! After the tests: re-check plausible patches on fresh fuzzed inputs, minimise multi-edit patches, keep one patch per behaviour class, and rank.

use std::collections::BTreeSet;

use rand::rngs::StdRng;
use rand::SeedableRng;

use super::patch::{Edit, Patch, RepairSource};
use super::tests::{RunResult, TestSuite};
use crate::active::fuzz::{FuzzConfig, Fuzzer};
use crate::active::observe::Status;
use crate::lang::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::lang::visit::for_each_expr;
use crate::lang::{Num, Program};

/// `count` fresh inputs fuzzed around the tests' inputs with `config` (seeded, so runs
/// replay).
pub fn fuzz_inputs(
    suite: &TestSuite,
    config: &FuzzConfig,
    count: usize,
    seed: u64,
) -> Vec<Vec<Num>> {
    let seeds: Vec<&[Num]> = suite.tests().iter().map(|t| &t.input[..]).collect();
    fuzz_around(&seeds, config, count, seed)
}

/// Most inputs [`constant_inputs`] adds.
pub const MAX_CONSTANT_INPUTS: usize = 24;

/// Inputs that put the program's `constants` where the first test has an integer: each
/// constant `c` from 2 to 10^6 and its multiples `2c` and `3c`, one position at a time,
/// the rest of the first test's input kept; each inside its position's range of
/// `config`, none of `known`, at most [`MAX_CONSTANT_INPUTS`]. Fuzzing near the tests rarely reaches a program's own round
/// numbers, where patches that agree near the tests part ways (`y % 4 == 0` against
/// `y % 4 == 0 && y % 100 != 0 || y % 400 == 0` first differ at 100).
pub fn constant_inputs(
    suite: &TestSuite,
    config: &FuzzConfig,
    constants: &[i64],
    known: &[Vec<Num>],
) -> Vec<Vec<Num>> {
    let Some(first) = suite.tests().first() else {
        return Vec::new();
    };
    let mut out: Vec<Vec<Num>> = Vec::new();
    let values = constants
        .iter()
        .filter(|c| (2..=1_000_000).contains(*c))
        .flat_map(|&c| [c, 2 * c, 3 * c]);
    for v in values {
        for (at, n) in first.input.iter().enumerate() {
            if !matches!(n, Num::Int(_)) {
                continue;
            }
            let in_range = config
                .ranges
                .get(at)
                .and_then(Option::as_ref)
                .is_none_or(|r| r.contains(&Num::Int(v)));
            let mut input = first.input.clone();
            input[at] = Num::Int(v);
            let fresh = in_range
                && !known.contains(&input)
                && !out.contains(&input)
                && suite.tests().iter().all(|t| t.input != input);
            if fresh {
                out.push(input);
            }
            if out.len() >= MAX_CONSTANT_INPUTS {
                return out;
            }
        }
    }
    out
}

/// `count` fresh inputs (none of the seeds) fuzzed with `config` around the seeds of the
/// first seed's shape, fewer when the fuzzer finds no new one (seeded, so runs replay).
pub fn fuzz_around(
    seeds: &[&[Num]],
    config: &FuzzConfig,
    count: usize,
    seed: u64,
) -> Vec<Vec<Num>> {
    let Some(first) = seeds.first() else {
        return Vec::new();
    };
    let mut fuzzer = Fuzzer::new(first, config.clone());
    for s in seeds {
        fuzzer.mark_seen(s);
    }
    let same_shape: Vec<&[Num]> = seeds
        .iter()
        .copied()
        .filter(|s| s.len() == first.len())
        .collect();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        match fuzzer.next(&same_shape, &mut rng) {
            Ok(i) => out.push(i),
            Err(_) => break,
        }
    }
    out
}

/// What the validation of one patched program found.
#[derive(Debug, Clone, PartialEq)]
pub struct Validation {
    /// Share of the fuzzed inputs run on which the patched program ends normally and
    /// (with a learned oracle) is not flagged as a bug; 1.0 with no fuzzed inputs.
    pub score: f64,
    /// Fuzzed inputs run: all of them, unless a stop request cut the validation short.
    pub inputs: usize,
    /// The behaviour: results on every test, then on every fuzzed input run.
    pub behaviour: Vec<RunResult>,
    /// Test executions used (the original program's runs on fuzzed inputs included).
    pub executions: u64,
    /// Share of fuzzed inputs run on which the patched program's result differs from the
    /// original program's: the semantic size of the change, a tie-breaker that prefers
    /// the patch that changes least beyond the tests.
    pub changed: f64,
}

impl Validation {
    /// Whether every fuzzed input was run.
    pub fn complete(&self, inputs: &[Vec<Num>]) -> bool {
        self.inputs == inputs.len()
    }
}

/// The original program, and its results on the fuzzed inputs run so far (shared by the
/// validations of all patches, so each input runs it once).
pub struct Original<'a> {
    /// The original program.
    pub program: &'a Program,
    /// Its results on the first fuzzed inputs, in order.
    pub results: Vec<RunResult>,
}

/// Runs `program` on the tests and the fuzzed `inputs` and scores it, running the
/// original program on inputs it has not seen yet. From the `min_inputs`-th fuzzed input
/// on, `go_on` is asked before each one; when it says no, the validation ends there,
/// scored on the inputs run (bounded repairs stay bounded, a Stop is honoured).
pub fn validate(
    program: &Program,
    suite: &TestSuite,
    inputs: &[Vec<Num>],
    original: &mut Original,
    min_inputs: usize,
    go_on: &mut dyn FnMut() -> bool,
) -> Validation {
    let mut behaviour = Vec::with_capacity(suite.tests().len() + inputs.len());
    for (i, t) in suite.tests().iter().enumerate() {
        behaviour.push(suite.result(&program.run_test(&t.input, &suite.limits_for(i))));
    }
    let mut executions = behaviour.len() as u64;
    let mut good = 0;
    let mut changed = 0;
    let mut run = 0;
    for (k, input) in inputs.iter().enumerate() {
        if k >= min_inputs && !go_on() {
            break;
        }
        if original.results.len() == k {
            let r = suite.result(&original.program.run_test(input, suite.limits()));
            original.results.push(r);
            executions += 1;
        }
        let r = suite.result(&program.run_test(input, suite.limits()));
        executions += 1;
        run += 1;
        if super::tests::changed(&original.results[k], &r) {
            changed += 1;
        }
        let flagged = suite
            .oracle()
            .is_some_and(|o| o.flags(input, r.status, r.answer.as_deref()));
        if r.status == Status::Normal && !flagged {
            good += 1;
        }
        behaviour.push(r);
    }
    let share = |n: usize, none: f64| {
        if run == 0 {
            none
        } else {
            n as f64 / run as f64
        }
    };
    Validation {
        score: share(good, 1.0),
        inputs: run,
        executions,
        behaviour,
        changed: share(changed, 0.0),
    }
}

/// For each behaviour (results on the same fuzzed inputs, one per plausible patch):
/// the mean, over the other distinct behaviours, of the share of inputs on which they
/// give the same result. Patches that overfit the few tests each go wrong in their own
/// way, while correct patches compute the same function and so agree with each other:
/// the behaviour most of the plausible ones share is the better guess. Equal
/// behaviours count once (a class of equivalent edits is one witness); 1.0 when there
/// is nothing to compare with.
pub fn agreement(behaviours: &[&[RunResult]]) -> Vec<f64> {
    let mut classes: Vec<&[RunResult]> = Vec::new();
    for b in behaviours {
        if !classes.contains(b) {
            classes.push(b);
        }
    }
    behaviours
        .iter()
        .map(|b| {
            let others: Vec<&&[RunResult]> = classes.iter().filter(|c| *c != b).collect();
            if others.is_empty() || b.is_empty() {
                return 1.0;
            }
            let same: usize = others
                .iter()
                .map(|c| {
                    c.iter()
                        .zip(b.iter())
                        .filter(|(x, y)| !super::tests::changed(x, y))
                        .count()
                })
                .sum();
            same as f64 / (others.len() * b.len()) as f64
        })
        .collect()
}

/// Delta debugging (ddmin) over a patch's edits: a smallest subset (1-minimal) for which
/// `plausible` still holds. A one-edit patch is returned as is.
pub fn minimise(patch: &Patch, plausible: &mut dyn FnMut(&Patch) -> bool) -> Patch {
    let mut edits: Vec<Edit> = patch.edits.clone();
    let mut n = 2;
    while edits.len() >= 2 {
        let chunk = edits.len().div_ceil(n);
        let mut reduced = false;
        for start in (0..edits.len()).step_by(chunk) {
            let end = (start + chunk).min(edits.len());
            let subset: Vec<Edit> = edits[start..end].to_vec();
            let complement: Vec<Edit> = edits[..start]
                .iter()
                .chain(&edits[end..])
                .cloned()
                .collect();
            for candidate in [subset, complement] {
                if !candidate.is_empty()
                    && candidate.len() < edits.len()
                    && plausible(&Patch {
                        edits: candidate.clone(),
                    })
                {
                    edits = candidate;
                    n = 2.max(n - 1);
                    reduced = true;
                    break;
                }
            }
            if reduced {
                break;
            }
        }
        if !reduced {
            if n >= edits.len() {
                break;
            }
            n = (2 * n).min(edits.len());
        }
    }
    Patch { edits }
}

/// Whether the patch writes a constant that is neither in the program, nor one off a
/// program constant, nor in -1..=2, but is one of the tests' input numbers or expected
/// answers: a hard-coded test.
pub fn hardcodes_test_constant(src: &RepairSource, patch: &Patch, suite: &TestSuite) -> bool {
    let program: BTreeSet<i64> = src
        .constants()
        .into_iter()
        .flat_map(|c| [c.checked_sub(1), Some(c), c.checked_add(1)])
        .flatten()
        .chain(-1..=2)
        .collect();
    let mut from_tests: BTreeSet<i64> = BTreeSet::new();
    for t in suite.tests() {
        for n in &t.input {
            if let Num::Int(i) = n {
                from_tests.insert(*i);
            }
        }
        if let super::tests::Expectation::Output(o) = &t.expect {
            from_tests.extend(o.split_whitespace().filter_map(|w| w.parse::<i64>().ok()));
        }
    }
    let mut hard = false;
    for e in &patch.edits {
        e.visit_new_exprs(&mut |x| {
            if let ExprKind::IntLit { value, .. } = x.kind {
                if let Ok(v) = i64::try_from(value) {
                    if !program.contains(&v) && from_tests.contains(&v) {
                        hard = true;
                    }
                }
            }
        });
    }
    hard
}

/// Whether `e` is a constant: an integer or character literal, possibly negated.
fn is_constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::IntLit { .. } | ExprKind::CharLit(_) => true,
        ExprKind::Unary {
            op: UnaryOp::Neg | UnaryOp::Plus,
            operand,
        } => is_constant(operand),
        _ => false,
    }
}

/// Number of single-value tests in `e`: comparisons `x == c` or `x != c` of a
/// non-constant `x` with a constant `c` (either side).
pub fn single_value_tests(e: &Expr) -> usize {
    let mut n = 0;
    for_each_expr(e, &mut |x| {
        if let ExprKind::Binary {
            op: BinaryOp::Eq | BinaryOp::Ne,
            lhs,
            rhs,
        } = &x.kind
        {
            if is_constant(lhs) != is_constant(rhs) {
                n += 1;
            }
        }
    });
    n
}

/// Whether the patch's condition edit introduces a single-value test (`x == c` or
/// `x != c` with a constant `c`, see [`single_value_tests`]): a new guard that contains
/// one, or a replaced expression (refined condition, swapped operator, synthesised
/// condition) with more of them than the original. Such a condition separates one
/// value from all others, which is how a patch singles out the labelled inputs; among
/// equal-cost patches it is ranked after those without one.
pub fn adds_single_value_test(src: &RepairSource, patch: &Patch) -> bool {
    patch.edits.iter().any(|e| match e {
        Edit::InsertGuard { cond, .. } => single_value_tests(cond) > 0,
        Edit::ReplaceExpr { target, with, .. } => {
            single_value_tests(with) > src.expr(*target).map_or(0, single_value_tests)
        }
        Edit::InsertBefore { .. }
        | Edit::ReplaceStmt { .. }
        | Edit::DeleteStmt { .. }
        | Edit::WidenDecl { .. } => false,
    })
}

/// Why a patch is ranked below others of equal validation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Demotion {
    /// Not demoted.
    None,
    /// It only deletes behaviour (deleted statements, dropped operands).
    OnlyDeletes,
    /// It writes a test's constant into the program.
    HardcodesTest,
}

impl Demotion {
    /// The demotion of `patch`.
    pub fn of(src: &RepairSource, patch: &Patch, suite: &TestSuite) -> Demotion {
        if hardcodes_test_constant(src, patch, suite) {
            Demotion::HardcodesTest
        } else if patch.only_deletes() {
            Demotion::OnlyDeletes
        } else {
            Demotion::None
        }
    }
}
