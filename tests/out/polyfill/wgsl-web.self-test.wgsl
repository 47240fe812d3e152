// ballot polyfill library for target `wgsl-web` (a browser or Dawn exposing the
// WebGPU `subgroups` feature).
//
// Include: concatenate this text before your shader's code: its `enable
// subgroups;` and `diagnostic(off, subgroup_uniformity);` directives must open
// the module (the diagnostic lets these functions run in divergent control
// flow). Don't repeat them in your own code.
//
// Init: call ballot_init(subgroup_invocation_id, subgroup_size) once, at the
// top of the entry point, with @builtin(subgroup_invocation_id) and
// @builtin(subgroup_size): WGSL has them only as entry-point built-ins, and the
// functions read them from private variables. Then call the functions from
// anywhere. (naga rejects those built-ins in a multi-dimensional workgroup:
// flatten it, and use local_invocation_index.)
//
// Names: the GLSL ones (subgroupBallotFindMSB, subgroupElect(), …); built-in
// variables become functions without gl_ (subgroupEqMask()). subgroupBallot,
// the broadcasts, votes, shuffles, quads, reductions and the scans of Add and
// Mul are WGSL's own, so their undefined cases are the driver's. WGSL lacks
// subgroupAllEqual and the other scans: they take u32 values, and others under
// a suffix (subgroupAllEqualF32, subgroupInclusiveMinI32, …).
//
// Where the spec leaves a result undefined, these functions return: FindLSB /
// FindMSB with no bit below the subgroup size: 0xFFFFFFFF; BitExtract at or
// above the size: false; InverseBallot of a value that differs across lanes:
// each lane's own bit.
//
// Names starting with ballot_ are the library's own.

enable subgroups;
diagnostic(off, subgroup_uniformity);

// The invocation's lane id and its subgroup's size. WGSL has them only as
// entry-point built-ins, so ballot_init keeps them for the functions below.
var<private> ballot_lane: u32;
var<private> ballot_size: u32;

// Call once at the top of the entry point, with @builtin(subgroup_invocation_id)
// and @builtin(subgroup_size).
fn ballot_init(subgroup_invocation_id: u32, subgroup_size: u32) {
    ballot_lane = subgroup_invocation_id;
    ballot_size = subgroup_size;
    ballot_below_bits = ballot_mask_first(ballot_size);
    ballot_eq_bits = (ballot_mask_lane(ballot_lane) & ballot_below_bits);
    ballot_ge_bits = ((~ballot_mask_first(ballot_lane)) & ballot_below_bits);
    ballot_gt_bits = ((~ballot_mask_first((ballot_lane + 1u))) & ballot_below_bits);
    ballot_le_bits = (ballot_mask_first((ballot_lane + 1u)) & ballot_below_bits);
    ballot_lt_bits = (ballot_mask_first(ballot_lane) & ballot_below_bits);
}

// SubgroupMask::first(n): bits 0..n, saturating at 128.
fn ballot_mask_first(n: u32) -> vec4<u32> {
    let low = vec4<u32>(0u, 32u, 64u, 96u);
    let bits = min((max(vec4<u32>(n), low) - low), vec4<u32>(32u));
    // A shift by 32 would wrap to a shift by 0, so full words are chosen apart.
    let partial = ((vec4<u32>(1u) << (bits & vec4<u32>(31u))) - vec4<u32>(1u));
    return select(partial, vec4<u32>(0xffffffffu), (bits == vec4<u32>(32u)));
}

// SubgroupMask::lane(i): only bit i; empty when i >= 128.
fn ballot_mask_lane(i: u32) -> vec4<u32> {
    let word = (vec4<u32>(0u, 1u, 2u, 3u) == vec4<u32>((i >> 5u)));
    return select(vec4<u32>(0u), vec4<u32>((1u << (i & 31u))), word);
}

// m.contains(i): bit i; false when i >= 128.
fn ballot_mask_contains(m: vec4<u32>, i: u32) -> bool {
    return ((i < 128u) && (((m[((i >> 5u) & 3u)] >> (i & 31u)) & 1u) != 0u));
}

// m.count(): the set bits among all 128.
fn ballot_mask_count(m: vec4<u32>) -> u32 {
    let c = countOneBits(m);
    return ((c.x + c.y) + (c.z + c.w));
}

// The bits below the subgroup size: the only ones ballot operations read.
// Like the lane masks below, ballot_init computes them once, so that no
// operation recomputes them.
var<private> ballot_below_bits: vec4<u32>;
fn ballot_below() -> vec4<u32> {
    return ballot_below_bits;
}

// gl_SubgroupEqMask: only this lane's bit.
var<private> ballot_eq_bits: vec4<u32>;
fn ballot_eq_mask() -> vec4<u32> {
    return ballot_eq_bits;
}

// gl_SubgroupGeMask: the bits of this lane and above, below the size.
var<private> ballot_ge_bits: vec4<u32>;
fn ballot_ge_mask() -> vec4<u32> {
    return ballot_ge_bits;
}

// gl_SubgroupGtMask: the bits above this lane, below the size.
var<private> ballot_gt_bits: vec4<u32>;
fn ballot_gt_mask() -> vec4<u32> {
    return ballot_gt_bits;
}

// gl_SubgroupLeMask: the bits of this lane and below.
var<private> ballot_le_bits: vec4<u32>;
fn ballot_le_mask() -> vec4<u32> {
    return ballot_le_bits;
}

// gl_SubgroupLtMask: the bits below this lane.
var<private> ballot_lt_bits: vec4<u32>;
fn ballot_lt_mask() -> vec4<u32> {
    return ballot_lt_bits;
}

// subgroupBallotBitExtract(v, i): false when i is at or above the subgroup
// size, where the spec leaves it undefined.
fn ballot_bit_extract(v: vec4<u32>, i: u32) -> bool {
    return ((i < ballot_size) && ballot_mask_contains(v, i));
}

// subgroupInverseBallot(v): this lane's bit of v.
fn ballot_inverse_ballot(v: vec4<u32>) -> bool {
    return ballot_bit_extract(v, ballot_lane);
}

// subgroupBallotBitCount(v): the set bits below the subgroup size.
fn ballot_bit_count(v: vec4<u32>) -> u32 {
    return ballot_mask_count((v & ballot_below()));
}

// subgroupBallotInclusiveBitCount(v): the set bits at or below this lane.
fn ballot_inclusive_bit_count(v: vec4<u32>) -> u32 {
    return ballot_mask_count((v & ballot_le_mask()));
}

// subgroupBallotExclusiveBitCount(v): the set bits below this lane.
fn ballot_exclusive_bit_count(v: vec4<u32>) -> u32 {
    return ballot_mask_count((v & ballot_lt_mask()));
}

// subgroupBallotFindLSB(v): the lowest set bit below the subgroup size, or
// 0xffffffffu (as firstTrailingBit(0u)) when there is none, where the spec
// leaves it undefined.
fn ballot_find_lsb(v: vec4<u32>) -> u32 {
    let m = (v & ballot_below());
    // Subgroups of up to 32 lanes have only the first word: one
    // firstTrailingBit answers, where the search below takes four.
    if (((m.y | m.z) | m.w) == 0u) {
        return firstTrailingBit(m.x);
    }
    let t = firstTrailingBit(m);
    // The highest word first, so that the lowest nonzero one decides.
    var lsb = 0xffffffffu;
    lsb = select(lsb, (96u + t.w), (m.w != 0u));
    lsb = select(lsb, (64u + t.z), (m.z != 0u));
    lsb = select(lsb, (32u + t.y), (m.y != 0u));
    lsb = select(lsb, t.x, (m.x != 0u));
    return lsb;
}

// subgroupBallotFindMSB(v): the highest set bit below the subgroup size, or
// 0xffffffffu when there is none, where the spec leaves it undefined.
fn ballot_find_msb(v: vec4<u32>) -> u32 {
    let m = (v & ballot_below());
    // Subgroups of up to 32 lanes have only the first word: one
    // firstLeadingBit answers, where the search below takes four.
    if (((m.y | m.z) | m.w) == 0u) {
        return firstLeadingBit(m.x);
    }
    let t = firstLeadingBit(m);
    // The lowest word first, so that the highest nonzero one decides.
    var msb = 0xffffffffu;
    msb = select(msb, t.x, (m.x != 0u));
    msb = select(msb, (32u + t.y), (m.y != 0u));
    msb = select(msb, (64u + t.z), (m.z != 0u));
    msb = select(msb, (96u + t.w), (m.w != 0u));
    return msb;
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

// subgroupBroadcastFirst(value) of the first `words` words of value; the
// others are 0.
fn ballot_first_words(value: vec4<u32>, words: u32) -> vec4<u32> {
    if (words == 1u) {
        return vec4<u32>(subgroupBroadcastFirst(value.x), 0u, 0u, 0u);
    }
    if (words == 2u) {
        return vec4<u32>(subgroupBroadcastFirst(value.xy), 0u, 0u);
    }
    if (words == 3u) {
        return vec4<u32>(subgroupBroadcastFirst(value.xyz), 0u);
    }
    return subgroupBroadcastFirst(value);
}

// subgroupElect, which naga lacks: whether this is the lowest active lane,
// the one whose id subgroupBroadcastFirst hands to every active lane.
fn ballot_elect() -> bool {
    return (subgroupBroadcastFirst(ballot_lane) == ballot_lane);
}

// subgroupAllEqual(value), which WGSL lacks: whether every active lane holds
// the lowest active lane's value, compared as f32 (ordered: -0.0 equals 0.0,
// a NaN nothing) where is_float, otherwise bit for bit.
fn ballot_all_equal(value: vec4<u32>, is_float: bool, words: u32) -> bool {
    let first = ballot_first_words(value, words);
    let same_float = all((bitcast<vec4<f32>>(value) == bitcast<vec4<f32>>(first)));
    return subgroupAll(select(all((value == first)), same_float, is_float));
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

// subgroupInclusiveMin and the like: lanes at or below this one. Where the
// active lanes are lanes 0..n, in log2(n) shuffles (Hillis-Steele); else a
// walk over the active lanes, as in ballot_clustered_reduce.
fn ballot_inclusive_scan(value: vec4<u32>, op: u32, words: u32) -> vec4<u32> {
    let identity = ballot_identity(op);
    var lanes = subgroupBallot(true);
    let n = ballot_prefix_count(lanes);
    if (n != 0u) {
        var x = ballot_combine(op, identity, value);
        for (var d = 1u; d < n; d = (d << 1u)) {
            let y = ballot_shuffle_words(x, select(ballot_lane, (ballot_lane - d), (ballot_lane >= d)), words);
            x = select(x, ballot_combine(op, y, x), (ballot_lane >= d));
        }
        return x;
    }
    var result = identity;
    loop {
        if (all((lanes == vec4<u32>(0u)))) {
            break;
        }
        let src = ballot_take_lowest(&lanes);
        let v = ballot_shuffle_words(value, src, words);
        if (src <= ballot_lane) {
            result = ballot_combine(op, result, v);
        }
    }
    return result;
}

// subgroupExclusiveMin and the like: lanes below this one; the identity in
// lane 0. As ballot_inclusive_scan, and the inclusive value of the lane below.
fn ballot_exclusive_scan(value: vec4<u32>, op: u32, words: u32) -> vec4<u32> {
    let identity = ballot_identity(op);
    var lanes = subgroupBallot(true);
    let n = ballot_prefix_count(lanes);
    if (n != 0u) {
        var x = ballot_combine(op, identity, value);
        for (var d = 1u; d < n; d = (d << 1u)) {
            let y = ballot_shuffle_words(x, select(ballot_lane, (ballot_lane - d), (ballot_lane >= d)), words);
            x = select(x, ballot_combine(op, y, x), (ballot_lane >= d));
        }
        let below = ballot_shuffle_words(x, select(ballot_lane, (ballot_lane - 1u), (ballot_lane >= 1u)), words);
        return select(identity, below, (ballot_lane >= 1u));
    }
    var result = identity;
    loop {
        if (all((lanes == vec4<u32>(0u)))) {
            break;
        }
        let src = ballot_take_lowest(&lanes);
        let v = ballot_shuffle_words(value, src, words);
        if (src < ballot_lane) {
            result = ballot_combine(op, result, v);
        }
    }
    return result;
}

// The public functions, under the GLSL names of what they replace.

fn subgroupInverseBallot(value: vec4<u32>) -> bool {
    return ballot_inverse_ballot(value);
}

fn subgroupBallotBitExtract(value: vec4<u32>, index: u32) -> bool {
    return ballot_bit_extract(value, index);
}

fn subgroupBallotBitCount(value: vec4<u32>) -> u32 {
    return ballot_bit_count(value);
}

fn subgroupBallotInclusiveBitCount(value: vec4<u32>) -> u32 {
    return ballot_inclusive_bit_count(value);
}

fn subgroupBallotExclusiveBitCount(value: vec4<u32>) -> u32 {
    return ballot_exclusive_bit_count(value);
}

fn subgroupBallotFindLSB(value: vec4<u32>) -> u32 {
    return ballot_find_lsb(value);
}

fn subgroupBallotFindMSB(value: vec4<u32>) -> u32 {
    return ballot_find_msb(value);
}

fn subgroupEqMask() -> vec4<u32> {
    return ballot_eq_mask();
}

fn subgroupGeMask() -> vec4<u32> {
    return ballot_ge_mask();
}

fn subgroupGtMask() -> vec4<u32> {
    return ballot_gt_mask();
}

fn subgroupLeMask() -> vec4<u32> {
    return ballot_le_mask();
}

fn subgroupLtMask() -> vec4<u32> {
    return ballot_lt_mask();
}

fn subgroupElect() -> bool {
    return ballot_elect();
}

fn subgroupAllEqual(value: u32) -> bool {
    return ballot_all_equal(vec4<u32>((value), 0u, 0u, 0u), false, 1u);
}

fn subgroupAllEqualI32(value: i32) -> bool {
    return ballot_all_equal(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), false, 1u);
}

fn subgroupAllEqualF32(value: f32) -> bool {
    return ballot_all_equal(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), true, 1u);
}

fn subgroupAllEqualBool(value: bool) -> bool {
    return ballot_all_equal(vec4<u32>(u32(value), 0u, 0u, 0u), false, 1u);
}

fn subgroupAllEqualVec4(value: vec4<u32>) -> bool {
    return ballot_all_equal(value, false, 4u);
}

fn subgroupInclusiveMinI32(value: i32) -> i32 {
    return bitcast<i32>(ballot_inclusive_scan(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 4u, 1u).x);
}

fn subgroupInclusiveMin(value: u32) -> u32 {
    return ballot_inclusive_scan(vec4<u32>((value), 0u, 0u, 0u), 5u, 1u).x;
}

fn subgroupInclusiveMinF32(value: f32) -> f32 {
    return bitcast<f32>(ballot_inclusive_scan(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 6u, 1u).x);
}

fn subgroupInclusiveMaxI32(value: i32) -> i32 {
    return bitcast<i32>(ballot_inclusive_scan(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 7u, 1u).x);
}

fn subgroupInclusiveMax(value: u32) -> u32 {
    return ballot_inclusive_scan(vec4<u32>((value), 0u, 0u, 0u), 8u, 1u).x;
}

fn subgroupInclusiveMaxF32(value: f32) -> f32 {
    return bitcast<f32>(ballot_inclusive_scan(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 9u, 1u).x);
}

fn subgroupInclusiveAnd(value: u32) -> u32 {
    return ballot_inclusive_scan(vec4<u32>((value), 0u, 0u, 0u), 10u, 1u).x;
}

fn subgroupInclusiveAndI32(value: i32) -> i32 {
    return bitcast<i32>(ballot_inclusive_scan(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 10u, 1u).x);
}

fn subgroupInclusiveOr(value: u32) -> u32 {
    return ballot_inclusive_scan(vec4<u32>((value), 0u, 0u, 0u), 11u, 1u).x;
}

fn subgroupInclusiveOrI32(value: i32) -> i32 {
    return bitcast<i32>(ballot_inclusive_scan(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 11u, 1u).x);
}

fn subgroupInclusiveXor(value: u32) -> u32 {
    return ballot_inclusive_scan(vec4<u32>((value), 0u, 0u, 0u), 12u, 1u).x;
}

fn subgroupInclusiveXorI32(value: i32) -> i32 {
    return bitcast<i32>(ballot_inclusive_scan(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 12u, 1u).x);
}

fn subgroupExclusiveMinI32(value: i32) -> i32 {
    return bitcast<i32>(ballot_exclusive_scan(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 4u, 1u).x);
}

fn subgroupExclusiveMin(value: u32) -> u32 {
    return ballot_exclusive_scan(vec4<u32>((value), 0u, 0u, 0u), 5u, 1u).x;
}

fn subgroupExclusiveMinF32(value: f32) -> f32 {
    return bitcast<f32>(ballot_exclusive_scan(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 6u, 1u).x);
}

fn subgroupExclusiveMaxI32(value: i32) -> i32 {
    return bitcast<i32>(ballot_exclusive_scan(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 7u, 1u).x);
}

fn subgroupExclusiveMax(value: u32) -> u32 {
    return ballot_exclusive_scan(vec4<u32>((value), 0u, 0u, 0u), 8u, 1u).x;
}

fn subgroupExclusiveMaxF32(value: f32) -> f32 {
    return bitcast<f32>(ballot_exclusive_scan(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 9u, 1u).x);
}

fn subgroupExclusiveAnd(value: u32) -> u32 {
    return ballot_exclusive_scan(vec4<u32>((value), 0u, 0u, 0u), 10u, 1u).x;
}

fn subgroupExclusiveAndI32(value: i32) -> i32 {
    return bitcast<i32>(ballot_exclusive_scan(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 10u, 1u).x);
}

fn subgroupExclusiveOr(value: u32) -> u32 {
    return ballot_exclusive_scan(vec4<u32>((value), 0u, 0u, 0u), 11u, 1u).x;
}

fn subgroupExclusiveOrI32(value: i32) -> i32 {
    return bitcast<i32>(ballot_exclusive_scan(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 11u, 1u).x);
}

fn subgroupExclusiveXor(value: u32) -> u32 {
    return ballot_exclusive_scan(vec4<u32>((value), 0u, 0u, 0u), 12u, 1u).x;
}

fn subgroupExclusiveXorI32(value: i32) -> i32 {
    return bitcast<i32>(ballot_exclusive_scan(vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 12u, 1u).x);
}

// Self-test: not part of the library. It calls every function and writes
// 20 records per invocation to binding 0 (see ballot::polyfill).
@group(0) @binding(0) var<storage, read_write> ballot_self_test: array<vec4<u32>>;

@compute @workgroup_size(64, 1, 1)
fn main(
    @builtin(local_invocation_index) local_index: u32,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
    @builtin(subgroup_invocation_id) subgroup_invocation_id: u32,
    @builtin(subgroup_size) subgroup_size: u32,
) {
    ballot_init(subgroup_invocation_id, subgroup_size);
    let lane = ballot_lane;
    let size = ballot_size;
    let workgroup = ((workgroup_id.x + (workgroup_id.y * num_workgroups.x)) + ((workgroup_id.z * num_workgroups.x) * num_workgroups.y));
    let g = ((workgroup * 64u) + local_index);
    let at = (g * 20u);
    let even = ((lane & 1u) == 0u);
    let b = subgroupBallot(even);
    let elected = subgroupElect();
    let first = subgroupBroadcastFirst(((g * 3u) + 1u));
    let from0 = subgroupBroadcast(((g * 5u) + 2u), 0u);
    var split = 0xffffffffu;
    if ((lane & 2u) != 0u) {
        split = (select(0u, 1u, subgroupElect()) | (subgroupBallotBitCount(subgroupBallot(true)) << 1u));
    }
    ballot_self_test[at] = b;
    ballot_self_test[(at + 1u)] = vec4<u32>(subgroupBallotBitCount(b), subgroupBallotInclusiveBitCount(b), subgroupBallotExclusiveBitCount(b), subgroupBallotFindLSB(b));
    ballot_self_test[(at + 2u)] = vec4<u32>(subgroupBallotFindMSB(b), select(0u, 1u, subgroupBallotBitExtract(b, ((lane + 1u) % size))), select(0u, 1u, subgroupInverseBallot(b)), select(0u, 1u, elected));
    ballot_self_test[(at + 3u)] = subgroupEqMask();
    ballot_self_test[(at + 4u)] = subgroupGeMask();
    ballot_self_test[(at + 5u)] = subgroupGtMask();
    ballot_self_test[(at + 6u)] = subgroupLeMask();
    ballot_self_test[(at + 7u)] = subgroupLtMask();
    ballot_self_test[(at + 8u)] = vec4<u32>(first, from0, split, lane);
    ballot_self_test[(at + 9u)] = vec4<u32>(size, subgroupBallotFindLSB(vec4<u32>(0u)), subgroupBallotFindMSB(vec4<u32>(0u)), select(0u, 1u, subgroupBallotBitExtract(vec4<u32>(0xffffffffu), size)));
    ballot_self_test[(at + 10u)] = vec4<u32>(((select(0u, 1u, subgroupAll((lane < size))) << 0u) | (select(0u, 1u, subgroupAll(even)) << 1u) | (select(0u, 1u, subgroupAny(even)) << 2u) | (select(0u, 1u, subgroupAny((lane >= size))) << 3u)), ((select(0u, 1u, subgroupAllEqual(size)) << 0u) | (select(0u, 1u, subgroupAllEqual(lane)) << 1u) | (select(0u, 1u, subgroupAllEqualI32(-1i)) << 2u) | (select(0u, 1u, subgroupAllEqualF32(1.5f)) << 3u) | (select(0u, 1u, subgroupAllEqualBool(true)) << 4u) | (select(0u, 1u, subgroupAllEqualVec4(b)) << 5u) | (select(0u, 1u, subgroupAllEqualF32(f32(lane))) << 6u)), subgroupAdd(g), subgroupInclusiveAdd(g));
    ballot_self_test[(at + 11u)] = vec4<u32>(subgroupExclusiveAdd(g), subgroupMin(g), subgroupInclusiveMax(g), subgroupExclusiveXor(g));
    ballot_self_test[(at + 12u)] = vec4<u32>(bitcast<u32>(subgroupAdd(f32(lane))), bitcast<u32>(subgroupInclusiveMinF32(f32((size - lane)))), bitcast<u32>(subgroupMax((i32(lane) - 5i))), bitcast<u32>(subgroupExclusiveAndI32((~i32(lane)))));
    ballot_self_test[(at + 13u)] = vec4<u32>(subgroupMul((1u + (lane & 1u))), subgroupInclusiveMul((1u + (lane & 1u))), subgroupExclusiveOr((1u << (lane & 31u))), subgroupInclusiveAnd((~(1u << (lane & 31u)))));
    ballot_self_test[(at + 14u)] = vec4<u32>(bitcast<u32>(subgroupExclusiveMul(f32((1u + (lane & 1u))))), bitcast<u32>(subgroupInclusiveMinI32((5i - i32(lane)))), bitcast<u32>(subgroupExclusiveMaxF32((-f32(lane)))), bitcast<u32>(subgroupXor(i32(lane))));
    ballot_self_test[(at + 15u)] = vec4<u32>(subgroupShuffle(g, ((lane + 1u) % size)), subgroupShuffleXor(g, (1u % size)), subgroupShuffleUp(g, min(1u, lane)), subgroupShuffleDown(g, select(0u, 1u, ((lane + 1u) < size))));
    ballot_self_test[(at + 16u)] = vec4<u32>(quadBroadcast(g, 1u), quadSwapX(g), quadSwapY(g), quadSwapDiagonal(g));
    ballot_self_test[(at + 18u)] = vec4<u32>(subgroupAnd((~(1u << (lane & 31u)))), subgroupOr((1u << (lane & 31u))), subgroupInclusiveOr((1u << (lane & 31u))), subgroupInclusiveXor(g));
    ballot_self_test[(at + 19u)] = vec4<u32>(subgroupExclusiveMin(g), subgroupExclusiveMax(g), subgroupExclusiveMul((1u + (lane & 1u))), subgroupInclusiveMin(g));
    ballot_self_test[(at + 17u)] = vec4<u32>(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu);
    if ((lane & 2u) != 0u) {
        let inside_scan = subgroupInclusiveAdd(1u);
        let inside_sum = subgroupAdd(1u);
        let inside_xor = subgroupShuffleXor(g, 1u);
        let inside_votes = ((select(0u, 1u, subgroupAll(even)) << 0u) | (select(0u, 1u, subgroupAny((lane == 3u))) << 1u));
        ballot_self_test[(at + 17u)] = vec4<u32>(inside_scan, inside_sum, inside_xor, inside_votes);
    }
}
