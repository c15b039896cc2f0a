//! One program output on the page: whole when short; else its first and last lines with a count, and "Show all" in a scrolled box.

use crate::excerpt::Excerpt;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct OutputProps {
    /// The output as the program printed it.
    pub text: AttrValue,
}

/// A program's output (`(nothing)` when empty). A long one never grows the page: the
/// excerpt is a dozen short lines and the whole text opens in a box that scrolls.
#[function_component(OutputText)]
pub fn output_text(p: &OutputProps) -> Html {
    let open = use_state(|| false);
    let excerpt = use_memo(p.text.clone(), |t| Excerpt::of(t));
    if excerpt.total_lines == 0 {
        return html! { <pre class="stdout empty">{ "(nothing)" }</pre> };
    }
    if !excerpt.shortened {
        return html! { <pre class="stdout">{ &excerpt.head }</pre> };
    }
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    html! {
        <div class="long-output" data-total-lines={excerpt.total_lines.to_string()} data-total-bytes={excerpt.total_bytes.to_string()}>
            <pre class="stdout">{ &excerpt.head }</pre>
            if excerpt.omitted_lines > 0 {
                <p class="gap">{ excerpt.gap() }</p>
                <pre class="stdout">{ &excerpt.tail }</pre>
            }
            <button type="button" class="secondary small show-all" aria-expanded={open.to_string()} onclick={toggle}>
                { if *open { "Hide the whole output".to_string() } else { format!("Show all ({})", excerpt.size()) } }
            </button>
            if *open {
                <pre class="stdout all" tabindex="0" aria-label="The whole output">{ p.text.as_str() }</pre>
            }
        </div>
    }
}
