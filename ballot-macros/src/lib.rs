//! Procedural macros for the `ballot` crate.
