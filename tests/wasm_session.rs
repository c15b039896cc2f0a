//! The session codec and the worker protocol compiled to wasm32 and run by wasm-bindgen-test in headless Chromium (chromedriver).
#![cfg(target_arch = "wasm32")]

use fixloop::session::examples::EXAMPLES;
use fixloop::session::protocol::{WorkerRequest, WorkerResponse, WorkerState};
use fixloop::session::{decode_link, encode_link, Answer, SessionError, Verdict};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

// The bar asks for these in a browser: with CHROMEDRIVER set, Debian's Chromium runs them.
wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn session_links_round_trip_and_refuse_bombs_in_wasm() {
    let mut s = EXAMPLES[0].session();
    s.started = true;
    s.answers.push(Answer {
        input: "3 3 3".into(),
        verdict: Verdict::Bug,
        expected: Some("equilateral".into()),
    });
    assert_eq!(decode_link(&encode_link(&s)), Ok(s));
    let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 8 << 20], 10);
    use base64::Engine;
    let link = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bomb);
    assert!(matches!(
        decode_link(&link),
        Err(SessionError::TooLarge { .. })
    ));
    assert!(matches!(decode_link("%%%"), Err(SessionError::Base64(_))));
}

#[wasm_bindgen_test]
fn worker_messages_round_trip_and_replay_in_wasm() {
    let mut session = EXAMPLES[0].session();
    session.started = true;
    session.settings.label_budget = 2;
    let request = WorkerRequest::Sync { id: 9, session };
    assert_eq!(
        WorkerRequest::from_json(&request.to_json()),
        Ok(request.clone())
    );
    let mut answers = Vec::new();
    WorkerState::new().handle_text(&request.to_json(), &mut |t| answers.push(t));
    let Ok(WorkerResponse::Loop { id, view }) = WorkerResponse::from_json(&answers[0]) else {
        panic!("{answers:?}");
    };
    assert_eq!(id, 9);
    assert_eq!(view.points[0].input, "2 2 2");
    assert_eq!(
        WorkerResponse::from_json(&WorkerResponse::Ready.to_json()),
        Ok(WorkerResponse::Ready)
    );
}
