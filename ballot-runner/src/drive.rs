//! Runs a batch of jobs on a driver and gathers one [`Report`] per target:
//! what the driver tests and the `conformance` binary share.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Instant;

use ballot_naga::cross::{self, CrossOutput, CrossTarget};
use ballot_shader::back::Target;

use crate::compare::{compare, Report};
use crate::dawn::Dawn;
use crate::gpu::Gpu;
use crate::job::{Dispatched, Job};
use crate::RunnerError;

/// Per-target results of one driver.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// The driver, in words.
    pub driver: String,
    /// One report per target run.
    pub targets: BTreeMap<Target, TargetReport>,
}

/// One target's results on one driver.
#[derive(Clone, Debug, Default)]
pub struct TargetReport {
    /// Jobs (pipelines) run.
    pub jobs: usize,
    /// Dispatches run.
    pub dispatches: usize,
    /// The comparison, over every dispatch.
    pub report: Report,
    /// Jobs that did not run: the shader was rejected or the dispatch
    /// failed.
    pub failures: Vec<String>,
    /// Seconds spent.
    pub seconds: f64,
}

impl TargetReport {
    /// Whether every job ran and every lane agreed.
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.report.passed()
    }

    /// One line of figures.
    pub fn line(&self, target: Target) -> String {
        let r = &self.report;
        format!(
            "{target}: {} jobs, {} dispatches, {} subgroups ({} skipped as undefined), {} lanes, \
             {} mismatches, {} layout errors, {} failed jobs, subgroup sizes {:?}, {:.1}s",
            self.jobs,
            self.dispatches,
            r.subgroups,
            r.undefined,
            r.lanes,
            r.mismatches.len(),
            r.errors.len(),
            self.failures.len(),
            r.sizes,
            self.seconds
        )
    }
}

impl Summary {
    /// Whether every target passed.
    pub fn passed(&self) -> bool {
        self.targets.values().all(TargetReport::passed)
    }

    /// A readable account: one line per target, then up to `detail`
    /// findings per target.
    pub fn render(&self, detail: usize) -> String {
        let mut out = format!("driver: {}\n", self.driver);
        for (target, t) in &self.targets {
            let _ = writeln!(out, "  {}", t.line(*target));
        }
        for (target, t) in &self.targets {
            let findings = t
                .failures
                .iter()
                .cloned()
                .chain(t.report.errors.iter().cloned())
                .chain(t.report.mismatches.iter().map(ToString::to_string));
            for (i, finding) in findings.enumerate() {
                if i == detail {
                    let _ = writeln!(out, "  {target}: ... more");
                    break;
                }
                let _ = writeln!(out, "  {target}: {finding}");
            }
        }
        out
    }

    /// Mismatches, layout errors and failed jobs so far on `target`.
    fn findings(&self, target: Target) -> usize {
        self.targets.get(&target).map_or(0, |t| {
            t.failures.len() + t.report.errors.len() + t.report.mismatches.len()
        })
    }

    fn add(&mut self, job: &Job<'_>, result: Result<Vec<Dispatched>, RunnerError>, seconds: f64) {
        let entry = self.targets.entry(job.target).or_default();
        entry.jobs += 1;
        entry.seconds += seconds;
        match result {
            Ok(dispatched) => {
                for (case, (args, got)) in job.cases.iter().zip(&dispatched).enumerate() {
                    entry.dispatches += 1;
                    entry.report.merge(compare(job, case, args, got));
                }
            }
            Err(e) => entry.failures.push(e.to_string()),
        }
    }
}

/// Whether `BALLOT_VERBOSE` asks for a line per job.
fn verbose() -> bool {
    std::env::var_os("BALLOT_VERBOSE").is_some()
}

/// Runs `jobs` on `gpu`, one pipeline each, comparing as it goes.
/// `progress` is called after each job with its index.
pub fn run_gpu(gpu: &Gpu, jobs: &[Job<'_>], progress: impl FnMut(usize, &Job<'_>)) -> Summary {
    let driver = format!("wgpu on {}", gpu.describe());
    run_each(driver, jobs, |job| gpu.run(job), progress)
}

/// Runs `jobs`, which must be on the `wgsl` or `wgsl-no-subgroup` target,
/// as the SPIR-V that [`ballot_naga::cross::compile`] writes from their
/// text, handed to `gpu`'s driver untouched ([`Gpu::run_spirv`]).
pub fn run_gpu_spirv(
    gpu: &Gpu,
    jobs: &[Job<'_>],
    progress: impl FnMut(usize, &Job<'_>),
) -> Summary {
    let driver = format!(
        "cross-compiled SPIR-V, wgpu passthrough on {}",
        gpu.describe()
    );
    let run = |job: &Job<'_>| {
        let no_shader = |message: String| RunnerError::Shader {
            job: job.describe(),
            message,
        };
        let text = job.shader().map_err(|e| no_shader(e.to_string()))?;
        match cross::compile(&text, CrossTarget::SpirV).map_err(|e| no_shader(e.to_string()))? {
            CrossOutput::SpirV(words) => gpu.run_spirv(job, &words),
            CrossOutput::Text(_) => Err(no_shader("SPIR-V came back as text".to_string())),
        }
    };
    run_each(driver, jobs, run, progress)
}

/// Runs each job with `run`, comparing as it goes.
fn run_each(
    driver: String,
    jobs: &[Job<'_>],
    mut run: impl FnMut(&Job<'_>) -> Result<Vec<Dispatched>, RunnerError>,
    mut progress: impl FnMut(usize, &Job<'_>),
) -> Summary {
    let mut summary = Summary {
        driver,
        ..Summary::default()
    };
    for (i, job) in jobs.iter().enumerate() {
        let start = Instant::now();
        let result = run(job);
        let ran = start.elapsed().as_secs_f64();
        let before = summary.findings(job.target);
        summary.add(job, result, start.elapsed().as_secs_f64());
        if verbose() {
            let found = summary.findings(job.target) - before;
            eprintln!(
                "{:.2}s driver, {:.2}s compare, {found} findings: {} ({} cases)",
                ran,
                start.elapsed().as_secs_f64() - ran,
                job.describe(),
                job.cases.len()
            );
        }
        progress(i, job);
    }
    summary
}

/// Runs `jobs` on Dawn in one Node process.
///
/// # Errors
/// The batch as a whole failed (Node died).
pub fn run_dawn(dawn: &Dawn, jobs: &[Job<'_>]) -> Result<Summary, RunnerError> {
    let start = Instant::now();
    let mut shaders = Vec::with_capacity(jobs.len());
    let mut runnable = Vec::new();
    let mut summary = Summary {
        driver: "Dawn/Tint (npm `webgpu`) on Vulkan".to_string(),
        ..Summary::default()
    };
    for job in jobs {
        match job.shader() {
            Ok(text) => {
                shaders.push(text);
                runnable.push(job.clone());
            }
            Err(e) => summary.add(
                job,
                Err(RunnerError::Shader {
                    job: job.describe(),
                    message: e.to_string(),
                }),
                0.0,
            ),
        }
    }
    let results = dawn.run(&runnable, &shaders)?;
    let per_job = start.elapsed().as_secs_f64() / runnable.len().max(1) as f64;
    for (job, result) in runnable.iter().zip(results) {
        summary.add(job, result, per_job);
    }
    Ok(summary)
}
