//! The `fixloop` command-line tool: runs programs and measures the engine on benchmark corpora.

mod learn;

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
    /// Learn a bug oracle (a formula over inputs and output) from a labelled CSV.
    Learn(learn::LearnArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Learn(args) => learn::run(args),
    }
}
