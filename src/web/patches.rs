//! The Patches region: Repair with progress and Stop, then what is known about the patches in plain words and the patches as diffs with cost, what was checked, Apply and before/after outputs.

use super::explain::Explain;
use super::output::OutputText;
use crate::excerpt::count;
use crate::page::RepairState;
use crate::session::protocol::NextStep;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Whole seconds since `running` last became true, ticking every second while it stays
/// true (the page's clock, read here at the edge; the engine never reads one).
#[hook]
fn use_elapsed(running: bool) -> u64 {
    let seconds = use_state(|| 0u64);
    {
        let seconds = seconds.clone();
        use_effect_with(running, move |running| {
            let window = web_sys::window();
            let timer = window.as_ref().filter(|_| *running).and_then(|w| {
                seconds.set(0);
                let started = js_sys::Date::now();
                let tick = Closure::<dyn FnMut()>::new(move || {
                    seconds.set(((js_sys::Date::now() - started) / 1000.0) as u64)
                });
                w.set_interval_with_callback_and_timeout_and_arguments_0(
                    tick.as_ref().unchecked_ref(),
                    1000,
                )
                .ok()
                .map(|handle| (handle, tick))
            });
            move || {
                if let (Some(w), Some((handle, tick))) = (window, timer) {
                    w.clear_interval_with_handle(handle);
                    drop(tick);
                }
            }
        });
    }
    *seconds
}

/// Patches properties.
#[derive(Properties, PartialEq)]
pub struct PatchesProps {
    /// Where repair is.
    pub repair: RepairState,
    /// Repair can start (the loop has labels and the worker is idle).
    pub can_repair: bool,
    /// Repair is the current step (Ctrl/Cmd+Enter runs it): the loop has ended.
    pub primary: bool,
    /// Start repair.
    pub onrepair: Callback<()>,
    /// Stop repair (terminates the worker).
    pub onstop: Callback<()>,
    /// Apply a patched program.
    pub onapply: Callback<String>,
    /// Take a step offered where repair stopped short of a fix.
    pub onstep: Callback<NextStep>,
    /// A student's exercise (its labels and ranges are the exercise's: only more
    /// questions are offered).
    #[prop_or_default]
    pub student: bool,
}

fn diff_line(line: &str) -> Html {
    let class = match line.chars().next() {
        Some('+') => "add",
        Some('-') => "del",
        _ => "ctx",
    };
    html! { <span class={class}>{ line }{ "\n" }</span> }
}

/// The Patches region.
#[function_component(Patches)]
pub fn patches(props: &PatchesProps) -> Html {
    let repair = {
        let cb = props.onrepair.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let stop = {
        let cb = props.onstop.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let elapsed = use_elapsed(matches!(props.repair, RepairState::Running(_)));
    let body = match &props.repair {
        RepairState::Idle => html! {
            <p>{ "Repair searches for small changes that pass every labelled test." }</p>
        },
        RepairState::Stopped => {
            html! { <p role="status">{ "Repair stopped. Your labels and answers are kept; press Repair to go on." }</p> }
        }
        RepairState::Running(progress) => html! {
            <div class="repair-progress" aria-live="polite">
                <progress aria-label="Repair progress" />
                { match progress {
                    Some(p) if p.executions > 0 => html! { <p data-testid="repair-progress">{ format!("{} candidates, {} test executions, {} plausible patches{} · {elapsed} s", p.candidates, p.executions, p.plausible, p.best_cost.map(|c| format!(", best cost so far {c}")).unwrap_or_default()) }</p> },
                    Some(_) => html! { <p data-testid="repair-progress">{ format!("Preparing: running your program on the labelled tests and locating the statements they blame\u{2026} · {elapsed} s") }</p> },
                    None => html! { <p data-testid="repair-progress">{ format!("Starting\u{2026} · {elapsed} s") }</p> },
                } }
                <button class="secondary" onclick={stop}>{ "Stop" }</button>
            </div>
        },
        RepairState::Done(view) => html! {
            <>
                <p role="status" class={classes!("verdict", view.settled.then_some("settled"))} data-testid="verdict">{ &view.verdict }<Explain term="verdict" /></p>
                if !view.next_steps.is_empty() {
                    <div class="next-steps" data-testid="next-steps" role="group" aria-label="What would help">
                        { for view.next_steps.iter().filter(|step| !props.student || matches!(step, NextStep::GiveOutput { .. } | NextStep::MoreQuestions)).map(|step| {
                            let take = {
                                let (cb, step) = (props.onstep.clone(), step.clone());
                                Callback::from(move |_: MouseEvent| cb.emit(step.clone()))
                            };
                            html! {
                                <p class="next-step">
                                    <button class="secondary" onclick={take}>{ step.label() }</button>
                                    { " " }<span class="why">{ step.why() }</span>
                                </p>
                            }
                        }) }
                    </div>
                }
                if view.repairs == 0 {
                    <p class="meta">{ "No search yet: repair starts once you answer the question above." }</p>
                } else {
                    <p class="meta">{ format!("{} left; {}; the last ended: {}", count(view.patches.len(), "patch", "patches"), count(view.repairs, "search", "searches"), view.stop) }<Explain term="stop" /></p>
                }
                <ol class="patch-list">
                    { for view.patches.iter().enumerate().map(|(i, p)| {
                        let apply = {
                            let (cb, src) = (props.onapply.clone(), p.source.clone());
                            Callback::from(move |_: MouseEvent| cb.emit(src.clone()))
                        };
                        let the_fix = i == 0 && view.settled;
                        let title = match (i, view.settled) {
                            (0, true) => "Patch 1 - the fix".to_string(),
                            (0, false) => "Patch 1 - best candidate".to_string(),
                            _ => format!("Patch {}", i + 1),
                        };
                        html! {
                            <li class={classes!("patch", the_fix.then_some("the-fix"))} data-passed={p.passed.to_string()} data-total={p.total.to_string()}>
                                <p class="meta">
                                    <strong>{ title }</strong>
                                    { format!(" · cost {}", p.cost) }<Explain term="cost" />
                                    { format!(" · {}", p.checks) }<Explain term="checked" />
                                </p>
                                <pre class="diff">{ for p.diff.lines().map(diff_line) }</pre>
                                <button onclick={apply}>{ "Apply" }</button>
                                <details>
                                    <summary>{ "Why each test passes now (output before and after)" }</summary>
                                    <table>
                                        <thead><tr><th>{ "Input" }</th><th>{ "Before" }</th><th>{ "After" }</th><th>{ "Passes" }</th></tr></thead>
                                        <tbody>{ for p.changes.iter().map(|c| html! {
                                            <tr><td><code>{ &c.input }</code></td><td><OutputText text={c.before.clone()} /></td>
                                                <td><OutputText text={c.after.clone()} /></td><td>{ if c.passes { "✔ yes" } else { "✖ no" } }</td></tr>
                                        }) }</tbody>
                                    </table>
                                </details>
                            </li>
                        }
                    }) }
                </ol>
            </>
        },
    };
    let running = matches!(props.repair, RepairState::Running(_));
    html! {
        <section class="panel patches" role="region" aria-label="Patches">
            <h2>{ "Patches" }</h2>
            if !running && !matches!(props.repair, RepairState::Done(_)) {
                <button data-primary={props.primary.then_some("")} onclick={repair} disabled={!props.can_repair}>{ "Repair" }</button>
            }
            { body }
        </section>
    }
}
