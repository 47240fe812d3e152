#[ballot::kernel]
fn everyone(p: bool) -> bool {
    subgroup_all(p)
}

fn main() {}
