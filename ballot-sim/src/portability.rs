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
//!
//! This file holds the builder and its settings; `subjects` what the
//! oracle runs and the inputs it draws, `search` the runs and the
//! shrinking, `report` the certificate and the counterexample,
//! `interpreted` the IR interpreter as a subject.

use core::fmt;

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};

use crate::schedule::{Model, Schedule, Script, Split};
use crate::sim::{Dispatch, SubgroupSize};
use ballot_ir::mask::SubgroupMask;

/// The oracle's step budget per run unless set: 2^12 loop iterations.
pub const DEFAULT_STEP_BUDGET: u64 = 1 << 12;

/// The most inputs a check takes per kernel: 2^16, a thousand times the
/// default of 64, which already takes seconds; more would run for days
/// and show nothing.
pub const MAX_CASES: u32 = 1 << 16;

/// An invalid setting of the oracle, named.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
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
    Option(#[from] SettingError),
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
    tolerance: f32,
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
            .field("tolerance", &self.tolerance)
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
            tolerance: 0.0,
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

    /// How far `f32` outputs may differ and still count as the same
    /// answer (0 unless set: bit for bit): within `tolerance` times the
    /// larger magnitude, or times 1 below 1. No spec fixes the order in
    /// which `subgroup_f_add` and the other float collectives combine the
    /// lanes, so a float result that changes with the size or the
    /// schedule only by rounding is not portable bit for bit; a tolerance
    /// says how much rounding the caller accepts. It must be finite and
    /// at least 0.
    #[must_use]
    pub fn tolerance(mut self, tolerance: f32) -> Self {
        self.tolerance = tolerance;
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

    /// The first invalid setting, as [`Portability::check`] would report
    /// it, without running anything: for a tool that checks its options
    /// before its output begins.
    #[must_use]
    pub fn setting_error(&self) -> Option<SettingError> {
        self.validate().err()
    }

    fn validate(&self) -> Result<Settings, SettingError> {
        let invalid = |option, reason: String| SettingError::Invalid { option, reason };
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
        if self.cases > MAX_CASES {
            return Err(invalid(
                "cases",
                format!("{} is more than {MAX_CASES}", self.cases),
            ));
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
        if !(self.tolerance.is_finite() && self.tolerance >= 0.0) {
            return Err(invalid(
                "tolerance",
                format!("{} is not a finite number of at least 0", self.tolerance),
            ));
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
            tolerance: self.tolerance,
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
                // A size where no input ran (each one's own run failed,
                // with the size in the contract, or ran past the step
                // budget) was compared with nothing: the certificate would
                // name a size it never ran.
                let unrun: Vec<(u32, &str)> = settings
                    .sizes
                    .iter()
                    .zip(&tally.at_size)
                    .filter(|(_, (count, _))| *count == 0)
                    .map(|(size, (_, why))| (size.get(), why.as_deref().unwrap_or("")))
                    .collect();
                if let Some(&(_, why)) = unrun.first() {
                    let sizes: Vec<String> = unrun.iter().map(|(s, _)| s.to_string()).collect();
                    return Err(PortabilityError::NotRun {
                        kernel: kernel(),
                        reason: format!(
                            "at subgroup size{} {} no input ran: its run failed on each of \
                             the {} inputs that ran elsewhere ({why}); leave out the sizes the \
                             kernel does not serve (`sizes`, `--sizes`)",
                            if sizes.len() > 1 { "s" } else { "" },
                            sizes.join(", "),
                            tally.inputs
                        ),
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
                    tolerance: settings.tolerance,
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

mod report;
mod search;
mod subjects;

#[cfg(feature = "interp")]
mod interpreted;

#[cfg(feature = "interp")]
pub use interpreted::Interpreted;
pub use report::{Certificate, Counterexample};
pub use search::Outcome;
use search::{Settings, Tally, Verdict};
use subjects::{default_inputs, past_budget};
pub use subjects::{Generate, Input, Native, Portable, Subject};

#[cfg(all(test, feature = "interp"))]
mod tests {
    use super::*;

    /// Two kernels that call each other, lowered one at a time so that no
    /// file's check refuses them first: the IR a tool might build.
    fn ping_pong() -> Vec<ballot_ir::ir::Kernel> {
        [
            "fn ping(x: u32) -> u32 { let r: u32 = pong(x); r }",
            "fn pong(x: u32) -> u32 { let r: u32 = ping(x); r }",
        ]
        .iter()
        .map(|source| {
            ballot_front::lower_source(source)
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
