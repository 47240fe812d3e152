#[ballot::kernel]
fn wide(x: u64) -> u32 {
    1
}

fn main() {}
