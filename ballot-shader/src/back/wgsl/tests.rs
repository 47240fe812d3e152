//! Tests of the WGSL writer: representative kernels in every WGSL target
//! and form, validated by naga (and by Tint, where it is installed), plus
//! textual properties of the output.

use std::collections::BTreeSet;

use syn::parse_quote;

// The printers are reached through `emit`, which validates the options.
use crate::back::emit as write;
use crate::back::{Form, Missing, ShaderError, ShaderOptions, Target};
use ballot_ir::ir::Kernel;
use ballot_naga::valid;

const TARGETS: [Target; 3] = [Target::Wgsl, Target::WgslWeb, Target::WgslNoSubgroup];

/// Lowers a kernel, which must be accepted.
#[track_caller]
fn lower(item: syn::ItemFn) -> Kernel {
    match ballot_front::lower(&item) {
        Ok(lowered) => lowered.kernel,
        Err(e) => panic!("kernel rejected: {e}"),
    }
}

/// The representative kernels: groups of an entry and its callees.
fn kernels() -> Vec<Vec<Kernel>> {
    let groups: Vec<Vec<syn::ItemFn>> = vec![
        vec![parse_quote! {
            fn straight(x: u32) -> SubgroupMask {
                let odd = subgroup_ballot(x % 2 == 1);
                odd & subgroup_ballot(true)
            }
        }],
        vec![parse_quote! {
            fn every_op(x: u32, m: SubgroupMask, p: bool, f: f32, i: i32) -> u32 {
                let b = subgroup_ballot(p);
                let inv = subgroup_inverse_ballot(m);
                let ext = subgroup_ballot_bit_extract(b, x);
                let c = subgroup_ballot_bit_count(b) + subgroup_ballot_inclusive_bit_count(m)
                    + subgroup_ballot_exclusive_bit_count(b);
                let l = subgroup_ballot_find_lsb(b) ^ subgroup_ballot_find_msb(m);
                let masks = subgroup_eq_mask() | subgroup_ge_mask() | subgroup_gt_mask()
                    | subgroup_le_mask() | subgroup_lt_mask();
                let e = subgroup_elect();
                let g = subgroup_broadcast(x, 3);
                let h = subgroup_broadcast_first(m);
                let q = subgroup_broadcast_first(p);
                let r = subgroup_broadcast(f * 1.5, 0);
                let s = subgroup_broadcast_first(i);
                let t = subgroup_broadcast(q, 200);
                let lane = subgroup_local_invocation_id() + subgroup_size();
                let mask = SubgroupMask::lane(x) | SubgroupMask::first(lane);
                let bits = (inv as u32) + (ext as u32) + (e as u32) + (t as u32)
                    + (r as u32) + (s as u32) + h.count() + mask.count();
                if masks.contains(x) && !masks.is_empty() { c + l + g + bits } else { 0 }
            }
        }],
        vec![parse_quote! {
            fn divergent_if(x: u32) -> u32 {
                let mut n = 0;
                if x < 4 {
                    n = subgroup_ballot(true).count();
                } else if x >= 8 {
                    n = subgroup_ballot_bit_count(subgroup_ballot(x > 9));
                } else {
                    return subgroup_broadcast_first(x);
                }
                n + subgroup_ballot(true).count()
            }
        }],
        vec![parse_quote! {
            fn divergent_loop(x: u32) -> u32 {
                let mut sum = 0u32;
                for i in 0..x {
                    if i == 2 { continue; }
                    if subgroup_elect() { sum += 100; }
                    if i > 6 { break; }
                    sum += subgroup_ballot(i % 2 == 0).count();
                }
                let mut j = 0u32;
                while j < x { j += 3; }
                loop {
                    if subgroup_ballot(j > x).is_empty() { return sum; }
                    j += 1;
                    if j > 40 { break; }
                }
                sum + j
            }
        }],
        vec![
            parse_quote! {
                fn caller(x: u32, #[uniform] k: u32) -> u32 {
                    let a: u32 = helpers::slot(x, k);
                    let mut total = a;
                    if x > k { total += slot(a, 1u32); }
                    for _ in 0..k { total += slot(total, k); }
                    total
                }
            },
            parse_quote! {
                fn slot(v: u32, #[uniform] w: u32) -> u32 {
                    if v == w { return 0; }
                    subgroup_ballot_exclusive_bit_count(subgroup_ballot(v > w)) + leaf(v)
                }
            },
            parse_quote! {
                fn leaf(v: u32) -> u32 {
                    subgroup_broadcast_first(v)
                }
            },
        ],
        vec![parse_quote! {
            fn reserved(active: u32, input: u32, sample: bool, gl_x: i32, a__b: f32) -> u32 {
                let texture = active + input;
                let shared = if sample { texture } else { gl_x as u32 };
                let ballot_x = a__b as u32;
                let main = subgroup_ballot(shared > ballot_x).count();
                let select = main + 1;
                let u32 = select * 2;
                u32
            }
        }],
        vec![parse_quote! {
            fn types(#[uniform] k: i32, f: f32, m: SubgroupMask, p: bool, mut q: u32) -> f32 {
                let a = k / 0 + k % 0 + -2147483648i32 + (q as i32) / -1;
                let b = f % 2.0 + 1.0 / 0.0 + f32::NAN + 1e-45 + 0.1 - (-0.0);
                let c = (u32::MAX + 1) / 0 + (7u32 << 40) + (q << 33) + (q >> q);
                let d = m ^ !SubgroupMask::EMPTY ^ SubgroupMask::ALL;
                let e = p ^ true ^ (m == d) ^ (m != SubgroupMask::EMPTY);
                q = q / 0 + q % 0;
                let g = (f as i32) as f32 + (f as u32) as f32 + (p as i32) as f32 + (p as f32);
                let h = (a as u32) as i32 + (c as i32) + (q as i32);
                if e && d.contains(3) { b + g + (h as f32) } else { -b }
            }
        }],
        vec![parse_quote! {
            fn unit(p: bool) {
                if p { return; }
                subgroup_ballot(p);
                let _ = subgroup_elect();
            }
        }],
        vec![parse_quote! {
            fn uniform_only(#[uniform] n: u32, x: u32) -> u32 {
                let mut r = 0;
                if n > 3 { r = subgroup_ballot(x > n).count(); }
                r
            }
        }],
        vec![parse_quote! {
            fn nested(x: u32) -> u32 {
                let mut acc = 0u32;
                let mut i = 0u32;
                loop {
                    let mut j = 0u32;
                    while j < i {
                        if subgroup_ballot(j == x).is_empty() { break; }
                        acc += subgroup_ballot_bit_count(subgroup_ballot(true));
                        j += 1;
                    }
                    i += 1;
                    if i > x { break; }
                    if acc > 1000 { return acc; }
                }
                acc
            }
        }],
        vec![parse_quote! {
            fn no_ops(a: u32, b: i32) -> i32 {
                let mut c = b;
                for i in 0..a { c = c * 3 + (i as i32); }
                c
            }
        }],
    ];
    let mut groups: Vec<Vec<Kernel>> = groups
        .into_iter()
        .map(|group| group.into_iter().map(lower).collect())
        .collect();
    // Every operation beyond the ballot family, of every type.
    groups.push(vec![crate::back::tests::family_kernel()]);
    groups
}

fn emit(target: Target, form: Form, group: &[Kernel], options: &ShaderOptions) -> String {
    let refs: Vec<&Kernel> = group.iter().collect();
    match write(target, form, &refs, options, Missing::Error) {
        Ok(text) => text,
        Err(e) => panic!("{target} {form} of `{}`: {e}", group[0].name),
    }
}

/// Validates with naga, and with Tint where the target is meant for it and
/// `tint` is installed.
#[track_caller]
fn check_valid(target: Target, form: Form, text: &str) {
    if let Err(e) = valid::validate(target, form, text) {
        panic!("{e}\n{}", numbered(text));
    }
    if target != Target::Wgsl {
        if let Some(Err(message)) = tint(text) {
            panic!(
                "tint rejects {target} {form}:\n{message}\n{}",
                numbered(text)
            );
        }
    }
}

fn numbered(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, line)| format!("{:4} {line}\n", i + 1))
        .collect()
}

/// Tint's verdict, or `None` when Tint is not installed.
fn tint(text: &str) -> Option<Result<(), String>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("ballot-wgsl-{}-{n}.wgsl", std::process::id()));
    std::fs::write(&path, text).ok()?;
    let output = std::process::Command::new("tint")
        .arg("--format")
        .arg("wgsl")
        .arg("-o")
        .arg("/dev/null")
        .arg(&path)
        .output();
    let _ = std::fs::remove_file(&path);
    let output = output.ok()?;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    if output.status.success() && !stderr.contains("error") {
        Some(Ok(()))
    } else {
        Some(Err(stderr))
    }
}

fn option_sets() -> Vec<ShaderOptions> {
    vec![
        ShaderOptions::default(),
        ShaderOptions {
            workgroup_size: [8, 3, 2],
            subgroup_size: 16,
            record_lanes: true,
            ..ShaderOptions::default()
        },
        ShaderOptions {
            workgroup_size: [128, 1, 1],
            subgroup_size: 128,
            record_lanes: true,
            ..ShaderOptions::default()
        },
    ]
}

/// Calls `check` on every representative group in every target and form.
fn for_every_text(mut check: impl FnMut(&[Kernel], Target, Form)) {
    for group in kernels() {
        for target in TARGETS {
            for form in Form::ALL {
                check(&group, target, form);
            }
        }
    }
}

/// The representative group whose entry is `name`.
fn group(name: &str) -> Vec<Kernel> {
    kernels()
        .into_iter()
        .find(|g| g[0].name == name)
        .unwrap_or_default()
}

#[test]
fn every_kernel_validates_in_every_target_and_form() {
    let options = option_sets();
    for_every_text(|group, target, form| {
        for options in &options {
            let text = emit(target, form, group, options);
            check_valid(target, form, &text);
        }
    });
}

#[test]
fn directives_per_target() {
    for group in kernels() {
        for form in Form::ALL {
            let options = ShaderOptions::default();
            let wgsl = emit(Target::Wgsl, form, &group, &options);
            assert!(!wgsl.contains("enable"), "{wgsl}");
            assert!(!wgsl.contains("diagnostic("), "{wgsl}");
            let web = emit(Target::WgslWeb, form, &group, &options);
            assert!(web.contains("\nenable subgroups;\n"), "{web}");
            let emulated = emit(Target::WgslNoSubgroup, form, &group, &options);
            assert!(!emulated.contains("enable"), "{emulated}");
            let code: String = emulated
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect();
            for builtin in ["@builtin(subgroup", "subgroupBallot", "subgroupBroadcast"] {
                assert!(!code.contains(builtin), "{emulated}");
            }
        }
    }
}

/// Only `wgsl-web` kernels that ballot in divergent control flow turn the
/// uniformity check off.
#[test]
fn diagnostic_only_where_needed() {
    let uniform = lower(parse_quote! {
        fn k(#[uniform] n: u32, x: u32) -> u32 {
            let a = subgroup_ballot(x > 2).count();
            let b = n + 1;
            if b > 3 { return subgroup_broadcast_first(a); }
            a
        }
    });
    let divergent = lower(parse_quote! {
        fn k(n: u32) -> u32 {
            if n > 3 { return subgroup_ballot(true).count(); }
            0
        }
    });
    let after_return = lower(parse_quote! {
        fn k(n: u32) -> u32 {
            if n > 3 { return 0; }
            subgroup_ballot(true).count()
        }
    });
    let lane_local = lower(parse_quote! {
        fn k(n: u32, m: SubgroupMask) -> u32 {
            if n > 3 { return subgroup_ballot_bit_count(m); }
            0
        }
    });
    let options = ShaderOptions::default();
    let has = |k: &Kernel| {
        let text = emit(
            Target::WgslWeb,
            Form::ComputeShader,
            std::slice::from_ref(k),
            &options,
        );
        check_valid(Target::WgslWeb, Form::ComputeShader, &text);
        text.contains("diagnostic(off, subgroup_uniformity);")
    };
    assert!(!has(&uniform));
    assert!(has(&divergent));
    assert!(has(&after_return));
    assert!(!has(&lane_local));
}

#[test]
fn only_used_helpers_are_written() {
    let k = lower(parse_quote! {
        fn k(x: u32) -> u32 { subgroup_ballot_find_lsb(subgroup_ballot(x > 1)) }
    });
    let options = ShaderOptions::default();
    let native = emit(
        Target::Wgsl,
        Form::Helpers,
        std::slice::from_ref(&k),
        &options,
    );
    let defined: BTreeSet<&str> = native
        .lines()
        .filter_map(|l| l.strip_prefix("fn ballot_"))
        .filter_map(|l| l.split('(').next())
        .collect();
    assert_eq!(
        defined,
        BTreeSet::from(["below", "find_lsb", "init", "mask_first"]),
        "{native}"
    );
    assert!(!native.contains("var<workgroup>"));
    let emulated = emit(
        Target::WgslNoSubgroup,
        Form::Helpers,
        std::slice::from_ref(&k),
        &options,
    );
    assert!(emulated.contains("fn ballot_ballot("));
    assert!(
        !emulated.contains("var<workgroup> ballot_values"),
        "{emulated}"
    );
    assert!(!emulated.contains("ballot_workgroup_any"), "{emulated}");
}

#[test]
fn output_is_deterministic() {
    let options = option_sets();
    for_every_text(|lowered, target, form| {
        let first = emit(target, form, lowered, &options[1]);
        // The same kernels, lowered again.
        let second = emit(target, form, &group(&lowered[0].name), &options[1]);
        assert_eq!(first, second);
    });
}

#[test]
fn reserved_identifiers_are_renamed() {
    let text = emit(
        Target::WgslWeb,
        Form::Helpers,
        &group("reserved"),
        &ShaderOptions::default(),
    );
    for renamed in [
        "active_1",
        "v_gl_x",
        "a_b",
        "v_ballot_x",
        "main_1",
        "select_1",
        "u32_1",
    ] {
        assert!(text.contains(renamed), "`{renamed}` missing:\n{text}");
    }
}

#[test]
fn missing_callees() {
    let k = lower(parse_quote! {
        fn k(x: u32) -> u32 {
            let a: u32 = other::gone(x, 1.5f32);
            let b: bool = gone(x, 2.5f32);
            let c: u32 = gone(x, true);
            if b { a + c } else { 0 }
        }
    });
    let options = ShaderOptions::default();
    let err = write(Target::Wgsl, Form::Helpers, &[&k], &options, Missing::Error);
    assert_eq!(
        err,
        Err(ShaderError::MissingCallee {
            caller: "k".into(),
            callee: "other::gone".into()
        })
    );
    for target in TARGETS {
        for form in Form::ALL {
            let text = match write(target, form, &[&k], &options, Missing::Stub) {
                Ok(text) => text,
                Err(e) => panic!("{e}"),
            };
            check_valid(target, form, &text);
            // One stand-in per signature.
            assert_eq!(text.matches("// A stand-in").count(), 3, "{text}");
        }
    }
}

#[test]
fn invalid_options_are_reported() {
    let k = lower(parse_quote! { fn k(x: u32) -> u32 { x } });
    let options = ShaderOptions {
        workgroup_size: [16, 1, 1],
        subgroup_size: 32,
        ..ShaderOptions::default()
    };
    let result = write(
        Target::WgslNoSubgroup,
        Form::ComputeShader,
        &[&k],
        &options,
        Missing::Error,
    );
    assert!(matches!(result, Err(ShaderError::Options(_))));
}

#[test]
fn literals_are_exact() {
    let k = lower(parse_quote! {
        fn k(x: f32, i: i32) -> f32 {
            let a = x + 0.1 + 16777217.0 + 3.4028235e38 + 1e-45 + f32::INFINITY;
            let b = i + -2147483648i32 + -5;
            a + (b as f32)
        }
    });
    let text = emit(Target::Wgsl, Form::Helpers, &[k], &ShaderOptions::default());
    check_valid(Target::Wgsl, Form::Helpers, &text);
    for literal in [
        "0.1f",
        "16777216.0f",
        "3.4028235e38f",
        "1e-45f",
        "ballot_f32_bits(0x7f800000u)",
        "bitcast<i32>(0x80000000u)",
        "(-5i)",
    ] {
        assert!(text.contains(literal), "`{literal}` missing:\n{text}");
    }
}

#[test]
fn compute_interface() {
    let types = group("types");
    let options = option_sets().remove(1);
    for target in TARGETS {
        let text = emit(target, Form::ComputeShader, &types, &options);
        for line in [
            "@group(0) @binding(0) var<storage, read> ballot_in0: i32;",
            "@group(0) @binding(1) var<storage, read> ballot_in1: array<f32>;",
            "@group(0) @binding(2) var<storage, read> ballot_in2: array<vec4<u32>>;",
            "@group(0) @binding(3) var<storage, read> ballot_in3: array<u32>;",
            "@group(0) @binding(5) var<storage, read_write> ballot_out: array<f32>;",
            "@group(0) @binding(6) var<storage, read_write> ballot_lanes: array<vec4<u32>>;",
            "let ballot_global = ((ballot_workgroup_index * 48u) + ballot_local_index);",
        ] {
            assert!(text.contains(line), "{target}: `{line}` missing:\n{text}");
        }
    }
}

#[test]
fn no_kernel_gives_a_valid_module() {
    let options = option_sets().remove(1);
    for target in TARGETS {
        for form in Form::ALL {
            match write(target, form, &[], &options, Missing::Error) {
                Ok(text) => check_valid(target, form, &text),
                Err(e) => panic!("{e}"),
            }
        }
    }
}

/// naga rejects subgroup built-ins in a multi-dimensional workgroup, so the
/// native targets flatten it; the emulated one keeps its shape.
#[test]
fn multi_dimensional_workgroups() {
    let k = lower(parse_quote! { fn k(x: u32) -> u32 { subgroup_broadcast_first(x) } });
    let options = option_sets().remove(1);
    let native = emit(
        Target::Wgsl,
        Form::ComputeShader,
        std::slice::from_ref(&k),
        &options,
    );
    assert!(
        native.contains("@compute @workgroup_size(48)\n"),
        "{native}"
    );
    let emulated = emit(Target::WgslNoSubgroup, Form::ComputeShader, &[k], &options);
    assert!(
        emulated.contains("@compute @workgroup_size(8, 3, 2)\n"),
        "{emulated}"
    );
}

/// The rest of the family in WGSL: its own built-ins where WGSL has them
/// (`bool` through `u32`, a constant lane operand of 128 or more as the
/// lane's own value), helpers where it lacks them, and on
/// `wgsl-no-subgroup` every exchange through its helper with the
/// activity flag.
#[test]
fn the_rest_of_the_family() {
    let family = group("family");
    let options = ShaderOptions::default();
    let native = emit(Target::Wgsl, Form::Helpers, &family, &options);
    for op in ballot_ir::op::Op::ALL.iter().filter(|op| !op.is_ballot()) {
        // Its only ShuffleDown has an operand out of range.
        if let Some(name) = op
            .wgsl_name()
            .filter(|_| *op != ballot_ir::op::Op::ShuffleDown)
        {
            assert!(native.contains(&format!("{name}(")), "{name}:\n{native}");
        }
    }
    for piece in [
        "subgroupAll(p)",
        "(subgroupShuffleXor(u32(p), 3u) != 0u)",
        "quadBroadcast(m, 2u)",
        "quadSwapDiagonal(f)",
        "subgroupExclusiveMul(i)",
        // WGSL lacks these: helpers over the value's bits, last the words
        // they move, one for a scalar, four for a mask.
        "ballot_all_equal(vec4<u32>(bitcast<u32>(f), 0u, 0u, 0u), true, 1u)",
        "ballot_all_equal(m, false, 4u)",
        // UMax (8) as an inclusive scan.
        "ballot_inclusive_scan(vec4<u32>((x), 0u, 0u, 0u), 8u, 1u).x",
        "fn ballot_inclusive_scan(value: vec4<u32>, op: u32, words: u32)",
        // A scalar moves as one u32.
        "subgroupShuffle(value.x, lane)",
    ] {
        assert!(native.contains(piece), "no `{piece}` in\n{native}");
    }
    // subgroupShuffleDown(.., 200): out of range, the lane's own value.
    assert!(!native.contains("subgroupShuffleDown(x, 200u)"), "{native}");
    assert!(!native.contains("ballot_active"), "{native}");
    let emulated = emit(Target::WgslNoSubgroup, Form::Helpers, &family, &options);
    for piece in [
        // All and Any of p share one exchange (lower::share): All
        // publishes the lanes against, Any the lanes for.
        "ballot_publish((ballot_active && !p), 0u);",
        "ballot_publish((ballot_active && p), 1u);",
        "all((ballot_gather(ballot_x1) == vec4<u32>(0u)))",
        "any((ballot_gather((ballot_x1 + 1u * ballot_slot_stride)) != vec4<u32>(0u)))",
        // The last argument: the words the exchange moves, one for a
        // scalar, four for a mask.
        "ballot_all_equal(ballot_active, vec4<u32>(u32(p), 0u, 0u, 0u), false, 1u)",
        // FAdd (1) as an inclusive scan.
        "bitcast<f32>(ballot_inclusive_scan(ballot_active, vec4<u32>(bitcast<u32>(f), 0u, 0u, 0u), 1u, 1u).x)",
        "ballot_shuffle_down(ballot_active, vec4<u32>((x), 0u, 0u, 0u), 200u, 1u).x",
        "ballot_quad_swap(ballot_active, m, 1u, 4u)",
        "fn ballot_inclusive_scan(on: bool, value: vec4<u32>, op: u32, words: u32)",
        // The scan's loops are bounded by constants.
        "for (var j = 0u; j < ballot_subgroup_size; j += g)",
    ] {
        assert!(emulated.contains(piece), "no `{piece}` in\n{emulated}");
    }
    // No subgroup built-in outside the helpers' comments.
    let code: Vec<&str> = emulated
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    for name in ["subgroupAll(", "subgroupShuffle", "quadSwap", "subgroupAdd"] {
        assert!(
            !code.iter().any(|l| l.contains(name)),
            "{name} in\n{emulated}"
        );
    }
}
