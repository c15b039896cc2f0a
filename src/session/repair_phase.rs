//! The session's repair phase: the page's repair settings, repair from the loop's labelled tests and learned oracle, the questions that choose between patches replayed from the session, and the page's view of it in plain words.

use super::replay::{playground_limits, status_text, PlaygroundLoop, ReplayError};
use super::view::{ChoiceOptionView, ChoiceView, NextStep, PatchView, RepairView, TestChange};
use super::{Choice, Session};
use crate::active::num::{format_input, parse_input};
use crate::compare::outputs_match;
use crate::excerpt::count;
use crate::lang::compile;
use crate::repair::choose::{
    ChoiceAnswer, ChooseConfig, ChooseStep, ChooseStop, Disagreement, PatchChooser, QuestionKind,
};
use crate::repair::tests::repair_tests;
use crate::repair::{
    Control, Engine, Expectation, LearnedOracle, Progress, RankedPatch, RepairConfig, RepairTest,
    StopReason,
};

/// Fresh inputs on which the remaining patches are compared after each search.
pub const CHECKED_INPUTS: usize = 200;

/// The page's repair settings, shared by `fixloop demo` and `fixloop eval --repair`:
/// every engine (enumeration, then linear synthesis, then GenProg while nothing is
/// plausible; the triangle's `a == b == c` needs a synthesised condition), at most
/// `pool` plausible patches ([`Settings::patch_pool`](super::Settings::patch_pool))
/// validated, the best 10 ranked.
pub fn page_repair_config(pool: usize) -> RepairConfig {
    RepairConfig {
        engine: Engine::All,
        max_plausible: pool,
        max_validated: pool,
        // Every behaviour class goes to the questions: a cheap class the first answer
        // refutes must not have pushed a dearer right one out of the list.
        max_ranked: pool,
        ..RepairConfig::default()
    }
}

/// The repair settings of a session: [`page_repair_config`] with the playground's
/// limits, the session's seed, and the loop's fuzzer (its profile, ranges and what the
/// program reads) for the fresh inputs; asked as a person is, "bug" tests are judged
/// by the change of output alone
/// ([`RepairConfig::oracle_judges_bug_tests`]).
pub fn repair_config(session: &Session, active: &PlaygroundLoop) -> RepairConfig {
    RepairConfig {
        limits: playground_limits(),
        seed: session.settings.seed,
        fuzz: active.config().fuzz.clone(),
        oracle_judges_bug_tests: session.settings.asking != super::Asking::Person,
        ..page_repair_config(session.settings.patch_pool)
    }
}

/// The page's question settings with a budget of `questions` (`fixloop eval` uses them
/// too): [`CHECKED_INPUTS`] fresh inputs, the rest as [`ChooseConfig::default`].
pub fn page_choose_config(questions: usize) -> ChooseConfig {
    ChooseConfig {
        questions,
        inputs: CHECKED_INPUTS,
        ..ChooseConfig::default()
    }
}

/// The question settings of a session: [`page_choose_config`], with the questions about
/// outputs and boundaries only for sessions asked as a person is
/// ([`Asking::Person`](super::Asking::Person)).
pub fn choose_config(session: &Session) -> ChooseConfig {
    let person = session.settings.asking == super::Asking::Person;
    ChooseConfig {
        output_questions: person,
        boundary_questions: person,
        ..page_choose_config(session.settings.questions)
    }
}

/// The loop's labelled tests as repair tests, and its learned oracle.
pub fn loop_tests(active: &PlaygroundLoop) -> (Vec<RepairTest>, Option<LearnedOracle>) {
    let tests = repair_tests(active.labelled());
    let oracle = active.oracle().formula().map(|f| LearnedOracle {
        formula: f.clone(),
        encoder: active.runner().encoder().clone(),
    });
    (tests, oracle)
}

/// The parts of a session that fix its repair before any answer about patches.
fn same_repair(a: &Session, b: &Session) -> bool {
    let strip = |s: &Session| Session {
        choices: Vec::new(),
        ..s.clone()
    };
    strip(a) == strip(b)
}

/// Keeps one [`PatchChooser`] in step with a changing session, as [`super::Replayer`]
/// does for the loop: new answers about patches are applied to the chooser it has;
/// anything else repairs again. Replay is exact: repair is deterministic given the seed.
#[derive(Default)]
pub struct RepairReplayer {
    state: Option<(Session, PatchChooser)>,
}

impl RepairReplayer {
    /// An empty replayer.
    pub fn new() -> RepairReplayer {
        RepairReplayer::default()
    }

    /// Brings the chooser up to `session` (whose loop is `active`): repairs when needed,
    /// reporting through `progress`, then applies the session's answers about patches.
    pub fn sync(
        &mut self,
        session: &Session,
        active: &PlaygroundLoop,
        progress: &mut dyn FnMut(&Progress) -> Control,
    ) -> Result<&PatchChooser, ReplayError> {
        let reusable = self.state.as_ref().is_some_and(|(done, _)| {
            same_repair(done, session) && session.choices.starts_with(&done.choices)
        });
        let (mut done, mut chooser) = match self.state.take() {
            Some(state) if reusable => state,
            _ => {
                let (tests, oracle) = loop_tests(active);
                let chooser = PatchChooser::start(
                    &session.program,
                    &tests,
                    oracle.as_ref(),
                    &repair_config(session, active),
                    &choose_config(session),
                    progress,
                );
                let mut fresh = session.clone();
                fresh.choices.clear();
                (fresh, chooser)
            }
        };
        let from = done.choices.len();
        for (i, choice) in session.choices.iter().enumerate().skip(from) {
            apply(&mut chooser, i + 1, choice, progress)?;
            done.choices.push(choice.clone());
        }
        let (_, chooser) = self.state.insert((done, chooser));
        Ok(chooser)
    }

    /// Brings the chooser up to `session` and describes it.
    pub fn view(
        &mut self,
        session: &Session,
        active: &PlaygroundLoop,
        progress: &mut dyn FnMut(&Progress) -> Control,
    ) -> Result<RepairView, ReplayError> {
        let chooser = self.sync(session, active, progress)?;
        Ok(describe(chooser, session))
    }
}

/// Applies one recorded answer about patches, checking it is about the question asked.
fn apply(
    chooser: &mut PatchChooser,
    index: usize,
    choice: &Choice,
    progress: &mut dyn FnMut(&Progress) -> Control,
) -> Result<(), ReplayError> {
    let diverged = |now: String| ReplayError::ChoiceDiverged {
        index,
        recorded: choice.input.clone(),
        now,
    };
    let question = match chooser.next() {
        ChooseStep::Ask(q) => q,
        ChooseStep::Done(stop) => return Err(diverged(format!("nothing: {stop}"))),
    };
    let now = format_input(&question.input);
    if parse_input(&choice.input).as_deref() != Some(&question.input[..]) {
        return Err(diverged(now));
    }
    let answer = match &choice.output {
        Some(o) => ChoiceAnswer::Output(o.clone()),
        None => ChoiceAnswer::Skip,
    };
    chooser
        .answer(&question.input, answer, progress)
        .map_err(|_| diverged(now))
}

/// Where a patch's `n` tests come from, counted as the page counts them: the failing
/// input and the person's answers that are tests (a skip is none): "the failing input and
/// your 10 answers", "the failing input and 8 of your 10 answers".
fn tests_source(n: usize, answers: usize) -> String {
    match (n.saturating_sub(1), answers) {
        (0, _) => "the failing input".to_string(),
        (1, 1) => "the failing input and your answer".to_string(),
        (k, a) if k == a => format!("the failing input and your {k} answers"),
        (k, a) => format!("the failing input and {k} of your {a} answers"),
    }
}

/// What the learned oracle can say about a patch's runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OracleKind {
    /// No oracle: fresh inputs check only that runs end normally.
    None,
    /// A formula over the inputs alone: it cannot tell a right output from a wrong one.
    InputsOnly,
    /// A formula over the output too.
    Outputs,
}

/// What was checked for one patch, in plain words and short sentences: "Passes all 11
/// tests (the failing input and your 10 answers). Agrees with the learned oracle on 98 of
/// 100 fresh inputs." (not the inputs the patches are compared on, which the verdict
/// counts). `answers` is how many answers the person gave (labels and answers about
/// patches, skips included). An oracle over the inputs alone flags every run of the
/// inputs it calls buggy, a right one too, so agreeing with it is not told.
pub fn checks(p: &RankedPatch, oracle: OracleKind, answers: usize) -> String {
    let agreed = (p.validation * p.validated_inputs as f64).round() as usize;
    let fresh = match (p.validated_inputs, oracle) {
        (0, _) | (_, OracleKind::InputsOnly) => String::new(),
        (n, OracleKind::Outputs) => {
            format!(" Agrees with the learned oracle on {agreed} of {n} fresh inputs.")
        }
        (n, OracleKind::None) => format!(" Ends normally on {agreed} of {n} fresh inputs."),
    };
    let (passed, n) = (p.tests_passed, p.tests_total);
    let source = tests_source(n, answers);
    match (passed == n, n) {
        (true, 1) => format!("Passes its 1 test ({source}).{fresh}"),
        (true, _) => format!("Passes all {n} tests ({source}).{fresh}"),
        (false, _) => format!("Passes {passed} of {n} tests ({source}).{fresh}"),
    }
}

/// "2 2 1, 2 2 3 and 3 2 2".
fn inputs_phrase(inputs: &[Vec<crate::lang::Num>]) -> String {
    let texts: Vec<String> = inputs.iter().map(|i| format_input(i)).collect();
    match texts.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// What is known about the patches and what is still open, in plain words: short
/// sentences, "the fix" only when [`PatchChooser::claims_fix`] holds, otherwise "the best
/// candidate" with what is still unconfirmed.
fn verdict(chooser: &PatchChooser, step: &ChooseStep) -> String {
    let n = chooser.patches().len();
    let Disagreement { inputs, checked } = chooser.disagreement();
    let answered = chooser.questions_used();
    let tests = match answered {
        0 => "every labelled test".to_string(),
        1 => "every labelled test and your answer".to_string(),
        a => format!("every labelled test and your {a} answers"),
    };
    let others = n.saturating_sub(1);
    let ruled_out = chooser.report().patches.len().saturating_sub(n);
    let agree = if n == 1 && ruled_out > 0 {
        format!(
            " Your answers ruled out the other {}.",
            count(ruled_out, "plausible patch", "plausible patches")
        )
    } else if n == 1 {
        " No other plausible patch was found.".to_string()
    } else {
        let who = match others {
            1 => "The other patch prints".to_string(),
            k => format!("The other {k} patches print"),
        };
        format!(" {who} the same on all {checked} inputs compared.")
    };
    let boundary = chooser.boundary_inputs();
    let edges = if boundary.is_empty() {
        String::new()
    } else {
        format!(
            " You checked its answers beside the boundaries it moved ({}).",
            inputs_phrase(&boundary)
        )
    };
    let unconfirmed = chooser.unconfirmed();
    let open = if unconfirmed.is_empty() {
        String::new()
    } else {
        format!(" Still unconfirmed: {}.", inputs_phrase(&unconfirmed))
    };
    let doubt = format!(
        "The learned oracle still calls its output a bug on {} of the {checked} inputs compared.",
        chooser.doubted()
    );
    let stop = match step {
        ChooseStep::Done(stop) => Some(*stop),
        ChooseStep::Ask(_) => None,
    };
    let asking = match step {
        ChooseStep::Ask(q) => Some(q.kind),
        ChooseStep::Done(_) => None,
    };
    let best = format!("Patch 1 is the best candidate, not a confirmed fix: it passes {tests}.");
    let differ = format!(
        "{n} patches pass {tests}. They print different answers on {inputs} of the {checked} inputs compared"
    );
    match (stop, asking) {
        (Some(ChooseStop::NoPatch), _) => match chooser.report().stop {
            StopReason::CandidatesExhausted => format!(
                "No patch passes {tests}. Repair tried each change of the kinds it makes, and the likeliest pairs of changes: the fix may need more changes, or a kind it does not make."
            ),
            StopReason::Stopped | StopReason::BudgetExhausted | StopReason::CandidateBudget => {
                format!("No patch passes {tests} yet: the search stopped at its limit before it found one.")
            }
            _ => format!("No patch passes {tests}."),
        },
        (Some(ChooseStop::OneBehaviour), _) if chooser.claims_fix_at(step) => {
            format!("Patch 1 is the fix: it passes {tests}.{agree}{edges}")
        }
        (Some(ChooseStop::OneBehaviour), _) if chooser.reads_text() => format!(
            "{best}{agree} Your program reads text, and fixloop checks patches only on inputs made of numbers: other texts are unchecked.{open}"
        ),
        (Some(ChooseStop::OneBehaviour), _) if chooser.special_case() => format!(
            "{best}{agree} It adds tests for particular values, so it may handle only the inputs you labelled.{open}"
        ),
        (Some(ChooseStop::OneBehaviour), _) if !chooser.confirmed() => format!(
            "{best}{agree} It changes what the program prints only on the inputs you labelled, so nothing shows it works beyond them.{open}"
        ),
        (Some(ChooseStop::OneBehaviour), _) => format!("{best}{agree}{open}"),
        (Some(ChooseStop::Doubted), _) => format!(
            "{best} {doubt} The question budget is spent: it may fix only part of the bug.{open}"
        ),
        (Some(ChooseStop::Unconfirmed), _) => format!(
            "{best} Nobody confirmed a change it makes on a new input: the question budget is spent.{open}"
        ),
        (Some(ChooseStop::OutputUnasked), _) => format!(
            "{best} The question budget is spent before you were asked what the program should print.{open}"
        ),
        (Some(ChooseStop::BoundaryUnasked), _) => format!(
            "{best} The question budget is spent before the inputs beside the boundaries it moved were asked.{open}"
        ),
        (Some(ChooseStop::QuestionBudget), _) => format!(
            "{differ}. The question budget is spent, so patch 1 (the cheapest, best checked) is a guess."
        ),
        (Some(ChooseStop::Skipped), _) => format!(
            "{differ}, all of which you skipped: patch 1 (the cheapest, best checked) is a guess."
        ),
        (None, Some(QuestionKind::Output)) if n == 0 && chooser.searched() => format!(
            "No patch passes {tests} yet. The right output of another run you called a bug lets repair fit a formula: what should it print?"
        ),
        (None, Some(QuestionKind::Output)) if n == 0 => {
            "Repair needs the right output of a run you called a bug: what should it print?"
                .to_string()
        }
        (None, Some(QuestionKind::Output)) => format!(
            "{} {tests}. Tell what the program should print on the failing input to check them.",
            match n {
                1 => "1 patch passes".to_string(),
                n => format!("{n} patches pass"),
            }
        ),
        (None, Some(QuestionKind::Split)) => {
            let needed = usize::BITS - (chooser.behaviours() - 1).leading_zeros();
            format!(
                "{differ}: answer up to {} to choose.",
                count(needed as usize, "question", "questions")
            )
        }
        (None, Some(QuestionKind::Boundary)) => format!(
            "Patch 1 passes {tests}.{agree} It moves where the program's answer changes: answer about the inputs on both sides before it is called the fix."
        ),
        (None, Some(QuestionKind::Doubt)) => format!(
            "Patch 1 passes {tests}.{agree} {doubt} Your answer about one of them shows whether it fixes the whole bug."
        ),
        (None, _) => format!(
            "Patch 1 passes {tests}.{agree} One answer about an input it changes confirms it."
        ),
    }
}

/// What would help where repair stopped short of a fix (nothing while a question is
/// pending or once patch 1 is the fix).
fn next_steps(chooser: &PatchChooser, step: &ChooseStep, session: &Session) -> Vec<NextStep> {
    let ChooseStep::Done(stop) = step else {
        return Vec::new();
    };
    if chooser.claims_fix_at(step) {
        return Vec::new();
    }
    let ranges = session.ranges.iter().all(Option::is_none);
    let mut steps = Vec::new();
    match stop {
        // A right output or a question more would only make the tests stricter; more
        // labelled runs change where repair looks, and ranges which runs are asked.
        ChooseStop::NoPatch | ChooseStop::Skipped | ChooseStop::OneBehaviour => {
            steps.push(NextStep::MoreLabels);
            if ranges {
                steps.push(NextStep::SetRanges);
            }
        }
        ChooseStop::OutputUnasked => {
            if let Some(input) = chooser.wanted_output() {
                steps.push(NextStep::GiveOutput {
                    input: format_input(&input),
                });
            }
            steps.push(NextStep::MoreQuestions);
        }
        ChooseStop::QuestionBudget
        | ChooseStop::Unconfirmed
        | ChooseStop::Doubted
        | ChooseStop::BoundaryUnasked => steps.push(NextStep::MoreQuestions),
    }
    steps
}

/// The question kind's name in [`ChoiceView::kind`].
fn kind_name(kind: QuestionKind) -> &'static str {
    match kind {
        QuestionKind::Split => "split",
        QuestionKind::Confirm => "confirm",
        QuestionKind::Doubt => "doubt",
        QuestionKind::Output => "output",
        QuestionKind::Boundary => "boundary",
    }
}

/// The page's view of the repair phase of `session`.
pub fn describe(chooser: &PatchChooser, session: &Session) -> RepairView {
    let program = &session.program;
    let tests = chooser.tests();
    let oracle = match (chooser.has_oracle(), chooser.oracle_reads_output()) {
        (false, _) => OracleKind::None,
        (true, false) => OracleKind::InputsOnly,
        (true, true) => OracleKind::Outputs,
    };
    let step = chooser.next();
    let choice = match &step {
        ChooseStep::Ask(q) => {
            let options: Vec<ChoiceOptionView> = q
                .options
                .iter()
                .map(|o| ChoiceOptionView {
                    output: o.output.clone(),
                    status: status_text(o.status).to_string(),
                    patches: o.patches.iter().map(|p| p + 1).collect(),
                })
                .collect();
            Some(ChoiceView {
                input: format_input(&q.input),
                text: q.to_string(),
                ask: q.kind.ask().to_string(),
                options,
                kind: kind_name(q.kind).to_string(),
            })
        }
        ChooseStep::Done(_) => None,
    };
    RepairView {
        patches: chooser
            .patches()
            .into_iter()
            .map(|p| PatchView {
                diff: p.diff.clone(),
                source: p.patched_source.clone(),
                cost: p.cost,
                passed: p.tests_passed,
                total: p.tests_total,
                validation: Some(p.validation),
                validated_inputs: p.validated_inputs,
                checks: checks(p, oracle, session.answers.len() + session.choices.len()),
                changes: test_changes(program, &p.patched_source, &tests),
            })
            .collect(),
        stop: chooser.report().stop.to_string(),
        verdict: verdict(chooser, &step),
        settled: chooser.claims_fix_at(&step),
        choice,
        questions_used: chooser.questions_used(),
        outputs_asked: chooser.outputs_asked(),
        question_budget: chooser.question_budget(),
        repairs: chooser.repairs(),
        next_steps: next_steps(chooser, &step, session),
    }
}

/// Each test's output before and after a patch, and whether the patched output meets
/// the test's expectation.
pub fn test_changes(before: &str, after: &str, tests: &[RepairTest]) -> Vec<TestChange> {
    let (Ok(old), Ok(new)) = (compile(before), compile(after)) else {
        return Vec::new();
    };
    let limits = playground_limits();
    let out = |p: &crate::lang::Program, t: &RepairTest| {
        String::from_utf8_lossy(&p.run_test(&t.input, &limits).stdout).into_owned()
    };
    tests
        .iter()
        .map(|t| {
            let (b, a) = (out(&old, t), out(&new, t));
            let passes = match &t.expect {
                Expectation::Output(e) => outputs_match(&a, e),
                Expectation::Bug => !outputs_match(&a, &b),
                Expectation::NotBug => outputs_match(&a, &b),
            };
            TestChange {
                input: format_input(&t.input),
                before: b,
                after: a,
                passes,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::{repair, StopReason};

    #[test]
    fn the_tests_of_a_patch_are_counted_as_the_page_counts_answers() {
        assert_eq!(tests_source(1, 0), "the failing input");
        assert_eq!(tests_source(2, 1), "the failing input and your answer");
        assert_eq!(
            tests_source(11, 10),
            "the failing input and your 10 answers"
        );
        // Two of ten answers were skips: they are not tests.
        assert_eq!(
            tests_source(9, 10),
            "the failing input and 8 of your 10 answers"
        );
    }

    #[test]
    fn agreement_with_an_oracle_over_the_inputs_alone_is_not_told() {
        let tests = [test(10, "big"), test(9, "small"), test(11, "big")];
        let report = repair(BUGGY, &tests, None, &page_repair_config(3));
        let p = &report.patches[0];
        let n = p.validated_inputs;
        assert!(n > 0);
        let told = checks(p, OracleKind::Outputs, 2);
        assert!(told.contains(&format!("of {n} fresh inputs.")), "{told}");
        let inputs_only = checks(p, OracleKind::InputsOnly, 2);
        assert_eq!(
            inputs_only,
            "Passes all 3 tests (the failing input and your 2 answers)."
        );
        assert!(checks(p, OracleKind::None, 2).contains("Ends normally on"));
    }

    /// `x > 10` should be `x >= 10`: many cheap edits pass these three tests.
    const BUGGY: &str = "#include <stdio.h>\nint main(void) {\n    int x;\n    scanf(\"%d\", &x);\n    if (x > 10)\n        printf(\"big\\n\");\n    else\n        printf(\"small\\n\");\n    return 0;\n}\n";

    fn test(x: i64, out: &str) -> RepairTest {
        RepairTest {
            input: vec![crate::lang::Num::Int(x)],
            expect: Expectation::Output(out.into()),
        }
    }

    #[test]
    fn the_default_pool_is_the_engines_own_default() {
        assert_eq!(
            crate::session::DEFAULT_PATCH_POOL,
            RepairConfig::default().max_plausible
        );
        assert_eq!(page_repair_config(7).max_validated, 7);
    }

    #[test]
    fn the_search_collects_the_sessions_pool_of_plausible_patches() {
        let tests = [test(10, "big"), test(9, "small"), test(11, "big")];
        let small = repair(BUGGY, &tests, None, &page_repair_config(3));
        // The search stops once it holds the pool (an engine may end its step above it).
        assert_eq!(small.stop, StopReason::Found);
        assert!((3..10).contains(&small.plausible), "{}", small.plausible);
        let pool = repair(BUGGY, &tests, None, &page_repair_config(40));
        assert!(
            pool.plausible > small.plausible,
            "{} plausible",
            pool.plausible
        );
        // The page lists at most the best 10 of them.
        assert!((1..=10).contains(&pool.patches.len()));
    }
}
