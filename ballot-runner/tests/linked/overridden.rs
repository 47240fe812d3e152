//! A WGSL shader whose workgroup size the pipeline overrides
//! (`@workgroup_size(BLOCK)` with `override BLOCK: u32`), linked for
//! `wgsl-no-subgroup` at virtual sizes 4 to 32 and run at several sizes on
//! wgpu's Vulkan adapter and, where it is installed, on Dawn.
//!
//! The emulation declares its exchange memory's sizes as overrides of the
//! entry point's `@workgroup_size` arguments, and sizes its workgroup
//! arrays by them, so one linked text serves every size the pipeline
//! gives. Each size is given as the override's default in the linked
//! text: the value the pipeline takes where it is given no constant, and
//! the same override-expression evaluation at pipeline creation as a
//! constant the pipeline sets.
//!
//! Invocations below `min(45, size)` write the count of even invocations
//! among their virtual subgroup's active members (a ballot), the sum of
//! their indices (`subgroupAdd`), and `num_subgroups`; the others return
//! first: the words of `specialised.rs`' GLSL shader, whose answers and
//! checks these runs share. The hardware `wgsl` target runs the default size too. A second
//! shader's workgroup is two-dimensional, `@workgroup_size(WIDTH, 2)`.
//! Both have a workgroup array of their own, sized by an override that
//! naga reads after the emulation's: its pipeline-constant pass panicked
//! on such a module while the emulation's arrays were sized by
//! override-expressions (unnamed overrides) rather than by names.
//!
//! Without an adapter the tests say why and pass, unless
//! `BALLOT_REQUIRE_GPU=1`.

use ballot_runner::dawn::{Dawn, StorageJob};
use ballot_runner::Gpu;
use ballot_shader::back::Target;

use crate::common::{loud, required, skip};
use crate::specialised::{assert_none, linked_for_the_pipeline, mismatches};

/// This file's name, as the linker is told it.
const PATH: &str = "overridden.wgsl";

const WGSL: &str = "override BLOCK: u32 = 64u;
@group(0) @binding(0) var<storage, read_write> words: array<u32>;
var<workgroup> scratch: array<u32, LENGTH>;
override LENGTH: u32 = 4u;
@compute @workgroup_size(BLOCK)
fn main(@builtin(local_invocation_index) i: u32, @builtin(num_subgroups) n: u32) {
    scratch[i % LENGTH] = i;
    if (i >= 45u) { return; }
    let even = subgroupBallotBitCount(subgroupBallot((i & 1u) == 0u));
    let sum = subgroupAdd(i);
    words[i * 3u] = even;
    words[i * 3u + 1u] = sum;
    words[i * 3u + 2u] = n;
}
";

/// The override's declaration, whose default each run replaces.
const BLOCK: &str = "override BLOCK: u32 = 64u;";

/// The same in a workgroup of `WIDTH` by 2.
fn two_dimensional() -> String {
    WGSL.replace(BLOCK, "override WIDTH: i32 = 32;")
        .replace("@workgroup_size(BLOCK)", "@workgroup_size(WIDTH, 2)")
}

/// One linked text's run: the target, the virtual (or hardware) subgroup
/// size, the invocations per workgroup, and the text with the override's
/// default set to give them.
struct Run {
    target: Target,
    v: u32,
    size: u32,
    text: String,
}

#[test]
fn one_linked_text_serves_every_workgroup_size_the_pipeline_overrides() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("overridden workgroup", &e.to_string()),
    };
    let two = two_dimensional();
    let mut runs = Vec::new();
    let emulated = Target::WgslNoSubgroup;
    if gpu.unsupported(emulated).is_none() {
        for v in [4, 8, 16, 32] {
            let text = linked_for_the_pipeline((WGSL, PATH), BLOCK, emulated, v);
            // Whole subgroups, a ragged last one, and fewer invocations
            // than the default, down to fewer than one virtual subgroup.
            for size in [64, 40, 37, 32, 16, 5] {
                let text = text.replace(BLOCK, &format!("override BLOCK: u32 = {size}u;"));
                runs.push(Run {
                    target: emulated,
                    v,
                    size,
                    text,
                });
            }
            let declaration = "override WIDTH: i32 = 32;";
            let text = linked_for_the_pipeline((&two, PATH), declaration, emulated, v);
            for width in [32, 20, 3] {
                let text = text.replace(declaration, &format!("override WIDTH: i32 = {width};"));
                runs.push(Run {
                    target: emulated,
                    v,
                    size: 2 * width,
                    text,
                });
            }
        }
    }
    let info = gpu.info();
    if gpu.unsupported(Target::Wgsl).is_none() && info.subgroup_min_size == info.subgroup_max_size {
        let v = info.subgroup_min_size;
        runs.push(Run {
            target: Target::Wgsl,
            v,
            size: 64,
            text: linked_for_the_pipeline((WGSL, PATH), BLOCK, Target::Wgsl, v),
        });
    }
    if runs.is_empty() {
        if required() {
            panic!("overridden workgroup: no WGSL target runs on this adapter");
        }
        loud("overridden workgroup: no WGSL target runs on this adapter: skipped");
        return;
    }
    let mut failures = Vec::new();
    for run in &runs {
        let got = gpu
            .run_storage(run.target, &run.text, [run.size, 1, 1], [1, 1, 1], 64 * 3)
            .unwrap_or_else(|e| {
                panic!(
                    "{}, size {}, workgroup {}: {e}",
                    run.target, run.v, run.size
                )
            });
        failures.extend(mismatches("wgpu", (run.target, run.v, run.size), &got));
    }
    // Dawn (Tint) reads the overrides and their arrays itself.
    match Dawn::find() {
        Ok(dawn) => {
            let emulated: Vec<&Run> = runs.iter().filter(|r| r.target == emulated).collect();
            let jobs: Vec<StorageJob> = emulated
                .iter()
                .map(|run| StorageJob {
                    name: format!("size {}, workgroup {}", run.v, run.size),
                    target: run.target,
                    shader: run.text.clone(),
                    workgroups: [1, 1, 1],
                    words: 64 * 3,
                })
                .collect();
            let results = dawn.run_storage(&jobs).expect("Dawn runs");
            for (run, got) in emulated.into_iter().zip(results) {
                let got = got.unwrap_or_else(|e| {
                    panic!("Dawn, size {}, workgroup {}: {e}", run.v, run.size)
                });
                failures.extend(mismatches("Dawn", (run.target, run.v, run.size), &got));
            }
        }
        Err(why) => loud(&format!(
            "overridden workgroup: no Dawn ({why}): wgpu alone"
        )),
    }
    assert_none(&failures);
}

/// The same body in three entry points of constant sizes: 64 (`main`), 40
/// (`other`, whose last virtual subgroup is ragged at 16 and 32) and 4
/// (`tiny`, under most virtual sizes, which calls no collective).
const ENTRIES: &str = "@group(0) @binding(0) var<storage, read_write> words: array<u32>;
fn body(i: u32, n: u32) {
    if (i >= 45u) { return; }
    let even = subgroupBallotBitCount(subgroupBallot((i & 1u) == 0u));
    let sum = subgroupAdd(i);
    words[i * 3u] = even;
    words[i * 3u + 1u] = sum;
    words[i * 3u + 2u] = n;
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32, @builtin(num_subgroups) n: u32) {
    body(i, n);
}
@compute @workgroup_size(40)
fn other(@builtin(local_invocation_index) i: u32, @builtin(num_subgroups) n: u32) {
    body(i, n);
}
@compute @workgroup_size(4)
fn tiny(@builtin(local_invocation_index) i: u32) {
    words[i] = 7u;
}
";

/// Entry points of different constant sizes share one emulation: its
/// exchange memory is laid out for the largest, and each entry point sets
/// its own invocation count before its init. The runners dispatch the
/// entry point `main`, so `other` runs as the same linked text with the
/// two names swapped.
#[test]
fn entry_points_of_different_sizes_each_get_their_own_count() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("entry points of different sizes", &e.to_string()),
    };
    let target = Target::WgslNoSubgroup;
    if let Some(why) = gpu.unsupported(target) {
        if required() {
            panic!("entry points of different sizes: {why}");
        }
        loud(&format!("entry points of different sizes: skipped: {why}"));
        return;
    }
    let mut runs = Vec::new();
    for v in [4, 8, 16, 32] {
        let linked = ballot_naga::link::link(
            ENTRIES,
            "entries.wgsl",
            target,
            &ballot_naga::link::LinkOptions::default().subgroup_size(v),
        )
        .unwrap_or_else(|e| panic!("size {v}: {e}"));
        assert_eq!(
            linked.workgroup_size, None,
            "the sizes are each entry point's"
        );
        let swapped = linked
            .text
            .replace("fn main(", "fn ballot_swap(")
            .replace("fn other(", "fn main(")
            .replace("fn ballot_swap(", "fn other(");
        runs.push(Run {
            target,
            v,
            size: 64,
            text: linked.text,
        });
        runs.push(Run {
            target,
            v,
            size: 40,
            text: swapped,
        });
    }
    let mut failures = Vec::new();
    for run in &runs {
        let got = gpu
            .run_storage(run.target, &run.text, [run.size, 1, 1], [1, 1, 1], 64 * 3)
            .unwrap_or_else(|e| panic!("size {}, workgroup {}: {e}", run.v, run.size));
        failures.extend(mismatches("wgpu", (run.target, run.v, run.size), &got));
    }
    assert_none(&failures);
}
