//! Author mode: a teacher writes an exercise (programs, failing input, ranges, budgets, text), previews it as a student, and makes its link.

use super::editor::{markers, Editor};
use super::RangeRow;
use crate::exercise::gallery;
use crate::exercise::Exercise;
use crate::page::AuthorField;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// Author page properties.
#[derive(Properties, PartialEq)]
pub struct AuthorProps {
    /// The draft.
    pub draft: Exercise,
    /// The link made from it (full URL), if it is current.
    pub link: Option<String>,
    /// An edited draft a starter replaced (one click brings it back).
    pub replaced: Option<Exercise>,
    /// Start the draft from a starter (its id).
    pub onstart: Callback<String>,
    /// Bring back the replaced draft.
    pub onrestore: Callback<()>,
    /// A field changed.
    pub onfield: Callback<(AuthorField, String)>,
    /// A range changed.
    pub onrange: Callback<(usize, String, String)>,
    /// Preview as a student.
    pub onpreview: Callback<()>,
    /// Make the link.
    pub onlink: Callback<()>,
}

/// The author page.
#[function_component(AuthorPage)]
pub fn author_page(props: &AuthorProps) -> Html {
    let d = &props.draft;
    let buggy_markers = use_memo(d.buggy.clone(), |p| markers(p));
    let reference_markers = use_memo(d.reference.clone(), |p| markers(p));
    let text = |field: AuthorField| {
        let cb = props.onfield.clone();
        Callback::from(move |t: String| cb.emit((field, t)))
    };
    let input = |field: AuthorField| {
        let cb = props.onfield.clone();
        Callback::from(move |e: InputEvent| {
            cb.emit((field, e.target_unchecked_into::<HtmlInputElement>().value()))
        })
    };
    let instructions = {
        let cb = props.onfield.clone();
        Callback::from(move |e: InputEvent| {
            cb.emit((
                AuthorField::Instructions,
                e.target_unchecked_into::<HtmlTextAreaElement>().value(),
            ))
        })
    };
    let button = |cb: &Callback<()>| {
        let cb = cb.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let starters = use_memo((), |_| gallery::starters());
    let current = gallery::starter_of(d).map(|s| s.id);
    let onstart = {
        let cb = props.onstart.clone();
        Callback::from(move |e: Event| {
            let id = e.target_unchecked_into::<HtmlSelectElement>().value();
            if !id.is_empty() {
                cb.emit(id)
            }
        })
    };
    let option = |s: &gallery::Starter| {
        html! { <option value={s.id.clone()} selected={current.as_deref() == Some(s.id.as_str())}>{ &s.label }</option> }
    };
    let arity = d.failing_input.split_whitespace().count().min(8);
    let ranges = (0..arity).map(|i| {
        let r = d.ranges.get(i).copied().flatten();
        html! {
            <RangeRow key={format!("author-{i}")} index={i} name={format!("x{}", i + 1)}
                min={r.map(|r| r.min.to_string()).unwrap_or_default()}
                max={r.map(|r| r.max.to_string()).unwrap_or_default()}
                disabled={false} onchange={props.onrange.clone()} />
        }
    });
    html! {
        <main class="author">
            <section class="panel" aria-label="Author an exercise">
                <h2>{ "Author an exercise" }</h2>
                <p class="hint">{ "Students get one link: it opens the buggy program with your instructions; the reference program checks every answer and fix." }</p>
                <div class="fields">
                    <label for="exercise-start">{ "Start from" }</label>
                    <select id="exercise-start" onchange={onstart}>
                        <option value="" selected={current.is_none()}>{ "(your own draft)" }</option>
                        <optgroup label="Exercises">{ for starters.iter().filter(|s| s.id.starts_with("exercise:")).map(option) }</optgroup>
                        <optgroup label="Examples">{ for starters.iter().filter(|s| s.id.starts_with("example:")).map(option) }</optgroup>
                    </select>
                </div>
                if let Some(old) = &props.replaced {
                    <div class="put-aside" role="status" data-testid="draft-aside">
                        <p>{ format!("Your draft \"{}\" was put aside.", if old.title.trim().is_empty() { "untitled" } else { old.title.trim() }) }</p>
                        <button class="secondary" onclick={button(&props.onrestore)}>{ "Bring back my draft" }</button>
                    </div>
                }
                <div class="fields">
                    <label for="exercise-title">{ "Title" }</label>
                    <input id="exercise-title" type="text" value={d.title.clone()} oninput={input(AuthorField::Title)} />
                    <label for="exercise-instructions">{ "Instructions" }</label>
                    <textarea id="exercise-instructions" rows="3" value={d.instructions.clone()} oninput={instructions} />
                </div>
                <div class="two-editors">
                    <div>
                        <h3>{ "Buggy program" }</h3>
                        <Editor id="buggy-program" label="Buggy program" value={d.buggy.clone()} markers={(*buggy_markers).clone()} readonly={false} oninput={text(AuthorField::Buggy)} />
                    </div>
                    <div>
                        <h3>{ "Reference program" }</h3>
                        <Editor id="reference-program" label="Reference program" value={d.reference.clone()} markers={(*reference_markers).clone()} readonly={false} oninput={text(AuthorField::Reference)} />
                    </div>
                </div>
                <div class="fields">
                    <label for="exercise-failing-input">{ "Failing input" }</label>
                    <input id="exercise-failing-input" type="text" value={d.failing_input.clone()} oninput={input(AuthorField::Failing)} />
                </div>
                <details class="ranges">
                    <summary>{ "Input ranges (optional)" }</summary>
                    { for ranges }
                </details>
                <fieldset class="settings">
                    <legend>{ "Settings" }</legend>
                    <label>{ "Label budget " }<input type="number" min="1" max="200" value={d.settings.label_budget.to_string()} oninput={input(AuthorField::Budget)} /></label>
                    <label>{ "Committee size " }<input type="number" min="1" max="50" value={d.settings.committee.to_string()} oninput={input(AuthorField::Committee)} /></label>
                    <label>{ "Seed " }<input type="number" min="0" value={d.settings.seed.to_string()} oninput={input(AuthorField::Seed)} /></label>
                </fieldset>
                <div class="buttons">
                    <button class="secondary" onclick={button(&props.onpreview)}>{ "Preview" }</button>
                    <button data-primary="" onclick={button(&props.onlink)}>{ "Make link" }</button>
                </div>
                <p class="hint">{ "The reference program travels inside the link. The page hides it from students, but it is not secret: anyone who decodes the link can read it." }</p>
                if let Some(url) = &props.link {
                    <div class="share" data-exercise-url={url.clone()} role="status">
                        <label for="exercise-url">{ "Exercise link" }</label>
                        <input id="exercise-url" type="text" readonly=true value={url.clone()} />
                        <p class="warning">{ format!("{} characters. The reference program is inside this link: hidden from view, not secret.", url.len()) }</p>
                    </div>
                }
            </section>
        </main>
    }
}
