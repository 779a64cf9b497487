//! Opening an output file (`-o FILE`): never the file the input is read from.
//!
//! Creating the output truncates it, so `npuzzle batch q.csv -o q.csv` (or a symlink or a hard
//! link to q.csv, or `-o q.csv < q.csv`) would erase the questions before reading them. Files
//! are compared by device and inode, not by name, before the output is opened.

use std::fs::{self, File, Metadata};
use std::io;
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use super::Failure;

/// Creates (or truncates) `output`, unless it is the regular file the input comes from:
/// `input` is a path, or `None` or `-` for standard input.
///
/// # Errors
/// Exit code 2: the output is the input, or it cannot be created.
pub fn create(output: &Path, input: Option<&Path>) -> Result<File, Failure> {
    if let (Ok(out), Some(source)) = (fs::metadata(output), input_metadata(input)) {
        // Only a regular file is truncated; writing to a device or a pipe erases nothing.
        if out.is_file() && (out.dev(), out.ino()) == (source.dev(), source.ino()) {
            let what = match input {
                Some(path) if path.as_os_str() != "-" => {
                    format!("the input file {}", path.display())
                }
                _ => "the file standard input reads from".to_string(),
            };
            return Err(Failure::usage(format!(
                "-o {} is {what}: writing there would erase the input before it is read; choose another output file",
                output.display()
            )));
        }
    }
    File::create(output)
        .map_err(|e| Failure::usage(format!("cannot write {}: {e}", output.display())))
}

/// What the input is, when it can be told: the file at `input`, or what standard input is.
fn input_metadata(input: Option<&Path>) -> Option<Metadata> {
    match input {
        Some(path) if path.as_os_str() != "-" => fs::metadata(path).ok(),
        _ => stdin_metadata().ok(),
    }
}

/// `fstat` of file descriptor 0, through a duplicate of it (std only, no `unsafe`).
fn stdin_metadata() -> io::Result<Metadata> {
    let fd = io::stdin().as_fd().try_clone_to_owned()?;
    File::from(fd).metadata()
}
