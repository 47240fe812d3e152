//! `ballot polyfill --target T [--subgroup-size N] [--workgroup-size X[,Y[,Z]]] [-o FILE]`.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;

use ballot::cross::{self, CrossOutput};
use ballot::polyfill::{self, PolyfillOptions};
use ballot::Target;
use clap::error::ErrorKind;

use crate::OutputArg;

/// Print or write the helper library for a target.
///
/// spirv, hlsl and msl are the wgsl library, cross-compiled by naga.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The target.
    #[arg(long, short)]
    target: OutputArg,
    /// The virtual subgroup size of the *-no-subgroup targets: a power of
    /// two from 1 to 128.
    #[arg(long, default_value_t = PolyfillOptions::default().subgroup_size)]
    subgroup_size: u32,
    /// The workgroup size the library is written for, as X, X,Y or X,Y,Z
    /// [default: 64,1,1].
    #[arg(long, value_parser = parse_workgroup_size)]
    workgroup_size: Option<[u32; 3]>,
    /// Write to FILE instead of stdout (required for spirv on a terminal).
    #[arg(long, short)]
    output: Option<PathBuf>,
}

/// `X`, `X,Y` or `X,Y,Z`; missing dimensions are 1.
fn parse_workgroup_size(text: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.len() > 3 {
        return Err("expected X, X,Y or X,Y,Z".to_string());
    }
    let mut size = [1u32; 3];
    for (slot, part) in size.iter_mut().zip(&parts) {
        *slot = part
            .parse()
            .map_err(|e| format!("`{part}` is not a dimension: {e}; expected X, X,Y or X,Y,Z"))?;
    }
    Ok(size)
}

pub fn run(args: &Args) -> ExitCode {
    let options = PolyfillOptions {
        subgroup_size: args.subgroup_size,
        workgroup_size: args
            .workgroup_size
            .unwrap_or(PolyfillOptions::default().workgroup_size),
    };
    // An option value outside its range is a usage error (exit 2), as
    // clap's own are; exit 1 stays for failures of the work itself.
    if let Err(e) = options.validate() {
        crate::usage_error("polyfill", ErrorKind::ValueValidation, e);
    }
    let output = match args.target {
        OutputArg::Shader(target) => match polyfill::library(target, &options) {
            Ok(text) => CrossOutput::Text(text),
            Err(e) => return crate::fail(&e.to_string()),
        },
        OutputArg::Cross(to) => {
            let wgsl = match polyfill::library(Target::Wgsl, &options) {
                Ok(text) => text,
                Err(e) => return crate::fail(&e.to_string()),
            };
            match cross::compile(&wgsl, to) {
                Ok(output) => output,
                Err(e) => {
                    return crate::fail(&format!(
                        "cannot compile the wgsl library to {}: {e}",
                        to.name()
                    ))
                }
            }
        }
    };
    match &args.output {
        Some(path) => match std::fs::write(path, output.to_bytes()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => crate::fail(&format!("cannot write `{}`: {e}", path.display())),
        },
        None => {
            if matches!(output, CrossOutput::SpirV(_)) && std::io::stdout().is_terminal() {
                crate::usage_error(
"polyfill",
                    ErrorKind::ArgumentConflict,
                    "SPIR-V is binary and stdout is a terminal; write it with `-o FILE` or redirect stdout",
                );
            }
            crate::write_stdout(&output.to_bytes())
        }
    }
}
