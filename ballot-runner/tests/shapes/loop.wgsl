// Shape 2 of ballot-runner/tests/shapes.rs: a ballot in a loop whose trip
// count differs per invocation (i % 5), with a `continue` before the
// ballot (iteration 1, even invocations) and a `break` after it
// (iteration 2, multiples of 3).
//
// Record at words[8 * i]: lane id, subgroup key, subgroup size, then
// `acc` (acc * 67 + the bit count of ballot(true), per iteration that
// reaches it) and `acc2` (the sum of (k + 1) * its exclusive bit count).

struct Buffer {
    n: u32,
    counter: atomic<u32>,
    pad0: u32,
    pad1: u32,
    words: array<u32>,
}

@group(0) @binding(0) var<storage, read_write> buf: Buffer;

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
    let trips = i % 5u;
    var acc = 0u;
    var acc2 = 0u;
    for (var k = 0u; k < trips; k = k + 1u) {
        if (k == 1u && (i & 1u) == 0u) {
            continue;
        }
        let everyone = subgroupBallot(true);
        acc = acc * 67u + subgroupBallotBitCount(everyone);
        acc2 = acc2 + (k + 1u) * subgroupBallotExclusiveBitCount(everyone);
        if (k == 2u && i % 3u == 0u) {
            break;
        }
    }
    buf.words[r + 3u] = acc;
    buf.words[r + 4u] = acc2;
}
