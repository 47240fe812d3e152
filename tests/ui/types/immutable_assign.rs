#[ballot::kernel]
fn bump(x: u32) -> u32 {
    let y = x;
    y += 1;
    y
}

fn main() {}
