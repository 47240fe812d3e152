// A compute shader for kernel `every_op`, target `wgsl-no-subgroup`, written by ballot.
// Where the spec leaves a result undefined, these functions return a
// documented value: FindLSB / FindMSB with no bit below the subgroup size
// give 0xffffffffu, and BitExtract at or above the size gives false.

// The virtual subgroup size, the invocations per workgroup, the slots
// of whole virtual subgroups they fill, the slots of each half of the
// broadcast values, the words of flag bits per exchange buffer, and a
// virtual subgroup's words; the ballots one exchange holds, the words
// of each one's buffers, and the lengths of the exchange arrays.
const ballot_subgroup_size: u32 = 32u;
const ballot_workgroup_size: u32 = 64u;
const ballot_padded_size: u32 = 64u;
const ballot_exchange_size: u32 = 64u;
const ballot_exchange_words: u32 = 2u;
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
    ballot_eq_bits = (ballot_mask_lane(ballot_lane) & ballot_below_bits);
    ballot_ge_bits = ((~ballot_mask_first(ballot_lane)) & ballot_below_bits);
    ballot_gt_bits = ((~ballot_mask_first((ballot_lane + 1u))) & ballot_below_bits);
    ballot_le_bits = (ballot_mask_first((ballot_lane + 1u)) & ballot_below_bits);
    ballot_lt_bits = (ballot_mask_first(ballot_lane) & ballot_below_bits);
    ballot_half = 0u;
    ballot_round = 0u;
    ballot_bit = (1u << (ballot_index & 31u));
    ballot_shift = (ballot_base & 31u);
    ballot_count_bits = ballot_mask_first(ballot_count);
}

// Rust's `f32 as u32`: saturating, NaN to 0. WGSL's u32() clamps within f32
// (to 4294967040u at most), so the top is chosen apart; NaN is tested on the
// bits, which no fast-math compiler folds away.
fn ballot_f32_to_u32(x: f32) -> u32 {
    let nan = ((bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u);
    return select(select(u32(x), 4294967295u, (x >= 4294967296.0f)), 0u, nan);
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

// Exchange memory of values, in two halves: one value per invocation, as up
// to four words, each word in a plane of its own (2 * ballot_exchange_size
// words a plane), so that a value moves only the words it uses (`words`, a
// constant of the call): one for a scalar, four for a mask. Four consecutive
// words make a vec4, so that a reduction or a scan reads four lanes' words at
// once. An exchange of values writes one half before its barrier; the next
// writes the other, so no write overtakes a read.
var<workgroup> ballot_values: array<vec4<u32>, ballot_values_length>;
// Beside each value, whether its invocation was active: Broadcast reads one
// lane's, without the contention of every lane setting a bit in one word.
var<workgroup> ballot_present: array<u32, ballot_present_length>;

// Writes the first `words` words of this invocation's value into the half the
// next exchange publishes.
fn ballot_put(value: vec4<u32>, words: u32) {
    let s = (ballot_half + ballot_index);
    let plane = (2u * ballot_exchange_size);
    ballot_values[s >> 2u][s & 3u] = value.x;
    if (words > 1u) {
        let t = s + plane;
        ballot_values[t >> 2u][t & 3u] = value.y;
    }
    if (words > 2u) {
        let t = s + 2u * plane;
        ballot_values[t >> 2u][t & 3u] = value.z;
    }
    if (words > 3u) {
        let t = s + 3u * plane;
        ballot_values[t >> 2u][t & 3u] = value.w;
    }
}

// The value in slot s, its words past the first `words` zero.
fn ballot_get(s: u32, words: u32) -> vec4<u32> {
    let plane = (2u * ballot_exchange_size);
    var v = vec4<u32>(ballot_values[s >> 2u][s & 3u], 0u, 0u, 0u);
    if (words > 1u) {
        let t = s + plane;
        v.y = ballot_values[t >> 2u][t & 3u];
    }
    if (words > 2u) {
        let t = s + 2u * plane;
        v.z = ballot_values[t >> 2u][t & 3u];
    }
    if (words > 3u) {
        let t = s + 3u * plane;
        v.w = ballot_values[t >> 2u][t & 3u];
    }
    return v;
}

// Whether a reduction or a scan takes one exchange, every lane reading its
// subgroup's words four at a time: a word a value, and whole subgroups of 4
// to 32 lanes (at 4 the two-level exchange is one exchange too; past 32 its
// second level reads fewer). All constants of the call.
fn ballot_one_level(words: u32) -> bool {
    return words == 1u && (ballot_workgroup_size % ballot_subgroup_size) == 0u && ballot_subgroup_size >= 4u && ballot_subgroup_size <= 32u;
}

// An exchange of values alone: waits for the workgroup's, and returns the
// half they went to. It takes the next half of the values, and leaves the
// flag buffers to the next exchange that sets bits. It holds a barrier: every
// invocation of the workgroup calls it, in uniform control flow.
fn ballot_values_sync() -> u32 {
    let half = ballot_half;
    ballot_half = (ballot_exchange_size - half);
    workgroupBarrier();
    return half;
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

// subgroupBroadcastFirst(value): the value of the lowest active lane, of which
// the first `words` words move. The value goes to the half of the values that
// ballot_share's barrier publishes; the read stays within the subgroup's
// slots.
fn ballot_broadcast_first(on: bool, value: vec4<u32>, words: u32) -> vec4<u32> {
    let half = ballot_half;
    ballot_put(value, words);
    let lowest = ballot_lowest_flag(ballot_gather(ballot_share(on)));
    let got = ballot_get(((half + ballot_base) + min(lowest, (ballot_subgroup_size - 1u))), words);
    return select(value, got, (lowest < ballot_count));
}

// subgroupBroadcast(value, id): the value of lane id, of which the first
// `words` words move. An inactive or missing lane has none to give, so the
// invocation keeps its own, where the spec leaves the result undefined. Both
// reads stay within the subgroup's slots, whatever id is, and neither waits
// for the other.
fn ballot_broadcast(on: bool, value: vec4<u32>, id: u32, words: u32) -> vec4<u32> {
    ballot_present[(ballot_half + ballot_index)] = select(0u, 1u, on);
    ballot_put(value, words);
    let slot = ((ballot_values_sync() + ballot_base) + min(id, (ballot_subgroup_size - 1u)));
    let present = ballot_present[slot];
    let got = ballot_get(slot, words);
    return select(value, got, ((id < ballot_count) && (present != 0u)));
}

@group(0) @binding(0) var<storage, read> ballot_in0: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> ballot_in1: array<u32>;
@group(0) @binding(2) var<storage, read> ballot_in2: array<f32>;
@group(0) @binding(3) var<storage, read_write> ballot_out: array<u32>;

// `every_op` if-converted: every invocation runs every statement, and
// ballot_active says which really do. Called in uniform control flow.
fn every_op_masked(ballot_active_in: bool, v: vec4<u32>, i: u32, x: f32) -> u32 {
    var acc: u32;
    var masks: vec4<u32>;
    var more: vec4<u32>;
    var first: u32;
    var ballot_active = ballot_active_in;
    var ballot_ret = false;
    var ballot_ret_val = 0u;
    if ballot_active { acc = (ballot_bit_count(v) + ballot_inclusive_bit_count(v)); }
    if ballot_active { acc = (acc + ballot_exclusive_bit_count(v)); }
    let ballot_outer1 = ballot_active;
    let ballot_taken1 = ballot_bit_extract(v, (i % ballot_size));
    ballot_active = (ballot_outer1 && ballot_taken1);
    {
        if ballot_active { acc = (acc + 1u); }
    }
    ballot_active = ballot_outer1;
    let ballot_t2 = ballot_broadcast_first(ballot_active, v, 4u);
    let ballot_t3 = ballot_inverse_ballot(ballot_t2);
    let ballot_outer4 = ballot_active;
    let ballot_taken4 = ballot_t3;
    ballot_active = (ballot_outer4 && ballot_taken4);
    {
        if ballot_active { acc = (acc + 2u); }
    }
    ballot_active = ballot_outer4;
    if ballot_active { masks = ((ballot_eq_mask() | ballot_ge_mask()) | ballot_gt_mask()); }
    if ballot_active { more = (ballot_le_mask() ^ ballot_lt_mask()); }
    if ballot_active { acc = (acc + ballot_mask_count((masks & more))); }
    let ballot_t5 = ballot_elect(ballot_active);
    let ballot_outer6 = ballot_active;
    let ballot_taken6 = ballot_t5;
    ballot_active = (ballot_outer6 && ballot_taken6);
    {
        if ballot_active { acc = (acc + 100u); }
    }
    ballot_active = ballot_outer6;
    let ballot_t7 = bitcast<f32>(ballot_broadcast(ballot_active, vec4<u32>(bitcast<u32>(x), 0u, 0u, 0u), 0u, 1u).x);
    if ballot_active { first = ballot_f32_to_u32(ballot_t7); }
    if ballot_active { ballot_ret_val = (((acc + first) + ballot_find_lsb(vec4<u32>(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu))) + ballot_find_msb(vec4<u32>(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu))); }
    ballot_ret = (ballot_ret || ballot_active);
    ballot_active = false;
    return ballot_ret_val;
}

// Call in every invocation of the workgroup, in uniform control flow.
fn every_op(v: vec4<u32>, i: u32, x: f32) -> u32 {
    return every_op_masked(true, v, i, x);
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
    let ballot_arg0 = ballot_in0[min(ballot_global, (arrayLength(&ballot_in0) - 1u))];
    let ballot_arg1 = ballot_in1[min(ballot_global, (arrayLength(&ballot_in1) - 1u))];
    let ballot_arg2 = ballot_in2[min(ballot_global, (arrayLength(&ballot_in2) - 1u))];
    let ballot_result = every_op(ballot_arg0, ballot_arg1, ballot_arg2);
    if (ballot_global < arrayLength(&ballot_out)) {
        ballot_out[ballot_global] = ballot_result;
    }
}
