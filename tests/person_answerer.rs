//! The page's loop answered as a person answers (the expected output left blank, Bug or Not a bug, an output only when a question asks for one): outputs asked when repair needs them, boundary questions before a claim, "the fix" only when it is right, a next step at every dead end, and sessions made before keep replaying as made.

mod common;

use common::{triangle_reference, TRIANGLE_FUNCTION};
use fixloop::active::num::parse_input;
use fixloop::active::reference::Answerer;
use fixloop::lang::{compile, Limits, Num};
use fixloop::session::autopilot::{fly, reference_user, Flight};
use fixloop::session::protocol::NextStep;
use fixloop::session::{decode_json, encode_json, Asking, Session, Settings};

/// Blackjack points (Codeflaws 104-A, a bug we were told about, not one of the corpus's):
/// 0 points are needed for every n > 21, which the program gets wrong.
const BLACKJACK: &str = "#include <stdio.h>\nint main(void) {\n    int n;\n    scanf(\"%d\", &n);\n    if (n <= 10) printf(\"0\");\n    else if (n - 10 == 10) printf(\"15\");\n    else printf(\"4\");\n    return 0;\n}\n";

fn blackjack_reference() -> String {
    BLACKJACK.replace("if (n <= 10)", "if (n <= 10 || n > 21)")
}

/// The page's session of `buggy` from `failing` with `seed`, `reference` answering as a
/// person.
fn flight(buggy: &str, reference: &str, failing: &str, seed: u64) -> Flight {
    let mut user = reference_user(reference, failing)
        .expect("reference compiles")
        .answering_as(Answerer::Person);
    let mut session = Session::new(buggy, failing);
    session.settings = Settings {
        seed,
        ..Settings::default()
    };
    session.expected_output = user.volunteered_output(&parse_input(failing).unwrap());
    assert_eq!(
        session.expected_output, None,
        "a person leaves the box blank"
    );
    let f = fly(session, &mut user).expect("the loop runs");
    assert_short_sentences(&f.repair.verdict);
    for p in &f.repair.patches {
        assert_short_sentences(&p.checks);
    }
    f
}

/// The page's words about patches come in short sentences: none longer than this.
const MOST_WORDS_IN_A_SENTENCE: usize = 30;

fn assert_short_sentences(text: &str) {
    for sentence in text.split(". ") {
        let words = sentence.split_whitespace().count();
        assert!(
            words <= MOST_WORDS_IN_A_SENTENCE,
            "a sentence of {words} words: {sentence:?}\nin {text:?}"
        );
    }
}

/// Whether `patched` prints what `reference` prints on every input of `inputs`.
fn agrees(patched: &str, reference: &str, inputs: impl Iterator<Item = Vec<Num>>) -> bool {
    let (p, r) = (compile(patched).unwrap(), compile(reference).unwrap());
    let limits = Limits::default();
    inputs
        .into_iter()
        .all(|i| p.run_test(&i, &limits).stdout == r.run_test(&i, &limits).stdout)
}

#[test]
fn the_right_output_of_the_failing_input_is_asked_first_and_no_label_carries_one() {
    let reference = triangle_reference(TRIANGLE_FUNCTION);
    let f = flight(TRIANGLE_FUNCTION, &reference, "2 2 2", 1);
    assert!(f.session.answers.iter().all(|a| a.expected.is_none()));
    // Repair asked what 2 2 2 should print before anything else, and the person said.
    assert_eq!(f.kinds.first().map(String::as_str), Some("output"));
    assert_eq!(f.session.choices[0].input, "2 2 2");
    assert_eq!(
        f.session.choices[0].output.as_deref().map(str::trim),
        Some("1")
    );
    assert!(f.repair.outputs_asked >= 1);
    assert!(f.repair.outputs_asked <= f.repair.questions_used);
    let top = f.repair.patches.first().expect("a patch");
    let grid = (1..=6).flat_map(|a| {
        (1..=6).flat_map(move |b| (1..=6).map(move |c| vec![Num::Int(a), Num::Int(b), Num::Int(c)]))
    });
    assert!(agrees(&top.source, &reference, grid), "{}", top.diff);
}

#[test]
fn a_patch_that_moved_a_boundary_is_asked_about_beside_it_and_called_the_fix_only_when_right() {
    let reference = blackjack_reference();
    let mut boundary_asked = 0;
    for seed in 1..=6 {
        let f = flight(BLACKJACK, &reference, "25", seed);
        boundary_asked += f.kinds.iter().filter(|k| *k == "boundary").count();
        let Some(top) = f.repair.patches.first() else {
            continue;
        };
        let right = agrees(
            &top.source,
            &reference,
            (-5..=60).map(|n| vec![Num::Int(n)]),
        );
        assert!(
            right || !f.repair.settled,
            "seed {seed}: a wrong patch called the fix: {}\n{}",
            f.repair.verdict,
            top.diff
        );
        if !f.repair.settled {
            assert!(
                !f.repair.verdict.contains("is the fix"),
                "{}",
                f.repair.verdict
            );
            assert!(!f.repair.next_steps.is_empty(), "seed {seed}: no next step");
        }
    }
    assert!(boundary_asked > 0, "no boundary question in six seeds");
}

#[test]
fn a_dead_end_names_the_next_step() {
    // The gallery's median needs two conditions fixed, beyond one edit: as a person
    // answers, no patch passes every test, and the page says what would help.
    let buggy = include_str!("../src/exercise/gallery/median-buggy.c");
    let reference = include_str!("../src/exercise/gallery/median-reference.c");
    let f = flight(buggy, reference, "6 8 2", 1);
    if f.repair.patches.is_empty() {
        assert!(
            f.repair.verdict.starts_with("No patch"),
            "{}",
            f.repair.verdict
        );
        assert!(
            f.repair.next_steps.contains(&NextStep::MoreLabels),
            "{:?}",
            f.repair.next_steps
        );
        assert!(f.repair.next_steps.contains(&NextStep::SetRanges));
    } else {
        assert!(f.repair.settled || !f.repair.next_steps.is_empty());
    }
}

#[test]
fn sessions_written_before_asking_as_a_person_replay_as_they_were_asked() {
    let mut session = Session::new(BLACKJACK, "25");
    session.started = true;
    let json = encode_json(&session);
    assert!(
        json.contains("\"asking\""),
        "new sessions record how they ask: {json}"
    );
    // The same session written before the setting existed: no `asking` field.
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    value["settings"].as_object_mut().unwrap().remove("asking");
    let old = decode_json(&value.to_string()).unwrap();
    assert_eq!(old.settings.asking, Asking::Legacy);
    assert!(
        !encode_json(&old).contains("\"asking\""),
        "it keeps its JSON"
    );
    // Asked as before: the first question may be anywhere (a far one at this seed), not
    // only near the failing input.
    let mut replayer = fixloop::session::Replayer::new();
    let now = replayer.view(&session).unwrap().query.unwrap().reason;
    let before = replayer.view(&old).unwrap().query.unwrap().reason;
    assert!(
        now.starts_with("it is most like the failing input"),
        "{now}"
    );
    assert!(!before.contains("failing input"), "{before}");
}
