// A compute shader for kernel `clustered`, target `wgsl`, written by ballot.
// Where the spec leaves a result undefined, these functions return a
// documented value: FindLSB / FindMSB with no bit below the subgroup size
// give 0xffffffffu, and BitExtract at or above the size gives false.

// The invocation's lane id and its subgroup's size. WGSL has them only as
// entry-point built-ins, so ballot_init keeps them for the functions below.
var<private> ballot_lane: u32;
var<private> ballot_size: u32;

// Call once at the top of the entry point, with @builtin(subgroup_invocation_id)
// and @builtin(subgroup_size).
fn ballot_init(subgroup_invocation_id: u32, subgroup_size: u32) {
    ballot_lane = subgroup_invocation_id;
    ballot_size = subgroup_size;
}

// Rust's `f32 as u32`: saturating, NaN to 0. WGSL's u32() clamps within f32
// (to 4294967040u at most), so the top is chosen apart; NaN is tested on the
// bits, which no fast-math compiler folds away.
fn ballot_f32_to_u32(x: f32) -> u32 {
    let nan = ((bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u);
    return select(select(u32(x), 4294967295u, (x >= 4294967296.0f)), 0u, nan);
}

// How many lanes are active, where they are lanes 0..count (every lane of a
// full subgroup, or of a ragged one); 0 where they are not, as no count is:
// the caller is one of them.
fn ballot_prefix_count(lanes: vec4<u32>) -> u32 {
    let counts = countOneBits(lanes);
    let count = ((counts.x + counts.y) + (counts.z + counts.w));
    // The bits of lanes 0..count, word by word.
    let low = vec4<u32>(0u, 32u, 64u, 96u);
    let bits = min((max(vec4<u32>(count), low) - low), vec4<u32>(32u));
    let prefix = select(((vec4<u32>(1u) << (bits & vec4<u32>(31u))) - vec4<u32>(1u)), vec4<u32>(0xffffffffu), (bits == vec4<u32>(32u)));
    return select(0u, count, all((lanes == prefix)));
}

// The lowest lane of the ballot *lanes (one bit at least), and its bit
// cleared: a walk over the active lanes, lowest first.
fn ballot_take_lowest(lanes: ptr<function, vec4<u32>>) -> u32 {
    let m = *lanes;
    let t = firstTrailingBit(m);
    var lane = (96u + t.w);
    lane = select(lane, (64u + t.z), (m.z != 0u));
    lane = select(lane, (32u + t.y), (m.y != 0u));
    lane = select(lane, t.x, (m.x != 0u));
    (*lanes)[(lane >> 5u)] = ((*lanes)[(lane >> 5u)] & ~(1u << (lane & 31u)));
    return lane;
}

// subgroupShuffle(value, lane) of the first `words` words of value; the
// others are 0.
fn ballot_shuffle_words(value: vec4<u32>, lane: u32, words: u32) -> vec4<u32> {
    if (words == 1u) {
        return vec4<u32>(subgroupShuffle(value.x, lane), 0u, 0u, 0u);
    }
    if (words == 2u) {
        return vec4<u32>(subgroupShuffle(value.xy, lane), 0u, 0u);
    }
    if (words == 3u) {
        return vec4<u32>(subgroupShuffle(value.xyz, lane), 0u);
    }
    return subgroupShuffle(value, lane);
}

// The identity of arithmetic operation op (0 IAdd, 1 FAdd, 2 IMul, 3 FMul,
// 4 SMin, 5 UMin, 6 FMin, 7 SMax, 8 UMax, 9 FMax, 10 And, 11 Or, 12 Xor), in
// every word: the result over no lane.
fn ballot_identity(op: u32) -> vec4<u32> {
    switch op {
        case 2u: { return vec4<u32>(1u); }
        case 3u: { return vec4<u32>(0x3f800000u); }
        case 4u: { return vec4<u32>(0x7fffffffu); }
        case 5u, 10u: { return vec4<u32>(0xffffffffu); }
        case 6u: { return vec4<u32>(0x7f800000u); }
        case 7u: { return vec4<u32>(0x80000000u); }
        case 9u: { return vec4<u32>(0xff800000u); }
        default: { return vec4<u32>(0u); }
    }
}

// a op b, word by word, on the bits of u32, i32 or f32 values (op numbered as
// in ballot_identity). Integers wrap.
fn ballot_combine(op: u32, a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    let fa = bitcast<vec4<f32>>(a);
    let fb = bitcast<vec4<f32>>(b);
    let ia = bitcast<vec4<i32>>(a);
    let ib = bitcast<vec4<i32>>(b);
    switch op {
        case 0u: { return (a + b); }
        case 1u: { return bitcast<vec4<u32>>((fa + fb)); }
        case 2u: { return (a * b); }
        case 3u: { return bitcast<vec4<u32>>((fa * fb)); }
        case 4u: { return bitcast<vec4<u32>>(min(ia, ib)); }
        case 5u: { return min(a, b); }
        case 6u: { return bitcast<vec4<u32>>(min(fa, fb)); }
        case 7u: { return bitcast<vec4<u32>>(max(ia, ib)); }
        case 8u: { return max(a, b); }
        case 9u: { return bitcast<vec4<u32>>(max(fa, fb)); }
        case 10u: { return (a & b); }
        case 11u: { return (a | b); }
        default: { return (a ^ b); }
    }
}

// subgroupClusteredAdd and the like, which WGSL lacks: the total of the
// active lanes of this lane's cluster of n lanes (a constant power of two;
// over the subgroup size, undefined, the whole subgroup).
//
// An integer operation is associative and commutative, so where the active
// lanes are lanes 0..count the clusters reduce in log2(n) shuffles: at each
// step d every lane of a block of d lanes holds that block's total over lanes
// below count, and takes the neighbouring block's from its lowest lane, where
// that lane is below count (else it keeps its own, so every shuffle reads an
// active lane).
//
// Otherwise, and for the float operations (whose answer depends on the
// order), as the scans' general case: every active lane walks the same
// ballot of the active lanes, lowest first, and shuffles each one's value, so
// that every shuffle reads an active lane and every active lane takes part in
// it; each lane combines the values of its cluster from the identity in
// ascending lane order, as the simulator does.
fn ballot_clustered_reduce(value: vec4<u32>, op: u32, n: u32, words: u32) -> vec4<u32> {
    let cluster = (ballot_lane & ~(n - 1u));
    var lanes = subgroupBallot(true);
    var result = ballot_identity(op);
    let count = ballot_prefix_count(lanes);
    let float_op = ((((op == 1u) || (op == 3u)) || (op == 6u)) || (op == 9u));
    if ((!float_op) && (count != 0u)) {
        var x = ballot_combine(op, result, value);
        for (var d = 1u; d < n; d = (d << 1u)) {
            let src = ((ballot_lane ^ d) & ~(d - 1u));
            let y = ballot_shuffle_words(x, select(ballot_lane, src, (src < count)), words);
            x = select(x, ballot_combine(op, x, y), (src < count));
        }
        return x;
    }
    loop {
        if (all((lanes == vec4<u32>(0u)))) {
            break;
        }
        let src = ballot_take_lowest(&lanes);
        let v = ballot_shuffle_words(value, src, words);
        if ((src & ~(n - 1u)) == cluster) {
            result = ballot_combine(op, result, v);
        }
    }
    return result;
}

@group(0) @binding(0) var<storage, read> ballot_in0: array<u32>;
@group(0) @binding(1) var<storage, read> ballot_in1: array<i32>;
@group(0) @binding(2) var<storage, read> ballot_in2: array<f32>;
@group(0) @binding(3) var<storage, read_write> ballot_out: array<u32>;

fn clustered(x: u32, i: i32, f: f32) -> u32 {
    var out: u32;
    out = 0u;
    if ((x % 2u) == 0u) {
        out = (ballot_clustered_reduce(vec4<u32>((x), 0u, 0u, 0u), 0u, 4u, 1u).x + ballot_clustered_reduce(vec4<u32>((x), 0u, 0u, 0u), 8u, 2u, 1u).x);
    } else {
        out = (ballot_clustered_reduce(vec4<u32>((x), 0u, 0u, 0u), 12u, 8u, 1u).x ^ bitcast<u32>(bitcast<i32>(ballot_clustered_reduce(vec4<u32>(bitcast<u32>(i), 0u, 0u, 0u), 4u, 2u, 1u).x)));
    }
    return ((out + ballot_f32_to_u32(bitcast<f32>(ballot_clustered_reduce(vec4<u32>(bitcast<u32>(f), 0u, 0u, 0u), 3u, 8u, 1u).x))) + ballot_clustered_reduce(vec4<u32>((x), 0u, 0u, 0u), 10u, 1u, 1u).x);
}

@compute @workgroup_size(64, 1, 1)
fn main(
    @builtin(local_invocation_index) ballot_local_index: u32,
    @builtin(workgroup_id) ballot_workgroup_id: vec3<u32>,
    @builtin(num_workgroups) ballot_num_workgroups: vec3<u32>,
    @builtin(subgroup_invocation_id) ballot_subgroup_invocation_id: u32,
    @builtin(subgroup_size) ballot_subgroup_size_in: u32,
) {
    ballot_init(ballot_subgroup_invocation_id, ballot_subgroup_size_in);
    let ballot_workgroup_index = ((ballot_workgroup_id.x + (ballot_workgroup_id.y * ballot_num_workgroups.x))
        + ((ballot_workgroup_id.z * ballot_num_workgroups.x) * ballot_num_workgroups.y));
    let ballot_global = ((ballot_workgroup_index * 64u) + ballot_local_index);
    let ballot_arg0 = ballot_in0[min(ballot_global, (arrayLength(&ballot_in0) - 1u))];
    let ballot_arg1 = ballot_in1[min(ballot_global, (arrayLength(&ballot_in1) - 1u))];
    let ballot_arg2 = ballot_in2[min(ballot_global, (arrayLength(&ballot_in2) - 1u))];
    let ballot_result = clustered(ballot_arg0, ballot_arg1, ballot_arg2);
    if (ballot_global < arrayLength(&ballot_out)) {
        ballot_out[ballot_global] = ballot_result;
    }
}
