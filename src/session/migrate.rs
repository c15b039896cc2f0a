//! Reading older session versions: dispatch on the `version` field and upgrade step by step to the current one.

use super::error::SessionError;
use super::{Session, CURRENT_VERSION};
use serde_json::Value;

/// The session in `value`, upgraded from its version to [`CURRENT_VERSION`].
///
/// Each format change adds a `vN_to_vN+1` step on the JSON value here (and bumps
/// [`CURRENT_VERSION`]); the fixture `tests/session/v1.json` must keep decoding.
pub fn migrate(value: Value) -> Result<Session, SessionError> {
    let version = match value.get("version") {
        Some(Value::Number(n)) => n
            .as_u64()
            .ok_or_else(|| SessionError::Json("\"version\" is not a positive integer".into()))?,
        Some(_) => return Err(SessionError::Json("\"version\" is not a number".into())),
        None => return Err(SessionError::Json("missing field `version`".into())),
    };
    if version == 0 || version > u64::from(CURRENT_VERSION) {
        return Err(SessionError::UnknownVersion {
            found: version,
            newest: CURRENT_VERSION,
        });
    }
    let mut value = value;
    if version == 1 {
        value = v1_to_v2(value);
    }
    serde_json::from_value(value).map_err(|e| SessionError::Json(e.to_string()))
}

/// Version 2 adds the fuzzer setting (absent: the classic fuzzer version 1 sessions were
/// made with, so they replay as they were), the question budget and the answers to
/// questions that choose between patches (absent: none): only the version changes.
fn v1_to_v2(mut value: Value) -> Value {
    if let Some(map) = value.as_object_mut() {
        map.insert("version".into(), Value::from(2));
    }
    value
}
