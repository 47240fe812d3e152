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
pub(crate) fn text(helper: Helper, emulated: bool) -> Option<&'static str> {
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
var<workgroup> ballot_words: array<atomic<u32>, (ballot_exchange_slots * ballot_slot_stride)>;
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
// Exchange memory of broadcasts, in two halves: one value per invocation,
// as bits. A broadcast writes one half before its exchange's barrier; the
// next writes the other, so no write overtakes a read.
var<workgroup> ballot_values: array<vec4<u32>, (2u * ballot_exchange_size)>;
// Beside each value, whether its invocation was active: Broadcast reads one
// lane's, without the contention of every lane setting a bit in one word.
var<workgroup> ballot_present: array<u32, (2u * ballot_exchange_size)>;
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
// subgroupBroadcastFirst(value): the value of the lowest active lane. The
// value goes to the half of the values that ballot_share's barrier publishes.
fn ballot_broadcast_first(on: bool, value: vec4<u32>) -> vec4<u32> {
    let half = ballot_half;
    ballot_values[(half + ballot_index)] = value;
    let lowest = ballot_lowest_flag(ballot_gather(ballot_share(on)));
    var result = value;
    if (lowest < ballot_count) {
        result = ballot_values[((half + ballot_base) + lowest)];
    }
    return result;
}
";

const BROADCAST: &str = "\
// subgroupBroadcast(value, id): the value of lane id. An inactive or missing
// lane has none to give, so the invocation keeps its own, where the spec
// leaves the result undefined.
fn ballot_broadcast(on: bool, value: vec4<u32>, id: u32) -> vec4<u32> {
    // An exchange of values alone: it takes the next half of the values, and
    // leaves the flag buffers to the next exchange that sets bits.
    let half = ballot_half;
    ballot_half = (ballot_exchange_size - half);
    ballot_values[(half + ballot_index)] = value;
    ballot_present[(half + ballot_index)] = select(0u, 1u, on);
    workgroupBarrier();
    var result = value;
    if (id < ballot_count) {
        let slot = ((half + ballot_base) + id);
        if (ballot_present[slot] != 0u) {
            result = ballot_values[slot];
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
