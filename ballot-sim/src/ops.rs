//! Every subgroup operation as a collective over one simulated
//! [`Subgroup`], with spirv-std's names.
//!
//! Each function takes one input per lane, indexed by lane id (entries of
//! inactive lanes are ignored), and returns one output per active lane.
//! Inactive lanes contribute nothing and receive nothing. An input whose
//! result is undefined by the spec yields [`SimError::Undefined`], naming the
//! operation, the lowest lane in which it is undefined, and the offending
//! value; the simulator never answers an undefined case with a made-up value.
//!
//! ```
//! use ballot_sim::ops::*;
//! use ballot_sim::{Subgroup, SubgroupMask};
//!
//! // Lanes 1, 2 and 5 of an 8-lane subgroup are active.
//! let sg = Subgroup::new(8, [1, 2, 5].into_iter().collect()).unwrap();
//! let even: Vec<bool> = (0..8).map(|lane| lane % 2 == 0).collect();
//! let ballot = subgroup_ballot(&sg, &even).unwrap();
//! assert_eq!(ballot.get(1), Some(&SubgroupMask::lane(2)));
//! assert_eq!(ballot.get(0), None); // inactive
//! ```

use crate::sim::{PerLane, Subgroup};
use ballot_ir::error::{SimError, UbKind, UndefinedBehavior};
use ballot_ir::mask::SubgroupMask;
use ballot_ir::op::{ArithOp, Op, Quad, Scan};

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

/// `subgroupAll(p)`: whether `p` holds in every active lane. Always
/// defined; true when no lane is active.
#[doc(alias = "subgroupAll")]
#[doc(alias = "OpGroupNonUniformAll")]
pub fn subgroup_all(sg: &Subgroup, predicate: &[bool]) -> Result<PerLane<bool>, SimError> {
    sg.check_len(Op::All.spirv_std_name(), predicate)?;
    let all = sg.active().iter().all(|l| predicate[l as usize]);
    Ok(PerLane::from_fn(sg, |_| all))
}

/// `subgroupAny(p)`: whether `p` holds in some active lane. Always defined.
#[doc(alias = "subgroupAny")]
#[doc(alias = "OpGroupNonUniformAny")]
pub fn subgroup_any(sg: &Subgroup, predicate: &[bool]) -> Result<PerLane<bool>, SimError> {
    sg.check_len(Op::Any.spirv_std_name(), predicate)?;
    let any = sg.active().iter().any(|l| predicate[l as usize]);
    Ok(PerLane::from_fn(sg, |_| any))
}

/// `subgroupAllEqual(v)`: whether every active lane holds the same `v`,
/// compared as the type compares (`f32`: ordered equality, so `-0.0`
/// equals `0.0` and a NaN equals nothing). Always defined.
#[doc(alias = "subgroupAllEqual")]
#[doc(alias = "OpGroupNonUniformAllEqual")]
pub fn subgroup_all_equal<T: Copy + PartialEq>(
    sg: &Subgroup,
    value: &[T],
) -> Result<PerLane<bool>, SimError> {
    sg.check_len(Op::AllEqual.spirv_std_name(), value)?;
    // Every lane against the lowest active one, that lane included, as a
    // device compares each lane with the first lane's value: a lone NaN
    // is not equal.
    let equal = match sg.active().lowest() {
        Some(lowest) => {
            let first = value[lowest as usize];
            sg.active().iter().all(|l| value[l as usize] == first)
        }
        None => true,
    };
    Ok(PerLane::from_fn(sg, |_| equal))
}

/// A type the arithmetic collectives combine: `u32`, `i32` and `f32`,
/// each with the [`ArithOp`] operations spirv-std allows it.
pub trait Arithmetic: Copy {
    /// The type's name, for reports.
    const NAME: &'static str;
    /// `a op b`, or `None` where the type does not take `op`.
    fn combine(op: ArithOp, a: Self, b: Self) -> Option<Self>;
    /// The identity of `op`: the result over no lane.
    fn identity(op: ArithOp) -> Option<Self>;
}

impl Arithmetic for u32 {
    const NAME: &'static str = "u32";
    fn combine(op: ArithOp, a: u32, b: u32) -> Option<u32> {
        Some(match op {
            ArithOp::IAdd => a.wrapping_add(b),
            ArithOp::IMul => a.wrapping_mul(b),
            ArithOp::UMin => a.min(b),
            ArithOp::UMax => a.max(b),
            ArithOp::And => a & b,
            ArithOp::Or => a | b,
            ArithOp::Xor => a ^ b,
            _ => return None,
        })
    }
    fn identity(op: ArithOp) -> Option<u32> {
        Some(match op {
            ArithOp::IAdd | ArithOp::UMax | ArithOp::Or | ArithOp::Xor => 0,
            ArithOp::IMul => 1,
            ArithOp::UMin | ArithOp::And => u32::MAX,
            _ => return None,
        })
    }
}

impl Arithmetic for i32 {
    const NAME: &'static str = "i32";
    fn combine(op: ArithOp, a: i32, b: i32) -> Option<i32> {
        Some(match op {
            ArithOp::IAdd => a.wrapping_add(b),
            ArithOp::IMul => a.wrapping_mul(b),
            ArithOp::SMin => a.min(b),
            ArithOp::SMax => a.max(b),
            ArithOp::And => a & b,
            ArithOp::Or => a | b,
            ArithOp::Xor => a ^ b,
            _ => return None,
        })
    }
    fn identity(op: ArithOp) -> Option<i32> {
        Some(match op {
            ArithOp::IAdd | ArithOp::Or | ArithOp::Xor => 0,
            ArithOp::IMul => 1,
            ArithOp::And => -1,
            ArithOp::SMin => i32::MAX,
            ArithOp::SMax => i32::MIN,
            _ => return None,
        })
    }
}

impl Arithmetic for f32 {
    const NAME: &'static str = "f32";
    /// `f32::min` and `f32::max` return the other operand where one is a
    /// NaN, as SPIR-V's `NMin`/`NMax` do; `FMin`'s result with a NaN is
    /// undefined in the spec, so this is one of its allowed answers.
    fn combine(op: ArithOp, a: f32, b: f32) -> Option<f32> {
        Some(match op {
            ArithOp::FAdd => a + b,
            ArithOp::FMul => a * b,
            ArithOp::FMin => a.min(b),
            ArithOp::FMax => a.max(b),
            _ => return None,
        })
    }
    fn identity(op: ArithOp) -> Option<f32> {
        Some(match op {
            ArithOp::FAdd => 0.0,
            ArithOp::FMul => 1.0,
            ArithOp::FMin => f32::INFINITY,
            ArithOp::FMax => f32::NEG_INFINITY,
            _ => return None,
        })
    }
}

/// `subgroupAdd` … `subgroupXor` (`op`), as a reduction or a scan
/// (`scan`), over the active lanes: in each active lane, the lanes
/// [`Scan`] names, combined from the identity in ascending lane order,
/// `((identity op v[a]) op v[b]) op …` for active lanes `a < b < …`.
///
/// That order is this simulator's choice for `f32`, whose sum no spec
/// fixes: hardware and the emulated targets may round differently (the
/// emulation combines in a tree of log2(size) levels). Integers wrap.
/// Always defined; [`SimError::Unsupported`] where `T` does not take `op`.
#[doc(alias = "subgroupAdd")]
#[doc(alias = "OpGroupNonUniformIAdd")]
#[doc(alias = "OpGroupNonUniformFAdd")]
pub fn subgroup_arithmetic<T: Arithmetic>(
    sg: &Subgroup,
    op: ArithOp,
    scan: Scan,
    value: &[T],
) -> Result<PerLane<T>, SimError> {
    let whole = Op::Arith(op, scan);
    sg.check_len(whole.spirv_std_name(), value)?;
    let unsupported = || SimError::Unsupported {
        op: whole,
        ty: T::NAME,
    };
    let identity = T::identity(op).ok_or_else(unsupported)?;
    let mut prefix = Vec::with_capacity(sg.size().as_usize());
    let mut acc = identity;
    for lane in 0..sg.size().get() {
        let before = acc;
        if sg.is_active(lane) {
            acc = T::combine(op, acc, value[lane as usize]).ok_or_else(unsupported)?;
        }
        prefix.push((before, acc));
    }
    Ok(PerLane::from_fn(sg, |lane| match scan {
        Scan::Reduce => acc,
        Scan::Inclusive => prefix[lane as usize].1,
        Scan::Exclusive => prefix[lane as usize].0,
    }))
}

/// `subgroupClusteredAdd(v, cluster_size)` … `subgroupClusteredXor` (`op`):
/// in each active lane, the reduction over the active lanes of its cluster,
/// lanes `floor(lane / cluster_size) * cluster_size ..` up to the next
/// multiple, combined from the identity in ascending lane order as
/// [`subgroup_arithmetic`] combines them (`f32` results are this
/// simulator's order, which no spec fixes). Integers wrap.
///
/// Undefined where `cluster_size` is not a power of two from 1 to the
/// subgroup size ([`UbKind::ClusterSize`], reported in the lowest active
/// lane; kernels cannot pass the first two, which their front end
/// refuses); [`SimError::Unsupported`] where `T` does not take `op`.
#[doc(alias = "subgroupClusteredAdd")]
#[doc(alias = "subgroup_clustered_i_add")]
#[doc(alias = "OpGroupNonUniformIAdd")]
pub fn subgroup_clustered<T: Arithmetic>(
    sg: &Subgroup,
    op: ArithOp,
    cluster_size: u32,
    value: &[T],
) -> Result<PerLane<T>, SimError> {
    let whole = Op::Clustered(op);
    sg.check_len(whole.spirv_std_name(), value)?;
    let unsupported = || SimError::Unsupported {
        op: whole,
        ty: T::NAME,
    };
    let identity = T::identity(op).ok_or_else(unsupported)?;
    let size = sg.size().get();
    if !cluster_size.is_power_of_two() || cluster_size > size {
        if let Some(lane) = sg.active().lowest() {
            let kind = UbKind::ClusterSize { cluster_size, size };
            return Err(undefined(whole, lane, kind));
        }
    }
    // One total per cluster; a cluster with no active lane keeps the
    // identity, which no lane receives.
    let mut totals = vec![identity; size.div_ceil(cluster_size.max(1)) as usize];
    for lane in (0..size).filter(|&lane| sg.is_active(lane)) {
        let total = &mut totals[(lane / cluster_size) as usize];
        *total = T::combine(op, *total, value[lane as usize]).ok_or_else(unsupported)?;
    }
    Ok(PerLane::from_fn(sg, |lane| {
        totals[(lane / cluster_size) as usize]
    }))
}

/// The lane a shuffle or quad operation reads in `lane`, from its operand
/// (`subgroupShuffle`'s id, `ShuffleXor`'s mask, `ShuffleUp`'s and
/// `ShuffleDown`'s delta, `QuadBroadcast`'s index; ignored by quad swaps);
/// `None` where the source would lie outside 0..2^32.
pub const fn source_lane(op: Op, lane: u32, operand: u32) -> Option<u32> {
    match op {
        Op::Shuffle => Some(operand),
        Op::ShuffleXor => Some(lane ^ operand),
        Op::ShuffleUp => lane.checked_sub(operand),
        Op::ShuffleDown => lane.checked_add(operand),
        Op::QuadBroadcast => (lane & !3).checked_add(operand),
        Op::QuadSwap(quad) => Some(lane ^ quad.xor()),
        _ => None,
    }
}

/// A shuffle or quad operation: in each active lane, `v` of the lane
/// [`source_lane`] names.
///
/// Undefined where that lane is at or above the size, or inactive; the
/// report names the lowest active lane that reads it.
fn exchange<T: Copy>(
    sg: &Subgroup,
    op: Op,
    value: &[T],
    operand: impl Fn(u32) -> u32,
) -> Result<PerLane<T>, SimError> {
    sg.check_len(op.spirv_std_name(), value)?;
    let size = sg.size().get();
    PerLane::try_from_fn(sg, |lane| {
        let index = operand(lane);
        match source_lane(op, lane, index) {
            Some(source) if source < size && sg.is_active(source) => Ok(value[source as usize]),
            Some(source) if source < size => Err(undefined(
                op,
                lane,
                UbKind::InactiveSource {
                    source_lane: source,
                },
            )),
            other => Err(undefined(
                op,
                lane,
                UbKind::IndexOutOfRange {
                    index: other.unwrap_or(u32::MAX),
                    size,
                },
            )),
        }
    })
}

/// `subgroupShuffle(v, id)`: `v` of lane `id`, which may differ per lane.
///
/// Undefined where lane `id` is out of range or inactive.
#[doc(alias = "subgroupShuffle")]
#[doc(alias = "OpGroupNonUniformShuffle")]
pub fn subgroup_shuffle<T: Copy>(
    sg: &Subgroup,
    value: &[T],
    id: &[u32],
) -> Result<PerLane<T>, SimError> {
    sg.check_len(Op::Shuffle.spirv_std_name(), id)?;
    exchange(sg, Op::Shuffle, value, |lane| id[lane as usize])
}

/// `subgroupShuffleXor(v, mask)`: `v` of lane `own ^ mask`.
///
/// Undefined where that lane is out of range or inactive.
#[doc(alias = "subgroupShuffleXor")]
#[doc(alias = "OpGroupNonUniformShuffleXor")]
pub fn subgroup_shuffle_xor<T: Copy>(
    sg: &Subgroup,
    value: &[T],
    mask: &[u32],
) -> Result<PerLane<T>, SimError> {
    sg.check_len(Op::ShuffleXor.spirv_std_name(), mask)?;
    exchange(sg, Op::ShuffleXor, value, |lane| mask[lane as usize])
}

/// `subgroupShuffleUp(v, delta)`: `v` of lane `own - delta`.
///
/// Undefined where that lane is below 0 or inactive.
#[doc(alias = "subgroupShuffleUp")]
#[doc(alias = "OpGroupNonUniformShuffleUp")]
pub fn subgroup_shuffle_up<T: Copy>(
    sg: &Subgroup,
    value: &[T],
    delta: &[u32],
) -> Result<PerLane<T>, SimError> {
    sg.check_len(Op::ShuffleUp.spirv_std_name(), delta)?;
    exchange(sg, Op::ShuffleUp, value, |lane| delta[lane as usize])
}

/// `subgroupShuffleDown(v, delta)`: `v` of lane `own + delta`.
///
/// Undefined where that lane is at or above the size, or inactive.
#[doc(alias = "subgroupShuffleDown")]
#[doc(alias = "OpGroupNonUniformShuffleDown")]
pub fn subgroup_shuffle_down<T: Copy>(
    sg: &Subgroup,
    value: &[T],
    delta: &[u32],
) -> Result<PerLane<T>, SimError> {
    sg.check_len(Op::ShuffleDown.spirv_std_name(), delta)?;
    exchange(sg, Op::ShuffleDown, value, |lane| delta[lane as usize])
}

/// `subgroupQuadBroadcast(v, index)`: `v` of lane `index` of this lane's
/// quad (lanes `4k .. 4k + 3`). `index` is a constant below 4.
///
/// Undefined where that lane is inactive or past the size (subgroups of
/// 1 or 2 lanes), or `index` is 4 or more.
#[doc(alias = "subgroupQuadBroadcast")]
#[doc(alias = "OpGroupNonUniformQuadBroadcast")]
pub fn subgroup_quad_broadcast<T: Copy>(
    sg: &Subgroup,
    value: &[T],
    index: u32,
) -> Result<PerLane<T>, SimError> {
    let op = Op::QuadBroadcast;
    if index >= 4 {
        if let Some(lane) = sg.active().lowest() {
            let kind = UbKind::IndexOutOfRange { index, size: 4 };
            return Err(undefined(op, lane, kind));
        }
    }
    exchange(sg, op, value, |_| index)
}

/// `subgroupQuadSwapHorizontal` / `Vertical` / `Diagonal`: `v` of lane
/// `own ^ 1`, `own ^ 2` or `own ^ 3`.
///
/// Undefined where that lane is inactive or past the size.
#[doc(alias = "subgroupQuadSwapHorizontal")]
#[doc(alias = "OpGroupNonUniformQuadSwap")]
pub fn subgroup_quad_swap<T: Copy>(
    sg: &Subgroup,
    value: &[T],
    quad: Quad,
) -> Result<PerLane<T>, SimError> {
    exchange(sg, Op::QuadSwap(quad), value, |_| 0)
}
