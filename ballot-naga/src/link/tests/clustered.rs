//! GL_KHR_shader_subgroup_clustered's reductions in a hand-written GLSL
//! shader: linked on `glsl-no-subgroup` over the emulation's
//! `ballot_clustered_reduce`, passed through on `glsl`; a cluster size the
//! extension does not allow (GLSL: "an integral constant expression, a
//! power of two, at least 1", and at most the subgroup size) refused at
//! its line.

use super::*;
use ballot_ir::op::ArithOp;

/// A reduction over clusters of 4 behind a bounds guard: the early
/// `return` leaves some invocations inactive, so the call is if-converted.
const GUARDED: &str = "#version 450
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint n; uint values[]; };
layout(std430, binding = 1) buffer Out { uint sums[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) { return; }
    uint s = subgroupClusteredAdd(values[i], 4u);
    if ((i & 3u) == 0u) { sums[i / 4u] = s; }
}
";

fn link_sized(source: &str, target: Target, subgroup_size: u32) -> Result<Linked, LinkError> {
    let options = LinkOptions {
        subgroup_size,
        ..LinkOptions::default()
    };
    link(source, "c.comp", target, &options)
}

#[test]
fn a_clustered_reduction_under_a_bounds_guard_links_for_glsl_no_subgroup() {
    if !glslang_here("clustered reductions, judged by glslang") {
        return;
    }
    let l = glsl_linked(GUARDED, Target::GlslNoSubgroup);
    // The operation and its namesake (`float`'s) are linked, over the
    // emulation's one-exchange helper.
    assert!(l.ops.contains(&Op::Clustered(ArithOp::IAdd)), "{:?}", l.ops);
    assert!(l.ops.contains(&Op::Clustered(ArithOp::FAdd)), "{:?}", l.ops);
    assert!(
        l.text.contains(
            "uvec4 ballot_clustered_reduce(bool act, uvec4 v, uint op, uint n, uint words)"
        ),
        "{}",
        l.text
    );
    assert!(
        l.text
            .contains("uint ballot_subgroupClusteredAdd(bool on, uint value, uint clusterSize)"),
        "{}",
        l.text
    );
    // The call takes the invocation's activity, past the guard, and its
    // size as written; the extension's line and its native call are gone.
    assert!(
        !l.text.contains("GL_KHR_shader_subgroup_clustered"),
        "{}",
        l.text
    );
    assert!(!l.text.contains(" subgroupClusteredAdd("), "{}", l.text);
    let call = l
        .text
        .lines()
        .find(|line| line.contains("ballot_subgroupClusteredAdd(ballot_"))
        .unwrap_or_else(|| panic!("no linked call:\n{}", l.text));
    assert!(call.contains(", 4u)"), "{call}");
    // glslang accepts the linked text as it is.
    crate::valid::glslang(&l.text, ballot_shader::back::Form::ComputeShader)
        .unwrap_or_else(|e| panic!("glslang refuses the linked shader: {e}\n{}", l.text));

    // On hardware the call and the extension's line stay as written: the
    // shader's own `#extension` enables it.
    let hardware = glsl_linked(GUARDED, Target::Glsl);
    assert!(hardware
        .text
        .contains("#extension GL_KHR_shader_subgroup_clustered : require"));
    assert!(hardware
        .text
        .contains("uint s = subgroupClusteredAdd(values[i], 4u);"));
    assert!(!hardware.text.contains("ballot_subgroupClustered"));
}

#[test]
fn every_clustered_reduction_links_for_the_types_the_extension_gives_it() {
    if !glslang_here("clustered reductions, judged by glslang") {
        return;
    }
    // GL_KHR_shader_subgroup_clustered: Add, Mul, Min and Max take
    // genFType, genIType and genUType; And, Or and Xor genIType, genUType
    // and genBType. Sizes as a literal of each spelling, a `const` name, a
    // macro and a constant expression.
    let source = "#version 450
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { vec4 f; ivec4 k; uvec4 u; uint r[]; } b;
const uint K = 8u;
#define HALF (K / 2u)
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 30u) { return; }
    b.f.xyz = subgroupClusteredMul(b.f.xyz + vec3(i), 2u);
    b.f.w = subgroupClusteredAdd(float(i), K) + subgroupClusteredMax(b.f.x, 010);
    b.k.x = subgroupClusteredMin(int(i) - 7, 8);
    b.k = subgroupClusteredXor(b.k + ivec4(i), HALF);
    b.u.xy = subgroupClusteredMax(uvec2(i, 2u * i), 0x4u);
    b.u.z = subgroupClusteredAnd(i | 8u, 1U) + subgroupClusteredMin(i, 32u);
    bvec2 flags = bvec2(subgroupClusteredOr((i & 1u) == 1u, 2u), false);
    flags = subgroupClusteredAnd(bvec2(i > 3u, i < 9u), 4u) == flags ? flags : not(flags);
    b.r[i] = uint(flags.x) + uint(subgroupClusteredXor(i > 5u, 16u)) + subgroupClusteredMul(i, K / 4u);
}
";
    let l = glsl_linked(source, Target::GlslNoSubgroup);
    use ArithOp::*;
    for arith in [
        IAdd, FAdd, IMul, FMul, SMin, UMin, FMin, SMax, UMax, FMax, And, Or, Xor,
    ] {
        assert!(
            l.ops.contains(&Op::Clustered(arith)),
            "{arith:?}: {:?}",
            l.ops
        );
    }
    crate::valid::glslang(&l.text, ballot_shader::back::Form::ComputeShader)
        .unwrap_or_else(|e| panic!("glslang refuses the linked shader: {e}\n{}", l.text));
    // Hardware: untouched calls, judged by glslang too.
    let hardware = glsl_linked(source, Target::Glsl);
    assert!(hardware
        .text
        .contains("subgroupClusteredXor(b.k + ivec4(i), HALF)"));

    // A `double` combines as a `double`, in its own function over one
    // exchange of its words: FAdd (code 1), as a reduction (kind 0) over
    // the call's cluster.
    let double = "#version 450
#extension GL_KHR_shader_subgroup_clustered : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { double d[]; };
void main() {
    d[gl_LocalInvocationIndex] = subgroupClusteredAdd(d[gl_LocalInvocationIndex], 4u);
}
";
    let l = glsl_linked(double, Target::GlslNoSubgroup);
    for function in [
        "double ballot_subgroupClusteredAdd(bool on, double value, uint clusterSize)",
        "return ballot_arith_double(on, value, 1u, 0u, clusterSize);",
    ] {
        assert!(l.text.contains(function), "no {function} in\n{}", l.text);
    }
}

/// The error linking `GUARDED` with its size `4u` written as `size`, at a
/// virtual subgroup of `subgroup_size`: it must be at line 9, on the size.
/// A constant `K`, 32, is declared on line 3.
fn refused(size: &str, subgroup_size: u32) -> LinkError {
    let source = GUARDED
        .replace("values[i], 4u)", &format!("values[i], {size})"))
        .replace("in;\n", "in; const uint K = 32u;\n");
    let e = match link_sized(&source, Target::GlslNoSubgroup, subgroup_size) {
        Ok(l) => panic!("size {size}: linked\n{}", l.text),
        Err(e) => e,
    };
    let location = e.location.as_ref().unwrap_or_else(|| panic!("{e}"));
    assert_eq!(location.line, 9, "{size}: {e}");
    // Column of the size argument: after `subgroupClusteredAdd(values[i], `.
    let column = "    uint s = subgroupClusteredAdd(values[i], ".len() as u32 + 1;
    assert_eq!(location.column, column, "{size}: {e}");
    assert_eq!(location.length, size.chars().count() as u32, "{size}: {e}");
    e
}

#[test]
fn a_cluster_size_the_extension_does_not_allow_is_refused_at_its_line() {
    if !glslang_here("clustered reductions, judged by glslang") {
        return;
    }
    // No power of two; zero.
    let e = refused("3u", 32);
    assert!(
        e.to_string()
            .contains("the cluster size of `subgroupClusteredAdd` is 3"),
        "{e}"
    );
    assert!(e.to_string().contains("a power of two, at least 1"), "{e}");
    let e = refused("0", 32);
    assert!(e.to_string().contains("is 0"), "{e}");
    // Powers of two link, those over the virtual size too: the spec leaves
    // such a call undefined only where it runs, and the helper reduces
    // the whole subgroup there (`ballot-runner/tests/linked/clustered.rs` runs it).
    for (size, at) in [("16u", 16), ("8u", 8), ("1u", 1), ("16u", 8), ("64u", 4)] {
        let source = GUARDED.replace("values[i], 4u)", &format!("values[i], {size})"));
        link_sized(&source, Target::GlslNoSubgroup, at).unwrap_or_else(|e| panic!("{size}: {e}"));
    }
    // Octal: `012` is 10.
    let e = refused("012", 32);
    assert!(e.to_string().contains("is 10"), "{e}");
    // A constant that is not a literal is read as glslang folds it: 16,
    // over the virtual size, links.
    let source = GUARDED
        .replace("values[i], 4u)", "values[i], (K / 2u))")
        .replace("in;\n", "in; const uint K = 32u;\n");
    link_sized(&source, Target::GlslNoSubgroup, 8).unwrap_or_else(|e| panic!("K / 2u: {e}"));
    // A size that is not constant: glslang gives no constant, and the
    // helper would read past a cluster that is no power of two.
    let e = refused("n", 32);
    assert_eq!(e.kind, LinkErrorKind::Invalid, "{e}");
    assert!(
        e.to_string()
            .contains("must be an integral constant expression"),
        "{e}"
    );
    // A negative one, or a constant of no power of two: glslang refuses
    // them as it compiles, and gives no constant.
    for size in ["-4", "K - 1u"] {
        let e = refused(size, 32);
        assert!(
            e.to_string()
                .contains("must be an integral constant expression"),
            "{e}"
        );
    }
}

#[test]
fn on_glsl_glslang_judges_the_cluster_size_and_a_macro_may_hold_no_collective_emulated() {
    if !glslang_here("clustered reductions, judged by glslang") {
        return;
    }
    // Hardware: the call is the extension's, and glslang refuses a size
    // of no power of two, at the call's line.
    let three = GUARDED.replace("values[i], 4u)", "values[i], 3u)");
    let e = glsl_error(&three, Target::Glsl);
    assert_eq!(e.location.as_ref().map(|l| l.line), Some(9), "{e}");
    // Emulated: a macro that calls a collective is expanded at its calls
    // (`link::macros`), and the collective linked there.
    let alias = GUARDED
        .replace("in;\n", "in;\n#define FIRST(x) subgroupBroadcastFirst(x)\n")
        .replace("subgroupClusteredAdd(values[i], 4u)", "FIRST(values[i])")
        .replace(
            "#extension GL_KHR_shader_subgroup_clustered : require",
            "#extension GL_KHR_shader_subgroup_ballot : require",
        );
    // Its operand, which reads `values` past `n` where the invocation
    // has returned, is evaluated only where the invocation is active.
    let l = glsl_linked(&alias, Target::GlslNoSubgroup);
    let compact: String = l.text.split_whitespace().collect();
    assert!(
        compact.contains(
            "ballot_subgroupBroadcastFirst(ballot_active,(ballot_active?(uint(values[i])):uint(0)))"
        ),
        "{}",
        l.text
    );
    // Any other body is expanded too.
    let more = GUARDED
        .replace(
            "in;\n",
            "in;\n#define FIRST(x) subgroupBroadcastFirst(x + 0u)\n",
        )
        .replace("subgroupClusteredAdd(values[i], 4u)", "FIRST(values[i])")
        .replace(
            "#extension GL_KHR_shader_subgroup_clustered : require",
            "#extension GL_KHR_shader_subgroup_ballot : require",
        );
    let l = glsl_linked(&more, Target::GlslNoSubgroup);
    let compact: String = l.text.split_whitespace().collect();
    assert!(
        compact.contains(
            "ballot_subgroupBroadcastFirst(ballot_active,(ballot_active?(uint(values[i]+0u)):uint(0)))"
        ),
        "{}",
        l.text
    );
    glsl_linked(&more, Target::Glsl);
}
