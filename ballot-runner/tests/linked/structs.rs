//! A WGSL entry point whose struct parameter holds only subgroup
//! built-ins (wgpu's own subgroup test shader declares one), linked for
//! `wgsl-no-subgroup` at virtual sizes 4 to 32 (and for `wgsl` at the
//! adapter's size) and run on the Vulkan adapter.
//!
//! The emulation supplies both members, so the struct would be left
//! empty, which is no WGSL: it keeps a built-in the entry point does not
//! read. Each invocation writes its subgroup's size, its lane, and the sum
//! of its subgroup's lanes (`subgroupAdd`), which in subgroups of `v` full
//! ones (64 invocations) is v(v - 1) / 2.
//!
//! A second shader passes its structs of built-ins on, by value, to a
//! function that reads their subgroup members (gridwise's kernels do):
//! the emulation takes those members from the struct, so the function's
//! reads of them become the emulated values too. Its invocations below 40
//! write the same three words from there, the others nothing.
//!
//! Without an adapter the test says why and passes, unless
//! `BALLOT_REQUIRE_GPU=1`.

use ballot_shader::back::Target;

use crate::common::assert_linked_agree;

const WGSL: &str = "struct Sg {
    @builtin(subgroup_size) size: u32,
    @builtin(subgroup_invocation_id) lane: u32,
}
@group(0) @binding(0) var<storage, read_write> words: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32, sg: Sg) {
    words[i * 3u] = sg.size;
    words[i * 3u + 1u] = sg.lane;
    words[i * 3u + 2u] = subgroupAdd(sg.lane);
}
";

/// The words invocation `i` writes in subgroups of `v` (module docs).
fn expected(i: u32, v: u32) -> [u32; 3] {
    [v, i % v, v * (v - 1) / 2]
}

#[test]
fn a_struct_of_subgroup_built_ins_only_links_and_reads_the_emulation() {
    assert_linked_agree(
        "struct of subgroup built-ins",
        (WGSL, "structs.wgsl"),
        [Target::WgslNoSubgroup, Target::Wgsl],
        64,
        expected,
    );
}

const PASSED_ON: &str = "struct Uniform {
    @builtin(workgroup_id) group: vec3u,
    @builtin(subgroup_size) size: u32,
}
struct Nonuniform {
    @builtin(local_invocation_index) lidx: u32,
    @builtin(subgroup_invocation_id) lane: u32,
}
@group(0) @binding(0) var<storage, read_write> words: array<u32>;
fn work(u: Uniform, n: Nonuniform) {
    let i = n.lidx;
    words[i * 3u] = u.size;
    words[i * 3u + 1u] = n.lane;
    words[i * 3u + 2u] = subgroupAdd(n.lane) + u.group.x;
}
@compute @workgroup_size(64)
fn main(u: Uniform, n: Nonuniform) {
    if (n.lidx < 40u) {
        work(u, n);
    }
}
";

/// The words invocation `i` writes in subgroups of `v`: the branch holds
/// the first 40, so the subgroup from 40 down has its lanes below 40.
fn expected_passed_on(i: u32, v: u32) -> [u32; 3] {
    if i >= 40 {
        return [ballot_runner::job::UNWRITTEN; 3];
    }
    let base = i - i % v;
    let lanes: u32 = (base..(base + v).min(40)).map(|j| j % v).sum();
    [v, i % v, lanes]
}

#[test]
fn structs_passed_on_to_a_function_read_the_emulation_there() {
    assert_linked_agree(
        "structs of built-ins passed on",
        (PASSED_ON, "passed_on.wgsl"),
        [Target::WgslNoSubgroup, Target::Wgsl],
        64,
        expected_passed_on,
    );
}
