//! The page's state and its reducer: every user action and worker answer is an [`Action`]; side effects live in the components.

use crate::lang::compile;
use crate::session::examples;
use crate::session::protocol::{LoopView, PatchView, RepairProgress};
use crate::session::{Answer, InputRange, Session, Verdict};
use std::rc::Rc;
use yew::Reducible;

/// Where repair is.
#[derive(Debug, Clone, PartialEq)]
pub enum RepairState {
    /// Not run yet.
    Idle,
    /// Running in the worker.
    Running(Option<RepairProgress>),
    /// Finished with patches.
    Done {
        /// Best first.
        patches: Vec<PatchView>,
        /// Why it stopped.
        stop: String,
    },
    /// Stopped by the user.
    Stopped,
}

/// The colour theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    /// Follow the system.
    System,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl Theme {
    /// The attribute value on `<html data-theme>`.
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// The theme named by `text` (system for anything else).
    pub fn parse(text: &str) -> Theme {
        match text {
            "light" => Theme::Light,
            "dark" => Theme::Dark,
            _ => Theme::System,
        }
    }

    /// The next theme of the toggle.
    pub fn next(self) -> Theme {
        match self {
            Theme::System => Theme::Light,
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::System,
        }
    }
}

/// Everything the page shows.
#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    /// The session (saved on every change).
    pub session: Session,
    /// The loop as the worker last described it.
    pub view: Option<LoopView>,
    /// Waiting for the worker.
    pub busy: bool,
    /// An error the user must see (role=alert).
    pub error: Option<String>,
    /// A link's session waiting for the user's consent to replace the saved one.
    pub pending_link: Option<Session>,
    /// The last share link.
    pub share_url: Option<String>,
    /// Repair.
    pub repair: RepairState,
    /// Theme choice.
    pub theme: Theme,
    /// The plot's axes (oracle variable indices).
    pub axes: (usize, usize),
}

/// What can happen.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// The program text changed.
    EditProgram(String),
    /// The failing input changed.
    EditFailing(String),
    /// The expected output changed.
    EditExpected(String),
    /// The range of input position `.0` changed (min, max texts; empty clears).
    EditRange(usize, String, String),
    /// Label budget text.
    EditBudget(String),
    /// Committee size text.
    EditCommittee(String),
    /// Seed text.
    EditSeed(String),
    /// Start the loop.
    Start,
    /// Answer the question on screen (verdict, correct output).
    Answer(Verdict, Option<String>),
    /// Stop labelling early.
    StopLoop,
    /// Back to editing (answers dropped).
    EditAgain,
    /// Open a gallery example.
    LoadExample(String),
    /// Restore the example this session came from.
    Reset,
    /// The worker described the loop.
    LoopViewed(LoopView),
    /// The worker (or something else) failed; the message is for the user.
    Failed(String),
    /// Dismiss the error.
    DismissError,
    /// A link opened a session that differs from the saved one: ask.
    LinkPending(Session),
    /// Open the pending link's session.
    AcceptLink,
    /// Keep the saved session.
    RejectLink,
    /// Replace the session (import, or a link with nothing to overwrite).
    Replace(Session),
    /// A share link was made.
    Shared(String),
    /// Repair started.
    RepairStarted,
    /// Repair progress.
    RepairProgressed(RepairProgress),
    /// Repair ended.
    RepairFinished(Vec<PatchView>, String),
    /// Repair stopped by the user.
    RepairStopped,
    /// Apply a patch: its program replaces the editor's (a new session round).
    ApplyPatch(String),
    /// Theme toggle.
    SetTheme(Theme),
    /// Plot axes.
    SetAxes(usize, usize),
}

impl AppState {
    /// The page at load: the saved session (or the first example).
    pub fn new(session: Session, theme: Theme) -> AppState {
        AppState {
            session,
            view: None,
            busy: false,
            error: None,
            pending_link: None,
            share_url: None,
            repair: RepairState::Idle,
            theme,
            axes: (0, 1),
        }
    }

    /// The first example, not started.
    pub fn default_session() -> Session {
        examples::EXAMPLES[0].session()
    }

    fn editable(&self) -> bool {
        !self.session.started
    }

    fn reset_round(&mut self) {
        self.view = None;
        self.busy = false;
        self.share_url = None;
        self.repair = RepairState::Idle;
        self.axes = (0, 1);
    }

    fn replace(&mut self, session: Session) {
        self.busy = session.started;
        self.session = session;
        self.error = None;
        self.pending_link = None;
        let keep_busy = self.busy;
        self.reset_round();
        self.busy = keep_busy;
    }
}

/// Reads the ranges' text boxes: a position's range is kept when both ends read as numbers.
fn set_range(ranges: &mut Vec<Option<InputRange>>, index: usize, min: &str, max: &str) {
    if index >= crate::session::limits::MAX_RANGES {
        return;
    }
    if ranges.len() <= index {
        ranges.resize(index + 1, None);
    }
    ranges[index] = match (min.trim().parse::<f64>(), max.trim().parse::<f64>()) {
        (Ok(a), Ok(b)) if a.is_finite() && b.is_finite() && a <= b => {
            Some(InputRange { min: a, max: b })
        }
        _ => None,
    };
    while ranges.last() == Some(&None) {
        ranges.pop();
    }
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        use crate::session::limits::{MAX_COMMITTEE, MAX_LABEL_BUDGET};
        match action {
            Action::EditProgram(t) if s.editable() => s.session.program = t,
            Action::EditFailing(t) if s.editable() => s.session.failing_input = t,
            Action::EditExpected(t) if s.editable() => {
                s.session.expected_output = Some(t).filter(|t| !t.is_empty())
            }
            Action::EditRange(i, min, max) if s.editable() => {
                set_range(&mut s.session.ranges, i, &min, &max)
            }
            Action::EditBudget(t) if s.editable() => {
                if let Ok(n) = t.trim().parse::<usize>() {
                    s.session.settings.label_budget = n.clamp(1, MAX_LABEL_BUDGET);
                }
            }
            Action::EditCommittee(t) if s.editable() => {
                if let Ok(n) = t.trim().parse::<usize>() {
                    s.session.settings.committee = n.clamp(1, MAX_COMMITTEE);
                }
            }
            Action::EditSeed(t) if s.editable() => {
                if let Ok(n) = t.trim().parse::<u64>() {
                    s.session.settings.seed = n;
                }
            }
            Action::Start if s.editable() => match compile(&s.session.program) {
                Err(e) => {
                    s.error = Some(format!("The program does not compile:\n{e}"));
                }
                Ok(_) => {
                    let input = crate::active::num::parse_input(&s.session.failing_input);
                    if input.is_none_or(|v| v.is_empty()) {
                        s.error = Some(
                            "The failing input must be numbers separated by spaces, e.g. 2 2 2"
                                .into(),
                        );
                    } else {
                        s.error = None;
                        s.session.started = true;
                        s.session.answers.clear();
                        s.session.stopped = false;
                        s.reset_round();
                        s.busy = true;
                    }
                }
            },
            Action::Answer(verdict, expected) => {
                let Some(query) = s.view.as_ref().and_then(|v| v.query.as_ref()) else {
                    return self;
                };
                if s.busy || s.session.answers.len() >= crate::session::limits::MAX_ANSWERS {
                    return self;
                }
                s.session.answers.push(Answer {
                    input: query.input.clone(),
                    verdict,
                    expected: expected.filter(|e| verdict == Verdict::Bug && !e.trim().is_empty()),
                });
                s.busy = true;
            }
            Action::StopLoop if s.session.started && !s.session.stopped => {
                s.session.stopped = true;
                s.busy = true;
            }
            Action::EditAgain => {
                s.session.started = false;
                s.session.answers.clear();
                s.session.stopped = false;
                s.reset_round();
            }
            Action::LoadExample(id) => {
                if let Some(ex) = examples::find(&id) {
                    let mut fresh = ex.session();
                    fresh.settings = s.session.settings.clone();
                    s.replace(fresh);
                }
            }
            Action::Reset => {
                let fresh = s
                    .session
                    .example
                    .as_deref()
                    .and_then(examples::find)
                    .map(|e| e.session())
                    .unwrap_or_else(AppState::default_session);
                s.replace(fresh);
            }
            Action::LoopViewed(view) => {
                s.busy = false;
                let n = view.vars.len();
                if s.axes.0 >= n || s.axes.1 >= n {
                    s.axes = (0, n.saturating_sub(1).min(1));
                }
                s.view = Some(view);
            }
            Action::Failed(message) => {
                s.busy = false;
                if matches!(s.repair, RepairState::Running(_)) {
                    s.repair = RepairState::Idle;
                }
                s.error = Some(message);
            }
            Action::DismissError => s.error = None,
            Action::LinkPending(session) => s.pending_link = Some(session),
            Action::AcceptLink => {
                if let Some(link) = s.pending_link.take() {
                    s.replace(link);
                }
            }
            Action::RejectLink => s.pending_link = None,
            Action::Replace(session) => s.replace(session),
            Action::Shared(url) => s.share_url = Some(url),
            Action::RepairStarted => s.repair = RepairState::Running(None),
            Action::RepairProgressed(p) => {
                if matches!(s.repair, RepairState::Running(_)) {
                    s.repair = RepairState::Running(Some(p));
                }
            }
            Action::RepairFinished(patches, stop) => s.repair = RepairState::Done { patches, stop },
            Action::RepairStopped => s.repair = RepairState::Stopped,
            Action::ApplyPatch(source) => {
                let mut next = s.session.clone();
                next.program = source;
                next.started = false;
                next.answers.clear();
                next.stopped = false;
                s.replace(next);
            }
            Action::SetTheme(t) => s.theme = t,
            Action::SetAxes(a, b) => s.axes = (a, b),
            _ => return self,
        }
        Rc::new(s)
    }
}
