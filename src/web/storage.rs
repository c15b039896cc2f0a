//! Browser persistence: the session in localStorage per tab (each tab owns its id by a Web Lock), unreadable sessions, drafts and exercise work kept aside, the theme, share-link URLs and the page's fragment.

use crate::exercise::{Exercise, ExerciseError};
pub use crate::page::Unreadable;
use crate::page::{PutAside, StudentWork};
use crate::session::{
    decode_json, decode_link, encode_json, encode_json_checked, encode_link, Session, SessionError,
};

/// sessionStorage key of this tab's id (survives reload, new per tab).
const TAB_KEY: &str = "fixloop-tab";
/// localStorage key prefix of a tab's session.
const SESSION_PREFIX: &str = "fixloop-session-";
/// localStorage key prefix of an unreadable saved session kept aside (then a hash of it).
const UNREADABLE_PREFIX: &str = "fixloop-unreadable-";
/// Web Lock name prefix a tab holds on its id while it is open (then the id).
const TAB_LOCK_PREFIX: &str = "fixloop-tab-";
/// localStorage key naming the tab that saved last (a new tab starts from its session).
const LAST_KEY: &str = "fixloop-last-tab";
/// localStorage key prefix of a student's work (then the tab id and the exercise id).
const WORK_PREFIX: &str = "fixloop-work-";
/// sessionStorage key of the exercise this tab is working on (student mode survives reload).
const CURRENT_EXERCISE_KEY: &str = "fixloop-current-exercise";
/// localStorage key prefix of a tab's exercise draft.
const DRAFT_PREFIX: &str = "fixloop-draft-";
/// The fragment prefix of exercise links.
pub const EXERCISE_PREFIX: &str = "#x=";
/// localStorage key of the theme choice.
const THEME_KEY: &str = "fixloop-theme";
/// The fragment prefix of share links.
pub const LINK_PREFIX: &str = "#s=";
/// Per-tab localStorage key prefix of the session put aside by the last replacement.
const ASIDE_PREFIX: &str = "fixloop-aside-";
/// sessionStorage key of the answer half-typed into the current question, with the
/// question it belongs to (a reload keeps it).
const ANSWER_DRAFT_KEY: &str = "fixloop-answer-draft";
/// Above this many characters a share link gets a warning and a JSON download.
pub const LONG_LINK_CHARS: usize = 2000;

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn tab_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

fn fresh_tab_id() -> String {
    format!("{:x}", (js_sys::Math::random() * 1e15) as u64)
}

fn tab_id() -> String {
    let Some(storage) = tab_storage() else {
        return fresh_tab_id();
    };
    match storage.get_item(TAB_KEY).ok().flatten() {
        Some(id) => id,
        None => {
            let id = fresh_tab_id();
            let _ = storage.set_item(TAB_KEY, &id);
            id
        }
    }
}

/// Makes this tab the only owner of its id, then runs `then`. A duplicated tab (or one
/// opened by `window.open`) inherits its opener's sessionStorage and so its id; the Web
/// Lock on the id is then held by the other tab, and this tab takes a new id with a copy
/// of what was saved under the old one (it starts where the original was, and from now
/// on each writes its own keys). Without Web Locks tabs keep the id they have.
pub fn claim_tab(then: impl FnOnce() + 'static) {
    let id = tab_id();
    super::locks::try_hold(&format!("{TAB_LOCK_PREFIX}{id}"), move |taken| {
        if taken == Some(false) {
            let fresh = fork_tab(&id);
            super::locks::hold(&format!("{TAB_LOCK_PREFIX}{fresh}"), |_| {});
        }
        then()
    });
}

/// Gives this tab a new id and copies the old id's session, drafts and current exercise
/// work to it; returns the new id.
fn fork_tab(old: &str) -> String {
    let fresh = fresh_tab_id();
    if let Some(tab) = tab_storage() {
        let _ = tab.set_item(TAB_KEY, &fresh);
    }
    let Some(storage) = local() else {
        return fresh;
    };
    let mut keys = vec![
        (
            format!("{SESSION_PREFIX}{old}"),
            format!("{SESSION_PREFIX}{fresh}"),
        ),
        (
            format!("{DRAFT_PREFIX}{old}"),
            format!("{DRAFT_PREFIX}{fresh}"),
        ),
        (
            format!("{DRAFT_PREFIX}aside-{old}"),
            format!("{DRAFT_PREFIX}aside-{fresh}"),
        ),
    ];
    let exercise = tab_storage().and_then(|t| t.get_item(CURRENT_EXERCISE_KEY).ok().flatten());
    if let Some(ex) = exercise {
        keys.push((
            format!("{WORK_PREFIX}{old}-{ex}"),
            format!("{WORK_PREFIX}{fresh}-{ex}"),
        ));
    }
    for (from, to) in keys {
        if let Some(text) = storage.get_item(&from).ok().flatten() {
            let _ = storage.set_item(&to, &text);
        }
    }
    fresh
}

/// The storage key of this tab's session.
fn session_key() -> String {
    format!("{SESSION_PREFIX}{}", tab_id())
}

/// Keeps the unreadable `text` found under `key` (this tab's own key when `own`): copied
/// aside under a key named by its hash (the same text is kept aside once, however often it
/// is read), or, when storage refuses the copy, left where it is while this tab moves to a
/// new id.
fn keep_aside(what: &'static str, key: String, own: bool, text: &str, error: String) -> Unreadable {
    let aside = format!("{UNREADABLE_PREFIX}{:016x}", fnv1a(text));
    if local().is_some_and(|s| s.set_item(&aside, text).is_ok()) {
        return Unreadable {
            what,
            key: aside,
            error,
        };
    }
    if own {
        if let Some(tab) = tab_storage() {
            let _ = tab.set_item(TAB_KEY, &fresh_tab_id());
        }
    }
    Unreadable { what, key, error }
}

/// This tab's saved session; a new tab starts from the session saved last by any tab
/// (copied, so the two tabs never write the same key). An unreadable entry is never
/// dropped: see [`Unreadable`].
pub fn load_session() -> Result<Option<Session>, Unreadable> {
    let Some(storage) = local() else {
        return Ok(None);
    };
    let own_key = session_key();
    let (key, text) = match storage.get_item(&own_key).ok().flatten() {
        Some(t) => (own_key.clone(), t),
        None => {
            let last = storage.get_item(LAST_KEY).ok().flatten();
            let key = format!("{SESSION_PREFIX}{}", last.unwrap_or_default());
            match storage.get_item(&key).ok().flatten() {
                Some(t) => (key, t),
                None => return Ok(None),
            }
        }
    };
    match decode_json(&text) {
        Ok(session) => Ok(Some(session)),
        Err(e) => {
            let own = key == own_key;
            Err(keep_aside("session", key, own, &text, e.to_string()))
        }
    }
}

/// The raw text under a localStorage key (unreadable saved work kept aside).
pub fn raw_text(key: &str) -> Option<String> {
    local()?.get_item(key).ok().flatten()
}

/// FNV-1a, 64 bits: names an unreadable text's aside key by its content.
fn fnv1a(text: &str) -> u64 {
    crate::fingerprint::fnv1a64(text.as_bytes())
}

/// Whether this tab has saved a session of its own.
pub fn has_saved_session() -> bool {
    local().is_some_and(|s| s.get_item(&session_key()).ok().flatten().is_some())
}

/// Saves the session under this tab's key; an error message when storage refuses.
pub fn save_session(session: &Session) -> Result<(), String> {
    let storage = local().ok_or("this browser has no localStorage: the session is not saved")?;
    let json = encode_json_checked(session).map_err(|e| {
        format!("This session is not saved ({e}); a reload brings back the last one saved.")
    })?;
    let key = session_key();
    storage
        .set_item(&key, &json)
        .map_err(|_| "the browser refused to save the session (storage full?)".to_string())?;
    let _ = storage.set_item(LAST_KEY, &tab_id());
    Ok(())
}

/// This tab's session put aside by the last replacement (Apply, an example...).
fn aside_key() -> String {
    format!("{ASIDE_PREFIX}{}", tab_id())
}

/// The session put aside in this tab, if any (an unreadable one is kept as it is and
/// reported like a saved session).
pub fn load_put_aside() -> Result<Option<PutAside>, Unreadable> {
    let Some(text) = local().and_then(|s| s.get_item(&aside_key()).ok().flatten()) else {
        return Ok(None);
    };
    serde_json::from_str::<PutAside>(&text)
        .map_err(|e| e.to_string())
        .and_then(|a| {
            a.session.validate().map_err(|e| e.to_string())?;
            Ok(Some(a))
        })
        .map_err(|e| keep_aside("session put aside", aside_key(), false, &text, e))
}

/// Saves (or, with `None`, forgets) the session put aside; an error message when storage
/// refuses, so the user knows Undo will not survive a reload.
pub fn save_put_aside(aside: Option<&PutAside>) -> Result<(), String> {
    let storage =
        local().ok_or("this browser has no localStorage: the session put aside is not saved")?;
    match aside {
        None => {
            let _ = storage.remove_item(&aside_key());
            Ok(())
        }
        Some(a) => {
            let json = serde_json::to_string(a).map_err(|e| e.to_string())?;
            storage.set_item(&aside_key(), &json).map_err(|_| {
                "the browser refused to save the session put aside (storage full?); Undo works until a reload".to_string()
            })
        }
    }
}

/// The answer half-typed into `question` before a reload (empty if none, or if it was
/// typed for another question).
pub fn load_answer_draft(question: &str) -> String {
    tab_storage()
        .and_then(|t| t.get_item(ANSWER_DRAFT_KEY).ok().flatten())
        .and_then(|text| serde_json::from_str::<(String, String)>(&text).ok())
        .filter(|(q, _)| q == question)
        .map(|(_, typed)| typed)
        .unwrap_or_default()
}

/// Keeps the answer typed so far into `question` (an empty one removes the draft).
pub fn save_answer_draft(question: &str, typed: &str) {
    let Some(tab) = tab_storage() else { return };
    if typed.is_empty() {
        let _ = tab.remove_item(ANSWER_DRAFT_KEY);
    } else if let Ok(text) = serde_json::to_string(&(question, typed)) {
        let _ = tab.set_item(ANSWER_DRAFT_KEY, &text);
    }
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
    set_fragment(None)
}

/// The full share URL of a session.
pub fn share_url(session: &Session) -> String {
    format!("{}{LINK_PREFIX}{}", page_base(), encode_link(session))
}

/// Copies text to the clipboard (best effort: the link is also shown on the page).
pub fn copy_to_clipboard(text: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.navigator().clipboard().write_text(text);
    }
}

/// Downloads the session as a JSON file.
pub fn download_session(session: &Session) {
    download_text(
        "fixloop-session.json",
        "application/json",
        &encode_json(session),
    )
}

fn work_key(exercise_id: &str) -> String {
    format!("{WORK_PREFIX}{}-{exercise_id}", tab_id())
}

/// The JSON value saved under `key`, if any; unreadable text is kept aside as `what`
/// ([`keep_aside`]), never dropped.
fn load_own_json<T: serde::de::DeserializeOwned>(
    what: &'static str,
    key: String,
) -> Result<Option<T>, Unreadable> {
    let Some(text) = local().and_then(|s| s.get_item(&key).ok().flatten()) else {
        return Ok(None);
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| keep_aside(what, key, true, &text, e.to_string()))
}

/// This tab's saved work on the exercise with this id (see [`load_own_json`]).
pub fn load_work(exercise_id: &str) -> Result<Option<StudentWork>, Unreadable> {
    load_own_json("exercise work", work_key(exercise_id))
}

/// Saves a student's work (under the tab and the exercise) and marks the exercise as
/// this tab's current one.
pub fn save_work(work: &StudentWork) -> Result<(), String> {
    let storage = local().ok_or("this browser has no localStorage: the work is not saved")?;
    let id = work.exercise.id();
    let text = serde_json::to_string(work).map_err(|e| e.to_string())?;
    storage
        .set_item(&work_key(&id), &text)
        .map_err(|_| "the browser refused to save your work (storage full?)".to_string())?;
    if let Some(tab) = tab_storage() {
        let _ = tab.set_item(CURRENT_EXERCISE_KEY, &id);
    }
    Ok(())
}

/// The work this tab was doing at its last save, if it was an exercise.
pub fn current_work() -> Result<Option<StudentWork>, Unreadable> {
    match tab_storage().and_then(|t| t.get_item(CURRENT_EXERCISE_KEY).ok().flatten()) {
        Some(id) => load_work(&id),
        None => Ok(None),
    }
}

/// Student mode was left: a reload opens the playground.
pub fn clear_current_work() {
    if let Some(tab) = tab_storage() {
        let _ = tab.remove_item(CURRENT_EXERCISE_KEY);
    }
}

fn draft_key() -> String {
    format!("{DRAFT_PREFIX}{}", tab_id())
}

/// Where the draft a starter replaced waits (see [`save_draft_aside`]).
fn draft_aside_key() -> String {
    format!("{DRAFT_PREFIX}aside-{}", tab_id())
}

/// This tab's exercise draft, if any (see [`load_own_json`]).
pub fn load_draft() -> Result<Option<Exercise>, Unreadable> {
    load_own_json("exercise draft", draft_key())
}

/// The draft a starter replaced, if any (see [`load_own_json`]).
pub fn load_draft_aside() -> Result<Option<Exercise>, Unreadable> {
    load_own_json("exercise draft put aside", draft_aside_key())
}

/// Saves the exercise draft; an error message when storage refuses.
pub fn save_draft(draft: &Exercise) -> Result<(), String> {
    save_exercise(&draft_key(), "exercise draft", Some(draft))
}

/// Saves (or, for `None`, removes) the draft a starter replaced.
pub fn save_draft_aside(aside: Option<&Exercise>) -> Result<(), String> {
    save_exercise(&draft_aside_key(), "exercise draft put aside", aside)
}

fn save_exercise(key: &str, what: &str, exercise: Option<&Exercise>) -> Result<(), String> {
    let storage = local()
        .ok_or_else(|| format!("this browser has no localStorage: the {what} is not saved"))?;
    let Some(exercise) = exercise else {
        let _ = storage.remove_item(key);
        return Ok(());
    };
    let text = serde_json::to_string(exercise).map_err(|e| e.to_string())?;
    storage
        .set_item(key, &text)
        .map_err(|_| format!("the browser refused to save the {what} (storage full?)"))
}

/// The exercise link in the page's URL, if any (`Some(Err)` when it is damaged).
pub fn exercise_fragment() -> Option<Result<Exercise, ExerciseError>> {
    let hash = web_sys::window()?.location().hash().ok()?;
    hash.strip_prefix(EXERCISE_PREFIX)
        .map(Exercise::decode_link)
}

/// The page's fragment as it is (`#author`, `#teacher`, ...).
pub fn fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Shows `fragment` in the address bar (or none) without navigating.
pub fn set_fragment(fragment: Option<&str>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let (Ok(history), Ok(path)) = (window.history(), window.location().pathname()) {
        let url = format!("{path}{}", fragment.unwrap_or(""));
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The page's address without a fragment (the base of share and exercise links).
pub fn page_base() -> String {
    web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
        })
        .unwrap_or_default()
}

/// The full link of an exercise fragment.
pub fn exercise_url(fragment: &str) -> String {
    format!("{}{EXERCISE_PREFIX}{fragment}", page_base())
}

/// Downloads `text` as a file named `file_name` of type `mime` (a `blob:` URL behind a
/// temporary link: no inline script, nothing leaves the browser).
pub fn download_text(file_name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Some(url) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .ok()
        .and_then(|blob| web_sys::Url::create_object_url_with_blob(&blob).ok())
    else {
        return;
    };
    let anchor = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("a").ok())
        .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlAnchorElement>(e).ok());
    if let Some(a) = anchor {
        a.set_href(&url);
        a.set_download(file_name);
        a.click();
    }
}
