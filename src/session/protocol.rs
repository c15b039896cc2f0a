//! Messages between the page and its Web Worker (JSON text over `postMessage`), and the views of the loop they carry.

use super::repair_phase::RepairReplayer;
use super::Session;
use crate::exercise::task::{ExerciseOutcome, ExerciseTask};
use crate::repair::{Control, Progress};
use serde::{Deserialize, Serialize};

/// What the page asks the worker. Every request carries the whole session, so a fresh
/// worker (after Stop or a crash) rebuilds its state by replay: the page's session is
/// the only source of truth.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum WorkerRequest {
    /// Bring the active loop up to date with `session` and report the next step.
    Sync {
        /// Echoed in the answer, so stale answers can be dropped.
        id: u64,
        /// The session as it is now.
        session: Session,
    },
    /// Report the loop (as for Sync), then repair the session's program with its
    /// labelled tests, apply its answers about patches and report the next question
    /// that chooses between them.
    Repair {
        /// Echoed in every answer.
        id: u64,
        /// The session as it is now.
        session: Session,
    },
    /// Run a program once on a typed input (the page's Run button).
    Run {
        /// Echoed in the answer.
        id: u64,
        /// The program as it is in the editor.
        program: String,
        /// The input typed (stdin, or a function's arguments).
        input: String,
    },
    /// Exercise work: a student's report or fix check, or a class's reports verified.
    Exercise {
        /// Echoed in the answer.
        id: u64,
        /// The job.
        task: ExerciseTask,
    },
}

/// What the worker answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum WorkerResponse {
    /// The worker has started and listens (requests sent before are lost, so the page
    /// queues them until this arrives).
    Ready,
    /// The loop after a [`WorkerRequest::Sync`].
    Loop {
        /// The request's id.
        id: u64,
        /// The loop now.
        view: LoopView,
    },
    /// A request failed; the message is for the user.
    Failed {
        /// The request's id.
        id: u64,
        /// Why.
        message: String,
    },
    /// Repair is running.
    RepairProgress {
        /// The request's id.
        id: u64,
        /// Counters so far.
        progress: RepairProgress,
    },
    /// Repair ended (with the session's answers about patches applied).
    RepairDone {
        /// The request's id.
        id: u64,
        /// The patches, what is known about them, and the next question.
        view: RepairView,
    },
    /// The run a [`WorkerRequest::Run`] asked for.
    Ran {
        /// The request's id.
        id: u64,
        /// Its output, how it ended and any undefined behaviour.
        run: super::run::RunView,
    },
    /// Exercise work done.
    Exercise {
        /// The request's id.
        id: u64,
        /// The result.
        outcome: ExerciseOutcome,
    },
}

impl WorkerRequest {
    /// What the page sends for a started `session`: Repair when it was repaired (the loop
    /// view comes first), else Sync.
    pub fn for_session(id: u64, session: Session) -> WorkerRequest {
        if session.repaired {
            WorkerRequest::Repair { id, session }
        } else {
            WorkerRequest::Sync { id, session }
        }
    }

    /// The message text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a message text.
    pub fn from_json(text: &str) -> Result<WorkerRequest, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

impl WorkerResponse {
    /// The message text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a message text.
    pub fn from_json(text: &str) -> Result<WorkerResponse, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// The id of the request this answers.
    pub fn id(&self) -> u64 {
        match self {
            WorkerResponse::Loop { id, .. }
            | WorkerResponse::Failed { id, .. }
            | WorkerResponse::RepairProgress { id, .. }
            | WorkerResponse::RepairDone { id, .. }
            | WorkerResponse::Ran { id, .. }
            | WorkerResponse::Exercise { id, .. } => *id,
            WorkerResponse::Ready => 0,
        }
    }
}

/// Whether `now` is worth a progress message after the last one sent (`last`: executions,
/// plausible patches): each new plausible patch, each of the first ten executions, then
/// every tenth of the count so far, at most every 100 (a slow program's first runs show
/// in the first second; a fast one's do not flood the page).
pub fn progress_is_news(last: (u64, usize), now: &Progress) -> bool {
    let step = (last.0 / 10).clamp(1, 100);
    now.plausible != last.1 || now.test_executions >= last.0 + step
}

/// The question on screen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryView {
    /// Input numbers, space-separated.
    pub input: String,
    /// What the program printed.
    pub output: String,
    /// How the run ended (normal, timeout, runtime error).
    pub status: String,
    /// Why it is asked, readable.
    pub reason: String,
    /// A warning about the run, readable: the undefined behaviour of C it went through
    /// (a sign that the input may be outside what the program was written for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// A labelled test, for the list and the plot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointView {
    /// Input numbers, space-separated.
    pub input: String,
    /// The program's output.
    pub output: String,
    /// The oracle's variables at this test (inputs, then the output value), for plotting.
    pub values: Vec<f64>,
    /// Labelled "bug".
    pub bug: bool,
    /// The correct output, when given.
    pub expected: Option<String>,
}

/// The active loop as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoopView {
    /// The pending question (`None` when finished).
    pub query: Option<QueryView>,
    /// Why the loop ended, when it did.
    pub finished: Option<String>,
    /// Labels given (skips not counted).
    pub labels_used: usize,
    /// The label budget.
    pub label_budget: usize,
    /// Candidate tests generated so far.
    pub generated: usize,
    /// The current oracle, readable.
    pub formula: String,
    /// The oracle's variable names: the program's input names (or `x1 .. xn`), then the
    /// output (`out`).
    pub vars: Vec<String>,
    /// What output codes stand for (`2` = `invalid`, `-1000000001` = `timeout`), for the
    /// codes the labelled tests have, by code.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub encoding: Vec<(i64, String)>,
    /// Labelled tests, the failing input first.
    pub points: Vec<PointView>,
    /// What to know about the failing input's own run before answering (it ran past the
    /// step limit), if anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failing_warning: Option<String>,
    /// Other formulas, no larger, that fit the answers as well as the oracle's (the
    /// answers have not settled where the bug is).
    #[serde(default)]
    pub alternatives: Vec<String>,
}

/// Counters of a running repair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RepairProgress {
    /// Candidate patches generated.
    pub candidates: u64,
    /// Test executions.
    pub executions: u64,
    /// Plausible patches (passing every labelled test) so far.
    pub plausible: usize,
    /// Cost of the cheapest plausible patch so far.
    pub best_cost: Option<u32>,
}

/// A test's output before and after a patch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestChange {
    /// Input numbers.
    pub input: String,
    /// Output of the user's program.
    pub before: String,
    /// Output of the patched program.
    pub after: String,
    /// The patched program passes this test.
    pub passes: bool,
}

/// One patch, as the Patches region shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatchView {
    /// Unified-style diff of the user's program.
    pub diff: String,
    /// The patched program (Apply puts it into the editor).
    pub source: String,
    /// Syntactic cost.
    pub cost: u32,
    /// Labelled tests passed.
    pub passed: usize,
    /// Labelled tests in all.
    pub total: usize,
    /// Share of fresh fuzzed inputs on which the learned oracle accepts the patch.
    pub validation: Option<f64>,
    /// Fuzzed inputs the validation ran (fewer than planned when Stop cut it short).
    pub validated_inputs: usize,
    /// What was checked, in plain words ("Passes all 11 tests (the failing input and your
    /// 10 answers). Agrees with the learned oracle on 98 of 100 fresh inputs.").
    pub checks: String,
    /// Before and after per labelled test.
    pub changes: Vec<TestChange>,
}

/// One distinct answer the remaining patches give on a question's input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChoiceOptionView {
    /// What they print.
    pub output: String,
    /// How their runs end (normal exit, timeout, runtime error).
    pub status: String,
    /// The patches (1-based, as listed) that print it.
    pub patches: Vec<usize>,
}

/// A question that chooses between patches, as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChoiceView {
    /// The input, space-separated numbers.
    pub input: String,
    /// The question in words ("for input 2 3 3 the patches print ...").
    pub text: String,
    /// What is asked after "For input X" ("the patches print different answers. Which
    /// is right?"): why this question, in words.
    #[serde(default)]
    pub ask: String,
    /// The distinct answers.
    pub options: Vec<ChoiceOptionView>,
    /// Why it is asked: `split`, `confirm`, `doubt`, `output` (the right output of a run
    /// you called a bug) or `boundary` (an input beside a boundary the patch moved).
    #[serde(default)]
    pub kind: String,
}

/// A step that would help where repair stopped short of a fix, offered as a button.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum NextStep {
    /// Say what the program should print on `input` (a run called a bug): one more
    /// question about patches.
    GiveOutput {
        /// The input, space-separated numbers.
        input: String,
    },
    /// Answer more questions about the patches (the question budget is spent).
    MoreQuestions,
    /// Label more runs: the loop goes on, then repair runs again.
    MoreLabels,
    /// Set the range of each input (none is set): the loop starts again within them.
    SetRanges,
}

impl NextStep {
    /// The button's words.
    pub fn label(&self) -> String {
        match self {
            NextStep::GiveOutput { input } => format!("Say what {input} should print"),
            NextStep::MoreQuestions => "Ask me more questions".to_string(),
            NextStep::MoreLabels => "Label more runs".to_string(),
            NextStep::SetRanges => "Set input ranges".to_string(),
        }
    }

    /// Why it would help, in one sentence.
    pub fn why(&self) -> &'static str {
        match self {
            NextStep::GiveOutput { .. } => {
                "Repair knows only that this output is wrong; the right one tells it what to aim for."
            }
            NextStep::MoreQuestions => {
                "Each answer rules out patches that print something else, or confirms the best one."
            }
            NextStep::MoreLabels => {
                "More labelled runs show more of the bug, so repair has more to check patches against."
            }
            NextStep::SetRanges => {
                "Inputs the program is not meant for can make every patch look wrong; ranges keep the questions to valid inputs."
            }
        }
    }
}

/// The repair phase as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RepairView {
    /// The patches still in the running, best first.
    pub patches: Vec<PatchView>,
    /// Why the latest search ended, readable.
    pub stop: String,
    /// What is known and what is still open, in plain words.
    pub verdict: String,
    /// Patch 1 is called the fix: the patches left print the same on every input
    /// checked, the boundaries it moved were asked, and the right output on the failing
    /// input is known ([`crate::repair::choose::PatchChooser::claims_fix`]).
    pub settled: bool,
    /// The next question that chooses between patches.
    pub choice: Option<ChoiceView>,
    /// Questions answered.
    pub questions_used: usize,
    /// Of those, questions that asked the right output of a run called a bug.
    #[serde(default)]
    pub outputs_asked: usize,
    /// The question budget.
    pub question_budget: usize,
    /// Searches run (1 + those after answers ruled every patch out).
    pub repairs: usize,
    /// What would help next, when repair ended without a confirmed fix (best first).
    #[serde(default)]
    pub next_steps: Vec<NextStep>,
}

/// The worker's state and request handling (no web dependencies, so it is tested natively;
/// the wasm worker only moves text in and out).
#[derive(Default)]
pub struct WorkerState {
    replayer: super::Replayer,
    repairs: RepairReplayer,
}

impl WorkerState {
    /// A fresh worker state.
    pub fn new() -> WorkerState {
        WorkerState::default()
    }

    /// Handles one request, emitting progress and the final answer.
    pub fn handle(&mut self, request: WorkerRequest, emit: &mut dyn FnMut(WorkerResponse)) {
        match request {
            WorkerRequest::Sync { id, session } => emit(match self.replayer.view(&session) {
                Ok(view) => WorkerResponse::Loop { id, view },
                Err(e) => WorkerResponse::Failed {
                    id,
                    message: e.to_string(),
                },
            }),
            WorkerRequest::Repair { id, session } => self.repair(id, &session, emit),
            WorkerRequest::Run { id, program, input } => emit(WorkerResponse::Ran {
                id,
                run: super::run::run_once(&program, &input),
            }),
            WorkerRequest::Exercise { id, task } => emit(match task.run() {
                Ok(outcome) => WorkerResponse::Exercise { id, outcome },
                Err(message) => WorkerResponse::Failed { id, message },
            }),
        }
    }

    /// Repairs the session's program against its labelled tests and learned oracle (or
    /// reuses the last repair of the same session), applies its answers about patches,
    /// emitting progress (at once, then as [`progress_is_news`] says) and the view.
    fn repair(&mut self, id: u64, session: &Session, emit: &mut dyn FnMut(WorkerResponse)) {
        match self.replayer.view(session) {
            Ok(view) => emit(WorkerResponse::Loop { id, view }),
            Err(e) => {
                return emit(WorkerResponse::Failed {
                    id,
                    message: e.to_string(),
                })
            }
        }
        let active = match self.replayer.sync(session) {
            Ok(a) => a,
            Err(e) => {
                return emit(WorkerResponse::Failed {
                    id,
                    message: e.to_string(),
                })
            }
        };
        // The page hears at once that repair has begun (it runs the labelled tests and
        // locates suspicious statements first), then after the first executions.
        let report = |p: &Progress, emit: &mut dyn FnMut(WorkerResponse)| {
            emit(WorkerResponse::RepairProgress {
                id,
                progress: RepairProgress {
                    candidates: p.candidates,
                    executions: p.test_executions,
                    plausible: p.plausible,
                    best_cost: p.best_cost,
                },
            })
        };
        report(&Progress::default(), emit);
        let mut last = (0u64, 0usize);
        let mut hook = |p: &Progress| {
            if progress_is_news(last, p) {
                last = (p.test_executions, p.plausible);
                report(p, emit);
            }
            Control::Continue
        };
        let view = self.repairs.view(session, active, &mut hook);
        emit(match view {
            Ok(view) => WorkerResponse::RepairDone { id, view },
            Err(e) => WorkerResponse::Failed {
                id,
                message: e.to_string(),
            },
        });
    }

    /// Handles one message text (a request as JSON), emitting answer texts.
    pub fn handle_text(&mut self, text: &str, emit: &mut dyn FnMut(String)) {
        match WorkerRequest::from_json(text) {
            Ok(request) => self.handle(request, &mut |r| emit(r.to_json())),
            Err(e) => emit(
                WorkerResponse::Failed {
                    id: 0,
                    message: format!("the worker got a malformed request: {e}"),
                }
                .to_json(),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_as_json() {
        let req = WorkerRequest::Sync {
            id: 7,
            session: Session::new("int main(void){return 0;}", "1"),
        };
        assert_eq!(WorkerRequest::from_json(&req.to_json()), Ok(req));
        let resp = WorkerResponse::RepairProgress {
            id: 3,
            progress: RepairProgress {
                candidates: 10,
                executions: 40,
                plausible: 2,
                best_cost: Some(3),
            },
        };
        assert_eq!(WorkerResponse::from_json(&resp.to_json()), Ok(resp));
        assert!(WorkerRequest::from_json("{\"Nope\":1}").is_err());
    }

    #[test]
    fn progress_is_news_for_each_early_execution_then_every_tenth_at_most_every_hundred() {
        let at = |test_executions, plausible| Progress {
            test_executions,
            plausible,
            ..Progress::default()
        };
        assert!(progress_is_news((0, 0), &at(1, 0)));
        assert!(progress_is_news((5, 0), &at(6, 0)));
        assert!(!progress_is_news((50, 0), &at(54, 0)));
        assert!(progress_is_news((50, 0), &at(55, 0)));
        assert!(!progress_is_news((5000, 0), &at(5099, 0)));
        assert!(progress_is_news((5000, 0), &at(5100, 0)));
        assert!(
            progress_is_news((5000, 0), &at(5001, 1)),
            "a new plausible patch"
        );
    }

    #[test]
    fn the_worker_state_answers_sync_requests() {
        let mut session = crate::session::examples::EXAMPLES[0].session();
        session.started = true;
        session.settings.label_budget = 2;
        let mut out = Vec::new();
        let mut worker = WorkerState::new();
        worker.handle_text(
            &WorkerRequest::Sync { id: 5, session }.to_json(),
            &mut |t| out.push(t),
        );
        worker.handle_text("garbage", &mut |t| out.push(t));
        let first = WorkerResponse::from_json(&out[0]).unwrap();
        match first {
            WorkerResponse::Loop { id, view } => {
                assert_eq!(id, 5);
                assert_eq!(view.points.len(), 1);
                assert!(view.query.is_some() || view.finished.is_some());
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            WorkerResponse::from_json(&out[1]),
            Ok(WorkerResponse::Failed { id: 0, .. })
        ));
    }
}
