//! The genetic engine bound to C programs: GenProg's statement edits and f1x's expression edits at fault-localised statements, variants run on the repair tests.
//!
//! One mutation operator per enabled [`EditKind`] (cost not [`NEVER`]): delete, insert or
//! replace with a copy of another statement (GenProg's three), and the patch model's
//! expression edits (operator, constant, variable, dropped operand, condition
//! refinement, guard, inserted assignment). A mutation draws a suspicious statement with
//! probability proportional to its fault-localisation score, lists the candidate edits
//! of the operator's kind there (the candidates engine 1 enumerates,
//! [`candidates`](super::candidates), cached), and picks one; edits on trusted lines and variants over the cost budget are
//! never proposed. Variants are applied to the original text, compiled and run on every
//! test; results are cached by patched text, so a variant met twice costs nothing.

use super::budget::{Gate, Stop};
use super::candidates;
use super::cost::EditKind;
use super::cost::NEVER;
use super::gp::{run_gp, Evaluation, GpConfig, GpProblem, GpReport};
use super::localise::Suspicious;
use super::patch::{Edit, Patch, RepairSource};
use super::tests::TestSuite;
use super::RepairConfig;
use crate::lang::bytecode::HoleVar;
use crate::lang::{compile, NodeId};
use rand::rngs::StdRng;
use rand::RngExt;
use std::collections::{HashMap, HashSet};

/// GenProg over the patch model; see the module docs. Every test execution and every
/// variant evaluated is drawn from the repair's [`Gate`].
pub struct ProgramProblem<'a, 'g> {
    gate: &'a mut Gate<'g>,
    src: &'a RepairSource,
    suite: &'a TestSuite,
    config: &'a RepairConfig,
    operators: Vec<EditKind>,
    /// Suspicious statements and their cumulative weights.
    sites: Vec<(NodeId, f64)>,
    constants: Vec<i64>,
    candidates: HashMap<(NodeId, EditKind), Vec<Edit>>,
    /// Statements whose candidates are listed (one scope and one list per statement).
    listed: HashSet<NodeId>,
    cache: HashMap<String, Evaluation>,
    negative: Vec<usize>,
    positive: Vec<usize>,
    /// Test executions so far.
    pub test_executions: u64,
}

impl<'a, 'g> ProgramProblem<'a, 'g> {
    /// The problem for `src` on `suite`, mutating the `suspicious` statements (at most
    /// `config.max_locations`, weighted by score).
    pub fn new(
        src: &'a RepairSource,
        suite: &'a TestSuite,
        suspicious: &[Suspicious],
        config: &'a RepairConfig,
        gate: &'a mut Gate<'g>,
    ) -> ProgramProblem<'a, 'g> {
        // Widening is no edit at a statement, and synthesised expressions and branches
        // come from the tests' angelic values, not from a random draw: repair tries
        // those itself.
        let operators = EditKind::ALL
            .into_iter()
            .filter(|&k| {
                !matches!(
                    k,
                    EditKind::WidenType | EditKind::SynthesiseExpression | EditKind::InsertBranch
                )
            })
            .filter(|&k| config.costs.of(k) != NEVER && config.costs.of(k) <= config.budget)
            .collect();
        let mut total = 0.0;
        let sites = suspicious
            .iter()
            .take(config.max_locations)
            .filter(|s| !config.trusted_lines.contains(&s.line))
            .map(|s| {
                total += s.score.max(1e-6);
                (s.stmt, total)
            })
            .collect();
        let negative = suite.failing();
        let positive = suite
            .order()
            .iter()
            .copied()
            .filter(|t| !negative.contains(t))
            .collect();
        ProgramProblem {
            gate,
            src,
            suite,
            config,
            operators,
            sites,
            constants: src.constants(),
            candidates: HashMap::new(),
            listed: HashSet::new(),
            cache: HashMap::new(),
            negative,
            positive,
            test_executions: 0,
        }
    }

    /// The edit kind of operator `op`.
    pub fn operator_kind(&self, op: usize) -> Option<EditKind> {
        self.operators.get(op).copied()
    }

    fn draw_site(&self, rng: &mut StdRng) -> Option<NodeId> {
        let total = self.sites.last()?.1;
        let x = rng.random_range(0.0..total);
        self.sites
            .iter()
            .find(|&&(_, cum)| x < cum)
            .or(self.sites.last())
            .map(|&(id, _)| id)
    }

    /// The candidate edits of `kind` at statement `stmt` ([`candidates::candidates_at`]
    /// over the scope at its first own expression, once per statement; cached per kind).
    fn candidates_at(&mut self, stmt: NodeId, kind: EditKind) -> &[Edit] {
        if !self.candidates.contains_key(&(stmt, kind)) {
            if !self.listed.contains(&stmt) {
                let scope = self
                    .src
                    .stmt(stmt)
                    .map(|info| self.scope_at(&info.own_exprs))
                    .unwrap_or_default();
                let all =
                    candidates::candidates_at(self.src, stmt, &scope, &self.constants, self.config);
                for c in all {
                    self.candidates
                        .entry((stmt, c.edit.kind()))
                        .or_default()
                        .push(c.edit);
                }
                self.listed.insert(stmt);
            }
            self.candidates.entry((stmt, kind)).or_default();
        }
        &self.candidates[&(stmt, kind)]
    }

    /// The integer and floating scalar variables in scope at a statement's first own
    /// expression (empty for statements without one).
    fn scope_at(&self, own: &[NodeId]) -> Vec<HoleVar> {
        own.iter()
            .find_map(|&id| self.src.vars_at(id))
            .unwrap_or_default()
    }
}

impl GpProblem for ProgramProblem<'_, '_> {
    type Edit = Edit;

    fn operators(&self) -> usize {
        self.operators.len()
    }

    fn mutate(&mut self, op: usize, parent: &[Edit], rng: &mut StdRng) -> Option<Edit> {
        let kind = self.operator_kind(op)?;
        // A few statements are drawn: the operator may have nothing at the first.
        for _ in 0..4 {
            let stmt = self.draw_site(rng)?;
            let budget = self.config.budget;
            let costs = self.config.costs.clone();
            let cands = self.candidates_at(stmt, kind);
            if cands.is_empty() {
                continue;
            }
            let edit = cands[rng.random_range(0..cands.len())].clone();
            // The engine drops the parent's edits that conflict with the new one, so the
            // budget applies to the new edit plus the others.
            let kept: u32 = parent
                .iter()
                .filter(|e| !self.conflicts(e, &edit))
                .map(|e| e.cost(&costs))
                .fold(0u32, u32::saturating_add);
            if kept.saturating_add(edit.cost(&costs)) <= budget {
                return Some(edit);
            }
        }
        None
    }

    fn conflicts(&self, a: &Edit, b: &Edit) -> bool {
        let stmt_of = |e: &Edit| match e {
            Edit::ReplaceExpr { target, .. } => self.src.owner_of(*target),
            other => Some(other.target()),
        };
        a.target() == b.target() || stmt_of(a) == stmt_of(b)
    }

    fn evaluate(&mut self, edits: &[Edit]) -> Evaluation {
        if edits.is_empty() {
            // The original program: the suite already ran it (its failing tests are the
            // negative ones), so no execution is spent.
            return Evaluation {
                passed_positive: self.positive.len(),
                passed_negative: 0,
                valid: true,
            };
        }
        let patch = Patch {
            edits: edits.to_vec(),
        };
        if patch.cost(&self.config.costs) > self.config.budget {
            return Evaluation::default();
        }
        let Ok(text) = self.src.apply(&patch, &self.config.trusted_lines) else {
            return Evaluation::default();
        };
        if let Some(e) = self.cache.get(&text) {
            return *e;
        }
        if self.gate.candidates(1).is_err() {
            return Evaluation::default();
        }
        self.gate.stats.candidates_decided += 1;
        let eval = match compile(&text) {
            Err(_) => Evaluation::default(),
            Ok(program) => {
                let mut passed = [0, 0];
                for (i, t) in self.negative.iter().chain(&self.positive).enumerate() {
                    if self.gate.execution().is_err() {
                        return Evaluation::default();
                    }
                    self.gate.stats.plain_executions += 1;
                    self.test_executions += 1;
                    if self.suite.run(&program, *t).1 {
                        passed[usize::from(i >= self.negative.len())] += 1;
                    }
                }
                Evaluation {
                    passed_positive: passed[1],
                    passed_negative: passed[0],
                    valid: true,
                }
            }
        };
        self.cache.insert(text, eval);
        eval
    }

    fn halted(&self) -> Option<Stop> {
        // The gate's refusals stick: once it refused, it names why.
        self.gate.stopped()
    }

    fn test_counts(&self) -> (usize, usize) {
        (self.positive.len(), self.negative.len())
    }
}

/// Runs GenProg on `src`: the plausible patch found (if any), the search report and the
/// test executions it used. Executions and variants are drawn from `gate`, so the
/// repair's budgets hold exactly (the gate's [`Stop`] when they or a stop request end
/// it).
pub fn genetic(
    src: &RepairSource,
    suite: &TestSuite,
    suspicious: &[Suspicious],
    config: &RepairConfig,
    gp: &GpConfig,
    gate: &mut Gate,
) -> (Option<Patch>, GpReport<Edit>, u64) {
    let mut problem = ProgramProblem::new(src, suite, suspicious, config, gate);
    let report = run_gp(&mut problem, gp);
    let patch = report.patch.clone().map(|edits| Patch { edits });
    if let Some(p) = &patch {
        problem.gate.plausible(p.cost(&config.costs));
    }
    (patch, report, problem.test_executions)
}

/// [`genetic`] on its own, with a fresh gate holding `config`'s budgets and no progress
/// hook: for tests.
pub fn genetic_alone(
    src: &RepairSource,
    suite: &TestSuite,
    suspicious: &[Suspicious],
    config: &RepairConfig,
    gp: &GpConfig,
) -> (Option<Patch>, GpReport<Edit>, u64) {
    let mut go_on = |_: &super::Progress| super::Control::Continue;
    genetic_with_progress(src, suite, suspicious, config, gp, &mut go_on)
}

/// [`genetic`] on its own with a fresh gate holding `config`'s budgets, asking
/// `progress` before every test execution (a time bound stops the run there): for the
/// operator-selection evaluation.
pub fn genetic_with_progress(
    src: &RepairSource,
    suite: &TestSuite,
    suspicious: &[Suspicious],
    config: &RepairConfig,
    gp: &GpConfig,
    progress: &mut dyn FnMut(&super::Progress) -> super::Control,
) -> (Option<Patch>, GpReport<Edit>, u64) {
    let mut stats = super::RepairStats::default();
    let mut gate = Gate::new(config, &mut stats, progress);
    genetic(src, suite, suspicious, config, gp, &mut gate)
}

/// A repair set-up for tests: source, suite and suspicious statements.
#[cfg(test)]
pub(crate) fn fixture(source: &str, tests: &str) -> (RepairSource, TestSuite, Vec<Suspicious>) {
    let config = RepairConfig::default();
    let program = compile(source).expect("test program compiles");
    let src = RepairSource::new(source).expect("test program parses");
    let suite = TestSuite::new(
        &program,
        super::tests::parse_tests(tests).expect("tests parse"),
        config.extractor.clone(),
        None,
        &config.limits,
    );
    let (suspicious, _) = super::localise::localise(&program, &suite, config.weighting);
    (src, suite, suspicious)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passes_all(src: &RepairSource, suite: &TestSuite, patch: &Patch) -> bool {
        let text = src.apply(patch, &Default::default()).unwrap();
        let program = compile(&text).unwrap();
        (0..suite.tests().len()).all(|t| suite.run(&program, t).1)
    }

    const MAX: &str =
        "int max(int a, int b) {\n    if (a < b)\n        return a;\n    return b;\n}\n";
    const MAX_TESTS: &str = "1 2 => 2\n5 3 => 5\n4 4 => 4\n-1 -5 => -1\n0 7 => 7\n";

    #[test]
    fn genprog_repairs_a_wrong_comparison() {
        let (src, suite, suspicious) = fixture(MAX, MAX_TESTS);
        let config = RepairConfig::default();
        let gp = GpConfig {
            seed: 1,
            ..GpConfig::default()
        };
        let (patch, report, executions) = genetic_alone(&src, &suite, &suspicious, &config, &gp);
        let patch = patch.unwrap_or_else(|| panic!("no patch:\n{report}"));
        assert!(passes_all(&src, &suite, &patch), "{patch:?}");
        assert!(executions > 0 && report.evaluations > 0);
        // Deterministic for the seed.
        let (again, r2, _) = genetic_alone(&src, &suite, &suspicious, &config, &gp);
        assert_eq!(again, Some(patch));
        assert_eq!(r2.evaluations, report.evaluations);
    }

    #[test]
    fn a_progress_hook_bounds_a_run() {
        let (src, suite, suspicious) = fixture(MAX, MAX_TESTS);
        let config = RepairConfig::default();
        let gp = GpConfig {
            seed: 1,
            ..GpConfig::default()
        };
        // Stop after ten test executions: the run ends there, without a patch.
        let mut asked = 0;
        let mut ten = |p: &crate::repair::Progress| {
            asked += 1;
            if p.test_executions >= 10 {
                crate::repair::Control::Stop
            } else {
                crate::repair::Control::Continue
            }
        };
        let (patch, _, executions) =
            genetic_with_progress(&src, &suite, &suspicious, &config, &gp, &mut ten);
        assert_eq!(executions, 10);
        assert!(patch.is_none());
        assert!(asked >= 10);
        // Unbounded, the same seed repairs (see genprog_repairs_a_wrong_comparison) with
        // more executions than that.
        let (_, _, unbounded) = genetic_alone(&src, &suite, &suspicious, &config, &gp);
        assert!(unbounded > 10);
    }

    #[test]
    fn genprog_deletes_a_wrong_statement() {
        let sum = "int main() {\n    int n, i;\n    int s = 0;\n    scanf(\"%d\", &n);\n    for (i = 1; i <= n; i++) {\n        s = s + i;\n    }\n    s = s * 2;\n    printf(\"%d\\n\", s);\n    return 0;\n}\n";
        let tests = "0 => 0\n1 => 1\n3 => 6\n4 => 10\n10 => 55\n";
        let (src, suite, suspicious) = fixture(sum, tests);
        // Only statement edits: GenProg's own three operators.
        let mut config = RepairConfig::default();
        for k in EditKind::ALL {
            if !matches!(
                k,
                EditKind::DeleteStatement | EditKind::InsertCopy | EditKind::ReplaceCopy
            ) {
                match k {
                    EditKind::ReplaceOperator => config.costs.replace_operator = NEVER,
                    EditKind::ReplaceConstant => config.costs.replace_constant = NEVER,
                    EditKind::ReplaceVariable => config.costs.replace_variable = NEVER,
                    EditKind::DropOperand => config.costs.drop_operand = NEVER,
                    EditKind::RefineCondition => config.costs.refine_condition = NEVER,
                    EditKind::InsertGuard => config.costs.insert_guard = NEVER,
                    EditKind::InsertAssignment => config.costs.insert_assignment = NEVER,
                    _ => {}
                }
            }
        }
        let mut stats = crate::repair::RepairStats::default();
        let mut go_on = |_: &crate::repair::Progress| crate::repair::Control::Continue;
        let mut gate = Gate::new(&config, &mut stats, &mut go_on);
        let problem = ProgramProblem::new(&src, &suite, &suspicious, &config, &mut gate);
        assert_eq!(problem.operators(), 3);
        drop(problem);
        let (patch, report, _) =
            genetic_alone(&src, &suite, &suspicious, &config, &GpConfig::default());
        let patch = patch.unwrap_or_else(|| panic!("no patch:\n{report}"));
        assert!(passes_all(&src, &suite, &patch));
        let text = src.apply(&patch, &Default::default()).unwrap();
        assert!(!text.contains("s = s * 2;"), "{text}");
    }

    #[test]
    fn repair_dispatches_to_the_genetic_engine() {
        let tests = super::super::tests::parse_tests(MAX_TESTS).unwrap();
        let config = RepairConfig {
            engine: super::super::Engine::Genetic,
            ..RepairConfig::default()
        };
        let report = super::super::repair(MAX, &tests, None, &config);
        assert_eq!(report.stop, super::super::StopReason::Found, "{report}");
        let top = &report.patches[0];
        assert_eq!(top.tests_passed, top.tests_total);
        assert!(report.stats.first_plausible_at.is_some());
    }

    #[test]
    fn trusted_lines_and_budget_are_honoured() {
        let (src, suite, suspicious) = fixture(MAX, MAX_TESTS);
        // The only wrong line is trusted: no patch may touch it.
        let config = RepairConfig {
            trusted_lines: [2].into(),
            ..RepairConfig::default()
        };
        let gp = GpConfig {
            max_evaluations: 120,
            ..GpConfig::default()
        };
        let mut stats = crate::repair::RepairStats::default();
        let mut go_on = |_: &crate::repair::Progress| crate::repair::Control::Continue;
        let mut gate = Gate::new(&config, &mut stats, &mut go_on);
        let mut problem = ProgramProblem::new(&src, &suite, &suspicious, &config, &mut gate);
        let report = run_gp(&mut problem, &gp);
        for edits in report.patch.iter() {
            for e in edits {
                assert!(src.check(e, &config.trusted_lines).is_ok());
            }
        }
        // A budget below every edit's cost leaves no operator at all.
        let config = RepairConfig {
            budget: 0,
            ..RepairConfig::default()
        };
        let (patch, report, _) = genetic_alone(&src, &suite, &suspicious, &config, &gp);
        assert!(patch.is_none());
        assert!(
            matches!(&report.stop, Stop::Invalid(m) if m.starts_with("operator selection")),
            "{report}"
        );
    }
}
