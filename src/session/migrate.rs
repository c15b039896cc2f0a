//! Reading older session versions: dispatch on the `version` field and upgrade step by step to the current one.

use super::codec::SessionError;
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
    // Version 1 is the current format: no upgrade steps yet.
    serde_json::from_value(value).map_err(|e| SessionError::Json(e.to_string()))
}
