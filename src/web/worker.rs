//! The Web Worker: its entry point (`serve`) and the page's handle to it (spawn, queue until ready, notice a dead or silent worker, terminate and respawn).

use super::locks;
pub use crate::page::{WorkerDown, SILENT_MS};
use crate::session::protocol::{WorkerRequest, WorkerResponse, WorkerState};
use crate::session::Session;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, ErrorEvent, MessageEvent, Worker, WorkerOptions};
use yew::Callback;

/// The worker script Trunk writes (`data-type="worker"` with `data-loader-shim`).
pub const WORKER_SCRIPT: &str = "./fixloop-worker_loader.js";

/// How often the page checks for a silent worker.
const WATCHDOG_MS: i32 = 1_000;

/// Runs inside the worker: answers every request (JSON text) with JSON text. When the page
/// named the worker, it first holds a Web Lock of that name for its whole life, so the
/// page learns it is gone when the lock comes free.
pub fn serve() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let state = RefCell::new(WorkerState::new());
    let reply_scope = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let Some(text) = event.data().as_string() else {
            return;
        };
        state.borrow_mut().handle_text(&text, &mut |answer| {
            let _ = reply_scope.post_message(&JsValue::from_str(&answer));
        });
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let ready = move |_held: bool| {
        let _ = scope.post_message(&JsValue::from_str(&WorkerResponse::Ready.to_json()));
    };
    let name = js_sys::global()
        .unchecked_into::<DedicatedWorkerGlobalScope>()
        .name();
    if name.is_empty() {
        ready(false)
    } else {
        locks::hold(&name, ready)
    }
}

type MessageClosure = Closure<dyn FnMut(MessageEvent)>;
type ErrorClosure = Closure<dyn FnMut(ErrorEvent)>;
/// The watchdog's interval handle and its closure.
type Watchdog = (i32, Closure<dyn FnMut()>);

/// The page's side: one live worker at a time. Requests wait until the worker says it is
/// ready; an uncaught error in the worker, its Web Lock coming free, or a request left
/// unanswered for [`SILENT_MS`] is reported through `on_down`. [`WorkerLink::restart`]
/// kills a worker (Stop, or the user's Restart) and starts a fresh one, which gets the
/// last Sync request again when asked (the session is the truth, so nothing is lost).
pub struct WorkerLink {
    worker: RefCell<Option<Worker>>,
    closures: RefCell<Option<(MessageClosure, ErrorClosure)>>,
    ready: Cell<bool>,
    queue: RefCell<Vec<String>>,
    /// The session of the last Sync (a fresh worker gets it again after a restart).
    last_sync: RefCell<Option<Session>>,
    latest_id: Cell<u64>,
    /// Counts spawned workers; events from an older one are ignored.
    generation: Cell<u64>,
    /// The latest request has no final answer yet.
    awaiting: Cell<bool>,
    /// The latest request is a Repair (its loop view is not its last answer).
    awaiting_repair: Cell<bool>,
    /// When the worker was last heard from (or the awaited request was sent), in ms.
    last_heard: Cell<f64>,
    silent_reported: Cell<bool>,
    watchdog: RefCell<Option<Watchdog>>,
    tag: String,
    on_response: Callback<WorkerResponse>,
    on_down: Callback<WorkerDown>,
}

fn now() -> f64 {
    js_sys::Date::now()
}

impl WorkerLink {
    /// Spawns the worker; `on_response` gets every current (not stale) answer, `on_down`
    /// hears when the worker dies or falls silent.
    pub fn new(
        on_response: Callback<WorkerResponse>,
        on_down: Callback<WorkerDown>,
    ) -> Rc<WorkerLink> {
        let link = Rc::new(WorkerLink {
            worker: RefCell::new(None),
            closures: RefCell::new(None),
            ready: Cell::new(false),
            queue: RefCell::new(Vec::new()),
            last_sync: RefCell::new(None),
            latest_id: Cell::new(0),
            generation: Cell::new(0),
            awaiting: Cell::new(false),
            awaiting_repair: Cell::new(false),
            last_heard: Cell::new(now()),
            silent_reported: Cell::new(false),
            watchdog: RefCell::new(None),
            tag: format!("{:x}", (js_sys::Math::random() * 1e15) as u64),
            on_response,
            on_down,
        });
        WorkerLink::spawn(&link);
        WorkerLink::start_watchdog(&link);
        link
    }

    /// A fresh request id (answers to older ids are dropped).
    pub fn next_id(&self) -> u64 {
        self.latest_id.set(self.latest_id.get() + 1);
        self.latest_id.get()
    }

    /// The Web Lock name the worker of `generation` holds while it lives.
    fn lock_name(&self, generation: u64) -> String {
        format!("fixloop-worker-{}-{generation}", self.tag)
    }

    fn spawn(this: &Rc<WorkerLink>) {
        let generation = this.generation.get() + 1;
        this.generation.set(generation);
        this.ready.set(false);
        this.silent_reported.set(false);
        let options = WorkerOptions::new();
        options.set_name(&this.lock_name(generation));
        let worker = match Worker::new_with_options(WORKER_SCRIPT, &options) {
            Ok(w) => w,
            Err(_) => {
                this.on_down.emit(WorkerDown::Crashed(
                    "the background worker could not be started".into(),
                ));
                return;
            }
        };
        let weak = Rc::downgrade(this);
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let (Some(link), Some(text)) = (weak.upgrade(), event.data().as_string()) else {
                return;
            };
            if link.generation.get() == generation {
                link.receive(&text);
            }
        });
        let weak = Rc::downgrade(this);
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
            event.prevent_default();
            let why = Some(event.message())
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| "it could not load or run".into());
            if let Some(link) = weak.upgrade() {
                link.down(generation, WorkerDown::Crashed(why));
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        *this.closures.borrow_mut() = Some((on_message, on_error));
        *this.worker.borrow_mut() = Some(worker);
    }

    /// Checks every second whether the awaited request has gone unanswered too long.
    fn start_watchdog(this: &Rc<WorkerLink>) {
        let weak: Weak<WorkerLink> = Rc::downgrade(this);
        let tick = Closure::<dyn FnMut()>::new(move || {
            let Some(link) = weak.upgrade() else {
                return;
            };
            let silent = now() - link.last_heard.get() > SILENT_MS;
            if link.awaiting.get() && silent && !link.silent_reported.get() {
                link.silent_reported.set(true);
                link.on_down.emit(WorkerDown::Silent);
            }
        });
        let handle = web_sys::window().and_then(|w| {
            w.set_interval_with_callback_and_timeout_and_arguments_0(
                tick.as_ref().unchecked_ref(),
                WATCHDOG_MS,
            )
            .ok()
        });
        if let Some(handle) = handle {
            *this.watchdog.borrow_mut() = Some((handle, tick));
        }
    }

    /// The worker of `generation` died: end it for good and tell the page (once).
    fn down(&self, generation: u64, why: WorkerDown) {
        if generation != self.generation.get() {
            return; // an old worker, already replaced
        }
        self.generation.set(generation + 1);
        if let Some(worker) = self.worker.borrow_mut().take() {
            worker.terminate();
        }
        self.ready.set(false);
        self.awaiting.set(false);
        self.on_down.emit(why);
    }

    fn receive(self: &Rc<Self>, text: &str) {
        self.last_heard.set(now());
        self.silent_reported.set(false);
        let response = match WorkerResponse::from_json(text) {
            Ok(r) => r,
            Err(e) => WorkerResponse::Failed {
                id: self.latest_id.get(),
                message: format!("the worker sent a malformed answer: {e}"),
            },
        };
        if response == WorkerResponse::Ready {
            self.ready.set(true);
            let generation = self.generation.get();
            let weak = Rc::downgrade(self);
            // The worker holds its lock before it says Ready, so this request is granted
            // only once that worker is gone.
            locks::when_released(&self.lock_name(generation), move || {
                if let Some(link) = weak.upgrade() {
                    link.down(generation, WorkerDown::Gone);
                }
            });
            let queued: Vec<String> = self.queue.borrow_mut().drain(..).collect();
            for message in queued {
                self.post(&message);
            }
            return;
        }
        // A run (the Run button) is a side request: never stale, never the awaited answer.
        if matches!(response, WorkerResponse::Ran { .. }) {
            self.on_response.emit(response);
            return;
        }
        let latest = self.latest_id.get();
        if response.id() < latest && !matches!(response, WorkerResponse::Failed { id: 0, .. }) {
            return;
        }
        let last_answer = match response {
            WorkerResponse::RepairProgress { .. } => false,
            WorkerResponse::Loop { .. } => !self.awaiting_repair.get(),
            _ => true,
        };
        if response.id() == latest && last_answer {
            self.awaiting.set(false);
        }
        self.on_response.emit(response);
    }

    fn post(&self, message: &str) {
        if let Some(worker) = self.worker.borrow().as_ref() {
            let _ = worker.post_message(&JsValue::from_str(message));
        }
    }

    /// Sends a request (queued until the worker is ready; a dead worker is replaced).
    pub fn send(self: &Rc<Self>, request: &WorkerRequest) {
        let this = self;
        let text = request.to_json();
        if let WorkerRequest::Sync { session, .. } | WorkerRequest::Repair { session, .. } = request
        {
            *this.last_sync.borrow_mut() = Some(session.clone());
        }
        if this.worker.borrow().is_none() {
            WorkerLink::spawn(this);
        }
        if !this.awaiting.get() {
            this.last_heard.set(now());
        }
        this.awaiting.set(true);
        this.awaiting_repair
            .set(matches!(request, WorkerRequest::Repair { .. }));
        if this.ready.get() {
            this.post(&text);
        } else {
            this.queue.borrow_mut().push(text);
        }
    }

    /// Sends a side request (a Run): answered in turn, but it neither makes the awaited
    /// request's answers stale nor counts as awaited (its own id is the page's to check).
    pub fn send_side(self: &Rc<Self>, request: &WorkerRequest) {
        let text = request.to_json();
        if self.worker.borrow().is_none() {
            WorkerLink::spawn(self);
        }
        if self.ready.get() {
            self.post(&text);
        } else {
            self.queue.borrow_mut().push(text);
        }
    }

    /// Terminates the worker (whatever it is doing stops at once) and starts a fresh
    /// one; with `resend` it gets the last session sent again (under a fresh id, so its
    /// answer is current; a repaired one is repaired again).
    pub fn restart(this: &Rc<WorkerLink>, resend: bool) {
        if let Some(worker) = this.worker.borrow_mut().take() {
            worker.terminate();
        }
        this.queue.borrow_mut().clear();
        this.awaiting.set(false);
        WorkerLink::spawn(this);
        let last = this.last_sync.borrow().clone();
        if let Some(session) = last.filter(|_| resend) {
            let id = this.next_id();
            this.send(&WorkerRequest::for_session(id, session));
        }
    }

    /// The user chose to keep waiting for a silent worker: report it again only after
    /// another [`SILENT_MS`] without an answer.
    pub fn keep_waiting(&self) {
        self.last_heard.set(now());
        self.silent_reported.set(false);
    }
}
