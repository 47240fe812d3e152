//! Every representative kernel, in both targets and both forms, checked by
//! glslang + spirv-val and (for `glsl-no-subgroup`, and `glsl` through its
//! shim) by naga; plus the properties the writer promises.

use syn::parse_quote;

// The printers are reached through `emit`, which validates the options.
use crate::back::emit as write;
use crate::back::{Form, Missing, ShaderError, ShaderOptions, Target};
use ballot_ir::ir::{Expr, Kernel, Literal};
use ballot_ir::op::Op;

const TARGETS: [Target; 2] = [Target::Glsl, Target::GlslNoSubgroup];

fn kernel(item: syn::ItemFn) -> Kernel {
    match ballot_front::lower(&item) {
        Ok(lowered) => lowered.kernel,
        Err(e) => panic!("kernel rejected: {e}"),
    }
}

fn emit(target: Target, form: Form, kernels: &[&Kernel], options: &ShaderOptions) -> String {
    match write(target, form, kernels, options, Missing::Stub) {
        Ok(text) => text,
        Err(e) => panic!("{target} {form}: {e}"),
    }
}

/// Emits every target and form and validates each text with naga and with
/// glslang + spirv-val.
#[track_caller]
fn check_all(kernels: &[&Kernel], options: &ShaderOptions) {
    let glslang = ballot_testkit::have_tools(
        "glslang and spirv-val checks of the emitted GLSL",
        &ballot_testkit::GLSL_TOOLS,
    );
    for target in TARGETS {
        for form in Form::ALL {
            let text = emit(target, form, kernels, options);
            let numbered = || numbered(&text);
            if let Err(e) = ballot_naga::valid::validate(target, form, &text) {
                panic!("naga: {e}\n{}", numbered());
            }
            if glslang {
                if let Err(e) = ballot_naga::valid::glslang(&text, form) {
                    panic!("{target} {form}: {e}\n{}", numbered());
                }
            }
            check_properties(target, form, kernels, options, &text);
        }
    }
}

/// Checks `kernel` alone with the default options (see `check_all`), and
/// returns its `target` text in `form`.
#[track_caller]
fn checked(kernel: &Kernel, target: Target, form: Form) -> String {
    check_all(&[kernel], &ShaderOptions::default());
    emit(target, form, &[kernel], &ShaderOptions::default())
}

#[track_caller]
fn assert_contains(text: &str, pieces: &[&str]) {
    for piece in pieces {
        assert!(text.contains(piece), "no `{piece}` in\n{text}");
    }
}

fn numbered(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| format!("{:4} {l}\n", i + 1))
        .collect()
}

/// Extension lines only where they belong, no subgroup names in the
/// emulated target, and the same text on every run.
fn check_properties(
    target: Target,
    form: Form,
    kernels: &[&Kernel],
    options: &ShaderOptions,
    text: &str,
) {
    let extension = text.lines().any(|l| l.starts_with("#extension"));
    let code: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    let subgroup_lines: Vec<&&str> = code
        .iter()
        .filter(|line| {
            line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|ident| {
                    ident.starts_with("gl_Subgroup")
                        || Op::ALL.iter().any(|op| op.glsl_name() == ident)
                })
        })
        .collect();
    let uses_subgroups = !subgroup_lines.is_empty();
    match target {
        Target::GlslNoSubgroup => assert!(!extension && !uses_subgroups, "{subgroup_lines:?}"),
        _ => assert_eq!(extension, uses_subgroups, "{text}"),
    }
    assert_eq!(
        text,
        emit(target, form, kernels, options),
        "not deterministic"
    );
}

/// Calls that reach a barrier: the exchanges, the loop vote, kernel calls.
const BARRIER_CALLS: [&str; 13] = [
    "ballot_ballot(",
    "ballot_elect(",
    "ballot_broadcast",
    "ballot_workgroup_any(",
    "_masked(",
    "ballot_all(",
    "ballot_any(",
    "ballot_all_equal(",
    "ballot_shuffle_",
    "ballot_quad_",
    "ballot_reduce(",
    "ballot_inclusive_scan(",
    "ballot_exclusive_scan(",
];

/// Checks the if-conversion on the text: in every `*_masked` function, a
/// call that reaches a barrier sits in no `if` (a condition is evaluated
/// unconditionally, a one-line guarded store holds none), and every loop
/// around one ends by the workgroup's vote.
#[track_caller]
fn assert_if_converted(text: &str) {
    // One frame per open brace: (is an `if`, is a loop that votes).
    let mut frames: Vec<(bool, bool)> = Vec::new();
    let mut inside = false;
    for (number, line) in text.lines().enumerate() {
        let code = line.trim();
        if line.contains("_masked(bool ballot_active_in") && line.ends_with('{') {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        if line == "}" {
            inside = false;
            frames.clear();
            continue;
        }
        let head = code.split('{').next().unwrap_or("");
        let tail = &code[head.len()..];
        let reaches = |part: &str| BARRIER_CALLS.iter().any(|c| part.contains(c));
        let at = format!("line {}: {line}\n{text}", number + 1);
        assert!(!reaches(tail), "barrier in a guarded store, {at}");
        if reaches(head) && !head.contains("ballot_workgroup_any(") {
            assert!(
                frames.iter().all(|&(is_if, _)| !is_if),
                "barrier under an if, {at}"
            );
            let loops_vote = frames.iter().all(|&(is_if, votes)| is_if || votes);
            assert!(loops_vote, "barrier in a loop without a vote, {at}");
        }
        if code.starts_with("if (!ballot_workgroup_any(") {
            if let Some(frame) = frames.last_mut() {
                frame.1 = true;
            }
        }
        match (code.ends_with('{'), code) {
            (true, _) => frames.push((
                code.starts_with("if") || code.starts_with("} else"),
                !code.starts_with("while"),
            )),
            (false, "}") => {
                frames.pop();
            }
            _ => {}
        }
    }
}

fn straight_line() -> Kernel {
    kernel(parse_quote! {
        fn straight(x: u32) -> u32 {
            let m = subgroup_ballot(x > 3);
            subgroup_ballot_bit_count(m) + subgroup_ballot_find_lsb(m | SubgroupMask::lane(0))
        }
    })
}

#[test]
fn straight_line_ballots() {
    check_all(&[&straight_line()], &ShaderOptions::default());
}

fn every_op() -> Kernel {
    kernel(parse_quote! {
        fn every_op(x: u32, f: f32, m: SubgroupMask) -> u32 {
            let b = subgroup_ballot(x % 2 == 0);
            let inv = subgroup_inverse_ballot(b);
            let ext = subgroup_ballot_bit_extract(b, 1);
            let c = subgroup_ballot_bit_count(b);
            let inc = subgroup_ballot_inclusive_bit_count(b);
            let exc = subgroup_ballot_exclusive_bit_count(m);
            let lsb = subgroup_ballot_find_lsb(b | SubgroupMask::lane(0));
            let msb = subgroup_ballot_find_msb(m);
            let masks = subgroup_eq_mask() ^ subgroup_ge_mask() ^ subgroup_gt_mask()
                ^ subgroup_le_mask() ^ subgroup_lt_mask();
            let e = subgroup_elect();
            let bf = subgroup_broadcast_first(f);
            let bi = subgroup_broadcast(x as i32, 1);
            let bb = subgroup_broadcast_first(e);
            let bm = subgroup_broadcast(masks, 0);
            let lane = subgroup_local_invocation_id() + subgroup_size();
            let api = SubgroupMask::first(x).count() + (m.contains(x) as u32) + (bm.is_empty() as u32);
            c + inc + exc + lsb + msb + lane + api + (inv as u32) + (ext as u32) + (bb as u32)
                + (bf as u32) + (bi as u32)
        }
    })
}

#[test]
fn every_operation() {
    check_all(&[&every_op()], &ShaderOptions::default());
}

/// Every operation beyond the ballot family, of every type, in uniform
/// and divergent control flow: each in `glsl` under its extension's name
/// and `#extension` line, and in `glsl-no-subgroup` through the helper
/// that exchanges it, with the activity flag, outside any `if`. Virtual
/// subgroups of 1 and 128 lanes too: the scan's loop runs zero and seven
/// steps.
#[test]
fn the_rest_of_the_family() {
    let family = crate::back::tests::family_kernel();
    for (subgroup_size, workgroup_size) in [(32, [64, 1, 1]), (1, [3, 1, 1]), (128, [128, 2, 1])] {
        let options = ShaderOptions {
            subgroup_size,
            workgroup_size,
            ..ShaderOptions::default()
        };
        check_all(&[&family], &options);
    }
    let native = emit(
        Target::Glsl,
        Form::ComputeShader,
        &[&family],
        &ShaderOptions::default(),
    );
    for extension in ["vote", "arithmetic", "shuffle", "shuffle_relative", "quad"] {
        assert_contains(
            &native,
            &[&format!(
                "#extension GL_KHR_shader_subgroup_{extension} : require\n"
            )],
        );
    }
    for op in Op::ALL.iter().filter(|op| !op.is_ballot()) {
        assert_contains(&native, &[&format!("{}(", op.glsl_name())]);
    }
    // The types pass as they are: GLSL overloads every built-in.
    assert_contains(
        &native,
        &[
            "subgroupAll(p)",
            "subgroupAllEqual(m)",
            "subgroupInclusiveAdd(f)",
            "subgroupMin(i)",
            "subgroupShuffleXor(p, 3u)",
            "subgroupQuadBroadcast(m, 2u)",
            "subgroupQuadSwapVertical(f)",
        ],
    );
    let emulated = emit(
        Target::GlslNoSubgroup,
        Form::Helpers,
        &[&family],
        &ShaderOptions::default(),
    );
    assert_if_converted(&emulated);
    assert_contains(
        &emulated,
        &[
            // All and Any of p share one exchange (lower::share): All
            // publishes the lanes against, Any the lanes for.
            "ballot_publish((ballot_active && !p), 0u);",
            "ballot_publish((ballot_active && p), 1u);",
            "(ballot_gather(ballot_x1) == uvec4(0u))",
            "(ballot_gather((ballot_x1 + 1u * ballot_slot_stride)) != uvec4(0u))",
            // AllEqual compares floats as floats, the rest bit for bit.
            // The last argument: the words the exchange moves, one for a
            // scalar, four for a mask.
            "ballot_all_equal(ballot_active, uvec4(floatBitsToUint(f), 0u, 0u, 0u), true, 1u)",
            "ballot_all_equal(ballot_active, m, false, 4u)",
            // FMin (6) as an exclusive scan; SMax (7) as a reduction.
            "uintBitsToFloat(ballot_exclusive_scan(ballot_active, uvec4(floatBitsToUint(f), 0u, 0u, 0u), 6u, 1u).x)",
            "int(ballot_reduce(ballot_active, uvec4(uint(i), 0u, 0u, 0u), 7u, 1u).x)",
            "(ballot_shuffle_xor(ballot_active, uvec4(uint(p), 0u, 0u, 0u), 3u, 1u).x != 0u)",
            "ballot_quad_swap(ballot_active, m, 3u, 4u)",
            "ballot_quad_broadcast(ballot_active, uvec4(x, 0u, 0u, 0u), 2u, 1u).x",
        ],
    );
}

fn divergent() -> Kernel {
    kernel(parse_quote! {
        fn divergent(x: u32, #[uniform] limit: u32) -> u32 {
            let mut total = 0u32;
            if x % 3 == 0 {
                total = subgroup_ballot_bit_count(subgroup_ballot(true));
            } else if x % 3 == 1 {
                if subgroup_elect() { return 7; }
                total = subgroup_broadcast_first(x);
            } else {
                total = subgroup_ballot(x > 4).count();
            }
            let mut i = 0u32;
            while i < limit {
                i += 1;
                if i == x { continue; }
                if i > x + 2 { break; }
                if subgroup_ballot(i % 2 == 0).contains(subgroup_local_invocation_id()) { return total + i; }
                total += subgroup_ballot_bit_count(subgroup_ballot(true));
            }
            for j in 0..x {
                if j == 2 { continue; }
                total += j;
            }
            loop {
                if subgroup_elect() { break; }
                total += 1;
                if total > 100 { return total; }
            }
            total
        }
    })
}

#[test]
fn divergent_control_flow() {
    check_all(&[&divergent()], &ShaderOptions::default());
}

fn helper_slot() -> Kernel {
    kernel(parse_quote! {
        pub fn slot(p: bool) -> u32 {
            subgroup_ballot_exclusive_bit_count(subgroup_ballot(p))
        }
    })
}

fn caller() -> Kernel {
    kernel(parse_quote! {
        fn caller(x: u32) -> u32 {
            let mut n = 0u32;
            if x > 2 {
                let s: u32 = helpers::slot(x % 2 == 0);
                n = s;
            }
            let t: u32 = slot(true);
            let w: f32 = missing::weight(x, n > 1);
            n + t + (w as u32)
        }
    })
}

#[test]
fn calls_between_kernels() {
    let (c, s) = (caller(), helper_slot());
    check_all(&[&c, &s], &ShaderOptions::default());
    for target in TARGETS {
        let text = emit(target, Form::Helpers, &[&c, &s], &ShaderOptions::default());
        // The callee comes before its caller, and the missing one is a stub.
        let slot = text.find("uint slot").expect("callee written");
        assert!(slot < text.find("uint caller").expect("caller written"));
        assert!(text.contains("float weight"), "{text}");
        let err = write(
            target,
            Form::Helpers,
            &[&c, &s],
            &ShaderOptions::default(),
            Missing::Error,
        );
        assert_eq!(
            err,
            Err(ShaderError::MissingCallee {
                caller: "caller".into(),
                callee: "missing::weight".into()
            })
        );
    }
}

fn reserved_words() -> Kernel {
    kernel(parse_quote! {
        fn texture(input: u32, sample: f32, shared: bool, #[uniform] active: i32) -> i32 {
            let gl_x = input + 1;
            let a__b = subgroup_ballot(shared);
            let mut output = active;
            let main = sample * 2.0;
            if subgroup_ballot_bit_count(a__b) > gl_x {
                output += main as i32;
            }
            let ballot_active = output;
            let subgroupBallot = ballot_active + 1;
            subgroupBallot
        }
    })
}

#[test]
fn reserved_identifiers_are_renamed() {
    let text = checked(&reserved_words(), Target::Glsl, Form::Helpers);
    assert_contains(
        &text,
        &[
            "int texture_1(uint input_1, float sample_1, bool shared_1, int active_1)",
            "v_gl_x",
            "a_b",
            "subgroupBallot_1",
        ],
    );
}

fn all_types() -> Kernel {
    kernel(parse_quote! {
        fn all_types(
            b: bool, u: u32, i: i32, f: f32, m: SubgroupMask,
            #[uniform] ub: bool, #[uniform] uu: u32, #[uniform] ui: i32, #[uniform] uf: f32,
            #[uniform] um: SubgroupMask,
        ) -> SubgroupMask {
            let all = (b ^ ub) & (u == uu) | (i != ui) | (f < uf);
            if all { m | um } else { m & !um }
        }
    })
}

#[test]
fn every_parameter_type_and_uniforms() {
    let text = checked(&all_types(), Target::GlslNoSubgroup, Form::ComputeShader);
    assert_contains(
        &text,
        &[
            "binding = 9) readonly buffer ballot_in9_block { uvec4 ballot_in9; };",
            "binding = 0) readonly buffer ballot_in0_block { uint ballot_in0[]; };",
            "binding = 10) buffer ballot_out_block { uvec4 ballot_out[]; };",
        ],
    );
}

fn arithmetic() -> Kernel {
    kernel(parse_quote! {
        fn arithmetic(a: u32, b: i32, c: f32) -> f32 {
            let q = a / (a % 7) + (a << 33) + (a >> b as u32);
            let r = b / -1 + b % -3 + (b >> 40) + (-b) + i32::MIN + i32::MAX;
            let s = c % 1.5 + c / 0.0 + 1e20 + 1.0e-40 + (-0.0) + 0.1;
            let t = (c as u32) + (c as i32) as u32 + (true as u32) + (r as u32) + (q as i32) as u32;
            let n = c * 0.0 + 1.0 / -0.0 + 0.0 / 0.0 * 3.0e38 * 3.0e38 - (65536 as f32) * 1e38;
            s + (t as f32) + (q as f32) + (r as f32) + (a > 3 && b < 2) as u32 as f32 + n
        }
    })
}

#[test]
fn arithmetic_keeps_rust_semantics() {
    let text = checked(&arithmetic(), Target::Glsl, Form::Helpers);
    assert_contains(
        &text,
        &[
            "ballot_div_u32(",
            "ballot_rem_i32(",
            "ballot_rem_f32(",
            "& 31u)",
            "ballot_f32_to_u32(",
            "int(0x80000000u)",
            "1.0e20",
        ],
    );
}

fn unit_kernel() -> Kernel {
    kernel(parse_quote! {
        fn effects(p: bool) {
            let _ = subgroup_ballot(p);
            if p { let _ = subgroup_elect(); return; }
            subgroup_broadcast_first(p);
        }
    })
}

#[test]
fn unit_kernels_have_no_output() {
    let text = checked(&unit_kernel(), Target::Glsl, Form::ComputeShader);
    assert!(!text.contains("ballot_out"), "{text}");
}

#[test]
fn every_subgroup_size_and_ragged_workgroups() {
    for (size, workgroup) in [
        (1, [1, 1, 1]),
        (4, [6, 1, 1]),
        (32, [7, 3, 2]),
        (64, [64, 1, 1]),
        (128, [16, 4, 3]),
    ] {
        let options = ShaderOptions {
            workgroup_size: workgroup,
            subgroup_size: size,
            record_lanes: true,
            ..ShaderOptions::default()
        };
        check_all(&[&divergent()], &options);
        check_all(&[&every_op()], &options);
    }
}

#[test]
fn only_used_helpers_are_written() {
    let text = emit(
        Target::GlslNoSubgroup,
        Form::Helpers,
        &[&straight_line()],
        &ShaderOptions::default(),
    );
    for absent in [
        "ballot_broadcast",
        "ballot_slots",
        "ballot_vote",
        "ballot_div_",
        "ballot_elect",
    ] {
        assert!(!text.contains(absent), "`{absent}` in\n{text}");
    }
    let text = emit(
        Target::Glsl,
        Form::Helpers,
        &[&straight_line()],
        &ShaderOptions::default(),
    );
    assert!(!text.contains("GL_KHR_shader_subgroup_basic"), "{text}");
    assert!(text.contains("#extension GL_KHR_shader_subgroup_ballot : require"));
    assert!(!text.contains("ballot_init"), "{text}");
}

#[test]
fn invalid_options_are_errors() {
    let k = straight_line();
    let options = ShaderOptions {
        subgroup_size: 128,
        ..ShaderOptions::default()
    };
    assert!(matches!(
        write(
            Target::GlslNoSubgroup,
            Form::Helpers,
            &[&k],
            &options,
            Missing::Error
        ),
        Err(ShaderError::Options(_))
    ));
}

/// Literals the front end cannot spell (NaN, infinities, subnormals), patched
/// into the IR.
#[test]
fn every_float_literal_is_exact() {
    let mut k = kernel(parse_quote! {
        fn floats() -> f32 { 1.5 + 2.5 + 3.5 + 4.5 + 5.5 + 6.5 }
    });
    let values = [
        f32::NAN,
        f32::NEG_INFINITY,
        f32::from_bits(1),
        -0.0,
        f32::MAX,
        0.1,
    ];
    let mut values = values.into_iter();
    let handles: Vec<_> = k.exprs.iter().map(|(h, _)| h).collect();
    for h in handles {
        if let Expr::Literal(Literal::F32(v)) = &mut k.exprs[h] {
            *v = values.next().unwrap_or(1.0);
        }
    }
    let text = checked(&k, Target::Glsl, Form::Helpers);
    assert_contains(
        &text,
        &[
            "uintBitsToFloat(0x7FC00000u)",
            "uintBitsToFloat(0xFF800000u)",
            "(-0.0)",
            "3.4028235e38",
            "0.1",
        ],
    );
}

/// The if-conversion check catches a barrier under an `if`.
#[test]
#[should_panic(expected = "barrier under an if")]
fn the_if_conversion_check_catches_a_branch() {
    assert_if_converted(
        "uint k_masked(bool ballot_active_in) {\n    if (ballot_active_in) {\n        \
         uvec4 m = ballot_ballot(true, true);\n    }\n}\n",
    );
}

/// The if-conversion check catches a loop that each invocation leaves alone.
#[test]
#[should_panic(expected = "barrier in a loop without a vote")]
fn the_if_conversion_check_catches_a_loop_without_a_vote() {
    assert_if_converted(
        "uint k_masked(bool ballot_active_in) {\n    while (true) {\n        \
         if (!ballot_active_in) { break; }\n        \
         uvec4 m = ballot_ballot(true, true);\n    }\n}\n",
    );
}
