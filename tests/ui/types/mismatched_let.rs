#[ballot::kernel]
fn flag(x: u32) -> bool {
    let b: bool = x;
    b
}

fn main() {}
