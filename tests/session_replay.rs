//! Playground sessions natively: gallery examples show their bug, a session replays to the same loop, v1 links keep opening.

use fixloop::lang::compile;
use fixloop::session::examples::EXAMPLES;
use fixloop::session::replay::{fresh_loop, playground_limits};
use fixloop::session::{
    decode_json, decode_link, encode_link, Answer, ReplayError, Replayer, Session, Verdict,
};

/// The correct triangle classifier (what the buggy example should print).
fn triangle(input: &str) -> &'static str {
    let v: Vec<i64> = input
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let (a, b, c) = (v[0], v[1], v[2]);
    if a <= 0 || b <= 0 || c <= 0 || a >= b + c || b >= a + c || c >= a + b {
        "invalid"
    } else if a == b && b == c {
        "equilateral"
    } else if a == b || b == c || a == c {
        "isosceles"
    } else {
        "scalene"
    }
}

/// The correct "sum 1..n" (what the loop example should print).
fn sum_to_n(input: &str) -> String {
    let n: i64 = input.trim().parse().unwrap();
    format!("{}", if n >= 1 { n * (n + 1) / 2 } else { 0 })
}

/// Answers every question of a triangle session like a careful student; returns the
/// finished session.
fn answered_triangle_session(budget: usize, seed: u64) -> Session {
    answered_session("triangle", budget, seed, |i| triangle(i).to_string())
}

/// Answers every question of an example's session with the correct program `right`.
fn answered_session(example: &str, budget: usize, seed: u64, right: fn(&str) -> String) -> Session {
    let mut session = fixloop::session::examples::find(example).unwrap().session();
    session.settings.label_budget = budget;
    session.settings.seed = seed;
    session.started = true;
    let mut replayer = Replayer::new();
    for _ in 0..budget + 5 {
        let view = replayer.view(&session).expect("replays");
        let Some(q) = view.query else { break };
        let right = right(&q.input);
        let bug = q.output.trim() != right;
        session.answers.push(Answer {
            input: q.input.clone(),
            verdict: if bug { Verdict::Bug } else { Verdict::Ok },
            expected: bug.then_some(right),
        });
    }
    session
}

#[test]
fn every_example_compiles_and_fails_on_its_input() {
    for ex in EXAMPLES {
        let program = compile(ex.program).unwrap_or_else(|e| panic!("{}: {e}", ex.id));
        let input: Vec<_> = ex
            .failing_input
            .split_whitespace()
            .map(|t| fixloop::lang::Num::Int(t.parse().unwrap()))
            .collect();
        let out = program.run_test(&input, &playground_limits());
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_ne!(
            stdout.trim(),
            ex.expected_output,
            "{}: the bug must show",
            ex.id
        );
        let mut s = ex.session();
        s.started = true;
        assert!(fresh_loop(&s).is_ok(), "{}", ex.id);
    }
}

#[test]
fn a_shared_session_replays_to_the_same_tests_and_oracle() {
    let session = answered_triangle_session(6, 11);
    assert!(session.labels_used() >= 1);
    let link = encode_link(&session);
    let opened = decode_link(&link).expect("opens");
    assert_eq!(opened, session);

    // Incremental (as the page did it) vs from scratch (as a fresh tab does it).
    let mut incremental = Replayer::new();
    let mut partial = session.clone();
    partial.answers.clear();
    for a in &session.answers {
        partial.answers.push(a.clone());
        incremental.sync(&partial).expect("replays");
    }
    let mut scratch = Replayer::new();
    let a = incremental.view(&session).unwrap();
    let b = scratch.view(&opened).unwrap();
    assert_eq!(a, b);
    let ga = incremental.sync(&session).unwrap().generated().to_vec();
    let gb = scratch.sync(&opened).unwrap().generated().to_vec();
    assert_eq!(ga, gb);
    assert!(!a.formula.is_empty());
    // A different seed asks different questions (the seed really drives the loop).
    let other = answered_triangle_session(6, 12);
    assert_ne!(other.answers, session.answers);
}

#[test]
fn an_answer_to_another_question_does_not_replay() {
    let mut session = answered_triangle_session(3, 5);
    session.answers[0].input = "9 9 9 9".into();
    let err = Replayer::new().view(&session).unwrap_err();
    assert!(
        matches!(err, ReplayError::Diverged { index: 1, .. }),
        "{err}"
    );
    let mut bad = EXAMPLES[0].session();
    bad.started = true;
    bad.program = "int main(void) {\n  int x = 1\n  return x;\n}\n".into();
    assert!(matches!(
        Replayer::new().view(&bad),
        Err(ReplayError::Compile(m)) if m.contains("2:")
    ));
}

#[test]
fn version_1_sessions_keep_opening() {
    let json = include_str!("session/v1.json");
    let s = decode_json(json).expect("v1 JSON decodes");
    assert_eq!(s.failing_input, "2 2 2");
    assert_eq!(s.answers.len(), 2);
    assert_eq!(s.settings.seed, 42);
    // The link fixture is written once from the JSON (UPDATE_EXPECT=1) and then frozen:
    // later encoders may change, these bytes must keep opening.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/session/v1.link");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(path, encode_link(&s)).unwrap();
    }
    let link = std::fs::read_to_string(path).expect("tests/session/v1.link");
    let link = link.trim();
    assert_eq!(decode_link(link), Ok(s));
}

#[test]
fn the_worker_repairs_a_labelled_loop_session() {
    use fixloop::session::protocol::{WorkerRequest, WorkerResponse, WorkerState};
    let session = answered_session("sum-to-n", 6, 3, sum_to_n);
    let mut out = Vec::new();
    WorkerState::new().handle(WorkerRequest::Repair { id: 1, session }, &mut |r| {
        out.push(r)
    });
    let Some(WorkerResponse::RepairDone { view, .. }) = out.last() else {
        panic!("{out:?}");
    };
    // The page hears that repair began before any test ran, then of the first executions
    // one by one (a slow program's progress shows from the first second).
    let progress: Vec<u64> = out
        .iter()
        .filter_map(|r| match r {
            WorkerResponse::RepairProgress { progress, .. } => Some(progress.executions),
            _ => None,
        })
        .collect();
    assert!(
        matches!(out[0], WorkerResponse::Loop { .. }),
        "{:?}",
        out[0]
    );
    assert!(
        matches!(out[1], WorkerResponse::RepairProgress { .. }),
        "{:?}",
        out[1]
    );
    assert_eq!(progress[0], 0, "{progress:?}");
    assert!(progress.contains(&1), "{progress:?}");
    let (patches, stop) = (&view.patches, &view.stop);
    assert!(!patches.is_empty(), "no patch ({stop})");
    let top = &patches[0];
    assert_eq!(top.passed, top.total, "{}", top.diff);
    assert!(top.changes.iter().all(|c| c.passes), "{:?}", top.changes);
    assert!(
        top.diff.contains('+') && top.source.contains("i <= n"),
        "{}",
        top.diff
    );
}

#[test]
fn a_question_whose_run_overflows_carries_a_warning_with_the_line() {
    // `a + 2147483647` overflows `int` exactly when a > 0.
    let program = "#include <stdio.h>\nint main(void) {\n  int a;\n  scanf(\"%d\", &a);\n  printf(\"%d\\n\", a + 2147483647);\n  return 0;\n}\n";
    let mut session = Session::new(program, "5");
    session.settings.label_budget = 12;
    // Asked as sessions were before questions near the failing input came first, so
    // the questions reach both sides of 0 within the budget.
    session.settings.asking = fixloop::session::Asking::Legacy;
    session.started = true;
    let (mut warned, mut plain) = (0, 0);
    let mut replayer = Replayer::new();
    for _ in 0..20 {
        let Some(q) = replayer.view(&session).expect("replays").query else {
            break;
        };
        let a: i64 = q.input.trim().parse().expect("one integer");
        if a > 0 {
            let w = q
                .warning
                .as_deref()
                .unwrap_or_else(|| panic!("no warning on {a}"));
            // The first undefined behaviour: `scanf` storing a number `int` cannot hold,
            // else the addition.
            let what = if i32::try_from(a).is_ok() {
                "signed integer overflow at line 5"
            } else {
                "a number read does not fit its type at line 4"
            };
            assert!(w.contains(what), "{a}: {w}");
            warned += 1;
        } else if a >= i64::from(i32::MIN) {
            assert_eq!(q.warning, None, "input {a}");
            plain += 1;
        }
        session.answers.push(Answer {
            input: q.input.clone(),
            verdict: if q.warning.is_some() {
                Verdict::Skip
            } else {
                Verdict::Ok
            },
            expected: None,
        });
    }
    assert!(warned > 0 && plain > 0, "warned {warned}, plain {plain}");
}

/// The triangle example flown to the end by its reference (labels and questions about
/// patches), the session as the page saved it.
fn flown_triangle(seed: u64) -> fixloop::session::autopilot::Flight {
    use fixloop::session::autopilot::{fly, reference_user};
    let ex = &EXAMPLES[0];
    let reference = ex.program.replace("a == b == c", "a == b && b == c");
    let mut user = reference_user(&reference, ex.failing_input).unwrap();
    let mut session = ex.session();
    session.settings.seed = seed;
    fly(session, &mut user).expect("flies")
}

/// The repair view a fresh worker gives for `session` (as after a reload or a link).
fn fresh_worker_view(session: &Session) -> fixloop::session::protocol::RepairView {
    use fixloop::session::protocol::{WorkerRequest, WorkerResponse, WorkerState};
    let mut out = Vec::new();
    WorkerState::new().handle(WorkerRequest::for_session(9, session.clone()), &mut |r| {
        out.push(r)
    });
    assert!(
        matches!(out.first(), Some(WorkerResponse::Loop { id: 9, .. })),
        "the loop view comes first: {out:?}"
    );
    match out.last() {
        Some(WorkerResponse::RepairDone { view, .. }) => view.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn answers_about_patches_survive_reload_and_links_exactly() {
    // A seed whose triangle needs at least one question about patches.
    let flight = (1..=6)
        .map(flown_triangle)
        .find(|f| !f.session.choices.is_empty())
        .expect("some seed asks about patches");
    let session = &flight.session;
    assert!(session.repaired);
    // Reload: the saved JSON, replayed by a fresh worker, shows the same patches and the
    // same (absent) next question.
    let reloaded = decode_json(&fixloop::session::encode_json(session)).unwrap();
    assert_eq!(&reloaded, session);
    assert_eq!(fresh_worker_view(&reloaded), flight.repair);
    // Share link: the same.
    let linked = decode_link(&encode_link(session)).unwrap();
    assert_eq!(&linked, session);
    assert_eq!(fresh_worker_view(&linked), flight.repair);
    // Replayed up to each answer, the next question is the one that was answered.
    for k in 0..session.choices.len() {
        let mut partial = session.clone();
        partial.choices.truncate(k);
        let view = fresh_worker_view(&partial);
        let asked = view.choice.expect("a question was pending");
        assert_eq!(asked.input, session.choices[k].input, "question {}", k + 1);
    }
}

#[test]
fn an_edited_answer_about_patches_is_a_typed_replay_error() {
    use fixloop::session::protocol::{WorkerRequest, WorkerResponse, WorkerState};
    let flight = (1..=6)
        .map(flown_triangle)
        .find(|f| !f.session.choices.is_empty())
        .expect("some seed asks about patches");
    let mut session = flight.session;
    session.choices[0].input = "99 98 97".into();
    let mut out = Vec::new();
    WorkerState::new().handle(WorkerRequest::for_session(3, session), &mut |r| out.push(r));
    match out.last() {
        Some(WorkerResponse::Failed { message, .. }) => {
            assert!(
                message.contains("answer 1 about patches does not replay"),
                "{message}"
            );
            assert!(message.contains("99 98 97"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn version_1_sessions_keep_the_fuzzer_they_were_made_with() {
    use fixloop::session::Fuzzer;
    let v1 = decode_json(include_str!("session/v1.json")).unwrap();
    assert_eq!(v1.version, fixloop::session::CURRENT_VERSION);
    assert_eq!(v1.settings.fuzzer, Fuzzer::Classic);
    // A new session uses the neighbourhood fuzzer and says so in its JSON.
    let fresh = EXAMPLES[0].session();
    assert_eq!(fresh.settings.fuzzer, Fuzzer::Neighbourhood);
    let json = fixloop::session::encode_json(&fresh);
    assert!(json.contains("\"fuzzer\": \"neighbourhood\""), "{json}");
    assert_eq!(decode_json(&json).unwrap(), fresh);
}

#[test]
fn sessions_written_before_the_patch_pool_keep_the_pool_of_ten() {
    use fixloop::session::DEFAULT_PATCH_POOL;
    // A link from before the setting replays its repair (and so its answers about
    // patches) with the 10 plausible patches it was made with.
    let v1 = decode_json(include_str!("session/v1.json")).unwrap();
    assert_eq!(v1.settings.patch_pool, 10);
    let json = fixloop::session::encode_json(&v1);
    assert!(!json.contains("patch_pool"), "{json}");
    // A new session collects the engines' default pool and records it.
    let fresh = EXAMPLES[0].session();
    assert_eq!(fresh.settings.patch_pool, DEFAULT_PATCH_POOL);
    assert_ne!(DEFAULT_PATCH_POOL, 10);
    let json = fixloop::session::encode_json(&fresh);
    assert!(
        json.contains(&format!("\"patch_pool\": {DEFAULT_PATCH_POOL}")),
        "{json}"
    );
    assert_eq!(decode_json(&json).unwrap(), fresh);
}

#[test]
fn a_patch_left_alone_by_the_answers_says_the_others_were_ruled_out() {
    use fixloop::session::autopilot::{fly, reference_user};
    // `x > 10` should be `x >= 10`; from the failing input 10 the search finds several
    // plausible patches, and the answers about patches rule out all but one.
    let buggy = "#include <stdio.h>\nint main(void) {\n    int x;\n    scanf(\"%d\", &x);\n    if (x > 10)\n        printf(\"big\\n\");\n    else\n        printf(\"small\\n\");\n    return 0;\n}\n";
    let reference = buggy.replace("x > 10", "x >= 10");
    let flights: Vec<_> = (1..=4)
        .map(|seed| {
            let mut user = reference_user(&reference, "10").unwrap();
            let mut session = Session::new(buggy, "10");
            session.settings.seed = seed;
            session.settings.label_budget = 6;
            session.expected_output = user.right_output(&[fixloop::lang::Num::Int(10)]);
            fly(session, &mut user).expect("flies")
        })
        .collect();
    let pruned: Vec<_> = flights
        .iter()
        .filter(|f| !f.session.choices.is_empty() && f.repair.patches.len() == 1)
        .collect();
    assert!(
        !pruned.is_empty(),
        "no seed asked about patches and kept one"
    );
    for f in pruned {
        let verdict = &f.repair.verdict;
        assert!(verdict.contains("ruled out the other"), "{verdict}");
        assert!(
            !verdict.contains("no other plausible patch was found"),
            "{verdict}"
        );
    }
}

#[test]
fn a_patch_the_oracle_still_doubts_is_asked_about_before_it_is_called_the_fix() {
    use fixloop::active::num::parse_input;
    use fixloop::repair::choose::{QuestionKind, UPHELD_DOUBTS};
    use fixloop::session::autopilot::{fly, reference_user};
    // The gallery's median needs two conditions fixed; from `6 8 2` the learned oracle is
    // rough, so the patches it accepts are often doubted on fresh inputs.
    let buggy = include_str!("../src/exercise/gallery/median-buggy.c");
    let reference = include_str!("../src/exercise/gallery/median-reference.c");
    let mut doubts_asked = 0;
    for seed in 1..=3 {
        let mut user = reference_user(reference, "6 8 2").unwrap();
        let mut session = Session::new(buggy, "6 8 2");
        session.settings.seed = seed;
        // The doubts of sessions asked as before (a session asked as a person is doubts
        // only where the oracle tells outputs apart: tests/person_answerer.rs).
        session.settings.asking = fixloop::session::Asking::Legacy;
        session.expected_output = user.right_output(&parse_input("6 8 2").unwrap());
        let flight = fly(session, &mut user).expect("flies");
        let verdict = &flight.repair.verdict;
        if flight.repair.settled {
            // Called the fix only when the oracle doubts none of its outputs or the user
            // kept them where it did.
            let kept = format!("you kept its output on {UPHELD_DOUBTS} input(s)");
            assert!(
                verdict.contains(&kept) || !verdict.contains("doubted"),
                "{verdict}"
            );
        }
        // Replayed up to each answer, the pending question says why it is asked.
        for k in 0..flight.session.choices.len() {
            let mut partial = flight.session.clone();
            partial.choices.truncate(k);
            let asked = fresh_worker_view(&partial).choice.expect("pending");
            assert_eq!(asked.input, flight.session.choices[k].input);
            assert!(!asked.ask.is_empty());
            doubts_asked += usize::from(asked.ask == QuestionKind::Doubt.ask());
        }
    }
    assert!(doubts_asked > 0, "no seed asked about a doubted output");
}

#[test]
fn a_failing_input_that_runs_past_the_step_limit_is_said_before_the_first_answer() {
    use fixloop::session::protocol::{WorkerRequest, WorkerResponse, WorkerState};
    let looping = "#include <stdio.h>\nint main(void) {\n    int n;\n    scanf(\"%d\", &n);\n    while (n != 0)\n        n = n - 2;\n    printf(\"done\\n\");\n    return 0;\n}\n";
    let view_of = |session: Session| {
        let mut out = Vec::new();
        WorkerState::new().handle(WorkerRequest::for_session(4, session), &mut |r| out.push(r));
        match out.into_iter().next() {
            Some(WorkerResponse::Loop { view, .. }) => view,
            other => panic!("{other:?}"),
        }
    };
    let mut stuck = Session::new(looping, "5");
    stuck.started = true;
    let view = view_of(stuck);
    let warning = view.failing_warning.expect("a warning");
    assert!(warning.contains("failing input 5"), "{warning}");
    assert!(warning.contains("step limit"), "{warning}");
    // Even inputs end: no warning, and the questions show how each run ended.
    let mut fine = Session::new(looping, "4");
    fine.started = true;
    fine.expected_output = Some("finished\n".into());
    let view = view_of(fine);
    assert_eq!(view.failing_warning, None);
}
