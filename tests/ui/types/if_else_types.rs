#[ballot::kernel]
fn choose(p: bool, a: u32, b: i32) -> u32 {
    let v = if p { a } else { b };
    v
}

fn main() {}
