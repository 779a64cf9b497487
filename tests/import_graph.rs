//! The library's import graph has no circle: `tools/import-graph.py --check` reads the
//! `crate::`/`super::`/`npuzzle::` paths of src/ and fails on a circle, so the layers drawn in
//! ARCHITECTURE.md ("Import graph") stay true. Fails when python3 is missing.

use std::process::Command;

#[test]
fn the_module_import_graph_has_no_circle() {
    let out = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tools/import-graph.py"
        ))
        .arg("--check")
        .output()
        .expect("python3 runs tools/import-graph.py");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("no circle"), "{said}");
    // The store sits below both typed views, and neither view imports the other.
    let layer = |module: &str| {
        said.lines()
            .find(|line| line.split_whitespace().skip(1).any(|m| m == module))
            .and_then(|line| line.split_whitespace().next()?.parse::<u32>().ok())
            .unwrap_or_else(|| panic!("{module} in {said}"))
    };
    assert!(layer("store") < layer("table"), "{said}");
    assert!(layer("store") < layer("pattern"), "{said}");
    let dot = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tools/import-graph.py"
        ))
        .arg("--dot")
        .output()
        .expect("python3 runs tools/import-graph.py");
    let edges = String::from_utf8_lossy(&dot.stdout);
    for edge in ["\"table\" -> \"pattern\"", "\"pattern\" -> \"table\""] {
        assert!(!edges.contains(edge), "{edge} in {edges}");
    }
    assert!(edges.contains("\"table\" -> \"store\""), "{edges}");
}

/// ARCHITECTURE.md's picture is the graph read now: every module drawn on the layer the
/// script computes (library modules on the left, `cli/` files without their prefix on the
/// right, from the column of the heading's "command line"), and the count line ("N modules on L layers") the script's.
#[test]
fn the_drawn_layers_are_the_computed_ones() {
    let out = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tools/import-graph.py"
        ))
        .output()
        .expect("python3 runs tools/import-graph.py");
    let said = String::from_utf8_lossy(&out.stdout);
    let architecture =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/ARCHITECTURE.md"))
            .expect("ARCHITECTURE.md reads");
    let count = said
        .lines()
        .find(|line| line.contains(" modules on "))
        .unwrap_or_else(|| panic!("a count line in {said}"));
    assert!(
        architecture.contains(count.trim()),
        "ARCHITECTURE.md does not say `{count}`"
    );
    let picture = architecture
        .split("\n layer  library")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the layer picture in ARCHITECTURE.md");
    let mut lines = picture.lines();
    // The command line's column starts where its heading does.
    let column = lines
        .next()
        .and_then(|heading| heading.find("command line"))
        .map(|at| at + " layer  library".len())
        .expect("the picture's heading");
    // The layer of each drawn line; a continuation line (no number) keeps the one above.
    let mut drawn = std::collections::BTreeMap::new();
    let mut layer = None;
    for line in lines {
        let (library, cli) = line.split_at(column.min(line.len()));
        let mut words = library.split_whitespace().peekable();
        if let Some(n) = words.peek().and_then(|w| w.parse::<u32>().ok()) {
            layer = Some(n);
            words.next();
        }
        let n = layer.expect("a numbered line first");
        for word in words {
            drawn.insert(word.to_string(), n);
        }
        for word in cli.split_whitespace() {
            drawn.insert(format!("cli/{word}"), n);
        }
    }
    let mut computed = std::collections::BTreeMap::new();
    for line in said.lines().filter(|l| !l.contains(" modules on ")) {
        let mut words = line.split_whitespace();
        let Some(n) = words.next().and_then(|w| w.parse::<u32>().ok()) else {
            continue;
        };
        for module in words {
            computed.insert(module.to_string(), n);
        }
    }
    assert_eq!(
        drawn, computed,
        "ARCHITECTURE.md's layers against the script's"
    );
}
