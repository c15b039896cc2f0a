//! `fixloop demo`: the playground's whole loop with the page's defaults, every question answered by running a reference program.

use crate::eval_setup::{AnswererArg, AskingArg, FuzzerArg};
use clap::Args;
use fixloop::active::num::parse_input;
use fixloop::session::autopilot::{fly, reference_user, Flight};
use fixloop::session::{InputRange, Session, Settings};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `fixloop demo`.
#[derive(Args, Debug)]
pub struct DemoArgs {
    /// The buggy C program.
    pub program: PathBuf,
    /// The input on which it goes wrong (numbers separated by spaces).
    #[arg(long)]
    pub failing: String,
    /// The correct program: it answers every question as a truthful user would.
    #[arg(long)]
    pub reference: PathBuf,
    /// Label budget (the page's default when left out).
    #[arg(long)]
    pub labels: Option<usize>,
    /// Questions that choose between patches, at most (the page's default when left out).
    #[arg(long)]
    pub questions: Option<usize>,
    /// Plausible patches a repair search collects before it stops (the page's default
    /// when left out).
    #[arg(long)]
    pub patch_pool: Option<usize>,
    /// The loop's fuzzer (the page's default when left out).
    #[arg(long, value_enum)]
    pub fuzzer: Option<FuzzerArg>,
    /// Keep every input number in MIN..MAX (e.g. `1..10`), as a page user may set.
    #[arg(long)]
    pub range: Option<String>,
    /// Seed of the session (the page's default when left out).
    #[arg(long)]
    pub seed: Option<u64>,
    /// How the reference answers: as a person (the expected output left blank, outputs
    /// only when asked) or as the ideal user who types every output (golden).
    #[arg(long, value_enum, default_value = "person")]
    pub answerer: AnswererArg,
    /// How the page asks: as a person is asked (the page's default) or as sessions were
    /// asked before (legacy).
    #[arg(long, value_enum, default_value = "person")]
    pub asking: AskingArg,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `MIN..MAX` as a range.
fn parse_range(text: &str) -> Result<InputRange, String> {
    let bad = || format!("--range {text}: expected MIN..MAX, e.g. 1..10");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (min, max) = (a.trim().parse::<f64>(), b.trim().parse::<f64>());
    match (min, max) {
        (Ok(min), Ok(max)) if min <= max => Ok(InputRange { min, max }),
        _ => Err(bad()),
    }
}

fn read(path: &PathBuf) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Runs the page's loop on `args`, the reference answering.
fn run_demo(args: &DemoArgs) -> Result<Flight, String> {
    let program = read(&args.program)?;
    let mut user = reference_user(&read(&args.reference)?, &args.failing)
        .map_err(|e| e.to_string())?
        .answering_as(args.answerer.style());
    let failing = parse_input(&args.failing).unwrap_or_default();
    let mut session = Session::new(program, args.failing.clone());
    let defaults = Settings::default();
    session.settings.label_budget = args.labels.unwrap_or(defaults.label_budget);
    session.settings.seed = args.seed.unwrap_or(defaults.seed);
    session.settings.questions = args.questions.unwrap_or(defaults.questions);
    session.settings.fuzzer = args.fuzzer.map_or(defaults.fuzzer, FuzzerArg::setting);
    session.settings.patch_pool = args.patch_pool.unwrap_or(defaults.patch_pool);
    session.settings.asking = args.asking.setting();
    // A golden user types the right output for the failing input; a person leaves the
    // optional box blank.
    session.expected_output = user.volunteered_output(&failing);
    if let Some(r) = &args.range {
        session.ranges = vec![Some(parse_range(r)?); failing.len()];
    }
    session.validate().map_err(|e| e.to_string())?;
    fly(session, &mut user).map_err(|e| e.to_string())
}

/// Runs `fixloop demo`.
pub fn main(args: DemoArgs) -> ExitCode {
    let outcome = match run_demo(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let repair = &outcome.repair;
    let top = repair.patches.first();
    if args.json {
        let json = serde_json::json!({
            "labels_used": outcome.session.labels_used(),
            "questions_used": repair.questions_used,
            "outputs_asked": repair.outputs_asked,
            "answerer": args.answerer.style().name(),
            "formula": outcome.formula,
            "loop_stop": outcome.loop_stop,
            "stop": repair.stop,
            "verdict": repair.verdict,
            "settled": repair.settled,
            "repairs": repair.repairs,
            "patches": repair.patches.len(),
            "top_patch_diff": top.map(|p| p.diff.clone()),
            "top_patched_source": top.map(|p| p.source.clone()),
            "top_checks": top.map(|p| p.checks.clone()),
            "answers": outcome.session.answers.iter().map(|a| serde_json::json!({
                "input": a.input, "verdict": format!("{:?}", a.verdict).to_lowercase(), "expected": a.expected,
            })).collect::<Vec<_>>(),
            "choices": outcome.session.choices.iter().zip(&outcome.kinds).map(|(c, kind)| serde_json::json!({
                "input": c.input, "output": c.output, "kind": kind,
            })).collect::<Vec<_>>(),
            "next_steps": repair.next_steps.iter().map(|s| s.label()).collect::<Vec<_>>(),
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&json).unwrap_or_default()
        );
    } else {
        println!(
            "{} labels; oracle {}; loop: {}",
            outcome.session.labels_used(),
            outcome.formula,
            outcome.loop_stop
        );
        for (c, kind) in outcome.session.choices.iter().zip(&outcome.kinds) {
            println!(
                "asked ({kind}) {}: {}",
                c.input,
                c.output.as_deref().unwrap_or("(skipped)").trim()
            );
        }
        println!(
            "{} ({} question(s), {} of them outputs; {} search(es); last search: {})",
            repair.verdict,
            repair.questions_used,
            repair.outputs_asked,
            repair.repairs,
            repair.stop
        );
        for step in &repair.next_steps {
            println!("next step: {} - {}", step.label(), step.why());
        }
        for (i, p) in repair.patches.iter().enumerate() {
            println!("#{} cost {}: {}", i + 1, p.cost, p.checks);
            print!("{}", p.diff);
        }
    }
    if top.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    }
}
