// A compute shader for kernel `compaction_slot`, target `wgsl-no-subgroup`, written by ballot.
// Where the spec leaves a result undefined, these functions return a
// documented value: FindLSB / FindMSB with no bit below the subgroup size
// give 0xffffffffu, and BitExtract at or above the size gives false.

// The virtual subgroup size, the invocations per workgroup, the slots
// of whole virtual subgroups they fill, the slots of each half of the
// exchange memory, and a virtual subgroup's slots as vec4s.
const ballot_subgroup_size: u32 = 32u;
const ballot_workgroup_size: u32 = 64u;
const ballot_padded_size: u32 = 64u;
const ballot_exchange_size: u32 = 64u;
const ballot_subgroup_chunks: u32 = 8u;

// The invocation's place: its local_invocation_index, its lane, and its
// virtual subgroup's first invocation, lane count and size.
var<private> ballot_index: u32;
var<private> ballot_lane: u32;
var<private> ballot_base: u32;
var<private> ballot_count: u32;
var<private> ballot_size: u32;

// Call once at the top of the entry point, in every invocation, with
// @builtin(local_invocation_index).
fn ballot_init(local_invocation_index: u32) {
    ballot_index = local_invocation_index;
    ballot_lane = (local_invocation_index % ballot_subgroup_size);
    ballot_base = (local_invocation_index - ballot_lane);
    ballot_count = min(ballot_subgroup_size, (ballot_workgroup_size - ballot_base));
    ballot_size = ballot_subgroup_size;
    ballot_below_bits = ballot_mask_first(ballot_size);
    ballot_lt_bits = (ballot_mask_first(ballot_lane) & ballot_below_bits);
    ballot_half = 0u;
    ballot_bit = (1u << (ballot_index & 31u));
    ballot_shift = (ballot_base & 31u);
    ballot_count_bits = ballot_mask_first(ballot_count);
    for (var s = (ballot_workgroup_size + local_invocation_index); s < ballot_padded_size; s += ballot_workgroup_size) {
        ballot_flags[(s >> 2u)][(s & 3u)] = 0u;
        ballot_flags[((ballot_exchange_size + s) >> 2u)][(s & 3u)] = 0u;
    }
}

// SubgroupMask::first(n): bits 0..n, saturating at 128.
fn ballot_mask_first(n: u32) -> vec4<u32> {
    let low = vec4<u32>(0u, 32u, 64u, 96u);
    let bits = min((max(vec4<u32>(n), low) - low), vec4<u32>(32u));
    // A shift by 32 would wrap to a shift by 0, so full words are chosen apart.
    let partial = ((vec4<u32>(1u) << (bits & vec4<u32>(31u))) - vec4<u32>(1u));
    return select(partial, vec4<u32>(0xffffffffu), (bits == vec4<u32>(32u)));
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

// gl_SubgroupLtMask: the bits below this lane.
var<private> ballot_lt_bits: vec4<u32>;
fn ballot_lt_mask() -> vec4<u32> {
    return ballot_lt_bits;
}

// subgroupBallotExclusiveBitCount(v): the set bits below this lane.
fn ballot_exclusive_bit_count(v: vec4<u32>) -> u32 {
    return ballot_mask_count((v & ballot_lt_mask()));
}

// Exchange memory of the virtual subgroups, in two halves of
// ballot_exchange_size slots. An exchange writes one half, waits at one
// barrier and reads it; the next exchange writes the other half, so no second
// barrier has to keep a write from overtaking a read. A slot holds its
// invocation's flag as the invocation's bit in a 32-lane word, so that a
// virtual subgroup's ballot is the or of its slots, read four at a time.
var<workgroup> ballot_flags: array<vec4<u32>, (ballot_exchange_size / 2u)>;
// The half the next exchange writes: 0 or ballot_exchange_size, the same in
// every invocation, since every invocation makes every exchange.
var<private> ballot_half: u32;
// This invocation's bit in its slot, where its virtual subgroup's bits start
// in their word (0 unless the subgroup has fewer than 32 lanes), and the bits
// of the lanes the subgroup has, the only ones its ballots keep.
var<private> ballot_bit: u32;
var<private> ballot_shift: u32;
var<private> ballot_count_bits: vec4<u32>;

// Publishes this invocation's flag, waits for the workgroup, and returns the
// half it went to. It holds a barrier: every invocation of the workgroup
// calls it, in uniform control flow.
fn ballot_share(flag: bool) -> u32 {
    let at = ballot_half;
    ballot_half = (ballot_exchange_size - at);
    let slot = (at + ballot_index);
    ballot_flags[(slot >> 2u)][(slot & 3u)] = select(0u, ballot_bit, flag);
    workgroupBarrier();
    return at;
}

// The flags of this virtual subgroup in the half at `at`, as its ballot.
fn ballot_gather(at: u32) -> vec4<u32> {
    var m = vec4<u32>(0u);
    let first = ((at + ballot_base) >> 2u);
    for (var i = 0u; i < ballot_subgroup_chunks; i++) {
        let q = ballot_flags[(first + i)];
        m[(i >> 3u)] = (m[(i >> 3u)] | ((q.x | q.y) | (q.z | q.w)));
    }
    return ((m >> vec4<u32>(ballot_shift)) & ballot_count_bits);
}

// subgroupBallot(predicate): bit i is set iff lane i is active and its
// predicate holds.
fn ballot_ballot(on: bool, predicate: bool) -> vec4<u32> {
    return ballot_gather(ballot_share((on && predicate)));
}

@group(0) @binding(0) var<storage, read> ballot_in0: array<u32>;
@group(0) @binding(1) var<storage, read_write> ballot_out: array<u32>;

// `compaction_slot` if-converted: every invocation runs every statement, and
// ballot_active says which really do. Called in uniform control flow.
fn compaction_slot_masked(ballot_active_in: bool, keep: bool) -> u32 {
    var ballot_active = ballot_active_in;
    var ballot_ret = false;
    var ballot_ret_val = 0u;
    let ballot_t1 = ballot_ballot(ballot_active, keep);
    if ballot_active { ballot_ret_val = ballot_exclusive_bit_count(ballot_t1); }
    ballot_ret = (ballot_ret || ballot_active);
    ballot_active = false;
    return ballot_ret_val;
}

// Call in every invocation of the workgroup, in uniform control flow.
fn compaction_slot(keep: bool) -> u32 {
    return compaction_slot_masked(true, keep);
}

@compute @workgroup_size(64, 1, 1)
fn main(
    @builtin(local_invocation_index) ballot_local_index: u32,
    @builtin(workgroup_id) ballot_workgroup_id: vec3<u32>,
    @builtin(num_workgroups) ballot_num_workgroups: vec3<u32>,
) {
    ballot_init(ballot_local_index);
    let ballot_workgroup_index = ((ballot_workgroup_id.x + (ballot_workgroup_id.y * ballot_num_workgroups.x))
        + ((ballot_workgroup_id.z * ballot_num_workgroups.x) * ballot_num_workgroups.y));
    let ballot_global = ((ballot_workgroup_index * 64u) + ballot_local_index);
    let ballot_arg0 = (ballot_in0[min(ballot_global, (arrayLength(&ballot_in0) - 1u))] != 0u);
    let ballot_result = compaction_slot(ballot_arg0);
    if (ballot_global < arrayLength(&ballot_out)) {
        ballot_out[ballot_global] = ballot_result;
    }
}
