// A compute shader for kernel `divergent`, target `wgsl-no-subgroup`, written by ballot.
// Where the spec leaves a result undefined, these functions return a
// documented value: FindLSB / FindMSB with no bit below the subgroup size
// give 0xffffffffu, and BitExtract at or above the size gives false.

// The virtual subgroup size, the invocations per workgroup, the slots
// of whole virtual subgroups they fill, the slots of each half of the
// broadcast values, the words of flag bits per exchange buffer, and a
// virtual subgroup's words; the ballots one exchange holds, the words
// of each one's buffers, and the lengths of the exchange arrays.
const ballot_subgroup_size: u32 = 8u;
const ballot_workgroup_size: u32 = 12u;
const ballot_padded_size: u32 = 16u;
const ballot_exchange_size: u32 = 16u;
const ballot_exchange_words: u32 = 1u;
const ballot_subgroup_words: u32 = 1u;
const ballot_exchange_slots: u32 = 1u;
const ballot_slot_stride: u32 = 3u * ballot_exchange_words;
const ballot_words_length: u32 = ballot_exchange_slots * ballot_slot_stride;
const ballot_values_length: u32 = 2u * ballot_exchange_size;
const ballot_present_length: u32 = 2u * ballot_exchange_size;

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
    ballot_half = 0u;
    ballot_round = 0u;
    ballot_bit = (1u << (ballot_index & 31u));
    ballot_shift = (ballot_base & 31u);
    ballot_count_bits = ballot_mask_first(ballot_count);
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

// Exchange memory of the virtual subgroups: ballot_exchange_slots slots, each
// of three buffers of ballot_exchange_words words (ballot_slot_stride words
// a slot), in which an invocation sets its bit with atomicOr, so that a
// virtual subgroup's ballot is one word (a few above 32 lanes). Exchange k sets
// bits in buffer k % 3 of each slot it uses, waits at one barrier and reads
// them; it also clears buffer (k + 1) % 3, whose last reads (exchange k - 2)
// ended before barrier k - 1 and whose next writes (exchange k + 1) start
// after barrier k. Ballots that share an exchange (ballot_publish, then one
// ballot_sync) take one slot each. WGSL zeroes workgroup memory, so the first
// buffers start clear.
var<workgroup> ballot_words: array<atomic<u32>, ballot_words_length>;
// The buffer the next exchange writes, as its first word: the same in every
// invocation, since every invocation makes every exchange.
var<private> ballot_round: u32;
// The half of the broadcast values the next exchange writes: 0 or
// ballot_exchange_size.
var<private> ballot_half: u32;
// This invocation's bit in its word, where its virtual subgroup's bits start
// in their word (0 unless the subgroup has fewer than 32 lanes), and the bits
// of the lanes the subgroup has, the only ones its ballots keep.
var<private> ballot_bit: u32;
var<private> ballot_shift: u32;
var<private> ballot_count_bits: vec4<u32>;

// Sets this invocation's bit, where `flag` holds, in `slot` of the next
// exchange.
fn ballot_publish(flag: bool, slot: u32) {
    if (flag) {
        atomicOr(&ballot_words[(((slot * ballot_slot_stride) + ballot_round) + (ballot_index >> 5u))], ballot_bit);
    }
}

// Waits for the workgroup's bits, and returns where the exchange's first slot
// is; slot k is ballot_slot_stride * k past it. It holds a barrier: every
// invocation of the workgroup calls it, in uniform control flow.
fn ballot_sync() -> u32 {
    let at = ballot_round;
    let next = select((at + ballot_exchange_words), 0u, (at == (2u * ballot_exchange_words)));
    ballot_round = next;
    ballot_half = (ballot_exchange_size - ballot_half);
    // One invocation per word clears it; the spare slot's word is cleared by
    // the invocations past the workgroup that set it.
    if ((ballot_index & 31u) == 0u) {
        for (var s = 0u; s < ballot_exchange_slots; s++) {
            atomicStore(&ballot_words[(((s * ballot_slot_stride) + next) + (ballot_index >> 5u))], 0u);
        }
    }
    workgroupBarrier();
    return at;
}

// An exchange of one flag: publishes it, waits for the workgroup, and returns
// the buffer it went to.
fn ballot_share(flag: bool) -> u32 {
    ballot_publish(flag, 0u);
    return ballot_sync();
}

// The flags of this virtual subgroup in the buffer at `at`, as its ballot.
fn ballot_gather(at: u32) -> vec4<u32> {
    let first = (at + (ballot_base >> 5u));
    var m = vec4<u32>(atomicLoad(&ballot_words[first]), 0u, 0u, 0u);
    // Only a subgroup of more than 32 lanes has more words.
    for (var i = 1u; i < ballot_subgroup_words; i++) {
        m[i] = atomicLoad(&ballot_words[(first + i)]);
    }
    return ((m >> vec4<u32>(ballot_shift)) & ballot_count_bits);
}

// The lowest lane set in a ballot of this virtual subgroup, or the subgroup
// size when none is.
fn ballot_lowest_flag(m: vec4<u32>) -> u32 {
    // Subgroups of up to 32 lanes have only the first word.
    if (((m.y | m.z) | m.w) == 0u) {
        return select(ballot_subgroup_size, firstTrailingBit(m.x), (m.x != 0u));
    }
    let t = firstTrailingBit(m);
    var lowest = (96u + t.w);
    lowest = select(lowest, (64u + t.z), (m.z != 0u));
    lowest = select(lowest, (32u + t.y), (m.y != 0u));
    lowest = select(lowest, t.x, (m.x != 0u));
    return lowest;
}

// subgroupElect: whether this is the lowest active lane.
fn ballot_elect(on: bool) -> bool {
    return (ballot_lowest_flag(ballot_gather(ballot_share(on))) == ballot_lane);
}

// subgroupBallot(predicate): bit i is set iff lane i is active and its
// predicate holds.
fn ballot_ballot(on: bool, predicate: bool) -> vec4<u32> {
    return ballot_gather(ballot_share((on && predicate)));
}

// The exit vote of loops that hold collectives: how many invocations vote
// yes in the current vote.
var<workgroup> ballot_votes: atomic<u32>;

// Whether p holds in any invocation of the workgroup, without an exchange.
// Each invocation where p holds adds one before workgroupUniformLoad's
// barrier and takes it back after the load, so every vote starts from zero;
// the first starts from WGSL's zero-initialised workgroup memory, which a
// host must not turn off, as for the exchange. The value is uniform, as WGSL
// promises, because nothing writes the word between the barrier and every
// invocation's load (naga and Tint close the load with a second barrier). A
// loop may leave on the answer while every invocation still reaches every
// barrier. Invocations past the workgroup (a library's guard) do not vote.
fn ballot_workgroup_any(p: bool) -> bool {
    let vote = (p && (ballot_index < ballot_workgroup_size));
    if (vote) {
        atomicAdd(&ballot_votes, 1u);
    }
    let any = (workgroupUniformLoad(&ballot_votes) != 0u);
    if (vote) {
        atomicSub(&ballot_votes, 1u);
    }
    return any;
}

@group(0) @binding(0) var<storage, read> ballot_in0: array<u32>;
@group(0) @binding(1) var<storage, read> ballot_in1: i32;
@group(0) @binding(2) var<storage, read_write> ballot_out: array<i32>;
@group(0) @binding(3) var<storage, read_write> ballot_lanes: array<vec4<u32>>;

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

@compute @workgroup_size(2, 3, 2)
fn main(
    @builtin(local_invocation_index) ballot_local_index: u32,
    @builtin(workgroup_id) ballot_workgroup_id: vec3<u32>,
    @builtin(num_workgroups) ballot_num_workgroups: vec3<u32>,
) {
    ballot_init(ballot_local_index);
    let ballot_workgroup_index = ((ballot_workgroup_id.x + (ballot_workgroup_id.y * ballot_num_workgroups.x))
        + ((ballot_workgroup_id.z * ballot_num_workgroups.x) * ballot_num_workgroups.y));
    let ballot_global = ((ballot_workgroup_index * 12u) + ballot_local_index);
    let ballot_key = ballot_base;
    if (ballot_global < arrayLength(&ballot_lanes)) {
        ballot_lanes[ballot_global] = vec4<u32>(ballot_lane, ballot_size, ballot_key, ballot_workgroup_index);
    }
    let ballot_arg0 = ballot_in0[min(ballot_global, (arrayLength(&ballot_in0) - 1u))];
    let ballot_arg1 = ballot_in1;
    let ballot_result = divergent(ballot_arg0, ballot_arg1);
    if (ballot_global < arrayLength(&ballot_out)) {
        ballot_out[ballot_global] = ballot_result;
    }
}
