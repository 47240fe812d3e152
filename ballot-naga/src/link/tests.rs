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
        for op in Op::BALLOT {
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

/// An overridable size: on `wgsl-no-subgroup` the exchange memory's sizes
/// are overrides of the entry point's `@workgroup_size` arguments, the
/// invocation count declared under the library's prefix. (The runs at
/// several sizes are `ballot-runner/tests/linked/overridden.rs`.)
#[test]
fn an_overridable_workgroup_size_sizes_the_exchange_by_overrides() {
    let source = format!(
        "override W: u32 = 64u;\n{}",
        FOUR.replace("@workgroup_size(64)", "@workgroup_size(W, 1)")
    );
    let l = linked(&source, Target::WgslNoSubgroup);
    assert_eq!(l.workgroup_size, None, "the size is the pipeline's");
    for line in [
        "override ballot_workgroup_size: u32 = u32(W) * u32(1);",
        "override ballot_padded_size: u32 = (ballot_workgroup_size + 31u) / 32u * 32u;",
        "override ballot_slot_stride: u32 = 3u * ballot_exchange_words;",
        "const ballot_subgroup_size: u32 = 32u;",
    ] {
        assert!(l.text.contains(line), "no `{line}` in\n{}", l.text);
    }
    // The shader's own names are kept where the library's are renamed.
    let clash = source
        .replace("let b =", "let ballot_b =")
        .replace("(b", "(ballot_b");
    let clash = clash
        .replace("override W:", "override ballot_w:")
        .replace("(W,", "(ballot_w,");
    let l = linked(&clash, Target::WgslNoSubgroup);
    assert!(
        l.text
            .contains("override ballot1_workgroup_size: u32 = u32(ballot_w) * u32(1);"),
        "{}",
        l.text
    );
    // Hardware subgroups need no size.
    linked(&source, Target::Wgsl);
}

#[test]
fn entry_points_of_different_overridable_sizes_are_refused() {
    let two = format!(
        "override W: u32 = 64u;\noverride V: u32 = 32u;\n{}\n\
         @compute @workgroup_size(V)\nfn other() {{}}\n",
        FOUR.replace("@workgroup_size(64)", "@workgroup_size(W)")
    );
    let e = error(&two, Target::WgslNoSubgroup);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("do not all spell the same"), "{e}");
    // One overridable and one fixed: naga's reading differs.
    let mixed = two.replace("@workgroup_size(V)", "@workgroup_size(32)");
    let e = error(&mixed, Target::WgslNoSubgroup);
    assert!(e.message.contains("different workgroup sizes"), "{e}");
    // The same spelling serves both.
    let same = two.replace("@workgroup_size(V)", "@workgroup_size( W )");
    assert_eq!(linked(&same, Target::WgslNoSubgroup).workgroup_size, None);
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
    std::fs::write(&large, vec![b' '; ballot_ir::source::MAX_SOURCE_BYTES + 1]).unwrap();
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
    crate::valid::glslang(VULKAN_GLSL, ballot_shader::back::Form::ComputeShader)
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
    crate::valid::glslang(&l.text, ballot_shader::back::Form::ComputeShader)
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

/// For Vulkan 1.3 (SPIR-V 1.6) glslang writes a constant workgroup size as
/// `LocalSizeId` of constants: the size is that constant, not the
/// pipeline's (vk_tessellated_clusters builds so, its size a macro).
#[test]
fn a_constant_size_for_vulkan_1_3_is_read_as_the_constant() {
    if !glslang_here("a Vulkan 1.3 workgroup, judged by glslang") {
        return;
    }
    let options = LinkOptions::default().vulkan(crate::valid::VulkanVersion::V1_3);
    let l = link(VULKAN_GLSL, "k.comp", Target::GlslNoSubgroup, &options)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.workgroup_size, Some([64, 1, 1]));
    assert!(
        l.text.contains("const uint ballot_workgroup_size = 64u;"),
        "{}",
        l.text
    );
    // A specialised one stays the pipeline's.
    let specialised = VULKAN_GLSL.replace(
        "layout(local_size_x = WG) in;",
        "layout(local_size_x_id = 0) in;",
    );
    let l = link(&specialised, "k.comp", Target::GlslNoSubgroup, &options)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(l.workgroup_size, None);
}

/// `local_size_x_id`: on `glsl-no-subgroup` the exchange memory is sized
/// by expressions of `gl_WorkGroupSize`, which glslang reads as the layout
/// declared so far, so the library repeats the layout line before them.
/// (The runs at several sizes are `ballot-runner/tests/linked/specialised.rs`.)
#[test]
fn a_specialised_workgroup_sizes_the_exchange_after_its_layout() {
    if !glslang_here("a specialised GLSL workgroup") {
        return;
    }
    let layout = "layout(local_size_x_id = 0) in;";
    let source = VULKAN_GLSL.replace("layout(local_size_x = WG) in;", layout);
    glsl_linked(&source, Target::Glsl);
    let l = glsl_linked(&source, Target::GlslNoSubgroup);
    assert_eq!(l.workgroup_size, None);
    let size = "const uint ballot_workgroup_size = \
                gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;";
    let (Some(at_layout), Some(at_size)) = (l.text.find(layout), l.text.find(size)) else {
        panic!("no layout line or no specialised size in\n{}", l.text);
    };
    assert!(at_layout < at_size, "{}", l.text);
    assert_eq!(l.text.matches(layout).count(), 2, "{}", l.text);
    // A fixed size stays a literal, and the library right after `#version`.
    let fixed = glsl_linked(VULKAN_GLSL, Target::GlslNoSubgroup);
    assert!(fixed
        .text
        .contains("const uint ballot_workgroup_size = 64u;"));
    assert!(fixed.text.find("ballot_workgroup_size") < fixed.text.find("layout(local_size_x"));
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

thread_local! {
    /// How many times [`super::judge::judge`] ran on this thread.
    pub(super) static JUDGE_PASSES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

mod clustered;
mod hardening;
mod hostile;
mod real_glsl;
