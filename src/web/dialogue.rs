//! The labelling dialogue: one generated test at a time with Bug / Not a bug / Skip / Stop, and the labels used of the budget.

use crate::session::protocol::LoopView;
use crate::session::Verdict;
use web_sys::HtmlInputElement;
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
}

/// The dialogue.
#[function_component(Dialogue)]
pub fn dialogue(props: &DialogueProps) -> Html {
    let expected = use_state(String::new);
    let on_expected = {
        let expected = expected.clone();
        Callback::from(move |e: InputEvent| {
            expected.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let answer = |verdict: Verdict| {
        let (cb, expected) = (props.onanswer.clone(), expected.clone());
        Callback::from(move |_: MouseEvent| {
            let text = (*expected).clone();
            expected.set(String::new());
            cb.emit((verdict, Some(text).filter(|t| !t.trim().is_empty())));
        })
    };
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
                { format!(" ({} tests generated)", v.generated) }
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
                <div class="query" data-query-input={q.input.clone()} data-query-output={q.output.clone()}>
                    <p class="question">{ "Does this run show the bug?" }</p>
                    <dl>
                        <dt>{ "Input" }</dt><dd><code>{ &q.input }</code></dd>
                        <dt>{ "Output" }</dt><dd><pre class="stdout">{ &q.output }</pre></dd>
                        <dt>{ "Run" }</dt><dd>{ &q.status }</dd>
                        if let Some(w) = &q.warning {
                            <dt>{ "Warning" }</dt><dd class="run-warning" data-testid="run-warning">{ w }</dd>
                        }
                        <dt>{ "Asked because" }</dt><dd>{ &q.reason }</dd>
                    </dl>
                    <label for="correct-output">{ "Correct output (optional, for Bug)" }</label>
                    <input id="correct-output" type="text" value={(*expected).clone()} oninput={on_expected} />
                    <div class="buttons" role="group" aria-label="Answer">
                        <button class="bug" data-primary={(!expected.trim().is_empty()).then_some("")} onclick={answer(Verdict::Bug)} disabled={props.repairing}>{ "Bug" }</button>
                        <button class="ok" onclick={answer(Verdict::Ok)} disabled={props.repairing}>{ "Not a bug" }</button>
                        <button class="secondary skip" onclick={answer(Verdict::Skip)} disabled={props.repairing}>{ "Skip" }</button>
                        if !props.repairing { <button class="secondary" onclick={stop}>{ "Stop" }</button> }
                    </div>
                    <p class="hint">{ "Keys: B bug, N not a bug, S skip (outside text fields); with a correct output typed, Ctrl/Cmd+Enter answers Bug." }</p>
                </div>
            },
            (None, Some(reason)) => html! {
                <p class="finished" data-testid="finished">{ format!("The loop has ended: {reason}. Press Repair, or edit the program to start again.") }</p>
            },
            (None, None) => html! {},
        },
    };
    html! {
        <section class="panel dialogue" role="region" aria-label="Labelling">
            <h2>{ "Labelling" }</h2>
            { for progress }
            { body }
            <button class="link" onclick={edit}>{ "Edit program and settings (drops answers)" }</button>
        </section>
    }
}
