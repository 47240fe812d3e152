#[ballot::kernel]
fn total(n: u32) -> u32 {
    let mut sum = 0;
    for i in 0..=n {
        sum += i;
    }
    sum
}

fn main() {}
