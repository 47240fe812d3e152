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
fn a_builtin_in_a_struct_is_refused_where_it_is() {
    let source = "\
struct In {
    @builtin(subgroup_size) size: u32,
}
@compute @workgroup_size(32)
fn main(input: In) {
    let x = subgroupBallotBitCount(subgroupEqMask()) + input.size;
}
";
    let e = error(source, Target::Wgsl);
    assert_eq!(e.kind, LinkErrorKind::Unsupported);
    assert_eq!(e.location.expect("a location").line, 2);
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
