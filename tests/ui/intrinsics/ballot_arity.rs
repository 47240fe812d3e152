#[ballot::kernel]
fn votes(p: bool) -> u32 {
    subgroup_ballot(p, true).count()
}

fn main() {}
