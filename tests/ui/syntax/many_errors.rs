#[ballot::kernel]
fn broken(x: u32) -> u32 {
    let m = subgroup_ballot(x);
    let r = &x;
    y
}

fn main() {}
