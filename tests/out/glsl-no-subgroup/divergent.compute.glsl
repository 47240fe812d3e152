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
layout(std430, set = 0, binding = 1) readonly buffer ballot_in1_block { int ballot_in1; };
layout(std430, set = 0, binding = 2) buffer ballot_out_block { int ballot_out[]; };

// The invocation's place in its virtual subgroup: lane `index % size` of
// the subgroup that starts at `index - lane` and holds `count` invocations
// (fewer than the size only in the last one of a ragged workgroup).
// ballot_init sets it, with the masks of the helpers below.
uint ballot_index;
uint ballot_lane;
uint ballot_base;
uint ballot_count;

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

// SubgroupMask::count: set bits among all 128.
uint ballot_mask_count(uvec4 m) {
    return ((uint(bitCount(m.x)) + uint(bitCount(m.y))) + uint(bitCount(m.z))) + uint(bitCount(m.w));
}

// The bits below the subgroup size: the only ones ballot operations read.
uvec4 ballot_below_bits;
uvec4 ballot_below(uvec4 v) {
    return v & ballot_below_bits;
}

uint ballot_bit_count(uvec4 v) {
    return ballot_mask_count(ballot_below(v));
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

uvec4 ballot_ballot(bool act, bool p) {
    return ballot_gather(ballot_share(act && p));
}

// Whether any invocation of the workgroup passes true: loops that reach
// barriers run until none is active, so that all leave them together.
// Invocation 0 writes the result between the exchange's barrier and its own;
// every invocation reads it before it can reach the barrier of the next vote.
// Where the virtual subgroup is the whole workgroup, its ballot is the vote:
// every invocation reads the same flags after the one barrier, and no second
// barrier is needed.
shared bool ballot_vote;
bool ballot_workgroup_any(bool act) {
    uint at = ballot_share(act);
    if (ballot_subgroup_size >= ballot_workgroup_size) {
        return ballot_gather(at) != uvec4(0u);
    }
    if (ballot_index == 0u) {
        uint votes = 0u;
        for (uint i = 0u; i < (ballot_workgroup_size + 3u) / 4u; i = i + 1u) {
            uvec4 q = ballot_flags[(at >> 2u) + i];
            votes = votes | ((q.x | q.y) | (q.z | q.w));
        }
        ballot_vote = votes != 0u;
    }
    barrier();
    return ballot_vote;
}

void ballot_init(uint local_invocation_index) {
    ballot_index = local_invocation_index;
    ballot_lane = local_invocation_index % ballot_subgroup_size;
    ballot_base = local_invocation_index - ballot_lane;
    ballot_count = min(ballot_subgroup_size, ballot_workgroup_size - ballot_base);
    ballot_below_bits = ballot_mask_first(ballot_subgroup_size);
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

int divergent_masked(bool ballot_active_in, uint n, int limit) {
    int total = 0;
    int for0 = 0;
    int end1 = 0;
    int i = 0;
    bool ballot_active = ballot_active_in;
    bool ballot_ret = false;
    int ballot_ret_val = 0;
    if (ballot_active) { total = 0; }
    if (ballot_active) { for0 = 0; }
    if (ballot_active) { end1 = limit; }
    bool ballot_entry1 = ballot_active;
    bool ballot_brk1 = false;
    bool ballot_cont1 = false;
    while (true) {
        ballot_cont1 = false;
        ballot_active = ((ballot_entry1 && !ballot_brk1) && !ballot_ret);
        if (!ballot_workgroup_any(ballot_active)) { break; }
        {
            bool ballot_outer2 = ballot_active;
            bool ballot_taken2 = (!(for0 < end1));
            ballot_active = (ballot_outer2 && ballot_taken2);
            {
                ballot_brk1 = (ballot_brk1 || ballot_active);
                ballot_active = false;
            }
            ballot_active = (((ballot_outer2 && !ballot_ret) && !ballot_brk1) && !ballot_cont1);
            if (ballot_active) { i = for0; }
            bool ballot_outer3 = ballot_active;
            bool ballot_taken3 = (uint(i) >= n);
            ballot_active = (ballot_outer3 && ballot_taken3);
            {
                ballot_brk1 = (ballot_brk1 || ballot_active);
                ballot_active = false;
            }
            ballot_active = (((ballot_outer3 && !ballot_ret) && !ballot_brk1) && !ballot_cont1);
            bool ballot_t4 = ballot_elect(ballot_active);
            bool ballot_outer5 = ballot_active;
            bool ballot_taken5 = ballot_t4;
            ballot_active = (ballot_outer5 && ballot_taken5);
            {
                ballot_cont1 = (ballot_cont1 || ballot_active);
                ballot_active = false;
            }
            ballot_active = (((ballot_outer5 && !ballot_ret) && !ballot_brk1) && !ballot_cont1);
            uvec4 ballot_t6 = ballot_ballot(ballot_active, true);
            if (ballot_active) { total = (total + int(ballot_bit_count(ballot_t6))); }
        }
        ballot_active = ((ballot_entry1 && !ballot_brk1) && !ballot_ret);
        {
            if (ballot_active) { for0 = (for0 + 1); }
        }
    }
    ballot_active = (ballot_entry1 && !ballot_ret);
    bool ballot_entry7 = ballot_active;
    bool ballot_brk7 = false;
    bool ballot_cont7 = false;
    while (true) {
        ballot_cont7 = false;
        ballot_active = ((ballot_entry7 && !ballot_brk7) && !ballot_ret);
        if (!ballot_active) { break; }
        {
            bool ballot_outer8 = ballot_active;
            bool ballot_taken8 = (!(total > 100));
            ballot_active = (ballot_outer8 && ballot_taken8);
            {
                ballot_brk7 = (ballot_brk7 || ballot_active);
                ballot_active = false;
            }
            ballot_active = (((ballot_outer8 && !ballot_ret) && !ballot_brk7) && !ballot_cont7);
            if (ballot_active) { total = (total - 7); }
        }
    }
    ballot_active = (ballot_entry7 && !ballot_ret);
    bool ballot_outer9 = ballot_active;
    bool ballot_taken9 = (total == 0);
    ballot_active = (ballot_outer9 && ballot_taken9);
    {
        if (ballot_active) { ballot_ret_val = (-1); }
        ballot_ret = (ballot_ret || ballot_active);
        ballot_active = false;
    }
    ballot_active = (ballot_outer9 && !ballot_ret);
    if (ballot_active) { ballot_ret_val = total; }
    ballot_ret = (ballot_ret || ballot_active);
    ballot_active = false;
    return ballot_ret_val;
}

int divergent(uint n, int limit) {
    return divergent_masked(true, n, limit);
}

void main() {
    uvec3 ballot_id = gl_WorkGroupID;
    uvec3 ballot_groups = gl_NumWorkGroups;
    uint ballot_workgroup = (ballot_id.x + (ballot_id.y * ballot_groups.x)) + ((ballot_id.z * ballot_groups.x) * ballot_groups.y);
    uint ballot_global = (ballot_workgroup * 64u) + gl_LocalInvocationIndex;
    ballot_init(gl_LocalInvocationIndex);
    uint ballot_arg0 = 0u;
    if (ballot_global < uint(ballot_in0.length())) { ballot_arg0 = ballot_in0[ballot_global]; }
    int ballot_arg1 = ballot_in1;
    int ballot_result = divergent(ballot_arg0, ballot_arg1);
    if (ballot_global < uint(ballot_out.length())) { ballot_out[ballot_global] = ballot_result; }
}
