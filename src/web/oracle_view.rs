//! The Oracle region: the learned formula, and an SVG plot of the labelled tests on two variables with the formula's "bug" region shaded.

use super::explain::Explain;
use crate::active::formula::value_of;
use crate::excerpt::one_line;
use crate::lang::Num;
use crate::oracle::Formula;
use crate::session::protocol::LoopView;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Grid cells per axis for shading.
const GRID: usize = 24;
/// Plot size in SVG units.
const SIZE: f64 = 300.0;
const PAD: f64 = 28.0;

/// Oracle properties.
#[derive(Properties, PartialEq)]
pub struct OracleProps {
    /// The loop.
    pub view: LoopView,
    /// Chosen axes (variable indices).
    pub axes: (usize, usize),
    /// New axes.
    pub onaxes: Callback<(usize, usize)>,
}

/// An axis end as a person reads it: a whole number where it is one (never `-0`),
/// otherwise two decimals.
fn axis_number(v: f64) -> String {
    let r = v.round();
    if (v - r).abs() < 1e-9 {
        format!("{}", r as i64)
    } else {
        format!("{v:.2}")
    }
}

fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite() && v.abs() < 1e12) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    // Whole-number ends: integer data (the common case) gets labels such as `1 .. 11`;
    // the margin never takes an end past the `int` range the data lies in (an axis from
    // -2362232015 reads as a broken plot).
    let span = (hi - lo).max(1.0);
    let (int_min, int_max) = (f64::from(i32::MIN), f64::from(i32::MAX));
    let lo_end = (lo - span * 0.1 - 0.5).floor();
    let hi_end = (hi + span * 0.1 + 0.5).ceil();
    (
        if lo >= int_min {
            lo_end.max(int_min)
        } else {
            lo_end
        },
        if hi <= int_max {
            hi_end.min(int_max)
        } else {
            hi_end
        },
    )
}

/// The values of `values` the plot frames when it zooms on the failing input's value
/// `center`: those within `max(10, 5 x the median distance)` of it. A few far points
/// (a fuzzed `-2147483648` beside sides 1..12) would otherwise squash every other point
/// into one corner; they are drawn at the frame's edge instead.
fn near(values: &[f64], center: f64) -> Vec<f64> {
    let mut distance: Vec<f64> = values
        .iter()
        .filter(|v| v.is_finite())
        .map(|v| (v - center).abs())
        .collect();
    distance.sort_by(f64::total_cmp);
    let median = distance.get(distance.len() / 2).copied().unwrap_or(0.0);
    let reach = (5.0 * median).max(10.0);
    values
        .iter()
        .copied()
        .filter(|v| (v - center).abs() <= reach)
        .collect()
}

/// The Oracle region.
#[function_component(OracleView)]
pub fn oracle_view(props: &OracleProps) -> Html {
    let view = &props.view;
    let n = view.vars.len();
    let (ax, ay) = props.axes;
    let select = |which: usize| {
        let onaxes = props.onaxes.clone();
        let axes = props.axes;
        Callback::from(move |e: Event| {
            let i = e
                .target_unchecked_into::<HtmlSelectElement>()
                .value()
                .parse()
                .unwrap_or(0);
            onaxes.emit(if which == 0 { (i, axes.1) } else { (axes.0, i) });
        })
    };
    let options = |chosen: usize| {
        view.vars
            .iter()
            .enumerate()
            .map(|(i, v)| html! { <option value={i.to_string()} selected={i == chosen}>{ v }</option> })
            .collect::<Html>()
    };
    let all_runs = use_state(|| false);
    let toggle_all = {
        let all_runs = all_runs.clone();
        Callback::from(move |_: MouseEvent| all_runs.set(!*all_runs))
    };
    let formula = Formula::parse(&view.formula, &view.vars).ok();
    let mut outside = 0;
    let plot = if n >= 2 && ax < n && ay < n && !view.points.is_empty() {
        let framed = |k: usize| {
            let values: Vec<f64> = view.points.iter().map(|p| p.values[k]).collect();
            if *all_runs {
                bounds(values.into_iter())
            } else {
                bounds(near(&values, view.points[0].values[k]).into_iter())
            }
        };
        let (x0, x1) = framed(ax);
        let (y0, y1) = framed(ay);
        let inside = |p: &[f64]| (x0..=x1).contains(&p[ax]) && (y0..=y1).contains(&p[ay]);
        outside = view.points.iter().filter(|p| !inside(&p.values)).count();
        let sx = |x: f64| PAD + (x.clamp(x0, x1) - x0) / (x1 - x0) * (SIZE - 2.0 * PAD);
        let sy = |y: f64| SIZE - PAD - (y.clamp(y0, y1) - y0) / (y1 - y0) * (SIZE - 2.0 * PAD);
        let base: Vec<f64> = view.points[0].values.clone();
        // Integer data on a small span: one cell per integer point (so equalities such as
        // `x1 = x2` show); otherwise a GRID x GRID sample of the plane.
        let integral = |k: usize| view.points.iter().all(|p| p.values[k].fract() == 0.0);
        let cells = |lo: f64, hi: f64, k: usize| -> Vec<(f64, f64, f64)> {
            let (a, b) = (lo.ceil(), hi.floor());
            if integral(k) && b - a <= 60.0 {
                (a as i64..=b as i64)
                    .map(|v| (v as f64, v as f64 - 0.5, v as f64 + 0.5))
                    .collect()
            } else {
                (0..GRID)
                    .map(|i| {
                        let w = (hi - lo) / GRID as f64;
                        (
                            lo + (i as f64 + 0.5) * w,
                            lo + i as f64 * w,
                            lo + (i as f64 + 1.0) * w,
                        )
                    })
                    .collect()
            }
        };
        let mut shaded = Vec::new();
        if let Some(f) = &formula {
            for &(x, xa, xb) in &cells(x0, x1, ax) {
                for &(y, ya, yb) in &cells(y0, y1, ay) {
                    let mut point = base.clone();
                    point[ax] = x;
                    point[ay] = y;
                    let values: Vec<_> = point.iter().map(|v| value_of(&Num::Float(*v))).collect();
                    if f.eval(&values) {
                        let (px, py) = (sx(xa.max(x0)), sy(yb.min(y1)));
                        let (w, h) = (sx(xb.min(x1)) - px, sy(ya.max(y0)) - py);
                        shaded.push(html! { <rect class="region" x={format!("{px:.1}")} y={format!("{py:.1}")} width={format!("{:.1}", w + 0.3)} height={format!("{:.1}", h + 0.3)} /> });
                    }
                }
            }
        }
        let marks = view.points.iter().map(|p| {
            let (cx, cy) = (sx(p.values[ax]), sy(p.values[ay]));
            let out = !inside(&p.values);
            let title = format!(
                "{} -> {} ({}){}",
                p.input,
                one_line(&p.output, 60),
                if p.bug { "bug" } else { "ok" },
                if out {
                    ", outside the plot: drawn at its edge"
                } else {
                    ""
                }
            );
            let class = |kind: &'static str| classes!("pt", kind, out.then_some("outside"));
            if p.bug {
                html! { <g class={class("bug")}><title>{ title }</title>
                <path d={format!("M{:.1} {:.1}l8 8m0 -8l-8 8", cx - 4.0, cy - 4.0)} /></g> }
            } else {
                html! { <g class={class("ok")}><title>{ title }</title>
                <circle cx={format!("{cx:.1}")} cy={format!("{cy:.1}")} r="4.5" /></g> }
            }
        });
        html! {
            <svg class="plot" viewBox={format!("0 0 {SIZE} {SIZE}")} role="img"
                aria-label={format!("Labelled tests on {} and {}; shaded where the oracle says bug", view.vars[ax], view.vars[ay])}>
                <rect class="frame" x={PAD.to_string()} y={PAD.to_string()} width={(SIZE - 2.0 * PAD).to_string()} height={(SIZE - 2.0 * PAD).to_string()} />
                { for shaded }
                { for marks }
                <text x={(SIZE / 2.0).to_string()} y={(SIZE - 6.0).to_string()} text-anchor="middle">{ format!("{} ({} .. {})", view.vars[ax], axis_number(x0), axis_number(x1)) }</text>
                <text x="10" y={(SIZE / 2.0).to_string()} text-anchor="middle" transform={format!("rotate(-90 10 {})", SIZE / 2.0)}>{ format!("{} ({} .. {})", view.vars[ay], axis_number(y0), axis_number(y1)) }</text>
            </svg>
        }
    } else {
        html! { <p>{ "The plot needs at least two variables." }</p> }
    };
    html! {
        <section class="panel oracle" role="region" aria-label="Oracle">
            <h2>{ "Oracle" }</h2>
            <p>{ "Learned bug condition (true means \u{201c}bug\u{201d}):" }<Explain term="formula" /></p>
            <code class="formula" data-testid="formula">{ &view.formula }</code>
            if !view.alternatives.is_empty() {
                <p class="alternatives" data-testid="alternatives">
                    { "These fit your answers as well, so the answers have not yet settled where the bug is: " }
                    { for view.alternatives.iter().enumerate().map(|(i, f)| html! {
                        <>{ if i > 0 { "; " } else { "" } }<code>{ f }</code></>
                    }) }
                </p>
            }
            if !view.encoding.is_empty() {
                <p class="encoding" data-testid="encoding">
                    { format!("{}: {}", view.vars.last().map_or("out", String::as_str), view.encoding.iter().map(|(code, word)| format!("{code} = {word}")).collect::<Vec<_>>().join(", ")) }
                </p>
            }
            <div class="axes">
                <label>{ "x axis " }<select onchange={select(0)}>{ options(ax) }</select></label>
                <label>{ "y axis " }<select onchange={select(1)}>{ options(ay) }</select></label>
            </div>
            { plot }
            if outside > 0 || *all_runs {
                <p class="plot-window" data-testid="plot-window" data-outside={outside.to_string()}>
                    { if *all_runs { "Showing every labelled run. ".to_string() } else { format!("Zoomed on the failing input: {} outside, drawn faded at the edge. ", crate::excerpt::count(outside, "labelled run lies", "labelled runs lie")) } }
                    <button type="button" class="secondary small" onclick={toggle_all}>{ if *all_runs { "Zoom on the failing input" } else { "Show all runs" } }</button>
                </p>
            }
            <p class="legend">
                <span class="key bug">{ "✕ labelled bug" }</span>
                <span class="key ok">{ "○ labelled not a bug" }</span>
                <span class="key region">{ "▒ oracle says bug (other variables as in the failing test)" }</span>
                <Explain term="plot" />
            </p>
        </section>
    }
}
