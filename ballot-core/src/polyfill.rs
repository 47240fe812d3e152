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

/// The library's opening comment: target, inclusion, init call, calling
/// rules, names and the values of undefined cases.
fn header(target: Target, options: &ShaderOptions) -> String {
    let s = options.subgroup_size;
    let n = options.invocations_per_workgroup();
    let [x, y, z] = options.workgroup_size;
    let mut lines = vec![format!(
        "ballot polyfill library for target `{target}` ({}).",
        target.requirements()
    )];
    let undefined = "Where the spec leaves a result undefined, these functions return: \
        FindLSB / FindMSB with no bit below the subgroup size: 0xFFFFFFFF; BitExtract \
        at or above the size: false; InverseBallot of a value that \
        differs across lanes: each lane's own bit";
    let emulated_rules = format!(
        "Subgroups of {s} invocations are emulated in workgroup memory, for a workgroup \
         of {n} invocations (e.g. {x}x{y}x{z}; the shader's workgroup must have exactly \
         that many: invocations past them get failure values, all bits set (0xFFFFFFFF) \
         from the functions that return masks and numbers, false from the others): \
         virtual subgroup k is the invocations with local invocation index \
         in k * {s} .. k * {s} + {s}; the last is partial if {s} does not divide {n}. \
         Ballot, Elect, Broadcast and BroadcastFirst take `on` first, whether the \
         invocation is active, and hold barriers: EVERY invocation of the workgroup must \
         call them, in workgroup-uniform control flow, passing on = false where it would \
         not have called them. The other functions are lane-local: call them anywhere."
    );
    match target {
        Target::Glsl => lines.extend([
            "Include: paste this text right after your shader's `#version` line; its \
             #extension lines must precede all other code."
                .to_string(),
            "No init call: GL_KHR_shader_subgroup_basic and _ballot provide every \
             operation under its own name (subgroupBallotFindMSB, gl_SubgroupEqMask, …), \
             callable anywhere. Their undefined cases are the driver's."
                .to_string(),
        ]),
        Target::GlslNoSubgroup => lines.extend([
            "Include: paste this text right after your shader's `#version 450` line; it \
             needs no extension."
                .to_string(),
            "Init: call ballot_init(gl_LocalInvocationIndex) once, at the top of main(), \
             in every invocation."
                .to_string(),
            emulated_rules,
            "Names: `ballot` + the GLSL name, capitalised (ballotSubgroupBallot, \
             ballotSubgroupBallotFindMSB, ballotSubgroupEqMask(), …): glslang declares \
             the extension's names even where it is not enabled, and rejects user \
             functions of the same signature. Broadcasts take uint or uvec4 values."
                .to_string(),
            format!(
                "{undefined}; Broadcast from an inactive lane or one at or above the size, \
                 and BroadcastFirst with no active lane: the caller's own value."
            ),
        ]),
        Target::Wgsl | Target::WgslWeb => {
            lines.push(if target == Target::WgslWeb {
                "Include: concatenate this text before your shader's code: its `enable \
                 subgroups;` and `diagnostic(off, subgroup_uniformity);` directives must \
                 open the module (the diagnostic lets these functions run in divergent \
                 control flow). Don't repeat them in your own code."
                    .to_string()
            } else {
                "Include: concatenate this text before (or after) your shader's code. \
                 naga rejects `enable subgroups;`: enable wgpu's Features::SUBGROUP instead."
                    .to_string()
            });
            lines.extend([
                "Init: call ballot_init(subgroup_invocation_id, subgroup_size) once, at the \
                 top of the entry point, with @builtin(subgroup_invocation_id) and \
                 @builtin(subgroup_size): WGSL has them only as entry-point built-ins, and \
                 the functions read them from private variables. Then call the functions \
                 from anywhere. (naga rejects those built-ins in a multi-dimensional \
                 workgroup: flatten it, and use local_invocation_index.)"
                    .to_string(),
                "Names: the GLSL ones (subgroupBallotFindMSB, subgroupElect(), …); built-in \
                 variables become functions without gl_ (subgroupEqMask()). subgroupBallot, \
                 subgroupBroadcast and subgroupBroadcastFirst are WGSL's own, so their \
                 undefined cases are the driver's."
                    .to_string(),
                format!("{undefined}."),
            ]);
        }
        Target::WgslNoSubgroup => lines.extend([
            "Include: concatenate this text before (or after) your shader's code. It needs \
             no subgroup support: it runs on every WebGPU implementation."
                .to_string(),
            "Init: call ballot_init(local_invocation_index) once, at the top of the entry \
             point, in every invocation, with @builtin(local_invocation_index)."
                .to_string(),
            emulated_rules,
            "Names: the GLSL ones (subgroupBallot, subgroupBallotFindMSB, …), shadowing \
             WGSL's built-ins; built-in variables become functions without gl_ \
             (subgroupEqMask()). Broadcasts take u32 values, and vec4<u32> ones under \
             subgroupBroadcastVec4 / subgroupBroadcastFirstVec4; Broadcast's id need not \
             be a constant."
                .to_string(),
            format!(
                "{undefined}; Broadcast from an inactive lane or one at or above the size, \
                 and BroadcastFirst with no active lane: the caller's own value."
            ),
        ]),
    }
    if target != Target::Glsl {
        lines.push("Names starting with ballot_ are the library's own.".to_string());
    }
    let mut out = String::new();
    for (i, paragraph) in lines.iter().enumerate() {
        if i > 0 {
            out.push_str("//\n");
        }
        wrap(&mut out, paragraph);
    }
    out
}

/// Writes `text` as `//` comment lines of at most 80 columns.
fn wrap(out: &mut String, text: &str) {
    let mut line = String::from("//");
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > 80 && line.len() > 2 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("//");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
}

/// The WGSL self-test entry point (see the module docs).
fn wgsl_self_test(target: Target, options: &ShaderOptions) -> String {
    let emulated = !target.has_subgroups();
    let [x, y, z] = options.workgroup_size;
    let n = options.invocations_per_workgroup();
    let r = SELF_TEST_RECORDS;
    // naga rejects subgroup built-ins in a multi-dimensional workgroup.
    // Flattened, it has the same invocations under the same
    // local_invocation_index, which is all the self-test reads.
    let size = if emulated || y * z == 1 {
        format!("{x}, {y}, {z}")
    } else {
        n.to_string()
    };
    let (builtins, init, ballot_even, elect, first, from0, split) = if emulated {
        (
            "",
            "ballot_init(local_index)",
            "subgroupBallot(true, even)",
            "subgroupElect(true)",
            "subgroupBroadcastFirst(true, ((g * 3u) + 1u))",
            "subgroupBroadcast(true, ((g * 5u) + 2u), 0u)",
            // Collectives run in every invocation, taking the branch as `on`.
            "    let inside = ((lane & 2u) != 0u);\n    \
             let inside_elect = subgroupElect(inside);\n    \
             let inside_ballot = subgroupBallot(inside, true);\n    \
             var split = 0xffffffffu;\n    \
             if (inside) {\n        \
             split = (select(0u, 1u, inside_elect) | (subgroupBallotBitCount(inside_ballot) << 1u));\n    \
             }\n",
        )
    } else {
        (
            "    @builtin(subgroup_invocation_id) subgroup_invocation_id: u32,\n    \
             @builtin(subgroup_size) subgroup_size: u32,\n",
            "ballot_init(subgroup_invocation_id, subgroup_size)",
            "subgroupBallot(even)",
            "subgroupElect()",
            "subgroupBroadcastFirst(((g * 3u) + 1u))",
            "subgroupBroadcast(((g * 5u) + 2u), 0u)",
            "    var split = 0xffffffffu;\n    \
             if ((lane & 2u) != 0u) {\n        \
             split = (select(0u, 1u, subgroupElect()) | (subgroupBallotBitCount(subgroupBallot(true)) << 1u));\n    \
             }\n",
        )
    };
    format!(
        "
// Self-test: not part of the library. It calls every function and writes
// {r} records per invocation to binding 0 (see ballot::polyfill).
@group(0) @binding(0) var<storage, read_write> ballot_self_test: array<vec4<u32>>;

@compute @workgroup_size({size})
fn main(
    @builtin(local_invocation_index) local_index: u32,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
{builtins}) {{
    {init};
    let lane = ballot_lane;
    let size = ballot_size;
    let workgroup = ((workgroup_id.x + (workgroup_id.y * num_workgroups.x)) + ((workgroup_id.z * num_workgroups.x) * num_workgroups.y));
    let g = ((workgroup * {n}u) + local_index);
    let at = (g * {r}u);
    let even = ((lane & 1u) == 0u);
    let b = {ballot_even};
    let elected = {elect};
    let first = {first};
    let from0 = {from0};
{split}    ballot_self_test[at] = b;
    ballot_self_test[(at + 1u)] = vec4<u32>(subgroupBallotBitCount(b), subgroupBallotInclusiveBitCount(b), subgroupBallotExclusiveBitCount(b), subgroupBallotFindLSB(b));
    ballot_self_test[(at + 2u)] = vec4<u32>(subgroupBallotFindMSB(b), select(0u, 1u, subgroupBallotBitExtract(b, ((lane + 1u) % size))), select(0u, 1u, subgroupInverseBallot(b)), select(0u, 1u, elected));
    ballot_self_test[(at + 3u)] = subgroupEqMask();
    ballot_self_test[(at + 4u)] = subgroupGeMask();
    ballot_self_test[(at + 5u)] = subgroupGtMask();
    ballot_self_test[(at + 6u)] = subgroupLeMask();
    ballot_self_test[(at + 7u)] = subgroupLtMask();
    ballot_self_test[(at + 8u)] = vec4<u32>(first, from0, split, lane);
    ballot_self_test[(at + 9u)] = vec4<u32>(size, subgroupBallotFindLSB(vec4<u32>(0u)), subgroupBallotFindMSB(vec4<u32>(0u)), select(0u, 1u, subgroupBallotBitExtract(vec4<u32>(0xffffffffu), size)));
}}
"
    )
}

/// The GLSL self-test entry point (see the module docs).
fn glsl_self_test(target: Target, options: &ShaderOptions) -> String {
    let emulated = !target.has_subgroups();
    let [x, y, z] = options.workgroup_size;
    let n = options.invocations_per_workgroup();
    let r = SELF_TEST_RECORDS;
    let f = |op: Op| function_name(target, op);
    // On `glsl` the masks are built-in variables; elsewhere functions.
    let mask = |op: Op| {
        if emulated {
            format!("{}()", f(op))
        } else {
            f(op).to_string()
        }
    };
    let (init, lane, size, ballot_even, elect, first, from0, split) = if emulated {
        (
            "    ballot_init(gl_LocalInvocationIndex);\n".to_string(),
            "ballot_lane",
            "ballot_subgroup_size",
            format!("{}(true, even)", f(Op::Ballot)),
            format!("{}(true)", f(Op::Elect)),
            format!("{}(true, g * 3u + 1u)", f(Op::BroadcastFirst)),
            format!("{}(true, g * 5u + 2u, 0u)", f(Op::Broadcast)),
            // Collectives run in every invocation, taking the branch as `on`.
            format!(
                "    bool inside = (lane & 2u) != 0u;\n    \
                 bool inside_elect = {}(inside);\n    \
                 uvec4 inside_ballot = {}(inside, true);\n    \
                 uint split = 0xFFFFFFFFu;\n    \
                 if (inside) {{\n        \
                 split = uint(inside_elect) | ({}(inside_ballot) << 1u);\n    \
                 }}\n",
                f(Op::Elect),
                f(Op::Ballot),
                f(Op::BitCount)
            ),
        )
    } else {
        (
            String::new(),
            "gl_SubgroupInvocationID",
            "gl_SubgroupSize",
            "subgroupBallot(even)".to_string(),
            "subgroupElect()".to_string(),
            "subgroupBroadcastFirst(g * 3u + 1u)".to_string(),
            "subgroupBroadcast(g * 5u + 2u, 0u)".to_string(),
            "    uint split = 0xFFFFFFFFu;\n    \
             if ((lane & 2u) != 0u) {\n        \
             split = uint(subgroupElect()) | (subgroupBallotBitCount(subgroupBallot(true)) << 1u);\n    \
             }\n"
                .to_string(),
        )
    };
    let (count, inclusive, exclusive) = (
        f(Op::BitCount),
        f(Op::InclusiveBitCount),
        f(Op::ExclusiveBitCount),
    );
    let (lsb, msb, extract, inverse) = (
        f(Op::FindLsb),
        f(Op::FindMsb),
        f(Op::BitExtract),
        f(Op::InverseBallot),
    );
    let (eq, ge, gt, le, lt) = (
        mask(Op::EqMask),
        mask(Op::GeMask),
        mask(Op::GtMask),
        mask(Op::LeMask),
        mask(Op::LtMask),
    );
    format!(
        "
// Self-test: not part of the library. It calls every function and writes
// {r} records per invocation to binding 0 (see ballot::polyfill).
layout(local_size_x = {x}, local_size_y = {y}, local_size_z = {z}) in;
layout(std430, set = 0, binding = 0) buffer ballot_self_test_block {{ uvec4 ballot_self_test[]; }};

void main() {{
{init}    uint lane = {lane};
    uint size = {size};
    uvec3 id = gl_WorkGroupID;
    uvec3 groups = gl_NumWorkGroups;
    uint workgroup = (id.x + id.y * groups.x) + (id.z * groups.x) * groups.y;
    uint g = workgroup * {n}u + gl_LocalInvocationIndex;
    uint at = g * {r}u;
    bool even = (lane & 1u) == 0u;
    uvec4 b = {ballot_even};
    bool elected = {elect};
    uint first = {first};
    uint from0 = {from0};
{split}    ballot_self_test[at] = b;
    ballot_self_test[at + 1u] = uvec4({count}(b), {inclusive}(b), {exclusive}(b), {lsb}(b));
    ballot_self_test[at + 2u] = uvec4({msb}(b), uint({extract}(b, (lane + 1u) % size)), uint({inverse}(b)), uint(elected));
    ballot_self_test[at + 3u] = {eq};
    ballot_self_test[at + 4u] = {ge};
    ballot_self_test[at + 5u] = {gt};
    ballot_self_test[at + 6u] = {le};
    ballot_self_test[at + 7u] = {lt};
    ballot_self_test[at + 8u] = uvec4(first, from0, split, lane);
    ballot_self_test[at + 9u] = uvec4(size, {lsb}(uvec4(0u)), {msb}(uvec4(0u)), uint({extract}(uvec4(0xFFFFFFFFu), size)));
}}
"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The public functions each target's library must define itself: all
    /// the operations the target lacks (docs/design.md, "Targets").
    fn defined(target: Target) -> Vec<Op> {
        Op::ALL
            .into_iter()
            .filter(|op| match target {
                Target::Glsl => false,
                Target::Wgsl | Target::WgslWeb => {
                    !matches!(op, Op::Ballot | Op::Broadcast | Op::BroadcastFirst)
                }
                Target::GlslNoSubgroup | Target::WgslNoSubgroup => true,
            })
            .collect()
    }

    #[test]
    fn every_library_defines_every_missing_operation_and_validates() {
        for target in Target::ALL {
            let text = library(target, &PolyfillOptions::default())
                .unwrap_or_else(|e| panic!("{target}: {e}"));
            for op in defined(target) {
                let name = function_name(target, op);
                let definition = match target.language() {
                    crate::back::Language::Wgsl => format!("fn {name}("),
                    crate::back::Language::Glsl => format!(" {name}("),
                };
                assert!(text.contains(&definition), "{target} lacks {name}:\n{text}");
            }
            assert!(text.contains(&format!("target `{target}`")), "{target}");
            if target == Target::Glsl {
                assert!(
                    text.contains("undefined cases are the driver's"),
                    "{target}"
                );
            } else {
                assert!(
                    text.contains("0xFFFFFFFF"),
                    "{target} documents FindLSB/MSB"
                );
            }
        }
    }

    #[test]
    fn native_wgsl_keeps_wgsl_s_own_functions() {
        for target in [Target::Wgsl, Target::WgslWeb] {
            let text = library(target, &PolyfillOptions::default()).unwrap();
            for name in [
                "subgroupBallot",
                "subgroupBroadcast",
                "subgroupBroadcastFirst",
            ] {
                assert!(
                    !text.contains(&format!("fn {name}(")),
                    "{target} redefines {name}"
                );
            }
            assert!(
                text.contains("fn ballot_init(subgroup_invocation_id: u32, subgroup_size: u32)")
            );
        }
        let web = library(Target::WgslWeb, &PolyfillOptions::default()).unwrap();
        assert!(web.contains("\nenable subgroups;\ndiagnostic(off, subgroup_uniformity);\n"));
        let plain = library(Target::Wgsl, &PolyfillOptions::default()).unwrap();
        assert!(
            !plain.contains("\nenable "),
            "naga rejects `enable subgroups;`"
        );
    }

    #[test]
    fn glsl_libraries_have_no_version_and_the_native_one_enables_the_extensions() {
        let native = library(Target::Glsl, &PolyfillOptions::default()).unwrap();
        assert!(native.contains("#extension GL_KHR_shader_subgroup_ballot : require"));
        assert!(native.contains("#extension GL_KHR_shader_subgroup_basic : require"));
        let emulated = library(Target::GlslNoSubgroup, &PolyfillOptions::default()).unwrap();
        assert!(!emulated.contains("#extension"));
        for text in [native, emulated] {
            assert!(!text.lines().any(|l| l.starts_with("#version")));
        }
    }

    #[test]
    fn emulated_libraries_are_sized_by_the_options() {
        let options = PolyfillOptions {
            subgroup_size: 8,
            workgroup_size: [4, 6, 1],
        };
        let wgsl = library(Target::WgslNoSubgroup, &options).unwrap();
        assert!(wgsl.contains("const ballot_subgroup_size: u32 = 8u;"));
        assert!(wgsl.contains("const ballot_workgroup_size: u32 = 24u;"));
        let glsl = library(Target::GlslNoSubgroup, &options).unwrap();
        assert!(glsl.contains("const uint ballot_subgroup_size = 8u;"));
        assert!(glsl.contains("const uint ballot_workgroup_size = 24u;"));
    }

    #[test]
    fn invalid_options_are_typed_errors_naming_the_option() {
        let cases = [
            (33, [64, 1, 1], "subgroup_size"),
            (0, [64, 1, 1], "subgroup_size"),
            (256, [256, 1, 1], "subgroup_size"),
            (32, [0, 1, 1], "workgroup_size"),
            (32, [512, 1, 1], "workgroup_size"),
        ];
        for target in Target::ALL {
            for (subgroup_size, workgroup_size, option) in cases {
                let options = PolyfillOptions {
                    subgroup_size,
                    workgroup_size,
                };
                match library(target, &options) {
                    Err(PolyfillError::Options(OptionError::Invalid { option: o, .. })) => {
                        assert_eq!(o, option, "{target} {options:?}")
                    }
                    other => panic!("{target} {options:?}: {other:?}"),
                }
            }
            let options = PolyfillOptions {
                subgroup_size: 64,
                workgroup_size: [8, 4, 1],
            };
            let err = library(target, &options).unwrap_err();
            assert!(
                matches!(
                    err,
                    PolyfillError::Options(OptionError::Mismatch {
                        subgroup_size: 64,
                        workgroup_size: [8, 4, 1]
                    })
                ),
                "{err:?}"
            );
            assert!(err.to_string().contains("subgroup_size"), "{err}");
        }
    }

    #[test]
    fn self_tests_validate_for_every_target_and_size() {
        for target in Target::ALL {
            for (subgroup_size, workgroup_size) in [
                (32, [64, 1, 1]),
                (128, [128, 2, 1]),
                (1, [3, 1, 1]),
                (16, [5, 7, 1]),
            ] {
                let options = PolyfillOptions {
                    subgroup_size,
                    workgroup_size,
                };
                let text = self_test(target, &options)
                    .unwrap_or_else(|e| panic!("{target} {options:?}: {e}"));
                let [x, y, z] = workgroup_size;
                let size = match target.language() {
                    // Flattened where naga needs it (native WGSL, 2-D).
                    crate::back::Language::Wgsl if target.has_subgroups() && y * z > 1 => {
                        format!("@workgroup_size({})", x * y * z)
                    }
                    crate::back::Language::Wgsl => format!("@workgroup_size({x}, {y}, {z})"),
                    crate::back::Language::Glsl => {
                        format!("local_size_x = {x}, local_size_y = {y}, local_size_z = {z}")
                    }
                };
                assert!(text.contains(&size), "{target}");
            }
        }
    }

    #[test]
    fn a_broken_library_is_reported_as_our_bug() {
        let text = write_library(Target::Wgsl, &ShaderOptions::default()).replace(
            "ballot_lane = subgroup_invocation_id;",
            "ballot_lane = true;",
        );
        let error = valid::validate(Target::Wgsl, Form::Helpers, &text).unwrap_err();
        let err = PolyfillError::Invalid {
            target: Target::Wgsl,
            error,
        };
        assert!(err.to_string().contains("a bug in ballot"), "{err}");
    }

    #[test]
    fn header_lines_fit_in_80_columns() {
        for target in Target::ALL {
            let text = library(target, &PolyfillOptions::default()).unwrap();
            let header = text.lines().take_while(|l| l.starts_with("//"));
            for line in header {
                assert!(line.len() <= 80, "{target}: {line}");
            }
        }
    }
}
