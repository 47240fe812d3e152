#[ballot::kernel]
fn logged(x: u32) -> u32 {
    println!("{}", x);
    x
}

fn main() {}
