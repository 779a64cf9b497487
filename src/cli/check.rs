//! stub
use super::args::CheckArgs;
use super::{CommandResult, Context};
pub fn run(_args: &CheckArgs, _context: &mut Context) -> CommandResult {
    Ok(())
}
