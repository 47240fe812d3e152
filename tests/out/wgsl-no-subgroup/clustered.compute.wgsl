// A compute shader for kernel `clustered`, target `wgsl-no-subgroup`, written by ballot.
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

// subgroupClusteredAdd and the other clustered reductions: the total of the
// active lanes of this lane's cluster, the n lanes (a constant power of two)
// that share its id's bits above log2(n), in one exchange and n reads, lower
// lanes on the left, from the identity, as the simulator combines them.
// Inactive lanes and lanes a ragged subgroup lacks count as the identity, as
// in ballot_reduce. A cluster over the subgroup size (undefined) is the whole
// subgroup, so that every read stays within the subgroup's slots.
fn ballot_clustered_reduce(on: bool, value: vec4<u32>, op: u32, n: u32, words: u32) -> vec4<u32> {
    let identity = ballot_identity(op);
    let c = min(n, ballot_subgroup_size);
    let ragged = ((ballot_workgroup_size % ballot_subgroup_size) != 0u);
    let first = (ballot_lane & ~(c - 1u));
    ballot_put(select(identity, ballot_combine(op, identity, value), on), words);
    let at = (ballot_values_sync() + ballot_base);
    var total = identity;
    for (var k = 0u; k < c; k++) {
        let w = ballot_get(((at + first) + k), words);
        total = ballot_combine(op, total, select(w, identity, (ragged && ((first + k) >= ballot_count))));
    }
    return total;
}

@group(0) @binding(0) var<storage, read> ballot_in0: array<u32>;
@group(0) @binding(1) var<storage, read> ballot_in1: array<i32>;
@group(0) @binding(2) var<storage, read> ballot_in2: array<f32>;
@group(0) @binding(3) var<storage, read_write> ballot_out: array<u32>;

// `clustered` if-converted: every invocation runs every statement, and
// ballot_active says which really do. Called in uniform control flow.
fn clustered_masked(ballot_active_in: bool, x: u32, i: i32, f: f32) -> u32 {
    var out: u32;
    var ballot_active = ballot_active_in;
    var ballot_ret = false;
    var ballot_ret_val = 0u;
    if ballot_active { out = 0u; }
    let ballot_outer1 = ballot_active;
    let ballot_taken1 = ((x % 2u) == 0u);
    ballot_active = (ballot_outer1 && ballot_taken1);
    {
        let ballot_t2 = ballot_clustered_reduce(ballot_active, vec4<u32>((x), 0u, 0u, 0u), 0u, 4u, 1u).x;
        let ballot_t3 = ballot_clustered_reduce(ballot_active, vec4<u32>((x), 0u, 0u, 0u), 8u, 2u, 1u).x;
        if ballot_active { out = (ballot_t2 + ballot_t3); }
    }
    ballot_active = (ballot_outer1 && !ballot_taken1);
    {
        let ballot_t4 = ballot_clustered_reduce(ballot_active, vec4<u32>((x), 0u, 0u, 0u), 12u, 8u, 1u).x;
        let ballot_t5 = bitcast<i32>(ballot_clustered_reduce(ballot_active, vec4<u32>(bitcast<u32>(i), 0u, 0u, 0u), 4u, 2u, 1u).x);
        if ballot_active { out = (ballot_t4 ^ bitcast<u32>(ballot_t5)); }
    }
    ballot_active = ballot_outer1;
    let ballot_t6 = bitcast<f32>(ballot_clustered_reduce(ballot_active, vec4<u32>(bitcast<u32>(f), 0u, 0u, 0u), 3u, 8u, 1u).x);
    let ballot_t7 = ballot_clustered_reduce(ballot_active, vec4<u32>((x), 0u, 0u, 0u), 10u, 1u, 1u).x;
    if ballot_active { ballot_ret_val = ((out + ballot_f32_to_u32(ballot_t6)) + ballot_t7); }
    ballot_ret = (ballot_ret || ballot_active);
    ballot_active = false;
    return ballot_ret_val;
}

// Call in every invocation of the workgroup, in uniform control flow.
fn clustered(x: u32, i: i32, f: f32) -> u32 {
    return clustered_masked(true, x, i, f);
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
    let ballot_result = clustered(ballot_arg0, ballot_arg1, ballot_arg2);
    if (ballot_global < arrayLength(&ballot_out)) {
        ballot_out[ballot_global] = ballot_result;
    }
}
