//! The `fixloop` command-line tool: runs programs and measures the engine on benchmark corpora.

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
enum Command {}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {}
}
