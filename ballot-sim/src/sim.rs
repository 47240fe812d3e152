//! The subgroup simulator: subgroup sizes, active lanes, per-lane values and
//! the mapping of a dispatch onto subgroups.
//!
//! A [`Subgroup`] is a size and a set of active lanes. Collective operations
//! ([`crate::ops`]) take one input per lane, indexed by lane id, and return a
//! [`PerLane`] output in which inactive lanes hold nothing. A [`Dispatch`]
//! splits workgroups into subgroups the way drivers commonly do: invocation
//! `local_invocation_index` is lane `index % size` of subgroup
//! `index / size`, and the last subgroup of a workgroup whose size is not a
//! multiple of the subgroup size is partial.

use core::fmt;

pub use crate::schedule::{Model, Schedule};
use ballot_ir::error::{ConfigError, SimError};
use ballot_ir::mask::SubgroupMask;
pub use ballot_ir::size::{SubgroupSize, MAX_SUBGROUP_SIZE};

/// One subgroup: its size, which of its lanes are active, how many steps a
/// kernel run over it may take, and which lanes execute a collective
/// together once control flow diverges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Subgroup {
    size: SubgroupSize,
    active: SubgroupMask,
    step_budget: u64,
    schedule: Schedule,
}

/// How many steps a kernel run over one subgroup may take by default:
/// 2^22 (4,194,304). A step is one entry of the subgroup into a loop's
/// body, in the kernel or in a kernel it calls: `while` tests its condition
/// there, so a loop of `n` iterations takes `n + 1`. Code outside loops is
/// bounded by the kernel's size and not counted. A run past the budget fails with
/// [`SimError::StepBudget`] instead of running forever. The default is far
/// more loop iterations than a GPU kernel runs per subgroup within a
/// driver's watchdog (about two seconds), and small enough that a kernel
/// that never ends fails within seconds even unoptimised: 1.5 s for a
/// one-line loop in a debug build (`tests/step_budget.rs` prints it).
pub const DEFAULT_STEP_BUDGET: u64 = 1 << 22;

/// The settings of a kernel run (the step budget, the schedule): their
/// builders and getters, alike on [`Subgroup`] and [`Dispatch`]. `$what`
/// names the type, `$over` what one kernel run covers.
macro_rules! run_settings {
    ($what:literal, $over:literal) => {
        #[doc = concat!("The same ", $what, ", on which a kernel run over ", $over)]
        /// may take at most `steps` loop iterations ([`DEFAULT_STEP_BUDGET`]
        /// unless set).
        #[must_use]
        #[inline]
        pub const fn with_step_budget(mut self, steps: u64) -> Self {
            self.step_budget = steps;
            self
        }

        #[doc = concat!("How many loop iterations a kernel run over ", $over, " may take.")]
        pub const fn step_budget(&self) -> u64 {
            self.step_budget
        }

        #[doc = concat!("The same ", $what, ", on which a kernel run over ", $over)]
        /// executes collectives in diverged control flow by `schedule`
        /// ([`Schedule::Maximal`] unless set).
        #[must_use]
        #[inline]
        pub const fn with_schedule(mut self, schedule: Schedule) -> Self {
            self.schedule = schedule;
            self
        }

        #[doc = concat!("Which lanes execute a collective together in a kernel run over ", $over, ".")]
        pub const fn schedule(&self) -> Schedule {
            self.schedule
        }
    };
}

impl Subgroup {
    /// A subgroup of `size` lanes of which `active` are active.
    ///
    /// Fails if the size is invalid or an active lane is at or above it.
    pub fn new(size: u32, active: SubgroupMask) -> Result<Self, ConfigError> {
        let size = SubgroupSize::new(size)?;
        let outside = active & !SubgroupMask::first(size.get());
        match outside.lowest() {
            Some(lane) => Err(ConfigError::ActiveLaneOutOfRange {
                lane,
                size: size.get(),
            }),
            None => Ok(Self::from_parts(size, active)),
        }
    }

    /// A subgroup of `size` lanes, all active.
    pub fn full(size: u32) -> Result<Self, ConfigError> {
        let size = SubgroupSize::new(size)?;
        Ok(Self::from_parts(size, SubgroupMask::first(size.get())))
    }

    /// A subgroup whose first `count` lanes are active, as at the end of a
    /// ragged workgroup. Fails if `count` exceeds the size.
    pub fn partial(size: u32, count: u32) -> Result<Self, ConfigError> {
        let size_checked = SubgroupSize::new(size)?;
        if count > size_checked.get() {
            return Err(ConfigError::ActiveLaneOutOfRange {
                lane: size_checked.get(),
                size,
            });
        }
        Ok(Self::from_parts(size_checked, SubgroupMask::first(count)))
    }

    /// Builds a subgroup from an already-validated size; bits of `active` at
    /// or above the size are dropped.
    #[inline]
    pub const fn from_parts(size: SubgroupSize, active: SubgroupMask) -> Self {
        Self {
            size,
            active: active.below(size),
            step_budget: DEFAULT_STEP_BUDGET,
            schedule: Schedule::Maximal,
        }
    }

    run_settings!("subgroup", "this subgroup");

    /// The number of lanes, active or not.
    pub const fn size(&self) -> SubgroupSize {
        self.size
    }

    /// The active lanes.
    pub const fn active(&self) -> SubgroupMask {
        self.active
    }

    /// Whether `lane` is active.
    pub const fn is_active(&self, lane: u32) -> bool {
        self.active.contains(lane)
    }

    /// The same subgroup with only the lanes of `mask` that are active here
    /// still active: what a divergent branch does.
    pub fn narrow(&self, mask: SubgroupMask) -> Self {
        Self::from_parts(self.size, self.active & mask)
            .with_step_budget(self.step_budget)
            .with_schedule(self.schedule)
    }

    /// Checks that a per-lane input holds one entry per lane.
    pub fn check_len<T>(&self, op: &'static str, input: &[T]) -> Result<(), SimError> {
        let expected = self.size.as_usize();
        if input.len() == expected {
            Ok(())
        } else {
            Err(SimError::InputLength {
                op,
                expected,
                got: input.len(),
            })
        }
    }
}

/// One value per lane of a subgroup; inactive lanes hold `None`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PerLane<T>(Vec<Option<T>>);

impl<T> PerLane<T> {
    /// Evaluates `f` in every active lane of `subgroup`.
    pub fn from_fn(subgroup: &Subgroup, mut f: impl FnMut(u32) -> T) -> Self {
        Self(
            (0..subgroup.size().get())
                .map(|lane| subgroup.is_active(lane).then(|| f(lane)))
                .collect(),
        )
    }

    /// Like [`PerLane::from_fn`], stopping at the first lane that fails.
    pub fn try_from_fn<E>(
        subgroup: &Subgroup,
        mut f: impl FnMut(u32) -> Result<T, E>,
    ) -> Result<Self, E> {
        let mut values = Vec::with_capacity(subgroup.size().as_usize());
        for lane in 0..subgroup.size().get() {
            values.push(if subgroup.is_active(lane) {
                Some(f(lane)?)
            } else {
                None
            });
        }
        Ok(Self(values))
    }

    /// Wraps one optional value per lane.
    pub fn from_vec(values: Vec<Option<T>>) -> Self {
        Self(values)
    }

    /// The value of `lane`, if it is an active lane.
    pub fn get(&self, lane: u32) -> Option<&T> {
        self.0.get(lane as usize).and_then(Option::as_ref)
    }

    /// The number of lanes, active or not.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no lanes at all.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The active lanes and their values, lowest lane first.
    pub fn active(&self) -> impl Iterator<Item = (u32, &T)> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter_map(|(lane, v)| v.as_ref().map(|v| (lane as u32, v)))
    }

    /// Every lane's optional value.
    pub fn as_slice(&self) -> &[Option<T>] {
        &self.0
    }

    /// Every lane's optional value, by value.
    pub fn into_vec(self) -> Vec<Option<T>> {
        self.0
    }
}

impl<T: fmt::Debug> fmt::Debug for PerLane<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.active()).finish()
    }
}

/// A compute dispatch: workgroup size, subgroup size and workgroup count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dispatch {
    workgroup_size: [u32; 3],
    subgroup_size: SubgroupSize,
    workgroup_count: [u32; 3],
    invocations_per_workgroup: u32,
    workgroups: u32,
    step_budget: u64,
    schedule: Schedule,
}

/// One subgroup of a [`Dispatch`], and where its lanes live.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DispatchedSubgroup {
    /// `gl_WorkGroupID` / `workgroup_id` of its workgroup.
    pub workgroup_id: [u32; 3],
    /// The linear index of its workgroup, x fastest.
    pub workgroup_index: u32,
    /// Its index among the subgroups of its workgroup (`gl_SubgroupID`).
    pub index: u32,
    /// The linear invocation index, across the dispatch, of its lane 0:
    /// lane `l` is invocation `first_invocation + l`.
    pub first_invocation: usize,
    /// Its size and active lanes.
    pub subgroup: Subgroup,
}

impl Dispatch {
    /// Validates a dispatch of `workgroup_count` workgroups of
    /// `workgroup_size` invocations, in subgroups of `subgroup_size`.
    ///
    /// A workgroup count of 0 in any dimension is a valid, empty dispatch.
    pub fn new(
        workgroup_size: [u32; 3],
        subgroup_size: u32,
        workgroup_count: [u32; 3],
    ) -> Result<Self, ConfigError> {
        let subgroup_size = SubgroupSize::new(subgroup_size)?;
        if workgroup_size.contains(&0) {
            return Err(ConfigError::EmptyWorkgroup {
                size: workgroup_size,
            });
        }
        let too_many = ConfigError::TooManyInvocations {
            workgroup_size,
            workgroup_count,
        };
        let product = |d: [u32; 3]| d.iter().try_fold(1u32, |acc, &n| acc.checked_mul(n));
        let invocations_per_workgroup = product(workgroup_size).ok_or(too_many.clone())?;
        // An empty dispatch has no invocation to count, however large the
        // other dimensions are.
        let workgroups = if workgroup_count.contains(&0) {
            0
        } else {
            product(workgroup_count).ok_or(too_many.clone())?
        };
        // Every invocation index must fit a u32, as it does on a GPU.
        invocations_per_workgroup
            .checked_mul(workgroups)
            .ok_or(too_many)?;
        Ok(Self {
            workgroup_size,
            subgroup_size,
            workgroup_count,
            invocations_per_workgroup,
            workgroups,
            step_budget: DEFAULT_STEP_BUDGET,
            schedule: Schedule::Maximal,
        })
    }

    run_settings!("dispatch", "any one subgroup of this dispatch");

    /// The workgroup size.
    pub const fn workgroup_size(&self) -> [u32; 3] {
        self.workgroup_size
    }

    /// The subgroup size.
    pub const fn subgroup_size(&self) -> SubgroupSize {
        self.subgroup_size
    }

    /// The workgroup count.
    pub const fn workgroup_count(&self) -> [u32; 3] {
        self.workgroup_count
    }

    /// Invocations in one workgroup.
    pub const fn invocations_per_workgroup(&self) -> u32 {
        self.invocations_per_workgroup
    }

    /// Invocations in the whole dispatch: the length of every per-invocation
    /// input and output.
    pub const fn invocation_count(&self) -> usize {
        self.invocations_per_workgroup as usize * self.workgroups as usize
    }

    /// Subgroups in one workgroup, counting a partial last one.
    pub const fn subgroups_per_workgroup(&self) -> u32 {
        self.invocations_per_workgroup
            .div_ceil(self.subgroup_size.get())
    }

    /// Every subgroup of the dispatch, workgroup by workgroup.
    #[inline]
    pub fn subgroups(&self) -> impl Iterator<Item = DispatchedSubgroup> + '_ {
        let per_wg = self.subgroups_per_workgroup();
        (0..self.workgroups).flat_map(move |wg| (0..per_wg).map(move |sg| self.subgroup(wg, sg)))
    }

    // Inlined into the generated dispatch loops: one call per subgroup
    // otherwise costs a tenth of a kernel's run.
    #[inline]
    fn subgroup(&self, workgroup_index: u32, index: u32) -> DispatchedSubgroup {
        let size = self.subgroup_size.get();
        let first_local = index * size;
        let count = (self.invocations_per_workgroup - first_local).min(size);
        let [cx, cy, _] = self.workgroup_count;
        DispatchedSubgroup {
            workgroup_id: [
                workgroup_index % cx,
                workgroup_index / cx % cy,
                workgroup_index / (cx * cy),
            ],
            workgroup_index,
            index,
            first_invocation: workgroup_index as usize * self.invocations_per_workgroup as usize
                + first_local as usize,
            subgroup: Subgroup::from_parts(self.subgroup_size, SubgroupMask::first(count))
                .with_step_budget(self.step_budget)
                .with_schedule(self.schedule),
        }
    }

    /// Runs `op` on every subgroup and gathers its per-lane outputs into one
    /// per-invocation vector.
    ///
    /// `input` holds one entry per invocation, in linear invocation order
    /// (workgroup by workgroup, `local_invocation_index` within each); `op`
    /// receives the slice of one subgroup, padded to the subgroup size with
    /// `T::default()` in the lanes a partial subgroup lacks, which are
    /// inactive and so never read.
    pub fn run<T, U, F>(&self, input: &[T], mut op: F) -> Result<Vec<U>, SimError>
    where
        T: Clone + Default,
        F: FnMut(&Subgroup, &[T]) -> Result<PerLane<U>, SimError>,
    {
        if input.len() != self.invocation_count() {
            return Err(SimError::InputLength {
                op: "Dispatch::run",
                expected: self.invocation_count(),
                got: input.len(),
            });
        }
        let size = self.subgroup_size.as_usize();
        let mut out = Vec::with_capacity(input.len());
        let mut lanes = Vec::with_capacity(size);
        for sg in self.subgroups() {
            let count = sg.subgroup.active().count() as usize;
            lanes.clear();
            lanes.extend_from_slice(&input[sg.first_invocation..sg.first_invocation + count]);
            lanes.resize(size, T::default());
            let result = op(&sg.subgroup, &lanes)?;
            out.extend(result.into_vec().into_iter().take(count).flatten());
        }
        Ok(out)
    }
}

/// A kernel as the code `#[ballot::kernel]` generates runs it, with its
/// arguments as tuples: what generic tools over kernels, such as the
/// portability oracle, call. The macro implements it on each kernel's
/// struct.
pub trait SimKernel {
    /// The kernel's name.
    const NAME: &'static str;
    /// One invocation's per-lane arguments, in parameter order.
    type Lane: Copy + Default + fmt::Debug + 'static;
    /// The uniform arguments, in parameter order.
    type Uniform: Copy + fmt::Debug + 'static;
    /// One invocation's result.
    type Output: Lane;

    /// Runs the kernel over every subgroup of `dispatch`, with one entry of
    /// `lanes` per invocation; the output is in the same order.
    ///
    /// # Errors
    /// A report of the first undefined behaviour, or inputs of the wrong
    /// length.
    fn run_invocations(
        dispatch: &Dispatch,
        uniform: &Self::Uniform,
        lanes: &[Self::Lane],
    ) -> Result<Vec<Self::Output>, SimError>;
}

/// A type a kernel's lanes hold: a scalar, a mask, or nothing.
pub trait Lane: Copy + Default + fmt::Debug + 'static {
    /// Whether two values are the same: the same bits, so that a NaN equals
    /// itself and `-0.0` differs from `0.0`, as a GPU's output buffer shows.
    fn same(&self, other: &Self) -> bool;

    /// Whether two values agree within a relative `tolerance`: the same
    /// bits for every type but `f32`, whose values may also differ by up
    /// to `tolerance` times the larger magnitude (or times 1 below 1), so
    /// that a sum rounded in another order still agrees.
    fn close(&self, other: &Self, tolerance: f32) -> bool {
        let _ = tolerance;
        self.same(other)
    }
}

/// [`Lane::close`] for `f32`s: the same bits, or finite values within
/// `tolerance` of each other, relative above 1 and absolute below.
pub fn f32_close(a: f32, b: f32, tolerance: f32) -> bool {
    // Only finite values round: an infinity or a NaN against anything
    // else (a sum that overflows at one size only, an infinity whose sign
    // flips) is a different answer, whatever the tolerance, and the
    // relative bound, infinite there, would take it for a close one.
    a.to_bits() == b.to_bits()
        || (tolerance > 0.0
            && a.is_finite()
            && b.is_finite()
            && (a - b).abs() <= tolerance * 1f32.max(a.abs()).max(b.abs()))
}

macro_rules! lane_by_eq {
    ($($t:ty),*) => {$(
        impl Lane for $t {
            fn same(&self, other: &Self) -> bool {
                self == other
            }
        }
    )*};
}
lane_by_eq!(bool, u32, i32, SubgroupMask, ());

impl Lane for f32 {
    fn same(&self, other: &Self) -> bool {
        self.to_bits() == other.to_bits()
    }

    fn close(&self, other: &Self, tolerance: f32) -> bool {
        f32_close(*self, *other, tolerance)
    }
}
