#[ballot::kernel]
fn nothing(x: u32) {
    if x > 1 {
        return x;
    }
}

fn main() {}
