//! What every layer shares: the shading languages, the targets, the forms
//! of emitted text and their options, and the errors of those options.
//!
//! A leaf, as wgpu-types is wgpu's: the lowering, the printers, the
//! naga-facing tools and the command line all name these types, and this
//! module names none of theirs. `ballot_shader::back` re-exports them, where
//! users have always found them.

use core::fmt;

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

/// Where emitted code will run. See `docs/design.md`'s target table.
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
#[doc(hidden)]
#[macro_export]
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
    /// subgroup size and subgroup key (see `ballot_shader::back`'s docs). Default off.
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
        self.validate_up_to(MAX_WORKGROUP_INVOCATIONS)
    }

    /// [`validate`](Self::validate), with workgroups of up to `max`
    /// invocations rather than [`MAX_WORKGROUP_INVOCATIONS`]: for a GLSL
    /// shader of the user's, whose workgroup Vulkan bounds (commonly 1,024
    /// invocations), not WebGPU.
    pub fn validate_up_to(&self, max: u32) -> Result<(), OptionError> {
        let [x, y, z] = self.workgroup_size;
        let invocations = (x as u64) * (y as u64) * (z as u64);
        if invocations == 0 || invocations > max as u64 {
            return Err(OptionError::Invalid {
                option: "workgroup_size",
                value: format!("{x}x{y}x{z}"),
                reason: format!("it must have 1 to {max} invocations"),
            });
        }
        if crate::size::SubgroupSize::new(self.subgroup_size).is_err() {
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
    /// Fail: the call names a kernel the writer was not given.
    #[default]
    Error,
    /// Declare a stand-in whose signature is read off the call (argument
    /// and result types) and which returns the zero value: enough to
    /// validate one kernel in isolation.
    Stub,
}

/// The call that sets up a target's ballot functions, made once at the top
/// of the entry point: the one statement of that contract, which the
/// helper form's notes, the compute shaders, the polyfill libraries'
/// headers, the linker and the primitives all quote.
///
/// On the emulated targets it also clears the exchange memory's state, so
/// every invocation of the workgroup makes it, before any ballot function
/// runs; on `wgsl` and `wgsl-web` it keeps the subgroup built-ins, which
/// WGSL has only as the entry point's parameters, for the functions to
/// read. The `glsl` target needs none: its functions are the extension's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Init {
    /// The built-in values it takes, in order, by the names that GLSL or
    /// WGSL's `@builtin` attributes give them.
    pub builtins: &'static [&'static str],
    /// Whether every invocation of the workgroup must make it (the
    /// emulated targets); otherwise each invocation that calls a ballot
    /// function does.
    pub every_invocation: bool,
}

impl Init {
    /// The function's name in the libraries and the helper form.
    pub const NAME: &'static str = "ballot_init";

    /// The call of [`Init::NAME`] with `args`, the entry point's names for
    /// [`Init::builtins`]: `ballot_init(lane, size)`.
    pub fn call(&self, args: &[&str]) -> String {
        self.call_as(Self::NAME, args)
    }

    /// The call of the init function under another name (the linker's,
    /// which is prefixed away from the shader's own names).
    pub fn call_as(&self, name: &str, args: &[&str]) -> String {
        debug_assert_eq!(args.len(), self.builtins.len(), "one argument per built-in");
        format!("{name}({})", args.join(", "))
    }

    /// The call with the built-ins' own names, as the docs show it:
    /// `ballot_init(subgroup_invocation_id, subgroup_size)`.
    pub fn documented(&self) -> String {
        self.call(self.builtins)
    }
}

impl Target {
    /// The init call this target's ballot functions need, or `None`
    /// (`glsl`).
    pub const fn init(self) -> Option<Init> {
        match self {
            Target::Glsl => None,
            Target::GlslNoSubgroup => Some(Init {
                builtins: &["gl_LocalInvocationIndex"],
                every_invocation: true,
            }),
            Target::Wgsl | Target::WgslWeb => Some(Init {
                builtins: &["subgroup_invocation_id", "subgroup_size"],
                every_invocation: false,
            }),
            Target::WgslNoSubgroup => Some(Init {
                builtins: &["local_invocation_index"],
                every_invocation: true,
            }),
        }
    }
}
