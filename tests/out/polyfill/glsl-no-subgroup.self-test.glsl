#version 450
// ballot polyfill library for target `glsl-no-subgroup` (GLSL 4.50 compute
// shaders with shared memory; no subgroup support (virtual subgroup size
// option)).
//
// Include: paste this text right after your shader's `#version 450` line; it
// needs no extension.
//
// Init: call ballot_init(gl_LocalInvocationIndex) once, at the top of main(),
// in every invocation.
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
// Names: `ballot` + the GLSL name, capitalised (ballotSubgroupBallot,
// ballotSubgroupBallotFindMSB, ballotSubgroupEqMask(), …): glslang declares
// the extension's names even where it is not enabled, and rejects user
// functions of the same signature. Broadcasts take uint or uvec4 values;
// AllEqual, shuffles and quads bool, uint, int, float or uvec4; arithmetic
// uint, int or float (And, Or, Xor also bool, not float).
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

const uint ballot_subgroup_size = 32u;
const uint ballot_workgroup_size = 64u;
const uint ballot_padded_size = 64u;
const uint ballot_exchange_size = 68u;
const uint ballot_subgroup_chunks = 8u;
const uint ballot_exchange_slots = 1u;
const uint ballot_slot_stride = 2u * ballot_exchange_size;

// The invocation's place in its virtual subgroup: lane `index % size` of
// the subgroup that starts at `index - lane` and holds `count` invocations
// (fewer than the size only in the last one of a ragged workgroup).
// ballot_init sets it, with the masks of the helpers below.
uint ballot_index;
uint ballot_lane;
uint ballot_base;
uint ballot_count;

// Whether this invocation is past the workgroup the library was written for.
bool ballot_overflow = false;

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

uvec4 ballot_ballot(bool act, bool p) {
    return ballot_gather(ballot_share(act && p));
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

bool ballot_all(bool act, bool p) {
    return ballot_gather(ballot_share(act && !p)) == uvec4(0u);
}

bool ballot_any(bool act, bool p) {
    return ballot_gather(ballot_share(act && p)) != uvec4(0u);
}

// Whether every active lane holds the lowest active lane's value, compared as
// float (ordered: -0.0 equals 0.0, a NaN nothing) where is_float, otherwise
// bit for bit. Both exchanges run in every invocation.
bool ballot_all_equal(bool act, uvec4 v, bool is_float, uint words) {
    uvec4 first = ballot_broadcast_first(act, v, words);
    bool same = is_float ? (uintBitsToFloat(v) == uintBitsToFloat(first)) : (v == first);
    return ballot_all(act, same);
}

uvec4 ballot_shuffle_xor(bool act, uvec4 v, uint mask, uint words) {
    return ballot_broadcast(act, v, ballot_lane ^ mask, words);
}

// Lane own - delta; none below lane 0.
uvec4 ballot_shuffle_up(bool act, uvec4 v, uint delta, uint words) {
    return ballot_broadcast(act, v, delta <= ballot_lane ? ballot_lane - delta : 0xFFFFFFFFu, words);
}

// Lane own + delta; none for a delta of the size or more, which could wrap.
uvec4 ballot_shuffle_down(bool act, uvec4 v, uint delta, uint words) {
    return ballot_broadcast(act, v, delta < ballot_subgroup_size ? ballot_lane + delta : 0xFFFFFFFFu, words);
}

// Lane index of this lane's quad (lanes 4k..4k + 3); none for an index of 4
// or more.
uvec4 ballot_quad_broadcast(bool act, uvec4 v, uint index, uint words) {
    return ballot_broadcast(act, v, index < 4u ? (ballot_lane & ~3u) + index : 0xFFFFFFFFu, words);
}

// Lane own ^ k: k = 1, 2, 3 for the horizontal, vertical and diagonal swaps.
uvec4 ballot_quad_swap(bool act, uvec4 v, uint k, uint words) {
    return ballot_broadcast(act, v, ballot_lane ^ k, words);
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

// subgroupAdd and the other reductions: every lane gets the total.
uvec4 ballot_reduce(bool act, uvec4 v, uint op, uint words) {
    uvec4 identity = ballot_identity(op);
    if (ballot_one_level(words)) {
        ballot_put(act ? ballot_combine(op, identity, v) : identity, 1u);
        uint quads = (ballot_sync() + ballot_base) >> 2u;
        uvec4 sum = identity;
        for (uint k = 0u; k < ballot_subgroup_size / 4u; k = k + 1u) {
            uvec4 q = ballot_slots[quads + k];
            sum = ballot_combine(op, sum, ballot_combine(op, ballot_combine(op, uvec4(q.x), uvec4(q.y)), ballot_combine(op, uvec4(q.z), uvec4(q.w))));
        }
        return sum;
    }
    uint g = ballot_subgroup_size <= 4u ? ballot_subgroup_size : 1u << (uint(findMSB(ballot_subgroup_size)) >> 1u);
    bool ragged = (ballot_workgroup_size % ballot_subgroup_size) != 0u;
    uint first = ballot_lane & ~(g - 1u);
    ballot_put(act ? ballot_combine(op, identity, v) : identity, words);
    uint at = ballot_sync() + ballot_base;
    uvec4 total = identity;
    for (uint k = 0u; k < g; k = k + 1u) {
        uvec4 w = ballot_get(at + first + k, words);
        total = ballot_combine(op, total, (ragged && first + k >= ballot_count) ? identity : w);
    }
    if (g == ballot_subgroup_size) {
        return total;
    }
    ballot_put(total, words);
    at = ballot_sync() + ballot_base;
    uvec4 r = identity;
    for (uint j = 0u; j < ballot_subgroup_size; j = j + g) {
        uvec4 w = ballot_get(at + j, words);
        r = ballot_combine(op, r, (ragged && j >= ballot_count) ? identity : w);
    }
    return r;
}

// The scans' one body: the lanes below `bound` (the caller's lane + 1 for an
// inclusive scan, its lane for an exclusive one), from the identity in lane
// order. One exchange where ballot_reduce takes one; else the lanes of this
// lane's group below the bound, then the totals of the groups before it.
uvec4 ballot_scan(bool act, uvec4 v, uint op, uint words, uint bound) {
    uvec4 identity = ballot_identity(op);
    if (ballot_one_level(words)) {
        ballot_put(act ? ballot_combine(op, identity, v) : identity, 1u);
        uint quads = (ballot_sync() + ballot_base) >> 2u;
        uvec4 sum = identity;
        for (uint k = 0u; k < ballot_subgroup_size / 4u; k = k + 1u) {
            uvec4 q = ballot_slots[quads + k];
            uint l = 4u * k;
            sum = l < bound ? ballot_combine(op, sum, uvec4(q.x)) : sum;
            sum = l + 1u < bound ? ballot_combine(op, sum, uvec4(q.y)) : sum;
            sum = l + 2u < bound ? ballot_combine(op, sum, uvec4(q.z)) : sum;
            sum = l + 3u < bound ? ballot_combine(op, sum, uvec4(q.w)) : sum;
        }
        return sum;
    }
    uint g = ballot_subgroup_size <= 4u ? ballot_subgroup_size : 1u << (uint(findMSB(ballot_subgroup_size)) >> 1u);
    bool ragged = (ballot_workgroup_size % ballot_subgroup_size) != 0u;
    uint first = ballot_lane & ~(g - 1u);
    ballot_put(act ? ballot_combine(op, identity, v) : identity, words);
    uint at = ballot_sync() + ballot_base;
    uvec4 total = identity;
    uvec4 own = identity;
    for (uint k = 0u; k < g; k = k + 1u) {
        uvec4 w = ballot_get(at + first + k, words);
        w = (ragged && first + k >= ballot_count) ? identity : w;
        own = first + k < bound ? ballot_combine(op, own, w) : own;
        total = ballot_combine(op, total, w);
    }
    if (g == ballot_subgroup_size) {
        return own;
    }
    ballot_put(total, words);
    at = ballot_sync() + ballot_base;
    uvec4 r = identity;
    for (uint j = 0u; j < ballot_subgroup_size; j = j + g) {
        uvec4 w = ballot_get(at + j, words);
        r = j < first ? ballot_combine(op, r, w) : r;
    }
    return ballot_combine(op, r, own);
}

// subgroupInclusiveAdd and the other inclusive scans: lanes at or below this one.
uvec4 ballot_inclusive_scan(bool act, uvec4 v, uint op, uint words) {
    return ballot_scan(act, v, op, words, ballot_lane + 1u);
}

// subgroupExclusiveAdd and the other exclusive scans: lanes below this one;
// the identity in lane 0.
uvec4 ballot_exclusive_scan(bool act, uvec4 v, uint op, uint words) {
    return ballot_scan(act, v, op, words, ballot_lane);
}

void ballot_init(uint local_invocation_index) {
    ballot_index = local_invocation_index;
    ballot_lane = local_invocation_index % ballot_subgroup_size;
    ballot_base = local_invocation_index - ballot_lane;
    ballot_count = min(ballot_subgroup_size, ballot_workgroup_size - ballot_base);
    if (local_invocation_index >= ballot_workgroup_size) {
        ballot_overflow = true;
        ballot_index = ballot_padded_size;
        ballot_base = 0u;
        ballot_count = 0u;
    }
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

// The public functions.
uvec4 ballotSubgroupBallot(bool on, bool predicate) {
    uvec4 result = ballot_ballot(on, predicate);
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

bool ballotSubgroupInverseBallot(uvec4 value) {
    bool result = ballot_inverse_ballot(value);
    return ballot_overflow ? false : result;
}

bool ballotSubgroupBallotBitExtract(uvec4 value, uint index) {
    bool result = ballot_bit_extract(value, index);
    return ballot_overflow ? false : result;
}

uint ballotSubgroupBallotBitCount(uvec4 value) {
    uint result = ballot_bit_count(value);
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

uint ballotSubgroupBallotInclusiveBitCount(uvec4 value) {
    uint result = ballot_inclusive_bit_count(value);
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

uint ballotSubgroupBallotExclusiveBitCount(uvec4 value) {
    uint result = ballot_exclusive_bit_count(value);
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

uint ballotSubgroupBallotFindLSB(uvec4 value) {
    uint result = ballot_find_lsb(value);
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

uint ballotSubgroupBallotFindMSB(uvec4 value) {
    uint result = ballot_find_msb(value);
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

uvec4 ballotSubgroupEqMask() {
    uvec4 result = ballot_eq_mask();
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

uvec4 ballotSubgroupGeMask() {
    uvec4 result = ballot_ge_mask();
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

uvec4 ballotSubgroupGtMask() {
    uvec4 result = ballot_gt_mask();
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

uvec4 ballotSubgroupLeMask() {
    uvec4 result = ballot_le_mask();
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

uvec4 ballotSubgroupLtMask() {
    uvec4 result = ballot_lt_mask();
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

bool ballotSubgroupElect(bool on) {
    bool result = ballot_elect(on);
    return ballot_overflow ? false : result;
}

uint ballotSubgroupBroadcast(bool on, uint value, uint id) {
    uint result = ballot_broadcast(on, uvec4(value, 0u, 0u, 0u), id, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

uvec4 ballotSubgroupBroadcast(bool on, uvec4 value, uint id) {
    uvec4 result = ballot_broadcast(on, value, id, 4u);
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

uint ballotSubgroupBroadcastFirst(bool on, uint value) {
    uint result = ballot_broadcast_first(on, uvec4(value, 0u, 0u, 0u), 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

uvec4 ballotSubgroupBroadcastFirst(bool on, uvec4 value) {
    uvec4 result = ballot_broadcast_first(on, value, 4u);
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

bool ballotSubgroupAll(bool on, bool predicate) {
    bool result = ballot_all(on, predicate);
    return ballot_overflow ? false : result;
}

bool ballotSubgroupAny(bool on, bool predicate) {
    bool result = ballot_any(on, predicate);
    return ballot_overflow ? false : result;
}

bool ballotSubgroupAllEqual(bool on, uint value) {
    bool result = ballot_all_equal(on, uvec4(value, 0u, 0u, 0u), false, 1u);
    return ballot_overflow ? false : result;
}

bool ballotSubgroupAllEqual(bool on, int value) {
    bool result = ballot_all_equal(on, uvec4(uint(value), 0u, 0u, 0u), false, 1u);
    return ballot_overflow ? false : result;
}

bool ballotSubgroupAllEqual(bool on, float value) {
    bool result = ballot_all_equal(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), true, 1u);
    return ballot_overflow ? false : result;
}

bool ballotSubgroupAllEqual(bool on, bool value) {
    bool result = ballot_all_equal(on, uvec4(uint(value), 0u, 0u, 0u), false, 1u);
    return ballot_overflow ? false : result;
}

bool ballotSubgroupAllEqual(bool on, uvec4 value) {
    bool result = ballot_all_equal(on, value, false, 4u);
    return ballot_overflow ? false : result;
}

uint ballotSubgroupAdd(bool on, uint value) {
    uint result = ballot_reduce(on, uvec4(value, 0u, 0u, 0u), 0u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupAdd(bool on, int value) {
    int result = int(ballot_reduce(on, uvec4(uint(value), 0u, 0u, 0u), 0u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

float ballotSubgroupAdd(bool on, float value) {
    float result = uintBitsToFloat(ballot_reduce(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), 1u, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

uint ballotSubgroupMul(bool on, uint value) {
    uint result = ballot_reduce(on, uvec4(value, 0u, 0u, 0u), 2u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupMul(bool on, int value) {
    int result = int(ballot_reduce(on, uvec4(uint(value), 0u, 0u, 0u), 2u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

float ballotSubgroupMul(bool on, float value) {
    float result = uintBitsToFloat(ballot_reduce(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), 3u, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

int ballotSubgroupMin(bool on, int value) {
    int result = int(ballot_reduce(on, uvec4(uint(value), 0u, 0u, 0u), 4u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

uint ballotSubgroupMin(bool on, uint value) {
    uint result = ballot_reduce(on, uvec4(value, 0u, 0u, 0u), 5u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

float ballotSubgroupMin(bool on, float value) {
    float result = uintBitsToFloat(ballot_reduce(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), 6u, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

int ballotSubgroupMax(bool on, int value) {
    int result = int(ballot_reduce(on, uvec4(uint(value), 0u, 0u, 0u), 7u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

uint ballotSubgroupMax(bool on, uint value) {
    uint result = ballot_reduce(on, uvec4(value, 0u, 0u, 0u), 8u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

float ballotSubgroupMax(bool on, float value) {
    float result = uintBitsToFloat(ballot_reduce(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), 9u, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

uint ballotSubgroupAnd(bool on, uint value) {
    uint result = ballot_reduce(on, uvec4(value, 0u, 0u, 0u), 10u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupAnd(bool on, int value) {
    int result = int(ballot_reduce(on, uvec4(uint(value), 0u, 0u, 0u), 10u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

bool ballotSubgroupAnd(bool on, bool value) {
    bool result = (ballot_reduce(on, uvec4(uint(value), 0u, 0u, 0u), 10u, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uint ballotSubgroupOr(bool on, uint value) {
    uint result = ballot_reduce(on, uvec4(value, 0u, 0u, 0u), 11u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupOr(bool on, int value) {
    int result = int(ballot_reduce(on, uvec4(uint(value), 0u, 0u, 0u), 11u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

bool ballotSubgroupOr(bool on, bool value) {
    bool result = (ballot_reduce(on, uvec4(uint(value), 0u, 0u, 0u), 11u, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uint ballotSubgroupXor(bool on, uint value) {
    uint result = ballot_reduce(on, uvec4(value, 0u, 0u, 0u), 12u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupXor(bool on, int value) {
    int result = int(ballot_reduce(on, uvec4(uint(value), 0u, 0u, 0u), 12u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

bool ballotSubgroupXor(bool on, bool value) {
    bool result = (ballot_reduce(on, uvec4(uint(value), 0u, 0u, 0u), 12u, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uint ballotSubgroupInclusiveAdd(bool on, uint value) {
    uint result = ballot_inclusive_scan(on, uvec4(value, 0u, 0u, 0u), 0u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupInclusiveAdd(bool on, int value) {
    int result = int(ballot_inclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 0u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

float ballotSubgroupInclusiveAdd(bool on, float value) {
    float result = uintBitsToFloat(ballot_inclusive_scan(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), 1u, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

uint ballotSubgroupInclusiveMul(bool on, uint value) {
    uint result = ballot_inclusive_scan(on, uvec4(value, 0u, 0u, 0u), 2u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupInclusiveMul(bool on, int value) {
    int result = int(ballot_inclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 2u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

float ballotSubgroupInclusiveMul(bool on, float value) {
    float result = uintBitsToFloat(ballot_inclusive_scan(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), 3u, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

int ballotSubgroupInclusiveMin(bool on, int value) {
    int result = int(ballot_inclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 4u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

uint ballotSubgroupInclusiveMin(bool on, uint value) {
    uint result = ballot_inclusive_scan(on, uvec4(value, 0u, 0u, 0u), 5u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

float ballotSubgroupInclusiveMin(bool on, float value) {
    float result = uintBitsToFloat(ballot_inclusive_scan(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), 6u, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

int ballotSubgroupInclusiveMax(bool on, int value) {
    int result = int(ballot_inclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 7u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

uint ballotSubgroupInclusiveMax(bool on, uint value) {
    uint result = ballot_inclusive_scan(on, uvec4(value, 0u, 0u, 0u), 8u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

float ballotSubgroupInclusiveMax(bool on, float value) {
    float result = uintBitsToFloat(ballot_inclusive_scan(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), 9u, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

uint ballotSubgroupInclusiveAnd(bool on, uint value) {
    uint result = ballot_inclusive_scan(on, uvec4(value, 0u, 0u, 0u), 10u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupInclusiveAnd(bool on, int value) {
    int result = int(ballot_inclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 10u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

bool ballotSubgroupInclusiveAnd(bool on, bool value) {
    bool result = (ballot_inclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 10u, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uint ballotSubgroupInclusiveOr(bool on, uint value) {
    uint result = ballot_inclusive_scan(on, uvec4(value, 0u, 0u, 0u), 11u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupInclusiveOr(bool on, int value) {
    int result = int(ballot_inclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 11u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

bool ballotSubgroupInclusiveOr(bool on, bool value) {
    bool result = (ballot_inclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 11u, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uint ballotSubgroupInclusiveXor(bool on, uint value) {
    uint result = ballot_inclusive_scan(on, uvec4(value, 0u, 0u, 0u), 12u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupInclusiveXor(bool on, int value) {
    int result = int(ballot_inclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 12u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

bool ballotSubgroupInclusiveXor(bool on, bool value) {
    bool result = (ballot_inclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 12u, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uint ballotSubgroupExclusiveAdd(bool on, uint value) {
    uint result = ballot_exclusive_scan(on, uvec4(value, 0u, 0u, 0u), 0u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupExclusiveAdd(bool on, int value) {
    int result = int(ballot_exclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 0u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

float ballotSubgroupExclusiveAdd(bool on, float value) {
    float result = uintBitsToFloat(ballot_exclusive_scan(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), 1u, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

uint ballotSubgroupExclusiveMul(bool on, uint value) {
    uint result = ballot_exclusive_scan(on, uvec4(value, 0u, 0u, 0u), 2u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupExclusiveMul(bool on, int value) {
    int result = int(ballot_exclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 2u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

float ballotSubgroupExclusiveMul(bool on, float value) {
    float result = uintBitsToFloat(ballot_exclusive_scan(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), 3u, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

int ballotSubgroupExclusiveMin(bool on, int value) {
    int result = int(ballot_exclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 4u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

uint ballotSubgroupExclusiveMin(bool on, uint value) {
    uint result = ballot_exclusive_scan(on, uvec4(value, 0u, 0u, 0u), 5u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

float ballotSubgroupExclusiveMin(bool on, float value) {
    float result = uintBitsToFloat(ballot_exclusive_scan(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), 6u, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

int ballotSubgroupExclusiveMax(bool on, int value) {
    int result = int(ballot_exclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 7u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

uint ballotSubgroupExclusiveMax(bool on, uint value) {
    uint result = ballot_exclusive_scan(on, uvec4(value, 0u, 0u, 0u), 8u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

float ballotSubgroupExclusiveMax(bool on, float value) {
    float result = uintBitsToFloat(ballot_exclusive_scan(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), 9u, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

uint ballotSubgroupExclusiveAnd(bool on, uint value) {
    uint result = ballot_exclusive_scan(on, uvec4(value, 0u, 0u, 0u), 10u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupExclusiveAnd(bool on, int value) {
    int result = int(ballot_exclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 10u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

bool ballotSubgroupExclusiveAnd(bool on, bool value) {
    bool result = (ballot_exclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 10u, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uint ballotSubgroupExclusiveOr(bool on, uint value) {
    uint result = ballot_exclusive_scan(on, uvec4(value, 0u, 0u, 0u), 11u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupExclusiveOr(bool on, int value) {
    int result = int(ballot_exclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 11u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

bool ballotSubgroupExclusiveOr(bool on, bool value) {
    bool result = (ballot_exclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 11u, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uint ballotSubgroupExclusiveXor(bool on, uint value) {
    uint result = ballot_exclusive_scan(on, uvec4(value, 0u, 0u, 0u), 12u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupExclusiveXor(bool on, int value) {
    int result = int(ballot_exclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 12u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

bool ballotSubgroupExclusiveXor(bool on, bool value) {
    bool result = (ballot_exclusive_scan(on, uvec4(uint(value), 0u, 0u, 0u), 12u, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uint ballotSubgroupShuffle(bool on, uint value, uint id) {
    uint result = ballot_broadcast(on, uvec4(value, 0u, 0u, 0u), id, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupShuffle(bool on, int value, uint id) {
    int result = int(ballot_broadcast(on, uvec4(uint(value), 0u, 0u, 0u), id, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

float ballotSubgroupShuffle(bool on, float value, uint id) {
    float result = uintBitsToFloat(ballot_broadcast(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), id, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

bool ballotSubgroupShuffle(bool on, bool value, uint id) {
    bool result = (ballot_broadcast(on, uvec4(uint(value), 0u, 0u, 0u), id, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uvec4 ballotSubgroupShuffle(bool on, uvec4 value, uint id) {
    uvec4 result = ballot_broadcast(on, value, id, 4u);
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

uint ballotSubgroupShuffleXor(bool on, uint value, uint mask) {
    uint result = ballot_shuffle_xor(on, uvec4(value, 0u, 0u, 0u), mask, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupShuffleXor(bool on, int value, uint mask) {
    int result = int(ballot_shuffle_xor(on, uvec4(uint(value), 0u, 0u, 0u), mask, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

float ballotSubgroupShuffleXor(bool on, float value, uint mask) {
    float result = uintBitsToFloat(ballot_shuffle_xor(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), mask, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

bool ballotSubgroupShuffleXor(bool on, bool value, uint mask) {
    bool result = (ballot_shuffle_xor(on, uvec4(uint(value), 0u, 0u, 0u), mask, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uvec4 ballotSubgroupShuffleXor(bool on, uvec4 value, uint mask) {
    uvec4 result = ballot_shuffle_xor(on, value, mask, 4u);
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

uint ballotSubgroupShuffleUp(bool on, uint value, uint delta) {
    uint result = ballot_shuffle_up(on, uvec4(value, 0u, 0u, 0u), delta, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupShuffleUp(bool on, int value, uint delta) {
    int result = int(ballot_shuffle_up(on, uvec4(uint(value), 0u, 0u, 0u), delta, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

float ballotSubgroupShuffleUp(bool on, float value, uint delta) {
    float result = uintBitsToFloat(ballot_shuffle_up(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), delta, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

bool ballotSubgroupShuffleUp(bool on, bool value, uint delta) {
    bool result = (ballot_shuffle_up(on, uvec4(uint(value), 0u, 0u, 0u), delta, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uvec4 ballotSubgroupShuffleUp(bool on, uvec4 value, uint delta) {
    uvec4 result = ballot_shuffle_up(on, value, delta, 4u);
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

uint ballotSubgroupShuffleDown(bool on, uint value, uint delta) {
    uint result = ballot_shuffle_down(on, uvec4(value, 0u, 0u, 0u), delta, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupShuffleDown(bool on, int value, uint delta) {
    int result = int(ballot_shuffle_down(on, uvec4(uint(value), 0u, 0u, 0u), delta, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

float ballotSubgroupShuffleDown(bool on, float value, uint delta) {
    float result = uintBitsToFloat(ballot_shuffle_down(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), delta, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

bool ballotSubgroupShuffleDown(bool on, bool value, uint delta) {
    bool result = (ballot_shuffle_down(on, uvec4(uint(value), 0u, 0u, 0u), delta, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uvec4 ballotSubgroupShuffleDown(bool on, uvec4 value, uint delta) {
    uvec4 result = ballot_shuffle_down(on, value, delta, 4u);
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

uint ballotSubgroupQuadBroadcast(bool on, uint value, uint index) {
    uint result = ballot_quad_broadcast(on, uvec4(value, 0u, 0u, 0u), index, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupQuadBroadcast(bool on, int value, uint index) {
    int result = int(ballot_quad_broadcast(on, uvec4(uint(value), 0u, 0u, 0u), index, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

float ballotSubgroupQuadBroadcast(bool on, float value, uint index) {
    float result = uintBitsToFloat(ballot_quad_broadcast(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), index, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

bool ballotSubgroupQuadBroadcast(bool on, bool value, uint index) {
    bool result = (ballot_quad_broadcast(on, uvec4(uint(value), 0u, 0u, 0u), index, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uvec4 ballotSubgroupQuadBroadcast(bool on, uvec4 value, uint index) {
    uvec4 result = ballot_quad_broadcast(on, value, index, 4u);
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

uint ballotSubgroupQuadSwapHorizontal(bool on, uint value) {
    uint result = ballot_quad_swap(on, uvec4(value, 0u, 0u, 0u), 1u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupQuadSwapHorizontal(bool on, int value) {
    int result = int(ballot_quad_swap(on, uvec4(uint(value), 0u, 0u, 0u), 1u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

float ballotSubgroupQuadSwapHorizontal(bool on, float value) {
    float result = uintBitsToFloat(ballot_quad_swap(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), 1u, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

bool ballotSubgroupQuadSwapHorizontal(bool on, bool value) {
    bool result = (ballot_quad_swap(on, uvec4(uint(value), 0u, 0u, 0u), 1u, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uvec4 ballotSubgroupQuadSwapHorizontal(bool on, uvec4 value) {
    uvec4 result = ballot_quad_swap(on, value, 1u, 4u);
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

uint ballotSubgroupQuadSwapVertical(bool on, uint value) {
    uint result = ballot_quad_swap(on, uvec4(value, 0u, 0u, 0u), 2u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupQuadSwapVertical(bool on, int value) {
    int result = int(ballot_quad_swap(on, uvec4(uint(value), 0u, 0u, 0u), 2u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

float ballotSubgroupQuadSwapVertical(bool on, float value) {
    float result = uintBitsToFloat(ballot_quad_swap(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), 2u, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

bool ballotSubgroupQuadSwapVertical(bool on, bool value) {
    bool result = (ballot_quad_swap(on, uvec4(uint(value), 0u, 0u, 0u), 2u, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uvec4 ballotSubgroupQuadSwapVertical(bool on, uvec4 value) {
    uvec4 result = ballot_quad_swap(on, value, 2u, 4u);
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

uint ballotSubgroupQuadSwapDiagonal(bool on, uint value) {
    uint result = ballot_quad_swap(on, uvec4(value, 0u, 0u, 0u), 3u, 1u).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

int ballotSubgroupQuadSwapDiagonal(bool on, int value) {
    int result = int(ballot_quad_swap(on, uvec4(uint(value), 0u, 0u, 0u), 3u, 1u).x);
    return ballot_overflow ? int(0xFFFFFFFFu) : result;
}

float ballotSubgroupQuadSwapDiagonal(bool on, float value) {
    float result = uintBitsToFloat(ballot_quad_swap(on, uvec4(floatBitsToUint(value), 0u, 0u, 0u), 3u, 1u).x);
    return ballot_overflow ? uintBitsToFloat(0xFFFFFFFFu) : result;
}

bool ballotSubgroupQuadSwapDiagonal(bool on, bool value) {
    bool result = (ballot_quad_swap(on, uvec4(uint(value), 0u, 0u, 0u), 3u, 1u).x != 0u);
    return ballot_overflow ? false : result;
}

uvec4 ballotSubgroupQuadSwapDiagonal(bool on, uvec4 value) {
    uvec4 result = ballot_quad_swap(on, value, 3u, 4u);
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

// Self-test: not part of the library. It calls every function and writes
// 20 records per invocation to binding 0 (see ballot::polyfill).
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;
layout(std430, set = 0, binding = 0) buffer ballot_self_test_block { uvec4 ballot_self_test[]; };

void main() {
    ballot_init(gl_LocalInvocationIndex);
    uint lane = ballot_lane;
    uint size = ballot_subgroup_size;
    uvec3 id = gl_WorkGroupID;
    uvec3 groups = gl_NumWorkGroups;
    uint workgroup = (id.x + id.y * groups.x) + (id.z * groups.x) * groups.y;
    uint g = workgroup * 64u + gl_LocalInvocationIndex;
    uint at = g * 20u;
    bool even = (lane & 1u) == 0u;
    uvec4 b = ballotSubgroupBallot(true, even);
    bool elected = ballotSubgroupElect(true);
    uint first = ballotSubgroupBroadcastFirst(true, g * 3u + 1u);
    uint from0 = ballotSubgroupBroadcast(true, g * 5u + 2u, 0u);
    bool inside = (lane & 2u) != 0u;
    bool inside_elect = ballotSubgroupElect(inside);
    uvec4 inside_ballot = ballotSubgroupBallot(inside, true);
    uint split = 0xFFFFFFFFu;
    if (inside) {
        split = uint(inside_elect) | (ballotSubgroupBallotBitCount(inside_ballot) << 1u);
    }
    ballot_self_test[at] = b;
    ballot_self_test[at + 1u] = uvec4(ballotSubgroupBallotBitCount(b), ballotSubgroupBallotInclusiveBitCount(b), ballotSubgroupBallotExclusiveBitCount(b), ballotSubgroupBallotFindLSB(b));
    ballot_self_test[at + 2u] = uvec4(ballotSubgroupBallotFindMSB(b), uint(ballotSubgroupBallotBitExtract(b, (lane + 1u) % size)), uint(ballotSubgroupInverseBallot(b)), uint(elected));
    ballot_self_test[at + 3u] = ballotSubgroupEqMask();
    ballot_self_test[at + 4u] = ballotSubgroupGeMask();
    ballot_self_test[at + 5u] = ballotSubgroupGtMask();
    ballot_self_test[at + 6u] = ballotSubgroupLeMask();
    ballot_self_test[at + 7u] = ballotSubgroupLtMask();
    ballot_self_test[at + 8u] = uvec4(first, from0, split, lane);
    ballot_self_test[at + 9u] = uvec4(size, ballotSubgroupBallotFindLSB(uvec4(0u)), ballotSubgroupBallotFindMSB(uvec4(0u)), uint(ballotSubgroupBallotBitExtract(uvec4(0xFFFFFFFFu), size)));
    ballot_self_test[at + 10u] = uvec4(((uint(ballotSubgroupAll(true, (lane < size))) << 0u) | (uint(ballotSubgroupAll(true, even)) << 1u) | (uint(ballotSubgroupAny(true, even)) << 2u) | (uint(ballotSubgroupAny(true, (lane >= size))) << 3u)), ((uint(ballotSubgroupAllEqual(true, size)) << 0u) | (uint(ballotSubgroupAllEqual(true, lane)) << 1u) | (uint(ballotSubgroupAllEqual(true, -1)) << 2u) | (uint(ballotSubgroupAllEqual(true, 1.5)) << 3u) | (uint(ballotSubgroupAllEqual(true, true)) << 4u) | (uint(ballotSubgroupAllEqual(true, b)) << 5u) | (uint(ballotSubgroupAllEqual(true, float(lane))) << 6u)), ballotSubgroupAdd(true, g), ballotSubgroupInclusiveAdd(true, g));
    ballot_self_test[at + 11u] = uvec4(ballotSubgroupExclusiveAdd(true, g), ballotSubgroupMin(true, g), ballotSubgroupInclusiveMax(true, g), ballotSubgroupExclusiveXor(true, g));
    ballot_self_test[at + 12u] = uvec4(floatBitsToUint(ballotSubgroupAdd(true, float(lane))), floatBitsToUint(ballotSubgroupInclusiveMin(true, float((size - lane)))), uint(ballotSubgroupMax(true, (int(lane) - 5))), uint(ballotSubgroupExclusiveAnd(true, (~int(lane)))));
    ballot_self_test[at + 13u] = uvec4(ballotSubgroupMul(true, (1u + (lane & 1u))), ballotSubgroupInclusiveMul(true, (1u + (lane & 1u))), ballotSubgroupExclusiveOr(true, (1u << (lane & 31u))), ballotSubgroupInclusiveAnd(true, (~(1u << (lane & 31u)))));
    ballot_self_test[at + 14u] = uvec4(floatBitsToUint(ballotSubgroupExclusiveMul(true, float((1u + (lane & 1u))))), uint(ballotSubgroupInclusiveMin(true, (5 - int(lane)))), floatBitsToUint(ballotSubgroupExclusiveMax(true, (-float(lane)))), uint(ballotSubgroupXor(true, int(lane))));
    ballot_self_test[at + 15u] = uvec4(ballotSubgroupShuffle(true, g, ((lane + 1u) % size)), ballotSubgroupShuffleXor(true, g, (1u % size)), ballotSubgroupShuffleUp(true, g, min(1u, lane)), ballotSubgroupShuffleDown(true, g, ((lane + 1u) < size ? 1u : 0u)));
    ballot_self_test[at + 16u] = uvec4(ballotSubgroupQuadBroadcast(true, g, 1u), ballotSubgroupQuadSwapHorizontal(true, g), ballotSubgroupQuadSwapVertical(true, g), ballotSubgroupQuadSwapDiagonal(true, g));
    ballot_self_test[at + 18u] = uvec4(ballotSubgroupAnd(true, (~(1u << (lane & 31u)))), ballotSubgroupOr(true, (1u << (lane & 31u))), ballotSubgroupInclusiveOr(true, (1u << (lane & 31u))), ballotSubgroupInclusiveXor(true, g));
    ballot_self_test[at + 19u] = uvec4(ballotSubgroupExclusiveMin(true, g), ballotSubgroupExclusiveMax(true, g), ballotSubgroupExclusiveMul(true, (1u + (lane & 1u))), ballotSubgroupInclusiveMin(true, g));
    uint inside_scan = ballotSubgroupInclusiveAdd(inside, 1u);
    uint inside_sum = ballotSubgroupAdd(inside, 1u);
    uint inside_xor = ballotSubgroupShuffleXor(inside, g, 1u);
    uint inside_votes = ((uint(ballotSubgroupAll(inside, even)) << 0u) | (uint(ballotSubgroupAny(inside, (lane == 3u))) << 1u));
    ballot_self_test[at + 17u] = uvec4(0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu);
    if (((lane & 2u) != 0u)) {
        ballot_self_test[at + 17u] = uvec4(inside_scan, inside_sum, inside_xor, inside_votes);
    }
}
