/// The output slot of each kept element.
pub fn compaction_slot(keep: bool) -> u32 {
    let kept = subgroup_ballot(keep);
    subgroup_ballot_exclusive_bit_count(kept)
}
