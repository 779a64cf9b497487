//! Any bytes given to `npuzzle batch`'s input reader are classified and read to the end
//! without a panic: every record is a question or an error naming its line, line numbers only
//! grow, and the plain-lines path gives blocks of complete lines (or the head of a line over
//! the limit) and cuts them into pieces that cover every byte once.
#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;

// The reader lives in the binary; it only needs std, serde, csv, csv-core, memchr and its
// siblings `csv_line` and `lines`, so they are compiled into the fuzz target as they are; the
// one item it takes from the rest of the CLI (`input::shorten`) is stood in for below.
#[path = "../../src/cli/csv_line.rs"]
#[allow(dead_code)]
mod csv_line;
#[path = "../../src/cli/lines.rs"]
#[allow(dead_code)]
mod lines;
#[path = "../../src/cli/batch_input.rs"]
#[allow(dead_code)]
mod batch_input;

/// Stand-in for the CLI's `input` module.
mod input {
    pub fn shorten(text: &str) -> std::borrow::Cow<'_, str> {
        std::borrow::Cow::Borrowed(text)
    }
}

use batch_input::{detect, pieces, Block, InputForm, LineBlocks, RecordReader};

fuzz_target!(|bytes: &[u8]| {
    let mut reader: Box<dyn std::io::Read + Send> = Box::new(Cursor::new(bytes.to_vec()));
    let mut head = Vec::new();
    let Ok(form) = detect(&mut reader, &mut head) else { return };
    match form {
        InputForm::Lines => {
            let mut blocks = LineBlocks::new(head, reader);
            while let Some(block) = blocks.next().expect("reading from memory never fails") {
                match block {
                    Block::Lines(block) => {
                        let parts = pieces(block, 64);
                        assert_eq!(parts.iter().map(|p| p.len()).sum::<usize>(), block.len());
                    }
                    Block::Long(head) => assert_eq!(head.len(), lines::LONG_LINE_PREFIX),
                }
            }
        }
        InputForm::Csv | InputForm::Jsonl => {
            let mut records = RecordReader::new(form, head, reader);
            let mut chunk = Vec::new();
            let mut last_line = 0;
            loop {
                records.read_chunk(&mut chunk, 64).expect("reading from memory never fails");
                if chunk.is_empty() {
                    break;
                }
                for record in &chunk {
                    assert!(record.line > last_line);
                    last_line = record.line;
                    if let Err((_, message)) = &record.fields {
                        assert!(message.starts_with(&format!("line {}:", record.line)));
                    }
                }
            }
        }
    }
});
