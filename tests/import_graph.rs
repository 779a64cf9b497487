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
