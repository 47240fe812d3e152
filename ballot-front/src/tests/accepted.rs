//! Kernels the front end accepts, and the IR each lowers to.

use super::*;

#[test]
fn literals_take_their_type_from_the_context() {
    check_ir(
        parse_quote! {
            pub fn k(a: u32, #[uniform] b: i32, mut c: f32) -> u32 {
                let x = a + 1;
                let y = 2 * b;
                let z: u32 = 7;
                let w = 1 == a;
                c = c * 2.5;
                let d = 3;
                x << 2
            }
        },
        "
        fn k(a: u32, #[uniform] b: i32, mut c: f32) -> u32
        let x: u32 = (a + 1u32);
        let y: i32 = (2i32 * b);
        let z: u32 = 7u32;
        let w: bool = (1u32 == a);
        c = (c * 2.5f32);
        let d: i32 = 3i32;
        return (x << 2u32);
        ",
    );
}

#[test]
fn negative_literals_fold_and_constants_resolve() {
    check_ir(
        parse_quote! {
            fn k(x: f32) -> i32 {
                let a = -2147483648i32;
                let b = -x;
                let c = u32::MAX;
                let d = i32::MIN;
                let f = f32::NEG_INFINITY + f32::MAX;
                let e = 1f32;
                let m = SubgroupMask::ALL ^ ballot::SubgroupMask::EMPTY;
                -(a + 1)
            }
        },
        "
        fn k(x: f32) -> i32
        let a: i32 = -2147483648i32;
        let b: f32 = -x;
        let c: u32 = 4294967295u32;
        let d: i32 = -2147483648i32;
        let f: f32 = (-inff32 + 3.4028235e38f32);
        let e: f32 = 1.0f32;
        let m: SubgroupMask = (SubgroupMask::ALL ^ SubgroupMask::EMPTY);
        return -(a + 1i32);
        ",
    );
}

#[test]
fn casts_operators_and_shadowing() {
    check_ir(
        parse_quote! {
            fn k(a: u32, b: bool) -> f32 {
                let a = a as i32;
                let n = !b && a >= 0 || b;
                let s = (a >> 3) as f32;
                let t = { let a = 2.0; a * s };
                t + (n as u32) as f32
            }
        },
        "
        fn k(a: u32, b: bool) -> f32
        let a: i32 = (a as i32);
        let n: bool = ((!b && (a >= 0i32)) || b);
        let s: f32 = ((a >> 3u32) as f32);
        let a: f32 = 2.0f32;
        let t: f32 = (a * s);
        return (t + ((n as u32) as f32));
        ",
    );
}

#[test]
fn compound_assignment_loads_after_the_right_operand() {
    check_ir(
        parse_quote! {
            fn k(mut x: u32, mut y: i32) {
                x += 1;
                x <<= 2;
                y %= -3;
                x ^= subgroup_ballot(true).count();
            }
        },
        "
        fn k(mut x: u32, mut y: i32)
        x = (x + 1u32);
        x = (x << 2u32);
        y = (y % -3i32);
        x = (x ^ subgroup_ballot(true).count());
        ",
    );
}

#[test]
fn pure_if_expressions_become_selects() {
    check_ir(
        parse_quote! {
            fn k(a: u32, b: u32) -> u32 {
                let c = if a < b { a } else if a == b { 0 } else { b - a };
                if c > 2 { c } else { subgroup_local_invocation_id() }
            }
        },
        "
        fn k(a: u32, b: u32) -> u32
        let c: u32 = select((a < b), a, select((a == b), 0u32, (b - a)));
        return select((c > 2u32), c, subgroup_local_invocation_id());
        ",
    );
}

#[test]
fn collective_if_expressions_are_hoisted() {
    check_ir(
        parse_quote! {
            fn k(p: bool) -> u32 {
                let n = if p {
                    subgroup_ballot_bit_count(subgroup_ballot(true))
                } else {
                    let m = subgroup_ballot(false);
                    m.count()
                };
                n
            }
        },
        "
        fn k(p: bool) -> u32
        if p {
            let _if0: u32 = subgroup_ballot_bit_count(subgroup_ballot(true));
        } else {
            let m: SubgroupMask = subgroup_ballot(false);
            _if0 = m.count();
        }
        let n: u32 = _if0;
        return n;
        ",
    );
}

#[test]
fn an_arm_that_returns_stores_nothing() {
    check_ir(
        parse_quote! {
            fn k(p: bool) -> u32 {
                let n = if p { 1 } else { return 7; };
                n + 1
            }
        },
        "
        fn k(p: bool) -> u32
        if p {
            let _if0: u32 = 1u32;
        } else {
            return 7u32;
        }
        let n: u32 = _if0;
        return (n + 1u32);
        ",
    );
}

#[test]
fn lazy_operands_with_collectives_are_hoisted() {
    check_ir(
        parse_quote! {
            fn k(p: bool, q: bool) -> bool {
                let a = p && q;
                let b = p && subgroup_elect();
                q || subgroup_inverse_ballot(subgroup_ballot(p))
            }
        },
        "
        fn k(p: bool, q: bool) -> bool
        let a: bool = (p && q);
        let mut _and0: bool = p;
        if _and0 {
            _and0 = subgroup_elect();
        }
        let b: bool = _and0;
        let mut _or1: bool = q;
        if _or1 {
        } else {
            _or1 = subgroup_inverse_ballot(subgroup_ballot(p));
        }
        return _or1;
        ",
    );
}

#[test]
fn operands_before_a_hoisted_one_are_spilled() {
    check_ir(
        parse_quote! {
            fn k(mut x: u32, c: u32) -> u32 {
                let y = x + { x = 5; x };
                let z = c + subgroup_broadcast_first(x) * if c > 0 { subgroup_ballot(true).count() } else { 0 };
                y + z
            }
        },
        "
        fn k(mut x: u32, c: u32) -> u32
        let _tmp0: u32 = x;
        x = 5u32;
        let y: u32 = (_tmp0 + x);
        let _tmp2: u32 = subgroup_broadcast_first(x);
        if (c > 0u32) {
            let _if1: u32 = subgroup_ballot(true).count();
        } else {
            _if1 = 0u32;
        }
        let z: u32 = (c + (_tmp2 * _if1));
        return (y + z);
        ",
    );
}

#[test]
fn while_loops_check_first() {
    check_ir(
        parse_quote! {
            fn k(mut n: u32) -> u32 {
                while n > 1 {
                    if n % 2 == 0 { n /= 2; continue; }
                    n = 3 * n + 1;
                }
                while subgroup_elect() {
                    break;
                }
                n
            }
        },
        "
        fn k(mut n: u32) -> u32
        loop {
            if !(n > 1u32) {
                break;
            }
            if ((n % 2u32) == 0u32) {
                n = (n / 2u32);
                continue;
            }
            n = ((3u32 * n) + 1u32);
        }
        loop {
            let _while0: bool = subgroup_elect();
            if !_while0 {
                break;
            }
            break;
        }
        return n;
        ",
    );
}

#[test]
fn for_loops_count_over_a_range() {
    check_ir(
        parse_quote! {
            fn k(n: u32) -> u32 {
                let mut sum = 0;
                for i in 0..n {
                    if i == 3 { continue; }
                    sum += i;
                }
                for _ in -2..2 {}
                sum
            }
        },
        "
        fn k(n: u32) -> u32
        let mut sum: u32 = 0u32;
        let mut _for0: u32 = 0u32;
        let _end1: u32 = n;
        loop {
            if !(_for0 < _end1) {
                break;
            }
            let i: u32 = _for0;
            if (i == 3u32) {
                continue;
            }
            sum = (sum + i);
        } continuing {
            _for0 = (_for0 + 1u32);
        }
        let mut _for2: i32 = -2i32;
        let _end3: i32 = 2i32;
        loop {
            if !(_for2 < _end3) {
                break;
            }
        } continuing {
            _for2 = (_for2 + 1i32);
        }
        return sum;
        ",
    );
}

#[test]
fn loops_that_only_return_diverge() {
    check_ir(
        parse_quote! {
            fn k(a: u32) -> u32 {
                let mut i = 0u32;
                loop {
                    if subgroup_ballot(i == a).is_empty() { return i; }
                    i += 1;
                }
            }
        },
        "
        fn k(a: u32) -> u32
        let mut i: u32 = 0u32;
        loop {
            if subgroup_ballot((i == a)).is_empty() {
                return i;
            }
            i = (i + 1u32);
        }
        ",
    );
}

/// A clustered reduction's size, spirv-std's const generic argument,
/// becomes its last operand, a literal (IR invariant 8); the value's type
/// comes from the operation's name or the context, as for `subgroup_i_add`.
#[test]
fn clustered_reductions_take_their_size_as_an_operand() {
    check_ir(
        parse_quote! {
            fn k(x: u32, f: f32) -> i32 {
                let a = spirv_std::arch::subgroup_clustered_i_add::<4, _>(x);
                let b = subgroup_clustered_f_max::<{ 1 }>(f);
                let c: i32 = subgroup_clustered_and::<128, _>(-1);
                let d = subgroup_clustered_i_mul::<8, i32>(3);
                c + subgroup_clustered_s_min::<2>(a as i32) + d
            }
        },
        "
        fn k(x: u32, f: f32) -> i32
        let a: u32 = subgroup_clustered_i_add(x, 4u32);
        let b: f32 = subgroup_clustered_f_max(f, 1u32);
        let c: i32 = subgroup_clustered_and(-1i32, 128u32);
        let d: i32 = subgroup_clustered_i_mul(3i32, 8u32);
        return ((c + subgroup_clustered_s_min((a as i32), 2u32)) + d);
        ",
    );
}

#[test]
fn intrinsics_by_any_path_and_the_mask_api() {
    check_ir(
        parse_quote! {
            fn k(x: f32, m: SubgroupMask) -> bool {
                let a = ballot::prelude::subgroup_ballot(x > 0.0);
                let b = spirv_std::arch::subgroup_ballot_find_lsb(a | subgroup_lt_mask());
                let c = subgroup_broadcast(x, 3);
                let d = subgroup_broadcast_first(m);
                let e = SubgroupMask::lane(b) | SubgroupMask::first(subgroup_size());
                e.contains(subgroup_local_invocation_id()) && !d.is_empty()
            }
        },
        "
        fn k(x: f32, m: SubgroupMask) -> bool
        let a: SubgroupMask = subgroup_ballot((x > 0.0f32));
        let b: u32 = subgroup_ballot_find_lsb((a | subgroup_lt_mask()));
        let c: f32 = subgroup_broadcast(x, 3u32);
        let d: SubgroupMask = subgroup_broadcast_first(m);
        let e: SubgroupMask = (SubgroupMask::lane(b) | SubgroupMask::first(subgroup_size()));
        return (e.contains(subgroup_local_invocation_id()) && !d.is_empty());
        ",
    );
}

#[test]
fn kernel_calls_take_their_type_from_the_context() {
    check_ir(
        parse_quote! {
            fn k(x: u32) -> u32 {
                let a: i32 = helpers::slot(x, 2u32);
                let b = offset(a) + 1u32;
                if subgroup_ballot(flag(b)).count() > 0 { return self::next(b); }
                ::other::last()
            }
        },
        "
        fn k(x: u32) -> u32
        let a: i32 = helpers::slot(x, 2u32);
        let b: u32 = (offset(a) + 1u32);
        if (subgroup_ballot(flag(b)).count() > 0u32) {
            return self::next(b);
        }
        return ::other::last();
        ",
    );
}

#[test]
fn unit_kernels_evaluate_statements_for_effects() {
    check_ir(
        parse_quote! {
            fn k(p: bool) {
                if p { return; }
                subgroup_ballot(p);
                let _ = subgroup_elect();
                if subgroup_elect() { subgroup_ballot(true) } else { SubgroupMask::EMPTY };
            }
        },
        "
        fn k(p: bool)
        if p {
            return;
        }
        subgroup_ballot(p);
        subgroup_elect();
        if subgroup_elect() {
            subgroup_ballot(true);
        } else {
            SubgroupMask::EMPTY;
        }
        ",
    );
}

#[test]
fn bindings_take_their_type_from_later_uses() {
    check_ir(
        parse_quote! {
            fn k(m: SubgroupMask, x: u32) -> u32 {
                let mut hits = 0;
                for i in 0..4 {
                    if m.contains(i) { hits += 1; }
                }
                let y = helper(x);
                let z = y * hits;
                let w = if x > 2 { 1 } else { x };
                hits + z + w
            }
        },
        "
        fn k(m: SubgroupMask, x: u32) -> u32
        let mut hits: u32 = 0u32;
        let mut _for0: u32 = 0u32;
        let _end1: u32 = 4u32;
        loop {
            if !(_for0 < _end1) {
                break;
            }
            let i: u32 = _for0;
            if m.contains(i) {
                hits = (hits + 1u32);
            }
        } continuing {
            _for0 = (_for0 + 1u32);
        }
        let y: u32 = helper(x);
        let z: u32 = (y * hits);
        let w: u32 = select((x > 2u32), 1u32, x);
        return ((hits + z) + w);
        ",
    );
}

#[test]
fn spans_are_recorded_for_every_node() {
    let lowered = lowered(parse_quote! {
        fn k(a: u32) -> u32 { for i in 0..a { if i > 2 { break; } } a }
    });
    assert_eq!(lowered.spans.exprs.len(), lowered.kernel.exprs.len());
    assert_eq!(lowered.spans.stmts.len(), lowered.kernel.stmts.len());
    assert_eq!(lowered.spans.locals.len(), lowered.kernel.locals.len());
}

#[test]
fn lowering_is_deterministic() {
    let item: syn::ItemFn = parse_quote! {
        fn k(a: u32) -> u32 { let b = if a > 1 { subgroup_ballot(true).count() } else { a }; b }
    };
    let first = lower(&item).map(|l| l.kernel);
    let second = lower(&item).map(|l| l.kernel);
    assert_eq!(first.ok(), second.ok());
}
