fn divergent(n: u32, #[uniform] limit: u32) -> u32 {
    let mut seen = 0u32;
    for i in 0..limit {
        if i >= n {
            break;
        }
        if subgroup_elect() {
            continue;
        }
        seen += subgroup_ballot_bit_count(subgroup_ballot(true));
    }
    if seen == 0 {
        return subgroup_broadcast_first(n);
    }
    seen
}
