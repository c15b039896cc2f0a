//! The page's state and its reducer: every user action and worker answer is an [`Action`]; side effects live in the components.

use super::notices::{Unreadable, WorkerDown};
use crate::exercise::class::ClassSummary;
use crate::exercise::gallery;
use crate::exercise::report::FixOrigin;
use crate::exercise::task::ReportPurpose;
use crate::exercise::{Exercise, Report};
use crate::lang::compile;
use crate::session::examples;
use crate::session::protocol::{LoopView, NextStep, RepairProgress, RepairView};
use crate::session::run::RunView;
use crate::session::{Answer, Choice, InputRange, Session, Settings, Verdict};
use serde::{Deserialize, Serialize};
use std::rc::Rc;

/// Where repair is.
// One value per page, never in a collection: a boxed view would only add indirection
// (the lint fires on 64-bit hosts, where the view is larger than on wasm32).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum RepairState {
    /// Not run yet.
    Idle,
    /// Running in the worker.
    Running(Option<RepairProgress>),
    /// Finished: the patches, what is known about them and the next question.
    Done(RepairView),
    /// Stopped by the user.
    Stopped,
}

/// The Run button's last run.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum RunState {
    /// Not run.
    #[default]
    Idle,
    /// Asked for (the run's id).
    Running(u64),
    /// Its result.
    Done(RunView),
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

/// A session put aside when another replaced it (Apply, an example, an import, a link,
/// Reset): one click swaps the two back, so nothing a user did is lost to a click.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PutAside {
    /// The session put aside, with every label.
    pub session: Session,
    /// What happened, for the user ("Patch applied: ...").
    pub note: String,
    /// The button that brings it back.
    pub button: String,
}

/// A session that would replace the user's work, waiting for a yes.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingReplace {
    /// The session that would open.
    pub session: Session,
    /// What it is ("the example \"Median of three\"", "the imported session").
    pub what: String,
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
    /// An example or an import waiting for the user's consent to replace their work.
    pub pending_replace: Option<PendingReplace>,
    /// The session the last replacement put aside (Undo brings it back).
    pub put_aside: Option<PutAside>,
    /// The input typed for Run (empty: the failing input).
    pub run_input: String,
    /// The last run.
    pub run: RunState,
    /// The program the last run ran (the editor may hold another version since).
    pub run_program: String,
    /// The last share link.
    pub share_url: Option<String>,
    /// Repair.
    pub repair: RepairState,
    /// Theme choice.
    pub theme: Theme,
    /// The plot's axes (oracle variable indices).
    pub axes: (usize, usize),
    /// Which page is shown.
    pub page: Page,
    /// Student mode: the exercise being worked on (the session above is the student's).
    pub student: Option<Student>,
    /// The exercise being authored.
    pub author: Exercise,
    /// The last exercise link made from the draft (the fragment after `#x=`).
    pub author_link: Option<String>,
    /// The edited draft a starter replaced, kept for one click back.
    pub author_replaced: Option<Exercise>,
    /// The teacher's imported reports.
    pub class: ClassState,
    /// The worker died or fell silent (the page offers a restart).
    pub worker_down: Option<WorkerDown>,
    /// What was saved but could not be read: the session, the exercise draft, work on an
    /// exercise (each kept aside; the user is told).
    pub unreadable: Vec<Unreadable>,
    /// The input ranges box is opened for the user (after "Set input ranges").
    pub ranges_open: bool,
}

/// Adds `u` to the unreadable saved work the page reports, unless it is there already (the
/// same text is kept aside under one key, however often it is read).
pub fn note_unreadable(list: &mut Vec<Unreadable>, u: Unreadable) {
    if !list.contains(&u) {
        list.push(u);
    }
}

/// The pages of the app (the student works on the playground page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// The playground (and student mode).
    Playground,
    /// Author an exercise.
    Author,
    /// Import a class's reports.
    Teacher,
}

impl Page {
    /// The URL fragment that opens this page (`None` for the playground).
    pub fn fragment(self) -> Option<&'static str> {
        match self {
            Page::Playground => None,
            Page::Author => Some("#author"),
            Page::Teacher => Some("#teacher"),
        }
    }

    /// The page a fragment names.
    pub fn from_fragment(hash: &str) -> Option<Page> {
        [Page::Author, Page::Teacher]
            .into_iter()
            .find(|p| p.fragment() == Some(hash))
    }
}

/// What the page saves, part by part (each part is written when it differs from what was
/// saved last).
#[derive(Debug, Clone, PartialEq)]
pub struct Persisted {
    /// The playground's session (`None` in an exercise: it is saved with the work).
    pub session: Option<Session>,
    /// A student's work ([`AppState::student_work`]).
    pub work: Option<StudentWork>,
    /// In an exercise (outside one, no exercise is the tab's current one).
    pub in_exercise: bool,
    /// The exercise draft.
    pub draft: Exercise,
    /// The draft a starter replaced.
    pub draft_aside: Option<Exercise>,
    /// The session the last replacement put aside.
    pub put_aside: Option<PutAside>,
}

/// A student's work on one exercise as saved (per tab and exercise, so opening another
/// exercise never overwrites it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudentWork {
    /// The exercise.
    pub exercise: Exercise,
    /// The student's session on the buggy program.
    pub session: Session,
    /// The fix being written (starts as the buggy program).
    pub fix_draft: String,
    /// Where the draft came from (an applied patch, or the student's typing).
    pub fix_origin: FixOrigin,
    /// Time spent so far, as the page measured it.
    pub time_spent_ms: u64,
    /// The student's name or id for the report (work saved before reports were named
    /// has none).
    #[serde(default)]
    pub student: String,
}

impl StudentWork {
    /// Work on `exercise` from the start: the buggy program, not started (the student
    /// presses Start).
    pub fn fresh(exercise: Exercise) -> StudentWork {
        let session = exercise.session();
        StudentWork {
            fix_draft: exercise.buggy.clone(),
            fix_origin: FixOrigin::Hand,
            exercise,
            session,
            time_spent_ms: 0,
            student: String::new(),
        }
    }
}

/// Student mode's state besides the session.
#[derive(Debug, Clone, PartialEq)]
pub struct Student {
    /// The exercise.
    pub exercise: Exercise,
    /// The fix being written.
    pub fix_draft: String,
    /// Where the draft came from.
    pub fix_origin: FixOrigin,
    /// Time spent so far.
    pub time_spent_ms: u64,
    /// The student's name or id, as typed (export needs one).
    pub student: String,
    /// A teacher's preview: nothing is saved.
    pub preview: bool,
    /// The worker is building a report (check or export).
    pub working: Option<ReportPurpose>,
    /// The last fix check (its report), for the current draft.
    pub checked: Option<Report>,
    /// The last exported report.
    pub exported: Option<Report>,
}

/// The teacher page's state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ClassState {
    /// The worker is verifying files.
    pub loading: bool,
    /// The last import.
    pub summary: Option<ClassSummary>,
}

/// A field of the exercise draft.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthorField {
    /// Title.
    Title,
    /// Instructions.
    Instructions,
    /// The buggy program.
    Buggy,
    /// The reference program.
    Reference,
    /// The failing input.
    Failing,
    /// Label budget.
    Budget,
    /// Committee size.
    Committee,
    /// Seed.
    Seed,
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
    /// A share link was pasted into the open tab (`hashchange`): ask before it replaces
    /// the session, as at a fresh load, unless it holds the session already open.
    LinkPending(Session),
    /// A link could not be opened; the message is for the user (nothing else changes).
    LinkRefused(String),
    /// Open the pending link's session.
    AcceptLink,
    /// Keep the saved session.
    RejectLink,
    /// Replace the session with an imported one (asks first when it would replace work).
    Replace(Session),
    /// Yes: the pending example or import replaces the work (which is put aside).
    ConfirmReplace,
    /// No: keep the work.
    CancelReplace,
    /// The input typed for Run changed.
    EditRunInput(String),
    /// Run was pressed (the request's id, and the program run).
    RunRequested(u64, String),
    /// A run's result (its request's id).
    Ran(u64, Box<RunView>),
    /// Swap the session with the one put aside (Undo, and back again).
    SwapPutAside,
    /// Forget the session put aside.
    DismissPutAside,
    /// A share link was made.
    Shared(String),
    /// The user asks for repair (recorded in the session, so a reload or a link repairs
    /// again; the labelling loop ends there).
    RepairRequested,
    /// Repair progress.
    RepairProgressed(RepairProgress),
    /// Repair ended.
    RepairFinished(RepairView),
    /// Answer the question that chooses between patches: the right output, or `None`
    /// to skip.
    Choose(Option<String>),
    /// Repair stopped by the user.
    RepairStopped,
    /// Take a step offered where repair stopped short of a fix.
    TakeStep(NextStep),
    /// Apply a patch: its program replaces the editor's (a new session round).
    ApplyPatch(String),
    /// Theme toggle.
    SetTheme(Theme),
    /// Plot axes.
    SetAxes(usize, usize),
    /// Show a page.
    ShowPage(Page),
    /// Open an exercise in student mode (saved work, or fresh); `preview` saves nothing.
    OpenExercise(Box<StudentWork>, bool),
    /// Leave student mode for the playground with its saved session.
    LeaveExercise(Session),
    /// The fix draft changed (typed by the student).
    EditFix(String),
    /// The student's name or id changed.
    EditStudent(String),
    /// The worker builds a report (check fix or export).
    ReportRequested(ReportPurpose),
    /// The worker built a report.
    ReportReady(ReportPurpose, Box<Report>),
    /// Time passed with the exercise on screen (ms, measured by the page).
    TimePassed(u64),
    /// An exercise draft field changed.
    EditAuthor(AuthorField, String),
    /// A range of the draft changed.
    EditAuthorRange(usize, String, String),
    /// Start the draft from a gallery exercise or example ([`gallery::starter`]'s id).
    AuthorFrom(String),
    /// Bring back the draft a starter replaced.
    RestoreAuthorDraft,
    /// Validate the draft and make its link.
    MakeLink,
    /// The teacher imports report files (the worker verifies them).
    ClassLoading,
    /// The verified class.
    ClassImported(ClassSummary),
    /// The worker died or fell silent.
    WorkerDown(WorkerDown),
    /// The worker answered (a down or silent worker is no more).
    WorkerAnswered,
    /// The user restarts the worker (it replays the session).
    WorkerRestarting,
    /// The user keeps waiting for a silent worker.
    KeepWaiting,
    /// The user has read that saved work was unreadable.
    DismissUnreadable,
    /// Saved work was found unreadable (and kept aside).
    KeptAside(Unreadable),
}

impl AppState {
    /// The page at load: the saved session (or the first example).
    pub fn new(session: Session, theme: Theme) -> AppState {
        let mut state = AppState {
            session,
            view: None,
            busy: false,
            error: None,
            pending_link: None,
            pending_replace: None,
            put_aside: None,
            run_input: String::new(),
            run: RunState::Idle,
            run_program: String::new(),
            share_url: None,
            repair: RepairState::Idle,
            theme,
            axes: (0, 1),
            page: Page::Playground,
            student: None,
            author: AppState::default_draft(),
            author_link: None,
            author_replaced: None,
            class: ClassState::default(),
            worker_down: None,
            unreadable: Vec::new(),
            ranges_open: false,
        };
        state.resume_repair();
        state
    }

    /// The first gallery exercise as a draft to edit.
    pub fn default_draft() -> Exercise {
        crate::exercise::gallery::exercises()
            .into_iter()
            .next()
            .map(|g| g.exercise)
            .unwrap_or_else(|| Exercise {
                version: crate::exercise::EXERCISE_VERSION,
                title: String::new(),
                instructions: String::new(),
                buggy: String::new(),
                reference: String::new(),
                failing_input: String::new(),
                ranges: Vec::new(),
                settings: Settings::default(),
            })
    }

    /// The exercise the playground shows, as a draft to author from: the student's
    /// exercise, or the unedited example on screen.
    fn shown_starter(&self) -> Option<Exercise> {
        if let Some(st) = &self.student {
            return Some(st.exercise.clone());
        }
        let example = self.session.example.as_deref().and_then(examples::find)?;
        (self.session.program == example.program)
            .then(|| gallery::starter(&format!("example:{}", example.id)))
            .flatten()
            .map(|s| s.exercise)
    }

    /// What student mode saves (`None` outside it and in a preview).
    pub fn student_work(&self) -> Option<StudentWork> {
        let st = self.student.as_ref().filter(|st| !st.preview)?;
        Some(StudentWork {
            exercise: st.exercise.clone(),
            session: self.session.clone(),
            fix_draft: st.fix_draft.clone(),
            fix_origin: st.fix_origin,
            time_spent_ms: st.time_spent_ms,
            student: st.student.clone(),
        })
    }

    /// Everything the page keeps in storage, part by part.
    pub fn persisted(&self) -> Persisted {
        let in_exercise = self.student.is_some();
        Persisted {
            session: (!in_exercise).then(|| self.session.clone()),
            work: self.student_work(),
            in_exercise,
            draft: self.author.clone(),
            draft_aside: self.author_replaced.clone(),
            put_aside: self.put_aside.clone(),
        }
    }

    /// The exercise's session from the start (answers dropped), loop started.
    fn restart_exercise(&mut self) -> bool {
        let Some(st) = &self.student else {
            return false;
        };
        let fresh = StudentWork::fresh(st.exercise.clone()).session;
        let student = self.student.take();
        self.replace(fresh);
        self.student = student.map(|st| Student {
            checked: None,
            ..st
        });
        true
    }

    /// The first example, not started.
    pub fn default_session() -> Session {
        examples::EXAMPLES[0].session()
    }

    fn editable(&self) -> bool {
        !self.session.started
    }

    /// The program, the failing input and the settings can be edited: not once the loop
    /// has started, and never in student mode (they are the exercise's; the id and the
    /// grading depend on them).
    fn fields_editable(&self) -> bool {
        self.editable() && self.student.is_none()
    }

    fn reset_round(&mut self) {
        self.view = None;
        self.busy = false;
        self.share_url = None;
        self.repair = RepairState::Idle;
        self.axes = (0, 1);
    }

    /// The worker's jobs (repair, a report, a class) are lost with it; the session is not.
    fn drop_worker_jobs(&mut self) {
        if matches!(self.repair, RepairState::Running(_)) {
            self.repair = RepairState::Idle;
        }
        self.class.loading = false;
        if let Some(st) = &mut self.student {
            st.working = None;
        }
        if matches!(self.run, RunState::Running(_)) {
            self.run = RunState::Idle;
        }
    }

    /// Takes a step offered where repair stopped short of a fix; `false` when it does not
    /// apply (a student's exercise keeps its labels and ranges).
    fn take_step(&mut self, step: NextStep) -> bool {
        use crate::session::limits::{MAX_LABEL_BUDGET, MAX_QUESTIONS};
        let settings = &mut self.session.settings;
        match step {
            NextStep::GiveOutput { .. } | NextStep::MoreQuestions => {
                let more = match step {
                    NextStep::GiveOutput { .. } => 1,
                    _ => MORE_QUESTIONS,
                };
                if settings.questions >= MAX_QUESTIONS {
                    return false;
                }
                settings.questions = (settings.questions + more).min(MAX_QUESTIONS);
                self.repair = RepairState::Running(None);
            }
            NextStep::MoreLabels if self.student.is_none() => {
                if settings.label_budget >= MAX_LABEL_BUDGET {
                    return false;
                }
                settings.label_budget = (settings.label_budget + MORE_LABELS).min(MAX_LABEL_BUDGET);
                keep_failing_output(&mut self.session);
                self.session.reopen();
                self.repair = RepairState::Idle;
                self.busy = true;
            }
            NextStep::SetRanges if self.student.is_none() => {
                let mut next = self.session.clone();
                next.clear_run();
                let note = format!(
                    "Set the range of each input below, then press Start. Your session ({}) is put aside.",
                    holding(&self.session)
                );
                self.replace_keeping(next, note, "Back to the labelled session");
                self.ranges_open = true;
            }
            _ => return false,
        }
        true
    }

    /// Replaces the session (and leaves student mode: the caller re-enters it).
    fn replace(&mut self, session: Session) {
        self.student = None;
        self.busy = session.started;
        self.session = session;
        self.error = None;
        self.pending_link = None;
        self.pending_replace = None;
        let keep_busy = self.busy;
        self.reset_round();
        self.busy = keep_busy;
        self.resume_repair();
    }

    /// Replaces the session with `next`, putting the current one aside when it holds work
    /// (`note` says what happened, `button` brings it back).
    fn replace_keeping(&mut self, next: Session, note: String, button: &str) {
        let current = self.session.clone();
        let student = self.student.is_some();
        self.replace(next);
        if has_work(&current) && !student {
            self.put_aside = Some(PutAside {
                session: current,
                note,
                button: button.to_string(),
            });
        }
    }

    /// Opens `next` (an example or an import, `what` names it) at once when nothing would
    /// be lost, else asks first.
    fn offer(&mut self, next: Session, what: String) {
        if self.student.is_none() && has_work(&self.session) && next != self.session {
            self.pending_replace = Some(PendingReplace {
                session: next,
                what,
            });
        } else {
            self.replace_keeping(
                next,
                format!("Opened {what}."),
                "Back to the earlier session",
            );
        }
    }

    /// Once the program is not its example's any more, the example's own fields (its
    /// expected output and ranges, where unchanged) go with it and it is no longer marked:
    /// a pasted program must not inherit "equilateral" or a 1..10 box.
    fn leave_example_if_edited(&mut self) {
        let Some(ex) = self.session.example.as_deref().and_then(examples::find) else {
            return;
        };
        if self.session.program == ex.program {
            return;
        }
        let fresh = ex.session();
        if self.session.expected_output == fresh.expected_output {
            self.session.expected_output = None;
        }
        if self.session.ranges == fresh.ranges {
            self.session.ranges.clear();
        }
        self.session.example = None;
    }

    /// A session that was repaired repairs again (the worker is asked by the page's
    /// effect): the patches and the questions about them come back after a reload.
    pub fn resume_repair(&mut self) {
        if self.session.started && self.session.repaired {
            self.repair = RepairState::Running(None);
        }
    }
}

/// Whether replacing `session` would lose something the user did: answers, answers about
/// patches, or a program that is not an unedited example's.
pub fn has_work(session: &Session) -> bool {
    let example_program = session
        .example
        .as_deref()
        .and_then(examples::find)
        .map(|e| e.program);
    !session.answers.is_empty()
        || !session.choices.is_empty()
        || (!session.program.trim().is_empty() && example_program != Some(session.program.as_str()))
}

/// "program and 7 labels" - what a session holds, for a sentence.
pub fn holding(session: &Session) -> String {
    match session.answers.len() {
        0 => "the program".to_string(),
        1 => "the program and its label".to_string(),
        n => format!("the program and its {n} labels"),
    }
}

/// Questions added by "Ask me more questions".
pub const MORE_QUESTIONS: usize = 3;

/// Labels added by "Label more runs".
pub const MORE_LABELS: usize = 5;

/// Before the loop goes on with more labels (which repairs again without the answers
/// about the old patches): the right output the user gave for the failing input, kept as
/// its expected output so it is not asked again.
fn keep_failing_output(session: &mut Session) {
    if session.expected_output.is_some() {
        return;
    }
    let failing = crate::active::num::parse_input(&session.failing_input);
    let given = session.choices.iter().find_map(|c| {
        let same = failing.is_some() && crate::active::num::parse_input(&c.input) == failing;
        c.output.clone().filter(|_| same)
    });
    session.expected_output = given;
}

/// Applies a settings text box (label budget, committee or seed); text that does not
/// read as a number changes nothing.
fn set_setting(settings: &mut Settings, field: AuthorField, text: &str) {
    use crate::session::limits::{MAX_COMMITTEE, MAX_LABEL_BUDGET};
    let n = text.trim().parse::<u64>();
    match (field, n) {
        (AuthorField::Budget, Ok(n)) => {
            settings.label_budget = (n as usize).clamp(1, MAX_LABEL_BUDGET)
        }
        (AuthorField::Committee, Ok(n)) => {
            settings.committee = (n as usize).clamp(1, MAX_COMMITTEE)
        }
        (AuthorField::Seed, Ok(n)) => settings.seed = n,
        _ => {}
    }
}

/// Why `session` cannot start, for the user: outside the limits a saved session must keep
/// (it could not be saved), a program that does not compile, or a failing input that is
/// not numbers.
fn cannot_start(session: &Session) -> Option<String> {
    if let Err(e) = session.validate() {
        return Some(format!("Cannot start: {e}."));
    }
    if let Err(e) = compile(&session.program) {
        return Some(format!("The program does not compile:\n{e}"));
    }
    let input = crate::active::num::parse_input(&session.failing_input);
    if input.is_none_or(|v| v.is_empty()) {
        return Some("The failing input must be numbers separated by spaces, e.g. 2 2 2".into());
    }
    crate::session::replay::start_problem(session)
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

impl AppState {
    /// The state after `action` (the same `Rc` when nothing changes, so the page does not
    /// render again).
    pub fn apply(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        match action {
            Action::EditProgram(t) if s.fields_editable() => {
                s.session.program = t;
                s.leave_example_if_edited();
            }
            Action::EditFailing(t) if s.fields_editable() => s.session.failing_input = t,
            Action::EditExpected(t) if s.fields_editable() => {
                s.session.expected_output = Some(t).filter(|t| !t.is_empty())
            }
            Action::EditRange(i, min, max) if s.fields_editable() => {
                set_range(&mut s.session.ranges, i, &min, &max)
            }
            Action::EditBudget(t) if s.fields_editable() => {
                set_setting(&mut s.session.settings, AuthorField::Budget, &t)
            }
            Action::EditCommittee(t) if s.fields_editable() => {
                set_setting(&mut s.session.settings, AuthorField::Committee, &t)
            }
            Action::EditSeed(t) if s.fields_editable() => {
                set_setting(&mut s.session.settings, AuthorField::Seed, &t)
            }
            Action::Start if s.editable() => match cannot_start(&s.session) {
                Some(why) => s.error = Some(why),
                None => {
                    s.error = None;
                    s.ranges_open = false;
                    s.session.clear_run();
                    s.session.started = true;
                    s.reset_round();
                    s.busy = true;
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
                // A label is recorded only when the session holding it can be saved.
                if let Err(e) = crate::session::encode_json_checked(&s.session) {
                    s.session.answers.pop();
                    s.error = Some(format!(
                        "This answer was not recorded: the session could then not be saved ({e}). Stop the loop to go on with the labels so far."
                    ));
                    return Rc::new(s);
                }
                s.busy = true;
            }
            Action::StopLoop if s.session.started && !s.session.stopped => {
                s.session.stopped = true;
                s.busy = true;
            }
            Action::EditAgain if s.restart_exercise() => {}
            Action::EditAgain => {
                s.session.clear_run();
                s.reset_round();
            }
            Action::LoadExample(id) => {
                if let Some(ex) = examples::find(&id) {
                    let mut fresh = ex.session();
                    fresh.settings = s.session.settings.clone();
                    s.offer(fresh, format!("the example \"{}\"", ex.title));
                }
            }
            Action::Reset if s.restart_exercise() => {}
            Action::Reset => {
                let fresh = s
                    .session
                    .example
                    .as_deref()
                    .and_then(examples::find)
                    .map(|e| e.session())
                    .unwrap_or_else(AppState::default_session);
                let note = format!(
                    "Reset: your earlier session ({}) is put aside.",
                    holding(&s.session)
                );
                s.replace_keeping(fresh, note, "Back to the earlier session");
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
                s.class.loading = false;
                if let Some(st) = &mut s.student {
                    st.working = None;
                }
                if matches!(s.repair, RepairState::Running(_)) {
                    s.repair = RepairState::Idle;
                }
                s.error = Some(message);
            }
            Action::DismissError => s.error = None,
            Action::LinkPending(session) if session != s.session => s.pending_link = Some(session),
            Action::LinkPending(_) => {}
            Action::LinkRefused(message) => s.error = Some(message),
            Action::AcceptLink => {
                if let Some(link) = s.pending_link.take() {
                    let note = format!(
                        "Opened the shared session; yours ({}) is put aside.",
                        holding(&s.session)
                    );
                    s.replace_keeping(link, note, "Back to my session");
                }
            }
            Action::RejectLink => s.pending_link = None,
            Action::Replace(session) => s.offer(session, "the imported session".to_string()),
            Action::ConfirmReplace => {
                if let Some(PendingReplace { session, what }) = s.pending_replace.take() {
                    let note = format!(
                        "Opened {what}; your earlier session ({}) is put aside.",
                        holding(&s.session)
                    );
                    s.replace_keeping(session, note, "Back to the earlier session");
                }
            }
            Action::CancelReplace => s.pending_replace = None,
            Action::SwapPutAside => {
                if let Some(aside) = s.put_aside.take() {
                    let back = s.session.clone();
                    s.replace(aside.session);
                    s.put_aside = Some(PutAside {
                        note: format!(
                            "Swapped: the session put aside is back; the one you had ({}) is put aside in its place.",
                            holding(&back)
                        ),
                        session: back,
                        button: "Swap back".to_string(),
                    });
                }
            }
            Action::DismissPutAside => s.put_aside = None,
            Action::EditRunInput(t) => s.run_input = t,
            Action::RunRequested(id, program) => {
                s.run = RunState::Running(id);
                s.run_program = program;
            }
            Action::Ran(id, view) if s.run == RunState::Running(id) => {
                s.run = RunState::Done(*view)
            }
            Action::Shared(url) => s.share_url = Some(url),
            Action::RepairRequested if s.session.started && !s.busy && !s.session.repaired => {
                let pending = s.view.as_ref().is_some_and(|v| v.query.is_some());
                // Repair ends the labelling: a question left open counts as stopped.
                s.session.stopped |= pending;
                s.session.repaired = true;
                s.repair = RepairState::Running(None);
            }
            Action::RepairProgressed(p) => {
                if matches!(s.repair, RepairState::Running(_)) {
                    s.repair = RepairState::Running(Some(p));
                }
            }
            Action::RepairFinished(view) => s.repair = RepairState::Done(view),
            Action::Choose(output) => {
                let RepairState::Done(view) = &s.repair else {
                    return self;
                };
                let Some(choice) = &view.choice else {
                    return self;
                };
                if s.session.choices.len() >= crate::session::limits::MAX_ANSWERS {
                    return self;
                }
                s.session.choices.push(Choice {
                    input: choice.input.clone(),
                    output: output.filter(|o| !o.trim().is_empty()),
                });
                if let Err(e) = crate::session::encode_json_checked(&s.session) {
                    s.session.choices.pop();
                    s.error = Some(format!(
                        "This answer was not recorded: the session could then not be saved ({e})."
                    ));
                    return Rc::new(s);
                }
                s.repair = RepairState::Running(None);
            }
            Action::TakeStep(step) => {
                if s.busy || !matches!(s.repair, RepairState::Done(_)) {
                    return self;
                }
                if !s.take_step(step) {
                    return self;
                }
            }
            Action::RepairStopped => {
                // A stopped repair is not replayed on reload; answers about patches stay
                // for the next Repair.
                s.session.repaired = false;
                s.repair = RepairState::Stopped;
            }
            Action::ApplyPatch(source) if s.student.is_some() => {
                // A student's patch becomes the fix to check, not a new round.
                if let Some(st) = &mut s.student {
                    st.fix_draft = source;
                    st.fix_origin = FixOrigin::Repair;
                    st.checked = None;
                }
            }
            Action::ApplyPatch(source) => {
                let mut next = s.session.clone();
                next.program = source;
                next.clear_run();
                let note = format!(
                    "Patch applied: the patched program is in the editor. Your session before it ({}) is put aside.",
                    holding(&s.session)
                );
                s.replace_keeping(next, note, "Undo Apply");
            }
            Action::SetTheme(t) => s.theme = t,
            Action::SetAxes(a, b) => s.axes = (a, b),
            Action::ShowPage(page) => {
                // An unedited draft follows what the playground shows: the exercise or
                // example on screen becomes the draft to author from.
                if page == Page::Author && gallery::starter_of(&s.author).is_some() {
                    if let Some(exercise) = s.shown_starter() {
                        s.author = exercise;
                        s.author_link = None;
                    }
                }
                s.page = page;
                s.error = None;
            }
            Action::OpenExercise(work, preview) => {
                let StudentWork {
                    exercise,
                    session,
                    fix_draft,
                    fix_origin,
                    time_spent_ms,
                    student,
                } = *work;
                s.replace(session);
                s.page = Page::Playground;
                s.student = Some(Student {
                    exercise,
                    fix_draft,
                    fix_origin,
                    time_spent_ms,
                    student,
                    preview,
                    working: None,
                    checked: None,
                    exported: None,
                });
            }
            Action::LeaveExercise(session) => {
                let preview = s.student.as_ref().is_some_and(|st| st.preview);
                s.replace(session);
                if preview {
                    s.page = Page::Author;
                }
            }
            Action::EditFix(text) => {
                if let Some(st) = &mut s.student {
                    st.fix_draft = text;
                    st.fix_origin = FixOrigin::Hand;
                    st.checked = None;
                }
            }
            Action::EditStudent(name) => match &mut s.student {
                Some(st) => st.student = name,
                None => return self,
            },
            Action::ReportRequested(purpose) => match &mut s.student {
                Some(st) if st.working.is_none() => st.working = Some(purpose),
                _ => return self,
            },
            Action::ReportReady(purpose, report) => {
                if let Some(st) = &mut s.student {
                    st.working = None;
                    match purpose {
                        ReportPurpose::CheckFix => st.checked = Some(*report),
                        ReportPurpose::Export => st.exported = Some(*report),
                    }
                }
            }
            Action::TimePassed(ms) => match &mut s.student {
                Some(st) if !st.preview => st.time_spent_ms = st.time_spent_ms.saturating_add(ms),
                _ => return self,
            },
            Action::EditAuthor(field, text) => {
                let a = &mut s.author;
                match field {
                    AuthorField::Title => a.title = text,
                    AuthorField::Instructions => a.instructions = text,
                    AuthorField::Buggy => a.buggy = text,
                    AuthorField::Reference => a.reference = text,
                    AuthorField::Failing => a.failing_input = text,
                    AuthorField::Budget | AuthorField::Committee | AuthorField::Seed => {
                        set_setting(&mut a.settings, field, &text)
                    }
                }
                s.author_link = None;
            }
            Action::EditAuthorRange(i, min, max) => {
                set_range(&mut s.author.ranges, i, &min, &max);
                s.author_link = None;
            }
            Action::AuthorFrom(id) => {
                let Some(starter) = gallery::starter(&id) else {
                    return self;
                };
                let old = std::mem::replace(&mut s.author, starter.exercise);
                // Only a draft the author wrote is worth bringing back.
                if gallery::starter_of(&old).is_none() {
                    s.author_replaced = Some(old);
                }
                s.author_link = None;
            }
            Action::RestoreAuthorDraft => match s.author_replaced.take() {
                Some(old) => {
                    // A swap: edits made since are put aside in their turn, never lost.
                    let now = std::mem::replace(&mut s.author, old);
                    s.author_replaced = gallery::starter_of(&now).is_none().then_some(now);
                    s.author_link = None;
                }
                None => return self,
            },
            Action::MakeLink => match s.author.validate() {
                Ok(()) => {
                    s.error = None;
                    s.author_link = Some(s.author.encode_link());
                }
                Err(e) => {
                    s.error = Some(format!("The exercise cannot be made: {e}"));
                    s.author_link = None;
                }
            },
            Action::ClassLoading => s.class.loading = true,
            Action::ClassImported(summary) => {
                s.class = ClassState {
                    loading: false,
                    summary: Some(summary),
                }
            }
            Action::WorkerDown(down) => {
                if down.is_dead() {
                    s.drop_worker_jobs();
                }
                s.worker_down = Some(down);
            }
            Action::WorkerAnswered if s.worker_down.is_some() => s.worker_down = None,
            Action::WorkerRestarting => {
                s.drop_worker_jobs();
                s.worker_down = None;
                // The fresh worker replays the session (and repairs it again when it was
                // repaired); answers wait for it.
                s.busy = s.session.started;
                s.resume_repair();
            }
            Action::KeepWaiting => s.worker_down = None,
            Action::DismissUnreadable => s.unreadable.clear(),
            Action::KeptAside(u) => note_unreadable(&mut s.unreadable, u),
            _ => return self,
        }
        Rc::new(s)
    }
}
