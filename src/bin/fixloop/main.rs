//! The `fixloop` command-line tool: runs programs and measures the engine on benchmark corpora.

mod bench;
mod bench_learn;
mod bench_loop;
mod bench_record;
mod corpus_check;
mod demo;
mod eval;
mod eval_setup;
mod exercise;
mod fuzz;
mod gp_eval;
mod learn;
mod merge;
mod pipeline;
mod record_gcc;
mod repair;
mod repair_eval;
mod run;
mod shard;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "fixloop",
    version,
    about = "Human-in-the-loop program repair for small numeric C programs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a C program: stdin (or --input) to stdout.
    ///
    /// Exit codes: 0 the program exited normally (its own status is not passed on),
    /// 2 compile errors (printed to stderr as FILE:line:col: error: ...),
    /// 3 timeout (fuel exhausted), 4 runtime error or memory/call-depth/output limit,
    /// 1 the file could not be read.
    Run(run::RunArgs),
    /// Work on a benchmark corpus.
    #[command(subcommand)]
    Corpus(CorpusCommand),
    /// Learn a bug oracle (a formula over inputs and output) from a labelled CSV.
    Learn(learn::LearnArgs),
    /// Benchmarks (not tests).
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Learn2fix oracle evaluation over a corpus (golden program as labeller); with
    /// --repair, repair evaluation (repairability, held-out pass rate, speed). With
    /// --shard I/N one slice of it, joined by `eval merge`.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Eval(Box<EvalCommand>),
    /// Repair a C program against tests: ranked, validated patches as diffs.
    ///
    /// Exit codes: 0 a plausible patch was found, 3 none, 1 bad input.
    Repair(repair::RepairArgs),
    /// Deterministic fuzzing of the parser, interpreter, formula parser, learner, session decoder and repair engines.
    ///
    /// Prints executions and findings (panics, budget overruns, broken invariants, hangs),
    /// each with the seed that replays it (--replay SEED). Exit code 1 when anything was found.
    Fuzz(fuzz::FuzzArgs),
    /// The playground's whole loop (fuzz, label, learn, repair) with the page's defaults,
    /// every question answered by running a reference program.
    ///
    /// Exit codes: 0 a patch was found, 3 none, 1 bad input.
    Demo(demo::DemoArgs),
    /// Classroom exercises: make a link, check a student's report.
    #[command(subcommand)]
    Exercise(exercise::ExerciseCommand),
}

#[derive(Subcommand)]
enum CorpusCommand {
    /// Run buggy and golden programs of every subject on all tests and compare with gcc's
    /// verdicts and, where a record of gcc's runs has them, its exact outputs.
    Check(corpus_check::CheckArgs),
    /// Build every subject's programs with gcc, run them on all tests and record exact
    /// outputs for `corpus check` (native only).
    RecordGcc(record_gcc::RecordArgs),
}

#[derive(Subcommand)]
enum BenchCommand {
    /// Executions per second and VM steps per second over a corpus.
    Exec(bench::ExecArgs),
    /// Thread CPU time of learn calls: triangle and two-variable DNF draws, and calls
    /// recorded from active-loop runs; median and p95 per workload.
    Learn(bench_learn::LearnBenchArgs),
    /// Thread CPU of each of the page's label steps (an answer to the next question, and
    /// Start to the first), a reference program answering, over several seeds.
    Loop(bench_loop::LoopBenchArgs),
    /// Record the learn calls of active-loop runs on corpus subjects as a workload file.
    Record(bench_record::RecordArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Run(a) => run::main(a),
        Command::Corpus(CorpusCommand::Check(a)) => corpus_check::main(a),
        Command::Corpus(CorpusCommand::RecordGcc(a)) => record_gcc::main(a),
        Command::Learn(args) => learn::run(args),
        Command::Bench(BenchCommand::Exec(a)) => bench::main(a),
        Command::Bench(BenchCommand::Learn(a)) => bench_learn::main(a),
        Command::Bench(BenchCommand::Loop(a)) => bench_loop::main(a),
        Command::Bench(BenchCommand::Record(a)) => bench_record::main(a),
        Command::Eval(eval) => eval_main(*eval),
        Command::Repair(a) => repair::main(a),
        Command::Fuzz(a) => fuzz::main(a),
        Command::Demo(a) => demo::main(a),
        Command::Exercise(c) => exercise::main(c),
    }
}

/// `fixloop eval`: an evaluation, or `eval merge` of shards' partial reports.
#[derive(clap::Args, Debug)]
pub struct EvalCommand {
    /// `merge`.
    #[command(subcommand)]
    pub merge: Option<EvalSubcommand>,
    /// The evaluation's arguments (absent with `merge`).
    #[command(flatten)]
    pub args: Option<eval_setup::EvalArgs>,
}

/// Subcommands of `fixloop eval`.
#[derive(clap::Subcommand, Debug)]
pub enum EvalSubcommand {
    /// Join the partial reports of `fixloop eval --shard I/N` (every shard of one
    /// evaluation, any order) into the report one run prints.
    Merge(crate::merge::MergeArgs),
}

/// `fixloop eval`: merge partial reports, or evaluate the oracle or repair.
fn eval_main(command: EvalCommand) -> ExitCode {
    match command {
        EvalCommand {
            merge: Some(EvalSubcommand::Merge(m)),
            ..
        } => merge::main(m),
        EvalCommand { args: None, .. } => {
            eprintln!("error: fixloop eval needs a folder of subjects, or `merge PARTS...`");
            ExitCode::from(2)
        }
        EvalCommand { args: Some(a), .. } => match (a.repair, &a.selection) {
            (true, Some(_)) if a.shard.is_some() => {
                eprintln!("error: --shard does not split --selection runs (yet)");
                ExitCode::from(2)
            }
            (true, Some(selection)) => {
                let selection = selection.clone();
                gp_eval::run(a, &selection)
            }
            (true, None) => repair_eval::run(a),
            (false, _) => eval::run(a),
        },
    }
}
