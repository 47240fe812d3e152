//! Compile-time validation of every shader a kernel yields.
//!
//! Every target's text in every form is proven valid by naga, with the
//! capabilities of docs/design.md's table, but not always by a validation of
//! its own: a `wgsl-web` text is the `wgsl` text after directives naga
//! rejects (`back::wgsl::write`), and takes its verdict; where
//! [`super::cover`] shows that a compute shader's verdict holds for its
//! helper library, that verdict is used. A text is validated itself only
//! when the verdict it would take is a failure, so that its error report
//! is its own. Emission and validation
//! run on up to [`THREADS_VAR`] threads, in four jobs (one per target, the
//! two native WGSL targets together), while the macro's own thread
//! generates the native Rust: the jobs touch no `proc_macro` type.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use syn::ItemFn;

use super::cover;
use super::timing::Phases;
use super::Options;
use crate::back::{self, Form, Missing, Target};
use crate::ir::Kernel;
use crate::valid::{self, ValidationError};

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

/// The jobs, longest first (docs/performance.md, "Compile time"), so that
/// the threads finish together. `wgsl-web` goes with `wgsl`, whose texts it
/// is compared with.
const JOBS: [&[Target]; 4] = [
    &[Target::WgslNoSubgroup],
    &[Target::GlslNoSubgroup],
    &[Target::Wgsl, Target::WgslWeb],
    &[Target::Glsl],
];

/// One emitted text and the text naga parses for it.
struct Text {
    text: String,
    source: String,
}

/// Both forms of one target, in [`Form::ALL`]'s order, and the time spent.
struct Emitted {
    forms: [Result<Text, String>; 2],
    time: Duration,
}

/// How one text gets its verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    /// Validated itself.
    Own,
    /// Valid if the text at (target, form index) is; validated itself
    /// otherwise.
    CoveredBy(usize, usize),
}

type Verdict = Option<Result<(), ValidationError>>;

/// One target's texts, how each gets its verdict, the verdicts so far
/// (`None`: not emitted, or waiting on its cover), and the time spent.
struct Done {
    emitted: Emitted,
    plans: [Plan; 2],
    verdicts: [Verdict; 2],
    validate: Duration,
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
    kernel: &Kernel,
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
    let (done, value) = check_all(
        threads,
        |target| emit(target, kernel, shader),
        alongside,
        phases,
    );
    phases.wall = start.elapsed();

    let mut errors = Vec::new();
    for (t, target) in Target::ALL.into_iter().enumerate() {
        for (f, form) in Form::ALL.into_iter().enumerate() {
            let message = match (&done[t].emitted.forms[f], &done[t].verdicts[f]) {
                (Err(message), _) => message.clone(),
                (Ok(_), Some(Err(e))) => report(e),
                (Ok(_), _) => continue,
            };
            let message = format!(
                "the {form} form of target `{target}` is invalid: {message}\n\
                 (turn this check off with `#[ballot::kernel(validate = false)]` \
                 or the `skip-validation` feature)"
            );
            errors.push(syn::Error::new(item.sig.ident.span(), message));
        }
    }
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

fn emit(target: Target, kernel: &Kernel, options: &back::ShaderOptions) -> Emitted {
    let start = Instant::now();
    let forms = Form::ALL.map(|form| {
        back::emit(target, form, &[kernel], options, Missing::Stub)
            .map(|text| Text {
                source: valid::naga_source(target, form, &text),
                text,
            })
            .map_err(|e| e.to_string())
    });
    Emitted {
        forms,
        time: start.elapsed(),
    }
}

/// Every target's texts (from `emit`) with their verdicts, indexed like
/// [`Target::ALL`], and `alongside`'s result: the jobs on up to `threads`
/// threads, then, for each text whose cover failed, its own validation.
fn check_all<R>(
    threads: usize,
    emit: impl Fn(Target) -> Emitted + Sync,
    alongside: impl FnOnce() -> R,
    phases: &mut Phases,
) -> (Vec<Done>, R) {
    let emit = &emit;
    let (jobs, value) = run_all(
        threads,
        JOBS.map(|targets| move || job(targets, emit)),
        alongside,
    );
    let mut done: Vec<Option<Done>> = Target::ALL.map(|_| None).into_iter().collect();
    for (targets, results) in JOBS.iter().zip(jobs) {
        for (&target, result) in targets.iter().zip(results) {
            done[index(target)] = Some(result);
        }
    }
    let mut done: Vec<Done> = done
        .into_iter()
        .map(|d| d.expect("every target is in one job"))
        .collect();
    settle(threads, &mut done);
    for (t, d) in done.iter().enumerate() {
        phases.emit[t] = d.emitted.time;
        phases.validate[t] = d.validate;
    }
    (done, value)
}

/// Emits `targets`, in order, plans each text's verdict, and validates the
/// texts planned [`Plan::Own`].
fn job(targets: &[Target], emit: &(impl Fn(Target) -> Emitted + Sync)) -> Vec<Done> {
    let mut done: Vec<Done> = Vec::new();
    for &target in targets {
        let emitted = emit(target);
        let start = Instant::now();
        let t = index(target);
        let mut plans = [Plan::Own; 2];
        // A `wgsl-web` text is the `wgsl` one after the directives naga
        // rejects (`back::wgsl::write`): the `wgsl` text's verdict is its
        // own, with the same capabilities.
        if target == Target::WgslWeb
            && valid::capabilities(target) == valid::capabilities(Target::Wgsl)
        {
            plans = [
                Plan::CoveredBy(index(Target::Wgsl), HELPERS),
                Plan::CoveredBy(index(Target::Wgsl), COMPUTE),
            ];
        }
        // The compute shader's verdict for its library.
        if let (Plan::Own, Some(helpers), Some(compute)) = (
            plans[HELPERS],
            text(&emitted, HELPERS),
            text(&emitted, COMPUTE),
        ) {
            if cover::covers(target.language(), &compute.source, &helpers.source) {
                plans[HELPERS] = Plan::CoveredBy(t, COMPUTE);
            }
        }
        let verdicts = [HELPERS, COMPUTE].map(|f| match (plans[f], text(&emitted, f)) {
            (Plan::Own, Some(text)) => Some(validate(target, f, text)),
            _ => None,
        });
        done.push(Done {
            emitted,
            plans,
            verdicts,
            validate: start.elapsed(),
        });
    }
    done
}

fn text(emitted: &Emitted, f: usize) -> Option<&Text> {
    emitted.forms[f].as_ref().ok()
}

fn validate(target: Target, f: usize, text: &Text) -> Result<(), ValidationError> {
    valid::validate_source(target, Form::ALL[f], &text.text, &text.source)
}

/// Gives every emitted text still without a verdict the one of its cover,
/// where that is a success, and validates it itself otherwise, in rounds
/// (a chain of covers can take one more); each round settles at least the
/// texts whose cover is settled.
fn settle(threads: usize, done: &mut [Done]) {
    loop {
        let mut jobs = Vec::new();
        let mut waiting = 0;
        for t in 0..done.len() {
            for f in [HELPERS, COMPUTE] {
                if done[t].verdicts[f].is_some() || done[t].emitted.forms[f].is_err() {
                    continue;
                }
                let Plan::CoveredBy(ct, cf) = done[t].plans[f] else {
                    jobs.push((t, f)); // planned its own, yet none: validate
                    continue;
                };
                match &done[ct].verdicts[cf] {
                    Some(Ok(())) => done[t].verdicts[f] = Some(Ok(())),
                    Some(Err(_)) => jobs.push((t, f)),
                    None => waiting += 1,
                }
            }
        }
        if jobs.is_empty() && waiting == 0 {
            return;
        }
        if jobs.is_empty() {
            // Covers that wait on each other (none are planned): validate.
            for (t, d) in done.iter().enumerate() {
                for f in [HELPERS, COMPUTE] {
                    if d.verdicts[f].is_none() && d.emitted.forms[f].is_ok() {
                        jobs.push((t, f));
                    }
                }
            }
        }
        let work = jobs.iter().map(|&(t, f)| {
            let text = done[t].emitted.forms[f].as_ref().expect("emitted");
            move || {
                let start = Instant::now();
                (validate(Target::ALL[t], f, text), start.elapsed())
            }
        });
        let (verdicts, ()) = run_all(threads, work, || ());
        for (&(t, f), (verdict, time)) in jobs.iter().zip(verdicts) {
            done[t].validate += time;
            done[t].verdicts[f] = Some(verdict);
        }
    }
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
/// have a [`crate::stack::STACK_BYTES`] stack, which the deepest kernel
/// within [`crate::front::limits`] fits even at opt-level 0, where the 2 MiB
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
            let _ = crate::stack::thread("ballot-expand").spawn_scoped(scope, work);
        }
        let value = first();
        // Jobs no thread took (none could start) run here, on a stack as
        // large as theirs.
        crate::stack::deep(work);
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

fn report(e: &valid::ValidationError) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    const LIBRARY: &str = "\
// A library.
fn twice(x: u32) -> u32 {
    return x * 2u;
}
";

    /// `LIBRARY` with an entry point, as a compute shader has it.
    fn shader(library: &str, main: &str) -> String {
        format!(
            "{library}\n@group(0) @binding(0) var<storage, read_write> ballot_out: array<u32>;\n\n\
             @compute @workgroup_size(64, 1, 1)\nfn main(@builtin(local_invocation_index) i: u32) {{\n\
             {main}\n}}\n"
        )
    }

    /// An emitter of `helpers` and `compute` for `wgsl` and `wgsl-web`
    /// (the same texts), of nothing for the other targets.
    fn fake(helpers: &str, compute: &str) -> impl Fn(Target) -> Emitted + Sync {
        let texts = [helpers.to_string(), compute.to_string()];
        move |target| {
            let forms = [HELPERS, COMPUTE].map(|f| match target {
                Target::Wgsl | Target::WgslWeb => Ok(Text {
                    text: texts[f].clone(),
                    source: valid::naga_source(target, Form::ALL[f], &texts[f]),
                }),
                _ => Err("not emitted".to_string()),
            });
            Emitted {
                forms,
                time: Duration::ZERO,
            }
        }
    }

    fn check(threads: usize, helpers: &str, compute: &str) -> Vec<Done> {
        let (done, ()) = check_all(
            threads,
            fake(helpers, compute),
            || (),
            &mut Phases::default(),
        );
        done
    }

    /// Each verdict as `Ok` or the line naga points at, for `wgsl` and
    /// `wgsl-web`, helpers then compute, on `threads` threads.
    fn lines(threads: usize, helpers: &str, compute: &str) -> Vec<Result<(), Option<u32>>> {
        let done = check(threads, helpers, compute);
        [Target::Wgsl, Target::WgslWeb]
            .into_iter()
            .flat_map(|t| done[index(t)].verdicts.clone())
            .map(|r| r.expect("a verdict").map_err(|e| e.line))
            .collect()
    }

    #[test]
    fn a_valid_compute_shader_stands_for_its_library_and_web_for_wgsl() {
        let compute = shader(LIBRARY, "ballot_out[i] = twice(i);");
        let (wgsl, web) = (index(Target::Wgsl), index(Target::WgslWeb));
        for threads in [1, 2, 5] {
            let done = check(threads, LIBRARY, &compute);
            assert_eq!(
                done[wgsl].plans,
                [Plan::CoveredBy(wgsl, COMPUTE), Plan::Own]
            );
            assert_eq!(
                done[web].plans,
                [
                    Plan::CoveredBy(wgsl, HELPERS),
                    Plan::CoveredBy(wgsl, COMPUTE)
                ]
            );
            assert_eq!(lines(threads, LIBRARY, &compute), vec![Ok(()); 4]);
        }
    }

    #[test]
    fn a_failed_cover_validates_the_covered_text_itself() {
        // Only the entry point is wrong: the library is still valid.
        let compute = shader(LIBRARY, "ballot_out[i] = twice(true);");
        for threads in [1, 2] {
            let got = lines(threads, LIBRARY, &compute);
            assert_eq!(got, [Ok(()), Err(Some(10)), Ok(()), Err(Some(10))]);
        }
        // The library is wrong: each text fails, and each report points
        // at its own line of the library function.
        let library = LIBRARY.replace("x * 2u", "x * 2i");
        let library = format!("// One more line.\n{library}");
        let compute = shader(&library, "ballot_out[i] = twice(i);");
        for threads in [1, 2] {
            let got = lines(threads, &library, &compute);
            assert_eq!(
                got,
                [Err(Some(4)), Err(Some(4)), Err(Some(4)), Err(Some(4))]
            );
        }
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
}
