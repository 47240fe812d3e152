//! Runs WGSL compute shaders on Dawn/Tint, a second WebGPU implementation,
//! through the npm package `webgpu` and `dawn/run.mjs`.
//!
//! Rust writes a batch of jobs (shader text and buffer words) as one JSON
//! file, a single Node process runs them all with one device, writing one
//! JSON line per job, and Rust reads them back for [`crate::compare()`]. One
//! process for the whole batch, because starting Dawn costs far more than a
//! dispatch.

use std::path::{Path, PathBuf};
use std::process::Command;

use ballot_core::back::Target;
use serde_json::{json, Value as Json};

use crate::job::{decode_records, decode_values, Bindings, Dispatched, Job};
use crate::RunnerError;

/// The targets Dawn runs: WGSL with Tint's directives, and the fallback.
pub const TARGETS: [Target; 2] = [Target::WgslWeb, Target::WgslNoSubgroup];

/// Where `run.mjs` and its `node_modules` live: `BALLOT_DAWN_DIR`, or
/// this crate's `dawn/` (a binary carried to another machine needs the
/// former).
pub fn script_dir() -> PathBuf {
    match std::env::var_os("BALLOT_DAWN_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("dawn"),
    }
}

/// A Node with the `webgpu` package installed beside `run.mjs`.
#[derive(Clone, Debug)]
pub struct Dawn {
    node: PathBuf,
    dir: PathBuf,
}

impl Dawn {
    /// Finds `node` (or `BALLOT_NODE`) on the `PATH` and the installed
    /// package in [`script_dir`].
    ///
    /// # Errors
    /// Why Dawn cannot run here, with what to install.
    pub fn find() -> Result<Self, String> {
        let dir = script_dir();
        let node = PathBuf::from(std::env::var_os("BALLOT_NODE").unwrap_or_else(|| "node".into()));
        let version = Command::new(&node).arg("--version").output();
        match version {
            Ok(out) if out.status.success() => {}
            _ => {
                return Err(format!(
                    "`{}` does not run: install Node.js",
                    node.display()
                ))
            }
        }
        if !dir.join("node_modules/webgpu/package.json").exists() {
            return Err(format!(
                "the npm package `webgpu` is not installed: run `npm ci` in {}",
                dir.display()
            ));
        }
        Ok(Self { node, dir })
    }

    /// Runs every job's cases; `shaders[i]` is job `i`'s text. The outer
    /// error is a failure of the whole batch; an inner one is one job's
    /// (Tint rejected the shader, the device was lost, ...).
    ///
    /// # Errors
    /// Node could not run, or died before writing every job's result.
    pub fn run(
        &self,
        jobs: &[Job<'_>],
        shaders: &[String],
    ) -> Result<Vec<Result<Vec<Dispatched>, RunnerError>>, RunnerError> {
        let work = std::env::temp_dir().join(format!("ballot-dawn-{}", std::process::id()));
        std::fs::create_dir_all(&work).map_err(|e| RunnerError::Dawn(e.to_string()))?;
        let input = work.join("jobs.json");
        let output = work.join("results.jsonl");
        let batch: Vec<Json> = jobs
            .iter()
            .zip(shaders)
            .map(|(job, shader)| {
                let cases: Vec<Json> = job
                    .cases
                    .iter()
                    .map(|case| {
                        let b = Bindings::of(job, case);
                        json!({
                            "params": b.params,
                            "output_words": b.output_words,
                            "record_words": b.record_words,
                        })
                    })
                    .collect();
                json!({
                    "name": job.describe(),
                    "shader": shader,
                    "subgroups": job.target.has_subgroups(),
                    "workgroups": job.workgroups,
                    "cases": cases,
                })
            })
            .collect();
        std::fs::write(&input, json!({ "jobs": batch }).to_string())
            .map_err(|e| RunnerError::Dawn(e.to_string()))?;
        let status = Command::new(&self.node)
            .arg(self.dir.join("run.mjs"))
            .arg(&input)
            .arg(&output)
            .current_dir(&self.dir)
            .status()
            .map_err(|e| RunnerError::Dawn(format!("starting node: {e}")))?;
        let text = std::fs::read_to_string(&output).unwrap_or_default();
        let _ = std::fs::remove_dir_all(&work);
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() < jobs.len() {
            let crashed = jobs.get(lines.len()).map(Job::describe).unwrap_or_default();
            return Err(RunnerError::Dawn(format!(
                "node exited with {status} after {} of {} jobs; the next was {crashed}",
                lines.len(),
                jobs.len()
            )));
        }
        Ok(jobs
            .iter()
            .zip(lines)
            .map(|(job, line)| parse_result(job, line))
            .collect())
    }
}

fn parse_result(job: &Job<'_>, line: &str) -> Result<Vec<Dispatched>, RunnerError> {
    let bad = |message: String| RunnerError::Dispatch {
        job: job.describe(),
        message,
    };
    let value: Json = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
    if let Some(error) = value.get("error") {
        let message = error.as_str().unwrap_or_default().to_string();
        return Err(RunnerError::Pipeline {
            job: job.describe(),
            message,
        });
    }
    let words = |v: &Json| -> Vec<u32> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|w| w.as_u64())
                    .map(|w| w as u32)
                    .collect()
            })
            .unwrap_or_default()
    };
    let n = job.invocation_count();
    let cases = value
        .get("cases")
        .and_then(Json::as_array)
        .ok_or_else(|| bad("no cases in Dawn's result".to_string()))?;
    Ok(cases
        .iter()
        .map(|c| Dispatched {
            values: decode_values(job.kernel().ret, &words(&c["output"]), n),
            records: decode_records(&words(&c["records"]), n),
        })
        .collect())
}
