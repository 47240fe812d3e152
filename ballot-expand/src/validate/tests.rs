use core::fmt::Write as _;

use syn::parse_quote;

use super::*;
use ballot_ir::ir::Kernel;
use ballot_shader::back::{Missing, ShaderOptions};

#[track_caller]
fn lower(item: syn::ItemFn) -> Kernel {
    match ballot_front::lower(&item) {
        Ok(lowered) => lowered.kernel,
        Err(e) => panic!("kernel rejected: {e}"),
    }
}

/// Kernels of the shapes the compile-time benchmark has, and one that uses
/// every operation and built-in.
fn kernels() -> Vec<Kernel> {
    let items: Vec<syn::ItemFn> = vec![
        parse_quote! {
            fn slot(keep: bool) -> u32 {
                subgroup_ballot_exclusive_bit_count(subgroup_ballot(keep)) + 3u32
            }
        },
        parse_quote! {
            fn slot_if(x: u32) -> u32 {
                let mut n = 0xffff_ffffu32;
                if x % 2u32 == 0u32 {
                    n = slot(x > 3u32);
                }
                n
            }
        },
        parse_quote! {
            fn span(x: u32) -> u32 {
                let m = subgroup_ballot(x > 3u32);
                if m.is_empty() {
                    return 0u32;
                }
                subgroup_ballot_find_msb(m) - subgroup_ballot_find_lsb(m)
            }
        },
        parse_quote! {
            fn scan(x: u32, #[uniform] rounds: u32) -> u32 {
                let mut acc = 0u32;
                for r in 0u32..rounds {
                    if ((x >> r) & 1u32) == 0u32 {
                        continue;
                    }
                    acc += subgroup_ballot_inclusive_bit_count(subgroup_ballot((x & 3u32) != 0u32));
                    if acc > 300u32 {
                        break;
                    }
                }
                acc
            }
        },
        parse_quote! {
            fn vote(v: i32, #[uniform] p: bool) -> i32 {
                let m = subgroup_ballot(p);
                let lead = subgroup_broadcast(v, 2);
                if subgroup_inverse_ballot(m) {
                    lead
                } else {
                    v * 3i32 - (subgroup_ballot_find_lsb(subgroup_ballot(true)) as i32)
                }
            }
        },
        parse_quote! {
            fn window(#[uniform] w: u32) -> SubgroupMask {
                let id = subgroup_local_invocation_id();
                let win = SubgroupMask::first(w + 2u32) & subgroup_ge_mask();
                if win.contains(id) && id < subgroup_size() {
                    win ^ SubgroupMask::lane(id)
                } else {
                    subgroup_eq_mask() | SubgroupMask::EMPTY
                }
            }
        },
    ];
    items
        .into_iter()
        .map(lower)
        .chain([lower(
            syn::parse_str(&ballot_testkit::kernels::every_name_source()).expect("Rust"),
        )])
        .collect()
}

fn writer<'a>(
    kernel: &'a Kernel,
    options: &'a ShaderOptions,
) -> impl Fn(Target, Mode) -> Result<Forms, String> + Sync + 'a {
    move |target, mode| {
        back::write_forms(target, &Form::ALL, &[kernel], options, Missing::Stub, mode)
            .map_err(|e| e.to_string())
    }
}

fn run(write: &Write<'_>, cache: Option<&Cache>, threads: usize) -> (Vec<String>, Phases) {
    let mut phases = Phases::default();
    let (messages, ()) = validate_all(threads, write, cache, || (), &mut phases);
    (messages, phases)
}

#[test]
fn every_shape_is_proven_valid_from_four_texts_under_every_option() {
    let options = [
        ShaderOptions::default(),
        ShaderOptions {
            subgroup_size: 128,
            workgroup_size: [128, 1, 1],
            ..ShaderOptions::default()
        },
        ShaderOptions {
            subgroup_size: 4,
            workgroup_size: [2, 3, 2],
            ..ShaderOptions::default()
        },
    ];
    for kernel in &kernels() {
        for options in &options {
            let (messages, phases) = run(&writer(kernel, options), None, 2);
            assert_eq!(messages, Vec::<String>::new(), "`{}`", kernel.name);
            // Each compute shader stood for its library.
            assert_eq!(phases.parsed, JOBS.len(), "`{}` {options:?}", kernel.name);
        }
    }
}

/// A `wgsl` module in both forms, after `directives`, whose shared part
/// (a library function) holds `library`, with `main` calling it.
fn wgsl_forms(directives: &str, library: &str, main: &str) -> Forms {
    let mut forms = Forms::new(&Form::ALL);
    let _ = forms.write_str(directives);
    forms.only(Some(Form::Helpers));
    let _ = forms.write_str("// Helper functions.\n// Call them.\n");
    forms.only(Some(Form::ComputeShader));
    let _ = forms.write_str("// A compute shader.\n");
    forms.only(None);
    let _ = writeln!(forms, "fn twice(x: u32) -> u32 {{\n    {library}\n}}");
    forms.only(Some(Form::ComputeShader));
    let _ = writeln!(
        forms,
        "@group(0) @binding(0) var<storage, read_write> ballot_out: array<u32>;\n\
         @compute @workgroup_size(64)\nfn main(@builtin(local_invocation_index) i: u32) {{\n    {main}\n}}"
    );
    forms.only(None);
    forms
}

/// A writer of `wgsl_forms`, as `wgsl` and (after two directive lines)
/// `wgsl-web`, of a valid text for `wgsl-no-subgroup`, and of nothing for
/// the GLSL targets.
fn fake(
    library: &'static str,
    main: &'static str,
) -> impl Fn(Target, Mode) -> Result<Forms, String> + Sync {
    move |target, _| match target {
        Target::WgslWeb => Ok(wgsl_forms(
            "enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n",
            library,
            main,
        )),
        Target::Wgsl => Ok(wgsl_forms("", library, main)),
        Target::WgslNoSubgroup => Ok(wgsl_forms("", "return x;", "ballot_out[i] = i;")),
        Target::Glsl | Target::GlslNoSubgroup => Err("not written".to_string()),
    }
}

/// The messages that contain one of `names`.
fn naming<'a>(messages: &'a [String], names: &[&str]) -> Vec<&'a String> {
    messages
        .iter()
        .filter(|m| names.iter().any(|name| m.contains(name)))
        .collect()
}

#[test]
fn a_broken_library_is_reported_in_every_form_at_each_texts_own_line() {
    let write = fake("return x * true;", "ballot_out[i] = twice(i);");
    for threads in [1, 2, 5] {
        let (messages, phases) = run(&write, None, threads);
        // wgsl and wgsl-web, both forms.
        let wgsl = naming(&messages, &["target `wgsl`", "target `wgsl-web`"]);
        assert_eq!(wgsl.len(), 4, "{messages:#?}");
        let line = "`return x * true;`";
        assert!(wgsl[0].starts_with("the helpers form of target `wgsl` is invalid"));
        assert!(
            wgsl[0].contains(&format!("at line 4 {line}")),
            "{}",
            wgsl[0]
        );
        assert!(wgsl[1].starts_with("the compute form of target `wgsl` is invalid"));
        assert!(
            wgsl[1].contains(&format!("at line 3 {line}")),
            "{}",
            wgsl[1]
        );
        // wgsl-web: two directive lines more.
        assert!(wgsl[2].starts_with("the helpers form of target `wgsl-web` is invalid"));
        assert!(
            wgsl[2].contains(&format!("at line 6 {line} (line 4 of the `wgsl` text")),
            "{}",
            wgsl[2]
        );
        assert!(
            wgsl[3].contains(&format!("at line 5 {line} (line 3 of the `wgsl` text")),
            "{}",
            wgsl[3]
        );
        // The compute shader failed, so the library was read too.
        assert!(phases.parsed >= 2);
    }
}

#[test]
fn a_broken_entry_point_fails_the_compute_shader_alone() {
    let write = fake("return x * 2u;", "ballot_out[i] = twice(true);");
    let (messages, _) = run(&write, None, 2);
    let wgsl = naming(&messages, &["target `wgsl`", "target `wgsl-web`"]);
    assert_eq!(wgsl.len(), 2, "{messages:#?}");
    assert!(wgsl[0].starts_with("the compute form of target `wgsl` is invalid"));
    assert!(
        wgsl[0].contains("at line 8 `ballot_out[i] = twice(true);`"),
        "{}",
        wgsl[0]
    );
    assert!(wgsl[1].starts_with("the compute form of target `wgsl-web` is invalid"));
    assert!(wgsl[1].contains("at line 10 "), "{}", wgsl[1]);
}

#[test]
fn a_library_that_reads_a_binding_is_validated_itself() {
    let write = fake("return x * ballot_out[0];", "ballot_out[i] = twice(i);");
    let (messages, phases) = run(&write, None, 2);
    let wgsl = naming(&messages, &["target `wgsl"]);
    // Valid as a compute shader; the library alone lacks `ballot_out`.
    assert_eq!(wgsl.len(), 2, "{messages:#?}");
    assert!(
        wgsl.iter().all(|m| m.starts_with("the helpers form")),
        "{wgsl:#?}"
    );
    assert!(phases.parsed >= 2);
}

#[test]
fn verdicts_kept_in_the_cache_are_not_read_again_and_failures_never_kept() {
    let dir = std::env::temp_dir().join(format!("ballot-check-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cache = Cache::at(dir.clone());
    let kernel = &kernels()[0];
    let options = ShaderOptions::default();
    let write = writer(kernel, &options);
    let (messages, first) = run(&write, Some(&cache), 2);
    assert!(messages.is_empty(), "{messages:#?}");
    assert_eq!((first.parsed, first.cached), (4, 0));
    let (messages, again) = run(&write, Some(&cache), 2);
    assert!(messages.is_empty(), "{messages:#?}");
    assert_eq!((again.parsed, again.cached), (0, 8));
    // A failure is validated, and reported, every time.
    let broken = fake("return x * true;", "ballot_out[i] = twice(i);");
    for _ in 0..2 {
        let (messages, phases) = run(&broken, Some(&cache), 2);
        assert_eq!(naming(&messages, &["target `wgsl"]).len(), 4);
        assert!(phases.parsed >= 2);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn run_all_returns_results_in_job_order() {
    for threads in [1, 2, 3, 8] {
        let jobs = (0..7).map(|i| move || i * 10);
        let (results, first) = run_all(threads, jobs, || "first");
        assert_eq!(results, [0, 10, 20, 30, 40, 50, 60]);
        assert_eq!(first, "first");
    }
}
