//! A directory for a shader: only a regular file is read.

const SHADER: &str = ballot::include_glsl!("/", target = "glsl");

fn main() {
    let _ = SHADER;
}
