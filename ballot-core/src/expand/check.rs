//! Compile-time validation of every shader a kernel yields.
//!
//! Every target's text in every form is proven valid by naga, with the
//! capabilities of DESIGN.md's table, but not always by a validation of
//! its own: where [`super::cover`] shows that naga's verdict on another
//! text holds for it (a helper library inside its compute shader, the
//! `wgsl-web` text holding the `wgsl` text's tokens), that verdict is
//! used, and the text is validated itself only when that verdict is a
//! failure, so that its error report is its own. The emission of the five
//! targets, and the validations, run on up to [`THREADS_VAR`] threads: they
//! touch no `proc_macro` type.

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
/// threads (`1`: all on the macro's own thread). Unset or not a positive
/// number: as many as `std::thread::available_parallelism` says, at most
/// [`MAX_THREADS`]. For measurements; the result is the same either way.
pub const THREADS_VAR: &str = "BALLOT_EXPANSION_THREADS";

/// More threads than jobs would idle: one stage has at most this many.
pub const MAX_THREADS: usize = Target::ALL.len();

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
#[derive(Clone, Copy)]
enum Plan {
    /// Validated itself.
    Own,
    /// Valid if the text at (target, form index) is; validated itself
    /// otherwise.
    CoveredBy(usize, usize),
}

/// Emits every target in every form and validates each with naga; one
/// error per failure, spanned at the kernel's name. Kernels it calls are
/// stood in for by stubs with the signature of the call: each is checked
/// when its own attribute expands. The time of each step goes to `phases`.
pub fn shaders(
    item: &ItemFn,
    kernel: &Kernel,
    options: &Options,
    phases: &mut Phases,
) -> Vec<syn::Error> {
    if !options.validate {
        return Vec::new();
    }
    let threads = threads();
    phases.threads = threads;

    let start = Instant::now();
    // The shader options only: `Options` holds tokens, which stay on this
    // thread.
    let shader = &options.shader;
    let emitted = run_all(
        threads,
        Target::ALL.map(|target| move || emit(target, kernel, shader)),
    );
    phases.emit_wall = start.elapsed();
    for (slot, e) in phases.emit.iter_mut().zip(&emitted) {
        *slot = e.time;
    }

    let start = Instant::now();
    let results = validate_all(threads, &emitted, phases);
    phases.validate_wall = start.elapsed();

    let mut errors = Vec::new();
    for (t, target) in Target::ALL.into_iter().enumerate() {
        for (f, form) in Form::ALL.into_iter().enumerate() {
            let message = match (&emitted[t].forms[f], &results[t][f]) {
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
    errors
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

const HELPERS: usize = 0;
const COMPUTE: usize = 1;

/// Each text's verdict (`None` where it could not be emitted), indexed
/// like [`Target::ALL`] and [`Form::ALL`]; validation time per target goes
/// to `phases`.
fn validate_all(
    threads: usize,
    emitted: &[Emitted],
    phases: &mut Phases,
) -> Vec<[Option<Result<(), ValidationError>>; 2]> {
    debug_assert_eq!(Form::ALL[HELPERS], Form::Helpers);
    debug_assert_eq!(Form::ALL[COMPUTE], Form::ComputeShader);
    let text = |t: usize, f: usize| emitted[t].forms[f].as_ref().ok();
    let wgsl = index(Target::Wgsl);
    // Which verdict stands for which: the compute shader's for its
    // library; the `wgsl` text's for the `wgsl-web` one, in each form.
    let mut plans = [[Plan::Own; 2]; Target::ALL.len()];
    for (t, target) in Target::ALL.into_iter().enumerate() {
        let start = Instant::now();
        if target == Target::WgslWeb
            && valid::capabilities(target) == valid::capabilities(Target::Wgsl)
        {
            for f in [HELPERS, COMPUTE] {
                if let (Some(web), Some(plain)) = (text(t, f), text(wgsl, f)) {
                    if cover::same_tokens(&web.source, &plain.source) {
                        plans[t][f] = Plan::CoveredBy(wgsl, f);
                    }
                }
            }
        }
        if let (Plan::Own, Some(helpers), Some(compute)) =
            (plans[t][HELPERS], text(t, HELPERS), text(t, COMPUTE))
        {
            if cover::covers(target.language(), &compute.source, &helpers.source) {
                plans[t][HELPERS] = Plan::CoveredBy(t, COMPUTE);
            }
        }
        phases.validate[t] += start.elapsed();
    }

    let mut results: Vec<[Option<Result<(), ValidationError>>; 2]> =
        vec![[None, None]; Target::ALL.len()];
    let mut pending: Vec<(usize, usize)> = (0..Target::ALL.len())
        .flat_map(|t| [(t, COMPUTE), (t, HELPERS)])
        .filter(|&(t, f)| text(t, f).is_some())
        .collect();
    // Rounds: the texts validated themselves, then those whose cover
    // failed (a chain of covers can take one more round). Every round
    // settles at least the texts whose cover is settled, so this ends.
    while !pending.is_empty() {
        let before = pending.len();
        let mut jobs = Vec::new();
        pending.retain(|&(t, f)| match plans[t][f] {
            Plan::Own => {
                jobs.push((t, f));
                false
            }
            Plan::CoveredBy(ct, cf) => match &results[ct][cf] {
                None => true,
                Some(Ok(())) => {
                    results[t][f] = Some(Ok(()));
                    false
                }
                Some(Err(_)) => {
                    jobs.push((t, f));
                    false
                }
            },
        });
        if jobs.is_empty() && pending.len() == before {
            // Covers that wait on each other (none are planned): validate.
            jobs = std::mem::take(&mut pending);
        }
        // Longest first (Target::ALL order is not), so that threads finish
        // together: emulated targets, then WGSL, then GLSL.
        jobs.sort_by_key(|&(t, f)| (cost_rank(Target::ALL[t]), f != COMPUTE));
        let verdicts = run_all(
            threads,
            jobs.iter().map(|&(t, f)| {
                let text = text(t, f).expect("only emitted texts are pending");
                move || {
                    let start = Instant::now();
                    let (target, form) = (Target::ALL[t], Form::ALL[f]);
                    let verdict = valid::validate_source(target, form, &text.text, &text.source);
                    (verdict, start.elapsed())
                }
            }),
        );
        for (&(t, f), (verdict, time)) in jobs.iter().zip(verdicts) {
            phases.validate[t] += time;
            results[t][f] = Some(verdict);
        }
    }
    results
}

fn index(target: Target) -> usize {
    Target::ALL
        .iter()
        .position(|&t| t == target)
        .expect("every target is in Target::ALL")
}

/// The order of the targets by how long naga takes on them, longest first
/// (docs/performance.md, "Compile time").
fn cost_rank(target: Target) -> u8 {
    match target {
        Target::WgslNoSubgroup => 0,
        Target::GlslNoSubgroup => 1,
        Target::Wgsl => 2,
        Target::WgslWeb => 3,
        Target::Glsl => 4,
    }
}

/// Runs every job and returns their results in order, on up to `threads`
/// threads: this one and scoped ones, each taking the next job not yet
/// taken.
fn run_all<T: Send, F: FnOnce() -> T + Send>(
    threads: usize,
    jobs: impl IntoIterator<Item = F>,
) -> Vec<T> {
    let jobs: Vec<Mutex<Option<F>>> = jobs.into_iter().map(|j| Mutex::new(Some(j))).collect();
    let workers = threads.min(jobs.len());
    if workers <= 1 {
        return jobs
            .into_iter()
            .map(|j| (j.into_inner().expect("not poisoned").expect("not taken"))())
            .collect();
    }
    let results: Vec<Mutex<Option<T>>> = jobs.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(job) = jobs.get(i) else { break };
        let job = job.lock().expect("not poisoned").take().expect("not taken");
        *results[i].lock().expect("not poisoned") = Some(job());
    };
    std::thread::scope(|scope| {
        for _ in 1..workers {
            scope.spawn(work);
        }
        work();
    });
    results
        .into_iter()
        .map(|r| {
            r.into_inner()
                .expect("not poisoned")
                .expect("every job ran")
        })
        .collect()
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

    /// Emitted `wgsl` and `wgsl-web` texts (the same), nothing for the
    /// other targets.
    fn emitted(helpers: &str, compute: &str) -> Vec<Emitted> {
        Target::ALL
            .into_iter()
            .map(|target| {
                let texts = [helpers, compute];
                let forms = [0, 1].map(|f| match target {
                    Target::Wgsl | Target::WgslWeb => Ok(Text {
                        text: texts[f].to_string(),
                        source: valid::naga_source(target, Form::ALL[f], texts[f]),
                    }),
                    _ => Err("not emitted".to_string()),
                });
                Emitted {
                    forms,
                    time: Duration::ZERO,
                }
            })
            .collect()
    }

    /// Each verdict as `Ok` or the line naga points at, for `wgsl` and
    /// `wgsl-web`, helpers then compute, on `threads` threads.
    fn lines(threads: usize, emitted: &[Emitted]) -> Vec<Result<(), Option<u32>>> {
        let results = validate_all(threads, emitted, &mut Phases::default());
        [Target::Wgsl, Target::WgslWeb]
            .into_iter()
            .flat_map(|t| results[index(t)].clone())
            .map(|r| r.expect("a verdict").map_err(|e| e.line))
            .collect()
    }

    #[test]
    fn a_valid_compute_shader_stands_for_its_library_and_web_for_wgsl() {
        let compute = shader(LIBRARY, "ballot_out[i] = twice(i);");
        let emitted = emitted(LIBRARY, &compute);
        let wgsl = index(Target::Wgsl);
        assert!(cover::covers(
            Target::Wgsl.language(),
            &emitted[wgsl].forms[COMPUTE].as_ref().unwrap().source,
            &emitted[wgsl].forms[HELPERS].as_ref().unwrap().source,
        ));
        for threads in [1, 2, 5] {
            assert_eq!(lines(threads, &emitted), vec![Ok(()); 4]);
        }
    }

    #[test]
    fn a_failed_cover_validates_the_covered_text_itself() {
        // Only the entry point is wrong: the library is still valid.
        let compute = shader(LIBRARY, "ballot_out[i] = twice(true);");
        for threads in [1, 2] {
            let got = lines(threads, &emitted(LIBRARY, &compute));
            assert_eq!(got, [Ok(()), Err(Some(10)), Ok(()), Err(Some(10))]);
        }
        // The library is wrong: each text fails, and each report points
        // at its own line of the library function.
        let library = LIBRARY.replace("x * 2u", "x * 2i");
        let library = format!("// One more line.\n{library}");
        let compute = shader(&library, "ballot_out[i] = twice(i);");
        for threads in [1, 2] {
            let got = lines(threads, &emitted(&library, &compute));
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
            assert_eq!(run_all(threads, jobs), [0, 10, 20, 30, 40, 50, 60]);
        }
    }
}
