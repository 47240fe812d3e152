#[ballot::kernel]
fn echo(x: u32) -> u32 {
    x + offset
}

fn main() {}
