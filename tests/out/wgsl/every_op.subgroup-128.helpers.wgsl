// Helper functions for kernel `every_op`, target `wgsl`, written by ballot.
// Call ballot_init(subgroup_invocation_id, subgroup_size) once at the top
// of the entry point, with the built-in values of those names; then call
// the kernel's function from anywhere.
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
    ballot_below_bits = ballot_mask_first(ballot_size);
    ballot_eq_bits = (ballot_mask_lane(ballot_lane) & ballot_below_bits);
    ballot_ge_bits = ((~ballot_mask_first(ballot_lane)) & ballot_below_bits);
    ballot_gt_bits = ((~ballot_mask_first((ballot_lane + 1u))) & ballot_below_bits);
    ballot_le_bits = (ballot_mask_first((ballot_lane + 1u)) & ballot_below_bits);
    ballot_lt_bits = (ballot_mask_first(ballot_lane) & ballot_below_bits);
}

// Rust's `f32 as u32`: saturating, NaN to 0. WGSL's u32() clamps within f32
// (to 4294967040u at most), so the top is chosen apart; NaN is tested on the
// bits, which no fast-math compiler folds away.
fn ballot_f32_to_u32(x: f32) -> u32 {
    let nan = ((bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u);
    return select(select(u32(x), 4294967295u, (x >= 4294967296.0f)), 0u, nan);
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

// subgroupElect, which naga lacks: whether this is the lowest active lane,
// the one whose id subgroupBroadcastFirst hands to every active lane.
fn ballot_elect() -> bool {
    return (subgroupBroadcastFirst(ballot_lane) == ballot_lane);
}

fn every_op(v: vec4<u32>, i: u32, x: f32) -> u32 {
    var acc: u32;
    var masks: vec4<u32>;
    var more: vec4<u32>;
    var first: u32;
    acc = (ballot_bit_count(v) + ballot_inclusive_bit_count(v));
    acc = (acc + ballot_exclusive_bit_count(v));
    if ballot_bit_extract(v, (i % ballot_size)) {
        acc = (acc + 1u);
    }
    if ballot_inverse_ballot(subgroupBroadcastFirst(v)) {
        acc = (acc + 2u);
    }
    masks = ((ballot_eq_mask() | ballot_ge_mask()) | ballot_gt_mask());
    more = (ballot_le_mask() ^ ballot_lt_mask());
    acc = (acc + ballot_mask_count((masks & more)));
    if ballot_elect() {
        acc = (acc + 100u);
    }
    first = ballot_f32_to_u32(subgroupBroadcast(x, 0u));
    return (((acc + first) + ballot_find_lsb(vec4<u32>(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu))) + ballot_find_msb(vec4<u32>(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu)));
}
