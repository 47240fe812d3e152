#[ballot::kernel]
fn split(x: u32) -> u32 {
    let Wrapper(inner) = x;
    inner
}

fn main() {}
