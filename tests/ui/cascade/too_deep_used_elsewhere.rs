// A kernel past a size limit gives one error, naming the limit, and its
// uses elsewhere add none.
use ballot::prelude::*;

#[ballot::kernel]
fn chain(x: u32) -> u32 {
    x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x
        + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x
        + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x
}

#[ballot::kernel]
fn caller(x: u32) -> u32 {
    chain(x) + 1
}

fn main() {
    let sg = Subgroup::full(8).unwrap();
    let _ = chain::run(&sg, &[0; 8]);
    let _ = caller::run(&sg, &[0; 8]);
}
