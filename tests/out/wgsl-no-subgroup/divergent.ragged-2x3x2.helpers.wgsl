// Helper functions for kernel `divergent`, target `wgsl-no-subgroup`, written by ballot.
// Virtual subgroups of 8 lanes in workgroups of 12 invocations: subgroup s
// is local_invocation_index s * 8 .. s * 8 + 8. Every invocation of the
// workgroup must call ballot_init(local_invocation_index) at the top of the
// entry point, then the kernel's function in workgroup-uniform control
// flow: it holds barriers. Broadcast from an inactive or missing lane gives
// the invocation's own value.
// Where the spec leaves a result undefined, these functions return a
// documented value: FindLSB / FindMSB with no bit below the subgroup size
// give 0xffffffffu, and BitExtract at or above the size gives false.

// The virtual subgroup size, the invocations per workgroup, and the
// exchange memory's slots.
const ballot_subgroup_size: u32 = 8u;
const ballot_workgroup_size: u32 = 12u;
const ballot_exchange_size: u32 = 12u;

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

// The lowest lane of this virtual subgroup whose shared flag is set, or the
// subgroup size when none is.
fn ballot_lowest_flag() -> u32 {
    var lowest = ballot_subgroup_size;
    for (var i = 0u; i < ballot_subgroup_size; i++) {
        if ((i < ballot_count) && (ballot_flags[(ballot_base + i)] != 0u)) {
            lowest = min(lowest, i);
        }
    }
    return lowest;
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

// subgroupElect: whether this is the lowest active lane.
fn ballot_elect(on: bool) -> bool {
    ballot_share(on);
    let lowest = ballot_lowest_flag();
    // Every lane has read the flags before the next exchange writes them.
    workgroupBarrier();
    return (lowest == ballot_lane);
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

// The exit vote of loops that hold collectives.
var<workgroup> ballot_any_flag: u32;

// Whether p holds in any invocation of the workgroup. workgroupUniformLoad
// makes the answer uniform, so a loop may leave on it while every invocation
// still reaches every barrier.
fn ballot_workgroup_any(p: bool) -> bool {
    ballot_share(p);
    if (ballot_index == 0u) {
        var votes = 0u;
        for (var i = 0u; i < ballot_workgroup_size; i++) {
            votes = (votes | ballot_flags[i]);
        }
        ballot_any_flag = votes;
    }
    return (workgroupUniformLoad(&ballot_any_flag) != 0u);
}

// `divergent` if-converted: every invocation runs every statement, and
// ballot_active says which really do. Called in uniform control flow.
fn divergent_masked(ballot_active_in: bool, n: u32, limit: i32) -> i32 {
    var total: i32;
    var for0: i32;
    var end1: i32;
    var i: i32;
    var ballot_active = ballot_active_in;
    var ballot_ret = false;
    var ballot_ret_val = 0i;
    if ballot_active { total = 0i; }
    if ballot_active { for0 = 0i; }
    if ballot_active { end1 = limit; }
    let ballot_entry1 = ballot_active;
    var ballot_brk1 = false;
    var ballot_cont1 = false;
    loop {
        ballot_cont1 = false;
        ballot_active = ((ballot_entry1 && !ballot_brk1) && !ballot_ret);
        if (!ballot_workgroup_any(ballot_active)) { break; }
        {
            let ballot_outer2 = ballot_active;
            let ballot_taken2 = (!(for0 < end1));
            ballot_active = (ballot_outer2 && ballot_taken2);
            {
                ballot_brk1 = (ballot_brk1 || ballot_active);
                ballot_active = false;
            }
            ballot_active = (((ballot_outer2 && !ballot_ret) && !ballot_brk1) && !ballot_cont1);
            if ballot_active { i = for0; }
            let ballot_outer3 = ballot_active;
            let ballot_taken3 = (bitcast<u32>(i) >= n);
            ballot_active = (ballot_outer3 && ballot_taken3);
            {
                ballot_brk1 = (ballot_brk1 || ballot_active);
                ballot_active = false;
            }
            ballot_active = (((ballot_outer3 && !ballot_ret) && !ballot_brk1) && !ballot_cont1);
            let ballot_t4 = ballot_elect(ballot_active);
            let ballot_outer5 = ballot_active;
            let ballot_taken5 = ballot_t4;
            ballot_active = (ballot_outer5 && ballot_taken5);
            {
                ballot_cont1 = (ballot_cont1 || ballot_active);
                ballot_active = false;
            }
            ballot_active = (((ballot_outer5 && !ballot_ret) && !ballot_brk1) && !ballot_cont1);
            let ballot_t6 = ballot_ballot(ballot_active, true);
            if ballot_active { total = (total + bitcast<i32>(ballot_bit_count(ballot_t6))); }
        }
        ballot_active = ((ballot_entry1 && !ballot_brk1) && !ballot_ret);
        {
            if ballot_active { for0 = (for0 + 1i); }
        }
    }
    ballot_active = (ballot_entry1 && !ballot_ret);
    let ballot_entry7 = ballot_active;
    var ballot_brk7 = false;
    var ballot_cont7 = false;
    loop {
        ballot_cont7 = false;
        ballot_active = ((ballot_entry7 && !ballot_brk7) && !ballot_ret);
        if (!ballot_active) { break; }
        {
            let ballot_outer8 = ballot_active;
            let ballot_taken8 = (!(total > 100i));
            ballot_active = (ballot_outer8 && ballot_taken8);
            {
                ballot_brk7 = (ballot_brk7 || ballot_active);
                ballot_active = false;
            }
            ballot_active = (((ballot_outer8 && !ballot_ret) && !ballot_brk7) && !ballot_cont7);
            if ballot_active { total = (total - 7i); }
        }
    }
    ballot_active = (ballot_entry7 && !ballot_ret);
    let ballot_outer9 = ballot_active;
    let ballot_taken9 = (total == 0i);
    ballot_active = (ballot_outer9 && ballot_taken9);
    {
        if ballot_active { ballot_ret_val = (-1i); }
        ballot_ret = (ballot_ret || ballot_active);
        ballot_active = false;
    }
    ballot_active = (ballot_outer9 && !ballot_ret);
    if ballot_active { ballot_ret_val = total; }
    ballot_ret = (ballot_ret || ballot_active);
    ballot_active = false;
    return ballot_ret_val;
}

// Call in every invocation of the workgroup, in uniform control flow.
fn divergent(n: u32, limit: i32) -> i32 {
    return divergent_masked(true, n, limit);
}
