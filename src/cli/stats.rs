//! stub
use super::args::StatsArgs;
use super::{CommandResult, Context};
pub fn run(_args: &StatsArgs, _context: &mut Context) -> CommandResult {
    Ok(())
}
