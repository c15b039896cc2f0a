//! "How it works": a figure of the loop (fuzz, label, learn, repair, choose) and the seed papers' ideas in plain words.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct HowProps {
    /// Shown open (before Start) or as a closed section to open (during a session).
    pub open: bool,
}

/// The loop as a figure: five steps in a ring, the person's two steps marked.
fn figure() -> Html {
    let steps = [
        (20.0, "1 Fuzz", "nearby inputs"),
        (130.0, "2 Label", "you: bug or not?"),
        (240.0, "3 Learn", "a bug formula"),
        (350.0, "4 Repair", "cheapest patches"),
        (460.0, "5 Choose", "you: which output?"),
    ];
    html! {
        <svg class="how-figure" viewBox="0 0 580 130" role="img" aria-label="Five steps in a ring: fuzz nearby inputs; you answer bug or not; a bug formula is learned; patches are searched; you choose between patches that disagree. Each answer goes back into learning and repair.">
            <defs>
                <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path class="head" d="M0 0 L10 5 L0 10 z" />
                </marker>
            </defs>
            { for steps.iter().map(|(x, title, line)| html! {
                <g>
                    <rect x={x.to_string()} y="20" width="100" height="56" />
                    <text x={(x + 50.0).to_string()} y="42" text-anchor="middle" class="title">{ *title }</text>
                    <text x={(x + 50.0).to_string()} y="62" text-anchor="middle" class="small">{ *line }</text>
                </g>
            }) }
            { for steps.windows(2).map(|w| html! {
                <path d={format!("M{} 48 L{} 48", w[0].0 + 100.0, w[1].0 - 2.0)} />
            }) }
            <path d="M510 78 C510 120, 290 120, 290 80" />
            <text x="400" y="124" text-anchor="middle" class="small">{ "each answer is a new test: learn and repair again" }</text>
        </svg>
    }
}

/// The section.
#[function_component(HowItWorks)]
pub fn how_it_works(p: &HowProps) -> Html {
    html! {
        <details class="panel intro how" open={p.open} data-testid="how-it-works">
            <summary><h2>{ "How it works" }</h2></summary>
            { figure() }
            <ol>
                <li><strong>{ "Fuzz. " }</strong>{ "Paste a program that reads numbers and an input it gets wrong. fixloop makes inputs near that one (a little more, a little less, doubled, halved, the sign flipped, the limits of the type), as Learn2fix does." }</li>
                <li><strong>{ "Label. " }</strong>{ "It shows you only the runs worth your time and asks: Bug or Not a bug? It picks them with a committee of look-ahead oracles - what-if oracles learned as if you had already answered - and asks where they vote bug (Learn2fix)." }</li>
                <li><strong>{ "Learn. " }</strong>{ "From your answers it learns a bug oracle: the smallest condition over the inputs and the output that is true on exactly the runs you called bugs (an SMT(LRA) learner in the style of Incal). The plot shows it." }</li>
                <li><strong>{ "Repair. " }</strong>{ "It searches for the cheapest small changes to the program that pass every labelled test: many candidate expressions at once per test run (test-equivalence, as in f1x), each kind of edit with its cost (cost-aware repair), then a genetic search over statements whose edit operators are chosen by a learner (GenProg with reinforcement learning)." }</li>
                <li><strong>{ "Choose. " }</strong>{ "Patches that pass every test can still disagree. fixloop finds an input where they print different answers and asks you which is right; your answer is one more test, and the patches that disagree with it are ruled out. A patch is called the fix only when nothing it was checked on tells it apart from another." }</li>
            </ol>
            <p class="hint">{ "Everything runs in this tab: the program, the fuzzer, the learner and the repair search. Nothing is sent anywhere." }</p>
        </details>
    }
}
