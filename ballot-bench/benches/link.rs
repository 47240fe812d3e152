//! The linker's cost against its validator's: for each target, a generated
//! shader with N ballot calls (20,000 and 200,000 by default) is linked,
//! and the linked text is then judged as the linker judges it: WGSL by
//! naga (its parse and validation, as `ballot check` runs it), GLSL by
//! `glslangValidator` compiling it to SPIR-V. Prints both times and their
//! ratio; the linker's own work is linear, so the ratio stays near 1 (it
//! validates once, itself).
//!
//! `cargo bench -p ballot-bench --bench link` (release). Arguments pick
//! the call counts and targets:
//! `cargo bench -p ballot-bench --bench link -- 2000 wgsl-no-subgroup`,
//! `--one-function` puts every call in `main`'s one callee, and
//! `--repeat=N` keeps the fastest of N runs of each measurement (3).
//! A plain `main`, not criterion: one run at 200,000 calls takes seconds,
//! and the figure wanted is the ratio, not a confidence interval.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use ballot_naga::link::{link, LinkOptions};
use ballot_shader::back::{Language, Target};

/// Calls in each generated function, as a user's shader splits its work.
/// `--one-function` puts them all in one, as issue 33's probe did: naga's
/// own time then grows faster than the function (not the linker's).
const CALLS_PER_FUNCTION: usize = 100;

/// A compute shader of `language` that makes `calls` ballot calls (each
/// statement two, ballot then a query of its mask), in functions of
/// `per_function` calls that `main` calls in turn.
pub fn shader(language: Language, calls: usize, per_function: usize) -> String {
    // Each line: a ballot, and one of four queries on its mask.
    let queries = [
        "BitCount(b)",
        "ExclusiveBitCount(b)",
        "FindLSB(b)",
        "InclusiveBitCount(b)",
    ];
    let functions = calls.div_ceil(per_function);
    let mut out = String::with_capacity(calls * 60);
    match language {
        Language::Wgsl => {
            out.push_str("@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n\n");
            let mut left = calls;
            for f in 0..functions {
                writeln!(out, "fn f{f}(v: u32) -> u32 {{\n    var x = 0u;").unwrap();
                for k in 0..(per_function / 2).min(left.div_ceil(2)) {
                    let q = queries[k % queries.len()];
                    writeln!(
                        out,
                        "    {{ let b = subgroupBallot((v + {k}u) > 7u); x += subgroupBallot{q}; }}"
                    )
                    .unwrap();
                }
                left = left.saturating_sub(per_function);
                out.push_str("    return x;\n}\n\n");
            }
            out.push_str(
                "@compute @workgroup_size(64)\n\
                 fn main(@builtin(global_invocation_id) id: vec3<u32>) {\n    var t = 0u;\n",
            );
            for f in 0..functions {
                writeln!(out, "    t += f{f}(id.x);").unwrap();
            }
            out.push_str("    out[id.x] = t;\n}\n");
        }
        Language::Glsl => {
            out.push_str(
                "#version 450\n\
                 #extension GL_KHR_shader_subgroup_basic : require\n\
                 #extension GL_KHR_shader_subgroup_ballot : require\n\n\
                 layout(local_size_x = 64) in;\n\
                 layout(std430, set = 0, binding = 0) buffer Out { uint data[]; };\n\n",
            );
            let mut left = calls;
            for f in 0..functions {
                writeln!(out, "uint f{f}(uint v) {{\n    uint x = 0u;").unwrap();
                for k in 0..(per_function / 2).min(left.div_ceil(2)) {
                    let q = queries[k % queries.len()];
                    writeln!(
                        out,
                        "    {{ uvec4 b = subgroupBallot((v + {k}u) > 7u); x += subgroupBallot{q}; }}"
                    )
                    .unwrap();
                }
                left = left.saturating_sub(per_function);
                out.push_str("    return x;\n}\n\n");
            }
            out.push_str("void main() {\n    uint t = 0u;\n");
            for f in 0..functions {
                writeln!(out, "    t += f{f}(gl_GlobalInvocationID.x);").unwrap();
            }
            out.push_str("    data[gl_GlobalInvocationID.x] = t;\n}\n");
        }
    }
    out
}

fn seconds(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Numbers are call counts; target names pick targets (all by default).
    let counts: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let mut targets: Vec<Target> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if targets.is_empty() {
        targets = Target::ALL.to_vec();
    }
    let per_function = if args.iter().any(|a| a == "--one-function") {
        usize::MAX
    } else {
        CALLS_PER_FUNCTION
    };
    // `--repeat=N`: runs of each measurement, the fastest kept (3).
    let repeats: usize = args
        .iter()
        .find_map(|a| a.strip_prefix("--repeat=")?.parse().ok())
        .unwrap_or(3)
        .max(1);
    let counts = if counts.is_empty() {
        vec![20_000, 200_000]
    } else {
        counts
    };
    println!(
        "{:>8}  {:<18} {:>9} {:>9} {:>7}",
        "calls", "target", "link s", "judge s", "ratio"
    );
    for &calls in &counts {
        for &target in &targets {
            let source = shader(target.language(), calls, per_function);
            let path = format!("bench.{}", target.language().extension());
            let options = LinkOptions::default();
            let link_once = || {
                let start = Instant::now();
                let linked =
                    link(&source, &path, target, &options).unwrap_or_else(|e| panic!("{e}"));
                (start.elapsed(), linked.text)
            };
            let (_, text) = link_once();
            let check_once = || {
                let start = Instant::now();
                match target.language() {
                    Language::Wgsl => ballot_naga::valid::check_source(target, &path, &text)
                        .unwrap_or_else(|e| panic!("{e}")),
                    // glslang as the linker runs it (`valid::glslang`).
                    Language::Glsl => assert!(
                        ballot_naga::valid::glslang_accepts("bench.comp", &text),
                        "glslang refuses the linked text"
                    ),
                }
                start.elapsed()
            };
            // The fastest of a few runs of each, alternating: the first
            // allocation of a run's size faults its pages in, which would
            // otherwise count against whichever ran first.
            let (mut linking, mut validation) = (Duration::MAX, Duration::MAX);
            for _ in 0..repeats {
                validation = validation.min(check_once());
                linking = linking.min(link_once().0);
            }
            println!(
                "{calls:>8}  {:<18} {:>9.3} {:>9.3} {:>7.2}",
                target.name(),
                seconds(linking),
                seconds(validation),
                seconds(linking) / seconds(validation)
            );
        }
    }
}
