//! Session <-> JSON and session <-> share-link fragment (JSON, raw deflate, base64url), with hard limits and typed errors.

use super::error::SessionError;
use super::limits::{MAX_JSON_BYTES, MAX_LINK_CHARS};
use super::migrate::migrate;
use super::Session;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// Deflate level for links (10 is miniz's best ratio; sessions are small).
const DEFLATE_LEVEL: u8 = 10;

/// The session as pretty JSON (export, storage).
pub fn encode_json(session: &Session) -> String {
    // Serialising plain structs of strings and numbers cannot fail.
    serde_json::to_string_pretty(session).unwrap_or_default()
}

/// The session's JSON when [`decode_json`] will read it back: it passes
/// [`Session::validate`] and fits [`MAX_JSON_BYTES`]. The page saves and records nothing
/// that fails this, so a reload never finds the tab's own session unreadable.
pub fn encode_json_checked(session: &Session) -> Result<String, SessionError> {
    session.validate()?;
    let json = encode_json(session);
    if json.len() > MAX_JSON_BYTES {
        return Err(SessionError::Invalid(format!(
            "it would take {} bytes of JSON (at most {MAX_JSON_BYTES})",
            json.len()
        )));
    }
    Ok(json)
}

/// Reads session JSON of any known version, checking size, types and limits.
pub fn decode_json(text: &str) -> Result<Session, SessionError> {
    if text.len() > MAX_JSON_BYTES {
        return Err(SessionError::TooLarge {
            max: MAX_JSON_BYTES,
        });
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| SessionError::Json(e.to_string()))?;
    let session = migrate(value)?;
    session.validate()?;
    Ok(session)
}

/// The share-link fragment of a session: compact JSON, raw deflate, base64url without padding.
pub fn encode_link(session: &Session) -> String {
    pack(session)
}

/// Any serialisable value as a link fragment: compact JSON, raw deflate, base64url
/// without padding (sessions and classroom exercises share this format).
pub fn pack<T: serde::Serialize>(value: &T) -> String {
    let json = serde_json::to_vec(value).unwrap_or_default();
    let packed = miniz_oxide::deflate::compress_to_vec(&json, DEFLATE_LEVEL);
    URL_SAFE_NO_PAD.encode(packed)
}

/// Opens a share-link fragment. Never panics and does bounded work: the length is
/// checked first, and inflating stops at [`MAX_JSON_BYTES`].
pub fn decode_link(fragment: &str) -> Result<Session, SessionError> {
    decode_json(&unpack(fragment)?)
}

/// The JSON text inside a link fragment made by [`pack`], with the same bounds as
/// [`decode_link`]: the length is checked first, and inflating stops at [`MAX_JSON_BYTES`].
pub fn unpack(fragment: &str) -> Result<String, SessionError> {
    let fragment = fragment.trim();
    let chars = fragment.chars().count();
    if chars > MAX_LINK_CHARS {
        return Err(SessionError::LinkTooLong {
            chars,
            max: MAX_LINK_CHARS,
        });
    }
    let packed = URL_SAFE_NO_PAD
        .decode(fragment.trim_end_matches('='))
        .map_err(|e| SessionError::Base64(e.to_string()))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_JSON_BYTES)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => SessionError::TooLarge {
                max: MAX_JSON_BYTES,
            },
            status => SessionError::Deflate(format!("{status:?}")),
        })?;
    String::from_utf8(json).map_err(|_| SessionError::Json("the data is not UTF-8 text".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Answer, Verdict};

    fn sample() -> Session {
        let mut s = Session::new("int main(void) { return 0; }\n", "2 2 2");
        s.started = true;
        s.answers.push(Answer {
            input: "3 3 1".into(),
            verdict: Verdict::Bug,
            expected: Some("isosceles".into()),
        });
        s
    }

    #[test]
    fn link_and_json_round_trip() {
        let s = sample();
        assert_eq!(decode_link(&encode_link(&s)), Ok(s.clone()));
        assert_eq!(decode_json(&encode_json(&s)), Ok(s));
    }

    #[test]
    fn only_sessions_that_read_back_are_encoded_for_saving() {
        let s = sample();
        let json = encode_json_checked(&s).expect("a small session is saved");
        assert_eq!(decode_json(&json), Ok(s.clone()));

        let mut long_program = s.clone();
        long_program.program = "x".repeat(crate::session::limits::MAX_PROGRAM_BYTES + 1);
        let refused = encode_json_checked(&long_program).unwrap_err();
        assert!(matches!(refused, SessionError::Invalid(_)));
        assert_eq!(decode_json(&encode_json(&long_program)), Err(refused));

        // Each answer is within its own limit, together they pass the JSON limit.
        let mut many = s;
        let input = "1234567890 ".repeat(crate::session::limits::MAX_TEXT_BYTES / 11);
        many.answers = vec![
            crate::session::Answer {
                input,
                verdict: Verdict::Ok,
                expected: None,
            };
            80
        ];
        assert!(many.validate().is_ok());
        let refused = encode_json_checked(&many).unwrap_err();
        assert!(refused.to_string().contains("bytes of JSON"), "{refused}");
        assert!(decode_json(&encode_json(&many)).is_err());
    }

    #[test]
    fn a_decompression_bomb_stops_at_the_limit() {
        let zeros = vec![b' '; 64 * MAX_JSON_BYTES];
        let link = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&zeros, 10));
        assert!(link.len() < MAX_LINK_CHARS, "the bomb fits in a link");
        assert_eq!(
            decode_link(&link),
            Err(SessionError::TooLarge {
                max: MAX_JSON_BYTES
            })
        );
    }

    #[test]
    fn hostile_links_give_typed_errors() {
        assert!(matches!(decode_link("@@@"), Err(SessionError::Base64(_))));
        assert!(matches!(
            decode_link(&URL_SAFE_NO_PAD.encode(b"not deflate at all")),
            Err(SessionError::Deflate(_))
        ));
        let pack = |t: &str| {
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(t.as_bytes(), 6))
        };
        assert!(matches!(
            decode_link(&pack(r#"{"version":1,"program":7}"#)),
            Err(SessionError::Json(_))
        ));
        assert!(matches!(
            decode_link(&pack(r#"{"version":99}"#)),
            Err(SessionError::UnknownVersion { found: 99, .. })
        ));
        let mut huge = sample();
        huge.answers = vec![huge.answers[0].clone(); 1500];
        assert!(matches!(
            decode_link(&encode_link(&huge)),
            Err(SessionError::Invalid(_))
        ));
        for pool in [0, 100_000] {
            let mut odd = sample();
            odd.settings.patch_pool = pool;
            match decode_link(&encode_link(&odd)) {
                Err(SessionError::Invalid(m)) => assert!(m.contains("patch pool"), "{m}"),
                other => panic!("patch pool {pool}: {other:?}"),
            }
        }
        let long = "A".repeat(MAX_LINK_CHARS + 1);
        assert!(matches!(
            decode_link(&long),
            Err(SessionError::LinkTooLong { .. })
        ));
    }
}
