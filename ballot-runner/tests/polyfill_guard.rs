//! The polyfill libraries' workgroup contract, broken on purpose: a library
//! written for a workgroup of 64 invocations, in a shader whose workgroup
//! has 96 (`ballot_naga::polyfill::self_test_in`). The misuse must be loud:
//! the 32 invocations past the declared workgroup get the documented
//! failure values from every operation, and the 64 within it the same
//! records as in a workgroup of the declared size. Before the guard, the
//! extra invocations' writes were clamped onto the last declared slot,
//! and the answers were silently wrong.
//!
//! Run on wgpu's Vulkan adapter (`glsl-no-subgroup` and `wgsl-no-subgroup`)
//! and on Dawn/Tint (`wgsl-no-subgroup`). Without either the tests say why
//! on stderr and pass, unless `BALLOT_REQUIRE_GPU=1`.

use ballot_naga::polyfill::{self, PolyfillOptions, SELF_TEST_RECORDS};
use ballot_runner::dawn::{Dawn, StorageJob};
use ballot_runner::Gpu;
use ballot_shader::back::Target;

mod common;

use common::{loud, required, skip};

const R: usize = SELF_TEST_RECORDS as usize;
const DECLARED: u32 = 64;
const ACTUAL: u32 = 96;
const ALL_ONES: [u32; 4] = [u32::MAX; 4];

fn options() -> PolyfillOptions {
    PolyfillOptions {
        subgroup_size: 32,
        workgroup_size: [DECLARED, 1, 1],
    }
}

fn words(invocations: u32) -> usize {
    invocations as usize * R * 4
}

/// The record `r` of invocation `g`.
fn record(words: &[u32], g: usize, r: usize) -> &[u32] {
    let at = (g * R + r) * 4;
    &words[at..at + 4]
}

/// `misused`: the self-test in a workgroup of ACTUAL; `reference`: in one of
/// DECLARED.
fn check(what: &str, misused: &[u32], reference: &[u32]) {
    for g in 0..DECLARED as usize {
        for r in 0..R {
            assert_eq!(
                record(misused, g, r),
                record(reference, g, r),
                "{what}: invocation {g} (within the declared workgroup), record {r}"
            );
        }
    }
    for g in DECLARED as usize..ACTUAL as usize {
        let rec = |r| record(misused, g, r);
        // Ballot, the masks: all bits set.
        for r in [0, 3, 4, 5, 6, 7] {
            assert_eq!(rec(r), ALL_ONES, "{what}: invocation {g}, record {r}");
        }
        // The counts and FindLSB; FindMSB; the booleans BitExtract,
        // InverseBallot and Elect; the broadcasts.
        assert_eq!(rec(1), ALL_ONES, "{what}: invocation {g}, record 1");
        assert_eq!(
            rec(2),
            [u32::MAX, 0, 0, 0],
            "{what}: invocation {g}, record 2"
        );
        assert_eq!(
            &rec(8)[..2],
            [u32::MAX; 2],
            "{what}: invocation {g}, record 8"
        );
    }
    loud(&format!(
        "{what}: the {} invocations past the declared {DECLARED} get the failure values; \
         the {DECLARED} within it agree with a workgroup of {DECLARED}",
        ACTUAL - DECLARED
    ));
}

fn shaders(target: Target) -> (String, String) {
    let misused = polyfill::self_test_in(target, &options(), [ACTUAL, 1, 1]).unwrap();
    let reference = polyfill::self_test(target, &options()).unwrap();
    (misused, reference)
}

#[test]
fn a_larger_workgroup_fails_loudly_on_vulkan() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("the polyfill guard on Vulkan", &e.to_string()),
    };
    for target in [Target::WgslNoSubgroup, Target::GlslNoSubgroup] {
        let what = format!(
            "{target} library of {DECLARED} in {ACTUAL} on {}",
            gpu.describe()
        );
        if let Some(why) = gpu.unsupported(target) {
            skip(&what, &why);
            continue;
        }
        let (misused, reference) = shaders(target);
        let run = |text: &str, n: u32| {
            gpu.run_storage(target, text, [n, 1, 1], [1, 1, 1], words(n))
                .unwrap_or_else(|e| panic!("{what}: {e}"))
        };
        check(&what, &run(&misused, ACTUAL), &run(&reference, DECLARED));
    }
}

#[test]
fn a_larger_workgroup_fails_loudly_on_dawn() {
    let dawn = match Dawn::find() {
        Ok(dawn) => dawn,
        Err(why) => return skip("the polyfill guard on Dawn", &why),
    };
    let target = Target::WgslNoSubgroup;
    let (misused, reference) = shaders(target);
    let job = |name: &str, shader: String, n: u32| StorageJob {
        name: name.to_string(),
        target,
        shader,
        workgroups: [1, 1, 1],
        words: words(n),
    };
    let jobs = [
        job("misused", misused, ACTUAL),
        job("reference", reference, DECLARED),
    ];
    let results = match dawn.run_storage(&jobs) {
        Ok(results) => results,
        Err(e) if !required() && e.to_string().contains("no Vulkan adapter") => {
            return skip("the polyfill guard on Dawn", &e.to_string())
        }
        Err(e) => panic!("{e}"),
    };
    let mut results = results
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")));
    let (misused, reference) = (results.next().unwrap(), results.next().unwrap());
    check(
        &format!("{target} library of {DECLARED} in {ACTUAL} on Dawn"),
        &misused,
        &reference,
    );
}
