//! A WGSL kernel written for browsers as gridwise's generated kernels are:
//! a block comment before `enable subgroups;`, a struct of built-ins that
//! no entry point takes, and `@diagnostic(off, subgroup_uniformity)` on
//! the statement around a subgroup call that the uniformity analysis
//! cannot prove uniform. Linked for `wgsl-web` (kept for the browser) and
//! run on Dawn, and for `wgsl-no-subgroup` at virtual sizes 4 to 32 (the
//! attribute and the struct's subgroup built-in gone) and run on wgpu's
//! Vulkan adapter and Dawn.
//!
//! Invocations below 32 write `subgroupAdd(1u)` and the subgroup size;
//! the branch holds whole subgroups (every size divides 32), so every lane
//! of each is active and the sum is the size. The others write nothing.
//!
//! Without an adapter, or without Dawn (Node's `webgpu` package), the
//! test says why and passes, unless `BALLOT_REQUIRE_GPU=1`.

use ballot_naga::link::{link, LinkOptions};
use ballot_runner::dawn::{Dawn, StorageJob};
use ballot_runner::job::UNWRITTEN;
use ballot_runner::Gpu;
use ballot_shader::back::Target;

use crate::common::{loud, required, skip};

const WGSL: &str = "/* Generated: the scan's subgroup calls
 * are in uniform control flow the analysis cannot see. */
enable subgroups;
struct Builtins {
    @builtin(local_invocation_index) lidx: u32,
    @builtin(subgroup_invocation_id) sgid: u32,
}
@group(0) @binding(0) var<storage, read_write> words: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32, @builtin(subgroup_size) size: u32) {
    @diagnostic(off, subgroup_uniformity)
    if (i < 32u) {
        words[i * 2u] = subgroupAdd(1u);
        words[i * 2u + 1u] = size;
    }
}
";

/// What the run read back is wrong in, at the virtual size `v` (`None`:
/// the device's, whatever it is).
fn wrong(got: &[u32], v: Option<u32>) -> Option<String> {
    for i in 0..64usize {
        let (sum, size) = (got[2 * i], got[2 * i + 1]);
        let expected = if i < 32 {
            let size_ok = v.map_or(size.is_power_of_two() && size <= 32, |v| size == v);
            if size_ok && sum == size {
                continue;
            }
            format!("the sum and the size equal, the size {v:?}")
        } else if sum == UNWRITTEN && size == UNWRITTEN {
            continue;
        } else {
            "nothing".to_string()
        };
        return Some(format!(
            "invocation {i}: [{sum}, {size}], expected {expected}"
        ));
    }
    None
}

#[test]
fn a_browser_s_kernel_links_and_runs_on_dawn_and_without_subgroups() {
    let mut failures = Vec::new();
    let mut jobs = Vec::new();
    let web = link(WGSL, "web.wgsl", Target::WgslWeb, &LinkOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(web
        .text
        .contains("@diagnostic(off, subgroup_uniformity)\n    if"));
    jobs.push((None, Target::WgslWeb, web.text));
    for v in [4, 8, 16, 32] {
        let linked = link(
            WGSL,
            "web.wgsl",
            Target::WgslNoSubgroup,
            &LinkOptions::default().subgroup_size(v),
        )
        .unwrap_or_else(|e| panic!("size {v}: {e}"));
        assert!(!linked.text.contains("@diagnostic"), "{}", linked.text);
        assert!(
            !linked.text.contains("subgroup_invocation_id"),
            "{}",
            linked.text
        );
        jobs.push((Some(v), Target::WgslNoSubgroup, linked.text));
    }
    match Gpu::new() {
        Ok(gpu) => {
            for (v, target, text) in jobs.iter().filter(|j| j.1 == Target::WgslNoSubgroup) {
                let got = gpu
                    .run_storage(*target, text, [64, 1, 1], [1, 1, 1], 128)
                    .unwrap_or_else(|e| panic!("wgpu, size {v:?}: {e}"));
                failures.extend(wrong(&got, *v).map(|w| format!("wgpu, size {v:?}: {w}")));
            }
        }
        Err(e) => skip("a browser's kernel on wgpu", &e.to_string()),
    }
    match Dawn::find() {
        Ok(dawn) => {
            let storage: Vec<StorageJob> = jobs
                .iter()
                .map(|(v, target, text)| StorageJob {
                    name: format!("{target}, size {v:?}"),
                    target: *target,
                    shader: text.clone(),
                    workgroups: [1, 1, 1],
                    words: 128,
                })
                .collect();
            let results = dawn.run_storage(&storage).expect("Dawn runs");
            for ((v, target, _), got) in jobs.iter().zip(results) {
                match got {
                    Ok(got) => failures.extend(
                        wrong(&got, *v).map(|w| format!("Dawn, {target}, size {v:?}: {w}")),
                    ),
                    Err(e) => failures.push(format!("Dawn, {target}, size {v:?}: {e}")),
                }
            }
        }
        Err(why) if required() => panic!("no Dawn: {why}"),
        Err(why) => loud(&format!(
            "a browser's kernel: no Dawn ({why}): skipped there"
        )),
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
