//! Runs WGSL compute shaders on Dawn/Tint, a second WebGPU implementation,
//! through the npm package `webgpu` and `dawn/run.mjs`.
//!
//! Rust writes a batch of jobs (shader text and buffer words) as one JSON
//! file, a single Node process runs them all with one device, writing one
//! JSON line per job, and Rust reads them back for [`crate::compare()`]. One
//! process for the whole batch, because starting Dawn costs far more than a
//! dispatch.
//!
//! [`Dawn::run_buffers`] runs shaders over several large storage buffers
//! ([`BuffersJob`]): their words, up to tens of MB, would take seconds to
//! print and parse as JSON, so they travel as files of little-endian `u32`s
//! in the batch's temporary directory, and only the job list is JSON.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use ballot_shader::back::Target;
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
        let batch: Vec<Json> = jobs
            .iter()
            .zip(shaders)
            .map(|(job, shader)| {
                let cases = job.cases.iter().map(|case| {
                    let b = Bindings::of(job, case);
                    let mut buffers: Vec<Json> = b
                        .params
                        .iter()
                        .enumerate()
                        .map(|(i, words)| json!({ "binding": i, "words": words }))
                        .collect();
                    if let Some(words) = b.output_words {
                        buffers.push(json!({ "binding": b.output_binding(), "fill": words }));
                    }
                    buffers.push(json!({ "binding": b.record_binding(), "fill": b.record_words }));
                    json!({ "buffers": buffers })
                });
                batch_job(&job.describe(), shader, job.target, job.workgroups, cases)
            })
            .collect();
        let names: Vec<String> = jobs.iter().map(Job::describe).collect();
        let results = self.run_batch(&batch, &names)?;
        Ok(jobs
            .iter()
            .zip(results)
            .map(|(job, cases)| {
                let n = job.invocation_count();
                let ret = job.kernel().ret;
                cases?
                    .into_iter()
                    .map(|mut read| {
                        // run.mjs gives the output (if any), then the records.
                        let records = read.pop().unwrap_or_default();
                        let output = read.pop().unwrap_or_default();
                        Ok(Dispatched {
                            values: decode_values(ret, &output, n),
                            records: decode_records(&records, n),
                        })
                    })
                    .collect()
            })
            .collect())
    }

    /// Runs every [`StorageJob`] once, in one Node process, and returns each
    /// one's buffer after its dispatch (or that job's error).
    ///
    /// # Errors
    /// Node could not run, or died before writing every job's result.
    pub fn run_storage(
        &self,
        jobs: &[StorageJob],
    ) -> Result<Vec<Result<Vec<u32>, RunnerError>>, RunnerError> {
        let batch: Vec<Json> = jobs
            .iter()
            .map(|job| {
                let case = json!({ "buffers": [{ "binding": 0, "fill": job.words }] });
                batch_job(&job.name, &job.shader, job.target, job.workgroups, [case])
            })
            .collect();
        let names: Vec<String> = jobs.iter().map(|j| j.name.clone()).collect();
        let results = self.run_batch(&batch, &names)?;
        Ok(jobs
            .iter()
            .zip(results)
            .map(|(job, cases)| {
                cases?
                    .into_iter()
                    .next()
                    .and_then(|mut read| read.pop())
                    .filter(|words| words.len() == job.words)
                    .ok_or_else(|| RunnerError::Dispatch {
                        job: job.name.clone(),
                        message: "Dawn's result lacks the storage buffer".to_string(),
                    })
            })
            .collect())
    }

    /// Runs the module script of the WebGPU page `page` (such as the
    /// `browser` example's `index.html`) on Dawn through `dawn/page.mjs`,
    /// with the adapter's `subgroups` feature hidden if `hide_subgroups`
    /// (as Firefox and Safari lack it), and returns what the script wrote to
    /// its log element.
    ///
    /// # Errors
    /// Node could not run, or the script threw (the error holds its output).
    pub fn run_page(&self, page: &Path, hide_subgroups: bool) -> Result<String, RunnerError> {
        let mut command = Command::new(&self.node);
        command
            .arg(self.dir.join("page.mjs"))
            .arg(page)
            .current_dir(&self.dir);
        if hide_subgroups {
            command.arg("--hide-subgroups");
        }
        let out = command
            .output()
            .map_err(|e| RunnerError::Dawn(format!("starting node: {e}")))?;
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        if out.status.success() {
            Ok(stdout)
        } else {
            Err(RunnerError::Dawn(format!(
                "{} exited with {}:\n{stdout}{}",
                page.display(),
                out.status,
                String::from_utf8_lossy(&out.stderr)
            )))
        }
    }

    /// Runs every [`BuffersJob`] in one Node process: per job, the words of
    /// each buffer with [`BufferSpec::read_back`], in the order of
    /// [`BuffersJob::buffers`] (or that job's error: Tint rejected the
    /// shader, the pipeline or dispatch was invalid, the device was lost).
    ///
    /// ```no_run
    /// # use ballot_runner::dawn::{BufferSpec, BuffersJob, Dawn};
    /// # use ballot_shader::back::Target;
    /// let dawn = Dawn::find().unwrap();
    /// let job = BuffersJob {
    ///     name: "double".to_string(),
    ///     target: Target::WgslNoSubgroup,
    ///     shader: "@group(0) @binding(0) var<storage, read> a: array<u32>;
    ///              @group(0) @binding(1) var<storage, read_write> b: array<u32>;
    ///              @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    ///                  if g.x < arrayLength(&b) { b[g.x] = 2u * a[g.x]; }
    ///              }"
    ///         .to_string(),
    ///     entries: vec![],
    ///     workgroups: [1, 1, 1],
    ///     buffers: vec![
    ///         BufferSpec { binding: 0, read_only: true, words: (0..64).collect(), ..Default::default() },
    ///         BufferSpec { binding: 1, words: vec![0; 64], read_back: true, ..Default::default() },
    ///     ],
    /// };
    /// let results = dawn.run_buffers(&[job]).unwrap();
    /// let read = results.into_iter().next().unwrap().unwrap();
    /// assert_eq!(read[0][5], 10);
    /// ```
    ///
    /// # Errors
    /// Node could not run, died before writing every job's result, or the
    /// batch's files could not be written; a job's own error is the inner
    /// one.
    pub fn run_buffers(&self, jobs: &[BuffersJob]) -> Result<Vec<BuffersResult>, RunnerError> {
        let work = WorkDir::new()?;
        let mut batch = Vec::with_capacity(jobs.len());
        for (j, job) in jobs.iter().enumerate() {
            let mut buffers = Vec::with_capacity(job.buffers.len());
            for buffer in &job.buffers {
                // Named by the job's index, not its name, which may hold any
                // character.
                let stem = format!("{j}-{}-{}", buffer.group, buffer.binding);
                let mut spec = json!({
                    "group": buffer.group,
                    "binding": buffer.binding,
                    "uniform": buffer.uniform,
                    "read_only": buffer.read_only,
                    "size": buffer.words.len(),
                });
                // All zeros needs no file: run.mjs's buffers start zeroed.
                if buffer.words.iter().any(|&w| w != 0) {
                    let input = work.0.join(format!("{stem}.bin"));
                    std::fs::write(&input, words_to_bytes(&buffer.words))
                        .map_err(|e| RunnerError::Dawn(format!("{}: {e}", input.display())))?;
                    spec["input"] = json!(input);
                }
                if buffer.read_back {
                    spec["output"] = json!(work.0.join(format!("{stem}.out.bin")));
                }
                buffers.push(spec);
            }
            batch.push(json!({
                "name": job.name,
                "shader": job.shader,
                "subgroups": job.target.has_subgroups(),
                "workgroups": job.workgroups,
                "entries": if job.entries.is_empty() { vec!["main".to_string()] } else { job.entries.clone() },
                "binary": true,
                "buffers": buffers,
            }));
        }
        let names: Vec<String> = jobs.iter().map(|j| j.name.clone()).collect();
        let lines = self.run_lines(&work.0, &batch, &names)?;
        Ok(jobs
            .iter()
            .zip(batch)
            .zip(lines)
            .map(|((job, sent), line)| read_buffers(job, &sent, &line))
            .collect())
    }

    /// Runs `batch` (run.mjs's jobs, named `names` in errors) and returns,
    /// per job, per case, the words of each read-write buffer in binding
    /// order.
    fn run_batch(&self, batch: &[Json], names: &[String]) -> Result<Vec<JobResult>, RunnerError> {
        let work = WorkDir::new()?;
        let lines = self.run_lines(&work.0, batch, names)?;
        Ok(names
            .iter()
            .zip(lines)
            .map(|(name, line)| parse_result(name, &line))
            .collect())
    }

    /// Runs `batch` through run.mjs with its files in `work`, and returns
    /// run.mjs's result line for each job.
    fn run_lines(
        &self,
        work: &Path,
        batch: &[Json],
        names: &[String],
    ) -> Result<Vec<String>, RunnerError> {
        let input = work.join("jobs.json");
        let output = work.join("results.jsonl");
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
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        if lines.len() < names.len() {
            let crashed = names.get(lines.len()).cloned().unwrap_or_default();
            return Err(RunnerError::Dawn(format!(
                "node exited with {status} after {} of {} jobs; the next was {crashed}",
                lines.len(),
                names.len()
            )));
        }
        Ok(lines)
    }
}

/// A batch's temporary directory, removed when dropped: on every return,
/// error or not, since a [`BuffersJob`]'s files may take hundreds of MB.
struct WorkDir(PathBuf);

impl WorkDir {
    fn new() -> Result<Self, RunnerError> {
        // Unique per call too: tests of one binary run batches in parallel.
        static BATCHES: AtomicUsize = AtomicUsize::new(0);
        let work = std::env::temp_dir().join(format!(
            "ballot-dawn-{}-{}",
            std::process::id(),
            BATCHES.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&work).map_err(|e| RunnerError::Dawn(e.to_string()))?;
        Ok(Self(work))
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One buffer of a [`BuffersJob`]: a storage buffer, or a uniform one.
#[derive(Clone, Debug, Default)]
pub struct BufferSpec {
    /// Its `@group`.
    pub group: u32,
    /// Its `@binding` in that group.
    pub binding: u32,
    /// Whether the shader declares it `var<uniform>`; `read_only` is then
    /// not read.
    pub uniform: bool,
    /// Whether the shader declares it `var<storage, read>` (layout type
    /// `read-only-storage`) rather than `var<storage, read_write>`.
    pub read_only: bool,
    /// Its initial contents, and its length in words. The buffer itself is
    /// `max(words.len(), 4) * 4` bytes rounded up to a multiple of 16, the
    /// rest zeros, so that an empty or short buffer still binds as an
    /// array of `vec4`s.
    pub words: Vec<u32>,
    /// Whether its first `words.len()` words are read back after the
    /// dispatch.
    pub read_back: bool,
}

/// A WGSL shader run once over several storage buffers (group 0), on
/// Dawn, for [`Dawn::run_buffers`]: buffers of millions of words, such as
/// a benchmark's or a large test's inputs and outputs.
#[derive(Clone, Debug)]
pub struct BuffersJob {
    /// The job's name in errors.
    pub name: String,
    /// A [`TARGETS`] target: whether the device needs `subgroups`.
    pub target: Target,
    /// The WGSL text.
    pub shader: String,
    /// Its compute entry points, dispatched in this order over the same
    /// buffers; none: `main` alone.
    pub entries: Vec<String>,
    /// How many workgroups each dispatch has, in x, y, z; each at most
    /// the adapter's `maxComputeWorkgroupsPerDimension` (65535 on most).
    pub workgroups: [u32; 3],
    /// Its buffers. The bind group layout lists every one, so a binding the
    /// shader does not use is accepted too.
    pub buffers: Vec<BufferSpec>,
}

/// One [`BuffersJob`]'s result from [`Dawn::run_buffers`]: the words of
/// each buffer with [`BufferSpec::read_back`], in the job's order, or the
/// job's error.
pub type BuffersResult = Result<Vec<Vec<u32>>, RunnerError>;

/// `words` as little-endian bytes, the files' format.
fn words_to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// A [`BuffersJob`]'s result from run.mjs's `line`: the files it wrote for
/// the buffers with `read_back`, as `sent` names them.
fn read_buffers(job: &BuffersJob, sent: &Json, line: &str) -> BuffersResult {
    let bad = |message: String| RunnerError::Dispatch {
        job: job.name.clone(),
        message,
    };
    let value: Json = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
    if let Some(error) = value.get("error") {
        return Err(RunnerError::Pipeline {
            job: job.name.clone(),
            message: error.as_str().unwrap_or_default().to_string(),
        });
    }
    if value.get("written").is_none() {
        return Err(bad(format!(
            "Dawn's result is neither an error nor files: {line}"
        )));
    }
    let sent = sent["buffers"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    job.buffers
        .iter()
        .zip(sent)
        .filter(|(buffer, _)| buffer.read_back)
        .map(|(buffer, spec)| {
            let path = spec["output"].as_str().unwrap_or_default();
            let bytes = std::fs::read(path).map_err(|e| bad(format!("{path}: {e}")))?;
            if bytes.len() != buffer.words.len() * 4 {
                return Err(bad(format!(
                    "binding {}: {} bytes read back, not {} words",
                    buffer.binding,
                    bytes.len(),
                    buffer.words.len()
                )));
            }
            Ok(bytes
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect())
        })
        .collect()
}

/// A compute shader whose only binding is a read-write storage buffer at
/// group 0, binding 0, such as a polyfill library's self-test
/// (`ballot_naga::polyfill::self_test`), for [`Dawn::run_storage`].
#[derive(Clone, Debug)]
pub struct StorageJob {
    /// The job's name in errors.
    pub name: String,
    /// A [`TARGETS`] target: whether the device needs `subgroups`.
    pub target: Target,
    /// The WGSL text, with its entry point `main`.
    pub shader: String,
    /// How many workgroups the one dispatch has, in x, y, z.
    pub workgroups: [u32; 3],
    /// The buffer's size in words; every word starts as
    /// [`UNWRITTEN`](crate::job::UNWRITTEN).
    pub words: usize,
}

/// One job's result from run.mjs: per case, each read-write buffer's words.
type JobResult = Result<Vec<Vec<Vec<u32>>>, RunnerError>;

/// One job of run.mjs's input.
fn batch_job(
    name: &str,
    shader: &str,
    target: Target,
    workgroups: [u32; 3],
    cases: impl IntoIterator<Item = Json>,
) -> Json {
    json!({
        "name": name,
        "shader": shader,
        "subgroups": target.has_subgroups(),
        "workgroups": workgroups,
        "cases": cases.into_iter().collect::<Vec<_>>(),
    })
}

fn parse_result(name: &str, line: &str) -> JobResult {
    let bad = |message: String| RunnerError::Dispatch {
        job: name.to_string(),
        message,
    };
    let value: Json = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
    if let Some(error) = value.get("error") {
        let message = error.as_str().unwrap_or_default().to_string();
        return Err(RunnerError::Pipeline {
            job: name.to_string(),
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
    let cases = value
        .get("cases")
        .and_then(Json::as_array)
        .ok_or_else(|| bad("no cases in Dawn's result".to_string()))?;
    Ok(cases
        .iter()
        .map(|c| {
            c["read"]
                .as_array()
                .map(|buffers| buffers.iter().map(words).collect())
                .unwrap_or_default()
        })
        .collect())
}
