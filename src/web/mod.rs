//! The browser playground (Yew): for now an editor that compiles and runs a program on one input.

use crate::lang::{compile, Limits};
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

const EXAMPLE: &str = r#"#include <stdio.h>

int main(void) {
    int a, b, c;
    scanf("%d %d %d", &a, &b, &c);
    if (a == b == c)            /* the bug: means (a == b) == c */
        printf("equilateral\n");
    else if (a == b || b == c || a == c)
        printf("isosceles\n");
    else
        printf("scalene\n");
    return 0;
}
"#;

/// What one press of Run shows.
#[derive(Clone, PartialEq)]
enum RunView {
    /// The program did not compile: every diagnostic, one per line.
    Diagnostics(Vec<String>),
    /// The program ran: its stdout and how it ended.
    Ran { stdout: String, outcome: String },
}

fn run_program(source: &str, input: &str) -> RunView {
    match compile(source) {
        Err(error) => RunView::Diagnostics(error.to_string().lines().map(str::to_string).collect()),
        Ok(program) => {
            let mut stdin = input.as_bytes().to_vec();
            stdin.push(b'\n');
            let execution = program.run(&stdin, &Limits::default());
            RunView::Ran {
                stdout: String::from_utf8_lossy(&execution.stdout).into_owned(),
                outcome: execution.outcome.to_string(),
            }
        }
    }
}

#[function_component(App)]
fn app() -> Html {
    let source = use_state(|| EXAMPLE.to_string());
    let input = use_state(|| "2 2 2".to_string());
    let view = use_state(|| None::<RunView>);

    let on_source = {
        let source = source.clone();
        Callback::from(move |e: InputEvent| {
            source.set(e.target_unchecked_into::<HtmlTextAreaElement>().value())
        })
    };
    let on_input = {
        let input = input.clone();
        Callback::from(move |e: InputEvent| {
            input.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let on_run = {
        let (source, input, view) = (source.clone(), input.clone(), view.clone());
        Callback::from(move |_: MouseEvent| view.set(Some(run_program(&source, &input))))
    };

    let result = match &*view {
        None => html! {},
        Some(RunView::Diagnostics(lines)) => html! {
            <div role="alert" class="diagnostics">
                <p>{ "The program does not compile:" }</p>
                <ul>{ for lines.iter().map(|l| html! { <li>{ l }</li> }) }</ul>
            </div>
        },
        Some(RunView::Ran { stdout, outcome }) => html! {
            <section aria-label="Result">
                <h2>{ "Output" }</h2>
                <pre class="stdout" data-testid="stdout">{ stdout }</pre>
                <p class="outcome" data-testid="outcome">{ outcome }</p>
            </section>
        },
    };

    html! {
        <main>
            <h1>{ "fixloop" }</h1>
            <p class="tagline">{ "Paste a small C program and an input; fixloop runs it in your browser." }</p>
            <label for="program">{ "Program" }</label>
            <textarea id="program" spellcheck="false" rows="18" value={(*source).clone()} oninput={on_source} />
            <label for="input">{ "Input" }</label>
            <input id="input" type="text" value={(*input).clone()} oninput={on_input} />
            <button onclick={on_run}>{ "Run" }</button>
            { result }
        </main>
    }
}

/// Mounts the playground into the page body.
pub fn start() {
    yew::Renderer::<App>::new().render();
}
