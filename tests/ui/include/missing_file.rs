//! A shader file that does not exist.

const SHADERS: [&str; 2] = ballot::include_wgsl!(
    "shaders/missing.wgsl",
    targets = ["wgsl", "wgsl-no-subgroup"]
);

fn main() {
    let _ = SHADERS;
}
