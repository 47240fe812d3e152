#[ballot::kernel]
fn from_lane(x: u32, lane: u32) -> u32 {
    subgroup_broadcast(x, lane)
}

fn main() {}
