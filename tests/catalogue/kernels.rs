//! The idioms of the portability catalogue (docs/reconvergence.md,
//! section 7): their answers depend on the subgroup size or on
//! reconvergence. `tests/portability.rs` runs the oracle on them, and the
//! driver suite (`ballot-runner/src/suite.rs`) runs them on every driver,
//! which must give the answer of maximal reconvergence at its own size.

/// "The subgroup is my workgroup": a ballot's count, which depends on the
/// subgroup size.
#[ballot::kernel]
pub fn workgroup_total(p: bool) -> u32 {
    subgroup_ballot_bit_count(subgroup_ballot(p))
}

/// The leader of a branch.
#[ballot::kernel]
pub fn branch_leader(take: bool) -> bool {
    let mut leader = false;
    if take {
        leader = subgroup_elect();
    }
    leader
}

/// Elect-then-add inside the branch.
#[ballot::kernel]
pub fn elect_in_branch(want: bool) -> u32 {
    let mut add = 0u32;
    if want {
        let count = subgroup_ballot_bit_count(subgroup_ballot(true));
        if subgroup_elect() {
            add = count;
        }
    }
    add
}

/// A ballot after an early `return`.
#[ballot::kernel]
pub fn after_return(done: bool, flag: bool) -> u32 {
    if done {
        return 0;
    }
    subgroup_ballot_bit_count(subgroup_ballot(flag))
}

/// A ballot after a `return` inside a nested `if`: the lanes that reach
/// it came by two paths (`outer` not taken, or taken with `inner` not).
#[ballot::kernel]
pub fn after_nested_return(outer: bool, inner: bool) -> u32 {
    if outer {
        if inner {
            return 0;
        }
    }
    subgroup_ballot_bit_count(subgroup_ballot(true))
}

/// A ballot in the iteration after some lanes took a `continue`: they come
/// back to the loop by another path than the lanes that did not.
#[ballot::kernel]
pub fn after_continue(skip: bool) -> u32 {
    let mut seen = 0u32;
    let mut i = 0u32;
    while i < 2 {
        i += 1;
        if skip && i == 1 {
            continue;
        }
        seen += subgroup_ballot_bit_count(subgroup_ballot(true));
    }
    seen
}

/// A ballot in a loop that lanes leave by `break` at different iterations.
#[ballot::kernel]
pub fn loop_with_break(trips: u32) -> u32 {
    let mut seen = 0u32;
    let mut i = 0u32;
    loop {
        if i >= trips % 4 {
            break;
        }
        seen += subgroup_ballot_bit_count(subgroup_ballot(true));
        i += 1;
    }
    seen
}

/// A ballot after a divergent `if`, which expects every lane back.
#[ballot::kernel]
pub fn ballot_after_if(p: bool) -> u32 {
    let mut x = 0u32;
    if p {
        x = 1;
    }
    subgroup_ballot_bit_count(subgroup_ballot(x == 1))
}
