//! Standalone polyfill libraries: the ballot operations a target lacks, as
//! functions to paste into a hand-written shader.
//!
//! [`library`] writes one library per [`Target`], from the same helper
//! texts the kernel writers ([`crate::back::glsl`], [`crate::back::wgsl`])
//! put into emitted kernels, so the two cannot drift apart. The public
//! functions are thin wrappers, under the names below, around those
//! `ballot_*` helpers. Every library is validated with naga (as
//! [`crate::valid::validate`] does for the helper form of its target) before
//! it is returned, and tests also compile the GLSL ones with glslang and
//! spirv-val.
//!
//! # Names
//! | target | names | init call |
//! |---|---|---|
//! | `glsl` | the extension's own: the library only enables `GL_KHR_shader_subgroup_basic` and `_ballot` | none |
//! | `glsl-no-subgroup` | `ballot` + the GLSL name, capitalised: `ballotSubgroupBallotFindMSB`, `ballotSubgroupEqMask()` | `ballot_init(gl_LocalInvocationIndex)` |
//! | `wgsl`, `wgsl-web` | the GLSL name: `subgroupBallotFindMSB`, `subgroupEqMask()`, `subgroupElect()`; `subgroupBallot`, `subgroupBroadcast` and `subgroupBroadcastFirst` are WGSL's own | `ballot_init(subgroup_invocation_id, subgroup_size)` |
//! | `wgsl-no-subgroup` | the GLSL name, for every operation; the collectives take an `on` flag first | `ballot_init(local_invocation_index)` |
//!
//! - Built-in variables (`gl_SubgroupEqMask`, …) become functions of the
//!   same name without `gl_` (`subgroupEqMask()`).
//! - `glsl-no-subgroup` needs the prefix: glslang declares the extension's
//!   functions even where the extension is not enabled, and rejects a user
//!   function of the same signature (`subgroupBallotFindMSB(uvec4)`), so
//!   every public name there carries it, for one rule rather than sixteen.
//! - WGSL lets a module-scope function shadow a built-in of the same name,
//!   and naga 30 has no `subgroupElect`: the WGSL libraries define
//!   `subgroupElect`, and `wgsl-no-subgroup` also `subgroupBallot`,
//!   `subgroupBroadcast` and `subgroupBroadcastFirst`.
//! - Broadcasts carry `u32` values; the emulated targets also offer
//!   `vec4<u32>` / `uvec4` (WGSL has no overloading: `subgroupBroadcastVec4`,
//!   `subgroupBroadcastFirstVec4`; GLSL overloads the name).
//! - Names starting with `ballot_` are the library's own.
//!
//! # Emulated targets
//! Virtual subgroups of [`PolyfillOptions::subgroup_size`] invocations live
//! in workgroup memory; subgroup `s` is the invocations with
//! `local_invocation_index` in `s * S .. s * S + S`, and the last one is
//! partial when the workgroup's invocation count is not a multiple of `S`.
//! The shader's workgroup must have exactly as many invocations as
//! [`PolyfillOptions::workgroup_size`]. Where it has more, the misuse is
//! loud, never an access past the exchange memory: the invocations past
//! the declared count exchange through a spare slot, and every public
//! function returns them a failure value: all bits set (`0xFFFFFFFF` in
//! each word) where it returns a mask or a number, which no ballot below
//! subgroup size 128 and no count or index can be, and `false` where it
//! returns a boolean. The invocations within the count are unaffected. Ballot, Elect, Broadcast and
//! BroadcastFirst take an explicit `on` flag (whether the calling
//! invocation takes part, i.e. is *active*), and hold barriers: every
//! invocation of the workgroup must call them, in workgroup-uniform control
//! flow. The other operations are lane-local and may be called anywhere.
//!
//! # Undefined cases
//! Where the spec (docs/design.md, "Semantics") leaves a result undefined, the
//! generated functions return: FindLSB / FindMSB with no bit below the
//! size, [`UNDEFINED_FIND`](crate::back::UNDEFINED_FIND) (`0xFFFFFFFF`);
//! BitExtract at or above the size, `false`; InverseBallot of a value that
//! differs across lanes, each lane's own bit; on emulated targets Broadcast
//! from an inactive lane or one at or above the size, the caller's own
//! value, and BroadcastFirst with no active lane, the caller's own value.
//! Native functions (`glsl`, and WGSL's own broadcasts) are undefined there
//! as the spec says.
//!
//! # Self-test
//! [`self_test`] appends to the library an entry point `main` that calls
//! every public function and writes [`SELF_TEST_RECORDS`] `vec4<u32>` /
//! `uvec4` per invocation to the read-write storage buffer at group / set 0,
//! binding 0, starting at `SELF_TEST_RECORDS * g`, where `g` is the
//! invocation's index in the dispatch (`workgroup_index * invocations +
//! local_invocation_index`, as in [`crate::back`]'s compute shaders). With
//! `b = Ballot(lane is even)`, the records are:
//!
//! | record | x | y | z | w |
//! |---|---|---|---|---|
//! | 0 | `b` | | | |
//! | 1 | `BitCount(b)` | `InclusiveBitCount(b)` | `ExclusiveBitCount(b)` | `FindLSB(b)` |
//! | 2 | `FindMSB(b)` | `BitExtract(b, (lane + 1) % size)` | `InverseBallot(b)` | `Elect()` |
//! | 3–7 | `EqMask` | `GeMask` | `GtMask` | `LeMask`, `LtMask` (one record each) |
//! | 8 | `BroadcastFirst(3g + 1)` | `Broadcast(5g + 2, 0)` | `split` | `lane` |
//! | 9 | `size` | `FindLSB(0)` | `FindMSB(0)` | `BitExtract(all ones, size)` |
//!
//! Booleans are 0 or 1. `split` is `0xFFFFFFFF` in lanes with bit 1 of the
//! lane id clear; the others, in a branch of their own, write `Elect()` in
//! bit 0 and `BitCount(Ballot(true))` above it. Record 9's last three
//! values are undefined on `glsl` (the driver's own functions answer).
//! A driver harness runs it and compares with the spec; here it is
//! validated (naga, glslang and spirv-val) and cross-compiled.

use std::collections::BTreeSet;

use crate::back::{glsl, wgsl, Form, Language, OptionError, ShaderOptions, Target};
use crate::lower::helpers::{Helper, Needs};
use crate::op::Op;
use crate::valid::{self, ValidationError};

/// Options of a polyfill library. Both matter only to the emulated targets
/// (`*-no-subgroup`), and to the self-test's workgroup size; they are
/// checked on every target, by [`ShaderOptions::validate`]'s rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolyfillOptions {
    /// The virtual subgroup size: a power of two from 1 to 128, at most the
    /// workgroup's invocation count. Default 32.
    pub subgroup_size: u32,
    /// The workgroup size of the shader that includes the library: the
    /// emulated exchange memory has one slot per invocation. Default
    /// `[64, 1, 1]`.
    pub workgroup_size: [u32; 3],
}

impl Default for PolyfillOptions {
    fn default() -> Self {
        Self {
            subgroup_size: 32,
            workgroup_size: [64, 1, 1],
        }
    }
}

impl PolyfillOptions {
    /// Checks the options, naming the offending one.
    pub fn validate(&self) -> Result<(), OptionError> {
        self.shader_options().validate()
    }

    fn shader_options(&self) -> ShaderOptions {
        ShaderOptions {
            workgroup_size: self.workgroup_size,
            subgroup_size: self.subgroup_size,
            ..ShaderOptions::default()
        }
    }
}

/// Why a polyfill library could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PolyfillError {
    /// An option is invalid; the error names it and its value.
    #[error(transparent)]
    Options(#[from] OptionError),
    /// naga rejected the library: a bug in ballot, never in the caller.
    #[error("the polyfill library for target `{target}` is invalid (a bug in ballot): {error}")]
    Invalid {
        /// The library's target.
        target: Target,
        /// naga's report.
        error: ValidationError,
    },
}

/// How many `vec4<u32>` records the self-test writes per invocation.
pub const SELF_TEST_RECORDS: u32 = 10;

/// The polyfill library for `target`, validated with naga.
///
/// GLSL libraries have no `#version` line: paste them right after the
/// shader's own (their `#extension` lines must precede all other code).
/// WGSL libraries go before the shader's code; the `wgsl-web` one starts
/// with its `enable` and `diagnostic` directives, which must open the
/// module.
pub fn library(target: Target, options: &PolyfillOptions) -> Result<String, PolyfillError> {
    options.validate()?;
    let text = write_library(target, &options.shader_options());
    valid::validate(target, Form::Helpers, &text)
        .map_err(|error| PolyfillError::Invalid { target, error })?;
    Ok(text)
}

/// The library followed by its self-test entry point (see the module
/// docs): a complete compute shader, validated with naga. GLSL starts with
/// `#version 450`.
pub fn self_test(target: Target, options: &PolyfillOptions) -> Result<String, PolyfillError> {
    self_test_in(target, options, options.workgroup_size)
}

/// [`self_test`] with its entry point in a workgroup of `workgroup_size`,
/// which may differ from the library's: in a larger one, the invocations
/// past the library's workgroup get the failure values of the module
/// docs in every record an operation writes (records 0 to 7, and 8.x and
/// 8.y), and the others the records of [`self_test`]. This is how tests
/// see the workgroup contract fail loudly.
pub fn self_test_in(
    target: Target,
    options: &PolyfillOptions,
    workgroup_size: [u32; 3],
) -> Result<String, PolyfillError> {
    options.validate()?;
    let library = write_library(target, &options.shader_options());
    let entry = PolyfillOptions {
        workgroup_size,
        ..options.clone()
    };
    entry.validate()?;
    let shader = entry.shader_options();
    let text = match target {
        Target::Glsl | Target::GlslNoSubgroup => {
            format!("#version 450\n{library}{}", glsl_self_test(target, &shader))
        }
        Target::Wgsl | Target::WgslWeb | Target::WgslNoSubgroup => {
            format!("{library}{}", wgsl_self_test(target, &shader))
        }
    };
    valid::validate(target, Form::ComputeShader, &text)
        .map_err(|error| PolyfillError::Invalid { target, error })?;
    Ok(text)
}

/// The name under which the library of `target` offers `op`: a function
/// (called with `()` for the masks, except on `glsl`, where they stay the
/// extension's built-in variables).
pub const fn function_name(target: Target, op: Op) -> &'static str {
    match target {
        Target::Glsl => op.glsl_name(),
        Target::GlslNoSubgroup => match op {
            Op::Ballot => "ballotSubgroupBallot",
            Op::InverseBallot => "ballotSubgroupInverseBallot",
            Op::BitExtract => "ballotSubgroupBallotBitExtract",
            Op::BitCount => "ballotSubgroupBallotBitCount",
            Op::InclusiveBitCount => "ballotSubgroupBallotInclusiveBitCount",
            Op::ExclusiveBitCount => "ballotSubgroupBallotExclusiveBitCount",
            Op::FindLsb => "ballotSubgroupBallotFindLSB",
            Op::FindMsb => "ballotSubgroupBallotFindMSB",
            Op::EqMask => "ballotSubgroupEqMask",
            Op::GeMask => "ballotSubgroupGeMask",
            Op::GtMask => "ballotSubgroupGtMask",
            Op::LeMask => "ballotSubgroupLeMask",
            Op::LtMask => "ballotSubgroupLtMask",
            Op::Elect => "ballotSubgroupElect",
            Op::Broadcast => "ballotSubgroupBroadcast",
            Op::BroadcastFirst => "ballotSubgroupBroadcastFirst",
        },
        Target::Wgsl | Target::WgslWeb | Target::WgslNoSubgroup => match op {
            Op::EqMask => "subgroupEqMask",
            Op::GeMask => "subgroupGeMask",
            Op::GtMask => "subgroupGtMask",
            Op::LeMask => "subgroupLeMask",
            Op::LtMask => "subgroupLtMask",
            _ => op.glsl_name(),
        },
    }
}

fn write_library(target: Target, options: &ShaderOptions) -> String {
    let mut out = header(target, options);
    match target {
        Target::Glsl => {
            // Every name comes from the extensions: the library only enables them.
            out.push_str("#extension GL_KHR_shader_subgroup_basic : require\n");
            out.push_str("#extension GL_KHR_shader_subgroup_ballot : require\n");
        }
        Target::GlslNoSubgroup => glsl_emulated(&mut out, options),
        Target::Wgsl | Target::WgslWeb | Target::WgslNoSubgroup => {
            wgsl_library(&mut out, target, options)
        }
    }
    out
}

/// The helpers behind `ops`, in `language`, with what they need.
pub(crate) fn helpers_of(language: Language, emulated: bool, ops: &[Op]) -> BTreeSet<Helper> {
    let mut needs = Needs::new(language, emulated);
    for &op in ops {
        if let Some(helper) = Helper::of_op(op, language, emulated) {
            needs.add(helper);
        }
    }
    needs.into_set()
}

fn glsl_emulated(out: &mut String, options: &ShaderOptions) {
    out.push('\n');
    out.push_str(&glsl::emulated_constants(options, true, 1));
    let mut helpers = helpers_of(Language::Glsl, true, &Op::ALL);
    helpers.insert(Helper::Guard);
    glsl::helpers::write_all(out, &helpers);
    out.push_str("// The public functions.\n");
    glsl_public(
        out,
        &Op::ALL,
        &|op| function_name(Target::GlslNoSubgroup, op).to_string(),
        true,
    );
}

/// The value a guarded public function returns to an invocation past the
/// library's workgroup, by its return type: all bits set for masks and
/// numbers (no ballot has bits at or above a size below 128, no count or
/// index reaches 0xFFFFFFFF), `false` for booleans.
fn failure(ret: &str) -> &'static str {
    match ret {
        "uvec4" => "uvec4(0xFFFFFFFFu)",
        "vec4<u32>" => "vec4<u32>(0xffffffffu)",
        "uint" => "0xFFFFFFFFu",
        "u32" => "0xffffffffu",
        _ => "false",
    }
}

/// The public functions of `ops` on `glsl-no-subgroup`, named by `name`,
/// over the `ballot_*` helpers; with the `guard`, returning [`failure`]
/// values past the workgroup (after the helper ran: it may hold a barrier).
pub(crate) fn glsl_public(out: &mut String, ops: &[Op], name: &dyn Fn(Op) -> String, guard: bool) {
    let function = |ret: &str, name: &str, params: &str, value: String| {
        if guard {
            format!(
                "{ret} {name}({params}) {{\n    {ret} result = {value};\n    \
                 return ballot_overflow ? {} : result;\n}}\n",
                failure(ret)
            )
        } else {
            format!("{ret} {name}({params}) {{\n    return {value};\n}}\n")
        }
    };
    // A blank line between functions, none after the last: the library
    // ends where its last function does, as the other targets' do.
    let mut functions = Vec::new();
    for &op in ops {
        let name = name(op);
        let helper = Helper::call_name(Helper::of_op(op, Language::Glsl, true));
        let (ret, params, args) = match op {
            Op::Ballot => ("uvec4", "bool on, bool predicate", "on, predicate"),
            Op::InverseBallot => ("bool", "uvec4 value", "value"),
            Op::BitExtract => ("bool", "uvec4 value, uint index", "value, index"),
            Op::BitCount | Op::InclusiveBitCount | Op::ExclusiveBitCount => {
                ("uint", "uvec4 value", "value")
            }
            Op::FindLsb | Op::FindMsb => ("uint", "uvec4 value", "value"),
            Op::EqMask | Op::GeMask | Op::GtMask | Op::LeMask | Op::LtMask => ("uvec4", "", ""),
            Op::Elect => ("bool", "bool on", "on"),
            Op::Broadcast => {
                functions.push(function(
                    "uint",
                    &name,
                    "bool on, uint value, uint id",
                    format!("{helper}(on, uvec4(value, 0u, 0u, 0u), id).x"),
                ));
                ("uvec4", "bool on, uvec4 value, uint id", "on, value, id")
            }
            Op::BroadcastFirst => {
                functions.push(function(
                    "uint",
                    &name,
                    "bool on, uint value",
                    format!("{helper}(on, uvec4(value, 0u, 0u, 0u)).x"),
                ));
                ("uvec4", "bool on, uvec4 value", "on, value")
            }
        };
        functions.push(function(ret, &name, params, format!("{helper}({args})")));
    }
    out.push_str(&functions.join("\n"));
}

fn wgsl_library(out: &mut String, target: Target, options: &ShaderOptions) {
    let emulated = !target.has_subgroups();
    if target == Target::WgslWeb {
        // Directives must open the module. The library's functions are meant
        // for divergent control flow, which Tint's subgroup uniformity
        // analysis would reject in subgroupElect's broadcast.
        out.push_str("\nenable subgroups;\ndiagnostic(off, subgroup_uniformity);\n");
    }
    let mut helpers = helpers_of(Language::Wgsl, emulated, &Op::ALL);
    if emulated {
        helpers.insert(Helper::Guard);
    }
    out.push_str(&wgsl::lane_state(emulated, options, &helpers, 1));
    for helper in helpers {
        out.push('\n');
        out.push_str(wgsl::helpers::text(helper, emulated).unwrap_or_default());
    }
    out.push_str("\n// The public functions, under the GLSL names of what they replace.\n");
    wgsl_public(
        out,
        target,
        &Op::ALL,
        &|op| function_name(target, op).to_string(),
        emulated,
    );
}

/// The public functions of `ops` on a WGSL `target`, named by `name`, over
/// the `ballot_*` helpers: none for the operations WGSL has itself.
pub(crate) fn wgsl_public(
    out: &mut String,
    target: Target,
    ops: &[Op],
    name: &dyn Fn(Op) -> String,
    guard: bool,
) {
    let emulated = !target.has_subgroups();
    let function = |name: &str, params: &str, ret: &str, value: &str| {
        let value = if guard {
            format!("select({value}, {}, ballot_overflow)", failure(ret))
        } else {
            value.to_string()
        };
        format!("\nfn {name}({params}) -> {ret} {{\n    return {value};\n}}\n")
    };
    for &op in ops {
        if target.has_subgroups() && matches!(op, Op::Ballot | Op::Broadcast | Op::BroadcastFirst) {
            // WGSL's own.
            continue;
        }
        let name = name(op);
        let (params, ret, body) = match op {
            Op::Ballot => (
                "on: bool, predicate: bool",
                "vec4<u32>",
                "ballot_ballot(on, predicate)",
            ),
            Op::InverseBallot => ("value: vec4<u32>", "bool", "ballot_inverse_ballot(value)"),
            Op::BitExtract => (
                "value: vec4<u32>, index: u32",
                "bool",
                "ballot_bit_extract(value, index)",
            ),
            Op::BitCount => ("value: vec4<u32>", "u32", "ballot_bit_count(value)"),
            Op::InclusiveBitCount => (
                "value: vec4<u32>",
                "u32",
                "ballot_inclusive_bit_count(value)",
            ),
            Op::ExclusiveBitCount => (
                "value: vec4<u32>",
                "u32",
                "ballot_exclusive_bit_count(value)",
            ),
            Op::FindLsb => ("value: vec4<u32>", "u32", "ballot_find_lsb(value)"),
            Op::FindMsb => ("value: vec4<u32>", "u32", "ballot_find_msb(value)"),
            Op::EqMask => ("", "vec4<u32>", "ballot_eq_mask()"),
            Op::GeMask => ("", "vec4<u32>", "ballot_ge_mask()"),
            Op::GtMask => ("", "vec4<u32>", "ballot_gt_mask()"),
            Op::LeMask => ("", "vec4<u32>", "ballot_le_mask()"),
            Op::LtMask => ("", "vec4<u32>", "ballot_lt_mask()"),
            Op::Elect if emulated => ("on: bool", "bool", "ballot_elect(on)"),
            Op::Elect => ("", "bool", "ballot_elect()"),
            Op::Broadcast => {
                out.push_str(&function(
                    &name,
                    "on: bool, value: u32, id: u32",
                    "u32",
                    "ballot_broadcast(on, vec4<u32>(value, 0u, 0u, 0u), id).x",
                ));
                (
                    "on: bool, value: vec4<u32>, id: u32",
                    "vec4<u32>",
                    "ballot_broadcast(on, value, id)",
                )
            }
            Op::BroadcastFirst => {
                out.push_str(&function(
                    &name,
                    "on: bool, value: u32",
                    "u32",
                    "ballot_broadcast_first(on, vec4<u32>(value, 0u, 0u, 0u)).x",
                ));
                (
                    "on: bool, value: vec4<u32>",
                    "vec4<u32>",
                    "ballot_broadcast_first(on, value)",
                )
            }
        };
        // WGSL has no overloading: the vec4 broadcasts take a suffix.
        let suffix = if matches!(op, Op::Broadcast | Op::BroadcastFirst) {
            "Vec4"
        } else {
            ""
        };
        out.push_str(&function(&format!("{name}{suffix}"), params, ret, body));
    }
}

mod header;
mod self_test;

use header::header;
use self_test::{glsl_self_test, wgsl_self_test};

#[cfg(test)]
mod tests;
