#[ballot::kernel]
fn drain(mut x: u32) -> u32 {
    while let 1 = x {
        x = 0;
    }
    x
}

fn main() {}
