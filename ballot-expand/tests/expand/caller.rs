fn caller(p: bool, m: SubgroupMask) -> u32 {
    let lowest: u32 = helpers::lowest_active(m);
    if p && subgroup_inverse_ballot(m) { lowest } else { subgroup_ballot_find_msb(subgroup_ballot(p)) }
}
