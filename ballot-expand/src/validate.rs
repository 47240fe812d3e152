//! Compile-time validation of every shader a kernel yields: the pass of
//! the expansion after lowering, beside the native Rust.
//!
//! Every target's text in both forms is proven valid by naga, with the
//! capabilities of docs/design.md's table, from one text per target that
//! naga must read:
//! - `glsl`, `glsl-no-subgroup`, `wgsl` and `wgsl-no-subgroup` are each
//!   written once, in both forms at once and in the validation mode
//!   ([`back::write_forms`]). naga validates the compute shader, and its
//!   verdict is the library's where [`valid::validate_with_library`] finds
//!   that nothing outside the compute shader's own parts refers to them;
//!   the library is validated itself otherwise.
//! - A `wgsl-web` text is the `wgsl` text after its directives, by
//!   construction (`back::wgsl::write`), and is validated with the same
//!   capabilities: the `wgsl` verdicts are its own.
//!
//! A verdict naga reached before, on the same text, comes from the cache
//! ([`super::cache`]). A text that fails has a report of its own, at its
//! own lines: those of the validation mode's text are the output's, and a
//! `wgsl-web` text's are the `wgsl` text's after its directives.
//!
//! Emission and validation run on up to [`THREADS_VAR`] threads, in four
//! jobs (one per text naga reads), while the macro's own thread generates
//! the native Rust: the jobs touch no `proc_macro` type.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use syn::ItemFn;

use super::cache::{Cache, Key};
use super::timing::Phases;
use super::Options;
use ballot_naga::valid::{self, ValidationError};
use ballot_shader::back::forms::Forms;
use ballot_shader::back::{self, Form, Mode, Target};
use ballot_shader::lower::plan::Plan;

/// Set this environment variable to a number while building to have each
/// `#[ballot::kernel]` emit and validate its shaders on at most that many
/// threads, the macro's own included (`1` and `2`: all on one thread
/// besides the macro's, which generates the native Rust meanwhile).
/// Unset or not a positive number: as many as
/// `std::thread::available_parallelism` says, at most [`MAX_THREADS`]. For
/// measurements; the result is the same either way.
pub const THREADS_VAR: &str = "BALLOT_EXPANSION_THREADS";

/// More threads than this would idle: the macro's own, which generates the
/// native Rust first, and one per job.
pub const MAX_THREADS: usize = JOBS.len() + 1;

/// The targets whose texts naga reads, one job each, longest first
/// (docs/performance.md, "Compile time"), so that the threads finish
/// together. `wgsl-web` takes the verdicts of `wgsl`.
const JOBS: [Target; 4] = [
    Target::WgslNoSubgroup,
    Target::GlslNoSubgroup,
    Target::Wgsl,
    Target::Glsl,
];

/// Writes a target's texts in both forms, in a mode; the expansion's is
/// [`back::write_forms`] of the kernel, with stubs for its callees.
type Write<'a> = dyn Fn(Target, Mode) -> Result<Forms, String> + Sync + 'a;

/// One job's result: the texts (or why they could not be written), each
/// form's verdict in [`Form::ALL`]'s order, and what it took.
struct Validated {
    written: Result<Forms, String>,
    verdicts: [Result<(), ValidationError>; 2],
    emit: Duration,
    validate: Duration,
    /// Texts naga read.
    parsed: usize,
    /// Verdicts that came from the cache.
    cached: usize,
}

const HELPERS: usize = 0;
const COMPUTE: usize = 1;

/// Emits every target in every form and validates each with naga; one
/// error per failure, spanned at the kernel's name. Kernels it calls are
/// stood in for by stubs with the signature of the call: each is checked
/// when its own attribute expands. `alongside` runs on this thread
/// meanwhile; its result is returned with the errors. The time of each
/// step goes to `phases` (all but `alongside`'s).
pub fn shaders<R>(
    item: &ItemFn,
    plan: &Plan<'_>,
    options: &Options,
    phases: &mut Phases,
    alongside: impl FnOnce() -> R,
) -> (Vec<syn::Error>, R) {
    let start = Instant::now();
    if !options.validate {
        let value = alongside();
        phases.wall = start.elapsed();
        return (Vec::new(), value);
    }
    let threads = threads();
    phases.threads = threads;
    // The shader options only: `Options` holds tokens, which stay on this
    // thread.
    let shader = &options.shader;
    let write = |target: Target, mode: Mode| {
        back::write_plan(target, &Form::ALL, plan, shader, mode).map_err(|e| e.to_string())
    };
    let (messages, value) = validate_all(threads, &write, Cache::get(), alongside, phases);
    phases.wall = start.elapsed();
    let errors = messages
        .into_iter()
        .map(|message| {
            let message = format!(
                "{message}\n(turn this check off with `#[ballot::kernel(validate = false)]` \
                 or the `skip-validation` feature)"
            );
            syn::Error::new(item.sig.ident.span(), message)
        })
        .collect();
    (errors, value)
}

fn threads() -> usize {
    let n = std::env::var(THREADS_VAR)
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    n.min(MAX_THREADS)
}

/// Runs the jobs on up to `threads` threads, with `alongside` on this one,
/// and returns one message per invalid text, in [`Target::ALL`]'s order,
/// then [`Form::ALL`]'s, and `alongside`'s result.
fn validate_all<R>(
    threads: usize,
    write: &Write<'_>,
    cache: Option<&Cache>,
    alongside: impl FnOnce() -> R,
    phases: &mut Phases,
) -> (Vec<String>, R) {
    let jobs = JOBS.map(|target| move || validate_target(target, write, cache));
    let (checked, value) = run_all(threads, jobs, alongside);
    let mut messages = Vec::new();
    for target in Target::ALL {
        let (source, web) = match target {
            Target::WgslWeb => (Target::Wgsl, true),
            _ => (target, false),
        };
        let Some(at) = JOBS.iter().position(|&t| t == source) else {
            continue;
        };
        let done = &checked[at];
        let t = index(target);
        if !web {
            phases.emit[t] = done.emit;
            phases.validate[t] = done.validate;
            phases.parsed += done.parsed;
            phases.cached += done.cached;
        }
        for (f, form) in Form::ALL.into_iter().enumerate() {
            let message = match (&done.written, &done.verdicts[f]) {
                (Err(message), _) => message.clone(),
                (Ok(_), Ok(())) => continue,
                (Ok(forms), Err(e)) if web => web_report(e, form, forms, write),
                (Ok(_), Err(e)) => report(e),
            };
            messages.push(format!(
                "the {form} form of target `{target}` is invalid: {message}"
            ));
        }
    }
    (messages, value)
}

/// Writes `target`'s texts in the validation mode and finds both forms'
/// verdicts (see the module docs).
fn validate_target(target: Target, write: &Write<'_>, cache: Option<&Cache>) -> Validated {
    let start = Instant::now();
    let written = write(target, Mode::Validation);
    let emit = start.elapsed();
    let start = Instant::now();
    let mut checked = Validated {
        written: Err(String::new()),
        verdicts: [Ok(()), Ok(())],
        emit,
        validate: Duration::ZERO,
        parsed: 0,
        cached: 0,
    };
    if let Ok(forms) = &written {
        verdicts(target, forms, cache, &mut checked);
    }
    checked.validate = start.elapsed();
    checked.written = written;
    checked
}

/// Both forms' verdicts on `forms` into `checked`: the compute shader's,
/// which stands for the library's where it can, else the library's own;
/// each from the cache where it has it.
fn verdicts(target: Target, forms: &Forms, cache: Option<&Cache>, checked: &mut Validated) {
    let compute = forms.text(Form::ComputeShader).unwrap_or_default();
    let both = Key::WithLibrary(target, compute, forms.compute_only());
    if cache.is_some_and(|c| c.has(&both)) {
        checked.cached += 2;
        return;
    }
    let (verdict, library) = valid::validate_with_library(target, compute, forms.compute_only());
    checked.parsed += 1;
    let stands = verdict.is_ok() && library;
    checked.verdicts[COMPUTE] = verdict;
    if stands {
        if let Some(cache) = cache {
            cache.keep(&both);
        }
        return;
    }
    let helpers = forms.text(Form::Helpers).unwrap_or_default();
    let own = Key::Text(target, Form::Helpers, helpers);
    if cache.is_some_and(|c| c.has(&own)) {
        checked.cached += 1;
        return;
    }
    let verdict = valid::validate_printed(target, Form::Helpers, helpers);
    checked.parsed += 1;
    if let (Ok(()), Some(cache)) = (&verdict, cache) {
        cache.keep(&own);
    }
    checked.verdicts[HELPERS] = verdict;
}

fn index(target: Target) -> usize {
    Target::ALL
        .iter()
        .position(|&t| t == target)
        .expect("every target is in Target::ALL")
}

/// Runs every job and returns their results in order, with `first`'s:
/// `first` on this thread, the jobs on up to `threads - 1` scoped threads
/// (at least one), each taking the next job not yet taken. The jobs run
/// naga, which recurses once per operand of an expression; their threads
/// have a [`ballot_ir::stack::STACK_BYTES`] stack, which the deepest kernel
/// within [`ballot_front::limits`] fits even at opt-level 0, where the 2 MiB
/// a thread gets by default does not.
fn run_all<T: Send, F: FnOnce() -> T + Send, R>(
    threads: usize,
    jobs: impl IntoIterator<Item = F>,
    first: impl FnOnce() -> R,
) -> (Vec<T>, R) {
    let jobs: Vec<Mutex<Option<F>>> = jobs.into_iter().map(|j| Mutex::new(Some(j))).collect();
    let results: Vec<Mutex<Option<T>>> = jobs.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(job) = jobs.get(i) else { break };
        let job = job.lock().expect("not poisoned").take().expect("not taken");
        *results[i].lock().expect("not poisoned") = Some(job());
    };
    let helpers = threads.saturating_sub(1).max(1).min(jobs.len());
    let value = std::thread::scope(|scope| {
        for _ in 0..helpers {
            // A thread that cannot start leaves its jobs to the others, or
            // to this thread below.
            let _ = ballot_ir::stack::thread("ballot-expand").spawn_scoped(scope, work);
        }
        let value = first();
        // Jobs no thread took (none could start) run here, on a stack as
        // large as theirs.
        ballot_ir::stack::deep(work);
        value
    });
    let results = results
        .into_iter()
        .map(|r| {
            r.into_inner()
                .expect("not poisoned")
                .expect("every job ran")
        })
        .collect();
    (results, value)
}

fn report(e: &ValidationError) -> String {
    match (e.line, &e.line_text) {
        (Some(line), Some(text)) => {
            format!(
                "naga says, at line {line} `{}`:\n{}",
                text.trim(),
                e.message
            )
        }
        _ => format!("naga says:\n{}", e.message),
    }
}

/// The report of `e`, naga's on the `wgsl` text of `form`, for the
/// `wgsl-web` text that ends with it: at the `wgsl-web` text's line.
fn web_report(e: &ValidationError, form: Form, wgsl: &Forms, write: &Write<'_>) -> String {
    let web = write(Target::WgslWeb, Mode::Output);
    let (Ok(web), Some(wgsl)) = (web, wgsl.text(form)) else {
        return report(e);
    };
    let web = web.text(form).unwrap_or_default();
    let Some(directives) = web.strip_suffix(wgsl) else {
        return report(e);
    };
    let shift = directives.matches('\n').count() as u32;
    match (e.line, &e.line_text) {
        (Some(line), Some(text)) => format!(
            "naga says, at line {} `{}` (line {line} of the `wgsl` text after the directives):\n{}",
            line + shift,
            text.trim(),
            e.message
        ),
        _ => report(e),
    }
}

#[cfg(test)]
mod tests;
