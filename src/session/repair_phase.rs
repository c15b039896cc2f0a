//! The session's repair phase: the page's repair settings, repair from the loop's labelled tests and learned oracle, the questions that choose between patches replayed from the session, and the page's view of it in plain words.

use super::protocol::{ChoiceOptionView, ChoiceView, PatchView, RepairView, TestChange};
use super::replay::{playground_limits, status_text, PlaygroundLoop, ReplayError};
use super::{Choice, Session};
use crate::active::num::{format_input, parse_input};
use crate::compare::outputs_match;
use crate::lang::compile;
use crate::repair::choose::{
    ChoiceAnswer, ChooseConfig, ChooseStep, ChooseStop, Disagreement, PatchChooser, QuestionKind,
};
use crate::repair::tests::repair_tests;
use crate::repair::{
    Control, Engine, Expectation, LearnedOracle, Progress, RankedPatch, RepairConfig, RepairTest,
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
        ..RepairConfig::default()
    }
}

/// The repair settings of a session: [`page_repair_config`] with the playground's
/// limits, the session's seed, and the loop's fuzzer (its profile, ranges and what the
/// program reads) for the fresh inputs.
pub fn repair_config(session: &Session, active: &PlaygroundLoop) -> RepairConfig {
    RepairConfig {
        limits: playground_limits(),
        seed: session.settings.seed,
        fuzz: active.config().fuzz.clone(),
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

/// The question settings of a session.
pub fn choose_config(session: &Session) -> ChooseConfig {
    page_choose_config(session.settings.questions)
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
        Ok(describe(chooser, &session.program))
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

/// "1 labelled test" / "11 labelled tests".
fn tests_phrase(n: usize) -> String {
    if n == 1 {
        "the 1 labelled test".to_string()
    } else {
        format!("all {n} labelled tests")
    }
}

/// What was checked for one patch, in plain words: "passes all 11 labelled tests; on 100
/// fresh inputs drawn to rank the patches it agrees with the learned oracle on 98" (not
/// the inputs the patches are compared on, which the verdict counts).
pub fn checks(p: &RankedPatch, oracle: bool) -> String {
    let agreed = (p.validation * p.validated_inputs as f64).round() as usize;
    let fresh = match (p.validated_inputs, oracle) {
        (0, _) => String::new(),
        (n, true) => format!(
            "; on {n} fresh inputs drawn to rank the patches it agrees with the learned oracle on {agreed}"
        ),
        (n, false) => {
            format!("; on {n} fresh inputs drawn to rank the patches it ends normally on {agreed}")
        }
    };
    format!("passes {}{fresh}", tests_phrase(p.tests_total))
}

/// What is known about the patches and what is still open, in plain words.
fn verdict(chooser: &PatchChooser, step: &ChooseStep) -> String {
    let n = chooser.patches().len();
    let Disagreement { inputs, checked } = chooser.disagreement();
    let answered = chooser.questions_used();
    let tests = if answered > 0 {
        format!("every labelled test and your {answered} answer(s)")
    } else {
        "every labelled test".to_string()
    };
    let differ = format!(
        "{n} patches pass {tests} but print different answers for {inputs} of the {checked} fresh inputs they were compared on"
    );
    let ruled_out = chooser.report().patches.len().saturating_sub(n);
    let agree = if n == 1 && ruled_out > 0 {
        format!("your answers ruled out the other {ruled_out} plausible patch(es) of the search")
    } else if n == 1 {
        format!("no other plausible patch was found, so on the {checked} fresh inputs it was compared on none prints a different answer")
    } else {
        format!(
            "the other {} plausible patch(es) print the same as it on all {checked} fresh inputs they were compared on",
            n.saturating_sub(1)
        )
    };
    let confirmed = if chooser.confirmed() {
        "; you confirmed a change it makes on a new input"
    } else {
        "; it changes the program's output only on the labelled tests"
    };
    let doubted = chooser.doubted();
    let upheld = match chooser.upheld() {
        0 => String::new(),
        u => format!("; you kept its output on {u} input(s) where the learned oracle doubted it"),
    };
    let doubt = format!(
        "the learned oracle still calls its output a bug on {doubted} of the {checked} fresh inputs it was compared on"
    );
    let stop = match step {
        ChooseStep::Done(stop) => Some(*stop),
        ChooseStep::Ask(_) => None,
    };
    let asking = match step {
        ChooseStep::Ask(q) => Some(q.kind),
        ChooseStep::Done(_) => None,
    };
    match stop {
        Some(ChooseStop::NoPatch) => format!("No patch passes {tests}."),
        Some(ChooseStop::OneBehaviour) => {
            format!("Patch 1 is the fix found: it passes {tests}; {agree}{confirmed}{upheld}.")
        }
        Some(ChooseStop::Doubted) => format!(
            "Patch 1 passes {tests} and {agree}, but {doubt} and the question budget is spent: it may fix only part of the bug."
        ),
        Some(ChooseStop::Unconfirmed) => format!(
            "Patch 1 passes {tests} and {agree}, but nobody confirmed a change it makes on a new input: the question budget is spent."
        ),
        Some(ChooseStop::QuestionBudget) => format!(
            "{differ}; the question budget is spent, so patch 1 (the cheapest, best validated) is a guess, not settled."
        ),
        Some(ChooseStop::Skipped) => format!(
            "{differ}, all of which you skipped: patch 1 (the cheapest, best validated) is a guess, not settled."
        ),
        None if asking == Some(QuestionKind::Split) => {
            let needed = usize::BITS - (chooser.behaviours() - 1).leading_zeros();
            format!("{differ}: answer up to {needed} question(s) to choose.")
        }
        None if asking == Some(QuestionKind::Doubt) => format!(
            "Patch 1 passes {tests} and {agree}{confirmed}{upheld}, but {doubt}: your answer about one of them shows whether it fixes the whole bug."
        ),
        None => format!(
            "Patch 1 passes {tests} and {agree}: one answer about an input it changes confirms it."
        ),
    }
}

/// The page's view of the repair phase.
pub fn describe(chooser: &PatchChooser, program: &str) -> RepairView {
    let tests = chooser.tests();
    let oracle = chooser.has_oracle();
    let step = chooser.next();
    let (choice, stop) = match &step {
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
            (
                Some(ChoiceView {
                    input: format_input(&q.input),
                    text: q.to_string(),
                    ask: q.kind.ask().to_string(),
                    options,
                }),
                None,
            )
        }
        ChooseStep::Done(stop) => (None, Some(*stop)),
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
                checks: checks(p, oracle),
                changes: test_changes(program, &p.patched_source, &tests),
            })
            .collect(),
        stop: chooser.report().stop.to_string(),
        verdict: verdict(chooser, &step),
        settled: stop == Some(ChooseStop::OneBehaviour),
        choice,
        questions_used: chooser.questions_used(),
        question_budget: chooser.question_budget(),
        repairs: chooser.repairs(),
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
