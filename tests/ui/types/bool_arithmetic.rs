#[ballot::kernel]
fn sum(p: bool, q: bool) -> bool {
    p + q
}

fn main() {}
