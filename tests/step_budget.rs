//! A kernel that never ends returns `SimError::StepBudget`, naming the
//! kernel and the lanes still in the loop, instead of hanging its caller.

use std::time::Instant;

use ballot::prelude::*;
use ballot::sim::DEFAULT_STEP_BUDGET;

/// Lanes with `n == 0` leave at once; the others never do: `i` stays 0.
#[ballot::kernel]
fn spin(n: u32) -> u32 {
    let mut i = 0u32;
    while i < n {
        i *= 2;
    }
    i
}

/// `n` iterations of the loop body.
#[ballot::kernel]
fn count_to(#[uniform] n: u32) -> u32 {
    let mut i = 0u32;
    while i < n {
        i += 1;
    }
    i
}

/// A loop that spins in a kernel called by another: the budget is the
/// caller's, and the error names the kernel whose loop ran.
#[ballot::kernel]
fn calls_spin(n: u32) -> u32 {
    spin(n) + 1
}

fn lanes_of(err: &SimError) -> (&'static str, u64, SubgroupMask) {
    match err {
        SimError::StepBudget {
            kernel,
            budget,
            lanes,
        } => (kernel, *budget, *lanes),
        other => panic!("expected a step-budget error, got {other}"),
    }
}

#[test]
fn a_kernel_that_never_ends_fails_with_the_default_budget() {
    let sg = Subgroup::full(8).unwrap();
    let n = [0, 1, 0, 5, 0, 0, 7, 0];
    let start = Instant::now();
    let err = spin::run(&sg, &n).unwrap_err();
    ballot_testkit::loud(&format!(
        "spin: {DEFAULT_STEP_BUDGET} steps ran out after {:.2} s",
        start.elapsed().as_secs_f64()
    ));
    let (kernel, budget, lanes) = lanes_of(&err);
    assert_eq!(kernel, "spin");
    assert_eq!(budget, DEFAULT_STEP_BUDGET);
    assert_eq!(lanes.iter().collect::<Vec<_>>(), [1, 3, 6]);
    let message = err.to_string();
    assert!(message.contains("`spin`"), "{message}");
    assert!(message.contains("1, 3, 6"), "{message}");
    assert!(message.contains("with_step_budget"), "{message}");
}

#[test]
fn the_budget_counts_each_entry_into_the_loop_body() {
    // `while` evaluates its condition in the body: n iterations enter the
    // body n + 1 times, the last to find the condition false.
    let sg = Subgroup::full(4).unwrap();
    for n in [0u32, 1, 10, 100] {
        let fits = sg.with_step_budget(u64::from(n) + 1);
        let out = count_to::run(&fits, n).unwrap();
        assert!(out.active().all(|(_, &i)| i == n));
        let short = sg.with_step_budget(u64::from(n));
        let err = count_to::run(&short, n).unwrap_err();
        let (kernel, budget, lanes) = lanes_of(&err);
        assert_eq!((kernel, budget), ("count_to", u64::from(n)));
        assert_eq!(lanes, SubgroupMask::first(4));
    }
}

#[test]
fn a_called_kernel_spends_its_callers_budget() {
    let sg = Subgroup::full(4).unwrap().with_step_budget(1000);
    let err = calls_spin::run(&sg, &[0, 0, 3, 0]).unwrap_err();
    let (kernel, budget, lanes) = lanes_of(&err);
    assert_eq!((kernel, budget), ("spin", 1000));
    assert_eq!(lanes.iter().collect::<Vec<_>>(), [2]);
    // Every lane finishing: no error, the call's result plus one.
    let out = calls_spin::run(&sg, &[0; 4]).unwrap();
    assert!(out.active().all(|(_, &v)| v == 1));
}

#[test]
fn a_dispatch_gives_each_subgroup_the_budget() {
    // Two subgroups of 4; only the second spins.
    let dispatch = Dispatch::new([8, 1, 1], 4, [1, 1, 1])
        .unwrap()
        .with_step_budget(50);
    let mut n = vec![0u32; 8];
    n[5] = 1;
    let err = spin::run_dispatch(&dispatch, &n).unwrap_err();
    let (kernel, budget, lanes) = lanes_of(&err);
    assert_eq!((kernel, budget), ("spin", 50));
    assert_eq!(
        lanes.iter().collect::<Vec<_>>(),
        [1],
        "lane 1 of the second subgroup"
    );
    // 49 iterations per subgroup fit a budget of 50 in each of them.
    let out = count_to::run_dispatch(&dispatch, 49).unwrap();
    assert_eq!(out, vec![49; 8]);
}
