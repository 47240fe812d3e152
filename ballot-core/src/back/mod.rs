//! Backends: everything that reads the IR and writes code.
//!
//! - [`rust`]: the native SPMD-on-SIMD Rust behind `run` and `run_dispatch`.

pub mod rust;
