//! The dialogue: one generated test at a time with Bug / Not a bug / Skip / Stop and the labels used of the budget; after repair, the questions that choose between patches.

use super::explain::Explain;
use super::output::OutputText;
use super::storage;
use crate::excerpt::Excerpt;
use crate::session::protocol::{ChoiceView, LoopView};
use crate::session::Verdict;
use web_sys::{HtmlElement, HtmlInputElement};
use yew::prelude::*;

/// Dialogue properties.
#[derive(Properties, PartialEq)]
pub struct DialogueProps {
    /// The loop (None while the worker replays it).
    pub view: Option<LoopView>,
    /// Waiting for the worker.
    pub busy: bool,
    /// Repair is running (the loop's controls wait).
    pub repairing: bool,
    /// An answer.
    pub onanswer: Callback<(Verdict, Option<String>)>,
    /// Stop labelling (or the busy worker).
    pub onstop: Callback<()>,
    /// Back to editing.
    pub onedit: Callback<()>,
    /// Student mode: the program is the exercise's, so going back starts over.
    #[prop_or_default]
    pub student: bool,
    /// The pending question that chooses between patches (after repair).
    #[prop_or_default]
    pub choice: Option<ChoiceView>,
    /// Questions about patches answered, and the budget.
    #[prop_or_default]
    pub questions: (usize, usize),
    /// The answer to it: the right output, or `None` to skip.
    #[prop_or_default]
    pub onchoose: Callback<Option<String>>,
}

/// The text typed into a question's output field, kept in the tab across reloads
/// (`question` names the question; the text is restored when the same one is shown
/// again, else the field starts from `start`), and a callback that sets it.
#[hook]
fn use_answer_draft(
    question: Option<String>,
    start: String,
) -> (UseStateHandle<String>, Callback<String>) {
    let typed = use_state(String::new);
    {
        let typed = typed.clone();
        use_effect_with(question.clone(), move |q| {
            let saved = q
                .as_deref()
                .map(storage::load_answer_draft)
                .unwrap_or_default();
            typed.set(if saved.is_empty() { start } else { saved })
        });
    }
    let set = {
        let typed = typed.clone();
        Callback::from(move |text: String| {
            if let Some(q) = &question {
                storage::save_answer_draft(q, &text);
            }
            typed.set(text)
        })
    };
    (typed, set)
}

/// A node that takes the focus (and so scrolls into view) whenever `question` names a
/// new question: its first answer, ready for a click or a key.
#[hook]
fn use_focus_on_new(question: Option<String>) -> NodeRef {
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with(question, move |q| {
            if q.is_some() {
                if let Some(el) = node.cast::<HtmlElement>() {
                    let _ = el.focus();
                }
            }
        });
    }
    node
}

/// What an output field starts from: the program's output, to be edited into the right
/// one, when it is one line (a one-line field cannot hold more); else empty.
fn editable_output(printed: &str) -> String {
    let line = printed.trim_end_matches(['\n', '\r']);
    if line.contains('\n') {
        String::new()
    } else {
        line.to_string()
    }
}

/// The output typed into a field that started from `printed`: `None` when left as it
/// was (or emptied), so an unedited field says nothing about the right output.
fn edited_output(typed: &str, printed: &str) -> Option<String> {
    let t = typed.trim();
    (!t.is_empty() && t != editable_output(printed).trim()).then(|| typed.to_string())
}

/// An `oninput` handler passing the field's text to `set`.
fn input_handler(set: Callback<String>) -> Callback<InputEvent> {
    Callback::from(move |e: InputEvent| {
        set.emit(e.target_unchecked_into::<HtmlInputElement>().value())
    })
}

/// The question that chooses between patches: one button per distinct output, "None of
/// these" with the right output typed, and Skip.
#[derive(Properties, PartialEq)]
struct ChoiceProps {
    choice: ChoiceView,
    questions: (usize, usize),
    onchoose: Callback<Option<String>>,
}

#[function_component(ChoiceQuestion)]
fn choice_question(props: &ChoiceProps) -> Html {
    let key = format!("choice {}", props.choice.input);
    let c = &props.choice;
    let output_kind = c.kind == "output";
    // Asked for the right output of a run called a bug: the field starts from what the
    // program printed, to be edited into what it should print.
    let printed = c
        .options
        .iter()
        .find(|o| o.patches.is_empty())
        .map(|o| o.output.trim_end_matches('\n').to_string())
        .unwrap_or_default();
    let start = if output_kind {
        editable_output(&printed)
    } else {
        String::new()
    };
    let (other, on_other) = use_answer_draft(Some(key.clone()), start);
    let first_option = use_focus_on_new(Some(key));
    let pick = |output: Option<String>| {
        let (cb, on_other) = (props.onchoose.clone(), on_other.clone());
        Callback::from(move |_: MouseEvent| {
            on_other.emit(String::new());
            cb.emit(output.clone())
        })
    };
    let on_other = input_handler(on_other.clone());
    let typed = (*other).clone();
    let who = |patches: &[usize]| match patches {
        [] => "your program as it is".to_string(),
        [p] => format!("patch {p}"),
        ps => format!(
            "patches {}",
            ps.iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    if output_kind {
        let patched: Vec<_> = c.options.iter().filter(|o| !o.patches.is_empty()).collect();
        let unchanged = edited_output(&typed, &printed).is_none();
        return html! {
            <div class="query choice output-question" data-choice-input={c.input.clone()} data-choice-kind="output" aria-live="polite">
                <p class="budget" data-testid="questions">{ format!("Questions about patches: {} of {} answered", props.questions.0, props.questions.1) }<Explain term="questions about patches" /></p>
                <p class="question">{ "For input " }<code>{ &c.input }</code>{ " your program printed:" }</p>
                <OutputText text={printed.clone()} />
                <p class="question">{ "You said that is a bug. What should it print?" }</p>
                if !patched.is_empty() {
                    <div class="buttons options" role="group" aria-label="What the patches print">
                        { for patched.iter().enumerate().map(|(i, o)| html! {
                            <button class="option" ref={if i == 0 { first_option.clone() } else { NodeRef::default() }} data-output={o.output.clone()} onclick={pick(Some(o.output.clone()))}>
                                <pre class="stdout">{ if o.output.trim().is_empty() { "(nothing)".to_string() } else { Excerpt::of(&o.output).text() } }</pre>
                                <span class="who">{ format!("{} print{} this", who(&o.patches), if o.patches.len() == 1 { "s" } else { "" }) }</span>
                            </button>
                        }) }
                    </div>
                }
                <label for="right-output">{ "What it should print" }</label>
                <input id="right-output" type="text" ref={if patched.is_empty() { first_option.clone() } else { NodeRef::default() }} value={typed.clone()} oninput={on_other} />
                <div class="buttons" role="group" aria-label="Other answers">
                    <button class="give-output" data-primary="" disabled={typed.trim().is_empty() || unchanged} onclick={pick(Some(typed.clone()))}>{ "This is the right output" }</button>
                    <button class="secondary dont-know" onclick={pick(None)}>{ "I don't know" }</button>
                </div>
                <p class="hint">{ "Edit what your program printed into what it should print. If you don't know, repair only requires the output here to change." }</p>
            </div>
        };
    }
    html! {
           <div class="query choice" data-choice-input={c.input.clone()} data-choice-kind={c.kind.clone()} aria-live="polite">
               <p class="budget" data-testid="questions">{ format!("Questions about patches: {} of {} answered", props.questions.0, props.questions.1) }<Explain term="questions about patches" /></p>
               <p class="question">
                   { "For input " }<code>{ &c.input }</code>{ " " }{ &c.ask }
               </p>
               <div class="buttons options" role="group" aria-label="Which output is right">
    { for c.options.iter().enumerate().map(|(i, o)| html! {
                       <button class="option" ref={if i == 0 { first_option.clone() } else { NodeRef::default() }} data-output={o.output.clone()} onclick={pick(Some(o.output.clone()))}>
                           <pre class="stdout">{ if o.output.trim().is_empty() { "(nothing)".to_string() } else { Excerpt::of(&o.output).text() } }</pre>
                           <span class="who">{ who(&o.patches) }{ if o.status == "normal exit" { String::new() } else { format!(" ({})", o.status) } }</span>
                       </button>
                   }) }
               </div>
               <label for="right-output">{ "None of these: the right output is" }</label>
               <input id="right-output" type="text" value={typed.clone()} oninput={on_other} />
               <div class="buttons" role="group" aria-label="Other answers">
                   <button class="secondary none-of-these" disabled={typed.trim().is_empty()} onclick={pick(Some(typed.clone()))}>{ "None of these" }</button>
                   <button class="secondary skip" onclick={pick(None)}>{ "Skip" }</button>
               </div>
               <p class="hint">{ "Your answer becomes a test: patches that print something else are ruled out; if none is left, repair searches again." }</p>
           </div>
       }
}

/// The dialogue.
#[function_component(Dialogue)]
pub fn dialogue(props: &DialogueProps) -> Html {
    let question = props.view.as_ref().and_then(|v| v.query.as_ref());
    let key = question.map(|q| format!("label {}", q.input));
    // The field starts from what the program printed: the person edits only what is wrong.
    let printed = question.map(|q| q.output.clone()).unwrap_or_default();
    let (expected, on_expected) = use_answer_draft(key.clone(), editable_output(&printed));
    let bug_button = use_focus_on_new(key.filter(|_| !props.busy));
    let edited = edited_output(&expected, &printed);
    let answer = |verdict: Verdict| {
        let (cb, edited, on_expected) =
            (props.onanswer.clone(), edited.clone(), on_expected.clone());
        Callback::from(move |_: MouseEvent| {
            on_expected.emit(String::new());
            cb.emit((verdict, edited.clone()));
        })
    };
    let on_expected = input_handler(on_expected.clone());
    let stop = {
        let cb = props.onstop.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let edit = {
        let cb = props.onedit.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let progress = props.view.as_ref().map(|v| {
        html! {
            <p class="budget" data-testid="budget">
                { format!("Labels used: {} of {} ", v.labels_used, v.label_budget) }
                <progress max={v.label_budget.to_string()} value={v.labels_used.to_string()} aria-hidden="true" />
                { format!(" ({} generated)", crate::excerpt::count(v.generated, "test", "tests")) }<Explain term="generated" />
            </p>
        }
    });
    let body = match (&props.view, props.busy) {
        (_, true) => html! {
            <div class="working" aria-live="polite">
                <p>{ "Working: fuzzing and consulting the committee in the background\u{2026}" }</p>
                if !props.repairing { <button class="secondary" onclick={stop}>{ "Stop" }</button> }
            </div>
        },
        (None, false) => html! { <p>{ "Waiting for the loop\u{2026}" }</p> },
        (Some(v), false) => match (&v.query, &v.finished) {
            (Some(q), _) => html! {
                <>
                if let Some(w) = &v.failing_warning {
                    <p class="warning failing-warning" data-testid="failing-warning" role="status">{ format!("⚠ {w}") }</p>
                }
                <div class="query" data-query-input={q.input.clone()} data-query-output={q.output.clone()} aria-live="polite">
                    <p class="question">{ "Does this run show the bug?" }</p>
                    <dl>
                        <dt>{ "Input" }</dt><dd><code>{ &q.input }</code></dd>
                        <dt>{ "Output" }</dt><dd><OutputText text={q.output.clone()} /></dd>
                        <dt>{ "Run" }</dt><dd>{ &q.status }</dd>
                        if let Some(w) = &q.warning {
                            <dt>{ "Warning" }</dt><dd class="run-warning" data-testid="run-warning">{ w }</dd>
                        }
                        <dt>{ "Asked because" }<Explain term="asked because" /></dt><dd>{ &q.reason }if q.reason.contains("look-ahead") { <Explain term="look-ahead" /> }</dd>
                    </dl>
                    <label for="correct-output">{ "Correct output (optional, for Bug)" }</label>
                    if !editable_output(&q.output).is_empty() {
                        <p class="hint" id="correct-output-hint">{ "It starts as what the program printed: change only what is wrong." }</p>
                    }
                    <input id="correct-output" type="text" value={(*expected).clone()} oninput={on_expected} />
                    <div class="buttons" role="group" aria-label="Answer">
                        <button class="bug" ref={bug_button.clone()} data-primary={edited.is_some().then_some("")} onclick={answer(Verdict::Bug)} disabled={props.repairing}>{ "Bug" }</button>
                        <button class="ok" onclick={answer(Verdict::Ok)} disabled={props.repairing}>{ "Not a bug" }</button>
                        <button class="secondary skip" onclick={answer(Verdict::Skip)} disabled={props.repairing}>{ "Skip" }</button>
                        if !props.repairing { <button class="secondary" onclick={stop}>{ "Stop" }</button> }
                    </div>
                    <p class="hint">{ "Keys: B bug, N not a bug, S skip (outside text fields); once the correct output is edited, Ctrl/Cmd+Enter answers Bug." }</p>
                </div>
                </>
            },
            (None, Some(reason)) => html! {
                <>
                    <p class="finished" data-testid="finished">{ format!("The loop has ended: {reason}. Press Repair, or edit the program to start again.") }</p>
                    if let Some(choice) = &props.choice {
                        <ChoiceQuestion choice={choice.clone()} questions={props.questions} onchoose={props.onchoose.clone()} />
                    }
                </>
            },
            (None, None) => html! {},
        },
    };
    html! {
        <section class="panel dialogue" role="region" aria-label="Labelling">
            <h2>{ "Questions" }</h2>
            { for progress }
            { body }
            <button class="link" onclick={edit}>{ if props.student { "Start over (drops answers)" } else { "Edit program and settings (drops answers)" } }</button>
        </section>
    }
}
