@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let kept = subgroupBallot(id.x % 2u == 0u);
    out[id.x] = subgroupBallotBitCount(kept) +;
}
