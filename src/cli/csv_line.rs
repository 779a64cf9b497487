//! One physical line read as one CSV record, with a parser that is built once and reused.
//!
//! `batch` and `verify` read CSV a line at a time so that a stray quote spoils only its own
//! line and line numbers stay exact. Building a `csv` reader per line costs microseconds (it
//! compiles a state machine each time), far more than the rest of a line's work, so this keeps
//! one `csv_core` parser per worker and resets it between lines.

/// A reusable parser of single-line CSV records.
pub struct LineCsv {
    parser: csv_core::Reader,
    output: Vec<u8>,
    ends: Vec<usize>,
}

impl Default for LineCsv {
    fn default() -> LineCsv {
        LineCsv {
            parser: csv_core::Reader::new(),
            output: vec![0; 256],
            ends: vec![0; 16],
        }
    }
}

impl LineCsv {
    /// Reads `line` (without its newline) as one record into `record`, each field trimmed of
    /// surrounding ASCII whitespace. Quotes and escapes follow the csv crate's defaults; an
    /// unclosed quote runs to the end of the line. Never fails: CSV as read by `csv_core` has
    /// no errors, only odd fields.
    pub fn read(&mut self, line: &[u8], record: &mut csv::ByteRecord) {
        self.parser.reset();
        record.clear();
        let (mut input, mut out, mut fields) = (line, 0, 0);
        loop {
            let (result, read, wrote, ended) =
                self.parser
                    .read_record(input, &mut self.output[out..], &mut self.ends[fields..]);
            input = &input[read..];
            out += wrote;
            fields += ended;
            match result {
                csv_core::ReadRecordResult::InputEmpty => continue,
                csv_core::ReadRecordResult::OutputFull => {
                    self.output.resize(self.output.len() * 2, 0);
                }
                csv_core::ReadRecordResult::OutputEndsFull => {
                    self.ends.resize(self.ends.len() * 2, 0);
                }
                csv_core::ReadRecordResult::Record | csv_core::ReadRecordResult::End => break,
            }
        }
        let mut start = 0;
        for &end in &self.ends[..fields] {
            record.push_field(self.output[start..end].trim_ascii());
            start = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(line: &str) -> Vec<String> {
        let mut record = csv::ByteRecord::new();
        LineCsv::default().read(line.as_bytes(), &mut record);
        record
            .iter()
            .map(|f| String::from_utf8_lossy(f).into_owned())
            .collect()
    }

    #[test]
    fn quoted_commas_stay_in_their_field_and_fields_are_trimmed() {
        assert_eq!(fields("\"1,2,3\", b ,c"), ["1,2,3", "b", "c"]);
        assert_eq!(fields("a,,\"\""), ["a", "", ""]);
    }

    #[test]
    fn a_stray_quote_runs_to_the_end_of_its_line_only() {
        assert_eq!(fields(",,\",,no"), ["", "", ",,no"]);
    }

    #[test]
    fn one_parser_reads_line_after_line_and_long_fields() {
        let mut parser = LineCsv::default();
        let mut record = csv::ByteRecord::new();
        let long = "x".repeat(1000);
        for line in ["a,b", &format!("{long},{long}"), "\"q\"\"q\",z"] {
            parser.read(line.as_bytes(), &mut record);
        }
        assert_eq!(&record[0], b"q\"q");
        assert_eq!(record.len(), 2);
    }
}
