// Shape 3 of ballot-runner/tests/shapes.rs: a function of the shader's own
// holding a ballot, called in both arms of a branch on i % 3, which
// returns early, before its ballot, where x % 4 == 1; and a copy of it,
// `whole`, called only at the top of main, where every invocation is
// active.
//
// Record at words[8 * i]: lane id, subgroup key, subgroup size, then
// what the call in this invocation's arm returned (the else arm adds
// 50000), then what `whole` returned.

struct Buffer {
    n: u32,
    counter: atomic<u32>,
    pad0: u32,
    pad1: u32,
    words: array<u32>,
}

@group(0) @binding(0) var<storage, read_write> buf: Buffer;

// 1000 + x where x % 4 == 1; otherwise the bit count of the ballot of
// bit 1 of x, times 256, plus its exclusive bit count.
fn tally(x: u32) -> u32 {
    if (x % 4u == 1u) {
        return 1000u + x;
    }
    let b = subgroupBallot((x & 2u) != 0u);
    return subgroupBallotBitCount(b) * 256u + subgroupBallotExclusiveBitCount(b);
}

fn whole(x: u32) -> u32 {
    if (x % 4u == 1u) {
        return 1000u + x;
    }
    let b = subgroupBallot((x & 2u) != 0u);
    return subgroupBallotBitCount(b) * 256u + subgroupBallotExclusiveBitCount(b);
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
    buf.words[r + 4u] = whole((i * 3u) % 11u);
    if (i % 3u != 0u) {
        buf.words[r + 3u] = tally((i * 5u) % 11u);
    } else {
        buf.words[r + 3u] = tally((i * 7u + 3u) % 11u) + 50000u;
    }
}
