//! A kernel's `ir()` is built by code the macro generates, not by parsing
//! the kernel again at run time. That code must rebuild exactly the IR the
//! front end lowered: here it is compared with the IR lowered anew from
//! the kernel's `SOURCE`, for kernels that use every kind of IR node.

use ballot::ir::Kernel;

#[ballot::kernel]
fn every_node(#[uniform] u: u32, x: u32, f: f32, i: i32, b: bool, m: SubgroupMask) -> u32 {
    let mut n = 0u32;
    let nan = f32::NAN;
    let neg = -0.0f32;
    let all = SubgroupMask::EMPTY | SubgroupMask::lane(3) | SubgroupMask::first(x);
    if m.contains(x) && !m.is_empty() || b ^ (f < nan) {
        n += m.count();
    } else {
        n += (i as u32) << (x % 7);
    }
    for k in 0..u {
        if k == x {
            continue;
        }
        if k > 5 {
            break;
        }
        n += subgroup_ballot_bit_count(subgroup_ballot(k < x));
    }
    let mut j = 0u32;
    while j < 3 {
        j += 1;
    }
    let v = subgroup_ballot(b);
    n += subgroup_ballot_inclusive_bit_count(v) + subgroup_ballot_exclusive_bit_count(v);
    n += subgroup_ballot_find_lsb(v | subgroup_eq_mask())
        + subgroup_ballot_find_msb(all | subgroup_ge_mask());
    n += (subgroup_gt_mask() & subgroup_le_mask() & subgroup_lt_mask()).count();
    n += subgroup_broadcast(x, 0) + subgroup_broadcast_first(x);
    n += subgroup_clustered_i_add::<4, _>(x) + subgroup_clustered_f_max::<2, _>(f) as u32;
    if subgroup_elect()
        && subgroup_ballot_bit_extract(v, 1)
        && subgroup_inverse_ballot(subgroup_ballot(true))
    {
        n += subgroup_size() + subgroup_local_invocation_id();
    }
    let g = if b { f * neg } else { -f / 2.0 };
    n + (g as i32 - i) as u32 + j
}

#[ballot::kernel]
fn calls(x: u32) {
    let _: u32 = every_node(x, x, 1.5f32, -3i32, x > 2u32, subgroup_ballot(true));
    if x == 0 {
        return;
    }
}

fn check(ir: &Kernel, source: &str) {
    let lowered = ballot_front::lower_source(source)
        .unwrap_or_else(|e| panic!("the source lowers again: {e}"))
        .kernel;
    // Debug output compares floats by what they print: NaN equals NaN,
    // and -0.0 differs from 0.0, as bits do.
    assert_eq!(format!("{ir:#?}"), format!("{lowered:#?}"));
}

#[test]
fn generated_ir_equals_the_front_ends() {
    check(every_node::ir(), every_node::SOURCE);
    check(calls::ir(), calls::SOURCE);
}
