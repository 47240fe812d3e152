#[ballot::kernel]
fn ping(x: u32) -> u32 {
    let r: u32 = pong(x);
    r
}

#[ballot::kernel]
fn pong(x: u32) -> u32 {
    let r: u32 = ping(subgroup_ballot(x > 0).count());
    r
}

fn main() {}
