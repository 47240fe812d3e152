#version 450

const uint ballot_subgroup_size = 32u;
const uint ballot_workgroup_size = 64u;
const uint ballot_exchange_size = 64u;

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

shared bool ballot_flags[ballot_exchange_size];

shared bool ballot_votes[ballot_exchange_size];
shared bool ballot_vote;

// The lowest lane of this virtual subgroup whose flag is set, or
// ballot_count when none is; read between the barriers of an exchange.
uint ballot_lowest_flag() {
    for (uint i = 0u; i < ballot_count; i = i + 1u) {
        if (ballot_flags[ballot_base + i]) {
            return i;
        }
    }
    return ballot_count;
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

bool ballot_elect(bool act) {
    ballot_flags[ballot_index] = act;
    barrier();
    uint first = ballot_lowest_flag();
    barrier();
    return act && (first == ballot_lane);
}

uvec4 ballot_ballot(bool act, bool p) {
    ballot_flags[ballot_index] = act && p;
    barrier();
    uvec4 m = uvec4(0u);
    for (uint i = 0u; i < ballot_count; i = i + 1u) {
        if (ballot_flags[ballot_base + i]) {
            m[i >> 5u] = m[i >> 5u] | (1u << (i & 31u));
        }
    }
    barrier();
    return m;
}

// Whether any invocation of the workgroup passes true: loops that reach
// barriers run until none is active, so that all leave them together.
// Invocation 0 writes the result between the two barriers; every invocation
// reads it before it can reach the first barrier of the next vote.
bool ballot_workgroup_any(bool act) {
    ballot_votes[ballot_index] = act;
    barrier();
    if (ballot_index == 0u) {
        bool found = false;
        for (uint i = 0u; i < ballot_workgroup_size; i = i + 1u) {
            found = found || ballot_votes[i];
        }
        ballot_vote = found;
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
