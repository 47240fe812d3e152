//! A shader with a syntax error: the error names the shader's file, line
//! and column, and shows the line.

const SHADER: &str = ballot::include_wgsl!(
    "../../../../tests/ui/include/syntax.wgsl",
    target = "wgsl-no-subgroup"
);

fn main() {
    let _ = SHADER;
}
