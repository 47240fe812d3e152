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
//!   inactive. This is exactly [`crate::Dispatch`]'s layout.
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
//! id.z * count.x * count.y`: the order of [`crate::Dispatch`].
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

pub(crate) mod forms;
pub mod glsl;
pub mod keywords;
pub mod namer;
#[cfg(feature = "macros")]
pub mod rust;
pub(crate) mod shading;
pub mod wgsl;

/// What FindLSB / FindMSB return on emulated targets when no bit below the
/// size is set: `0xFFFFFFFF`, as WGSL's `firstTrailingBit(0)` does.
pub const UNDEFINED_FIND: u32 = u32::MAX;

/// A shading language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    /// GLSL 4.50 (Vulkan) / naga's glsl-in.
    Glsl,
    /// WGSL.
    Wgsl,
}

impl Language {
    /// The file extension of its source files: `glsl` or `wgsl`.
    pub const fn extension(self) -> &'static str {
        match self {
            Language::Glsl => "glsl",
            Language::Wgsl => "wgsl",
        }
    }
}

/// Where emitted code will run. See docs/design.md's target table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// GLSL with `GL_KHR_shader_subgroup_ballot`: native calls.
    Glsl,
    /// GLSL without subgroups: virtual subgroups in `shared` memory.
    GlslNoSubgroup,
    /// WGSL with `subgroupBallot` and generated helpers; no `enable` line,
    /// for naga and wgpu.
    Wgsl,
    /// WGSL for browsers: `enable subgroups;`, and
    /// `diagnostic(off, subgroup_uniformity)` where needed, for Dawn/Tint.
    WgslWeb,
    /// WGSL without subgroups: virtual subgroups in `var<workgroup>`
    /// memory; runs in every WebGPU browser.
    WgslNoSubgroup,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 5] = [
        Target::Glsl,
        Target::GlslNoSubgroup,
        Target::Wgsl,
        Target::WgslWeb,
        Target::WgslNoSubgroup,
    ];

    /// The target's name, as `FromStr` and the command line take it.
    pub const fn name(self) -> &'static str {
        match self {
            Target::Glsl => "glsl",
            Target::GlslNoSubgroup => "glsl-no-subgroup",
            Target::Wgsl => "wgsl",
            Target::WgslWeb => "wgsl-web",
            Target::WgslNoSubgroup => "wgsl-no-subgroup",
        }
    }

    /// The language of the emitted text.
    pub const fn language(self) -> Language {
        match self {
            Target::Glsl | Target::GlslNoSubgroup => Language::Glsl,
            Target::Wgsl | Target::WgslWeb | Target::WgslNoSubgroup => Language::Wgsl,
        }
    }

    /// Whether the target uses the device's subgroups (rather than
    /// emulating them).
    pub const fn has_subgroups(self) -> bool {
        !matches!(self, Target::GlslNoSubgroup | Target::WgslNoSubgroup)
    }

    /// What the target needs from a device, in one line (`ballot targets`
    /// prints it).
    pub const fn requirements(self) -> &'static str {
        match self {
            Target::Glsl => "Vulkan 1.1 (or GL) with GL_KHR_shader_subgroup_ballot",
            Target::GlslNoSubgroup => {
                "GLSL 4.50 compute shaders with shared memory; no subgroup support \
                 (virtual subgroup size option)"
            }
            Target::Wgsl => "wgpu (naga) with Features::SUBGROUP",
            Target::WgslWeb => "a browser or Dawn exposing the WebGPU `subgroups` feature",
            Target::WgslNoSubgroup => {
                "any WebGPU compute device with workgroup memory; no subgroup support \
                 (virtual subgroup size option)"
            }
        }
    }
}

/// `Display` and `FromStr` for a type of targets (`Target`,
/// `cross::CrossTarget`) by its `name`: what is shown is what the command
/// line takes back. A name not among `ALL`'s is `$err::$unknown { given }`.
macro_rules! display_and_parse_names {
    ($ty:ident, $err:ident::$unknown:ident) => {
        impl core::fmt::Display for $ty {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl core::str::FromStr for $ty {
            type Err = $err;

            fn from_str(s: &str) -> Result<Self, $err> {
                $ty::ALL
                    .into_iter()
                    .find(|t| t.name() == s)
                    .ok_or_else(|| $err::$unknown {
                        given: s.to_string(),
                    })
            }
        }
    };
}
#[cfg(feature = "cross")]
pub(crate) use display_and_parse_names;

display_and_parse_names!(Target, OptionError::UnknownTarget);

/// Which shape the emitted text takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    /// Functions for the user to call from their own shader.
    Helpers,
    /// A complete compute shader with the kernel's inputs and outputs in
    /// storage buffers.
    ComputeShader,
}

impl Form {
    /// Both forms.
    pub const ALL: [Form; 2] = [Form::Helpers, Form::ComputeShader];

    /// The form's name.
    pub const fn name(self) -> &'static str {
        match self {
            Form::Helpers => "helpers",
            Form::ComputeShader => "compute",
        }
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Options for emitted shaders.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ShaderOptions {
    /// The compute shader's workgroup size. Default `[64, 1, 1]`.
    pub workgroup_size: [u32; 3],
    /// The virtual subgroup size of the emulated targets: a power of two
    /// from 1 to 128, at most the workgroup's invocation count. Default 32.
    pub subgroup_size: u32,
    /// Whether the compute shader also writes each invocation's lane id,
    /// subgroup size and subgroup key (see the module docs). Default off.
    pub record_lanes: bool,
    /// Whether the `glsl` target's compute shader asks for maximal
    /// reconvergence: `#extension GL_EXT_maximal_reconvergence : require`
    /// and `void main() [[maximally_reconverges]]`, which glslang turns into
    /// SPIR-V's `MaximallyReconvergesKHR` execution mode. Then a collective
    /// in divergent control flow runs with exactly the lanes the native
    /// simulator gives it; without it, Vulkan promises that only in some
    /// cases (docs/reconvergence.md, "What ballot's targets promise"). The
    /// device must enable `VK_KHR_shader_maximal_reconvergence`'s
    /// `shaderMaximalReconvergence` feature, and glslang must be 14.1.0 or
    /// later. The helper form has no entry point and is unchanged: the
    /// attribute belongs on the user's `main`.
    ///
    /// Only `glsl` takes it, and every other target refuses it with
    /// [`OptionError::Unsupported`]: the emulated targets reconverge
    /// maximally by construction, and WGSL has no such attribute. Default
    /// off.
    pub maximal_reconvergence: bool,
}

impl Default for ShaderOptions {
    fn default() -> Self {
        Self {
            workgroup_size: [64, 1, 1],
            subgroup_size: 32,
            record_lanes: false,
            maximal_reconvergence: false,
        }
    }
}

/// The most invocations per workgroup a compute shader may have: WebGPU's
/// default `maxComputeInvocationsPerWorkgroup`, which Vulkan's minimum
/// (128) would undercut only on very old devices.
pub const MAX_WORKGROUP_INVOCATIONS: u32 = 256;

impl ShaderOptions {
    /// Invocations per workgroup.
    pub fn invocations_per_workgroup(&self) -> u32 {
        self.workgroup_size.iter().product()
    }

    /// Checks the options, naming the offending one.
    pub fn validate(&self) -> Result<(), OptionError> {
        let [x, y, z] = self.workgroup_size;
        let invocations = (x as u64) * (y as u64) * (z as u64);
        if invocations == 0 || invocations > MAX_WORKGROUP_INVOCATIONS as u64 {
            return Err(OptionError::Invalid {
                option: "workgroup_size",
                value: format!("{x}x{y}x{z}"),
                reason: format!("it must have 1 to {MAX_WORKGROUP_INVOCATIONS} invocations"),
            });
        }
        if crate::SubgroupSize::new(self.subgroup_size).is_err() {
            return Err(OptionError::Invalid {
                option: "subgroup_size",
                value: self.subgroup_size.to_string(),
                reason: "it must be a power of two from 1 to 128".to_string(),
            });
        }
        if self.subgroup_size as u64 > invocations {
            return Err(OptionError::Mismatch {
                subgroup_size: self.subgroup_size,
                workgroup_size: self.workgroup_size,
            });
        }
        Ok(())
    }

    /// [`validate`](Self::validate), then whether `target` takes every
    /// option that is set: [`OptionError::Unsupported`] names the first
    /// one it does not.
    pub fn validate_for(&self, target: Target) -> Result<(), OptionError> {
        self.validate()?;
        if self.maximal_reconvergence && target != Target::Glsl {
            let reason = if target.has_subgroups() {
                "WGSL has no attribute or directive that asks for maximal reconvergence; \
                 only the `glsl` target (GL_EXT_maximal_reconvergence) does"
            } else {
                "the emulated targets are if-converted, so they reconverge maximally \
                 by construction, on every device"
            };
            return Err(OptionError::Unsupported {
                option: "maximal_reconvergence",
                target,
                reason,
            });
        }
        Ok(())
    }
}

/// An invalid option for emitted shaders.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OptionError {
    /// An option has a value no target accepts.
    #[error("invalid `{option}` {value}: {reason}")]
    Invalid {
        /// The option's name.
        option: &'static str,
        /// The rejected value.
        value: String,
        /// What a valid value looks like.
        reason: String,
    },
    /// The virtual subgroup size does not fit the workgroup.
    #[error(
        "`subgroup_size` {subgroup_size} does not fit `workgroup_size` {}x{}x{} ({} invocations): \
         a virtual subgroup cannot be larger than its workgroup",
        workgroup_size[0], workgroup_size[1], workgroup_size[2],
        workgroup_size.iter().product::<u32>()
    )]
    Mismatch {
        /// The virtual subgroup size.
        subgroup_size: u32,
        /// The workgroup size.
        workgroup_size: [u32; 3],
    },
    /// An option that the target does not take.
    #[error("`{option}` is not supported by target `{target}`: {reason}")]
    Unsupported {
        /// The option's name.
        option: &'static str,
        /// The target that refuses it.
        target: Target,
        /// Why the target has no use for it.
        reason: &'static str,
    },
    /// A target name that does not exist.
    #[error("unknown target `{given}`; the targets are glsl, glsl-no-subgroup, wgsl, wgsl-web and wgsl-no-subgroup")]
    UnknownTarget {
        /// The name given.
        given: String,
    },
}

/// What a shader writer does with a called kernel that it was not given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Missing {
    /// Fail with [`ShaderError::MissingCallee`].
    #[default]
    Error,
    /// Declare a stand-in whose signature is read off the call (argument
    /// and result types) and which returns the zero value: enough to
    /// validate one kernel in isolation.
    Stub,
}

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
    kernels: &[&crate::ir::Kernel],
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
pub(crate) enum Mode {
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
pub(crate) fn write_forms(
    target: Target,
    wanted: &[Form],
    kernels: &[&crate::ir::Kernel],
    options: &ShaderOptions,
    missing: Missing,
    mode: Mode,
) -> Result<forms::Forms, ShaderError> {
    options.validate_for(target)?;
    // The writers recurse along the kernel's nesting.
    crate::stack::deep(|| {
        let request = Request {
            target,
            wanted,
            options,
            module: crate::lower::calls::resolve(kernels, missing)?,
            mode,
        };
        Ok(match target.language() {
            Language::Glsl => glsl::write(request),
            Language::Wgsl => wgsl::write(request),
        })
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
    /// The entry kernel and its callees, resolved.
    pub module: crate::lower::calls::Module<'a>,
    /// For the user or for naga.
    pub mode: Mode,
}
