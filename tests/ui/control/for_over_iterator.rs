#[ballot::kernel]
fn total(n: u32) -> u32 {
    let mut sum = 0;
    for i in [1u32, 2, 3] {
        sum += i;
    }
    sum
}

fn main() {}
