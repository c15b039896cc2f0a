//! The teacher's page: import many report files, see each re-verified in a table named by student, a chart of the class, and the inputs most often answered wrongly.

use crate::excerpt::count;
use crate::exercise::class::{ClassSummary, ReportRow};
use crate::page::ClassState;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Teacher page properties.
#[derive(Properties, PartialEq)]
pub struct TeacherProps {
    /// The imported class.
    pub class: ClassState,
    /// Files read: `(name, text)`.
    pub onfiles: Callback<Vec<(String, String)>>,
}

fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

fn fix_cell(row: &ReportRow) -> Html {
    match &row.fix {
        None => html! { { "no fix handed in" } },
        Some(f) => html! {
            <>
                <strong>{ if f.all_pass { "✔ yes" } else { "✖ no" } }</strong>
                { format!(" - {}", f.checked) }
            </>
        },
    }
}

/// The table's caption: how many files, how many counted, how many fixed.
fn caption(class: &ClassSummary) -> String {
    let counted = class.counted().count();
    let aside = class.rows.len() - counted;
    let files = count(class.rows.len(), "report", "reports");
    let fixed = format!("{} of {counted} fixed the bug", class.fixed());
    if aside == 0 {
        format!("{files}, {fixed}.")
    } else {
        format!("{files}: {counted} counted, {aside} set aside (below); {fixed}.")
    }
}

/// The chart: label accuracy per report, then the share that fixed the bug; every bar
/// carries its number as text.
fn chart(class: &ClassSummary) -> Html {
    const BAR: f64 = 180.0;
    const LEFT: f64 = 120.0;
    const ROW: f64 = 22.0;
    let rows: Vec<&ReportRow> = class.counted().collect();
    let height = ROW * (rows.len() as f64 + 3.0) + 10.0;
    let fixed_share = if rows.is_empty() {
        0.0
    } else {
        class.fixed() as f64 / rows.len() as f64
    };
    let bar = |i: usize, label: String, share: f64, class: &'static str, text: String| {
        let y = 24.0 + ROW * i as f64;
        html! {
            <g class={class}>
                <text x={(LEFT - 6.0).to_string()} y={(y + 13.0).to_string()} text-anchor="end">{ label }</text>
                <rect class="track" x={LEFT.to_string()} y={y.to_string()} width={BAR.to_string()} height="16" />
                <rect class="fill" x={LEFT.to_string()} y={y.to_string()} width={(BAR * share.clamp(0.0, 1.0)).to_string()} height="16" />
                <text x={(LEFT + BAR + 6.0).to_string()} y={(y + 13.0).to_string()}>{ text }</text>
            </g>
        }
    };
    let short = |name: &str| {
        let mut s: String = name.chars().take(16).collect();
        if name.chars().count() > 16 {
            s.push('\u{2026}');
        }
        s
    };
    html! {
        <svg class="class-chart" viewBox={format!("0 0 360 {height}")} role="img"
            aria-label={format!("Label accuracy per report; {} of {} fixed the bug", class.fixed(), rows.len())}>
            <text x="0" y="14" class="title">{ "Label accuracy per report" }</text>
            { for rows.iter().enumerate().map(|(i, r)| {
                let acc = r.label_accuracy();
                bar(i, short(r.who()), acc.unwrap_or(0.0), "accuracy",
                    acc.map(percent).unwrap_or_else(|| "no answers".into()))
            }) }
            { bar(rows.len() + 1, "fixed the bug".into(), fixed_share, "fixed",
                format!("{} of {}", class.fixed(), rows.len())) }
        </svg>
    }
}

/// The teacher page.
#[function_component(TeacherPage)]
pub fn teacher_page(props: &TeacherProps) -> Html {
    let onchange = {
        let cb = props.onfiles.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(list) = input.files() else {
                return;
            };
            let files: Vec<web_sys::File> =
                (0..list.length()).filter_map(|i| list.get(i)).collect();
            input.set_value("");
            let cb = cb.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let mut read = Vec::with_capacity(files.len());
                for file in files {
                    let text = wasm_bindgen_futures::JsFuture::from(file.text())
                        .await
                        .ok()
                        .and_then(|v| v.as_string())
                        .unwrap_or_default();
                    read.push((file.name(), text));
                }
                cb.emit(read);
            });
        })
    };
    let body = match (&props.class.summary, props.class.loading) {
        (_, true) => {
            html! { <p aria-live="polite">{ "Re-checking every report against its exercise\u{2026}" }</p> }
        }
        (None, false) => html! { <p>{ "No reports imported yet." }</p> },
        (Some(class), false) => html! {
            <>
                <div class="table-scroll">
                <table class="class-table" data-testid="class-table">
                    <caption>{ caption(class) }</caption>
                    <thead><tr>
                        <th scope="col">{ "Student" }</th><th scope="col">{ "File" }</th><th scope="col">{ "Exercise" }</th>
                        <th scope="col">{ "Score" }</th><th scope="col">{ "Label accuracy" }</th>
                        <th scope="col">{ "Fixed" }</th><th scope="col">{ "Minutes" }</th><th scope="col">{ "Verified" }</th>
                    </tr></thead>
                    <tbody>{ for class.counted().map(|r| html! {
                        <tr data-genuine="true" data-fixed={r.fixed().to_string()} data-student={r.student.clone()}>
                            <th scope="row">{ r.who() }</th>
                            <td>{ &r.file }</td>
                            <td>{ &r.title }</td>
                            <td>{ format!("{} / {}", r.right, r.total) }</td>
                            <td>{ r.label_accuracy().map(percent).unwrap_or_else(|| "-".into()) }</td>
                            <td>{ fix_cell(r) }</td>
                            <td>{ format!("{:.1}", r.time_spent_ms as f64 / 60_000.0) }</td>
                            <td>{ "✔ genuine" }</td>
                        </tr>
                    }) }</tbody>
                </table>
                </div>
                if class.set_aside().next().is_some() {
                    <section class="set-aside" data-testid="set-aside" aria-label="Reports set aside">
                        <h3>{ "Set aside (counted nowhere)" }</h3>
                        <p class="hint">{ "These files are not in the table, the chart or the wrong answers: their figures cannot be trusted." }</p>
                        <ul>{ for class.set_aside().map(|r| html! {
                            <li data-student={r.student.clone()} data-file={r.file.clone()}>
                                <strong>{ r.who() }</strong>
                                if !r.student.is_empty() { { format!(" ({})", r.file) } }
                                { format!(" - {}", r.set_aside_because().unwrap_or_default()) }
                            </li>
                        }) }</ul>
                    </section>
                }
                if class.skipped > 0 {
                    <p class="warning">{ format!("{} not read (at most {} at once).", count(class.skipped, "more file was", "more files were"), crate::exercise::class::MAX_REPORT_FILES) }</p>
                }
                { chart(class) }
                <h3>{ "Most common wrong answers" }</h3>
                if class.common_wrong.is_empty() {
                    <p>{ "No wrong answers." }</p>
                } else {
                    <ol class="common-wrong">{ for class.common_wrong.iter().map(|w| html! {
                        <li>{ format!("{} - input ", w.title) }<code>{ &w.input }</code>
                            { format!(": answered wrongly {}; correct output ", count(w.times, "time", "times")) }<code>{ w.reference_output.trim_end() }</code></li>
                    }) }</ol>
                }
            </>
        },
    };
    html! {
        <main class="teacher">
            <section class="panel" aria-label="Class reports">
                <h2>{ "Class reports" }</h2>
                <p class="hint">{ "Import the report files students exported. Every figure is recomputed from the exercise inside the report, and the student's name is sealed to the work; an edited report is set aside and counted nowhere." }</p>
                <label class="file" for="report-files">{ "Import reports" }</label>
                <input id="report-files" class="visually-hidden" type="file" multiple=true accept=".json,application/json" {onchange} />
                { body }
            </section>
        </main>
    }
}
