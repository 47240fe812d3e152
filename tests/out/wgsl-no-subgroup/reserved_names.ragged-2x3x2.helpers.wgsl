// Helper functions for kernel `reserved_names`, target `wgsl-no-subgroup`, written by ballot.
// Virtual subgroups of 8 lanes in workgroups of 12 invocations: subgroup s
// is local_invocation_index s * 8 .. s * 8 + 8. Every invocation of the
// workgroup must call ballot_init(local_invocation_index) at the top of the
// entry point, then the kernel's function in workgroup-uniform control
// flow: it holds barriers. Broadcast from an inactive or missing lane gives
// the invocation's own value.
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

// subgroupBallot(predicate): bit i is set iff lane i is active and its
// predicate holds.
fn ballot_ballot(on: bool, predicate: bool) -> vec4<u32> {
    return ballot_gather(ballot_share((on && predicate)));
}

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
