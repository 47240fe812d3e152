//! What the examples share: where they write their shaders, and writing a
//! kernel's compute shader for every target.
//!
//! Running those shaders on a GPU is left to `ballot-runner`'s examples
//! (`ballot-runner/examples/common/mod.rs`), which include these files: the
//! root package's examples then build without wgpu.

#![allow(dead_code)] // Each example uses its own part of this module.

use std::path::PathBuf;

use ballot::ir::Kernel;
use ballot::{Form, ShaderOptions, Target};

/// Where an example writes its shaders: `BALLOT_OUT/<example>`, or
/// `ballot-examples/<example>` in the target directory: `CARGO_TARGET_DIR`
/// where the environment names one (a target directory outside the
/// checkout), else `target`.
pub fn out_dir(example: &str) -> PathBuf {
    let target = || {
        std::env::var_os("CARGO_TARGET_DIR")
            .map_or_else(|| PathBuf::from("target"), PathBuf::from)
            .join("ballot-examples")
    };
    std::env::var_os("BALLOT_OUT")
        .map_or_else(target, PathBuf::from)
        .join(example)
}

/// Writes the compute shader of `kernels` for every target to
/// `out_dir(example)`, named `<kernel>.<target>.<ext>`, and returns the
/// paths written. Every text was validated by naga when the kernel
/// compiled; emitting it again here cannot fail for valid options.
pub fn write_shaders(
    example: &str,
    kernels: &[&'static Kernel],
    options: &ShaderOptions,
) -> std::io::Result<Vec<PathBuf>> {
    let dir = out_dir(example);
    std::fs::create_dir_all(&dir)?;
    let mut written = Vec::new();
    for target in Target::ALL {
        let text = ballot::emit(
            target,
            Form::ComputeShader,
            kernels,
            options,
            ballot::Missing::Error,
        )
        .map_err(std::io::Error::other)?;
        let ext = target.language().extension();
        let path = dir.join(format!("{}.{target}.{ext}", kernels[0].name));
        std::fs::write(&path, text)?;
        written.push(path);
    }
    Ok(written)
}
