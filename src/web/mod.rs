//! The browser playground (Yew).
/// Mounts the playground into the page body.
pub fn start() {}
