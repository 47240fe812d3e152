//! The portability oracle: does a kernel's answer depend on the subgroup
//! size, or on which lanes execute its collectives together?
//!
//! For inputs drawn from a proptest strategy, [`Portability::check`] runs a
//! kernel over one workgroup of up to [`Portability::invocations`]
//! invocations (so the last subgroup is often ragged):
//! - at a reference subgroup size, under maximal reconvergence: the answer
//!   every other run must give;
//! - at every size of [`Portability::sizes`], under maximal reconvergence;
//! - at every size, under every model of [`Portability::models`], with
//!   every schedule the model allows where there are at most
//!   [`Portability::exhaustive`] of them for a subgroup, and otherwise
//!   [`Portability::samples`] drawn at random.
//!
//! Subgroups never exchange values, so each subgroup's schedules are
//! enumerated on their own. Only the kernel's outputs are compared, bit for
//! bit; an input on which the reference run reports undefined behaviour is
//! outside the kernel's contract and is discarded, while undefined
//! behaviour in another run is a difference.
//!
//! A kernel that passes gets a [`Certificate`] that says what was covered.
//! One that fails gets a [`Counterexample`]: proptest shrinks the input,
//! the smallest failing size is kept, the schedule's choices are
//! simplified one by one, and the collectives that the schedule split are
//! listed.

use core::fmt;
use core::marker::PhantomData;

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};

use crate::error::SimError;
use crate::mask::SubgroupMask;
use crate::schedule::{Model, Plan, Schedule, Split};
use crate::sim::{Dispatch, Kernel, Lane, SubgroupSize};

/// The oracle's step budget per run unless set: 2^12 loop iterations.
pub const DEFAULT_STEP_BUDGET: u64 = 1 << 12;

/// A value the oracle can generate for a kernel's parameter: its default
/// strategy.
pub trait Generate: Sized + fmt::Debug {
    /// Values that find portability bugs quickly: small numbers and edge
    /// cases as often as arbitrary ones.
    fn strategy() -> BoxedStrategy<Self>;
}

impl Generate for bool {
    fn strategy() -> BoxedStrategy<Self> {
        any::<bool>().boxed()
    }
}

impl Generate for u32 {
    fn strategy() -> BoxedStrategy<Self> {
        prop_oneof![0..8u32, Just(u32::MAX), any::<u32>()].boxed()
    }
}

impl Generate for i32 {
    fn strategy() -> BoxedStrategy<Self> {
        prop_oneof![-4..8i32, Just(i32::MIN), any::<i32>()].boxed()
    }
}

impl Generate for f32 {
    fn strategy() -> BoxedStrategy<Self> {
        prop_oneof![(-4..8i32).prop_map(|v| v as f32), any::<f32>()].boxed()
    }
}

impl Generate for SubgroupMask {
    fn strategy() -> BoxedStrategy<Self> {
        prop_oneof![
            (0..4u32).prop_map(|n| SubgroupMask::from_bits((1u128 << n) - 1)),
            any::<u128>().prop_map(SubgroupMask::from_bits),
        ]
        .boxed()
    }
}

macro_rules! generate_tuple {
    ($($t:ident),*) => {
        impl<$($t: Generate + 'static),*> Generate for ($($t,)*) {
            fn strategy() -> BoxedStrategy<Self> {
                ($($t::strategy(),)*).boxed()
            }
        }
    };
}
impl Generate for () {
    fn strategy() -> BoxedStrategy<Self> {
        Just(()).boxed()
    }
}

generate_tuple!(A);
generate_tuple!(A, B);
generate_tuple!(A, B, C);
generate_tuple!(A, B, C, D);
generate_tuple!(A, B, C, D, E);
generate_tuple!(A, B, C, D, E, F);
generate_tuple!(A, B, C, D, E, F, G);
generate_tuple!(A, B, C, D, E, F, G, H);

/// What the oracle checks: a kernel and a way to run it over a workgroup.
pub trait Subject {
    /// One invocation's per-lane arguments.
    type Lane: Clone + fmt::Debug;
    /// The uniform arguments.
    type Uniform: Clone + fmt::Debug;
    /// One invocation's result.
    type Output: Clone + fmt::Debug;
    /// What a run reports instead of results: undefined behaviour.
    type Error: Clone + PartialEq + fmt::Display;

    /// The kernel's name.
    fn name(&self) -> &str;

    /// Runs the kernel over every subgroup of `dispatch`, one entry of
    /// `lanes` per invocation.
    ///
    /// # Errors
    /// What the run reports.
    fn run(
        &self,
        dispatch: &Dispatch,
        uniform: &Self::Uniform,
        lanes: &[Self::Lane],
    ) -> Result<Vec<Self::Output>, Self::Error>;

    /// Whether two results are the same, as an output buffer shows them.
    fn same(a: &Self::Output, b: &Self::Output) -> bool;

    /// Why a run that reported `error` ran nothing the oracle can compare,
    /// in the words of a report that no input could be checked: the
    /// error's message unless the subject knows better (a step budget that
    /// ran out, calls that recurse).
    fn explain(error: &Self::Error) -> String {
        error.to_string()
    }
}

/// [`Subject::explain`] for a run that ran past the oracle's step budget.
fn past_budget(budget: u64) -> String {
    format!(
        "every run ran past the step budget of {budget} loop iterations \
         (`Portability::step_budget`): the kernel most likely never ends"
    )
}

/// A kernel compiled by `#[ballot::kernel]`, run natively.
pub struct Native<K>(PhantomData<K>);

impl<K> Default for Native<K> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

impl<K: Kernel> Subject for Native<K> {
    type Lane = K::Lane;
    type Uniform = K::Uniform;
    type Output = K::Output;
    type Error = SimError;

    fn name(&self) -> &str {
        K::NAME
    }

    fn run(
        &self,
        dispatch: &Dispatch,
        uniform: &K::Uniform,
        lanes: &[K::Lane],
    ) -> Result<Vec<K::Output>, SimError> {
        K::run_invocations(dispatch, uniform, lanes)
    }

    fn same(a: &K::Output, b: &K::Output) -> bool {
        a.same(b)
    }

    fn explain(error: &SimError) -> String {
        match error {
            SimError::StepBudget { budget, .. } => past_budget(*budget),
            other => other.to_string(),
        }
    }
}

/// One input of the oracle: the uniform arguments and one entry of
/// per-lane arguments per invocation of the workgroup.
pub struct Input<S: Subject> {
    /// The uniform arguments.
    pub uniform: S::Uniform,
    /// The per-lane arguments, one entry per invocation.
    pub lanes: Vec<S::Lane>,
}

/// `kernel::portability()`: the oracle's builder, on every kernel.
pub trait Portable: Kernel + Sized + 'static {
    /// The oracle for this kernel, with its default settings and inputs
    /// drawn from each parameter type's [`Generate`] strategy.
    fn portability() -> Portability<Native<Self>>
    where
        Self::Lane: Generate,
        Self::Uniform: Generate,
    {
        Portability::new(Native::default(), default_inputs::<Native<Self>>(1, 160))
    }
}

impl<K: Kernel + 'static> Portable for K {}

/// Inputs of `min..=max` invocations from the types' [`Generate`]
/// strategies.
fn default_inputs<S>(min: usize, max: usize) -> BoxedStrategy<Input<S>>
where
    S: Subject + 'static,
    S::Lane: Generate + 'static,
    S::Uniform: Generate + 'static,
{
    let lanes = proptest::collection::vec(S::Lane::strategy(), min..=max);
    (S::Uniform::strategy(), lanes)
        .prop_map(|(uniform, lanes)| Input::<S> { uniform, lanes })
        .boxed()
}

/// An invalid setting of the oracle, named.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// A setting's value is out of its range.
    #[error("invalid `{option}`: {reason}")]
    Invalid {
        /// The setting, as its builder method is named.
        option: &'static str,
        /// What is wrong with it.
        reason: String,
    },
}

/// Why [`Portability::check`] did not certify the kernel.
#[derive(thiserror::Error)]
pub enum PortabilityError<S: Subject> {
    /// The kernel's answer depends on the subgroup size or the schedule.
    #[error("{0}")]
    NotPortable(Box<Counterexample<S>>),
    /// A setting is invalid.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// Too few inputs were inside the kernel's contract: the reference run
    /// reported undefined behaviour on the others.
    #[error("kernel `{kernel}`: {reason}")]
    Inputs {
        /// The kernel.
        kernel: String,
        /// proptest's account.
        reason: String,
    },
    /// The check compared nothing: every input drawn was outside the
    /// kernel's contract (its runs never ended, or their calls recurse), or
    /// no schedule ran although models were asked for. Never a
    /// certificate: a kernel the oracle did not run is not portable.
    #[error("kernel `{kernel}` was not checked: {reason}")]
    NotRun {
        /// The kernel.
        kernel: String,
        /// Why nothing ran, with what the runs reported.
        reason: String,
    },
}

/// The oracle's settings for one kernel. Build it with
/// `kernel::portability()` ([`Portable`]).
pub struct Portability<S: Subject> {
    /// The kernel and its runner.
    subject: S,
    sizes: Vec<u32>,
    models: Vec<Model>,
    reference: u32,
    size_is_contract: bool,
    cases: u32,
    exhaustive: u32,
    samples: u32,
    seed: u64,
    step_budget: u64,
    invocations: Option<(usize, usize)>,
    inputs: BoxedStrategy<Input<S>>,
}

impl<S: Subject> fmt::Debug for Portability<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Portability")
            .field("kernel", &self.subject.name())
            .field("sizes", &self.sizes)
            .field("models", &self.models)
            .field("reference", &self.reference)
            .field("size_is_contract", &self.size_is_contract)
            .field("cases", &self.cases)
            .field("exhaustive", &self.exhaustive)
            .field("samples", &self.samples)
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

impl<S: Subject> Portability<S> {
    /// The oracle for `subject`, with inputs drawn from `inputs` and
    /// default settings: every subgroup size from 1 to 128 against a
    /// reference size of 32, the Vulkan, WGSL and independent-thread
    /// models, 64 inputs, every schedule of a subgroup where there are at
    /// most 256, else 32 drawn, and [`DEFAULT_STEP_BUDGET`] per run.
    pub fn new(subject: S, inputs: impl Strategy<Value = Input<S>> + 'static) -> Self {
        Self {
            subject,
            sizes: SubgroupSize::all().map(SubgroupSize::get).collect(),
            models: vec![Model::Vulkan, Model::Wgsl, Model::Independent],
            reference: 32,
            size_is_contract: false,
            cases: 64,
            exhaustive: 256,
            samples: 32,
            seed: 0,
            step_budget: DEFAULT_STEP_BUDGET,
            invocations: None,
            inputs: inputs.boxed(),
        }
    }

    /// The subgroup sizes to run at.
    #[must_use]
    pub fn sizes(mut self, sizes: impl IntoIterator<Item = u32>) -> Self {
        self.sizes = sizes.into_iter().collect();
        self
    }

    /// The execution models whose schedules to run; [`Model::Maximal`]
    /// adds nothing, since every size runs under it anyway.
    #[must_use]
    pub fn models(mut self, models: impl IntoIterator<Item = Model>) -> Self {
        self.models = models.into_iter().collect();
        self
    }

    /// The inputs: uniform arguments and one entry of per-lane arguments
    /// per invocation.
    #[must_use]
    pub fn inputs(mut self, inputs: impl Strategy<Value = Input<S>> + 'static) -> Self {
        self.inputs = inputs.boxed();
        self
    }

    /// Draws per-lane inputs for workgroups of `min..=max` invocations,
    /// from each parameter type's default strategy (1 to 160 unless set).
    #[must_use]
    pub fn invocations(mut self, min: usize, max: usize) -> Self
    where
        S::Lane: Generate + 'static,
        S::Uniform: Generate + 'static,
        S: 'static,
    {
        self.invocations = Some((min, max));
        if min >= 1 && min <= max {
            self.inputs = default_inputs::<S>(min, max);
        }
        self
    }

    /// The size whose maximal-reconvergence run is the reference (32
    /// unless set).
    #[must_use]
    pub fn reference(mut self, size: u32) -> Self {
        self.reference = size;
        self
    }

    /// Declares that the answer may depend on the subgroup size: a kernel
    /// that reads `subgroup_size()` on purpose, or whose outputs are
    /// positions within its subgroup. Each size is then compared with its
    /// own maximal-reconvergence run, and only the schedules are checked.
    #[must_use]
    pub fn size_is_contract(mut self) -> Self {
        self.size_is_contract = true;
        self
    }

    /// How many inputs to run (64 unless set).
    #[must_use]
    pub fn cases(mut self, cases: u32) -> Self {
        self.cases = cases;
        self
    }

    /// Enumerates every schedule of a subgroup that has at most this many
    /// (256 unless set); 0 samples always.
    #[must_use]
    pub fn exhaustive(mut self, limit: u32) -> Self {
        self.exhaustive = limit;
        self
    }

    /// How many schedules to draw for a subgroup with too many to
    /// enumerate, per model (32 unless set).
    #[must_use]
    pub fn samples(mut self, samples: u32) -> Self {
        self.samples = samples;
        self
    }

    /// The seed of the inputs and of the drawn schedules (0 unless set):
    /// the same seed gives the same check.
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// How many loop iterations one run over a subgroup may take
    /// ([`DEFAULT_STEP_BUDGET`] unless set). An input on which the
    /// reference run takes more is outside the kernel's contract, like one
    /// with undefined behaviour; a small budget keeps a kernel whose loops
    /// count up to an input value from running for minutes.
    #[must_use]
    pub fn step_budget(mut self, steps: u64) -> Self {
        self.step_budget = steps;
        self
    }

    fn validate(&self) -> Result<Settings, OptionError> {
        let invalid = |option, reason: String| OptionError::Invalid { option, reason };
        let mut sizes = Vec::new();
        for &s in &self.sizes {
            let size = SubgroupSize::new(s).map_err(|e| invalid("sizes", e.to_string()))?;
            if !sizes.contains(&size) {
                sizes.push(size);
            }
        }
        if sizes.is_empty() {
            return Err(invalid("sizes", "no subgroup size to run".into()));
        }
        sizes.sort();
        let reference =
            SubgroupSize::new(self.reference).map_err(|e| invalid("reference", e.to_string()))?;
        if self.cases == 0 {
            return Err(invalid("cases", "no input to run".into()));
        }
        if let Some((min, max)) = self.invocations {
            if min == 0 || min > max {
                return Err(invalid(
                    "invocations",
                    format!("{min}..={max} is not a non-empty range of at least 1"),
                ));
            }
        }
        let mut models: Vec<Model> = self
            .models
            .iter()
            .copied()
            .filter(|&m| m != Model::Maximal)
            .collect();
        models.sort();
        models.dedup();
        if self.samples == 0 && self.exhaustive == 0 && !models.is_empty() {
            return Err(invalid(
                "samples",
                "0 samples and no exhaustive search run no schedule".into(),
            ));
        }
        if self.step_budget == 0 {
            return Err(invalid("step_budget", "no loop iteration allowed".into()));
        }
        Ok(Settings {
            step_budget: self.step_budget,
            sizes,
            models,
            reference,
            size_is_contract: self.size_is_contract,
            exhaustive: self.exhaustive,
            samples: self.samples,
            seed: self.seed,
        })
    }

    /// Runs the oracle.
    ///
    /// # Errors
    /// A [`Counterexample`] if the kernel's answer depends on the size or
    /// the schedule; an invalid setting, named; too many inputs outside
    /// the kernel's contract; or [`PortabilityError::NotRun`] where
    /// nothing was compared (no input inside the contract, or no schedule
    /// run although models were asked for), saying why.
    pub fn check(self) -> Result<Certificate, PortabilityError<S>> {
        let settings = self.validate()?;
        let config = Config {
            cases: self.cases,
            failure_persistence: None,
            max_global_rejects: self.cases.saturating_mul(16).max(1024),
            max_shrink_iters: 16_384,
            ..Config::default()
        };
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&self.seed.to_le_bytes());
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
        let mut runner = TestRunner::new_with_rng(config, rng);
        let tally = core::cell::RefCell::new(Tally::default());
        // How many inputs were outside the contract, and what the first
        // one's runs reported: the account of a check that ran nothing.
        let rejected = core::cell::RefCell::new((0u64, None::<String>));
        // A kernel whose first inputs are all outside its contract most
        // likely has none inside (it never ends, or it recurses), and each
        // of its runs takes the whole step budget: after `give_up` of them
        // the rest are rejected unrun, which ends the check in an error as
        // surely, and in a fraction of the time.
        let give_up = u64::from(self.cases.clamp(16, 64));
        let hopeless = core::cell::Cell::new(false);
        let result = runner.run(&self.inputs, |input| {
            if hopeless.get() {
                return Err(TestCaseError::reject("no input is inside the contract"));
            }
            let mut tally = tally.borrow_mut();
            match settings.input(&self.subject, &input, &mut tally) {
                Verdict::Same => Ok(()),
                Verdict::Outside(why) => {
                    let mut rejected = rejected.borrow_mut();
                    rejected.0 += 1;
                    rejected.1.get_or_insert(why);
                    hopeless.set(tally.inputs == 0 && rejected.0 >= give_up);
                    Err(TestCaseError::reject("outside the kernel's contract"))
                }
                Verdict::Differs(_) => Err(TestCaseError::fail("differs")),
            }
        });
        let kernel = || self.subject.name().to_owned();
        let (rejected, why) = rejected.into_inner();
        let why = why.unwrap_or_else(|| "no run reported why".into());
        let runs = if settings.size_is_contract {
            "its run at every subgroup size".to_string()
        } else {
            format!(
                "its reference run (size {}, maximal reconvergence)",
                settings.reference
            )
        };
        match result {
            Ok(()) => {
                let tally = tally.into_inner();
                // A kernel with no input run, or with no schedule run where
                // models were asked for, would get a certificate of nothing.
                if tally.inputs == 0 {
                    return Err(PortabilityError::NotRun {
                        kernel: kernel(),
                        reason: format!("no input was run: {why}"),
                    });
                }
                if !settings.models.is_empty() && tally.schedules == 0 {
                    return Err(PortabilityError::NotRun {
                        kernel: kernel(),
                        reason: "no schedule of the models asked for was run".into(),
                    });
                }
                Ok(Certificate {
                    kernel: self.subject.name().to_owned(),
                    sizes: settings.sizes,
                    reference: (!settings.size_is_contract).then_some(settings.reference),
                    models: settings.models,
                    inputs: tally.inputs,
                    invocations: tally.invocations,
                    schedules: tally.schedules,
                    split: tally.split,
                    enumerated: tally.enumerated,
                    sampled: tally.sampled,
                })
            }
            Err(TestError::Fail(_, input)) => {
                let mut tally = Tally::default();
                match settings.input(&self.subject, &input, &mut tally) {
                    Verdict::Differs(found) => {
                        Err(PortabilityError::NotPortable(Box::new(Counterexample {
                            input,
                            ..*found
                        })))
                    }
                    _ => Err(PortabilityError::Inputs {
                        kernel: kernel(),
                        reason: "a failure did not repeat on its shrunk input".into(),
                    }),
                }
            }
            Err(TestError::Abort(_)) if tally.borrow().inputs == 0 => {
                Err(PortabilityError::NotRun {
                    kernel: kernel(),
                    reason: format!(
                        "all {rejected} inputs drawn were outside its contract, since \
                         {runs} failed on each: {why}"
                    ),
                })
            }
            Err(TestError::Abort(reason)) => Err(PortabilityError::Inputs {
                kernel: kernel(),
                reason: format!(
                    "{reason}: {rejected} inputs were outside its contract, the first \
                     since {runs} failed: {why}"
                ),
            }),
        }
    }
}

/// The validated settings.
struct Settings {
    step_budget: u64,
    sizes: Vec<SubgroupSize>,
    models: Vec<Model>,
    reference: SubgroupSize,
    size_is_contract: bool,
    exhaustive: u32,
    samples: u32,
    seed: u64,
}

#[derive(Default)]
struct Tally {
    inputs: u64,
    invocations: (usize, usize),
    schedules: u64,
    split: u64,
    enumerated: u64,
    sampled: u64,
}

enum Verdict<S: Subject> {
    Same,
    /// Outside the kernel's contract, and why ([`Subject::explain`]).
    Outside(String),
    Differs(Box<Counterexample<S>>),
}

/// A run's results, or what it reported instead.
pub type Outcome<S> = Result<Vec<<S as Subject>::Output>, <S as Subject>::Error>;

fn same<S: Subject>(a: &Outcome<S>, b: &Outcome<S>) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| S::same(x, y)),
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

/// Runs `lanes` as one workgroup of `size`, under `schedule`, with the
/// thread's plan making the choices when one is installed.
fn run<S: Subject>(
    subject: &S,
    uniform: &S::Uniform,
    lanes: &[S::Lane],
    (size, budget): (SubgroupSize, u64),
    schedule: Schedule,
) -> Outcome<S> {
    let dispatch = Dispatch::new([lanes.len() as u32, 1, 1], size.get(), [1, 1, 1])
        .expect("a workgroup of at least one invocation and a valid size")
        .with_step_budget(budget)
        .with_schedule(schedule);
    subject.run(&dispatch, uniform, lanes)
}

fn planned<S: Subject>(
    subject: &S,
    uniform: &S::Uniform,
    lanes: &[S::Lane],
    size: (SubgroupSize, u64),
    model: Model,
    script: Vec<u32>,
) -> (Outcome<S>, Plan) {
    let schedule = Schedule::Split { model, seed: 0 };
    Plan::new(script).run(|| run(subject, uniform, lanes, size, schedule))
}

impl Settings {
    /// Checks one input.
    fn input<S: Subject>(&self, subject: &S, input: &Input<S>, tally: &mut Tally) -> Verdict<S> {
        let n = input.lanes.len();
        let reference = run(
            subject,
            &input.uniform,
            &input.lanes,
            (self.reference, self.step_budget),
            Schedule::Maximal,
        );
        if !self.size_is_contract {
            if let Err(e) = &reference {
                return Verdict::Outside(S::explain(e));
            }
        }
        // Where the size is in the contract, a size whose own run fails is
        // outside it, and an input with no size left is outside it too.
        let mut outside = None;
        let mut compared = 0usize;
        for &size in &self.sizes {
            let at_size = run(
                subject,
                &input.uniform,
                &input.lanes,
                (size, self.step_budget),
                Schedule::Maximal,
            );
            let expected = if self.size_is_contract {
                if let Err(e) = &at_size {
                    outside.get_or_insert_with(|| S::explain(e));
                    continue;
                }
                &at_size
            } else {
                &reference
            };
            compared += 1;
            if !same::<S>(&at_size, expected) {
                return Verdict::Differs(Box::new(Counterexample {
                    kernel: subject.name().to_owned(),
                    input: input.clone(),
                    size,
                    reference: if self.size_is_contract {
                        size
                    } else {
                        self.reference
                    },
                    expected: expected.clone(),
                    model: Model::Maximal,
                    subgroup: None,
                    choices: Vec::new(),
                    got: at_size,
                    trace: Vec::new(),
                }));
            }
            // Subgroups run independently: each one's schedules are
            // searched with the others' inputs left out.
            let s = size.as_usize();
            for (index, chunk) in input.lanes.chunks(s).enumerate() {
                let first = index * s;
                let want: Outcome<S> = expected
                    .as_ref()
                    .map(|v| v[first..first + chunk.len()].to_vec())
                    .map_err(Clone::clone);
                for &model in &self.models {
                    if let Some(found) =
                        self.schedules(subject, &input.uniform, chunk, size, model, &want, tally)
                    {
                        let (choices, got, trace) = found;
                        return Verdict::Differs(Box::new(Counterexample {
                            kernel: subject.name().to_owned(),
                            input: input.clone(),
                            size,
                            reference: if self.size_is_contract {
                                size
                            } else {
                                self.reference
                            },
                            expected: want,
                            model,
                            subgroup: Some(index),
                            choices,
                            got,
                            trace,
                        }));
                    }
                }
            }
        }
        if compared == 0 {
            return Verdict::Outside(outside.unwrap_or_else(|| "no size was run".into()));
        }
        tally.inputs += 1;
        tally.invocations = if tally.inputs == 1 {
            (n, n)
        } else {
            (tally.invocations.0.min(n), tally.invocations.1.max(n))
        };
        Verdict::Same
    }

    /// Runs one subgroup's schedules under `model`: every one while there
    /// are at most `exhaustive`, else `samples` drawn. Returns the first
    /// that differs from `want`, simplified.
    #[allow(clippy::too_many_arguments)]
    fn schedules<S: Subject>(
        &self,
        subject: &S,
        uniform: &S::Uniform,
        lanes: &[S::Lane],
        size: SubgroupSize,
        model: Model,
        want: &Outcome<S>,
        tally: &mut Tally,
    ) -> Option<(Vec<u32>, Outcome<S>, Vec<Split>)> {
        let differs = |script: &[u32]| {
            let (got, plan) = planned(
                subject,
                uniform,
                lanes,
                (size, self.step_budget),
                model,
                script.to_vec(),
            );
            (!same::<S>(&got, want)).then_some((got, plan))
        };
        let found = |script: Vec<u32>| {
            let (got, plan) = simplify(script, differs);
            // The choices the simplified run made, which is its schedule.
            let made = plan.made.iter().map(|&(c, _)| c).collect();
            (made, got, plan.trace)
        };
        // Depth-first over the choices, while within the limit.
        let mut next = Some(Vec::new());
        let mut runs = 0u32;
        while runs < self.exhaustive {
            let Some(current) = next.take() else { break };
            let (got, plan) = planned(
                subject,
                uniform,
                lanes,
                (size, self.step_budget),
                model,
                current.clone(),
            );
            runs += 1;
            tally.schedules += 1;
            tally.split += u64::from(!plan.trace.is_empty());
            if !same::<S>(&got, want) {
                return Some(found(current));
            }
            next = Plan::next_script(&plan.made);
        }
        if next.is_none() {
            tally.enumerated += 1;
            return None;
        }
        // Too many to enumerate: draw.
        tally.sampled += 1;
        let mut draws = TestRng::from_seed(RngAlgorithm::ChaCha, &{
            let mut s = [0u8; 32];
            s[..8].copy_from_slice(&self.seed.to_le_bytes());
            s[8..12].copy_from_slice(&size.get().to_le_bytes());
            s[12..20].copy_from_slice(&(lanes.len() as u64).to_le_bytes());
            s[20] = model as u8;
            s
        });
        for _ in 0..self.samples {
            let script: Vec<u32> = (0..4 * size.get()).map(|_| draws.next_u32()).collect();
            let (got, plan) = planned(
                subject,
                uniform,
                lanes,
                (size, self.step_budget),
                model,
                script.clone(),
            );
            tally.schedules += 1;
            tally.split += u64::from(!plan.trace.is_empty());
            if !same::<S>(&got, want) {
                return Some(found(script));
            }
        }
        None
    }
}

/// Sets each choice of a failing `script` to 0, from the last, wherever
/// the run still fails, and returns the last failing run: the
/// counterexample then splits as few collectives, into as few groups, as
/// it can.
fn simplify<R>(mut script: Vec<u32>, differs: impl Fn(&[u32]) -> Option<R>) -> R {
    let mut last = differs(&script).expect("a failing script fails again");
    for i in (0..script.len()).rev() {
        if script[i] == 0 {
            continue;
        }
        let mut simpler = script.clone();
        simpler[i] = 0;
        if let Some(r) = differs(&simpler) {
            script = simpler;
            last = r;
        }
    }
    last
}

/// What the oracle covered for a kernel it found portable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The kernel.
    pub kernel: String,
    /// The subgroup sizes run.
    pub sizes: Vec<SubgroupSize>,
    /// The size every run was compared with, or `None` where the size is
    /// part of the contract and each size was compared with its own run.
    pub reference: Option<SubgroupSize>,
    /// The models whose schedules were run.
    pub models: Vec<Model>,
    /// The inputs inside the kernel's contract that were run.
    pub inputs: u64,
    /// The fewest and most invocations of their workgroups.
    pub invocations: (usize, usize),
    /// The schedules run, over every input, size, subgroup and model.
    pub schedules: u64,
    /// Those of them that split a collective.
    pub split: u64,
    /// Subgroups (for one model) whose every schedule was run.
    pub enumerated: u64,
    /// Subgroups (for one model) with too many schedules, of which some
    /// were drawn.
    pub sampled: u64,
}

impl fmt::Display for Certificate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |items: Vec<String>| items.join(", ");
        write!(f, "kernel `{}` is portable: ", self.kernel)?;
        write!(
            f,
            "{} inputs of {} to {} invocations; subgroup sizes {}",
            self.inputs,
            self.invocations.0,
            self.invocations.1,
            list(self.sizes.iter().map(|s| s.to_string()).collect())
        )?;
        match self.reference {
            Some(r) => write!(f, ", each compared with size {r}")?,
            None => f.write_str(", each compared with itself (size is part of the contract)")?,
        }
        write!(
            f,
            "; models maximal, {}: {} schedules ({} splitting a collective), every schedule of {} subgroups and a sample of {}",
            list(self.models.iter().map(|m| m.to_string()).collect()),
            self.schedules,
            self.split,
            self.enumerated,
            self.sampled
        )
    }
}

/// A shrunk input on which a kernel's answer changes, and the two runs
/// that show it.
pub struct Counterexample<S: Subject> {
    /// The kernel.
    pub kernel: String,
    /// The input, shrunk.
    pub input: Input<S>,
    /// The smallest subgroup size at which the answer changes.
    pub size: SubgroupSize,
    /// The size of the reference run, under maximal reconvergence.
    pub reference: SubgroupSize,
    /// The reference's answer (for the subgroup, where one is named).
    pub expected: Outcome<S>,
    /// The model of the differing run: [`Model::Maximal`] where the size
    /// alone changes the answer.
    pub model: Model,
    /// The subgroup whose schedule changes the answer, counted from 0.
    pub subgroup: Option<usize>,
    /// The schedule's choices (for [`crate::schedule::Plan`]).
    pub choices: Vec<u32>,
    /// The differing run's answer.
    pub got: Outcome<S>,
    /// The collectives the schedule split.
    pub trace: Vec<Split>,
}

impl<S: Subject> fmt::Display for Counterexample<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.input.lanes.len();
        writeln!(f, "kernel `{}` is not portable", self.kernel)?;
        writeln!(
            f,
            "  input: {} invocations, uniform {:?}, lanes {:?}",
            n, self.input.uniform, self.input.lanes
        )?;
        let outcome = |o: &Outcome<S>| match o {
            Ok(v) => format!("{v:?}"),
            Err(e) => format!("error: {e}"),
        };
        match self.subgroup {
            None => {
                writeln!(
                    f,
                    "  subgroup size {} (maximal reconvergence): {}",
                    self.reference,
                    outcome(&self.expected)
                )?;
                write!(
                    f,
                    "  subgroup size {} (maximal reconvergence): {}",
                    self.size,
                    outcome(&self.got)
                )
            }
            Some(index) => {
                let s = self.size.as_usize();
                let last = (index * s + s).min(n);
                writeln!(
                    f,
                    "  subgroup {index} at size {} (invocations {}..{last}):",
                    self.size,
                    index * s
                )?;
                writeln!(
                    f,
                    "    maximal reconvergence{}: {}",
                    if self.reference == self.size {
                        String::new()
                    } else {
                        format!(" at size {}", self.reference)
                    },
                    outcome(&self.expected)
                )?;
                write!(
                    f,
                    "    {} schedule (choices {:?}): {}",
                    self.model,
                    self.choices,
                    outcome(&self.got)
                )?;
                for split in &self.trace {
                    write!(f, "\n      {split}")?;
                }
                Ok(())
            }
        }
    }
}

impl<S: Subject> fmt::Debug for PortabilityError<S> {
    /// The report itself, so that `unwrap` in a test prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl<S: Subject> fmt::Debug for Counterexample<S> {
    /// The report itself, so that `unwrap` in a test prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl<S: Subject> Clone for Input<S> {
    fn clone(&self) -> Self {
        Self {
            uniform: self.uniform.clone(),
            lanes: self.lanes.clone(),
        }
    }
}

impl<S: Subject> fmt::Debug for Input<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Input")
            .field("uniform", &self.uniform)
            .field("lanes", &self.lanes)
            .finish()
    }
}

/// A kernel run by the IR interpreter: for tools that have a kernel's IR
/// but not its compiled code, such as `ballot portability FILE.rs`.
#[cfg(feature = "interp")]
pub struct Interpreted<'k> {
    interp: crate::interp::Interpreter<'k>,
    kernel: &'k crate::ir::Kernel,
    /// The name reports give it, where not the kernel's own.
    name: Option<String>,
}

#[cfg(feature = "interp")]
impl<'k> Interpreted<'k> {
    /// Kernel `name` of `kernels`, which holds every kernel it calls.
    /// `None` if there is no such kernel.
    pub fn new(kernels: &'k [crate::ir::Kernel], name: &str) -> Option<Self> {
        let interp = crate::interp::Interpreter::new(kernels);
        let kernel = interp.kernel(name)?;
        Some(Self {
            interp,
            kernel,
            name: None,
        })
    }

    /// Names the kernel `name` in reports (its certificate, its
    /// counterexample): its path, say, where kernels of several modules
    /// share a name.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The oracle for this kernel, with inputs from each parameter type's
    /// [`Generate`] strategy, for workgroups of 1 to 160 invocations.
    pub fn portability(self) -> Portability<Self> {
        let value = |ty: crate::ir::Type| -> BoxedStrategy<crate::interp::Value> {
            use crate::interp::Value;
            use crate::ir::Type;
            match ty {
                Type::Bool => bool::strategy().prop_map(Value::Bool).boxed(),
                Type::U32 => u32::strategy().prop_map(Value::U32).boxed(),
                Type::I32 => i32::strategy().prop_map(Value::I32).boxed(),
                Type::F32 => f32::strategy().prop_map(Value::F32).boxed(),
                Type::Mask => SubgroupMask::strategy().prop_map(Value::Mask).boxed(),
            }
        };
        let (mut lane, mut uniform) = (Vec::new(), Vec::new());
        for (i, param) in self.kernel.params.iter().enumerate() {
            let s = value(self.kernel.param_type(i));
            if param.uniform {
                uniform.push(s);
            } else {
                lane.push(s);
            }
        }
        let inputs = (uniform, proptest::collection::vec(lane, 1..=160))
            .prop_map(|(uniform, lanes)| Input::<Self> { uniform, lanes });
        Portability::new(self, inputs)
    }
}

#[cfg(feature = "interp")]
impl Subject for Interpreted<'_> {
    /// One value per per-lane parameter, in order.
    type Lane = Vec<crate::interp::Value>;
    /// One value per uniform parameter, in order.
    type Uniform = Vec<crate::interp::Value>;
    type Output = crate::interp::Value;
    type Error = crate::interp::InterpError;

    fn name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.kernel.name)
    }

    fn run(
        &self,
        dispatch: &Dispatch,
        uniform: &Self::Uniform,
        lanes: &[Self::Lane],
    ) -> Result<Vec<Self::Output>, Self::Error> {
        use crate::interp::Arg;
        let (mut u, mut l) = (uniform.iter(), 0);
        let args: Vec<Arg> = self
            .kernel
            .params
            .iter()
            .map(|param| {
                if param.uniform {
                    Arg::Uniform(u.next().copied().unwrap_or(crate::interp::Value::Unit))
                } else {
                    let column = lanes.iter().map(|v| v[l]).collect();
                    l += 1;
                    Arg::PerLane(column)
                }
            })
            .collect();
        self.interp.run_dispatch(&self.kernel.name, dispatch, &args)
    }

    fn same(a: &Self::Output, b: &Self::Output) -> bool {
        a.bit_eq(*b)
    }

    fn explain(error: &Self::Error) -> String {
        use crate::interp::InterpError;
        match error {
            InterpError::IterationLimit { limit, .. } => past_budget(*limit),
            InterpError::CallDepth { kernel, limit } => format!(
                "calls nest deeper than {limit} at `{kernel}`: the kernels' calls recurse, \
                 and kernels cannot recurse"
            ),
            other => other.to_string(),
        }
    }
}

#[cfg(all(test, feature = "interp", feature = "macros"))]
mod tests {
    use super::*;

    /// Two kernels that call each other, lowered one at a time so that no
    /// file's check refuses them first: the IR a tool might build.
    fn ping_pong() -> Vec<crate::ir::Kernel> {
        [
            "fn ping(x: u32) -> u32 { let r: u32 = pong(x); r }",
            "fn pong(x: u32) -> u32 { let r: u32 = ping(x); r }",
        ]
        .iter()
        .map(|source| {
            crate::front::lower_source(source)
                .expect("it lowers")
                .kernel
        })
        .collect()
    }

    #[test]
    fn kernels_that_recurse_are_an_error_naming_the_recursion_never_a_certificate() {
        let kernels = ping_pong();
        let oracle = || {
            Interpreted::new(&kernels, "ping")
                .expect("a kernel of that name")
                .portability()
                .cases(4)
                .sizes([4, 32])
        };
        for result in [
            oracle().models([]).check(),
            oracle().size_is_contract().models([Model::Wgsl]).check(),
        ] {
            match result {
                Err(PortabilityError::NotRun { kernel, reason }) => {
                    assert_eq!(kernel, "ping");
                    assert!(reason.contains("kernels cannot recurse"), "{reason}");
                    assert!(reason.contains("outside its contract"), "{reason}");
                }
                Err(e) => panic!("expected a check that ran nothing, got: {e}"),
                Ok(c) => panic!("a kernel the oracle never ran was certified: {c}"),
            }
        }
    }
}
