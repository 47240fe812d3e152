#[ballot::kernel]
fn mine(p: bool) -> bool {
    subgroup_ballot(p).contains()
}

fn main() {}
