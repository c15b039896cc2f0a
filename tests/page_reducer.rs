//! The page's reducer, natively: every action that changes or discards user work (the program, labels, answers about patches, a student's fix, an exercise draft) either keeps that work one click away or is refused where it would lose it.

use fixloop::exercise::gallery;
use fixloop::exercise::report::FixOrigin;
use fixloop::page::{Action, AppState, AuthorField, Page, RepairState, StudentWork, Theme};
use fixloop::session::protocol::{LoopView, QueryView};
use fixloop::session::{Session, Verdict};
use std::rc::Rc;

fn fresh() -> Rc<AppState> {
    Rc::new(AppState::new(AppState::default_session(), Theme::System))
}

/// The state after each of `actions` in turn.
fn after(state: Rc<AppState>, actions: impl IntoIterator<Item = Action>) -> Rc<AppState> {
    actions.into_iter().fold(state, AppState::apply)
}

/// The worker's answer: a question on `input`.
fn asked(input: &str) -> Action {
    Action::LoopViewed(LoopView {
        query: Some(QueryView {
            input: input.to_string(),
            output: "isosceles\n".to_string(),
            status: "normal exit".to_string(),
            reason: "the committee disagrees".to_string(),
            warning: None,
        }),
        finished: None,
        labels_used: 0,
        label_budget: 10,
        generated: 1,
        formula: "true".to_string(),
        vars: vec!["a".into(), "b".into(), "c".into()],
        encoding: Vec::new(),
        points: Vec::new(),
        failing_warning: None,
        alternatives: Vec::new(),
    })
}

/// A started playground session with two labels.
fn labelled() -> Rc<AppState> {
    after(
        fresh(),
        [
            Action::Start,
            asked("1 1 2"),
            Action::Answer(Verdict::Ok, None),
            asked("3 3 3"),
            Action::Answer(Verdict::Bug, Some("equilateral".into())),
            asked("4 5 6"),
        ],
    )
}

#[test]
fn labels_are_recorded_for_the_question_on_screen_only() {
    let s = labelled();
    assert!(s.session.started);
    assert_eq!(s.session.answers.len(), 2);
    assert_eq!(
        s.session.answers[1].expected.as_deref(),
        Some("equilateral")
    );
    // No question on screen, or the worker still busy: an answer is not recorded.
    let busy = after(s.clone(), [Action::Answer(Verdict::Ok, None)]);
    assert_eq!(busy.session.answers.len(), 3);
    let again = busy.clone().apply(Action::Answer(Verdict::Ok, None));
    assert!(
        Rc::ptr_eq(&again, &busy),
        "a second click while busy changes nothing"
    );
    // An output typed for "Not a bug" is no output.
    let s = after(
        labelled(),
        [Action::Answer(Verdict::Ok, Some("scalene".into()))],
    );
    assert_eq!(s.session.answers[2].expected, None);
}

#[test]
fn a_started_session_is_not_edited_in_place() {
    let s = labelled();
    for action in [
        Action::EditProgram("int main(void) { return 0; }".into()),
        Action::EditFailing("9 9 9".into()),
        Action::EditBudget("3".into()),
    ] {
        let next = s.clone().apply(action);
        assert!(
            Rc::ptr_eq(&next, &s),
            "the labelled session is kept as it is"
        );
    }
}

#[test]
fn editing_the_program_leaves_the_example_and_its_fields() {
    let s = after(
        fresh(),
        [Action::EditProgram(
            "int main(void) { int a; scanf(\"%d\", &a); return a; }".into(),
        )],
    );
    assert_eq!(s.session.example, None);
    assert_eq!(
        s.session.expected_output, None,
        "the example's expected output goes with it"
    );
}

#[test]
fn start_refuses_a_program_it_cannot_run_and_keeps_it() {
    let broken = "int main( {";
    let s = after(fresh(), [Action::EditProgram(broken.into()), Action::Start]);
    assert!(!s.session.started);
    assert_eq!(s.session.program, broken);
    assert!(s.error.is_some());
}

#[test]
fn an_example_replaces_labelled_work_only_after_a_yes_and_the_work_stays_one_click_away() {
    let s = after(labelled(), [Action::LoadExample("median".into())]);
    assert_eq!(s.session.answers.len(), 2, "nothing replaced yet");
    assert!(s.pending_replace.is_some());
    let kept = after(s.clone(), [Action::CancelReplace]);
    assert_eq!(kept.session, labelled().session);
    assert!(kept.pending_replace.is_none());

    let replaced = after(s, [Action::ConfirmReplace]);
    assert_eq!(replaced.session.example.as_deref(), Some("median"));
    let aside = replaced
        .put_aside
        .as_ref()
        .expect("the labelled session is put aside");
    assert_eq!(aside.session.answers.len(), 2);
    let back = after(replaced, [Action::SwapPutAside]);
    assert_eq!(back.session.answers.len(), 2);
    assert_eq!(
        back.put_aside.as_ref().map(|a| a.session.example.clone()),
        Some(Some("median".into())),
        "a swap, never a loss"
    );
}

#[test]
fn an_example_opens_at_once_when_nothing_would_be_lost() {
    let s = after(fresh(), [Action::LoadExample("median".into())]);
    assert_eq!(s.session.example.as_deref(), Some("median"));
    assert!(s.pending_replace.is_none() && s.put_aside.is_none());
}

#[test]
fn reset_apply_and_an_accepted_link_put_the_labelled_session_aside() {
    let reset = after(labelled(), [Action::Reset]);
    assert!(reset.session.answers.is_empty() && !reset.session.started);
    assert_eq!(
        reset.put_aside.as_ref().map(|a| a.session.answers.len()),
        Some(2)
    );

    let patched = "int main(void) { return 1; }";
    let applied = after(labelled(), [Action::ApplyPatch(patched.into())]);
    assert_eq!(applied.session.program, patched);
    let aside = applied.put_aside.as_ref().expect("put aside");
    assert_eq!(
        (aside.button.as_str(), aside.session.answers.len()),
        ("Undo Apply", 2)
    );

    let link = Session::new(
        "int main(void) { int a; scanf(\"%d\", &a); return a; }",
        "1",
    );
    let pending = after(labelled(), [Action::LinkPending(link.clone())]);
    assert_eq!(pending.session.answers.len(), 2, "a link asks first");
    let rejected = after(pending.clone(), [Action::RejectLink]);
    assert_eq!(rejected.session.answers.len(), 2);
    let accepted = after(pending, [Action::AcceptLink]);
    assert_eq!(accepted.session.program, link.program);
    assert_eq!(
        accepted.put_aside.as_ref().map(|a| a.session.answers.len()),
        Some(2)
    );
}

#[test]
fn edit_again_starts_a_new_round_on_the_same_program() {
    let s = labelled();
    let program = s.session.program.clone();
    let again = after(s, [Action::EditAgain]);
    assert!(!again.session.started && again.session.answers.is_empty());
    assert_eq!(
        again.session.program, program,
        "the program is kept to edit"
    );
}

#[test]
fn repair_ends_the_labelling_and_a_stopped_repair_keeps_every_label() {
    let s = after(labelled(), [Action::RepairRequested]);
    assert!(s.session.repaired && s.session.stopped);
    assert!(matches!(s.repair, RepairState::Running(None)));
    let stopped = after(s, [Action::RepairStopped]);
    assert!(!stopped.session.repaired);
    assert_eq!(stopped.session.answers.len(), 2);
    // No question about patches on screen: a choice is not recorded.
    let unchanged = stopped
        .clone()
        .apply(Action::Choose(Some("equilateral".into())));
    assert!(Rc::ptr_eq(&unchanged, &stopped));
}

fn median_exercise() -> StudentWork {
    StudentWork::fresh(gallery::find("median").expect("the gallery's median"))
}

#[test]
fn a_student_presses_start_and_keeps_the_fix_through_a_restart() {
    let s = after(
        fresh(),
        [Action::OpenExercise(Box::new(median_exercise()), false)],
    );
    assert!(s.student.is_some());
    assert!(!s.session.started, "the questions wait for Start");
    // The exercise's program, input and settings are not the student's to change.
    for action in [
        Action::EditProgram("int main(void) { return 0; }".into()),
        Action::EditFailing("1 1 1".into()),
        Action::EditBudget("3".into()),
    ] {
        let next = s.clone().apply(action);
        assert!(Rc::ptr_eq(&next, &s), "the exercise is kept as it is");
    }
    let s = after(
        s,
        [
            Action::Start,
            asked("1 2 3"),
            Action::Answer(Verdict::Ok, None),
            Action::EditFix("int main(void) { return 0; }".into()),
        ],
    );
    assert_eq!(s.session.answers.len(), 1);
    let st = s.student.as_ref().expect("student mode");
    assert_eq!(st.fix_origin, FixOrigin::Hand);
    // Start over drops the answers, never the fix being written.
    let again = after(s, [Action::EditAgain]);
    assert!(again.session.answers.is_empty() && !again.session.started);
    let st = again.student.as_ref().expect("still student mode");
    assert_eq!(st.fix_draft, "int main(void) { return 0; }");
    // A patch applied in student mode becomes the fix, not a new round.
    let applied = after(
        again,
        [Action::ApplyPatch("int main(void) { return 2; }".into())],
    );
    let st = applied.student.as_ref().expect("student mode");
    assert_eq!(
        (st.fix_draft.as_str(), st.fix_origin),
        ("int main(void) { return 2; }", FixOrigin::Repair)
    );
    assert!(applied.put_aside.is_none());
}

#[test]
fn leaving_an_exercise_brings_back_the_playground_session() {
    let playground = labelled();
    let kept = playground.session.clone();
    let s = after(
        playground,
        [
            Action::OpenExercise(Box::new(median_exercise()), false),
            Action::LeaveExercise(kept.clone()),
        ],
    );
    assert!(s.student.is_none());
    assert_eq!(s.session, kept);
}

#[test]
fn an_edited_draft_is_put_aside_by_a_starter_and_swapped_back() {
    let s = after(
        fresh(),
        [
            Action::ShowPage(Page::Author),
            Action::EditAuthor(AuthorField::Title, "Mine".into()),
        ],
    );
    assert_eq!(s.author.title, "Mine");
    let replaced = after(s, [Action::AuthorFrom("exercise:median".into())]);
    assert_eq!(replaced.author, gallery::find("median").unwrap());
    assert_eq!(
        replaced.author_replaced.as_ref().map(|d| d.title.as_str()),
        Some("Mine")
    );
    // An unedited starter replaced by another is not worth keeping: the edited one stays.
    let other = after(
        replaced.clone(),
        [Action::AuthorFrom("example:grade".into())],
    );
    assert_eq!(
        other.author_replaced.as_ref().map(|d| d.title.as_str()),
        Some("Mine")
    );
    let back = after(replaced, [Action::RestoreAuthorDraft]);
    assert_eq!(back.author.title, "Mine");
    assert_eq!(
        back.author_replaced, None,
        "the starter was not edited, so nothing to keep"
    );
    // An unknown starter changes nothing.
    let same = back
        .clone()
        .apply(Action::AuthorFrom("example:nothing".into()));
    assert!(Rc::ptr_eq(&same, &back));
}

#[test]
fn an_unedited_draft_follows_the_example_on_screen_and_an_edited_one_stays() {
    let s = after(
        fresh(),
        [
            Action::LoadExample("median".into()),
            Action::ShowPage(Page::Author),
        ],
    );
    assert_eq!(s.author.title, "Median of three");
    assert!(s.author.reference.contains("(b <= a && b >= c)"));
    let edited = after(
        s,
        [
            Action::EditAuthor(AuthorField::Title, "Mine".into()),
            Action::ShowPage(Page::Playground),
            Action::LoadExample("grade".into()),
            Action::ShowPage(Page::Author),
        ],
    );
    assert_eq!(
        edited.author.title, "Mine",
        "an edited draft is never replaced by a page change"
    );
}
