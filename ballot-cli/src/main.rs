//! `ballot`: list the targets, check a shader file with naga, print a
//! helper library. `ballot --help` has the details.

mod check;
mod link;
mod polyfill;
mod portability;
mod targets;

use std::io::{self, Write};
use std::process::ExitCode;

use ballot::check::THREAD_NAME;
use ballot::cross::CrossTarget;
use ballot::Target;
use clap::builder::PossibleValue;
use clap::{Parser, Subcommand, ValueEnum};

/// Write GPU subgroup-ballot logic once: list targets, check shaders with
/// naga, print helper libraries.
#[derive(Debug, Parser)]
#[command(name = "ballot", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the targets and what each needs from a device.
    Targets,
    /// Validate WGSL and GLSL files, or the shaders under directories, with
    /// naga (exit 1 if any is invalid).
    Check(check::Args),
    /// Link a hand-written shader with the ballot functions it calls.
    Link(link::Args),
    /// Print or write the helper library for a target.
    Polyfill(polyfill::Args),
    /// Check that kernels give the same answer at every subgroup size and
    /// under every schedule the execution models allow (exit 1 if not).
    Portability(portability::Args),
}

/// A shader target, as `--target` takes it: clap lists the names in help
/// and in the error for an unknown one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TargetArg(Target);

impl ValueEnum for TargetArg {
    fn value_variants<'a>() -> &'a [Self] {
        const ALL: [TargetArg; 5] = [
            TargetArg(Target::ALL[0]),
            TargetArg(Target::ALL[1]),
            TargetArg(Target::ALL[2]),
            TargetArg(Target::ALL[3]),
            TargetArg(Target::ALL[4]),
        ];
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()).help(self.0.requirements()))
    }
}

/// What `polyfill --target` takes: a shader target, or a language naga
/// cross-compiles the `wgsl` library to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OutputArg {
    Shader(Target),
    Cross(CrossTarget),
}

impl ValueEnum for OutputArg {
    fn value_variants<'a>() -> &'a [Self] {
        const ALL: [OutputArg; 8] = [
            OutputArg::Shader(Target::ALL[0]),
            OutputArg::Shader(Target::ALL[1]),
            OutputArg::Shader(Target::ALL[2]),
            OutputArg::Shader(Target::ALL[3]),
            OutputArg::Shader(Target::ALL[4]),
            OutputArg::Cross(CrossTarget::ALL[0]),
            OutputArg::Cross(CrossTarget::ALL[1]),
            OutputArg::Cross(CrossTarget::ALL[2]),
        ];
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match *self {
            OutputArg::Shader(t) => PossibleValue::new(t.name()).help(t.requirements()),
            OutputArg::Cross(t) => PossibleValue::new(t.name()).help(targets::cross_description(t)),
        })
    }
}

fn main() -> ExitCode {
    // naga runs on a thread of this name inside catch_unwind, and its
    // panics become diagnostics; keep the default hook's message and
    // backtrace for every other thread.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() != Some(THREAD_NAME) {
            default_hook(info);
        }
    }));
    let cli = Cli::parse();
    match cli.command {
        Command::Targets => write_stdout(targets::listing().as_bytes()),
        Command::Check(args) => check::run(&args),
        Command::Link(args) => link::run(&args),
        Command::Polyfill(args) => polyfill::run(&args),
        Command::Portability(args) => portability::run(&args),
    }
}

/// Writes `bytes` to stdout; a closed pipe (`ballot targets | head`) ends
/// quietly rather than panicking as `print!` would.
fn write_stdout(bytes: &[u8]) -> ExitCode {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => fail(&format!("cannot write to stdout: {e}")),
    }
}

/// The text of the file at `path`, read as every subcommand reads a
/// user's file ([`ballot_ir::source::read`]: a regular file, at most
/// 16 MiB), or the message that says why not.
fn read_text(path: &std::path::Path) -> Result<String, String> {
    let shown = path.display();
    let bytes = ballot_ir::source::read(path, ballot::check::MAX_SOURCE_BYTES)
        .map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "`{shown}` is not UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Prints `error: MESSAGE` to stderr; exit code 1.
fn fail(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::FAILURE
}

/// Exits with clap's usage error (code 2) for `kind`, with the usage line
/// of `subcommand`.
fn usage_error(
    subcommand: &str,
    kind: clap::error::ErrorKind,
    message: impl std::fmt::Display,
) -> ! {
    use clap::CommandFactory;
    let mut command = Cli::command();
    command.build();
    match command.find_subcommand_mut(subcommand) {
        Some(sub) => sub.error(kind, message).exit(),
        None => command.error(kind, message).exit(),
    }
}
