//! The verdict on a linked text, from the validator of its language: naga
//! for WGSL, glslang (the Khronos reference compiler) for GLSL.
//!
//! naga's GLSL front end reads a subset of the language: it refuses
//! `atomicAdd`, `local_size_x_id`, `layout(push_constant)`, precision
//! qualifiers on parameters and much that Vulkan shaders hold. The user's
//! GLSL is therefore judged by `glslangValidator`, run as a program (found
//! as `BALLOT_GLSLANG`, or on `PATH`), so that a shader glslang accepts is
//! never refused for naga's sake ([`crate::valid::glslang`]). naga still proves the text ballot adds:
//! every GLSL polyfill library is validated by naga and glslang both
//! (`valid::validate`, in the library tests).
//!
//! Each verdict also gives what the emulated targets read back from the
//! validator: the entry points' workgroup size, which sizes the exchange
//! arrays (naga's module for WGSL; the SPIR-V `LocalSize` execution mode
//! glslang writes for GLSL, where the size may be spelled through macros
//! or constants).

use std::collections::BTreeMap;

use super::LinkErrorKind;
use crate::valid::glslang::{self, Compiled};
use crate::valid::{self, Diagnostic, GlslApi, VulkanVersion};
use ballot_shader::back::{Language, Target};

pub(super) use crate::valid::glslang::glsl_stage;

/// The entry points' workgroup size, as the validator read it, or why the
/// emulated targets cannot take it.
pub(super) type Workgroup = Result<Size, (LinkErrorKind, String)>;

/// The workgroup size the validator read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Size {
    /// A constant.
    Fixed([u32; 3]),
    /// One the pipeline specialises: GLSL's `local_size_x_id`, or WGSL's
    /// `@workgroup_size` of an `override`.
    Specialised,
    /// WGSL: constants that differ between the compute entry points, each
    /// entry point's by its name.
    PerEntry(Vec<(String, [u32; 3])>),
}

/// A rejection: the workgroup, where the validator read one (naga's module
/// survives a validation error), and the diagnostic on the judged text.
pub(super) type Rejected = Box<(Option<Workgroup>, Diagnostic)>;

/// The verdict on `text`, linked for `target`; `stage` is the GLSL stage
/// glslang compiles it as (`comp`, `frag`, …), and whether it was assumed
/// ([`glsl_stage`]), and `vulkan` the version it compiles for.
pub(super) fn judge(
    target: Target,
    text: &str,
    (stage, assumed): (&str, bool),
    api: GlslApi,
) -> Result<Workgroup, Rejected> {
    #[cfg(test)]
    super::tests::JUDGE_PASSES.with(|n| n.set(n.get() + 1));
    match target.language() {
        Language::Wgsl => match valid::diagnose(target, text) {
            Ok((module, _)) => Ok(naga_workgroup(&module)),
            Err(rejected) => {
                let (module, diagnostic) = *rejected;
                Err(Box::new((module.map(|m| naga_workgroup(&m)), diagnostic)))
            }
        },
        Language::Glsl => match glslang::compile(text, stage, api) {
            Ok(Compiled::Spirv(words)) => Ok(spirv_workgroup(&words)),
            Ok(Compiled::Tree(tree)) => Ok(tree_workgroup(&tree)),
            Err(mut diagnostic) => {
                // `subgroupBroadcast`'s lane, and the quads', must be
                // constants before SPIR-V 1.5; glslang names only its own
                // parameter (`id`).
                if api == GlslApi::Vulkan(VulkanVersion::V1_1)
                    && diagnostic
                        .message
                        .contains("argument must be compile-time constant")
                {
                    diagnostic.notes.push(
                        "for Vulkan 1.1 (SPIR-V 1.3), the linker's default, the lane of \
                         `subgroupBroadcast` and `subgroupQuadBroadcast` must be a constant; from \
                         Vulkan 1.2 it may be dynamically uniform: link for the version the \
                         shader is built for (`--vulkan 1.2`, `LinkOptions::vulkan`), or use \
                         `subgroupShuffle`"
                            .to_string(),
                    );
                }
                // glslang's Vulkan rules that OpenGL's GLSL lacks
                // (GLSL_KHR_vulkan_glsl): uniforms in blocks, resources
                // bound.
                if matches!(api, GlslApi::Vulkan(_)) && glslang::vulkan_rule(&diagnostic.message) {
                    diagnostic.notes.push(
                        "a rule of GLSL for Vulkan, which the linker judges by default: for a \
                         shader an OpenGL driver compiles, link for OpenGL (`--opengl`, \
                         `LinkOptions::opengl`)"
                            .to_string(),
                    );
                }
                if assumed {
                    diagnostic.notes.push(
                        "glslang compiled it as a compute shader, as its file name has no stage \
                         extension: name a shader of another stage `.frag`, `.vert`, … (or \
                         `.frag.glsl`, …) as glslang does"
                            .to_string(),
                    );
                }
                Err(Box::new((None, diagnostic)))
            }
        },
    }
}

/// The validator of `language`, by name.
pub(super) fn validator(language: Language) -> &'static str {
    match language {
        Language::Wgsl => "naga",
        Language::Glsl => "glslang",
    }
}

/// The workgroup size every compute entry point has, as naga reads it: a
/// constant, one the pipeline overrides ([`Size::Specialised`]; that
/// every entry point spells the same one is the linker's to check, on the
/// text), or constants that differ ([`Size::PerEntry`]).
fn naga_workgroup(module: &naga::Module) -> Workgroup {
    let computes: Vec<&naga::EntryPoint> = module
        .entry_points
        .iter()
        .filter(|e| e.stage == naga::ShaderStage::Compute)
        .collect();
    let overridden = |e: &&naga::EntryPoint| e.workgroup_size_overrides.is_some();
    match computes.as_slice() {
        [] => Err(no_compute_entry()),
        all if all.iter().all(overridden) => Ok(Size::Specialised),
        all if all.iter().any(overridden) => {
            let (a, b) = (
                all.iter().find(|e| overridden(e)).expect("one is"),
                all.iter().find(|e| !overridden(e)).expect("one is not"),
            );
            Err((
                LinkErrorKind::Unsupported,
                format!(
                    "entry points `{}` (overridable) and `{}` ({:?}) have different workgroup \
                     sizes: the emulation follows either a size the pipeline gives every entry \
                     point or constants",
                    a.name, b.name, b.workgroup_size
                ),
            ))
        }
        [first, rest @ ..]
            if rest
                .iter()
                .all(|e| e.workgroup_size == first.workgroup_size) =>
        {
            Ok(Size::Fixed(first.workgroup_size))
        }
        all => Ok(Size::PerEntry(
            all.iter()
                .map(|e| (e.name.clone(), e.workgroup_size))
                .collect(),
        )),
    }
}

fn no_compute_entry() -> (LinkErrorKind, String) {
    (
        LinkErrorKind::Unsupported,
        "the shader has no compute entry point: the emulated subgroups are sized from its \
         workgroup and set up at its start"
            .to_string(),
    )
}

// ------------------------------------------------------------- SPIR-V

/// SPIR-V's opcodes and enumerants that [`spirv_workgroup`] reads (the
/// SPIR-V specification, section 3).
mod spv {
    pub const MAGIC: u32 = 0x0723_0203;
    pub const OP_ENTRY_POINT: u16 = 15;
    pub const OP_EXECUTION_MODE: u16 = 16;
    pub const OP_CONSTANT: u16 = 43;
    pub const OP_SPEC_CONSTANT_COMPOSITE: u16 = 51;
    pub const OP_DECORATE: u16 = 71;
    pub const OP_EXECUTION_MODE_ID: u16 = 331;
    pub const GL_COMPUTE: u32 = 5;
    pub const LOCAL_SIZE: u32 = 17;
    pub const LOCAL_SIZE_ID: u32 = 38;
    pub const BUILT_IN: u32 = 11;
    pub const WORKGROUP_SIZE: u32 = 25;
}

/// The compute shader's workgroup size in glslang's tree of it (for
/// OpenGL, where glslang writes no SPIR-V): its line `local_size = (x, y,
/// z)`. OpenGL GLSL has no specialization constants, so the size is
/// constant; a tree without the line is no compute shader's.
fn tree_workgroup(tree: &str) -> Workgroup {
    let size = tree.lines().find_map(|line| {
        let inside = line
            .trim()
            .strip_prefix("local_size = (")?
            .strip_suffix(')')?;
        let sizes: Vec<u32> = inside
            .split(',')
            .map(|s| s.trim().parse().ok())
            .collect::<Option<_>>()?;
        <[u32; 3]>::try_from(sizes).ok()
    });
    match size {
        Some(size) => Ok(Size::Fixed(size)),
        None => Err(no_compute_entry()),
    }
}

/// The compute entry point's `LocalSize` in the module `words`, or
/// [`Size::Specialised`] for a workgroup given through specialization
/// constants (`local_size_x_id`): glslang writes it as a `WorkgroupSize`
/// built-in that is an `OpSpecConstantComposite`, or as `LocalSizeId` of
/// ids that are not all `OpConstant`s. (For SPIR-V 1.6, Vulkan 1.3,
/// glslang writes a constant size as `LocalSizeId` too, of constants.)
fn spirv_workgroup(words: &[u32]) -> Workgroup {
    let bug = |what: &str| (LinkErrorKind::Bug, format!("glslang's SPIR-V: {what}"));
    if words.len() < 5 || words[0] != spv::MAGIC {
        return Err(bug("no SPIR-V header"));
    }
    let mut compute = Vec::new();
    let mut local_size = None;
    let mut size_ids = None;
    // The scalar `OpConstant`s, by id.
    let mut constants: BTreeMap<u32, u32> = BTreeMap::new();
    let mut workgroup_builtin = None;
    let mut spec_composites = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let (count, opcode) = ((words[at] >> 16) as usize, words[at] as u16);
        if count == 0 || at + count > words.len() {
            return Err(bug("an instruction runs past the end"));
        }
        let operands = &words[at + 1..at + count];
        match (opcode, operands) {
            (spv::OP_ENTRY_POINT, [spv::GL_COMPUTE, id, ..]) => compute.push(*id),
            (spv::OP_EXECUTION_MODE, [id, spv::LOCAL_SIZE, x, y, z]) if compute.contains(id) => {
                local_size = Some([*x, *y, *z]);
            }
            (spv::OP_EXECUTION_MODE_ID, [id, spv::LOCAL_SIZE_ID, x, y, z])
                if compute.contains(id) =>
            {
                size_ids = Some([*x, *y, *z]);
            }
            (spv::OP_CONSTANT, [_, id, value]) => {
                constants.insert(*id, *value);
            }
            (spv::OP_DECORATE, [id, spv::BUILT_IN, spv::WORKGROUP_SIZE]) => {
                workgroup_builtin = Some(*id);
            }
            (spv::OP_SPEC_CONSTANT_COMPOSITE, [_, id, ..]) => spec_composites.push(*id),
            _ => {}
        }
        at += count;
    }
    if compute.is_empty() {
        return Err(no_compute_entry());
    }
    // Constants are declared after the execution modes that name them.
    let by_id = size_ids.map(|ids| ids.map(|id| constants.get(&id).copied()));
    match by_id {
        Some([Some(x), Some(y), Some(z)]) => local_size = Some([x, y, z]),
        Some(_) => return Ok(Size::Specialised),
        None => {}
    }
    if workgroup_builtin.is_some_and(|id| spec_composites.contains(&id)) {
        return Ok(Size::Specialised);
    }
    local_size
        .map(Size::Fixed)
        .ok_or_else(|| bug("no LocalSize for the compute entry point"))
}

// ------------------------------------------------------------ glslang

/// The program to run: `BALLOT_GLSLANG`, or `glslangValidator` on `PATH`.
/// Whether a GLSL `text` has a `#version` line (with any blanks around
/// the `#`).
pub(super) fn has_version(text: &str) -> bool {
    text.lines().any(|line| {
        line.trim_start()
            .strip_prefix('#')
            .is_some_and(|rest| rest.trim_start().starts_with("version"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A SPIR-V module of a header and `instructions`, each its opcode and
    /// operands (the word count is added).
    fn module(instructions: &[(u16, &[u32])]) -> Vec<u32> {
        let mut words = vec![spv::MAGIC, 0x0001_0300, 0, 100, 0];
        for (opcode, operands) in instructions {
            words.push(((operands.len() as u32 + 1) << 16) | u32::from(*opcode));
            words.extend_from_slice(operands);
        }
        words
    }

    #[test]
    fn the_workgroup_is_read_from_local_size() {
        // OpEntryPoint GLCompute %4 "main"; OpExecutionMode %4 LocalSize 8 4 1.
        let name = u32::from_le_bytes(*b"main");
        let entry: &[u32] = &[spv::GL_COMPUTE, 4, name, 0];
        let fixed = module(&[
            (spv::OP_ENTRY_POINT, entry),
            (spv::OP_EXECUTION_MODE, &[4, spv::LOCAL_SIZE, 8, 4, 1]),
        ]);
        assert_eq!(spirv_workgroup(&fixed), Ok(Size::Fixed([8, 4, 1])));
        // local_size_x_id: the WorkgroupSize built-in is a spec constant.
        let overridable = module(&[
            (spv::OP_ENTRY_POINT, entry),
            (spv::OP_EXECUTION_MODE, &[4, spv::LOCAL_SIZE, 1, 1, 1]),
            (spv::OP_DECORATE, &[9, spv::BUILT_IN, spv::WORKGROUP_SIZE]),
            (spv::OP_SPEC_CONSTANT_COMPOSITE, &[7, 9, 5, 6, 6]),
        ]);
        assert_eq!(spirv_workgroup(&overridable), Ok(Size::Specialised));
        // SPIR-V 1.6 (glslang for Vulkan 1.3): LocalSizeId of constants
        // (OpConstant %uint 64, declared after the mode) is that size; of
        // a spec constant (OpSpecConstant, 50), the pipeline's.
        let by_id = |x_opcode: u16| {
            module(&[
                (spv::OP_ENTRY_POINT, entry),
                (
                    spv::OP_EXECUTION_MODE_ID,
                    &[4, spv::LOCAL_SIZE_ID, 10, 11, 11],
                ),
                (x_opcode, &[2, 10, 64]),
                (spv::OP_CONSTANT, &[2, 11, 1]),
            ])
        };
        assert_eq!(
            spirv_workgroup(&by_id(spv::OP_CONSTANT)),
            Ok(Size::Fixed([64, 1, 1]))
        );
        assert_eq!(spirv_workgroup(&by_id(50)), Ok(Size::Specialised));
        // A fragment shader has no compute entry point.
        let fragment = module(&[(spv::OP_ENTRY_POINT, &[4, 4, name, 0])]);
        assert!(spirv_workgroup(&fragment)
            .unwrap_err()
            .1
            .contains("no compute entry point"));
        // A truncated module is glslang's fault, never a panic.
        let mut cut = fixed.clone();
        cut.truncate(cut.len() - 2);
        assert_eq!(spirv_workgroup(&cut).unwrap_err().0, LinkErrorKind::Bug);
    }
}
