//! Kernel IR to shader text: the shared lowering, then one printer per
//! language, GLSL and WGSL, for every target and form. No naga, no syn:
//! validation lives in `ballot-naga`, the Rust front end in `ballot-front`.
//!
//! - [`lower`]: what every printer needs to know of a kernel beyond its IR,
//!   computed once per kernel as a [`lower::plan::Plan`].
//! - [`back`]: the printers, which only print a plan.
#![warn(missing_docs)]

pub mod back;
pub mod lower;
