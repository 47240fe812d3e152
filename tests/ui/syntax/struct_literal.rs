#[ballot::kernel]
fn wrap(x: u32) -> u32 {
    let p = Pair { a: x, b: x };
    x
}

fn main() {}
