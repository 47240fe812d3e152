//! The clustered reductions (`GL_KHR_shader_subgroup_clustered`,
//! `subgroupClusteredAdd(value, clusterSize)` …) against values worked out
//! by hand from the extension's text: each active lane gets the reduction
//! over the active lanes of its cluster, lanes
//! `floor(id / n) * n .. floor(id / n) * n + n - 1`; integers wrap; a
//! cluster size that is not a power of two from 1 to the subgroup size is
//! undefined, and reported.

use ballot_ir::error::{SimError, UbKind, UndefinedBehavior};
use ballot_ir::mask::SubgroupMask;
use ballot_ir::op::{ArithOp, Op};
use ballot_sim::ops::subgroup_clustered;
use ballot_sim::sim::Subgroup;

fn subgroup(size: u32, lanes: &[u32]) -> Subgroup {
    Subgroup::new(size, lanes.iter().copied().collect()).unwrap()
}

/// Lane `i`'s value is bit `i`, so that a sum or an or names the lanes
/// that went into it.
const BITS: [u32; 8] = [1, 2, 4, 8, 16, 32, 64, 128];

#[test]
fn each_active_lane_gets_its_clusters_active_lanes_only() {
    // Lanes 1, 4 and 7 are inactive: their values must count nowhere.
    let sg = subgroup(8, &[0, 2, 3, 5, 6]);
    let cases: [(u32, [Option<u32>; 8]); 4] = [
        // Each lane alone.
        (
            1,
            [
                Some(1),
                None,
                Some(4),
                Some(8),
                None,
                Some(32),
                Some(64),
                None,
            ],
        ),
        // Pairs {0,1} {2,3} {4,5} {6,7}: 1, 4+8, 32, 64.
        (
            2,
            [
                Some(1),
                None,
                Some(12),
                Some(12),
                None,
                Some(32),
                Some(64),
                None,
            ],
        ),
        // Quads {0..3} {4..7}: 1+4+8, 32+64.
        (
            4,
            [
                Some(13),
                None,
                Some(13),
                Some(13),
                None,
                Some(96),
                Some(96),
                None,
            ],
        ),
        // The whole subgroup: 1+4+8+32+64.
        (
            8,
            [
                Some(109),
                None,
                Some(109),
                Some(109),
                None,
                Some(109),
                Some(109),
                None,
            ],
        ),
    ];
    for (n, expected) in cases {
        for op in [ArithOp::IAdd, ArithOp::Or, ArithOp::Xor, ArithOp::UMax] {
            let got = subgroup_clustered(&sg, op, n, &BITS).unwrap().into_vec();
            let expected: Vec<Option<u32>> = match op {
                // The largest bit of the cluster's active lanes.
                ArithOp::UMax => expected
                    .iter()
                    .map(|v| v.map(|v| 1 << (31 - v.leading_zeros())))
                    .collect(),
                // Distinct bits: the sum, the or and the xor agree.
                _ => expected.to_vec(),
            };
            assert_eq!(got, expected, "{op:?} over clusters of {n}");
        }
    }
}

#[test]
fn cluster_sizes_1_2_4_and_32_at_subgroup_32() {
    // Every lane active, lane i holding i: a cluster of n starting at
    // lane b sums to n*b + n*(n-1)/2.
    let all: Vec<u32> = (0..32).collect();
    let sg = subgroup(32, &all);
    let expected = |n: u32, lane: u32| {
        let b = lane / n * n;
        n * b + n * (n - 1) / 2
    };
    for n in [1, 2, 4, 32] {
        let got = subgroup_clustered(&sg, ArithOp::IAdd, n, &all).unwrap();
        for lane in 0..32 {
            assert_eq!(got.get(lane), Some(&expected(n, lane)), "n {n} lane {lane}");
        }
    }
    // Spot values by hand: lanes 4..7 sum to 22, 28..31 to 118, all to 496.
    let quads = subgroup_clustered(&sg, ArithOp::IAdd, 4, &all).unwrap();
    assert_eq!(quads.get(5), Some(&22));
    assert_eq!(quads.get(31), Some(&118));
    let whole = subgroup_clustered(&sg, ArithOp::IAdd, 32, &all).unwrap();
    assert_eq!(whole.get(0), Some(&496));
    // Only odd lanes active: pairs hold one lane each, so each gets its own.
    let odd: Vec<u32> = (0..32).filter(|l| l % 2 == 1).collect();
    let sg = subgroup(32, &odd);
    let pairs = subgroup_clustered(&sg, ArithOp::IAdd, 2, &all).unwrap();
    for lane in 0..32 {
        let want = (lane % 2 == 1).then_some(lane);
        assert_eq!(pairs.get(lane).copied(), want, "lane {lane}");
    }
    // Quads of odd lanes: 1+3, 5+7, ….
    let quads = subgroup_clustered(&sg, ArithOp::IAdd, 4, &all).unwrap();
    assert_eq!(quads.get(1), Some(&4));
    assert_eq!(quads.get(7), Some(&12));
}

#[test]
fn every_subgroup_size_from_4_to_64() {
    // Ones in the even lanes only: a cluster of n (at least 2) holds n/2
    // active lanes, so counts n/2; a cluster of 1 counts its own lane.
    for size in [4u32, 8, 16, 32, 64] {
        let even: Vec<u32> = (0..size).step_by(2).collect();
        let sg = subgroup(size, &even);
        let ones = vec![1u32; size as usize];
        let mut n = 1;
        while n <= size {
            let got = subgroup_clustered(&sg, ArithOp::IAdd, n, &ones).unwrap();
            for lane in 0..size {
                let want = (lane % 2 == 0).then_some((n / 2).max(1));
                assert_eq!(
                    got.get(lane).copied(),
                    want,
                    "size {size} n {n} lane {lane}"
                );
            }
            n *= 2;
        }
    }
}

#[test]
fn a_lane_alone_in_its_cluster_gets_its_own_value_whatever_the_operation() {
    // The identity (0 for add/or/xor and UMax, 1 for mul, all ones for and
    // and UMin, the type's max for min, its min for max, ±infinity for
    // floats) must leave the one value as it is: values chosen where a
    // wrong identity would show.
    let sg = subgroup(4, &[0, 2]);
    let u = [u32::MAX, 0, 0, 0];
    let i = [i32::MIN, 0, i32::MAX, 0];
    let f = [f32::NEG_INFINITY, 0.0, f32::INFINITY, 0.0];
    let cases_u = [
        (ArithOp::IAdd, u[0]),
        (ArithOp::IMul, u[0]),
        (ArithOp::UMin, u[0]),
        (ArithOp::UMax, u[0]),
        (ArithOp::And, u[0]),
        (ArithOp::Or, u[0]),
        (ArithOp::Xor, u[0]),
    ];
    for (op, want) in cases_u {
        let got = subgroup_clustered(&sg, op, 2, &u).unwrap();
        assert_eq!(got.get(0), Some(&want), "{op:?}");
        assert_eq!(got.get(2), Some(&0), "{op:?}");
    }
    // u32 zero with UMin and And, whose identity is all ones.
    for op in [ArithOp::UMin, ArithOp::And, ArithOp::IMul] {
        let got = subgroup_clustered(&sg, op, 2, &[0u32, 9, 5, 9]).unwrap();
        assert_eq!((got.get(0), got.get(2)), (Some(&0), Some(&5)), "{op:?}");
    }
    for (op, lane0, lane2) in [
        (ArithOp::SMin, i32::MIN, i32::MAX),
        (ArithOp::SMax, i32::MIN, i32::MAX),
        (ArithOp::IAdd, i32::MIN, i32::MAX),
        (ArithOp::And, i32::MIN, i32::MAX),
    ] {
        let got = subgroup_clustered(&sg, op, 2, &i).unwrap();
        assert_eq!(
            (got.get(0), got.get(2)),
            (Some(&lane0), Some(&lane2)),
            "{op:?}"
        );
    }
    for (op, lane0, lane2) in [
        (ArithOp::FMin, f32::NEG_INFINITY, f32::INFINITY),
        (ArithOp::FMax, f32::NEG_INFINITY, f32::INFINITY),
        (ArithOp::FMul, f32::NEG_INFINITY, f32::INFINITY),
    ] {
        let got = subgroup_clustered(&sg, op, 2, &f).unwrap();
        assert_eq!(
            (got.get(0), got.get(2)),
            (Some(&lane0), Some(&lane2)),
            "{op:?}"
        );
    }
    // FAdd: a lone -0.0 from the identity 0.0 is 0.0 + -0.0 = +0.0.
    let got = subgroup_clustered(&sg, ArithOp::FAdd, 2, &[-0.0f32, 1.0, 2.5, 1.0]).unwrap();
    assert_eq!(got.get(0).map(|x| x.to_bits()), Some(0.0f32.to_bits()));
    assert_eq!(got.get(2), Some(&2.5));
}

#[test]
fn integers_wrap() {
    let sg = subgroup(4, &[0, 1, 2, 3]);
    let u = subgroup_clustered(&sg, ArithOp::IAdd, 2, &[u32::MAX, 2, 7, 8]).unwrap();
    assert_eq!(u.into_vec(), vec![Some(1), Some(1), Some(15), Some(15)]);
    let i = subgroup_clustered(&sg, ArithOp::IMul, 2, &[i32::MAX, 2, i32::MIN, -1]).unwrap();
    assert_eq!(
        i.into_vec(),
        vec![Some(-2), Some(-2), Some(i32::MIN), Some(i32::MIN)]
    );
    let i = subgroup_clustered(&sg, ArithOp::IAdd, 4, &[i32::MIN, -1, 0, 0]).unwrap();
    assert_eq!(i.get(3), Some(&i32::MAX));
}

#[test]
fn floats_min_max_and_product() {
    let sg = subgroup(8, &[0, 1, 2, 3, 4, 6]);
    let v = [3.0f32, -1.5, 2.0, 0.5, 8.0, 100.0, -4.0, 100.0];
    let min = subgroup_clustered(&sg, ArithOp::FMin, 4, &v).unwrap();
    assert_eq!(min.get(3), Some(&-1.5));
    assert_eq!(min.get(4), Some(&-4.0));
    let max = subgroup_clustered(&sg, ArithOp::FMax, 4, &v).unwrap();
    assert_eq!(max.get(0), Some(&3.0));
    assert_eq!(max.get(6), Some(&8.0));
    let mul = subgroup_clustered(&sg, ArithOp::FMul, 2, &v).unwrap();
    assert_eq!(mul.get(1), Some(&-4.5));
    assert_eq!(mul.get(2), Some(&1.0));
    assert_eq!(mul.get(4), Some(&8.0));
}

fn ub(op: ArithOp, lane: u32, cluster_size: u32, size: u32) -> SimError {
    SimError::Undefined(UndefinedBehavior {
        op: Op::Clustered(op),
        lane,
        kind: UbKind::ClusterSize { cluster_size, size },
    })
}

#[test]
fn a_cluster_size_over_the_subgroup_size_or_not_a_power_of_two_is_reported() {
    // Lowest active lane: 2.
    let sg = Subgroup::new(32, SubgroupMask::from_bits(0b1100)).unwrap();
    let v = [1u32; 32];
    for n in [64, 128, 0, 3, 6, 33] {
        assert_eq!(
            subgroup_clustered(&sg, ArithOp::IAdd, n, &v),
            Err(ub(ArithOp::IAdd, 2, n, 32)),
            "n {n}"
        );
    }
    // At the size it is the whole subgroup.
    let whole = subgroup_clustered(&sg, ArithOp::IAdd, 32, &v).unwrap();
    assert_eq!(whole.get(3), Some(&2));
    let sg = subgroup(4, &[1]);
    assert_eq!(
        subgroup_clustered(&sg, ArithOp::Xor, 8, &[0u32; 4]),
        Err(ub(ArithOp::Xor, 1, 8, 4))
    );
    let message = ub(ArithOp::Xor, 1, 8, 4).to_string();
    assert!(
        message.contains("subgroupClusteredXor") && message.contains("lane 1"),
        "{message}"
    );
}

#[test]
fn an_operation_on_a_type_it_does_not_take_is_a_typed_error() {
    let sg = subgroup(4, &[0, 1, 2, 3]);
    assert_eq!(
        subgroup_clustered(&sg, ArithOp::And, 2, &[1.0f32; 4]),
        Err(SimError::Unsupported {
            op: Op::Clustered(ArithOp::And),
            ty: "f32"
        })
    );
    assert!(matches!(
        subgroup_clustered(&sg, ArithOp::SMin, 2, &[1u32; 4]),
        Err(SimError::Unsupported { ty: "u32", .. })
    ));
}
