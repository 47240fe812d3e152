#[ballot::kernel]
fn masked(#[varying] x: u32) -> u32 {
    x
}

fn main() {}
