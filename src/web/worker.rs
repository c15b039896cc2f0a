//! The Web Worker: its entry point (`serve`) and the page's handle to it (spawn, queue until ready, terminate and respawn).

use crate::session::protocol::{WorkerRequest, WorkerResponse, WorkerState};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, Worker};
use yew::Callback;

/// The worker script Trunk writes (`data-type="worker"` with `data-loader-shim`).
pub const WORKER_SCRIPT: &str = "./fixloop-worker_loader.js";

/// Runs inside the worker: answers every request (JSON text) with JSON text.
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
    let _ = scope.post_message(&JsValue::from_str(&WorkerResponse::Ready.to_json()));
}

type MessageClosure = Closure<dyn FnMut(MessageEvent)>;

/// The page's side: one live worker at a time. Requests wait until the worker says it is
/// ready; [`WorkerLink::restart`] kills a busy worker (Stop) and starts a fresh one, which
/// gets the last Sync request again (the session is the truth, so nothing is lost).
pub struct WorkerLink {
    worker: RefCell<Option<Worker>>,
    closures: RefCell<Vec<MessageClosure>>,
    ready: Cell<bool>,
    queue: RefCell<Vec<String>>,
    last_sync: RefCell<Option<String>>,
    latest_id: Cell<u64>,
    crashes: Cell<u32>,
    on_response: Callback<WorkerResponse>,
}

impl WorkerLink {
    /// Spawns the worker; `on_response` gets every current (not stale) answer.
    pub fn new(on_response: Callback<WorkerResponse>) -> Rc<WorkerLink> {
        let link = Rc::new(WorkerLink {
            worker: RefCell::new(None),
            closures: RefCell::new(Vec::new()),
            ready: Cell::new(false),
            queue: RefCell::new(Vec::new()),
            last_sync: RefCell::new(None),
            latest_id: Cell::new(0),
            crashes: Cell::new(0),
            on_response,
        });
        WorkerLink::spawn(&link);
        link
    }

    /// A fresh request id (answers to older ids are dropped).
    pub fn next_id(&self) -> u64 {
        self.latest_id.set(self.latest_id.get() + 1);
        self.latest_id.get()
    }

    fn spawn(this: &Rc<WorkerLink>) {
        let worker = match Worker::new(WORKER_SCRIPT) {
            Ok(w) => w,
            Err(_) => {
                this.on_response.emit(WorkerResponse::Failed {
                    id: this.latest_id.get(),
                    message: "the background worker could not be started".into(),
                });
                return;
            }
        };
        let weak = Rc::downgrade(this);
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let (Some(link), Some(text)) = (weak.upgrade(), event.data().as_string()) else {
                return;
            };
            link.receive(&text);
        });
        let weak = Rc::downgrade(this);
        let on_error = Closure::<dyn FnMut(MessageEvent)>::new(move |_event: MessageEvent| {
            if let Some(link) = weak.upgrade() {
                link.crashed();
                // Respawn (and replay the session) unless it keeps crashing.
                if link.crashes.get() <= 3 {
                    WorkerLink::restart(&link, true);
                }
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        *this.closures.borrow_mut() = vec![on_message, on_error];
        this.ready.set(false);
        *this.worker.borrow_mut() = Some(worker);
    }

    fn receive(&self, text: &str) {
        let response = match WorkerResponse::from_json(text) {
            Ok(r) => r,
            Err(e) => WorkerResponse::Failed {
                id: self.latest_id.get(),
                message: format!("the worker sent a malformed answer: {e}"),
            },
        };
        if response == WorkerResponse::Ready {
            self.ready.set(true);
            let queued: Vec<String> = self.queue.borrow_mut().drain(..).collect();
            for message in queued {
                self.post(&message);
            }
            return;
        }
        if response.id() < self.latest_id.get()
            && !matches!(response, WorkerResponse::Failed { id: 0, .. })
        {
            return;
        }
        self.crashes.set(0);
        self.on_response.emit(response);
    }

    fn post(&self, message: &str) {
        if let Some(worker) = self.worker.borrow().as_ref() {
            let _ = worker.post_message(&JsValue::from_str(message));
        }
    }

    /// Sends a request (queued until the worker is ready).
    pub fn send(&self, request: &WorkerRequest) {
        let text = request.to_json();
        if matches!(request, WorkerRequest::Sync { .. }) {
            *self.last_sync.borrow_mut() = Some(text.clone());
        }
        if self.ready.get() {
            self.post(&text);
        } else {
            self.queue.borrow_mut().push(text);
        }
    }

    /// Terminates the worker (whatever it is doing stops at once) and starts a fresh
    /// one; with `resend` it gets the last Sync request again (after a crash).
    pub fn restart(this: &Rc<WorkerLink>, resend: bool) {
        if let Some(worker) = this.worker.borrow_mut().take() {
            worker.terminate();
        }
        this.queue.borrow_mut().clear();
        WorkerLink::spawn(this);
        let last = this.last_sync.borrow().clone();
        if let Some(text) = last.filter(|_| resend) {
            this.queue.borrow_mut().push(text);
        }
    }

    fn crashed(&self) {
        self.crashes.set(self.crashes.get() + 1);
        self.on_response.emit(WorkerResponse::Failed {
            id: self.latest_id.get(),
            message: "the background worker crashed; your labels are kept and it was restarted"
                .into(),
        });
    }
}
