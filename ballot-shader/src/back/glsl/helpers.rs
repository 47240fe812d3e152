//! The GLSL texts of the helper registry ([`crate::lower::helpers`]):
//! fixed functions that emitted code calls, each written only when used,
//! in the order of [`Helper`]'s variants, which puts every function after
//! those it calls.
//!
//! The emulated targets' helpers read the constants `ballot_subgroup_size`
//! and `ballot_workgroup_size`, which the writer declares first, and the lane
//! state that `ballot_init` sets.
//!
//! Each text is accepted by glslang and by naga's glsl-in: no atomics, no
//! `memoryBarrierShared`, and `uint(bitCount(x))`, since naga types
//! `bitCount` as `uint` and GLSL as `int`.

use std::collections::BTreeSet;

use crate::lower::helpers::Helper;

/// The helper's GLSL text, or `None` for one GLSL never writes.
pub(crate) const fn text(helper: Helper) -> Option<&'static str> {
    use Helper::*;
    Some(match helper {
        LaneState => LANE_STATE,
        Guard => "// Whether this invocation is past the workgroup the library was written for.\nbool ballot_overflow = false;\n",
        Share => SHARE,
        Values => VALUES,
        IsNan => IS_NAN,
        DivU32 => DIV_U32,
        RemU32 => REM_U32,
        Magnitude => MAGNITUDE,
        DivI32 => DIV_I32,
        RemI32 => REM_I32,
        RemF32 => REM_F32,
        ShlU32 => SHL_U32,
        ShlI32 => SHL_I32,
        F32ToU32 => F32_TO_U32,
        F32ToI32 => F32_TO_I32,
        MaskLane => MASK_LANE,
        FirstWord => FIRST_WORD,
        MaskFirst => MASK_FIRST,
        MaskContains => MASK_CONTAINS,
        MaskCount => MASK_COUNT,
        Below => BELOW_SIZE,
        EqMask => {
            "uvec4 ballot_eq_bits;\nuvec4 ballot_eq_mask() {\n    return ballot_eq_bits;\n}\n"
        }
        GeMask => GE_MASK,
        GtMask => GT_MASK,
        LeMask => {
            "uvec4 ballot_le_bits;\nuvec4 ballot_le_mask() {\n    return ballot_le_bits;\n}\n"
        }
        LtMask => {
            "uvec4 ballot_lt_bits;\nuvec4 ballot_lt_mask() {\n    return ballot_lt_bits;\n}\n"
        }
        InverseBallot => INVERSE_BALLOT,
        BitExtract => BIT_EXTRACT,
        BitCount => BIT_COUNT,
        InclusiveBitCount => INCLUSIVE_BIT_COUNT,
        ExclusiveBitCount => EXCLUSIVE_BIT_COUNT,
        FindLsb => FIND_LSB,
        FindMsb => FIND_MSB,
        LowestFlag => LOWEST_FLAG,
        Ballot => BALLOT,
        Elect => ELECT,
        BroadcastFirst => BROADCAST_FIRST,
        Broadcast => BROADCAST,
        All => ALL,
        Any => ANY,
        AllEqual => ALL_EQUAL,
        ShuffleXor => SHUFFLE_XOR,
        ShuffleUp => SHUFFLE_UP,
        ShuffleDown => SHUFFLE_DOWN,
        QuadBroadcast => QUAD_BROADCAST,
        QuadSwap => QUAD_SWAP,
        Identity => IDENTITY,
        Combine => COMBINE,
        Reduce => REDUCE,
        Scan => SCAN,
        InclusiveScan => INCLUSIVE_SCAN,
        ExclusiveScan => EXCLUSIVE_SCAN,
        Clustered => CLUSTERED,
        WorkgroupAny => ANY_ACTIVE,
        F32Bits | PrefixCount | TakeLowest | ShuffleWords | FirstWords => return None,
    })
}

/// What `ballot_init` sets for `helper`, after the lane state: the masks
/// that depend only on the lane and the subgroup size, computed once per
/// invocation rather than in every operation. In [`Helper`]'s order, the
/// bits below the size come before the masks that use them.
pub(crate) const fn init(helper: Helper) -> Option<&'static str> {
    use Helper::*;
    Some(match helper {
        Guard => crate::back::shading::GUARD_INIT,
        Share => SHARE_INIT,
        Below => "ballot_below_bits = ballot_mask_first(ballot_subgroup_size);",
        EqMask => "ballot_eq_bits = ballot_mask_lane(ballot_lane);",
        GeMask => "ballot_ge_bits = ballot_below(~ballot_mask_first(ballot_lane));",
        GtMask => "ballot_gt_bits = ballot_below(~ballot_mask_first(ballot_lane + 1u));",
        LeMask => "ballot_le_bits = ballot_mask_first(ballot_lane + 1u);",
        LtMask => "ballot_lt_bits = ballot_mask_first(ballot_lane);",
        _ => return None,
    })
}

/// Writes the texts of `helpers`, in order, each followed by a blank line,
/// and then, on emulated targets (the lane state among them), the
/// `ballot_init` that sets the lane state and the helpers' masks: after
/// the functions it calls, as GLSL wants.
pub fn write_all(out: &mut String, helpers: &BTreeSet<Helper>) {
    for &helper in helpers {
        out.push_str(text(helper).unwrap_or_default());
        out.push('\n');
    }
    if helpers.contains(&Helper::LaneState) {
        out.push_str(INIT_HEAD);
        for line in helpers.iter().filter_map(|&h| init(h)) {
            out.push_str("    ");
            out.push_str(line);
            out.push('\n');
        }
        out.push_str("}\n\n");
    }
}

const LANE_STATE: &str = "\
// The invocation's place in its virtual subgroup: lane `index % size` of
// the subgroup that starts at `index - lane` and holds `count` invocations
// (fewer than the size only in the last one of a ragged workgroup).
// ballot_init sets it, with the masks of the helpers below.
uint ballot_index;
uint ballot_lane;
uint ballot_base;
uint ballot_count;
";

/// `ballot_init`, without its closing brace (see [`write_all`]).
const INIT_HEAD: &str = "\
void ballot_init(uint local_invocation_index) {
    ballot_index = local_invocation_index;
    ballot_lane = local_invocation_index % ballot_subgroup_size;
    ballot_base = local_invocation_index - ballot_lane;
    ballot_count = min(ballot_subgroup_size, ballot_workgroup_size - ballot_base);
";

const IS_NAN: &str = "\
// On the bits, which fast-math compilers cannot fold away as they may isnan().
bool ballot_is_nan(float x) {
    return (floatBitsToUint(x) & 0x7FFFFFFFu) > 0x7F800000u;
}
";

const DIV_U32: &str = "\
// x / 0 == x, as in WGSL.
uint ballot_div_u32(uint a, uint b) {
    if (b == 0u) {
        return a;
    }
    return a / b;
}
";

const REM_U32: &str = "\
// x % 0 == 0, as in WGSL.
uint ballot_rem_u32(uint a, uint b) {
    if (b == 0u) {
        return 0u;
    }
    return a % b;
}
";

const MAGNITUDE: &str = "\
// |x| as a uint, exact for the most negative int.
uint ballot_magnitude(int x) {
    if (x < 0) {
        return 0u - uint(x);
    }
    return uint(x);
}
";

const DIV_I32: &str = "\
// Truncating division on magnitudes, since GLSL leaves negative operands of
// `/` undefined; x / 0 == x, and the most negative int / -1 wraps to itself.
int ballot_div_i32(int a, int b) {
    if (b == 0) {
        return a;
    }
    uint q = ballot_magnitude(a) / ballot_magnitude(b);
    if ((a < 0) != (b < 0)) {
        return int(0u - q);
    }
    return int(q);
}
";

const REM_I32: &str = "\
// Rust's remainder (the sign of the dividend), on magnitudes, since GLSL
// leaves negative operands of `%` undefined; x % 0 == 0.
int ballot_rem_i32(int a, int b) {
    if (b == 0) {
        return 0;
    }
    uint r = ballot_magnitude(a) % ballot_magnitude(b);
    if (a < 0) {
        return int(0u - r);
    }
    return int(r);
}
";

const REM_F32: &str = "\
// Rust's truncated remainder (GLSL's mod() floors): exact while the
// quotient a / b is below 2^24, like fmod.
float ballot_rem_f32(float a, float b) {
    if (ballot_is_nan(a) || ballot_is_nan(b) || isinf(a) || b == 0.0) {
        return uintBitsToFloat(0x7FC00000u);
    }
    if (isinf(b)) {
        return a;
    }
    float r = fma(-b, trunc(a / b), a);
    if (r != 0.0 && ((r < 0.0) != (a < 0.0))) {
        // a / b rounded up to the next integer: step back one divisor.
        r = r + sign(a) * abs(b);
    }
    if (r == 0.0) {
        // Zero takes the sign of the dividend.
        return a * 0.0;
    }
    return r;
}
";

const SHL_U32: &str = "\
// A wrapping shift of constants, out of reach of naga's constant folding,
// which rejects shifting set bits out.
uint ballot_shl_u32(uint a, uint s) {
    return a << (s & 31u);
}
";

const SHL_I32: &str = "\
// A wrapping shift of constants, out of reach of naga's constant folding,
// which rejects shifting set bits out.
int ballot_shl_i32(int a, uint s) {
    return a << (s & 31u);
}
";

const F32_TO_U32: &str = "\
// Rust's `as`: saturating, NaN to 0 (GLSL leaves out-of-range values undefined).
uint ballot_f32_to_u32(float x) {
    if (ballot_is_nan(x) || x <= 0.0) {
        return 0u;
    }
    if (x >= 4294967296.0) {
        return 4294967295u;
    }
    return uint(x);
}
";

const F32_TO_I32: &str = "\
// Rust's `as`: saturating, NaN to 0 (GLSL leaves out-of-range values undefined).
int ballot_f32_to_i32(float x) {
    if (ballot_is_nan(x)) {
        return 0;
    }
    if (x <= -2147483648.0) {
        return int(0x80000000u);
    }
    if (x >= 2147483648.0) {
        return 2147483647;
    }
    return int(x);
}
";

const MASK_LANE: &str = "\
// SubgroupMask::lane: only bit i; empty when i >= 128.
uvec4 ballot_mask_lane(uint i) {
    uvec4 m = uvec4(0u);
    if (i < 128u) {
        m[i >> 5u] = 1u << (i & 31u);
    }
    return m;
}
";

const FIRST_WORD: &str = "\
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
";

const MASK_FIRST: &str = "\
// SubgroupMask::first: bits 0..n, saturating at 128.
uvec4 ballot_mask_first(uint n) {
    return uvec4(ballot_first_word(n, 0u), ballot_first_word(n, 32u), ballot_first_word(n, 64u), ballot_first_word(n, 96u));
}
";

const MASK_CONTAINS: &str = "\
// SubgroupMask::contains: bit i; false when i >= 128.
bool ballot_mask_contains(uvec4 m, uint i) {
    if (i >= 128u) {
        return false;
    }
    return ((m[i >> 5u] >> (i & 31u)) & 1u) != 0u;
}
";

const MASK_COUNT: &str = "\
// SubgroupMask::count: set bits among all 128.
uint ballot_mask_count(uvec4 m) {
    return ((uint(bitCount(m.x)) + uint(bitCount(m.y))) + uint(bitCount(m.z))) + uint(bitCount(m.w));
}
";

const BELOW_SIZE: &str = "\
// The bits below the subgroup size: the only ones ballot operations read.
uvec4 ballot_below_bits;
uvec4 ballot_below(uvec4 v) {
    return v & ballot_below_bits;
}
";

const GE_MASK: &str = "\
uvec4 ballot_ge_bits;
uvec4 ballot_ge_mask() {
    return ballot_ge_bits;
}
";

const GT_MASK: &str = "\
uvec4 ballot_gt_bits;
uvec4 ballot_gt_mask() {
    return ballot_gt_bits;
}
";

const INVERSE_BALLOT: &str = "\
// The lane's own bit: each lane reads its own argument, so a value that
// differs across lanes (undefined) gives each lane its own bit.
bool ballot_inverse_ballot(uvec4 v) {
    return ballot_mask_contains(v, ballot_lane);
}
";

const BIT_EXTRACT: &str = "\
// Bit i; false when i is at or above the size (undefined).
bool ballot_bit_extract(uvec4 v, uint i) {
    if (i >= ballot_subgroup_size) {
        return false;
    }
    return ballot_mask_contains(v, i);
}
";

const BIT_COUNT: &str = "\
uint ballot_bit_count(uvec4 v) {
    return ballot_mask_count(ballot_below(v));
}
";

const INCLUSIVE_BIT_COUNT: &str = "\
uint ballot_inclusive_bit_count(uvec4 v) {
    return ballot_mask_count(v & ballot_le_mask());
}
";

const EXCLUSIVE_BIT_COUNT: &str = "\
uint ballot_exclusive_bit_count(uvec4 v) {
    return ballot_mask_count(v & ballot_lt_mask());
}
";

const FIND_LSB: &str = "\
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
";

const FIND_MSB: &str = "\
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
";

/// What `ballot_init` sets for [`SHARE`]; the loop clears the slots past
/// the workgroup that the last virtual subgroup's reads cover, which no
/// invocation writes, in both halves.
const SHARE_INIT: &str = "\
ballot_half = 0u;
    ballot_bit = 1u << (ballot_index & 31u);
    ballot_shift = ballot_base & 31u;
    ballot_count_bits = ballot_mask_first(ballot_count);
    for (uint s = ballot_workgroup_size + local_invocation_index; s < ballot_padded_size; s = s + ballot_workgroup_size) {
        for (uint k = 0u; k < 2u * ballot_exchange_slots; k = k + 1u) {
            uint i = k * ballot_exchange_size + s;
            ballot_flags[i >> 2u][i & 3u] = 0u;
        }
    }";

const SHARE: &str = "\
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
";

const VALUES: &str = "\
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
";

const LOWEST_FLAG: &str = "\
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
";

// Every exchange publishes this invocation's flag (ballot_share) and reads
// its virtual subgroup's after one barrier. Every invocation calls it,
// active (`act`) or not, so that all reach the barrier.

const BALLOT: &str = "\
uvec4 ballot_ballot(bool act, bool p) {
    return ballot_gather(ballot_share(act && p));
}
";

const ELECT: &str = "\
// The exchange comes first: `&&` short-circuits, and every invocation must
// reach its barrier.
bool ballot_elect(bool act) {
    uint first = ballot_lowest_flag(ballot_share(act));
    return act && (first == ballot_lane);
}
";

const BROADCAST_FIRST: &str = "\
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
";

const BROADCAST: &str = "\
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
";

// The votes: one exchange of a flag each, the ballot of the lanes that vote
// against (All) or for (Any).

const ALL: &str = "\
bool ballot_all(bool act, bool p) {
    return ballot_gather(ballot_share(act && !p)) == uvec4(0u);
}
";

const ANY: &str = "\
bool ballot_any(bool act, bool p) {
    return ballot_gather(ballot_share(act && p)) != uvec4(0u);
}
";

const ALL_EQUAL: &str = "\
// Whether every active lane holds the lowest active lane's value, compared as
// float (ordered: -0.0 equals 0.0, a NaN nothing) where is_float, otherwise
// bit for bit. Both exchanges run in every invocation.
bool ballot_all_equal(bool act, uvec4 v, bool is_float, uint words) {
    uvec4 first = ballot_broadcast_first(act, v, words);
    bool same = is_float ? (uintBitsToFloat(v) == uintBitsToFloat(first)) : (v == first);
    return ballot_all(act, same);
}
";

// Shuffles and quads: a broadcast from the lane each names; the caller's own
// value where that lane is inactive, missing or out of range (undefined).

const SHUFFLE_XOR: &str = "\
uvec4 ballot_shuffle_xor(bool act, uvec4 v, uint mask, uint words) {
    return ballot_broadcast(act, v, ballot_lane ^ mask, words);
}
";

const SHUFFLE_UP: &str = "\
// Lane own - delta; none below lane 0.
uvec4 ballot_shuffle_up(bool act, uvec4 v, uint delta, uint words) {
    return ballot_broadcast(act, v, delta <= ballot_lane ? ballot_lane - delta : 0xFFFFFFFFu, words);
}
";

const SHUFFLE_DOWN: &str = "\
// Lane own + delta; none for a delta of the size or more, which could wrap.
uvec4 ballot_shuffle_down(bool act, uvec4 v, uint delta, uint words) {
    return ballot_broadcast(act, v, delta < ballot_subgroup_size ? ballot_lane + delta : 0xFFFFFFFFu, words);
}
";

const QUAD_BROADCAST: &str = "\
// Lane index of this lane's quad (lanes 4k..4k + 3); none for an index of 4
// or more.
uvec4 ballot_quad_broadcast(bool act, uvec4 v, uint index, uint words) {
    return ballot_broadcast(act, v, index < 4u ? (ballot_lane & ~3u) + index : 0xFFFFFFFFu, words);
}
";

const QUAD_SWAP: &str = "\
// Lane own ^ k: k = 1, 2, 3 for the horizontal, vertical and diagonal swaps.
uvec4 ballot_quad_swap(bool act, uvec4 v, uint k, uint words) {
    return ballot_broadcast(act, v, ballot_lane ^ k, words);
}
";

const IDENTITY: &str = "\
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
";

const COMBINE: &str = "\
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
";

// The arithmetic collectives of op (numbered as in ballot_identity) over the
// active lanes, one helper for each kind, in two exchanges whatever the size.
// Inactive lanes count as the identity, and so do lanes a ragged subgroup
// lacks (no invocation writes their slots). Each lane's value is first
// combined with the identity, as the simulator's fold starts from it (for
// FAdd, -0.0 becomes 0.0). The subgroup is cut into groups of g lanes, g about
// the square root of the size (every lane, up to 4): after the first
// exchange each lane combines its group's values in lane order (and keeps the
// prefix up to its own lane); after the second, the totals of the groups,
// read from each group's first lane. Lower lanes' values stay on the left:
// float results are rounded in that order, which may differ from the
// simulator's. Every read stays within the subgroup's slots. The branches and
// loop bounds are constants: every invocation reaches every barrier.

const REDUCE: &str = "\
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
";

const SCAN: &str = "\
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
";

const INCLUSIVE_SCAN: &str = "\
// subgroupInclusiveAdd and the other inclusive scans: lanes at or below this one.
uvec4 ballot_inclusive_scan(bool act, uvec4 v, uint op, uint words) {
    return ballot_scan(act, v, op, words, ballot_lane + 1u);
}
";

const EXCLUSIVE_SCAN: &str = "\
// subgroupExclusiveAdd and the other exclusive scans: lanes below this one;
// the identity in lane 0.
uvec4 ballot_exclusive_scan(bool act, uvec4 v, uint op, uint words) {
    return ballot_scan(act, v, op, words, ballot_lane);
}
";

const CLUSTERED: &str = "\
// subgroupClusteredAdd and the other clustered reductions: the total of the
// active lanes of this lane's cluster, the n lanes (a constant power of two)
// that share its id's bits above log2(n), in one exchange and n reads, lower
// lanes on the left, from the identity, as the simulator combines them.
// Inactive lanes and lanes a ragged subgroup lacks count as the identity, as
// in ballot_reduce. A cluster over the subgroup size (undefined) is the whole
// subgroup, so that every read stays within the subgroup's slots.
uvec4 ballot_clustered_reduce(bool act, uvec4 v, uint op, uint n, uint words) {
    uvec4 identity = ballot_identity(op);
    uint c = min(n, ballot_subgroup_size);
    bool ragged = (ballot_workgroup_size % ballot_subgroup_size) != 0u;
    uint first = ballot_lane & ~(c - 1u);
    ballot_put(act ? ballot_combine(op, identity, v) : identity, words);
    uint at = ballot_sync() + ballot_base;
    uvec4 total = identity;
    for (uint k = 0u; k < c; k = k + 1u) {
        uvec4 w = ballot_get(at + first + k, words);
        total = ballot_combine(op, total, (ragged && first + k >= ballot_count) ? identity : w);
    }
    return total;
}
";

const ANY_ACTIVE: &str = "\
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
";
