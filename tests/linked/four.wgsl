// A hand-written shader for hardware subgroups that calls four ballot
// helpers WGSL lacks. `ballot::include_wgsl!` links it for every WGSL
// target (tests/include.rs, ballot-runner/tests/include_wgsl.rs).
//
// Each invocation writes two records: the four results, then its lane id
// and subgroup size.

@group(0) @binding(0) var<storage, read_write> records: array<vec4<u32>>;

// Whether invocation `i` is kept: every third one, and those a hash picks.
fn keep(i: u32) -> bool {
    return (i % 3u == 0u) || (((i * 2654435761u) >> 28u) & 1u) == 1u;
}

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) size: u32,
) {
    let kept = subgroupBallot(keep(id.x));
    records[2u * id.x] = vec4<u32>(
        subgroupBallotBitCount(kept),
        subgroupBallotExclusiveBitCount(kept),
        subgroupBallotFindLSB(kept),
        select(0u, 1u, subgroupBallotBitExtract(kept, 3u)),
    );
    records[2u * id.x + 1u] = vec4<u32>(lane, size, 0u, 0u);
}
