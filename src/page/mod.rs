//! The playground page's state, actions and reducer, without the browser: every user action and worker answer is an [`Action`] applied by [`AppState::apply`], so the page's logic is tested natively; `src/web` keeps the Yew glue and the side effects.

mod notices;
mod state;

pub use notices::{Unreadable, WorkerDown, SILENT_MS};
pub use state::*;
