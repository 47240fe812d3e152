//! Runtime support for the native Rust that `#[ballot::kernel]` generates.
//!
//! Not a public API: the generated code is its only caller, and it may change
//! in any release. It is public only because generated code lives in the
//! user's crate.
//!
//! The model is SPMD on SIMD. A per-lane value is a [`V`], one slot for each
//! of the 128 possible lanes, of which the first `n` (the subgroup size) are
//! used. Pure operations compute every used lane, active or not: they are
//! total (IR invariant 5), so inactive lanes compute harmless values that
//! nobody reads, and the loops stay branch-free. Stores ([`assign`]) and
//! collectives respect the active mask, which is a `u128` with lane `i` at
//! bit `i`.

use crate::error::{Op, SimError, UbKind, UndefinedBehavior};
use crate::mask::SubgroupMask;
use crate::sim::{PerLane, Subgroup, SubgroupSize, MAX_SUBGROUP_SIZE};

const LANES: usize = MAX_SUBGROUP_SIZE as usize;

/// One value per lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct V<T>(pub [T; LANES]);

impl<T: Copy + Default> Default for V<T> {
    fn default() -> Self {
        Self([T::default(); LANES])
    }
}

impl<T: Copy + Default> V<T> {
    /// The same value in every lane.
    #[inline]
    pub fn splat(value: T) -> Self {
        Self([value; LANES])
    }

    /// Lane `l` holds `values[l]`; lanes past the slice hold the default.
    #[inline]
    pub fn from_slice(values: &[T]) -> Self {
        let mut v = Self::default();
        v.0[..values.len()].copy_from_slice(values);
        v
    }
}

/// The subgroup a kernel runs on.
#[derive(Clone, Copy, Debug)]
pub struct Cx {
    /// The subgroup size.
    pub size: SubgroupSize,
    /// The subgroup size, for loops.
    pub n: usize,
}

impl Cx {
    /// The context of `subgroup`.
    #[inline]
    pub fn new(subgroup: &Subgroup) -> Self {
        Self {
            size: subgroup.size(),
            n: subgroup.size().as_usize(),
        }
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
pub fn load<T: Copy + Default>(cx: &Cx, name: &'static str, input: &[T]) -> Result<V<T>, SimError> {
    check_len(name, input, cx.n)?;
    Ok(V::from_slice(input))
}

/// The output of the active lanes of `subgroup`.
pub fn store<T: Copy>(subgroup: &Subgroup, out: &V<T>) -> PerLane<T> {
    PerLane::from_fn(subgroup, |lane| out.0[lane as usize])
}

/// `f` applied in every lane.
#[inline(always)]
pub fn map1<A: Copy, R: Copy + Default>(cx: &Cx, a: &V<A>, f: impl Fn(A) -> R) -> V<R> {
    let mut out = V::default();
    for l in 0..cx.n {
        out.0[l] = f(a.0[l]);
    }
    out
}

/// `f` applied lane by lane to two values.
#[inline(always)]
pub fn map2<A: Copy, B: Copy, R: Copy + Default>(
    cx: &Cx,
    a: &V<A>,
    b: &V<B>,
    f: impl Fn(A, B) -> R,
) -> V<R> {
    let mut out = V::default();
    for l in 0..cx.n {
        out.0[l] = f(a.0[l], b.0[l]);
    }
    out
}

/// Lane by lane, `accept` where `cond` holds and `reject` elsewhere.
#[inline(always)]
pub fn select<T: Copy + Default>(cx: &Cx, cond: &V<bool>, accept: &V<T>, reject: &V<T>) -> V<T> {
    let mut out = V::default();
    for l in 0..cx.n {
        out.0[l] = if cond.0[l] { accept.0[l] } else { reject.0[l] };
    }
    out
}

/// Stores `value` into `dst` in the active lanes.
#[inline(always)]
pub fn assign<T: Copy>(cx: &Cx, dst: &mut V<T>, value: &V<T>, active: u128) {
    for l in 0..cx.n {
        if (active >> l) & 1 == 1 {
            dst.0[l] = value.0[l];
        }
    }
}

/// The lanes in which `cond` is true, among the first `n`.
#[inline(always)]
pub fn lanes_where(cx: &Cx, cond: &V<bool>) -> u128 {
    let mut bits = 0u128;
    for l in 0..cx.n {
        bits |= (cond.0[l] as u128) << l;
    }
    bits
}

/// The lane id in every lane.
pub fn lane_id(cx: &Cx) -> V<u32> {
    let mut out = V::default();
    for l in 0..cx.n {
        out.0[l] = l as u32;
    }
    out
}

/// Wrapping arithmetic with WGSL's answers for division by zero.
pub trait Arith: Copy {
    /// `a + b`, wrapping.
    fn add(self, rhs: Self) -> Self;
    /// `a - b`, wrapping.
    fn sub(self, rhs: Self) -> Self;
    /// `a * b`, wrapping.
    fn mul(self, rhs: Self) -> Self;
    /// `a / b`; `a` when `b` is 0 or the quotient overflows.
    fn div(self, rhs: Self) -> Self;
    /// `a % b`; 0 when `b` is 0 or the quotient overflows.
    fn rem(self, rhs: Self) -> Self;
}

impl Arith for u32 {
    fn add(self, rhs: Self) -> Self {
        self.wrapping_add(rhs)
    }
    fn sub(self, rhs: Self) -> Self {
        self.wrapping_sub(rhs)
    }
    fn mul(self, rhs: Self) -> Self {
        self.wrapping_mul(rhs)
    }
    fn div(self, rhs: Self) -> Self {
        self.checked_div(rhs).unwrap_or(self)
    }
    fn rem(self, rhs: Self) -> Self {
        self.checked_rem(rhs).unwrap_or(0)
    }
}

impl Arith for i32 {
    fn add(self, rhs: Self) -> Self {
        self.wrapping_add(rhs)
    }
    fn sub(self, rhs: Self) -> Self {
        self.wrapping_sub(rhs)
    }
    fn mul(self, rhs: Self) -> Self {
        self.wrapping_mul(rhs)
    }
    fn div(self, rhs: Self) -> Self {
        self.checked_div(rhs).unwrap_or(self)
    }
    fn rem(self, rhs: Self) -> Self {
        self.checked_rem(rhs).unwrap_or(0)
    }
}

impl Arith for f32 {
    fn add(self, rhs: Self) -> Self {
        self + rhs
    }
    fn sub(self, rhs: Self) -> Self {
        self - rhs
    }
    fn mul(self, rhs: Self) -> Self {
        self * rhs
    }
    fn div(self, rhs: Self) -> Self {
        self / rhs
    }
    fn rem(self, rhs: Self) -> Self {
        self % rhs
    }
}

fn undefined(op: Op, lane: u32, kind: UbKind) -> SimError {
    SimError::Undefined(UndefinedBehavior { op, lane, kind })
}

/// Iterates over the active lanes, lowest first.
#[inline(always)]
fn active_lanes(active: u128) -> impl Iterator<Item = usize> {
    SubgroupMask::from_bits(active).iter().map(|l| l as usize)
}

/// `subgroupBallot`.
#[inline]
pub fn ballot(cx: &Cx, active: u128, p: &V<bool>) -> V<SubgroupMask> {
    V::splat(SubgroupMask::from_bits(lanes_where(cx, p) & active))
}

/// `subgroupInverseBallot`, reporting a value that differs across lanes.
pub fn inverse_ballot(cx: &Cx, active: u128, v: &V<SubgroupMask>) -> Result<V<bool>, SimError> {
    if let Some(first_lane) = SubgroupMask::from_bits(active).lowest() {
        let first = v.0[first_lane as usize];
        if let Some(l) = active_lanes(active).find(|&l| v.0[l] != first) {
            let kind = UbKind::NonUniform {
                value: v.0[l],
                first,
                first_lane,
            };
            return Err(undefined(Op::InverseBallot, l as u32, kind));
        }
    }
    let mut out = V::default();
    for l in 0..cx.n {
        out.0[l] = v.0[l].contains(l as u32);
    }
    Ok(out)
}

/// `subgroupBallotBitExtract`, reporting an index at or above the size.
pub fn bit_extract(
    cx: &Cx,
    active: u128,
    v: &V<SubgroupMask>,
    index: &V<u32>,
) -> Result<V<bool>, SimError> {
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
#[inline]
pub fn bit_count(cx: &Cx, v: &V<SubgroupMask>) -> V<u32> {
    map1(cx, v, |m| m.bit_count(cx.size))
}

/// `subgroupBallotInclusiveBitCount`.
#[inline]
pub fn inclusive_bit_count(cx: &Cx, v: &V<SubgroupMask>) -> V<u32> {
    let mut out = V::default();
    for l in 0..cx.n {
        out.0[l] = v.0[l].inclusive_bit_count(l as u32, cx.size);
    }
    out
}

/// `subgroupBallotExclusiveBitCount`.
#[inline]
pub fn exclusive_bit_count(cx: &Cx, v: &V<SubgroupMask>) -> V<u32> {
    let mut out = V::default();
    for l in 0..cx.n {
        out.0[l] = v.0[l].exclusive_bit_count(l as u32, cx.size);
    }
    out
}

fn find(
    cx: &Cx,
    active: u128,
    v: &V<SubgroupMask>,
    op: Op,
    f: fn(SubgroupMask, SubgroupSize) -> Option<u32>,
) -> Result<V<u32>, SimError> {
    let mut out = V::default();
    for l in 0..cx.n {
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

/// `subgroupBallotFindLSB`, reporting a mask with no bit below the size.
pub fn find_lsb(cx: &Cx, active: u128, v: &V<SubgroupMask>) -> Result<V<u32>, SimError> {
    find(cx, active, v, Op::FindLsb, SubgroupMask::find_lsb)
}

/// `subgroupBallotFindMSB`, reporting a mask with no bit below the size.
pub fn find_msb(cx: &Cx, active: u128, v: &V<SubgroupMask>) -> Result<V<u32>, SimError> {
    find(cx, active, v, Op::FindMsb, SubgroupMask::find_msb)
}

/// A built-in mask (`gl_SubgroupEqMask` …) in every lane.
pub fn builtin_mask(cx: &Cx, f: fn(u32, SubgroupSize) -> SubgroupMask) -> V<SubgroupMask> {
    let mut out = V::default();
    for l in 0..cx.n {
        out.0[l] = f(l as u32, cx.size);
    }
    out
}

/// `subgroupElect`.
#[inline]
pub fn elect(active: u128) -> V<bool> {
    let mut out = V::splat(false);
    if active != 0 {
        out.0[active.trailing_zeros() as usize] = true;
    }
    out
}

/// `subgroupBroadcastFirst`.
#[inline]
pub fn broadcast_first<T: Copy + Default>(active: u128, v: &V<T>) -> V<T> {
    if active == 0 {
        return V::default();
    }
    V::splat(v.0[active.trailing_zeros() as usize])
}

/// `subgroupBroadcast`, reporting an out-of-range or inactive source lane.
pub fn broadcast<T: Copy + Default>(
    cx: &Cx,
    active: u128,
    v: &V<T>,
    id: u32,
) -> Result<V<T>, SimError> {
    if active == 0 {
        return Ok(V::default());
    }
    let reader = active.trailing_zeros();
    let size = cx.size.get();
    if id >= size {
        return Err(undefined(
            Op::Broadcast,
            reader,
            UbKind::IndexOutOfRange { index: id, size },
        ));
    }
    if (active >> id) & 1 == 0 {
        return Err(undefined(
            Op::Broadcast,
            reader,
            UbKind::InactiveSource { source_lane: id },
        ));
    }
    Ok(V::splat(v.0[id as usize]))
}
