//! `npuzzle man`: the manual pages, generated from the clap definitions (clap_mangen), so that
//! they list exactly the options the binary takes. One page per subcommand
//! (`npuzzle-distance(1)`, ...) besides the main page `npuzzle(1)`; each has its options, a few
//! examples and a SEE ALSO that names only pages this command writes.

use std::io::{self, Write};
use std::path::Path;

use clap::CommandFactory;

use super::args::Cli;

/// One manual page: its file name (`npuzzle-solve.1`) and its roff text.
pub struct Page {
    /// The file name, section included.
    pub file: String,
    /// The page, in roff.
    pub roff: Vec<u8>,
}

/// Examples shown on each page: the command line and what it does. The test in
/// `tests/man_pages.rs` runs every line through the argument parser, so they cannot name an
/// option that does not exist.
const EXAMPLES: &[(&str, &[(&str, &str)])] = &[
    (
        "npuzzle",
        &[
            (
                "npuzzle distance 867254301",
                "Prints 31, the exact distance to 123456780.",
            ),
            (
                "npuzzle solve '1 2 3 / 4 0 6 / 7 5 8'",
                "Prints an optimal solution.",
            ),
            (
                "npuzzle man --dir ~/.local/share/man/man1",
                "Installs these manual pages.",
            ),
        ],
    ),
    (
        "build",
        &[
            (
                "npuzzle build --all --size 3x4",
                "Builds every table of the 3x4 board.",
            ),
            (
                "npuzzle build --pdb 4x4:7-8",
                "Builds the 7-8 pattern databases of the 15-puzzle.",
            ),
        ],
    ),
    (
        "distance",
        &[
            ("npuzzle distance 867254301", "Prints 31."),
            (
                "npuzzle distance 867254301 -f json",
                "The same as one JSON object.",
            ),
            (
                "npuzzle distance '1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15'",
                "A 15-puzzle, answered by IDA* with pattern databases: prints 1.",
            ),
        ],
    ),
    (
        "solve",
        &[
            (
                "npuzzle solve 123456708",
                "Prints the moves (R) and the states along them.",
            ),
            (
                "npuzzle solve 867254301 -f json",
                "The solution as one JSON object.",
            ),
        ],
    ),
    (
        "compare",
        &[(
            "npuzzle compare 867254301 --all-heuristics",
            "Every algorithm with every heuristic on one instance.",
        )],
    ),
    (
        "solve-set",
        &[
            (
                "npuzzle solve-set korf100.txt --goal 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 --results r.txt",
                "Korf's 100 15-puzzles, each line checked and appended to r.txt; run it again \
                 and it goes on with the unfinished ones.",
            ),
            (
                "npuzzle solve-set korf100.txt --goal 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 --results r.txt --report",
                "The progress as a table: lengths, nodes and seconds against the published ones.",
            ),
            (
                "npuzzle solve-set korf100.txt --goal 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 --results r.txt --report -f json",
                "The same as one JSON object per instance (solved or not, length, nodes, \
                 seconds, moves), for a script.",
            ),
        ],
    ),
    (
        "batch",
        &[
            (
                "npuzzle batch starts.txt",
                "One exact distance per line of starts.txt.",
            ),
            (
                "npuzzle batch --solve -f jsonl starts.txt",
                "Distances and moves, as JSON lines.",
            ),
        ],
    ),
    (
        "stats",
        &[
            (
                "npuzzle stats",
                "The 8-puzzle's states per distance, with a histogram.",
            ),
            (
                "npuzzle stats --size 3x4 -f json",
                "The same for 3x4, as one JSON object.",
            ),
        ],
    ),
    (
        "check",
        &[(
            "npuzzle check --deep",
            "Checks the 3x3 table of the data directory entry by entry.",
        )],
    ),
    (
        "verify",
        &[
            (
                "npuzzle verify answers.csv",
                "Judges another solver's answers; exit 1 if any is wrong.",
            ),
            (
                "npuzzle verify -f jsonl answers.csv",
                "One verdict per answer, as JSON lines.",
            ),
        ],
    ),
    (
        "sample",
        &[(
            "npuzzle sample --seed 7 --count 100 --depth 20 --with-answers",
            "100 instances at distance 20, the same on every machine.",
        )],
    ),
    (
        "serve",
        &[(
            "npuzzle serve --port 8080",
            "The web page at http://127.0.0.1:8080/.",
        )],
    ),
    ("play", &[("npuzzle play", "The 8-puzzle in the terminal.")]),
    (
        "completions",
        &[(
            "npuzzle completions bash",
            "Prints the bash completion script.",
        )],
    ),
    (
        "man",
        &[
            ("npuzzle man", "Prints this main page."),
            ("npuzzle man --dir man1", "Writes every page into man1/."),
        ],
    ),
    ("help", &[("npuzzle help solve", "The help of solve.")]),
];

/// Every example command line, for the test that parses them.
#[cfg(test)]
pub fn example_lines() -> impl Iterator<Item = &'static str> {
    EXAMPLES
        .iter()
        .flat_map(|(_, examples)| examples.iter().map(|(line, _)| *line))
}

/// Every page: the main page first, then one per subcommand.
pub fn pages() -> io::Result<Vec<Page>> {
    let mut cli = Cli::command();
    cli.build();
    let subcommands: Vec<&clap::Command> =
        cli.get_subcommands().filter(|s| !s.is_hide_set()).collect();
    let mut pages = vec![page(&cli, "npuzzle", &subcommands)?];
    for sub in &subcommands {
        pages.push(page(sub, sub.get_name(), &[])?);
    }
    Ok(pages)
}

/// The page of `cmd` (a subcommand when `subcommands` is empty): clap_mangen's sections, then
/// the examples and SEE ALSO.
fn page(cmd: &clap::Command, key: &str, subcommands: &[&clap::Command]) -> io::Result<Page> {
    let man = clap_mangen::Man::new(cmd.clone());
    let mut roff = Vec::new();
    man.render_title(&mut roff)?;
    man.render_name_section(&mut roff)?;
    man.render_synopsis_section(&mut roff)?;
    man.render_description_section(&mut roff)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut roff)?;
    }
    if !subcommands.is_empty() {
        man.render_subcommands_section(&mut roff)?;
    }
    if let Some((_, examples)) = EXAMPLES.iter().find(|(name, _)| *name == key) {
        writeln!(roff, ".SH EXAMPLES")?;
        for (line, what) in *examples {
            writeln!(roff, ".TP\n\\fB{}\\fR\n{}", escape(line), escape(what))?;
        }
    }
    writeln!(roff, ".SH \"SEE ALSO\"")?;
    let see_also: Vec<String> = if subcommands.is_empty() {
        vec!["npuzzle(1)".to_string()]
    } else {
        subcommands
            .iter()
            .map(|s| format!("npuzzle\\-{}(1)", escape(s.get_name())))
            .collect()
    };
    writeln!(roff, "{}", see_also.join(", "))?;
    Ok(Page {
        file: man.get_filename(),
        roff,
    })
}

/// `text` as roff running text: backslashes and hyphens escaped, a leading dot or quote
/// guarded (it would start a request).
fn escape(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

/// `npuzzle man`: the main page on `out`; with `dir`, every page written there (the
/// directory created if missing), one path a line on `out`.
pub fn run(dir: Option<&Path>, out: &mut dyn Write) -> io::Result<()> {
    let pages = pages()?;
    match dir {
        None => out.write_all(&pages[0].roff)?,
        Some(dir) => {
            let at = |path: &Path, e: io::Error| {
                io::Error::new(e.kind(), format!("{}: {e}", path.display()))
            };
            std::fs::create_dir_all(dir).map_err(|e| at(dir, e))?;
            for page in &pages {
                let path = dir.join(&page.file);
                std::fs::write(&path, &page.roff).map_err(|e| at(&path, e))?;
                writeln!(out, "{}", path.display())?;
            }
        }
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    /// `line` split as a shell would, for the lines above: words, and '...' quoted.
    fn words(line: &str) -> Vec<String> {
        let mut words = Vec::new();
        for (i, part) in line.split('\'').enumerate() {
            if i % 2 == 1 {
                words.push(part.to_string());
            } else {
                words.extend(part.split_whitespace().map(str::to_string));
            }
        }
        words
    }

    #[test]
    fn every_example_parses() {
        for line in example_lines() {
            let words = words(line);
            assert_eq!(words[0], "npuzzle", "{line}");
            if words.len() == 1 {
                continue; // `npuzzle` alone prints the usage
            }
            if let Err(e) = Cli::try_parse_from(&words) {
                panic!("{line}: {e}");
            }
        }
    }

    #[test]
    fn every_page_has_examples_and_every_command_a_page() {
        let pages = pages().unwrap();
        let mut cli = Cli::command();
        cli.build();
        let names: Vec<&str> = cli.get_subcommands().map(|s| s.get_name()).collect();
        assert_eq!(pages.len(), names.len() + 1);
        for page in &pages {
            let text = String::from_utf8(page.roff.clone()).unwrap();
            assert!(
                text.contains(".SH EXAMPLES"),
                "{} has no examples",
                page.file
            );
        }
        for (name, _) in EXAMPLES {
            assert!(
                *name == "npuzzle" || names.contains(name),
                "examples for a command that does not exist: {name}"
            );
        }
    }

    #[test]
    fn roff_requests_cannot_be_injected() {
        assert_eq!(escape(".x-y"), "\\&.x\\-y");
        assert_eq!(escape("a\\b"), "a\\eb");
    }
}
