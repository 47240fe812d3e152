//! Write GPU subgroup-ballot logic once, in Rust.
#![warn(missing_docs)]

pub use ballot_core::{error, mask, ops, sim};
pub use ballot_core::{
    ConfigError, Dispatch, DispatchedSubgroup, Op, PerLane, SimError, Subgroup, SubgroupMask,
    SubgroupSize, UbKind, UndefinedBehavior,
};

/// The names most programs need, for a glob import.
pub mod prelude {
    pub use ballot_core::ops::*;
    pub use ballot_core::{Dispatch, PerLane, SimError, Subgroup, SubgroupMask, SubgroupSize};
}
