//! The engine behind the [`ballot`](https://docs.rs/ballot) crate.
//!
//! - [`mask`]: [`SubgroupMask`] and the mask algebra, the spec in code.
//! - [`sim`]: subgroup sizes, active lanes, per-lane values and dispatches.
//! - [`ops`]: every ballot operation as a collective over a simulated
//!   subgroup, with spirv-std's names, reporting undefined behaviour.
//! - [`error`]: the typed errors and undefined-behaviour reports.
//! - [`ir`]: the typed kernel IR every backend reads.
//! - [`front`]: syn AST to IR, with every error spanned.
//! - [`back`]: IR to code: native Rust (and, in time, GLSL and WGSL).
//! - [`valid`]: naga validation of every target's text, and glslang.
//! - [`expand`]: the `#[ballot::kernel]` expansion that `ballot-macros` calls.
#![warn(missing_docs)]

pub mod back;
pub mod error;
pub mod expand;
pub mod front;
pub mod interp;
pub mod ir;
pub mod mask;
pub mod ops;
#[doc(hidden)]
pub mod rt;
pub mod sim;
pub mod valid;

pub use error::{ConfigError, Op, SimError, UbKind, UndefinedBehavior};
pub use mask::SubgroupMask;
pub use sim::{Dispatch, DispatchedSubgroup, PerLane, Subgroup, SubgroupSize};
