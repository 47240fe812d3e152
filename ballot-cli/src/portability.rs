//! `ballot portability FILE.rs...`: the portability oracle over the kernels
//! of Rust files, run by the IR interpreter.

use std::path::PathBuf;
use std::process::ExitCode;

use ballot_core::front;
use ballot_core::portability::{Interpreted, Portability, PortabilityError};
use ballot_core::schedule::Model;
use clap::error::ErrorKind;

/// Check whether each `#[ballot::kernel]` in Rust files gives the same
/// answer at every subgroup size and under every schedule the execution
/// models allow (exit 1 if one does not).
///
/// Kernels are found by their attribute (`#[ballot::kernel]` or
/// `#[kernel]`), in the files and their inline modules, and run by the IR
/// interpreter. A kernel may call any kernel of the files.
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
    /// Only the kernel of this name (repeatable).
    #[arg(long = "kernel", short)]
    kernels: Vec<String>,
}

/// An execution model weaker than maximal reconvergence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ModelArg {
    /// Vulkan without maximal reconvergence.
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
        ballot_core::stack::thread("portability")
            .spawn_scoped(scope, || check(args))
            .map_or_else(
                |e| crate::fail(&format!("cannot start a thread: {e}")),
                |t| t.join().unwrap_or(ExitCode::FAILURE),
            )
    })
}

fn check(args: &Args) -> ExitCode {
    let mut kernels = Vec::new();
    for path in &args.files {
        let source = match std::fs::read_to_string(path) {
            Ok(s) => s,
            Err(e) => return crate::fail(&format!("cannot read `{}`: {e}", path.display())),
        };
        match front::lower_file(&source) {
            Ok(found) => kernels.extend(found.into_iter().map(|l| l.kernel)),
            Err(e) => {
                let at = e.span().start();
                return crate::fail(&format!(
                    "{}:{}:{}: {e}",
                    path.display(),
                    at.line,
                    at.column + 1
                ));
            }
        }
    }
    for name in &args.kernels {
        if !kernels.iter().any(|k| &k.name == name) {
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
    let mut failed = 0;
    let mut checked = 0;
    for kernel in &kernels {
        if !args.kernels.is_empty() && !args.kernels.contains(&kernel.name) {
            continue;
        }
        checked += 1;
        println!("{}", kernel.name);
        // The size first, under maximal reconvergence; then each model on
        // its own, each size compared with itself.
        let mut checks: Vec<(String, Vec<Model>, bool)> = Vec::new();
        if !args.size_is_contract {
            checks.push(("subgroup size".into(), vec![], false));
        }
        for &m in &models {
            checks.push((m.to_string(), vec![m], true));
        }
        let mut portable = true;
        for (label, models, contract) in checks {
            let Some(subject) = Interpreted::new(&kernels, &kernel.name) else {
                continue;
            };
            let mut oracle: Portability<Interpreted> = subject
                .portability()
                .models(models)
                .cases(args.cases)
                .seed(args.seed);
            if !args.sizes.is_empty() {
                oracle = oracle.sizes(args.sizes.iter().copied());
            }
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
                Err(e) => {
                    portable = false;
                    println!("  {label}: not checked: {e}");
                }
            }
        }
        failed += usize::from(!portable);
    }
    println!(
        "{checked} kernels: {} portable, {failed} not",
        checked - failed
    );
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
