//! Every suite kernel on real drivers, compared lane by lane with the IR
//! interpreter: wgpu on Vulkan for `glsl`, `glsl-no-subgroup`, `wgsl` and
//! `wgsl-no-subgroup`, and Dawn/Tint for `wgsl-web` and `wgsl-no-subgroup`.
//! Each hand-written kernel also runs once per `wgsl` / `wgsl-no-subgroup`
//! as the SPIR-V `ballot_naga::cross` writes, through wgpu's passthrough.
//!
//! Without a Vulkan adapter (or without Node's `webgpu` package, for Dawn)
//! the tests say why on stderr and pass, unless `BALLOT_REQUIRE_GPU=1`,
//! which CI sets. Other knobs:
//! - `BALLOT_TARGETS=glsl,wgsl`: run only these targets.
//! - `BALLOT_EXPECT_SUBGROUP_SIZE=N`: fail unless the native targets ran in
//!   subgroups of N (CI sets it with lavapipe's `LP_NATIVE_VECTOR_WIDTH`, so
//!   that a width the driver ignored cannot pass unnoticed).
//! - `BALLOT_ADAPTER=NAME`: the Vulkan adapter whose name contains NAME.

use ballot_runner::dawn::{self, Dawn};
use ballot_runner::drive::{self, Summary};
use ballot_runner::{compare, suite, Gpu, Job, RunnerError};
use ballot_shader::back::Target;
use ballot_sim::interp::{Arg, Value};

mod common;

use common::{loud, required, skip, targets};

fn check(summary: &Summary) {
    loud(&summary.render(40));
    if let Some(size) = std::env::var("BALLOT_EXPECT_SUBGROUP_SIZE")
        .ok()
        .and_then(|s| s.parse::<u32>().ok())
    {
        for (target, report) in &summary.targets {
            if target.has_subgroups() && report.report.lanes > 0 {
                assert_eq!(
                    report.report.sizes.iter().copied().collect::<Vec<_>>(),
                    [size],
                    "{target} ran in other subgroup sizes than BALLOT_EXPECT_SUBGROUP_SIZE"
                );
            }
        }
    }
    assert!(
        summary.passed(),
        "drivers disagree with the simulator:\n{}",
        summary.render(200)
    );
}

#[test]
fn wgpu_targets_agree_with_the_simulator() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("wgpu driver tests", &e.to_string()),
    };
    let all = [
        Target::Glsl,
        Target::GlslNoSubgroup,
        Target::Wgsl,
        Target::WgslNoSubgroup,
    ];
    let mut run = Vec::new();
    for target in targets(&all) {
        match gpu.unsupported(target) {
            None => run.push(target),
            Some(why) => skip(&format!("{target} on {}", gpu.describe()), &why),
        }
    }
    if run.is_empty() {
        return;
    }
    let jobs = suite::jobs(&run);
    loud(&format!("wgpu: {} jobs on {}", jobs.len(), gpu.describe()));
    let summary = drive::run_gpu(&gpu, &jobs, |i, _| {
        if (i + 1) % 200 == 0 {
            loud(&format!("wgpu: {} of {} jobs", i + 1, jobs.len()));
        }
    });
    check(&summary);
}

#[test]
fn dawn_targets_agree_with_the_simulator() {
    let run = targets(&dawn::TARGETS);
    if run.is_empty() {
        return;
    }
    let dawn = match Dawn::find() {
        Ok(dawn) => dawn,
        Err(why) => return skip("Dawn driver tests", &why),
    };
    let jobs = suite::jobs(&run);
    loud(&format!("dawn: {} jobs", jobs.len()));
    match drive::run_dawn(&dawn, &jobs) {
        Ok(summary) => check(&summary),
        // Dawn finds no adapter where Vulkan has none: the same skip.
        Err(e) if !required() && e.to_string().contains("no Vulkan adapter") => {
            skip("Dawn driver tests", &e.to_string())
        }
        Err(e) => panic!("{e}"),
    }
}

/// The SPIR-V that `ballot_naga::cross::compile` writes from `wgsl` and
/// `wgsl-no-subgroup` shaders, handed to the driver untouched: the first
/// job of every hand-written suite kernel on each target (the random
/// kernels and the other shapes stay with the test above, which runs the
/// same text through wgpu's own translation).
#[test]
fn cross_compiled_spirv_agrees_with_the_simulator() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("cross-compiled SPIR-V driver tests", &e.to_string()),
    };
    if let Some(why) = gpu.passthrough_missing() {
        return skip("cross-compiled SPIR-V driver tests", &why);
    }
    // The kernels of the rest of the family take lavapipe about 170 s to
    // compile as cross-compiled `wgsl-no-subgroup` SPIR-V: they run here in
    // `scripts/test --full` (`BALLOT_CROSS_ALL=1`), and through wgpu's own
    // translation in every run.
    let all = std::env::var_os("BALLOT_CROSS_ALL").is_some_and(|v| v == "1");
    let hand_written: Vec<String> = suite::programs()
        .iter()
        .filter(|p| p.exhaustive)
        .map(|p| p.kernels[0].name.clone())
        .filter(|name| all || !name.starts_with("family_"))
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    let mut jobs = suite::jobs(&targets(&[Target::Wgsl, Target::WgslNoSubgroup]));
    jobs.retain(|j| {
        let name = &j.kernel().name;
        hand_written.contains(name) && seen.insert((name.clone(), j.target))
    });
    if jobs.is_empty() {
        return;
    }
    loud(&format!(
        "cross-compiled SPIR-V: {} jobs on {}",
        jobs.len(),
        gpu.describe()
    ));
    check(&drive::run_gpu_spirv(&gpu, &jobs, |_, _| {}));
}

/// A job of `compaction_slot` (an exclusive bit count of a ballot) on
/// `target`, in one ragged shape.
fn compaction_job(target: Target) -> Job<'static> {
    let mut jobs = suite::jobs(&[target]);
    jobs.retain(|j| j.kernel().name == "compaction_slot" && j.options.workgroup_size == [15, 3, 1]);
    jobs.retain(|j| target.has_subgroups() || j.options.subgroup_size == 8);
    jobs.swap_remove(0)
}

/// The harness catches a deliberately wrong helper: the shader's exclusive
/// bit count turned into an inclusive one, which changes every kept lane.
#[test]
fn a_wrong_helper_is_caught() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("the wrong-helper test", &e.to_string()),
    };
    for target in [Target::Wgsl, Target::WgslNoSubgroup, Target::Glsl] {
        if gpu.unsupported(target).is_some() {
            continue;
        }
        let mut job = compaction_job(target);
        // A case where some lanes keep and some don't: with none kept,
        // every count is 0, right or wrong.
        job.cases.retain(|case| match &case[0] {
            Arg::PerLane(keep) => {
                keep.contains(&Value::Bool(true)) && keep.contains(&Value::Bool(false))
            }
            Arg::Uniform(_) => false,
        });
        job.cases.truncate(1);
        assert_eq!(job.cases.len(), 1, "the suite has a mixed compaction case");
        let right = job.shader().expect("the writer emits compaction_slot");
        // Sabotage: natively (GLSL) the call becomes the inclusive count;
        // elsewhere the generated helper forgets its lane mask.
        let wrong = if target == Target::Glsl {
            right.replace(
                "subgroupBallotExclusiveBitCount",
                "subgroupBallotInclusiveBitCount",
            )
        } else {
            sabotage_exclusive(&right)
        };
        assert_ne!(
            wrong, right,
            "{target}: found nothing to sabotage in:\n{right}"
        );
        let good = gpu.run_text(&job, &right).expect("the right shader runs");
        let bad = gpu.run_text(&job, &wrong).expect("the wrong shader runs");
        let args: &[Arg] = &job.cases[0];
        let good = compare(&job, 0, args, &good[0]);
        let bad = compare(&job, 0, args, &bad[0]);
        assert!(good.passed(), "{target}: {:?}", good.mismatches.first());
        assert!(
            !bad.mismatches.is_empty(),
            "{target}: the harness missed a wrong exclusive bit count"
        );
        loud(&format!(
            "{target}: the wrong helper gave {} mismatches of {} lanes, e.g. {}",
            bad.mismatches.len(),
            bad.lanes,
            bad.mismatches[0]
        ));
    }
}

/// Breaks the generated exclusive-bit-count helper the way a hand-written
/// one often is: it forgets to keep only the lanes below this one, and so
/// counts every set bit. Where the helper builds no `lt_mask`, its result
/// is made one too large instead.
fn sabotage_exclusive(text: &str) -> String {
    let all_ones = if text.contains("vec4<u32>") {
        "vec4<u32>(0xffffffffu)"
    } else {
        "uvec4(0xffffffffu)"
    };
    let mut out = Vec::new();
    let mut inside = false;
    let mut changed = false;
    for line in text.lines() {
        let mut line = line.to_string();
        if line.contains("exclusive_bit_count(") && line.trim_end().ends_with('{') {
            inside = true;
        } else if inside && line.starts_with('}') {
            inside = false;
        } else if inside && !changed {
            if line.contains("ballot_lt_mask()") {
                line = line.replace("ballot_lt_mask()", all_ones);
                changed = true;
            } else if let Some(value) = line.trim_start().strip_prefix("return ") {
                let indent = &line[..line.len() - line.trim_start().len()];
                line = format!("{indent}return ({}) + 1u;", value.trim_end_matches(';'));
                changed = true;
            }
        }
        out.push(line);
    }
    out.join("\n")
}

#[test]
fn a_missing_adapter_is_a_typed_error() {
    match Gpu::with_adapter(Some("no adapter has this name")) {
        Err(RunnerError::NoAdapter { wanted, .. }) => {
            assert_eq!(wanted.as_deref(), Some("no adapter has this name"));
        }
        Err(other) => panic!("expected NoAdapter, got {other}"),
        Ok(gpu) => panic!("opened {}", gpu.describe()),
    }
}

/// The oracle's counterexamples for `workgroup_total`, whose answer
/// depends on the subgroup size, between each two of the sizes lavapipe
/// offers (4, 8 and 16, by `LP_NATIVE_VECTOR_WIDTH`): the driver gives the
/// simulator's answer at its own size, which differs from the other size's.
/// CI runs this at all three widths, and on Dawn, so the drivers are seen
/// to differ exactly as the oracle says.
#[test]
fn size_counterexamples_differ_between_drivers_as_predicted() {
    use ballot::portability::{PortabilityError, Portable};
    use ballot::{Dispatch, Model};

    let at = |p: &[bool], size: u32| {
        let dispatch = Dispatch::new([p.len() as u32, 1, 1], size, [1, 1, 1]).unwrap();
        suite::catalogue::workgroup_total::run_dispatch(&dispatch, p).unwrap()
    };
    // One shrunk input per pair of sizes.
    let inputs: Vec<(u32, u32, Vec<bool>)> = [(4, 8), (8, 16), (4, 16)]
        .into_iter()
        .map(|(a, b)| {
            let found = suite::catalogue::workgroup_total::portability()
                .sizes([a])
                .reference(b)
                .models([Model::Maximal])
                .check();
            let c = match found {
                Err(PortabilityError::NotPortable(c)) => c,
                other => panic!("the oracle did not tell {a} from {b}: {other:?}"),
            };
            let p: Vec<bool> = c.input.lanes.iter().map(|&(p,)| p).collect();
            assert_ne!(at(&p, a), at(&p, b), "{p:?}");
            (a, b, p)
        })
        .collect();
    let job = |target, p: &[bool]| Job {
        kernels: suite::catalogue::workgroup_total::kernels(),
        target,
        options: ballot_shader::back::ShaderOptions {
            workgroup_size: [p.len() as u32, 1, 1],
            // Native targets only: the virtual size is unused, and must
            // merely fit the workgroup.
            subgroup_size: 1,
            record_lanes: true,
            ..ballot_shader::back::ShaderOptions::default()
        },
        workgroups: [1, 1, 1],
        cases: vec![vec![Arg::PerLane(
            p.iter().map(|&b| Value::Bool(b)).collect(),
        )]],
    };
    let check_run = |driver: &str,
                     job: &Job<'_>,
                     (a, b, p): &(u32, u32, Vec<bool>),
                     got: &ballot_runner::Dispatched| {
        let report = compare(job, 0, &job.cases[0], got);
        assert!(report.passed(), "{driver}: {report:?}");
        let size = got.records[0].size;
        let values: Vec<u32> = got
            .values
            .iter()
            .map(|v| v.as_u32().expect("a u32 result"))
            .collect();
        assert_eq!(values, at(p, size), "{driver} at its size {size}");
        let other = if size == *a {
            Some(*b)
        } else if size == *b {
            Some(*a)
        } else {
            None
        };
        if let Some(other) = other {
            assert_ne!(values, at(p, other), "{driver}");
            loud(&format!(
                "{driver}, subgroups of {size}: `workgroup_total` of {p:?} = {values:?}; \
                 at {other} it would be {:?}",
                at(p, other)
            ));
        }
    };
    match Gpu::new() {
        Ok(gpu) => {
            for input in &inputs {
                let job = job(Target::Glsl, &input.2);
                let got = gpu.run(&job).expect("the driver runs the glsl shader");
                check_run(&gpu.describe(), &job, input, &got[0]);
            }
        }
        Err(e) => skip("size counterexamples on wgpu", &e.to_string()),
    }
    match Dawn::find() {
        Ok(dawn) => {
            let jobs: Vec<Job<'_>> = inputs.iter().map(|i| job(Target::WgslWeb, &i.2)).collect();
            let shaders: Vec<String> = jobs.iter().map(|j| j.shader().unwrap()).collect();
            match dawn.run(&jobs, &shaders) {
                Ok(results) => {
                    for ((job, input), got) in jobs.iter().zip(&inputs).zip(results) {
                        let got = got.expect("Dawn runs the wgsl-web shader");
                        check_run("Dawn", job, input, &got[0]);
                    }
                }
                Err(e) if !required() && e.to_string().contains("no Vulkan adapter") => {
                    skip("size counterexamples on Dawn", &e.to_string())
                }
                Err(e) => panic!("{e}"),
            }
        }
        Err(why) => skip("size counterexamples on Dawn", &why),
    }
}
