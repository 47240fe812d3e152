//! `ballot link FILE --target T [--subgroup-size N] [-o OUT]`.

use std::path::PathBuf;
use std::process::ExitCode;

use ballot::check::{target_for_path, MAX_SOURCE_BYTES};
use ballot::link::{link, LinkErrorKind, LinkOptions};
use clap::error::ErrorKind;

use crate::TargetArg;

/// Link a hand-written shader with the ballot functions it calls.
///
/// The shader calls the subgroup ballot functions by their spec names
/// (GLSL's, and WGSL's own subgroupBallot); the output has only the
/// helpers it uses, for the target, validated with naga. Exit 1 if the
/// shader does not link, 2 on usage errors.
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
    let text = match std::fs::metadata(&args.file) {
        Ok(m) if m.len() > MAX_SOURCE_BYTES as u64 => {
            return crate::fail(&format!(
                "`{path}` has {} bytes; the limit is {MAX_SOURCE_BYTES}",
                m.len()
            ))
        }
        Ok(_) => match std::fs::read(&args.file) {
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
        },
        Err(e) => return crate::fail(&format!("cannot read `{path}`: {e}")),
    };
    let options = LinkOptions::default().subgroup_size(args.subgroup_size);
    let linked = match link(&text, &path, target, &options) {
        Ok(linked) => linked,
        // An option that fits no shader, or not this one: a usage error,
        // as `polyfill`'s are.
        Err(e) if e.kind == LinkErrorKind::Options => {
            crate::usage_error("link", ErrorKind::ValueValidation, e)
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    match &args.output {
        Some(out) => match std::fs::write(out, &linked.text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => crate::fail(&format!("cannot write `{}`: {e}", out.display())),
        },
        None => crate::write_stdout(linked.text.as_bytes()),
    }
}
