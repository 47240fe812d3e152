#[ballot::kernel]
fn everyone(p: bool) -> bool {
    subgroup_partition_nv(p)
}

fn main() {}
