//! Shapes that Vulkan GLSL from real projects takes, each written here
//! from scratch: what the linker must read, keep or refuse clearly.

use super::*;

/// The GLSL targets, hardware and emulated.
const GLSL_TARGETS: [Target; 2] = [Target::Glsl, Target::GlslNoSubgroup];

fn link_at(source: &str, path: &str, target: Target) -> Result<Linked, LinkError> {
    link(source, path, target, &LinkOptions::default())
}

#[test]
fn control_flow_attributes_are_read_and_kept_or_dropped() {
    if !glslang_here("GL_EXT_control_flow_attributes, judged by glslang") {
        return;
    }
    let source = "#version 450
#extension GL_KHR_shader_subgroup_ballot : enable
#extension GL_EXT_control_flow_attributes : enable
layout(local_size_x = 32) in;
layout(binding = 0) buffer Out { uint result[]; };
void main() {
    uint lanes = subgroupBallotBitCount(subgroupBallot(true));
    [[unroll]] for (uint k = 0u; k < 2u; ++k) {
        result[gl_LocalInvocationIndex * 2u + k] = lanes;
    }
    [[dont_unroll]] for (uint k = 0u; k < lanes; ++k) {
        [[flatten]] if (k == gl_LocalInvocationIndex) {
            result[k] += subgroupBallotBitCount(subgroupBallot(k > 3u));
        }
    }
}
";
    for target in GLSL_TARGETS {
        let linked = link_at(source, "a.comp", target).unwrap_or_else(|e| panic!("{target}: {e}"));
        // The loop with no collective keeps its hint where it is written
        // as it was.
        assert!(
            linked.text.contains("[[unroll]] for"),
            "{target}:\n{}",
            linked.text
        );
    }
}

#[test]
fn task_and_mesh_shaders_are_judged_at_the_vulkan_version_they_need() {
    if !glslang_here("task shaders, judged by glslang") {
        return;
    }
    let task = "#version 450
#extension GL_EXT_mesh_shader : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 32) in;
struct Payload { uint ids[32]; };
taskPayloadSharedEXT Payload payload;
void main() {
    bool keep = (gl_LocalInvocationIndex & 1u) == 0u;
    uvec4 votes = subgroupBallot(keep);
    if (keep) { payload.ids[subgroupBallotExclusiveBitCount(votes)] = gl_LocalInvocationIndex; }
    EmitMeshTasksEXT(subgroupBallotBitCount(votes), 1, 1);
}
";
    link_at(task, "cull.task", Target::Glsl).unwrap_or_else(|e| panic!("{e}"));
    // Without subgroups only compute shaders exchange: refused, at the
    // first collective.
    let e = link_at(task, "cull.task", Target::GlslNoSubgroup).unwrap_err();
    assert_eq!(e.location.as_ref().map(|l| l.line), Some(9), "{e}");
}

/// A shader whose code the preprocessor chooses, with a host-only header
/// in a branch that is not compiled, a collective with no emulation in
/// another, and a directive inside a function that reaches a collective.
const CONDITIONAL: &str = "#version 450
#extension GL_GOOGLE_include_directive : enable
#extension GL_KHR_shader_subgroup_ballot : enable
#extension GL_KHR_shader_subgroup_vote : enable
layout(local_size_x = 32) in;
layout(binding = 0) buffer Out { uint result[]; };
#ifdef HOST_SIDE_ONLY
#include \"only_on_the_host.h\"
#endif
#define WIDE 1
void main() {
    uint n = 0u;
    if (gl_LocalInvocationIndex < 5u) {
#if WIDE && !defined(CHEAP_PATH)
        n = subgroupBallotBitCount(subgroupBallot(true));
#else
        n = 1u;
#endif
    }
#if USE_VOTE
    if (subgroupAny(n == 0u)) { n = 1u; }
#endif
    result[gl_LocalInvocationIndex] = n;
}
";

#[test]
fn the_preprocessor_chooses_what_is_linked() {
    if !glslang_here("preprocessor conditionals, judged by glslang") {
        return;
    }
    for target in GLSL_TARGETS {
        let linked = link_with(
            CONDITIONAL,
            "p.comp",
            target,
            &LinkOptions::default(),
            &IncludeDirs::new(),
        )
        .unwrap_or_else(|e| panic!("{target}: {e}"));
        if target == Target::GlslNoSubgroup {
            // Linked: the ballot in the branch compiled; not the vote.
            assert!(linked.ops.contains(&Op::BitCount), "{}", linked.text);
            assert!(!linked.text.contains("subgroupAny"), "{}", linked.text);
            assert!(!linked.text.contains("#if"), "{}", linked.text);
        }
    }
    // Where the header's branch is compiled, its absence is the error, at
    // its line.
    let compiled = CONDITIONAL.replace("#ifdef HOST_SIDE_ONLY", "#ifndef HOST_SIDE_ONLY");
    for target in GLSL_TARGETS {
        let e = link_with(
            &compiled,
            "p.comp",
            target,
            &LinkOptions::default(),
            &IncludeDirs::new(),
        )
        .unwrap_err();
        assert_eq!(
            e.location.as_ref().map(|l| l.line),
            Some(8),
            "{target}: {e}"
        );
        assert!(
            e.to_string().contains("only_on_the_host.h"),
            "{target}: {e}"
        );
    }
    // A vote, where compiled, is linked, and so is a clustered reduction;
    // a collective with no emulation, where compiled, is refused at it.
    let voting = CONDITIONAL.replace("#if USE_VOTE", "#if 1");
    let l = link_with(
        &voting,
        "p.comp",
        Target::GlslNoSubgroup,
        &LinkOptions::default(),
        &IncludeDirs::new(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(l.ops.contains(&Op::Any), "{:?}", l.ops);
    let clustered = voting.replace("subgroupAny(n == 0u)", "subgroupClusteredOr(n == 0u, 4u)");
    let l = link_with(
        &clustered,
        "p.comp",
        Target::GlslNoSubgroup,
        &LinkOptions::default(),
        &IncludeDirs::new(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        l.ops.contains(&Op::Clustered(ballot_ir::op::ArithOp::Or)),
        "{:?}",
        l.ops
    );
    let rotating = voting.replace("subgroupAny(n == 0u)", "subgroupRotate(n, 1u) == 0u");
    let e = link_with(
        &rotating,
        "p.comp",
        Target::GlslNoSubgroup,
        &LinkOptions::default(),
        &IncludeDirs::new(),
    )
    .unwrap_err();
    assert_eq!(e.location.as_ref().map(|l| l.line), Some(21), "{e}");
    assert!(
        e.to_string().contains("`subgroupRotate` has no emulation"),
        "{e}"
    );
}

#[test]
fn broadcasts_of_expressions_in_divergent_code_take_glslang_s_types() {
    if !glslang_here("broadcast types, read from glslang") {
        return;
    }
    let source = "#version 450
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x = 32) in;
struct Item { uvec3 a; float w; };
layout(binding = 0) buffer Data { vec4 v; Item items[4]; float vals[]; } data;
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i < 8u) {
        data.vals[i] = subgroupBroadcast(data.v.x * 2.0, 1u) + data.items[0].w;
        data.items[1].a = subgroupBroadcastFirst(data.items[i % 4u].a + uvec3(i));
        bool odd = subgroupBroadcastFirst((i & 1u) == 1u);
        if (odd) { data.vals[i] += 1.0; }
    }
}
";
    for target in GLSL_TARGETS {
        let linked = glsl_linked(source, target);
        if target == Target::GlslNoSubgroup {
            assert!(
                linked.text.contains("float(data.v.x * 2.0)"),
                "{}",
                linked.text
            );
            assert!(
                linked
                    .text
                    .contains("uvec3(data.items[i % 4u].a + uvec3(i))"),
                "{}",
                linked.text
            );
        }
    }
}

#[test]
fn moves_of_8_16_and_64_bit_values_go_through_32_bit_words() {
    if !glslang_here("broadcast types, read from glslang") {
        return;
    }
    // Every move of every width, in divergent code: glslang judges the
    // linked text, and each type gets its overload over the 32-bit ones.
    let source = include_str!("wide.comp");
    glsl_linked(source, Target::Glsl);
    for size in [4, 8, 32] {
        let options = LinkOptions::default().subgroup_size(size);
        let l = link(source, "wide.comp", Target::GlslNoSubgroup, &options)
            .unwrap_or_else(|e| panic!("size {size}: {e}"));
        for overload in [
            "double ballot_subgroupBroadcastFirst(bool on, double value)",
            "double ballot_subgroupShuffle(bool on, double value, uint id)",
            "dvec3 ballot_subgroupShuffleXor(bool on, dvec3 value, uint mask)",
            "double ballot_subgroupShuffleXor(bool on, double value, uint mask)",
            "int64_t ballot_subgroupBroadcast(bool on, int64_t value, uint id)",
            "int64_t ballot_subgroupQuadSwapDiagonal(bool on, int64_t value)",
            "u64vec2 ballot_subgroupShuffleDown(bool on, u64vec2 value, uint delta)",
            "int8_t ballot_subgroupShuffleUp(bool on, int8_t value, uint delta)",
            "f16vec2 ballot_subgroupQuadBroadcast(bool on, f16vec2 value, uint index)",
            "uint16_t ballot_subgroupBroadcastFirst(bool on, uint16_t value)",
            "bool ballot_subgroupAllEqual(bool on, double value)",
            "bool ballot_subgroupAllEqual(bool on, dvec3 value)",
            "bool ballot_subgroupAllEqual(bool on, int64_t value)",
        ] {
            assert!(l.text.contains(overload), "no {overload} in\n{}", l.text);
        }
        // A type no call moves gets no overload.
        assert!(!l.text.contains("on, int16_t value"), "{}", l.text);
    }
    // The 64-bit arithmetic has functions of its own (run by
    // `ballot-runner/tests/linked/doubles.rs`); the clustered reductions
    // and the bitwise operations have none.
    let arith = "#version 450
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_clustered : enable
layout(local_size_x = 32) in;
layout(binding = 0) buffer Data { double vals[]; };
void main() {
    double mine = vals[gl_LocalInvocationIndex];
    double sum = subgroupAdd(mine);
    vals[gl_LocalInvocationIndex] = sum;
}
";
    glsl_linked(arith, Target::Glsl);
    let l = glsl_linked(arith, Target::GlslNoSubgroup);
    assert!(
        l.text
            .contains("double ballot_subgroupAdd(bool on, double value)"),
        "{}",
        l.text
    );
    let clustered = arith.replace("subgroupAdd(mine)", "subgroupClusteredAdd(mine, 4u)");
    glsl_linked(&clustered, Target::Glsl);
    let l = glsl_linked(&clustered, Target::GlslNoSubgroup);
    assert!(
        l.text.contains(
            "double ballot_subgroupClusteredAdd(bool on, double value, uint clusterSize)"
        ),
        "{}",
        l.text
    );
}

/// A shader built with `-D`: its workgroup size and a branch are the
/// build's.
const DEFINED: &str = "#version 450
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x = WORKGROUP) in;
layout(binding = 0) buffer Out { uint result[]; };
void main() {
    uint n = subgroupBallotBitCount(subgroupBallot(gl_LocalInvocationIndex < 7u));
#ifdef FAST
    n += 1u;
#else
    n += subgroupBallotExclusiveBitCount(subgroupBallot(true));
#endif
    result[gl_LocalInvocationIndex] = n;
}
";

#[test]
fn defines_are_the_builds_as_glslang_takes_them() {
    if !glslang_here("defines, judged by glslang") {
        return;
    }
    // Without them glslang cannot size the workgroup: the file's error.
    let e = glsl_error(DEFINED, Target::Glsl);
    assert_eq!(e.kind, LinkErrorKind::Invalid, "{e}");
    let options = LinkOptions::default()
        .define("WORKGROUP", "64")
        .define("FAST", "");
    for target in GLSL_TARGETS {
        let linked = link(DEFINED, "d.comp", target, &options).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            linked.text.contains("\n#define WORKGROUP 64\n"),
            "{}",
            linked.text
        );
        assert!(linked.text.contains("\n#define FAST\n"), "{}", linked.text);
        if target == Target::GlslNoSubgroup {
            assert_eq!(linked.workgroup_size, Some([64, 1, 1]));
            // FAST's branch: no exclusive count linked.
            assert!(
                !linked.ops.contains(&Op::ExclusiveBitCount),
                "{:?}",
                linked.ops
            );
        }
    }
    // An error on the shader's line is still on its line.
    let broken = DEFINED.replace("n += 1u;", "n += missing;");
    let e = link(&broken, "d.comp", Target::GlslNoSubgroup, &options).unwrap_err();
    assert_eq!(e.location.as_ref().map(|l| l.line), Some(8), "{e}");
}

#[test]
fn a_function_like_define_is_glslang_s() {
    // ncnn's run-time header holds `#define LD(b,i) b[i]`; glslang's `-D`
    // takes `LD(b,i)=b[i]` so.
    let source = "#version 450
#extension GL_KHR_shader_subgroup_arithmetic : enable
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { float v[]; };
void main() {
    if (gl_LocalInvocationIndex > 40u) { return; }
    v[gl_LocalInvocationIndex] = subgroupAdd(LD(v, gl_LocalInvocationIndex));
}
";
    for target in [Target::Glsl, Target::GlslNoSubgroup] {
        let options = LinkOptions::default().define("LD( b, i )", "b[i]");
        let l =
            link(source, "d.comp", target, &options).unwrap_or_else(|e| panic!("{target}: {e}"));
        assert!(
            l.text.contains("\n#define LD(b, i) b[i]\n"),
            "{target}: {}",
            l.text
        );
    }
}

#[test]
fn a_define_that_cannot_be_one_is_an_options_error_naming_it() {
    for (name, value, says) in [
        ("1X", "", "invalid define `1X`"),
        ("GL_MINE", "1", "reserves"),
        ("A__B", "1", "reserves"),
        ("LINES", "1\n2", "more than one line"),
        // Function-like, as glslang's `-D` takes them: each parameter a
        // name, none twice, the list closed.
        ("LD(b,b)", "b", "invalid define `LD(b,b)`"),
        ("LD(b,", "b", "invalid define `LD(b,`"),
        ("LD(1)", "1", "invalid define `LD(1)`"),
        ("(b)", "b", "invalid define `(b)`"),
    ] {
        let options = LinkOptions::default().define(name, value);
        let e = link(DEFINED, "d.comp", Target::Glsl, &options).unwrap_err();
        assert_eq!(e.kind, LinkErrorKind::Options, "{e}");
        assert!(e.message.contains(says), "{e}");
    }
    // A collective in a define's value: the emulation cannot expand it.
    let options = LinkOptions::default().define("RED(x)", "subgroupAdd(x)");
    let e = link(DEFINED, "d.comp", Target::GlslNoSubgroup, &options).unwrap_err();
    assert_eq!(e.kind, LinkErrorKind::Options, "{e}");
    assert!(e.message.contains("calls a subgroup function"), "{e}");
    let options = LinkOptions::default().define("N", "1");
    let e = link(FOUR, "four.wgsl", Target::Wgsl, &options).unwrap_err();
    assert_eq!(e.kind, LinkErrorKind::Options, "{e}");
    assert!(e.message.contains("WGSL has no preprocessor"), "{e}");
}

#[test]
fn the_rest_of_the_family_is_overloaded_on_glsl_no_subgroup() {
    if !glslang_here("the family's overloads, judged by glslang") {
        return;
    }
    // Every call in divergent code, over scalars, vectors and booleans;
    // glslang picks the overload, and the operations one name stands for
    // are linked together.
    let source = "#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uvec4 data[]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 60u) { return; }
    vec3 f = subgroupInclusiveAdd(vec3(float(i), 1.0, 2.0));
    int m = subgroupMin(int(i) - 4);
    bvec2 o = subgroupOr(bvec2(i > 3u, false));
    bool e = subgroupAllEqual(data[0].xy * 2u);
    uint q = subgroupQuadBroadcast(i, 1u) + subgroupShuffleXor(i, 1u);
    data[i] = uvec4(floatBitsToUint(f.x), uint(m), uint(o.x) + uint(e), q);
}
";
    let l = link(
        source,
        "f.comp",
        Target::GlslNoSubgroup,
        &LinkOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    use ballot_ir::op::{ArithOp, Scan};
    for op in [
        Op::Arith(ArithOp::IAdd, Scan::Inclusive),
        Op::Arith(ArithOp::FAdd, Scan::Inclusive),
        Op::Arith(ArithOp::SMin, Scan::Reduce),
        Op::Arith(ArithOp::UMin, Scan::Reduce),
        Op::Arith(ArithOp::FMin, Scan::Reduce),
        Op::Arith(ArithOp::Or, Scan::Reduce),
        Op::AllEqual,
        Op::QuadBroadcast,
        Op::ShuffleXor,
    ] {
        assert!(l.ops.contains(&op), "{op:?} not in {:?}", l.ops);
    }
    for overload in [
        "vec3 ballot_subgroupInclusiveAdd(bool on, vec3 value)",
        "int ballot_subgroupMin(bool on, int value)",
        "bvec2 ballot_subgroupOr(bool on, bvec2 value)",
        "bool ballot_subgroupAllEqual(bool on, uvec2 value)",
        "uint ballot_subgroupQuadBroadcast(bool on, uint value, uint index)",
    ] {
        assert!(l.text.contains(overload), "no {overload} in\n{}", l.text);
    }
    assert!(!l.text.contains("GL_KHR_shader_subgroup_arithmetic"));
    // The clustered reductions of 16-bit integers combine in the type,
    // through the type's own function, as its other arithmetic does.
    let arith = source
        .replace(
            "subgroupMin(int(i) - 4)",
            "int(subgroupClusteredMin(int16_t(i), 2u))",
        )
        .replace(
            "layout(local_size_x = 64) in;",
            "#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require\n\
             #extension GL_EXT_shader_subgroup_extended_types_int16 : require\n\
             #extension GL_KHR_shader_subgroup_clustered : require\n\
             layout(local_size_x = 64) in;",
        );
    let l = link(
        &arith,
        "f.comp",
        Target::GlslNoSubgroup,
        &LinkOptions::default(),
    )
    .expect("a 16-bit integer's clustered minimum links");
    let overload = "int16_t ballot_subgroupClusteredMin(bool on, int16_t value, uint clusterSize)";
    assert!(l.text.contains(overload), "no {overload} in\n{}", l.text);
    assert!(
        l.text.contains("int16_t ballot_arith_int16_t("),
        "{}",
        l.text
    );
}

#[test]
fn a_text_that_picks_its_code_by_the_subgroup_extensions_takes_the_emulated_ones() {
    // SPIR-V Cross writes GLSL this way: each extension's code behind its
    // macro, and an `#error` where none is there. Without subgroups the
    // emulated extensions are there, the clustered reductions' too; the
    // rotations' are not.
    let source = "\
#version 450
#if defined(GL_KHR_shader_subgroup_ballot)
#extension GL_KHR_shader_subgroup_ballot : require
#else
#error No extensions available to emulate requested subgroup feature.
#endif
#if defined(GL_KHR_shader_subgroup_clustered)
#extension GL_KHR_shader_subgroup_clustered : require
#else
#error No extensions available to emulate requested subgroup feature.
#endif
#if defined(GL_KHR_shader_subgroup_rotate)
#define NEXT(x) subgroupRotate(x, 1u)
#else
#define NEXT(x) (x)
#endif
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    if (i >= 60u) { return; }
    data[i] = NEXT(subgroupClusteredAdd(subgroupBallotBitCount(subgroupBallot(data[i] > 3u)), 4u));
}
";
    if !ballot_testkit::have_tools("glslang", &ballot_testkit::GLSL_TOOLS) {
        return;
    }
    let l = glsl_linked(source, Target::GlslNoSubgroup);
    assert!(!l.text.contains("#error"), "{}", l.text);
    assert!(!l.text.contains("subgroupRotate"), "{}", l.text);
    assert!(
        l.text.contains("ballot_subgroupBallot(ballot_active"),
        "{}",
        l.text
    );
    assert!(
        l.text.contains("ballot_subgroupClusteredAdd(ballot_active"),
        "{}",
        l.text
    );
    // On hardware, glslang itself decides, and has both extensions.
    let hardware = glsl_linked(source, Target::Glsl);
    assert!(hardware
        .text
        .contains("#if defined(GL_KHR_shader_subgroup_clustered)"));

    // A collective in the body of the macro the text chose: expanded
    // where it is called, and linked there.
    let chosen = source
        .replace(
            "#define NEXT(x) (x)",
            "#define NEXT(x) subgroupClusteredAdd(x, 4u)",
        )
        .replace("NEXT(subgroupClusteredAdd(", "NEXT((");
    let l = glsl_linked(&chosen, Target::GlslNoSubgroup);
    assert!(!l.text.contains("subgroupRotate"), "{}", l.text);
    assert!(!l.text.contains("#define NEXT"), "{}", l.text);
    assert!(
        l.text.contains("ballot_subgroupClusteredAdd(ballot_active"),
        "{}",
        l.text
    );
}

#[test]
fn main_s_uniform_control_flow_attribute_is_the_hardware_s() {
    // dxvk's mipgen marks main so; the attribute and its extension ask the
    // device for subgroups' reconvergence.
    let source = "#version 450
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_EXT_subgroup_uniform_control_flow : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint d[]; };
uint f(uint i) {
    if (i > 40u) { return 0u; }
    return subgroupBallotBitCount(subgroupBallot(true));
}
void main() [[subgroup_uniform_control_flow]] {
    d[gl_LocalInvocationIndex] = f(gl_LocalInvocationIndex);
}
";
    let hardware = glsl_linked(source, Target::Glsl);
    assert!(hardware
        .text
        .contains("void main() [[subgroup_uniform_control_flow]] {"));
    let emulated = glsl_linked(source, Target::GlslNoSubgroup);
    assert!(
        !emulated.text.contains("subgroup_uniform_control_flow"),
        "{}",
        emulated.text
    );
    assert!(
        emulated.text.contains("void main()  {"),
        "{}",
        emulated.text
    );
}

#[test]
fn a_broadcast_of_an_expression_led_by_a_literal_takes_glslang_s_type() {
    // FidelityFX's depth-of-field blur broadcasts `0.5 * … * tileCoc`
    // inside a branch: a value that starts with a literal is no literal.
    let source = "#version 450
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { float o[]; };
void main() {
    float g = 0.0;
    if (o[0] > 1.0) { float t = o[3]; g = subgroupBroadcastFirst(0.5 * t) + subgroupBroadcast(2.0, 1u); }
    o[gl_LocalInvocationIndex] = g;
}
";
    let l = glsl_linked(source, Target::GlslNoSubgroup);
    assert!(l.text.contains("float(0.5 * t)"), "{}", l.text);
    // A literal alone stays as written, its type read from it.
    assert!(l.text.contains(", 2.0, 1u)"), "{}", l.text);
    let double = source
        .replace("float g = 0.0;", "double g = 0.0lf;")
        .replace(
            "+ subgroupBroadcast(2.0, 1u)",
            "+ subgroupBroadcast(2.0lf, 1u)",
        )
        .replace(
            "o[gl_LocalInvocationIndex] = g;",
            "o[gl_LocalInvocationIndex] = float(g);",
        );
    let l = glsl_linked(&double, Target::GlslNoSubgroup);
    assert!(l.text.contains("double ballot_t"), "{}", l.text);
}

#[test]
fn a_nonuniform_qualifier_on_a_local_is_a_qualifier() {
    // vkdt's `kpn-t` loss declares `nonuniformEXT uint idx = …;` in a
    // function the emulation converts.
    let source = "#version 450
#extension GL_EXT_nonuniform_qualifier : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { float v[]; };
void main() {
    if (gl_LocalInvocationIndex > 40u) { return; }
    float e = subgroupAdd(v[gl_LocalInvocationIndex]);
    nonuniformEXT uint idx = gl_WorkGroupID.x;
    v[idx] = e;
}
";
    let l = glsl_linked(source, Target::GlslNoSubgroup);
    assert!(l.text.contains("nonuniformEXT uint idx"), "{}", l.text);
}
