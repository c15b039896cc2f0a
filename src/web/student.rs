//! Student mode's panels: the exercise with every answer checked by the reference and a running score, and the fix to write, check and hand in under the student's name.

use super::editor::{markers, Editor};
use super::output::OutputText;
use crate::excerpt::one_line;
use crate::exercise::report::FixOrigin;
use crate::exercise::task::ReportPurpose;
use crate::exercise::{Exercise, Grade, Report};
use crate::session::{Answer, Verdict};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// What the page says when Export report is pressed before a name is given.
pub const NAME_NEEDED: &str =
    "Type your name or student id before you export: your teacher sees your report under it.";

/// One answer as the reference judged it (`None` for a skip or an input that does not read).
fn grades(exercise: &Exercise, answers: &[Answer]) -> Vec<Option<Grade>> {
    let Ok(grader) = exercise.grader() else {
        return vec![None; answers.len()];
    };
    answers
        .iter()
        .map(|a| {
            let input = crate::active::num::parse_input(&a.input)?;
            (a.verdict != Verdict::Skip)
                .then(|| grader.grade(&input, a.verdict == Verdict::Bug, a.expected.as_deref()))
        })
        .collect()
}

/// Exercise brief properties.
#[derive(Properties, PartialEq)]
pub struct BriefProps {
    /// The exercise.
    pub exercise: Exercise,
    /// The student's answers so far.
    pub answers: Vec<Answer>,
    /// A teacher's preview.
    pub preview: bool,
    /// Leave the exercise (back to the playground, or to authoring from a preview).
    pub onleave: Callback<()>,
}

/// The exercise's title and instructions, the score, and each answer checked.
#[function_component(ExerciseBrief)]
pub fn exercise_brief(props: &BriefProps) -> Html {
    let graded = use_memo(
        (props.exercise.clone(), props.answers.clone()),
        |(e, answers)| grades(e, answers),
    );
    let right = graded.iter().flatten().filter(|g| g.right).count();
    let total = graded.iter().flatten().count();
    let leave = {
        let cb = props.onleave.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let rows = props.answers.iter().zip(graded.iter()).enumerate().map(|(i, (a, g))| {
        let said = match a.verdict {
            Verdict::Bug => "Bug",
            Verdict::Ok => "Not a bug",
            Verdict::Skip => "Skipped",
        };
        match g {
            None => html! {
                <li class="skipped">{ format!("{}. {}: skipped (not scored)", i + 1, a.input) }</li>
            },
            Some(g) => html! {
                <li class={if g.right { "answer-right" } else { "answer-wrong" }} data-right={g.right.to_string()} data-input={a.input.clone()}>
                    <strong>{ if g.right { "✔ Right" } else { "✖ Wrong" } }</strong>
                    { format!(" - input {}: you said \"{said}\"; ", a.input) }
                    { if g.truth.bug { "the run shows the bug" } else { "the run is correct" } }
                    { ". Correct output: " }<code>{ one_line(&g.truth.reference_output, 80) }</code>
                    { match g.expected_right {
                        Some(true) => " (your output matches)",
                        Some(false) => " (your output does not match)",
                        None => "",
                    } }
                </li>
            },
        }
    });
    html! {
        <section class="panel exercise" role="region" aria-label="Exercise">
            if props.preview {
                <p class="preview-note" role="status">{ "Preview: this is what a student sees. Nothing is saved." }</p>
            }
            <h2 data-testid="exercise-title">{ &props.exercise.title }</h2>
            <p class="instructions">{ &props.exercise.instructions }</p>
            <p class="score" data-testid="score" data-right={right.to_string()} data-total={total.to_string()} aria-live="polite">
                { format!("Score: {right} of {total} answers right") }
            </p>
            if !props.answers.is_empty() {
                <details open=true>
                    <summary>{ "Your answers, checked by the reference program" }</summary>
                    <ol class="checked-answers">{ for rows }</ol>
                </details>
            }
            <button class="link" onclick={leave}>
                { if props.preview { "Back to authoring" } else { "Leave the exercise (your work is kept)" } }
            </button>
        </section>
    }
}

/// Fix panel properties.
#[derive(Properties, PartialEq)]
pub struct FixProps {
    /// The fix being written.
    pub draft: String,
    /// Where it came from.
    pub origin: FixOrigin,
    /// The worker is building a report.
    pub working: Option<ReportPurpose>,
    /// The loop's worker is busy (reports wait for it).
    pub busy: bool,
    /// The last fix check.
    pub checked: Option<Report>,
    /// The last exported report.
    pub exported: Option<Report>,
    /// The student's name or id, as typed.
    pub student: String,
    /// The name changed.
    pub onstudent: Callback<String>,
    /// The draft changed.
    pub onedit: Callback<String>,
    /// Check the fix, or export the report.
    pub onreport: Callback<ReportPurpose>,
    /// Download the printable view of the exported report.
    pub onprint: Callback<()>,
}

/// The fix editor, Check fix with pass rates and the first difference, and Export report.
#[function_component(FixPanel)]
pub fn fix_panel(props: &FixProps) -> Html {
    let diag = use_memo(props.draft.clone(), |p| markers(p));
    let report = |purpose: ReportPurpose| {
        let cb = props.onreport.clone();
        Callback::from(move |_: MouseEvent| cb.emit(purpose))
    };
    let print = {
        let cb = props.onprint.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    // Export asked for without a name: say so by the field, and put the focus in it.
    let name_missing = use_state(|| false);
    let name_field = use_node_ref();
    let unnamed = props.student.trim().is_empty();
    let export = {
        let (cb, missing, field) = (
            props.onreport.clone(),
            name_missing.clone(),
            name_field.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            if unnamed {
                missing.set(true);
                if let Some(input) = field.cast::<HtmlInputElement>() {
                    let _ = input.focus();
                }
                return;
            }
            missing.set(false);
            cb.emit(ReportPurpose::Export)
        })
    };
    let on_name = {
        let cb = props.onstudent.clone();
        Callback::from(move |e: InputEvent| {
            cb.emit(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let refused = *name_missing && unnamed;
    let waiting = props.working.is_some() || props.busy;
    let result = props.checked.as_ref().and_then(|r| r.fix.as_ref()).map(|f| {
        let all = f.first_difference.is_none();
        html! {
            <div class="fix-result" data-testid="fix-result" data-all-pass={all.to_string()}
                data-labelled-passed={f.labelled_passed.to_string()} data-labelled-total={f.labelled_total.to_string()}
                data-fresh-passed={f.fresh_passed.to_string()} data-fresh-total={f.fresh_total.to_string()}
                data-systematic-passed={f.systematic_passed.to_string()} data-systematic-total={f.systematic_total.to_string()} data-whole-range={f.whole_range.to_string()} role="status">
                <p><strong>{ if all { "✔ The fix agrees with the reference everywhere it was checked." } else { "✖ The fix still differs from the reference." } }</strong></p>
                <p>{ f.sentences() }</p>
                if let Some(d) = &f.first_difference {
                    <p>{ "First input where it still differs: " }<code>{ &d.input }</code>
                        </p>
                    <dl class="difference">
                        <dt>{ "Your program prints" }</dt><dd><OutputText text={d.fix_output.clone()} /></dd>
                        <dt>{ "The reference prints" }</dt><dd><OutputText text={d.reference_output.clone()} /></dd>
                    </dl>
                }
            </div>
        }
    });
    html! {
        <section class="panel fix" role="region" aria-label="Fix and report">
            <h2>{ "Your fix" }</h2>
            <p class="hint">{ match props.origin {
                FixOrigin::Repair => "From an applied patch (Repair). Edit it, or check it as it is.",
                FixOrigin::Hand => "Edit the program here (or Apply a patch from Repair), then check it against the reference.",
            } }</p>
            <Editor id="fix-program" label="Your fix" value={props.draft.clone()} markers={(*diag).clone()} readonly={false} oninput={props.onedit.clone()} />
            <div class="student-name">
                <label for="student-name">{ "Your name or student id" }</label>
                <input id="student-name" type="text" autocomplete="name" ref={name_field}
                    maxlength={crate::exercise::report::MAX_STUDENT_CHARS.to_string()}
                    value={props.student.clone()} oninput={on_name}
                    aria-invalid={refused.to_string()} aria-describedby={refused.then_some("student-name-error")} />
                <span class="hint">{ "Your report carries it, and its file is named by it." }</span>
            </div>
            if refused {
                <p id="student-name-error" class="field-error" role="alert">{ NAME_NEEDED }</p>
            }
            <div class="buttons">
                <button onclick={report(ReportPurpose::CheckFix)} disabled={waiting}>{ "Check fix" }</button>
                <button class="secondary" onclick={export} disabled={waiting}>{ "Export report" }</button>
                if props.exported.is_some() {
                    <button class="secondary" onclick={print}>{ "Printable report (HTML)" }</button>
                }
            </div>
            if let Some(purpose) = props.working {
                <p aria-live="polite">{ match purpose {
                    ReportPurpose::CheckFix => "Checking the fix against the reference\u{2026}",
                    ReportPurpose::Export => "Building the report\u{2026}",
                } }</p>
            }
            { for result }
            if let Some(r) = &props.exported {
                <p class="hint" role="status" data-testid="exported">{ format!("Report exported as {} for {}: score {} of {}, {}.", r.file_name(), r.student, r.score.right, r.score.total, if r.fix.is_some() { "with your fix" } else { "no fix" }) }</p>
            }
        </section>
    }
}
