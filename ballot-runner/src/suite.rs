//! The kernels and inputs the driver tests run: the README's kernels, the
//! patterns of the Vulkan and WebGPU conformance tests that docs/design.md lists,
//! and (when the generated file exists) the random kernels of
//! `tests/random/kernels.rs`, over ragged and regular workgroup shapes and,
//! for the emulated targets, every virtual subgroup size.
//!
//! Loops in these kernels take their trip counts from inputs, never
//! constants: lavapipe's LLVM fully unrolls a constant-trip-count loop that
//! holds a subgroup operation and then compiles for a long time.

#![allow(missing_docs)] // The kernels are documented; the macro's items are not.

use ballot::prelude::*;
use ballot_ir::ir::{Kernel, Type};
use ballot_shader::back::{ShaderOptions, Target};
use ballot_sim::interp::{Arg, Value};

// ---------------------------------------------------------------- kernels

/// The README's ordered stream compaction slot.
#[ballot::kernel]
pub fn compaction_slot(keep: bool) -> u32 {
    let kept = subgroup_ballot(keep);
    subgroup_ballot_exclusive_bit_count(kept)
}

/// The README's leader of each half: a ballot in each arm.
#[ballot::kernel]
pub fn leader_of_my_half(#[uniform] half: u32) -> u32 {
    if subgroup_local_invocation_id() < half {
        subgroup_ballot_find_lsb(subgroup_ballot(true))
    } else {
        subgroup_ballot_find_lsb(subgroup_ballot(true))
    }
}

/// The README's loop that lanes leave at different iterations.
#[ballot::kernel]
pub fn laps(n: u32) -> u32 {
    let mut i = 0u32;
    let mut seen = 0u32;
    while i < n {
        seen += subgroup_ballot_bit_count(subgroup_ballot(true));
        i += 1;
    }
    seen
}

/// A loop that lane 0 of some subgroups runs well past every other lane,
/// so that the workgroup's exit vote often has a single voter: the
/// emulated targets must count it.
#[ballot::kernel]
pub fn lone_laps(n: u32) -> u32 {
    let mut laps = n % 4;
    if subgroup_local_invocation_id() == 0 && n >= 12 {
        laps = 12;
    }
    let mut i = 0u32;
    let mut seen = 0u32;
    while i < laps {
        seen = seen * 3 + subgroup_ballot_bit_count(subgroup_ballot(true));
        i += 1;
    }
    seen
}

/// The README's FindLSB, undefined for an empty mask.
#[ballot::kernel]
pub fn lowest_set(m: SubgroupMask) -> u32 {
    subgroup_ballot_find_lsb(m)
}

/// Whether this lane is in CTS split `split`: 0 every even lane, 1 every
/// odd lane, 2 the lower half, 3 the upper half, 4 the first two lanes,
/// 5 lanes `>= k`, 6 lane `k` alone, anything else every lane.
#[ballot::kernel]
pub fn in_split(#[uniform] split: u32, #[uniform] k: u32) -> bool {
    let id = subgroup_local_invocation_id();
    let half = subgroup_size() / 2;
    if split == 0 {
        id % 2 == 0
    } else if split == 1 {
        id % 2 == 1
    } else if split == 2 {
        id < half
    } else if split == 3 {
        id >= half
    } else if split == 4 {
        id < 2
    } else if split == 5 {
        id >= k
    } else if split == 6 {
        id == k
    } else {
        true
    }
}

/// A ballot on each side of a split: each sees only its own lanes.
#[ballot::kernel]
pub fn split_ballot(#[uniform] split: u32, #[uniform] k: u32, p: bool) -> SubgroupMask {
    if in_split(split, k) {
        subgroup_ballot(p)
    } else {
        subgroup_ballot(!p)
    }
}

/// `ballot(true)` on each side of a split: exactly the side's lanes.
#[ballot::kernel]
pub fn split_members(#[uniform] split: u32, #[uniform] k: u32) -> SubgroupMask {
    if in_split(split, k) {
        subgroup_ballot(true)
    } else {
        subgroup_ballot(true) | SubgroupMask::lane(127)
    }
}

/// The positional counts, Elect, InverseBallot and BitExtract on each side
/// of a split, packed one per byte.
#[ballot::kernel]
pub fn split_counts(#[uniform] split: u32, #[uniform] k: u32, p: bool) -> u32 {
    let next = (subgroup_local_invocation_id() + 1) % subgroup_size();
    let mut packed = 0u32;
    if in_split(split, k) {
        let b = subgroup_ballot(p);
        packed = subgroup_ballot_bit_count(b)
            | (subgroup_ballot_inclusive_bit_count(b) << 8)
            | (subgroup_ballot_exclusive_bit_count(b) << 16)
            | ((subgroup_elect() as u32) << 24)
            | ((subgroup_inverse_ballot(b) as u32) << 25)
            | ((subgroup_ballot_bit_extract(b, next) as u32) << 26);
    } else {
        let b = subgroup_ballot(!p);
        packed = subgroup_ballot_bit_count(b)
            | (subgroup_ballot_inclusive_bit_count(b) << 8)
            | (subgroup_ballot_exclusive_bit_count(b) << 16)
            | ((subgroup_elect() as u32) << 28);
    }
    packed
}

/// Consecutive ballots, which the emulated targets make one exchange
/// (`ballot_shader::lower::share`), in a branch only some lanes take: two of
/// one predicate (one slot), one of another past a store it does not read,
/// then one that reads the ballot before it and one that reads a store
/// since, which need exchanges of their own. Counts packed one per byte.
#[ballot::kernel]
pub fn shared_ballots(x: u32) -> u32 {
    let mut packed = 0u32;
    if x % 3 != 0 {
        let a = subgroup_ballot(x % 2 == 0);
        let b = subgroup_ballot(x % 2 == 0);
        packed = subgroup_ballot_bit_count(a);
        let c = subgroup_ballot(x > 7);
        let d = subgroup_ballot(subgroup_ballot_bit_extract(c, x % 4));
        packed = packed
            | (subgroup_ballot_exclusive_bit_count(b) << 8)
            | (subgroup_ballot_inclusive_bit_count(c) << 16);
        let e = subgroup_ballot(packed % 5 == 1);
        let f = subgroup_ballot(x > 3);
        packed = packed
            ^ (subgroup_ballot_bit_count(d) << 24)
            ^ (subgroup_ballot_exclusive_bit_count(e) << 4)
            ^ (subgroup_ballot_inclusive_bit_count(f) << 12);
    }
    packed
}

/// Consecutive votes and ballots, which the emulated targets make one
/// exchange, in a branch only some lanes take: `Any` and a ballot of one
/// predicate (one slot); an `All` of the same predicate (another: its flags
/// are the predicate's negation); two `All`s of the opposite predicate,
/// which publish the first one's flags; an `Any` of another past a store it
/// does not read; then an `All` that reads a vote before it, which needs an
/// exchange of its own. Each vote is a bit of the packed value.
#[ballot::kernel]
pub fn shared_votes(x: u32) -> u32 {
    let mut packed = 0u32;
    if x % 3 != 0 {
        let a = subgroup_any(x % 16 == 7);
        let b = subgroup_ballot(x % 16 == 7);
        let c = subgroup_all(x % 16 == 7);
        packed = subgroup_ballot_bit_count(b) << 8;
        let d = subgroup_all(x % 16 != 7);
        let e = subgroup_all(x % 16 != 7);
        let f = subgroup_any(x > 11);
        let g = subgroup_all(a || x % 2 == 1);
        packed = packed
            | (a as u32)
            | ((c as u32) << 1)
            | ((d as u32) << 2)
            | ((e as u32) << 3)
            | ((f as u32) << 4)
            | ((g as u32) << 5);
    }
    packed
}

/// FindLSB and FindMSB of each side's ballot (undefined when a side's
/// ballot is empty: that subgroup is skipped).
#[ballot::kernel]
pub fn split_find(#[uniform] split: u32, #[uniform] k: u32, p: bool) -> u32 {
    if in_split(split, k) {
        let b = subgroup_ballot(p) | subgroup_eq_mask();
        subgroup_ballot_find_lsb(b) | (subgroup_ballot_find_msb(b) << 8)
    } else {
        let b = subgroup_ballot(true);
        subgroup_ballot_find_lsb(b) | (subgroup_ballot_find_msb(b) << 8) | (1u32 << 16)
    }
}

/// BroadcastFirst on each side of a split, and Broadcast from lanes 0 and 1
/// before and inside it.
#[ballot::kernel]
pub fn split_broadcast(#[uniform] split: u32, #[uniform] k: u32, x: u32) -> u32 {
    let from_zero = subgroup_broadcast(x, 0);
    if in_split(split, k) {
        subgroup_broadcast_first(x) ^ (from_zero << 16)
    } else {
        subgroup_broadcast_first(x * 3) ^ (from_zero << 16) ^ subgroup_broadcast(x, 1)
    }
}

/// The built-in masks: `which` 0 Eq, 1 Ge, 2 Gt, 3 Le, anything else Lt.
#[ballot::kernel]
pub fn builtin_mask(#[uniform] which: u32) -> SubgroupMask {
    if which == 0 {
        subgroup_eq_mask()
    } else if which == 1 {
        subgroup_ge_mask()
    } else if which == 2 {
        subgroup_gt_mask()
    } else if which == 3 {
        subgroup_le_mask()
    } else {
        subgroup_lt_mask()
    }
}

/// Every mask operation that is defined for any uniform mask, packed:
/// InverseBallot, BitExtract of the next lane, BitCount, and the inclusive
/// and exclusive counts.
#[ballot::kernel]
pub fn mask_ops(#[uniform] v: SubgroupMask) -> u32 {
    let next = (subgroup_local_invocation_id() + 1) % subgroup_size();
    (subgroup_inverse_ballot(v) as u32)
        | ((subgroup_ballot_bit_extract(v, next) as u32) << 1)
        | (subgroup_ballot_bit_count(v) << 2)
        | (subgroup_ballot_inclusive_bit_count(v) << 10)
        | (subgroup_ballot_exclusive_bit_count(v) << 18)
}

/// FindLSB and FindMSB of a uniform mask (undefined with no bit below the
/// size).
#[ballot::kernel]
pub fn mask_find(#[uniform] v: SubgroupMask) -> u32 {
    subgroup_ballot_find_lsb(v) | (subgroup_ballot_find_msb(v) << 8)
}

/// `ballot(true)` with every lane active: 2^size - 1 in a full subgroup.
#[ballot::kernel]
pub fn ballot_true() -> SubgroupMask {
    subgroup_ballot(true)
}

/// The lane id and size the kernel sees.
#[ballot::kernel]
pub fn lane_info() -> u32 {
    subgroup_local_invocation_id() | (subgroup_size() << 8)
}

/// A loop with `continue` and `break` that lanes leave at different
/// iterations, with a ballot after it that must see every lane again.
#[ballot::kernel]
pub fn loop_census(n: u32) -> u32 {
    let mut seen = 0u32;
    let mut i = 0u32;
    loop {
        if i >= n {
            break;
        }
        i += 1;
        if i % 3 == 0 {
            continue;
        }
        seen = seen * 7 + subgroup_ballot_bit_count(subgroup_ballot(true));
    }
    seen ^ (subgroup_ballot_bit_count(subgroup_ballot(true)) << 24)
}

/// Nested divergence with an early return.
#[ballot::kernel]
pub fn early_return(x: u32) -> u32 {
    if x % 4 == 0 {
        return subgroup_ballot_bit_count(subgroup_ballot(true)) + 1000;
    }
    let mut total = 0u32;
    for j in 0u32..x % 5 {
        if (x + j) % 2 == 0 {
            total += subgroup_ballot_exclusive_bit_count(subgroup_ballot(true));
        } else {
            total += subgroup_broadcast_first(j * 10);
        }
    }
    total
}

// The idioms of the portability catalogue, shared with
// `tests/portability.rs`.
#[path = "../../tests/catalogue/kernels.rs"]
pub mod catalogue;
use catalogue::*;

/// `f32` and `i32` lanes through BroadcastFirst and ordinary arithmetic.
#[ballot::kernel]
pub fn numeric(x: f32, y: i32) -> f32 {
    let first = subgroup_broadcast_first(x);
    let ifirst = subgroup_broadcast_first(y);
    first * 2.0 + x - ((ifirst - y) as f32)
}

/// A `bool` result: whether InverseBallot of the ballot gives back `p`.
#[ballot::kernel]
pub fn round_trip(p: bool) -> bool {
    subgroup_inverse_ballot(subgroup_ballot(p)) == p
}

/// A per-lane mask argument and a mask result.
#[ballot::kernel]
pub fn mask_lanes(m: SubgroupMask) -> SubgroupMask {
    let b = subgroup_ballot(m.contains(subgroup_local_invocation_id()));
    b ^ subgroup_broadcast_first(m)
}

/// The rest of the family in divergent code: integer reductions and scans
/// in both arms of a branch, and the votes after it.
#[ballot::kernel]
pub fn family_arith(x: u32) -> u32 {
    let mut r = subgroup_i_add(x);
    if x % 3 != 0 {
        r = r * 31 + subgroup_inclusive_i_add(x & 7) + subgroup_exclusive_u_max(x);
    } else {
        r = r ^ subgroup_xor(x) ^ (subgroup_s_min(x as i32 - 5) as u32);
    }
    r + subgroup_all(x % 2 == 0) as u32 * 1000
        + subgroup_any(x == 7) as u32 * 2000
        + subgroup_all_equal(x / 64) as u32 * 4000
}

/// `f32` arithmetic whose answers no order of summation changes: sums of
/// small integers, minima and maxima.
#[ballot::kernel]
pub fn family_float(x: u32) -> f32 {
    let f = (x % 16) as f32;
    subgroup_f_add(f) + subgroup_exclusive_f_add(f) * 0.5 + subgroup_f_max(f)
        - subgroup_inclusive_f_min(f)
}

/// Shuffles and quads: sources outside the subgroup or inactive are
/// undefined, and the comparison skips those subgroups.
#[ballot::kernel]
pub fn family_shuffle(x: u32) -> u32 {
    let lane = subgroup_local_invocation_id();
    let a = subgroup_shuffle_xor(x, 1);
    let b = subgroup_shuffle(x * 3, lane ^ 2);
    let c = subgroup_shuffle_down(x, 0) + subgroup_shuffle_up(x + 1, 0);
    let q = subgroup_quad_broadcast(x, 3) * 7 + subgroup_quad_swap::<2>(x);
    a + b * 5 + c * 11 + q * 13
}

/// Clustered reductions in both arms of a branch, over clusters of 1 to 8
/// lanes: a cluster larger than the subgroup is undefined, and the
/// comparison skips those subgroups.
#[ballot::kernel]
pub fn family_clustered(x: u32) -> u32 {
    let mut r = subgroup_clustered_i_add::<4, _>(x);
    if x % 3 != 0 {
        r = r * 31 + subgroup_clustered_u_max::<2, _>(x) + subgroup_clustered_xor::<8, _>(x);
    } else {
        r = r
            ^ subgroup_clustered_i_mul::<1, _>(x)
            ^ (subgroup_clustered_s_min::<4, _>(x as i32 - 5) as u32);
    }
    r + subgroup_clustered_or::<8, _>(x & 0xff) * 3
}

// ----------------------------------------------------- the random kernels

#[cfg(random_kernels)]
mod random {
    //! `tests/random/kernels.rs`, with the adapters its entries name.
    #![allow(clippy::all, unused, missing_docs)]
    use ballot::prelude::*;
    use ballot_ir::ir::{Kernel, Type};
    use ballot_sim::interp::{Arg, Value};

    pub struct Entry {
        pub name: &'static str,
        pub params: &'static [(Type, bool)],
        pub run: fn(&Subgroup, &[Arg]) -> Result<PerLane<Value>, SimError>,
        pub run_dispatch: fn(&Dispatch, &[Arg]) -> Result<Vec<Value>, SimError>,
        pub ir: fn() -> &'static Kernel,
    }

    trait IntoValue {
        fn into_value(self) -> Value;
    }
    macro_rules! into_value {
        ($($t:ty => $v:ident),*) => {$(
            impl IntoValue for $t {
                fn into_value(self) -> Value { Value::$v(self) }
            }
        )*};
    }
    into_value!(bool => Bool, u32 => U32, i32 => I32, f32 => F32, SubgroupMask => Mask);
    impl IntoValue for () {
        fn into_value(self) -> Value {
            Value::Unit
        }
    }
    fn per_lane<T: IntoValue>(out: PerLane<T>) -> PerLane<Value> {
        PerLane::from_vec(
            out.into_vec()
                .into_iter()
                .map(|v| v.map(IntoValue::into_value))
                .collect(),
        )
    }
    fn values<T: IntoValue>(out: Vec<T>) -> Vec<Value> {
        out.into_iter().map(IntoValue::into_value).collect()
    }
    macro_rules! arg_adapters {
        ($($lanes:ident, $uniform:ident: $t:ty => $get:ident),*) => {$(
            fn $lanes(arg: &Arg) -> Vec<$t> {
                match arg {
                    Arg::PerLane(v) => v.iter().map(|v| v.$get().unwrap_or_default()).collect(),
                    Arg::Uniform(v) => vec![v.$get().unwrap_or_default()],
                }
            }
            fn $uniform(arg: &Arg) -> $t {
                match arg {
                    Arg::Uniform(v) => v.$get().unwrap_or_default(),
                    Arg::PerLane(v) => v.first().and_then(|v| v.$get()).unwrap_or_default(),
                }
            }
        )*};
    }
    arg_adapters!(
        lanes_bool, uniform_bool: bool => as_bool,
        lanes_u32, uniform_u32: u32 => as_u32,
        lanes_i32, uniform_i32: i32 => as_i32,
        lanes_f32, uniform_f32: f32 => as_f32,
        lanes_mask, uniform_mask: SubgroupMask => as_mask
    );

    include!("../../tests/random/kernels.rs");
}

/// Every random kernel's IR, if `tests/random/kernels.rs` was there at
/// build time.
pub fn random_kernels() -> Vec<&'static Kernel> {
    #[cfg(random_kernels)]
    {
        random::ENTRIES.iter().map(|e| (e.ir)()).collect()
    }
    #[cfg(not(random_kernels))]
    {
        Vec::new()
    }
}

// ------------------------------------------------------------ the plan

/// A deterministic generator (SplitMix64): the same cases every run.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub const fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: u32) -> u32 {
        (self.next_u64() % n as u64) as u32
    }

    /// A random value of `ty`, biased to small and edge values.
    pub fn value(&mut self, ty: Type) -> Value {
        match ty {
            Type::Bool => Value::Bool(self.below(2) == 0),
            Type::U32 => Value::U32(match self.below(4) {
                0 => self.next_u64() as u32,
                1 => [0, 1, 31, 32, 127, 128, u32::MAX][self.below(7) as usize],
                _ => self.below(16),
            }),
            Type::I32 => Value::I32(match self.below(4) {
                0 => self.next_u64() as i32,
                1 => [0, -1, 1, i32::MIN, i32::MAX][self.below(5) as usize],
                _ => self.below(16) as i32 - 8,
            }),
            // Values whose sums and products are exact, so that every
            // conforming implementation rounds them alike.
            Type::F32 => Value::F32(match self.below(8) {
                0 => [0.0, -0.0, 1.0, -1.0, 0.5, 1024.0][self.below(6) as usize],
                _ => (self.below(2001) as f32 - 1000.0) / 4.0,
            }),
            Type::Mask => Value::Mask(match self.below(4) {
                0 => SubgroupMask::from_bits(
                    (self.next_u64() as u128) | ((self.next_u64() as u128) << 64),
                ),
                1 => SubgroupMask::lane(self.below(128)),
                2 => SubgroupMask::first(self.below(129)),
                _ => SubgroupMask::from_bits(self.next_u64() as u128 & 0xffff_ffff),
            }),
        }
    }
}

/// A workgroup shape and how many workgroups a dispatch has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Invocations per workgroup in x, y, z.
    pub workgroup: [u32; 3],
    /// Workgroups in x, y, z.
    pub count: [u32; 3],
}

impl Shape {
    const fn new(workgroup: [u32; 3], count: [u32; 3]) -> Self {
        Self { workgroup, count }
    }

    /// Invocations per workgroup.
    pub fn invocations(&self) -> u32 {
        self.workgroup.iter().product()
    }
}

/// The shapes: regular, ragged (a partial last subgroup at most sizes), and
/// one-dimensional along each axis.
pub const SHAPES: [Shape; 6] = [
    Shape::new([64, 1, 1], [2, 1, 1]),
    Shape::new([15, 3, 1], [2, 1, 1]),
    Shape::new([3, 3, 3], [1, 2, 1]),
    Shape::new([1, 1, 64], [1, 1, 2]),
    Shape::new([128, 1, 1], [1, 1, 1]),
    Shape::new([200, 1, 1], [1, 1, 1]),
];

/// The virtual subgroup sizes the emulated targets run at.
pub const VIRTUAL_SIZES: [u32; 7] = [4, 8, 16, 32, 64, 128, 1];

/// One kernel of the suite with how to make its cases.
#[derive(Clone, Debug)]
pub struct Program {
    /// The kernel and its callees.
    pub kernels: Vec<&'static Kernel>,
    /// The values its uniform parameters sweep, one list per case; per-lane
    /// parameters get random values. `None`: random uniforms, a few cases.
    pub sweep: Option<fn() -> Vec<Vec<Value>>>,
    /// Whether it runs over every shape and virtual size (the CTS kernels)
    /// or a rotating few (the random kernels).
    pub exhaustive: bool,
    /// Whether its per-lane `u32` inputs are loop trip counts, kept below
    /// 16: a driver runs a loop of a random `u32` count for hours.
    pub trip_counts: bool,
}

fn splits() -> Vec<Vec<Value>> {
    let mut cases: Vec<Vec<Value>> = [0u32, 1, 2, 3, 4, 7]
        .into_iter()
        .map(|s| vec![Value::U32(s), Value::U32(0)])
        .collect();
    for k in 0..=128u32 {
        cases.push(vec![Value::U32(5), Value::U32(k)]);
        cases.push(vec![Value::U32(6), Value::U32(k)]);
    }
    cases
}

fn masks() -> Vec<Vec<Value>> {
    let mut cases = vec![
        vec![Value::Mask(SubgroupMask::ALL)],
        vec![Value::Mask(SubgroupMask::EMPTY)],
    ];
    for i in 0..128 {
        cases.push(vec![Value::Mask(SubgroupMask::lane(i))]);
        cases.push(vec![Value::Mask(SubgroupMask::from_bits(u128::MAX << i))]);
    }
    let mut rng = Rng::new(0x00ba_1107);
    cases.extend((0..16).map(|_| vec![rng.value(Type::Mask)]));
    cases
}

fn halves() -> Vec<Vec<Value>> {
    (0..=128u32).map(|h| vec![Value::U32(h)]).collect()
}

fn which_mask() -> Vec<Vec<Value>> {
    (0..5u32).map(|w| vec![Value::U32(w)]).collect()
}

/// The suite's kernels. The random ones come last.
pub fn programs() -> Vec<Program> {
    let cts = |kernels: Vec<&'static Kernel>, sweep: Option<fn() -> Vec<Vec<Value>>>| Program {
        kernels,
        sweep,
        exhaustive: true,
        trip_counts: false,
    };
    let loops = |kernels: Vec<&'static Kernel>| Program {
        kernels,
        sweep: None,
        exhaustive: true,
        trip_counts: true,
    };
    #[allow(unused_mut)] // Only the random kernels add to it.
    let mut all = vec![
        cts(compaction_slot::kernels(), None),
        cts(leader_of_my_half::kernels(), Some(halves)),
        loops(laps::kernels()),
        loops(lone_laps::kernels()),
        cts(lowest_set::kernels(), None),
        cts(split_ballot::kernels(), Some(splits)),
        cts(split_members::kernels(), Some(splits)),
        cts(split_counts::kernels(), Some(splits)),
        cts(shared_ballots::kernels(), None),
        cts(shared_votes::kernels(), None),
        cts(split_find::kernels(), Some(splits)),
        cts(split_broadcast::kernels(), Some(splits)),
        cts(builtin_mask::kernels(), Some(which_mask)),
        cts(mask_ops::kernels(), Some(masks)),
        cts(mask_find::kernels(), Some(masks)),
        cts(ballot_true::kernels(), None),
        cts(lane_info::kernels(), None),
        loops(loop_census::kernels()),
        loops(early_return::kernels()),
        cts(numeric::kernels(), None),
        cts(round_trip::kernels(), None),
        cts(mask_lanes::kernels(), None),
        cts(workgroup_total::kernels(), None),
        cts(branch_leader::kernels(), None),
        cts(elect_in_branch::kernels(), None),
        cts(after_return::kernels(), None),
        loops(loop_with_break::kernels()),
        cts(ballot_after_if::kernels(), None),
        cts(family_arith::kernels(), None),
        cts(family_float::kernels(), None),
        cts(family_shuffle::kernels(), None),
        cts(family_clustered::kernels(), None),
    ];
    #[cfg(random_kernels)]
    {
        let random = random_kernels();
        for i in 0..random.len() {
            // Each random kernel first, with every other one as a callee.
            let mut kernels = random.clone();
            let me = kernels.remove(i);
            kernels.insert(0, me);
            all.push(Program {
                kernels,
                sweep: None,
                exhaustive: false,
                // The generator bounds every loop itself.
                trip_counts: false,
            });
        }
    }
    all
}

/// The jobs for `targets`: every program over its shapes, and for emulated
/// targets over the virtual subgroup sizes that fit.
///
/// `BALLOT_KERNELS=a,b` keeps only the kernels named, for debugging.
pub fn jobs(targets: &[Target]) -> Vec<Job<'static>> {
    let programs = programs();
    let only = std::env::var("BALLOT_KERNELS").unwrap_or_default();
    let only: Vec<&str> = only.split(',').filter(|s| !s.is_empty()).collect();
    let mut out = Vec::new();
    for (p, program) in programs.iter().enumerate() {
        let kernels = &program.kernels;
        if !only.is_empty() && !only.contains(&kernels[0].name.as_str()) {
            continue;
        }
        for &target in targets {
            let configs = configs(target, program.exhaustive, p);
            for (c, (shape, virtual_size)) in configs.into_iter().enumerate() {
                let seed = (p as u64) << 32 | (c as u64) << 8 | target as u64;
                out.push(job(kernels, program, target, shape, virtual_size, seed));
            }
        }
    }
    out
}

/// The (shape, virtual size) pairs program `index` runs at on `target`.
///
/// Native targets ignore the virtual size: a CTS kernel runs in every
/// shape there. On emulated targets it runs at every virtual size, each in
/// a shape that fits it, rotating with the kernel so that the kernels
/// together cover every (shape, size) pair: every pair for every kernel
/// would take lavapipe half an hour to compile. A random kernel runs once
/// per target, its shape (and size) rotating likewise.
fn configs(target: Target, exhaustive: bool, index: usize) -> Vec<(Shape, u32)> {
    let pairs: Vec<(Shape, u32)> = if target.has_subgroups() {
        SHAPES.iter().map(|&s| (s, 1)).collect()
    } else {
        SHAPES
            .iter()
            .flat_map(|&s| {
                VIRTUAL_SIZES
                    .iter()
                    .filter(move |&&v| v <= s.invocations())
                    .map(move |&v| (s, v))
            })
            .collect()
    };
    if !exhaustive {
        return vec![pairs[(index * 7) % pairs.len()]];
    }
    if target.has_subgroups() {
        return pairs;
    }
    VIRTUAL_SIZES
        .iter()
        .enumerate()
        .map(|(v, &size)| {
            let fits: Vec<(Shape, u32)> = pairs.iter().copied().filter(|p| p.1 == size).collect();
            fits[(index + v) % fits.len()]
        })
        .collect()
}

fn job(
    kernels: &[&'static Kernel],
    program: &Program,
    target: Target,
    shape: Shape,
    virtual_size: u32,
    seed: u64,
) -> Job<'static> {
    let kernel = kernels[0];
    let mut rng = Rng::new(seed);
    let n = (shape.invocations() * shape.count.iter().product::<u32>()) as usize;
    let uniform_sets = match program.sweep {
        Some(sweep) => sweep(),
        None => (0..4)
            .map(|_| {
                kernel
                    .params
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.uniform)
                    .map(|(i, _)| rng.value(kernel.param_type(i)))
                    .collect()
            })
            .collect(),
    };
    let cases = uniform_sets
        .into_iter()
        .map(|uniforms| {
            let mut uniforms = uniforms.into_iter();
            (0..kernel.params.len())
                .map(|i| {
                    let ty = kernel.param_type(i);
                    if kernel.params[i].uniform {
                        Arg::Uniform(uniforms.next().unwrap_or_else(|| rng.value(ty)))
                    } else if program.trip_counts && ty == Type::U32 {
                        Arg::PerLane((0..n).map(|_| Value::U32(rng.below(16))).collect())
                    } else {
                        Arg::PerLane((0..n).map(|_| rng.value(ty)).collect())
                    }
                })
                .collect()
        })
        .collect();
    Job {
        kernels: kernels.to_vec(),
        target,
        options: ShaderOptions {
            workgroup_size: shape.workgroup,
            subgroup_size: virtual_size,
            record_lanes: true,
            ..ShaderOptions::default()
        },
        workgroups: shape.count,
        cases,
    }
}

use crate::job::Job;
