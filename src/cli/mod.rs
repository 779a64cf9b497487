//! The command line: arguments, the shared context, and the mapping of outcomes to exit codes.
//!
//! Exit codes: 0 ok; 1 a valid question with a negative answer (unsolvable pair, wrong
//! solutions found, failed batch lines); 2 malformed input, usage, or unreadable files; 141
//! ([`CLOSED_PIPE`]) when the reader of stdout went away before the output was complete
//! (`npuzzle batch ... | head`), silently, as `cat` ends there (killed by SIGPIPE: 128 + 13).
//! Data goes to stdout, messages (one line each, prefixed `npuzzle: `) to stderr.

mod args;
mod batch;
mod batch_fast;
mod batch_input;
mod batch_rows;
mod batch_writer;
mod build;
mod check;
mod compare;
mod context;
mod csv_line;
mod input;
mod interrupt;
mod large;
mod limits;
mod lines;
mod man;
mod output;
mod output_file;
mod play;
mod sample;
mod search;
mod search_progress;
mod serve;
mod solution_output;
mod solve_set;
mod stats;
mod stats_plot;
mod threads;
mod verify;
mod verify_input;
mod verify_report;

use std::io;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

pub use args::{Cli, Command};
pub use context::Context;

/// Why a command did not end with exit code 0.
#[derive(Debug)]
pub struct Failure {
    /// The exit code: 1 for a negative answer, 2 for bad input or usage, [`CLOSED_PIPE`] when
    /// stdout's reader went away.
    pub code: u8,
    /// The one-line message for stderr, if any.
    pub message: Option<String>,
}

impl Failure {
    /// Malformed input, usage or unreadable files: exit code 2.
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            code: 2,
            message: Some(message.into()),
        }
    }

    /// A valid question with a negative answer: exit code 1.
    pub fn negative(message: impl Into<String>) -> Failure {
        Failure {
            code: 1,
            message: Some(message.into()),
        }
    }

    /// A negative answer already reported on stdout: exit code 1, nothing more to say.
    pub fn quiet_negative() -> Failure {
        Failure {
            code: 1,
            message: None,
        }
    }
}

/// The exit code when stdout's reader went away: what a shell reports for `cat` killed by
/// SIGPIPE (128 + 13). Rust ignores SIGPIPE, so writes fail with `BrokenPipe` instead; the
/// output was cut off, which is no success (`set -o pipefail` must see it), but the reader
/// chose it, so nothing is said.
pub const CLOSED_PIPE: u8 = 141;

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Failure {
        if error.kind() == io::ErrorKind::BrokenPipe {
            Failure {
                code: CLOSED_PIPE,
                message: None,
            }
        } else {
            Failure::usage(format!("i/o error: {error}"))
        }
    }
}

/// What a command returns.
pub type CommandResult = Result<(), Failure>;

/// Parses the arguments, runs the command and maps the outcome to an exit code.
pub fn main() -> ExitCode {
    // A write past `ulimit -f` is an error to report (the line not written), not a kill.
    npuzzle::store::ignore_file_size_signal();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error),
    };
    // Before any pool exists: every pool takes the thread cap, whatever RAYON_NUM_THREADS says.
    threads::cap_global_pool();
    let mut context = Context::new(&cli);
    match run(cli.command, &mut context) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            if let Some(message) = failure.message {
                // Messages quote input: its control characters never reach the terminal raw.
                stderr_line!("npuzzle: {}", input::escape_controls(&message));
            }
            ExitCode::from(failure.code)
        }
    }
}

/// Prints a clap error the project's way: help and version as clap writes them, and every
/// usage error as one line on stderr (with the accepted values, where clap lists them), exit 2.
fn usage_error(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = error.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let commands: Vec<String> = Cli::command()
                .get_subcommands()
                .map(|command| command.get_name().to_string())
                .collect();
            stderr_line!(
                "npuzzle: no command given: one of {} (see `npuzzle --help`)",
                commands.join(", ")
            );
            ExitCode::from(2)
        }
        _ => {
            let text = error.render().to_string();
            let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
            let first = lines.next().unwrap_or("invalid arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            // clap lists what is missing, or the accepted values, on the lines that follow.
            // clap's tip (`tip: a similar argument exists: '--goal'`) is kept, after a `;`.
            let rest: Vec<&str> = lines.collect();
            let tip = rest
                .iter()
                .find_map(|l| l.strip_prefix("tip: "))
                .filter(|tip| tip.starts_with("a similar") || tip.starts_with("some similar"))
                .map(|tip| format!("; {tip}"))
                .unwrap_or_default();
            let more = if error.kind() == ErrorKind::MissingRequiredArgument {
                let missing: Vec<&str> = rest
                    .iter()
                    .copied()
                    .take_while(|l| !l.starts_with("Usage:"))
                    .collect();
                format!(" {}", missing.join(", "))
            } else {
                rest.iter()
                    .find(|l| l.starts_with("[possible values"))
                    .map(|l| format!(" {l}"))
                    .unwrap_or_default()
            };
            let line = format!("{first}{more}{tip}");
            stderr_line!(
                "npuzzle: {} (see `{} --help`)",
                input::escape_controls(&line),
                usage_command(&std::env::args_os().collect::<Vec<_>>())
            );
            ExitCode::from(2)
        }
    }
}

/// The command a usage error is about (`npuzzle solve`), so that the tip points at that
/// command's help: the first argument that is not an option (nor `--data-dir`'s value), where it
/// names a command; `npuzzle` otherwise.
fn usage_command(args: &[std::ffi::OsString]) -> String {
    let mut words = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(word) = words.next() {
        if word == "--data-dir" {
            words.next();
        } else if !word.starts_with('-') {
            return match Cli::command().find_subcommand(word.as_ref()) {
                Some(command) => format!("npuzzle {}", command.get_name()),
                None => "npuzzle".to_string(),
            };
        }
    }
    "npuzzle".to_string()
}

fn run(command: Command, context: &mut Context) -> CommandResult {
    match command {
        Command::Build(args) => build::run(&args, context),
        Command::Distance(args) => search::distance(&args, context),
        Command::Solve(args) => search::solve(&args, context),
        Command::Compare(args) => compare::run(&args, context),
        Command::SolveSet(args) => solve_set::run(&args, context),
        Command::Batch(args) => batch::run(&args, context),
        Command::Stats(args) => stats::run(&args, context),
        Command::Check(args) => check::run(&args, context),
        Command::Verify(args) => verify::run(&args, context),
        Command::Sample(args) => sample::run(&args, context),
        Command::Serve(args) => serve::run(&args, context),
        Command::Play(args) => play::run(&args, context),
        Command::Completions(args) => {
            let mut out = io::stdout().lock();
            clap_complete::generate(args.shell, &mut Cli::command(), "npuzzle", &mut out);
            io::Write::flush(&mut out)?;
            Ok(())
        }
        Command::Help(args) => help(args.command.as_deref()),
        Command::Man(args) => {
            man::run(args.dir.as_deref(), &mut io::stdout().lock())?;
            Ok(())
        }
    }
}

/// `npuzzle help [COMMAND]`: the long help of npuzzle or of one command, exit 0.
fn help(command: Option<&str>) -> CommandResult {
    let mut cli = Cli::command();
    cli.build();
    let text = match command {
        None => cli.render_long_help(),
        Some(name) => match cli.find_subcommand_mut(name) {
            Some(sub) => sub.render_long_help(),
            None => {
                let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
                return Err(Failure::usage(format!(
                    "no command `{name}`: one of {} (see `npuzzle --help`)",
                    names.join(", ")
                )));
            }
        },
    };
    let mut text = text.to_string(); // plain text, as `--help` writes it into a pipe
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let mut out = io::stdout().lock();
    io::Write::write_all(&mut out, text.as_bytes())?;
    io::Write::flush(&mut out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_argument_definitions_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn a_usage_tip_names_the_command_the_error_is_about() {
        for (args, command) in [
            (
                &["npuzzle", "solve", "--bogus", "867254301"][..],
                "npuzzle solve",
            ),
            (
                &["npuzzle", "--data-dir", "d", "sample", "-n", "x"][..],
                "npuzzle sample",
            ),
            (
                &["npuzzle", "--data-dir=d", "verify", "a", "b"][..],
                "npuzzle verify",
            ),
            (&["npuzzle", "--bogus"][..], "npuzzle"),
            (&["npuzzle", "solv", "1"][..], "npuzzle"),
        ] {
            let args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
            assert_eq!(usage_command(&args), command, "{args:?}");
        }
    }
}
