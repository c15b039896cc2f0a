//! The program editor: a textarea over a syntax-coloured copy (the real lexer's tokens), a line-number gutter and error markers.

use crate::lang::lexer::{lex, TokKind};
use crate::lang::{compile, Diagnostic};
use web_sys::{HtmlElement, HtmlTextAreaElement};
use yew::prelude::*;

/// One diagnostic as the editor shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// "error" or "warning".
    pub severity: String,
    /// The message.
    pub message: String,
}

/// Every diagnostic of `source` (compile errors, else warnings).
pub fn markers(source: &str) -> Vec<Marker> {
    let diags: Vec<Diagnostic> = match compile(source) {
        Err(e) => e.diagnostics,
        Ok(p) => p.warnings().to_vec(),
    };
    diags
        .into_iter()
        .map(|d| Marker {
            line: d.line,
            col: d.col,
            severity: d.severity.to_string(),
            message: d.message,
        })
        .collect()
}

const KEYWORDS: &[&str] = &[
    "int", "long", "double", "float", "char", "void", "unsigned", "signed", "short", "const", "if",
    "else", "while", "do", "for", "return", "break", "continue", "switch", "case", "default",
    "sizeof", "struct", "static",
];

/// The source as coloured spans (comments and whitespace are the gaps between tokens).
fn highlighted(source: &str) -> Html {
    let (tokens, _) = lex(source);
    let mut out: Vec<Html> = Vec::with_capacity(tokens.len() * 2);
    let mut at = 0usize;
    let gap = |text: &str| -> Html {
        if text.trim().is_empty() {
            html! { { text.to_string() } }
        } else {
            html! { <span class="tok-comment">{ text.to_string() }</span> }
        }
    };
    for t in &tokens {
        let (start, end) = (t.span.start as usize, t.span.end as usize);
        if t.kind == TokKind::Eof || start < at || end > source.len() || t.from_macro {
            continue;
        }
        if !source.is_char_boundary(start) || !source.is_char_boundary(end) {
            continue;
        }
        if start > at {
            out.push(gap(&source[at..start]));
        }
        let text = source[start..end].to_string();
        let class = match &t.kind {
            TokKind::Ident(name) if KEYWORDS.contains(&name.as_str()) => "tok-keyword",
            TokKind::Ident(_) => "tok-ident",
            TokKind::Number(_) => "tok-number",
            TokKind::Char(_) | TokKind::Str(_) => "tok-string",
            TokKind::Punct(_) if t.line_start && text == "#" => "tok-directive",
            TokKind::Punct(_) => "tok-punct",
            _ => "tok-invalid",
        };
        out.push(html! { <span class={class}>{ text }</span> });
        at = end;
    }
    if at < source.len() {
        out.push(gap(&source[at..]));
    }
    // A trailing newline needs a character after it to give the overlay its height.
    out.push(html! { { " " } });
    out.into_iter().collect::<Html>()
}

/// Editor properties.
#[derive(Properties, PartialEq)]
pub struct EditorProps {
    /// The program.
    pub value: String,
    /// Diagnostics to mark.
    pub markers: Vec<Marker>,
    /// Read-only while the loop runs.
    pub readonly: bool,
    /// New text.
    pub oninput: Callback<String>,
    /// The text area's id (several editors can share a page).
    #[prop_or(AttrValue::Static("program"))]
    pub id: AttrValue,
    /// The text area's accessible name.
    #[prop_or(AttrValue::Static("Program"))]
    pub label: AttrValue,
}

/// The editor.
#[function_component(Editor)]
pub fn editor(props: &EditorProps) -> Html {
    let overlay = use_node_ref();
    let gutter = use_node_ref();
    let onscroll = {
        let (overlay, gutter) = (overlay.clone(), gutter.clone());
        Callback::from(move |e: Event| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            if let Some(o) = overlay.cast::<HtmlElement>() {
                o.set_scroll_top(area.scroll_top());
                o.set_scroll_left(area.scroll_left());
            }
            if let Some(g) = gutter.cast::<HtmlElement>() {
                g.set_scroll_top(area.scroll_top());
            }
        })
    };
    let oninput = {
        let cb = props.oninput.clone();
        Callback::from(move |e: InputEvent| {
            cb.emit(e.target_unchecked_into::<HtmlTextAreaElement>().value())
        })
    };
    let lines = props.value.split('\n').count().max(1);
    let gutter_lines = (1..=lines as u32).map(|n| {
        let here: Vec<&Marker> = props.markers.iter().filter(|m| m.line == n).collect();
        if here.is_empty() {
            html! { <div class="gutter-line">{ n }</div> }
        } else {
            let error = here.iter().any(|m| m.severity == "error");
            let title = here
                .iter()
                .map(|m| format!("{}:{}: {}: {}", m.line, m.col, m.severity, m.message))
                .collect::<Vec<_>>()
                .join("\n");
            html! {
                <div class={classes!("gutter-line", if error { "has-error" } else { "has-warning" })} title={title}>
                    <span class="marker" aria-hidden="true">{ if error { "✖" } else { "!" } }</span>{ n }
                </div>
            }
        }
    });
    let highlighted = use_memo(props.value.clone(), |v| highlighted(v));
    let diagnostics_id = format!("{}-diagnostics", props.id);
    html! {
        <div class="editor-wrap">
            <div class="editor">
                <div class="gutter" ref={gutter} aria-hidden="true">{ for gutter_lines }</div>
                <div class="code">
                    <pre class="overlay" ref={overlay} aria-hidden="true">{ (*highlighted).clone() }</pre>
                    <textarea class="code-area" id={props.id.clone()} aria-label={props.label.clone()} spellcheck="false" autocapitalize="off"
                        autocomplete="off" wrap="off" readonly={props.readonly}
                        aria-describedby={diagnostics_id.clone()}
                        value={props.value.clone()} {oninput} {onscroll} />
                </div>
            </div>
            <ul id={diagnostics_id} class="diagnostics" aria-label="Diagnostics">
                { for props.markers.iter().map(|m| html! {
                    <li class={m.severity.clone()}>
                        <strong>{ format!("{} line {}:{}", if m.severity == "error" { "✖ error" } else { "! warning" }, m.line, m.col) }</strong>
                        { format!(" {}", m.message) }
                    </li>
                }) }
            </ul>
        </div>
    }
}
