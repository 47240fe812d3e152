//! The tools that face naga (and glslang): validation of every target's
//! text, the checker of a user's shader files, the validated polyfill
//! libraries, the linker of hand-written shaders, the naga_oil and WESL
//! modules, and cross-compilation.
//!
//! - [`valid`]: naga validation of every target's text, and glslang.
//! - [`check`]: robust validation of a user's untrusted shader file.
//! - [`polyfill`]: the standalone helper library of every target.
//! - [`link`]: the polyfills linked into a hand-written shader, which
//!   `reconverge` if-converts for the emulated targets.
//! - [`compose`]: the libraries as naga_oil modules.
//! - `cross`: `wgsl` text through naga to SPIR-V, HLSL and MSL (feature
//!   `cross`).
#![warn(missing_docs)]

pub(crate) mod bytes;
pub mod check;
pub mod compose;
#[cfg(feature = "cross")]
pub mod cross;
pub mod link;
pub mod polyfill;
pub(crate) mod reconverge;
pub mod valid;
