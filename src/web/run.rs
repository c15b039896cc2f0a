//! Run: the editor's program on the failing input or any typed input, with its output, how it ended and any undefined behaviour.

use super::output::OutputText;
use crate::page::RunState;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct RunProps {
    /// The last run.
    pub run: RunState,
    /// Whether the last run ran the program now in the editor.
    pub current: bool,
    /// The input typed for Run (empty: the failing input).
    pub input: String,
    /// The failing input (the default).
    pub failing: String,
    /// The worker is busy with the loop or repair (a run waits for it).
    pub disabled: bool,
    pub oninput: Callback<String>,
    /// Run pressed, with the input to run on.
    pub onrun: Callback<String>,
}

/// The Run row and the last run's result.
#[function_component(RunPanel)]
pub fn run_panel(p: &RunProps) -> Html {
    let input = if p.input.trim().is_empty() {
        p.failing.clone()
    } else {
        p.input.clone()
    };
    let run = {
        let (cb, input) = (p.onrun.clone(), input.clone());
        Callback::from(move |_: MouseEvent| cb.emit(input.clone()))
    };
    let oninput = {
        let cb = p.oninput.clone();
        Callback::from(move |e: InputEvent| {
            cb.emit(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let running = matches!(p.run, RunState::Running(_));
    // A new result is scrolled into view (only as far as needed): on a laptop's first
    // screen it would otherwise appear just below the fold, and Run would seem to do nothing.
    let result_node = use_node_ref();
    {
        let node = result_node.clone();
        use_effect_with(p.run.clone(), move |run| {
            if matches!(run, RunState::Done(_)) {
                if let Some(el) = node.cast::<web_sys::Element>() {
                    let options = web_sys::ScrollIntoViewOptions::new();
                    options.set_block(web_sys::ScrollLogicalPosition::Nearest);
                    el.scroll_into_view_with_scroll_into_view_options(&options);
                }
            }
        });
    }
    let result = match &p.run {
        RunState::Idle => html! {},
        RunState::Running(_) => {
            html! { <p class="run-result" aria-live="polite">{ "Running\u{2026}" }</p> }
        }
        RunState::Done(r) => html! {
            <div class="run-result" ref={result_node.clone()} data-testid="run-result" data-ended={r.ended.clone()} data-success={r.success.to_string()} aria-live="polite">
                if !p.current {
                    <p class="hint">{ "This run was of an earlier version of the program; press Run again for the one in the editor." }</p>
                }
                if let Some(e) = &r.error {
                    <pre class="run-error">{ e }</pre>
                } else {
                    <dl>
                        <dt>{ "Input" }</dt><dd><code>{ if r.input.trim().is_empty() { "(none)" } else { r.input.as_str() } }</code></dd>
                        <dt>{ "Output" }</dt><dd><OutputText text={r.output.clone()} /></dd>
                        <dt>{ "Ended" }</dt><dd data-testid="run-ended" title="How the run ended: the exit status main returned, or why the run was stopped.">{ format!("{} after {} steps", r.ended, crate::excerpt::grouped(r.steps as usize)) }</dd>
                        if let Some(u) = &r.undefined {
                            <dt>{ "Warning" }</dt><dd class="run-warning" data-testid="run-undefined">{ format!("undefined behaviour of C: {u} (gcc's binary may print something else)") }</dd>
                        }
                    </dl>
                }
            </div>
        },
    };
    html! {
        <div class="run-panel">
            <div class="run-row">
                <label for="run-input">{ "Run on input" }</label>
                <input id="run-input" type="text" placeholder={format!("the failing input: {}", p.failing)} value={p.input.clone()} {oninput} />
                <button class="secondary" onclick={run} disabled={p.disabled || running}
                    title="Run the program in the editor once on this input (the failing input when empty) and show what it prints.">{ "Run" }</button>
            </div>
            { result }
        </div>
    }
}
