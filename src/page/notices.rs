//! What the page tells the user about things gone wrong outside a session: saved work it could not read, a worker lost or silent.

/// How long a request may go unanswered before the page says the worker is silent.
pub const SILENT_MS: f64 = 30_000.0;

/// A saved session, exercise draft or exercise work that could not be read. Its text was
/// copied aside (under `key`) before anything could overwrite it, or, when storage refused
/// the copy, this tab moved to a new id so that its saves leave the text where it is
/// (`key` is then that place).
#[derive(Debug, Clone, PartialEq)]
pub struct Unreadable {
    /// What was saved: "session", "exercise draft" or "exercise work".
    pub what: &'static str,
    /// The localStorage key holding the unreadable text.
    pub key: String,
    /// Why it could not be read.
    pub error: String,
}

/// Why the page lost (or stopped hearing from) its worker.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkerDown {
    /// An uncaught error in the worker (its message); the worker was terminated.
    Crashed(String),
    /// The worker is gone without the page ending it (its Web Lock came free).
    Gone,
    /// A request has had no answer for [`SILENT_MS`]; the worker is still there.
    Silent,
}

impl WorkerDown {
    /// What the page tells the user.
    pub fn message(&self) -> String {
        let kept = "Your session and every label are kept.";
        match self {
            WorkerDown::Crashed(why) => format!(
                "The background worker crashed ({why}). {kept} Restart it to go on."
            ),
            WorkerDown::Gone => {
                format!("The background worker stopped unexpectedly. {kept} Restart it to go on.")
            }
            WorkerDown::Silent => format!(
                "The background worker has not answered for {} s: it may still be working on a large job, or be stuck. {kept}",
                (SILENT_MS / 1000.0) as u32
            ),
        }
    }

    /// Whether the worker is gone (not merely slow).
    pub fn is_dead(&self) -> bool {
        !matches!(self, WorkerDown::Silent)
    }
}
