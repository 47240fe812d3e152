//! `ballot check PATH... [--target T] [--format human|json]`.

use std::collections::HashSet;
use std::io::{IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use ballot::check::{
    check_bytes, target_for_path, CheckError, Problem, EXTENSIONS, MAX_SOURCE_BYTES,
};
use ballot::Target;
use ballot_ir::source::ReadError;
use clap::error::ErrorKind;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::TargetArg;

/// What `ballot check --help` adds below the options.
const AFTER_HELP: &str = r#"Paths:
  A file named on the command line is checked whatever its name, hidden or
  not (an extension that names no language needs --target). A directory is
  walked recursively, depth first, each directory's entries in name order,
  for the files whose extension names a language (.wgsl, .glsl, .comp,
  .glsl.comp); the walk skips hidden files and directories (names starting
  with `.`), directories named `target` or `node_modules`, and symbolic
  links to directories. Name such a directory on the command line to check
  it. With --target, the walk picks the same files and checks each for
  that target. The same path reached twice is checked once.

Every file is checked, whatever the others gave. With more than one file,
the human format ends with `checked N files: K invalid` on stdout. A
progress bar appears on stderr once the run has taken more than a second,
if stderr is a terminal.

JSON:
  {"files": [{"path": "a.wgsl", "target": "wgsl", "ok": false,
              "problem": "invalid", "message": "...", "line": 3,
              "column": 13}, ...],
   "checked": 1, "invalid": 1}
  `problem` is null for a valid file, else one of: invalid (naga rejected
  it), unreadable (a FIFO or a device, which is never read, included),
  too-large, empty, not-utf8, too-deep, too-long, macro-too-large,
  macro-cycle, naga-panicked, timed-out, thread. `message` is naga's
  error and its notes, without the source snippet. `line` and `column` are
  1-based, null where the problem points nowhere; `column` is there only
  where naga's first label is on that line. `target` is null only for a
  path that does not exist and names no language, and for a directory
  that cannot be read.

Exit status:
  0  every file is valid
  1  at least one file is invalid, too large or unreadable (a path that does
     not exist included)
  2  usage error: an unknown extension without --target, a bad option, or
     no shader file at all under the paths given"#;

/// Validate WGSL and GLSL files with naga.
///
/// GLSL that naga's front end cannot read (Vulkan GLSL: atomics on
/// buffers, push constants, `local_size_x_id`) is valid where glslang,
/// the reference compiler, compiles it (`glslangValidator`, found as
/// BALLOT_GLSLANG or on PATH). The files may paste in ballot's helper
/// libraries. They are untrusted:
/// files over 16 MiB, not UTF-8, or nested deeper than naga can parse safely
/// are reported, not parsed.
#[derive(Debug, clap::Args)]
#[command(after_long_help = AFTER_HELP)]
pub struct Args {
    /// Shader files, and directories to search for them.
    #[arg(value_name = "PATH", required = true)]
    paths: Vec<PathBuf>,
    /// The target to check every file for [default: from the extension:
    /// .wgsl is wgsl; .glsl, .comp and .glsl.comp are glsl].
    #[arg(long, short)]
    target: Option<TargetArg>,
    /// How to report.
    ///
    /// `human`: `PATH: ok (TARGET)` on stdout for a valid file, naga's
    /// diagnostics on stderr for the others. `json`: one JSON document on
    /// stdout (see below), nothing on stderr but the progress bar.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Human,
    Json,
}

/// One file to check, as the paths resolve.
struct Job {
    /// The path, as given or as joined during a walk.
    path: PathBuf,
    /// `None` only where `failed` is set: a path that is not there and
    /// names no language, a directory the walk could not read.
    target: Option<Target>,
    /// Why the path could not even be looked at.
    failed: Option<std::io::Error>,
}

/// The outcome of one file, as `--format json` prints it.
#[derive(Debug, Serialize)]
struct FileReport {
    path: String,
    target: Option<&'static str>,
    ok: bool,
    /// What kind of failure: `invalid` (naga rejected it), `unreadable`,
    /// `too-large`, `empty`, `not-utf8`, `too-deep`, `too-long`,
    /// `macro-too-large`, `macro-cycle`, `naga-panicked`, `timed-out`,
    /// `thread`.
    problem: Option<&'static str>,
    message: Option<String>,
    line: Option<u32>,
    column: Option<u32>,
}

#[derive(Debug, Serialize)]
struct Summary {
    files: Vec<FileReport>,
    checked: usize,
    invalid: usize,
}

pub fn run(args: &Args) -> ExitCode {
    let target = args.target.map(|TargetArg(t)| t);
    let jobs = resolve(&args.paths, target);
    let human = args.format == Format::Human;
    let progress = Progress::start(jobs.len());
    let mut out = Stdout::default();
    let mut files = Vec::with_capacity(jobs.len());
    for job in &jobs {
        progress.bar.set_message(job.path.display().to_string());
        let outcome = check_one(job);
        if human {
            progress.bar.suspend(|| print_human(&outcome, &mut out));
        }
        files.push(outcome.report);
        progress.bar.inc(1);
    }
    progress.finish();
    let checked = files.len();
    let invalid = files.iter().filter(|f| !f.ok).count();
    let written = if human {
        if checked > 1 {
            out.write(&format!("checked {checked} files: {invalid} invalid\n"));
        }
        if out.failed {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        }
    } else {
        let summary = Summary {
            files,
            checked,
            invalid,
        };
        let mut json = serde_json::to_string_pretty(&summary).expect("the report serializes");
        json.push('\n');
        crate::write_stdout(json.as_bytes())
    };
    if invalid > 0 {
        ExitCode::FAILURE
    } else {
        written
    }
}

/// The files to check, in order: each path as given, a directory walked.
/// Exits with a usage error for a file whose language is unknown and for
/// no file at all, before anything is checked.
fn resolve(paths: &[PathBuf], target: Option<Target>) -> Vec<Job> {
    let mut jobs = Vec::new();
    let mut seen = HashSet::new();
    for path in paths {
        let metadata = std::fs::metadata(path);
        if metadata.as_ref().is_ok_and(|m| m.is_dir()) {
            walk(path, target, &mut jobs, &mut seen);
            continue;
        }
        let Some(file_target) = target.or_else(|| target_for_path(path)) else {
            match metadata {
                // Not there: reported with the others, as reading it would.
                Err(e) => {
                    if seen.insert(path.clone()) {
                        jobs.push(Job {
                            path: path.clone(),
                            target: None,
                            failed: Some(e),
                        });
                    }
                    continue;
                }
                Ok(_) => unknown_extension(path),
            }
        };
        if seen.insert(path.clone()) {
            jobs.push(Job {
                path: path.clone(),
                target: Some(file_target),
                failed: None,
            });
        }
    }
    // Only directories give no job: every path named one.
    if jobs.is_empty() {
        let dirs: Vec<String> = paths.iter().map(|p| format!("`{}`", p.display())).collect();
        crate::usage_error(
            "check",
            ErrorKind::InvalidValue,
            format!("no shader file ({EXTENSIONS}) under {}", dirs.join(", ")),
        )
    }
    jobs
}

fn unknown_extension(path: &Path) -> ! {
    crate::usage_error(
        "check",
        ErrorKind::InvalidValue,
        format!(
            "cannot tell the language of `{}` from its extension (known: {EXTENSIONS}); \
             pass --target, one of: {}",
            path.display(),
            Target::ALL.map(Target::name).join(", ")
        ),
    )
}

/// Directory names a walk does not enter: build outputs and installed
/// packages, which hold other people's shaders.
const SKIPPED_DIRS: [&str; 2] = ["target", "node_modules"];

/// Adds the shader files under `dir` to `jobs`, depth first, each
/// directory's entries in name order. A directory that cannot be read
/// becomes a failed job.
fn walk(dir: &Path, target: Option<Target>, jobs: &mut Vec<Job>, seen: &mut HashSet<PathBuf>) {
    let entries = std::fs::read_dir(dir).and_then(|entries| {
        entries
            .map(|entry| entry.and_then(|e| Ok((e.file_name(), e.file_type()?))))
            .collect::<Result<Vec<_>, _>>()
    });
    let mut entries = match entries {
        Ok(entries) => entries,
        Err(e) => {
            if seen.insert(dir.to_path_buf()) {
                jobs.push(Job {
                    path: dir.to_path_buf(),
                    target: None,
                    failed: Some(e),
                });
            }
            return;
        }
    };
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, kind) in entries {
        let hidden = name.as_encoded_bytes().starts_with(b".");
        let path = dir.join(&name);
        if hidden {
            continue;
        }
        if kind.is_dir() {
            if !SKIPPED_DIRS.iter().any(|d| name == *d) {
                walk(&path, target, jobs, seen);
            }
            continue;
        }
        // A link to a file counts as the file; one to a directory is not
        // followed (it could lead back up).
        let is_file = kind.is_file()
            || (kind.is_symlink() && std::fs::metadata(&path).is_ok_and(|m| m.is_file()));
        let Some(file_target) = target_for_path(&path) else {
            continue;
        };
        if is_file && seen.insert(path.clone()) {
            jobs.push(Job {
                path,
                target: Some(target.unwrap_or(file_target)),
                failed: None,
            });
        }
    }
}

/// One file's outcome: its JSON entry, and what the human format prints
/// for it on stderr.
struct Outcome {
    report: FileReport,
    diagnostic: Option<String>,
}

/// Reads and checks one file.
fn check_one(job: &Job) -> Outcome {
    let path = job.path.display().to_string();
    let unreadable = |e: &dyn std::fmt::Display| {
        let message = format!("cannot read `{path}`: {e}");
        Outcome {
            diagnostic: Some(format!("error: {message}")),
            report: FileReport {
                path: path.clone(),
                target: job.target.map(Target::name),
                ok: false,
                problem: Some("unreadable"),
                message: Some(message),
                line: None,
                column: None,
            },
        }
    };
    if let Some(e) = &job.failed {
        return unreadable(e);
    }
    let target = job.target.expect("a job that did not fail has a target");
    let (err, bytes) = match ballot_ir::source::read(&job.path, MAX_SOURCE_BYTES) {
        Ok(bytes) => match check_bytes(target, &path, &bytes) {
            Ok(()) => {
                return Outcome {
                    report: FileReport {
                        path,
                        target: Some(target.name()),
                        ok: true,
                        problem: None,
                        message: None,
                        line: None,
                        column: None,
                    },
                    diagnostic: None,
                }
            }
            Err(err) => (err, bytes),
        },
        Err(ReadError::TooLarge { size, limit }) => (
            CheckError {
                path: path.clone(),
                problem: Problem::TooLarge { size, limit },
            },
            Vec::new(),
        ),
        // A FIFO or a device among them: never opened, never waited on.
        Err(e) => return unreadable(&e),
    };
    let (message, diagnostic) = match &err.problem {
        Problem::Invalid(e) => {
            // naga's report already starts with `error:` and names the file.
            let (mut message, mut diagnostic) = (headline(&e.report), err.to_string());
            if target == Target::Wgsl && bytes.windows(7).any(|w| w == b"enable ") {
                for text in [&mut message, &mut diagnostic] {
                    text.push_str("\nhelp: naga rejects `enable` directives; `--target wgsl-web` checks the file without them");
                }
            }
            (message, diagnostic)
        }
        problem => (problem.to_string(), format!("error: {err}")),
    };
    Outcome {
        report: FileReport {
            path,
            target: Some(target.name()),
            ok: false,
            problem: Some(kind(&err.problem)),
            message: Some(message),
            line: err.line(),
            column: err.column(),
        },
        diagnostic: Some(diagnostic),
    }
}

/// naga's report without its source snippet: the error's first line
/// (`error: ` dropped) and its notes (`= ...`), joined with `: `.
fn headline(report: &str) -> String {
    let mut lines = report.lines();
    let first = lines.next().unwrap_or_default();
    let mut message = first.strip_prefix("error: ").unwrap_or(first).to_string();
    for note in lines.filter_map(|l| l.trim_start().strip_prefix("= ")) {
        message.push_str(": ");
        message.push_str(note.trim());
    }
    message
}

fn kind(problem: &Problem) -> &'static str {
    match problem {
        Problem::Empty => "empty",
        Problem::TooLarge { .. } => "too-large",
        Problem::NotUtf8 { .. } => "not-utf8",
        Problem::TooDeep { .. } => "too-deep",
        Problem::TooLong { .. } => "too-long",
        Problem::MacroTooLarge { .. } => "macro-too-large",
        Problem::MacroCycle { .. } => "macro-cycle",
        Problem::Invalid(_) => "invalid",
        Problem::NagaPanicked { .. } => "naga-panicked",
        Problem::TimedOut { .. } => "timed-out",
        Problem::Thread { .. } => "thread",
        _ => "other",
    }
}

/// The human format of one file: `PATH: ok (TARGET)` on stdout, or the
/// diagnostic on stderr.
fn print_human(outcome: &Outcome, out: &mut Stdout) {
    match &outcome.diagnostic {
        None => out.write(&format!(
            "{}: ok ({})\n",
            outcome.report.path,
            outcome.report.target.unwrap_or_default()
        )),
        Some(diagnostic) => eprintln!("{diagnostic}"),
    }
}

/// stdout, written line by line: a closed pipe (`ballot check dir | head`)
/// ends the output quietly, the checking goes on for the exit status.
#[derive(Default)]
struct Stdout {
    closed: bool,
    failed: bool,
}

impl Stdout {
    fn write(&mut self, text: &str) {
        if self.closed {
            return;
        }
        let mut out = std::io::stdout().lock();
        if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            self.closed = true;
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                self.failed = true;
                eprintln!("error: cannot write to stdout: {e}");
            }
        }
    }
}

/// A progress bar on stderr, drawn only once the run has taken more than
/// a second, for more than one file, on a terminal.
struct Progress {
    bar: ProgressBar,
    done: Option<(mpsc::Sender<()>, std::thread::JoinHandle<()>)>,
}

impl Progress {
    const DELAY: Duration = Duration::from_secs(1);

    fn start(len: usize) -> Self {
        let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::hidden());
        if len < 2 || !std::io::stderr().is_terminal() {
            return Self { bar, done: None };
        }
        bar.set_style(
            ProgressStyle::with_template("{spinner} checking {pos}/{len} [{bar:30}] {wide_msg}")
                .expect("the template is valid")
                .progress_chars("=> "),
        );
        let (send, receive) = mpsc::channel();
        let shown = bar.clone();
        let thread = std::thread::Builder::new()
            .name("ballot-check-progress".to_string())
            .spawn(move || {
                if let Err(mpsc::RecvTimeoutError::Timeout) = receive.recv_timeout(Self::DELAY) {
                    shown.set_draw_target(ProgressDrawTarget::stderr());
                    shown.enable_steady_tick(Duration::from_millis(120));
                }
            });
        match thread {
            Ok(thread) => Self {
                bar,
                done: Some((send, thread)),
            },
            // No bar then; the checking does not need it.
            Err(_) => Self { bar, done: None },
        }
    }

    fn finish(self) {
        if let Some((send, thread)) = self.done {
            let _ = send.send(());
            let _ = thread.join();
        }
        self.bar.finish_and_clear();
    }
}
