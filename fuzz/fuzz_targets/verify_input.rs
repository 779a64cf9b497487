//! Any bytes given to `npuzzle verify`'s input reader are classified (CSV with a header, or
//! JSON lines) and read to the end without a panic: the reader refuses the input as a whole
//! (a usage error) or yields one line a question, each with its physical line number, in order.
#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;

// The reader lives in the binary. It is compiled into this target as it is, with its sibling
// `csv_line` and `lines`; the items it takes from the rest of the CLI (`Failure`,
// `input::state_error` and `input::shorten`) are stood in for below with the same signatures.
#[path = "../../src/cli/csv_line.rs"]
#[allow(dead_code)]
mod csv_line;
#[path = "../../src/cli/lines.rs"]
#[allow(dead_code)]
mod lines;
#[path = "../../src/cli/verify_input.rs"]
#[allow(dead_code)]
mod verify_input;

/// Stand-in for the CLI's `Failure`: only `usage` is needed by the reader.
#[allow(dead_code)]
pub struct Failure {
    message: String,
}

impl Failure {
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure { message: message.into() }
    }
}

/// Stand-in for the CLI's `input` module.
mod input {
    pub fn state_error(what: &str, text: &str, error: &npuzzle::ParseStateError) -> String {
        format!("invalid {what} `{text}`: {error}")
    }

    pub fn shorten(text: &str) -> std::borrow::Cow<'_, str> {
        std::borrow::Cow::Borrowed(text)
    }
}

use verify_input::{Chunk, Defaults, Source};

fuzz_target!(|bytes: &[u8]| {
    let input: Box<dyn std::io::BufRead + Send> = Box::new(Cursor::new(bytes.to_vec()));
    let Ok(Some(mut source)) = Source::open(input, "fuzz input") else { return };
    let defaults = Defaults { goal: None, board: None };
    let mut chunk = Chunk::default();
    let mut last = 0;
    while let Ok(n) = source.fill(&mut chunk, "fuzz input") {
        if n == 0 {
            break;
        }
        let lines = source.parse(&chunk, &defaults);
        assert_eq!(lines.len(), n);
        for line in &lines {
            assert!(line.number > last, "line numbers only grow");
            last = line.number;
        }
    }
});
