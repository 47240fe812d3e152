//! Every case docs/design.md calls undefined must come back as a typed report that
//! names the operation, the lane and the offending value, never as a value.
//! Inputs that only look suspicious (a bad value in an inactive lane) must
//! not be reported. Wrong input lengths are a separate, typed error.

use ballot_ir::error::{SimError, UbKind, UndefinedBehavior};
use ballot_ir::mask::SubgroupMask;
use ballot_ir::op::Op;
use ballot_sim::ops::*;
use ballot_sim::sim::Subgroup;
use proptest::collection::vec;
use proptest::prelude::*;

const SIZES: [u32; 8] = [1, 2, 4, 8, 16, 32, 64, 128];

fn below(size: u32) -> u128 {
    if size >= 128 {
        !0
    } else {
        (1u128 << size) - 1
    }
}

fn mask(bits: u128) -> SubgroupMask {
    SubgroupMask::from_bits(bits)
}

fn lanes(ids: &[u32]) -> SubgroupMask {
    ids.iter().copied().collect()
}

fn ub(op: Op, lane: u32, kind: UbKind) -> SimError {
    SimError::Undefined(UndefinedBehavior { op, lane, kind })
}

fn empty(bits: u128, size: u32) -> UbKind {
    UbKind::EmptyMask {
        mask: mask(bits),
        size,
    }
}

#[test]
fn find_lsb_and_msb_of_an_empty_mask_report_the_lowest_active_lane() {
    for size in SIZES {
        for first in 0..size {
            // Lanes from `first` up are active; lanes below hold junk that
            // must not matter.
            let sg = Subgroup::new(size, mask(below(size) & !below(first))).unwrap();
            let v = vec![SubgroupMask::EMPTY; size as usize];
            assert_eq!(
                subgroup_ballot_find_lsb(&sg, &v),
                Err(ub(Op::FindLsb, first, empty(0, size)))
            );
            assert_eq!(
                subgroup_ballot_find_msb(&sg, &v),
                Err(ub(Op::FindMsb, first, empty(0, size)))
            );
        }
    }
}

#[test]
fn find_lsb_and_msb_of_bits_only_at_or_above_the_size_are_undefined() {
    for size in SIZES.into_iter().filter(|&s| s < 128) {
        let sg = Subgroup::full(size).unwrap();
        for bits in [
            1u128 << size,
            1 << 127,
            !below(size),
            0xdead_beef_u128 << size,
        ] {
            let v = vec![mask(bits); size as usize];
            // The report carries the mask as passed, high bits included.
            assert_eq!(
                subgroup_ballot_find_lsb(&sg, &v),
                Err(ub(Op::FindLsb, 0, empty(bits, size)))
            );
            assert_eq!(
                subgroup_ballot_find_msb(&sg, &v),
                Err(ub(Op::FindMsb, 0, empty(bits, size)))
            );
        }
    }
}

#[test]
fn find_lsb_reports_the_first_active_lane_holding_an_empty_mask() {
    let sg = Subgroup::new(8, lanes(&[1, 3, 4, 6])).unwrap();
    // Lane 0 (inactive) and lanes 4 and 6 hold masks empty below 8; lane 4
    // is the first active one.
    let v: Vec<SubgroupMask> = [0u128, 1, 0, 0x80, 1 << 8, 0, 0, 2]
        .into_iter()
        .map(mask)
        .collect();
    assert_eq!(
        subgroup_ballot_find_lsb(&sg, &v),
        Err(ub(Op::FindLsb, 4, empty(1 << 8, 8)))
    );
    assert_eq!(
        subgroup_ballot_find_msb(&sg, &v),
        Err(ub(Op::FindMsb, 4, empty(1 << 8, 8)))
    );
}

#[test]
fn find_lsb_of_an_empty_mask_in_an_inactive_lane_is_defined() {
    let sg = Subgroup::new(4, lanes(&[1, 2])).unwrap();
    let v: Vec<SubgroupMask> = [0u128, 0b0100, 0b0110, 0].into_iter().map(mask).collect();
    let lsb = subgroup_ballot_find_lsb(&sg, &v).unwrap();
    assert_eq!(lsb.as_slice(), &[None, Some(2), Some(1), None]);
    let msb = subgroup_ballot_find_msb(&sg, &v).unwrap();
    assert_eq!(msb.as_slice(), &[None, Some(2), Some(2), None]);
}

#[test]
fn bit_extract_at_or_above_the_size_is_undefined_in_every_size() {
    for size in SIZES {
        let sg = Subgroup::full(size).unwrap();
        let v = vec![SubgroupMask::ALL; size as usize];
        for index in [size, size + 1, 127, 128, 1000, u32::MAX] {
            if index < size {
                continue;
            }
            let idx = vec![index; size as usize];
            assert_eq!(
                subgroup_ballot_bit_extract(&sg, &v, &idx),
                Err(ub(
                    Op::BitExtract,
                    0,
                    UbKind::IndexOutOfRange { index, size }
                )),
                "size {size}, index {index}"
            );
        }
    }
}

#[test]
fn bit_extract_reports_the_lowest_active_lane_with_an_index_out_of_range() {
    let sg = Subgroup::new(16, lanes(&[2, 5, 7, 9, 12])).unwrap();
    let v = vec![SubgroupMask::ALL; 16];
    let mut index = vec![3u32; 16];
    index[0] = 99; // inactive: ignored
    index[7] = 16;
    index[12] = u32::MAX;
    assert_eq!(
        subgroup_ballot_bit_extract(&sg, &v, &index),
        Err(ub(
            Op::BitExtract,
            7,
            UbKind::IndexOutOfRange {
                index: 16,
                size: 16
            }
        ))
    );
}

#[test]
fn bit_extract_ignores_out_of_range_indices_of_inactive_lanes() {
    let sg = Subgroup::new(4, lanes(&[0, 2])).unwrap();
    let v = vec![mask(0b0101); 4];
    let out = subgroup_ballot_bit_extract(&sg, &v, &[2, 4, 1, u32::MAX]).unwrap();
    assert_eq!(out.as_slice(), &[Some(true), None, Some(false), None]);
}

#[test]
fn broadcast_from_an_id_at_or_above_the_size_is_undefined() {
    for size in SIZES {
        for first in [0, size / 2, size - 1] {
            let sg = Subgroup::new(size, mask(below(size) & !below(first))).unwrap();
            let values: Vec<u32> = (0..size).collect();
            for id in [size, 128, 1 << 20, u32::MAX] {
                assert_eq!(
                    subgroup_broadcast(&sg, &values, id),
                    Err(ub(
                        Op::Broadcast,
                        first,
                        UbKind::IndexOutOfRange { index: id, size }
                    )),
                    "size {size}, first active {first}, id {id}"
                );
            }
        }
    }
}

#[test]
fn broadcast_from_an_inactive_lane_is_undefined() {
    let sg = Subgroup::new(32, lanes(&[3, 4, 20, 31])).unwrap();
    let values: Vec<u32> = (100..132).collect();
    for id in (0..32).filter(|id| ![3, 4, 20, 31].contains(id)) {
        assert_eq!(
            subgroup_broadcast(&sg, &values, id),
            Err(ub(
                Op::Broadcast,
                3,
                UbKind::InactiveSource { source_lane: id }
            )),
            "id {id}"
        );
    }
    for id in [3, 4, 20, 31] {
        let out = subgroup_broadcast(&sg, &values, id).unwrap();
        assert_eq!(out.get(31), Some(&(100 + id)));
    }
}

#[test]
fn inverse_ballot_names_the_lowest_lane_whose_value_differs() {
    let sg = Subgroup::new(8, lanes(&[1, 3, 4, 6])).unwrap();
    let (a, b, c, z) = (mask(0b1010), mask(0b0001), mask(0xff), mask(0b1111));
    // Lane 0 is inactive, so lane 1 sets the value all others must match.
    let v = [z, a, z, a, b, z, c, z];
    assert_eq!(
        subgroup_inverse_ballot(&sg, &v),
        Err(ub(
            Op::InverseBallot,
            4,
            UbKind::NonUniform {
                value: b,
                first: a,
                first_lane: 1
            }
        ))
    );
}

#[test]
fn inverse_ballot_values_differing_only_in_inactive_lanes_are_defined() {
    let sg = Subgroup::new(8, lanes(&[1, 3, 4, 6])).unwrap();
    let a = mask(0b0101_1010);
    let v = [
        SubgroupMask::ALL,
        a,
        SubgroupMask::EMPTY,
        a,
        a,
        mask(7),
        a,
        mask(1 << 100),
    ];
    let out = subgroup_inverse_ballot(&sg, &v).unwrap();
    assert_eq!(
        out.as_slice(),
        &[
            None,
            Some(true),
            None,
            Some(true),
            Some(true),
            None,
            Some(true),
            None
        ]
    );
}

#[test]
fn inverse_ballot_values_differing_only_above_the_size_are_still_not_the_same() {
    // The spec asks for the same value, not the same low bits.
    let sg = Subgroup::full(4).unwrap();
    let (a, b) = (mask(0b0110), mask(0b0110 | 1 << 4));
    assert_eq!(
        subgroup_inverse_ballot(&sg, &[a, a, b, a]),
        Err(ub(
            Op::InverseBallot,
            2,
            UbKind::NonUniform {
                value: b,
                first: a,
                first_lane: 0
            }
        ))
    );
}

fn size_and_active() -> impl Strategy<Value = (u32, Vec<u32>)> {
    prop::sample::select(SIZES.to_vec()).prop_flat_map(|size| {
        let active = vec(0..size, 1..=size as usize).prop_map(|mut ls| {
            ls.sort_unstable();
            ls.dedup();
            ls
        });
        (Just(size), active)
    })
}

proptest! {
    #[test]
    fn inverse_ballot_report_matches_a_direct_search(
        (size, active) in size_and_active(),
        v in any::<u128>(),
        others in vec(any::<u128>(), 128),
        differ in vec(any::<bool>(), 128),
    ) {
        let sg = Subgroup::new(size, lanes(&active)).unwrap();
        let first_lane = active[0];
        // Lanes marked in `differ` (other than the first active one) pass
        // another value; everything else passes `v`.
        let values: Vec<SubgroupMask> = (0..size)
            .map(|l| {
                let other = others[l as usize];
                if l != first_lane && differ[l as usize] && other != v { mask(other) } else { mask(v) }
            })
            .collect();
        let culprit = active.iter().copied().find(|&l| values[l as usize] != mask(v));
        let got = subgroup_inverse_ballot(&sg, &values);
        match culprit {
            Some(lane) => prop_assert_eq!(got, Err(ub(Op::InverseBallot, lane, UbKind::NonUniform {
                value: values[lane as usize],
                first: mask(v),
                first_lane,
            }))),
            None => {
                let out = got.unwrap();
                for &l in &active {
                    prop_assert_eq!(out.get(l), Some(&((v >> l) & 1 == 1)));
                }
            }
        }
    }

    #[test]
    fn bit_extract_report_names_the_lowest_active_offender(
        (size, active) in size_and_active(),
        index in vec(prop_oneof![0u32..128, Just(u32::MAX)], 128),
        v in any::<u128>(),
    ) {
        let sg = Subgroup::new(size, lanes(&active)).unwrap();
        let index = &index[..size as usize];
        let values = vec![mask(v); size as usize];
        let got = subgroup_ballot_bit_extract(&sg, &values, index);
        match active.iter().copied().find(|&l| index[l as usize] >= size) {
            Some(lane) => prop_assert_eq!(got, Err(ub(Op::BitExtract, lane, UbKind::IndexOutOfRange {
                index: index[lane as usize],
                size,
            }))),
            None => {
                let out = got.unwrap();
                for &l in &active {
                    prop_assert_eq!(out.get(l), Some(&((v >> index[l as usize]) & 1 == 1)));
                }
            }
        }
    }
}

#[test]
fn defined_inputs_never_yield_a_report_for_always_defined_ops() {
    for size in SIZES {
        let sg = Subgroup::full(size).unwrap();
        let n = size as usize;
        for bits in [0u128, 1, !0, 1 << 127] {
            let v = vec![mask(bits); n];
            assert!(subgroup_ballot_bit_count(&sg, &v).is_ok());
            assert!(subgroup_ballot_inclusive_bit_count(&sg, &v).is_ok());
            assert!(subgroup_ballot_exclusive_bit_count(&sg, &v).is_ok());
        }
        assert!(subgroup_ballot(&sg, &vec![false; n]).is_ok());
        assert!(subgroup_broadcast_first(&sg, &vec![0u8; n]).is_ok());
    }
}

fn input_length(op: &'static str, expected: usize, got: usize) -> SimError {
    SimError::InputLength { op, expected, got }
}

#[test]
fn inputs_of_the_wrong_length_are_rejected_with_the_op_name() {
    for size in SIZES {
        let sg = Subgroup::full(size).unwrap();
        let n = size as usize;
        for len in [0, n - 1, n + 1, 2 * n] {
            if len == n {
                continue;
            }
            let err = |op: &'static str| input_length(op, n, len);
            let (m, b, u) = (
                vec![SubgroupMask::ALL; len],
                vec![true; len],
                vec![0u32; len],
            );
            let good_m = vec![SubgroupMask::ALL; n];
            let good_u = vec![0u32; n];
            assert_eq!(
                subgroup_ballot(&sg, &b).unwrap_err(),
                err("subgroup_ballot")
            );
            assert_eq!(
                subgroup_inverse_ballot(&sg, &m).unwrap_err(),
                err("subgroup_inverse_ballot")
            );
            assert_eq!(
                subgroup_ballot_bit_extract(&sg, &m, &good_u).unwrap_err(),
                err("subgroup_ballot_bit_extract")
            );
            assert_eq!(
                subgroup_ballot_bit_extract(&sg, &good_m, &u).unwrap_err(),
                err("subgroup_ballot_bit_extract")
            );
            assert_eq!(
                subgroup_ballot_bit_count(&sg, &m).unwrap_err(),
                err("subgroup_ballot_bit_count")
            );
            assert_eq!(
                subgroup_ballot_inclusive_bit_count(&sg, &m).unwrap_err(),
                err("subgroup_ballot_inclusive_bit_count")
            );
            assert_eq!(
                subgroup_ballot_exclusive_bit_count(&sg, &m).unwrap_err(),
                err("subgroup_ballot_exclusive_bit_count")
            );
            assert_eq!(
                subgroup_ballot_find_lsb(&sg, &m).unwrap_err(),
                err("subgroup_ballot_find_lsb")
            );
            assert_eq!(
                subgroup_ballot_find_msb(&sg, &m).unwrap_err(),
                err("subgroup_ballot_find_msb")
            );
            assert_eq!(
                subgroup_broadcast_first(&sg, &u).unwrap_err(),
                err("subgroup_broadcast_first")
            );
            assert_eq!(
                subgroup_broadcast(&sg, &u, 0).unwrap_err(),
                err("subgroup_broadcast")
            );
        }
    }
}

#[test]
fn a_wrong_length_is_reported_before_any_undefined_value() {
    let sg = Subgroup::full(8).unwrap();
    let empty_masks = vec![SubgroupMask::EMPTY; 7];
    assert_eq!(
        subgroup_ballot_find_lsb(&sg, &empty_masks),
        Err(input_length("subgroup_ballot_find_lsb", 8, 7))
    );
    assert_eq!(
        subgroup_broadcast(&sg, &[0u8; 9], 99),
        Err(input_length("subgroup_broadcast", 8, 9))
    );
}

#[test]
fn reports_display_the_glsl_op_the_lane_and_the_value() {
    let sg = Subgroup::new(8, lanes(&[2, 3])).unwrap();
    let err = subgroup_ballot_find_msb(&sg, &[mask(1 << 9); 8]).unwrap_err();
    let text = err.to_string();
    for part in [
        "subgroupBallotFindMSB",
        "lane 2",
        "uvec4(0x00000200, 0x00000000, 0x00000000, 0x00000000)",
        "8",
    ] {
        assert!(text.contains(part), "{text:?} lacks {part:?}");
    }
    assert_eq!(
        err.as_undefined().map(|u| (u.op, u.lane)),
        Some((Op::FindMsb, 2))
    );

    let err = subgroup_broadcast(&sg, &[0u8; 8], 5).unwrap_err();
    let text = err.to_string();
    for part in ["subgroupBroadcast", "lane 2", "5", "inactive"] {
        assert!(text.contains(part), "{text:?} lacks {part:?}");
    }

    let err = subgroup_ballot_bit_extract(&sg, &[mask(0); 8], &[42; 8]).unwrap_err();
    let text = err.to_string();
    for part in ["subgroupBallotBitExtract", "lane 2", "42", "8"] {
        assert!(text.contains(part), "{text:?} lacks {part:?}");
    }

    let err = subgroup_inverse_ballot(
        &sg,
        &[
            mask(0),
            mask(0),
            mask(1),
            mask(2),
            mask(0),
            mask(0),
            mask(0),
            mask(0),
        ],
    )
    .unwrap_err();
    let text = err.to_string();
    for part in [
        "subgroupInverseBallot",
        "lane 3",
        "uvec4(0x00000002,",
        "uvec4(0x00000001,",
        "lane 2",
    ] {
        assert!(text.contains(part), "{text:?} lacks {part:?}");
    }

    let err = subgroup_ballot(&sg, &[true; 3]).unwrap_err();
    assert!(err.as_undefined().is_none());
    let text = err.to_string();
    for part in ["subgroup_ballot", "8", "3"] {
        assert!(text.contains(part), "{text:?} lacks {part:?}");
    }
}

#[test]
fn ops_carry_their_glsl_and_spirv_std_names() {
    let table = [
        (Op::Ballot, "subgroupBallot", "subgroup_ballot"),
        (
            Op::InverseBallot,
            "subgroupInverseBallot",
            "subgroup_inverse_ballot",
        ),
        (
            Op::BitExtract,
            "subgroupBallotBitExtract",
            "subgroup_ballot_bit_extract",
        ),
        (
            Op::BitCount,
            "subgroupBallotBitCount",
            "subgroup_ballot_bit_count",
        ),
        (
            Op::InclusiveBitCount,
            "subgroupBallotInclusiveBitCount",
            "subgroup_ballot_inclusive_bit_count",
        ),
        (
            Op::ExclusiveBitCount,
            "subgroupBallotExclusiveBitCount",
            "subgroup_ballot_exclusive_bit_count",
        ),
        (
            Op::FindLsb,
            "subgroupBallotFindLSB",
            "subgroup_ballot_find_lsb",
        ),
        (
            Op::FindMsb,
            "subgroupBallotFindMSB",
            "subgroup_ballot_find_msb",
        ),
        (Op::EqMask, "gl_SubgroupEqMask", "subgroup_eq_mask"),
        (Op::GeMask, "gl_SubgroupGeMask", "subgroup_ge_mask"),
        (Op::GtMask, "gl_SubgroupGtMask", "subgroup_gt_mask"),
        (Op::LeMask, "gl_SubgroupLeMask", "subgroup_le_mask"),
        (Op::LtMask, "gl_SubgroupLtMask", "subgroup_lt_mask"),
        (Op::Elect, "subgroupElect", "subgroup_elect"),
        (Op::Broadcast, "subgroupBroadcast", "subgroup_broadcast"),
        (
            Op::BroadcastFirst,
            "subgroupBroadcastFirst",
            "subgroup_broadcast_first",
        ),
    ];
    assert_eq!(Op::BALLOT.len(), table.len());
    for (op, glsl, rust) in table {
        assert!(Op::ALL.contains(&op));
        assert_eq!(op.glsl_name(), glsl);
        assert_eq!(op.to_string(), glsl);
        assert_eq!(op.spirv_std_name(), rust);
        assert_eq!(Op::from_spirv_std_name(rust), Some(op));
    }
    assert_eq!(Op::from_spirv_std_name("subgroupBallot"), None);
    assert_eq!(Op::from_spirv_std_name("subgroupAll"), None);
}
