//! Messages between the page and its Web Worker (JSON text over `postMessage`), carrying the views of `view`.

use super::repair_phase::RepairReplayer;
pub use super::view::{
    ChoiceOptionView, ChoiceView, LoopView, NextStep, PatchView, PointView, QueryView,
    RepairProgress, RepairView, TestChange,
};
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
