#[ballot::kernel]
fn maybe(x: u32) -> u32 {
    if x > 1 {
        return x;
    }
}

fn main() {}
