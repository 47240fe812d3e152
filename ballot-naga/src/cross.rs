//! Cross-compilation of `wgsl` text through naga: SPIR-V 1.3, HLSL (shader
//! model 6.0) and MSL 2.1.
//!
//! [`compile`] takes a WGSL module for the [`Target::Wgsl`](ballot_shader::back::Target::Wgsl)
//! target (a kernel's compute shader or helpers, or the `wgsl`
//! [polyfill](crate::polyfill) library), parses and validates it with naga
//! (`Capabilities::SUBGROUP`), and writes it for one [`CrossTarget`].
//! `wgsl-no-subgroup` text translates too. A `wgsl-web` text is the `wgsl`
//! text after its directives, which naga rejects (`enable subgroups;`):
//! translate the `wgsl` text.
//!
//! | target | naga writer | subgroup operations become |
//! |---|---|---|
//! | [`CrossTarget::SpirV`] | `spv-out`, SPIR-V 1.3 (GroupNonUniform needs it) | `OpGroupNonUniformBallot`, … |
//! | [`CrossTarget::Hlsl`] | `hlsl-out`, shader model 6.0 (wave intrinsics need it) | `WaveActiveBallot`, `WaveReadLaneFirst`, … |
//! | [`CrossTarget::Msl`] | `msl-out`, MSL 2.1 | `simd_ballot`, `simd_broadcast_first`, … |
//!
//! Limits:
//! - **MSL ballots are 32 lanes wide.** naga's MSL writer narrows
//!   `simd_ballot` into the `x` word of the `vec4<u32>` mask, so lanes 32
//!   and up are lost. Apple GPUs have 32-wide SIMD groups, where nothing is
//!   lost; on a wider SIMD group, ballots miss lanes 32 and up.
//! - A module without an entry point (a helpers text or a polyfill library)
//!   translates, but its SPIR-V has no `OpEntryPoint` and no `Linkage`
//!   capability, so `spirv-val` rejects it; cross-compile the library's
//!   [self-test](crate::polyfill::self_test) to get a complete module.
//! - **No maximal reconvergence.** naga 30's SPIR-V writer has no option
//!   for the `MaximallyReconvergesKHR` execution mode (its `spv::Options`
//!   and the execution modes it writes: `LocalSize`, the fragment and mesh
//!   ones), and WGSL has no attribute that would carry it, so the SPIR-V
//!   written here has Vulkan's default reconvergence rules
//!   (docs/reconvergence.md, section 2.2). For a kernel that needs
//!   maximal reconvergence, compile the `glsl` target's compute shader,
//!   written with [`ShaderOptions::maximal_reconvergence`](ballot_shader::back::ShaderOptions::maximal_reconvergence),
//!   with glslang 14.1.0 or later.
//! - Only SPIR-V is checked here (by `spirv-val --target-env vulkan1.1` in
//!   tests). No HLSL or MSL compiler (dxc, metal) is run: tests check that
//!   the text is written, and that it holds the expected wave / simd
//!   intrinsics.
//! - Resource bindings follow naga's defaults: HLSL registers and MSL
//!   buffer indices are assigned from group and binding
//!   (`fake_missing_bindings`), and bounds checks are naga's defaults.

use core::fmt;

use naga::back::{hlsl, msl, spv};
use naga::valid::{Capabilities, ValidationFlags, Validator};

/// A language naga translates `wgsl` text into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CrossTarget {
    /// SPIR-V 1.3 words, for Vulkan 1.1 and later.
    SpirV,
    /// HLSL for shader model 6.0 (DXC).
    Hlsl,
    /// Metal Shading Language 2.1.
    Msl,
}

impl CrossTarget {
    /// Every cross-compilation target.
    pub const ALL: [CrossTarget; 3] = [CrossTarget::SpirV, CrossTarget::Hlsl, CrossTarget::Msl];

    /// The target's name, as [`FromStr`](core::str::FromStr) takes it:
    /// `spirv`, `hlsl` or `msl`.
    pub const fn name(self) -> &'static str {
        match self {
            CrossTarget::SpirV => "spirv",
            CrossTarget::Hlsl => "hlsl",
            CrossTarget::Msl => "msl",
        }
    }
}

ballot_ir::display_and_parse_names!(CrossTarget, CrossError::UnknownTarget);

/// What [`compile`] produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CrossOutput {
    /// A SPIR-V module, as words.
    SpirV(Vec<u32>),
    /// HLSL or MSL source.
    Text(String),
}

impl CrossOutput {
    /// The bytes to write to a file: SPIR-V words little-endian (the order
    /// `.spv` files and Vulkan loaders expect on every common host), or the
    /// text as UTF-8.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            CrossOutput::SpirV(words) => words.iter().flat_map(|w| w.to_le_bytes()).collect(),
            CrossOutput::Text(text) => text.as_bytes().to_vec(),
        }
    }
}

/// The naga stage that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CrossStage {
    /// wgsl-in's parser.
    Parse,
    /// naga's validator.
    Validate,
    /// The target's writer.
    Write,
}

impl fmt::Display for CrossStage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CrossStage::Parse => "parse",
            CrossStage::Validate => "validate",
            CrossStage::Write => "write",
        })
    }
}

/// Why [`compile`] (or parsing a [`CrossTarget`]) failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CrossError {
    /// A target name that does not exist.
    #[error("unknown cross-compilation target `{given}`; the targets are spirv, hlsl and msl")]
    UnknownTarget {
        /// The name given.
        given: String,
    },
    /// naga failed at one stage of the translation.
    #[error("cannot translate WGSL to {target}: naga's {stage} stage failed: {message}")]
    Failed {
        /// The language being written.
        target: CrossTarget,
        /// The stage that failed.
        stage: CrossStage,
        /// naga's report.
        message: String,
    },
}

/// Translates a WGSL module (see the module docs) to `to`.
pub fn compile(wgsl: &str, to: CrossTarget) -> Result<CrossOutput, CrossError> {
    let fail = |stage: CrossStage, message: String| CrossError::Failed {
        target: to,
        stage,
        message,
    };
    let module = naga::front::wgsl::parse_str(wgsl)
        .map_err(|e| fail(CrossStage::Parse, e.emit_to_string(wgsl)))?;
    let info = Validator::new(ValidationFlags::all(), Capabilities::SUBGROUP)
        .validate(&module)
        .map_err(|e| fail(CrossStage::Validate, e.emit_to_string(wgsl)))?;
    let write = |e: &dyn fmt::Display| fail(CrossStage::Write, e.to_string());
    match to {
        CrossTarget::SpirV => {
            let options = spv::Options {
                // GroupNonUniform* instructions need SPIR-V 1.3; spirv-val
                // rejects them in an older module.
                lang_version: (1, 3),
                // Names for readers, set explicitly: naga's default depends
                // on how naga itself was built.
                flags: spv::WriterFlags::DEBUG,
                ..spv::Options::default()
            };
            spv::write_vec(&module, &info, &options, None)
                .map(CrossOutput::SpirV)
                .map_err(|e| write(&e))
        }
        CrossTarget::Hlsl => {
            let options = hlsl::Options {
                // Wave intrinsics need shader model 6.0.
                shader_model: hlsl::ShaderModel::V6_0,
                ..hlsl::Options::default()
            };
            let pipeline = hlsl::PipelineOptions::default();
            let mut text = String::new();
            hlsl::Writer::new(&mut text, &options, &pipeline)
                .write(&module, &info, None)
                .map_err(|e| write(&e))?;
            Ok(CrossOutput::Text(text))
        }
        CrossTarget::Msl => {
            let options = msl::Options {
                // The version docs/design.md names for SIMD-group functions.
                lang_version: (2, 1),
                ..msl::Options::default()
            };
            let pipeline = msl::PipelineOptions::default();
            let (text, info) =
                msl::write_string(&module, &info, &options, &pipeline).map_err(|e| write(&e))?;
            // The writer reports a failed entry point here, not as an error.
            if let Some(Err(e)) = info.entry_point_names.into_iter().find(Result::is_err) {
                return Err(write(&e));
            }
            Ok(CrossOutput::Text(text))
        }
    }
}
