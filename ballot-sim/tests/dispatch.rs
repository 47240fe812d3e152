//! How a dispatch maps onto subgroups: invocation `local_invocation_index` is
//! lane `index % size` of subgroup `index / size` in its workgroup, and the
//! last subgroup of a ragged workgroup is partial. The reference walks local
//! invocation ids (x fastest) one by one, so it shares no arithmetic with
//! the simulator's closed forms.

use ballot_ir::error::{SimError, UbKind, UndefinedBehavior};
use ballot_ir::mask::SubgroupMask;
use ballot_ir::op::Op;
use ballot_sim::ops::*;
use ballot_sim::sim::{Dispatch, PerLane, Subgroup};
use proptest::prelude::*;

const SIZES: [u32; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
const SHAPES: [[u32; 3]; 4] = [[15, 3, 1], [3, 3, 3], [1, 1, 64], [7, 1, 1]];
const COUNTS: [[u32; 3]; 4] = [[1, 1, 1], [3, 1, 1], [2, 3, 1], [2, 2, 2]];

/// One subgroup as the reference expects it.
#[derive(Debug, PartialEq)]
struct Expected {
    workgroup_id: [u32; 3],
    workgroup_index: u32,
    index: u32,
    first_invocation: usize,
    active: u128,
}

/// Workgroups in x-fastest order, and within each the invocations in
/// x-fastest order, grouped into subgroups by `local_invocation_index`.
fn reference(shape: [u32; 3], size: u32, count: [u32; 3]) -> Vec<Expected> {
    let [sx, sy, sz] = shape;
    let per_wg = (sx * sy * sz) as usize;
    let mut out = Vec::new();
    let mut workgroup_index = 0;
    for wz in 0..count[2] {
        for wy in 0..count[1] {
            for wx in 0..count[0] {
                let mut lanes: Vec<u128> = Vec::new();
                for z in 0..sz {
                    for y in 0..sy {
                        for x in 0..sx {
                            let local = z * sx * sy + y * sx + x;
                            let (sg, lane) = ((local / size) as usize, local % size);
                            if sg == lanes.len() {
                                lanes.push(0);
                            }
                            lanes[sg] |= 1 << lane;
                        }
                    }
                }
                for (index, active) in lanes.into_iter().enumerate() {
                    out.push(Expected {
                        workgroup_id: [wx, wy, wz],
                        workgroup_index,
                        index: index as u32,
                        first_invocation: workgroup_index as usize * per_wg + index * size as usize,
                        active,
                    });
                }
                workgroup_index += 1;
            }
        }
    }
    out
}

fn actual(d: &Dispatch) -> Vec<Expected> {
    d.subgroups()
        .map(|sg| {
            assert_eq!(sg.subgroup.size(), d.subgroup_size());
            Expected {
                workgroup_id: sg.workgroup_id,
                workgroup_index: sg.workgroup_index,
                index: sg.index,
                first_invocation: sg.first_invocation,
                active: sg.subgroup.active().bits(),
            }
        })
        .collect()
}

#[test]
fn ragged_shapes_split_into_the_reference_subgroups() {
    for shape in SHAPES {
        for size in SIZES {
            for count in COUNTS {
                let d = Dispatch::new(shape, size, count).unwrap();
                assert_eq!(
                    actual(&d),
                    reference(shape, size, count),
                    "{shape:?} in subgroups of {size}, {count:?} workgroups"
                );
            }
        }
    }
}

#[test]
fn ragged_shapes_have_the_expected_subgroup_counts_and_partial_tails() {
    // (shape, size, subgroups per workgroup, active lanes in the last one)
    let table = [
        ([15, 3, 1], 1, 45, 1),
        ([15, 3, 1], 4, 12, 1),
        ([15, 3, 1], 8, 6, 5),
        ([15, 3, 1], 16, 3, 13),
        ([15, 3, 1], 32, 2, 13),
        ([15, 3, 1], 64, 1, 45),
        ([15, 3, 1], 128, 1, 45),
        ([3, 3, 3], 2, 14, 1),
        ([3, 3, 3], 4, 7, 3),
        ([3, 3, 3], 8, 4, 3),
        ([3, 3, 3], 16, 2, 11),
        ([3, 3, 3], 32, 1, 27),
        ([1, 1, 64], 4, 16, 4),
        ([1, 1, 64], 32, 2, 32),
        ([1, 1, 64], 64, 1, 64),
        ([1, 1, 64], 128, 1, 64),
        ([7, 1, 1], 1, 7, 1),
        ([7, 1, 1], 2, 4, 1),
        ([7, 1, 1], 4, 2, 3),
        ([7, 1, 1], 8, 1, 7),
        ([7, 1, 1], 128, 1, 7),
    ];
    for (shape, size, subgroups, tail) in table {
        let d = Dispatch::new(shape, size, [1, 1, 1]).unwrap();
        let what = format!("{shape:?} in subgroups of {size}");
        assert_eq!(d.subgroups_per_workgroup(), subgroups, "{what}");
        let all: Vec<_> = d.subgroups().collect();
        assert_eq!(all.len(), subgroups as usize, "{what}");
        let last = all.last().unwrap();
        assert_eq!(last.index, subgroups - 1, "{what}");
        assert_eq!(last.subgroup.active(), (0..tail).collect(), "{what}");
        for sg in &all[..all.len() - 1] {
            assert_eq!(
                sg.subgroup.active().count(),
                size,
                "{what}: only the last is partial"
            );
        }
    }
}

#[test]
fn workgroup_ids_run_x_fastest() {
    let d = Dispatch::new([7, 1, 1], 4, [3, 2, 2]).unwrap();
    let ids: Vec<([u32; 3], u32)> = d
        .subgroups()
        .filter(|sg| sg.index == 0)
        .map(|sg| (sg.workgroup_id, sg.workgroup_index))
        .collect();
    assert_eq!(
        ids,
        [
            ([0, 0, 0], 0),
            ([1, 0, 0], 1),
            ([2, 0, 0], 2),
            ([0, 1, 0], 3),
            ([1, 1, 0], 4),
            ([2, 1, 0], 5),
            ([0, 0, 1], 6),
            ([1, 0, 1], 7),
            ([2, 0, 1], 8),
            ([0, 1, 1], 9),
            ([1, 1, 1], 10),
            ([2, 1, 1], 11),
        ]
    );
}

#[test]
fn first_invocation_counts_lanes_across_workgroups() {
    // 7 invocations per workgroup in subgroups of 4: lanes start at 0 and 4
    // in each workgroup, and workgroups start every 7 invocations.
    let d = Dispatch::new([7, 1, 1], 4, [3, 1, 1]).unwrap();
    let firsts: Vec<usize> = d.subgroups().map(|sg| sg.first_invocation).collect();
    assert_eq!(firsts, [0, 4, 7, 11, 14, 18]);
}

#[test]
fn accessors_report_the_dispatch_shape() {
    let d = Dispatch::new([15, 3, 1], 16, [2, 3, 1]).unwrap();
    assert_eq!(d.workgroup_size(), [15, 3, 1]);
    assert_eq!(d.subgroup_size().get(), 16);
    assert_eq!(d.workgroup_count(), [2, 3, 1]);
    assert_eq!(d.invocations_per_workgroup(), 45);
    assert_eq!(d.invocation_count(), 270);
    assert_eq!(d.subgroups_per_workgroup(), 3);
    assert_eq!(d.subgroups().count(), 18);
}

/// Pads a ballot's per-lane output into a per-lane input; inactive lanes get
/// a mask no active lane may read.
fn ballot_as_input(size: u32, ballot: &PerLane<SubgroupMask>) -> Vec<SubgroupMask> {
    (0..size)
        .map(|l| ballot.get(l).copied().unwrap_or(SubgroupMask::ALL))
        .collect()
}

fn compaction_slot(sg: &Subgroup, pred: &[bool]) -> Result<PerLane<u32>, SimError> {
    let ballot = subgroup_ballot(sg, pred)?;
    subgroup_ballot_exclusive_bit_count(sg, &ballot_as_input(sg.size().get(), &ballot))
}

/// Deterministic, irregular predicates over the global invocation index.
fn predicates() -> [fn(usize) -> bool; 4] {
    [
        |i| i % 3 == 0,
        |i| i % 2 == 1,
        |i| (i.wrapping_mul(2_654_435_761) >> 7) & 1 == 1,
        |_| true,
    ]
}

/// For every invocation, the number of earlier invocations of its subgroup
/// whose predicate holds, found by scanning local indices.
fn reference_slots(
    shape: [u32; 3],
    size: u32,
    count: [u32; 3],
    pred: fn(usize) -> bool,
) -> Vec<u32> {
    let per_wg = (shape[0] * shape[1] * shape[2]) as usize;
    let workgroups = (count[0] * count[1] * count[2]) as usize;
    let size = size as usize;
    let mut out = Vec::new();
    for wg in 0..workgroups {
        for local in 0..per_wg {
            let start = local / size * size;
            let slot = (start..local).filter(|&j| pred(wg * per_wg + j)).count();
            out.push(slot as u32);
        }
    }
    out
}

#[test]
fn run_gathers_ballot_compaction_slots_in_invocation_order() {
    for shape in SHAPES {
        for size in SIZES {
            for count in [[1, 1, 1], [3, 2, 1]] {
                let d = Dispatch::new(shape, size, count).unwrap();
                for (p, pred) in predicates().into_iter().enumerate() {
                    let input: Vec<bool> = (0..d.invocation_count()).map(pred).collect();
                    let got = d.run(&input, compaction_slot).unwrap();
                    assert_eq!(
                        got,
                        reference_slots(shape, size, count, pred),
                        "{shape:?}, size {size}, {count:?}, predicate {p}"
                    );
                }
            }
        }
    }
}

#[test]
fn run_gives_every_invocation_its_lane_and_subgroup_values() {
    for shape in SHAPES {
        for size in SIZES {
            let d = Dispatch::new(shape, size, [2, 1, 1]).unwrap();
            let n = d.invocations_per_workgroup() as usize;
            let s = size as usize;
            let what = format!("{shape:?}, size {size}");
            let global: Vec<u32> = (0..d.invocation_count() as u32).collect();
            // Lanes of the subgroup as the lane ids the op sees.
            let lane_ids = d
                .run(&global, |sg, lanes| {
                    assert_eq!(lanes.len(), s, "{what}: a padded slice per subgroup");
                    Ok(PerLane::from_fn(sg, |l| l))
                })
                .unwrap();
            let first = d.run(&global, subgroup_broadcast_first).unwrap();
            let elect = d.run(&global, |sg, _| Ok(subgroup_elect(sg))).unwrap();
            let live = d
                .run(&vec![true; d.invocation_count()], |sg, p| {
                    let ballot = subgroup_ballot(sg, p)?;
                    subgroup_ballot_bit_count(sg, &ballot_as_input(size, &ballot))
                })
                .unwrap();
            for gi in 0..d.invocation_count() {
                let (wg, local) = (gi / n, gi % n);
                let start = local / s * s;
                assert_eq!(lane_ids[gi] as usize, local % s, "{what}, invocation {gi}");
                assert_eq!(
                    first[gi] as usize,
                    wg * n + start,
                    "{what}, invocation {gi}"
                );
                assert_eq!(elect[gi], local % s == 0, "{what}, invocation {gi}");
                assert_eq!(
                    live[gi] as usize,
                    s.min(n - start),
                    "{what}, invocation {gi}"
                );
            }
        }
    }
}

#[test]
fn run_keeps_only_the_outputs_of_real_invocations() {
    // An op may answer in every lane, padding included; only the lanes
    // backed by an invocation belong in the output.
    for shape in SHAPES {
        for size in SIZES {
            let d = Dispatch::new(shape, size, [2, 1, 1]).unwrap();
            let global: Vec<u32> = (0..d.invocation_count() as u32).collect();
            let out = d
                .run(&global, |_, lanes| {
                    Ok(PerLane::from_vec(lanes.iter().map(|&v| Some(v)).collect()))
                })
                .unwrap();
            assert_eq!(out, global, "{shape:?}, size {size}");
        }
    }
}

#[test]
fn run_rejects_input_of_the_wrong_length() {
    let d = Dispatch::new([15, 3, 1], 32, [2, 1, 1]).unwrap();
    for len in [0, 89, 91, 180] {
        let err = d.run(&vec![true; len], subgroup_ballot).unwrap_err();
        match &err {
            SimError::InputLength { expected, got, .. } => {
                assert_eq!((*expected, *got), (90, len));
            }
            other => panic!("length {len}: {other:?}"),
        }
        let text = err.to_string();
        assert!(
            text.contains("90") && text.contains(&len.to_string()),
            "{text}"
        );
    }
}

#[test]
fn run_passes_on_the_first_undefined_report() {
    // FindLSB of an all-false ballot has no answer; the first subgroup's
    // lowest active lane is the first to read it.
    let d = Dispatch::new([7, 1, 1], 4, [2, 1, 1]).unwrap();
    let err = d
        .run(&[false; 14], |sg, p| {
            let ballot = subgroup_ballot(sg, p)?;
            subgroup_ballot_find_lsb(sg, &ballot_as_input(4, &ballot))
        })
        .unwrap_err();
    assert_eq!(
        err,
        SimError::Undefined(UndefinedBehavior {
            op: Op::FindLsb,
            lane: 0,
            kind: UbKind::EmptyMask {
                mask: SubgroupMask::EMPTY,
                size: 4
            },
        })
    );
}

#[test]
fn a_dispatch_of_zero_workgroups_runs_nothing() {
    let d = Dispatch::new([15, 3, 1], 32, [4, 0, 2]).unwrap();
    assert_eq!(d.invocation_count(), 0);
    assert_eq!(d.subgroups().count(), 0);
    let mut calls = 0;
    let out = d
        .run(&[] as &[bool], |sg, p| {
            calls += 1;
            subgroup_ballot(sg, p)
        })
        .unwrap();
    assert!(out.is_empty());
    assert_eq!(calls, 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_dispatches_match_the_reference(
        shape in [1u32..=20, 1u32..=20, 1u32..=6],
        size in prop::sample::select(SIZES.to_vec()),
        count in [1u32..=3, 1u32..=3, 1u32..=2],
        seed in any::<u64>(),
    ) {
        let d = Dispatch::new(shape, size, count).unwrap();
        prop_assert_eq!(actual(&d), reference(shape, size, count));
        let pred = |i: usize| (seed >> (i % 64)) & 1 == 1;
        let input: Vec<bool> = (0..d.invocation_count()).map(pred).collect();
        let got = d.run(&input, compaction_slot).unwrap();
        let per_wg = (shape[0] * shape[1] * shape[2]) as usize;
        let s = size as usize;
        for (gi, &slot) in got.iter().enumerate() {
            let (wg, local) = (gi / per_wg, gi % per_wg);
            let start = local / s * s;
            let want = (start..local).filter(|&j| pred(wg * per_wg + j)).count();
            prop_assert_eq!(slot as usize, want, "invocation {}", gi);
        }
        prop_assert_eq!(got.len(), d.invocation_count());
    }
}
