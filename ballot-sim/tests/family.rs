//! The vote, arithmetic, shuffle and quad operations of the simulator
//! against references written here from the spec (docs/design.md, "The
//! rest of the subgroup family"; GL_KHR_shader_subgroup; SPIR-V's
//! GroupNonUniform instructions), at every subgroup size from 1 to 128 and
//! in ragged subgroups, whose active lanes are any subset.

use ballot_ir::error::{SimError, UbKind, UndefinedBehavior};
use ballot_ir::mask::SubgroupMask;
use ballot_ir::op::{ArithOp, Op, Quad, Scan};
use ballot_sim::ops::*;
use ballot_sim::sim::{PerLane, Subgroup};
use proptest::collection::vec;
use proptest::prelude::*;

/// A subgroup of any size the spec allows (a power of two from 1 to 128)
/// with any set of active lanes, and one input per lane.
fn subgroup_and<T: std::fmt::Debug + Clone>(
    value: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = (Subgroup, Vec<T>)> {
    (0u32..=7)
        .prop_map(|k| 1u32 << k)
        .prop_flat_map(move |size| {
            let lanes = size as usize;
            (
                any::<u128>(),
                prop_oneof![Just(0u8), Just(1), Just(2), Just(3)],
                vec(value.clone(), lanes),
            )
                .prop_map(move |(bits, shape, values)| {
                    let below = if size == 128 { !0 } else { (1u128 << size) - 1 };
                    // Random masks, and the shapes the CTS favours: all lanes,
                    // one lane, and a prefix.
                    let bits = match shape {
                        0 => bits,
                        1 => below,
                        2 => 1 << (bits % u128::from(size)),
                        _ => below >> (bits % u128::from(size)),
                    } & below;
                    let sg = Subgroup::new(size, SubgroupMask::from_bits(bits)).unwrap();
                    (sg, values)
                })
        })
}

fn active(sg: &Subgroup) -> Vec<u32> {
    sg.active().iter().collect()
}

/// The outputs of the active lanes, `None` in the others.
fn outputs<T: Clone>(p: PerLane<T>) -> Vec<Option<T>> {
    p.into_vec()
}

/// The lane a quad operation reads, from the lane and the index.
type Source = fn(u32, u32) -> u32;

fn ub(op: Op, lane: u32, kind: UbKind) -> SimError {
    SimError::Undefined(UndefinedBehavior { op, lane, kind })
}

/// The spec's combining operations and identities, on `u32`, `i32` and
/// `f32` (docs/design.md: "0 (add, or, xor), 1 (mul), all ones (and), the
/// type's largest value (min), its smallest (max). Integers wrap.").
trait Spec: Copy + PartialEq + std::fmt::Debug {
    fn op(op: ArithOp, a: Self, b: Self) -> Self;
    fn identity(op: ArithOp) -> Self;
}

impl Spec for u32 {
    fn op(op: ArithOp, a: u32, b: u32) -> u32 {
        match op {
            ArithOp::IAdd => a.wrapping_add(b),
            ArithOp::IMul => a.wrapping_mul(b),
            ArithOp::UMin => a.min(b),
            ArithOp::UMax => a.max(b),
            ArithOp::And => a & b,
            ArithOp::Or => a | b,
            ArithOp::Xor => a ^ b,
            other => panic!("{other:?} on u32"),
        }
    }
    fn identity(op: ArithOp) -> u32 {
        match op {
            ArithOp::IMul => 1,
            ArithOp::UMin | ArithOp::And => u32::MAX,
            _ => 0,
        }
    }
}

impl Spec for i32 {
    fn op(op: ArithOp, a: i32, b: i32) -> i32 {
        match op {
            ArithOp::IAdd => a.wrapping_add(b),
            ArithOp::IMul => a.wrapping_mul(b),
            ArithOp::SMin => a.min(b),
            ArithOp::SMax => a.max(b),
            ArithOp::And => a & b,
            ArithOp::Or => a | b,
            ArithOp::Xor => a ^ b,
            other => panic!("{other:?} on i32"),
        }
    }
    fn identity(op: ArithOp) -> i32 {
        match op {
            ArithOp::IMul => 1,
            ArithOp::And => !0,
            ArithOp::SMin => i32::MAX,
            ArithOp::SMax => i32::MIN,
            _ => 0,
        }
    }
}

/// The lanes a scan combines for `lane`, by the spec: every active lane
/// (reduce), those with id <= own (inclusive), id < own (exclusive).
fn combined(sg: &Subgroup, scan: Scan, lane: u32) -> Vec<u32> {
    active(sg)
        .into_iter()
        .filter(|&l| match scan {
            Scan::Reduce => true,
            Scan::Inclusive => l <= lane,
            Scan::Exclusive => l < lane,
        })
        .collect()
}

fn reference<T: Spec>(sg: &Subgroup, op: ArithOp, scan: Scan, v: &[T]) -> Vec<Option<T>> {
    (0..sg.size().get())
        .map(|lane| {
            sg.is_active(lane).then(|| {
                combined(sg, scan, lane)
                    .into_iter()
                    .fold(T::identity(op), |acc, l| T::op(op, acc, v[l as usize]))
            })
        })
        .collect()
}

const U32_OPS: [ArithOp; 7] = [
    ArithOp::IAdd,
    ArithOp::IMul,
    ArithOp::UMin,
    ArithOp::UMax,
    ArithOp::And,
    ArithOp::Or,
    ArithOp::Xor,
];
const I32_OPS: [ArithOp; 7] = [
    ArithOp::IAdd,
    ArithOp::IMul,
    ArithOp::SMin,
    ArithOp::SMax,
    ArithOp::And,
    ArithOp::Or,
    ArithOp::Xor,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn votes_follow_the_spec((sg, p) in subgroup_and(any::<bool>())) {
        let lanes = active(&sg);
        let all = lanes.iter().all(|&l| p[l as usize]);
        let any = lanes.iter().any(|&l| p[l as usize]);
        for (lane, got) in outputs(subgroup_all(&sg, &p).unwrap()).into_iter().enumerate() {
            prop_assert_eq!(got, sg.is_active(lane as u32).then_some(all));
        }
        for (lane, got) in outputs(subgroup_any(&sg, &p).unwrap()).into_iter().enumerate() {
            prop_assert_eq!(got, sg.is_active(lane as u32).then_some(any));
        }
    }

    #[test]
    fn all_equal_compares_the_active_lanes_only((sg, v) in subgroup_and(0u32..3)) {
        let lanes = active(&sg);
        let equal = lanes.windows(2).all(|w| v[w[0] as usize] == v[w[1] as usize]);
        for (lane, got) in outputs(subgroup_all_equal(&sg, &v).unwrap()).into_iter().enumerate() {
            prop_assert_eq!(got, sg.is_active(lane as u32).then_some(equal));
        }
    }

    #[test]
    fn u32_arithmetic_follows_the_spec((sg, v) in subgroup_and(prop_oneof![any::<u32>(), 0u32..4])) {
        for op in U32_OPS {
            for scan in Scan::ALL {
                let got = outputs(subgroup_arithmetic(&sg, op, scan, &v).unwrap());
                prop_assert_eq!(got, reference(&sg, op, scan, &v), "{:?} {:?}", op, scan);
            }
        }
    }

    #[test]
    fn i32_arithmetic_follows_the_spec((sg, v) in subgroup_and(prop_oneof![any::<i32>(), -2i32..2])) {
        for op in I32_OPS {
            for scan in Scan::ALL {
                let got = outputs(subgroup_arithmetic(&sg, op, scan, &v).unwrap());
                prop_assert_eq!(got, reference(&sg, op, scan, &v), "{:?} {:?}", op, scan);
            }
        }
    }

    /// Small integers in `f32` sum exactly in any order, so the spec's
    /// answer is exact here.
    #[test]
    fn f32_arithmetic_of_exact_values_follows_the_spec((sg, v) in subgroup_and(-8i32..8)) {
        let f: Vec<f32> = v.iter().map(|&x| x as f32).collect();
        for scan in Scan::ALL {
            let sums = outputs(subgroup_arithmetic(&sg, ArithOp::FAdd, scan, &f).unwrap());
            let mins = outputs(subgroup_arithmetic(&sg, ArithOp::FMin, scan, &f).unwrap());
            let maxs = outputs(subgroup_arithmetic(&sg, ArithOp::FMax, scan, &f).unwrap());
            for lane in 0..sg.size().get() {
                let lanes = combined(&sg, scan, lane);
                let want = |fold: fn(f32, f32) -> f32, id: f32| {
                    sg.is_active(lane).then(|| lanes.iter().fold(id, |a, &l| fold(a, f[l as usize])))
                };
                prop_assert_eq!(sums[lane as usize], want(|a, b| a + b, 0.0));
                prop_assert_eq!(mins[lane as usize], want(f32::min, f32::INFINITY));
                prop_assert_eq!(maxs[lane as usize], want(f32::max, f32::NEG_INFINITY));
            }
        }
    }

    #[test]
    fn shuffles_read_the_named_lane_or_report_it(
        (sg, v) in subgroup_and(any::<u32>()),
        operand in any::<u32>(),
        small in 0u32..8,
    ) {
        let size = sg.size().get();
        for (op, x) in [
            (Op::Shuffle, operand % (size + 2)),
            (Op::ShuffleXor, small),
            (Op::ShuffleUp, small),
            (Op::ShuffleDown, small),
        ] {
            let xs = vec![x; size as usize];
            let got = match op {
                Op::Shuffle => subgroup_shuffle(&sg, &v, &xs),
                Op::ShuffleXor => subgroup_shuffle_xor(&sg, &v, &xs),
                Op::ShuffleUp => subgroup_shuffle_up(&sg, &v, &xs),
                _ => subgroup_shuffle_down(&sg, &v, &xs),
            };
            // The spec: Shuffle reads lane id; Xor own ^ mask; Up own - delta;
            // Down own + delta; undefined where that lane is inactive or
            // out of range. The report names the lowest lane that reads it.
            let source = |lane: u32| -> i64 {
                match op {
                    Op::Shuffle => i64::from(x),
                    Op::ShuffleXor => i64::from(lane ^ x),
                    Op::ShuffleUp => i64::from(lane) - i64::from(x),
                    _ => i64::from(lane) + i64::from(x),
                }
            };
            let bad = active(&sg).into_iter().find(|&l| {
                let s = source(l);
                s < 0 || s >= i64::from(size) || !sg.is_active(s as u32)
            });
            match bad {
                Some(lane) => {
                    let s = source(lane);
                    let kind = if s < 0 || s >= i64::from(size) {
                        UbKind::IndexOutOfRange { index: u32::try_from(s).unwrap_or(u32::MAX), size }
                    } else {
                        UbKind::InactiveSource { source_lane: s as u32 }
                    };
                    prop_assert_eq!(got, Err(ub(op, lane, kind)), "{:?} {}", op, x);
                }
                None => {
                    let want: Vec<Option<u32>> = (0..size)
                        .map(|l| sg.is_active(l).then(|| v[source(l) as usize]))
                        .collect();
                    prop_assert_eq!(outputs(got.unwrap()), want, "{:?} {}", op, x);
                }
            }
        }
    }

    #[test]
    fn quads_read_within_the_quad((sg, v) in subgroup_and(any::<i32>()), index in 0u32..4) {
        let size = sg.size().get();
        // Lanes 4k..4k+3 form a quad; the swaps pair lane ^ 1, ^ 2, ^ 3.
        let cases: [(Op, Source); 4] = [
            (Op::QuadBroadcast, |lane, i| lane / 4 * 4 + i),
            (Op::QuadSwap(Quad::Horizontal), |lane, _| lane ^ 1),
            (Op::QuadSwap(Quad::Vertical), |lane, _| lane ^ 2),
            (Op::QuadSwap(Quad::Diagonal), |lane, _| lane ^ 3),
        ];
        for (op, source) in cases {
            let got = match op {
                Op::QuadSwap(quad) => subgroup_quad_swap(&sg, &v, quad),
                _ => subgroup_quad_broadcast(&sg, &v, index),
            };
            let bad = active(&sg).into_iter().find(|&l| {
                let s = source(l, index);
                s >= size || !sg.is_active(s)
            });
            match bad {
                Some(lane) => {
                    let s = source(lane, index);
                    let kind = if s >= size {
                        UbKind::IndexOutOfRange { index: s, size }
                    } else {
                        UbKind::InactiveSource { source_lane: s }
                    };
                    prop_assert_eq!(got, Err(ub(op, lane, kind)));
                }
                None => {
                    let want: Vec<Option<i32>> = (0..size)
                        .map(|l| sg.is_active(l).then(|| v[source(l, index) as usize]))
                        .collect();
                    prop_assert_eq!(outputs(got.unwrap()), want);
                }
            }
        }
    }
}

#[test]
fn all_equal_compares_floats_as_numbers() {
    let sg = Subgroup::new(4, SubgroupMask::from_bits(0b1111)).unwrap();
    // Ordered equality: -0.0 equals 0.0; a NaN equals nothing, itself included.
    let zeros = [0.0f32, -0.0, 0.0, -0.0];
    let got = subgroup_all_equal(&sg, &zeros).unwrap();
    assert_eq!(got.get(0), Some(&true));
    let nans = [f32::NAN; 4];
    assert_eq!(subgroup_all_equal(&sg, &nans).unwrap().get(3), Some(&false));
    // With no active lane there is nothing to disagree.
    let none = Subgroup::new(4, SubgroupMask::EMPTY).unwrap();
    assert_eq!(subgroup_all_equal(&none, &nans).unwrap().get(0), None);
}

#[test]
fn an_empty_scan_gives_the_identity() {
    // Lane 0's exclusive scan combines no lane: the spec's identities.
    let sg = Subgroup::new(8, SubgroupMask::from_bits(0b1011)).unwrap();
    let ids: [(ArithOp, u32); 7] = [
        (ArithOp::IAdd, 0),
        (ArithOp::IMul, 1),
        (ArithOp::UMin, u32::MAX),
        (ArithOp::UMax, 0),
        (ArithOp::And, u32::MAX),
        (ArithOp::Or, 0),
        (ArithOp::Xor, 0),
    ];
    for (op, id) in ids {
        let got = subgroup_arithmetic(&sg, op, Scan::Exclusive, &[7u32; 8]).unwrap();
        assert_eq!(got.get(0), Some(&id), "{op:?}");
    }
    let f = subgroup_arithmetic(&sg, ArithOp::FMin, Scan::Exclusive, &[1.0f32; 8]).unwrap();
    assert_eq!(f.get(0), Some(&f32::INFINITY));
    let f = subgroup_arithmetic(&sg, ArithOp::FMax, Scan::Exclusive, &[1.0f32; 8]).unwrap();
    assert_eq!(f.get(0), Some(&f32::NEG_INFINITY));
    let i = subgroup_arithmetic(&sg, ArithOp::SMin, Scan::Exclusive, &[1i32; 8]).unwrap();
    assert_eq!(i.get(0), Some(&i32::MAX));
    let i = subgroup_arithmetic(&sg, ArithOp::SMax, Scan::Exclusive, &[1i32; 8]).unwrap();
    assert_eq!(i.get(0), Some(&i32::MIN));
}

#[test]
fn an_operation_on_a_type_it_does_not_take_is_a_typed_error() {
    let sg = Subgroup::new(4, SubgroupMask::from_bits(0b1111)).unwrap();
    let got = subgroup_arithmetic(&sg, ArithOp::And, Scan::Reduce, &[1.0f32; 4]);
    assert_eq!(
        got,
        Err(SimError::Unsupported {
            op: Op::Arith(ArithOp::And, Scan::Reduce),
            ty: "f32"
        })
    );
    let got = subgroup_arithmetic(&sg, ArithOp::SMin, Scan::Inclusive, &[1u32; 4]);
    assert!(matches!(got, Err(SimError::Unsupported { ty: "u32", .. })));
}

#[test]
fn a_quad_broadcast_index_past_the_quad_is_reported() {
    let sg = Subgroup::new(8, SubgroupMask::from_bits(0b1110)).unwrap();
    assert_eq!(
        subgroup_quad_broadcast(&sg, &[0u32; 8], 4),
        Err(ub(
            Op::QuadBroadcast,
            1,
            UbKind::IndexOutOfRange { index: 4, size: 4 }
        ))
    );
}

/// The names each spec gives, written here from GL_KHR_shader_subgroup,
/// WGSL's built-in functions and spirv-std's `arch::subgroup`.
#[test]
fn every_operation_has_its_names() {
    let table: [(Op, &str, Option<&str>, &str); 15] = [
        (Op::All, "subgroupAll", Some("subgroupAll"), "subgroup_all"),
        (Op::Any, "subgroupAny", Some("subgroupAny"), "subgroup_any"),
        (Op::AllEqual, "subgroupAllEqual", None, "subgroup_all_equal"),
        (
            Op::Arith(ArithOp::FAdd, Scan::Reduce),
            "subgroupAdd",
            Some("subgroupAdd"),
            "subgroup_f_add",
        ),
        (
            Op::Arith(ArithOp::IAdd, Scan::Exclusive),
            "subgroupExclusiveAdd",
            Some("subgroupExclusiveAdd"),
            "subgroup_exclusive_i_add",
        ),
        (
            Op::Arith(ArithOp::IMul, Scan::Inclusive),
            "subgroupInclusiveMul",
            Some("subgroupInclusiveMul"),
            "subgroup_inclusive_i_mul",
        ),
        (
            Op::Arith(ArithOp::SMin, Scan::Inclusive),
            "subgroupInclusiveMin",
            None,
            "subgroup_inclusive_s_min",
        ),
        (
            Op::Arith(ArithOp::Xor, Scan::Reduce),
            "subgroupXor",
            Some("subgroupXor"),
            "subgroup_xor",
        ),
        (
            Op::ShuffleXor,
            "subgroupShuffleXor",
            Some("subgroupShuffleXor"),
            "subgroup_shuffle_xor",
        ),
        (
            Op::QuadBroadcast,
            "subgroupQuadBroadcast",
            Some("quadBroadcast"),
            "subgroup_quad_broadcast",
        ),
        (
            Op::QuadSwap(Quad::Horizontal),
            "subgroupQuadSwapHorizontal",
            Some("quadSwapX"),
            "subgroup_quad_swap::<0>",
        ),
        (
            Op::QuadSwap(Quad::Diagonal),
            "subgroupQuadSwapDiagonal",
            Some("quadSwapDiagonal"),
            "subgroup_quad_swap::<2>",
        ),
        (
            Op::Clustered(ArithOp::IAdd),
            "subgroupClusteredAdd",
            None,
            "subgroup_clustered_i_add",
        ),
        (
            Op::Clustered(ArithOp::FMin),
            "subgroupClusteredMin",
            None,
            "subgroup_clustered_f_min",
        ),
        (
            Op::Clustered(ArithOp::Xor),
            "subgroupClusteredXor",
            None,
            "subgroup_clustered_xor",
        ),
    ];
    for (op, glsl, wgsl, rust) in table {
        assert!(Op::ALL.contains(&op));
        assert_eq!(op.glsl_name(), glsl);
        assert_eq!(op.wgsl_name(), wgsl);
        assert_eq!(op.spirv_std_name(), rust);
        assert_eq!(Op::from_spirv_std_name(rust), Some(op));
    }
    // Every name is one operation's.
    let mut names: Vec<&str> = Op::ALL.iter().map(|op| op.spirv_std_name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), Op::ALL.len());
    assert_eq!(Op::ALL.len(), 16 + 3 + 3 * 13 + 4 + 1 + 3 + 13);
}
