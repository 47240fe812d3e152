//! `ballot link FILE --target T [--subgroup-size N] [-I DIR]… [-o OUT]`.

use std::path::PathBuf;
use std::process::ExitCode;

use ballot::check::{guarded, target_for_path, Limits, Problem, MAX_SOURCE_BYTES};
use ballot::link::{link_with, IncludeDirs, LinkErrorKind, LinkOptions};
use clap::error::ErrorKind;

use crate::TargetArg;

/// Link a hand-written shader with the ballot functions it calls.
///
/// The shader calls the subgroup ballot functions by their spec names
/// (GLSL's, and WGSL's own subgroupBallot); the output has only the
/// helpers it uses, for the target, validated by the language's own
/// validator (naga for WGSL, glslang for GLSL). A GLSL `#include "name"`
/// is found beside the including file, then in each -I directory;
/// `#include <name>` in the directories only. The file is untrusted, as
/// `ballot check`'s are: a regular file of at most 16 MiB, linked within
/// 60 s. Exit 1 if the shader does not link, 2 on usage errors.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader file (.wgsl, or .glsl / .comp).
    file: PathBuf,
    /// The target to link for: a WGSL target for a .wgsl file, a GLSL one
    /// for GLSL.
    #[arg(long, short)]
    target: TargetArg,
    /// The virtual subgroup size of the *-no-subgroup targets: a power of
    /// two from 1 to 128, at most the workgroup's invocation count.
    #[arg(long, default_value_t = LinkOptions::default().subgroup_size)]
    subgroup_size: u32,
    /// A directory GLSL's `#include` searches, after the including file's
    /// own; repeat for more, searched in order.
    #[arg(long = "include-dir", short = 'I', value_name = "DIR")]
    include_dirs: Vec<PathBuf>,
    /// A GLSL preprocessor macro, as glslang's `-D`: `NAME` (defined as
    /// nothing) or `NAME=VALUE`; repeat for more. Written after the
    /// shader's `#version` line, so the linked text compiles as the build
    /// that passes them does.
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]")]
    defines: Vec<String>,
    /// Write to FILE instead of stdout.
    #[arg(long, short)]
    output: Option<PathBuf>,
}

pub fn run(args: &Args) -> ExitCode {
    let TargetArg(target) = args.target;
    if let Some(language) = target_for_path(&args.file).map(|t| t.language()) {
        if language != target.language() {
            crate::usage_error(
                "link",
                ErrorKind::InvalidValue,
                format!(
                    "`{}` is a {language:?} file; target `{target}` is {:?}",
                    args.file.display(),
                    target.language()
                ),
            );
        }
    }
    let path = args.file.display().to_string();
    let text = match ballot_core::source::read(&args.file, MAX_SOURCE_BYTES) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                return crate::fail(&format!(
                    "`{path}` is not UTF-8 (invalid byte at offset {})",
                    e.utf8_error().valid_up_to()
                ))
            }
        },
        Err(e) => return crate::fail(&format!("cannot read `{path}`: {e}")),
    };
    let options = args.defines.iter().fold(
        LinkOptions::default().subgroup_size(args.subgroup_size),
        |options, define| match define.split_once('=') {
            Some((name, value)) => options.define(name, value),
            None => options.define(define.as_str(), ""),
        },
    );
    // On `check`'s thread: its stack, its time limit, a panic caught.
    let limits = Limits::default();
    let shown = path.clone();
    let includes = args
        .include_dirs
        .iter()
        .fold(IncludeDirs::new(), |dirs, dir| dirs.dir(dir));
    let linked = match guarded(&limits, move || {
        link_with(&text, &shown, target, &options, &includes)
    }) {
        Ok(Ok(linked)) => linked,
        // An option that fits no shader, or not this one: a usage error,
        // as `polyfill`'s are.
        Ok(Err(e)) if e.kind == LinkErrorKind::Options => {
            crate::usage_error("link", ErrorKind::ValueValidation, e)
        }
        Ok(Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
        Err(Problem::TimedOut { limit }) => {
            return crate::fail(&format!(
                "linking `{path}` for `{target}` did not finish within {} s",
                limit.as_secs_f64()
            ))
        }
        Err(problem) => return crate::fail(&format!("linking `{path}` failed: {problem}")),
    };
    match &args.output {
        Some(out) => match std::fs::write(out, &linked.text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => crate::fail(&format!("cannot write `{}`: {e}", out.display())),
        },
        None => crate::write_stdout(linked.text.as_bytes()),
    }
}
