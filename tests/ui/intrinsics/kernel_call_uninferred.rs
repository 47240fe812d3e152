#[ballot::kernel]
fn helper(x: u32) -> u32 {
    x
}

#[ballot::kernel]
fn caller(x: u32) -> u32 {
    let y = helper(x);
    x
}

fn main() {}
