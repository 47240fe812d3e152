//! Runs the driver suite on this machine's Vulkan adapter (and on Dawn when
//! Node's `webgpu` package is installed) and prints the figures, ending with
//! one Markdown table row per driver for `docs/conformance.md`.
//!
//! ```text
//! conformance [--targets glsl,wgsl,...] [--no-dawn] [--detail N]
//! ```
//!
//! `BALLOT_ADAPTER` picks the Vulkan adapter by name; `BALLOT_KERNELS=a,b`
//! runs only those kernels; `BALLOT_DUMP=DIR` writes each shader there
//! before the driver compiles it. Exits 1 when any lane
//! disagrees with the simulator or a job fails, 2 on bad arguments or when
//! no driver could run.

use std::io::Write as _;
use std::process::ExitCode;

use ballot_runner::dawn::{self, Dawn};
use ballot_runner::drive::{self, Summary};
use ballot_runner::{suite, Gpu};
use ballot_shader::back::Target;

fn main() -> ExitCode {
    let mut targets: Vec<Target> = Target::ALL.to_vec();
    let mut use_dawn = true;
    let mut detail = 20;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--targets" => {
                let list = args.next().unwrap_or_default();
                match list
                    .split(',')
                    .map(str::parse)
                    .collect::<Result<Vec<Target>, _>>()
                {
                    Ok(t) => targets = t,
                    Err(e) => return usage(&e.to_string()),
                }
            }
            "--no-dawn" => use_dawn = false,
            "--detail" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => detail = n,
                None => return usage("--detail takes a number"),
            },
            other => return usage(&format!("unknown argument `{other}`")),
        }
    }

    let mut summaries = Vec::new();
    match Gpu::new() {
        Ok(gpu) => {
            let wgpu_targets: Vec<Target> = targets
                .iter()
                .copied()
                .filter(|&t| match gpu.unsupported(t) {
                    None => true,
                    Some(why) => {
                        eprintln!("wgpu: skipping {t}: {why}");
                        false
                    }
                })
                .collect();
            let jobs = suite::jobs(&wgpu_targets);
            eprintln!("wgpu: {} jobs on {}", jobs.len(), gpu.describe());
            let summary = drive::run_gpu(&gpu, &jobs, |i, _| {
                if (i + 1) % 100 == 0 {
                    eprintln!("wgpu: {} of {} jobs", i + 1, jobs.len());
                }
            });
            print!("{}", summary.render(detail));
            summaries.push(summary);
        }
        Err(e) => eprintln!("wgpu: {e}"),
    }

    let dawn_targets: Vec<Target> = dawn::TARGETS
        .into_iter()
        .filter(|t| targets.contains(t))
        .collect();
    if use_dawn && !dawn_targets.is_empty() {
        match Dawn::find() {
            Ok(dawn) => {
                let jobs = suite::jobs(&dawn_targets);
                eprintln!("dawn: {} jobs", jobs.len());
                match drive::run_dawn(&dawn, &jobs) {
                    Ok(summary) => {
                        print!("{}", summary.render(detail));
                        summaries.push(summary);
                    }
                    Err(e) => eprintln!("dawn: {e}"),
                }
            }
            Err(why) => eprintln!("dawn: not run: {why}"),
        }
    }

    if summaries.is_empty() {
        eprintln!("no driver ran");
        return ExitCode::from(2);
    }
    println!(
        "\n| driver | {} |",
        Target::ALL.map(Target::name).join(" | ")
    );
    println!("|---|{}", "---|".repeat(Target::ALL.len()));
    for summary in &summaries {
        println!("{}", table_row(summary));
    }
    let _ = std::io::stdout().flush();
    if summaries.iter().all(Summary::passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// One Markdown row: per target, lanes compared and mismatches, or "—"
/// where the target did not run on that driver.
fn table_row(summary: &Summary) -> String {
    let cells: Vec<String> = Target::ALL
        .iter()
        .map(|t| match summary.targets.get(t) {
            None => "—".to_string(),
            Some(r) => {
                let verdict = if r.passed() { "pass" } else { "FAIL" };
                format!(
                    "{verdict}: {} mismatches, {} failed jobs / {} lanes, {} jobs (sizes {:?})",
                    r.report.mismatches.len() + r.report.errors.len(),
                    r.failures.len(),
                    r.report.lanes,
                    r.jobs,
                    r.report.sizes
                )
            }
        })
        .collect();
    format!("| {} | {} |", summary.driver, cells.join(" | "))
}

fn usage(problem: &str) -> ExitCode {
    eprintln!(
        "error: {problem}\nusage: conformance [--targets glsl,wgsl,...] [--no-dawn] [--detail N]"
    );
    ExitCode::from(2)
}
