#version 450

const uint ballot_subgroup_size = 32u;
const uint ballot_workgroup_size = 64u;
const uint ballot_padded_size = 64u;
const uint ballot_exchange_size = 64u;
const uint ballot_subgroup_chunks = 8u;
const uint ballot_exchange_slots = 1u;
const uint ballot_slot_stride = 2u * ballot_exchange_size;

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer ballot_in0_block { uvec4 ballot_in0[]; };
layout(std430, set = 0, binding = 1) readonly buffer ballot_in1_block { uint ballot_in1[]; };
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

// SubgroupMask::lane: only bit i; empty when i >= 128.
uvec4 ballot_mask_lane(uint i) {
    uvec4 m = uvec4(0u);
    if (i < 128u) {
        m[i >> 5u] = 1u << (i & 31u);
    }
    return m;
}

// SubgroupMask::contains: bit i; false when i >= 128.
bool ballot_mask_contains(uvec4 m, uint i) {
    if (i >= 128u) {
        return false;
    }
    return ((m[i >> 5u] >> (i & 31u)) & 1u) != 0u;
}

// SubgroupMask::count: set bits among all 128.
uint ballot_mask_count(uvec4 m) {
    return ((uint(bitCount(m.x)) + uint(bitCount(m.y))) + uint(bitCount(m.z))) + uint(bitCount(m.w));
}

// The bits below the subgroup size: the only ones ballot operations read.
uvec4 ballot_below_bits;
uvec4 ballot_below(uvec4 v) {
    return v & ballot_below_bits;
}

uvec4 ballot_eq_bits;
uvec4 ballot_eq_mask() {
    return ballot_eq_bits;
}

uvec4 ballot_ge_bits;
uvec4 ballot_ge_mask() {
    return ballot_ge_bits;
}

uvec4 ballot_gt_bits;
uvec4 ballot_gt_mask() {
    return ballot_gt_bits;
}

uvec4 ballot_le_bits;
uvec4 ballot_le_mask() {
    return ballot_le_bits;
}

uvec4 ballot_lt_bits;
uvec4 ballot_lt_mask() {
    return ballot_lt_bits;
}

// Bit i; false when i is at or above the size (undefined).
bool ballot_bit_extract(uvec4 v, uint i) {
    if (i >= ballot_subgroup_size) {
        return false;
    }
    return ballot_mask_contains(v, i);
}

// The lane's own bit: each lane reads its own argument, so a value that
// differs across lanes (undefined) gives each lane its own bit.
bool ballot_inverse_ballot(uvec4 v) {
    return ballot_mask_contains(v, ballot_lane);
}

uint ballot_bit_count(uvec4 v) {
    return ballot_mask_count(ballot_below(v));
}

uint ballot_inclusive_bit_count(uvec4 v) {
    return ballot_mask_count(v & ballot_le_mask());
}

uint ballot_exclusive_bit_count(uvec4 v) {
    return ballot_mask_count(v & ballot_lt_mask());
}

// The lowest set bit below the size; 0xFFFFFFFFu when there is none (undefined).
uint ballot_find_lsb(uvec4 v) {
    uvec4 m = ballot_below(v);
    for (uint k = 0u; k < 4u; k = k + 1u) {
        if (m[k] != 0u) {
            return (32u * k) + uint(findLSB(m[k]));
        }
    }
    return 0xFFFFFFFFu;
}

// The highest set bit below the size; 0xFFFFFFFFu when there is none (undefined).
uint ballot_find_msb(uvec4 v) {
    uvec4 m = ballot_below(v);
    for (uint k = 4u; k > 0u; k = k - 1u) {
        if (m[k - 1u] != 0u) {
            return (32u * (k - 1u)) + uint(findMSB(m[k - 1u]));
        }
    }
    return 0xFFFFFFFFu;
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

// The lowest lane of this virtual subgroup whose flag the exchange at `at`
// published, or the subgroup size when none did. The flags are read a chunk
// of four lanes at a time, up to the first chunk holding one: a subgroup
// whose first lanes are active reads one chunk, where its ballot
// (ballot_gather) reads them all.
uint ballot_lowest_flag(uint at) {
    uint first = (at + ballot_base) >> 2u;
    uint word = 0u;
    for (uint i = 0u; i < ballot_subgroup_chunks; i = i + 1u) {
        uvec4 q = ballot_flags[first + i];
        uint bits = (q.x | q.y) | (q.z | q.w);
        word = ((i & 7u) == 0u) ? bits : (word | bits);
        uint set = (word >> ballot_shift) & ballot_count_bits[i >> 3u];
        if (set != 0u) {
            return (32u * (i >> 3u)) + uint(findLSB(set));
        }
    }
    return ballot_subgroup_size;
}

// The exchange comes first: `&&` short-circuits, and every invocation must
// reach its barrier.
bool ballot_elect(bool act) {
    uint first = ballot_lowest_flag(ballot_share(act));
    return act && (first == ballot_lane);
}

// Values travel as uvec4 bits, of which the first `words` are moved; callers
// encode and decode them. The value goes to the half that ballot_share then
// publishes the flag to. The read stays within the subgroup's slots, and is
// not waited for before the lowest lane is known.
uvec4 ballot_broadcast_first(bool act, uvec4 v, uint words) {
    ballot_put(v, words);
    uint at = ballot_share(act);
    uint first = ballot_lowest_flag(at);
    uvec4 r = ballot_get(at + ballot_base + min(first, ballot_subgroup_size - 1u), words);
    return first < ballot_count ? r : v;
}

// Lane id's value; the caller's own value when that lane is inactive or at or
// above the size (undefined). Both reads stay within the subgroup's slots,
// whatever id is, and neither waits for the other.
uvec4 ballot_broadcast(bool act, uvec4 v, uint id, uint words) {
    ballot_put(v, words);
    uint at = ballot_share(act);
    uint slot = at + ballot_base + min(id, ballot_subgroup_size - 1u);
    uint flag = ballot_flags[slot >> 2u][slot & 3u];
    uvec4 r = ballot_get(slot, words);
    return ((id < ballot_count) && (flag != 0u)) ? r : v;
}

void ballot_init(uint local_invocation_index) {
    ballot_index = local_invocation_index;
    ballot_lane = local_invocation_index % ballot_subgroup_size;
    ballot_base = local_invocation_index - ballot_lane;
    ballot_count = min(ballot_subgroup_size, ballot_workgroup_size - ballot_base);
    ballot_below_bits = ballot_mask_first(ballot_subgroup_size);
    ballot_eq_bits = ballot_mask_lane(ballot_lane);
    ballot_ge_bits = ballot_below(~ballot_mask_first(ballot_lane));
    ballot_gt_bits = ballot_below(~ballot_mask_first(ballot_lane + 1u));
    ballot_le_bits = ballot_mask_first(ballot_lane + 1u);
    ballot_lt_bits = ballot_mask_first(ballot_lane);
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

uint every_op_masked(bool ballot_active_in, uvec4 v, uint i, float x) {
    uint acc = 0u;
    uvec4 masks = uvec4(0u);
    uvec4 more = uvec4(0u);
    uint first = 0u;
    bool ballot_active = ballot_active_in;
    bool ballot_ret = false;
    uint ballot_ret_val = 0u;
    if (ballot_active) { acc = (ballot_bit_count(v) + ballot_inclusive_bit_count(v)); }
    if (ballot_active) { acc = (acc + ballot_exclusive_bit_count(v)); }
    bool ballot_outer1 = ballot_active;
    bool ballot_taken1 = ballot_bit_extract(v, ballot_rem_u32(i, ballot_subgroup_size));
    ballot_active = (ballot_outer1 && ballot_taken1);
    {
        if (ballot_active) { acc = (acc + 1u); }
    }
    ballot_active = ballot_outer1;
    uvec4 ballot_t2 = ballot_broadcast_first(ballot_active, v, 4u);
    bool ballot_t3 = ballot_inverse_ballot(ballot_t2);
    bool ballot_outer4 = ballot_active;
    bool ballot_taken4 = ballot_t3;
    ballot_active = (ballot_outer4 && ballot_taken4);
    {
        if (ballot_active) { acc = (acc + 2u); }
    }
    ballot_active = ballot_outer4;
    if (ballot_active) { masks = ((ballot_eq_mask() | ballot_ge_mask()) | ballot_gt_mask()); }
    if (ballot_active) { more = (ballot_le_mask() ^ ballot_lt_mask()); }
    if (ballot_active) { acc = (acc + ballot_mask_count((masks & more))); }
    bool ballot_t5 = ballot_elect(ballot_active);
    bool ballot_outer6 = ballot_active;
    bool ballot_taken6 = ballot_t5;
    ballot_active = (ballot_outer6 && ballot_taken6);
    {
        if (ballot_active) { acc = (acc + 100u); }
    }
    ballot_active = ballot_outer6;
    float ballot_t7 = uintBitsToFloat(ballot_broadcast(ballot_active, uvec4(floatBitsToUint(x), 0u, 0u, 0u), 0u, 1u).x);
    if (ballot_active) { first = ballot_f32_to_u32(ballot_t7); }
    if (ballot_active) { ballot_ret_val = (((acc + first) + ballot_find_lsb(uvec4(0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu))) + ballot_find_msb(uvec4(0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu))); }
    ballot_ret = (ballot_ret || ballot_active);
    ballot_active = false;
    return ballot_ret_val;
}

uint every_op(uvec4 v, uint i, float x) {
    return every_op_masked(true, v, i, x);
}

void main() {
    uvec3 ballot_id = gl_WorkGroupID;
    uvec3 ballot_groups = gl_NumWorkGroups;
    uint ballot_workgroup = (ballot_id.x + (ballot_id.y * ballot_groups.x)) + ((ballot_id.z * ballot_groups.x) * ballot_groups.y);
    uint ballot_global = (ballot_workgroup * 64u) + gl_LocalInvocationIndex;
    ballot_init(gl_LocalInvocationIndex);
    uvec4 ballot_arg0 = uvec4(0u);
    if (ballot_global < uint(ballot_in0.length())) { ballot_arg0 = ballot_in0[ballot_global]; }
    uint ballot_arg1 = 0u;
    if (ballot_global < uint(ballot_in1.length())) { ballot_arg1 = ballot_in1[ballot_global]; }
    float ballot_arg2 = 0.0;
    if (ballot_global < uint(ballot_in2.length())) { ballot_arg2 = ballot_in2[ballot_global]; }
    uint ballot_result = every_op(ballot_arg0, ballot_arg1, ballot_arg2);
    if (ballot_global < uint(ballot_out.length())) { ballot_out[ballot_global] = ballot_result; }
}
