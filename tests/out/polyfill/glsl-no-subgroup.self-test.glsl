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
// from the functions that return masks and numbers, false from the others):
// virtual subgroup k is the invocations with local invocation index in k * 32
// .. k * 32 + 32; the last is partial if 32 does not divide 64. Ballot, Elect,
// Broadcast and BroadcastFirst take `on` first, whether the invocation is
// active, and hold barriers: EVERY invocation of the workgroup must call them,
// in workgroup-uniform control flow, passing on = false where it would not have
// called them. The other functions are lane-local: call them anywhere.
//
// Names: `ballot` + the GLSL name, capitalised (ballotSubgroupBallot,
// ballotSubgroupBallotFindMSB, ballotSubgroupEqMask(), …): glslang declares
// the extension's names even where it is not enabled, and rejects user
// functions of the same signature. Broadcasts take uint or uvec4 values.
//
// Where the spec leaves a result undefined, these functions return: FindLSB /
// FindMSB with no bit below the subgroup size: 0xFFFFFFFF; BitExtract at or
// above the size: false; InverseBallot of a value that differs across lanes:
// each lane's own bit; Broadcast from an inactive lane or one at or above the
// size, and BroadcastFirst with no active lane: the caller's own value.
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

// Exchange memory of broadcasts, in the flags' two halves: one value per
// invocation, as bits.
shared uvec4 ballot_slots[2u * ballot_exchange_size];

// The lowest lane set in a ballot of this virtual subgroup, or the subgroup
// size when none is.
uint ballot_lowest_flag(uvec4 m) {
    for (uint k = 0u; k < 4u; k = k + 1u) {
        if (m[k] != 0u) {
            return (32u * k) + uint(findLSB(m[k]));
        }
    }
    return ballot_subgroup_size;
}

// The exchange comes first: `&&` short-circuits, and every invocation must
// reach its barrier.
bool ballot_elect(bool act) {
    uint first = ballot_lowest_flag(ballot_gather(ballot_share(act)));
    return act && (first == ballot_lane);
}

uvec4 ballot_ballot(bool act, bool p) {
    return ballot_gather(ballot_share(act && p));
}

// Values travel as uvec4 bits; callers encode and decode them. The value goes
// to the half that ballot_share then publishes the flag to.
uvec4 ballot_broadcast_first(bool act, uvec4 v) {
    ballot_slots[ballot_half + ballot_index] = v;
    uint at = ballot_share(act);
    uint first = ballot_lowest_flag(ballot_gather(at));
    uvec4 r = v;
    if (first < ballot_count) {
        r = ballot_slots[at + ballot_base + first];
    }
    return r;
}

// Lane id's value; the caller's own value when that lane is inactive or at or
// above the size (undefined).
uvec4 ballot_broadcast(bool act, uvec4 v, uint id) {
    ballot_slots[ballot_half + ballot_index] = v;
    uint at = ballot_share(act);
    uvec4 r = v;
    if (id < ballot_count) {
        uint slot = at + ballot_base + id;
        if (ballot_flags[slot >> 2u][slot & 3u] != 0u) {
            r = ballot_slots[slot];
        }
    }
    return r;
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
    uint result = ballot_broadcast(on, uvec4(value, 0u, 0u, 0u), id).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

uvec4 ballotSubgroupBroadcast(bool on, uvec4 value, uint id) {
    uvec4 result = ballot_broadcast(on, value, id);
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

uint ballotSubgroupBroadcastFirst(bool on, uint value) {
    uint result = ballot_broadcast_first(on, uvec4(value, 0u, 0u, 0u)).x;
    return ballot_overflow ? 0xFFFFFFFFu : result;
}

uvec4 ballotSubgroupBroadcastFirst(bool on, uvec4 value) {
    uvec4 result = ballot_broadcast_first(on, value);
    return ballot_overflow ? uvec4(0xFFFFFFFFu) : result;
}

// Self-test: not part of the library. It calls every function and writes
// 10 records per invocation to binding 0 (see ballot::polyfill).
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
    uint at = g * 10u;
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
}
