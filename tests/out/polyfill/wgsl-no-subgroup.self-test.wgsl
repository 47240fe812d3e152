// ballot polyfill library for target `wgsl-no-subgroup` (any WebGPU compute
// device with workgroup memory; no subgroup support (virtual subgroup size
// option)).
//
// Include: concatenate this text before (or after) your shader's code. It needs
// no subgroup support: it runs on every WebGPU implementation.
//
// Init: call ballot_init(local_invocation_index) once, at the top of the entry
// point, in every invocation, with @builtin(local_invocation_index).
//
// Subgroups of 32 invocations are emulated in workgroup memory, for a workgroup
// of 64 invocations (e.g. 64x1x1; the shader's workgroup must have exactly that
// many: invocations past them get failure values, all bits set (0xFFFFFFFF)
// from the functions that return masks and numbers (-1 from int ones, a NaN
// from float ones), false from the others): virtual subgroup k is the
// invocations with local invocation index in k * 32 .. k * 32 + 32; the last is
// partial if 32 does not divide 64. Ballot, Elect, Broadcast, BroadcastFirst,
// the votes, arithmetic, shuffles and quads take `on` first, whether the
// invocation is active, and hold barriers: EVERY invocation of the workgroup
// must call them, in workgroup-uniform control flow, passing on = false where
// it would not have called them. The other functions are lane-local: call them
// anywhere.
//
// Names: the GLSL ones (subgroupBallot, subgroupBallotFindMSB, …), shadowing
// WGSL's built-ins; built-in variables become functions without gl_
// (subgroupEqMask()). Broadcasts take u32 values, and vec4<u32> ones under
// subgroupBroadcastVec4 / subgroupBroadcastFirstVec4; Broadcast's id need not
// be a constant. The votes take bool; AllEqual, arithmetic, shuffles and quads
// take u32 under the GLSL name and the other types under a suffix: I32, F32,
// Vec4 (AllEqual also Bool; Min and Max of u32, i32, f32; And, Or, Xor of u32,
// i32): subgroupAddF32, subgroupShuffleXorVec4.
//
// Where the spec leaves a result undefined, these functions return: FindLSB /
// FindMSB with no bit below the subgroup size: 0xFFFFFFFF; BitExtract at or
// above the size: false; InverseBallot of a value that differs across lanes:
// each lane's own bit; Broadcast, Shuffle, ShuffleXor, ShuffleUp, ShuffleDown,
// QuadBroadcast and the quad swaps from an inactive lane or one outside the
// subgroup, and BroadcastFirst with no active lane: the caller's own value.
// Arithmetic on float rounds in the emulation's order (a tree of log2(size)
// levels).
//
// Names starting with ballot_ are the library's own.

// The virtual subgroup size, the invocations per workgroup, the slots
// of whole virtual subgroups they fill, the slots of each half of the
// broadcast values, the words of flag bits per exchange buffer, and a
// virtual subgroup's words; the ballots one exchange holds, the words
// of each one's buffers, and the lengths of the exchange arrays.
const ballot_subgroup_size: u32 = 32u;
const ballot_workgroup_size: u32 = 64u;
const ballot_padded_size: u32 = 64u;
const ballot_exchange_size: u32 = 68u;
const ballot_exchange_words: u32 = 3u;
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
    if (local_invocation_index >= ballot_workgroup_size) {
        ballot_overflow = true;
        ballot_index = ballot_padded_size;
        ballot_base = 0u;
        ballot_count = 0u;
    }
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

// Whether this invocation is past the workgroup the library was written for.
var<private> ballot_overflow: bool;

// An f32 from its bits. A function call is never a constant expression, and
// a constant NaN or infinity is a shader-creation error.
fn ballot_f32_bits(bits: u32) -> f32 {
    return bitcast<f32>(bits);
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

// subgroupBallot(predicate): bit i is set iff lane i is active and its
// predicate holds.
fn ballot_ballot(on: bool, predicate: bool) -> vec4<u32> {
    return ballot_gather(ballot_share((on && predicate)));
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

// subgroupAll(predicate): whether no active lane's predicate fails.
fn ballot_all(on: bool, predicate: bool) -> bool {
    return all((ballot_gather(ballot_share((on && !predicate))) == vec4<u32>(0u)));
}

// subgroupAny(predicate): whether some active lane's predicate holds.
fn ballot_any(on: bool, predicate: bool) -> bool {
    return any((ballot_gather(ballot_share((on && predicate))) != vec4<u32>(0u)));
}

// subgroupAllEqual(value): whether every active lane holds the lowest active
// lane's value, compared as f32 (ordered: -0.0 equals 0.0, a NaN nothing)
// where is_float, otherwise bit for bit.
fn ballot_all_equal(on: bool, value: vec4<u32>, is_float: bool, words: u32) -> bool {
    let first = ballot_broadcast_first(on, value, words);
    let same_float = all((bitcast<vec4<f32>>(value) == bitcast<vec4<f32>>(first)));
    return ballot_all(on, select(all((value == first)), same_float, is_float));
}

// subgroupShuffleXor(value, mask): the value of lane own ^ mask; the caller's
// own where that lane is inactive or missing (undefined in the spec).
fn ballot_shuffle_xor(on: bool, value: vec4<u32>, mask: u32, words: u32) -> vec4<u32> {
    return ballot_broadcast(on, value, (ballot_lane ^ mask), words);
}

// subgroupShuffleUp(value, delta): the value of lane own - delta; the
// caller's own where that lane is below 0, inactive or missing (undefined).
fn ballot_shuffle_up(on: bool, value: vec4<u32>, delta: u32, words: u32) -> vec4<u32> {
    return ballot_broadcast(on, value, select(0xffffffffu, (ballot_lane - delta), (delta <= ballot_lane)), words);
}

// subgroupShuffleDown(value, delta): the value of lane own + delta; the
// caller's own where that lane is at or above the size, or inactive
// (undefined). A delta that would wrap is out of range too.
fn ballot_shuffle_down(on: bool, value: vec4<u32>, delta: u32, words: u32) -> vec4<u32> {
    return ballot_broadcast(on, value, select(0xffffffffu, (ballot_lane + delta), (delta < ballot_subgroup_size)), words);
}

// subgroupQuadBroadcast(value, index): the value of lane index of this lane's
// quad (lanes 4k..4k + 3); the caller's own where that lane is inactive or
// missing, or index is 4 or more (undefined).
fn ballot_quad_broadcast(on: bool, value: vec4<u32>, index: u32, words: u32) -> vec4<u32> {
    return ballot_broadcast(on, value, select(0xffffffffu, ((ballot_lane & ~3u) + index), (index < 4u)), words);
}

// subgroupQuadSwapHorizontal / Vertical / Diagonal (k = 1, 2, 3): the value of
// lane own ^ k; the caller's own where that lane is inactive or missing
// (undefined).
fn ballot_quad_swap(on: bool, value: vec4<u32>, k: u32, words: u32) -> vec4<u32> {
    return ballot_broadcast(on, value, (ballot_lane ^ k), words);
}

// The identity of arithmetic operation op (0 IAdd, 1 FAdd, 2 IMul, 3 FMul,
// 4 SMin, 5 UMin, 6 FMin, 7 SMax, 8 UMax, 9 FMax, 10 And, 11 Or, 12 Xor), in
// every word: the result over no lane.
fn ballot_identity(op: u32) -> vec4<u32> {
    switch op {
        case 2u: { return vec4<u32>(1u); }
        case 3u: { return vec4<u32>(0x3f800000u); }
        case 4u: { return vec4<u32>(0x7fffffffu); }
        case 5u, 10u: { return vec4<u32>(0xffffffffu); }
        case 6u: { return vec4<u32>(0x7f800000u); }
        case 7u: { return vec4<u32>(0x80000000u); }
        case 9u: { return vec4<u32>(0xff800000u); }
        default: { return vec4<u32>(0u); }
    }
}

// a op b, word by word, on the bits of u32, i32 or f32 values (op numbered as
// in ballot_identity). Integers wrap.
fn ballot_combine(op: u32, a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
    let fa = bitcast<vec4<f32>>(a);
    let fb = bitcast<vec4<f32>>(b);
    let ia = bitcast<vec4<i32>>(a);
    let ib = bitcast<vec4<i32>>(b);
    switch op {
        case 0u: { return (a + b); }
        case 1u: { return bitcast<vec4<u32>>((fa + fb)); }
        case 2u: { return (a * b); }
        case 3u: { return bitcast<vec4<u32>>((fa * fb)); }
        case 4u: { return bitcast<vec4<u32>>(min(ia, ib)); }
        case 5u: { return min(a, b); }
        case 6u: { return bitcast<vec4<u32>>(min(fa, fb)); }
        case 7u: { return bitcast<vec4<u32>>(max(ia, ib)); }
        case 8u: { return max(a, b); }
        case 9u: { return bitcast<vec4<u32>>(max(fa, fb)); }
        case 10u: { return (a & b); }
        case 11u: { return (a | b); }
        default: { return (a ^ b); }
    }
}

// subgroupAdd and the other reductions: every lane gets the total.
fn ballot_reduce(on: bool, value: vec4<u32>, op: u32, words: u32) -> vec4<u32> {
    let identity = ballot_identity(op);
    if (ballot_one_level(words)) {
        ballot_put(select(identity, ballot_combine(op, identity, value), on), 1u);
        let quads = (ballot_values_sync() + ballot_base) >> 2u;
        var sum = identity;
        for (var k = 0u; k < ballot_subgroup_size / 4u; k++) {
            let q = ballot_values[quads + k];
            sum = ballot_combine(op, sum, ballot_combine(op, ballot_combine(op, vec4<u32>(q.x), vec4<u32>(q.y)), ballot_combine(op, vec4<u32>(q.z), vec4<u32>(q.w))));
        }
        return sum;
    }
    let g = select((1u << (firstLeadingBit(ballot_subgroup_size) >> 1u)), ballot_subgroup_size, (ballot_subgroup_size <= 4u));
    let ragged = ((ballot_workgroup_size % ballot_subgroup_size) != 0u);
    let first = (ballot_lane & ~(g - 1u));
    ballot_put(select(identity, ballot_combine(op, identity, value), on), words);
    var at = (ballot_values_sync() + ballot_base);
    var total = identity;
    for (var k = 0u; k < g; k++) {
        let w = ballot_get(((at + first) + k), words);
        total = ballot_combine(op, total, select(w, identity, (ragged && ((first + k) >= ballot_count))));
    }
    if (g == ballot_subgroup_size) {
        return total;
    }
    ballot_put(total, words);
    at = (ballot_values_sync() + ballot_base);
    var r = identity;
    for (var j = 0u; j < ballot_subgroup_size; j += g) {
        let w = ballot_get((at + j), words);
        r = ballot_combine(op, r, select(w, identity, (ragged && (j >= ballot_count))));
    }
    return r;
}

// The scans' one body: the lanes below `bound` (the caller's lane + 1 for an
// inclusive scan, its lane for an exclusive one), from the identity in lane
// order. One exchange where ballot_reduce takes one; else the lanes of this
// lane's group below the bound, then the totals of the groups before it.
fn ballot_scan(on: bool, value: vec4<u32>, op: u32, words: u32, bound: u32) -> vec4<u32> {
    let identity = ballot_identity(op);
    if (ballot_one_level(words)) {
        ballot_put(select(identity, ballot_combine(op, identity, value), on), 1u);
        let quads = (ballot_values_sync() + ballot_base) >> 2u;
        var sum = identity;
        for (var k = 0u; k < ballot_subgroup_size / 4u; k++) {
            let q = ballot_values[quads + k];
            let l = 4u * k;
            sum = select(sum, ballot_combine(op, sum, vec4<u32>(q.x)), l < bound);
            sum = select(sum, ballot_combine(op, sum, vec4<u32>(q.y)), l + 1u < bound);
            sum = select(sum, ballot_combine(op, sum, vec4<u32>(q.z)), l + 2u < bound);
            sum = select(sum, ballot_combine(op, sum, vec4<u32>(q.w)), l + 3u < bound);
        }
        return sum;
    }
    let g = select((1u << (firstLeadingBit(ballot_subgroup_size) >> 1u)), ballot_subgroup_size, (ballot_subgroup_size <= 4u));
    let ragged = ((ballot_workgroup_size % ballot_subgroup_size) != 0u);
    let first = (ballot_lane & ~(g - 1u));
    ballot_put(select(identity, ballot_combine(op, identity, value), on), words);
    var at = (ballot_values_sync() + ballot_base);
    var total = identity;
    var own = identity;
    for (var k = 0u; k < g; k++) {
        let w = select(ballot_get(((at + first) + k), words), identity, (ragged && ((first + k) >= ballot_count)));
        own = select(own, ballot_combine(op, own, w), ((first + k) < bound));
        total = ballot_combine(op, total, w);
    }
    if (g == ballot_subgroup_size) {
        return own;
    }
    ballot_put(total, words);
    at = (ballot_values_sync() + ballot_base);
    var r = identity;
    for (var j = 0u; j < ballot_subgroup_size; j += g) {
        let w = ballot_get((at + j), words);
        r = select(r, ballot_combine(op, r, w), (j < first));
    }
    return ballot_combine(op, r, own);
}

// subgroupInclusiveAdd and the other inclusive scans: lanes at or below this
// one.
fn ballot_inclusive_scan(on: bool, value: vec4<u32>, op: u32, words: u32) -> vec4<u32> {
    return ballot_scan(on, value, op, words, (ballot_lane + 1u));
}

// subgroupExclusiveAdd and the other exclusive scans: lanes below this one;
// the identity in lane 0.
fn ballot_exclusive_scan(on: bool, value: vec4<u32>, op: u32, words: u32) -> vec4<u32> {
    return ballot_scan(on, value, op, words, ballot_lane);
}

// The public functions, under the GLSL names of what they replace.

fn subgroupBallot(on: bool, predicate: bool) -> vec4<u32> {
    return select(ballot_ballot(on, predicate), vec4<u32>(0xffffffffu), ballot_overflow);
}

fn subgroupInverseBallot(value: vec4<u32>) -> bool {
    return select(ballot_inverse_ballot(value), false, ballot_overflow);
}

fn subgroupBallotBitExtract(value: vec4<u32>, index: u32) -> bool {
    return select(ballot_bit_extract(value, index), false, ballot_overflow);
}

fn subgroupBallotBitCount(value: vec4<u32>) -> u32 {
    return select(ballot_bit_count(value), 0xffffffffu, ballot_overflow);
}

fn subgroupBallotInclusiveBitCount(value: vec4<u32>) -> u32 {
    return select(ballot_inclusive_bit_count(value), 0xffffffffu, ballot_overflow);
}

fn subgroupBallotExclusiveBitCount(value: vec4<u32>) -> u32 {
    return select(ballot_exclusive_bit_count(value), 0xffffffffu, ballot_overflow);
}

fn subgroupBallotFindLSB(value: vec4<u32>) -> u32 {
    return select(ballot_find_lsb(value), 0xffffffffu, ballot_overflow);
}

fn subgroupBallotFindMSB(value: vec4<u32>) -> u32 {
    return select(ballot_find_msb(value), 0xffffffffu, ballot_overflow);
}

fn subgroupEqMask() -> vec4<u32> {
    return select(ballot_eq_mask(), vec4<u32>(0xffffffffu), ballot_overflow);
}

fn subgroupGeMask() -> vec4<u32> {
    return select(ballot_ge_mask(), vec4<u32>(0xffffffffu), ballot_overflow);
}

fn subgroupGtMask() -> vec4<u32> {
    return select(ballot_gt_mask(), vec4<u32>(0xffffffffu), ballot_overflow);
}

fn subgroupLeMask() -> vec4<u32> {
    return select(ballot_le_mask(), vec4<u32>(0xffffffffu), ballot_overflow);
}

fn subgroupLtMask() -> vec4<u32> {
    return select(ballot_lt_mask(), vec4<u32>(0xffffffffu), ballot_overflow);
}

fn subgroupElect(on: bool) -> bool {
    return select(ballot_elect(on), false, ballot_overflow);
}

fn subgroupBroadcast(on: bool, value: u32, id: u32) -> u32 {
    return select(ballot_broadcast(on, vec4<u32>(value, 0u, 0u, 0u), id, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupBroadcastVec4(on: bool, value: vec4<u32>, id: u32) -> vec4<u32> {
    return select(ballot_broadcast(on, value, id, 4u), vec4<u32>(0xffffffffu), ballot_overflow);
}

fn subgroupBroadcastFirst(on: bool, value: u32) -> u32 {
    return select(ballot_broadcast_first(on, vec4<u32>(value, 0u, 0u, 0u), 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupBroadcastFirstVec4(on: bool, value: vec4<u32>) -> vec4<u32> {
    return select(ballot_broadcast_first(on, value, 4u), vec4<u32>(0xffffffffu), ballot_overflow);
}

fn subgroupAll(on: bool, predicate: bool) -> bool {
    return select(ballot_all(on, predicate), false, ballot_overflow);
}

fn subgroupAny(on: bool, predicate: bool) -> bool {
    return select(ballot_any(on, predicate), false, ballot_overflow);
}

fn subgroupAllEqual(on: bool, value: u32) -> bool {
    return select(ballot_all_equal(on, vec4<u32>((value), 0u, 0u, 0u), false, 1u), false, ballot_overflow);
}

fn subgroupAllEqualI32(on: bool, value: i32) -> bool {
    return select(ballot_all_equal(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), false, 1u), false, ballot_overflow);
}

fn subgroupAllEqualF32(on: bool, value: f32) -> bool {
    return select(ballot_all_equal(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), true, 1u), false, ballot_overflow);
}

fn subgroupAllEqualBool(on: bool, value: bool) -> bool {
    return select(ballot_all_equal(on, vec4<u32>(u32(value), 0u, 0u, 0u), false, 1u), false, ballot_overflow);
}

fn subgroupAllEqualVec4(on: bool, value: vec4<u32>) -> bool {
    return select(ballot_all_equal(on, value, false, 4u), false, ballot_overflow);
}

fn subgroupAdd(on: bool, value: u32) -> u32 {
    return select(ballot_reduce(on, vec4<u32>((value), 0u, 0u, 0u), 0u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupAddI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_reduce(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 0u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupAddF32(on: bool, value: f32) -> f32 {
    return select(bitcast<f32>(ballot_reduce(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 1u, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupMul(on: bool, value: u32) -> u32 {
    return select(ballot_reduce(on, vec4<u32>((value), 0u, 0u, 0u), 2u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupMulI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_reduce(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 2u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupMulF32(on: bool, value: f32) -> f32 {
    return select(bitcast<f32>(ballot_reduce(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 3u, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupMinI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_reduce(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 4u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupMin(on: bool, value: u32) -> u32 {
    return select(ballot_reduce(on, vec4<u32>((value), 0u, 0u, 0u), 5u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupMinF32(on: bool, value: f32) -> f32 {
    return select(bitcast<f32>(ballot_reduce(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 6u, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupMaxI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_reduce(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 7u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupMax(on: bool, value: u32) -> u32 {
    return select(ballot_reduce(on, vec4<u32>((value), 0u, 0u, 0u), 8u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupMaxF32(on: bool, value: f32) -> f32 {
    return select(bitcast<f32>(ballot_reduce(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 9u, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupAnd(on: bool, value: u32) -> u32 {
    return select(ballot_reduce(on, vec4<u32>((value), 0u, 0u, 0u), 10u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupAndI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_reduce(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 10u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupOr(on: bool, value: u32) -> u32 {
    return select(ballot_reduce(on, vec4<u32>((value), 0u, 0u, 0u), 11u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupOrI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_reduce(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 11u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupXor(on: bool, value: u32) -> u32 {
    return select(ballot_reduce(on, vec4<u32>((value), 0u, 0u, 0u), 12u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupXorI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_reduce(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 12u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupInclusiveAdd(on: bool, value: u32) -> u32 {
    return select(ballot_inclusive_scan(on, vec4<u32>((value), 0u, 0u, 0u), 0u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupInclusiveAddI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_inclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 0u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupInclusiveAddF32(on: bool, value: f32) -> f32 {
    return select(bitcast<f32>(ballot_inclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 1u, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupInclusiveMul(on: bool, value: u32) -> u32 {
    return select(ballot_inclusive_scan(on, vec4<u32>((value), 0u, 0u, 0u), 2u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupInclusiveMulI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_inclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 2u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupInclusiveMulF32(on: bool, value: f32) -> f32 {
    return select(bitcast<f32>(ballot_inclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 3u, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupInclusiveMinI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_inclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 4u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupInclusiveMin(on: bool, value: u32) -> u32 {
    return select(ballot_inclusive_scan(on, vec4<u32>((value), 0u, 0u, 0u), 5u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupInclusiveMinF32(on: bool, value: f32) -> f32 {
    return select(bitcast<f32>(ballot_inclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 6u, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupInclusiveMaxI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_inclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 7u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupInclusiveMax(on: bool, value: u32) -> u32 {
    return select(ballot_inclusive_scan(on, vec4<u32>((value), 0u, 0u, 0u), 8u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupInclusiveMaxF32(on: bool, value: f32) -> f32 {
    return select(bitcast<f32>(ballot_inclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 9u, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupInclusiveAnd(on: bool, value: u32) -> u32 {
    return select(ballot_inclusive_scan(on, vec4<u32>((value), 0u, 0u, 0u), 10u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupInclusiveAndI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_inclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 10u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupInclusiveOr(on: bool, value: u32) -> u32 {
    return select(ballot_inclusive_scan(on, vec4<u32>((value), 0u, 0u, 0u), 11u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupInclusiveOrI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_inclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 11u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupInclusiveXor(on: bool, value: u32) -> u32 {
    return select(ballot_inclusive_scan(on, vec4<u32>((value), 0u, 0u, 0u), 12u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupInclusiveXorI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_inclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 12u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupExclusiveAdd(on: bool, value: u32) -> u32 {
    return select(ballot_exclusive_scan(on, vec4<u32>((value), 0u, 0u, 0u), 0u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupExclusiveAddI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_exclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 0u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupExclusiveAddF32(on: bool, value: f32) -> f32 {
    return select(bitcast<f32>(ballot_exclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 1u, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupExclusiveMul(on: bool, value: u32) -> u32 {
    return select(ballot_exclusive_scan(on, vec4<u32>((value), 0u, 0u, 0u), 2u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupExclusiveMulI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_exclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 2u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupExclusiveMulF32(on: bool, value: f32) -> f32 {
    return select(bitcast<f32>(ballot_exclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 3u, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupExclusiveMinI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_exclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 4u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupExclusiveMin(on: bool, value: u32) -> u32 {
    return select(ballot_exclusive_scan(on, vec4<u32>((value), 0u, 0u, 0u), 5u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupExclusiveMinF32(on: bool, value: f32) -> f32 {
    return select(bitcast<f32>(ballot_exclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 6u, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupExclusiveMaxI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_exclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 7u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupExclusiveMax(on: bool, value: u32) -> u32 {
    return select(ballot_exclusive_scan(on, vec4<u32>((value), 0u, 0u, 0u), 8u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupExclusiveMaxF32(on: bool, value: f32) -> f32 {
    return select(bitcast<f32>(ballot_exclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 9u, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupExclusiveAnd(on: bool, value: u32) -> u32 {
    return select(ballot_exclusive_scan(on, vec4<u32>((value), 0u, 0u, 0u), 10u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupExclusiveAndI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_exclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 10u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupExclusiveOr(on: bool, value: u32) -> u32 {
    return select(ballot_exclusive_scan(on, vec4<u32>((value), 0u, 0u, 0u), 11u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupExclusiveOrI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_exclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 11u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupExclusiveXor(on: bool, value: u32) -> u32 {
    return select(ballot_exclusive_scan(on, vec4<u32>((value), 0u, 0u, 0u), 12u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupExclusiveXorI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_exclusive_scan(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 12u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupShuffle(on: bool, value: u32, id: u32) -> u32 {
    return select(ballot_broadcast(on, vec4<u32>((value), 0u, 0u, 0u), id, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupShuffleI32(on: bool, value: i32, id: u32) -> i32 {
    return select(bitcast<i32>(ballot_broadcast(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), id, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupShuffleF32(on: bool, value: f32, id: u32) -> f32 {
    return select(bitcast<f32>(ballot_broadcast(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), id, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupShuffleVec4(on: bool, value: vec4<u32>, id: u32) -> vec4<u32> {
    return select(ballot_broadcast(on, value, id, 4u), vec4<u32>(0xffffffffu), ballot_overflow);
}

fn subgroupShuffleXor(on: bool, value: u32, mask: u32) -> u32 {
    return select(ballot_shuffle_xor(on, vec4<u32>((value), 0u, 0u, 0u), mask, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupShuffleXorI32(on: bool, value: i32, mask: u32) -> i32 {
    return select(bitcast<i32>(ballot_shuffle_xor(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), mask, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupShuffleXorF32(on: bool, value: f32, mask: u32) -> f32 {
    return select(bitcast<f32>(ballot_shuffle_xor(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), mask, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupShuffleXorVec4(on: bool, value: vec4<u32>, mask: u32) -> vec4<u32> {
    return select(ballot_shuffle_xor(on, value, mask, 4u), vec4<u32>(0xffffffffu), ballot_overflow);
}

fn subgroupShuffleUp(on: bool, value: u32, delta: u32) -> u32 {
    return select(ballot_shuffle_up(on, vec4<u32>((value), 0u, 0u, 0u), delta, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupShuffleUpI32(on: bool, value: i32, delta: u32) -> i32 {
    return select(bitcast<i32>(ballot_shuffle_up(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), delta, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupShuffleUpF32(on: bool, value: f32, delta: u32) -> f32 {
    return select(bitcast<f32>(ballot_shuffle_up(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), delta, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupShuffleUpVec4(on: bool, value: vec4<u32>, delta: u32) -> vec4<u32> {
    return select(ballot_shuffle_up(on, value, delta, 4u), vec4<u32>(0xffffffffu), ballot_overflow);
}

fn subgroupShuffleDown(on: bool, value: u32, delta: u32) -> u32 {
    return select(ballot_shuffle_down(on, vec4<u32>((value), 0u, 0u, 0u), delta, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupShuffleDownI32(on: bool, value: i32, delta: u32) -> i32 {
    return select(bitcast<i32>(ballot_shuffle_down(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), delta, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupShuffleDownF32(on: bool, value: f32, delta: u32) -> f32 {
    return select(bitcast<f32>(ballot_shuffle_down(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), delta, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupShuffleDownVec4(on: bool, value: vec4<u32>, delta: u32) -> vec4<u32> {
    return select(ballot_shuffle_down(on, value, delta, 4u), vec4<u32>(0xffffffffu), ballot_overflow);
}

fn subgroupQuadBroadcast(on: bool, value: u32, index: u32) -> u32 {
    return select(ballot_quad_broadcast(on, vec4<u32>((value), 0u, 0u, 0u), index, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupQuadBroadcastI32(on: bool, value: i32, index: u32) -> i32 {
    return select(bitcast<i32>(ballot_quad_broadcast(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), index, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupQuadBroadcastF32(on: bool, value: f32, index: u32) -> f32 {
    return select(bitcast<f32>(ballot_quad_broadcast(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), index, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupQuadBroadcastVec4(on: bool, value: vec4<u32>, index: u32) -> vec4<u32> {
    return select(ballot_quad_broadcast(on, value, index, 4u), vec4<u32>(0xffffffffu), ballot_overflow);
}

fn subgroupQuadSwapHorizontal(on: bool, value: u32) -> u32 {
    return select(ballot_quad_swap(on, vec4<u32>((value), 0u, 0u, 0u), 1u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupQuadSwapHorizontalI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_quad_swap(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 1u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupQuadSwapHorizontalF32(on: bool, value: f32) -> f32 {
    return select(bitcast<f32>(ballot_quad_swap(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 1u, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupQuadSwapHorizontalVec4(on: bool, value: vec4<u32>) -> vec4<u32> {
    return select(ballot_quad_swap(on, value, 1u, 4u), vec4<u32>(0xffffffffu), ballot_overflow);
}

fn subgroupQuadSwapVertical(on: bool, value: u32) -> u32 {
    return select(ballot_quad_swap(on, vec4<u32>((value), 0u, 0u, 0u), 2u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupQuadSwapVerticalI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_quad_swap(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 2u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupQuadSwapVerticalF32(on: bool, value: f32) -> f32 {
    return select(bitcast<f32>(ballot_quad_swap(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 2u, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupQuadSwapVerticalVec4(on: bool, value: vec4<u32>) -> vec4<u32> {
    return select(ballot_quad_swap(on, value, 2u, 4u), vec4<u32>(0xffffffffu), ballot_overflow);
}

fn subgroupQuadSwapDiagonal(on: bool, value: u32) -> u32 {
    return select(ballot_quad_swap(on, vec4<u32>((value), 0u, 0u, 0u), 3u, 1u).x, 0xffffffffu, ballot_overflow);
}

fn subgroupQuadSwapDiagonalI32(on: bool, value: i32) -> i32 {
    return select(bitcast<i32>(ballot_quad_swap(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 3u, 1u).x), bitcast<i32>(0xffffffffu), ballot_overflow);
}

fn subgroupQuadSwapDiagonalF32(on: bool, value: f32) -> f32 {
    return select(bitcast<f32>(ballot_quad_swap(on, vec4<u32>(bitcast<u32>(value), 0u, 0u, 0u), 3u, 1u).x), ballot_f32_bits(0xffffffffu), ballot_overflow);
}

fn subgroupQuadSwapDiagonalVec4(on: bool, value: vec4<u32>) -> vec4<u32> {
    return select(ballot_quad_swap(on, value, 3u, 4u), vec4<u32>(0xffffffffu), ballot_overflow);
}

// Self-test: not part of the library. It calls every function and writes
// 20 records per invocation to binding 0 (see ballot::polyfill).
@group(0) @binding(0) var<storage, read_write> ballot_self_test: array<vec4<u32>>;

@compute @workgroup_size(64, 1, 1)
fn main(
    @builtin(local_invocation_index) local_index: u32,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
) {
    ballot_init(local_index);
    let lane = ballot_lane;
    let size = ballot_size;
    let workgroup = ((workgroup_id.x + (workgroup_id.y * num_workgroups.x)) + ((workgroup_id.z * num_workgroups.x) * num_workgroups.y));
    let g = ((workgroup * 64u) + local_index);
    let at = (g * 20u);
    let even = ((lane & 1u) == 0u);
    let b = subgroupBallot(true, even);
    let elected = subgroupElect(true);
    let first = subgroupBroadcastFirst(true, ((g * 3u) + 1u));
    let from0 = subgroupBroadcast(true, ((g * 5u) + 2u), 0u);
    let inside = ((lane & 2u) != 0u);
    let inside_elect = subgroupElect(inside);
    let inside_ballot = subgroupBallot(inside, true);
    var split = 0xffffffffu;
    if (inside) {
        split = (select(0u, 1u, inside_elect) | (subgroupBallotBitCount(inside_ballot) << 1u));
    }
    ballot_self_test[at] = b;
    ballot_self_test[(at + 1u)] = vec4<u32>(subgroupBallotBitCount(b), subgroupBallotInclusiveBitCount(b), subgroupBallotExclusiveBitCount(b), subgroupBallotFindLSB(b));
    ballot_self_test[(at + 2u)] = vec4<u32>(subgroupBallotFindMSB(b), select(0u, 1u, subgroupBallotBitExtract(b, ((lane + 1u) % size))), select(0u, 1u, subgroupInverseBallot(b)), select(0u, 1u, elected));
    ballot_self_test[(at + 3u)] = subgroupEqMask();
    ballot_self_test[(at + 4u)] = subgroupGeMask();
    ballot_self_test[(at + 5u)] = subgroupGtMask();
    ballot_self_test[(at + 6u)] = subgroupLeMask();
    ballot_self_test[(at + 7u)] = subgroupLtMask();
    ballot_self_test[(at + 8u)] = vec4<u32>(first, from0, split, lane);
    ballot_self_test[(at + 9u)] = vec4<u32>(size, subgroupBallotFindLSB(vec4<u32>(0u)), subgroupBallotFindMSB(vec4<u32>(0u)), select(0u, 1u, subgroupBallotBitExtract(vec4<u32>(0xffffffffu), size)));
    ballot_self_test[(at + 10u)] = vec4<u32>(((select(0u, 1u, subgroupAll(true, (lane < size))) << 0u) | (select(0u, 1u, subgroupAll(true, even)) << 1u) | (select(0u, 1u, subgroupAny(true, even)) << 2u) | (select(0u, 1u, subgroupAny(true, (lane >= size))) << 3u)), ((select(0u, 1u, subgroupAllEqual(true, size)) << 0u) | (select(0u, 1u, subgroupAllEqual(true, lane)) << 1u) | (select(0u, 1u, subgroupAllEqualI32(true, -1i)) << 2u) | (select(0u, 1u, subgroupAllEqualF32(true, 1.5f)) << 3u) | (select(0u, 1u, subgroupAllEqualBool(true, true)) << 4u) | (select(0u, 1u, subgroupAllEqualVec4(true, b)) << 5u) | (select(0u, 1u, subgroupAllEqualF32(true, f32(lane))) << 6u)), subgroupAdd(true, g), subgroupInclusiveAdd(true, g));
    ballot_self_test[(at + 11u)] = vec4<u32>(subgroupExclusiveAdd(true, g), subgroupMin(true, g), subgroupInclusiveMax(true, g), subgroupExclusiveXor(true, g));
    ballot_self_test[(at + 12u)] = vec4<u32>(bitcast<u32>(subgroupAddF32(true, f32(lane))), bitcast<u32>(subgroupInclusiveMinF32(true, f32((size - lane)))), bitcast<u32>(subgroupMaxI32(true, (i32(lane) - 5i))), bitcast<u32>(subgroupExclusiveAndI32(true, (~i32(lane)))));
    ballot_self_test[(at + 13u)] = vec4<u32>(subgroupMul(true, (1u + (lane & 1u))), subgroupInclusiveMul(true, (1u + (lane & 1u))), subgroupExclusiveOr(true, (1u << (lane & 31u))), subgroupInclusiveAnd(true, (~(1u << (lane & 31u)))));
    ballot_self_test[(at + 14u)] = vec4<u32>(bitcast<u32>(subgroupExclusiveMulF32(true, f32((1u + (lane & 1u))))), bitcast<u32>(subgroupInclusiveMinI32(true, (5i - i32(lane)))), bitcast<u32>(subgroupExclusiveMaxF32(true, (-f32(lane)))), bitcast<u32>(subgroupXorI32(true, i32(lane))));
    ballot_self_test[(at + 15u)] = vec4<u32>(subgroupShuffle(true, g, ((lane + 1u) % size)), subgroupShuffleXor(true, g, (1u % size)), subgroupShuffleUp(true, g, min(1u, lane)), subgroupShuffleDown(true, g, select(0u, 1u, ((lane + 1u) < size))));
    ballot_self_test[(at + 16u)] = vec4<u32>(subgroupQuadBroadcast(true, g, 1u), subgroupQuadSwapHorizontal(true, g), subgroupQuadSwapVertical(true, g), subgroupQuadSwapDiagonal(true, g));
    ballot_self_test[(at + 18u)] = vec4<u32>(subgroupAnd(true, (~(1u << (lane & 31u)))), subgroupOr(true, (1u << (lane & 31u))), subgroupInclusiveOr(true, (1u << (lane & 31u))), subgroupInclusiveXor(true, g));
    ballot_self_test[(at + 19u)] = vec4<u32>(subgroupExclusiveMin(true, g), subgroupExclusiveMax(true, g), subgroupExclusiveMul(true, (1u + (lane & 1u))), subgroupInclusiveMin(true, g));
    let inside_scan = subgroupInclusiveAdd(inside, 1u);
    let inside_sum = subgroupAdd(inside, 1u);
    let inside_xor = subgroupShuffleXor(inside, g, 1u);
    let inside_votes = ((select(0u, 1u, subgroupAll(inside, even)) << 0u) | (select(0u, 1u, subgroupAny(inside, (lane == 3u))) << 1u));
    ballot_self_test[(at + 17u)] = vec4<u32>(0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu);
    if ((lane & 2u) != 0u) {
        ballot_self_test[(at + 17u)] = vec4<u32>(inside_scan, inside_sum, inside_xor, inside_votes);
    }
}
