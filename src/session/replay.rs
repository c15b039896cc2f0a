//! Rebuilding the active loop from a session: same program, settings and seed, the same answers applied in order.

use super::view::{LoopView, PointView, QueryView};
use super::{Answer, Session, Verdict};
use crate::active::formula::FormulaOracle;
use crate::active::fuzz::Reach;
use crate::active::num::{format_input, parse_input};
use crate::active::observe::{code_meaning, Observation};
use crate::active::program::ProgramRunner;
use crate::active::{
    ActiveConfig, ActiveLoop, AskReason, FuzzConfig, Label, Num, Range, Status, Step,
};
use crate::corpus::AnswerExtractor;
use crate::lang::{compile, Limits, Shape, Undefined};

/// The loop the playground runs.
pub type PlaygroundLoop = ActiveLoop<ProgramRunner, FormulaOracle>;

/// Why a session cannot be replayed. Messages are for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// Start was not pressed yet.
    #[error("the session has not been started")]
    NotStarted,
    /// The program does not compile (every diagnostic, one per line).
    #[error("the program does not compile:\n{0}")]
    Compile(String),
    /// The failing input is not a list of numbers.
    #[error("the failing input must be numbers separated by spaces, e.g. 2 2 2")]
    BadInput,
    /// The failing input has the wrong count for a function-shaped program.
    #[error("the function {name} takes {params} numbers but the failing input has {given}")]
    Arity {
        /// The function.
        name: String,
        /// Its parameter count.
        params: usize,
        /// Numbers in the failing input.
        given: usize,
    },
    /// The recorded answers do not match the questions the loop asks now (a session
    /// made by a different engine version, or edited by hand).
    #[error(
        "answer {index} does not replay: it was about input {recorded}, the loop now asks {now}"
    )]
    Diverged {
        /// 1-based answer number.
        index: usize,
        /// Its recorded input.
        recorded: String,
        /// What the loop asks (or "nothing: the loop ended").
        now: String,
    },
    /// A recorded answer about patches does not match the question asked now.
    #[error(
        "answer {index} about patches does not replay: it was about input {recorded}, repair now asks {now}"
    )]
    ChoiceDiverged {
        /// 1-based answer number (among the answers about patches).
        index: usize,
        /// Its recorded input.
        recorded: String,
        /// What is asked now (or "nothing: ...").
        now: String,
    },
}

/// Execution limits of programs in the playground (part of replay: keep them fixed).
pub fn playground_limits() -> Limits {
    Limits {
        fuel: 2_000_000,
        ..Limits::default()
    }
}

/// The active-loop settings a session asks for.
pub fn active_config(session: &Session) -> ActiveConfig {
    let ranges = session.ranges.iter().map(|r| r.map(Range::from)).collect();
    ActiveConfig {
        label_budget: session.settings.label_budget,
        committee: session.settings.committee,
        fuzz: FuzzConfig {
            ranges,
            profile: session.settings.fuzzer.profile(),
            ..FuzzConfig::default()
        },
        near_first: session.settings.asking == super::Asking::Person,
        ..ActiveConfig::default()
    }
}

/// Why a session should not start, for the user, beyond what [`fresh_loop`] refuses: an
/// expected output a function-shaped program cannot return (it returns a number), an
/// expected output the program already prints on the failing input (nothing to repair),
/// a failing input with fewer numbers than the program's straight-line reads take, or a
/// `main` that reads no input at all.
pub fn start_problem(session: &Session) -> Option<String> {
    let program = compile(&session.program).ok()?;
    let failing = parse_input(&session.failing_input).filter(|v| !v.is_empty())?;
    let expected = session
        .expected_output
        .as_deref()
        .map(str::trim)
        .filter(|e| !e.is_empty());
    if let (Shape::Function { name, .. }, Some(e)) = (program.shape(), expected) {
        if parse_input(e).is_none_or(|v| v.len() != 1) {
            return Some(format!(
                "{name} returns a number, so the expected output \"{e}\" can never be its answer: give a number, or leave it empty."
            ));
        }
    }
    let exec = program.run_test(&failing, &playground_limits());
    let printed = String::from_utf8_lossy(&exec.stdout);
    if let Some(e) = expected {
        if exec.exited() && crate::compare::outputs_match(&printed, e) {
            return Some(format!(
                "On the failing input {} the program already prints the expected output \"{e}\": there is nothing to repair there. Give an input on which it goes wrong.",
                session.failing_input.trim()
            ));
        }
    }
    if matches!(program.shape(), Shape::Main) {
        let inputs = program.inputs();
        if !inputs.reads_stdin {
            return Some(
                "The program reads no input (no scanf, getchar or fgets), so every input gives the same run: there is nothing to fuzz. Make it read the numbers it works on.".to_string(),
            );
        }
        let reads = inputs.slots.len();
        if reads > failing.len() {
            return Some(format!(
                "The program reads at least {reads} numbers, but the failing input has {}.",
                failing.len()
            ));
        }
    }
    None
}

/// Builds the loop of a started session, before any answer.
pub fn fresh_loop(session: &Session) -> Result<PlaygroundLoop, ReplayError> {
    if !session.started {
        return Err(ReplayError::NotStarted);
    }
    let program = compile(&session.program).map_err(|e| ReplayError::Compile(e.to_string()))?;
    let failing = parse_input(&session.failing_input)
        .filter(|v| !v.is_empty())
        .ok_or(ReplayError::BadInput)?;
    if let Shape::Function { name, params, .. } = program.shape() {
        if params.len() != failing.len() {
            return Err(ReplayError::Arity {
                name: name.clone(),
                params: params.len(),
                given: failing.len(),
            });
        }
    }
    let inputs = program.inputs().clone();
    let runner = ProgramRunner::new(program, playground_limits(), AnswerExtractor::WholeOutput);
    let expected = session
        .expected_output
        .clone()
        .filter(|e| !e.trim().is_empty());
    let mut config = active_config(session);
    config.fuzz.program = inputs.clone();
    Ok(ActiveLoop::new(
        config,
        runner,
        FormulaOracle::new()
            .with_input_names(inputs.names(failing.len()))
            .preferring_inputs(session.settings.asking == super::Asking::Person),
        &failing,
        expected,
        session.settings.seed,
    ))
}

/// Applies one recorded answer to the loop, checking it is about the question asked.
fn apply(active: &mut PlaygroundLoop, index: usize, answer: &Answer) -> Result<(), ReplayError> {
    let query = match active.next_step() {
        Step::Ask(q) => q,
        Step::Done(_) => {
            return Err(ReplayError::Diverged {
                index,
                recorded: answer.input.clone(),
                now: "nothing: the loop ended".into(),
            })
        }
    };
    let now = format_input(&query.input);
    if now != answer.input.trim() {
        return Err(ReplayError::Diverged {
            index,
            recorded: answer.input.clone(),
            now,
        });
    }
    let result = match answer.verdict {
        Verdict::Skip => active.skip(),
        Verdict::Ok => active.answer(Label::ok()),
        Verdict::Bug => active.answer(Label {
            bug: true,
            expected: answer.expected.clone(),
        }),
    };
    // A question is pending here, so neither can fail.
    debug_assert!(result.is_ok());
    Ok(())
}

/// The parts of a session that fix the loop before any answer.
fn same_start(a: &Session, b: &Session) -> bool {
    a.program == b.program
        && a.failing_input == b.failing_input
        && a.expected_output == b.expected_output
        && a.ranges == b.ranges
        && a.settings == b.settings
        && a.started == b.started
}

/// Keeps one loop in step with a changing session: new answers are applied to the
/// loop it has; anything else (another program, settings, an answer changed) replays
/// from scratch. Replay is exact: the loop is deterministic given the seed.
#[derive(Default)]
pub struct Replayer {
    state: Option<(Session, PlaygroundLoop)>,
}

impl Replayer {
    /// An empty replayer.
    pub fn new() -> Replayer {
        Replayer::default()
    }

    /// Brings the loop up to `session` and returns it.
    pub fn sync(&mut self, session: &Session) -> Result<&mut PlaygroundLoop, ReplayError> {
        let reusable = self.state.as_ref().is_some_and(|(done, _)| {
            same_start(done, session) && session.answers.starts_with(&done.answers)
        });
        let (mut done, mut active) = match self.state.take() {
            Some(state) if reusable => state,
            _ => {
                let mut fresh = session.clone();
                fresh.answers.clear();
                (fresh, fresh_loop(session)?)
            }
        };
        let from = done.answers.len();
        for (i, answer) in session.answers.iter().enumerate().skip(from) {
            apply(&mut active, i + 1, answer)?;
            done.answers.push(answer.clone());
        }
        done.stopped = session.stopped;
        let (_, active) = self.state.insert((done, active));
        Ok(active)
    }

    /// Brings the loop up to `session` and describes it.
    pub fn view(&mut self, session: &Session) -> Result<LoopView, ReplayError> {
        let stopped = session.stopped;
        let active = self.sync(session)?;
        Ok(describe(active, stopped))
    }
}

/// How a run ended, for the page.
pub(crate) fn status_text(status: Status) -> &'static str {
    match status {
        Status::Normal => "normal exit",
        Status::Timeout => "timeout (stopped at the step limit)",
        Status::RuntimeError => "runtime error",
    }
}

/// How a question's run ended: "normal exit", or the limit or runtime error that
/// stopped it by name (an output-limit stop is not called a runtime error).
fn question_ended(observation: &Observation) -> String {
    match (&observation.outcome, observation.status) {
        (Some(outcome), Status::RuntimeError) => {
            super::run::ended_text(outcome, playground_limits().fuel)
        }
        (_, status) => status_text(status).to_string(),
    }
}

/// What the page says when the failing input's own run ran past the step limit.
fn failing_warning(active: &PlaygroundLoop) -> Option<String> {
    let failing = active.labelled().first()?;
    (failing.observation.status == Status::Timeout).then(|| {
        format!(
            "On the failing input {} the program ran past the step limit ({} steps) and was \
             stopped: fixloop takes that timeout as the bug. Runs that do the same are shown as \
             \"timeout\", their own kind of answer. If the program is only slow here, not stuck, \
             give a smaller failing input.",
            format_input(&failing.input),
            playground_limits().fuel
        )
    })
}

/// The question's warning about undefined behaviour.
fn undefined_warning(undefined: Undefined) -> String {
    format!(
        "the run went through undefined behaviour of C: {undefined}. If this input is outside \
         what the program is meant for, Skip it."
    )
}

/// Why a question is asked, in words: where the input lies (asked near the failing
/// input first) and what the committee said.
fn asked_because(q: &crate::active::Query) -> String {
    let why = match q.reason {
        AskReason::OraclePredictsBug => "the current oracle predicts a bug".to_string(),
        AskReason::Committee { bug_votes, votes } => {
            format!("{bug_votes} of {votes} look-ahead oracles vote bug")
        }
        AskReason::LeftoverBudget { bug_votes, votes } => format!(
            "labels are left after generation ended ({bug_votes} of {votes} look-ahead votes were bug)"
        ),
    };
    let place = match q.reach {
        None => return why,
        Some(Reach::Like) => {
            "it is most like the failing input (the same order and signs of the numbers), and no other bug is known yet"
        }
        Some(Reach::Near) => "it is near a run you called a bug",
        Some(Reach::Far) => {
            "it is far from the failing input: the nearer inputs stopped telling the committee anything"
        }
    };
    format!("{place}; {why}")
}

/// Other formulas that fit the answers, shown at most.
const ALTERNATIVES: usize = 2;

/// The page's view of a loop (asks for the next step unless the user stopped).
pub fn describe(active: &mut PlaygroundLoop, stopped_by_user: bool) -> LoopView {
    let (query, finished) = if stopped_by_user {
        (None, Some("stopped by you".to_string()))
    } else {
        match active.next_step() {
            Step::Ask(q) => (
                Some(QueryView {
                    input: format_input(&q.input),
                    output: q.observation.stdout.clone(),
                    status: question_ended(&q.observation),
                    warning: q.observation.undefined.map(undefined_warning),
                    reason: asked_because(&q),
                }),
                None,
            ),
            Step::Done(reason) => (None, Some(reason.to_string())),
        }
    };
    let report = active.report();
    let points: Vec<PointView> = active
        .labelled()
        .iter()
        .map(|t| PointView {
            input: format_input(&t.input),
            output: t.observation.stdout.clone(),
            values: crate::active::session::point(&t.input, &t.observation)
                .iter()
                .map(|n| n.as_f64())
                .collect(),
            bug: t.label.bug,
            expected: t.label.expected.clone(),
        })
        .collect();
    let arity = points.first().map_or(1, |p| p.values.len());
    let mut encoding: Vec<(i64, String)> = active
        .labelled()
        .iter()
        .filter_map(
            |t| match (t.observation.value, code_meaning(&t.observation)) {
                (Num::Int(code), Some(meaning)) => Some((code, meaning)),
                _ => None,
            },
        )
        .collect();
    encoding.sort();
    encoding.dedup_by_key(|e| e.0);
    LoopView {
        query,
        finished,
        labels_used: report.labels,
        label_budget: active.config().label_budget,
        generated: report.generated,
        formula: report.formula,
        vars: active.oracle().names(arity),
        encoding,
        points,
        failing_warning: failing_warning(active),
        alternatives: active
            .oracle()
            .alternatives(ALTERNATIVES)
            .iter()
            .map(|f| f.to_string())
            .collect(),
    }
}

#[cfg(test)]
mod start_checks {
    use super::start_problem;
    use crate::session::Session;

    fn problem(program: &str, failing: &str, expected: Option<&str>) -> Option<String> {
        let mut s = Session::new(program, failing);
        s.expected_output = expected.map(str::to_string);
        start_problem(&s)
    }

    const TWICE: &str = "#include <stdio.h>\nint main(void) { int a, b; scanf(\"%d %d\", &a, &b); printf(\"%d\\n\", a + a); return 0; }\n";

    #[test]
    fn a_failing_input_that_already_gives_the_expected_output_is_refused() {
        let why = problem(TWICE, "2 2", Some("4")).expect("refused");
        assert!(
            why.contains("already prints the expected output \"4\""),
            "{why}"
        );
        assert_eq!(problem(TWICE, "2 3", Some("5")), None);
    }

    #[test]
    fn a_failing_input_with_fewer_numbers_than_the_program_reads_is_refused() {
        let why = problem(TWICE, "2", None).expect("refused");
        assert!(
            why.contains("reads at least 2 numbers, but the failing input has 1"),
            "{why}"
        );
    }

    #[test]
    fn a_program_that_reads_no_input_is_refused() {
        let why = problem(
            "#include <stdio.h>\nint main(void) { printf(\"7\\n\"); return 0; }\n",
            "1",
            None,
        )
        .expect("refused");
        assert!(why.contains("reads no input"), "{why}");
        // A read inside a helper function or a loop still counts as reading.
        let helper = "#include <stdio.h>\nint get(void) { int x; scanf(\"%d\", &x); return x; }\nint main(void) { int i; for (i = 0; i < 1; i++) printf(\"%d\\n\", get()); return 0; }\n";
        assert_eq!(problem(helper, "1", None), None);
        let chars = "#include <stdio.h>\nint main(void) { int c = getchar(); printf(\"%d\\n\", c); return 0; }\n";
        assert_eq!(problem(chars, "1", None), None);
    }
}

#[cfg(test)]
mod question_words {
    use super::*;
    use crate::lang::Outcome;

    fn observation(status: Status, outcome: Option<Outcome>) -> Observation {
        Observation {
            stdout: String::new(),
            status,
            answer: None,
            value: Num::Int(0),
            undefined: None,
            outcome,
        }
    }

    #[test]
    fn a_question_names_the_limit_that_stopped_its_run() {
        let output = observation(Status::RuntimeError, Some(Outcome::OutputLimit));
        assert_eq!(
            question_ended(&output),
            "stopped: the output limit was reached"
        );
        let normal = observation(Status::Normal, Some(Outcome::Exit(0)));
        assert_eq!(question_ended(&normal), "normal exit");
        // A runner that is not the interpreter says only what the oracle knows.
        assert_eq!(
            question_ended(&observation(Status::RuntimeError, None)),
            "runtime error"
        );
    }
}
