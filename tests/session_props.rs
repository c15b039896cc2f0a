//! Session codec properties: any valid session round-trips; random, truncated and bit-flipped links never panic.
#![cfg(not(target_arch = "wasm32"))]

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use fixloop::session::examples::EXAMPLES;
use fixloop::session::{
    decode_json, decode_link, encode_json, encode_json_checked, encode_link, Answer, Session,
    Verdict,
};
use proptest::prelude::*;

fn answer() -> impl Strategy<Value = Answer> {
    (
        "[-0-9 ]{0,20}",
        prop_oneof![Just(Verdict::Bug), Just(Verdict::Ok), Just(Verdict::Skip)],
        proptest::option::of("\\PC{0,30}"),
    )
        .prop_map(|(input, verdict, expected)| Answer {
            input,
            verdict,
            expected: if verdict == Verdict::Bug {
                expected
            } else {
                None
            },
        })
}

fn session() -> impl Strategy<Value = Session> {
    (
        "\\PC{0,400}",
        "[-0-9. ]{0,30}",
        proptest::collection::vec(answer(), 0..40),
        (1usize..=200, 1usize..=50, any::<u64>()),
        proptest::option::of("\\PC{0,20}"),
    )
        .prop_map(
            |(program, failing, answers, (budget, committee, seed), expected)| {
                let mut s = Session::new(program, failing);
                s.started = !answers.is_empty();
                s.answers = answers;
                s.expected_output = expected;
                s.settings.label_budget = budget;
                s.settings.committee = committee;
                s.settings.seed = seed;
                s
            },
        )
}

/// A real link to damage.
fn real_link() -> String {
    let mut s = EXAMPLES[0].session();
    s.started = true;
    s.answers.push(Answer {
        input: "3 3 3".into(),
        verdict: Verdict::Bug,
        expected: Some("equilateral".into()),
    });
    s.answers.push(Answer {
        input: "3 4 5".into(),
        verdict: Verdict::Ok,
        expected: None,
    });
    encode_link(&s)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn sessions_round_trip(s in session()) {
        prop_assert_eq!(decode_link(&encode_link(&s)), Ok(s.clone()));
        prop_assert_eq!(decode_json(&encode_json(&s)), Ok(s.clone()));
        // What the page saves reads back.
        let saved = encode_json_checked(&s);
        prop_assert!(saved.is_ok());
        prop_assert_eq!(decode_json(&saved.unwrap()), Ok(s));
    }

    #[test]
    fn random_text_and_bytes_never_panic(text in "\\PC{0,200}", bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = decode_link(&text);
        let _ = decode_json(&text);
        let _ = decode_link(&URL_SAFE_NO_PAD.encode(&bytes));
        let deflated = miniz_oxide::deflate::compress_to_vec(&bytes, 6);
        let _ = decode_link(&URL_SAFE_NO_PAD.encode(deflated));
    }

    #[test]
    fn truncated_and_bit_flipped_links_never_panic(cut in 0usize..2000, flips in proptest::collection::vec((0usize..2000, 0u8..8), 1..4)) {
        let link = real_link();
        let _ = decode_link(&link[..cut.min(link.len())]);
        let mut packed = URL_SAFE_NO_PAD.decode(&link).unwrap();
        for (at, bit) in flips {
            let i = at % packed.len();
            packed[i] ^= 1 << bit;
        }
        let _ = decode_link(&URL_SAFE_NO_PAD.encode(&packed));
    }
}
