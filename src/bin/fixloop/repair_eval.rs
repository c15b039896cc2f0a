//! `fixloop eval --repair`: repair over a corpus with the subjects' train tests or the active loop's labels; repairability, held-out pass rate of the top patch, speed.

use crate::eval_setup::{
    active_config, parallel_map, selected_files, thread_clock, thread_count, AskingArg, EvalArgs,
    Timing,
};
use crate::repair::subject_tests;
use crate::shard;
use fixloop::active::eval::Stat;
use fixloop::active::formula::FormulaOracle;
use fixloop::active::num::parse_input;
use fixloop::active::program::ProgramRunner;
use fixloop::active::reference::{Answerer, ReferenceLabeller};
use fixloop::active::{ActiveConfig, ActiveLoop, Labeller, Runner, Step};
use fixloop::active::{FuzzConfig, Num};
use fixloop::compare::outputs_match;
use fixloop::corpus::AnswerExtractor;
use fixloop::corpus::Subject;
use fixloop::lang::{compile, Limits};
use fixloop::repair::choose::{ChoiceAnswer, ChooseConfig, ChooseStep, PatchChooser};
use fixloop::repair::tests::repair_tests;
use fixloop::repair::{Control, Engine, LearnedOracle, Progress, RepairConfig, RepairTest};
use fixloop::session::repair_phase::{page_choose_config, page_repair_config};
use fixloop::session::Settings;
use serde::{Deserialize, Serialize};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// One subject's repair result (a shard's partial report carries these).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row {
    id: String,
    /// `None`: skipped (with the reason).
    skipped: Option<String>,
    repaired: bool,
    heldout_pass: f64,
    first_ms: Option<f64>,
    total_ms: f64,
    /// CPU of every phase of the subject: reading and labelling, the searches and
    /// questions (`total_ms`, the part the bound covers), the search with no question and
    /// the held-out measurement.
    #[serde(default)]
    all_phases_ms: f64,
    wall_ms: f64,
    test_executions: u64,
    hole_decisions: u64,
    engine_runs: u64,
    plain_runs: u64,
    stop: String,
    /// Every ranked patch still in the running after the questions, best first, with
    /// its held-out pass rate.
    patches: Vec<PatchRow>,
    /// The top patch after each question budget.
    snapshots: Vec<Snapshot>,
    /// Searches run (1 + those after answers ruled every patch out).
    repairs: usize,
    /// The questions about patches, in order: `kind input => answer` (`?` skipped).
    #[serde(default)]
    asked: Vec<String>,
    /// Held-out tests left out of the measure: the golden program fails them under the
    /// run's fuel.
    #[serde(default)]
    heldout_golden_fails: usize,
    /// The learned oracle repair started from (labels only).
    #[serde(default)]
    formula: Option<String>,
    /// The repair tests it started from, one `input => expectation` each.
    #[serde(default)]
    tests: Vec<String>,
}

/// One ranked patch of a subject.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct PatchRow {
    cost: u32,
    validation: f64,
    demotion: String,
    single_value_test: bool,
    behaviour_change: f64,
    agreement: f64,
    /// `(node, first line, last line, edit kind)` per edit.
    changed: Vec<(u32, u32, u32, String)>,
    edits: Vec<String>,
    heldout_pass: f64,
}

impl PatchRow {
    fn json(&self) -> serde_json::Value {
        let changed: Vec<serde_json::Value> = self
            .changed
            .iter()
            .map(|(node, first, last, kind)| {
                serde_json::json!({"node": node, "first_line": first, "last_line": last, "kind": kind})
            })
            .collect();
        serde_json::json!({
            "cost": self.cost,
            "validation": self.validation,
            "demotion": self.demotion,
            "single_value_test": self.single_value_test,
            "behaviour_change": self.behaviour_change,
            "agreement": self.agreement,
            "changed": changed,
            "edits": self.edits,
            "heldout_pass": self.heldout_pass,
        })
    }
}

impl Row {
    /// The subject's line in `--json`'s `per_subject`, every ranked patch listed; its
    /// times (`first_patch_ms`, `cpu_ms`, `wall_ms`) only with `timing`.
    fn json(&self, timing: bool) -> serde_json::Value {
        let mut v = serde_json::json!({
            "id": self.id,
            "repaired": self.repaired,
            "heldout_pass": self.heldout_pass,
            "test_executions": self.test_executions,
            "stop": self.stop,
            "top_not_correct": Cause::of(&self.patches).map(Cause::name),
            "repairs": self.repairs,
            "by_questions": self.snapshots.iter().map(|s| serde_json::json!({
                "questions": s.questions,
                "repaired": s.repaired,
                "heldout_pass": s.heldout_pass,
                "questions_used": s.questions_used,
                "outputs_asked": s.outputs_asked,
                "claims_fix": s.claims_fix,
                "passes_every_test": s.passes_every_test,
            })).collect::<Vec<_>>(),
            "asked": self.asked,
            "heldout_golden_fails": self.heldout_golden_fails,
            "formula": self.formula,
            "tests": self.tests,
            "patches": self.patches.iter().map(PatchRow::json).collect::<Vec<_>>(),
        });
        if let (true, Some(m)) = (timing, v.as_object_mut()) {
            m.insert("first_patch_ms".into(), serde_json::json!(self.first_ms));
            m.insert("cpu_ms".into(), self.total_ms.into());
            m.insert("all_phases_cpu_ms".into(), self.all_phases_ms.into());
            m.insert("wall_ms".into(), self.wall_ms.into());
        }
        v
    }
}

/// Why the top patch of a repaired subject does not pass every held-out test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cause {
    /// A lower-ranked patch passes every held-out test.
    CorrectRankedLower,
    /// No lower-ranked patch passes them all, but one passes more than the top patch.
    BetterRankedLower,
    /// No ranked patch passes more held-out tests than the top patch.
    NothingBetter,
}

impl Cause {
    /// The cause for a subject's ranked patches (best first); `None` when the top patch
    /// passes every held-out test or there is none.
    fn of(patches: &[PatchRow]) -> Option<Cause> {
        let top = patches.first()?.heldout_pass;
        if top >= 1.0 {
            return None;
        }
        let best = patches[1..]
            .iter()
            .map(|p| p.heldout_pass)
            .fold(0.0f64, f64::max);
        Some(if best >= 1.0 {
            Cause::CorrectRankedLower
        } else if best > top {
            Cause::BetterRankedLower
        } else {
            Cause::NothingBetter
        })
    }

    fn name(self) -> &'static str {
        match self {
            Cause::CorrectRankedLower => "correct_ranked_lower",
            Cause::BetterRankedLower => "better_ranked_lower",
            Cause::NothingBetter => "nothing_better",
        }
    }
}

/// A subject's held-out tests that its golden program passes within the run's fuel: the
/// yardstick of a patch. A test the golden program itself cannot pass there (an O(n^2)
/// loop on n = 10^4 runs past the fuel) judges no patch, so it is left out.
struct HeldOut {
    tests: Vec<(Vec<fixloop::active::Num>, String)>,
    /// Held-out tests left out because the golden program fails them under the fuel
    /// (for the strict measure of earlier figures).
    left_out: Vec<(Vec<fixloop::active::Num>, String)>,
    extractor: AnswerExtractor,
    limits: Limits,
}

impl HeldOut {
    fn new(subject: &Subject, extractor: &AnswerExtractor, fuel: u64) -> HeldOut {
        let limits = Limits {
            fuel,
            ..Limits::default()
        };
        let golden = compile(&subject.golden).ok();
        let mut held = HeldOut {
            tests: Vec::new(),
            left_out: Vec::new(),
            extractor: extractor.clone(),
            limits,
        };
        for t in &subject.tests.heldout {
            let Some(input) = parse_input(&t.input) else {
                continue;
            };
            let passes = golden
                .as_ref()
                .is_some_and(|g| held.passes(g, &input, &t.output));
            if passes {
                held.tests.push((input, t.output.clone()));
            } else {
                held.left_out.push((input, t.output.clone()));
            }
        }
        held
    }

    fn passes(
        &self,
        program: &fixloop::lang::Program,
        input: &[fixloop::active::Num],
        output: &str,
    ) -> bool {
        let exec = program.run_test(input, &self.limits);
        let answer = self
            .extractor
            .answer(&String::from_utf8_lossy(&exec.stdout));
        exec.exited() && answer.is_some_and(|a| outputs_match(&a, output))
    }

    /// Whether `source` passes the held-out tests left out (those the golden program
    /// fails under the fuel): with [`HeldOut::pass_rate`] 1, the measure of figures before
    /// they were left out.
    fn passes_left_out(&self, source: &str) -> bool {
        if self.left_out.is_empty() {
            return true;
        }
        let Ok(patched) = compile(source) else {
            return false;
        };
        self.left_out
            .iter()
            .all(|(input, output)| self.passes(&patched, input, output))
    }

    /// Share of the tests that `source` passes (0 when it does not compile, 1 with no
    /// tests).
    fn pass_rate(&self, source: &str) -> f64 {
        let Ok(patched) = compile(source) else {
            return 0.0;
        };
        if self.tests.is_empty() {
            return 1.0;
        }
        let passed = self
            .tests
            .iter()
            .filter(|(input, output)| self.passes(&patched, input, output))
            .count();
        passed as f64 / self.tests.len() as f64
    }
}

/// Where a subject's repair tests come from.
#[derive(Clone, Debug)]
enum TestSource {
    /// The subject's train tests with their expected outputs.
    Train,
    /// The active loop (golden program as labeller, expected outputs supplied) run from
    /// the first failing train test with these settings (their label budget is the
    /// number of labels); its oracle validates. `label_undefined`: see
    /// [`ReferenceLabeller::answering_undefined`].
    Labels {
        config: ActiveConfig,
        seed: u64,
        label_undefined: bool,
        /// How the golden program answers: as a person (outputs only when asked) or as
        /// the ideal user who gives every output.
        answerer: Answerer,
        /// The oracle prefers formulas over the inputs alone (`--asking person`).
        prefer_inputs: bool,
    },
}

/// What repair starts from: its tests, the learned oracle (with labels), the fuzzer of
/// fresh inputs, and the golden program as the person who answers questions.
struct Start {
    tests: Vec<RepairTest>,
    oracle: Option<LearnedOracle>,
    fuzz: FuzzConfig,
    golden: ReferenceLabeller,
}

/// The golden program as labeller of `subject` (told its first failing train test is a
/// valid input), and that test with the golden answer on it.
fn golden_labeller(
    subject: &Subject,
    buggy: &ProgramRunner,
    runner: &dyn Fn(&str) -> Result<ProgramRunner, String>,
    label_undefined: bool,
) -> Result<(ReferenceLabeller, Vec<Num>, Option<String>), String> {
    let labeller =
        ReferenceLabeller::new(runner(&subject.golden)?).answering_undefined(label_undefined);
    let mut probe = buggy.clone();
    let start = subject
        .tests
        .train
        .iter()
        .filter_map(|t| parse_input(&t.input).filter(|i| !i.is_empty()))
        .find(|input| labeller.judge(input, &probe.run(input)).bug)
        .ok_or("no failing train test to start the loop from")?;
    let expected = labeller.judge(&start, &probe.run(&start)).expected;
    Ok((labeller.knowing_valid(&start), start, expected))
}

/// The tests, oracle, fuzzer and golden answerer of `subject` for `source`: Learn2fix
/// before repair (the active loop with the golden program as labeller) for labels.
fn prepare(
    subject: &Subject,
    extractor: &AnswerExtractor,
    limits: &Limits,
    source: &TestSource,
) -> Result<Start, String> {
    let runner = |source: &str| {
        compile(source)
            .map(|p| ProgramRunner::new(p, limits.clone(), extractor.clone()))
            .map_err(|e| e.first_error())
    };
    // The one compile of the buggy program: its parse also describes its inputs.
    let buggy = runner(&subject.buggy).map_err(|e| format!("buggy does not compile: {e}"))?;
    let inputs = buggy.program().inputs().clone();
    let (label_undefined, answerer) = match source {
        TestSource::Train => (false, Answerer::Golden),
        TestSource::Labels {
            label_undefined,
            answerer,
            ..
        } => (*label_undefined, *answerer),
    };
    let (golden, start, _) = golden_labeller(subject, &buggy, &runner, label_undefined)?;
    let mut golden = golden.answering_as(answerer);
    // The expected output typed with the failing input: the golden user's, a person's
    // box left blank.
    let expected = golden.volunteered_output(&start);
    let TestSource::Labels {
        config,
        seed,
        prefer_inputs,
        ..
    } = source
    else {
        return Ok(Start {
            tests: subject_tests(subject),
            oracle: None,
            fuzz: FuzzConfig {
                program: inputs,
                ..FuzzConfig::default()
            },
            golden,
        });
    };
    let mut config = config.clone();
    config.fuzz.program = inputs.clone();
    let names = inputs.names(start.len());
    let mut lp = ActiveLoop::new(
        config.clone(),
        buggy,
        FormulaOracle::new()
            .with_input_names(names)
            .preferring_inputs(*prefer_inputs),
        &start,
        expected,
        *seed,
    );
    while let Step::Ask(q) = lp.next_step() {
        let label = golden.label(&q);
        lp.settle(label);
    }
    let oracle = lp.oracle().formula().map(|f| LearnedOracle {
        formula: f.clone(),
        encoder: lp.runner().encoder().clone(),
    });
    Ok(Start {
        tests: repair_tests(lp.labelled()),
        oracle,
        fuzz: config.fuzz,
        golden,
    })
}

/// The top patch after a question budget.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct Snapshot {
    questions: usize,
    repaired: bool,
    heldout_pass: f64,
    questions_used: usize,
    /// Of those, questions that asked the right output of a run called a bug.
    #[serde(default)]
    outputs_asked: usize,
    /// The page would call the top patch the fix.
    #[serde(default)]
    claims_fix: bool,
    /// The top patch passes every held-out test, those the golden program fails under
    /// the fuel included.
    #[serde(default)]
    passes_every_test: bool,
}

/// Whether a subject's search goes on after `elapsed` of its `bound`.
fn within(bound: Duration, elapsed: Duration) -> Control {
    if elapsed > bound {
        Control::Stop
    } else {
        Control::Continue
    }
}

/// Repairs the subject at `path` within `bound` per subject, from `source`'s tests, with
/// the settings of `args` (fuel, engine, pool, question budgets, asking).
fn evaluate(path: &std::path::Path, bound: Duration, args: &EvalArgs, source: &TestSource) -> Row {
    let fuel = args.fuel;
    let engine: Option<Engine> = args.engine.map(Into::into);
    let pool = args.patch_pool.unwrap_or(Settings::default().patch_pool);
    let budgets = &args.questions[..];
    let asking: AskingArg = args.asking;
    let wall = Instant::now();
    let clock = thread_clock(wall);
    let subject_begin = clock();
    let mut row = Row {
        id: path.display().to_string(),
        skipped: None,
        repaired: false,
        heldout_pass: 0.0,
        first_ms: None,
        total_ms: 0.0,
        all_phases_ms: 0.0,
        wall_ms: 0.0,
        test_executions: 0,
        hole_decisions: 0,
        engine_runs: 0,
        plain_runs: 0,
        stop: String::new(),
        patches: Vec::new(),
        snapshots: Vec::new(),
        repairs: 0,
        asked: Vec::new(),
        heldout_golden_fails: 0,
        formula: None,
        tests: Vec::new(),
    };
    let subject = match std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|t| Subject::from_json(&t).map_err(|e| e.to_string()))
    {
        Ok(s) => s,
        Err(e) => {
            row.skipped = Some(format!("unreadable: {e}"));
            return row;
        }
    };
    row.id = subject.id.clone();
    let extractor = match subject.answer_extractor() {
        Ok(x) => x,
        Err(e) => {
            row.skipped = Some(format!("bad answer pattern: {e}"));
            return row;
        }
    };
    let limits = Limits {
        fuel,
        ..Limits::default()
    };
    let start = match prepare(&subject, &extractor, &limits, source) {
        Ok(s) => s,
        Err(e) => {
            row.skipped = Some(e);
            return row;
        }
    };
    let mut config = RepairConfig {
        extractor: extractor.clone(),
        limits,
        fuzz: start.fuzz.clone(),
        oracle_judges_bug_tests: !asking.person(),
        ..page_repair_config(pool)
    };
    if let Some(engine) = engine {
        config.engine = engine;
    }
    let max_questions = budgets.iter().copied().max().unwrap_or(0);
    let choose = ChooseConfig {
        output_questions: asking.person(),
        boundary_questions: asking.person(),
        ..page_choose_config(max_questions)
    };
    // The bound and the times are CPU time of this thread when the platform tells it
    // (the machine is shared), else wall time; the bound covers every search of the
    // subject (the first and those after answers ruled every patch out).
    let begin = clock();
    let mut first = None;
    let mut hook = |p: &Progress| {
        let now = clock().saturating_sub(begin);
        if p.plausible > 0 && first.is_none() {
            first = Some(now);
        }
        within(bound, now)
    };
    row.formula = start.oracle.as_ref().map(|o| o.formula.to_string());
    row.tests = start.tests.iter().map(|t| t.to_string()).collect();
    let held_out = HeldOut::new(&subject, &extractor, fuel);
    row.heldout_golden_fails = held_out.left_out.len();
    let heldout = |p: &fixloop::repair::RankedPatch| held_out.pass_rate(&p.patched_source);
    let mut chooser = PatchChooser::start(
        &subject.buggy,
        &start.tests,
        start.oracle.as_ref(),
        &config,
        &choose,
        &mut hook,
    );
    let deferred = !chooser.searched();
    // A budget's state: the top patch's source (its held-out pass rate is measured once
    // the questions are over, outside the subject's time) and the counts.
    let snapshot = |chooser: &PatchChooser, questions: usize| {
        let top = chooser.patches().first().map(|p| p.patched_source.clone());
        let s = Snapshot {
            questions,
            repaired: top.is_some(),
            heldout_pass: 0.0,
            questions_used: chooser.questions_used(),
            outputs_asked: chooser.outputs_asked(),
            claims_fix: chooser.claims_fix(),
            passes_every_test: false,
        };
        (s, top)
    };
    let mut snapshots: Vec<(Snapshot, Option<String>)> = Vec::new();
    loop {
        // A budget's snapshot is the state just before the question that would spend
        // one more than it (skips spend none, so it is taken again after each).
        for &b in budgets {
            if b == chooser.questions_used() {
                snapshots.retain(|s| s.0.questions != b);
                snapshots.push(snapshot(&chooser, b));
            }
        }
        let ChooseStep::Ask(question) = chooser.next() else {
            break;
        };
        let answer = match start.golden.right_output(&question.input) {
            Some(right) => ChoiceAnswer::Output(right),
            None => ChoiceAnswer::Skip,
        };
        row.asked.push(format!(
            "{:?} {} => {}",
            question.kind,
            fixloop::active::num::format_input(&question.input),
            match &answer {
                ChoiceAnswer::Output(o) => o.trim().to_string(),
                ChoiceAnswer::Skip => "?".to_string(),
            }
        ));
        // The question is the pending one, so this cannot fail.
        let _ = chooser.answer(&question.input, answer, &mut hook);
    }
    // Budgets the questions ended before: the final state.
    for &b in budgets {
        if !snapshots.iter().any(|s| s.0.questions == b) {
            snapshots.push(snapshot(&chooser, b));
        }
    }
    let elapsed = clock().saturating_sub(begin);
    // A budget of 0 asks nothing, not even the output the search waited for: its state
    // is that of a search with no question, run apart (outside the subject's time).
    if let Some(zero) = snapshots.iter_mut().find(|s| s.0.questions == 0) {
        if deferred {
            let start0 = clock();
            let mut hook0 = |_: &Progress| within(bound, clock().saturating_sub(start0));
            let alone = PatchChooser::start(
                &subject.buggy,
                &start.tests,
                start.oracle.as_ref(),
                &config,
                &ChooseConfig {
                    questions: 0,
                    ..choose.clone()
                },
                &mut hook0,
            );
            if alone.searched() {
                *zero = snapshot(&alone, 0);
            }
        }
    }
    let mut measured: std::collections::HashMap<String, f64> = std::collections::HashMap::new();
    let mut snapshots: Vec<Snapshot> = snapshots
        .into_iter()
        .map(|(mut s, top)| {
            if let Some(source) = top {
                s.heldout_pass = *measured
                    .entry(source.clone())
                    .or_insert_with(|| held_out.pass_rate(&source));
                s.passes_every_test = s.heldout_pass >= 1.0 && held_out.passes_left_out(&source);
            }
            s
        })
        .collect();
    snapshots.sort_by_key(|s| s.questions);
    row.snapshots = snapshots;
    row.repairs = chooser.repairs();
    let report = chooser.report();
    row.wall_ms = wall.elapsed().as_secs_f64() * 1e3;
    row.total_ms = elapsed.as_secs_f64() * 1e3;
    row.all_phases_ms = clock().saturating_sub(subject_begin).as_secs_f64() * 1e3;
    row.stop = report.stop.to_string();
    let s = &report.stats;
    row.test_executions = s.test_executions;
    row.hole_decisions = s.hole_decisions;
    row.engine_runs = s.hole_executions + s.plain_executions;
    row.plain_runs = s.plain_executions;
    if matches!(report.stop, fixloop::repair::StopReason::NothingToRepair) {
        row.skipped = Some("the buggy program passes every train test".into());
        return row;
    }
    let patches = chooser.patches();
    if patches.is_empty() {
        return row;
    }
    row.repaired = true;
    row.first_ms = first.map(|d| d.as_secs_f64() * 1e3);
    row.patches = patches
        .iter()
        .map(|p| PatchRow {
            cost: p.cost,
            validation: p.validation,
            demotion: format!("{:?}", p.demotion),
            single_value_test: p.single_value_test,
            behaviour_change: p.behaviour_change,
            agreement: p.agreement,
            changed: p
                .changed
                .iter()
                .map(|c| (c.node, c.first_line, c.last_line, c.kind.name().to_string()))
                .collect(),
            edits: p.description.clone(),
            heldout_pass: heldout(p),
        })
        .collect();
    row.heldout_pass = row.patches[0].heldout_pass;
    row
}

/// The figures of one question budget over the evaluated subjects.
#[derive(Clone, Default)]
struct QuestionRow {
    questions: usize,
    repaired: usize,
    repairability: f64,
    heldout_mean: f64,
    correct_top: usize,
    /// Share of evaluated subjects whose top patch passes every held-out test.
    correct_top_share: f64,
    questions_used_mean: f64,
    outputs_asked_mean: f64,
    /// Subjects where the page would call the top patch the fix.
    fix_claims: usize,
    /// Share of those whose top patch passes every held-out test (1 with no claim).
    fix_claim_precision: f64,
    /// Top patches that pass every held-out test, those the golden program fails under
    /// the fuel included (the measure of figures before they were left out).
    correct_top_every_test: usize,
}

impl QuestionRow {
    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "outputs_asked_mean": self.outputs_asked_mean,
            "fix_claims": self.fix_claims,
            "fix_claim_precision": self.fix_claim_precision,
            "correct_top_every_test": self.correct_top_every_test,
            "questions": self.questions,
            "repaired": self.repaired,
            "repairability": self.repairability,
            "heldout_pass_mean": self.heldout_mean,
            "correct_top": self.correct_top,
            "correct_top_share": self.correct_top_share,
            "questions_used_mean": self.questions_used_mean,
        })
    }
}

/// One [`QuestionRow`] per budget, ascending.
fn question_rows(evaluated: &[&Row], budgets: &[usize]) -> Vec<QuestionRow> {
    let mut budgets = budgets.to_vec();
    budgets.sort_unstable();
    budgets.dedup();
    let n = evaluated.len().max(1) as f64;
    budgets
        .into_iter()
        .map(|b| {
            let snaps: Vec<Snapshot> = evaluated
                .iter()
                .filter_map(|r| r.snapshots.iter().find(|s| s.questions == b).copied())
                .collect();
            let repaired: Vec<&Snapshot> = snaps.iter().filter(|s| s.repaired).collect();
            let correct = repaired.iter().filter(|s| s.heldout_pass >= 1.0).count();
            let claims: Vec<&&Snapshot> = repaired.iter().filter(|s| s.claims_fix).collect();
            let right_claims = claims.iter().filter(|s| s.heldout_pass >= 1.0).count();
            QuestionRow {
                questions: b,
                repaired: repaired.len(),
                repairability: repaired.len() as f64 / n,
                heldout_mean: Stat::of(
                    &repaired.iter().map(|s| s.heldout_pass).collect::<Vec<_>>(),
                )
                .mean,
                correct_top: correct,
                correct_top_share: correct as f64 / n,
                questions_used_mean: snaps.iter().map(|s| s.questions_used as f64).sum::<f64>() / n,
                outputs_asked_mean: snaps.iter().map(|s| s.outputs_asked as f64).sum::<f64>() / n,
                fix_claims: claims.len(),
                correct_top_every_test: repaired.iter().filter(|s| s.passes_every_test).count(),
                fix_claim_precision: if claims.is_empty() {
                    1.0
                } else {
                    right_claims as f64 / claims.len() as f64
                },
            }
        })
        .collect()
}

/// Runs `fixloop eval DIR --repair`.
pub fn run(args: EvalArgs) -> ExitCode {
    let source = match args.tests.as_str() {
        "train" => TestSource::Train,
        "labels" => {
            let Some(&budget) = args.labels.iter().max() else {
                eprintln!("error: --tests labels needs --labels N");
                return ExitCode::from(2);
            };
            TestSource::Labels {
                config: ActiveConfig {
                    label_budget: budget,
                    ..active_config(&args)
                },
                seed: args.seed,
                label_undefined: args.label_undefined,
                answerer: args.answerer.style(),
                prefer_inputs: args.asking.person(),
            }
        }
        other => {
            eprintln!("error: --tests {other}: expected train or labels");
            return ExitCode::from(2);
        }
    };
    let started = Instant::now();
    let files = match selected_files(&args) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let threads = thread_count(&args);
    // 0: no time bound, only the count bounds (the result does not depend on the clock).
    let bound = match args.repair_timeout_ms {
        0 => Duration::MAX,
        ms => Duration::from_millis(ms),
    };
    if let Some(spec) = args.shard {
        let limits = Limits {
            fuel: args.fuel,
            ..Limits::default()
        };
        let plan = shard::plan("repair", &args, &files, spec, &limits, threads);
        let rows = repair_all(&plan.own, &files, bound, &args, &source, threads);
        plan.print(rows, threads, started);
        return ExitCode::SUCCESS;
    }
    let own: Vec<usize> = (0..files.len()).collect();
    let rows = repair_all(&own, &files, bound, &args, &source, threads);
    let timing = Timing {
        threads,
        wall_s: started.elapsed().as_secs_f64(),
    };
    report(&args, &rows, Some(timing))
}

/// Repairs the subjects `own` (indices into `files`) on `threads` threads; rows in
/// `own`'s order.
fn repair_all(
    own: &[usize],
    files: &[std::path::PathBuf],
    bound: Duration,
    args: &EvalArgs,
    source: &TestSource,
    threads: usize,
) -> Vec<Row> {
    let finished = AtomicUsize::new(0);
    parallel_map(own.len(), threads, |k| {
        let r = evaluate(&files[own[k]], bound, args, source);
        let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
        eprintln!(
            "[{done}/{}] {} {} {:.0} ms{}",
            own.len(),
            r.id,
            if r.skipped.is_some() {
                "skipped"
            } else if r.repaired {
                "repaired"
            } else {
                "not repaired"
            },
            r.total_ms,
            if r.repaired {
                format!(" held-out {:.3}", r.heldout_pass)
            } else {
                String::new()
            }
        );
        r
    })
}

/// Prints the report of a repair evaluation (one run's, or the merged parts') from every
/// subject's row in file order; `timing` is shown unless `--no-timing`.
pub fn report(args: &EvalArgs, rows: &[Row], timing: Option<Timing>) -> ExitCode {
    let timing = timing.filter(|_| !args.no_timing);
    let evaluated: Vec<&Row> = rows.iter().filter(|r| r.skipped.is_none()).collect();
    let repaired: Vec<&Row> = evaluated.iter().copied().filter(|r| r.repaired).collect();
    let heldout = Stat::of(&repaired.iter().map(|r| r.heldout_pass).collect::<Vec<_>>());
    let first = Stat::of(
        &repaired
            .iter()
            .filter_map(|r| r.first_ms)
            .collect::<Vec<_>>(),
    );
    let execs: u64 = evaluated.iter().map(|r| r.test_executions).sum();
    let engine_runs: u64 = evaluated.iter().map(|r| r.engine_runs).sum();
    let decisions: u64 = evaluated
        .iter()
        .map(|r| r.hole_decisions + r.plain_runs)
        .sum();
    let cpe = if engine_runs == 0 {
        0.0
    } else {
        decisions as f64 / engine_runs as f64
    };
    let repairability = if evaluated.is_empty() {
        0.0
    } else {
        repaired.len() as f64 / evaluated.len() as f64
    };
    let full_heldout = repaired.iter().filter(|r| r.heldout_pass >= 1.0).count();
    let causes: Vec<Cause> = repaired
        .iter()
        .filter_map(|r| Cause::of(&r.patches))
        .collect();
    let cause_count = |c: Cause| causes.iter().filter(|&&x| x == c).count();
    let cause_counts = [
        Cause::CorrectRankedLower,
        Cause::BetterRankedLower,
        Cause::NothingBetter,
    ]
    .map(|c| (c.name(), cause_count(c)));
    let by_questions = question_rows(&evaluated, &args.questions);
    let last = by_questions.last().cloned().unwrap_or_default();
    // CPU of every phase: total seconds, the largest subject's seconds and its id.
    let all_phases = evaluated.iter().fold((0.0, 0.0, String::new()), |acc, r| {
        let s = r.all_phases_ms / 1e3;
        if s > acc.1 {
            (acc.0 + s, s, r.id.clone())
        } else {
            (acc.0 + s, acc.1, acc.2)
        }
    });
    if args.json {
        let mut report = serde_json::json!({
            "dir": args.dir.display().to_string(),
            "tests": args.tests,
            "leftover_labels": !args.no_leftover_labels,
            "subjects": rows.len(),
            "evaluated": evaluated.len(),
            "repaired": repaired.len(),
            "repairability": repairability,
            "heldout_pass_mean": heldout.mean,
            "heldout_pass_median": heldout.median,
            "heldout_all_pass": full_heldout,
            "test_executions": execs,
            "test_executions_mean": if evaluated.is_empty() { 0.0 } else { execs as f64 / evaluated.len() as f64 },
            "candidates_per_execution": cpe,
            "skipped": rows.iter().filter_map(|r| r.skipped.as_ref().map(|w| serde_json::json!({"id": r.id, "reason": w}))).collect::<Vec<_>>(),
            "top_not_correct": cause_counts.iter().map(|(n, c)| (n.to_string(), serde_json::json!(c))).collect::<serde_json::Map<_, _>>(),
            "questions": last.questions,
            "questions_used_mean": last.questions_used_mean,
            "outputs_asked_mean": last.outputs_asked_mean,
            "fix_claims": last.fix_claims,
            "correct_top_every_test": last.correct_top_every_test,
            "heldout_golden_fails_subjects": evaluated.iter().filter(|r| r.heldout_golden_fails > 0).count(),
            "fix_claim_precision": last.fix_claim_precision,
            "answerer": args.answerer.style().name(),
            "correct_top": last.correct_top,
            "correct_top_share": last.correct_top_share,
            "repairs_mean": if evaluated.is_empty() { 0.0 } else { evaluated.iter().map(|r| r.repairs as f64).sum::<f64>() / evaluated.len() as f64 },
            "by_questions": by_questions.iter().map(QuestionRow::json).collect::<Vec<_>>(),
            "per_subject": evaluated.iter().map(|r| r.json(timing.is_some())).collect::<Vec<_>>(),
        });
        if let (Some(t), Some(m)) = (timing, report.as_object_mut()) {
            m.insert("first_patch_ms_median".into(), first.median.into());
            m.insert("first_patch_ms_mean".into(), first.mean.into());
            m.insert("all_phases_cpu_s_total".into(), all_phases.0.into());
            m.insert("all_phases_cpu_s_max".into(), all_phases.1.into());
            m.insert("all_phases_cpu_max_subject".into(), all_phases.2.into());
            m.insert(
                "time_basis".into(),
                "thread CPU time (Linux schedstat), wall time elsewhere".into(),
            );
            m.insert("threads".into(), t.threads.into());
            m.insert("time_s".into(), t.wall_s.into());
        }
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        println!(
            "{} subjects, {} evaluated, {} skipped{}",
            rows.len(),
            evaluated.len(),
            rows.len() - evaluated.len(),
            timing.map_or(String::new(), |t| format!(
                "; {} thread(s), {:.1} s wall",
                t.threads, t.wall_s
            ))
        );
        println!(
            "repairability {:.3} ({}/{}) | held-out pass of top patch: mean {:.3} median {:.3} ({} all-pass){} | {} test executions | {:.1} candidates per execution",
            repairability,
            repaired.len(),
            evaluated.len(),
            heldout.mean,
            heldout.median,
            full_heldout,
            timing.map_or(String::new(), |_| format!(
                " | first patch median {:.0} ms | CPU of every phase {:.0} s, most {:.1} s ({})",
                first.median, all_phases.0, all_phases.1, all_phases.2
            )),
            execs,
            cpe
        );
        if args.tests == "labels" {
            println!("answerer: {}", args.answerer.style().name());
        }
        println!(
            "held-out tests the golden program fails under the fuel are left out ({} subjects have some); the column \"all, strict\" counts them",
            evaluated.iter().filter(|r| r.heldout_golden_fails > 0).count()
        );
        println!("| questions | repaired | repairability | held-out mean | top passes all held-out | all, strict | correct_top_share | questions used (mean) | outputs asked (mean) | fix claims | fix_claim_precision |");
        println!("|---|---|---|---|---|---|---|---|---|---|---|");
        for q in &by_questions {
            println!(
                "| {} | {} | {:.3} | {:.3} | {} | {} | {:.3} | {:.2} | {:.2} | {} | {:.3} |",
                q.questions,
                q.repaired,
                q.repairability,
                q.heldout_mean,
                q.correct_top,
                q.correct_top_every_test,
                q.correct_top_share,
                q.questions_used_mean,
                q.outputs_asked_mean,
                q.fix_claims,
                q.fix_claim_precision
            );
        }
        println!(
            "top patch not correct on {} repaired subjects: {}",
            causes.len(),
            cause_counts
                .iter()
                .map(|(n, c)| format!("{n} {c}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    ExitCode::SUCCESS
}
