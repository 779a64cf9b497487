//! Where an installed `npuzzle` keeps its tables when no directory is named: `--data-dir`,
//! else `$NPUZZLE_DATA_DIR`, else the platform's cache directory (the `dirs` crate's rule).
//! Each case runs a copy of the binary outside the checkout (a binary under the checkout's
//! `target/` uses the checkout's `data/`) with a controlled environment, asks a 3x2 question
//! (a table of 360 states, built at once) and looks where the table file appeared.

mod common;

use std::path::{Path, PathBuf};

use common::TestCommand;

/// A copy of the binary in a fresh home directory, and the table file a 3x2 question makes.
struct Home {
    dir: tempfile::TempDir,
    binary: PathBuf,
    table: String,
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        let binary = bin.join("npuzzle");
        std::fs::copy(env!("CARGO_BIN_EXE_npuzzle"), &binary).unwrap();
        let goal = npuzzle::State::goal("3x2".parse().unwrap());
        Home {
            dir,
            binary,
            table: npuzzle::store::file::file_name(&goal),
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Runs `distance` on 3x2 with HOME set to this home, the variables in `env` set (an
    /// empty value is set empty) and every other npuzzle or XDG variable removed; returns
    /// where the table file is.
    fn ask(&self, args: &[&str], env: &[(&str, &str)]) -> Vec<PathBuf> {
        let mut command = TestCommand::of(&self.binary);
        command
            .args(["distance", "1 2 3 / 4 0 5", "--board", "3x2"])
            .args(args)
            .current_dir(self.path())
            .env_remove("XDG_CACHE_HOME")
            .env("HOME", self.path());
        for (name, value) in env {
            command.env(name, value);
        }
        let out = command.output();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n");
        let mut found = Vec::new();
        find(self.path(), &self.table, &mut found);
        found
    }
}

fn find(dir: &Path, name: &str, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            find(&path, name, found);
        } else if path.file_name().is_some_and(|n| n == name) {
            found.push(path);
        }
    }
}

#[test]
fn the_data_dir_option_comes_first_then_the_variable() {
    let home = Home::new();
    let option = home.path().join("option");
    let variable = home.path().join("variable");
    let found = home.ask(
        &["--data-dir", option.to_str().unwrap()],
        &[("NPUZZLE_DATA_DIR", variable.to_str().unwrap())],
    );
    assert_eq!(found, [option.join(&home.table)]);

    let home = Home::new();
    let variable = home.path().join("variable");
    let cache = home.path().join("xdg");
    let found = home.ask(
        &[],
        &[
            ("NPUZZLE_DATA_DIR", variable.to_str().unwrap()),
            ("XDG_CACHE_HOME", cache.to_str().unwrap()),
        ],
    );
    assert_eq!(found, [variable.join(&home.table)]);
}

#[test]
fn an_empty_variable_counts_as_unset() {
    let home = Home::new();
    let found = home.ask(&[], &[("NPUZZLE_DATA_DIR", "")]);
    assert_eq!(found, [platform_cache(home.path()).join(&home.table)]);
}

/// The platform's cache directory for `home` with no XDG variable.
fn platform_cache(home: &Path) -> PathBuf {
    if cfg!(target_os = "macos") {
        home.join("Library").join("Caches").join("npuzzle")
    } else {
        home.join(".cache").join("npuzzle")
    }
}

/// Linux and the BSDs: the XDG base directory rule. An absolute `$XDG_CACHE_HOME` is used; a
/// relative or empty one is ignored, as the specification says, for `~/.cache`.
#[cfg(all(unix, not(target_os = "macos")))]
#[test]
fn xdg_cache_home_is_used_when_absolute() {
    let home = Home::new();
    let cache = home.path().join("xdg");
    let found = home.ask(&[], &[("XDG_CACHE_HOME", cache.to_str().unwrap())]);
    assert_eq!(found, [cache.join("npuzzle").join(&home.table)]);

    for ignored in ["", "relative/cache"] {
        let home = Home::new();
        let found = home.ask(&[], &[("XDG_CACHE_HOME", ignored)]);
        assert_eq!(
            found,
            [home.path().join(".cache/npuzzle").join(&home.table)],
            "XDG_CACHE_HOME={ignored:?}"
        );
    }
}

/// macOS: `~/Library/Caches`, whatever XDG says.
#[cfg(target_os = "macos")]
#[test]
fn macos_uses_library_caches() {
    let home = Home::new();
    let xdg = home.path().join("xdg");
    let found = home.ask(&[], &[("XDG_CACHE_HOME", xdg.to_str().unwrap())]);
    assert_eq!(
        found,
        [home.path().join("Library/Caches/npuzzle").join(&home.table)]
    );
}
