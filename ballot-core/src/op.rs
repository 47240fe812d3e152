//! [`Op`]: every ballot operation, the vocabulary the IR, the simulator,
//! the printers and the error reports share, with its name in Rust
//! (spirv-std's), GLSL and the spec.

use core::fmt;

/// Every ballot operation, with its names in each language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
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
}

impl Op {
    /// Every operation, in declaration order.
    pub const ALL: [Op; 16] = [
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

    /// Whether the lanes that execute it together matter: its result, or
    /// (`subgroupInverseBallot`'s uniform operand) whether it is defined,
    /// depends on them. The others are functions of the lane, the size and
    /// the operands alone.
    pub const fn depends_on_lanes(self) -> bool {
        matches!(
            self,
            Op::Ballot | Op::InverseBallot | Op::Elect | Op::Broadcast | Op::BroadcastFirst
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
        }
    }

    /// The spirv-std name, which is also the kernel intrinsic's name.
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
        }
    }

    /// Looks an operation up by its spirv-std name.
    pub fn from_spirv_std_name(name: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|op| op.spirv_std_name() == name)
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.glsl_name())
    }
}
