// Shape 1 of ballot-runner/tests/shapes.rs: a bounds guard, then a ballot.
// Invocations at or past `buf.n` (109 of 128: the second workgroup of 64
// is partly active, and 109 is no multiple of 8) return before the ballot.
//
// Each invocation writes an 8-word record at words[8 * i]: its lane id,
// its subgroup's key (the first active lane's local index, taken while
// every invocation is active), the subgroup size, then what the shape
// computes: the bit count, exclusive bit count and FindLSB of the ballot
// of `keep` (0xfffffffe for FindLSB of an empty ballot).

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
    if (i >= buf.n) {
        return;
    }
    let kept = subgroupBallot(keep(i));
    let count = subgroupBallotBitCount(kept);
    buf.words[r + 3u] = count;
    buf.words[r + 4u] = subgroupBallotExclusiveBitCount(kept);
    var lsb = 0xfffffffeu;
    if (count > 0u) {
        lsb = subgroupBallotFindLSB(kept);
    }
    buf.words[r + 5u] = lsb;
}
