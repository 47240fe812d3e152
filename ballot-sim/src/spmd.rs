//! Runtime support for the native Rust that `#[ballot::kernel]` generates.
//!
//! Not a public API: the generated code is its only caller, and it may change
//! in any release. It is public only because generated code lives in the
//! user's crate.
//!
//! The model is SPMD on SIMD. A per-lane value is a [`V<T, N>`](V): `N`
//! slots, one per lane, where `N` is a compile-time lane count at least the
//! subgroup size. Each kernel is monomorphised for the few widths of
//! [`WIDTHS`], and a dispatch picks the narrowest that holds its subgroup
//! ([`width`]), so a subgroup of 32 works on arrays of 32, not 128. With the
//! width a constant, the lane loops have fixed trip counts that the compiler
//! unrolls and vectorises.
//!
//! Pure operations compute every slot, active or not, and lanes at or above
//! the subgroup size: they are total (IR invariant 5), so those slots hold
//! harmless values that nobody reads, and the loops stay branch-free. Stores
//! ([`assign`]) and collectives respect the active mask, a `u128` with lane
//! `i` at bit `i` that never has a bit at or above the subgroup size.

use core::cell::Cell;

use crate::schedule::Scheduler;
use crate::sim::{PerLane, Subgroup, SubgroupSize};
use ballot_ir::error::{SimError, UbKind, UndefinedBehavior};
use ballot_ir::mask::SubgroupMask;

/// The lane counts kernels are compiled for, narrowest first. Subgroups of
/// 1, 2 and 4 lanes share the 8-lane code: so few lanes cost little either
/// way, and every width is one more copy of each kernel in the user's binary.
pub const WIDTHS: [usize; 5] = [8, 16, 32, 64, 128];

/// The narrowest of [`WIDTHS`] that holds a subgroup of `size`.
#[inline]
pub const fn width(size: SubgroupSize) -> usize {
    let n = size.as_usize();
    if n <= WIDTHS[0] {
        WIDTHS[0]
    } else {
        n
    }
}

/// One value per lane, in `N` slots.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct V<T, const N: usize>(pub [T; N]);

impl<T: Copy + Default, const N: usize> Default for V<T, N> {
    fn default() -> Self {
        Self([T::default(); N])
    }
}

impl<T: Copy, const N: usize> V<T, N> {
    /// The same value in every lane.
    #[inline(always)]
    pub fn splat(value: T) -> Self {
        Self([value; N])
    }

    /// Lane `l` holds `f(l)`.
    #[inline(always)]
    pub fn from_fn(f: impl FnMut(usize) -> T) -> Self {
        Self(core::array::from_fn(f))
    }
}

impl<T: Copy + Default, const N: usize> V<T, N> {
    /// Lane `l` holds `values[l]`; lanes past the slice hold the default.
    #[inline(always)]
    pub fn from_slice(values: &[T]) -> Self {
        Self::from_fn(|l| values.get(l).copied().unwrap_or_default())
    }
}

/// The subgroup a kernel runs on, in code compiled for `N` lanes, and the
/// loop iterations its run may still take.
#[derive(Clone, Debug)]
pub struct Cx<const N: usize> {
    /// The subgroup size.
    pub size: SubgroupSize,
    /// The lanes below the subgroup size.
    pub lanes: u128,
    /// The subgroup's step budget.
    budget: u64,
    /// What is left of it. A `Cell`: kernels take the context by shared
    /// reference, and calls between kernels share one budget.
    steps_left: Cell<u64>,
    /// Which lanes execute a diverged collective together; the generated
    /// code tells it where lanes may reconverge.
    pub sched: Scheduler,
}

impl<const N: usize> Cx<N> {
    /// The context of `subgroup`, which must fit `N` lanes (see [`width`]).
    #[inline]
    pub fn new(subgroup: &Subgroup) -> Self {
        let size = subgroup.size();
        debug_assert!(size.as_usize() <= N, "subgroup of {size} in {N} lanes");
        Self {
            size,
            lanes: SubgroupMask::first(size.get()).bits(),
            budget: subgroup.step_budget(),
            steps_left: Cell::new(subgroup.step_budget()),
            sched: Scheduler::new(subgroup.schedule(), subgroup.active()),
        }
    }

    /// The groups of lanes that execute `op` with lanes `active`
    /// together, each on its own: `None` where all of `active` do, which is
    /// always so under [`crate::Schedule::Maximal`] and in converged
    /// control flow.
    #[inline(always)]
    fn groups(&self, op: Op, active: u128) -> Option<Vec<u128>> {
        self.sched.groups(op, active)
    }

    /// Counts one iteration of a loop of `kernel` that lanes `active` run;
    /// fails once the budget is spent, so that a kernel that never ends
    /// returns an error instead of hanging its caller.
    #[inline]
    pub fn step(&self, kernel: &'static str, active: u128) -> Result<(), SimError> {
        match self.steps_left.get().checked_sub(1) {
            Some(left) => {
                self.steps_left.set(left);
                Ok(())
            }
            None => Err(SimError::StepBudget {
                kernel,
                budget: self.budget,
                lanes: SubgroupMask::from_bits(active),
            }),
        }
    }

    /// `value` in every lane: a literal, or a uniform parameter.
    #[inline(always)]
    pub fn splat<T: Copy>(&self, value: T) -> V<T, N> {
        V::splat(value)
    }
}

/// Checks that an input holds `expected` entries.
pub fn check_len<T>(name: &'static str, input: &[T], expected: usize) -> Result<(), SimError> {
    if input.len() == expected {
        Ok(())
    } else {
        Err(SimError::InputLength {
            op: name,
            expected,
            got: input.len(),
        })
    }
}

/// Loads one subgroup's per-lane input.
pub fn load<T: Copy + Default, const N: usize>(
    cx: &Cx<N>,
    name: &'static str,
    input: &[T],
) -> Result<V<T, N>, SimError> {
    check_len(name, input, cx.size.as_usize())?;
    Ok(V::from_slice(input))
}

/// The output of the active lanes of `subgroup`.
pub fn store<T: Copy, const N: usize>(subgroup: &Subgroup, out: &V<T, N>) -> PerLane<T> {
    PerLane::from_fn(subgroup, |lane| out.0[lane as usize])
}

/// `f` applied in every lane.
#[inline(always)]
pub fn map1<A: Copy, R: Copy, const N: usize>(
    _cx: &Cx<N>,
    a: &V<A, N>,
    f: impl Fn(A) -> R,
) -> V<R, N> {
    V::from_fn(|l| f(a.0[l]))
}

/// `f` applied lane by lane to two values.
#[inline(always)]
pub fn map2<A: Copy, B: Copy, R: Copy, const N: usize>(
    _cx: &Cx<N>,
    a: &V<A, N>,
    b: &V<B, N>,
    f: impl Fn(A, B) -> R,
) -> V<R, N> {
    V::from_fn(|l| f(a.0[l], b.0[l]))
}

/// Lane by lane, `accept` where `cond` holds and `reject` elsewhere.
#[inline(always)]
pub fn select<T: Copy, const N: usize>(
    _cx: &Cx<N>,
    cond: &V<bool, N>,
    accept: &V<T, N>,
    reject: &V<T, N>,
) -> V<T, N> {
    V::from_fn(|l| if cond.0[l] { accept.0[l] } else { reject.0[l] })
}

/// Stores `value` into `dst` in the active lanes.
#[inline(always)]
pub fn assign<T: Copy, const N: usize>(
    _cx: &Cx<N>,
    dst: &mut V<T, N>,
    value: &V<T, N>,
    active: u128,
) {
    // Uniform control flow with every slot active is the common case, and
    // a plain copy; otherwise only the active lanes are visited, which
    // avoids a variable u128 shift per lane.
    if active == all_slots::<N>() {
        *dst = *value;
    } else {
        for l in active_lanes(active) {
            dst.0[l] = value.0[l];
        }
    }
}

/// The mask of all `N` slots.
#[inline(always)]
const fn all_slots<const N: usize>() -> u128 {
    SubgroupMask::first(N as u32).bits()
}

/// The lanes below the subgroup size in which `cond` is true.
#[inline(always)]
pub fn lanes_where<const N: usize>(cx: &Cx<N>, cond: &V<bool, N>) -> u128 {
    if N <= 64 {
        // A 64-bit accumulator, which the compiler turns into a movemask.
        let mut bits = 0u64;
        for l in 0..N {
            bits |= (cond.0[l] as u64) << l;
        }
        bits as u128 & cx.lanes
    } else {
        let mut bits = 0u128;
        for l in 0..N {
            bits |= (cond.0[l] as u128) << l;
        }
        bits & cx.lanes
    }
}

/// The lane id in every lane.
#[inline(always)]
pub fn lane_id<const N: usize>(_cx: &Cx<N>) -> V<u32, N> {
    V::from_fn(|l| l as u32)
}

pub use ballot_ir::scalar::Arith;

/// The operation a [`find`] performs, and the kinds of the other
/// collectives, as generated code names them.
pub use ballot_ir::op::{ArithOp, Op, Quad, Scan};

fn undefined(op: Op, lane: u32, kind: UbKind) -> SimError {
    SimError::Undefined(UndefinedBehavior { op, lane, kind })
}

/// Iterates over the active lanes, lowest first.
#[inline(always)]
fn active_lanes(active: u128) -> impl Iterator<Item = usize> {
    SubgroupMask::from_bits(active).iter().map(|l| l as usize)
}

/// `subgroupBallot`.
#[inline(always)]
pub fn ballot<const N: usize>(cx: &Cx<N>, active: u128, p: &V<bool, N>) -> V<SubgroupMask, N> {
    let bits = lanes_where(cx, p);
    let mut out = V::splat(SubgroupMask::from_bits(bits & active));
    for group in cx.groups(Op::Ballot, active).unwrap_or_default() {
        let mask = SubgroupMask::from_bits(bits & group);
        active_lanes(group).for_each(|l| out.0[l] = mask);
    }
    out
}

/// `subgroupInverseBallot`, reporting a value that differs across lanes.
pub fn inverse_ballot<const N: usize>(
    cx: &Cx<N>,
    active: u128,
    v: &V<SubgroupMask, N>,
) -> Result<V<bool, N>, SimError> {
    // The value must be uniform across the lanes that execute it together.
    let groups = cx.groups(Op::InverseBallot, active);
    for &group in groups.as_deref().unwrap_or(&[active]) {
        let Some(first_lane) = SubgroupMask::from_bits(group).lowest() else {
            continue;
        };
        let first = v.0[first_lane as usize];
        if let Some(l) = active_lanes(group).find(|&l| v.0[l] != first) {
            let kind = UbKind::NonUniform {
                value: v.0[l],
                first,
                first_lane,
            };
            return Err(undefined(Op::InverseBallot, l as u32, kind));
        }
    }
    Ok(V::from_fn(|l| v.0[l].contains(l as u32)))
}

/// `subgroupBallotBitExtract`, reporting an index at or above the size.
pub fn bit_extract<const N: usize>(
    cx: &Cx<N>,
    active: u128,
    v: &V<SubgroupMask, N>,
    index: &V<u32, N>,
) -> Result<V<bool, N>, SimError> {
    let size = cx.size.get();
    if let Some(l) = active_lanes(active).find(|&l| index.0[l] >= size) {
        let kind = UbKind::IndexOutOfRange {
            index: index.0[l],
            size,
        };
        return Err(undefined(Op::BitExtract, l as u32, kind));
    }
    Ok(map2(cx, v, index, |m, i| m.contains(i)))
}

/// `subgroupBallotBitCount`.
#[inline(always)]
pub fn bit_count<const N: usize>(cx: &Cx<N>, v: &V<SubgroupMask, N>) -> V<u32, N> {
    let lanes = cx.lanes;
    V::from_fn(|l| (v.0[l].bits() & lanes).count_ones())
}

/// `subgroupBallotInclusiveBitCount`: `popcount(v & LeMask)`.
#[inline(always)]
pub fn inclusive_bit_count<const N: usize>(cx: &Cx<N>, v: &V<SubgroupMask, N>) -> V<u32, N> {
    let lanes = cx.lanes;
    if N <= 64 {
        // Every lane and every bit that counts is in the low word, and
        // 64-bit shifts vectorise where 128-bit ones do not.
        V::from_fn(|l| ((v.0[l].bits() & lanes) as u64 & (u64::MAX >> (63 - l))).count_ones())
    } else {
        V::from_fn(|l| (v.0[l].bits() & lanes & (u128::MAX >> (127 - l))).count_ones())
    }
}

/// `subgroupBallotExclusiveBitCount`: `popcount(v & LtMask)`.
#[inline(always)]
pub fn exclusive_bit_count<const N: usize>(cx: &Cx<N>, v: &V<SubgroupMask, N>) -> V<u32, N> {
    let lanes = cx.lanes;
    // Lane l's LtMask is the l lowest bits; the shift is split in two so
    // that lane 0 (no bits) needs no branch. See the inclusive count for
    // the low-word case.
    if N <= 64 {
        V::from_fn(|l| {
            ((v.0[l].bits() & lanes) as u64 & ((u64::MAX >> 1) >> (63 - l))).count_ones()
        })
    } else {
        V::from_fn(|l| (v.0[l].bits() & lanes & ((u128::MAX >> 1) >> (127 - l))).count_ones())
    }
}

/// `subgroupBallotFindMSB` where `op` is [`Op::FindMsb`], otherwise
/// `subgroupBallotFindLSB` (generated code passes `FindLsb`), reporting a
/// mask with no bit below the size in an active lane as undefined
/// behaviour of `op`.
pub fn find<const N: usize>(
    cx: &Cx<N>,
    active: u128,
    v: &V<SubgroupMask, N>,
    op: Op,
) -> Result<V<u32, N>, SimError> {
    let f = match op {
        Op::FindMsb => SubgroupMask::find_msb,
        _ => SubgroupMask::find_lsb,
    };
    let mut out = V::splat(0);
    for l in 0..N {
        // Inactive lanes may hold anything, so only active ones can fail.
        match f(v.0[l], cx.size) {
            Some(bit) => out.0[l] = bit,
            None if (active >> l) & 1 == 1 => {
                let kind = UbKind::EmptyMask {
                    mask: v.0[l],
                    size: cx.size.get(),
                };
                return Err(undefined(op, l as u32, kind));
            }
            None => {}
        }
    }
    Ok(out)
}

/// A built-in mask (`gl_SubgroupEqMask` …) in every lane.
pub fn builtin_mask<const N: usize>(
    cx: &Cx<N>,
    f: fn(u32, SubgroupSize) -> SubgroupMask,
) -> V<SubgroupMask, N> {
    V::from_fn(|l| f(l as u32, cx.size))
}

/// `subgroupElect`.
#[inline(always)]
pub fn elect<const N: usize>(cx: &Cx<N>, active: u128) -> V<bool, N> {
    let mut out = V::splat(false);
    let groups = cx.groups(Op::Elect, active);
    for &group in groups.as_deref().unwrap_or(&[active]) {
        if group != 0 {
            out.0[group.trailing_zeros() as usize] = true;
        }
    }
    out
}

/// `subgroupBroadcastFirst`.
#[inline(always)]
pub fn broadcast_first<T: Copy + Default, const N: usize>(
    cx: &Cx<N>,
    active: u128,
    v: &V<T, N>,
) -> V<T, N> {
    if active == 0 {
        return V::default();
    }
    let mut out = V::splat(v.0[active.trailing_zeros() as usize]);
    for group in cx.groups(Op::BroadcastFirst, active).unwrap_or_default() {
        let value = v.0[group.trailing_zeros() as usize];
        active_lanes(group).for_each(|l| out.0[l] = value);
    }
    out
}

/// `subgroupBroadcast`, reporting an out-of-range or inactive source lane.
pub fn broadcast<T: Copy + Default, const N: usize>(
    cx: &Cx<N>,
    active: u128,
    v: &V<T, N>,
    id: u32,
) -> Result<V<T, N>, SimError> {
    if active == 0 {
        return Ok(V::default());
    }
    let size = cx.size.get();
    let whole = [active];
    let groups = cx.groups(Op::Broadcast, active);
    let mut out = V::splat(v.0[(id % size) as usize]);
    for &group in groups.as_deref().unwrap_or(&whole) {
        // The group's first lane stands for every reader in it.
        let reader = group.trailing_zeros();
        if id >= size {
            return Err(undefined(
                Op::Broadcast,
                reader,
                UbKind::IndexOutOfRange { index: id, size },
            ));
        }
        if (group >> id) & 1 == 0 {
            return Err(undefined(
                Op::Broadcast,
                reader,
                UbKind::InactiveSource { source_lane: id },
            ));
        }
        if groups.is_some() {
            active_lanes(group).for_each(|l| out.0[l] = v.0[id as usize]);
        }
    }
    Ok(out)
}

/// Runs a collective of [`crate::ops`] on each group of lanes of `active`
/// that executes `op` together (all of them, unless the schedule splits
/// them), and gathers each lane's result.
fn collective<U: Copy + Default, const N: usize>(
    cx: &Cx<N>,
    op: Op,
    active: u128,
    f: impl Fn(&Subgroup) -> Result<PerLane<U>, SimError>,
) -> Result<V<U, N>, SimError> {
    let mut out = V::default();
    if active == 0 {
        return Ok(out);
    }
    let groups = cx.groups(op, active);
    for &group in groups.as_deref().unwrap_or(&[active]) {
        let sg = Subgroup::from_parts(cx.size, SubgroupMask::from_bits(group));
        for (lane, value) in f(&sg)?.into_vec().into_iter().enumerate() {
            if let Some(value) = value {
                out.0[lane] = value;
            }
        }
    }
    Ok(out)
}

/// The lanes below the size of a lane vector, as the per-lane inputs of
/// [`crate::ops`] take them.
fn below<'a, T, const N: usize>(cx: &Cx<N>, v: &'a V<T, N>) -> &'a [T] {
    &v.0[..cx.size.as_usize().min(N)]
}

/// `subgroupAll` ([`Op::All`]) or `subgroupAny` ([`Op::Any`]).
pub fn vote<const N: usize>(
    cx: &Cx<N>,
    active: u128,
    op: Op,
    p: &V<bool, N>,
) -> Result<V<bool, N>, SimError> {
    let f = match op {
        Op::All => crate::ops::subgroup_all,
        _ => crate::ops::subgroup_any,
    };
    collective(cx, op, active, |sg| f(sg, below(cx, p)))
}

/// `subgroupAllEqual`.
pub fn all_equal<T: Copy + PartialEq, const N: usize>(
    cx: &Cx<N>,
    active: u128,
    v: &V<T, N>,
) -> Result<V<bool, N>, SimError> {
    collective(cx, Op::AllEqual, active, |sg| {
        crate::ops::subgroup_all_equal(sg, below(cx, v))
    })
}

/// `subgroupAdd` … `subgroupXor` and their scans, combined in ascending
/// lane order ([`crate::ops::subgroup_arithmetic`]).
pub fn arithmetic<T: crate::ops::Arithmetic + Default, const N: usize>(
    cx: &Cx<N>,
    active: u128,
    arith: ArithOp,
    scan: Scan,
    v: &V<T, N>,
) -> Result<V<T, N>, SimError> {
    collective(cx, Op::Arith(arith, scan), active, |sg| {
        crate::ops::subgroup_arithmetic(sg, arith, scan, below(cx, v))
    })
}

/// `subgroupClusteredAdd` … `subgroupClusteredXor` over clusters of
/// `cluster_size` lanes ([`crate::ops::subgroup_clustered`]), reporting a
/// cluster size over the subgroup size.
pub fn clustered<T: crate::ops::Arithmetic + Default, const N: usize>(
    cx: &Cx<N>,
    active: u128,
    arith: ArithOp,
    cluster_size: u32,
    v: &V<T, N>,
) -> Result<V<T, N>, SimError> {
    collective(cx, Op::Clustered(arith), active, |sg| {
        crate::ops::subgroup_clustered(sg, arith, cluster_size, below(cx, v))
    })
}

/// `subgroupShuffle`, `ShuffleXor`, `ShuffleUp` or `ShuffleDown` (`op`),
/// reporting a source lane that is out of range or inactive.
pub fn shuffle<T: Copy + Default, const N: usize>(
    cx: &Cx<N>,
    active: u128,
    op: Op,
    v: &V<T, N>,
    operand: &V<u32, N>,
) -> Result<V<T, N>, SimError> {
    let f = match op {
        Op::Shuffle => crate::ops::subgroup_shuffle,
        Op::ShuffleXor => crate::ops::subgroup_shuffle_xor,
        Op::ShuffleUp => crate::ops::subgroup_shuffle_up,
        _ => crate::ops::subgroup_shuffle_down,
    };
    collective(cx, op, active, |sg| f(sg, below(cx, v), below(cx, operand)))
}

/// `subgroupQuadBroadcast`, reporting an inactive or missing source lane.
pub fn quad_broadcast<T: Copy + Default, const N: usize>(
    cx: &Cx<N>,
    active: u128,
    v: &V<T, N>,
    index: u32,
) -> Result<V<T, N>, SimError> {
    collective(cx, Op::QuadBroadcast, active, |sg| {
        crate::ops::subgroup_quad_broadcast(sg, below(cx, v), index)
    })
}

/// `subgroupQuadSwapHorizontal` / `Vertical` / `Diagonal`, reporting an
/// inactive or missing partner.
pub fn quad_swap<T: Copy + Default, const N: usize>(
    cx: &Cx<N>,
    active: u128,
    quad: Quad,
    v: &V<T, N>,
) -> Result<V<T, N>, SimError> {
    collective(cx, Op::QuadSwap(quad), active, |sg| {
        crate::ops::subgroup_quad_swap(sg, below(cx, v), quad)
    })
}
