//! Hostile and degenerate inputs: one validator pass where the size is
//! literal, no shader linked without an entry point, bounded reads.

use super::*;

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
    // GLSL's emulation serves Vulkan's usual 1,024.
    let glsl = GLSL.replace("local_size_x = 64", "local_size_x = 64, local_size_y = 32");
    let e = glsl_error(&glsl, Target::GlslNoSubgroup);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("2048 invocations"), "{e}");
    assert!(e.message.contains("1 to 1024"), "{e}");
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
    // The rest of the family is the target's on the hardware ones, and
    // linked on `wgsl-no-subgroup`.
    let add = FOUR.replace(
        "subgroupBallotBitCount(b),",
        "subgroupBallotBitCount(b) + subgroupAdd(1u),",
    );
    assert!(linked(&add, Target::Wgsl).text.contains("subgroupAdd(1u)"));
    let emulated = linked(&add, Target::WgslNoSubgroup);
    assert!(emulated.text.contains("ballot_subgroupAdd_u32("));
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
    // A struct that would be left empty keeps a built-in the entry point
    // does not read (an empty struct is no WGSL).
    let only = IN_STRUCT
        .replace("    @builtin(global_invocation_id) id: vec3<u32>,\n", "")
        .replace(
            "fn main(input: In) {",
            "fn main(input: In, @builtin(global_invocation_id) gid: vec3<u32>) {",
        )
        .replace("input.id", "gid");
    linked(&only, Target::Wgsl);
    let l = linked(&only, Target::WgslNoSubgroup);
    assert!(
        l.text
            .contains("struct In {\n    @builtin(num_workgroups) ballot_unused: vec3<u32>,\n}"),
        "{}",
        l.text
    );
    // Where the entry point reads every such built-in itself, it is
    // refused, at the struct's member.
    let all = only.replace(
        "@builtin(global_invocation_id) gid: vec3<u32>) {",
        "@builtin(global_invocation_id) gid: vec3<u32>, \
         @builtin(num_workgroups) n: vec3<u32>, @builtin(workgroup_id) w: vec3<u32>, \
         @builtin(local_invocation_id) l: vec3<u32>) {",
    );
    linked(&all, Target::Wgsl);
    let e = error(&all, Target::WgslNoSubgroup);
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
            // naga reads `subgroupBallot()` as `subgroupBallot(true)`
            // (`naga_s_ballot_without_its_predicate_is_ballot_of_true`).
            if bad == "subgroupBallot()" && target != Target::WgslWeb {
                continue;
            }
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

/// naga's WGSL front end takes `subgroupBallot()` as the ballot of
/// `true`; the WGSL spec, and Tint, want the predicate. The targets naga
/// reads link it as naga reads it, and `wgsl-web` says how to write it.
#[test]
fn naga_s_ballot_without_its_predicate_is_ballot_of_true() {
    let good = "subgroupBallot((id.x & 1u) == 1u)";
    let without = FOUR.replace(good, "subgroupBallot()");
    let with_true = FOUR.replace(good, "subgroupBallot(true)");
    for target in [Target::Wgsl, Target::WgslNoSubgroup] {
        // The same text but for the call as written, which on `wgsl`
        // stays WGSL's own.
        let a = linked(&without, target).text;
        let b = linked(&with_true, target).text;
        assert_eq!(
            a.replace("subgroupBallot()", "subgroupBallot(true)"),
            b,
            "{target}"
        );
    }
    let e = error(&without, Target::WgslWeb);
    assert!(e.message.contains("write `subgroupBallot(true)`"), "{e}");
}

#[test]
fn a_subgroup_function_without_an_emulation_is_refused_at_the_call() {
    // A name of the family's shape that no extension has.
    let name = "subgroupAddClustered";
    let source = FOUR.replace(
        "let b = subgroupBallot",
        "subgroupAddClustered(1u);\n    let b = subgroupBallot",
    );
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
        (5, 5, name.len()),
        "{e}"
    );
    // GLSL's partitioned operations (GL_NV_shader_subgroup_partitioned).
    // The clustered reductions, refused here before, are linked
    // (`tests::clustered`).
    let glsl = GLSL.replace("uint lane = gl_SubgroupInvocationID;", "uint lane = subgroupPartitionedAddNV(1u, subgroupPartitionNV(2u));").replace(
        "#extension GL_KHR_shader_subgroup_ballot : require",
        "#extension GL_KHR_shader_subgroup_ballot : require\n#extension GL_NV_shader_subgroup_partitioned : require",
    );
    link(&glsl, "k.comp", Target::Glsl, &LinkOptions::default()).expect("glsl has it");
    let e = glsl_error(&glsl, Target::GlslNoSubgroup);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(
        e.message
            .contains("`subgroupPartitionedAddNV` has no emulation"),
        "{e}"
    );
}

#[test]
fn the_rest_of_the_family_is_linked_for_its_types_on_wgsl_no_subgroup() {
    // One WGSL name, the operation its value's type picks; each call's
    // function named for that type, and written once.
    let source = "\
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    let a = subgroupAdd(i) + subgroupAdd(i + 1u);
    let f = subgroupExclusiveAdd(f32(i));
    let m = subgroupMin(vec2<i32>(i32(i), -1));
    let x = subgroupShuffleXor(vec4<f32>(f32(i)), 1u);
    let s = subgroupShuffle(i, 3i);
    let q = quadBroadcast(vec3<u32>(i), 2i);
    let v = subgroupAll(i < 8u);
    let w = subgroupAny(i == 3u);
    out[i] = a + u32(f) + u32(m.y) + u32(x.w) + s + q.z + u32(v && w) + quadSwapY(i);
}
";
    let l = linked(source, Target::WgslNoSubgroup);
    for call in [
        "ballot_subgroupAdd_u32(true, i)",
        "ballot_subgroupExclusiveAdd_f32(true, f32(i))",
        "ballot_subgroupMin_vec2i32(true, vec2<i32>(i32(i), -1))",
        "ballot_subgroupShuffleXor_vec4f32(true, vec4<f32>(f32(i)), 1u)",
        "ballot_subgroupShuffle_u32(true, i, u32(3i))",
        "ballot_subgroupQuadBroadcast_vec3u32(true, vec3<u32>(i), u32(2i))",
        "ballot_subgroupAll(true, i < 8u)",
        "ballot_subgroupQuadSwapVertical_u32(true, i)",
    ] {
        assert!(l.text.contains(call), "no {call} in\n{}", l.text);
    }
    assert_eq!(l.text.matches("fn ballot_subgroupAdd_u32(").count(), 1);
    // The operations, as the types picked them.
    use ballot_ir::op::{ArithOp, Quad, Scan};
    for op in [
        Op::Arith(ArithOp::IAdd, Scan::Reduce),
        Op::Arith(ArithOp::FAdd, Scan::Exclusive),
        Op::Arith(ArithOp::SMin, Scan::Reduce),
        Op::ShuffleXor,
        Op::Shuffle,
        Op::QuadBroadcast,
        Op::QuadSwap(Quad::Vertical),
        Op::All,
        Op::Any,
    ] {
        assert!(l.ops.contains(&op), "{op:?} not in {:?}", l.ops);
    }
    assert!(!l.ops.contains(&Op::Arith(ArithOp::UMin, Scan::Reduce)));
    // A collective in a short circuit's right operand runs in every
    // invocation, with the activity of those the circuit lets through.
    let short = source.replace(
        "let v = subgroupAll(i < 8u);\n    let w = subgroupAny(i == 3u);",
        "let v = true;\n    let w = (i > 2u) && subgroupAny(i == 3u);",
    );
    let l = linked(&short, Target::WgslNoSubgroup);
    assert!(
        l.text
            .contains("if (ballot_active) { ballot_taken0 = ((i > 2u)); }"),
        "{}",
        l.text
    );
    assert!(
        l.text
            .contains("ballot_subgroupAny(ballot_outer1, i == 3u)"),
        "{}",
        l.text
    );
    // Under two short circuits, it is refused, under the name the shader
    // calls it by.
    let short = source.replace(
        "let v = subgroupAll(i < 8u);\n    let w = subgroupAny(i == 3u);",
        "let v = true;\n    let w = (i > 2u) && (i < 9u || subgroupAny(i == 3u));",
    );
    let e = error(&short, Target::WgslNoSubgroup);
    assert!(
        e.message
            .starts_with("`subgroupAny` is evaluated only where"),
        "{e}"
    );
    assert_eq!(e.location.clone().expect("at the call").line, 11, "{e}");
    // The hardware targets keep WGSL's own, with the lanes as naga
    // takes them.
    let hardware = linked(source, Target::Wgsl);
    assert!(hardware.ops.is_empty(), "{:?}", hardware.ops);
    assert!(hardware
        .text
        .contains("quadBroadcast(vec3<u32>(i), u32(2i))"));
    // f16 arithmetic has functions of its own, which round each step to
    // f16 as a driver does (`ballot-runner/tests/linked/halves.rs` runs
    // them), where the f32 helpers would round once.
    let half = format!(
        "enable f16;\n{}",
        source.replace(
            "subgroupExclusiveAdd(f32(i))",
            "f32(subgroupExclusiveAdd(f16(i)))"
        )
    );
    let l = linked(&half, Target::WgslNoSubgroup);
    assert!(
        l.text
            .contains("fn ballot_subgroupExclusiveAdd_f16(on: bool, value: f16) -> f16"),
        "{}",
        l.text
    );
    assert!(l.text.contains("fn ballot_arith_f16("), "{}", l.text);
}

#[test]
fn subgroup_barriers_become_the_workgroups_on_the_emulated_targets() {
    // In divergent code too: every invocation reaches the linked barrier,
    // as it reaches every exchange.
    let source = FOUR.replace(
        "let b = subgroupBallot",
        "if (id.x > 3u) { subgroupBarrier(); }\n    let b = subgroupBallot",
    );
    assert!(linked(&source, Target::Wgsl)
        .text
        .contains("subgroupBarrier();"));
    // naga's function, not WGSL's: Dawn's Tint says "unresolved call
    // target 'subgroupBarrier'", so `wgsl-web` refuses it at the call.
    let e = error(&source, Target::WgslWeb);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("naga's, not WGSL's"), "{e}");
    let at = e.location.clone().expect("at the call");
    assert_eq!((at.line, at.column), (5, 22), "{e}");
    let l = linked(&source, Target::WgslNoSubgroup);
    assert!(
        l.text.contains("ballot_subgroupBarrier(ballot_active)"),
        "{}",
        l.text
    );
    assert!(!l.text.contains(" subgroupBarrier("), "{}", l.text);
    let glsl = GLSL.replace(
        "uint lane = gl_SubgroupInvocationID;",
        "uint lane = gl_SubgroupInvocationID;\n    if (lane > 2u) { subgroupBarrier(); subgroupMemoryBarrierShared(); }",
    );
    link(&glsl, "k.comp", Target::Glsl, &LinkOptions::default()).expect("glsl has it");
    let l = link(
        &glsl,
        "k.comp",
        Target::GlslNoSubgroup,
        &LinkOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        l.text.contains("ballot_subgroupBarrier(ballot_active)"),
        "{}",
        l.text
    );
    assert!(l.text.contains("memoryBarrierShared()"), "{}", l.text);
    assert!(
        !l.text.contains("subgroupMemoryBarrierShared"),
        "{}",
        l.text
    );
    // It takes no argument.
    let e = error(
        &source.replace("subgroupBarrier()", "subgroupBarrier(1u)"),
        Target::WgslNoSubgroup,
    );
    assert!(e.message.contains("takes no argument"), "{e}");
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
        "ballot_subgroupBroadcast_vec3f16(true, vec3<f16>(f16(i), 1.5h, 2.0h), u32(lane))",
        "ballot_subgroupBroadcastFirst_i32(true, -i32(i))",
        "ballot_subgroupBroadcast(true, i, u32(1u))",
    ] {
        assert!(l.text.contains(call), "no {call} in\n{}", l.text);
    }
    assert_eq!(
        l.text
            .matches("fn ballot_subgroupBroadcast_vec3f16(")
            .count(),
        1
    );
    // The hardware targets keep the calls, with the `i32` lane that WGSL
    // takes and naga does not as a `u32`.
    assert!(linked(source, Target::Wgsl)
        .text
        .contains("subgroupBroadcast(vec3<f16>(f16(i), 1.5h, 2.0h), u32(lane))"));
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

/// A GLSL macro whose body calls a collective is expanded where it is
/// called on `glsl-no-subgroup` (`link::macros`), so that its collective
/// is linked and if-converted there, whatever else the body does; the
/// definition goes. On hardware every one is glslang's.
#[test]
fn a_macro_that_calls_a_collective_is_expanded_where_called_emulated() {
    if !glslang_here("macros around collectives, judged by glslang") {
        return;
    }
    let shader = |define: &str, call: &str| {
        format!(
            "#version 450\n#extension GL_KHR_shader_subgroup_shuffle : require\n\
             layout(local_size_x = 64) in;\n\
             layout(std430, binding = 0) buffer Out {{ uint words[]; }};\n{define}\n\
             void main() {{\n    uint i = gl_LocalInvocationIndex;\n    \
             if (i >= 45u) {{ return; }}\n    words[i] = {call};\n}}\n"
        )
    };
    // Each macro, and the linked call it makes of `S(i, 1u)`, spaces
    // left out: the C preprocessor's substitution of the arguments.
    let cases = [
        (
            "#define S(v, m) subgroupShuffleXor(v, m)",
            "ballot_subgroupShuffleXor(ballot_active,uint(i),1u)",
        ),
        (
            "#define S(v,m)   subgroupShuffleXor( v , m )",
            "ballot_subgroupShuffleXor(ballot_active,uint(i),1u)",
        ),
        (
            "#define S(v, m) \\\n    subgroupShuffleXor(v, m)",
            "ballot_subgroupShuffleXor(ballot_active,uint(i),1u)",
        ),
        (
            "#define S(v, m) subgroupShuffleXor(m, v)",
            "ballot_subgroupShuffleXor(ballot_active,1u,i)",
        ),
        (
            "#define S(v, m) subgroupShuffleXor(v, v)",
            "ballot_subgroupShuffleXor(ballot_active,uint(i),i)",
        ),
        (
            "#define S(v, m) subgroupShuffleXor(v + 0u, m)",
            "ballot_subgroupShuffleXor(ballot_active,uint(i+0u),1u)",
        ),
        (
            "#define S(v, m) (subgroupShuffleXor(v, m))",
            "ballot_subgroupShuffleXor(ballot_active,uint(i),1u)",
        ),
        (
            "#define S(v, m) subgroupShuffleXor(v, m) + 0u",
            "ballot_subgroupShuffleXor(ballot_active,uint(i),1u)",
        ),
        // Through another macro.
        (
            "#define R(v, m) subgroupShuffleXor(v, m)\n#define S(v, m) R(v, m)",
            "ballot_subgroupShuffleXor(ballot_active,uint(i),1u)",
        ),
    ];
    for (define, call) in cases {
        let l = glsl_linked(&shader(define, "S(i, 1u)"), Target::GlslNoSubgroup);
        let compact: String = l.text.split_whitespace().collect();
        assert!(compact.contains(call), "{define}:\n{}", l.text);
        // Its definition goes: the emulated text names no subgroup
        // function.
        assert!(!l.text.contains("#define"), "{define}:\n{}", l.text);
        assert!(
            !l.text.contains(" subgroupShuffleXor("),
            "{define}:\n{}",
            l.text
        );
        glsl_linked(&shader(define, "S(i, 1u)"), Target::Glsl);
    }
    // Object-like, a space before the parenthesis: its expansion is no
    // GLSL (`(v, m) subgroupShuffleXor(v, m)(i, 1u)`), an error on the
    // call's line on either target: glslang's on hardware; on the
    // emulated one the linker's, which cannot type the undeclared `v`.
    let object = shader("#define S (v, m) subgroupShuffleXor(v, m)", "S(i, 1u)");
    for target in [Target::GlslNoSubgroup, Target::Glsl] {
        let e = glsl_error(&object, target);
        assert_eq!(
            e.location.as_ref().map(|l| l.line),
            Some(9),
            "{target}: {e}"
        );
    }
    assert_eq!(
        glsl_error(&object, Target::Glsl).kind,
        LinkErrorKind::Invalid
    );
}

/// A macro that stands for a GL_EXT_control_flow_attributes attribute, or
/// for nothing, before a loop (`UNROLL for (…)`, as ggml's shaders write
/// it with `-DUNROLL=[[unroll]]`) is a hint to the if-conversion, as the
/// attribute is; a macro that stands for code there is not read.
#[test]
fn a_macro_standing_for_an_attribute_before_a_loop_is_a_hint() {
    if !glslang_here("attribute macros, judged by glslang") {
        return;
    }
    let shader = |define: &str| {
        format!(
            "#version 450\n#extension GL_EXT_control_flow_attributes : enable\n\
             #extension GL_KHR_shader_subgroup_ballot : require\n{define}\n\
             layout(local_size_x = 64) in;\n\
             layout(std430, binding = 0) buffer Out {{ uint words[]; }};\n\
             void main() {{\n    uint i = gl_LocalInvocationIndex;\n    \
             if (i >= 45u) {{ return; }}\n    uint n = 0u;\n    \
             UNROLL for (uint k = 0u; k < i % 3u; ++k) {{\n        \
             n += subgroupBallotBitCount(subgroupBallot(true));\n    }}\n    \
             words[i] = n;\n}}\n"
        )
    };
    for define in [
        "#define UNROLL [[unroll]]",
        "#define UNROLL",
        "#define UNROLL  [[dont_unroll]] ",
    ] {
        let l = glsl_linked(&shader(define), Target::GlslNoSubgroup);
        assert!(
            l.text.contains("ballot_subgroupBallot(ballot_active"),
            "{}",
            l.text
        );
    }
    // From the command line's `-D`, written after `#version`.
    let options = LinkOptions::default().define("UNROLL", "[[unroll]]");
    link(&shader(""), "k.comp", Target::GlslNoSubgroup, &options)
        .unwrap_or_else(|e| panic!("-D UNROLL: {e}"));
    // A macro that stands for code is no hint: its statement is not read.
    let e = glsl_error(
        &shader("#define UNROLL if (i < 40u)"),
        Target::GlslNoSubgroup,
    );
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
}

/// A function body the if-conversion cannot read (here a macro used as a
/// statement, without `;`, as ggml's `flash_attn_dequant.glsl` writes
/// them) is left as written where it reaches no collective, and refused,
/// at what could not be read, where it does.
#[test]
fn a_body_the_pass_cannot_read_is_left_as_written_unless_it_reaches_a_collective() {
    if !glslang_here("unread bodies, judged by glslang") {
        return;
    }
    let shader = |main_body: &str| {
        format!(
            "#version 450\n#extension GL_KHR_shader_subgroup_arithmetic : enable\n\
             layout(local_size_x = 64) in;\n\
             layout(std430, binding = 0) buffer B {{ float d[]; }};\n\
             #define LOAD(i) {{ return d[i]; }}\n\
             float load(uint k) {{\n    switch (k) {{\n        case 0u: LOAD(0)\n        \
             case 1u: LOAD(1)\n    }}\n    return 0.0;\n}}\n\
             void main() {{\n{main_body}\n}}\n"
        )
    };
    let read = "    uint i = gl_LocalInvocationIndex;\n    if (i >= 45u) { return; }\n    \
                d[i] = subgroupAdd(load(i & 1u));";
    let l = glsl_linked(&shader(read), Target::GlslNoSubgroup);
    assert!(
        l.text.contains(
            "    switch (k) {\n        case 0u: LOAD(0)\n        case 1u: LOAD(1)\n    }"
        ),
        "{}",
        l.text
    );
    assert!(
        l.text.contains("ballot_subgroupAdd(ballot_active"),
        "{}",
        l.text
    );
    // The same statement in a function that reaches a collective.
    let unread = shader(
        "    uint i = gl_LocalInvocationIndex;\n    if (i >= 45u) { return; }\n    \
         switch (i) {\n        case 0u: LOAD(0)\n    }\n    d[i] = subgroupAdd(d[i]);",
    )
    .replace("{ return d[i]; }", "{ d[i] = 1.0; }");
    let e = glsl_error(&unread, Target::GlslNoSubgroup);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("cannot read this one"), "{e}");
    // Where the reader stopped: the `}` on the line after the macro's
    // statement in `main`.
    let lines: Vec<&str> = unread.lines().collect();
    let line = lines.iter().rposition(|l| l.ends_with("LOAD(0)")).unwrap() + 2;
    assert_eq!(
        e.location.as_ref().map(|l| l.line as usize),
        Some(line),
        "{e}"
    );
}

/// Overloads of one name with different return types: a call kept in a
/// temporary takes the type of the overloads of its argument count where
/// they agree (Granite's `volumetric_diffuse.h` overloads by count), and is
/// refused where overloads of that count differ.
#[test]
fn an_overload_the_argument_count_picks_gives_its_return_type() {
    if !glslang_here("overloads, judged by glslang") {
        return;
    }
    let shader = |second: &str| {
        format!(
            "#version 450\n#extension GL_KHR_shader_subgroup_arithmetic : enable\n\
             layout(local_size_x = 64) in;\n\
             layout(std430, binding = 0) buffer B {{ vec4 d[]; }};\n\
             vec4 f(int i, vec3 p) {{ return vec4(p, float(i)); }}\n{second}\n\
             vec3 f(vec3 p) {{\n    vec4 acc = vec4(0.0);\n    if (p.x > 0.0) {{\n        \
             acc += f(1, p);\n    }}\n    return subgroupAdd(acc).xyz;\n}}\n\
             void main() {{\n    d[gl_LocalInvocationID.x].xyz = f(d[gl_LocalInvocationID.x].xyz);\n}}\n"
        )
    };
    let l = glsl_linked(&shader(""), Target::GlslNoSubgroup);
    assert!(
        l.text.contains("vec4 ballot_t1 = f(ballot_active, 1, p);"),
        "{}",
        l.text
    );
    // Another overload of two arguments, returning another type: the
    // arguments' types pick, which glslang's tree tells.
    let l = glsl_linked(
        &shader("float f(float i, vec3 p) { return i; }"),
        Target::GlslNoSubgroup,
    );
    assert!(
        l.text.contains("vec4 ballot_t1 = f(ballot_active, 1, p);"),
        "{}",
        l.text
    );
}

/// A Vulkan version is GLSL's: set for a WGSL target it is an option
/// error naming it, not silently passed over.
#[test]
fn a_vulkan_version_for_wgsl_is_an_option_error() {
    let options = LinkOptions::default().vulkan(VulkanVersion::V1_2);
    for target in WGSL_TARGETS {
        let e = link(FOUR, "f.wgsl", target, &options).expect_err("WGSL takes no Vulkan version");
        assert_eq!(e.kind, LinkErrorKind::Options, "{target}: {e}");
        assert!(e.message.contains("`vulkan` is for GLSL"), "{target}: {e}");
    }
    // The default is no choice of the caller's.
    linked(FOUR, Target::Wgsl);
}

#[test]
fn a_stray_bracket_in_a_collective_s_call_is_the_validator_s_error_at_its_line() {
    // A `]` that closes nothing inside the call's parentheses: the call is
    // read as cut short, and the validator names the line, on every
    // target, rather than the argument scan stepping below depth zero.
    let glsl = "#version 450
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint d[]; };
void main() {
    uint i = gl_LocalInvocationIndex;
    d[i] = subgroupBallotBitCount(s] == subgroupBallot(true));
}
";
    let wgsl = "@group(0) @binding(0) var<storage, read_write> d: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    d[i] = subgroupBroadcast(i], 0u);
}
";
    for target in Target::ALL {
        let (source, line) = match target.language() {
            Language::Glsl => (glsl, 7),
            Language::Wgsl => (wgsl, 4),
        };
        let e = link(source, "s", target, &LinkOptions::default())
            .expect_err("a stray bracket is an error");
        assert_eq!(e.kind, LinkErrorKind::Invalid, "{target}: {e}");
        assert_eq!(e.location.map(|l| l.line), Some(line), "{target}");
    }
}

#[test]
fn a_struct_no_entry_point_takes_keeps_its_built_ins_out_of_the_way() {
    // gridwise declares structs of built-ins that not every kernel takes.
    // One that no entry point takes is nobody's input: it links, and on
    // the emulated target its subgroup built-ins become plain members (the
    // attribute alone would need subgroups); one taken through an alias is
    // an input the linker cannot name, refused at the built-in.
    let source = "struct Idle { @builtin(local_invocation_index) lidx: u32, @builtin(subgroup_invocation_id) sgid: u32 }
struct Taken { @builtin(local_invocation_index) lidx: u32 }
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(64)
fn main(b: Taken) {
    o[b.lidx] = subgroupAdd(1u);
}
";
    for target in [Target::Wgsl, Target::WgslWeb, Target::WgslNoSubgroup] {
        let l = link(source, "s.wgsl", target, &LinkOptions::default())
            .unwrap_or_else(|e| panic!("{target}: {e}"));
        let idle = l
            .text
            .lines()
            .find(|l| l.starts_with("struct Idle"))
            .expect("kept");
        assert!(
            idle.contains("lidx: u32") && idle.contains("sgid: u32"),
            "{idle}"
        );
        assert_eq!(
            idle.contains("@builtin(subgroup_invocation_id)"),
            target.has_subgroups(),
            "{target}: {idle}"
        );
    }
    let aliased = source
        .replace("struct Taken", "alias Taken = Idle;\nstruct Other")
        .replace("@builtin(local_invocation_index) lidx: u32 }", "x: u32 }");
    let e = link(
        &aliased,
        "s.wgsl",
        Target::WgslNoSubgroup,
        &LinkOptions::default(),
    )
    .expect_err("an aliased input is refused");
    assert!(e.message.contains("the linker reads `@builtin("), "{e}");
    assert_eq!(e.location.as_ref().map(|l| l.line), Some(1), "{e}");
}

#[test]
fn a_statement_s_diagnostic_attribute_is_the_browser_s_or_goes() {
    // gridwise turns `subgroup_uniformity` off around its subgroup calls.
    // naga reads no `@diagnostic` on a statement: `wgsl` (naga's) refuses
    // it at the attribute, `wgsl-web` keeps it for the browser, and
    // `wgsl-no-subgroup`, which leaves no subgroup operation for it to
    // govern, drops it.
    let source = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    @diagnostic(off, subgroup_uniformity)
    if (i < 32u) {
        o[i] = subgroupAdd(1u);
    }
}
";
    let e =
        link(source, "d.wgsl", Target::Wgsl, &LinkOptions::default()).expect_err("naga refuses it");
    assert_eq!(e.location.as_ref().map(|l| l.line), Some(4), "{e}");
    let web = link(source, "d.wgsl", Target::WgslWeb, &LinkOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(web
        .text
        .contains("    @diagnostic(off, subgroup_uniformity)\n    if (i < 32u)"));
    let emulated = link(
        source,
        "d.wgsl",
        Target::WgslNoSubgroup,
        &LinkOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(!emulated.text.contains("@diagnostic"), "{}", emulated.text);
}

#[test]
fn a_type_naga_cannot_give_is_refused_with_naga_s_reason() {
    // gridwise passes a `ptr<workgroup>` to a function, which browsers take
    // and naga does not: naga gives no types for the shader, and the
    // untyped `let` the pass must declare apart is refused with naga's
    // words, at the parameter, not with a request for a type.
    let source = "var<workgroup> tmp: array<u32, 64>;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
fn reduce(p: ptr<workgroup, array<u32, 64>>, i: u32) -> u32 { (*p)[i] = i; return (*p)[0]; }
fn side(i: u32) -> u32 { o[i] = 1u; return i; }
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    if (i > 40u) { return; }
    let s = subgroupAdd(side(i)) + reduce(&tmp, i);
    o[i] = s;
}
";
    // A generic call (`subgroupAdd`, whose type picks its function), and
    // a ballot alone.
    let ballot = source.replace("subgroupAdd(side(i))", "subgroupBallot(side(i) > 2u).x");
    for source in [source, &ballot] {
        let e = link(
            source,
            "p.wgsl",
            Target::WgslNoSubgroup,
            &LinkOptions::default(),
        )
        .expect_err("naga refuses the pointer");
        assert!(e.message.contains("pointer of space WorkGroup"), "{e}");
        assert_eq!(e.location.as_ref().map(|l| l.line), Some(3), "{e}");
    }
}

/// An OpenGL compute shader: a plain uniform and a sampler without a
/// binding, which GLSL for Vulkan refuses (GL_KHR_vulkan_glsl) and
/// OpenGL's GLSL takes (LWJGL's demos are written so).
const OPENGL_COMP: &str = "#version 430 core
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
uniform float scale;
uniform sampler2D img;
layout(std430, binding = 0) buffer B { float d[]; };
void main() {
    float x = d[gl_LocalInvocationIndex] + texelFetch(img, ivec2(0), 0).x;
    d[gl_LocalInvocationIndex] = subgroupAdd(x) * scale;
}
";

#[test]
fn an_opengl_shader_links_for_opengl_and_vulkan_s_refusal_says_how() {
    if !glslang_here("OpenGL GLSL") {
        return;
    }
    for target in [Target::Glsl, Target::GlslNoSubgroup] {
        let e = link(OPENGL_COMP, "gl.comp", target, &LinkOptions::default()).unwrap_err();
        assert_eq!(e.kind, LinkErrorKind::Invalid, "{target}: {e}");
        assert_eq!(
            e.location.as_ref().expect("a line").line,
            4,
            "{target}: {e}"
        );
        assert!(
            e.notes.iter().any(|n| n.contains("--opengl")),
            "{target}: {e}"
        );
        let gl = link(
            OPENGL_COMP,
            "gl.comp",
            target,
            &LinkOptions::default().opengl(),
        )
        .unwrap_or_else(|e| panic!("{target}: {e}"));
        assert!(gl.text.contains("uniform float scale;"), "{}", gl.text);
    }
    // The emulation sizes its exchange from glslang's tree, as OpenGL has
    // no SPIR-V: 64 invocations.
    let emulated = link(
        OPENGL_COMP,
        "gl.comp",
        Target::GlslNoSubgroup,
        &LinkOptions::default().opengl(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        emulated
            .text
            .contains("const uint ballot_workgroup_size = 64u;"),
        "{}",
        emulated.text
    );
    assert!(
        !emulated
            .text
            .replace("ballot_subgroupAdd", "")
            .contains("subgroupAdd("),
        "{}",
        emulated.text
    );
    // And OpenGL is GLSL's only.
    let e = link(
        FOUR,
        "f.wgsl",
        Target::Wgsl,
        &LinkOptions::default().opengl(),
    )
    .unwrap_err();
    assert_eq!(e.kind, LinkErrorKind::Options, "{e}");
    assert!(e.message.contains("`opengl` is for GLSL"), "{e}");
}

/// A shader that links nothing on an emulated target (its subgroup code in
/// a branch of the preprocessor the build does not compile, or none) needs
/// no workgroup, and passes whatever its stage; compiled in, a fragment
/// shader's subgroup call is refused for its stage, at the call.
#[test]
fn a_shader_that_links_nothing_passes_on_the_emulated_targets_whatever_its_stage() {
    if !glslang_here("a fragment shader that links nothing") {
        return;
    }
    let fragment = "#version 450
#if USE_QUAD
#extension GL_KHR_shader_subgroup_quad : require
#endif
layout(location = 0) in float v;
layout(location = 0) out vec4 c;
void main() {
#if USE_QUAD
    c = vec4(subgroupQuadBroadcast(v, 0u));
#else
    c = vec4(v);
#endif
}
";
    let plain = link(
        fragment,
        "f.frag",
        Target::GlslNoSubgroup,
        &LinkOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(plain.text.contains("c = vec4(v);"), "{}", plain.text);
    assert!(
        !plain.text.contains("subgroupQuadBroadcast"),
        "{}",
        plain.text
    );
    let options = LinkOptions::default().define("USE_QUAD", "1");
    let e = link(fragment, "f.frag", Target::GlslNoSubgroup, &options).unwrap_err();
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("`frag` shader"), "{e}");
    assert_eq!(e.location.expect("a line").line, 9);
    let wgsl = "@fragment\nfn main(@location(0) v: f32) -> @location(0) vec4<f32> {\n    \
                return vec4<f32>(v);\n}\n";
    let l = link(
        wgsl,
        "f.wgsl",
        Target::WgslNoSubgroup,
        &LinkOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(l.text.contains("return vec4<f32>(v);"), "{}", l.text);
}

/// DESIGN.md: on the emulated targets a collective's result is the one
/// hardware gives, and the shader neither hangs nor reads what it would
/// not. Every invocation makes the exchange, so an operand that indexes,
/// divides or calls (a read past the end of a buffer once the invocation
/// has returned, a loop that ends only for the values its branch lets in)
/// is evaluated only where the invocation is active, in GLSL, whose
/// conditional expression evaluates one arm.
#[test]
fn an_operand_that_reads_or_calls_is_evaluated_only_where_active() {
    let glsl = |body: &str| {
        format!(
            "#version 450\n#extension GL_KHR_shader_subgroup_arithmetic : require\n\
             #extension GL_KHR_shader_subgroup_shuffle : require\n\
             #extension GL_KHR_shader_subgroup_ballot : require\n\
             #extension GL_KHR_shader_subgroup_vote : require\n\
             layout(local_size_x = 64) in;\n\
             layout(std430, binding = 0) buffer B {{ uint n; uint data[]; }};\n\
             layout(std430, binding = 1) buffer L {{ int lanes[]; }};\n\
             uint steps(uint v) {{ uint s = 0u; while (v != 1u) {{ v /= 2u; s++; }} return s; }}\n\
             uint red(uint v, const in vec2 w, out uint o) {{ o = v; return subgroupAdd(v) + uint(w.x); }}\n\
             uint sum4(uint a[4], mat2 m) {{ return subgroupAdd(a[0] + a[3] + uint(m[1][0])); }}\n\
             uint over(uint v) {{ return subgroupAdd(v); }}\n\
             float over(float v) {{ return subgroupMax(v); }}\n\
             void main() {{\n  uint i = gl_GlobalInvocationID.x, y = 0u, o = 0u;\n\
             {body}\n  data[i] = y;\n}}\n"
        )
    };
    let cases = [
        // After an early return: the read past `n`.
        (
            "  if (i >= n) { return; }\n  y = subgroupAdd(data[i]);",
            "ballot_subgroupAdd(ballot_active,(ballot_active?(uint(data[i])):uint(0)))",
        ),
        // A predicate, and a lane of another type (`int`).
        (
            "  if (i < n) { y = subgroupBallot(data[i] > 3u).x; }",
            "ballot_subgroupBallot(ballot_active,(ballot_active?(data[i]>3u):false))",
        ),
        (
            "  if (i < n) { y = subgroupShuffle(y, lanes[i]); }",
            "ballot_subgroupShuffle(ballot_active,uint(y),(ballot_active?uint(lanes[i]):0u))",
        ),
        // A function that ends only for the values its branch lets in.
        (
            "  if (data[i] != 0u) { y = subgroupAdd(steps(data[i])); }",
            "(ballot_active?(uint(steps(data[i]))):uint(0))",
        ),
        // The arguments of a converted call taken by value; the `out` one
        // as written.
        (
            "  if (i < n) { y = red(data[i], vec2(data[i / 2u]), o); }",
            "red(ballot_active,(ballot_active?(data[i]):uint(0)),\
             (ballot_active?(vec2(data[i/2u])):vec2(0)),o)",
        ),
        // A matrix takes the zero matrix; an array, which has no zero to
        // write, is passed as written.
        (
            "  if (i < n) { y = sum4(uint[4](data[i], 0u, 0u, 1u), mat2(data[i])); }",
            "sum4(ballot_active,uint[4](data[i],0u,0u,1u),(ballot_active?(mat2(data[i])):mat2(0)))",
        ),
        // Overloads of as many parameters: the type of the one called,
        // as glslang's tree places the call.
        (
            "  if (i < n) { y = over(data[i]) + uint(over(float(data[i]))); }",
            "over(ballot_active,(ballot_active?(data[i]):uint(0)));\
             floatballot_t2=over(ballot_active,(ballot_active?(float(data[i])):float(0)));",
        ),
        // What cannot go wrong anywhere is evaluated as written: a name,
        // a sum; and anything where every invocation is active.
        (
            "  if (i < n) { y = subgroupAdd(i + 1u); }",
            "ballot_subgroupAdd(ballot_active,uint(i+1u))",
        ),
        (
            "  y = subgroupAdd(data[i]);",
            "y=ballot_subgroupAdd(true,uint(data[i]));",
        ),
        // Under a short circuit: its flag.
        (
            "  if (i < n && subgroupAny(data[i] > 0u)) { y = 1u; }",
            "ballot_subgroupAny(ballot_outer1,(ballot_outer1?(data[i]>0u):false))",
        ),
    ];
    for (body, call) in cases {
        let l = glsl_linked(&glsl(body), Target::GlslNoSubgroup);
        let compact: String = l.text.split_whitespace().collect();
        assert!(compact.contains(call), "{body}: no {call} in\n{}", l.text);
        glsl_linked(&glsl(body), Target::Glsl);
    }
}

/// Without subgroups a collective's arguments are evaluated by every
/// invocation, and the collective before its statement: where what moves
/// writes anything, the emulated targets refuse it at the write, rather
/// than run it where the shader would not (found by probes of the
/// emulation). What writes nothing still links.
#[test]
fn an_effect_the_emulation_would_move_is_refused_at_it() {
    let glsl = |body: &str| {
        format!(
            "#version 450\n#extension GL_KHR_shader_subgroup_arithmetic : require\n\
             #extension GL_KHR_shader_subgroup_vote : require\n\
             layout(local_size_x = 64) in;\n\
             layout(std430, binding = 0) buffer B {{ uint data[]; }};\n\
             uint cnt = 0u;\n\
             uint tick(uint v) {{ cnt = cnt * 10u + v; return v; }}\n\
             uint twice(uint v) {{ uint w = v; w *= 2u; return w; }}\n\
             void inc(inout uint t) {{ t += 1u; }}\n\
             uint bumped(uint v) {{ uint t = v; inc(t); return t; }}\n\
             shared uint acc;\n\
             void red(uint v, inout uint r) {{ r += subgroupAdd(v); }}\n\
             void red2(inout uint q, uint v) {{ q += subgroupAdd(v); }}\n\
             uint readc(uint v) {{ return cnt + v; }}\n\
             float fr(float v) {{ float ip; return modf(v, ip); }}\n\
             #define BODY(v) return v * 2u;\n\
             #define BUMP(v) (cnt += (v))\n\
             #define TWICE(v) ((v) * 2u)\n\
             uint twice2(uint v) {{ uint w = v; BODY(w) }}\n\
             void main() {{\n  uint i = gl_LocalInvocationIndex, x = data[i], y = 0u, k = 0u;\n\
             {body}\n  data[i] = x + y;\n}}\n"
        )
    };
    let refused = [
        // A builtin's effect, a function's, an increment: in an argument.
        (
            "  if (x > 3u) { y = subgroupAdd(atomicAdd(data[0], 1u)); }",
            "atomicAdd",
        ),
        ("  if (x > 3u) { y = subgroupAdd(tick(2u)); }", "tick"),
        ("  while (subgroupAny(++k < x)) { }", "++"),
        // Before the collective in its statement.
        ("  if (x > 3u) { y = (x++, subgroupAdd(x)); }", "++"),
        ("  if (x > 3u) { y = tick(1u) + subgroupAdd(x); }", "tick"),
        // An initialiser that reads the name it shadows.
        ("  if (x > 3u) { uint x = subgroupAdd(x); y = x; }", "x"),
        // A builtin that writes its `out` argument.
        (
            "  if (x > 3u) { y = subgroupAdd(uaddCarry(x, 1u, k)); }",
            "uaddCarry",
        ),
        // Workgroup memory passed by reference to a converted call, which
        // every invocation would copy back.
        ("  if (x > 3u) { red(x, acc); }", "acc"),
        // A write between two collectives, which both come first.
        (
            "  if (x > 3u) { y = subgroupAdd(1u) + (k = 3u, subgroupMax(k)); }",
            "=",
        ),
        // The arguments of a converted call kept in place.
        ("  if (x > 3u) { red(k++, y); }", "++"),
        // A write of what a function in the collective's argument reads.
        (
            "  if (x > 3u) { y = (cnt = 5u, subgroupAdd(readc(1u))); }",
            "=",
        ),
        // A function-like macro whose body writes.
        ("  if (x > 3u) { y = subgroupAdd(BUMP(1u)); }", "BUMP"),
        // GLSL's block comments do not nest.
        (
            "  if (x > 3u) { y = subgroupAdd(x /* a /* b */ + k++); }",
            "++",
        ),
    ];
    for (body, token) in refused {
        let e = glsl_error(&glsl(body), Target::GlslNoSubgroup);
        assert_eq!(e.kind, LinkErrorKind::Unsupported, "{body}: {e}");
        let at = e.location.as_ref().expect("a location");
        assert_eq!(at.line_text.trim(), body.trim(), "{body}: {e}");
        assert!(
            at.line_text[at.column as usize - 1..].starts_with(token),
            "{body}: at {}:{} of {:?}: {e}",
            at.line,
            at.column,
            at.line_text
        );
        // The hardware target runs it as written.
        glsl_linked(&glsl(body), Target::Glsl);
    }
    let linked = [
        // A function that writes only its own locals.
        "  if (x > 3u) { y = subgroupAdd(twice(x)); }",
        // A function-like macro that writes nothing.
        "  if (x > 3u) { y = subgroupAdd(TWICE(x)); }",
        // An effect around the collective, after its value.
        "  if (x > 3u) { atomicAdd(data[0], subgroupAdd(1u)); }",
        // The assignment the value goes to.
        "  if (x > 3u) { y += subgroupAdd(x); }",
        // A write before it of what the collective does not read.
        "  if (x > 3u) { data[k++] += subgroupAdd(x); }",
        // A declaration whose initialiser reads another name.
        "  if (x > 3u) { uint z = subgroupAdd(x); y = z; }",
        // A function that passes only its own local by reference.
        "  if (x > 3u) { y = subgroupAdd(bumped(x)); }",
        // A local passed by reference to a converted call, also one named
        // as another function's parameter (no global).
        "  if (x > 3u) { red(x, y); }",
        "  if (x > 3u) { uint q = 0u; red2(q, x); y = q; }",
        // A builtin writing a local `out` argument in a function.
        "  if (x > 3u) { y = uint(subgroupAdd(fr(float(x)))); }",
        // A body the reader cannot read (a macro as a statement) that
        // initialises a local.
        "  if (x > 3u) { y = subgroupAdd(twice2(x)); }",
    ];
    for body in linked {
        glsl_linked(&glsl(body), Target::GlslNoSubgroup);
    }
    // WGSL: the same rule.
    let wgsl = "@group(0) @binding(0) var<storage, read_write> data: array<atomic<u32>>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    var y = 0u;
    if (i > 3u) { y = subgroupAdd(atomicAdd(&data[0], 1u)); }
    atomicStore(&data[i], y);
}
";
    let e = link(
        wgsl,
        "e.wgsl",
        Target::WgslNoSubgroup,
        &LinkOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("`atomicAdd` changes state"), "{e}");
    assert!(e.message.contains("`subgroupAdd`"), "{e}");
    // A pointer `let` writes what it points at.
    let alias = "@group(0) @binding(0) var<storage, read_write> data: array<u32>;
fn bump(v: u32) -> u32 { let p = &data[0]; *p = *p + 1u; return v; }
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    var y = 0u;
    if (i > 3u) { y = subgroupAdd(bump(i)); }
    data[i] = y;
}
";
    let options = LinkOptions::default();
    let e = link(alias, "e.wgsl", Target::WgslNoSubgroup, &options).unwrap_err();
    assert!(e.message.contains("`bump` changes state"), "{e}");
    // A local in one scope named as a global does not make the global's
    // writes in another scope the function's own.
    let shadow = "@group(0) @binding(0) var<storage, read_write> data: array<u32>;
var<private> g: u32 = 0u;
fn bump(v: u32) -> u32 { if (v > 100u) { var g = 0u; g += 1u; } g += 1u; return v; }
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    var y = 0u;
    if (i > 3u) { y = subgroupAdd(bump(i)); }
    data[i] = y + g;
}
";
    let e = link(shadow, "e.wgsl", Target::WgslNoSubgroup, &options).unwrap_err();
    assert!(e.message.contains("`bump` changes state"), "{e}");
}

/// GLSL's `while (bool more = …)` declares in its condition, which the
/// emulation tests apart from the loop's statement: refused at the
/// condition, where before glslang refused the linked text at another
/// line.
#[test]
fn a_loop_condition_that_declares_is_refused_at_it() {
    let text = "#version 450\n#extension GL_KHR_shader_subgroup_arithmetic : require\n\
                layout(local_size_x = 64) in;\n\
                layout(std430, binding = 0) buffer B { uint data[]; };\n\
                void main() {\n  uint i = gl_LocalInvocationIndex, x = data[i] & 7u, s = 0u;\n  \
                while (bool more = x > 0u) { x--; s += subgroupAdd(1u); }\n  data[i] = s;\n}\n";
    let e = glsl_error(text, Target::GlslNoSubgroup);
    assert_eq!(e.kind, LinkErrorKind::Unsupported, "{e}");
    assert!(e.message.contains("declares a variable"), "{e}");
    let at = e.location.expect("a location");
    assert_eq!((at.line, at.column), (7, 10));
}

/// A shader glslang does not compile gives glslang's error on every GLSL
/// target, not the conversion's want of a type that glslang's tree would
/// have given; glslang's further errors name the user's lines.
#[test]
fn an_invalid_shader_s_own_error_comes_first_without_subgroups() {
    let source = "#version 450
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { vec4 v[64]; };
void main()
{
    vec4 x = undeclared_thing;
    if (gl_LocalInvocationIndex < 7u)
        v[0] = subgroupShuffle(v[1], 3u);
}
";
    for target in [Target::Glsl, Target::GlslNoSubgroup] {
        let e = glsl_error(source, target);
        assert_eq!(e.kind, LinkErrorKind::Invalid, "{target}: {e}");
        assert!(e.message.contains("undeclared identifier"), "{target}: {e}");
        assert_eq!(
            e.location.as_ref().map(|l| l.line),
            Some(7),
            "{target}: {e}"
        );
        assert!(
            e.notes.iter().any(|n| n.ends_with("(line 7)")),
            "{target}: {:?}",
            e.notes
        );
    }
}

/// A collective whose call spans lines, in code not every invocation runs:
/// glslang's tree places it on its last argument's line, and its value's
/// type is read there (it was refused for want of one).
#[test]
fn a_call_over_several_lines_gets_its_value_s_type() {
    let source = "#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint n; uint data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) { return; }
    uint a = subgroupAdd(
        data[i] // the element
    );
    uint c = subgroupShuffle(data[i],
        1u);
    uint d = subgroupMax
        (data[i] /* again */);
    data[i] = a + c + d;
}
";
    let l = glsl_linked(source, Target::GlslNoSubgroup);
    let compact: String = l.text.split_whitespace().collect();
    for call in [
        "ballot_subgroupAdd(ballot_active,(ballot_active?(uint(data[i])):uint(0))//theelement",
        "ballot_subgroupShuffle(ballot_active,(ballot_active?(uint(data[i])):uint(0)),1u)",
        "ballot_subgroupMax(ballot_active,(ballot_active?(uint(data[i])):uint(0))/*again*/)",
    ] {
        assert!(compact.contains(call), "no {call} in\n{}", l.text);
    }
}
