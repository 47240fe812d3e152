//! The vocabulary every layer of `ballot` shares: the mask algebra, the
//! operations' names and signatures, the kernel IR and its scalar rules,
//! the targets and their options, the typed errors and the limits.
//!
//! - [`mask`]: [`SubgroupMask`] and the mask algebra, the spec in code.
//! - [`size`]: [`size::SubgroupSize`], the sizes a device may have.
//! - [`op`]: [`Op`], every subgroup operation and its names.
//! - [`error`]: the typed errors and undefined-behaviour reports.
//! - [`ir`]: the typed kernel IR every backend reads, and its invariants.
//! - [`scalar`]: the IR's scalar rules, the one definition that the
//!   runtime, the interpreter and the constant folder compute with.
//! - [`target`]: the languages, targets, forms and shader options.
//! - [`limits`]: how deep a kernel may nest, how long a statement may be.
//! - [`source`]: a shader file's text, read within a size cap.
//! - [`stack`]: enough stack for the recursive passes on any thread.
//!
//! Nothing here depends on another `ballot` crate: every other crate
//! depends on this one (`docs/architecture.md` draws the layers).
#![warn(missing_docs)]

pub mod error;
pub mod ir;
pub mod limits;
pub mod mask;
pub mod op;
pub mod scalar;
pub mod size;
pub mod source;
pub mod stack;
pub mod target;

pub use error::{ConfigError, SimError, UbKind, UndefinedBehavior};
pub use mask::SubgroupMask;
pub use op::{ArithOp, Op, Quad, Scan};
