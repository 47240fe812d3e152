// Shape 5 of ballot-runner/tests/shapes.rs: the rest of the subgroup family
// (arithmetic, votes, a vector shuffle) in the same divergent control flow
// as the other shapes: after a bounds guard (invocations at or past
// `buf.n` return), in both arms of a branch, and in a loop whose trip count
// differs per invocation.
//
// Record at words[8 * i]: lane id, subgroup key, subgroup size, then
// 3: subgroupAdd(i);
// 4: subgroupInclusiveAdd(i & 7), plus 1000 where i % 5 == 0 or, short of
//    that, subgroupAll(i is even) among the invocations where i % 5 != 0
//    (the vote is the right operand of `||`);
// 5: the y of a vec2<i32> shuffled from the first active lane, as bits;
// 6: subgroupMax(i) where i % 3 != 0, else the bits of subgroupAdd(f32(i));
// 7: acc = acc * 7 + subgroupAdd(k + 1), plus 100 where subgroupAll(i is
//    odd), per iteration k < i % 4.

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
    if (i >= buf.n) {
        return;
    }
    buf.words[r + 3u] = subgroupAdd(i);
    var scan = subgroupInclusiveAdd(i & 7u);
    if ((i % 5u == 0u) || subgroupAll((i & 1u) == 0u)) {
        scan += 1000u;
    }
    buf.words[r + 4u] = scan;
    let first = subgroupBallotFindLSB(subgroupBallot(true));
    let pair = subgroupShuffle(vec2<i32>(i32(i), -i32(i)), i32(first));
    buf.words[r + 5u] = bitcast<u32>(pair.y);
    if (i % 3u != 0u) {
        buf.words[r + 6u] = subgroupMax(i);
    } else {
        buf.words[r + 6u] = bitcast<u32>(subgroupAdd(f32(i)));
    }
    var acc = 0u;
    for (var k = 0u; k < i % 4u; k++) {
        acc = acc * 7u + subgroupAdd(k + 1u);
        if (subgroupAll((i & 1u) == 1u)) {
            acc += 100u;
        }
    }
    buf.words[r + 7u] = acc;
}
