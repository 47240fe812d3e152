//! Exhaustive tables after the Vulkan CTS and WebGPU CTS ballot patterns,
//! for every subgroup size. Expected values are closed formulas read off
//! docs/design.md's semantics (a high mask `i..128` holds `size - i` bits below
//! the size, and so on), never the crate's own helpers.

use ballot_ir::error::{SimError, UbKind, UndefinedBehavior};
use ballot_ir::mask::SubgroupMask;
use ballot_ir::op::Op;
use ballot_sim::ops::*;
use ballot_sim::sim::{PerLane, Subgroup};

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

fn full(size: u32) -> Subgroup {
    Subgroup::full(size).unwrap()
}

/// The same value in every lane, as a ballot's result is.
fn uniform(size: u32, bits: u128) -> Vec<SubgroupMask> {
    vec![mask(bits); size as usize]
}

/// Asserts that every lane of a full subgroup got `want(lane)`.
#[track_caller]
fn assert_lanes<T: PartialEq + core::fmt::Debug>(
    out: &PerLane<T>,
    size: u32,
    what: &str,
    want: impl Fn(u32) -> T,
) {
    assert_eq!(out.len(), size as usize, "{what}");
    for lane in 0..size {
        assert_eq!(out.get(lane), Some(&want(lane)), "{what}, lane {lane}");
    }
}

#[track_caller]
fn assert_empty_mask(result: Result<PerLane<u32>, SimError>, op: Op, bits: u128, size: u32) {
    assert_eq!(
        result,
        Err(SimError::Undefined(UndefinedBehavior {
            op,
            lane: 0,
            kind: UbKind::EmptyMask {
                mask: mask(bits),
                size
            },
        }))
    );
}

#[test]
fn high_masks_count_search_and_extract_by_position() {
    for size in SIZES {
        let sg = full(size);
        for i in 0..128 {
            let bits = !0u128 << i;
            let what = format!("size {size}, bits {i}..128");
            let v = uniform(size, bits);
            let count = subgroup_ballot_bit_count(&sg, &v).unwrap();
            assert_lanes(&count, size, &what, |_| size.saturating_sub(i));
            let incl = subgroup_ballot_inclusive_bit_count(&sg, &v).unwrap();
            assert_lanes(&incl, size, &what, |l| if l >= i { l - i + 1 } else { 0 });
            let excl = subgroup_ballot_exclusive_bit_count(&sg, &v).unwrap();
            assert_lanes(&excl, size, &what, |l| l.saturating_sub(i));
            for j in 0..size {
                let extract = subgroup_ballot_bit_extract(&sg, &v, &vec![j; size as usize]);
                assert_lanes(&extract.unwrap(), size, &what, |_| j >= i);
            }
            let lsb = subgroup_ballot_find_lsb(&sg, &v);
            let msb = subgroup_ballot_find_msb(&sg, &v);
            if i < size {
                assert_lanes(&lsb.unwrap(), size, &what, |_| i);
                assert_lanes(&msb.unwrap(), size, &what, |_| size - 1);
            } else {
                assert_empty_mask(lsb, Op::FindLsb, bits, size);
                assert_empty_mask(msb, Op::FindMsb, bits, size);
            }
        }
    }
}

#[test]
fn single_bit_masks_count_search_and_extract_by_position() {
    for size in SIZES {
        let sg = full(size);
        for i in 0..128 {
            let bits = 1u128 << i;
            let what = format!("size {size}, bit {i}");
            let v = uniform(size, bits);
            let count = subgroup_ballot_bit_count(&sg, &v).unwrap();
            assert_lanes(&count, size, &what, |_| u32::from(i < size));
            let incl = subgroup_ballot_inclusive_bit_count(&sg, &v).unwrap();
            assert_lanes(&incl, size, &what, |l| u32::from(i <= l));
            let excl = subgroup_ballot_exclusive_bit_count(&sg, &v).unwrap();
            assert_lanes(&excl, size, &what, |l| u32::from(i < l));
            for j in 0..size {
                let extract = subgroup_ballot_bit_extract(&sg, &v, &vec![j; size as usize]);
                assert_lanes(&extract.unwrap(), size, &what, |_| j == i);
            }
            // Each lane extracting its own id is InverseBallot.
            let ids: Vec<u32> = (0..size).collect();
            let own = subgroup_ballot_bit_extract(&sg, &v, &ids).unwrap();
            assert_lanes(&own, size, &what, |l| l == i);
            let inverse = subgroup_inverse_ballot(&sg, &v).unwrap();
            assert_lanes(&inverse, size, &what, |l| l == i);
            let lsb = subgroup_ballot_find_lsb(&sg, &v);
            let msb = subgroup_ballot_find_msb(&sg, &v);
            if i < size {
                assert_lanes(&lsb.unwrap(), size, &what, |_| i);
                assert_lanes(&msb.unwrap(), size, &what, |_| i);
            } else {
                assert_empty_mask(lsb, Op::FindLsb, bits, size);
                assert_empty_mask(msb, Op::FindMsb, bits, size);
            }
        }
    }
}

#[test]
fn all_ones_gives_id_plus_one_and_id_in_every_lane() {
    for size in SIZES {
        let sg = full(size);
        let v = uniform(size, !0);
        let what = format!("size {size}");
        let incl = subgroup_ballot_inclusive_bit_count(&sg, &v).unwrap();
        assert_lanes(&incl, size, &what, |id| id + 1);
        let excl = subgroup_ballot_exclusive_bit_count(&sg, &v).unwrap();
        assert_lanes(&excl, size, &what, |id| id);
        let count = subgroup_ballot_bit_count(&sg, &v).unwrap();
        assert_lanes(&count, size, &what, |_| size);
        let lsb = subgroup_ballot_find_lsb(&sg, &v).unwrap();
        assert_lanes(&lsb, size, &what, |_| 0);
        let msb = subgroup_ballot_find_msb(&sg, &v).unwrap();
        assert_lanes(&msb, size, &what, |_| size - 1);
        let inverse = subgroup_inverse_ballot(&sg, &v).unwrap();
        assert_lanes(&inverse, size, &what, |_| true);
    }
}

#[test]
fn all_ones_counts_stay_positional_when_only_lanes_from_k_are_active() {
    for size in SIZES {
        for k in 0..size {
            let sg = Subgroup::new(size, mask(below(size) & !below(k))).unwrap();
            let v = uniform(size, !0);
            let incl = subgroup_ballot_inclusive_bit_count(&sg, &v).unwrap();
            let excl = subgroup_ballot_exclusive_bit_count(&sg, &v).unwrap();
            for id in 0..size {
                let active = id >= k;
                assert_eq!(
                    incl.get(id),
                    active.then_some(&(id + 1)),
                    "size {size}, k {k}"
                );
                assert_eq!(excl.get(id), active.then_some(&id), "size {size}, k {k}");
            }
        }
    }
}

#[test]
fn ballot_true_in_a_full_subgroup_is_two_to_the_size_minus_one() {
    let table: [(u32, [u32; 4]); 8] = [
        (1, [0x1, 0, 0, 0]),
        (2, [0x3, 0, 0, 0]),
        (4, [0xf, 0, 0, 0]),
        (8, [0xff, 0, 0, 0]),
        (16, [0xffff, 0, 0, 0]),
        (32, [0xffff_ffff, 0, 0, 0]),
        (64, [0xffff_ffff, 0xffff_ffff, 0, 0]),
        (128, [0xffff_ffff; 4]),
    ];
    for (size, words) in table {
        let out = subgroup_ballot(&full(size), &vec![true; size as usize]).unwrap();
        assert_lanes(&out, size, &format!("size {size}"), |_| {
            SubgroupMask::from_words(words)
        });
        if size < 128 {
            assert_eq!(out.get(0).unwrap().bits(), (1u128 << size) - 1);
        }
    }
}

#[test]
fn ballot_false_in_a_full_subgroup_is_empty() {
    for size in SIZES {
        let out = subgroup_ballot(&full(size), &vec![false; size as usize]).unwrap();
        assert_lanes(&out, size, &format!("size {size}"), |_| SubgroupMask::EMPTY);
    }
}

/// A CTS split: a predicate on `(size, lane)` and what a full subgroup's
/// ballot of it must give, as closed formulas in the size `s` and lane `l`.
struct Split {
    name: &'static str,
    pred: fn(u32, u32) -> bool,
    bits: fn(u32) -> u128,
    count: fn(u32) -> u32,
    lsb: fn(u32) -> Option<u32>,
    msb: fn(u32) -> Option<u32>,
    incl: fn(u32, u32) -> u32,
    excl: fn(u32, u32) -> u32,
}

const EVENS: u128 = 0x5555_5555_5555_5555_5555_5555_5555_5555;
const ODDS: u128 = 0xaaaa_aaaa_aaaa_aaaa_aaaa_aaaa_aaaa_aaaa;

const SPLITS: [Split; 5] = [
    Split {
        name: "every even lane",
        pred: |_, l| l % 2 == 0,
        bits: |s| EVENS & below(s),
        count: |s| s.div_ceil(2),
        lsb: |_| Some(0),
        msb: |s| Some(if s == 1 { 0 } else { s - 2 }),
        incl: |_, l| l / 2 + 1,
        excl: |_, l| l.div_ceil(2),
    },
    Split {
        name: "every odd lane",
        pred: |_, l| l % 2 == 1,
        bits: |s| ODDS & below(s),
        count: |s| s / 2,
        lsb: |s| (s >= 2).then_some(1),
        msb: |s| (s >= 2).then(|| s - 1),
        incl: |_, l| l.div_ceil(2),
        excl: |_, l| l / 2,
    },
    Split {
        name: "lower half",
        pred: |s, l| l < s / 2,
        bits: |s| below(s / 2),
        count: |s| s / 2,
        lsb: |s| (s >= 2).then_some(0),
        msb: |s| (s >= 2).then(|| s / 2 - 1),
        incl: |s, l| (l + 1).min(s / 2),
        excl: |s, l| l.min(s / 2),
    },
    Split {
        name: "upper half",
        pred: |s, l| l >= s / 2,
        bits: |s| below(s) & !below(s / 2),
        count: |s| s - s / 2,
        lsb: |s| Some(s / 2),
        msb: |s| Some(s - 1),
        incl: |s, l| (l + 1).saturating_sub(s / 2),
        excl: |s, l| l.saturating_sub(s / 2),
    },
    Split {
        name: "first two lanes",
        pred: |_, l| l < 2,
        bits: |s| below(s.min(2)),
        count: |s| s.min(2),
        lsb: |_| Some(0),
        msb: |s| Some(s.min(2) - 1),
        incl: |_, l| (l + 1).min(2),
        excl: |_, l| l.min(2),
    },
];

#[test]
fn splits_as_predicates_ballot_to_their_closed_form_masks() {
    for split in &SPLITS {
        for size in SIZES {
            let what = format!("{}, size {size}", split.name);
            let sg = full(size);
            let pred: Vec<bool> = (0..size).map(|l| (split.pred)(size, l)).collect();
            let ballot = subgroup_ballot(&sg, &pred).unwrap();
            let bits = (split.bits)(size);
            assert_lanes(&ballot, size, &what, |_| mask(bits));

            let v = uniform(size, bits);
            let count = subgroup_ballot_bit_count(&sg, &v).unwrap();
            assert_lanes(&count, size, &what, |_| (split.count)(size));
            let incl = subgroup_ballot_inclusive_bit_count(&sg, &v).unwrap();
            assert_lanes(&incl, size, &what, |l| (split.incl)(size, l));
            let excl = subgroup_ballot_exclusive_bit_count(&sg, &v).unwrap();
            assert_lanes(&excl, size, &what, |l| (split.excl)(size, l));
            let inverse = subgroup_inverse_ballot(&sg, &v).unwrap();
            assert_lanes(&inverse, size, &what, |l| (split.pred)(size, l));

            let lsb = subgroup_ballot_find_lsb(&sg, &v);
            let msb = subgroup_ballot_find_msb(&sg, &v);
            match ((split.lsb)(size), (split.msb)(size)) {
                (Some(lo), Some(hi)) => {
                    assert_lanes(&lsb.unwrap(), size, &what, |_| lo);
                    assert_lanes(&msb.unwrap(), size, &what, |_| hi);
                }
                _ => {
                    assert_empty_mask(lsb, Op::FindLsb, bits, size);
                    assert_empty_mask(msb, Op::FindMsb, bits, size);
                }
            }
        }
    }
}

#[test]
fn splits_as_active_sets_elect_their_lowest_lane() {
    for split in &SPLITS {
        for size in SIZES {
            let what = format!("{}, size {size}", split.name);
            let bits = (split.bits)(size);
            let sg = full(size).narrow(mask(bits));
            let ballot = subgroup_ballot(&sg, &vec![true; size as usize]).unwrap();
            let elect = subgroup_elect(&sg);
            let ids: Vec<u32> = (0..size).collect();
            let first = subgroup_broadcast_first(&sg, &ids).unwrap();
            for l in 0..size {
                let active = (split.pred)(size, l);
                assert_eq!(ballot.get(l), active.then_some(&mask(bits)), "{what}");
                let leader = (split.lsb)(size);
                assert_eq!(
                    elect.get(l),
                    active.then_some(&(Some(l) == leader)),
                    "{what}"
                );
                assert_eq!(
                    first.get(l),
                    active.then(|| leader.unwrap()).as_ref(),
                    "{what}"
                );
            }
        }
    }
}

#[test]
fn lanes_from_k_up_active_ballot_elect_and_compact() {
    for size in SIZES {
        for k in 0..=size {
            let what = format!("size {size}, lanes {k}.. active");
            let active_bits = below(size) & !below(k);
            let sg = Subgroup::new(size, mask(active_bits)).unwrap();
            let ballot = subgroup_ballot(&sg, &vec![true; size as usize]).unwrap();
            let elect = subgroup_elect(&sg);
            let v = uniform(size, active_bits);
            let count = subgroup_ballot_bit_count(&sg, &v).unwrap();
            // Stream compaction: an active lane's slot is its rank among them.
            let slot = subgroup_ballot_exclusive_bit_count(&sg, &v).unwrap();
            let ids: Vec<u32> = (0..size).collect();
            let first = subgroup_broadcast_first(&sg, &ids).unwrap();
            for l in 0..size {
                if l >= k {
                    assert_eq!(ballot.get(l), Some(&mask(active_bits)), "{what}");
                    assert_eq!(elect.get(l), Some(&(l == k)), "{what}");
                    assert_eq!(count.get(l), Some(&(size - k)), "{what}");
                    assert_eq!(slot.get(l), Some(&(l - k)), "{what}");
                    assert_eq!(first.get(l), Some(&k), "{what}");
                } else {
                    assert_eq!(ballot.get(l), None, "{what}");
                    assert_eq!(elect.get(l), None, "{what}");
                    assert_eq!(count.get(l), None, "{what}");
                }
            }
            if k < size {
                let lsb = subgroup_ballot_find_lsb(&sg, &v).unwrap();
                let msb = subgroup_ballot_find_msb(&sg, &v).unwrap();
                assert_eq!(lsb.get(size - 1), Some(&k), "{what}");
                assert_eq!(msb.get(k), Some(&(size - 1)), "{what}");
            }
        }
    }
}

#[test]
fn first_k_lanes_active_ballot_and_elect_lane_zero() {
    for size in SIZES {
        for k in 1..=size {
            let what = format!("size {size}, first {k} lanes");
            let sg = Subgroup::partial(size, k).unwrap();
            let ballot = subgroup_ballot(&sg, &vec![true; size as usize]).unwrap();
            let elect = subgroup_elect(&sg);
            for l in 0..size {
                let active = l < k;
                assert_eq!(ballot.get(l), active.then_some(&mask(below(k))), "{what}");
                assert_eq!(elect.get(l), active.then_some(&(l == 0)), "{what}");
            }
        }
    }
}

#[test]
fn builtin_masks_in_a_full_subgroup_have_the_cts_counts() {
    for size in SIZES {
        let sg = full(size);
        let eq = subgroup_eq_mask(&sg);
        let ge = subgroup_ge_mask(&sg);
        let gt = subgroup_gt_mask(&sg);
        let le = subgroup_le_mask(&sg);
        let lt = subgroup_lt_mask(&sg);
        for id in 0..size {
            let what = format!("size {size}, lane {id}");
            let [eq, ge, gt, le, lt] = [&eq, &ge, &gt, &le, &lt].map(|m| *m.get(id).unwrap());
            assert_eq!(eq.count(), 1, "{what}");
            assert_eq!(ge.count(), size - id, "{what}");
            assert_eq!(gt.count(), size - id - 1, "{what}");
            assert_eq!(le.count(), id + 1, "{what}");
            assert_eq!(lt.count(), id, "{what}");
            assert_eq!(eq.lowest(), Some(id), "{what}");
            assert_eq!(ge.lowest(), Some(id), "{what}");
            assert_eq!(ge.highest(), Some(size - 1), "{what}");
            assert_eq!(le.highest(), Some(id), "{what}");
            assert_eq!(eq | gt, ge, "{what}");
            assert_eq!(eq | lt, le, "{what}");
            assert_eq!(ge | lt, mask(below(size)), "{what}");
            assert_eq!(ge & lt, SubgroupMask::EMPTY, "{what}");
        }
    }
}
