#[ballot::kernel]
fn scaled(x: u32) -> u32 {
    let double = |v: u32| v * 2;
    x
}

fn main() {}
