//! What the oracle runs: a [`Subject`] (a kernel's generated code,
//! [`Native`], or the IR interpreter), and the inputs it draws for it.

use core::fmt;
use core::marker::PhantomData;

use proptest::prelude::*;
use proptest::strategy::BoxedStrategy;

use super::Portability;
use crate::sim::{Dispatch, Lane, SimKernel};
use ballot_ir::error::SimError;
use ballot_ir::mask::SubgroupMask;

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

    /// Whether two results agree within the relative `tolerance` a user
    /// gave for `f32` outputs ([`crate::sim::Lane::close`]); the same as
    /// [`Subject::same`] unless the subject knows its floats.
    fn close(a: &Self::Output, b: &Self::Output, tolerance: f32) -> bool {
        let _ = tolerance;
        Self::same(a, b)
    }

    /// Why a run that reported `error` ran nothing the oracle can compare,
    /// in the words of a report that no input could be checked: the
    /// error's message unless the subject knows better (a step budget that
    /// ran out, calls that recurse).
    fn explain(error: &Self::Error) -> String {
        error.to_string()
    }

    /// Whether a run that reported `error` stopped at the oracle's own
    /// limit (its step budget) rather than at the kernel's fault: such a
    /// run says nothing of the kernel's answer, and is compared with
    /// nothing. `false` unless the subject knows its limits.
    fn unfinished(error: &Self::Error) -> bool {
        let _ = error;
        false
    }
}

/// [`Subject::explain`] for a run that ran past the oracle's step budget.
pub(super) fn past_budget(budget: u64) -> String {
    format!(
        "every run ran past the step budget of {budget} loop iterations \
         (`Portability::step_budget`, `--step-budget`): the kernel most likely never ends, \
         or needs a larger budget"
    )
}

/// A kernel compiled by `#[ballot::kernel]`, run natively.
pub struct Native<K>(PhantomData<K>);

impl<K> Default for Native<K> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

impl<K: SimKernel> Subject for Native<K> {
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

    fn close(a: &K::Output, b: &K::Output, tolerance: f32) -> bool {
        a.close(b, tolerance)
    }

    fn explain(error: &SimError) -> String {
        match error {
            SimError::StepBudget { budget, .. } => past_budget(*budget),
            other => other.to_string(),
        }
    }

    fn unfinished(error: &SimError) -> bool {
        matches!(error, SimError::StepBudget { .. })
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
pub trait Portable: SimKernel + Sized + 'static {
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

impl<K: SimKernel + 'static> Portable for K {}

/// Inputs of `min..=max` invocations from the types' [`Generate`]
/// strategies.
pub(super) fn default_inputs<S>(min: usize, max: usize) -> BoxedStrategy<Input<S>>
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
