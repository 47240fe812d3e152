use super::*;

fn lower(item: syn::ItemFn) -> Kernel {
    match ballot_front::lower(&item) {
        Ok(lowered) => lowered.kernel,
        Err(err) => panic!("{err}"),
    }
}

fn per_lane_u32(values: &[u32]) -> Arg {
    Arg::PerLane(values.iter().map(|&v| Value::U32(v)).collect())
}

/// README's `laps`: lane `i` runs `n[i]` iterations, each counting the
/// lanes still in the loop.
#[test]
fn laps() {
    let k = lower(syn::parse_quote! {
        fn laps(n: u32) -> u32 {
            let mut i = 0u32;
            let mut seen = 0u32;
            while i < n {
                seen += subgroup_ballot_bit_count(subgroup_ballot(true));
                i += 1;
            }
            seen
        }
    });
    let out = Interpreter::new([&k])
        .run("laps", &full(4), &[per_lane_u32(&[1, 2, 3, 0])])
        .unwrap();
    // Iteration 0: lanes 0, 1, 2 (3); iteration 1: lanes 1, 2 (2);
    // iteration 2: lane 2 (1).
    assert_eq!(u32s(&out), vec![(0, 3), (1, 5), (2, 6), (3, 0)]);
}

/// The right operand of `&&` runs only where the left one holds, so
/// `elect` there elects among those lanes.
#[test]
fn elect_on_the_right_of_and() {
    let k = lower(syn::parse_quote! {
        fn first_taker(p: bool) -> bool {
            p && subgroup_elect()
        }
    });
    let p = Arg::PerLane([false, true, true, false].map(Value::Bool).to_vec());
    let out = Interpreter::new([&k])
        .run("first_taker", &full(4), &[p])
        .unwrap();
    let got: Vec<_> = out.active().map(|(_, v)| *v).collect();
    assert_eq!(got, [false, true, false, false].map(Value::Bool));
}

/// `for` with `continue`: the increment runs for lanes that continued.
#[test]
fn for_with_continue() {
    let k = lower(syn::parse_quote! {
        fn odd_rounds() -> u32 {
            let lane = subgroup_local_invocation_id();
            let mut total = 0u32;
            for i in 0u32..4u32 {
                if (i + lane) % 2u32 == 0u32 {
                    continue;
                }
                total += subgroup_ballot_bit_count(subgroup_ballot(true)) * (i + 1u32);
            }
            total
        }
    });
    // As `continue_skips_the_body_but_runs_continuing`, lanes {0, 1, 3}.
    assert_u32s(&k, &sg(4, &[0, 1, 3]), &[(0, 6), (1, 8), (3, 8)]);
}

/// A callee reached through a path, run in the lanes of one arm.
#[test]
fn call_through_a_path() {
    let callee = lower(syn::parse_quote! {
        fn lowest() -> u32 {
            subgroup_ballot_find_lsb(subgroup_ballot(true))
        }
    });
    let caller = lower(syn::parse_quote! {
        fn split() -> u32 {
            if subgroup_local_invocation_id() >= 5u32 {
                let x: u32 = helpers::lowest();
                x
            } else {
                let x: u32 = self::lowest();
                x + 100u32
            }
        }
    });
    let out = Interpreter::new([&callee, &caller])
        .run("split", &sg(8, &[1, 3, 5, 6]), &[])
        .unwrap();
    assert_eq!(u32s(&out), vec![(1, 101), (3, 101), (5, 5), (6, 5)]);
}
