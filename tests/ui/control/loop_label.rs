#[ballot::kernel]
fn search(x: u32) -> u32 {
    'outer: loop {
        break 'outer;
    }
    x
}

fn main() {}
