//! `ballot check FILE [--target T]`.

use std::io::Read as _;
use std::path::PathBuf;
use std::process::ExitCode;

use ballot::check::{
    check_bytes, target_for_path, CheckError, Problem, EXTENSIONS, MAX_SOURCE_BYTES,
};
use ballot::Target;
use clap::error::ErrorKind;

use crate::TargetArg;

/// Validate a WGSL or GLSL file with naga.
///
/// The file may paste in ballot's helper libraries. It is untrusted: files
/// over 16 MiB, not UTF-8, or nested deeper than naga can parse safely are
/// reported, not parsed.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shader file.
    file: PathBuf,
    /// The target to check for [default: from the extension: .wgsl is wgsl;
    /// .glsl, .comp and .glsl.comp are glsl].
    #[arg(long, short)]
    target: Option<TargetArg>,
}

pub fn run(args: &Args) -> ExitCode {
    let target = match args.target {
        Some(TargetArg(target)) => target,
        None => target_for_path(&args.file).unwrap_or_else(|| {
            crate::usage_error(
                "check",
                ErrorKind::InvalidValue,
                format!(
                    "cannot tell the language of `{}` from its extension (known: {EXTENSIONS}); \
                     pass --target, one of: {}",
                    args.file.display(),
                    Target::ALL.map(Target::name).join(", ")
                ),
            )
        }),
    };
    let path = args.file.display().to_string();
    let bytes = match read(&args.file) {
        Ok(bytes) => bytes,
        Err(Read::Io(e)) => return crate::fail(&format!("cannot read `{path}`: {e}")),
        Err(Read::TooLarge(size)) => {
            return report(&CheckError {
                path,
                problem: Problem::TooLarge {
                    size,
                    limit: MAX_SOURCE_BYTES,
                },
            })
        }
    };
    match check_bytes(target, &path, &bytes) {
        Ok(()) => crate::write_stdout(format!("{path}: ok ({target})\n").as_bytes()),
        Err(err) => {
            let code = report(&err);
            if target == Target::Wgsl
                && matches!(err.problem, Problem::Invalid(_))
                && bytes.windows(7).any(|w| w == b"enable ")
            {
                eprintln!("help: naga rejects `enable` directives; `--target wgsl-web` checks the file without them");
            }
            code
        }
    }
}

fn report(err: &CheckError) -> ExitCode {
    match err.problem {
        // naga's report already starts with `error:` and names the file.
        Problem::Invalid(_) => {
            eprintln!("{err}");
            ExitCode::FAILURE
        }
        _ => crate::fail(&err.to_string()),
    }
}

enum Read {
    Io(std::io::Error),
    TooLarge(u64),
}

/// Reads at most one byte more than the limit, so that a huge file (or an
/// endless one such as /dev/zero) is never read whole.
fn read(path: &std::path::Path) -> Result<Vec<u8>, Read> {
    let file = std::fs::File::open(path).map_err(Read::Io)?;
    let mut bytes = Vec::new();
    file.take(MAX_SOURCE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(Read::Io)?;
    if bytes.len() > MAX_SOURCE_BYTES {
        let size = std::fs::metadata(path)
            .map(|m| m.len())
            .ok()
            .filter(|&len| len > MAX_SOURCE_BYTES as u64)
            .unwrap_or(bytes.len() as u64);
        return Err(Read::TooLarge(size));
    }
    Ok(bytes)
}
