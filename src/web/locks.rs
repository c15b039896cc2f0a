//! Web Locks (`navigator.locks`, page or worker), bound by hand since web-sys keeps them unstable: hold a lock for a context's life, try one without waiting, learn when one is released.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// The browser's `LockManager`.
    type LockManager;
    /// `locks.request(name, options, callback)`: the lock is held until the promise the
    /// callback returns settles (or the page or worker holding it is gone).
    #[wasm_bindgen(method, js_name = request)]
    fn request(
        this: &LockManager,
        name: &str,
        options: &JsValue,
        callback: &js_sys::Function,
    ) -> js_sys::Promise;
}

/// `navigator.locks` of this page or worker, when the browser has Web Locks.
fn manager() -> Option<LockManager> {
    let navigator = js_sys::Reflect::get(&js_sys::global(), &"navigator".into()).ok()?;
    let locks = js_sys::Reflect::get(&navigator, &"locks".into()).ok()?;
    (!locks.is_undefined() && !locks.is_null()).then(|| locks.unchecked_into())
}

/// Whether this browser has Web Locks.
pub fn available() -> bool {
    manager().is_some()
}

/// A promise that never settles: the lock it is returned for stays held until the page
/// or worker holding it is gone.
fn forever() -> JsValue {
    js_sys::Promise::new(&mut |_, _| {}).into()
}

/// Requests `name`; `granted` gets whether the lock was given (false only with
/// `if_available` when someone else holds it) and returns what to hold it with.
fn request(
    locks: &LockManager,
    name: &str,
    if_available: bool,
    granted: impl FnOnce(bool) -> JsValue + 'static,
) {
    let options = js_sys::Object::new();
    if if_available {
        let _ = js_sys::Reflect::set(&options, &"ifAvailable".into(), &JsValue::TRUE);
    }
    let callback = Closure::once_into_js(move |lock: JsValue| granted(!lock.is_null()));
    let done = locks.request(name, &options, callback.unchecked_ref());
    // A rejected request (the context is closing) has nobody left to tell.
    wasm_bindgen_futures::spawn_local(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(done).await;
    });
}

/// Holds the lock `name` for as long as this page or worker lives; `on_held(true)` runs
/// once it is held, `on_held(false)` at once when the browser has no Web Locks.
pub fn hold(name: &str, on_held: impl FnOnce(bool) + 'static) {
    match manager() {
        None => on_held(false),
        Some(locks) => request(&locks, name, false, move |_| {
            on_held(true);
            forever()
        }),
    }
}

/// Takes the lock `name` only if nobody holds it, then holds it for this context's life:
/// `on_result(Some(true))` taken, `Some(false)` held elsewhere, `None` no Web Locks.
pub fn try_hold(name: &str, on_result: impl FnOnce(Option<bool>) + 'static) {
    match manager() {
        None => on_result(None),
        Some(locks) => request(&locks, name, true, move |taken| {
            on_result(Some(taken));
            if taken {
                forever()
            } else {
                JsValue::UNDEFINED
            }
        }),
    }
}

/// Calls `on_released` once the lock `name` is free (its holder released it or is gone),
/// taking and dropping it at once; false when the browser has no Web Locks.
pub fn when_released(name: &str, on_released: impl FnOnce() + 'static) -> bool {
    let Some(locks) = manager() else {
        return false;
    };
    request(&locks, name, false, move |_| {
        on_released();
        JsValue::UNDEFINED
    });
    true
}
