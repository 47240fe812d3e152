//! `ballot portability FILE.rs...`: the portability oracle over the kernels
//! of Rust files, run by the IR interpreter.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ballot_front as front;
use ballot_front::{FileKernel, Resolved};
use ballot_ir::ir::Kernel;
use ballot_sim::portability::{Interpreted, Portability, PortabilityError};
use ballot_sim::schedule::Model;
use clap::error::ErrorKind;

/// Check whether each `#[ballot::kernel]` in Rust files gives the same
/// answer at every subgroup size and under every schedule the execution
/// models allow (exit 1 if one does not).
///
/// Kernels are found by their attribute (`#[ballot::kernel]` or
/// `#[kernel]`), in the files and their inline modules, named by their
/// path (`module::name`), and run by the IR interpreter. A kernel may call
/// any kernel of the files, but not itself, directly or not. A kernel that
/// could not be run (every input outside its contract) is not checked,
/// which is a failure too.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The Rust files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The execution models to check [default: all three].
    #[arg(long = "model", short, value_enum)]
    models: Vec<ModelArg>,
    /// The subgroup sizes to run at, comma-separated [default: 1 to 128].
    #[arg(long, value_delimiter = ',')]
    sizes: Vec<u32>,
    /// The size whose run (under maximal reconvergence) every other size
    /// is compared with, where the size is not part of the contract: one
    /// the kernel serves (a cluster of 64 lanes needs a subgroup of 64).
    #[arg(long, default_value_t = 32)]
    reference_size: u32,
    /// The answer may depend on the subgroup size: compare each size only
    /// with itself, and check only the schedules.
    #[arg(long)]
    size_is_contract: bool,
    /// Inputs per kernel and check.
    #[arg(long, default_value_t = 64)]
    cases: u32,
    /// The seed of the inputs and the drawn schedules.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How far `f32` outputs may differ, relative to the larger (or to 1
    /// below 1), and still be the same answer: the rounding a sum over
    /// other lanes, in another order, may change [default: 0, bit for bit].
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    tolerance: f32,
    /// Loop iterations a run may take before it is taken for one that
    /// never ends; a size where every run takes more is not checked.
    #[arg(long, default_value_t = ballot_sim::portability::DEFAULT_STEP_BUDGET)]
    step_budget: u64,
    /// Only the kernel of this name (repeatable).
    #[arg(long = "kernel", short)]
    kernels: Vec<String>,
}

/// An execution model weaker than maximal reconvergence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ModelArg {
    /// Vulkan without maximal reconvergence, control flow's uniformity
    /// taken per subgroup (as `SubgroupUniformControlFlowKHR` gives it):
    /// core Vulkan asks for the whole workgroup, and promises less where a
    /// workgroup holds several subgroups (docs/reconvergence.md, section 6).
    Vulkan,
    /// WGSL with the subgroup uniformity diagnostic off.
    Wgsl,
    /// Independent thread scheduling with `__activemask()`.
    Independent,
}

impl ModelArg {
    fn model(self) -> Model {
        match self {
            ModelArg::Vulkan => Model::Vulkan,
            ModelArg::Wgsl => Model::Wgsl,
            ModelArg::Independent => Model::Independent,
        }
    }
}

pub fn run(args: &Args) -> ExitCode {
    // The interpreter needs a deep stack; on a thread that has one, it does
    // not map a new one for every run.
    std::thread::scope(|scope| {
        ballot_ir::stack::thread("portability")
            .spawn_scoped(scope, || check(args))
            .map_or_else(
                |e| crate::fail(&format!("cannot start a thread: {e}")),
                |t| t.join().unwrap_or(ExitCode::FAILURE),
            )
    })
}

/// A kernel of the files, as the reports name it.
struct Found {
    /// `module::name`, and the file where kernels of two files share it.
    name: String,
    /// The kernels it runs: itself first, then every kernel it calls,
    /// directly or not; or why it cannot run.
    closure: Result<Vec<Kernel>, String>,
}

fn check(args: &Args) -> ExitCode {
    let mut kernels: Vec<FileKernel> = Vec::new();
    for (index, path) in args.files.iter().enumerate() {
        let source = match crate::read_text(path) {
            Ok(s) => s,
            Err(e) => return crate::fail(&e),
        };
        match front::lower_file_kernels(&source) {
            Ok(found) => kernels.extend(found.into_iter().map(|k| FileKernel { file: index, ..k })),
            Err(e) => return at(&args.files[index], &e),
        }
    }
    // A cycle between kernels of different files, which no file's own
    // check sees.
    if let Err((kernel, e)) = front::check_recursion(&kernels) {
        return at(&args.files[kernels[kernel].file], &e);
    }
    let found = named(&kernels, &args.files);
    // Nothing to check is no certificate: a file of no kernel (no
    // `#[ballot::kernel]` function, as `lower_file_kernels` finds them)
    // fails, as a check that ran nothing does.
    if found.is_empty() {
        let files: Vec<String> = args
            .files
            .iter()
            .map(|f| format!("`{}`", f.display()))
            .collect();
        return crate::fail(&format!(
            "no `#[ballot::kernel]` function in {}: nothing to check",
            files.join(", ")
        ));
    }
    for name in &args.kernels {
        if !found.iter().any(|k| selects(name, &k.name)) {
            crate::usage_error(
                "portability",
                ErrorKind::InvalidValue,
                format!("no kernel `{name}` in the files"),
            );
        }
    }
    let models: Vec<Model> = if args.models.is_empty() {
        vec![Model::Vulkan, Model::Wgsl, Model::Independent]
    } else {
        args.models.iter().map(|m| m.model()).collect()
    };
    // A bad option is the command's fault whatever the kernel: refused
    // before any report begins.
    let first = found.iter().find_map(|k| {
        let closure = k.closure.as_ref().ok()?;
        Interpreted::new(closure, &closure[0].name)
    });
    if let Some(e) = first.and_then(|s| configured(s.portability(), args).setting_error()) {
        crate::usage_error("portability", ErrorKind::InvalidValue, e);
    }
    let (mut checked, mut failed, mut unchecked) = (0, 0, 0);
    for kernel in &found {
        if !args.kernels.is_empty() && !args.kernels.iter().any(|n| selects(n, &kernel.name)) {
            continue;
        }
        checked += 1;
        println!("{}", kernel.name);
        let closure = match &kernel.closure {
            Ok(closure) => closure,
            Err(why) => {
                unchecked += 1;
                println!("  NOT CHECKED: {why}");
                continue;
            }
        };
        // The size first, under maximal reconvergence; then each model on
        // its own, each size compared with itself.
        let mut checks: Vec<(String, Vec<Model>, bool)> = Vec::new();
        if !args.size_is_contract {
            checks.push(("subgroup size".into(), vec![], false));
        }
        for &m in &models {
            checks.push((m.to_string(), vec![m], true));
        }
        let (mut portable, mut run) = (true, true);
        for (label, models, contract) in checks {
            let Some(subject) = Interpreted::new(closure, &closure[0].name) else {
                continue;
            };
            let mut oracle = configured(subject.with_name(kernel.name.clone()).portability(), args)
                .models(models);
            if contract {
                oracle = oracle.size_is_contract();
            }
            match oracle.check() {
                Ok(c) => println!("  {label}: portable\n    {c}"),
                Err(PortabilityError::NotPortable(c)) => {
                    portable = false;
                    println!("  {label}: NOT PORTABLE");
                    for line in c.to_string().lines() {
                        println!("    {line}");
                    }
                }
                Err(PortabilityError::Option(e)) => {
                    crate::usage_error("portability", ErrorKind::InvalidValue, e)
                }
                // A check that ran nothing certifies nothing.
                Err(PortabilityError::NotRun { reason, .. }) => {
                    run = false;
                    println!("  {label}: NOT CHECKED: {reason}");
                }
                Err(e) => {
                    run = false;
                    println!("  {label}: NOT CHECKED: {e}");
                }
            }
        }
        failed += usize::from(!portable);
        unchecked += usize::from(portable && !run);
    }
    let not_checked = if unchecked > 0 {
        format!(", {unchecked} not checked")
    } else {
        String::new()
    };
    println!(
        "{checked} kernels: {} portable, {failed} not{not_checked}",
        checked - failed - unchecked
    );
    if failed == 0 && unchecked == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `oracle` with the settings every check of `args` shares.
fn configured<'a>(
    oracle: Portability<Interpreted<'a>>,
    args: &Args,
) -> Portability<Interpreted<'a>> {
    let oracle = oracle
        .cases(args.cases)
        .seed(args.seed)
        .tolerance(args.tolerance)
        .step_budget(args.step_budget)
        .reference(args.reference_size);
    match args.sizes.is_empty() {
        true => oracle,
        false => oracle.sizes(args.sizes.iter().copied()),
    }
}

/// The error `e` of `path`, at its line and column.
fn at(path: &Path, e: &syn::Error) -> ExitCode {
    let at = e.span().start();
    crate::fail(&format!(
        "{}:{}:{}: {e}",
        path.display(),
        at.line,
        at.column + 1
    ))
}

/// Whether `--kernel wanted` selects the kernel reported as `name`: by its
/// path, or by its name alone (every kernel of that name).
fn selects(wanted: &str, name: &str) -> bool {
    let path = name.split(' ').next().unwrap_or(name);
    wanted == name || wanted == path || path.rsplit("::").next() == Some(wanted)
}

/// Each kernel's report name and the kernels it runs.
fn named(kernels: &[FileKernel], files: &[PathBuf]) -> Vec<Found> {
    let calls = front::calls(kernels);
    let shared = |k: &FileKernel| {
        kernels
            .iter()
            .filter(|o| o.path() == k.path())
            .nth(1)
            .is_some()
    };
    let name = |k: &FileKernel| {
        if shared(k) {
            format!("{} ({})", k.path(), files[k.file].display())
        } else {
            k.path()
        }
    };
    (0..kernels.len())
        .map(|root| Found {
            name: name(&kernels[root]),
            closure: closure(kernels, &calls, root, &name),
        })
        .collect()
}

/// `root` and every kernel it calls, directly or not, each once: what the
/// interpreter runs it with. The interpreter finds a callee by its name, so
/// two kernels of one name in the closure, or a call that names none, are
/// refused here rather than run as another kernel.
fn closure(
    kernels: &[FileKernel],
    calls: &[Vec<(ballot_ir::ir::Handle<ballot_ir::ir::Expr>, Resolved)>],
    root: usize,
    name: &dyn Fn(&FileKernel) -> String,
) -> Result<Vec<Kernel>, String> {
    let mut order = vec![root];
    let mut next = 0;
    while let Some(&kernel) = order.get(next) {
        next += 1;
        for (handle, resolved) in &calls[kernel] {
            let callee = || match kernels[kernel].lowered.kernel.exprs.get(*handle) {
                Some(ballot_ir::ir::Expr::Call { callee, .. }) => callee.clone(),
                _ => String::new(),
            };
            match resolved {
                Resolved::Kernel(k) if !order.contains(k) => order.push(*k),
                Resolved::Kernel(_) => {}
                Resolved::Missing => {
                    return Err(format!(
                        "`{}` calls `{}`, which is no kernel of the files",
                        name(&kernels[kernel]),
                        callee()
                    ))
                }
                Resolved::Ambiguous(of) => {
                    let names: Vec<String> = of
                        .iter()
                        .map(|&k| format!("`{}`", name(&kernels[k])))
                        .collect();
                    return Err(format!(
                        "`{}` calls `{}`, which may be any of {}: call it by its path",
                        name(&kernels[kernel]),
                        callee(),
                        names.join(", ")
                    ));
                }
            }
        }
    }
    for (i, &a) in order.iter().enumerate() {
        if let Some(&b) = order[i + 1..]
            .iter()
            .find(|&&b| kernels[b].lowered.kernel.name == kernels[a].lowered.kernel.name)
        {
            return Err(format!(
                "it runs both `{}` and `{}`, which the interpreter cannot tell apart",
                name(&kernels[a]),
                name(&kernels[b])
            ));
        }
    }
    Ok(order
        .into_iter()
        .map(|k| kernels[k].lowered.kernel.clone())
        .collect())
}
