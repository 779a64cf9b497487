//! The `npuzzle` command: a thin shell over the library (see `src/cli/`).
// As in the library: a value cut by an `as` cast is a wrong answer, so narrowing conversions
// are checked, typed away, or allowed with their bound.
#![warn(clippy::cast_possible_truncation)]

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
