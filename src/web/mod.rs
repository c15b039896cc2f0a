//! The browser playground (Yew): editor, labelling dialogue, oracle, patches, gallery and sessions; compute runs in a Web Worker.
//!
//! State is one [`page::AppState`] changed only by [`page::Action`]s (a reducer); the
//! session inside it is saved to localStorage on every change ([`storage`]) and sent to
//! the worker ([`worker`]), which replays it and answers with the loop's view.

pub mod author;
pub mod dialogue;
pub mod editor;
pub mod explain;
pub mod how;
pub mod locks;
pub mod oracle_view;
pub mod output;
pub mod patches;
pub mod run;
pub mod storage;
pub mod student;
pub mod teacher;
pub mod worker;

use crate::exercise::gallery;
use crate::exercise::task::{ExerciseOutcome, ExerciseTask, ReportJob, ReportPurpose};
use crate::exercise::Exercise;
use crate::page::{
    self, Action, AppState, AuthorField, Page, Persisted, RepairState, StudentWork, Theme,
};
use crate::session::examples::EXAMPLES;
use crate::session::protocol::{WorkerRequest, WorkerResponse};
use crate::session::{decode_json, Session, Verdict};
use author::AuthorPage;
use dialogue::Dialogue;
use editor::{markers, Editor};
use explain::Explain;
use how::HowItWorks;
use oracle_view::OracleView;
use patches::Patches;
use run::RunPanel;

/// Yew's reducer is the page's own, native one.
impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        self.apply(action)
    }
}
use std::rc::Rc;
use student::{ExerciseBrief, FixPanel};
use teacher::TeacherPage;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement, KeyboardEvent};
use worker::WorkerLink;
use yew::prelude::*;

/// What was saved, or nothing when it was unreadable (then noted in `unreadable`, each
/// piece once; storage has kept it aside).
fn or_kept_aside<T>(
    loaded: Result<Option<T>, storage::Unreadable>,
    unreadable: &mut Vec<storage::Unreadable>,
) -> Option<T> {
    loaded.unwrap_or_else(|u| {
        page::note_unreadable(unreadable, u);
        None
    })
}

/// The state at load: the saved session, or a share link's (asking before it replaces
/// a saved one); a broken link is reported and changes nothing.
fn initial_state() -> AppState {
    let theme = Theme::parse(&storage::load_theme());
    let mut unreadable = Vec::new();
    let saved = or_kept_aside(storage::load_session(), &mut unreadable);
    let mut error = None;
    let mut state = AppState::new(
        saved.clone().unwrap_or_else(AppState::default_session),
        theme,
    );
    if let Some(fragment) = storage::link_fragment() {
        match storage::open_link(&fragment) {
            Err(e) => error = Some(link_error(&e)),
            Ok(linked) => {
                if storage::has_saved_session() && saved.as_ref() != Some(&linked) {
                    state.pending_link = Some(linked);
                } else {
                    state.busy = linked.started;
                    state.session = linked;
                }
            }
        }
        storage::clear_fragment();
    }
    state.author = or_kept_aside(storage::load_draft(), &mut unreadable)
        .unwrap_or_else(AppState::default_draft);
    state.author_replaced = or_kept_aside(storage::load_draft_aside(), &mut unreadable);
    let page = Page::from_fragment(&storage::fragment());
    // Student mode survives a reload: this tab's current exercise work.
    let mut work = or_kept_aside(storage::current_work(), &mut unreadable);
    if let Some(link) = storage::exercise_fragment() {
        match link {
            Err(e) => error = Some(exercise_link_error(&e)),
            Ok(exercise) => {
                let saved = or_kept_aside(storage::load_work(&exercise.id()), &mut unreadable);
                work = Some(saved.unwrap_or_else(|| StudentWork::fresh(exercise)))
            }
        }
        storage::clear_fragment();
    }
    state.put_aside = or_kept_aside(storage::load_put_aside(), &mut unreadable);
    state.error = error.clone();
    state.unreadable = unreadable;
    state.resume_repair();
    if let Some(work) = work {
        let error = state.error.clone();
        state = (*Rc::new(state).reduce(Action::OpenExercise(Box::new(work), false))).clone();
        state.error = error;
    }
    // A reload on the author or teacher page stays there (student work waits behind it).
    if let Some(page) = page {
        state.page = page;
    }
    state
}

fn link_error(e: &dyn std::fmt::Display) -> String {
    format!("This link cannot be opened: {e}. Your saved session is unchanged.")
}

fn exercise_link_error(e: &dyn std::fmt::Display) -> String {
    format!("This exercise link cannot be opened: {e}. Your saved work is unchanged.")
}

/// A link pasted into the open tab (`hashchange`), handled as a fresh load handles it: a
/// share link asks before it replaces the session, an exercise link opens the exercise
/// (its work is kept per exercise), a damaged one is reported and changes nothing.
fn open_pasted_link(d: &UseReducerDispatcher<AppState>) {
    if let Some(fragment) = storage::link_fragment() {
        storage::clear_fragment();
        d.dispatch(match storage::open_link(&fragment) {
            Ok(linked) => Action::LinkPending(linked),
            Err(e) => Action::LinkRefused(link_error(&e)),
        });
    } else if let Some(link) = storage::exercise_fragment() {
        storage::clear_fragment();
        match link {
            Ok(exercise) => open_exercise(d, exercise),
            Err(e) => d.dispatch(Action::LinkRefused(exercise_link_error(&e))),
        }
    }
}

/// Writes each part of `now` that differs from `last` (every part when nothing was saved
/// yet); the messages of the writes storage refused.
fn save_changed(last: Option<&Persisted>, now: &Persisted) -> Vec<String> {
    let changed = |same: &dyn Fn(&Persisted) -> bool| last.is_none_or(|l| !same(l));
    let mut results = Vec::new();
    if changed(&|l| l.session == now.session) {
        if let Some(session) = &now.session {
            results.push(storage::save_session(session));
        }
    }
    if changed(&|l| l.work == now.work && l.in_exercise == now.in_exercise) {
        match &now.work {
            Some(work) => results.push(storage::save_work(work)),
            None if !now.in_exercise => storage::clear_current_work(),
            None => {}
        }
    }
    if changed(&|l| l.draft == now.draft) {
        results.push(storage::save_draft(&now.draft));
    }
    if changed(&|l| l.draft_aside == now.draft_aside) {
        results.push(storage::save_draft_aside(now.draft_aside.as_ref()));
    }
    if changed(&|l| l.put_aside == now.put_aside) {
        results.push(storage::save_put_aside(now.put_aside.as_ref()));
    }
    results.into_iter().filter_map(Result::err).collect()
}

/// Calls `handler` on each `event` of `target` while the component lives; the returned
/// closure removes the listener.
fn listen<E: wasm_bindgen::convert::FromWasmAbi + 'static>(
    target: Option<web_sys::EventTarget>,
    event: &'static str,
    handler: impl FnMut(E) + 'static,
) -> impl FnOnce() {
    let listener = Closure::<dyn FnMut(E)>::new(handler);
    if let Some(t) = &target {
        let _ = t.add_event_listener_with_callback(event, listener.as_ref().unchecked_ref());
    }
    move || {
        if let Some(t) = &target {
            let _ = t.remove_event_listener_with_callback(event, listener.as_ref().unchecked_ref());
        }
    }
}

/// A fresh id for a Run request (runs have their own sequence: a run never makes the
/// loop's answers stale).
fn next_run_id() -> u64 {
    thread_local!(static LAST: std::cell::Cell<u64> = const { std::cell::Cell::new(0) });
    LAST.with(|l| {
        l.set(l.get() + 1);
        l.get()
    })
}

/// Opens an exercise in student mode: this tab's saved work on it, or a fresh start (when
/// the saved work is unreadable, after keeping it aside).
fn open_exercise(d: &UseReducerDispatcher<AppState>, exercise: Exercise) {
    let saved = storage::load_work(&exercise.id()).unwrap_or_else(|u| {
        d.dispatch(Action::KeptAside(u));
        None
    });
    d.dispatch(Action::OpenExercise(
        Box::new(saved.unwrap_or_else(|| StudentWork::fresh(exercise))),
        false,
    ));
}

/// Clicks the first element matching `selector` (keyboard shortcuts reuse the buttons).
fn click(selector: &str) {
    let el = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten())
        .and_then(|e| e.dyn_into::<HtmlElement>().ok());
    if let Some(el) = el {
        el.click();
    }
}

/// Ctrl/Cmd+Enter runs the current step: the one button marked `data-primary` (Start
/// while editing, Bug once a correct output is typed for the question on screen, Repair
/// once the loop has ended, Make link on the author page). Not while a dialog is open
/// (its own buttons take the keyboard), not with Shift or Alt, not for a held-down key
/// or a key that composes text (an input method's Enter).
fn run_current_step(event: &KeyboardEvent) {
    if event.alt_key() || event.shift_key() || event.repeat() || event.is_composing() {
        return;
    }
    let document = web_sys::window().and_then(|w| w.document());
    let dialog_open = document
        .as_ref()
        .and_then(|d| d.query_selector("[role=dialog]").ok().flatten())
        .is_some();
    if dialog_open {
        return;
    }
    event.prevent_default();
    click("[data-primary]:not([disabled])");
}

fn on_key(event: KeyboardEvent) {
    if (event.ctrl_key() || event.meta_key()) && event.key() == "Enter" {
        run_current_step(&event);
        return;
    }
    let in_field = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
    if in_field || event.ctrl_key() || event.meta_key() || event.alt_key() {
        return;
    }
    match event.key().as_str() {
        "b" | "B" => click(".query button.bug:not([disabled])"),
        "n" | "N" => click(".query button.ok:not([disabled])"),
        "s" | "S" => click(".query button.skip:not([disabled])"),
        _ => {}
    }
}

/// Downloads the session as a JSON file.
fn download_json(session: &Session) {
    storage::download_session(session)
}

/// Downloads the raw text of unreadable saved work (`what`: see [`storage::Unreadable`]).
fn download_unreadable(what: &str, key: &str) {
    if let Some(text) = storage::raw_text(key) {
        let name = format!("fixloop-unreadable-{}.txt", what.replace(' ', "-"));
        storage::download_text(&name, "text/plain", &text);
    }
}

/// What the page says about one piece of unreadable saved work, with its download.
fn unreadable_notice(u: &storage::Unreadable) -> Html {
    let (what, key) = (u.what, u.key.clone());
    html! {
        <>
            <p>{ format!("The saved {what} could not be read ({}). Nothing was thrown away: its text is kept aside in this browser under \"{}\", and you start afresh.", u.error, u.key) }</p>
            <button onclick={Callback::from(move |_: MouseEvent| download_unreadable(what, &key))}>{ format!("Download the unreadable {what}") }</button>
        </>
    }
}

/// A range row with its own text drafts (a half-typed number is kept until it reads).
#[derive(Properties, PartialEq)]
struct RangeProps {
    index: usize,
    /// The input's name (the program's variable, or `x1`...).
    name: String,
    min: String,
    max: String,
    disabled: bool,
    onchange: Callback<(usize, String, String)>,
}

#[function_component(RangeRow)]
fn range_row(p: &RangeProps) -> Html {
    let min = use_state(|| p.min.clone());
    let max = use_state(|| p.max.clone());
    let edit = |is_min: bool| {
        let (min, max, cb, i) = (min.clone(), max.clone(), p.onchange.clone(), p.index);
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            let (a, b) = if is_min {
                (v.clone(), (*max).clone())
            } else {
                ((*min).clone(), v.clone())
            };
            if is_min {
                min.set(v)
            } else {
                max.set(v)
            }
            cb.emit((i, a, b));
        })
    };
    let name = &p.name;
    html! {
        <div class="range-row">
            <span>{ format!("{name} from") }</span>
            <input type="text" inputmode="decimal" aria-label={format!("{name} minimum")} value={(*min).clone()} oninput={edit(true)} disabled={p.disabled} />
            <span>{ "to" }</span>
            <input type="text" inputmode="decimal" aria-label={format!("{name} maximum")} value={(*max).clone()} oninput={edit(false)} disabled={p.disabled} />
        </div>
    }
}

fn text_of(e: InputEvent) -> String {
    e.target_unchecked_into::<HtmlInputElement>().value()
}

/// Turns a worker's answer into the page's action (an exported report is downloaded).
fn on_worker_response(d: &UseReducerDispatcher<AppState>, response: WorkerResponse) {
    match response {
        WorkerResponse::Ready => {}
        WorkerResponse::Loop { view, .. } => d.dispatch(Action::LoopViewed(view)),
        WorkerResponse::Failed { message, .. } => d.dispatch(Action::Failed(message)),
        WorkerResponse::RepairProgress { progress, .. } => {
            d.dispatch(Action::RepairProgressed(progress))
        }
        WorkerResponse::RepairDone { view, .. } => d.dispatch(Action::RepairFinished(view)),
        WorkerResponse::Ran { id, run } => d.dispatch(Action::Ran(id, Box::new(run))),
        WorkerResponse::Exercise { outcome, .. } => match outcome {
            ExerciseOutcome::Report { purpose, report } => {
                if purpose == ReportPurpose::Export {
                    storage::download_text(
                        &report.file_name(),
                        "application/json",
                        &report.to_json(),
                    );
                }
                d.dispatch(Action::ReportReady(purpose, report))
            }
            ExerciseOutcome::Class(summary) => d.dispatch(Action::ClassImported(summary)),
        },
    }
}

#[function_component(App)]
fn app() -> Html {
    let state = use_reducer(initial_state);
    let dispatcher = state.dispatcher();
    let worker = {
        let d = dispatcher.clone();
        let down = dispatcher.clone();
        use_memo((), move |_| {
            let on_down = Callback::from(move |why| down.dispatch(Action::WorkerDown(why)));
            let heard = d.clone();
            let on_response = Callback::from(move |r: WorkerResponse| {
                heard.dispatch(Action::WorkerAnswered);
                on_worker_response(&d, r)
            });
            WorkerLink::new(on_response, on_down)
        })
    };

    // Save on every change, and once more when the page is hidden: Yew may run a render's
    // effects after a pause for the browser, so a reload right after a change would find
    // it unsaved. Only the parts that changed since the last save are written (storage
    // changed by another tab or damaged meanwhile is left to be found on the next load).
    {
        let saved = use_mut_ref(|| None::<Persisted>);
        {
            let (d, saved) = (dispatcher.clone(), saved.clone());
            use_effect_with(state.persisted(), move |now| {
                let errors = save_changed(saved.borrow().as_ref(), now);
                *saved.borrow_mut() = Some(now.clone());
                for e in errors {
                    d.dispatch(Action::Failed(e));
                }
            });
        }
        let latest = state.clone();
        use_effect_with((), move |_| {
            let window = web_sys::window().map(Into::into);
            listen(window, "pagehide", move |_: web_sys::Event| {
                let now = latest.persisted();
                let _ = save_changed(saved.borrow().as_ref(), &now);
                *saved.borrow_mut() = Some(now);
            })
        });
    }
    // A repaired session (Repair pressed, an answer about patches, a reload or a link)
    // also gets its patches and next question; the worker reuses its last repair of the
    // same labels.
    {
        let worker = worker.clone();
        let deps = (state.session.clone(), state.student.is_some());
        use_effect_with(deps, move |(session, _)| {
            if session.started {
                let id = worker.next_id();
                worker.send(&WorkerRequest::for_session(id, session.clone()));
            }
        });
    }
    use_effect_with(state.page, |page| storage::set_fragment(page.fragment()));
    // Time spent on an exercise: the page's clock, read here at the edge only; ticks
    // while the page is visible, at most a minute per tick (a sleeping laptop is no work).
    let last_tick = use_mut_ref(js_sys::Date::now);
    {
        let (d, last_tick) = (dispatcher.clone(), last_tick.clone());
        use_effect_with((), move |_| {
            let tick = Closure::<dyn FnMut()>::new(move || {
                let now = js_sys::Date::now();
                let elapsed = now - *last_tick.borrow();
                *last_tick.borrow_mut() = now;
                let hidden = web_sys::window()
                    .and_then(|w| w.document())
                    .is_some_and(|doc| doc.hidden());
                if !hidden {
                    d.dispatch(Action::TimePassed(elapsed.clamp(0.0, 60_000.0) as u64));
                }
            });
            let window = web_sys::window();
            let handle = window.as_ref().and_then(|w| {
                w.set_interval_with_callback_and_timeout_and_arguments_0(
                    tick.as_ref().unchecked_ref(),
                    5_000,
                )
                .ok()
            });
            move || {
                if let (Some(w), Some(h)) = (window, handle) {
                    w.clear_interval_with_handle(h);
                }
                drop(tick);
            }
        });
    }
    use_effect_with(state.theme, |theme| storage::apply_theme(theme.as_str()));
    use_effect_with((), |_| mark_ready());
    use_effect_with((), |_| {
        let document = web_sys::window().and_then(|w| w.document());
        listen(document.map(Into::into), "keydown", on_key)
    });
    {
        let d = dispatcher.clone();
        use_effect_with((), move |_| {
            let window = web_sys::window().map(Into::into);
            listen(window, "hashchange", move |_: web_sys::Event| {
                open_pasted_link(&d)
            })
        });
    }

    let s = &state.session;
    let editable = !s.started;
    // A student sees only what the exercise needs: its program (read-only), Start, Run,
    // the questions and the fix; no gallery, no settings, no teacher pages.
    let student_mode = state.student.is_some();
    let student_view = student_mode && state.page == Page::Playground;
    let diag = use_memo(s.program.clone(), |p| markers(p));
    let act = |a: Action| {
        let d = dispatcher.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(a.clone()))
    };
    let on_program = {
        let d = dispatcher.clone();
        Callback::from(move |t: String| d.dispatch(Action::EditProgram(t)))
    };
    let field = |make: fn(String) -> Action| {
        let d = dispatcher.clone();
        Callback::from(move |e: InputEvent| d.dispatch(make(text_of(e))))
    };
    let on_range = {
        let d = dispatcher.clone();
        Callback::from(move |(i, a, b): (usize, String, String)| {
            d.dispatch(Action::EditRange(i, a, b))
        })
    };
    let on_answer = {
        let d = dispatcher.clone();
        Callback::from(move |(v, e): (Verdict, Option<String>)| d.dispatch(Action::Answer(v, e)))
    };
    let on_stop_loop = {
        let (d, worker, busy) = (dispatcher.clone(), worker.clone(), state.busy);
        Callback::from(move |_| {
            if busy {
                WorkerLink::restart(&worker, false);
            }
            d.dispatch(Action::StopLoop)
        })
    };
    let on_edit = {
        let d = dispatcher.clone();
        Callback::from(move |_| {
            let sure = web_sys::window()
                .and_then(|w| {
                    w.confirm_with_message("Drop the answers and edit the program?")
                        .ok()
                })
                .unwrap_or(false);
            if sure {
                d.dispatch(Action::EditAgain)
            }
        })
    };
    let on_repair = {
        let d = dispatcher.clone();
        Callback::from(move |_| d.dispatch(Action::RepairRequested))
    };
    let on_choose = {
        let d = dispatcher.clone();
        Callback::from(move |output: Option<String>| d.dispatch(Action::Choose(output)))
    };
    let on_step = {
        let d = dispatcher.clone();
        Callback::from(move |step| d.dispatch(Action::TakeStep(step)))
    };
    let on_stop_repair = {
        let (d, worker) = (dispatcher.clone(), worker.clone());
        Callback::from(move |_| {
            WorkerLink::restart(&worker, false);
            d.dispatch(Action::RepairStopped)
        })
    };
    let on_restart_worker = {
        let (d, worker) = (dispatcher.clone(), worker.clone());
        Callback::from(move |_: MouseEvent| {
            WorkerLink::restart(&worker, true);
            d.dispatch(Action::WorkerRestarting)
        })
    };
    let on_keep_waiting = {
        let (d, worker) = (dispatcher.clone(), worker.clone());
        Callback::from(move |_: MouseEvent| {
            worker.keep_waiting();
            d.dispatch(Action::KeepWaiting)
        })
    };
    let on_run = {
        let (d, worker, program) = (dispatcher.clone(), worker.clone(), s.program.clone());
        Callback::from(move |input: String| {
            let id = next_run_id();
            worker.send_side(&WorkerRequest::Run {
                id,
                program: program.clone(),
                input,
            });
            d.dispatch(Action::RunRequested(id, program.clone()))
        })
    };
    let on_run_input = {
        let d = dispatcher.clone();
        Callback::from(move |t: String| d.dispatch(Action::EditRunInput(t)))
    };
    let on_apply = {
        let d = dispatcher.clone();
        Callback::from(move |src: String| d.dispatch(Action::ApplyPatch(src)))
    };
    let on_axes = {
        let d = dispatcher.clone();
        Callback::from(move |(a, b)| d.dispatch(Action::SetAxes(a, b)))
    };
    let on_share = {
        let (d, session) = (dispatcher.clone(), s.clone());
        Callback::from(move |_: MouseEvent| {
            let url = storage::share_url(&session);
            storage::copy_to_clipboard(&url);
            d.dispatch(Action::Shared(url))
        })
    };
    let on_export = {
        let session = s.clone();
        Callback::from(move |_: MouseEvent| download_json(&session))
    };
    let on_import = {
        let d = dispatcher.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            input.set_value("");
            let d = d.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let text = wasm_bindgen_futures::JsFuture::from(file.text())
                    .await
                    .ok()
                    .and_then(|v| v.as_string())
                    .unwrap_or_default();
                match decode_json(&text) {
                    Ok(session) => d.dispatch(Action::Replace(session)),
                    Err(e) => {
                        d.dispatch(Action::Failed(format!("This file cannot be imported: {e}")))
                    }
                }
            });
        })
    };
    let on_theme = {
        let (d, theme) = (dispatcher.clone(), state.theme);
        Callback::from(move |_: MouseEvent| d.dispatch(Action::SetTheme(theme.next())))
    };
    let on_report = {
        let (d, worker, session, student) = (
            dispatcher.clone(),
            worker.clone(),
            s.clone(),
            state.student.clone(),
        );
        let last_tick = last_tick.clone();
        Callback::from(move |purpose: ReportPurpose| {
            let Some(st) = &student else {
                return;
            };
            if purpose == ReportPurpose::Export && st.student.trim().is_empty() {
                // The fix panel refuses first and focuses the name field; this is the rule.
                d.dispatch(Action::Failed(student::NAME_NEEDED.into()));
                return;
            }
            let since_tick = (js_sys::Date::now() - *last_tick.borrow()).clamp(0.0, 60_000.0);
            let handed_in = purpose == ReportPurpose::CheckFix
                || st.fix_draft != st.exercise.buggy
                || st.fix_origin == crate::exercise::report::FixOrigin::Repair;
            let id = worker.next_id();
            worker.send(&WorkerRequest::Exercise {
                id,
                task: ExerciseTask::Report(Box::new(ReportJob {
                    purpose,
                    exercise: st.exercise.clone(),
                    session: session.clone(),
                    fix: handed_in.then(|| (st.fix_origin, st.fix_draft.clone())),
                    time_spent_ms: st.time_spent_ms + since_tick as u64,
                    student: st.student.clone(),
                })),
            });
            d.dispatch(Action::ReportRequested(purpose))
        })
    };
    let on_print = {
        let exported = state.student.as_ref().and_then(|st| st.exported.clone());
        Callback::from(move |_| {
            if let Some(r) = &exported {
                let name = r.file_name().replace(".json", ".html");
                storage::download_text(&name, "text/html", &r.to_html());
            }
        })
    };
    let on_fix = {
        let d = dispatcher.clone();
        Callback::from(move |t: String| d.dispatch(Action::EditFix(t)))
    };
    let on_student = {
        let d = dispatcher.clone();
        Callback::from(move |t: String| d.dispatch(Action::EditStudent(t)))
    };
    let on_leave = {
        let d = dispatcher.clone();
        Callback::from(move |_| {
            let session = storage::load_session()
                .ok()
                .flatten()
                .unwrap_or_else(AppState::default_session);
            d.dispatch(Action::LeaveExercise(session))
        })
    };
    let show = |page: Page| {
        let d = dispatcher.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::ShowPage(page)))
    };
    let on_author_field = {
        let d = dispatcher.clone();
        Callback::from(move |(f, t): (AuthorField, String)| d.dispatch(Action::EditAuthor(f, t)))
    };
    let on_author_range = {
        let d = dispatcher.clone();
        Callback::from(move |(i, a, b): (usize, String, String)| {
            d.dispatch(Action::EditAuthorRange(i, a, b))
        })
    };
    let on_preview = {
        let (d, draft) = (dispatcher.clone(), state.author.clone());
        Callback::from(move |_| match draft.validate() {
            Ok(()) => d.dispatch(Action::OpenExercise(
                Box::new(StudentWork::fresh(draft.clone())),
                true,
            )),
            Err(e) => d.dispatch(Action::Failed(format!(
                "The exercise cannot be previewed: {e}"
            ))),
        })
    };
    let on_author_start = {
        let d = dispatcher.clone();
        Callback::from(move |id: String| d.dispatch(Action::AuthorFrom(id)))
    };
    let on_restore_draft = {
        let d = dispatcher.clone();
        Callback::from(move |_| d.dispatch(Action::RestoreAuthorDraft))
    };
    let on_make_link = {
        let d = dispatcher.clone();
        Callback::from(move |_| d.dispatch(Action::MakeLink))
    };
    let on_report_files = {
        let (d, worker) = (dispatcher.clone(), worker.clone());
        Callback::from(move |files: Vec<(String, String)>| {
            if files.is_empty() {
                return;
            }
            let id = worker.next_id();
            worker.send(&WorkerRequest::Exercise {
                id,
                task: ExerciseTask::Verify { files },
            });
            d.dispatch(Action::ClassLoading)
        })
    };
    let on_gallery_exercise = |exercise: Exercise| {
        let d = dispatcher.clone();
        Callback::from(move |_: MouseEvent| open_exercise(&d, exercise.clone()))
    };
    let on_example = |id: &'static str| {
        let d = dispatcher.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::LoadExample(id.to_string())))
    };

    let arity = s.failing_input.split_whitespace().count().min(8);
    let range_key = format!("{}-{}", s.example.as_deref().unwrap_or(""), s.started);
    let input_names = use_memo((s.program.clone(), arity), |(program, arity)| {
        crate::lang::compile(program)
            .map(|p| p.inputs().names(*arity))
            .unwrap_or_else(|_| (1..=*arity).map(|i| format!("x{i}")).collect())
    });
    let ranged: Vec<String> = (0..arity)
        .filter_map(|i| {
            let r = s.ranges.get(i).copied().flatten()?;
            Some(format!("{} in {} .. {}", input_names[i], r.min, r.max))
        })
        .collect();
    let fuzz_summary = if ranged.is_empty() {
        "Questions come from inputs near the failing input, any value (set ranges to keep them in bounds).".to_string()
    } else {
        format!(
            "Questions come from inputs near the failing input, kept in: {}.",
            ranged.join(", ")
        )
    };
    let ranges = (0..arity).map(|i| {
        let r = s.ranges.get(i).copied().flatten();
        html! {
            <RangeRow key={format!("{range_key}-{i}")} index={i} name={input_names[i].clone()}
                min={r.map(|r| r.min.to_string()).unwrap_or_default()}
                max={r.map(|r| r.max.to_string()).unwrap_or_default()}
                disabled={!editable} onchange={on_range.clone()} />
        }
    });
    let repairing = matches!(state.repair, RepairState::Running(_));
    let repair_view = match &state.repair {
        RepairState::Done(view) => Some(view),
        _ => None,
    };
    let loop_ended = state
        .view
        .as_ref()
        .is_some_and(|v| v.query.is_none() && v.finished.is_some());
    // A repaired session's patches are on screen (or on their way): nothing to restart.
    let can_repair = s.started && !state.busy && state.view.is_some() && !s.repaired;
    let working = state.student.as_ref().and_then(|st| st.working);
    let current_exercise = state.student.as_ref().map(|st| st.exercise.id());
    let nav_button = |page: Page, label: &'static str| {
        html! {
            <button class={classes!("secondary", (state.page == page).then_some("current"))}
                aria-current={(state.page == page).then_some("page")} onclick={show(page)}>{ label }</button>
        }
    };

    html! {
        <>
        <header class="top">
            <h1>{ "fixloop" }</h1>
            <p class="tagline">{ "Paste a small C program and an input it gets wrong; answer a few questions; get a bug oracle and patches. Everything runs in your browser." }</p>
            if !student_view {
                <nav class="tools pages" aria-label="Pages">
                    { nav_button(Page::Playground, if student_mode { "Exercise" } else { "Playground" }) }
                    { nav_button(Page::Author, "Author exercise") }
                    { nav_button(Page::Teacher, "Teacher view") }
                </nav>
            }
            <div class="tools">
                if !student_view {
                    <button class="secondary" onclick={on_share}>{ "Share" }</button>
                    <button class="secondary" onclick={on_export}>{ "Export" }</button>
                    <label class="file secondary" for="import-file">{ "Import" }</label>
                    <input id="import-file" class="visually-hidden" type="file" accept=".json,application/json" onchange={on_import} />
                }
                <button class="secondary" onclick={on_theme} aria-label={format!("Theme: {} (change)", state.theme.as_str())}>
                    { format!("Theme: {}", state.theme.as_str()) }
                </button>
            </div>
        </header>
        if let Some(message) = &state.error {
            <div role="alert" class="alert">
                <pre>{ message }</pre>
                <button class="secondary" onclick={act(Action::DismissError)}>{ "Dismiss" }</button>
            </div>
        }
        if !state.unreadable.is_empty() {
            <div role="alert" class="alert unreadable">
                { for state.unreadable.iter().map(unreadable_notice) }
                <button class="secondary" onclick={act(Action::DismissUnreadable)}>{ "Dismiss" }</button>
            </div>
        }
        if let Some(down) = &state.worker_down {
            <div role="alert" class="alert worker-down" data-worker-down={if down.is_dead() { "dead" } else { "silent" }}>
                <p>{ down.message() }</p>
                <button onclick={on_restart_worker}>{ "Restart worker" }</button>
                if !down.is_dead() {
                    <button class="secondary" onclick={on_keep_waiting}>{ "Keep waiting" }</button>
                }
            </div>
        }
        if state.pending_link.is_some() {
            <div role="dialog" aria-modal="false" aria-label="Open shared session" class="confirm">
                <p>{ "This link opens a shared session. Replace your current session with it? (Yours is kept until you choose.)" }</p>
                <button onclick={act(Action::AcceptLink)}>{ "Open link" }</button>
                <button class="secondary" onclick={act(Action::RejectLink)}>{ "Keep my session" }</button>
            </div>
        }
        if let Some(pending) = &state.pending_replace {
            <div role="dialog" aria-modal="false" aria-label="Replace your work" class="confirm" data-testid="confirm-replace">
                <p>{ format!("Open {} in place of your work ({})? Your work is put aside: one click brings it back.", pending.what, page::holding(s)) }</p>
                <button onclick={act(Action::ConfirmReplace)}>{ "Replace" }</button>
                <button class="secondary" onclick={act(Action::CancelReplace)}>{ "Keep my work" }</button>
            </div>
        }
        if let Some(aside) = &state.put_aside {
            <div class="put-aside" role="status" data-testid="put-aside" data-aside-labels={aside.session.answers.len().to_string()}>
                <p>{ &aside.note }</p>
                <button onclick={act(Action::SwapPutAside)}>{ &aside.button }</button>
                <button class="secondary" onclick={act(Action::DismissPutAside)}>{ "Forget it" }</button>
            </div>
        }
        if let Some(url) = &state.share_url {
            <div class="share" data-share-url={url.clone()} role="status">
                <label for="share-url">{ "Share link (copied)" }</label>
                <input id="share-url" type="text" readonly=true value={url.clone()} />
                if url.len() > storage::LONG_LINK_CHARS {
                    <p class="warning">{ format!("⚠ This link is {} characters long; some chats and mail clients cut long links. You can share the session as a file instead.", url.len()) }</p>
                    <button class="secondary" onclick={{ let s = s.clone(); Callback::from(move |_: MouseEvent| download_json(&s)) }}>{ "Download JSON" }</button>
                }
            </div>
        }
        if state.page == Page::Author {
            <AuthorPage draft={state.author.clone()} link={state.author_link.as_deref().map(storage::exercise_url)}
                replaced={state.author_replaced.clone()} onstart={on_author_start} onrestore={on_restore_draft}
                onfield={on_author_field} onrange={on_author_range} onpreview={on_preview} onlink={on_make_link} />
        }
        if state.page == Page::Teacher {
            <TeacherPage class={state.class.clone()} onfiles={on_report_files} />
        }
        if state.page == Page::Playground {
        <main class="layout">
            <div class="left">
                if !student_mode {
                <nav class="panel gallery" aria-label="Examples">
                    <h2>{ "Examples" }</h2>
                    <ul>
                        { for EXAMPLES.iter().map(|e| html! {
                            <li><button class={classes!("example", (s.example.as_deref() == Some(e.id) && s.program == e.program).then_some("current"))}
                                onclick={on_example(e.id)} title={e.blurb}>{ e.title }</button></li>
                        }) }
                    </ul>
                    <button class="secondary" onclick={act(Action::Reset)}>{ "Reset" }</button>
                    <h3>{ "Exercises" }</h3>
                    <ul>
                        { for gallery::exercises().into_iter().map(|g| {
                            let current = current_exercise.as_deref() == Some(g.exercise.id().as_str());
                            html! {
                                <li><button class={classes!("example", current.then_some("current"))}
                                    onclick={on_gallery_exercise(g.exercise.clone())} title={format!("{}: {}", g.exercise.title, g.exercise.instructions)}>
                                    { format!("Exercise: {}", g.id) }</button></li>
                            }
                        }) }
                    </ul>
                </nav>
                }
                <section class="panel" aria-label="Editor">
                    <h2>{ "Program" }</h2>
                    <Editor value={s.program.clone()} markers={(*diag).clone()} readonly={!editable || student_mode} oninput={on_program} />
                    <div class="fields">
                        <label for="failing-input">{ "Failing input" }</label>
                        <input id="failing-input" type="text" value={s.failing_input.clone()} oninput={field(Action::EditFailing)} readonly={!editable || student_mode} />
                        if !student_mode {
                            <label for="expected-output">{ "Expected output (optional)" }</label>
                            <input id="expected-output" type="text" placeholder="if known" title="Optional: repair asks for the right output when it needs it" value={s.expected_output.clone().unwrap_or_default()} oninput={field(Action::EditExpected)} readonly={!editable} />
                        }
                    </div>
                    // Start sits right under what it needs (the program and the failing
                    // input), on the first screen; the optional settings follow.
                    if editable {
                        <div class="start-row">
                            <button data-primary="" onclick={act(Action::Start)}>{ "Start" }</button>
                            <p class="hint">{ if student_mode { "Start shows you runs of this program, one at a time: say for each whether it shows the bug." } else { "Ctrl/Cmd+Enter runs the current step." } }</p>
                        </div>
                    }
                    <RunPanel run={state.run.clone()} current={state.run_program == s.program} input={state.run_input.clone()}
                        failing={s.failing_input.clone()} disabled={state.busy || repairing || working.is_some()}
                        oninput={on_run_input} onrun={on_run} />
                    <p class="fuzz-summary" data-testid="fuzz-summary">{ fuzz_summary }</p>
                    if !student_mode {
                    <details class="ranges" open={!ranged.is_empty() || state.ranges_open}>
                        <summary>{ "Input ranges (optional)" }</summary>
                        { for ranges }
                    </details>
                    <fieldset class="settings">
                        <legend>{ "Settings" }</legend>
                        <label>{ "Label budget " }<input type="number" min="1" max="200" value={s.settings.label_budget.to_string()} oninput={field(Action::EditBudget)} disabled={!editable} /></label><Explain term="label budget" />
                        <label>{ "Committee size " }<input type="number" min="1" max="50" value={s.settings.committee.to_string()} oninput={field(Action::EditCommittee)} disabled={!editable} /></label><Explain term="committee" />
                        <label>{ "Seed " }<input type="number" min="0" value={s.settings.seed.to_string()} oninput={field(Action::EditSeed)} disabled={!editable} /></label><Explain term="seed" />
                    </fieldset>
                    }
                </section>
            </div>
            <div class="right">
                if let Some(st) = &state.student {
                    <ExerciseBrief exercise={st.exercise.clone()} answers={s.answers.clone()} preview={st.preview} onleave={on_leave} />
                }
                if s.started {
                    <Dialogue view={state.view.clone()} busy={state.busy} repairing={repairing || working.is_some()}
                        onanswer={on_answer} onstop={on_stop_loop} onedit={on_edit} student={student_mode}
                        choice={repair_view.and_then(|v| v.choice.clone())}
                        questions={repair_view.map_or((0, s.settings.questions), |v| (v.questions_used, v.question_budget))}
                        onchoose={on_choose} />
                    if let Some(view) = &state.view {
                        <OracleView view={view.clone()} axes={state.axes} onaxes={on_axes} />
                    }
                    <Patches repair={state.repair.clone()} {can_repair} primary={loop_ended} onrepair={on_repair}
                        onstop={on_stop_repair} onapply={on_apply} onstep={on_step} student={state.student.is_some()} />
                }
                // The fix can be written before or without the questions.
                if let Some(st) = &state.student {
                    <FixPanel draft={st.fix_draft.clone()} origin={st.fix_origin} {working} busy={state.busy}
                        checked={st.checked.clone()} exported={st.exported.clone()}
                        student={st.student.clone()} onstudent={on_student}
                        onedit={on_fix} onreport={on_report} onprint={on_print} />
                }
                <HowItWorks open={!s.started} />
            </div>
        </main>
        }
        </>
    }
}

/// Mounts the playground into the page body.
pub fn start() {
    // The tab owns its storage id before anything is read from storage.
    storage::claim_tab(|| {
        yew::Renderer::<App>::new().render();
    });
}

/// Marks the page interactive (first render done, handlers attached) with the time since
/// navigation start in `data-ready-ms` (the e2e test reports it as load-to-interactive).
pub fn mark_ready() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let ms = window.performance().map(|p| p.now()).unwrap_or(0.0);
    if let Some(root) = window.document().and_then(|d| d.document_element()) {
        let _ = root.set_attribute("data-ready-ms", &format!("{ms:.0}"));
    }
}
