#[ballot::kernel]
fn triples(x: u32) -> u32 {
    subgroup_clustered_i_add::<3, _>(x)
}

#[ballot::kernel]
fn runtime_size(x: u32, n: u32) -> u32 {
    subgroup_clustered_or::<n, _>(x)
}

fn main() {}
