//! The page's whole loop driven by a reference program that answers every question truthfully: labels, then the questions that choose between patches (`fixloop demo`, the tests of both).

use super::protocol::RepairView;
use super::repair_phase::RepairReplayer;
use super::replay::{playground_limits, ReplayError};
use super::{Answer, Choice, Replayer, Session, Verdict};
use crate::active::num::{format_input, parse_input};
use crate::active::program::ProgramRunner;
use crate::active::reference::ReferenceLabeller;
use crate::active::{Labeller, Step};
use crate::corpus::AnswerExtractor;
use crate::lang::compile;
use crate::repair::Control;

/// Why the autopilot could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AutopilotError {
    /// The reference program does not compile.
    #[error("the reference program does not compile: {0}")]
    Reference(String),
    /// The failing input is not numbers.
    #[error("the failing input must be numbers separated by spaces")]
    BadInput,
    /// The session does not replay.
    #[error("{0}")]
    Replay(#[from] ReplayError),
}

/// Where the autopilot ended.
#[derive(Debug, Clone)]
pub struct Flight {
    /// The session with every answer, as the page would have saved it.
    pub session: Session,
    /// The oracle the labels gave.
    pub formula: String,
    /// Why the labelling loop ended.
    pub loop_stop: String,
    /// The patches, what is known about them, and no pending question.
    pub repair: RepairView,
    /// The kind of each question about patches, in the order of the session's choices
    /// (`output`, `split`, `boundary`, `confirm`, `doubt`).
    pub kinds: Vec<String>,
}

/// The reference program as the page's user: it labels a run a bug when its answer
/// differs from the reference's and gives the reference's output then (answering as
/// [`Answerer::Golden`](crate::active::reference::Answerer::Golden); see
/// [`ReferenceLabeller::answering_as`] for a person, who gives outputs only when asked);
/// it answers a question about patches with the reference's output; it skips where the
/// reference has no defined answer.
pub fn reference_user(reference: &str, failing: &str) -> Result<ReferenceLabeller, AutopilotError> {
    let program = compile(reference).map_err(|e| AutopilotError::Reference(e.first_error()))?;
    let failing = parse_input(failing)
        .filter(|v| !v.is_empty())
        .ok_or(AutopilotError::BadInput)?;
    let runner = ProgramRunner::new(program, playground_limits(), AnswerExtractor::WholeOutput);
    Ok(ReferenceLabeller::new(runner).knowing_valid(&failing))
}

/// The edges of one of the worker's label steps (replaying the answers so far, then
/// choosing the next question), so a caller can time what a user waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepEdge {
    /// The step begins; `answers` answers are in the session.
    Begin {
        /// Answers given so far.
        answers: usize,
    },
    /// The step has its next question, or the loop has ended.
    End,
}

/// Runs `session` (started, its settings as given) to the end with `user` answering
/// every label question and every question about patches, as the page does.
pub fn fly(session: Session, user: &mut ReferenceLabeller) -> Result<Flight, AutopilotError> {
    fly_watched(session, user, &mut |_| {})
}

/// [`fly`], telling `watch` where each label step begins and ends (the step's cost is
/// what the page's user waits for between an answer and the next question).
pub fn fly_watched(
    mut session: Session,
    user: &mut ReferenceLabeller,
    watch: &mut dyn FnMut(StepEdge),
) -> Result<Flight, AutopilotError> {
    session.started = true;
    let mut replayer = Replayer::new();
    let loop_stop = loop {
        watch(StepEdge::Begin {
            answers: session.answers.len(),
        });
        let active = replayer.sync(&session)?;
        let step = active.next_step();
        watch(StepEdge::End);
        let query = match step {
            Step::Ask(q) => q,
            Step::Done(reason) => break reason.to_string(),
        };
        let input = format_input(&query.input);
        let answer = match user.label(&query) {
            None => Answer {
                input,
                verdict: Verdict::Skip,
                expected: None,
            },
            Some(label) => Answer {
                input,
                verdict: if label.bug { Verdict::Bug } else { Verdict::Ok },
                expected: label.expected.filter(|_| label.bug),
            },
        };
        session.answers.push(answer);
    };
    let formula = replayer.sync(&session)?.report().formula;
    session.repaired = true;
    let mut repairs = RepairReplayer::new();
    let mut kinds = Vec::new();
    let repair = loop {
        let active = replayer.sync(&session)?;
        let view = repairs.view(&session, active, &mut |_| Control::Continue)?;
        let Some(question) = &view.choice else {
            break view;
        };
        let input = parse_input(&question.input).unwrap_or_default();
        kinds.push(question.kind.clone());
        session.choices.push(Choice {
            input: question.input.clone(),
            output: user.right_output(&input),
        });
    };
    Ok(Flight {
        session,
        formula,
        loop_stop,
        repair,
        kinds,
    })
}
