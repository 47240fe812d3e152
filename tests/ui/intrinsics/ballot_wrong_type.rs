#[ballot::kernel]
fn votes(x: u32) -> u32 {
    subgroup_ballot(x).count()
}

fn main() {}
