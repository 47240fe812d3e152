// One mistake in a kernel gives one error, however the kernel is used:
// called from another kernel, run, dispatched, emitted as a shader.
use ballot::prelude::*;

#[ballot::kernel]
fn bad(x: u32) -> u32 {
    subgroup_ballot_popcount(subgroup_ballot(x > 3))
}

#[ballot::kernel]
fn caller(x: u32) -> u32 {
    bad(x) + 1
}

fn main() {
    let sg = Subgroup::full(8).unwrap();
    let _ = bad::run(&sg, &[0; 8]);
    let _ = caller::run(&sg, &[0; 8]);
    let dispatch = Dispatch::new([8, 1, 1], 8, [1, 1, 1]).unwrap();
    let _ = bad::run_dispatch(&dispatch, &[0; 8]);
    let _ = bad::shader(Target::Wgsl, Form::ComputeShader, &ShaderOptions::default());
    let _ = bad::kernels();
    let _: &str = bad::NAME;
}
