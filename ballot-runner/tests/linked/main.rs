//! Hand-written shaders linked for the emulated targets (and their hardware
//! ones) and run on the Vulkan adapter, each word against the spec's
//! answer: one test binary, as each costs a link of wgpu.
//!
//! - [`switch`]: a `switch` whose cases each reach a collective;
//! - [`circuits`]: collectives under nested short circuits;
//! - [`doubles`]: `double` arithmetic collectives;
//! - [`effects`]: a GLSL `out` parameter of a converted call, and a WGSL
//!   `continuing` block that reads the loop body's declarations;
//! - [`glsl_functions`]: GLSL prototypes, overloads and `#pragma` lines;
//! - [`globals`]: a broadcast of a GLSL global inside a branch;
//! - [`clustered`]: GLSL's clustered reductions, and a cluster over the
//!   virtual subgroup;
//! - [`halves`]: WGSL f16 arithmetic collectives;
//! - [`macros`]: a GLSL macro that renames a collective;
//! - [`overridden`]: a WGSL workgroup size the pipeline overrides;
//! - [`own_calls`]: untyped WGSL declarations after a divergent `return`;
//! - [`structs`]: a WGSL entry point's struct of subgroup built-ins only;
//! - [`specialised`]: a workgroup size the pipeline specialises
//!   (`local_size_x_id`), and workgroups of 512 and 1,024;
//! - [`web`]: a kernel written for browsers, on Dawn and without subgroups.

#[path = "../common/mod.rs"]
mod common;

mod circuits;
mod clustered;
mod doubles;
mod effects;
mod globals;
mod glsl_functions;
mod halves;
mod macros;
mod overridden;
mod own_calls;
mod specialised;
mod structs;
mod switch;
mod web;
