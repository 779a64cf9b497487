//! The `npuzzle` command: a thin shell over the library (see `src/cli/`).
// As in the library: a value cut by an `as` cast is a wrong answer, so narrowing conversions
// are checked, typed away, or allowed with their bound.
#![warn(clippy::cast_possible_truncation)]

/// `eprintln!` that never panics: a closed standard error (`2>&1 | head`) loses the message,
/// not the run (`eprintln!` panics when the write fails, and a set runner would stop halfway).
macro_rules! stderr_line {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!` that never panics (the live search line), as [`stderr_line!`].
macro_rules! stderr_text {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
