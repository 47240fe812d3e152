//! The portability oracle over the classic idioms (docs/reconvergence.md,
//! *Catalogue*), and the oracle's own correctness.
//!
//! Expected verdicts follow from the models of docs/reconvergence.md: a
//! collective in converged control flow is the same under every model; a
//! branch's lanes are one tangle under Vulkan's model only while they have
//! not rejoined from a nested divergence, a divergent `return` that some of
//! them came back from, or a loop some lanes have left; WGSL keeps together only the lanes the run started
//! with; independent thread scheduling keeps nothing together after the
//! first divergence. And a ballot's count is a count over the subgroup, so
//! it depends on the size unless the size is part of the contract.

use ballot::portability::{Certificate, PortabilityError, Subject};
use ballot::prelude::*;
use ballot::Op;

#[path = "catalogue/kernels.rs"]
mod catalogue;
use catalogue::*;

/// The compaction slot: an exclusive count of the kept lanes below, in
/// converged control flow.
#[ballot::kernel]
fn compaction_slot(keep: bool) -> u32 {
    subgroup_ballot_exclusive_bit_count(subgroup_ballot(keep))
}

/// Elect-then-atomic, converged: the leader adds the subgroup's count.
#[ballot::kernel]
fn elect_then_add(want: bool) -> u32 {
    let count = subgroup_ballot_bit_count(subgroup_ballot(want));
    if subgroup_elect() {
        count
    } else {
        0
    }
}

/// Portable by construction: collectives in diverged control flow, but
/// each lane reads only its own bit of a ballot, and broadcasts a value
/// that is the same in every lane; the rest is lane-local.
#[ballot::kernel]
fn group_independent(v: u32, #[uniform] u: u32) -> u32 {
    let mut out = v % 5;
    if v % 3 != 0 {
        let mine = subgroup_ballot(v % 2 == 0);
        if subgroup_ballot_bit_extract(mine, subgroup_local_invocation_id()) {
            out += 10;
        }
        out += subgroup_broadcast_first(u);
    }
    let mut i = 0u32;
    loop {
        if i >= v % 4 {
            break;
        }
        let again = subgroup_ballot(i % 2 == 0);
        if subgroup_ballot_bit_extract(again, subgroup_local_invocation_id()) {
            out += 1;
        }
        i += 1;
    }
    out
}

fn certified<S: Subject>(result: Result<Certificate, PortabilityError<S>>) -> Certificate {
    match result {
        Ok(c) => {
            println!("{c}");
            c
        }
        Err(e) => panic!("expected a certificate, got:\n{e}"),
    }
}

fn caught<S: Subject>(
    result: Result<Certificate, PortabilityError<S>>,
) -> Box<ballot::portability::Counterexample<S>> {
    match result {
        Err(PortabilityError::NotPortable(c)) => {
            println!("{c}");
            c
        }
        Err(e) => panic!("expected a counterexample, got another error: {e}"),
        Ok(c) => panic!("expected a counterexample, got: {c}"),
    }
}

#[test]
fn the_compaction_slot_is_portable_with_the_size_in_its_contract() {
    let c = certified(compaction_slot::portability().size_is_contract().check());
    assert_eq!(c.sizes.len(), 8);
    assert_eq!(c.models, [Model::Vulkan, Model::Wgsl, Model::Independent]);
    assert!(c.schedules > 0);
}

/// The mean of a value every lane shares, over a full subgroup: the same
/// number at every size but for rounding, since no spec fixes the order in
/// which `subgroup_f_add` sums, and the sum of `size` copies rounds
/// differently for each size.
#[ballot::kernel]
fn float_mean(#[uniform] x: f32) -> f32 {
    // Bounded, so that no sum of 128 copies overflows.
    let v = x % 1000.0;
    subgroup_f_add(v) / subgroup_size() as f32
}

#[test]
fn a_float_sum_that_rounds_differently_by_size_is_caught_bit_for_bit() {
    // 128 invocations fill every subgroup at every size.
    let c = caught(float_mean::portability().invocations(128, 128).check());
    assert_eq!(c.model, Model::Maximal);
}

#[test]
fn a_tolerance_certifies_the_float_sum() {
    let c = certified(
        float_mean::portability()
            .invocations(128, 128)
            .tolerance(1e-5)
            .check(),
    );
    assert_eq!(c.tolerance, 1e-5);
    assert!(
        c.to_string().contains("within a tolerance of 0.00001"),
        "{c}"
    );
}

/// The mean of a large value every lane shares: 1e37 times the lanes
/// summed overflows f32 (whose largest value is about 3.4e38) past 34
/// lanes, so a full subgroup of 64 or 128 sums to infinity where one of 32
/// gives about 1e37. No tolerance covers that: it is no rounding.
#[ballot::kernel]
fn overflowing_mean(#[uniform] x: f32) -> f32 {
    let v = 1.0e37 + x % 2.0;
    subgroup_f_add(v) / subgroup_size() as f32
}

#[test]
fn a_tolerance_never_takes_an_infinity_for_a_close_value() {
    let c = caught(
        overflowing_mean::portability()
            .invocations(128, 128)
            .tolerance(1e-5)
            .check(),
    );
    assert!(c.to_string().contains("inf"), "{c}");
    // The same test the oracle compares with: finite values round, the
    // rest must be the same bits.
    use ballot::sim::f32_close;
    assert!(f32_close(1.0e37, 1.000001e37, 1e-5));
    assert!(!f32_close(1.0e37, f32::INFINITY, 1e-5));
    assert!(!f32_close(f32::INFINITY, f32::NEG_INFINITY, 1e-5));
    assert!(f32_close(f32::INFINITY, f32::INFINITY, 1e-5));
    assert!(!f32_close(f32::NAN, 1.0, 1e-5));
}

#[test]
fn a_tolerance_that_is_no_number_is_refused_by_name() {
    for bad in [f32::NAN, -1.0, f32::INFINITY] {
        match float_mean::portability().tolerance(bad).check() {
            Err(PortabilityError::Option(e)) => {
                assert!(e.to_string().contains("invalid `tolerance`"), "{e}");
            }
            Err(e) => panic!("expected a setting error, got {e}"),
            Ok(c) => panic!("expected a setting error, got {c}"),
        }
    }
}

#[test]
fn elect_then_add_converged_is_portable() {
    certified(elect_then_add::portability().size_is_contract().check());
}

#[test]
fn a_subgroup_taken_for_a_workgroup_of_32_is_caught_at_the_smallest_size() {
    let c = caught(workgroup_total::portability().check());
    // The counts differ as soon as a subgroup is smaller than the input.
    assert_eq!(c.model, Model::Maximal);
    assert_eq!(c.size.get(), 1);
    assert_eq!(c.input.lanes.len(), 2, "shrunk to two invocations");
}

#[test]
fn the_leader_of_a_branch_holds_under_vulkan_only() {
    certified(
        branch_leader::portability()
            .size_is_contract()
            .models([Model::Vulkan])
            .check(),
    );
    for model in [Model::Wgsl, Model::Independent] {
        let c = caught(
            branch_leader::portability()
                .size_is_contract()
                .models([model])
                .check(),
        );
        assert_eq!(c.model, model);
        // Two lanes in the branch and one outside: the fewest that split.
        assert_eq!(c.size.get(), 4);
        assert_eq!(c.input.lanes.len(), 3);
        assert_eq!(c.trace.len(), 1);
        assert_eq!(c.trace[0].op, Op::Elect);
    }
}

#[test]
fn elect_then_add_in_a_branch_holds_under_vulkan_only() {
    certified(
        elect_in_branch::portability()
            .size_is_contract()
            .models([Model::Vulkan])
            .check(),
    );
    let c = caught(
        elect_in_branch::portability()
            .size_is_contract()
            .models([Model::Wgsl])
            .check(),
    );
    assert_eq!(c.size.get(), 4);
}

/// SPIR-V 2.2.5: "Invocations will continue to execute the same dynamic
/// instances as long as they follow the same control-flow path". The
/// lanes that did not return all skipped the `if`, by one path from the
/// entry's tangle: Vulkan keeps them together. WGSL promises a collective
/// only to the lanes the run started with.
#[test]
fn a_ballot_after_an_early_return_is_kept_whole_under_vulkan_alone() {
    certified(
        after_return::portability()
            .size_is_contract()
            .models([Model::Vulkan])
            .check(),
    );
    let c = caught(
        after_return::portability()
            .size_is_contract()
            .models([Model::Wgsl])
            .check(),
    );
    assert_eq!(c.trace[0].op, Op::Ballot);
}

/// Lanes that reach the ballot by two paths, one out of a nested `if`
/// whose other lanes returned: no rule of Vulkan's rejoins them.
#[test]
fn a_ballot_after_a_nested_return_is_caught_under_vulkan() {
    let c = caught(
        after_nested_return::portability()
            .size_is_contract()
            .models([Model::Vulkan])
            .check(),
    );
    assert_eq!(c.model, Model::Vulkan);
    assert_eq!(c.trace[0].op, Op::Ballot);
}

/// Lanes that skipped the rest of an iteration by `continue` meet the
/// others at the next: no rule of Vulkan's rejoins them (iterations may
/// interleave, section 2.2).
#[test]
fn a_ballot_after_a_continue_is_caught_under_vulkan() {
    let c = caught(
        after_continue::portability()
            .size_is_contract()
            .models([Model::Vulkan])
            .check(),
    );
    assert_eq!(c.trace[0].op, Op::Ballot);
}

#[test]
fn a_ballot_in_a_loop_with_break_is_caught_under_vulkan() {
    let c = caught(
        loop_with_break::portability()
            .size_is_contract()
            .models([Model::Vulkan])
            .check(),
    );
    assert_eq!(c.trace[0].op, Op::Ballot);
}

#[test]
fn reconverging_after_an_if_holds_except_under_independent_threads() {
    certified(
        ballot_after_if::portability()
            .size_is_contract()
            .models([Model::Vulkan, Model::Wgsl])
            .check(),
    );
    let c = caught(
        ballot_after_if::portability()
            .size_is_contract()
            .models([Model::Independent])
            .check(),
    );
    assert_eq!(c.model, Model::Independent);
}

#[test]
fn a_kernel_portable_by_construction_is_never_flagged_over_10000_schedules() {
    let c = certified(
        group_independent::portability()
            .size_is_contract()
            .cases(4)
            .check(),
    );
    assert!(c.split >= 10_000, "only {} schedules split", c.split);
}

#[test]
fn a_planted_non_portable_kernel_is_caught_under_every_seed() {
    for seed in 0..20 {
        let c = caught(
            branch_leader::portability()
                .size_is_contract()
                .models([Model::Wgsl])
                .cases(16)
                .seed(seed)
                .check(),
        );
        assert_eq!(c.size.get(), 4, "seed {seed}");
        assert_eq!(c.input.lanes.len(), 3, "seed {seed}");
    }
}

#[test]
fn invalid_settings_are_named() {
    let err = compaction_slot::portability()
        .sizes([3])
        .check()
        .unwrap_err();
    assert!(err.to_string().contains("`sizes`"), "{err}");
    let err = compaction_slot::portability()
        .reference(0)
        .check()
        .unwrap_err();
    assert!(err.to_string().contains("`reference`"), "{err}");
    let err = compaction_slot::portability().cases(0).check().unwrap_err();
    assert!(err.to_string().contains("`cases`"), "{err}");
    let err = compaction_slot::portability()
        .invocations(5, 2)
        .check()
        .unwrap_err();
    assert!(err.to_string().contains("`invocations`"), "{err}");
}

/// A kernel that never ends: every run of it, at every size, runs past the
/// step budget, so no input is inside its contract.
#[ballot::kernel]
fn never_ends(x: u32) -> u32 {
    let mut n = 0u32;
    while true {
        n = subgroup_ballot(x > 0).count();
    }
    n
}

/// What the oracle says of a check that ran no input: an error that says
/// it ran nothing and why, never a certificate.
fn not_run<S: Subject>(result: Result<Certificate, PortabilityError<S>>) -> String {
    match result {
        Err(PortabilityError::NotRun { kernel, reason }) => {
            assert_eq!(kernel, "never_ends");
            reason
        }
        Err(e) => panic!("expected a check that ran nothing, got another error: {e}"),
        Ok(c) => panic!("a kernel the oracle never ran was certified: {c}"),
    }
}

#[test]
fn a_kernel_that_never_ends_is_an_error_naming_the_step_budget_never_a_certificate() {
    // A small budget keeps each run short; the verdict is the same at any.
    let oracle = || {
        never_ends::portability()
            .step_budget(64)
            .cases(4)
            .sizes([4, 32])
    };
    // With the size in the contract, each size's own run is undefined:
    // nothing is compared, under any model.
    for model in [Model::Vulkan, Model::Wgsl, Model::Independent] {
        let reason = not_run(oracle().size_is_contract().models([model]).check());
        assert!(reason.contains("step budget of 64"), "{reason}");
        assert!(reason.contains("never ends"), "{reason}");
    }
    // Without it, the reference run is undefined on every input.
    let reason = not_run(oracle().models([]).check());
    assert!(reason.contains("reference run"), "{reason}");
    assert!(reason.contains("step budget of 64"), "{reason}");
}

/// Every lane but lane 0 broadcasts from lane 0, which is not in the
/// branch: undefined at every size of two lanes or more, on every input of
/// two invocations or more (GL_KHR_shader_subgroup_ballot: the source lane
/// must be active), defined only where the subgroup is one lane.
#[ballot::kernel]
fn broadcast_from_an_inactive_lane(v: u32) -> u32 {
    if subgroup_local_invocation_id() != 0 {
        subgroup_broadcast(v, 0)
    } else {
        0
    }
}

/// A loop of 40 trips per lane of the subgroup: the same answer at every
/// size, but 5,120 trips at 128, past the default step budget of 4,096.
#[ballot::kernel]
fn trips_grow_with_the_size(x: u32) -> u32 {
    let mut i = 0u32;
    while i < subgroup_size() * 40 {
        i += 1;
    }
    x + i - subgroup_size() * 40
}

/// The reason of a check that ran nothing at some size.
fn not_run_at<S: Subject>(result: Result<Certificate, PortabilityError<S>>) -> String {
    match result {
        Err(PortabilityError::NotRun { reason, .. }) => reason,
        Err(e) => panic!("expected a check that ran nothing, got another error: {e}"),
        Ok(c) => panic!("a size the oracle never ran was certified: {c}"),
    }
}

#[test]
fn a_size_where_no_input_ran_is_never_certified() {
    // With the size in the contract each size is compared with itself:
    // only size 1 runs, and the others are named, never certified.
    let reason = not_run_at(
        broadcast_from_an_inactive_lane::portability()
            .invocations(2, 64)
            .size_is_contract()
            .check(),
    );
    assert!(
        reason.starts_with("at subgroup sizes 2, 4, 8, 16, 32, 64, 128 no input ran")
            && reason.contains("source lane 0 is inactive"),
        "{reason}"
    );
    // Left out, the sizes it serves are checked: size 1 alone.
    certified(
        broadcast_from_an_inactive_lane::portability()
            .invocations(2, 64)
            .sizes([1])
            .size_is_contract()
            .check(),
    );
}

#[test]
fn a_run_past_the_step_budget_is_no_difference_and_a_larger_budget_checks_it() {
    // At 128 every run stops at the budget: not a difference from size
    // 32's answer, but a size not run.
    let reason = not_run_at(trips_grow_with_the_size::portability().models([]).check());
    assert!(
        reason.starts_with("at subgroup size 128 no input ran") && reason.contains("step budget"),
        "{reason}"
    );
    let c = certified(
        trips_grow_with_the_size::portability()
            .models([])
            .step_budget(1 << 13)
            .check(),
    );
    assert_eq!(c.sizes.len(), 8);
    // No model asked for: the certificate says no schedule was searched.
    let said = c.to_string();
    assert!(
        said.ends_with(
            "each compared with size 32; maximal reconvergence only, no schedule searched"
        ),
        "{said}"
    );
}
