//! `npuzzle check`: validate a table file and say what it holds.
//!
//! Opening validates the header (`table::file::open`), then every block of the body is checked
//! against its checksum, the whole body against its own, and its histogram against the
//! header's depth counts (`Table::verify_body`); `--deep` also checks every entry against its
//! neighbours. Exit codes:
//! 0 valid; 1 damaged (or not serving `--goal`); 2 unreadable or missing.

use std::io::Write;
use std::path::PathBuf;

use npuzzle::answer::{has_table, DEFAULT_BOARD};
use npuzzle::pattern::PatternDatabase;
use npuzzle::store::format::{Header, FORMAT_VERSION};
use npuzzle::store::{StoredBytes, StoredFileError};
use npuzzle::table::file;
use npuzzle::{State, Table};

use super::args::{CheckArgs, CheckFormat};
use super::input::{parse_size, parse_state};
use super::{CommandResult, Context, Failure};

/// Checks the file and prints its contents; the verdict is the last line.
pub fn run(args: &CheckArgs, context: &mut Context) -> CommandResult {
    let size = parse_size(&args.size)?;
    let goal = match args.goal.as_deref() {
        Some(text) => Some(parse_state("goal", text, size)?),
        None => size.map(State::goal),
    };
    if let Some(goal) = &goal {
        if !has_table(goal.board()) {
            return Err(Context::no_table(goal.board()));
        }
    }
    let path: PathBuf = match &args.file {
        Some(path) => path.clone(),
        None => {
            let goal = goal.unwrap_or_else(|| State::goal(DEFAULT_BOARD));
            let canonical = State::canonical_goal(goal.board(), goal.blank());
            context
                .data_dir()?
                .join(npuzzle::store::file::file_name(&canonical))
        }
    };
    // A named file may be either kind (its header says which); the data directory's is a table.
    let opened = match &args.file {
        Some(_) => npuzzle::answer::store::open_any(&path),
        None => {
            file::open(&path).map(|table| npuzzle::answer::store::TableFile::Exact(Box::new(table)))
        }
    };
    let opened = opened.map_err(|error| match error {
        // A table of the data directory is rebuilt there; a file named with --file is the
        // caller's to replace.
        StoredFileError::Invalid { .. } | StoredFileError::Mismatch { .. }
            if args.file.is_none() =>
        {
            Failure::negative(format!(
                "damaged: {error}; rebuild it with `npuzzle build{}`",
                build_options(args)
            ))
        }
        StoredFileError::Invalid { .. } | StoredFileError::Mismatch { .. } => {
            Failure::negative(format!("damaged: {error}"))
        }
        _ if error.is_missing() && args.file.is_none() => Failure::usage(format!(
            "{error}; build it with `npuzzle build{}`",
            build_options(args)
        )),
        _ => Failure::usage(error.to_string()),
    })?;
    let table = match opened {
        npuzzle::answer::store::TableFile::Exact(table) => *table,
        npuzzle::answer::store::TableFile::Pattern(db) => {
            return check_pattern(&path, &db, args.deep, goal.as_ref())
        }
        _ => {
            return Err(Failure::usage(format!(
                "{}: a kind of file this version does not check",
                path.display()
            )))
        }
    };
    table.verify_body().map_err(|error| {
        Failure::negative(format!(
            "damaged: table {} is not valid: {error}",
            path.display()
        ))
    })?;
    let mut out = std::io::stdout().lock();
    let json = args.format == CheckFormat::Json;
    if !json {
        describe(&path, &table, &mut out)?;
    }
    if let Some(goal) = goal {
        if !table.serves(&goal) {
            return Err(Failure::negative(format!(
                "{} is a valid table for goal {}, but it does not serve goal {goal}",
                path.display(),
                table.goal()
            )));
        }
    }
    if args.deep {
        deep(&table)?;
        if !json {
            writeln!(
                out,
                "deep check: every entry agrees with its neighbours; recounted depths match the header"
            )?;
        }
    }
    if json {
        // A damaged or missing file is an error on stderr with its exit code, as in text.
        let header = table.header();
        let record = CheckJson {
            file: path.display().to_string(),
            valid: true,
            board: header.board().to_string(),
            goal: header.goal.to_string(),
            entries: header.entries,
            max_depth: header.max_depth,
            counts: header.counts.clone(),
            body_checksum: format!("{:08x}", header.body_checksum),
            deep: args.deep,
        };
        serde_json::to_writer(&mut out, &record).map_err(std::io::Error::from)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(out, "ok: {} is a valid table", path.display())?;
    Ok(())
}

/// `check -f json` for a valid table (schema: docs/json/check.schema.json).
#[derive(serde::Serialize)]
struct CheckJson {
    /// The file checked.
    file: String,
    /// Always true: an invalid file is an error (exit 1 or 2), not a record.
    valid: bool,
    /// The board, `WxH`.
    board: String,
    /// The goal the table was built for.
    goal: String,
    /// Its entries (states).
    entries: u64,
    /// The largest distance.
    max_depth: u8,
    /// States per distance 0..=max_depth.
    counts: Vec<u64>,
    /// The body's CRC-32, in hex.
    body_checksum: String,
    /// Whether the deep check ran (and passed).
    deep: bool,
}

/// Prints what the table holds.
/// The first lines of a file's description, the same for tables and pattern databases: the
/// path, the format (`kind` names a database), the board and the goal.
fn opening(
    out: &mut impl Write,
    path: &std::path::Path,
    kind: &str,
    header: &Header,
    bytes: usize,
) -> std::io::Result<()> {
    writeln!(out, "file:          {}", path.display())?;
    writeln!(
        out,
        "format:        version {FORMAT_VERSION}, {kind}header {} bytes, {bytes} bytes in all",
        header.len
    )?;
    writeln!(out, "board:         {}", header.board())?;
    writeln!(out, "goal:          {}", header.goal)
}

fn describe(
    path: &std::path::Path,
    table: &Table<StoredBytes>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let header = table.header();
    opening(out, path, "", header, table.as_bytes().len())?;
    writeln!(out, "metric:        {}", header.metric)?;
    writeln!(out, "entries:       {}", header.entries)?;
    writeln!(out, "max depth:     {}", header.max_depth)?;
    let counts: Vec<String> = header.counts.iter().map(|c| c.to_string()).collect();
    writeln!(out, "depth counts:  {}", counts.join(" "))?;
    writeln!(
        out,
        "body checksum: {:08x} (CRC-32, verified, and each of its {} blocks of {} KiB; header checksum verified)",
        header.body_checksum,
        header.block_checksums.len(),
        (1usize << header.block_shift) / 1024
    )?;
    Ok(())
}

/// The slow check ([`Table::verify_deep`]): every entry against its neighbours. The depth
/// counts were recounted from the body and held against the header's by `verify_body`.
fn deep(table: &Table<StoredBytes>) -> Result<(), Failure> {
    table
        .verify_deep()
        .map_err(|error| Failure::negative(format!("damaged: {error}")))
}

/// `check FILE` on a pattern database: opened whole (header, checksums, histogram), then
/// described; `--deep` adds the deep check (`PatternDatabase::verify_deep`).
fn check_pattern(
    path: &std::path::Path,
    db: &PatternDatabase<StoredBytes>,
    deep: bool,
    goal: Option<&State>,
) -> CommandResult {
    let header = db.header();
    let mut out = std::io::stdout().lock();
    opening(
        &mut out,
        path,
        "pattern database, ",
        header,
        db.as_bytes().len(),
    )?;
    let tiles: Vec<String> = db.space().tiles().iter().map(u8::to_string).collect();
    writeln!(out, "pattern:       {}", tiles.join(" "))?;
    writeln!(out, "entries:       {}", header.entries)?;
    writeln!(out, "bits:          {} per entry", db.bits_per_entry())?;
    writeln!(out, "max code:      {}", header.max_depth)?;
    let counts: Vec<String> = header.counts.iter().map(|c| c.to_string()).collect();
    writeln!(
        out,
        "code counts:   {} (histogram, recounted: matches)",
        counts.join(" ")
    )?;
    writeln!(
        out,
        "body checksum: {:08x} (CRC-32, verified, and each of its {} blocks of {} KiB; header checksum verified)",
        header.body_checksum,
        header.block_checksums.len(),
        (1usize << header.block_shift) / 1024
    )?;
    if let Some(goal) = goal {
        if db.goal() != goal {
            return Err(Failure::negative(format!(
                "{} is a valid pattern database for goal {}, not goal {goal}",
                path.display(),
                db.goal()
            )));
        }
    }
    if deep {
        db.verify_deep().map_err(|error| {
            Failure::negative(format!(
                "damaged: pattern database {} is not valid: {error}",
                path.display()
            ))
        })?;
        writeln!(
            out,
            "deep check: goal entry 0; no entry above a connected neighbour plus one; every entry above its Manhattan distance reached from a lower neighbour"
        )?;
    }
    writeln!(out, "ok: {} is a valid pattern database", path.display())?;
    Ok(())
}

/// The options of `npuzzle build` that would write the table `check` looked for.
fn build_options(args: &CheckArgs) -> String {
    let mut options = String::new();
    if let Some(goal) = &args.goal {
        // Quoted when it holds spaces or `/`, so the hint can be pasted as it is.
        if goal.contains(|c: char| !c.is_ascii_alphanumeric() && c != '_' && c != '.' && c != ',') {
            options.push_str(&format!(" --goal '{goal}'"));
        } else {
            options.push_str(&format!(" --goal {goal}"));
        }
    }
    if let Some(size) = &args.size {
        options.push_str(&format!(" --size {size}"));
    }
    options
}
