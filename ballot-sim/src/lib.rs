//! A subgroup on the CPU: the simulator, every subgroup operation as a
//! collective over it, the schedules of weaker reconvergence models, the
//! runtime of the code `#[ballot::kernel]` generates, the IR interpreter
//! and the portability oracle.
//!
//! - [`sim`]: subgroup sizes, active lanes, per-lane values and dispatches.
//! - [`ops`]: every operation as a collective over a simulated subgroup,
//!   with spirv-std's names, reporting undefined behaviour.
//! - [`schedule`]: reconvergence models and the schedules they allow.
//! - `spmd`: the runtime of the generated native code (not a public API).
//! - `interp`: the IR interpreter, the tests' independent execution
//!   (feature `interp`).
//! - `portability`: the oracle that runs a kernel at every subgroup size
//!   and under every schedule (feature `portability`).
#![warn(missing_docs)]

#[cfg(feature = "interp")]
pub mod interp;
pub mod ops;
#[cfg(feature = "portability")]
pub mod portability;
pub mod schedule;
pub mod sim;
#[doc(hidden)]
pub mod spmd;

pub use ballot_ir::{
    ArithOp, ConfigError, Op, Quad, Scan, SimError, SubgroupMask, UbKind, UndefinedBehavior,
};
pub use schedule::{Model, Schedule};
pub use sim::{Dispatch, DispatchedSubgroup, Lane, PerLane, SimKernel, Subgroup, SubgroupSize};
