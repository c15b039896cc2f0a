//! `fixloop exercise make|check`: write a classroom exercise link, re-verify a student's report.

use clap::{Args, Subcommand};
use fixloop::exercise::{Exercise, Report, EXERCISE_VERSION, LINK_KEY};
use fixloop::session::{InputRange, Settings};
use std::path::PathBuf;
use std::process::ExitCode;

/// `fixloop exercise` subcommands.
#[derive(Subcommand, Debug)]
pub enum ExerciseCommand {
    /// Build an exercise and print its link.
    Make(MakeArgs),
    /// Recompute every figure of a student's report and flag the ones that differ.
    ///
    /// Exit codes: 0 genuine, 1 a file could not be read or parsed, 3 tampered (the
    /// differences are listed).
    Check(CheckArgs),
}

/// Arguments of `fixloop exercise make`.
#[derive(Args, Debug)]
pub struct MakeArgs {
    /// The buggy program students work on.
    #[arg(long)]
    pub buggy: PathBuf,
    /// The correct program (travels in the link, hidden from view in the page, not secret).
    #[arg(long)]
    pub reference: PathBuf,
    /// An input on which the buggy program misbehaves, e.g. "2 2 2".
    #[arg(long)]
    pub input: String,
    /// Title shown to students.
    #[arg(long, default_value = "Find and fix the bug")]
    pub title: String,
    /// Instructions shown to students.
    #[arg(
        long,
        default_value = "The program is wrong for some inputs. Label the tests fixloop shows you, then fix the program."
    )]
    pub instructions: String,
    /// Range of every input position, MIN:MAX (inclusive).
    #[arg(long, value_parser = parse_range, allow_hyphen_values = true)]
    pub range: Option<InputRange>,
    /// Label budget.
    #[arg(long, default_value_t = Settings::default().label_budget)]
    pub budget: usize,
    /// Committee size.
    #[arg(long, default_value_t = Settings::default().committee)]
    pub committee: usize,
    /// Seed of the loop and of fresh inputs.
    #[arg(long, default_value_t = Settings::default().seed)]
    pub seed: u64,
    /// Where the playground is served; the link is BASE#x=...
    #[arg(long, default_value = "http://127.0.0.1:8080/")]
    pub base_url: String,
    /// Print the exercise as JSON instead of a link.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `fixloop exercise check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The report JSON a student exported.
    pub report: PathBuf,
    /// The exercise the report must be for: a link, a fragment, or an exercise JSON file.
    #[arg(long)]
    pub exercise: Option<String>,
}

fn parse_range(text: &str) -> Result<InputRange, String> {
    let (a, b) = text
        .split_once(':')
        .ok_or_else(|| format!("expected MIN:MAX, got {text:?}"))?;
    let num = |t: &str| {
        t.trim()
            .parse::<f64>()
            .map_err(|_| format!("{t:?} is not a number"))
    };
    Ok(InputRange {
        min: num(a)?,
        max: num(b)?,
    })
}

/// Runs an `exercise` subcommand.
pub fn main(command: ExerciseCommand) -> ExitCode {
    match command {
        ExerciseCommand::Make(a) => make(a),
        ExerciseCommand::Check(a) => check(a),
    }
}

fn read(path: &PathBuf) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn make(a: MakeArgs) -> ExitCode {
    let (buggy, reference) = match (read(&a.buggy), read(&a.reference)) {
        (Ok(b), Ok(r)) => (b, r),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let arity = a.input.split_whitespace().count();
    let exercise = Exercise {
        version: EXERCISE_VERSION,
        title: a.title,
        instructions: a.instructions,
        buggy,
        reference,
        failing_input: a.input,
        ranges: a.range.map(|r| vec![Some(r); arity]).unwrap_or_default(),
        settings: Settings {
            label_budget: a.budget,
            committee: a.committee,
            seed: a.seed,
            ..Settings::default()
        },
    };
    if let Err(e) = exercise.validate() {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    match exercise.grader() {
        Ok(g) => {
            let input = fixloop::active::num::parse_input(&exercise.failing_input);
            if !input.is_some_and(|i| g.truth(&i).bug) {
                eprintln!(
                    "warning: the buggy and the reference program agree on the failing input"
                );
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&exercise).unwrap_or_default()
        );
    } else {
        println!("{}#{LINK_KEY}={}", a.base_url, exercise.encode_link());
    }
    eprintln!("exercise id {}", exercise.id());
    ExitCode::SUCCESS
}

/// An exercise from a link (`...#x=FRAGMENT`), a bare fragment, or a JSON file path.
fn load_exercise(text: &str) -> Result<Exercise, String> {
    let path = PathBuf::from(text);
    if path.is_file() {
        return Exercise::decode_json(&read(&path)?).map_err(|e| e.to_string());
    }
    let marker = format!("#{LINK_KEY}=");
    let fragment = text.rsplit_once(&marker).map_or(text, |(_, f)| f);
    Exercise::decode_link(fragment).map_err(|e| e.to_string())
}

fn check(a: CheckArgs) -> ExitCode {
    let report =
        match read(&a.report).and_then(|t| Report::from_json(&t).map_err(|e| e.to_string())) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        };
    let expected = match a.exercise.as_deref().map(load_exercise).transpose() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: the exercise: {e}");
            return ExitCode::FAILURE;
        }
    };
    let verification = report.verify(expected.as_ref());
    println!(
        "exercise {} ({}), student {}: score {}/{}, fix {}",
        report.exercise_id,
        report.exercise.title,
        if report.student.is_empty() {
            "not named"
        } else {
            &report.student
        },
        report.score.right,
        report.score.total,
        match &report.fix {
            None => "none".to_string(),
            Some(f) => f.figures(),
        }
    );
    if verification.is_genuine() {
        println!("genuine: every figure recomputes");
        ExitCode::SUCCESS
    } else {
        println!(
            "TAMPERED: {} check(s) failed (figures that do not recompute, a broken seal)",
            verification.problems.len()
        );
        for p in &verification.problems {
            println!("  - {p}");
        }
        ExitCode::from(3)
    }
}
