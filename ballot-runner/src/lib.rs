//! Runs `ballot`'s emitted compute shaders on real drivers and compares every
//! lane with the IR interpreter. Dev-only: the driver tests and the
//! `conformance` binary use it; it is not published.
//!
//! - [`job`]: what is dispatched (a kernel, a target, shader options,
//!   workgroup counts and input cases) and what comes back, in the buffer
//!   layout of `ballot_shader::back`'s shader interface.
//! - [`gpu`]: wgpu on Vulkan, for `glsl`, `glsl-no-subgroup` (glslang's
//!   SPIR-V, passed through), `wgsl` and `wgsl-no-subgroup`.
//! - [`dawn`]: Dawn/Tint through Node's `webgpu` package, for `wgsl-web`
//!   and `wgsl-no-subgroup`.
//! - [`mod@compare`]: rebuilds each subgroup from the lane records and compares
//!   with [`ballot_sim::interp`].
//! - [`suite`]: the kernels and cases the driver tests run.
//! - [`drive`]: runs a batch on one driver and sums up per target.

#![warn(missing_docs)]

pub mod compare;
pub mod dawn;
pub mod drive;
pub mod gpu;
pub mod job;
pub mod suite;

use ballot_shader::back::Target;

pub use compare::{compare, Mismatch, Report};
pub use gpu::Gpu;
pub use job::{Dispatched, Job, LaneRecord};

/// Why a job could not be run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RunnerError {
    /// No Vulkan adapter, or none with the name asked for.
    #[error(
        "no Vulkan adapter{}; adapters found: {}. Install a Vulkan driver \
         (Debian: mesa-vulkan-drivers and libvulkan1 give lavapipe), or unset or \
         change BALLOT_ADAPTER",
        wanted.as_ref().map(|w| format!(" whose name contains `{w}`")).unwrap_or_default(),
        if available.is_empty() { "none".to_string() } else { available.join(", ") }
    )]
    NoAdapter {
        /// The name asked for, if any.
        wanted: Option<String>,
        /// The adapters that exist.
        available: Vec<String>,
    },
    /// The adapter would not open a device.
    #[error("adapter `{adapter}` would not open a device: {message}")]
    Device {
        /// The adapter's name.
        adapter: String,
        /// The driver's message.
        message: String,
    },
    /// The device cannot run the target.
    #[error("target {target} cannot run here: {why}")]
    Unsupported {
        /// The target.
        target: Target,
        /// What is missing.
        why: String,
    },
    /// The shader could not be written or compiled before reaching the
    /// driver.
    #[error("{job}: no shader: {message}")]
    Shader {
        /// The job.
        job: String,
        /// The writer's or glslang's message.
        message: String,
    },
    /// The driver (or wgpu's validation) rejected the shader or pipeline.
    #[error("{job}: the pipeline was rejected: {message}")]
    Pipeline {
        /// The job.
        job: String,
        /// The message.
        message: String,
    },
    /// The dispatch or the read-back failed.
    #[error("{job}: the dispatch failed: {message}")]
    Dispatch {
        /// The job.
        job: String,
        /// The message.
        message: String,
    },
    /// The Dawn runner (Node) could not be started or failed.
    #[error("the Dawn runner failed: {0}")]
    Dawn(String),
}
