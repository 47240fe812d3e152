//! Every ballot operation as a collective over one simulated [`Subgroup`],
//! with spirv-std's names.
//!
//! Each function takes one input per lane, indexed by lane id (entries of
//! inactive lanes are ignored), and returns one output per active lane.
//! Inactive lanes contribute nothing and receive nothing. An input whose
//! result is undefined by the spec yields [`SimError::Undefined`], naming the
//! operation, the lowest lane in which it is undefined, and the offending
//! value; the simulator never answers an undefined case with a made-up value.
//!
//! ```
//! use ballot_core::ops::*;
//! use ballot_core::{Subgroup, SubgroupMask};
//!
//! // Lanes 1, 2 and 5 of an 8-lane subgroup are active.
//! let sg = Subgroup::new(8, [1, 2, 5].into_iter().collect()).unwrap();
//! let even: Vec<bool> = (0..8).map(|lane| lane % 2 == 0).collect();
//! let ballot = subgroup_ballot(&sg, &even).unwrap();
//! assert_eq!(ballot.get(1), Some(&SubgroupMask::lane(2)));
//! assert_eq!(ballot.get(0), None); // inactive
//! ```

use crate::error::{SimError, UbKind, UndefinedBehavior};
use crate::mask::SubgroupMask;
use crate::op::Op;
use crate::sim::{PerLane, Subgroup};

/// Builds the report for `op` in `lane`.
fn undefined(op: Op, lane: u32, kind: UbKind) -> SimError {
    SimError::Undefined(UndefinedBehavior { op, lane, kind })
}

/// A per-lane operation that reads only the lane's own input.
fn lanewise<T: Copy, U>(
    sg: &Subgroup,
    op: Op,
    input: &[T],
    mut f: impl FnMut(u32, T) -> Result<U, UbKind>,
) -> Result<PerLane<U>, SimError> {
    sg.check_len(op.spirv_std_name(), input)?;
    PerLane::try_from_fn(sg, |lane| {
        f(lane, input[lane as usize]).map_err(|kind| undefined(op, lane, kind))
    })
}

/// `subgroupBallot(p)`: bit `i` is set iff lane `i` is active and its `p` is
/// true. Bits at or above the size are 0. Every active lane gets the same
/// mask. Always defined.
#[doc(alias = "subgroupBallot")]
#[doc(alias = "OpGroupNonUniformBallot")]
pub fn subgroup_ballot(
    sg: &Subgroup,
    predicate: &[bool],
) -> Result<PerLane<SubgroupMask>, SimError> {
    sg.check_len(Op::Ballot.spirv_std_name(), predicate)?;
    let mask = sg
        .active()
        .iter()
        .filter(|&l| predicate[l as usize])
        .collect();
    Ok(PerLane::from_fn(sg, |_| mask))
}

/// `subgroupInverseBallot(v)`: bit `id` of `v`, in lane `id`.
///
/// Undefined unless every active lane passes the same `v`; the report names
/// the lowest lane whose `v` differs from the lowest active lane's.
#[doc(alias = "subgroupInverseBallot")]
#[doc(alias = "OpGroupNonUniformInverseBallot")]
pub fn subgroup_inverse_ballot(
    sg: &Subgroup,
    value: &[SubgroupMask],
) -> Result<PerLane<bool>, SimError> {
    let op = Op::InverseBallot;
    sg.check_len(op.spirv_std_name(), value)?;
    if let Some(first_lane) = sg.active().lowest() {
        let first = value[first_lane as usize];
        if let Some(lane) = sg.active().iter().find(|&l| value[l as usize] != first) {
            let value = value[lane as usize];
            return Err(undefined(
                op,
                lane,
                UbKind::NonUniform {
                    value,
                    first,
                    first_lane,
                },
            ));
        }
    }
    Ok(PerLane::from_fn(sg, |lane| {
        value[lane as usize].contains(lane)
    }))
}

/// `subgroupBallotBitExtract(v, i)`: bit `i` of `v`.
///
/// Undefined if `i >= size`.
#[doc(alias = "subgroupBallotBitExtract")]
#[doc(alias = "OpGroupNonUniformBallotBitExtract")]
pub fn subgroup_ballot_bit_extract(
    sg: &Subgroup,
    value: &[SubgroupMask],
    index: &[u32],
) -> Result<PerLane<bool>, SimError> {
    let op = Op::BitExtract;
    sg.check_len(op.spirv_std_name(), value)?;
    let size = sg.size();
    lanewise(sg, op, index, |lane, index| {
        value[lane as usize]
            .bit_extract(index, size)
            .ok_or(UbKind::IndexOutOfRange {
                index,
                size: size.get(),
            })
    })
}

/// `subgroupBallotBitCount(v)`: the number of set bits of `v` below the
/// size. Always defined.
#[doc(alias = "subgroupBallotBitCount")]
#[doc(alias = "OpGroupNonUniformBallotBitCount")]
pub fn subgroup_ballot_bit_count(
    sg: &Subgroup,
    value: &[SubgroupMask],
) -> Result<PerLane<u32>, SimError> {
    let size = sg.size();
    lanewise(sg, Op::BitCount, value, |_, v| Ok(v.bit_count(size)))
}

/// `subgroupBallotInclusiveBitCount(v)`: `popcount(v & LeMask)` in each lane.
///
/// Positional, not filtered by which lanes are active: for an all-ones `v`,
/// lane `id` gets `id + 1`. Always defined.
#[doc(alias = "subgroupBallotInclusiveBitCount")]
pub fn subgroup_ballot_inclusive_bit_count(
    sg: &Subgroup,
    value: &[SubgroupMask],
) -> Result<PerLane<u32>, SimError> {
    let size = sg.size();
    lanewise(sg, Op::InclusiveBitCount, value, |lane, v| {
        Ok(v.inclusive_bit_count(lane, size))
    })
}

/// `subgroupBallotExclusiveBitCount(v)`: `popcount(v & LtMask)` in each lane.
///
/// Positional, not filtered by which lanes are active: for an all-ones `v`,
/// lane `id` gets `id`. Always defined.
#[doc(alias = "subgroupBallotExclusiveBitCount")]
pub fn subgroup_ballot_exclusive_bit_count(
    sg: &Subgroup,
    value: &[SubgroupMask],
) -> Result<PerLane<u32>, SimError> {
    let size = sg.size();
    lanewise(sg, Op::ExclusiveBitCount, value, |lane, v| {
        Ok(v.exclusive_bit_count(lane, size))
    })
}

fn empty_mask(mask: SubgroupMask, sg: &Subgroup) -> UbKind {
    UbKind::EmptyMask {
        mask,
        size: sg.size().get(),
    }
}

/// `subgroupBallotFindLSB(v)`: the lowest set bit of `v` below the size.
///
/// Undefined when no bit below the size is set.
#[doc(alias = "subgroupBallotFindLSB")]
pub fn subgroup_ballot_find_lsb(
    sg: &Subgroup,
    value: &[SubgroupMask],
) -> Result<PerLane<u32>, SimError> {
    lanewise(sg, Op::FindLsb, value, |_, v| {
        v.find_lsb(sg.size()).ok_or_else(|| empty_mask(v, sg))
    })
}

/// `subgroupBallotFindMSB(v)`: the highest set bit of `v` below the size.
///
/// Undefined when no bit below the size is set.
#[doc(alias = "subgroupBallotFindMSB")]
pub fn subgroup_ballot_find_msb(
    sg: &Subgroup,
    value: &[SubgroupMask],
) -> Result<PerLane<u32>, SimError> {
    lanewise(sg, Op::FindMsb, value, |_, v| {
        v.find_msb(sg.size()).ok_or_else(|| empty_mask(v, sg))
    })
}

/// `gl_SubgroupEqMask`: in lane `id`, bit `i` set iff `i == id`.
#[doc(alias = "gl_SubgroupEqMask")]
pub fn subgroup_eq_mask(sg: &Subgroup) -> PerLane<SubgroupMask> {
    PerLane::from_fn(sg, |lane| SubgroupMask::eq_mask(lane, sg.size()))
}

/// `gl_SubgroupGeMask`: in lane `id`, bit `i` set iff `id <= i < size`.
#[doc(alias = "gl_SubgroupGeMask")]
pub fn subgroup_ge_mask(sg: &Subgroup) -> PerLane<SubgroupMask> {
    PerLane::from_fn(sg, |lane| SubgroupMask::ge_mask(lane, sg.size()))
}

/// `gl_SubgroupGtMask`: in lane `id`, bit `i` set iff `id < i < size`.
#[doc(alias = "gl_SubgroupGtMask")]
pub fn subgroup_gt_mask(sg: &Subgroup) -> PerLane<SubgroupMask> {
    PerLane::from_fn(sg, |lane| SubgroupMask::gt_mask(lane, sg.size()))
}

/// `gl_SubgroupLeMask`: in lane `id`, bit `i` set iff `i <= id`.
#[doc(alias = "gl_SubgroupLeMask")]
pub fn subgroup_le_mask(sg: &Subgroup) -> PerLane<SubgroupMask> {
    PerLane::from_fn(sg, |lane| SubgroupMask::le_mask(lane, sg.size()))
}

/// `gl_SubgroupLtMask`: in lane `id`, bit `i` set iff `i < id`.
#[doc(alias = "gl_SubgroupLtMask")]
pub fn subgroup_lt_mask(sg: &Subgroup) -> PerLane<SubgroupMask> {
    PerLane::from_fn(sg, |lane| SubgroupMask::lt_mask(lane, sg.size()))
}

/// `subgroupElect()`: true in the lowest active lane only.
#[doc(alias = "subgroupElect")]
#[doc(alias = "OpGroupNonUniformElect")]
pub fn subgroup_elect(sg: &Subgroup) -> PerLane<bool> {
    let leader = sg.active().lowest();
    PerLane::from_fn(sg, |lane| Some(lane) == leader)
}

/// `subgroupBroadcastFirst(x)`: `x` as the lowest active lane holds it.
#[doc(alias = "subgroupBroadcastFirst")]
#[doc(alias = "OpGroupNonUniformBroadcastFirst")]
pub fn subgroup_broadcast_first<T: Copy>(
    sg: &Subgroup,
    value: &[T],
) -> Result<PerLane<T>, SimError> {
    sg.check_len(Op::BroadcastFirst.spirv_std_name(), value)?;
    // With no active lane nothing is read, so any in-range index will do.
    let first = sg.active().lowest().unwrap_or(0) as usize;
    Ok(PerLane::from_fn(sg, |_| value[first]))
}

/// `subgroupBroadcast(x, id)`: `x` as lane `id` holds it. `id` is a
/// constant, the same in every lane.
///
/// Undefined if `id >= size` or lane `id` is inactive; the report names the
/// lowest active lane, which is the first to read the undefined value.
#[doc(alias = "subgroupBroadcast")]
#[doc(alias = "OpGroupNonUniformBroadcast")]
pub fn subgroup_broadcast<T: Copy>(
    sg: &Subgroup,
    value: &[T],
    id: u32,
) -> Result<PerLane<T>, SimError> {
    let op = Op::Broadcast;
    sg.check_len(op.spirv_std_name(), value)?;
    let Some(reader) = sg.active().lowest() else {
        // No lane executes the broadcast, so nothing is undefined.
        return Ok(PerLane::from_fn(sg, |_| value[0]));
    };
    let size = sg.size().get();
    if id >= size {
        return Err(undefined(
            op,
            reader,
            UbKind::IndexOutOfRange { index: id, size },
        ));
    }
    if !sg.is_active(id) {
        return Err(undefined(
            op,
            reader,
            UbKind::InactiveSource { source_lane: id },
        ));
    }
    Ok(PerLane::from_fn(sg, |_| value[id as usize]))
}
