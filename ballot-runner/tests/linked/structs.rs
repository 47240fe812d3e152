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
