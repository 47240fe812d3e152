//! Standalone polyfill libraries: the ballot operations a target lacks, as
//! functions to paste into a hand-written shader.
//!
//! [`library`] writes one library per [`Target`], from the same helper
//! texts the kernel writers ([`ballot_shader::back::glsl`], [`ballot_shader::back::wgsl`])
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
//! - The rest of the family (votes, arithmetic, shuffles, quads) takes the
//!   types [`function_names`] lists: in GLSL overloads of `uint`, `int`,
//!   `float` (arithmetic as the extension allows: Min and Max of each,
//!   And, Or and Xor of `uint`, `int` and `bool`), and `bool` and `uvec4`
//!   for `AllEqual`, shuffles and quads; in WGSL one function per type,
//!   the `u32` one under the GLSL name and the others suffixed
//!   ([`wgsl_suffix`]: `subgroupAddF32`, `subgroupShuffleXorI32`,
//!   `subgroupAllEqualVec4`). Native WGSL libraries define only what WGSL
//!   lacks: `subgroupAllEqual*` and the inclusive and exclusive scans of
//!   Min, Max, And, Or and Xor.
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
//! returns a boolean (for `int` -1, for `float` a NaN). The invocations
//! within the count are unaffected. Ballot, Elect, Broadcast,
//! BroadcastFirst and the rest of the family (votes, arithmetic, shuffles,
//! quads) take an explicit `on` flag (whether the calling invocation takes
//! part, i.e. is *active*), and hold barriers: every invocation of the
//! workgroup must call them, in workgroup-uniform control flow. The other
//! operations are lane-local and may be called anywhere.
//!
//! # Undefined cases
//! Where the spec (docs/design.md, "Semantics") leaves a result undefined, the
//! generated functions return: FindLSB / FindMSB with no bit below the
//! size, [`UNDEFINED_FIND`](ballot_shader::back::UNDEFINED_FIND) (`0xFFFFFFFF`);
//! BitExtract at or above the size, `false`; InverseBallot of a value that
//! differs across lanes, each lane's own bit; on emulated targets Broadcast
//! from an inactive lane or one at or above the size, the caller's own
//! value, and BroadcastFirst with no active lane, the caller's own value;
//! likewise every shuffle and quad operation whose source lane is inactive
//! or out of range (ShuffleUp below lane 0, ShuffleDown at or past the
//! size or with a delta of the size or more, QuadBroadcast of an index of
//! 4 or more): the caller's own value. Arithmetic is always defined; its
//! `f32` results are rounded in the emulation's order (a Hillis–Steele
//! tree of log2(size) levels, each lane's value first combined with the
//! identity), which may differ from a driver's or the simulator's.
//! Native functions (`glsl`, and WGSL's own built-ins) are undefined there
//! as the spec says.
//!
//! # Self-test
//! [`self_test`] appends to the library an entry point `main` that calls
//! every public function and writes [`SELF_TEST_RECORDS`] `vec4<u32>` /
//! `uvec4` per invocation to the read-write storage buffer at group / set 0,
//! binding 0, starting at `SELF_TEST_RECORDS * g`, where `g` is the
//! invocation's index in the dispatch (`workgroup_index * invocations +
//! local_invocation_index`, as in [`ballot_shader::back`]'s compute shaders). With
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
//! | 10 | `All(lane < size)`, `All(even)`, `Any(even)`, `Any(lane >= size)` in bits 0–3 | `AllEqual` of `size`, `lane`, `-1i`, `1.5f`, `true`, `b`, `f32(lane)` in bits 0–6 | `Add(g)` | `InclusiveAdd(g)` |
//! | 11 | `ExclusiveAdd(g)` | `Min(g)` (`u32`) | `InclusiveMax(g)` | `ExclusiveXor(g)` |
//! | 12 | `Add(f32(lane))` | `InclusiveMin(f32(size - lane))` | `Max(i32(lane) - 5)` | `ExclusiveAnd(~i32(lane))` |
//! | 13 | `Mul(1 + (lane & 1))` | `InclusiveMul(1 + (lane & 1))` | `ExclusiveOr(1 << (lane & 31))` | `InclusiveAnd(~(1 << (lane & 31)))` |
//! | 14 | `ExclusiveMul(f32(1 + (lane & 1)))` | `InclusiveMin(5 - i32(lane))` | `ExclusiveMax(-f32(lane))` | `Xor(i32(lane))` |
//! | 15 | `Shuffle(g, (lane + 1) % size)` | `ShuffleXor(g, 1 % size)` | `ShuffleUp(g, min(1, lane))` | `ShuffleDown(g, lane + 1 < size ? 1 : 0)` |
//! | 16 | `QuadBroadcast(g, 1)` | `QuadSwapHorizontal(g)` | `QuadSwapVertical(g)` | `QuadSwapDiagonal(g)` |
//! | 17 | `InclusiveAdd(1)` | `Add(1)` | `ShuffleXor(g, 1)` | `All(even)`, `Any(lane == 3)` in bits 0–1 |
//! | 18 | `And(~(1 << (lane & 31)))` | `Or(1 << (lane & 31))` | `InclusiveOr(1 << (lane & 31))` | `InclusiveXor(g)` |
//! | 19 | `ExclusiveMin(g)` | `ExclusiveMax(g)` | `ExclusiveMul(1 + (lane & 1))` | `InclusiveMin(g)` |
//!
//! Booleans are 0 or 1. `split` is `0xFFFFFFFF` in lanes with bit 1 of the
//! lane id clear; the others, in a branch of their own, write `Elect()` in
//! bit 0 and `BitCount(Ballot(true))` above it. Record 17 is the same
//! branch's: `0xFFFFFFFF` in each word outside it. Record 9's last three
//! values are undefined on `glsl` (the driver's own functions answer).
//! `f32` and `i32` results are written as their bits; in subgroups of
//! fewer than 4 lanes, record 16 reads lanes past the subgroup, undefined
//! (the emulated targets document the caller's own value). Past the
//! guard's workgroup, the packed booleans of records 10 and 17 are 0 (each
//! `false`), the other words of records 10 to 16, 18 and 19 all ones.
//! A driver harness runs it and compares with the spec; here it is
//! validated (naga, glslang and spirv-val) and cross-compiled.

use std::collections::BTreeSet;

use crate::valid::{self, ValidationError};
use ballot_ir::ir::Type;
use ballot_ir::op::{ArithOp, Op, Quad};
use ballot_shader::back::shading::{arith_code, exchange_codec, exchange_words, type_name};
use ballot_shader::back::{glsl, wgsl, Form, Language, OptionError, ShaderOptions, Target};
use ballot_shader::lower::helpers::{Helper, Needs};

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
pub const SELF_TEST_RECORDS: u32 = 20;

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
/// docs in every record an operation writes (records 0 to 7, 8.x and
/// 8.y, and 10 to 16), and the others the records of [`self_test`]. This is how tests
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
            _ => glsl_emulated_family_name(op),
        },
        Target::Wgsl | Target::WgslWeb | Target::WgslNoSubgroup => match op {
            Op::EqMask => "subgroupEqMask",
            Op::GeMask => "subgroupGeMask",
            Op::GtMask => "subgroupGtMask",
            Op::LeMask => "subgroupLeMask",
            Op::LtMask => "subgroupLtMask",
            // What WGSL has natively, the hardware libraries leave to it,
            // under WGSL's name (`quadBroadcast`).
            _ => match (target, op.wgsl_name()) {
                (Target::Wgsl | Target::WgslWeb, Some(name))
                    if Helper::of_op(op, Language::Wgsl, false).is_none() =>
                {
                    name
                }
                _ => op.glsl_name(),
            },
        },
    }
}

/// Every public function the library of `target` defines for `op`:
/// [`function_name`], and on WGSL targets, which have no overloading,
/// one more per further value type, suffixed ([`wgsl_suffix`]):
/// `subgroupAddI32`, `subgroupBroadcastVec4`. Empty where the library
/// defines none: on `glsl`, and for WGSL's own built-ins on `wgsl` and
/// `wgsl-web`. GLSL overloads one name.
pub fn function_names(target: Target, op: Op) -> Vec<String> {
    let language = target.language();
    let emulated = !target.has_subgroups();
    if target == Target::Glsl || !covers(op) || Helper::of_op(op, language, emulated).is_none() {
        return Vec::new();
    }
    let name = function_name(target, op);
    match (language, op) {
        (Language::Glsl, _) => vec![name.to_string()],
        (Language::Wgsl, Op::Broadcast | Op::BroadcastFirst) => {
            vec![name.to_string(), format!("{name}Vec4")]
        }
        (Language::Wgsl, _) if op.is_ballot() => vec![name.to_string()],
        (Language::Wgsl, _) => family_public(language, emulated, op)
            .iter()
            .map(|p| format!("{name}{}", p.suffix))
            .collect(),
    }
}

/// The extensions of the rest of the family, which the `glsl` library
/// enables after `_basic` and `_ballot`.
pub(crate) const GLSL_FAMILY_EXTENSIONS: [&str; 5] = [
    "GL_KHR_shader_subgroup_vote",
    "GL_KHR_shader_subgroup_arithmetic",
    "GL_KHR_shader_subgroup_shuffle",
    "GL_KHR_shader_subgroup_shuffle_relative",
    "GL_KHR_shader_subgroup_quad",
];

fn write_library(target: Target, options: &ShaderOptions) -> String {
    let mut out = header(target, options);
    match target {
        Target::Glsl => {
            // Every name comes from the extensions: the library only enables them.
            out.push_str("#extension GL_KHR_shader_subgroup_basic : require\n");
            out.push_str("#extension GL_KHR_shader_subgroup_ballot : require\n");
            for extension in GLSL_FAMILY_EXTENSIONS {
                out.push_str(&format!("#extension {extension} : require\n"));
            }
        }
        Target::GlslNoSubgroup => glsl_emulated(&mut out, options),
        Target::Wgsl | Target::WgslWeb | Target::WgslNoSubgroup => {
            wgsl_library(&mut out, target, options)
        }
    }
    out
}

/// Whether the polyfill libraries cover `op`: every operation but the
/// clustered reductions. `ballot-shader` writes those for kernels,
/// natively in GLSL and through its own helper elsewhere, but no library
/// defines a public function for them (WGSL has no clustered built-in,
/// and naga's IR no clustered operation, to name one after), so they stay
/// out of the libraries' texts. The linker reads a GLSL shader's calls of
/// them all the same, and links them on `glsl-no-subgroup` over the same
/// helper (`crate::link`).
pub const fn covers(op: Op) -> bool {
    !matches!(op, Op::Clustered(_))
}

/// [`Op::ALL`], less what the libraries do not [`covers`].
pub(crate) fn library_ops() -> Vec<Op> {
    Op::ALL.into_iter().filter(|&op| covers(op)).collect()
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
    let mut helpers = helpers_of(Language::Glsl, true, &library_ops());
    helpers.insert(Helper::Guard);
    glsl::helpers::write_all(out, &helpers);
    out.push_str("// The public functions.\n");
    glsl_public(
        out,
        &library_ops(),
        &|op| function_name(Target::GlslNoSubgroup, op).to_string(),
        true,
    );
}

/// The value a guarded public function returns to an invocation past the
/// library's workgroup, by its return type: all bits set for masks and
/// numbers (no ballot has bits at or above a size below 128, no count or
/// index reaches 0xFFFFFFFF; for `int` -1, for `float` a NaN), `false`
/// for booleans.
fn failure(ret: &str) -> &'static str {
    match ret {
        "uvec4" => "uvec4(0xFFFFFFFFu)",
        "vec4<u32>" => "vec4<u32>(0xffffffffu)",
        "uint" => "0xFFFFFFFFu",
        "u32" => "0xffffffffu",
        "int" => "int(0xFFFFFFFFu)",
        "i32" => "bitcast<i32>(0xffffffffu)",
        // NaN: a constant NaN is a shader-creation error in WGSL, so its
        // bits go through a function.
        "float" => "uintBitsToFloat(0xFFFFFFFFu)",
        "f32" => "ballot_f32_bits(0xffffffffu)",
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
                    format!("{helper}(on, uvec4(value, 0u, 0u, 0u), id, 1u).x"),
                ));
                (
                    "uvec4",
                    "bool on, uvec4 value, uint id",
                    "on, value, id, 4u",
                )
            }
            Op::BroadcastFirst => {
                functions.push(function(
                    "uint",
                    &name,
                    "bool on, uint value",
                    format!("{helper}(on, uvec4(value, 0u, 0u, 0u), 1u).x"),
                ));
                ("uvec4", "bool on, uvec4 value", "on, value, 4u")
            }
            _ => {
                for public in family_public(Language::Glsl, true, op) {
                    functions.push(function(public.ret, &name, &public.params, public.value));
                }
                continue;
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
    let mut helpers = helpers_of(Language::Wgsl, emulated, &library_ops());
    if emulated {
        // The guard's failure value of f32 functions is a NaN, spelt by bits.
        helpers.extend([Helper::Guard, Helper::F32Bits]);
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
        &library_ops(),
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
        if Helper::of_op(op, Language::Wgsl, emulated).is_none() {
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
                    "ballot_broadcast(on, vec4<u32>(value, 0u, 0u, 0u), id, 1u).x",
                ));
                (
                    "on: bool, value: vec4<u32>, id: u32",
                    "vec4<u32>",
                    "ballot_broadcast(on, value, id, 4u)",
                )
            }
            Op::BroadcastFirst => {
                out.push_str(&function(
                    &name,
                    "on: bool, value: u32",
                    "u32",
                    "ballot_broadcast_first(on, vec4<u32>(value, 0u, 0u, 0u), 1u).x",
                ));
                (
                    "on: bool, value: vec4<u32>",
                    "vec4<u32>",
                    "ballot_broadcast_first(on, value, 4u)",
                )
            }
            _ => {
                for public in family_public(Language::Wgsl, emulated, op) {
                    out.push_str(&function(
                        &format!("{name}{}", public.suffix),
                        &public.params,
                        public.ret,
                        &public.value,
                    ));
                }
                continue;
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

/// One public function of the rest of the family (votes, arithmetic,
/// shuffles, quads): its name's suffix (WGSL has no overloading: every
/// type but the first gets one), parameters, return type and value.
struct Public {
    suffix: &'static str,
    params: String,
    ret: &'static str,
    value: String,
}

/// The suffix of the WGSL function that takes `op` of a value of type
/// `ty` (WGSL has no overloading): none for the votes, which take `bool`
/// alone, and for `u32`; `I32`, `F32`, `Bool`, `Vec4` for the other types.
/// Operations that share a GLSL name share the rule: `subgroupAdd` is
/// IAdd's of `u32`, `subgroupAddF32` FAdd's.
pub const fn wgsl_suffix(op: Op, ty: Type) -> &'static str {
    match ty {
        _ if matches!(op, Op::All | Op::Any) => "",
        Type::U32 => "",
        Type::I32 => "I32",
        Type::F32 => "F32",
        Type::Bool => "Bool",
        Type::Mask => "Vec4",
    }
}

/// The value types the library offers `op` of (beyond the ballot family)
/// in `language`: the votes take `bool`; `AllEqual` every type;
/// arithmetic the types spirv-std allows (and, in GLSL, `bool` for the
/// bitwise ones, as the extension does); shuffles and quads every type
/// but, in WGSL, whose built-ins take none, `bool`.
fn family_types(language: Language, op: Op) -> Vec<Type> {
    use ballot_ir::ir::op_takes;
    let glsl = language == Language::Glsl;
    match op {
        Op::All | Op::Any => vec![Type::Bool],
        Op::AllEqual => vec![Type::U32, Type::I32, Type::F32, Type::Bool, Type::Mask],
        Op::Arith(arith, _) => {
            let bitwise = matches!(arith, ArithOp::And | ArithOp::Or | ArithOp::Xor);
            [Type::U32, Type::I32, Type::F32, Type::Bool]
                .into_iter()
                .filter(|&ty| op_takes(op, ty) || (glsl && bitwise && ty == Type::Bool))
                .collect()
        }
        _ if glsl => vec![Type::U32, Type::I32, Type::F32, Type::Bool, Type::Mask],
        _ => vec![Type::U32, Type::I32, Type::F32, Type::Mask],
    }
}

/// The public functions of `op`, one of the rest of the family, in
/// `language`, over its helper: with an `on` flag first where `emulated`.
/// Values travel to the helpers as four words and back
/// ([`exchange_codec`]). Nothing for an operation the target has itself.
fn family_public(language: Language, emulated: bool, op: Op) -> Vec<Public> {
    let Some(helper) = Helper::of_op(op, language, emulated).and_then(Helper::name) else {
        return Vec::new();
    };
    let glsl = language == Language::Glsl;
    let param = |name: &str, ty: &str| match glsl {
        true => format!("{ty} {name}"),
        false => format!("{name}: {ty}"),
    };
    let on = match emulated {
        true => format!("{}, ", param("on", "bool")),
        false => String::new(),
    };
    let call_on = if emulated { "on, " } else { "" };
    if matches!(op, Op::All | Op::Any) {
        return vec![Public {
            suffix: "",
            params: format!(
                "{on}{}",
                param("predicate", type_name(language, Type::Bool))
            ),
            ret: type_name(language, Type::Bool),
            value: format!("{helper}({call_on}predicate)"),
        }];
    }
    let u32_name = type_name(language, Type::U32);
    let operand = family_operand(op);
    family_types(language, op)
        .into_iter()
        .map(|ty| {
            let [[encode, encoded], [decode, decoded]] = exchange_codec(language, ty);
            let words = format!("{encode}value{encoded}");
            let call = family_call(
                helper,
                emulated,
                op,
                ty == Type::F32,
                &words,
                exchange_words(ty),
            );
            let (ret, decode, decoded) = match op {
                Op::AllEqual => (type_name(language, Type::Bool), "", ""),
                _ => (type_name(language, ty), decode, decoded),
            };
            let mut params = format!("{on}{}", param("value", type_name(language, ty)));
            if let Some(operand) = operand {
                params.push_str(&format!(", {}", param(operand, u32_name)));
            }
            Public {
                suffix: if glsl { "" } else { wgsl_suffix(op, ty) },
                params,
                ret,
                value: format!("{decode}{call}{decoded}"),
            }
        })
        .collect()
}

/// The name of the operand of `op`, a broadcast or one of the rest of the
/// family, beside its value: Broadcast's and the shuffles' lane, mask or
/// delta, the quad index, a clustered reduction's cluster size (which
/// only the linker writes functions for); `None` where it takes the value
/// alone.
pub(crate) const fn family_operand(op: Op) -> Option<&'static str> {
    match op {
        Op::Broadcast | Op::Shuffle => Some("id"),
        Op::Clustered(_) => Some("clusterSize"),
        Op::ShuffleXor => Some("mask"),
        Op::ShuffleUp | Op::ShuffleDown => Some("delta"),
        Op::QuadBroadcast => Some("index"),
        _ => None,
    }
}

/// The call of `helper`, the helper of `op` (one of the rest of the
/// family but the votes), on `words`, the value's four exchange words:
/// with the `on` flag first where `emulated`, then the operation's
/// constants (the arithmetic's code, the quad swap's lane xor, whether
/// `AllEqual` compares floats, which `float` says) or its operand, named
/// as [`family_operand`] names it (a clustered reduction takes both: its
/// arithmetic's code, then its cluster size, as `ballot_clustered_reduce`
/// does); last, how many of the words the value uses (`used`, 1 to 4),
/// the only ones the exchange, or the native helper's shuffle, moves.
pub(crate) fn family_call(
    helper: &str,
    emulated: bool,
    op: Op,
    float: bool,
    words: &str,
    used: u32,
) -> String {
    let on = if emulated { "on, " } else { "" };
    let mut extras = match op {
        Op::AllEqual => float.to_string(),
        Op::Arith(arith, _) => format!("{}u", arith_code(arith)),
        Op::Clustered(arith) => format!(
            "{}u, {}",
            arith_code(arith),
            family_operand(op).unwrap_or_default()
        ),
        Op::QuadSwap(quad) => format!("{}u", quad.xor()),
        _ => family_operand(op).unwrap_or_default().to_string(),
    };
    extras.push_str(&format!(", {used}u"));
    format!("{helper}({on}{words}, {extras})")
}

/// The name of `op`, one of the rest of the family, on
/// `glsl-no-subgroup`: `ballot` + its GLSL name, capitalised.
const fn glsl_emulated_family_name(op: Op) -> &'static str {
    /// By [`Scan`], then the operation's word (`Add`, `Mul`, `Min`, `Max`,
    /// `And`, `Or`, `Xor`).
    const ARITH: [[&str; 7]; 3] = [
        [
            "ballotSubgroupAdd",
            "ballotSubgroupMul",
            "ballotSubgroupMin",
            "ballotSubgroupMax",
            "ballotSubgroupAnd",
            "ballotSubgroupOr",
            "ballotSubgroupXor",
        ],
        [
            "ballotSubgroupInclusiveAdd",
            "ballotSubgroupInclusiveMul",
            "ballotSubgroupInclusiveMin",
            "ballotSubgroupInclusiveMax",
            "ballotSubgroupInclusiveAnd",
            "ballotSubgroupInclusiveOr",
            "ballotSubgroupInclusiveXor",
        ],
        [
            "ballotSubgroupExclusiveAdd",
            "ballotSubgroupExclusiveMul",
            "ballotSubgroupExclusiveMin",
            "ballotSubgroupExclusiveMax",
            "ballotSubgroupExclusiveAnd",
            "ballotSubgroupExclusiveOr",
            "ballotSubgroupExclusiveXor",
        ],
    ];
    match op {
        Op::All => "ballotSubgroupAll",
        Op::Any => "ballotSubgroupAny",
        Op::AllEqual => "ballotSubgroupAllEqual",
        Op::Arith(arith, scan) => {
            let word = match arith {
                ArithOp::IAdd | ArithOp::FAdd => 0,
                ArithOp::IMul | ArithOp::FMul => 1,
                ArithOp::SMin | ArithOp::UMin | ArithOp::FMin => 2,
                ArithOp::SMax | ArithOp::UMax | ArithOp::FMax => 3,
                ArithOp::And => 4,
                ArithOp::Or => 5,
                ArithOp::Xor => 6,
            };
            ARITH[scan as usize][word]
        }
        Op::Shuffle => "ballotSubgroupShuffle",
        Op::ShuffleXor => "ballotSubgroupShuffleXor",
        Op::ShuffleUp => "ballotSubgroupShuffleUp",
        Op::ShuffleDown => "ballotSubgroupShuffleDown",
        Op::QuadBroadcast => "ballotSubgroupQuadBroadcast",
        Op::QuadSwap(Quad::Horizontal) => "ballotSubgroupQuadSwapHorizontal",
        Op::QuadSwap(Quad::Vertical) => "ballotSubgroupQuadSwapVertical",
        Op::QuadSwap(Quad::Diagonal) => "ballotSubgroupQuadSwapDiagonal",
        // The ballot family's are `function_name`'s.
        _ => "ballot_not_a_function",
    }
}

mod header;
mod self_test;

use header::header;
use self_test::{glsl_self_test, wgsl_self_test};

#[cfg(test)]
mod tests;
