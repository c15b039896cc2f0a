//! Fuzz target `session`: random bytes, truncated and bit-flipped real links, decompression bombs and ill-typed JSON through the session and exercise decoders.

use super::mutate::{mutate_bytes, random_bytes};
use super::{Target, Violation};
use crate::exercise::Exercise;
use crate::session::codec::{decode_json, decode_link, encode_link, pack};
use crate::session::examples::EXAMPLES;
use crate::session::limits::MAX_JSON_BYTES;
use crate::session::{Answer, Verdict};
use rand::rngs::StdRng;
use rand::RngExt;

pub(super) const TARGET: Target = Target {
    name: "session",
    about: "session and exercise links and JSON: random bytes, truncated / bit-flipped real links, bombs, wrong types, huge arrays",
    generate,
    check,
};

/// The first byte of an input says which decoder reads the rest.
const SESSION_LINK: u8 = b'L';
const SESSION_JSON: u8 = b'J';
const EXERCISE_LINK: u8 = b'X';

/// A real session link: a gallery example with a few answers.
fn real_link(rng: &mut StdRng) -> String {
    let mut s = EXAMPLES[rng.random_range(0..EXAMPLES.len())].session();
    s.started = rng.random_range(0..4) != 0;
    if s.started {
        for i in 0..rng.random_range(0..6) {
            s.answers.push(Answer {
                input: format!("{i} {} 3", i + 1),
                verdict: [Verdict::Bug, Verdict::Ok, Verdict::Skip][rng.random_range(0..3)],
                expected: None,
            });
        }
    }
    encode_link(&s)
}

/// JSON with the right keys and hostile values.
fn hostile_json(rng: &mut StdRng) -> String {
    let program = match rng.random_range(0..3) {
        0 => "7".to_string(),
        1 => format!("\"{}\"", "x".repeat(rng.random_range(0..200_000))),
        _ => "\"int main(){return 0;}\"".to_string(),
    };
    let answers = match rng.random_range(0..3) {
        0 => format!(
            "[{}]",
            vec!["{\"input\":\"1\",\"verdict\":\"bug\"}"; rng.random_range(0..3000)].join(",")
        ),
        1 => "{\"a\":1}".to_string(),
        _ => "[]".to_string(),
    };
    let version =
        ["1", "0", "-1", "2", "1.5", "\"1\"", "18446744073709551616"][rng.random_range(0..7)];
    format!(
        "{{\"version\":{version},\"program\":{program},\"failing_input\":\"2 2 2\",\
         \"settings\":{{\"label_budget\":{},\"committee\":{},\"seed\":{}}},\
         \"started\":true,\"answers\":{answers}}}",
        rng.random_range(-5i64..1_000_000),
        rng.random_range(-5i64..100),
        rng.random_range(0u64..u64::MAX)
    )
}

fn generate(rng: &mut StdRng, _corpus: &[String]) -> Vec<u8> {
    let decoder = [SESSION_LINK, SESSION_JSON, EXERCISE_LINK][rng.random_range(0..3)];
    let body: Vec<u8> = match rng.random_range(0..6) {
        0 => {
            let len = rng.random_range(0..300);
            random_bytes(rng, len)
        }
        1 => {
            // A real link, truncated or with flipped / inserted bytes.
            let mut link = real_link(rng).into_bytes();
            if rng.random_range(0..2) == 0 {
                link.truncate(rng.random_range(0..=link.len()));
            } else {
                mutate_bytes(rng, &mut link, 4);
            }
            link
        }
        2 => {
            // A bomb: far more than the inflate limit of one repeated byte.
            let zeros = vec![b' '; MAX_JSON_BYTES * rng.random_range(1..8) + 1];
            pack(&String::from_utf8_lossy(&zeros)).into_bytes()
        }
        3 if decoder == SESSION_JSON => hostile_json(rng).into_bytes(),
        3 => {
            pack(&serde_json::from_str::<serde_json::Value>(&hostile_json(rng)).unwrap_or_default())
                .into_bytes()
        }
        4 => real_link(rng).into_bytes(),
        _ => {
            // Valid deflate of mutated JSON.
            let mut json = serde_json::to_vec(&EXAMPLES[0].session()).unwrap_or_default();
            mutate_bytes(rng, &mut json, 3);
            let packed = miniz_oxide::deflate::compress_to_vec(&json, 6);
            base64::Engine::encode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, packed)
                .into_bytes()
        }
    };
    let mut input = vec![decoder];
    input.extend(body);
    input
}

fn check(input: &[u8]) -> Result<(), Violation> {
    let Some((&decoder, body)) = input.split_first() else {
        return Ok(());
    };
    let text = String::from_utf8_lossy(body);
    let invariant = |m: String| Err(Violation::Invariant(m));
    match decoder {
        EXERCISE_LINK => {
            if let Ok(e) = Exercise::decode_link(&text) {
                if Exercise::decode_link(&e.encode_link()).as_ref() != Ok(&e) {
                    return invariant("an opened exercise does not round-trip".into());
                }
            }
        }
        SESSION_JSON => {
            if let Ok(s) = decode_json(&text) {
                if s.validate().is_err() || decode_link(&encode_link(&s)).as_ref() != Ok(&s) {
                    return invariant(
                        "an accepted session JSON is invalid or does not round-trip".into(),
                    );
                }
            }
        }
        _ => {
            if let Ok(s) = decode_link(&text) {
                if s.validate().is_err() || decode_link(&encode_link(&s)).as_ref() != Ok(&s) {
                    return invariant("an opened link is invalid or does not round-trip".into());
                }
            }
        }
    }
    Ok(())
}
