// Shape 4 of ballot-runner/tests/shapes.rs: stream compaction as Khronos'
// subgroup tutorial writes it, inside a branch: the kept invocations of
// a subgroup count themselves, one of them (subgroupElect) reserves that
// many slots with an atomicAdd, the base is broadcast, and each writes its
// index at base + its exclusive bit count.
// The count is taken by every kept invocation, before the elect: a ballot
// inside `if (subgroupElect())` would see the elected invocation alone.
//
// Record at words[8 * i]: lane id, subgroup key, subgroup size, then (kept
// invocations only) the slot written. The slots are words[1024 + slot].

struct Buffer {
    n: u32,
    counter: atomic<u32>,
    pad0: u32,
    pad1: u32,
    words: array<u32>,
}

@group(0) @binding(0) var<storage, read_write> buf: Buffer;

fn keep(i: u32) -> bool {
    return (i % 3u == 0u) || (((i * 2654435761u) >> 28u) & 1u) == 1u;
}

@compute @workgroup_size(64)
fn main(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) size: u32,
) {
    let i = id.x;
    let r = 8u * i;
    buf.words[r] = lane;
    buf.words[r + 1u] = subgroupBroadcastFirst(local);
    buf.words[r + 2u] = size;
    if (keep(i)) {
        let everyone = subgroupBallot(true);
        let count = subgroupBallotBitCount(everyone);
        var base = 0u;
        if (subgroupElect()) {
            base = atomicAdd(&buf.counter, count);
        }
        base = subgroupBroadcastFirst(base);
        let slot = base + subgroupBallotExclusiveBitCount(everyone);
        buf.words[1024u + slot] = i;
        buf.words[r + 3u] = slot;
    }
}
