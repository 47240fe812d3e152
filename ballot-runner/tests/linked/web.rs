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
    failures.extend(run_everywhere(
        "a browser's kernel",
        &jobs,
        [64, 1, 1],
        128,
        wrong,
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A workgroup of 8 × 8 whose entry point takes `subgroup_invocation_id`,
/// as the WebGPU CTS's subgroup tests do. WGSL and the browsers take it;
/// naga 30 does not, so `wgsl` refuses it with a note that says so.
const SQUARE: &str = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> words: array<u32>;
@compute @workgroup_size(8, 8, 1)
fn main(@builtin(local_invocation_index) i: u32,
        @builtin(subgroup_invocation_id) id: u32,
        @builtin(subgroup_size) size: u32) {
    words[i * 3u] = subgroupAdd(id);
    words[i * 3u + 1u] = id;
    words[i * 3u + 2u] = subgroupBallotExclusiveBitCount(subgroupBallot(true));
}
";

/// What the run of [`SQUARE`] read back is wrong in, at the virtual size
/// `v` (`None`: the device's). Every subgroup is full (each size divides
/// 64), so each lane's sum is 0 + 1 + … + (size - 1), and the lanes
/// below it in the ballot of every lane are as many as its id; the
/// emulation's lane is the local invocation index modulo the size
/// (DESIGN.md).
fn square_wrong(got: &[u32], v: Option<u32>) -> Option<String> {
    let ids: Vec<u32> = (0..64).map(|i| got[3 * i + 1]).collect();
    // The device's size: one more than the largest lane id, on every
    // device whose subgroups are full.
    let size = v.unwrap_or_else(|| ids.iter().max().map_or(0, |m| m + 1));
    for (i, &id) in ids.iter().enumerate() {
        let (sum, below) = (got[3 * i], got[3 * i + 2]);
        let lane_ok = v.map_or(id < size, |v| id == i as u32 % v);
        if !lane_ok || sum != size * (size - 1) / 2 || below != id {
            return Some(format!(
                "invocation {i}: sum {sum}, lane {id}, lanes below {below}; expected the sum {}, \
                 the lanes below the lane, and the lane {}",
                size * (size - 1) / 2,
                v.map_or("below the size".to_string(), |v| (i as u32 % v).to_string())
            ));
        }
    }
    None
}

#[test]
fn a_square_workgroup_s_subgroup_lanes_link_for_browsers_and_without_subgroups() {
    let options = LinkOptions::default();
    let e = link(SQUARE, "square.wgsl", Target::Wgsl, &options).unwrap_err();
    assert!(
        e.notes.iter().any(|n| n.contains("wgsl-web")),
        "the refusal names the targets that take it: {e}"
    );
    let web =
        link(SQUARE, "square.wgsl", Target::WgslWeb, &options).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        web.text.contains("@workgroup_size(8, 8, 1)"),
        "{}",
        web.text
    );
    let mut jobs = vec![(None, Target::WgslWeb, web.text)];
    for v in [4, 8, 16, 32] {
        let linked = link(
            SQUARE,
            "square.wgsl",
            Target::WgslNoSubgroup,
            &options.clone().subgroup_size(v),
        )
        .unwrap_or_else(|e| panic!("size {v}: {e}"));
        assert!(
            !linked.text.contains("subgroup_invocation_id"),
            "{}",
            linked.text
        );
        jobs.push((Some(v), Target::WgslNoSubgroup, linked.text));
    }
    let failures = run_everywhere("a square workgroup", &jobs, [8, 8, 1], 192, square_wrong);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A linked text, the virtual size it was linked at (`None`: the
/// device's), and its target.
type Job = (Option<u32>, Target, String);

/// Runs each of `jobs` in one workgroup of `size` over `words` words:
/// the emulated ones on wgpu's adapter, and all of them on Dawn; what
/// `wrong` finds in each, named by where it ran. Without an adapter or
/// Dawn, says so (Dawn is required under `BALLOT_REQUIRE_GPU=1`).
fn run_everywhere(
    what: &str,
    jobs: &[Job],
    size: [u32; 3],
    words: usize,
    wrong: fn(&[u32], Option<u32>) -> Option<String>,
) -> Vec<String> {
    let mut failures = Vec::new();
    match Gpu::new() {
        Ok(gpu) => {
            for (v, target, text) in jobs.iter().filter(|j| j.1 == Target::WgslNoSubgroup) {
                let got = gpu
                    .run_storage(*target, text, size, [1, 1, 1], words)
                    .unwrap_or_else(|e| panic!("wgpu, size {v:?}: {e}"));
                failures.extend(wrong(&got, *v).map(|w| format!("wgpu, size {v:?}: {w}")));
            }
        }
        Err(e) => skip(&format!("{what} on wgpu"), &e.to_string()),
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
                    words,
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
        Err(why) => loud(&format!("{what}: no Dawn ({why}): skipped there")),
    }
    failures
}
