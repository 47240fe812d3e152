#[ballot::kernel]
fn pick(x: u32) -> u32 {
    match x {
        0 => 1,
        _ => x,
    }
}

fn main() {}
