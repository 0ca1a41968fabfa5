//! What the runner knows of the folder it works in before it acts: a
//! bounded map for the planner and the round (paths, sizes, top-level
//! definitions, tests and how they run), and the baseline of the files
//! there were when the run began, which the probe compares against.
//!
//! What a file holds and whether it is a test come from the language seam
//! ([`crate::lang::Language`]); this module never names a language.

mod baseline;
mod map;
mod rank;
mod round;
mod walk;

#[cfg(test)]
mod tests;

pub use baseline::{MAX_BASELINE, Probed, Watch, done_mark, record as record_baseline};
pub use map::{MAP_BUDGET, Map, TESTS_RUN_WITH};
pub use rank::named_by;
pub use round::PlanMap;
pub use walk::{Entry, MAX_WALK, Walk, walk};
