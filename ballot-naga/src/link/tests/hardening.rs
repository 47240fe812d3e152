//! Shaders at the edges of the languages: comments, members named like
//! ops, entry points of every shape, workgroups of every dimension.

use super::*;

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
    // Of different sizes, each sets its own invocation count first, and
    // the exchange memory is laid out for the largest.
    let other = TWO.replacen("@workgroup_size(64)", "@workgroup_size(32)", 1);
    linked(&other, Target::Wgsl);
    let l = linked(&other, Target::WgslNoSubgroup);
    assert_eq!(l.workgroup_size, None);
    assert!(
        l.text.contains("var<private> ballot_workgroup_size: u32;"),
        "{}",
        l.text
    );
    assert!(
        l.text.contains("const ballot_padded_size: u32 = 64u;"),
        "{}",
        l.text
    );
    for count in [
        "ballot_workgroup_size = 32u; ballot_init(",
        "ballot_workgroup_size = 64u; ballot_init(",
    ] {
        let compact = l.text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(compact.contains(count), "no `{count}` in\n{}", l.text);
    }
    // Past the emulation's 256 invocations in one of them: refused, and
    // named.
    let large = TWO.replacen("@workgroup_size(64)", "@workgroup_size(512)", 1);
    let e = error(&large, Target::WgslNoSubgroup);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("512x1x1 has 512 invocations"), "{e}");
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
    // more than one dimension: for `wgsl`, the init ranks the lanes
    // instead, whether the size is literal or a constant naga evaluates.
    // Browsers take it, so `wgsl-web` reads it.
    let by_constant = source
        .replace("@workgroup_size(8, 8, 1)", "@workgroup_size(W, W)")
        .replace("@group(0)", "const W = 8u;\n@group(0)");
    for shader in [source, by_constant.as_str()] {
        let web = linked(shader, Target::WgslWeb);
        assert!(
            web.text
                .contains("ballot_init(ballot_subgroup_invocation_id, ballot_subgroup_size);"),
            "{}",
            web.text
        );
    }
    for target in [Target::Wgsl] {
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
    // The shader's own `@builtin(subgroup_invocation_id)` there is naga's
    // error, on the entry point, for `wgsl`, which naga and wgpu judge;
    // WGSL and the browsers take it, so `wgsl-web` keeps it.
    let own = source.replace(
        "@builtin(local_invocation_index) i: u32",
        "@builtin(local_invocation_index) i: u32, @builtin(subgroup_invocation_id) lane: u32",
    );
    let e = error(&own, Target::Wgsl);
    assert_eq!(e.kind, LinkErrorKind::Invalid, "{e}");
    assert!(e.message.contains("multi dimensional"), "{e}");
    assert!(e.notes.iter().any(|n| n.contains("naga's own")), "{e}");
    assert_eq!(e.location.expect("a location").line, 3);
    let web = linked(&own, Target::WgslWeb);
    assert!(
        web.text
            .contains("@builtin(subgroup_invocation_id) lane: u32"),
        "{}",
        web.text
    );
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
    // invocation is active, and the text stays as written.
    assert!(l.text.contains("ballot_subgroupElect(true)"), "{}", l.text);
    assert!(
        l.text
            .contains("ballot_subgroupBroadcast(true, ballot_lane, 0u)"),
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
