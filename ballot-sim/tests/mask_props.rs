//! Property tests of `SubgroupMask` and of every operation in `ops`, checked
//! against a reference written here in plain `u128` arithmetic straight from
//! docs/design.md's "Semantics (normative)". Nothing here reuses the crate's own
//! mask helpers to compute an expected value, so a mistake shared by both is
//! unlikely.

use core::fmt::Debug;

use ballot_ir::mask::SubgroupMask;
use ballot_sim::ops::*;
use ballot_sim::sim::{PerLane, Subgroup, SubgroupSize};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::Index;

const SIZES: [u32; 8] = [1, 2, 4, 8, 16, 32, 64, 128];

/// The bits below `size`, the only ones an operation may read or produce.
fn below(size: u32) -> u128 {
    if size >= 128 {
        !0
    } else {
        (1u128 << size) - 1
    }
}

fn bit(lane: u32) -> u128 {
    1u128 << lane
}

fn has(bits: u128, lane: u32) -> bool {
    lane < 128 && (bits >> lane) & 1 == 1
}

fn lanes_of(bits: u128) -> Vec<u32> {
    (0..128).filter(|&l| has(bits, l)).collect()
}

fn mask(bits: u128) -> SubgroupMask {
    SubgroupMask::from_bits(bits)
}

fn subgroup(size: u32, active: u128) -> Subgroup {
    Subgroup::new(size, mask(active)).expect("the strategy only draws lanes below the size")
}

fn any_size() -> impl Strategy<Value = u32> {
    prop::sample::select(SIZES.to_vec())
}

/// Dense, sparse, empty, full and high masks, so that both ends of every
/// count and search are reached often.
fn any_bits() -> impl Strategy<Value = u128> {
    prop_oneof![
        3 => any::<u128>(),
        2 => vec(0u32..128, 0..6).prop_map(|ls| ls.into_iter().fold(0, |m, l| m | bit(l))),
        1 => Just(0u128),
        1 => Just(u128::MAX),
        1 => (0u32..128).prop_map(|i| !0u128 << i),
    ]
}

/// A subgroup size and an active set drawn as random lane ids below it.
fn any_subgroup() -> impl Strategy<Value = (u32, u128)> {
    any_size().prop_flat_map(|size| {
        let random = vec(0..size, 0..=size as usize)
            .prop_map(|ls| ls.into_iter().fold(0, |m, l| m | bit(l)));
        (
            Just(size),
            prop_oneof![4 => random, 1 => Just(below(size)), 1 => Just(0u128)],
        )
    })
}

/// A subgroup and one input per lane, the input drawn by `elem(size)`.
fn with_inputs<S: Strategy>(
    elem: impl Fn(u32) -> S,
) -> impl Strategy<Value = (u32, u128, Vec<S::Value>)> {
    any_subgroup().prop_flat_map(move |(size, active)| {
        (Just(size), Just(active), vec(elem(size), size as usize))
    })
}

/// What an operation must return: `f(lane)` in each active lane, nothing in
/// the others.
fn per_active<T>(size: u32, active: u128, mut f: impl FnMut(u32) -> T) -> Vec<Option<T>> {
    (0..size).map(|l| has(active, l).then(|| f(l))).collect()
}

/// Checks every lane through `PerLane::get`, so an inactive lane that
/// received a value fails as surely as a wrong value does.
fn check<T: PartialEq + Debug>(out: &PerLane<T>, want: &[Option<T>]) -> Result<(), TestCaseError> {
    prop_assert_eq!(out.len(), want.len(), "one entry per lane");
    for (lane, want) in want.iter().enumerate() {
        prop_assert_eq!(out.get(lane as u32), want.as_ref(), "lane {}", lane);
    }
    prop_assert_eq!(out.get(want.len() as u32), None, "no lane past the size");
    Ok(())
}

fn masks(values: &[u128]) -> Vec<SubgroupMask> {
    values.iter().copied().map(mask).collect()
}

/// A mask with at least one bit below `size`, where FindLSB/FindMSB are
/// defined.
fn nonempty_below(size: u32) -> impl Strategy<Value = u128> {
    (any_bits(), 0..size).prop_map(
        move |(v, l)| {
            if v & below(size) == 0 {
                v | bit(l)
            } else {
                v
            }
        },
    )
}

fn size_of(size: u32) -> SubgroupSize {
    SubgroupSize::new(size).unwrap()
}

proptest! {
    #[test]
    fn ballot_sets_exactly_the_active_lanes_whose_predicate_holds(
        (size, active, pred) in with_inputs(|_| any::<bool>()),
    ) {
        let mut want = 0u128;
        for lane in 0..size {
            if has(active, lane) && pred[lane as usize] {
                want |= bit(lane);
            }
        }
        let out = subgroup_ballot(&subgroup(size, active), &pred).unwrap();
        check(&out, &per_active(size, active, |_| mask(want)))?;
    }

    #[test]
    fn ballot_ignores_the_predicates_of_inactive_lanes(
        (size, active, pred) in with_inputs(|_| any::<bool>()),
    ) {
        let sg = subgroup(size, active);
        let flipped: Vec<bool> = (0..size)
            .map(|l| if has(active, l) { pred[l as usize] } else { !pred[l as usize] })
            .collect();
        prop_assert_eq!(
            subgroup_ballot(&sg, &pred).unwrap(),
            subgroup_ballot(&sg, &flipped).unwrap()
        );
    }

    #[test]
    fn ballot_in_a_branch_sees_only_the_lanes_that_took_it(
        (size, active, pred) in with_inputs(|_| any::<bool>()),
        branch in any::<u128>(),
    ) {
        let taken = subgroup(size, active).narrow(mask(branch));
        prop_assert_eq!(taken.active().bits(), active & branch);
        prop_assert_eq!(taken.size().get(), size);
        let want = lanes_of(active & branch & below(size))
            .into_iter()
            .filter(|&l| pred[l as usize])
            .fold(0, |m, l| m | bit(l));
        let out = subgroup_ballot(&taken, &pred).unwrap();
        check(&out, &per_active(size, active & branch, |_| mask(want)))?;
    }

    #[test]
    fn inverse_ballot_reads_the_own_lane_bit_of_a_uniform_value(
        (size, active, noise) in with_inputs(|_| any_bits()),
        v in any_bits(),
    ) {
        // Inactive lanes hold unrelated values: only active lanes must agree.
        let values: Vec<u128> = (0..size)
            .map(|l| if has(active, l) { v } else { noise[l as usize] })
            .collect();
        let out = subgroup_inverse_ballot(&subgroup(size, active), &masks(&values)).unwrap();
        check(&out, &per_active(size, active, |l| has(v, l)))?;
    }

    #[test]
    fn bit_extract_reads_the_requested_bit_in_each_lane(
        (size, active, inputs) in with_inputs(|size| (any_bits(), 0..size)),
    ) {
        let (values, index): (Vec<u128>, Vec<u32>) = inputs.into_iter().unzip();
        let out =
            subgroup_ballot_bit_extract(&subgroup(size, active), &masks(&values), &index).unwrap();
        check(
            &out,
            &per_active(size, active, |l| has(values[l as usize], index[l as usize])),
        )?;
    }

    #[test]
    fn bit_count_counts_only_bits_below_the_size(
        (size, active, values) in with_inputs(|_| any_bits()),
    ) {
        let out = subgroup_ballot_bit_count(&subgroup(size, active), &masks(&values)).unwrap();
        check(
            &out,
            &per_active(size, active, |l| (values[l as usize] & below(size)).count_ones()),
        )?;
    }

    #[test]
    fn inclusive_and_exclusive_counts_are_popcounts_under_le_and_lt(
        (size, active, values) in with_inputs(|_| any_bits()),
    ) {
        let sg = subgroup(size, active);
        let incl = subgroup_ballot_inclusive_bit_count(&sg, &masks(&values)).unwrap();
        let excl = subgroup_ballot_exclusive_bit_count(&sg, &masks(&values)).unwrap();
        // Le of lane l is bits 0..=l, Lt is bits 0..l; l < size here.
        check(
            &incl,
            &per_active(size, active, |l| (values[l as usize] & below(l + 1)).count_ones()),
        )?;
        check(
            &excl,
            &per_active(size, active, |l| (values[l as usize] & below(l)).count_ones()),
        )?;
        for (lane, &e) in excl.active() {
            let own = u32::from(has(values[lane as usize], lane));
            prop_assert_eq!(*incl.get(lane).unwrap(), e + own);
        }
    }

    #[test]
    fn inclusive_and_exclusive_counts_do_not_depend_on_the_active_set(
        (size, active, values) in with_inputs(|_| any_bits()),
    ) {
        let full = subgroup(size, below(size));
        let part = subgroup(size, active);
        let vs = masks(&values);
        let full_incl = subgroup_ballot_inclusive_bit_count(&full, &vs).unwrap();
        let full_excl = subgroup_ballot_exclusive_bit_count(&full, &vs).unwrap();
        let part_incl = subgroup_ballot_inclusive_bit_count(&part, &vs).unwrap();
        let part_excl = subgroup_ballot_exclusive_bit_count(&part, &vs).unwrap();
        for lane in lanes_of(active) {
            prop_assert_eq!(part_incl.get(lane), full_incl.get(lane));
            prop_assert_eq!(part_excl.get(lane), full_excl.get(lane));
        }
    }

    #[test]
    fn find_lsb_and_msb_give_the_extreme_set_bits_below_the_size(
        (size, active, values) in with_inputs(nonempty_below),
    ) {
        let sg = subgroup(size, active);
        let lsb = subgroup_ballot_find_lsb(&sg, &masks(&values)).unwrap();
        let msb = subgroup_ballot_find_msb(&sg, &masks(&values)).unwrap();
        check(
            &lsb,
            &per_active(size, active, |l| (values[l as usize] & below(size)).trailing_zeros()),
        )?;
        check(
            &msb,
            &per_active(size, active, |l| {
                127 - (values[l as usize] & below(size)).leading_zeros()
            }),
        )?;
    }

    #[test]
    fn find_lsb_and_msb_ignore_bits_at_or_above_the_size(
        (size, active, values) in with_inputs(nonempty_below),
        high in any::<u128>(),
    ) {
        let sg = subgroup(size, active);
        let noisy: Vec<u128> = values.iter().map(|v| v | (high & !below(size))).collect();
        prop_assert_eq!(
            subgroup_ballot_find_lsb(&sg, &masks(&values)).unwrap(),
            subgroup_ballot_find_lsb(&sg, &masks(&noisy)).unwrap()
        );
        prop_assert_eq!(
            subgroup_ballot_find_msb(&sg, &masks(&values)).unwrap(),
            subgroup_ballot_find_msb(&sg, &masks(&noisy)).unwrap()
        );
    }

    #[test]
    fn builtin_masks_compare_every_lane_below_the_size_with_the_own_id(
        (size, active) in any_subgroup(),
    ) {
        let sg = subgroup(size, active);
        let rel = |f: fn(u32, u32) -> bool| {
            per_active(size, active, move |id| {
                mask((0..size).filter(|&i| f(i, id)).fold(0, |m, i| m | bit(i)))
            })
        };
        check(&subgroup_eq_mask(&sg), &rel(|i, id| i == id))?;
        check(&subgroup_ge_mask(&sg), &rel(|i, id| i >= id))?;
        check(&subgroup_gt_mask(&sg), &rel(|i, id| i > id))?;
        check(&subgroup_le_mask(&sg), &rel(|i, id| i <= id))?;
        check(&subgroup_lt_mask(&sg), &rel(|i, id| i < id))?;
    }

    #[test]
    fn elect_is_true_in_the_lowest_active_lane_only((size, active) in any_subgroup()) {
        let lowest = lanes_of(active).first().copied();
        check(
            &subgroup_elect(&subgroup(size, active)),
            &per_active(size, active, |l| Some(l) == lowest),
        )?;
    }

    #[test]
    fn broadcast_first_hands_every_lane_the_lowest_active_lane_value(
        (size, active, values) in with_inputs(|_| any::<u32>()),
    ) {
        let out = subgroup_broadcast_first(&subgroup(size, active), &values).unwrap();
        let lowest = lanes_of(active).first().map(|&l| values[l as usize]);
        check(&out, &per_active(size, active, |_| lowest.unwrap()))?;
    }

    #[test]
    fn broadcast_hands_every_lane_the_value_of_an_active_source(
        (size, active, values) in with_inputs(|_| any::<u64>()),
        pick in any::<Index>(),
    ) {
        let lanes = lanes_of(active);
        prop_assume!(!lanes.is_empty());
        let id = lanes[pick.index(lanes.len())];
        let out = subgroup_broadcast(&subgroup(size, active), &values, id).unwrap();
        check(&out, &per_active(size, active, |_| values[id as usize]))?;
    }

    #[test]
    fn an_empty_subgroup_gives_no_lane_anything(size in any_size(), v in any_bits()) {
        // No lane executes, so even inputs that would be undefined are not.
        let sg = subgroup(size, 0);
        let n = size as usize;
        check(&subgroup_ballot(&sg, &vec![true; n]).unwrap(), &vec![None; n])?;
        check(&subgroup_ballot_find_lsb(&sg, &vec![mask(0); n]).unwrap(), &vec![None; n])?;
        check(&subgroup_ballot_find_msb(&sg, &vec![mask(0); n]).unwrap(), &vec![None; n])?;
        check(&subgroup_ballot_bit_count(&sg, &vec![mask(v); n]).unwrap(), &vec![None; n])?;
        check(&subgroup_elect(&sg), &vec![None; n])?;
        check(&subgroup_eq_mask(&sg), &vec![None; n])?;
        check(&subgroup_broadcast_first(&sg, &vec![7u8; n]).unwrap(), &vec![None; n])?;
    }
}

// The mask type itself: layout, conversions, iteration and operators.
proptest! {
    #[test]
    fn words_put_lane_i_in_bit_i_mod_32_of_word_i_div_32(words in any::<[u32; 4]>()) {
        let mut want = 0u128;
        for i in 0..128u32 {
            if (words[(i / 32) as usize] >> (i % 32)) & 1 == 1 {
                want |= bit(i);
            }
        }
        let m = SubgroupMask::from_words(words);
        prop_assert_eq!(m.bits(), want);
        prop_assert_eq!(SubgroupMask::from(words), m);
        prop_assert_eq!(m.to_words(), words);
        prop_assert_eq!(<[u32; 4]>::from(m), words);
        for i in 0..128u32 {
            prop_assert_eq!(m.contains(i), has(want, i), "lane {}", i);
        }
    }

    #[test]
    fn u128_conversions_round_trip_with_lane_i_as_bit_i(bits in any_bits()) {
        let m = SubgroupMask::from(bits);
        prop_assert_eq!(m, SubgroupMask::from_bits(bits));
        prop_assert_eq!(u128::from(m), bits);
        prop_assert_eq!(m.bits(), bits);
        prop_assert_eq!(SubgroupMask::from_words(m.to_words()), m);
    }

    #[test]
    fn iteration_yields_the_set_lanes_in_order(bits in any_bits()) {
        let want = lanes_of(bits);
        let m = mask(bits);
        prop_assert_eq!(m.iter().len(), want.len());
        prop_assert_eq!(m.iter().collect::<Vec<_>>(), want.clone());
        prop_assert_eq!(m.into_iter().collect::<Vec<_>>(), want.clone());
        let mut backwards = want;
        backwards.reverse();
        prop_assert_eq!(m.iter().rev().collect::<Vec<_>>(), backwards);
    }

    #[test]
    fn collecting_lanes_sets_each_lane_below_128_and_drops_the_rest(
        lanes in vec(prop_oneof![0u32..128, 128u32..=u32::MAX], 0..40),
    ) {
        let want = lanes.iter().filter(|&&l| l < 128).fold(0, |m, &l| m | bit(l));
        prop_assert_eq!(lanes.iter().copied().collect::<SubgroupMask>().bits(), want);
        prop_assert_eq!(mask(want).iter().collect::<SubgroupMask>().bits(), want);
    }

    #[test]
    fn bit_operators_act_lane_by_lane(a in any_bits(), b in any_bits()) {
        let (ma, mb) = (mask(a), mask(b));
        prop_assert_eq!((ma & mb).bits(), a & b);
        prop_assert_eq!((ma | mb).bits(), a | b);
        prop_assert_eq!((ma ^ mb).bits(), a ^ b);
        prop_assert_eq!((!ma).bits(), !a);
        let mut m = ma;
        m &= mb;
        prop_assert_eq!(m.bits(), a & b);
        let mut m = ma;
        m |= mb;
        prop_assert_eq!(m.bits(), a | b);
        let mut m = ma;
        m ^= mb;
        prop_assert_eq!(m.bits(), a ^ b);
    }

    #[test]
    fn lane_queries_match_the_reference(bits in any_bits(), lane in 0u32..200) {
        let m = mask(bits);
        let lanes = lanes_of(bits);
        prop_assert_eq!(m.count(), lanes.len() as u32);
        prop_assert_eq!(m.is_empty(), lanes.is_empty());
        prop_assert_eq!(m.lowest(), lanes.first().copied());
        prop_assert_eq!(m.highest(), lanes.last().copied());
        prop_assert_eq!(m.contains(lane), has(bits, lane));
        let one = if lane < 128 { bit(lane) } else { 0 };
        prop_assert_eq!(SubgroupMask::lane(lane).bits(), one);
        let first = (0..128).filter(|&l| l < lane).fold(0, |m, l| m | bit(l));
        prop_assert_eq!(SubgroupMask::first(lane).bits(), first);
        let mut set = m;
        set.set(lane, true);
        prop_assert_eq!(set.bits(), bits | one);
        let mut cleared = m;
        cleared.set(lane, false);
        prop_assert_eq!(cleared.bits(), bits & !one);
    }

    #[test]
    fn sized_mask_methods_read_only_bits_below_the_size(
        size in any_size(),
        bits in any_bits(),
        index in prop_oneof![0u32..256, Just(u32::MAX)],
    ) {
        let (m, s) = (mask(bits), size_of(size));
        let low = bits & below(size);
        prop_assert_eq!(m.below(s).bits(), low);
        prop_assert_eq!(m.bit_count(s), low.count_ones());
        prop_assert_eq!(m.bit_extract(index, s), (index < size).then(|| has(bits, index)));
        prop_assert_eq!(m.find_lsb(s), lanes_of(low).first().copied());
        prop_assert_eq!(m.find_msb(s), lanes_of(low).last().copied());
        if index < size {
            prop_assert_eq!(m.inclusive_bit_count(index, s), (low & below(index + 1)).count_ones());
            prop_assert_eq!(m.exclusive_bit_count(index, s), (low & below(index)).count_ones());
        }
    }

    #[test]
    fn sized_builtin_masks_hold_no_bit_at_or_above_the_size(
        size in any_size(),
        id in prop_oneof![0u32..256, Just(u32::MAX - 1), Just(u32::MAX)],
    ) {
        let s = size_of(size);
        let rel = |f: fn(u32, u32) -> bool| (0..size).filter(|&i| f(i, id)).fold(0, |m, i| m | bit(i));
        prop_assert_eq!(SubgroupMask::eq_mask(id, s).bits(), rel(|i, id| i == id));
        prop_assert_eq!(SubgroupMask::ge_mask(id, s).bits(), rel(|i, id| i >= id));
        prop_assert_eq!(SubgroupMask::gt_mask(id, s).bits(), rel(|i, id| i > id));
        prop_assert_eq!(SubgroupMask::le_mask(id, s).bits(), rel(|i, id| i <= id));
        prop_assert_eq!(SubgroupMask::lt_mask(id, s).bits(), rel(|i, id| i < id));
    }

    #[test]
    fn display_spells_the_four_words_as_a_glsl_uvec4(bits in any_bits()) {
        let word = |k: u32| (bits >> (32 * k)) as u32;
        let want = format!(
            "uvec4(0x{:08x}, 0x{:08x}, 0x{:08x}, 0x{:08x})",
            word(0),
            word(1),
            word(2),
            word(3)
        );
        prop_assert_eq!(mask(bits).to_string(), want);
    }

    #[test]
    fn lane_lists_spell_the_set_lanes_in_maximal_runs(bits in any_bits()) {
        let want = spell_lanes(bits);
        prop_assert_eq!(format!("{:#}", mask(bits)), want.clone());
        prop_assert_eq!(format!("{:?}", mask(bits)), format!("SubgroupMask{want}"));
    }
}

/// The shortest lane list: maximal runs of set lanes, each run of three or
/// more folded to `a..=b`.
fn spell_lanes(bits: u128) -> String {
    let mut items = Vec::new();
    let mut lane = 0u32;
    while lane < 128 {
        if !has(bits, lane) {
            lane += 1;
            continue;
        }
        let start = lane;
        while lane < 128 && has(bits, lane) {
            lane += 1;
        }
        let end = lane - 1;
        match end - start {
            0 => items.push(start.to_string()),
            1 => items.extend([start.to_string(), end.to_string()]),
            _ => items.push(format!("{start}..={end}")),
        }
    }
    format!("{{{}}}", items.join(", "))
}

#[test]
fn display_of_concrete_masks() {
    let cases: [(u128, &str); 6] = [
        (0, "uvec4(0x00000000, 0x00000000, 0x00000000, 0x00000000)"),
        (0xf, "uvec4(0x0000000f, 0x00000000, 0x00000000, 0x00000000)"),
        (
            u128::MAX,
            "uvec4(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff)",
        ),
        // Lanes 32 and 127: bit 0 of y and bit 31 of w.
        (
            (1 << 32) | (1 << 127),
            "uvec4(0x00000000, 0x00000001, 0x00000000, 0x80000000)",
        ),
        (
            0xdead_beef | (0x1234_5678 << 64),
            "uvec4(0xdeadbeef, 0x00000000, 0x12345678, 0x00000000)",
        ),
        // Lanes 31 and 96: the top of x and the bottom of w.
        (
            (1 << 31) | (1 << 96),
            "uvec4(0x80000000, 0x00000000, 0x00000000, 0x00000001)",
        ),
    ];
    for (bits, want) in cases {
        assert_eq!(mask(bits).to_string(), want, "{bits:#x}");
    }
}

#[test]
fn lane_lists_of_concrete_masks_fold_runs_of_three_or_more() {
    let cases: [(&[u32], &str); 8] = [
        (&[], "{}"),
        (&[5], "{5}"),
        (&[0, 1], "{0, 1}"),
        (&[0, 2, 4], "{0, 2, 4}"),
        (&[0, 1, 2], "{0..=2}"),
        (&[0, 1, 4, 5, 6, 7], "{0, 1, 4..=7}"),
        (&[31, 32, 33, 100, 126, 127], "{31..=33, 100, 126, 127}"),
        (
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
            "{0..=15}",
        ),
    ];
    for (lanes, want) in cases {
        let m: SubgroupMask = lanes.iter().copied().collect();
        assert_eq!(format!("{m:#}"), want);
        assert_eq!(format!("{m:?}"), format!("SubgroupMask{want}"));
    }
    assert_eq!(format!("{:#}", SubgroupMask::ALL), "{0..=127}");
    assert_eq!(format!("{:?}", SubgroupMask::EMPTY), "SubgroupMask{}");
}

#[test]
fn hex_and_binary_print_the_mask_as_a_u128() {
    assert_eq!(
        format!("{:x}", mask(1 << 127)),
        format!("8{}", "0".repeat(31))
    );
    assert_eq!(format!("{:x}", mask(0xabc)), "abc");
    assert_eq!(format!("{:b}", mask(0b1011)), "1011");
    assert_eq!(format!("{:#x}", mask(0)), "0x0");
}

#[test]
fn empty_and_all_are_the_extremes() {
    assert_eq!(SubgroupMask::EMPTY.bits(), 0);
    assert_eq!(SubgroupMask::ALL.bits(), u128::MAX);
    assert_eq!(SubgroupMask::default(), SubgroupMask::EMPTY);
    assert_eq!(SubgroupMask::ALL.to_words(), [u32::MAX; 4]);
}
