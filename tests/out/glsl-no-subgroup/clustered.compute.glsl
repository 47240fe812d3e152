#version 450

const uint ballot_subgroup_size = 32u;
const uint ballot_workgroup_size = 64u;
const uint ballot_padded_size = 64u;
const uint ballot_exchange_size = 64u;
const uint ballot_subgroup_chunks = 8u;
const uint ballot_exchange_slots = 1u;
const uint ballot_slot_stride = 2u * ballot_exchange_size;

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer ballot_in0_block { uint ballot_in0[]; };
layout(std430, set = 0, binding = 1) readonly buffer ballot_in1_block { int ballot_in1[]; };
layout(std430, set = 0, binding = 2) readonly buffer ballot_in2_block { float ballot_in2[]; };
layout(std430, set = 0, binding = 3) buffer ballot_out_block { uint ballot_out[]; };

// The invocation's place in its virtual subgroup: lane `index % size` of
// the subgroup that starts at `index - lane` and holds `count` invocations
// (fewer than the size only in the last one of a ragged workgroup).
// ballot_init sets it, with the masks of the helpers below.
uint ballot_index;
uint ballot_lane;
uint ballot_base;
uint ballot_count;

// On the bits, which fast-math compilers cannot fold away as they may isnan().
bool ballot_is_nan(float x) {
    return (floatBitsToUint(x) & 0x7FFFFFFFu) > 0x7F800000u;
}

// x % 0 == 0, as in WGSL.
uint ballot_rem_u32(uint a, uint b) {
    if (b == 0u) {
        return 0u;
    }
    return a % b;
}

// Rust's `as`: saturating, NaN to 0 (GLSL leaves out-of-range values undefined).
uint ballot_f32_to_u32(float x) {
    if (ballot_is_nan(x) || x <= 0.0) {
        return 0u;
    }
    if (x >= 4294967296.0) {
        return 4294967295u;
    }
    return uint(x);
}

// Bits lo..lo + 32 of SubgroupMask::first(n).
uint ballot_first_word(uint n, uint lo) {
    if (n <= lo) {
        return 0u;
    }
    if (n - lo >= 32u) {
        return 0xFFFFFFFFu;
    }
    return (1u << (n - lo)) - 1u;
}

// SubgroupMask::first: bits 0..n, saturating at 128.
uvec4 ballot_mask_first(uint n) {
    return uvec4(ballot_first_word(n, 0u), ballot_first_word(n, 32u), ballot_first_word(n, 64u), ballot_first_word(n, 96u));
}

// Exchange memory of the virtual subgroups: ballot_exchange_slots slots, each
// of two halves of ballot_exchange_size flags (ballot_slot_stride apart). An
// exchange writes one half of each slot it uses, waits at one barrier and
// reads them; the next exchange writes the other halves, so no second barrier
// has to keep a write from overtaking a read. Ballots that share an exchange
// (ballot_publish, then one ballot_sync) take one slot each. A flag is its
// invocation's bit in a 32-lane word, so that a virtual subgroup's ballot is
// the or of its flags, read four at a time.
shared uvec4 ballot_flags[ballot_exchange_slots * ballot_slot_stride / 4u];
// The half the next exchange writes: 0 or ballot_exchange_size, the same in
// every invocation, since every invocation makes every exchange.
uint ballot_half;
// This invocation's bit in its flag, where its virtual subgroup's bits start
// in their word (0 unless the subgroup has fewer than 32 lanes), and the bits
// of the lanes the subgroup has, the only ones its ballots keep.
uint ballot_bit;
uint ballot_shift;
uvec4 ballot_count_bits;

// Writes this invocation's flag into `slot` of the next exchange.
void ballot_publish(bool flag, uint slot) {
    uint s = slot * ballot_slot_stride + ballot_half + ballot_index;
    ballot_flags[s >> 2u][s & 3u] = flag ? ballot_bit : 0u;
}

// Waits for the workgroup's flags, and returns where the exchange's first slot
// is; slot k is ballot_slot_stride * k past it.
uint ballot_sync() {
    uint at = ballot_half;
    ballot_half = ballot_exchange_size - at;
    barrier();
    return at;
}

// An exchange of one flag: publishes it, waits for the workgroup, and returns
// where it went.
uint ballot_share(bool flag) {
    ballot_publish(flag, 0u);
    return ballot_sync();
}

// The flags of this virtual subgroup in the half at `at`, as its ballot.
uvec4 ballot_gather(uint at) {
    uvec4 m = uvec4(0u);
    uint first = (at + ballot_base) >> 2u;
    for (uint i = 0u; i < ballot_subgroup_chunks; i = i + 1u) {
        uvec4 q = ballot_flags[first + i];
        m[i >> 3u] = m[i >> 3u] | ((q.x | q.y) | (q.z | q.w));
    }
    return (m >> uvec4(ballot_shift)) & ballot_count_bits;
}

// Exchange memory of values: one per invocation, as up to four words, each
// word in a plane of its own of the flags' two halves (ballot_slot_stride
// words a plane), four consecutive words to a uvec4, so that a reduction or a
// scan reads four lanes' words at once. A value moves only the words it uses
// (`words`, a constant of the call): one for a scalar, four for a mask.
shared uvec4 ballot_slots[ballot_slot_stride];

// Writes the first `words` words of this invocation's value into the half the
// next exchange publishes.
void ballot_put(uvec4 v, uint words) {
    uint s = ballot_half + ballot_index;
    ballot_slots[s >> 2u][s & 3u] = v.x;
    if (words > 1u) {
        uint t = s + ballot_slot_stride;
        ballot_slots[t >> 2u][t & 3u] = v.y;
    }
    if (words > 2u) {
        uint t = s + 2u * ballot_slot_stride;
        ballot_slots[t >> 2u][t & 3u] = v.z;
    }
    if (words > 3u) {
        uint t = s + 3u * ballot_slot_stride;
        ballot_slots[t >> 2u][t & 3u] = v.w;
    }
}

// The value in slot s, its words past the first `words` zero.
uvec4 ballot_get(uint s, uint words) {
    uvec4 v = uvec4(ballot_slots[s >> 2u][s & 3u], 0u, 0u, 0u);
    if (words > 1u) {
        uint t = s + ballot_slot_stride;
        v.y = ballot_slots[t >> 2u][t & 3u];
    }
    if (words > 2u) {
        uint t = s + 2u * ballot_slot_stride;
        v.z = ballot_slots[t >> 2u][t & 3u];
    }
    if (words > 3u) {
        uint t = s + 3u * ballot_slot_stride;
        v.w = ballot_slots[t >> 2u][t & 3u];
    }
    return v;
}

// Whether a reduction or a scan takes one exchange, every lane reading its
// subgroup's words four at a time: a word a value, and whole subgroups of 4
// to 32 lanes (at 4 the two-level exchange below is one exchange too; past
// 32 its second level reads fewer). All constants of the call.
bool ballot_one_level(uint words) {
    return words == 1u && (ballot_workgroup_size % ballot_subgroup_size) == 0u && ballot_subgroup_size >= 4u && ballot_subgroup_size <= 32u;
}

// The identity of arithmetic operation op (0 IAdd, 1 FAdd, 2 IMul, 3 FMul,
// 4 SMin, 5 UMin, 6 FMin, 7 SMax, 8 UMax, 9 FMax, 10 And, 11 Or, 12 Xor), in
// every word: the result over no lane.
uvec4 ballot_identity(uint op) {
    switch (op) {
    case 2u: return uvec4(1u);
    case 3u: return uvec4(0x3F800000u);
    case 4u: return uvec4(0x7FFFFFFFu);
    case 5u:
    case 10u: return uvec4(0xFFFFFFFFu);
    case 6u: return uvec4(0x7F800000u);
    case 7u: return uvec4(0x80000000u);
    case 9u: return uvec4(0xFF800000u);
    default: return uvec4(0u);
    }
}

// a op b, word by word, on the bits of uint, int or float values (op numbered
// as in ballot_identity). Integers wrap.
uvec4 ballot_combine(uint op, uvec4 a, uvec4 b) {
    vec4 fa = uintBitsToFloat(a);
    vec4 fb = uintBitsToFloat(b);
    ivec4 ia = ivec4(a);
    ivec4 ib = ivec4(b);
    switch (op) {
    case 0u: return a + b;
    case 1u: return floatBitsToUint(fa + fb);
    case 2u: return a * b;
    case 3u: return floatBitsToUint(fa * fb);
    case 4u: return uvec4(min(ia, ib));
    case 5u: return min(a, b);
    case 6u: return floatBitsToUint(min(fa, fb));
    case 7u: return uvec4(max(ia, ib));
    case 8u: return max(a, b);
    case 9u: return floatBitsToUint(max(fa, fb));
    case 10u: return a & b;
    case 11u: return a | b;
    default: return a ^ b;
    }
}

// subgroupClusteredAdd and the other clustered reductions: the total of the
// active lanes of this lane's cluster, the n lanes (a constant power of two)
// that share its id's bits above log2(n), in one exchange and n reads, lower
// lanes on the left, from the identity, as the simulator combines them.
// Inactive lanes and lanes a ragged subgroup lacks count as the identity, as
// in ballot_reduce. A cluster over the subgroup size (undefined) is the whole
// subgroup, so that every read stays within the subgroup's slots.
uvec4 ballot_clustered_reduce(bool act, uvec4 v, uint op, uint n, uint words) {
    uvec4 identity = ballot_identity(op);
    uint c = min(n, ballot_subgroup_size);
    bool ragged = (ballot_workgroup_size % ballot_subgroup_size) != 0u;
    uint first = ballot_lane & ~(c - 1u);
    ballot_put(act ? ballot_combine(op, identity, v) : identity, words);
    uint at = ballot_sync() + ballot_base;
    uvec4 total = identity;
    for (uint k = 0u; k < c; k = k + 1u) {
        uvec4 w = ballot_get(at + first + k, words);
        total = ballot_combine(op, total, (ragged && first + k >= ballot_count) ? identity : w);
    }
    return total;
}

void ballot_init(uint local_invocation_index) {
    ballot_index = local_invocation_index;
    ballot_lane = local_invocation_index % ballot_subgroup_size;
    ballot_base = local_invocation_index - ballot_lane;
    ballot_count = min(ballot_subgroup_size, ballot_workgroup_size - ballot_base);
    ballot_half = 0u;
    ballot_bit = 1u << (ballot_index & 31u);
    ballot_shift = ballot_base & 31u;
    ballot_count_bits = ballot_mask_first(ballot_count);
    for (uint s = ballot_workgroup_size + local_invocation_index; s < ballot_padded_size; s = s + ballot_workgroup_size) {
        for (uint k = 0u; k < 2u * ballot_exchange_slots; k = k + 1u) {
            uint i = k * ballot_exchange_size + s;
            ballot_flags[i >> 2u][i & 3u] = 0u;
        }
    }
}

uint clustered_masked(bool ballot_active_in, uint x, int i, float f) {
    uint out_1 = 0u;
    bool ballot_active = ballot_active_in;
    bool ballot_ret = false;
    uint ballot_ret_val = 0u;
    if (ballot_active) { out_1 = 0u; }
    bool ballot_outer1 = ballot_active;
    bool ballot_taken1 = (ballot_rem_u32(x, 2u) == 0u);
    ballot_active = (ballot_outer1 && ballot_taken1);
    {
        uint ballot_t2 = ballot_clustered_reduce(ballot_active, uvec4(x, 0u, 0u, 0u), 0u, 4u, 1u).x;
        uint ballot_t3 = ballot_clustered_reduce(ballot_active, uvec4(x, 0u, 0u, 0u), 8u, 2u, 1u).x;
        if (ballot_active) { out_1 = (ballot_t2 + ballot_t3); }
    }
    ballot_active = (ballot_outer1 && !ballot_taken1);
    {
        uint ballot_t4 = ballot_clustered_reduce(ballot_active, uvec4(x, 0u, 0u, 0u), 12u, 8u, 1u).x;
        int ballot_t5 = int(ballot_clustered_reduce(ballot_active, uvec4(uint(i), 0u, 0u, 0u), 4u, 2u, 1u).x);
        if (ballot_active) { out_1 = (ballot_t4 ^ uint(ballot_t5)); }
    }
    ballot_active = ballot_outer1;
    float ballot_t6 = uintBitsToFloat(ballot_clustered_reduce(ballot_active, uvec4(floatBitsToUint(f), 0u, 0u, 0u), 3u, 8u, 1u).x);
    uint ballot_t7 = ballot_clustered_reduce(ballot_active, uvec4(x, 0u, 0u, 0u), 10u, 1u, 1u).x;
    if (ballot_active) { ballot_ret_val = ((out_1 + ballot_f32_to_u32(ballot_t6)) + ballot_t7); }
    ballot_ret = (ballot_ret || ballot_active);
    ballot_active = false;
    return ballot_ret_val;
}

uint clustered(uint x, int i, float f) {
    return clustered_masked(true, x, i, f);
}

void main() {
    uvec3 ballot_id = gl_WorkGroupID;
    uvec3 ballot_groups = gl_NumWorkGroups;
    uint ballot_workgroup = (ballot_id.x + (ballot_id.y * ballot_groups.x)) + ((ballot_id.z * ballot_groups.x) * ballot_groups.y);
    uint ballot_global = (ballot_workgroup * 64u) + gl_LocalInvocationIndex;
    ballot_init(gl_LocalInvocationIndex);
    uint ballot_arg0 = 0u;
    if (ballot_global < uint(ballot_in0.length())) { ballot_arg0 = ballot_in0[ballot_global]; }
    int ballot_arg1 = 0;
    if (ballot_global < uint(ballot_in1.length())) { ballot_arg1 = ballot_in1[ballot_global]; }
    float ballot_arg2 = 0.0;
    if (ballot_global < uint(ballot_in2.length())) { ballot_arg2 = ballot_in2[ballot_global]; }
    uint ballot_result = clustered(ballot_arg0, ballot_arg1, ballot_arg2);
    if (ballot_global < uint(ballot_out.length())) { ballot_out[ballot_global] = ballot_result; }
}
