//! A shader that calls a `subgroupBallot*` function no spec defines.
//!
//! `tests/compiletest.rs` copies this directory's shaders to `shaders/` in
//! the crate trybuild builds the case in.

const SHADER: &str = ballot::include_wgsl!("shaders/unknown.wgsl", target = "wgsl");

fn main() {
    let _ = SHADER;
}
