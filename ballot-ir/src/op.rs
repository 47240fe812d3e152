//! [`Op`]: every subgroup operation, the vocabulary the IR, the simulator,
//! the printers and the error reports share, with its name in Rust
//! (spirv-std's), GLSL, WGSL and the spec.
//!
//! The ballot family (`GL_KHR_shader_subgroup_ballot`) came first; vote,
//! arithmetic, shuffles, quads and clustered reductions
//! (`GL_KHR_shader_subgroup_vote`, `_arithmetic`, `_shuffle`,
//! `_shuffle_relative`, `_quad`, `_clustered`) follow, with the semantics
//! `docs/design.md` states.

use core::fmt;

/// Every subgroup operation, with its names in each language.
///
/// Exhaustive on purpose: every layer matches on it, so that a new
/// operation does not compile until each lowering rule and printer names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// `subgroupBallot`.
    Ballot,
    /// `subgroupInverseBallot`.
    InverseBallot,
    /// `subgroupBallotBitExtract`.
    BitExtract,
    /// `subgroupBallotBitCount`.
    BitCount,
    /// `subgroupBallotInclusiveBitCount`.
    InclusiveBitCount,
    /// `subgroupBallotExclusiveBitCount`.
    ExclusiveBitCount,
    /// `subgroupBallotFindLSB`.
    FindLsb,
    /// `subgroupBallotFindMSB`.
    FindMsb,
    /// `gl_SubgroupEqMask`.
    EqMask,
    /// `gl_SubgroupGeMask`.
    GeMask,
    /// `gl_SubgroupGtMask`.
    GtMask,
    /// `gl_SubgroupLeMask`.
    LeMask,
    /// `gl_SubgroupLtMask`.
    LtMask,
    /// `subgroupElect`.
    Elect,
    /// `subgroupBroadcast`.
    Broadcast,
    /// `subgroupBroadcastFirst`.
    BroadcastFirst,
    /// `subgroupAll(p)`: `p` holds in every active lane.
    All,
    /// `subgroupAny(p)`: `p` holds in some active lane.
    Any,
    /// `subgroupAllEqual(v)`: `v` is the same in every active lane.
    AllEqual,
    /// `subgroupAdd` … `subgroupXor` and their scans, over the active lanes.
    Arith(ArithOp, Scan),
    /// `subgroupShuffle(v, id)`: `v` of lane `id`.
    Shuffle,
    /// `subgroupShuffleXor(v, mask)`: `v` of lane `own ^ mask`.
    ShuffleXor,
    /// `subgroupShuffleUp(v, delta)`: `v` of lane `own - delta`.
    ShuffleUp,
    /// `subgroupShuffleDown(v, delta)`: `v` of lane `own + delta`.
    ShuffleDown,
    /// `subgroupQuadBroadcast(v, i)`: `v` of lane `i` of this lane's quad,
    /// `i` a constant below 4.
    QuadBroadcast,
    /// `subgroupQuadSwapHorizontal` / `Vertical` / `Diagonal`.
    QuadSwap(Quad),
    /// `subgroupClusteredAdd(v, n)` … `subgroupClusteredXor`
    /// (`GL_KHR_shader_subgroup_clustered`, SPIR-V's `ClusteredReduce`):
    /// in each active lane, the reduction over the active lanes of its
    /// cluster, the `n` lanes `floor(id / n) * n ..` that share its id's
    /// bits above `log2(n)`. `n`, the second operand, is a constant power of
    /// two (IR invariant 8), so one `Op` covers every cluster size, as one
    /// covers every quad index of [`Op::QuadBroadcast`].
    Clustered(ArithOp),
}

/// The combining operation of an arithmetic collective, as SPIR-V names
/// it: one variant per distinct operation on the bits, so that integer
/// addition is one (it wraps alike in `u32` and `i32`) and minimum three.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ArithOp {
    /// Wrapping integer addition (`u32`, `i32`); identity 0.
    IAdd,
    /// `f32` addition; identity 0.0.
    FAdd,
    /// Wrapping integer multiplication; identity 1.
    IMul,
    /// `f32` multiplication; identity 1.0.
    FMul,
    /// `i32` minimum; identity `i32::MAX`.
    SMin,
    /// `u32` minimum; identity `u32::MAX`.
    UMin,
    /// `f32` minimum; identity +infinity.
    FMin,
    /// `i32` maximum; identity `i32::MIN`.
    SMax,
    /// `u32` maximum; identity 0.
    UMax,
    /// `f32` maximum; identity -infinity.
    FMax,
    /// Bitwise and (`u32`, `i32`); identity all ones.
    And,
    /// Bitwise or; identity 0.
    Or,
    /// Bitwise exclusive or; identity 0.
    Xor,
}

impl ArithOp {
    /// Every combining operation, in declaration order.
    pub const ALL: [ArithOp; 13] = [
        ArithOp::IAdd,
        ArithOp::FAdd,
        ArithOp::IMul,
        ArithOp::FMul,
        ArithOp::SMin,
        ArithOp::UMin,
        ArithOp::FMin,
        ArithOp::SMax,
        ArithOp::UMax,
        ArithOp::FMax,
        ArithOp::And,
        ArithOp::Or,
        ArithOp::Xor,
    ];

    /// The operation's word in GLSL's and WGSL's names: `Add` in
    /// `subgroupAdd`, `subgroupInclusiveAdd`.
    pub const fn word(self) -> &'static str {
        match self {
            ArithOp::IAdd | ArithOp::FAdd => "Add",
            ArithOp::IMul | ArithOp::FMul => "Mul",
            ArithOp::SMin | ArithOp::UMin | ArithOp::FMin => "Min",
            ArithOp::SMax | ArithOp::UMax | ArithOp::FMax => "Max",
            ArithOp::And => "And",
            ArithOp::Or => "Or",
            ArithOp::Xor => "Xor",
        }
    }

    /// spirv-std's stem: `i_add` in `subgroup_i_add`,
    /// `subgroup_inclusive_i_add`, `subgroup_clustered_i_add`.
    pub const fn stem(self) -> &'static str {
        match self {
            ArithOp::IAdd => "i_add",
            ArithOp::FAdd => "f_add",
            ArithOp::IMul => "i_mul",
            ArithOp::FMul => "f_mul",
            ArithOp::SMin => "s_min",
            ArithOp::UMin => "u_min",
            ArithOp::FMin => "f_min",
            ArithOp::SMax => "s_max",
            ArithOp::UMax => "u_max",
            ArithOp::FMax => "f_max",
            ArithOp::And => "and",
            ArithOp::Or => "or",
            ArithOp::Xor => "xor",
        }
    }

    /// Whether the operation is `f32`'s, whose result may depend on the
    /// order in which the lanes are combined.
    pub const fn is_float(self) -> bool {
        matches!(
            self,
            ArithOp::FAdd | ArithOp::FMul | ArithOp::FMin | ArithOp::FMax
        )
    }
}

/// Which lanes an arithmetic collective combines for each lane (SPIR-V's
/// `GroupOperation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scan {
    /// Every active lane: the same value in each.
    Reduce,
    /// The active lanes with an id at most the lane's own.
    Inclusive,
    /// The active lanes with an id below the lane's own.
    Exclusive,
}

impl Scan {
    /// Every kind, in declaration order.
    pub const ALL: [Scan; 3] = [Scan::Reduce, Scan::Inclusive, Scan::Exclusive];
}

/// The partner of a quad swap: lane `own ^ 1`, `own ^ 2` or `own ^ 3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Quad {
    /// Lanes 0 and 1, 2 and 3 of each quad swap (spirv-std direction 0).
    Horizontal,
    /// Lanes 0 and 2, 1 and 3 (direction 1).
    Vertical,
    /// Lanes 0 and 3, 1 and 2 (direction 2).
    Diagonal,
}

impl Quad {
    /// Every direction, in spirv-std's order (its `DIRECTION` value).
    pub const ALL: [Quad; 3] = [Quad::Horizontal, Quad::Vertical, Quad::Diagonal];

    /// What the lane id is xor-ed with to find the partner.
    pub const fn xor(self) -> u32 {
        match self {
            Quad::Horizontal => 1,
            Quad::Vertical => 2,
            Quad::Diagonal => 3,
        }
    }
}

/// GLSL's (and WGSL's) names of the arithmetic operations, by [`Scan`]
/// then [`ArithOp`].
const ARITH_GLSL: [[&str; 13]; 3] = [
    [
        "subgroupAdd",
        "subgroupAdd",
        "subgroupMul",
        "subgroupMul",
        "subgroupMin",
        "subgroupMin",
        "subgroupMin",
        "subgroupMax",
        "subgroupMax",
        "subgroupMax",
        "subgroupAnd",
        "subgroupOr",
        "subgroupXor",
    ],
    [
        "subgroupInclusiveAdd",
        "subgroupInclusiveAdd",
        "subgroupInclusiveMul",
        "subgroupInclusiveMul",
        "subgroupInclusiveMin",
        "subgroupInclusiveMin",
        "subgroupInclusiveMin",
        "subgroupInclusiveMax",
        "subgroupInclusiveMax",
        "subgroupInclusiveMax",
        "subgroupInclusiveAnd",
        "subgroupInclusiveOr",
        "subgroupInclusiveXor",
    ],
    [
        "subgroupExclusiveAdd",
        "subgroupExclusiveAdd",
        "subgroupExclusiveMul",
        "subgroupExclusiveMul",
        "subgroupExclusiveMin",
        "subgroupExclusiveMin",
        "subgroupExclusiveMin",
        "subgroupExclusiveMax",
        "subgroupExclusiveMax",
        "subgroupExclusiveMax",
        "subgroupExclusiveAnd",
        "subgroupExclusiveOr",
        "subgroupExclusiveXor",
    ],
];

/// spirv-std's names of the arithmetic operations, by [`Scan`] then
/// [`ArithOp`].
const ARITH_RUST: [[&str; 13]; 3] = [
    [
        "subgroup_i_add",
        "subgroup_f_add",
        "subgroup_i_mul",
        "subgroup_f_mul",
        "subgroup_s_min",
        "subgroup_u_min",
        "subgroup_f_min",
        "subgroup_s_max",
        "subgroup_u_max",
        "subgroup_f_max",
        "subgroup_and",
        "subgroup_or",
        "subgroup_xor",
    ],
    [
        "subgroup_inclusive_i_add",
        "subgroup_inclusive_f_add",
        "subgroup_inclusive_i_mul",
        "subgroup_inclusive_f_mul",
        "subgroup_inclusive_s_min",
        "subgroup_inclusive_u_min",
        "subgroup_inclusive_f_min",
        "subgroup_inclusive_s_max",
        "subgroup_inclusive_u_max",
        "subgroup_inclusive_f_max",
        "subgroup_inclusive_and",
        "subgroup_inclusive_or",
        "subgroup_inclusive_xor",
    ],
    [
        "subgroup_exclusive_i_add",
        "subgroup_exclusive_f_add",
        "subgroup_exclusive_i_mul",
        "subgroup_exclusive_f_mul",
        "subgroup_exclusive_s_min",
        "subgroup_exclusive_u_min",
        "subgroup_exclusive_f_min",
        "subgroup_exclusive_s_max",
        "subgroup_exclusive_u_max",
        "subgroup_exclusive_f_max",
        "subgroup_exclusive_and",
        "subgroup_exclusive_or",
        "subgroup_exclusive_xor",
    ],
];

/// GLSL's names of the clustered reductions, by [`ArithOp`].
const CLUSTERED_GLSL: [&str; 13] = [
    "subgroupClusteredAdd",
    "subgroupClusteredAdd",
    "subgroupClusteredMul",
    "subgroupClusteredMul",
    "subgroupClusteredMin",
    "subgroupClusteredMin",
    "subgroupClusteredMin",
    "subgroupClusteredMax",
    "subgroupClusteredMax",
    "subgroupClusteredMax",
    "subgroupClusteredAnd",
    "subgroupClusteredOr",
    "subgroupClusteredXor",
];

/// spirv-std's names of the clustered reductions, by [`ArithOp`]; each
/// takes the cluster size as its first const generic argument
/// (`subgroup_clustered_i_add::<4, _>(v)`).
const CLUSTERED_RUST: [&str; 13] = [
    "subgroup_clustered_i_add",
    "subgroup_clustered_f_add",
    "subgroup_clustered_i_mul",
    "subgroup_clustered_f_mul",
    "subgroup_clustered_s_min",
    "subgroup_clustered_u_min",
    "subgroup_clustered_f_min",
    "subgroup_clustered_s_max",
    "subgroup_clustered_u_max",
    "subgroup_clustered_f_max",
    "subgroup_clustered_and",
    "subgroup_clustered_or",
    "subgroup_clustered_xor",
];

impl Op {
    /// The ballot family (`GL_KHR_shader_subgroup_ballot`), in declaration
    /// order.
    pub const BALLOT: [Op; 16] = [
        Op::Ballot,
        Op::InverseBallot,
        Op::BitExtract,
        Op::BitCount,
        Op::InclusiveBitCount,
        Op::ExclusiveBitCount,
        Op::FindLsb,
        Op::FindMsb,
        Op::EqMask,
        Op::GeMask,
        Op::GtMask,
        Op::LeMask,
        Op::LtMask,
        Op::Elect,
        Op::Broadcast,
        Op::BroadcastFirst,
    ];

    /// Every operation: the ballot family, then votes, arithmetic (by
    /// [`Scan`], then [`ArithOp`]), shuffles, quads and the clustered
    /// reductions (by [`ArithOp`]). The clustered ones come last, so that
    /// the positions of the others did not move when they came.
    pub const ALL: [Op; 16 + 3 + 39 + 4 + 1 + 3 + 13] = {
        let mut all = [Op::Ballot; 16 + 3 + 39 + 4 + 1 + 3 + 13];
        let mut n = 0;
        while n < 16 {
            all[n] = Op::BALLOT[n];
            n += 1;
        }
        let rest = [Op::All, Op::Any, Op::AllEqual];
        let mut i = 0;
        while i < rest.len() {
            all[n] = rest[i];
            n += 1;
            i += 1;
        }
        let mut s = 0;
        while s < Scan::ALL.len() {
            let mut a = 0;
            while a < ArithOp::ALL.len() {
                all[n] = Op::Arith(ArithOp::ALL[a], Scan::ALL[s]);
                n += 1;
                a += 1;
            }
            s += 1;
        }
        let rest = [
            Op::Shuffle,
            Op::ShuffleXor,
            Op::ShuffleUp,
            Op::ShuffleDown,
            Op::QuadBroadcast,
            Op::QuadSwap(Quad::Horizontal),
            Op::QuadSwap(Quad::Vertical),
            Op::QuadSwap(Quad::Diagonal),
        ];
        let mut i = 0;
        while i < rest.len() {
            all[n] = rest[i];
            n += 1;
            i += 1;
        }
        let mut a = 0;
        while a < ArithOp::ALL.len() {
            all[n] = Op::Clustered(ArithOp::ALL[a]);
            n += 1;
            a += 1;
        }
        all
    };

    /// Whether the lanes that execute it together matter: its result, or
    /// (`subgroupInverseBallot`'s uniform operand, a shuffle's source)
    /// whether it is defined, depends on them. The others are functions of
    /// the lane, the size and the operands alone.
    pub const fn depends_on_lanes(self) -> bool {
        !matches!(
            self,
            Op::BitExtract
                | Op::BitCount
                | Op::InclusiveBitCount
                | Op::ExclusiveBitCount
                | Op::FindLsb
                | Op::FindMsb
                | Op::EqMask
                | Op::GeMask
                | Op::GtMask
                | Op::LeMask
                | Op::LtMask
        )
    }

    /// The arithmetic it combines with: an [`Op::Arith`]'s, in any form, or
    /// an [`Op::Clustered`]'s; `None` for the others.
    pub const fn arith(self) -> Option<ArithOp> {
        match self {
            Op::Arith(arith, _) | Op::Clustered(arith) => Some(arith),
            _ => None,
        }
    }

    /// Whether it belongs to the ballot family, which every target had
    /// first.
    pub const fn is_ballot(self) -> bool {
        matches!(
            self,
            Op::Ballot
                | Op::InverseBallot
                | Op::BitExtract
                | Op::BitCount
                | Op::InclusiveBitCount
                | Op::ExclusiveBitCount
                | Op::FindLsb
                | Op::FindMsb
                | Op::EqMask
                | Op::GeMask
                | Op::GtMask
                | Op::LeMask
                | Op::LtMask
                | Op::Elect
                | Op::Broadcast
                | Op::BroadcastFirst
        )
    }

    /// The GLSL (`GL_KHR_shader_subgroup`) name: a function or a built-in.
    pub const fn glsl_name(self) -> &'static str {
        match self {
            Op::Ballot => "subgroupBallot",
            Op::InverseBallot => "subgroupInverseBallot",
            Op::BitExtract => "subgroupBallotBitExtract",
            Op::BitCount => "subgroupBallotBitCount",
            Op::InclusiveBitCount => "subgroupBallotInclusiveBitCount",
            Op::ExclusiveBitCount => "subgroupBallotExclusiveBitCount",
            Op::FindLsb => "subgroupBallotFindLSB",
            Op::FindMsb => "subgroupBallotFindMSB",
            Op::EqMask => "gl_SubgroupEqMask",
            Op::GeMask => "gl_SubgroupGeMask",
            Op::GtMask => "gl_SubgroupGtMask",
            Op::LeMask => "gl_SubgroupLeMask",
            Op::LtMask => "gl_SubgroupLtMask",
            Op::Elect => "subgroupElect",
            Op::Broadcast => "subgroupBroadcast",
            Op::BroadcastFirst => "subgroupBroadcastFirst",
            Op::All => "subgroupAll",
            Op::Any => "subgroupAny",
            Op::AllEqual => "subgroupAllEqual",
            Op::Arith(arith, scan) => ARITH_GLSL[scan as usize][arith as usize],
            Op::Shuffle => "subgroupShuffle",
            Op::ShuffleXor => "subgroupShuffleXor",
            Op::ShuffleUp => "subgroupShuffleUp",
            Op::ShuffleDown => "subgroupShuffleDown",
            Op::QuadBroadcast => "subgroupQuadBroadcast",
            Op::QuadSwap(Quad::Horizontal) => "subgroupQuadSwapHorizontal",
            Op::QuadSwap(Quad::Vertical) => "subgroupQuadSwapVertical",
            Op::QuadSwap(Quad::Diagonal) => "subgroupQuadSwapDiagonal",
            Op::Clustered(arith) => CLUSTERED_GLSL[arith as usize],
        }
    }

    /// The WGSL built-in (`subgroups` and `subgroups` quads), where WGSL
    /// has one. WGSL lacks the ballot family beyond `subgroupBallot`, the
    /// broadcasts and `subgroupElect` (which naga lacks), `AllEqual`, and the
    /// scans of everything but `Add` and `Mul`, and the clustered
    /// reductions.
    pub const fn wgsl_name(self) -> Option<&'static str> {
        Some(match self {
            Op::Ballot => "subgroupBallot",
            Op::Elect => "subgroupElect",
            Op::Broadcast => "subgroupBroadcast",
            Op::BroadcastFirst => "subgroupBroadcastFirst",
            Op::All => "subgroupAll",
            Op::Any => "subgroupAny",
            Op::Arith(arith, Scan::Reduce) => ARITH_GLSL[0][arith as usize],
            Op::Arith(
                arith @ (ArithOp::IAdd | ArithOp::FAdd | ArithOp::IMul | ArithOp::FMul),
                scan,
            ) => ARITH_GLSL[scan as usize][arith as usize],
            Op::Shuffle => "subgroupShuffle",
            Op::ShuffleXor => "subgroupShuffleXor",
            Op::ShuffleUp => "subgroupShuffleUp",
            Op::ShuffleDown => "subgroupShuffleDown",
            Op::QuadBroadcast => "quadBroadcast",
            Op::QuadSwap(Quad::Horizontal) => "quadSwapX",
            Op::QuadSwap(Quad::Vertical) => "quadSwapY",
            Op::QuadSwap(Quad::Diagonal) => "quadSwapDiagonal",
            _ => return None,
        })
    }

    /// The spirv-std name, which is also the kernel intrinsic's name.
    /// spirv-std's `subgroup_quad_swap::<DIRECTION>` is one function for
    /// the three swaps; its name here carries the direction
    /// (`subgroup_quad_swap::<1>`). A clustered reduction's name leaves its
    /// cluster size out (`subgroup_clustered_i_add`), which is an operand.
    pub const fn spirv_std_name(self) -> &'static str {
        match self {
            Op::Ballot => "subgroup_ballot",
            Op::InverseBallot => "subgroup_inverse_ballot",
            Op::BitExtract => "subgroup_ballot_bit_extract",
            Op::BitCount => "subgroup_ballot_bit_count",
            Op::InclusiveBitCount => "subgroup_ballot_inclusive_bit_count",
            Op::ExclusiveBitCount => "subgroup_ballot_exclusive_bit_count",
            Op::FindLsb => "subgroup_ballot_find_lsb",
            Op::FindMsb => "subgroup_ballot_find_msb",
            Op::EqMask => "subgroup_eq_mask",
            Op::GeMask => "subgroup_ge_mask",
            Op::GtMask => "subgroup_gt_mask",
            Op::LeMask => "subgroup_le_mask",
            Op::LtMask => "subgroup_lt_mask",
            Op::Elect => "subgroup_elect",
            Op::Broadcast => "subgroup_broadcast",
            Op::BroadcastFirst => "subgroup_broadcast_first",
            Op::All => "subgroup_all",
            Op::Any => "subgroup_any",
            Op::AllEqual => "subgroup_all_equal",
            Op::Arith(arith, scan) => ARITH_RUST[scan as usize][arith as usize],
            Op::Shuffle => "subgroup_shuffle",
            Op::ShuffleXor => "subgroup_shuffle_xor",
            Op::ShuffleUp => "subgroup_shuffle_up",
            Op::ShuffleDown => "subgroup_shuffle_down",
            Op::QuadBroadcast => "subgroup_quad_broadcast",
            Op::QuadSwap(Quad::Horizontal) => "subgroup_quad_swap::<0>",
            Op::QuadSwap(Quad::Vertical) => "subgroup_quad_swap::<1>",
            Op::QuadSwap(Quad::Diagonal) => "subgroup_quad_swap::<2>",
            Op::Clustered(arith) => CLUSTERED_RUST[arith as usize],
        }
    }

    /// Looks an operation up by its spirv-std name (a quad swap by
    /// `subgroup_quad_swap::<DIRECTION>`, as [`Op::spirv_std_name`] writes
    /// it).
    pub fn from_spirv_std_name(name: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|op| op.spirv_std_name() == name)
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.glsl_name())
    }
}
