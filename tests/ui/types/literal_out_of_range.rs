#[ballot::kernel]
fn big() -> u32 {
    let x: u32 = 4294967296;
    x
}

fn main() {}
