//! Browser persistence: the session in localStorage per tab, the theme, share-link URLs and the page's fragment.

use crate::session::{decode_json, decode_link, encode_json, encode_link, Session, SessionError};

/// sessionStorage key of this tab's id (survives reload, new per tab).
const TAB_KEY: &str = "fixloop-tab";
/// localStorage key prefix of a tab's session.
const SESSION_PREFIX: &str = "fixloop-session-";
/// localStorage key naming the tab that saved last (a new tab starts from its session).
const LAST_KEY: &str = "fixloop-last-tab";
/// localStorage key of the theme choice.
const THEME_KEY: &str = "fixloop-theme";
/// The fragment prefix of share links.
pub const LINK_PREFIX: &str = "#s=";
/// Above this many characters a share link gets a warning and a JSON download.
pub const LONG_LINK_CHARS: usize = 2000;

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn tab_id() -> String {
    let fresh = || format!("{:x}", (js_sys::Math::random() * 1e15) as u64);
    let Some(storage) = web_sys::window().and_then(|w| w.session_storage().ok().flatten()) else {
        return fresh();
    };
    match storage.get_item(TAB_KEY).ok().flatten() {
        Some(id) => id,
        None => {
            let id = fresh();
            let _ = storage.set_item(TAB_KEY, &id);
            id
        }
    }
}

/// The storage key of this tab's session.
fn session_key() -> String {
    format!("{SESSION_PREFIX}{}", tab_id())
}

/// This tab's saved session; a new tab starts from the session saved last by any tab
/// (copied, so the two tabs never write the same key). A corrupt entry is reported.
pub fn load_session() -> Result<Option<Session>, SessionError> {
    let Some(storage) = local() else {
        return Ok(None);
    };
    let own = storage.get_item(&session_key()).ok().flatten();
    let text = match own {
        Some(t) => Some(t),
        None => storage.get_item(LAST_KEY).ok().flatten().and_then(|tab| {
            storage
                .get_item(&format!("{SESSION_PREFIX}{tab}"))
                .ok()
                .flatten()
        }),
    };
    text.map(|t| decode_json(&t)).transpose()
}

/// Whether this tab has saved a session of its own.
pub fn has_saved_session() -> bool {
    local().is_some_and(|s| s.get_item(&session_key()).ok().flatten().is_some())
}

/// Saves the session under this tab's key; an error message when storage refuses.
pub fn save_session(session: &Session) -> Result<(), String> {
    let storage = local().ok_or("this browser has no localStorage: the session is not saved")?;
    let key = session_key();
    storage
        .set_item(&key, &encode_json(session))
        .map_err(|_| "the browser refused to save the session (storage full?)".to_string())?;
    let _ = storage.set_item(LAST_KEY, &tab_id());
    Ok(())
}

/// The saved theme name.
pub fn load_theme() -> String {
    local()
        .and_then(|s| s.get_item(THEME_KEY).ok().flatten())
        .unwrap_or_default()
}

/// Saves the theme name and applies it to `<html data-theme>`.
pub fn apply_theme(name: &str) {
    if let Some(storage) = local() {
        let _ = storage.set_item(THEME_KEY, name);
    }
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-theme", name);
    }
}

/// The share fragment in the page's URL, if any.
pub fn link_fragment() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    hash.strip_prefix(LINK_PREFIX).map(str::to_string)
}

/// Opens the page's share fragment.
pub fn open_link(fragment: &str) -> Result<Session, SessionError> {
    decode_link(fragment)
}

/// Removes the fragment from the address bar (the session is in storage now).
pub fn clear_fragment() {
    if let Some(window) = web_sys::window() {
        if let (Ok(history), Ok(path)) = (window.history(), window.location().pathname()) {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path));
        }
    }
}

/// The full share URL of a session.
pub fn share_url(session: &Session) -> String {
    let base = web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
        })
        .unwrap_or_default();
    format!("{base}{LINK_PREFIX}{}", encode_link(session))
}

/// Copies text to the clipboard (best effort: the link is also shown on the page).
pub fn copy_to_clipboard(text: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.navigator().clipboard().write_text(text);
    }
}

/// A `blob:` URL holding the session as JSON (for the download link).
pub fn json_download_url(session: &Session) -> Option<String> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(&encode_json(session)));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    web_sys::Url::create_object_url_with_blob(&blob).ok()
}
