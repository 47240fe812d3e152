#[ballot::kernel]
fn count<T>(x: u32) -> u32 {
    x
}

fn main() {}
