//! Backends: everything that reads the IR and writes code.
//!
//! - `rust`: the native SPMD-on-SIMD Rust behind `run` and `run_dispatch`.
//! - [`glsl`] and [`wgsl`]: shader text for the five [`Target`]s, in two
//!   [`Form`]s each.
//! - [`namer`], [`Level`]: what both shader writers share; `forms`: both
//!   forms of a module in one pass, and `Mode`: the text for naga.
//!
//! # The shader interface
//!
//! Both shader writers follow one contract, so that a runner can dispatch
//! any target's compute shader the same way.
//!
//! **Helper form.** The kernel (and every kernel it calls) becomes a function
//! of the same parameters and result, plus the ballot helpers it uses.
//! - Native targets (`glsl`, `wgsl`, `wgsl-web`): call it from anywhere.
//!   WGSL has no subgroup built-ins outside entry points, so WGSL helper
//!   libraries start with `ballot_init(subgroup_invocation_id,
//!   subgroup_size)`, to be called once at the top of the entry point.
//! - Emulated targets (`*-no-subgroup`): every invocation of the workgroup
//!   must call the kernel function, in workgroup-uniform control flow,
//!   after `ballot_init(local_invocation_index)` at the top of the entry
//!   point. Virtual subgroup `s` of a workgroup is invocations
//!   `s * S .. s * S + S` by `local_invocation_index`, where `S` is
//!   [`ShaderOptions::subgroup_size`]; the last one is partial when the
//!   workgroup size is not a multiple of `S`, and its missing lanes are
//!   inactive. This is exactly `ballot_sim::Dispatch`'s layout.
//!
//! **Compute-shader form.** An entry point `main` with workgroup size
//! [`ShaderOptions::workgroup_size`] and these bindings, all in group / set
//! 0:
//! - binding `i`, for parameter `i`: a per-lane parameter is a read-only
//!   storage buffer holding an array with one element per invocation; a
//!   `#[uniform]` one is a read-only storage buffer holding one element.
//! - binding `P` (the parameter count): the output, a read-write storage
//!   array with one element per invocation (absent when the kernel returns
//!   `()`).
//! - binding `P + 1`, when [`ShaderOptions::record_lanes`] is set: a
//!   read-write array of `uvec4` / `vec4<u32>` per invocation holding
//!   (lane id, subgroup size, subgroup key, workgroup index), where the key
//!   is `subgroupBroadcastFirst(local_invocation_index)` (the virtual
//!   subgroup's first `local_invocation_index` on emulated targets), read
//!   at the top of `main` with every invocation active.
//!
//! Element types in buffers: `bool` is stored as a `u32` 0 or 1 (neither
//! language allows `bool` in a buffer), a mask as `uvec4` / `vec4<u32>`,
//! and `u32`, `i32`, `f32` as themselves. Invocation `g`'s element is at
//! index `g = workgroup_index * invocations_per_workgroup +
//! local_invocation_index`, with `workgroup_index = id.x + id.y * count.x +
//! id.z * count.x * count.y`: the order of `ballot_sim::Dispatch`.
//!
//! # Semantics every target keeps
//! Values follow IR invariant 5 (wrapping integers, masked shift amounts,
//! WGSL's division by zero), which GLSL must spell out: shifts as
//! `x << (s & 31u)`, division through a helper. Where the spec leaves a
//! ballot operation undefined, emulated targets and helpers return a
//! documented value ([`UNDEFINED_FIND`] for FindLSB/MSB with no bit below the
//! size, `false` for BitExtract out of range, the lane's own value for
//! Broadcast from an inactive or out-of-range lane). The native simulator
//! reports these cases instead of answering, so tests compare only defined
//! executions.

use core::fmt;

pub mod forms;
pub mod glsl;
pub mod keywords;
pub mod namer;
pub mod shading;
pub mod wgsl;

#[cfg(test)]
mod tests;

/// What FindLSB / FindMSB return on emulated targets when no bit below the
/// size is set: `0xFFFFFFFF`, as WGSL's `firstTrailingBit(0)` does.
pub const UNDEFINED_FIND: u32 = u32::MAX;

use crate::lower::plan::Plan;

pub use ballot_ir::target::{
    Form, Init, Language, Missing, OptionError, ShaderOptions, Target, MAX_WORKGROUP_INVOCATIONS,
};

/// Why a shader could not be emitted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShaderError {
    /// The options are invalid.
    #[error(transparent)]
    Options(#[from] OptionError),
    /// A called kernel was not among the kernels given.
    #[error("kernel `{caller}` calls `{callee}`, which was not given to the shader writer")]
    MissingCallee {
        /// The calling kernel.
        caller: String,
        /// The missing callee's path.
        callee: String,
    },
}

/// The lowering's call resolution names no printer: its error becomes the
/// writer's here, with the same fields.
impl From<crate::lower::calls::CallError> for ShaderError {
    fn from(e: crate::lower::calls::CallError) -> Self {
        match e {
            crate::lower::calls::CallError::MissingCallee { caller, callee } => {
                ShaderError::MissingCallee { caller, callee }
            }
        }
    }
}

/// An indentation level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Level(pub usize);

impl Level {
    /// One level deeper.
    pub const fn next(self) -> Self {
        Level(self.0 + 1)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (0..self.0).try_for_each(|_| f.write_str("    "))
    }
}

/// Emits `kernels[0]` and the kernels it calls (found among `kernels[1..]`
/// by the last `::` segment of the call path) for `target` in `form`: the
/// one entry point to both shader writers.
///
/// A callee missing from `kernels` is [`ShaderError::MissingCallee`] with
/// [`Missing::Error`]; with [`Missing::Stub`] it becomes a function of the
/// call's signature that returns zero, so that one kernel can be checked
/// alone. Invalid `options`, or one that `target` does not take, are an
/// [`OptionError`] that names the option.
pub fn emit(
    target: Target,
    form: Form,
    kernels: &[&ballot_ir::ir::Kernel],
    options: &ShaderOptions,
    missing: Missing,
) -> Result<String, ShaderError> {
    let forms = write_forms(target, &[form], kernels, options, missing, Mode::Output)?;
    Ok(forms.into_text(form).unwrap_or_default())
}

/// What a shader writer writes: the text users get, or the text naga
/// validates, which is the same text but where naga lacks what a target's
/// compiler has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// The emitted text.
    #[default]
    Output,
    /// For naga: on `glsl`, the line after the `#extension` lines, blank
    /// in the output, declares stand-ins for the extensions' names
    /// ([`glsl::standins`]), and `main`'s `[[maximally_reconverges]]`
    /// attribute ([`ShaderOptions::maximal_reconvergence`]), which naga
    /// does not parse, is blank space of its width. Every other line is the
    /// output's, and every other character of `main`'s line. WGSL text
    /// needs nothing: naga knows every name the writers use, and a
    /// `wgsl-web` text is validated as the `wgsl` text it ends with.
    Validation,
}

/// [`emit`], in each form of `wanted` at once, for `mode`: the texts, and
/// which parts of the compute shader's the library lacks.
pub fn write_forms(
    target: Target,
    wanted: &[Form],
    kernels: &[&ballot_ir::ir::Kernel],
    options: &ShaderOptions,
    missing: Missing,
    mode: Mode,
) -> Result<forms::Forms, ShaderError> {
    // The options first: their error does not depend on the kernels.
    options.validate_for(target)?;
    let plan = ballot_ir::stack::deep(|| Plan::new(kernels, missing))?;
    Ok(print(target, wanted, &plan, options, mode))
}

/// [`write_forms`] of a module the lowering has planned: the expansion
/// plans a kernel once and writes every target from that plan.
pub fn write_plan(
    target: Target,
    wanted: &[Form],
    plan: &Plan<'_>,
    options: &ShaderOptions,
    mode: Mode,
) -> Result<forms::Forms, ShaderError> {
    options.validate_for(target)?;
    Ok(print(target, wanted, plan, options, mode))
}

/// The printer of `target`'s language on `plan`, with `options` validated.
fn print(
    target: Target,
    wanted: &[Form],
    plan: &Plan<'_>,
    options: &ShaderOptions,
    mode: Mode,
) -> forms::Forms {
    // The writers recurse along the kernel's nesting.
    ballot_ir::stack::deep(|| {
        let request = Request {
            target,
            wanted,
            options,
            plan,
            mode,
        };
        match target.language() {
            Language::Glsl => glsl::write(request),
            Language::Wgsl => wgsl::write(request),
        }
    })
}

/// What [`write_forms`] asks a printer to write.
pub(crate) struct Request<'a> {
    /// The target, of the printer's language.
    pub target: Target,
    /// The forms to write.
    pub wanted: &'a [Form],
    /// The options, validated.
    pub options: &'a ShaderOptions,
    /// The entry kernel and its callees, resolved, folded and
    /// if-converted.
    pub plan: &'a Plan<'a>,
    /// For the user or for naga.
    pub mode: Mode,
}
