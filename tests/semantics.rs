//! Divergence semantics of native kernels, with every expected value derived
//! by hand from the spec (docs/design.md, "Semantics") rather than from the code.

use ballot::prelude::*;
use ballot::{Op, UbKind};

fn full(size: u32) -> Subgroup {
    Subgroup::full(size).unwrap()
}

fn lanes<T: Copy>(out: &PerLane<T>) -> Vec<Option<T>> {
    out.as_slice().to_vec()
}

/// Both arms ballot; each sees only its own lanes.
#[ballot::kernel]
fn ballot_both_arms(p: bool) -> SubgroupMask {
    if p {
        subgroup_ballot(true)
    } else {
        subgroup_ballot(true)
    }
}

#[test]
fn a_ballot_in_each_arm_of_a_divergent_if_sees_only_that_arm() {
    let p = [true, false, false, true, true, false, true, false];
    let out = ballot_both_arms::run(&full(8), &p).unwrap();
    // Taken by lanes 0, 3, 4, 6 = 0b0101_1001; the rest by 1, 2, 5, 7.
    let taken = SubgroupMask::from_bits(0b0101_1001);
    let not_taken = SubgroupMask::from_bits(0b1010_0110);
    for (lane, &took) in p.iter().enumerate() {
        let want = if took { taken } else { not_taken };
        assert_eq!(out.get(lane as u32), Some(&want), "lane {lane}");
    }
}

/// Lane `i` runs `n[i]` iterations; each iteration counts who is still in.
#[ballot::kernel]
fn iteration_census(n: u32) -> u32 {
    let mut seen = 0u32;
    let mut i = 0u32;
    loop {
        if i >= n {
            break;
        }
        seen = seen * 10 + subgroup_ballot_bit_count(subgroup_ballot(true));
        i += 1;
    }
    seen
}

#[test]
fn lanes_leave_a_loop_at_different_iterations() {
    // Iteration 0: lanes with n > 0 are 0, 1, 2, 4 (4 lanes).
    // Iteration 1: n > 1: lanes 1, 2 (2). Iteration 2: n > 2: lane 2 (1).
    let out = iteration_census::run(&full(8), &[1, 2, 3, 0, 1, 0, 0, 0]).unwrap();
    assert_eq!(lanes(&out), [4, 42, 421, 0, 4, 0, 0, 0].map(Some).to_vec());
}

/// Lanes with an odd id leave before the ballot.
#[ballot::kernel]
fn ballot_after_early_return() -> SubgroupMask {
    if subgroup_local_invocation_id() % 2 == 1 {
        return SubgroupMask::EMPTY;
    }
    subgroup_ballot(true)
}

#[test]
fn an_early_return_removes_lanes_from_later_ballots() {
    let out = ballot_after_early_return::run(&full(8)).unwrap();
    let evens = SubgroupMask::from_bits(0b0101_0101);
    for lane in 0..8u32 {
        let want = if lane % 2 == 1 {
            SubgroupMask::EMPTY
        } else {
            evens
        };
        assert_eq!(out.get(lane), Some(&want), "lane {lane}");
    }
}

/// Two levels of divergence: by lane < 4, then by parity.
#[ballot::kernel]
fn nested_quarters() -> u32 {
    let lane = subgroup_local_invocation_id();
    let mut result = 0u32;
    if lane < 4 {
        if lane % 2 == 0 {
            result = subgroup_ballot_bit_count(subgroup_ballot(true));
        } else {
            result = 100 + subgroup_ballot_find_msb(subgroup_ballot(true));
        }
    } else {
        while lane > 5 {
            result = 200 + subgroup_ballot_find_lsb(subgroup_ballot(true));
            break;
        }
    }
    result
}

#[test]
fn nested_divergence_narrows_twice() {
    // Lanes 0, 2 (count 2); lanes 1, 3 (msb 3); lanes 6, 7 (lsb 6); 4, 5 stay 0.
    let out = nested_quarters::run(&full(8)).unwrap();
    assert_eq!(
        lanes(&out),
        [2, 103, 2, 103, 0, 0, 206, 206].map(Some).to_vec()
    );
}

/// The Vulkan CTS elect test: in the `else` of `if elect()`, the lowest lane
/// of `ballot(true)` is above the elected one.
#[ballot::kernel]
fn elect_then_rest() -> u32 {
    if subgroup_elect() {
        0
    } else {
        subgroup_ballot_find_lsb(subgroup_ballot(true))
    }
}

#[test]
fn elect_picks_the_lowest_active_lane_and_the_rest_see_it_missing() {
    // Active lanes 2, 3, 5, 9: lane 2 is elected, the others see 3 as lowest.
    let active: SubgroupMask = [2, 3, 5, 9].into_iter().collect();
    let sg = Subgroup::new(16, active).unwrap();
    let out = elect_then_rest::run(&sg).unwrap();
    assert_eq!(
        out.active().collect::<Vec<_>>(),
        [(2, &0), (3, &3), (5, &3), (9, &3)]
    );
    assert!(out.active().skip(1).all(|(_, &lsb)| lsb > 0));
}

/// `continue` lanes skip the rest of the body but rejoin the next iteration.
#[ballot::kernel]
fn continue_rejoins() -> u32 {
    let lane = subgroup_local_invocation_id();
    let mut total = 0u32;
    for i in 0..3u32 {
        if (lane + i) % 2 == 0 {
            continue;
        }
        total = total * 10 + subgroup_ballot_bit_count(subgroup_ballot(true));
    }
    total
}

#[test]
fn continue_skips_an_iteration_only() {
    // 4 lanes. i = 0: odd lanes 1, 3 count 2. i = 1: even lanes 0, 2 count 2.
    // i = 2: odd lanes again, 2. Odd lanes: 2 then 2 -> 22; even: 2.
    let out = continue_rejoins::run(&full(4)).unwrap();
    assert_eq!(lanes(&out), [2, 22, 2, 22].map(Some).to_vec());
}

/// A kernel calling another runs the callee with the caller's active lanes.
#[ballot::kernel]
fn active_count() -> u32 {
    subgroup_ballot_bit_count(subgroup_ballot(true))
}

#[ballot::kernel]
fn count_in_branch(p: bool) -> u32 {
    let mut n = 0u32;
    if p {
        n = active_count();
    }
    n
}

#[test]
fn a_called_kernel_sees_the_callers_divergence() {
    let out = count_in_branch::run(&full(4), &[true, false, true, true]).unwrap();
    assert_eq!(lanes(&out), [3, 0, 3, 3].map(Some).to_vec());
}

/// Undefined behaviour inside a branch is reported for a lane in the branch.
#[ballot::kernel]
fn lsb_of_the_others(p: bool) -> u32 {
    let mut r = 0u32;
    if p {
        // Lanes where p holds ballot !p: empty, hence undefined.
        r = subgroup_ballot_find_lsb(subgroup_ballot(!p));
    }
    r
}

#[test]
fn undefined_behaviour_names_the_op_and_the_lane() {
    let err = lsb_of_the_others::run(&full(4), &[false, false, true, true]).unwrap_err();
    let ub = err.as_undefined().expect("an undefined-behaviour report");
    assert_eq!(ub.op, Op::FindLsb);
    assert_eq!(ub.lane, 2);
    assert!(matches!(ub.kind, UbKind::EmptyMask { size: 4, .. }));
    // With no lane taking the branch nothing is undefined.
    let out = lsb_of_the_others::run(&full(4), &[false; 4]).unwrap();
    assert_eq!(lanes(&out), [Some(0); 4].to_vec());
}

#[test]
fn inputs_of_the_wrong_length_are_an_error() {
    let err = ballot_both_arms::run(&full(8), &[true; 4]).unwrap_err();
    assert_eq!(
        err,
        SimError::InputLength {
            op: "p",
            expected: 8,
            got: 4
        }
    );
}

#[test]
fn a_dispatch_maps_invocations_to_subgroups_in_order() {
    // A 3×3×3 workgroup of 27 invocations in subgroups of 8: 8, 8, 8 and 3.
    let dispatch = Dispatch::new([3, 3, 3], 8, [2, 1, 1]).unwrap();
    let out = active_count::run_dispatch(&dispatch).unwrap();
    let one_workgroup: Vec<u32> = (0..27).map(|i| if i < 24 { 8 } else { 3 }).collect();
    assert_eq!(out, [one_workgroup.clone(), one_workgroup].concat());
}

/// An expression of the lane's id that overflows at lane 0 only: valid on
/// every target (the `glsl` validation once folded the id as a constant
/// and refused it), and, since integers wrap, `(l - 64) << 20` in lane `l`.
#[ballot::kernel]
fn shifted_lane_id() -> u32 {
    (subgroup_local_invocation_id() - 64u32) << 20u32
}

#[test]
fn an_expression_of_the_lane_id_wraps_in_every_lane() {
    let out = shifted_lane_id::run(&full(4)).unwrap();
    for lane in 0..4u32 {
        let want = lane.wrapping_sub(64).wrapping_shl(20);
        assert_eq!(out.get(lane), Some(&want), "lane {lane}");
    }
}
