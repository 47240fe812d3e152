//! What the GPU examples share: running a kernel's compute shader on a
//! Vulkan adapter, when there is one, and comparing every invocation with
//! the native simulator.
//!
//! The kernels and their native run live in the root package's examples,
//! which each GPU example includes as a module: `cargo run --example X`
//! there builds no wgpu, and the GPU examples here add only the driver.

use ballot::{Dispatch, ShaderOptions, SimError, Target};
use ballot_ir::ir::Kernel;
use ballot_runner::{Gpu, Job};
use ballot_sim::interp::{Arg, Value};

/// The outcome of [`on_gpu`] for one target.
pub enum Outcome {
    /// Every invocation matched the simulator.
    Agreed {
        /// The subgroup size the driver (or the emulation) used.
        subgroup_size: u32,
    },
    /// The target cannot run on this adapter, and why.
    Skipped(String),
    /// A difference or a failure, described.
    Failed(String),
}

/// Runs the compute shader of `kernels` on the first Vulkan adapter for
/// each of `targets`, with `args` (one [`Arg`] per parameter, per-lane ones
/// holding one value per invocation), and compares every invocation's
/// output with `native`, the simulator run over a [`Dispatch`] of the same
/// shape in the subgroup size the driver reported.
///
/// Returns `None` when no adapter exists: the examples then stop at the
/// native run.
pub fn on_gpu(
    kernels: &[&'static Kernel],
    targets: &[Target],
    options: &ShaderOptions,
    workgroups: [u32; 3],
    args: Vec<Arg>,
    native: impl Fn(&Dispatch) -> Result<Vec<Value>, SimError>,
) -> Option<(String, Vec<(Target, Outcome)>)> {
    let gpu = Gpu::new().ok()?;
    let mut outcomes = Vec::new();
    for &target in targets {
        let outcome = match gpu.unsupported(target) {
            Some(why) => Outcome::Skipped(why),
            None => run_one(&gpu, kernels, target, options, workgroups, &args, &native),
        };
        outcomes.push((target, outcome));
    }
    Some((gpu.describe(), outcomes))
}

fn run_one(
    gpu: &Gpu,
    kernels: &[&'static Kernel],
    target: Target,
    options: &ShaderOptions,
    workgroups: [u32; 3],
    args: &[Arg],
    native: &impl Fn(&Dispatch) -> Result<Vec<Value>, SimError>,
) -> Outcome {
    let job = Job {
        kernels: kernels.to_vec(),
        target,
        options: options.clone(),
        workgroups,
        cases: vec![args.to_vec()],
    };
    let got = match gpu.run(&job) {
        Ok(mut got) => got.remove(0),
        Err(e) => return Outcome::Failed(e.to_string()),
    };
    let per_wg = job.invocations_per_workgroup();
    let size = got.records.first().map_or(0, |r| r.size);
    // The simulator lays lanes out as drivers commonly do: subgroup
    // `local_invocation_index / size`, lane `local_invocation_index % size`.
    // A driver that does otherwise is compared by the harness instead.
    let linear = got.records.iter().enumerate().all(|(g, r)| {
        let local = (g % per_wg) as u32;
        r.size == size && r.lane == local % size
    });
    if !linear {
        let report = ballot_runner::compare(&job, 0, args, &got);
        return if report.passed() {
            Outcome::Agreed {
                subgroup_size: size,
            }
        } else {
            Outcome::Failed(format!("{report:?}"))
        };
    }
    let dispatch = match Dispatch::new(options.workgroup_size, size, workgroups) {
        Ok(d) => d,
        Err(e) => return Outcome::Failed(format!("subgroups of {size}: {e}")),
    };
    let expected = match native(&dispatch) {
        Ok(v) => v,
        Err(e) => return Outcome::Failed(format!("the simulator: {e}")),
    };
    match expected.iter().zip(&got.values).position(|(e, g)| e != g) {
        None if expected.len() == got.values.len() => Outcome::Agreed {
            subgroup_size: size,
        },
        None => Outcome::Failed(format!(
            "{} values from the simulator, {} from the driver",
            expected.len(),
            got.values.len()
        )),
        Some(g) => Outcome::Failed(format!(
            "invocation {g} ({:?}): simulator {:?}, driver {:?}",
            got.records[g], expected[g], got.values[g]
        )),
    }
}

/// Prints the outcome of [`on_gpu`] and says whether every target agreed.
pub fn report(result: Option<(String, Vec<(Target, Outcome)>)>) -> bool {
    let Some((adapter, outcomes)) = result else {
        println!("no Vulkan adapter: the shaders were validated by naga, not run");
        return true;
    };
    println!("on {adapter}:");
    let mut ok = true;
    for (target, outcome) in outcomes {
        match outcome {
            Outcome::Agreed { subgroup_size } => {
                println!("  {target:<17} agrees with the simulator (subgroups of {subgroup_size})")
            }
            Outcome::Skipped(why) => println!("  {target:<17} skipped: {why}"),
            Outcome::Failed(why) => {
                ok = false;
                println!("  {target:<17} DIFFERS: {why}")
            }
        }
    }
    ok
}
