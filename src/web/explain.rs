//! One-line explanations of the page's terms where they appear: a "?" that shows its line on hover (title) and on tap or Enter (it opens in place).

use yew::prelude::*;

/// Every explained term and its line, in plain words.
pub const GLOSSARY: &[(&str, &str)] = &[
    ("generated", "Tests generated: inputs made by mutating the failing input (nudging, doubling, halving, flipping signs, boundary values); only a few are shown to you."),
    ("label budget", "The most questions fixloop may ask you about runs before it stops and repairs."),
    ("committee", "How many neighbour inputs fixloop tries when it is unsure: for each it learns two what-if oracles (bug, not a bug) and asks you when half of them vote bug."),
    ("seed", "Fixes the random choices of fuzzing and repair: the same seed and answers give the same questions and patches."),
    ("asked because", "Why this run was worth your time: the oracle predicts a bug here, or the look-ahead oracles (learned as if you had answered) disagree about it."),
    ("look-ahead", "Look-ahead oracles are learned as if you had already answered a nearby run one way or the other; when many of them vote bug, the run is worth asking about."),
    ("formula", "The learned bug oracle: a condition over the inputs (and the output, as out) that is true on every run you called a bug and false on every other one; the smallest such condition is chosen."),
    ("plot", "Each mark is a run you labelled: ✕ bug, ○ not a bug. The shaded area is where the formula says bug (the other inputs held at the failing input's values)."),
    ("cost", "How big the change is: the number of program pieces the patch changes, weighted by the kind of edit; cheaper patches are tried and listed first."),
    ("checked", "What this patch was run on: every labelled test, the inputs of your answers about patches, and fresh inputs drawn to rank the patches, which the learned oracle judges (the verdict above counts other fresh inputs: those the patches were compared on)."),
    ("verdict", "What is known about the patches: which tests they pass, where they still print different answers, and whether one is settled as the fix."),
    ("stop", "Why the search ended: it found patches, decided every candidate (all candidates decided), or used its budget of candidates or test runs."),
    ("questions about patches", "When patches that pass every test disagree on an input, fixloop asks you which output is right; your answer rules the others out."),
];

/// The line for `term` (empty for an unknown term; the e2e test checks none is empty).
pub fn line(term: &str) -> &'static str {
    GLOSSARY
        .iter()
        .find(|(t, _)| *t == term)
        .map_or("", |(_, l)| l)
}

#[derive(Properties, PartialEq)]
pub struct ExplainProps {
    /// A key of [`GLOSSARY`].
    pub term: &'static str,
}

/// A small "?" after a term: hover shows the line as a tooltip; a tap, a click or
/// Enter opens it in place (a `details` element, so it works without script too).
#[function_component(Explain)]
pub fn explain(p: &ExplainProps) -> Html {
    let text = line(p.term);
    html! {
        <details class="explain" data-term={p.term} title={text}>
            // The name is in the content, not an aria-label, so a field's label stays the
            // only label with its words.
            <summary><span aria-hidden="true">{ "?" }</span><span class="visually-hidden">{ format!("What is {}?", p.term) }</span></summary>
            <span class="explain-text" role="note">{ text }</span>
        </details>
    }
}
