#[ballot::kernel]
fn early(x: u32) -> u32 {
    if x > 1 {
        break;
    }
    x
}

fn main() {}
