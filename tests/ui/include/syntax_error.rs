//! A shader with a syntax error: the error names the shader's file, line
//! and column, and shows the line.
//!
//! `tests/compiletest.rs` copies this directory's shaders to `shaders/` in
//! the crate trybuild builds the case in.

const SHADER: &str = ballot::include_wgsl!(
    "shaders/syntax.wgsl",
    target = "wgsl-no-subgroup"
);

fn main() {
    let _ = SHADER;
}
