//! The WGSL texts of the helper registry ([`crate::lower::helpers`]): the
//! functions behind the ballot operations WGSL lacks, and the exchange
//! through workgroup memory of the emulated target.
//!
//! Only the helpers a module uses are written, with their dependencies, in
//! the order of [`Helper`]'s declaration.

pub(crate) use crate::lower::helpers::Helper;

/// What `ballot_init` sets for this helper, after the lane state: the
/// masks that depend only on the lane and the subgroup size, computed
/// once per invocation rather than in every operation. In [`Helper`]'s
/// order, the bits below the size come before the masks that use them.
pub(crate) fn init(helper: Helper) -> Option<&'static str> {
    use Helper::*;
    Some(match helper {
        Guard => crate::back::shading::GUARD_INIT,
        Share => SHARE_INIT,
        Below => "ballot_below_bits = ballot_mask_first(ballot_size);",
        EqMask => "ballot_eq_bits = (ballot_mask_lane(ballot_lane) & ballot_below_bits);",
        GeMask => "ballot_ge_bits = ((~ballot_mask_first(ballot_lane)) & ballot_below_bits);",
        GtMask => {
            "ballot_gt_bits = ((~ballot_mask_first((ballot_lane + 1u))) & ballot_below_bits);"
        }
        LeMask => "ballot_le_bits = (ballot_mask_first((ballot_lane + 1u)) & ballot_below_bits);",
        LtMask => "ballot_lt_bits = (ballot_mask_first(ballot_lane) & ballot_below_bits);",
        _ => return None,
    })
}

/// The helper's WGSL text, ending with a newline.
pub fn text(helper: Helper, emulated: bool) -> Option<&'static str> {
    use Helper::*;
    Some(match helper {
        Guard => {
            "\
// Whether this invocation is past the workgroup the library was written for.
var<private> ballot_overflow: bool;
"
        }
        Share => SHARE,
        Values => VALUES,
        LowestFlag => LOWEST_FLAG,
        PrefixCount => PREFIX_COUNT,
        TakeLowest => TAKE_LOWEST,
        ShuffleWords => SHUFFLE_WORDS,
        FirstWords => FIRST_WORDS,
        F32Bits => F32_BITS,
        F32ToU32 => F32_TO_U32,
        F32ToI32 => F32_TO_I32,
        MaskFirst => MASK_FIRST,
        MaskLane => MASK_LANE,
        MaskContains => MASK_CONTAINS,
        MaskCount => MASK_COUNT,
        Below => BELOW,
        BitExtract => BIT_EXTRACT,
        InverseBallot => INVERSE_BALLOT,
        BitCount => BIT_COUNT,
        InclusiveBitCount => INCLUSIVE_BIT_COUNT,
        ExclusiveBitCount => EXCLUSIVE_BIT_COUNT,
        FindLsb => FIND_LSB,
        FindMsb => FIND_MSB,
        EqMask => EQ_MASK,
        GeMask => GE_MASK,
        GtMask => GT_MASK,
        LeMask => LE_MASK,
        LtMask => LT_MASK,
        Elect if emulated => ELECT_EMULATED,
        Elect => ELECT_NATIVE,
        Ballot => BALLOT,
        BroadcastFirst => BROADCAST_FIRST,
        Broadcast => BROADCAST,
        All => ALL,
        Any => ANY,
        AllEqual if emulated => ALL_EQUAL_EMULATED,
        AllEqual => ALL_EQUAL_NATIVE,
        ShuffleXor => SHUFFLE_XOR,
        ShuffleUp => SHUFFLE_UP,
        ShuffleDown => SHUFFLE_DOWN,
        QuadBroadcast => QUAD_BROADCAST,
        QuadSwap => QUAD_SWAP,
        Identity => IDENTITY,
        Combine => COMBINE,
        Reduce if emulated => REDUCE,
        Scan if emulated => SCAN,
        InclusiveScan if emulated => INCLUSIVE_SCAN,
        ExclusiveScan if emulated => EXCLUSIVE_SCAN,
        InclusiveScan => INCLUSIVE_SCAN_NATIVE,
        ExclusiveScan => EXCLUSIVE_SCAN_NATIVE,
        Clustered if emulated => CLUSTERED,
        Clustered => CLUSTERED_NATIVE,
        Reduce | Scan => return None,
        WorkgroupAny => WORKGROUP_ANY,
        LaneState | IsNan | DivU32 | RemU32 | Magnitude | DivI32 | RemI32 | RemF32 | ShlU32
        | ShlI32 | FirstWord => return None,
    })
}

/// What `ballot_init` sets for [`SHARE`]. Nothing is cleared: WGSL zeroes
/// workgroup memory, and bits past the workgroup are never set.
const SHARE_INIT: &str = "\
ballot_half = 0u;
    ballot_round = 0u;
    ballot_bit = (1u << (ballot_index & 31u));
    ballot_shift = (ballot_base & 31u);
    ballot_count_bits = ballot_mask_first(ballot_count);";

const SHARE: &str = "\
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
";

const VALUES: &str = "\
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
";

const LOWEST_FLAG: &str = "\
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
";

const F32_BITS: &str = "\
// An f32 from its bits. A function call is never a constant expression, and
// a constant NaN or infinity is a shader-creation error.
fn ballot_f32_bits(bits: u32) -> f32 {
    return bitcast<f32>(bits);
}
";

const F32_TO_U32: &str = "\
// Rust's `f32 as u32`: saturating, NaN to 0. WGSL's u32() clamps within f32
// (to 4294967040u at most), so the top is chosen apart; NaN is tested on the
// bits, which no fast-math compiler folds away.
fn ballot_f32_to_u32(x: f32) -> u32 {
    let nan = ((bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u);
    return select(select(u32(x), 4294967295u, (x >= 4294967296.0f)), 0u, nan);
}
";

const F32_TO_I32: &str = "\
// Rust's `f32 as i32`: saturating, NaN to 0. WGSL's i32() clamps within f32
// (to 2147483520i at most), so the top is chosen apart.
fn ballot_f32_to_i32(x: f32) -> i32 {
    let nan = ((bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u);
    return select(select(i32(x), 2147483647i, (x >= 2147483648.0f)), 0i, nan);
}
";

const MASK_FIRST: &str = "\
// SubgroupMask::first(n): bits 0..n, saturating at 128.
fn ballot_mask_first(n: u32) -> vec4<u32> {
    let low = vec4<u32>(0u, 32u, 64u, 96u);
    let bits = min((max(vec4<u32>(n), low) - low), vec4<u32>(32u));
    // A shift by 32 would wrap to a shift by 0, so full words are chosen apart.
    let partial = ((vec4<u32>(1u) << (bits & vec4<u32>(31u))) - vec4<u32>(1u));
    return select(partial, vec4<u32>(0xffffffffu), (bits == vec4<u32>(32u)));
}
";

const MASK_LANE: &str = "\
// SubgroupMask::lane(i): only bit i; empty when i >= 128.
fn ballot_mask_lane(i: u32) -> vec4<u32> {
    let word = (vec4<u32>(0u, 1u, 2u, 3u) == vec4<u32>((i >> 5u)));
    return select(vec4<u32>(0u), vec4<u32>((1u << (i & 31u))), word);
}
";

const MASK_CONTAINS: &str = "\
// m.contains(i): bit i; false when i >= 128.
fn ballot_mask_contains(m: vec4<u32>, i: u32) -> bool {
    return ((i < 128u) && (((m[((i >> 5u) & 3u)] >> (i & 31u)) & 1u) != 0u));
}
";

const MASK_COUNT: &str = "\
// m.count(): the set bits among all 128.
fn ballot_mask_count(m: vec4<u32>) -> u32 {
    let c = countOneBits(m);
    return ((c.x + c.y) + (c.z + c.w));
}
";

const BELOW: &str = "\
// The bits below the subgroup size: the only ones ballot operations read.
// Like the lane masks below, ballot_init computes them once, so that no
// operation recomputes them.
var<private> ballot_below_bits: vec4<u32>;
fn ballot_below() -> vec4<u32> {
    return ballot_below_bits;
}
";

const BIT_EXTRACT: &str = "\
// subgroupBallotBitExtract(v, i): false when i is at or above the subgroup
// size, where the spec leaves it undefined.
fn ballot_bit_extract(v: vec4<u32>, i: u32) -> bool {
    return ((i < ballot_size) && ballot_mask_contains(v, i));
}
";

const INVERSE_BALLOT: &str = "\
// subgroupInverseBallot(v): this lane's bit of v.
fn ballot_inverse_ballot(v: vec4<u32>) -> bool {
    return ballot_bit_extract(v, ballot_lane);
}
";

const BIT_COUNT: &str = "\
// subgroupBallotBitCount(v): the set bits below the subgroup size.
fn ballot_bit_count(v: vec4<u32>) -> u32 {
    return ballot_mask_count((v & ballot_below()));
}
";

const INCLUSIVE_BIT_COUNT: &str = "\
// subgroupBallotInclusiveBitCount(v): the set bits at or below this lane.
fn ballot_inclusive_bit_count(v: vec4<u32>) -> u32 {
    return ballot_mask_count((v & ballot_le_mask()));
}
";

const EXCLUSIVE_BIT_COUNT: &str = "\
// subgroupBallotExclusiveBitCount(v): the set bits below this lane.
fn ballot_exclusive_bit_count(v: vec4<u32>) -> u32 {
    return ballot_mask_count((v & ballot_lt_mask()));
}
";

const FIND_LSB: &str = "\
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
";

const FIND_MSB: &str = "\
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
";

/// The text of a lane mask: a private variable that `ballot_init` sets once
/// per invocation (its line in `init`), and the getter that reads it.
macro_rules! lane_mask {
    ($which:literal, $doc:literal) => {
        concat!(
            "// ",
            $doc,
            "\n",
            "var<private> ballot_",
            $which,
            "_bits: vec4<u32>;\n",
            "fn ballot_",
            $which,
            "_mask() -> vec4<u32> {\n",
            "    return ballot_",
            $which,
            "_bits;\n",
            "}\n",
        )
    };
}

const EQ_MASK: &str = lane_mask!("eq", "gl_SubgroupEqMask: only this lane's bit.");

const GE_MASK: &str = lane_mask!(
    "ge",
    "gl_SubgroupGeMask: the bits of this lane and above, below the size."
);

const GT_MASK: &str = lane_mask!(
    "gt",
    "gl_SubgroupGtMask: the bits above this lane, below the size."
);

const LE_MASK: &str = lane_mask!("le", "gl_SubgroupLeMask: the bits of this lane and below.");

const LT_MASK: &str = lane_mask!("lt", "gl_SubgroupLtMask: the bits below this lane.");

const ELECT_NATIVE: &str = "\
// subgroupElect, which naga lacks: whether this is the lowest active lane,
// the one whose id subgroupBroadcastFirst hands to every active lane.
fn ballot_elect() -> bool {
    return (subgroupBroadcastFirst(ballot_lane) == ballot_lane);
}
";

const ELECT_EMULATED: &str = "\
// subgroupElect: whether this is the lowest active lane.
fn ballot_elect(on: bool) -> bool {
    return (ballot_lowest_flag(ballot_gather(ballot_share(on))) == ballot_lane);
}
";

const BALLOT: &str = "\
// subgroupBallot(predicate): bit i is set iff lane i is active and its
// predicate holds.
fn ballot_ballot(on: bool, predicate: bool) -> vec4<u32> {
    return ballot_gather(ballot_share((on && predicate)));
}
";

const BROADCAST_FIRST: &str = "\
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
";

const BROADCAST: &str = "\
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
";

const ALL: &str = "\
// subgroupAll(predicate): whether no active lane's predicate fails.
fn ballot_all(on: bool, predicate: bool) -> bool {
    return all((ballot_gather(ballot_share((on && !predicate))) == vec4<u32>(0u)));
}
";

const ANY: &str = "\
// subgroupAny(predicate): whether some active lane's predicate holds.
fn ballot_any(on: bool, predicate: bool) -> bool {
    return any((ballot_gather(ballot_share((on && predicate))) != vec4<u32>(0u)));
}
";

const ALL_EQUAL_EMULATED: &str = "\
// subgroupAllEqual(value): whether every active lane holds the lowest active
// lane's value, compared as f32 (ordered: -0.0 equals 0.0, a NaN nothing)
// where is_float, otherwise bit for bit.
fn ballot_all_equal(on: bool, value: vec4<u32>, is_float: bool, words: u32) -> bool {
    let first = ballot_broadcast_first(on, value, words);
    let same_float = all((bitcast<vec4<f32>>(value) == bitcast<vec4<f32>>(first)));
    return ballot_all(on, select(all((value == first)), same_float, is_float));
}
";

const ALL_EQUAL_NATIVE: &str = "\
// subgroupAllEqual(value), which WGSL lacks: whether every active lane holds
// the lowest active lane's value, compared as f32 (ordered: -0.0 equals 0.0,
// a NaN nothing) where is_float, otherwise bit for bit.
fn ballot_all_equal(value: vec4<u32>, is_float: bool, words: u32) -> bool {
    let first = ballot_first_words(value, words);
    let same_float = all((bitcast<vec4<f32>>(value) == bitcast<vec4<f32>>(first)));
    return subgroupAll(select(all((value == first)), same_float, is_float));
}
";

const SHUFFLE_XOR: &str = "\
// subgroupShuffleXor(value, mask): the value of lane own ^ mask; the caller's
// own where that lane is inactive or missing (undefined in the spec).
fn ballot_shuffle_xor(on: bool, value: vec4<u32>, mask: u32, words: u32) -> vec4<u32> {
    return ballot_broadcast(on, value, (ballot_lane ^ mask), words);
}
";

const SHUFFLE_UP: &str = "\
// subgroupShuffleUp(value, delta): the value of lane own - delta; the
// caller's own where that lane is below 0, inactive or missing (undefined).
fn ballot_shuffle_up(on: bool, value: vec4<u32>, delta: u32, words: u32) -> vec4<u32> {
    return ballot_broadcast(on, value, select(0xffffffffu, (ballot_lane - delta), (delta <= ballot_lane)), words);
}
";

const SHUFFLE_DOWN: &str = "\
// subgroupShuffleDown(value, delta): the value of lane own + delta; the
// caller's own where that lane is at or above the size, or inactive
// (undefined). A delta that would wrap is out of range too.
fn ballot_shuffle_down(on: bool, value: vec4<u32>, delta: u32, words: u32) -> vec4<u32> {
    return ballot_broadcast(on, value, select(0xffffffffu, (ballot_lane + delta), (delta < ballot_subgroup_size)), words);
}
";

const QUAD_BROADCAST: &str = "\
// subgroupQuadBroadcast(value, index): the value of lane index of this lane's
// quad (lanes 4k..4k + 3); the caller's own where that lane is inactive or
// missing, or index is 4 or more (undefined).
fn ballot_quad_broadcast(on: bool, value: vec4<u32>, index: u32, words: u32) -> vec4<u32> {
    return ballot_broadcast(on, value, select(0xffffffffu, ((ballot_lane & ~3u) + index), (index < 4u)), words);
}
";

const QUAD_SWAP: &str = "\
// subgroupQuadSwapHorizontal / Vertical / Diagonal (k = 1, 2, 3): the value of
// lane own ^ k; the caller's own where that lane is inactive or missing
// (undefined).
fn ballot_quad_swap(on: bool, value: vec4<u32>, k: u32, words: u32) -> vec4<u32> {
    return ballot_broadcast(on, value, (ballot_lane ^ k), words);
}
";

const IDENTITY: &str = "\
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
";

const COMBINE: &str = "\
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
// f32 results are rounded in that order, which may differ from the
// simulator's. Every read stays within the subgroup's slots. The branches and
// loop bounds are constants, so that every invocation reaches every barrier,
// as uniformity analysis can prove.

const REDUCE: &str = "\
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
";

const SCAN: &str = "\
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
";

const INCLUSIVE_SCAN: &str = "\
// subgroupInclusiveAdd and the other inclusive scans: lanes at or below this
// one.
fn ballot_inclusive_scan(on: bool, value: vec4<u32>, op: u32, words: u32) -> vec4<u32> {
    return ballot_scan(on, value, op, words, (ballot_lane + 1u));
}
";

const EXCLUSIVE_SCAN: &str = "\
// subgroupExclusiveAdd and the other exclusive scans: lanes below this one;
// the identity in lane 0.
fn ballot_exclusive_scan(on: bool, value: vec4<u32>, op: u32, words: u32) -> vec4<u32> {
    return ballot_scan(on, value, op, words, ballot_lane);
}
";

// The scans WGSL lacks (Min, Max, And, Or, Xor) of op (numbered as in
// ballot_identity). Where the active lanes are lanes 0..n (every lane of a
// full subgroup, or of a ragged one), a Hillis-Steele scan takes log2(n)
// shuffles, each from an active lane: lane own - d, or its own. Otherwise
// shuffles may read active lanes only, so every active lane walks the same
// ballot of the active lanes, lowest first, and shuffles each one's value,
// so that every shuffle reads an active lane and every active lane takes part
// in it; each lane combines those it covers, from the identity in ascending
// lane order, as the simulator does. Every branch and loop bound around a
// shuffle comes from the ballot, the same in every active lane, as Tint's
// subgroup uniformity analysis wants.

const CLUSTERED: &str = "\
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
";

// The native forms of the operations WGSL lacks share these: whether the
// active lanes are a prefix, the walk over them, and the moves of only the
// words a value uses (`words`, a constant of every call: one for a scalar,
// four for a mask), where a `vec4<u32>` would move four.

const PREFIX_COUNT: &str = "\
// How many lanes are active, where they are lanes 0..count (every lane of a
// full subgroup, or of a ragged one); 0 where they are not, as no count is:
// the caller is one of them.
fn ballot_prefix_count(lanes: vec4<u32>) -> u32 {
    let counts = countOneBits(lanes);
    let count = ((counts.x + counts.y) + (counts.z + counts.w));
    // The bits of lanes 0..count, word by word.
    let low = vec4<u32>(0u, 32u, 64u, 96u);
    let bits = min((max(vec4<u32>(count), low) - low), vec4<u32>(32u));
    let prefix = select(((vec4<u32>(1u) << (bits & vec4<u32>(31u))) - vec4<u32>(1u)), vec4<u32>(0xffffffffu), (bits == vec4<u32>(32u)));
    return select(0u, count, all((lanes == prefix)));
}
";

const TAKE_LOWEST: &str = "\
// The lowest lane of the ballot *lanes (one bit at least), and its bit
// cleared: a walk over the active lanes, lowest first.
fn ballot_take_lowest(lanes: ptr<function, vec4<u32>>) -> u32 {
    let m = *lanes;
    let t = firstTrailingBit(m);
    var lane = (96u + t.w);
    lane = select(lane, (64u + t.z), (m.z != 0u));
    lane = select(lane, (32u + t.y), (m.y != 0u));
    lane = select(lane, t.x, (m.x != 0u));
    (*lanes)[(lane >> 5u)] = ((*lanes)[(lane >> 5u)] & ~(1u << (lane & 31u)));
    return lane;
}
";

const SHUFFLE_WORDS: &str = "\
// subgroupShuffle(value, lane) of the first `words` words of value; the
// others are 0.
fn ballot_shuffle_words(value: vec4<u32>, lane: u32, words: u32) -> vec4<u32> {
    if (words == 1u) {
        return vec4<u32>(subgroupShuffle(value.x, lane), 0u, 0u, 0u);
    }
    if (words == 2u) {
        return vec4<u32>(subgroupShuffle(value.xy, lane), 0u, 0u);
    }
    if (words == 3u) {
        return vec4<u32>(subgroupShuffle(value.xyz, lane), 0u);
    }
    return subgroupShuffle(value, lane);
}
";

const FIRST_WORDS: &str = "\
// subgroupBroadcastFirst(value) of the first `words` words of value; the
// others are 0.
fn ballot_first_words(value: vec4<u32>, words: u32) -> vec4<u32> {
    if (words == 1u) {
        return vec4<u32>(subgroupBroadcastFirst(value.x), 0u, 0u, 0u);
    }
    if (words == 2u) {
        return vec4<u32>(subgroupBroadcastFirst(value.xy), 0u, 0u);
    }
    if (words == 3u) {
        return vec4<u32>(subgroupBroadcastFirst(value.xyz), 0u);
    }
    return subgroupBroadcastFirst(value);
}
";

const CLUSTERED_NATIVE: &str = "\
// subgroupClusteredAdd and the like, which WGSL lacks: the total of the
// active lanes of this lane's cluster of n lanes (a constant power of two;
// over the subgroup size, undefined, the whole subgroup).
//
// An integer operation is associative and commutative, so where the active
// lanes are lanes 0..count the clusters reduce in log2(n) shuffles: at each
// step d every lane of a block of d lanes holds that block's total over lanes
// below count, and takes the neighbouring block's from its lowest lane, where
// that lane is below count (else it keeps its own, so every shuffle reads an
// active lane).
//
// Otherwise, and for the float operations (whose answer depends on the
// order), as the scans' general case: every active lane walks the same
// ballot of the active lanes, lowest first, and shuffles each one's value, so
// that every shuffle reads an active lane and every active lane takes part in
// it; each lane combines the values of its cluster from the identity in
// ascending lane order, as the simulator does.
fn ballot_clustered_reduce(value: vec4<u32>, op: u32, n: u32, words: u32) -> vec4<u32> {
    let cluster = (ballot_lane & ~(n - 1u));
    var lanes = subgroupBallot(true);
    var result = ballot_identity(op);
    let count = ballot_prefix_count(lanes);
    let float_op = ((((op == 1u) || (op == 3u)) || (op == 6u)) || (op == 9u));
    if ((!float_op) && (count != 0u)) {
        var x = ballot_combine(op, result, value);
        for (var d = 1u; d < n; d = (d << 1u)) {
            let src = ((ballot_lane ^ d) & ~(d - 1u));
            let y = ballot_shuffle_words(x, select(ballot_lane, src, (src < count)), words);
            x = select(x, ballot_combine(op, x, y), (src < count));
        }
        return x;
    }
    loop {
        if (all((lanes == vec4<u32>(0u)))) {
            break;
        }
        let src = ballot_take_lowest(&lanes);
        let v = ballot_shuffle_words(value, src, words);
        if ((src & ~(n - 1u)) == cluster) {
            result = ballot_combine(op, result, v);
        }
    }
    return result;
}
";

const INCLUSIVE_SCAN_NATIVE: &str = "\
// subgroupInclusiveMin and the like: lanes at or below this one. Where the
// active lanes are lanes 0..n, in log2(n) shuffles (Hillis-Steele); else a
// walk over the active lanes, as in ballot_clustered_reduce.
fn ballot_inclusive_scan(value: vec4<u32>, op: u32, words: u32) -> vec4<u32> {
    let identity = ballot_identity(op);
    var lanes = subgroupBallot(true);
    let n = ballot_prefix_count(lanes);
    if (n != 0u) {
        var x = ballot_combine(op, identity, value);
        for (var d = 1u; d < n; d = (d << 1u)) {
            let y = ballot_shuffle_words(x, select(ballot_lane, (ballot_lane - d), (ballot_lane >= d)), words);
            x = select(x, ballot_combine(op, y, x), (ballot_lane >= d));
        }
        return x;
    }
    var result = identity;
    loop {
        if (all((lanes == vec4<u32>(0u)))) {
            break;
        }
        let src = ballot_take_lowest(&lanes);
        let v = ballot_shuffle_words(value, src, words);
        if (src <= ballot_lane) {
            result = ballot_combine(op, result, v);
        }
    }
    return result;
}
";

const EXCLUSIVE_SCAN_NATIVE: &str = "\
// subgroupExclusiveMin and the like: lanes below this one; the identity in
// lane 0. As ballot_inclusive_scan, and the inclusive value of the lane below.
fn ballot_exclusive_scan(value: vec4<u32>, op: u32, words: u32) -> vec4<u32> {
    let identity = ballot_identity(op);
    var lanes = subgroupBallot(true);
    let n = ballot_prefix_count(lanes);
    if (n != 0u) {
        var x = ballot_combine(op, identity, value);
        for (var d = 1u; d < n; d = (d << 1u)) {
            let y = ballot_shuffle_words(x, select(ballot_lane, (ballot_lane - d), (ballot_lane >= d)), words);
            x = select(x, ballot_combine(op, y, x), (ballot_lane >= d));
        }
        let below = ballot_shuffle_words(x, select(ballot_lane, (ballot_lane - 1u), (ballot_lane >= 1u)), words);
        return select(identity, below, (ballot_lane >= 1u));
    }
    var result = identity;
    loop {
        if (all((lanes == vec4<u32>(0u)))) {
            break;
        }
        let src = ballot_take_lowest(&lanes);
        let v = ballot_shuffle_words(value, src, words);
        if (src < ballot_lane) {
            result = ballot_combine(op, result, v);
        }
    }
    return result;
}
";

const WORKGROUP_ANY: &str = "\
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
";
