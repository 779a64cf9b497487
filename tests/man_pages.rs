//! `npuzzle man`: one page per command with its options and examples, `--dir` writes them
//! all, and no page names a page that was not written.

mod common;

use std::collections::BTreeSet;

use common::TestCommand;

fn npuzzle(args: &[&str]) -> std::process::Output {
    TestCommand::new().args(args).output()
}

/// The long options `npuzzle COMMAND --help` lists.
fn long_options(command: &str) -> BTreeSet<String> {
    let out = npuzzle(&[command, "--help"]);
    assert_eq!(out.status.code(), Some(0));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| {
            // An option's own line: `  -g, --goal <GOAL>` or `      --all` (descriptions and
            // their continuation lines are indented further).
            let option = match line.strip_prefix("  -") {
                Some(rest) if !rest.starts_with('-') => rest.split_once(", --")?.1,
                Some(rest) => rest.strip_prefix('-')?,
                None => line.strip_prefix("      --")?,
            };
            let name: String = option
                .trim_start_matches('-')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// Every `name(1)` reference of a roff page (`\-` is a hyphen).
fn references(page: &str) -> BTreeSet<String> {
    let text = page
        .replace("\\-", "-")
        .replace("\\fB", "")
        .replace("\\fR", "");
    let mut found = BTreeSet::new();
    for (at, _) in text.match_indices("(1)") {
        let name: String = text[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if name.starts_with("npuzzle") {
            found.insert(name);
        }
    }
    found
}

#[test]
fn man_dir_writes_a_page_per_command_and_every_reference_exists() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("man1");
    let out = npuzzle(&["man", "--dir", target.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written: BTreeSet<String> = std::fs::read_dir(&target)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    let listed: BTreeSet<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.rsplit('/').next().unwrap().to_string())
        .collect();
    assert_eq!(listed, written, "stdout lists the files written");
    let commands = [
        "build",
        "distance",
        "solve",
        "compare",
        "solve-set",
        "batch",
        "stats",
        "check",
        "verify",
        "sample",
        "serve",
        "play",
        "completions",
        "man",
        "help",
    ];
    let mut expected: BTreeSet<String> =
        commands.iter().map(|c| format!("npuzzle-{c}.1")).collect();
    expected.insert("npuzzle.1".into());
    assert_eq!(written, expected);

    for file in &written {
        let page = std::fs::read_to_string(target.join(file)).unwrap();
        for reference in references(&page) {
            assert!(
                written.contains(&format!("{reference}.1")),
                "{file} names {reference}(1), which was not written"
            );
        }
        assert!(page.contains(".SH EXAMPLES"), "{file} has no examples");
        assert!(page.contains(".SH \"SEE ALSO\""), "{file} has no SEE ALSO");
    }
    // The main page names every command's page.
    let main = std::fs::read_to_string(target.join("npuzzle.1")).unwrap();
    for command in commands {
        assert!(
            references(&main).contains(&format!("npuzzle-{command}")),
            "npuzzle.1 does not name npuzzle-{command}(1)"
        );
    }
    // Each command's page lists every option its --help lists.
    for command in commands {
        let page = std::fs::read_to_string(target.join(format!("npuzzle-{command}.1"))).unwrap();
        for option in long_options(command) {
            let roff = format!("\\-\\-{}", option.replace('-', "\\-"));
            assert!(page.contains(&roff), "npuzzle-{command}.1 lacks --{option}");
        }
    }
    assert!(
        long_options("solve").contains("algorithm"),
        "the option reader works"
    );
}

#[test]
fn man_alone_prints_the_main_page() {
    let dir = tempfile::tempdir().unwrap();
    let out = npuzzle(&["man"]);
    assert_eq!(out.status.code(), Some(0));
    npuzzle(&["man", "--dir", dir.path().to_str().unwrap()]);
    let main = std::fs::read(dir.path().join("npuzzle.1")).unwrap();
    assert_eq!(out.stdout, main);
    assert!(String::from_utf8(out.stdout).unwrap().starts_with(".ie"));
}

#[test]
fn a_directory_that_cannot_be_made_is_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a file");
    std::fs::write(&file, "").unwrap();
    let out = npuzzle(&["man", "--dir", file.to_str().unwrap()]);
    assert_ne!(out.status.code(), Some(0));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("a file"), "{stderr}");
}
