use super::*;

/// A hand-written WGSL shader for hardware subgroups that calls four
/// ballot helpers.
const FOUR: &str = "\
@group(0) @binding(0) var<storage, read_write> out: array<vec4<u32>>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let b = subgroupBallot((id.x & 1u) == 1u);
    out[id.x] = vec4<u32>(subgroupBallotBitCount(b), subgroupBallotExclusiveBitCount(b),
        subgroupBallotFindLSB(b), select(0u, 1u, subgroupBallotBitExtract(b, 3u)));
}
";

fn linked(source: &str, target: Target) -> Linked {
    link(source, "four.wgsl", target, &LinkOptions::default())
        .unwrap_or_else(|e| panic!("{target}:\n{e}"))
}

fn error(source: &str, target: Target) -> LinkError {
    match link(source, "bad.wgsl", target, &LinkOptions::default()) {
        Ok(l) => panic!("{target}: linked\n{}", l.text),
        Err(e) => e,
    }
}

#[test]
fn only_the_called_functions_are_linked() {
    use Op::*;
    for target in [Target::Wgsl, Target::WgslWeb, Target::WgslNoSubgroup] {
        let l = linked(FOUR, target);
        let mut expected = BTreeSet::from([BitCount, ExclusiveBitCount, FindLsb, BitExtract]);
        if target == Target::WgslNoSubgroup {
            // WGSL's own subgroupBallot is missing there too.
            expected.insert(Ballot);
        }
        assert_eq!(l.ops, expected, "{target}");
        for op in Op::ALL {
            let name = linked_name(op);
            assert_eq!(
                l.functions.contains(&name),
                expected.contains(&op),
                "{target}: {name} in {:?}",
                l.functions
            );
        }
        // Helpers of operations nobody called stay out.
        for absent in [
            "ballot_find_msb",
            "ballot_elect",
            "ballot_broadcast",
            "ballot_eq_mask",
        ] {
            assert!(
                !l.functions.iter().any(|f| f == absent),
                "{target}: {absent}"
            );
        }
    }
}

#[test]
fn the_emulation_is_sized_from_the_entry_point() {
    let source = FOUR.replace("@workgroup_size(64)", "@workgroup_size(8, 4)");
    let l = linked(&source, Target::WgslNoSubgroup);
    assert_eq!(l.workgroup_size, Some([8, 4, 1]));
    assert!(
        l.text.contains("const ballot_workgroup_size: u32 = 32u;"),
        "{}",
        l.text
    );
    // A constant expression, as naga evaluates it.
    let source = format!(
        "const W: u32 = 48u;\n{}",
        FOUR.replace("@workgroup_size(64)", "@workgroup_size(W / 2u, 2)")
    );
    let l = linked(&source, Target::WgslNoSubgroup);
    assert_eq!(l.workgroup_size, Some([24, 2, 1]));
    assert!(l.text.contains("const ballot_workgroup_size: u32 = 48u;"));
}

#[test]
fn an_overridable_workgroup_size_is_refused() {
    let source = format!(
        "override W: u32 = 64u;\n{}",
        FOUR.replace("@workgroup_size(64)", "@workgroup_size(W)")
    );
    let e = error(&source, Target::WgslNoSubgroup);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("pipeline-overridable"), "{e}");
    // Hardware subgroups need no size.
    linked(&source, Target::Wgsl);
}

#[test]
fn an_unknown_ballot_function_is_an_error_at_its_token() {
    let source = FOUR.replace("subgroupBallotFindLSB(b)", "subgroupBallotFindLowest(b)");
    let e = error(&source, Target::Wgsl);
    assert_eq!(e.kind, LinkErrorKind::UnknownFunction);
    let at = e.location.clone().expect("a location");
    // Line 7 of FOUR, after eight spaces.
    assert_eq!((at.line, at.column), (7, 9), "{e}");
    assert_eq!(at.length, "subgroupBallotFindLowest".len() as u32);
    assert!(at.line_text.contains("subgroupBallotFindLowest(b)"));
    let shown = e.to_string();
    assert!(shown.contains("bad.wgsl:7:9"), "{shown}");
    assert!(
        shown.contains("subgroupBallotFindLSB"),
        "lists the known names: {shown}"
    );
}

#[test]
fn a_syntax_error_points_at_the_users_line() {
    let source = FOUR.replace("let b = ", "let b = = ");
    for target in [Target::Wgsl, Target::WgslNoSubgroup] {
        let e = error(&source, target);
        assert_eq!(e.kind, LinkErrorKind::Invalid, "{e}");
        let at = e.location.expect("a location");
        assert_eq!(at.line, 5, "{target}");
        assert!(at.line_text.contains("let b = = "));
    }
}

#[test]
fn a_type_error_in_a_call_is_the_users() {
    let source = FOUR.replace("subgroupBallotBitCount(b)", "subgroupBallotBitCount(1u)");
    let e = error(&source, Target::Wgsl);
    assert_eq!(e.kind, LinkErrorKind::Invalid, "{e}");
    assert_eq!(e.location.expect("a location").line, 6, "{}", e.message);
}

#[test]
fn names_never_clash_with_the_shaders() {
    let source = format!(
        "fn ballot_init() -> u32 {{ return 7u; }}\nfn ballot1_x() {{}}\n{}",
        FOUR.replace("subgroupBallotFindLSB(b)", "ballot_init()")
    );
    for target in [Target::Wgsl, Target::WgslNoSubgroup] {
        let l = linked(&source, target);
        assert!(
            l.functions.iter().all(|f| f.starts_with("ballot2_")),
            "{:?}",
            l.functions
        );
        assert!(l.text.contains("fn ballot_init() -> u32 { return 7u; }"));
    }
}

#[test]
fn a_function_the_shader_defines_is_its_own() {
    let source = format!("fn subgroupBallotBitCount(v: vec4<u32>) -> u32 {{ return 9u; }}\n{FOUR}");
    let l = linked(&source, Target::Wgsl);
    assert!(!l.ops.contains(&Op::BitCount));
    assert!(!l.functions.contains(&linked_name(Op::BitCount)));
}

#[test]
fn subgroup_builtins_become_the_emulations() {
    let source = "\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) lane: u32,
        @builtin(local_invocation_index) index: u32,
        @builtin(subgroup_size) size: u32) {
    out[index] = lane * 1000u + size + subgroupBallotBitCount(subgroupBallot(true)) + select(0u, 1u, subgroupElect());
}
";
    let l = linked(source, Target::WgslNoSubgroup);
    assert!(!l.text.contains("subgroup_invocation_id)"), "{}", l.text);
    assert!(l.text.contains("ballot_init(index);"), "{}", l.text);
    let l = linked(source, Target::Wgsl);
    assert!(l.text.contains("ballot_init(lane, size);"), "{}", l.text);
    // Without the built-ins, the linker adds them.
    let bare = "\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(32)
fn main() {
    out[0] = subgroupBallotBitCount(subgroupEqMask());
}
";
    for target in [Target::Wgsl, Target::WgslWeb, Target::WgslNoSubgroup] {
        linked(bare, target);
    }
}

#[test]
fn wgsl_web_enables_subgroups_once() {
    let l = linked(FOUR, Target::WgslWeb);
    assert!(l.text.starts_with("enable subgroups;\n"), "{}", l.text);
    let own = format!("enable subgroups;\n{FOUR}");
    let l = linked(&own, Target::WgslWeb);
    assert_eq!(l.text.matches("enable subgroups;").count(), 1);
    // naga reads wgsl: the directive goes.
    let l = linked(&own, Target::Wgsl);
    assert!(!l.text.contains("enable subgroups"));
    // A shader of WGSL's own subgroup functions and built-ins links
    // nothing on wgsl-web, and still needs the directive (WGSL's
    // `subgroups` extension; Tint refuses the names without it), but no
    // diagnostic filter: nothing of ballot's branches on lane values.
    for body in [
        "out[i] = subgroupBallot(true).x;",
        "out[i] = subgroupAdd(1u);",
        "out[i] = lane;",
    ] {
        let own = format!(
            "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n\
             @compute @workgroup_size(64)\n\
             fn main(@builtin(local_invocation_index) i: u32, \
             @builtin(subgroup_invocation_id) lane: u32) {{\n    {body}\n}}\n"
        );
        let l = linked(&own, Target::WgslWeb);
        assert!(l.functions.is_empty(), "{body}: {:?}", l.functions);
        assert!(
            l.text.starts_with("enable subgroups;\n"),
            "{body}:\n{}",
            l.text
        );
        assert!(!l.text.contains("diagnostic("), "{body}:\n{}", l.text);
    }
    // And one that names no subgroup at all is left as it is.
    let plain = "@compute @workgroup_size(1)\nfn main() {}\n";
    assert_eq!(linked(plain, Target::WgslWeb).text, plain);
}

const GLSL: &str = "\
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { uvec4 data[]; };

void main() {
    uvec4 b = subgroupBallot((gl_LocalInvocationIndex & 1u) == 1u);
    uint lane = gl_SubgroupInvocationID;
    data[gl_GlobalInvocationID.x] = uvec4(subgroupBallotBitCount(b),
        subgroupBallotExclusiveBitCount(b & gl_SubgroupLtMask), lane, gl_SubgroupSize);
}
";

#[test]
fn glsl_links_for_both_targets() {
    let l = link(GLSL, "k.comp", Target::Glsl, &LinkOptions::default()).unwrap();
    assert!(l.ops.is_empty());
    assert!(l.functions.is_empty());
    let l = link(
        GLSL,
        "k.comp",
        Target::GlslNoSubgroup,
        &LinkOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.workgroup_size, Some([64, 1, 1]));
    assert!(!l.text.contains("#extension"), "{}", l.text);
    assert!(l.text.contains("ballot_init(gl_LocalInvocationIndex);"));
    assert!(l.functions.contains(&linked_name(Op::LtMask)));
    assert!(!l.functions.contains(&linked_name(Op::FindMsb)));
}

#[test]
fn options_are_checked_against_the_shader() {
    let e = link(
        FOUR,
        "four.wgsl",
        Target::WgslNoSubgroup,
        &LinkOptions::default().subgroup_size(128),
    )
    .unwrap_err();
    assert_eq!(e.kind, LinkErrorKind::Options);
    assert!(e.message.contains("subgroup_size"), "{e}");
    let e = link(
        FOUR,
        "four.wgsl",
        Target::Wgsl,
        &LinkOptions::default().subgroup_size(3),
    )
    .unwrap_err();
    assert!(e.message.contains("subgroup_size"), "{e}");
}

#[test]
fn a_build_script_writes_each_target_to_its_file() {
    let dir = std::env::temp_dir().join(format!("ballot-link-build-{}", std::process::id()));
    let (src, out) = (dir.join("src"), dir.join("out"));
    std::fs::create_dir_all(&src).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    let shader = src.join("four.wgsl");
    std::fs::write(&shader, FOUR).unwrap();
    let outputs = Build::new()
        .shader(&shader, [Target::Wgsl, Target::WgslNoSubgroup])
        .subgroup_size(16)
        .out_dir(&out)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(outputs.len(), 2);
    for (output, target) in outputs.iter().zip([Target::Wgsl, Target::WgslNoSubgroup]) {
        assert_eq!(output.target, target);
        assert_eq!(output.path, out.join(format!("four.{target}.wgsl")));
        let written = std::fs::read_to_string(&output.path).unwrap();
        let direct = link(
            FOUR,
            &shader.display().to_string(),
            target,
            &LinkOptions::default().subgroup_size(16),
        );
        assert_eq!(written, direct.unwrap().text);
    }
    // The wrong language, and a shader that does not link.
    let wrong = Build::new()
        .shader(&shader, [Target::Glsl])
        .out_dir(&out)
        .run();
    assert!(
        matches!(wrong, Err(BuildError::Language { .. })),
        "{wrong:?}"
    );
    std::fs::write(&shader, FOUR.replace("FindLSB", "FindLowest")).unwrap();
    let bad = Build::new()
        .shader(&shader, [Target::Wgsl])
        .out_dir(&out)
        .run();
    match bad {
        Err(BuildError::Link(e)) => assert_eq!(e.kind, LinkErrorKind::UnknownFunction),
        other => panic!("{other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_build_script_reads_bounded_and_stops_at_its_time_limit() {
    let dir = std::env::temp_dir().join(format!("ballot-link-bounded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let build = |path: &std::path::Path| {
        Build::new()
            .shader(path, [Target::Wgsl])
            .out_dir(&dir)
            .run()
    };
    // A directory is not a shader; the reason names it.
    let not_a_file = dir.join("shaders.wgsl");
    std::fs::create_dir_all(&not_a_file).unwrap();
    match build(&not_a_file) {
        Err(e @ BuildError::Read { .. }) => {
            assert!(e.to_string().contains("a directory"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    // One byte past the limit is refused before anything is linked.
    let large = dir.join("large.wgsl");
    std::fs::write(&large, vec![b' '; crate::source::MAX_SOURCE_BYTES + 1]).unwrap();
    match build(&large) {
        Err(e @ BuildError::Read { .. }) => assert!(e.to_string().contains("limit"), "{e}"),
        other => panic!("{other:?}"),
    }
    let latin1 = dir.join("latin1.wgsl");
    std::fs::write(&latin1, b"// caf\xe9\n").unwrap();
    match build(&latin1) {
        Err(e @ BuildError::Read { .. }) => assert!(e.to_string().contains("offset 6"), "{e}"),
        other => panic!("{other:?}"),
    }
    // A time limit no link meets: the error says which shader and target,
    // and how to raise it.
    let shader = dir.join("four.wgsl");
    std::fs::write(&shader, FOUR).unwrap();
    let stopped = Build::new()
        .shader(&shader, [Target::WgslNoSubgroup])
        .limits(crate::check::Limits {
            timeout: std::time::Duration::ZERO,
            ..Default::default()
        })
        .out_dir(&dir)
        .run();
    match stopped {
        Err(
            e @ BuildError::Stopped {
                target: Target::WgslNoSubgroup,
                problem: crate::check::Problem::TimedOut { .. },
                ..
            },
        ) => assert!(e.to_string().contains("Build::limits"), "{e}"),
        other => panic!("{other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Vulkan GLSL as engines write it, which naga's GLSL front end refuses
/// (atomics, `push_constant`, a precision qualifier on a parameter,
/// `#version 430`, the workgroup through a macro, `gl_NumSubgroups` and
/// `gl_SubgroupID`), and which GL_KHR_vulkan_glsl and the subgroup
/// extensions allow: the Khronos compaction, after a bounds guard.
const VULKAN_GLSL: &str = "\
#version 430
#extension GL_KHR_shader_subgroup_ballot : enable
#define WG 64
layout(local_size_x = WG) in;
layout(push_constant) uniform Push { uint n; } pc;
layout(std430, binding = 0) buffer Counter { uint count; };
layout(std430, binding = 1) buffer Out { uint slots[]; };
layout(std430, binding = 2) buffer Where { uvec2 where[]; };
uint keep(mediump uint x) { return x & 1u; }
void main() {
    uint i = gl_GlobalInvocationID.x;
    where[i] = uvec2(gl_SubgroupID, gl_NumSubgroups);
    if (i >= pc.n) { return; }
    bool k = keep(i) == 1u;
    uvec4 b = subgroupBallot(k);
    uint base = 0u;
    if (subgroupElect()) { base = atomicAdd(count, subgroupBallotBitCount(b)); }
    base = subgroupBroadcastFirst(base);
    if (k) { slots[base + subgroupBallotExclusiveBitCount(b)] = i; }
}
";

/// Whether glslang is here to judge GLSL; the skip is recorded otherwise.
fn glslang_here(what: &str) -> bool {
    ballot_testkit::have_tools(what, &ballot_testkit::GLSL_TOOLS)
}

#[test]
fn vulkan_glsl_that_naga_refuses_links_for_both_targets() {
    if !glslang_here("linking Vulkan GLSL, judged by glslang") {
        return;
    }
    // The reference accepts the shader as it is; naga's front end does not.
    crate::valid::glslang(VULKAN_GLSL, crate::back::Form::ComputeShader)
        .unwrap_or_else(|e| panic!("glslang refuses the unlinked shader: {e}"));
    assert!(crate::valid::check_source(Target::Glsl, "v.comp", VULKAN_GLSL).is_err());
    let hardware = glsl_linked(VULKAN_GLSL, Target::Glsl);
    assert!(hardware.ops.is_empty(), "{:?}", hardware.ops);
    let l = glsl_linked(VULKAN_GLSL, Target::GlslNoSubgroup);
    // The size is spelled through a macro: glslang's SPIR-V gives it.
    assert_eq!(l.workgroup_size, Some([64, 1, 1]));
    // gl_SubgroupID and gl_NumSubgroups from the virtual layout: index
    // over size, and the workgroup's subgroups rounded up.
    assert!(
        l.text
            .contains("where[i] = uvec2((ballot_index / ballot_subgroup_size), ((ballot_workgroup_size + ballot_subgroup_size - 1u) / ballot_subgroup_size));"),
        "{}",
        l.text
    );
    crate::valid::glslang(&l.text, crate::back::Form::ComputeShader)
        .unwrap_or_else(|e| panic!("{e}\n{}", l.text));
}

#[test]
fn glslang_s_verdict_is_on_the_users_line() {
    if !glslang_here("glslang's errors on the user's line") {
        return;
    }
    // A call glslang knows no overload of, after the guard: line 14.
    let bad = VULKAN_GLSL.replace("bool k = keep(i) == 1u;", "bool k = keep(i, 2u) == 1u;");
    for target in [Target::Glsl, Target::GlslNoSubgroup] {
        let e = glsl_error(&bad, target);
        assert_eq!(e.kind, LinkErrorKind::Invalid, "{target}: {e}");
        assert!(e.message.starts_with("glslang: `keep`"), "{target}: {e}");
        let at = e
            .location
            .clone()
            .unwrap_or_else(|| panic!("{target}: {e}"));
        assert_eq!((at.line, at.column), (14, 14), "{target}: {e}");
        assert_eq!(at.line_text, "    bool k = keep(i, 2u) == 1u;");
    }
}

#[test]
fn a_specialised_workgroup_links_on_hardware_only() {
    if !glslang_here("a specialised GLSL workgroup") {
        return;
    }
    let source = VULKAN_GLSL.replace(
        "layout(local_size_x = WG) in;",
        "layout(local_size_x_id = 0) in;",
    );
    glsl_linked(&source, Target::Glsl);
    let e = glsl_error(&source, Target::GlslNoSubgroup);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("pipeline-overridable"), "{e}");
}

#[test]
fn the_glsl_stage_is_the_files_extension() {
    if !glslang_here("GLSL stages from file names") {
        return;
    }
    // A fragment shader reading a subgroup built-in links for hardware
    // subgroups as a `.frag`; as a `.glsl` glslang reads a compute shader,
    // and the note says so.
    let fragment = "#version 450\n#extension GL_KHR_shader_subgroup_ballot : enable\n\
                    layout(location = 0) out vec4 colour;\nvoid main() {\n    \
                    colour = vec4(float(subgroupBallotBitCount(subgroupBallot(gl_FragCoord.x > 1.0))));\n}\n";
    link(fragment, "f.frag", Target::Glsl, &LinkOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let e = link(fragment, "f.glsl", Target::Glsl, &LinkOptions::default()).unwrap_err();
    assert_eq!(e.kind, LinkErrorKind::Invalid, "{e}");
    assert!(e.notes.iter().any(|n| n.contains("compute shader")), "{e}");
}

// ------------------------------------------------------------ hardening

fn glsl_linked(source: &str, target: Target) -> Linked {
    link(source, "k.comp", target, &LinkOptions::default())
        .unwrap_or_else(|e| panic!("{target}:\n{e}"))
}

fn glsl_error(source: &str, target: Target) -> LinkError {
    match link(source, "k.comp", target, &LinkOptions::default()) {
        Ok(l) => panic!("{target}: linked\n{}", l.text),
        Err(e) => e,
    }
}

const WGSL_TARGETS: [Target; 3] = [Target::Wgsl, Target::WgslWeb, Target::WgslNoSubgroup];

#[test]
fn names_in_comments_are_neither_linked_nor_renamed() {
    let source = FOUR.replace(
        "let b = ",
        "// subgroupBallotFindMSB(b) and subgroupBallotBogus(b)\n    \
         /* outer /* subgroupInverseBallot(b) */ subgroupElect() */\n    let b = ",
    );
    for target in WGSL_TARGETS {
        let l = linked(&source, target);
        assert!(!l.ops.contains(&Op::FindMsb), "{target}");
        assert!(!l.ops.contains(&Op::InverseBallot), "{target}");
        assert!(!l.ops.contains(&Op::Elect), "{target}");
        // The emulated target rewrites the function that holds the ballot,
        // and keeps no comment inside it.
        if target.has_subgroups() {
            assert!(l
                .text
                .contains("// subgroupBallotFindMSB(b) and subgroupBallotBogus(b)"));
            assert!(l
                .text
                .contains("/* outer /* subgroupInverseBallot(b) */ subgroupElect() */"));
        }
    }
}

#[test]
fn a_member_named_like_an_op_is_not_renamed() {
    let source = "\
struct S { subgroupBallotBitCount: u32 }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(32)
fn main() {
    var x: S;
    x.subgroupBallotBitCount = subgroupBallotBitCount(subgroupBallot(true));
    out[0] = x.subgroupBallotBitCount;
}
";
    for target in WGSL_TARGETS {
        let l = linked(source, target);
        assert!(l.text.contains("x.subgroupBallotBitCount = "), "{}", l.text);
        assert!(l.text.contains("out[0] = x.subgroupBallotBitCount;"));
        assert!(l.text.contains("struct S { subgroupBallotBitCount: u32 }"));
    }
}

/// Two entry points, each calling a ballot function.
const TWO: &str = "\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn first(@builtin(local_invocation_index) i: u32) {
    out[i] = subgroupBallotBitCount(subgroupBallot(true));
}
@compute @workgroup_size(64)
fn second(@builtin(local_invocation_index) i: u32) {
    out[i] = subgroupBallotFindLSB(subgroupBallot(true));
}
";

#[test]
fn every_entry_point_is_initialised() {
    for target in WGSL_TARGETS {
        let l = linked(TWO, target);
        let inits = l.text.matches("ballot_init(").count();
        // The definition and one call per entry point.
        assert_eq!(inits, 3, "{target}:\n{}", l.text);
    }
    let other = TWO.replacen("@workgroup_size(64)", "@workgroup_size(32)", 1);
    linked(&other, Target::Wgsl);
    let e = error(&other, Target::WgslNoSubgroup);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("different"), "{e}");
}

#[test]
fn parameter_lists_of_every_shape() {
    let body = "{\n    out[0] = subgroupBallotBitCount(subgroupBallot(true));\n}\n";
    let head = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n";
    let lists = [
        "()",
        "( )",
        "(@builtin(global_invocation_id) id: vec3<u32>,)",
        "(@builtin(global_invocation_id) id: vec3<u32>, )",
        "(@builtin(subgroup_invocation_id) lane: u32)",
        "(@builtin(subgroup_invocation_id) lane: u32,)",
        "(@builtin(global_invocation_id) id: vec3<u32>, @builtin(subgroup_size) size: u32)",
        "(@builtin(subgroup_size) size: u32, @builtin(global_invocation_id) id: vec3<u32>)",
        "(@builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) size: u32)",
        "(\n    @builtin(global_invocation_id)\n    id: vec3<u32>,\n    @builtin(subgroup_size)\n    size: u32,\n)",
        "(input: In, @builtin(subgroup_size) size: u32)",
        "(@builtin(subgroup_size) size: u32, input: In)",
        "(input: In)",
        "(input: In,)",
    ];
    for list in lists {
        let source = format!(
            "struct In {{ @builtin(global_invocation_id) id: vec3<u32> }}\n{head}\
             @compute\n@workgroup_size(64)\nfn main{list} {body}"
        );
        for target in WGSL_TARGETS {
            let l = link(&source, "p.wgsl", target, &LinkOptions::default())
                .unwrap_or_else(|e| panic!("{target} {list}:\n{e}"));
            assert_eq!(l.text.matches("ballot_init(").count(), 2, "{}", l.text);
            let params = l
                .text
                .split("fn main(")
                .nth(1)
                .unwrap()
                .split(") {")
                .next()
                .unwrap();
            let squeezed: String = params.split_whitespace().collect();
            assert!(
                !squeezed.contains(",,") && !squeezed.starts_with(','),
                "{params}"
            );
            let needed = if target == Target::WgslNoSubgroup {
                "@builtin(local_invocation_index)"
            } else {
                "@builtin(subgroup_size)"
            };
            assert_eq!(params.matches(needed).count(), 1, "{params}");
        }
    }
}

#[test]
fn a_two_dimensional_workgroup() {
    let source = "\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(8, 8, 1)
fn main(@builtin(local_invocation_index) i: u32) {
    out[i] = subgroupBallotBitCount(subgroupBallot(true));
}
";
    let l = linked(source, Target::WgslNoSubgroup);
    assert_eq!(l.workgroup_size, Some([8, 8, 1]));
    // naga refuses `@builtin(subgroup_invocation_id)` in a workgroup of
    // more than one dimension: the init ranks the lanes instead, whether
    // the size is literal or a constant naga evaluates.
    let by_constant = source
        .replace("@workgroup_size(8, 8, 1)", "@workgroup_size(W, W)")
        .replace("@group(0)", "const W = 8u;\n@group(0)");
    for target in [Target::Wgsl, Target::WgslWeb] {
        for shader in [source, by_constant.as_str()] {
            let l = linked(shader, target);
            assert!(
                l.text
                    .contains("ballot_init(ballot_entry_lane(), ballot_subgroup_size);"),
                "{target}:\n{}",
                l.text
            );
            assert!(
                !l.text.contains("ballot_subgroup_invocation_id"),
                "{}",
                l.text
            );
        }
    }
    // The shader's own `@builtin(subgroup_invocation_id)` there is its own
    // error, naga's, on the entry point.
    let own = source.replace(
        "@builtin(local_invocation_index) i: u32",
        "@builtin(local_invocation_index) i: u32, @builtin(subgroup_invocation_id) lane: u32",
    );
    for target in [Target::Wgsl, Target::WgslWeb] {
        let e = error(&own, target);
        assert_eq!(e.kind, LinkErrorKind::Invalid, "{target}: {e}");
        assert!(e.message.contains("multi dimensional"), "{target}: {e}");
        assert_eq!(e.location.expect("a location").line, 3, "{target}");
    }
    // A one-dimensional workgroup of the same size links.
    linked(&source.replace("(8, 8, 1)", "(64, 1, 1)"), Target::Wgsl);
}

#[test]
fn prefixed_user_names_push_the_prefix_on() {
    let source = format!(
        "const ballot_x = 1u;\nconst ballot1_y = 2u;\nconst ballot2z = 3u;\n{}",
        FOUR.replace("3u)", "ballot_x + ballot1_y + ballot2z)")
    );
    for target in WGSL_TARGETS {
        let l = linked(&source, target);
        assert!(
            l.functions.iter().all(|f| f.starts_with("ballot2_")),
            "{target}: {:?}",
            l.functions
        );
    }
}

#[test]
fn a_glsl_function_named_like_an_op_is_the_shaders() {
    let source = "\
#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { uint data[]; };
uint subgroupBallotBitCount(uint v) { return v; }
void main() {
    data[gl_LocalInvocationIndex] = subgroupBallotBitCount(1u) + subgroupBallotFindLSB(subgroupBallot(true));
}
";
    let l = glsl_linked(source, Target::GlslNoSubgroup);
    assert!(!l.ops.contains(&Op::BitCount));
    assert!(l.ops.contains(&Op::FindLsb));
    assert!(
        l.text.contains("= subgroupBallotBitCount(1u)"),
        "{}",
        l.text
    );
}

#[test]
fn wgsl_web_keeps_the_shaders_directives() {
    let own = format!("diagnostic(off, subgroup_uniformity);\n{FOUR}");
    let l = linked(&own, Target::WgslWeb);
    assert_eq!(
        l.text.matches("subgroup_uniformity").count(),
        1,
        "{}",
        l.text
    );
    // A severity of its own: no second, conflicting filter.
    let own = format!("diagnostic(warning, subgroup_uniformity);\n{FOUR}");
    let l = linked(&own, Target::WgslWeb);
    assert_eq!(
        l.text.matches("subgroup_uniformity").count(),
        1,
        "{}",
        l.text
    );
    // Other extensions stay, and the directives stay first.
    let f16 = format!("enable f16;\n{FOUR}");
    for target in WGSL_TARGETS {
        assert!(
            linked(&f16, target).text.contains("enable f16;"),
            "{target}"
        );
    }
    // `enable subgroups` in a list: not enabled twice on `wgsl-web`; on
    // naga's targets, the list loses that name only.
    for (list, rest) in [
        ("enable subgroups, f16;", "enable  f16;"),
        ("enable f16, subgroups;", "enable f16;"),
        ("enable f16,subgroups,;", "enable f16,;"),
    ] {
        let source = format!("{list}\n{FOUR}");
        let l = linked(&source, Target::WgslWeb);
        assert!(!l.text.contains("enable subgroups;"), "{}", l.text);
        assert!(l.text.contains(list), "{}", l.text);
        for target in [Target::Wgsl, Target::WgslNoSubgroup] {
            let l = linked(&source, target);
            assert!(l.text.starts_with(&format!("{rest}\n")), "{}", l.text);
        }
    }
    // `error` would fail the linked functions in Dawn: refused there,
    // at the directive.
    let own = format!("diagnostic(error, subgroup_uniformity);\n{FOUR}");
    let e = error(&own, Target::WgslWeb);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert_eq!(e.location.expect("a location").line, 1);
    linked(&own, Target::Wgsl);
}

#[test]
fn glsl_without_a_version_line() {
    // A shader without `#version` is GLSL 1.10 (GLSL 4.60, section 3.3),
    // which has no compute shaders (4.30 brought them) and which Vulkan
    // does not take (GL_KHR_vulkan_glsl: 1.40 or later): an error on the
    // user's first line.
    let source = GLSL.replace("#version 450\n", "");
    for target in [Target::Glsl, Target::GlslNoSubgroup] {
        let e = glsl_error(&source, target);
        assert_eq!(e.kind, LinkErrorKind::Invalid, "{target}: {e}");
        assert!(e.message.contains("#version 450"), "{target}: {e}");
        let at = e.location.expect("a location");
        assert_eq!((at.line, at.column), (1, 1), "{target}");
    }
}

#[test]
fn glsl_extension_enable_and_masks_as_values() {
    let source = "\
#version 450
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { uint data[]; };
void main() {
    uvec4 m = gl_SubgroupEqMask | (gl_SubgroupLtMask & subgroupBallot(true));
    bool e = subgroupElect();
    uint v = subgroupBroadcast(gl_SubgroupInvocationID, 0u) + subgroupBroadcastFirst(gl_SubgroupSize);
    data[gl_LocalInvocationIndex] = subgroupBallotBitCount(m) + (e ? 1u : 0u) + v;
}
";
    glsl_linked(source, Target::Glsl);
    let l = glsl_linked(source, Target::GlslNoSubgroup);
    assert!(!l.text.contains("#extension"), "{}", l.text);
    // The top of `main`, before anything can have returned: every
    // invocation is active, as written.
    assert!(
        l.text.contains("ballot_subgroupElect(ballot_active)"),
        "{}",
        l.text
    );
    assert!(
        l.text
            .contains("ballot_subgroupBroadcast(ballot_active, ballot_lane, 0u)"),
        "{}",
        l.text
    );
    assert!(l
        .text
        .contains("uvec4 m = ballot_subgroupEqMask() | (ballot_subgroupLtMask() & "));
}

#[test]
fn glsl_subgroup_builtins_alone_on_the_emulated_target() {
    let source = "\
#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { uint data[]; };
void main() {
    data[gl_LocalInvocationIndex] = gl_SubgroupInvocationID * 1000u + gl_SubgroupSize;
}
";
    let l = glsl_linked(source, Target::GlslNoSubgroup);
    assert!(!l.text.contains("gl_Subgroup"), "{}", l.text);
    let source = "\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(local_invocation_index) i: u32) {
    out[i] = lane;
}
";
    let l = linked(source, Target::WgslNoSubgroup);
    assert!(!l.text.contains("subgroup_invocation_id)"), "{}", l.text);
    assert!(
        l.text
            .contains("{\n    ballot_init(i);\n    let lane = ballot_lane;\n    out[i] = lane;"),
        "{}",
        l.text
    );
}

#[test]
fn glsl_define_lines() {
    // A macro that calls a ballot function: its call is linked too.
    let source = GLSL
        .replace(
            "void main() {",
            "#define COUNT(x) subgroupBallotBitCount(x)\n#define ballot_init 3\nvoid main() {",
        )
        .replace("uvec4(subgroupBallotBitCount(b),", "uvec4(COUNT(b),");
    glsl_linked(&source, Target::Glsl);
    let l = glsl_linked(&source, Target::GlslNoSubgroup);
    // The macro's name counts: the linker's names take the next prefix.
    assert!(
        l.functions.iter().all(|f| f.starts_with("ballot1_")),
        "{:?}",
        l.functions
    );
    assert!(l.ops.contains(&Op::BitCount));
    assert!(
        l.text
            .contains("#define COUNT(x) ballot1_subgroupBallotBitCount(x)\n"),
        "{}",
        l.text
    );
    // A macro named like an op is the shader's; a name in a directive
    // other than `#define` is left alone.
    let source = GLSL
        .replace(
            "void main() {",
            "#define subgroupBallotFindMSB(x) 7u\n#ifdef subgroupElect\n#endif\nvoid main() {",
        )
        .replace(
            "lane, gl_SubgroupSize",
            "lane + subgroupBallotFindMSB(b), gl_SubgroupSize",
        );
    let l = glsl_linked(&source, Target::GlslNoSubgroup);
    assert!(
        !l.ops.contains(&Op::FindMsb) && !l.ops.contains(&Op::Elect),
        "{:?}",
        l.ops
    );
    assert!(l.text.contains("+ subgroupBallotFindMSB(b)"), "{}", l.text);
}

#[test]
fn a_glsl_error_after_the_library_is_on_the_users_line() {
    let source = GLSL.replace("uint lane = gl_SubgroupInvocationID;", "uint lane = nope;");
    for target in [Target::Glsl, Target::GlslNoSubgroup] {
        let e = glsl_error(&source, target);
        assert_eq!(e.kind, LinkErrorKind::Invalid, "{target}: {e}");
        let at = e.location.clone().expect("a location");
        assert_eq!(at.line, 9, "{target}: {e}");
        assert_eq!(at.column, 17, "{target}: {e}");
        assert_eq!(at.line_text, "    uint lane = nope;");
    }
}

#[test]
fn a_collective_in_non_uniform_control_flow() {
    let source = "\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    if (out[i] == 0u) {
        out[i] = subgroupBallotBitCount(subgroupBallot(true));
    }
}
";
    // The branch is if-converted: every invocation makes the exchange,
    // with its activity, and only those in the branch store.
    let l = link(
        source,
        "p.wgsl",
        Target::WgslNoSubgroup,
        &LinkOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        l.text
            .contains("ballot_subgroupBallot(ballot_active, true)"),
        "{}",
        l.text
    );
    assert!(
        !l.text.contains("ballot_subgroupBallot(true, true)"),
        "{}",
        l.text
    );
    let glsl = "\
#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Out { uint data[]; };
void main() {
    if (data[gl_LocalInvocationIndex] == 0u) {
        data[gl_LocalInvocationIndex] = subgroupBallotBitCount(subgroupBallot(true));
    }
}
";
    let l = glsl_linked(glsl, Target::GlslNoSubgroup);
    assert!(
        l.text
            .contains("ballot_subgroupBallot(ballot_active, true)"),
        "{}",
        l.text
    );
}

#[test]
fn hostile_input() {
    for target in WGSL_TARGETS
        .into_iter()
        .chain([Target::Glsl, Target::GlslNoSubgroup])
    {
        let e = link("", "e", target, &LinkOptions::default()).unwrap_err();
        assert_eq!(e.kind, LinkErrorKind::Input, "{target}: {e}");
        let deep = format!(
            "fn f() -> u32 {{ return {}1u{}; }}\n{FOUR}",
            "(".repeat(100_000),
            ")".repeat(100_000)
        );
        let e = link(&deep, "d", target, &LinkOptions::default()).unwrap_err();
        assert_eq!(e.kind, LinkErrorKind::Input, "{target}: {e}");
    }
    // Directives cut short at the end of the file: naga's error, on the
    // user's text.
    for source in [
        "enable subgroups",
        "enable f16, subgroups",
        "diagnostic(error, subgroup_uniformity",
    ] {
        for target in WGSL_TARGETS {
            let e = link(source, "d", target, &LinkOptions::default()).unwrap_err();
            assert_eq!(e.kind, LinkErrorKind::Invalid, "{target}: {e}");
        }
    }
}

#[test]
fn non_ascii_identifiers_and_comments() {
    let source = FOUR
        .replace(
            "let b = ",
            "// ünïcödé — subgroupBallotFindMSB(b) ✓\n    let b = ",
        )
        .replace("out[id.x]", "let éx = 1u;\n    out[id.x + éx - 1u]");
    for target in WGSL_TARGETS {
        let l = linked(&source, target);
        assert!(!l.ops.contains(&Op::FindMsb));
    }
    // A user function whose name ends like an op, after a non-ASCII start.
    let source = format!(
        "fn ésubgroupBallotBitCount(v: vec4<u32>) -> u32 {{ return 5u; }}\n{}",
        FOUR.replace("subgroupBallotBitCount(b)", "ésubgroupBallotBitCount(b)")
    );
    for target in WGSL_TARGETS {
        let l = linked(&source, target);
        assert!(!l.ops.contains(&Op::BitCount), "{target}");
        assert!(l.text.contains("ésubgroupBallotBitCount(b)"), "{}", l.text);
    }
    // An error at a non-ASCII place: no panic, columns in characters.
    let source = FOUR.replace("let b = ", "let ü = é;\n    let b = ");
    for target in WGSL_TARGETS {
        let e = error(&source, target);
        assert_eq!(e.kind, LinkErrorKind::Invalid, "{e}");
        let at = e.location.clone().expect("a location");
        assert_eq!((at.line, at.column), (5, 13), "{e}");
        let _ = e.to_string();
    }
}

#[test]
fn invalid_subgroup_sizes_are_refused_on_emulated_targets() {
    for size in [0, 3, 256] {
        for target in [Target::WgslNoSubgroup, Target::Wgsl] {
            let e = link(
                FOUR,
                "f",
                target,
                &LinkOptions::default().subgroup_size(size),
            )
            .unwrap_err();
            assert_eq!(e.kind, LinkErrorKind::Options, "{size} {target}: {e}");
        }
        let e = link(
            GLSL,
            "k",
            Target::GlslNoSubgroup,
            &LinkOptions::default().subgroup_size(size),
        )
        .unwrap_err();
        assert_eq!(e.kind, LinkErrorKind::Options, "{size}: {e}");
    }
}

#[test]
fn a_shader_cut_short_is_the_users_error() {
    let cut = [
        FOUR.trim_end().strip_suffix('}').unwrap().to_string(),
        format!("{FOUR}const x = 1u"),
        format!("{FOUR}fn f("),
        format!("{FOUR}/* open"),
    ];
    for source in &cut {
        let lines = source.lines().count() as u32;
        for target in WGSL_TARGETS {
            let e = error(source, target);
            assert_eq!(e.kind, LinkErrorKind::Invalid, "{target}: {e}");
            let at = e.location.clone().expect("a location");
            assert!(at.line >= lines - 1, "{target}: {e}");
        }
    }
    let cut = GLSL.trim_end().strip_suffix('}').unwrap();
    for target in [Target::Glsl, Target::GlslNoSubgroup] {
        let e = glsl_error(cut, target);
        assert_eq!(e.kind, LinkErrorKind::Invalid, "{target}: {e}");
    }
}

#[test]
fn locations_are_whole_characters() {
    // A range inside a character (naga's one-byte spans): no panic, the
    // character, counted once.
    let at = locate("let é = 1;\nx", 5..6, String::new());
    assert_eq!((at.line, at.column, at.length), (1, 5, 1));
    let at = locate("ü", 1..1, String::new());
    assert_eq!((at.line, at.column, at.length), (1, 1, 1));
    // At the very end.
    let at = locate("a\nbc", 4..4, String::new());
    assert_eq!((at.line, at.column, at.length), (2, 3, 1));
}

// ------------------------------------------------------- issue 33's findings

thread_local! {
    /// How many times [`super::judge::judge`] ran on this thread.
    pub(super) static JUDGE_PASSES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// `link`'s validator passes for `source` on `target`, and its result.
fn passes(source: &str, target: Target) -> (u32, Result<Linked, LinkError>) {
    JUDGE_PASSES.with(|n| n.set(0));
    let result = link(source, "p", target, &LinkOptions::default());
    (JUDGE_PASSES.with(|n| n.get()), result)
}

#[test]
fn a_literal_workgroup_size_is_linked_and_validated_once() {
    // The emulated targets read a literal size with the lexer: one pass,
    // as on the hardware targets, so that linking costs what naga's
    // validation of the output costs.
    for target in Target::ALL {
        let source = match target.language() {
            Language::Wgsl => FOUR,
            Language::Glsl => GLSL,
        };
        let (n, linked) = passes(source, target);
        let linked = linked.unwrap_or_else(|e| panic!("{target}: {e}"));
        assert_eq!(n, 1, "{target}");
        if !target.has_subgroups() {
            assert_eq!(linked.workgroup_size, Some([64, 1, 1]), "{target}");
        }
    }
    // Every literal spelling, read as naga reads it.
    for (size, expected) in [
        ("(64)", [64, 1, 1]),
        ("(64u, 2i)", [64, 2, 1]),
        ("(0x10, 2, 2,)", [16, 2, 2]),
    ] {
        let source = FOUR.replace("(64)", size);
        let (n, linked) = passes(&source, Target::WgslNoSubgroup);
        let linked = linked.unwrap_or_else(|e| panic!("{size}: {e}"));
        assert_eq!((n, linked.workgroup_size), (1, Some(expected)), "{size}");
    }
    let source = GLSL.replace("local_size_x = 64", "local_size_x = 16, local_size_z = 4");
    let (n, linked) = passes(&source, Target::GlslNoSubgroup);
    assert_eq!((n, linked.unwrap().workgroup_size), (1, Some([16, 1, 4])));
    // A size naga must evaluate takes the second pass, at naga's size.
    let source = format!("const WG = 32u;\n{}", FOUR.replace("(64)", "(WG * 2u)"));
    let (n, linked) = passes(&source, Target::WgslNoSubgroup);
    assert_eq!((n, linked.unwrap().workgroup_size), (2, Some([64, 1, 1])));
    // A literal that a macro redefines: naga's module says otherwise, and
    // its size wins.
    let source = GLSL.replace(
        "layout(local_size_x = 64) in;",
        "#define local_size_x local_size_y\nlayout(local_size_x = 64) in;",
    );
    let (n, linked) = passes(&source, Target::GlslNoSubgroup);
    let linked = linked.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((n, linked.workgroup_size), (2, Some([1, 64, 1])));
}

#[test]
fn ballot_calls_without_an_entry_point_are_refused_on_every_target() {
    // A library of functions: `ballot_init` would never run. Line 3,
    // column 12 is the first call.
    let wgsl = "\
// Helpers for another shader.
fn count(v: bool) -> u32 {
    return subgroupBallotBitCount(subgroupBallot(v));
}
";
    let glsl = "\
#version 450
uint count(bool v) {
    return subgroupBallotBitCount(subgroupBallot(v));
}
";
    for target in Target::ALL {
        let source = match target.language() {
            Language::Wgsl => wgsl,
            Language::Glsl => glsl,
        };
        let e = error(source, target);
        assert_eq!(e.kind, LinkErrorKind::Unsupported, "{target}: {e}");
        assert!(e.message.contains("no entry point"), "{target}: {e}");
        assert!(e.message.contains("link the whole shader"), "{target}: {e}");
        let at = e.location.clone().expect("at the first call");
        assert_eq!((at.line, at.column), (3, 12), "{target}: {e}");
        assert_eq!(at.length, "subgroupBallotBitCount".len() as u32);
    }
    // A GLSL file that reads a subgroup built-in, alone.
    let builtin = "#version 450\nuint lane() {\n    return gl_SubgroupInvocationID;\n}\n";
    for target in [Target::Glsl, Target::GlslNoSubgroup] {
        let e = error(builtin, target);
        assert_eq!(e.kind, LinkErrorKind::Unsupported, "{target}: {e}");
        let at = e.location.clone().expect("at the built-in");
        assert_eq!((at.line, at.column), (3, 12), "{target}: {e}");
    }
    // A fragment shader has an entry point; and a file with no ballot
    // call needs none.
    let fragment = format!(
        "{wgsl}@fragment\nfn fs() -> @location(0) vec4<f32> {{ return vec4<f32>(1.0); }}\n"
    );
    linked(&fragment, Target::Wgsl);
    linked("fn one() -> u32 { return 1u; }\n", Target::Wgsl);
}

#[test]
fn naga_notes_are_kept() {
    // 210 nested parentheses: under `check`'s bracket limit, over the
    // WGSL parser's recursion limit, which naga says in a note.
    let source = format!(
        "fn f() -> u32 {{ return {}1u{}; }}\n{FOUR}",
        "(".repeat(210),
        ")".repeat(210)
    );
    for target in WGSL_TARGETS {
        let e = error(&source, target);
        assert_eq!(e.kind, LinkErrorKind::Invalid, "{target}: {e}");
        let shown = e.to_string();
        assert!(
            shown.ends_with("= note: Parser recursion limit exceeded"),
            "{target}: {shown}"
        );
    }
}

#[test]
fn a_leading_byte_order_mark_is_dropped() {
    let bom = '\u{feff}';
    for target in WGSL_TARGETS {
        let l = linked(&format!("{bom}{FOUR}"), target);
        assert_eq!(l.text, linked(FOUR, target).text, "{target}");
    }
    for target in [Target::Glsl, Target::GlslNoSubgroup] {
        let l = glsl_linked(&format!("{bom}{GLSL}"), target);
        assert_eq!(l.text, glsl_linked(GLSL, target).text, "{target}");
        // An error's place is the one an editor shows, the mark unseen.
        let bad = GLSL.replace("uint lane = gl_SubgroupInvocationID;", "uint lane = nope;");
        let e = glsl_error(&format!("{bom}{bad}"), target);
        assert_eq!(e.kind, LinkErrorKind::Invalid, "{target}: {e}");
        let at = e.location.clone().expect("a location");
        assert_eq!((at.line, at.column), (9, 17), "{target}: {e}");
        assert_eq!(at.line_text, "    uint lane = nope;");
    }
    // On the first line too.
    let e = error(&format!("{bom}fn f( {{}}\n{FOUR}"), Target::Wgsl);
    let at = e.location.clone().expect("a location");
    assert_eq!(at.line, 1, "{e}");
    assert_eq!(at.line_text, "fn f( {}", "{e}");
}

#[test]
fn lines_end_at_cr_lf_lf_and_a_lone_cr() {
    // Line 5 is `    let x: u32 = nothing;`: `nothing` at column 18.
    let wgsl = FOUR.replace("    let b = ", "    let x: u32 = nothing;\n    let b = ");
    // Line 9 is `    uint lane = nope;`: `nope` at column 17.
    let glsl = GLSL.replace("uint lane = gl_SubgroupInvocationID;", "uint lane = nope;");
    for end in ["\n", "\r\n", "\r"] {
        let source = wgsl.replace('\n', end);
        for target in WGSL_TARGETS {
            let e = error(&source, target);
            assert_eq!(e.kind, LinkErrorKind::Invalid, "{end:?} {target}: {e}");
            let at = e.location.clone().expect("a location");
            assert_eq!((at.line, at.column), (5, 18), "{end:?} {target}: {e}");
            assert_eq!(at.line_text, "    let x: u32 = nothing;", "{end:?}");
            assert!(e.to_string().contains("5 |     let x: u32 = nothing;\n"));
        }
        let source = glsl.replace('\n', end);
        for target in [Target::Glsl, Target::GlslNoSubgroup] {
            let e = glsl_error(&source, target);
            assert_eq!(e.kind, LinkErrorKind::Invalid, "{end:?} {target}: {e}");
            let at = e.location.clone().expect("a location");
            assert_eq!((at.line, at.column), (9, 17), "{end:?} {target}: {e}");
            assert_eq!(at.line_text, "    uint lane = nope;", "{end:?}");
        }
        // And the file links: its `#` lines and `//` comments end there.
        let source = format!("{}// a comment\n", GLSL).replace('\n', end);
        let l = glsl_linked(&source, Target::GlslNoSubgroup);
        assert!(!l.text.contains("#extension GL_KHR"), "{end:?}");
        assert!(l.text.contains("ballot_init(gl_LocalInvocationIndex);"));
    }
    // Mixed, as a file edited on two systems: a lone `\r`, then `\r\n`.
    let at = locate("a\rb\r\nc\nd e", 9..10, String::new());
    assert_eq!((at.line, at.column, at.line_text.as_str()), (4, 3, "d e"));
}

#[test]
fn a_workgroup_too_large_is_the_files_fault_not_an_options() {
    let wgsl = FOUR.replace("(64)", "(512)");
    let e = error(&wgsl, Target::WgslNoSubgroup);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("512 invocations"), "{e}");
    assert_eq!(e.location.clone().expect("at the entry point").line, 4);
    let glsl = GLSL.replace("local_size_x = 64", "local_size_x = 32, local_size_y = 32");
    let e = glsl_error(&glsl, Target::GlslNoSubgroup);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("1024 invocations"), "{e}");
    // A subgroup larger than the workgroup is the option's to change.
    let e = link(
        &FOUR.replace("(64)", "(16)"),
        "f",
        Target::WgslNoSubgroup,
        &LinkOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, LinkErrorKind::Options, "{e}");
}

#[test]
fn what_the_device_offers_beside_subgroups_passes_through() {
    // f16, f64, immediates (push constants), 64-bit integers: the target
    // says only whether subgroups exist, so each links on every WGSL
    // target and its text reaches the output unchanged.
    let shader = |head: &str, decl: &str, body: &str| {
        format!(
            "{head}\n@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n{decl}\n\
             @compute @workgroup_size(64)\n\
             fn main(@builtin(global_invocation_id) id: vec3<u32>) {{\n\
             {body}\n    out[id.x] = subgroupBallotBitCount(subgroupBallot((id.x & 1u) == 1u));\n}}\n"
        )
    };
    let cases = [
        shader(
            "enable f16;",
            "",
            "    let h = f16(id.x) * 0.5h;\n    out[0] = u32(h);",
        ),
        shader("", "", "    let d: f64 = 2.0lf;\n    out[0] = u32(d);"),
        shader(
            "",
            "struct P { n: u32 }\nvar<immediate> p: P;",
            "    if id.x >= p.n { return; }",
        ),
        shader(
            "",
            "",
            "    let w = u64(id.x) << 40u;\n    out[0] = u32(w >> 40u);",
        ),
    ];
    for source in &cases {
        for target in WGSL_TARGETS {
            let l = link(source, "device.wgsl", target, &LinkOptions::default())
                .unwrap_or_else(|e| panic!("{target}: {e}\n{source}"));
            // The declarations reach every target as written; the body
            // on the hardware ones (the emulated ones if-convert it).
            let kept = source.lines().filter(|line| {
                line.starts_with("enable")
                    || line.starts_with("var<")
                    || (target.has_subgroups() && line.starts_with("    let"))
            });
            for line in kept {
                assert!(
                    l.text.contains(line),
                    "{target}: no {line:?} in\n{}",
                    l.text
                );
            }
        }
    }
    // The subgroup capability stays the target's: `subgroupAdd`, which no
    // emulation covers, is refused on `wgsl-no-subgroup`.
    let add = FOUR.replace(
        "subgroupBallotBitCount(b),",
        "subgroupBallotBitCount(b) + subgroupAdd(1u),",
    );
    linked(&add, Target::Wgsl);
    let e = error(&add, Target::WgslNoSubgroup);
    assert_ne!(e.kind, LinkErrorKind::Bug, "{e}");
}

/// A fragment shader counting the lanes whose pixel is lit: WGSL has
/// subgroups in fragment shaders.
const FRAGMENT: &str = "\
@fragment
fn fs(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let lit = subgroupBallot(at.x > 8.0);
    return vec4<f32>(f32(subgroupBallotBitCount(lit)), f32(subgroupBallotExclusiveBitCount(lit)), 0.0, 1.0);
}
";

#[test]
fn a_fragment_entry_point_sets_up_the_lane_state_on_hardware() {
    // Without the init the linked counts would read lane state never
    // written (zero), silently: every entry point that can reach a linked
    // function starts with it.
    for target in [Target::Wgsl, Target::WgslWeb] {
        let l = linked(FRAGMENT, target);
        let entry = &l.text[l.text.find("fn fs(").expect("the entry point")..];
        let body = &entry[entry.find('{').unwrap()..];
        assert!(
            body.trim_start_matches('{')
                .trim_start()
                .starts_with("ballot_init(ballot_subgroup_invocation_id, ballot_subgroup_size);"),
            "{target}:\n{}",
            l.text
        );
        assert!(entry.contains("@builtin(subgroup_size) ballot_subgroup_size: u32"));
    }
    // With a compute entry point beside it, both are set up.
    let both = format!("{FRAGMENT}{FOUR}");
    let l = linked(&both, Target::Wgsl);
    assert_eq!(
        l.text.matches("ballot_init(ballot_").count(),
        2,
        "{}",
        l.text
    );
}

#[test]
fn the_emulation_refuses_a_fragment_entry_point_at_its_name() {
    // Workgroup memory exists in compute shaders only: naga would say
    // "forbidden at this stage" of the linked code.
    let e = error(FRAGMENT, Target::WgslNoSubgroup);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("`fs` is a fragment entry point"), "{e}");
    let at = e.location.expect("at the entry point");
    assert_eq!((at.line, at.column, at.length), (2, 4, 2));
    // GLSL: the stage is the file's.
    let frag = "#version 450\n#extension GL_KHR_shader_subgroup_ballot : enable\n\
                layout(location = 0) out vec4 color;\n\
                void main() {\n    uvec4 b = subgroupBallot(gl_FragCoord.x > 8.0);\n    \
                color = vec4(float(subgroupBallotBitCount(b)));\n}\n";
    link(frag, "lit.frag", Target::Glsl, &LinkOptions::default()).expect("glsl takes it");
    let e = link(
        frag,
        "lit.frag",
        Target::GlslNoSubgroup,
        &LinkOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("`frag` shader"), "{e}");
    assert_eq!(e.location.expect("at the first call").line, 5);
}

/// The subgroup built-ins as members of the entry point's input struct.
const IN_STRUCT: &str = "\
struct In {
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) size: u32,
}
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(input: In) {
    let b = subgroupBallot((input.id.x & 1u) == 1u);
    out[input.id.x] = subgroupBallotExclusiveBitCount(b) * 1000u + input.lane * 10u + input.size;
}
";

#[test]
fn subgroup_built_ins_in_an_entry_points_struct() {
    // Hardware: the init reads the struct's members; a second
    // `@builtin(subgroup_invocation_id)` would be invalid WGSL.
    for target in [Target::Wgsl, Target::WgslWeb] {
        let l = linked(IN_STRUCT, target);
        assert!(
            l.text.contains("ballot_init(input.lane, input.size);"),
            "{target}:\n{}",
            l.text
        );
        assert!(
            !l.text.contains("ballot_subgroup_invocation_id:"),
            "{}",
            l.text
        );
    }
    // Emulated: the members are the emulation's; the reads become its
    // values, and the struct keeps the rest.
    let l = linked(IN_STRUCT, Target::WgslNoSubgroup);
    assert!(!l.text.contains("@builtin(subgroup_"), "{}", l.text);
    assert!(l
        .text
        .contains("@builtin(global_invocation_id) id: vec3<u32>,"));
    assert!(
        !l.text.contains("input.lane") && !l.text.contains("input.size"),
        "{}",
        l.text
    );
    // A struct that would be left empty is refused, at its member.
    let only = IN_STRUCT
        .replace("    @builtin(global_invocation_id) id: vec3<u32>,\n", "")
        .replace(
            "fn main(input: In) {",
            "fn main(input: In, @builtin(global_invocation_id) gid: vec3<u32>) {",
        )
        .replace("input.id", "gid");
    linked(&only, Target::Wgsl);
    let e = error(&only, Target::WgslNoSubgroup);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert_eq!(e.location.expect("at the member").line, 2, "{}", e.message);
}

#[test]
fn a_call_with_the_wrong_number_of_arguments_is_counted_as_written() {
    // The emulation adds an argument to each collective: the validator's
    // count ("Requires 2 arguments, but 1 are provided") would be the
    // linked call's, not the user's.
    let cases = [
        (
            "subgroupBallot((id.x & 1u) == 1u)",
            "subgroupBallot()",
            "takes 1 argument, and is given no argument",
        ),
        (
            "subgroupBallot((id.x & 1u) == 1u)",
            "subgroupBallot(true, false)",
            "takes 1 argument, and is given 2 arguments",
        ),
        (
            "subgroupBallotBitExtract(b, 3u)",
            "subgroupBallotBitExtract(b)",
            "takes 2 arguments, and is given 1 argument",
        ),
    ];
    for (good, bad, said) in cases {
        let source = FOUR.replace(good, bad);
        for target in WGSL_TARGETS {
            let e = error(&source, target);
            assert_eq!(e.kind, LinkErrorKind::Invalid, "{target}: {e}");
            assert!(e.message.contains(said), "{target}: {e}");
            let at = e.location.clone().expect("at the call");
            let line = source.lines().position(|l| l.contains(bad)).unwrap() + 1;
            assert_eq!(at.line as usize, line, "{target}: {e}");
            assert_eq!(at.length as usize, bad.len(), "{target}: {e}");
        }
    }
    // A trailing comma is WGSL; nested calls count once.
    let trailing = FOUR.replace(
        "subgroupBallotBitExtract(b, 3u)",
        "subgroupBallotBitExtract(b, min(3u, 4u),)",
    );
    for target in WGSL_TARGETS {
        linked(&trailing, target);
    }
}

#[test]
fn a_subgroup_function_without_an_emulation_is_refused_at_the_call() {
    for (name, call) in [
        ("subgroupAdd", "subgroupAdd(1u)"),
        ("subgroupShuffle", "subgroupShuffle(id.x, 1u)"),
        ("quadSwapX", "quadSwapX(id.x)"),
    ] {
        let source = FOUR.replace("subgroupBallotFindLSB(b)", call);
        linked(&source, Target::Wgsl);
        let e = error(&source, Target::WgslNoSubgroup);
        assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
        assert!(
            e.message
                .starts_with(&format!("`{name}` has no emulation on `wgsl-no-subgroup`")),
            "{e}"
        );
        let at = e.location.clone().expect("at the call");
        assert_eq!(
            (at.line, at.column, at.length as usize),
            (7, 9, name.len()),
            "{e}"
        );
    }
    let glsl = GLSL.replace("uint lane = gl_SubgroupInvocationID;", "uint lane = subgroupAdd(1u);").replace(
        "#extension GL_KHR_shader_subgroup_ballot : require",
        "#extension GL_KHR_shader_subgroup_ballot : require\n#extension GL_KHR_shader_subgroup_arithmetic : require",
    );
    link(&glsl, "k.comp", Target::Glsl, &LinkOptions::default()).expect("glsl has it");
    let e = glsl_error(&glsl, Target::GlslNoSubgroup);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("`subgroupAdd` has no emulation"), "{e}");
}

#[test]
fn wgsl_subgroup_id_and_count_become_the_emulations() {
    // Virtual subgroup k of a workgroup holds the local indices
    // [k·V, (k+1)·V) (DESIGN.md, the emulated targets): its id is the
    // index over V, and a workgroup of W has ceil(W / V) of them.
    let source = "\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(48)
fn main(@builtin(local_invocation_index) index: u32,
        @builtin(subgroup_id) sid: u32,
        @builtin(num_subgroups) count: u32) {
    out[index] = sid * 100u + count;
}
";
    let l = link(
        source,
        "ids.wgsl",
        Target::WgslNoSubgroup,
        &LinkOptions::default().subgroup_size(32),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(!l.text.contains("@builtin(subgroup_id)"), "{}", l.text);
    assert!(
        l.text
            .contains("let sid = (ballot_index / ballot_subgroup_size);"),
        "{}",
        l.text
    );
    assert!(
        l.text.contains(
            "let count = ((ballot_workgroup_size + ballot_subgroup_size - 1u) / ballot_subgroup_size);"
        ),
        "{}",
        l.text
    );
    assert!(
        l.text.contains("const ballot_workgroup_size: u32 = 48u;"),
        "{}",
        l.text
    );
    // The hardware targets keep WGSL's own.
    assert!(linked(source, Target::Wgsl)
        .text
        .contains("@builtin(subgroup_id) sid: u32"));
}

#[test]
fn wgsl_broadcasts_are_linked_for_their_types() {
    // naga reads each broadcast's type in the shader linked for `wgsl`;
    // the emulated call is named for it. f16 goes through f32, exactly.
    let source = "\
enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    const lane = 2i;
    let h = subgroupBroadcast(vec3<f16>(f16(i), 1.5h, 2.0h), lane);
    let s = subgroupBroadcastFirst(-i32(i));
    let u = subgroupBroadcast(i, 1u);
    out[i] = u32(h.y) + u32(s) + u;
}
";
    let l = linked(source, Target::WgslNoSubgroup);
    for call in [
        "ballot_subgroupBroadcast_vec3f16(ballot_active, vec3<f16>(f16(i), 1.5h, 2.0h), u32(lane))",
        "ballot_subgroupBroadcastFirst_i32(ballot_active, -i32(i))",
        "ballot_subgroupBroadcast(ballot_active, i, u32(1u))",
    ] {
        assert!(l.text.contains(call), "no {call} in\n{}", l.text);
    }
    assert_eq!(
        l.text
            .matches("fn ballot_subgroupBroadcast_vec3f16(")
            .count(),
        1
    );
    // The hardware targets keep the calls as written.
    assert!(linked(&source.replace("2i", "2u"), Target::Wgsl)
        .text
        .contains("subgroupBroadcast(vec3<f16>(f16(i), 1.5h, 2.0h), lane)"));
    // A type the exchange has no words for is refused at the call.
    let wide = source.replace(
        "subgroupBroadcastFirst(-i32(i))",
        "i32(subgroupBroadcastFirst(u64(i)))",
    );
    let e = error(&wide, Target::WgslNoSubgroup);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("of a `u64`"), "{e}");
    assert_eq!(e.location.clone().expect("at the call").line, 7, "{e}");
}

/// An include resolver over files in memory.
struct Memory(&'static [(&'static str, &'static str)]);

impl Includes for Memory {
    fn include(&self, name: &str, _: bool, _: &str) -> Result<(String, String), String> {
        self.0
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(n, t)| (format!("inc/{n}"), t.to_string()))
            .ok_or_else(|| format!("no `{name}`"))
    }
}

#[test]
fn glsl_includes_are_linked_and_their_errors_are_theirs() {
    let main = "\
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_ballot : enable
#include \"count.glsl\"
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
    data[gl_LocalInvocationIndex] = kept(gl_LocalInvocationIndex % 3u == 0u);
}
";
    // The included function calls ballot functions: they are linked, and
    // the emulation converts it.
    let good = Memory(&[(
        "count.glsl",
        "#pragma once\nuint kept(bool p) {\n    return subgroupBallotBitCount(subgroupBallot(p));\n}\n",
    )]);
    for target in [Target::Glsl, Target::GlslNoSubgroup] {
        let l = link_with(main, "k.comp", target, &LinkOptions::default(), &good)
            .unwrap_or_else(|e| panic!("{target}: {e}"));
        assert_eq!(l.includes, ["inc/count.glsl"]);
        assert!(!l.text.contains("#include"), "{}", l.text);
        if target == Target::GlslNoSubgroup {
            assert!(
                l.text.contains("ballot_subgroupBallotBitCount("),
                "{}",
                l.text
            );
        }
    }
    // glslang's error on the included file's line 3 is there, with the
    // line that included it.
    let bad = Memory(&[(
        "count.glsl",
        "uint kept(bool p) {\n    uint n = 0u;\n    return subgroupBallotBitCount(p);\n}\n",
    )]);
    for target in [Target::Glsl, Target::GlslNoSubgroup] {
        let e = link_with(main, "k.comp", target, &LinkOptions::default(), &bad).unwrap_err();
        assert_eq!(e.path, "inc/count.glsl", "{target}: {e}");
        let at = e.location.clone().expect("a location");
        assert_eq!(at.line, 3, "{target}: {e}");
        assert!(
            at.line_text.contains("subgroupBallotBitCount(p)"),
            "{target}: {e}"
        );
        assert!(
            e.notes.iter().any(|n| n == "included from k.comp:4"),
            "{target}: {e}"
        );
    }
    // Without a resolver, and with a file it lacks: an error at the
    // directive, naming what to give.
    let e = link(main, "k.comp", Target::Glsl, &LinkOptions::default()).unwrap_err();
    assert_eq!(e.kind, LinkErrorKind::Input, "{e}");
    assert!(
        e.message.contains("no include directories were given"),
        "{e}"
    );
    assert_eq!(e.location.expect("at the directive").line, 4);
    let none = Memory(&[]);
    let e = link_with(main, "k.comp", Target::Glsl, &LinkOptions::default(), &none).unwrap_err();
    assert_eq!(
        (e.path.as_str(), e.message.as_str()),
        ("k.comp", "no `count.glsl`")
    );
}
