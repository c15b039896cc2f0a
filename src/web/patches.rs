//! The Patches region: Repair with progress and Stop, then what is known about the patches in plain words and the patches as diffs with cost, what was checked, Apply and before/after outputs.

use super::state::RepairState;
use yew::prelude::*;

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
                    Some(p) => html! { <p>{ format!("{} candidates, {} test executions, {} plausible patches{}", p.candidates, p.executions, p.plausible, p.best_cost.map(|c| format!(", best cost so far {c}")).unwrap_or_default()) }</p> },
                    None => html! { <p>{ "Starting\u{2026}" }</p> },
                } }
                <button class="secondary" onclick={stop}>{ "Stop" }</button>
            </div>
        },
        RepairState::Done(view) => html! {
            <>
                <p role="status" class={classes!("verdict", view.settled.then_some("settled"))} data-testid="verdict">{ &view.verdict }</p>
                <p class="meta">{ format!("{} patch(es) left; {} search(es); the last ended: {}", view.patches.len(), view.repairs, view.stop) }</p>
                <ol class="patch-list">
                    { for view.patches.iter().enumerate().map(|(i, p)| {
                        let apply = {
                            let (cb, src) = (props.onapply.clone(), p.source.clone());
                            Callback::from(move |_: MouseEvent| cb.emit(src.clone()))
                        };
                        let the_fix = i == 0 && view.settled;
                        html! {
                            <li class={classes!("patch", the_fix.then_some("the-fix"))} data-passed={p.passed.to_string()} data-total={p.total.to_string()}>
                                <p class="meta">
                                    <strong>{ if the_fix { format!("Patch {} - the fix found", i + 1) } else { format!("Patch {}", i + 1) } }</strong>
                                    { format!(" · cost {} · {}", p.cost, p.checks) }
                                </p>
                                <pre class="diff">{ for p.diff.lines().map(diff_line) }</pre>
                                <button onclick={apply}>{ "Apply" }</button>
                                <details>
                                    <summary>{ "Why each test passes now (output before and after)" }</summary>
                                    <table>
                                        <thead><tr><th>{ "Input" }</th><th>{ "Before" }</th><th>{ "After" }</th><th>{ "Passes" }</th></tr></thead>
                                        <tbody>{ for p.changes.iter().map(|c| html! {
                                            <tr><td><code>{ &c.input }</code></td><td><code>{ c.before.trim() }</code></td>
                                                <td><code>{ c.after.trim() }</code></td><td>{ if c.passes { "✔ yes" } else { "✖ no" } }</td></tr>
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
