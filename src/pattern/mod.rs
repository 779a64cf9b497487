//! Additive pattern databases: the index space of a pattern ([`PatternSpace`]), the generator
//! ([`generate`]), the database view over file bytes ([`PatternDatabase`]), and the named
//! partitions with their reflection ([`Partition`]).
//!
//! A pattern is a set of tiles. Its database holds, for every placement of those tiles, the
//! fewest moves *of those tiles* that bring them home, the other tiles ignored and their moves
//! free. Databases of disjoint patterns therefore add up to a lower bound on the distance
//! (each move moves one tile, so it is counted by at most one database), and with the blank in
//! a corner the maximum with the sum for the position reflected about the diagonal is one too.
//! [`crate::heuristic::PatternHeuristic`] combines them for the search.

mod consistency;
mod database;
pub(crate) mod delta;
pub mod file;
pub mod generate;
mod generate_compact;
mod partition;
mod region;
mod space;

pub use consistency::PatternDamage;
pub use database::{BuildError, PatternDatabase};
pub use generate::{Cancelled, Progress};
pub use partition::{reflection, Partition, UnknownPartition};
pub use region::region_goals;
pub(crate) use region::regions;
pub use space::{PatternError, PatternSpace};
