//! The engine behind the [`ballot`](https://docs.rs/ballot) crate.
//!
//! - [`mask`]: [`SubgroupMask`] and the mask algebra, the spec in code.
//! - [`sim`]: subgroup sizes, active lanes, per-lane values and dispatches.
//! - [`ops`]: every ballot operation as a collective over a simulated
//!   subgroup, with spirv-std's names, reporting undefined behaviour.
//! - [`op`]: [`Op`], every ballot operation and its names.
//! - [`error`]: the typed errors and undefined-behaviour reports.
//! - [`ir`]: the typed kernel IR every backend reads.
//! - [`scalar`]: the IR's scalar rules, the one definition that the
//!   runtime, the interpreter and the constant folder compute with.
//! - `front`: syn AST to IR, with every error spanned (feature `macros`,
//!   on by default; the `ballot` facade leaves it off).
//! - `spans`: where each IR node came from in the user's Rust (feature
//!   `macros`).
//! - [`limits`]: how deep a kernel may nest, how long a statement may be.
//! - [`lower`]: the shared lowering, what every printer needs to know of a
//!   kernel beyond its IR.
//! - [`target`]: the languages, targets, forms and shader options every
//!   layer shares, a leaf (re-exported by [`back`]).
//! - [`back`]: IR to code: native Rust, GLSL and WGSL.
//! - `valid`: naga validation of every target's text, and glslang
//!   (feature `validate`).
//! - `polyfill`: the standalone helper library of every target, built
//!   from the writers' helper texts and validated (feature `validate`).
//! - `cross`: `wgsl` text through naga to SPIR-V, HLSL and MSL (feature
//!   `cross`).
//! - `check`: robust naga validation of a user's untrusted shader file
//!   (feature `validate`).
//! - `expand`: the `#[ballot::kernel]` expansion that `ballot-macros` calls
//!   (feature `macros`).
//! - [`stack`]: enough stack for the recursive passes on any thread.
//! - `interp`: the IR interpreter, the tests' independent execution
//!   (feature `interp`, on by default; the `ballot` facade leaves it off).
//!
//! naga comes in only with `validate` (which `macros` and `cross` turn
//! on): writing shaders needs none of it.
#![warn(missing_docs)]

pub mod back;
#[cfg(feature = "validate")]
pub mod check;
#[cfg(feature = "validate")]
pub mod compose;
#[cfg(feature = "cross")]
pub mod cross;
pub mod error;
#[cfg(feature = "macros")]
pub mod expand;
#[cfg(feature = "macros")]
pub mod front;
#[cfg(feature = "interp")]
pub mod interp;
pub mod ir;
pub mod limits;
#[cfg(feature = "validate")]
pub mod link;
pub mod lower;
pub mod mask;
pub mod op;
pub mod ops;
#[cfg(feature = "validate")]
pub mod polyfill;
#[cfg(feature = "portability")]
pub mod portability;
#[cfg(feature = "validate")]
pub(crate) mod reconverge;
pub mod scalar;
pub mod schedule;
pub mod sim;
pub mod source;
#[cfg(feature = "macros")]
pub mod spans;
#[doc(hidden)]
pub mod spmd;
pub mod stack;
pub mod target;
#[cfg(feature = "validate")]
pub mod valid;

pub use error::{ConfigError, SimError, UbKind, UndefinedBehavior};
pub use mask::SubgroupMask;
pub use op::{ArithOp, Op, Quad, Scan};
pub use schedule::{Model, Schedule};
pub use sim::{Dispatch, DispatchedSubgroup, Lane, PerLane, SimKernel, Subgroup, SubgroupSize};
