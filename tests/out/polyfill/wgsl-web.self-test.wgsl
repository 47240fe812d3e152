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
// subgroupBroadcast and subgroupBroadcastFirst are WGSL's own, so their
// undefined cases are the driver's.
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

// subgroupElect, which naga lacks: whether this is the lowest active lane,
// the one whose id subgroupBroadcastFirst hands to every active lane.
fn ballot_elect() -> bool {
    return (subgroupBroadcastFirst(ballot_lane) == ballot_lane);
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

// Self-test: not part of the library. It calls every function and writes
// 10 records per invocation to binding 0 (see ballot::polyfill).
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
    let at = (g * 10u);
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
}
