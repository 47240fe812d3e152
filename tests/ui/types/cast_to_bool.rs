#[ballot::kernel]
fn truthy(x: u32) -> bool {
    x as bool
}

fn main() {}
