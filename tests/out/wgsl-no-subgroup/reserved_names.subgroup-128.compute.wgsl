// A compute shader for kernel `reserved_names`, target `wgsl-no-subgroup`, written by ballot.
// Where the spec leaves a result undefined, these functions return a
// documented value: FindLSB / FindMSB with no bit below the subgroup size
// give 0xffffffffu, and BitExtract at or above the size gives false.

// The virtual subgroup size, the invocations per workgroup, and the
// exchange memory's slots.
const ballot_subgroup_size: u32 = 128u;
const ballot_workgroup_size: u32 = 128u;
const ballot_exchange_size: u32 = 128u;

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
}

// Exchange memory of the virtual subgroups: one flag per invocation.
var<workgroup> ballot_flags: array<u32, ballot_exchange_size>;

// Publishes this invocation's flag to its virtual subgroup. It holds a
// barrier: every invocation of the workgroup calls it, in uniform control flow.
fn ballot_share(flag: bool) {
    ballot_flags[ballot_index] = select(0u, 1u, flag);
    workgroupBarrier();
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

// subgroupBallotBitCount(v): the set bits below the subgroup size.
fn ballot_bit_count(v: vec4<u32>) -> u32 {
    return ballot_mask_count((v & ballot_below()));
}

// subgroupBallot(predicate): bit i is set iff lane i is active and its
// predicate holds.
fn ballot_ballot(on: bool, predicate: bool) -> vec4<u32> {
    ballot_share((on && predicate));
    var bits = vec4<u32>(0u);
    for (var i = 0u; i < ballot_subgroup_size; i++) {
        if ((i < ballot_count) && (ballot_flags[(ballot_base + i)] != 0u)) {
            bits[(i >> 5u)] = (bits[(i >> 5u)] | (1u << (i & 31u)));
        }
    }
    // Every lane has read the flags before the next exchange writes them.
    workgroupBarrier();
    return bits;
}

@group(0) @binding(0) var<storage, read> ballot_in0: array<u32>;
@group(0) @binding(1) var<storage, read> ballot_in1: array<u32>;
@group(0) @binding(2) var<storage, read_write> ballot_out: array<u32>;

// `reserved_names` if-converted: every invocation runs every statement, and
// ballot_active says which really do. Called in uniform control flow.
fn reserved_names_masked(ballot_active_in: bool, input: u32, sample: bool) -> u32 {
    var active_1: vec4<u32>;
    var shared_1: u32;
    var texture: u32;
    var v_gl_thing: u32;
    var a_b: u32;
    var ballot_active = ballot_active_in;
    var ballot_ret = false;
    var ballot_ret_val = 0u;
    let ballot_t1 = ballot_ballot(ballot_active, sample);
    if ballot_active { active_1 = ballot_t1; }
    if ballot_active { shared_1 = ballot_bit_count(active_1); }
    if ballot_active { texture = (input + shared_1); }
    if ballot_active { v_gl_thing = (texture * 2u); }
    if ballot_active { a_b = (v_gl_thing ^ 1u); }
    if ballot_active { ballot_ret_val = a_b; }
    ballot_ret = (ballot_ret || ballot_active);
    ballot_active = false;
    return ballot_ret_val;
}

// Call in every invocation of the workgroup, in uniform control flow.
fn reserved_names(input: u32, sample: bool) -> u32 {
    return reserved_names_masked(true, input, sample);
}

@compute @workgroup_size(128, 1, 1)
fn main(
    @builtin(local_invocation_index) ballot_local_index: u32,
    @builtin(workgroup_id) ballot_workgroup_id: vec3<u32>,
    @builtin(num_workgroups) ballot_num_workgroups: vec3<u32>,
) {
    ballot_init(ballot_local_index);
    let ballot_workgroup_index = ((ballot_workgroup_id.x + (ballot_workgroup_id.y * ballot_num_workgroups.x))
        + ((ballot_workgroup_id.z * ballot_num_workgroups.x) * ballot_num_workgroups.y));
    let ballot_global = ((ballot_workgroup_index * 128u) + ballot_local_index);
    let ballot_arg0 = ballot_in0[min(ballot_global, (arrayLength(&ballot_in0) - 1u))];
    let ballot_arg1 = (ballot_in1[min(ballot_global, (arrayLength(&ballot_in1) - 1u))] != 0u);
    let ballot_result = reserved_names(ballot_arg0, ballot_arg1);
    if (ballot_global < arrayLength(&ballot_out)) {
        ballot_out[ballot_global] = ballot_result;
    }
}
