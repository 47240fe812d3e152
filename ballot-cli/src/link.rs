//! `ballot link FILE --target T [--subgroup-size N] [-I DIR]… [-D NAME[=VALUE]]… [--vulkan V] [-o OUT]`.

use std::path::PathBuf;
use std::process::ExitCode;

use ballot::check::{guarded, link_stopped, target_for_path, Limits, Problem, MAX_SOURCE_BYTES};
use ballot::link::{
    link_with, IncludeDirs, LinkError, LinkErrorKind, LinkOptions, Linked, VulkanVersion,
};
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
    /// nothing), `NAME=VALUE`, or `NAME(a,b)=VALUE` for a function-like
    /// one; repeat for more. Written after the
    /// shader's `#version` line, so the linked text compiles as the build
    /// that passes them does.
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]")]
    defines: Vec<String>,
    /// The Vulkan version GLSL is compiled and judged for, as glslang's
    /// --target-env: 1.1 (where subgroups begin), 1.2 or 1.3. A shader
    /// built for a later version than 1.1 needs it (from 1.2 a
    /// subgroupBroadcast lane may be dynamically uniform).
    #[arg(long, value_name = "VERSION", value_parser = VulkanVersion::parse, default_value = "1.1")]
    vulkan: VulkanVersion,
    /// Compile and judge GLSL for OpenGL rather than Vulkan, as an OpenGL
    /// driver's compiler does (glslang without -V): uniforms outside a
    /// block and samplers without a binding are then GLSL's own.
    #[arg(long, conflicts_with = "vulkan")]
    opengl: bool,
    /// Write to FILE instead of stdout.
    #[arg(long, short)]
    output: Option<PathBuf>,
}

/// Why a file did not link.
#[derive(Debug)]
enum Failure {
    /// An option that fits no shader, or not this one.
    Options(LinkError),
    /// The shader's own fault.
    Shader(LinkError),
    /// The work stopped: past the time limit, or a panic caught.
    Stopped(String),
}

/// Links `text`, the file `args` names, on `check`'s thread: its stack,
/// `limits`' time limit, a panic caught.
fn link_within(args: &Args, text: String, limits: &Limits) -> Result<Linked, Failure> {
    let TargetArg(target) = args.target;
    let path = args.file.display().to_string();
    let options = args.defines.iter().fold(
        {
            let options = LinkOptions::default().subgroup_size(args.subgroup_size);
            if args.opengl {
                options.opengl()
            } else {
                options.vulkan(args.vulkan)
            }
        },
        |options, define| match define.split_once('=') {
            Some((name, value)) => options.define(name, value),
            None => options.define(define.as_str(), ""),
        },
    );
    let shown = path.clone();
    let includes = args
        .include_dirs
        .iter()
        .fold(IncludeDirs::new(), |dirs, dir| dirs.dir(dir));
    match guarded(limits, move || {
        link_with(&text, &shown, target, &options, &includes)
    }) {
        Ok(Ok(linked)) => Ok(linked),
        Ok(Err(e)) if e.kind == LinkErrorKind::Options => Err(Failure::Options(e)),
        Ok(Err(e)) => Err(Failure::Shader(e)),
        Err(Problem::TimedOut { limit }) => Err(Failure::Stopped(format!(
            "linking `{path}` for `{target}` did not finish within {} s",
            limit.as_secs_f64()
        ))),
        Err(problem) => Err(Failure::Stopped(format!(
            "linking `{path}` failed: {}",
            link_stopped(&problem)
        ))),
    }
}

pub fn run(args: &Args) -> ExitCode {
    let TargetArg(target) = args.target;
    if (args.opengl || args.vulkan != VulkanVersion::default())
        && target.language() != ballot::Language::Glsl
    {
        let flag = if args.opengl { "--opengl" } else { "--vulkan" };
        crate::usage_error(
            "link",
            ErrorKind::ArgumentConflict,
            format!("`{flag}` is for GLSL, which glslang compiles for a Vulkan version or OpenGL; target `{target}` is WGSL"),
        );
    }
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
    let text = match ballot_ir::source::read(&args.file, MAX_SOURCE_BYTES) {
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
    let linked = match link_within(args, text, &Limits::default()) {
        Ok(linked) => linked,
        // An option that fits no shader, or not this one: a usage error,
        // as `polyfill`'s are.
        Err(Failure::Options(e)) => crate::usage_error("link", ErrorKind::ValueValidation, e),
        Err(Failure::Shader(e)) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
        Err(Failure::Stopped(message)) => return crate::fail(&message),
    };
    match &args.output {
        Some(out) => match std::fs::write(out, &linked.text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => crate::fail(&format!("cannot write `{}`: {e}", out.display())),
        },
        None => crate::write_stdout(linked.text.as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ballot::Target;
    use std::time::{Duration, Instant};

    #[test]
    fn a_link_past_the_time_limit_stops_with_the_file_and_the_limit() {
        // 20,000 ballots take far more than the millisecond allowed: the
        // answer comes when the limit passes, not when the work ends.
        let mut text = String::from(
            "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n\
             @compute @workgroup_size(64)\n\
             fn main(@builtin(local_invocation_index) i: u32) {\n    var t = 0u;\n",
        );
        for k in 0..20_000 {
            text.push_str(&format!(
                "    t += subgroupBallotBitCount(subgroupBallot(i > {k}u));\n"
            ));
        }
        text.push_str("    out[i] = t;\n}\n");
        let args = Args {
            file: PathBuf::from("slow.wgsl"),
            target: TargetArg(Target::WgslNoSubgroup),
            subgroup_size: 32,
            include_dirs: Vec::new(),
            defines: Vec::new(),
            vulkan: VulkanVersion::default(),
            opengl: false,
            output: None,
        };
        let limits = Limits {
            timeout: Duration::from_millis(1),
            ..Limits::default()
        };
        let start = Instant::now();
        match link_within(&args, text.clone(), &limits) {
            Err(Failure::Stopped(message)) => assert_eq!(
                message,
                "linking `slow.wgsl` for `wgsl-no-subgroup` did not finish within 0.001 s"
            ),
            other => panic!("{other:?}"),
        }
        assert!(start.elapsed() < Duration::from_secs(5));
        // Within the default limit, the same file links.
        assert!(link_within(&args, text, &Limits::default()).is_ok());
    }
}
