//! A device for a shader: refused before it is opened, so that an endless
//! one (`/dev/zero`) neither hangs the build nor fills its memory.

const SHADER: &str = ballot::include_wgsl!("/dev/zero", target = "wgsl");

fn main() {
    let _ = SHADER;
}
