//! Printing an error with its causes.

use std::error::Error;
use std::fmt;

/// Displays an error and each of its causes (`source()`), joined by `: `, each once.
///
/// npuzzle's errors that include their cause's text in their own message do not also return
/// it from `source()`, so this printer never repeats a cause; it works as well for errors of
/// other crates that follow either convention of the Rust API guidelines.
///
/// ```
/// use npuzzle::{ErrorChain, State};
/// let error = "1234".parse::<State>().unwrap_err();
/// assert_eq!(ErrorChain(&error).to_string(), error.to_string());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ErrorChain<'a>(pub &'a (dyn Error + 'a));

impl fmt::Display for ErrorChain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        let mut cause = self.0.source();
        while let Some(error) = cause {
            write!(f, ": {error}")?;
            cause = error.source();
        }
        Ok(())
    }
}
