//! Classroom exercises end to end on the CLI: old links keep opening, `exercise make`
//! prints a link that opens, and `exercise check` accepts a genuine report and flags a
//! tampered one.

use fixloop::exercise::report::{FixOrigin, Work};
use fixloop::exercise::{Exercise, Report};
use fixloop::session::{Answer, Verdict};
use std::path::PathBuf;
use std::process::Command;

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/exercise")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn fixloop() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fixloop"))
}

#[test]
fn version_1_exercises_keep_opening() {
    let from_json = Exercise::decode_json(&fixture("v1.json")).expect("v1 JSON opens");
    let from_link = Exercise::decode_link(fixture("v1.link").trim()).expect("v1 link opens");
    assert_eq!(from_json, from_link);
    assert_eq!(from_json.title, "Smallest of four (fixture v1)");
    assert_eq!(from_json.settings.label_budget, 8);
    assert_eq!(
        from_json.id(),
        "55968ea0446b5ab5",
        "the v1 fingerprint is stable"
    );
}

/// A student's work on `exercise`: two answers (the second one wrong) and a fix.
fn report_for(exercise: &Exercise) -> Report {
    let mut session = exercise.session();
    session.started = true;
    let mut active = fixloop::session::replay::fresh_loop(&session).expect("starts");
    let grader = exercise.grader().expect("compiles");
    for i in 0..2 {
        let fixloop::active::Step::Ask(q) = active.next_step() else {
            panic!("the loop asks at least two questions");
        };
        let truth = grader.truth(&q.input).bug;
        let said = if i == 1 { !truth } else { truth };
        session.answers.push(Answer {
            input: fixloop::active::num::format_input(&q.input),
            verdict: if said { Verdict::Bug } else { Verdict::Ok },
            expected: None,
        });
        active
            .answer(fixloop::active::Label {
                bug: said,
                expected: None,
            })
            .expect("pending");
    }
    let work = Work {
        session: &session,
        fix: Some((FixOrigin::Hand, &exercise.reference)),
        fresh: 40,
        systematic: true,
        time_spent_ms: 60_000,
        student: "Ana",
    };
    Report::build(exercise, &work).expect("builds")
}

#[test]
fn make_prints_a_link_and_check_tells_genuine_from_tampered() {
    let dir = std::env::temp_dir().join(format!("fixloop-exercise-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let gallery = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/exercise/gallery");
    let out = fixloop()
        .args([
            "exercise", "make", "--input", "6 8 2", "--range", "-20:20", "--buggy",
        ])
        .arg(gallery.join("median-buggy.c"))
        .arg("--reference")
        .arg(gallery.join("median-reference.c"))
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let link = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let (_, fragment) = link.split_once("#x=").expect("an exercise link");
    let exercise = Exercise::decode_link(fragment).expect("the printed link opens");

    let report = report_for(&exercise);
    assert_eq!((report.score.right, report.score.total), (1, 2));
    let genuine = dir.join("genuine.json");
    std::fs::write(&genuine, report.to_json()).expect("write");
    let ok = fixloop()
        .args(["exercise", "check"])
        .arg(&genuine)
        .args(["--exercise", &link])
        .output()
        .expect("runs");
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stdout)
    );
    let said = String::from_utf8_lossy(&ok.stdout);
    assert!(
        said.contains("genuine") && said.contains("student Ana:"),
        "{said}"
    );

    let mut tampered = report.clone();
    tampered.score.right = 2;
    tampered.answers[1].right = Some(true);
    let bad = dir.join("tampered.json");
    std::fs::write(&bad, tampered.to_json()).expect("write");
    let flagged = fixloop()
        .args(["exercise", "check"])
        .arg(&bad)
        .output()
        .expect("runs");
    assert_eq!(flagged.status.code(), Some(3));
    let text = String::from_utf8_lossy(&flagged.stdout);
    assert!(
        text.contains("TAMPERED") && text.contains("answer 2"),
        "{text}"
    );

    let other = Exercise::decode_json(&fixture("v1.json")).expect("opens");
    let wrong_exercise = fixloop()
        .args(["exercise", "check"])
        .arg(&genuine)
        .args(["--exercise", &other.encode_link()])
        .output()
        .expect("runs");
    assert_eq!(wrong_exercise.status.code(), Some(3));
    let _ = std::fs::remove_dir_all(&dir);
}
