//! Kernels that use the vote, arithmetic, shuffle and quad intrinsics, run
//! natively, with every expected value derived by hand from the spec
//! (docs/design.md, "The rest of the subgroup family"). Their shaders are
//! validated by naga when this file compiles.

use ballot::prelude::*;
use ballot::{ArithOp, Op, Quad, Scan, UbKind};

fn full(size: u32) -> Subgroup {
    Subgroup::full(size).unwrap()
}

fn lanes<T: Copy>(out: &PerLane<T>) -> Vec<Option<T>> {
    out.as_slice().to_vec()
}

/// Votes inside a branch see only the branch's lanes.
#[ballot::kernel]
fn votes(x: u32) -> u32 {
    let mut out = 0u32;
    if x > 0 {
        if subgroup_all(x > 1) {
            out += 1;
        }
        if subgroup_any(x > 2) {
            out += 10;
        }
        if subgroup_all_equal(x) {
            out += 100;
        }
    }
    out
}

#[test]
fn votes_count_only_the_lanes_that_reach_them() {
    // Lanes with x > 0: 0 (x 2), 2 (x 2), 3 (x 3). All of them have x > 1;
    // lane 3 has x > 2; the values 2, 2, 3 differ.
    let out = votes::run(&full(4), &[2, 0, 2, 3]).unwrap();
    assert_eq!(lanes(&out), [Some(11), Some(0), Some(11), Some(11)]);
    // Lanes 0 and 2 only: both 2, so all equal; none has x > 2.
    let out = votes::run(&full(4), &[2, 0, 2, 0]).unwrap();
    assert_eq!(lanes(&out), [Some(101), Some(0), Some(101), Some(0)]);
}

/// Sums and scans over the lanes with an even value.
#[ballot::kernel]
fn sums(x: u32) -> u32 {
    let mut out = 0u32;
    if x % 2 == 0 {
        out = subgroup_i_add(x) * 10000
            + subgroup_inclusive_i_add(x) * 100
            + subgroup_exclusive_i_add(x);
    }
    out
}

#[test]
fn reductions_and_scans_combine_the_active_lanes() {
    // Active: lanes 0 (2), 2 (4), 3 (6), 5 (8). Total 20; inclusive 2, 6,
    // 12, 20; exclusive 0, 2, 6, 12.
    let out = sums::run(&full(8), &[2, 1, 4, 6, 3, 8, 5, 7]).unwrap();
    assert_eq!(
        lanes(&out),
        [
            Some(200_200),
            Some(0),
            Some(200_602),
            Some(201_206),
            Some(0),
            Some(202_012),
            Some(0),
            Some(0)
        ]
    );
}

/// Signed minimum and float maximum, and the identities of empty scans.
#[ballot::kernel]
fn extremes(x: i32) -> f32 {
    let lo = subgroup_exclusive_s_min(x);
    let hi = subgroup_f_max(x as f32);
    if lo == 2147483647 {
        // The first lane: an exclusive scan of no lane is the identity.
        hi + 0.5
    } else {
        lo as f32 + hi
    }
}

#[test]
fn min_and_max_follow_their_types() {
    // Exclusive minima: lane 0 none (i32::MAX), then -3, -3, -5. Maximum 4.
    let out = extremes::run(&full(4), &[-3, 4, -5, 0]).unwrap();
    assert_eq!(lanes(&out), [Some(4.5), Some(1.0), Some(1.0), Some(-1.0)]);
}

/// Each lane reads its neighbour's value in four ways.
#[ballot::kernel]
fn neighbours(x: u32) -> u32 {
    let lane = subgroup_local_invocation_id();
    let size = subgroup_size();
    let a = subgroup_shuffle(x, (lane + 1) % size);
    let b = subgroup_shuffle_xor(x, 1);
    // Every lane takes part; the first and last read themselves.
    let mut up = 0u32;
    if lane > 0 {
        up = 1;
    }
    let mut down = 0u32;
    if lane + 1 < size {
        down = 1;
    }
    let c = subgroup_shuffle_up(x, up);
    let d = subgroup_shuffle_down(x, down);
    a * 1000 + b * 100 + c * 10 + d
}

#[test]
fn shuffles_read_the_lane_they_name() {
    let out = neighbours::run(&full(4), &[1, 2, 3, 4]).unwrap();
    // Lane 0: next 2, xor 2, up itself 1, down 2.
    // Lane 1: 3, 1, 1, 3. Lane 2: 4, 4, 2, 4. Lane 3: 1, 3, 3, itself 4.
    assert_eq!(
        lanes(&out),
        [Some(2212), Some(3113), Some(4424), Some(1334)]
    );
}

/// Inside a branch, a shuffle up from a lane that did not take it.
#[ballot::kernel]
fn shuffle_up_in_branch(x: u32) -> u32 {
    let mut out = 0u32;
    if subgroup_local_invocation_id() > 0 {
        out = subgroup_shuffle_up(x, 1);
    }
    out
}

#[test]
fn a_shuffle_up_past_the_branch_is_reported() {
    // Lane 1 reads lane 0, which is not in the branch.
    let err = shuffle_up_in_branch::run(&full(4), &[1, 2, 3, 4]).unwrap_err();
    let ub = err.as_undefined().expect("undefined behaviour");
    assert_eq!(
        (ub.op, ub.lane, &ub.kind),
        (Op::ShuffleUp, 1, &UbKind::InactiveSource { source_lane: 0 })
    );
}

/// A shuffle up from a lane outside the subgroup is undefined.
#[ballot::kernel]
fn shuffle_up_everywhere(x: u32) -> u32 {
    subgroup_shuffle_up(x, 1)
}

#[test]
fn a_shuffle_from_outside_the_subgroup_is_reported() {
    let err = shuffle_up_everywhere::run(&full(4), &[1, 2, 3, 4]).unwrap_err();
    let ub = err.as_undefined().expect("undefined behaviour");
    assert_eq!(ub.op, Op::ShuffleUp);
    assert_eq!(ub.lane, 0);
    assert!(matches!(ub.kind, UbKind::IndexOutOfRange { .. }));
}

/// A shuffle from a lane that left the branch is undefined.
#[ballot::kernel]
fn shuffle_from_inactive(x: u32) -> u32 {
    let mut out = 0u32;
    if x != 2 {
        out = subgroup_shuffle(x, 2);
    }
    out
}

#[test]
fn a_shuffle_from_an_inactive_lane_is_reported() {
    let err = shuffle_from_inactive::run(&full(4), &[0, 1, 2, 3]).unwrap_err();
    let ub = err.as_undefined().expect("undefined behaviour");
    assert_eq!(ub.op, Op::Shuffle);
    assert_eq!(ub.lane, 0);
    assert_eq!(ub.kind, UbKind::InactiveSource { source_lane: 2 });
}

/// Quad operations: a broadcast of each quad's lane 2, and the three swaps.
#[ballot::kernel]
fn quads(x: u32) -> u32 {
    subgroup_quad_broadcast(x, 2) * 1000
        + subgroup_quad_swap::<0>(x) * 100
        + subgroup_quad_swap::<1>(x) * 10
        + subgroup_quad_swap::<2>(x)
}

#[test]
fn quad_operations_stay_within_each_quad() {
    let out = quads::run(&full(8), &[0, 1, 2, 3, 4, 5, 6, 7]).unwrap();
    // Lane l reads lane l/4*4+2, l^1, l^2, l^3.
    let want: Vec<Option<u32>> = (0..8u32)
        .map(|l| Some((l / 4 * 4 + 2) * 1000 + (l ^ 1) * 100 + (l ^ 2) * 10 + (l ^ 3)))
        .collect();
    assert_eq!(lanes(&out), want);
}

#[test]
fn the_new_names_are_the_ones_the_specs_give() {
    assert_eq!(
        Op::Arith(ArithOp::IAdd, Scan::Inclusive).glsl_name(),
        "subgroupInclusiveAdd"
    );
    assert_eq!(Op::QuadSwap(Quad::Vertical).wgsl_name(), Some("quadSwapY"));
}

/// Clustered reductions in divergent code: lanes with an even value sum
/// their clusters of 4 and take the largest of their pairs; the others xor
/// their clusters of 8. Each sees only the lanes of its own branch.
#[ballot::kernel]
fn clusters(x: u32) -> u32 {
    let mut out = 0u32;
    if x % 2 == 0 {
        out = subgroup_clustered_i_add::<4, _>(x) * 1000 + subgroup_clustered_u_max::<2, _>(x);
    } else {
        out = subgroup_clustered_xor::<8, _>(x);
    }
    out
}

#[test]
fn clustered_reductions_combine_the_active_lanes_of_each_cluster() {
    // Values 2, 5, 4, 6, 7, 9, 8, 3 in lanes 0..7. Even: lanes 0 (2),
    // 2 (4), 3 (6), 6 (8); odd: lanes 1 (5), 4 (7), 5 (9), 7 (3).
    // Even lanes, clusters of 4: {0,2,3} sum 12, {6} sum 8; pairs:
    // {0} 2, {2,3} 6, {6} 8. Odd lanes, one cluster of 8: 5^7^9^3 = 8.
    let out = clusters::run(&full(8), &[2, 5, 4, 6, 7, 9, 8, 3]).unwrap();
    assert_eq!(
        lanes(&out),
        [12002, 8, 12006, 12006, 8, 8, 8008, 8].map(Some).to_vec()
    );
    // The interpreter, on the kernel's IR, agrees.
    let interp = ballot_sim::interp::Interpreter::new([clusters::ir()]);
    let args = [ballot_sim::interp::Arg::PerLane(
        [2u32, 5, 4, 6, 7, 9, 8, 3]
            .map(ballot_sim::interp::Value::U32)
            .to_vec(),
    )];
    let interpreted = interp.run("clusters", &full(8), &args).unwrap();
    let want: Vec<Option<ballot_sim::interp::Value>> = [12002u32, 8, 12006, 12006, 8, 8, 8008, 8]
        .map(|v| Some(ballot_sim::interp::Value::U32(v)))
        .to_vec();
    assert_eq!(interpreted.as_slice().to_vec(), want);
}

/// A cluster of 8 lanes, which a subgroup of 4 does not have.
#[ballot::kernel]
fn cluster_of_eight(x: i32) -> i32 {
    subgroup_clustered_s_max::<8, _>(x)
}

#[test]
fn a_cluster_larger_than_the_subgroup_is_reported() {
    let out = cluster_of_eight::run(&full(8), &[3, -1, 9, 0, 4, 4, -7, 2]).unwrap();
    assert_eq!(lanes(&out), [Some(9); 8].to_vec());
    let err = cluster_of_eight::run(&full(4), &[3, -1, 9, 0]).unwrap_err();
    let ub = err.as_undefined().expect("undefined behaviour");
    assert_eq!(
        (ub.op, ub.lane, &ub.kind),
        (
            Op::Clustered(ArithOp::SMax),
            0,
            &UbKind::ClusterSize {
                cluster_size: 8,
                size: 4
            }
        )
    );
    assert_eq!(
        Op::Clustered(ArithOp::SMax).glsl_name(),
        "subgroupClusteredMax"
    );
}
