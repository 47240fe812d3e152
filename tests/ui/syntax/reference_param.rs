#[ballot::kernel]
fn count(x: &u32) -> u32 {
    subgroup_ballot(true).count()
}

fn main() {}
