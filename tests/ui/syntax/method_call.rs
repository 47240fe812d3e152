#[ballot::kernel]
fn squared(x: u32) -> u32 {
    x.pow(2)
}

fn main() {}
