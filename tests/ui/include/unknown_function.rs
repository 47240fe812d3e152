//! A shader that calls a `subgroupBallot*` function no spec defines.

const SHADER: &str = ballot::include_wgsl!("../../../../tests/ui/include/unknown.wgsl", target = "wgsl");

fn main() {
    let _ = SHADER;
}
