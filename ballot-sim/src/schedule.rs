//! Which lanes execute a collective together once control flow has
//! diverged: the execution models of docs/reconvergence.md, and the
//! scheduler both the generated code and the interpreter consult.
//!
//! Under [`Schedule::Maximal`] a collective is executed by exactly the
//! lanes that reach it by the same path, in the same loop iteration. Under
//! [`Schedule::Split`] the lanes of a collective that the model does not
//! promise to keep together are divided into the groups of a partition,
//! each group executing the collective on its own, as if the others were
//! inactive. The partitions are drawn from a seed; the portability oracle
//! can also enumerate them (see [`Script`]).
//!
//! # When a model keeps lanes together
//! The scheduler follows the lanes' *tangle* (the Vulkan spec's word for
//! the lanes that execute an instruction together) through the points
//! where control flow may reconverge, which the if-converted form marks
//! (`ballot_shader::lower::masked::Tangle`):
//! - [`Model::Vulkan`]: the lanes stay one tangle while they only narrow
//!   (branches taken from one tangle). A divergent `if` rejoins at its end
//!   only if it was entered by the whole subgroup, as one tangle, and every
//!   lane left it through its end; so does a loop, for lanes that all left
//!   by `break`. Lanes that all skipped an `if` whose other lanes returned
//!   in it only narrowed. Every other rejoin (after a nested divergent
//!   `if`, after a divergent `return` or `continue` that some of the lanes
//!   still active came back from, in a later iteration of a loop that
//!   some lanes have left) loses the tangle, and the collectives after it
//!   may be split until an enclosing construct rejoins.
//! - [`Model::Wgsl`]: WGSL has no reconvergence rule; its uniformity
//!   analysis proves a collective uniform only where every lane the run
//!   started with executes it. Any collective with fewer lanes may be
//!   split.
//! - [`Model::Independent`]: independent thread scheduling with masks from
//!   `__activemask()`: lanes may part at any divergence and are never
//!   promised to meet again, so every collective after the first
//!   divergence may be split, even with every lane active.

use core::cell::{Cell, RefCell};
use core::fmt;

use ballot_ir::mask::SubgroupMask;
use ballot_ir::op::Op;

/// An execution model: what it promises about the lanes that execute a
/// collective in diverged control flow. docs/reconvergence.md derives each
/// from its spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Model {
    /// `SPV_KHR_maximal_reconvergence`: exactly the lanes that reach the
    /// collective by the same path, in the same iteration. What the
    /// simulator runs by default and what the emulated targets deliver.
    Maximal,
    /// Vulkan without maximal reconvergence: lanes rejoin only at the end
    /// of a construct entered in uniform control flow and left through its
    /// end. Uniformity is taken per subgroup, as
    /// `SubgroupUniformControlFlowKHR` gives it; without that mode Vulkan
    /// asks for the whole workgroup, which promises less when a workgroup
    /// holds several subgroups.
    Vulkan,
    /// WGSL with the `subgroup_uniformity` diagnostic off: only a
    /// collective that every lane executes is uniform.
    Wgsl,
    /// Independent thread scheduling (NVIDIA Volta and later) with the mask
    /// of `__activemask()`: no reconvergence after the first divergence.
    Independent,
}

impl Model {
    /// Every model, strongest promise first.
    pub const ALL: [Model; 4] = [
        Model::Maximal,
        Model::Vulkan,
        Model::Wgsl,
        Model::Independent,
    ];

    /// The model's name, as the oracle and the CLI print it.
    pub const fn name(self) -> &'static str {
        match self {
            Model::Maximal => "maximal",
            Model::Vulkan => "vulkan",
            Model::Wgsl => "wgsl",
            Model::Independent => "independent",
        }
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which lanes execute a collective together once control flow has
/// diverged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Schedule {
    /// Maximal reconvergence: the lanes that reach a collective by the same
    /// path, in the same loop iteration, execute it together. The emulated
    /// targets give this on every device, and `SPV_KHR_maximal_reconvergence`
    /// promises it.
    #[default]
    Maximal,
    /// One of the schedules `model` allows, drawn from `seed`: a collective
    /// whose lanes the model does not promise to keep together is executed
    /// by the groups of a partition of its lanes, each group on its own.
    /// The same seed, kernel and inputs give the same run. A kernel whose
    /// results change under it is not portable to the model; one that runs
    /// every collective in converged control flow never sees a split.
    /// `Split` with [`Model::Maximal`] is [`Schedule::Maximal`].
    Split {
        /// The model whose freedom the schedule uses.
        model: Model,
        /// The seed the partitions are drawn from.
        seed: u64,
    },
}

impl Schedule {
    /// The model the schedule belongs to.
    pub const fn model(self) -> Model {
        match self {
            Schedule::Maximal => Model::Maximal,
            Schedule::Split { model, .. } => model,
        }
    }
}

/// One collective that a schedule split: which operation, which lanes
/// reached it, and the groups that executed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// The operation.
    pub op: Op,
    /// The lanes that reached it.
    pub active: SubgroupMask,
    /// The groups that executed it, each on its own, lowest lane first.
    pub groups: Vec<SubgroupMask>,
}

impl fmt::Display for Split {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} of lanes {{", self.op.glsl_name())?;
        write_lanes(f, self.active)?;
        f.write_str("} as")?;
        for g in &self.groups {
            f.write_str(" {")?;
            write_lanes(f, *g)?;
            f.write_str("}")?;
        }
        Ok(())
    }
}

fn write_lanes(f: &mut fmt::Formatter<'_>, mask: SubgroupMask) -> fmt::Result {
    for (i, lane) in mask.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{lane}")?;
    }
    Ok(())
}

/// A script of choices that replaces a [`Schedule::Split`]'s seed on this
/// thread, for the oracle's exhaustive search, and the record of what the
/// runs did. Installed with [`Script::run`]; the scheduler of every kernel
/// run on the thread in the meantime draws from it.
#[derive(Clone, Debug, Default)]
pub struct Script {
    /// The choices to make, in order, each taken modulo the number of
    /// options; past the end, choice 0.
    pub script: Vec<u32>,
    /// Every choice made: the choice and how many options there were.
    pub made: Vec<(u32, u32)>,
    /// The collectives that were split, in order.
    pub trace: Vec<Split>,
}

thread_local! {
    static SCRIPT: RefCell<Option<Script>> = const { RefCell::new(None) };
}

impl Script {
    /// A script that makes `script`'s choices.
    pub fn new(script: Vec<u32>) -> Self {
        Self {
            script,
            ..Self::default()
        }
    }

    /// Runs `f` with this script installed on the thread, and returns what
    /// it returned and the script with its record.
    pub fn run<R>(self, f: impl FnOnce() -> R) -> (R, Script) {
        SCRIPT.with(|p| *p.borrow_mut() = Some(self));
        let result = f();
        let plan = SCRIPT.with(|p| p.borrow_mut().take()).unwrap_or_default();
        (result, plan)
    }

    /// The script of the next schedule in depth-first order after the one
    /// whose choices were `made`, or `None` after the last.
    pub fn next_script(made: &[(u32, u32)]) -> Option<Vec<u32>> {
        let last = made.iter().rposition(|&(c, n)| c + 1 < n)?;
        let mut script: Vec<u32> = made[..last].iter().map(|&(c, _)| c).collect();
        script.push(made[last].0 + 1);
        Some(script)
    }

    fn installed() -> bool {
        SCRIPT.with(|p| p.borrow().is_some())
    }

    fn choose(options: u32) -> u32 {
        SCRIPT.with(|p| {
            let mut p = p.borrow_mut();
            let Some(plan) = p.as_mut() else { return 0 };
            let i = plan.made.len();
            let c = plan.script.get(i).map_or(0, |&c| c % options);
            plan.made.push((c, options));
            c
        })
    }

    fn record(split: Split) {
        SCRIPT.with(|p| {
            if let Some(plan) = p.borrow_mut().as_mut() {
                plan.trace.push(split);
            }
        });
    }
}

/// The scheduler of one kernel run over one subgroup: the model, the lanes
/// the run started with, whether the active lanes are still one tangle,
/// and the source of its choices.
#[derive(Clone, Debug)]
pub struct Scheduler {
    model: Model,
    /// The lanes the run started with.
    entry: u128,
    /// Whether the active lanes are one tangle ([`Model::Vulkan`]).
    tangled: Cell<bool>,
    /// Whether control flow has diverged ([`Model::Independent`]).
    diverged: Cell<bool>,
    /// The lanes that left an `if` by a jump while the others, skipping
    /// it, kept the tangle: where one of them is active again (a
    /// `continue`'s next iteration, the caller of a function it returned
    /// from), it came back by another path, and the tangle is lost.
    jumped: Cell<u128>,
    /// Whether choices come from the thread's [`Script`].
    planned: bool,
    /// The state seeded choices are drawn from.
    draws: Cell<u64>,
}

impl Scheduler {
    /// The scheduler of a run that starts with lanes `entry`.
    #[inline]
    pub fn new(schedule: Schedule, entry: SubgroupMask) -> Self {
        let (model, seed) = match schedule {
            Schedule::Maximal => (Model::Maximal, 0),
            Schedule::Split { model, seed } => (model, seed),
        };
        Self {
            model,
            entry: entry.bits(),
            tangled: Cell::new(true),
            diverged: Cell::new(false),
            jumped: Cell::new(0),
            planned: model != Model::Maximal && Script::installed(),
            draws: Cell::new(seed),
        }
    }

    /// Whether a model weaker than maximal reconvergence is in force.
    #[inline(always)]
    fn splits(&self) -> bool {
        self.model != Model::Maximal
    }

    /// The groups that execute `op` with lanes `active`, each on its own:
    /// `None` where all of `active` do together.
    #[inline(always)]
    pub fn groups(&self, op: Op, active: u128) -> Option<Vec<u128>> {
        // The test the default schedule pays is this one comparison; the
        // rest stays out of line, out of the kernels' hot loops.
        if !self.splits() || active.count_ones() < 2 {
            return None;
        }
        self.groups_split(op, active)
    }

    #[inline(never)]
    fn groups_split(&self, op: Op, active: u128) -> Option<Vec<u128>> {
        self.back(active);
        let free = match self.model {
            Model::Maximal => false,
            Model::Vulkan => !self.tangled.get(),
            Model::Wgsl => active != self.entry,
            Model::Independent => active != self.entry || self.diverged.get(),
        };
        if !free {
            return None;
        }
        let groups = self.partition(active);
        if groups.len() < 2 {
            return None;
        }
        if self.planned {
            Script::record(Split {
                op,
                active: SubgroupMask::from_bits(active),
                groups: groups.iter().map(|&g| SubgroupMask::from_bits(g)).collect(),
            });
        }
        Some(groups)
    }

    /// A partition of `active`, as a restricted growth string: a coin says
    /// whether to split at all, then each lane after the first joins a group
    /// already open or opens the next. Enumerating the choices enumerates
    /// every partition.
    #[inline(never)]
    fn partition(&self, active: u128) -> Vec<u128> {
        if self.choose(2) == 0 {
            return vec![active];
        }
        let mut groups: Vec<u128> = Vec::new();
        for lane in SubgroupMask::from_bits(active).iter() {
            let g = if groups.is_empty() {
                0
            } else {
                self.choose(groups.len() as u32 + 1) as usize
            };
            if g == groups.len() {
                groups.push(0);
            }
            groups[g] |= 1 << lane;
        }
        groups
    }

    /// A choice among `options`, from the plan or the seed.
    fn choose(&self, options: u32) -> u32 {
        if self.planned {
            Script::choose(options)
        } else {
            (self.draw() % u64::from(options)) as u32
        }
    }

    /// The next number of the seed's sequence (splitmix64).
    fn draw(&self) -> u64 {
        let state = self.draws.get().wrapping_add(0x9E37_79B9_7F4A_7C15);
        self.draws.set(state);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Before an `if` or a loop entered by lanes `active`: whether they
    /// enter it in uniform control flow, as one tangle holding every lane.
    #[inline(always)]
    pub fn enter(&self, active: u128) -> bool {
        if self.splits() {
            self.back(active);
        }
        self.splits() && self.tangled.get() && active == self.entry
    }

    /// Lanes `active` are executing: one that left by a jump and is back
    /// ([`Self::jumped`]) loses the tangle.
    fn back(&self, active: u128) {
        let back = active & self.jumped.get();
        if back != 0 {
            self.jumped.set(self.jumped.get() & !back);
            self.rejoin(false, true);
        }
    }

    /// After an `if` that lanes `outer` entered (`uniform`, from
    /// [`Self::enter`]) and `taken` took, with `after` still active.
    #[inline(always)]
    pub fn join_if(&self, uniform: bool, outer: u128, taken: u128, after: u128) {
        if self.splits() {
            let taken = taken & outer;
            let split = taken != 0 && taken != outer;
            // Every lane still active came by the branch not taken (the
            // others returned): they followed one path, so they only
            // narrowed, and are one tangle if they were one before (SPIR-V
            // 2.2.5: invocations that follow the same control-flow path
            // execute the same dynamic instances). The lanes did part.
            if split && after & taken == 0 {
                self.back(after);
                self.jumped.set(self.jumped.get() | taken);
                self.diverged.set(true);
                return;
            }
            self.back(after);
            self.rejoin(uniform && after == outer, split || after != outer);
        }
    }

    /// At the top of an iteration of a loop that lanes `entry` entered,
    /// with `active` still in it.
    #[inline(always)]
    pub fn iterate(&self, entry: u128, active: u128) {
        if self.splits() {
            self.back(active);
            if active != entry {
                self.rejoin(false, true);
            }
        }
    }

    /// After a loop that lanes `entry` entered (`uniform`, from
    /// [`Self::enter`]), with `after` still active.
    #[inline(always)]
    pub fn join_loop(&self, uniform: bool, entry: u128, after: u128) {
        if self.splits() {
            self.back(after);
            // Lanes left at different iterations only if the tangle was
            // lost in the loop; a lane that returned never rejoins.
            let parted = !self.tangled.get() || after != entry;
            self.rejoin(uniform && after == entry, parted);
        }
    }

    /// Lanes meet at a reconvergence point: a construct entered uniformly
    /// and left through its end restores the tangle; lanes that `parted`
    /// on the way lose it.
    #[inline(never)]
    fn rejoin(&self, uniform_exit: bool, parted: bool) {
        if parted {
            self.diverged.set(true);
        }
        if uniform_exit {
            self.tangled.set(true);
        } else if parted {
            self.tangled.set(false);
        }
    }
}
