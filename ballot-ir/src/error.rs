//! Typed errors: invalid configurations and undefined behaviour reports,
//! which name the operation ([`Op`]) and the lane.

use crate::mask::SubgroupMask;
use crate::op::Op;

/// A subgroup or dispatch configuration that no device can have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The subgroup size is 0, not a power of two, or over 128.
    #[error("invalid subgroup size {size}: it must be a power of two from 1 to 128")]
    InvalidSubgroupSize {
        /// The rejected size.
        size: u32,
    },
    /// An active lane is at or above the subgroup size.
    #[error("active lane {lane} is not below the subgroup size {size}")]
    ActiveLaneOutOfRange {
        /// The lowest offending lane.
        lane: u32,
        /// The subgroup size.
        size: u32,
    },
    /// A workgroup dimension is 0.
    #[error("invalid workgroup size {size:?}: every dimension must be at least 1")]
    EmptyWorkgroup {
        /// The rejected workgroup size.
        size: [u32; 3],
    },
    /// The dispatch has more invocations than a `usize` or `u32` can count.
    #[error("dispatch of {workgroup_count:?} workgroups of {workgroup_size:?} invocations is too large to simulate")]
    TooManyInvocations {
        /// The workgroup size.
        workgroup_size: [u32; 3],
        /// The workgroup count.
        workgroup_count: [u32; 3],
    },
}

/// What made a ballot operation's result undefined.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UbKind {
    /// FindLSB / FindMSB of a mask with no bit below the subgroup size.
    #[error("no bit below the subgroup size {size} is set in {mask}")]
    EmptyMask {
        /// The offending mask.
        mask: SubgroupMask,
        /// The subgroup size.
        size: u32,
    },
    /// A lane index at or above the subgroup size (BitExtract, Broadcast).
    #[error("index {index} is not below the subgroup size {size}")]
    IndexOutOfRange {
        /// The offending index.
        index: u32,
        /// The subgroup size.
        size: u32,
    },
    /// Broadcast from a lane that is not active.
    #[error("source lane {source_lane} is inactive")]
    InactiveSource {
        /// The inactive lane named as the source.
        source_lane: u32,
    },
    /// A clustered reduction whose cluster size is not a power of two from
    /// 1 to the subgroup size (`GL_KHR_shader_subgroup_clustered` leaves
    /// a size over the subgroup's undefined; the kernel front end refuses
    /// the others, which only a direct call of the simulator can pass).
    #[error(
        "cluster size {cluster_size} is not a power of two from 1 to the subgroup size {size}"
    )]
    ClusterSize {
        /// The cluster size asked for.
        cluster_size: u32,
        /// The subgroup size.
        size: u32,
    },
    /// InverseBallot given a value that differs across active lanes.
    #[error("value {value} differs from {first} passed by lane {first_lane}")]
    NonUniform {
        /// The value this lane passed.
        value: SubgroupMask,
        /// The value the lowest active lane passed.
        first: SubgroupMask,
        /// The lowest active lane.
        first_lane: u32,
    },
}

/// A report of undefined behaviour: the operation, the lane it happened in,
/// and the offending value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("undefined behaviour in `{op}` at lane {lane}: {kind}")]
pub struct UndefinedBehavior {
    /// The operation whose result is undefined.
    pub op: Op,
    /// The lane in which it is undefined.
    pub lane: u32,
    /// Why it is undefined, with the offending value.
    pub kind: UbKind,
}

/// Everything a simulated collective operation can fail with.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SimError {
    /// The operation's result is undefined for these inputs.
    #[error(transparent)]
    Undefined(#[from] UndefinedBehavior),
    /// The configuration is invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A per-lane input does not have one entry per lane.
    #[error("`{op}` expects one input per lane ({expected}), got {got}")]
    InputLength {
        /// The operation (or kernel input) that was called.
        op: &'static str,
        /// The number of entries expected.
        expected: usize,
        /// The number of entries given.
        got: usize,
    },
    /// A kernel ran more loop iterations than its subgroup's step budget
    /// allows (`ballot_sim::sim::DEFAULT_STEP_BUDGET` unless set): it most
    /// likely never ends.
    #[error(
        "kernel `{kernel}` ran past its step budget of {budget} loop iterations; \
         lanes {lanes:#} were still running (raise it with `Subgroup::with_step_budget` \
         or `Dispatch::with_step_budget` if the kernel does end)"
    )]
    StepBudget {
        /// The kernel whose loop was running.
        kernel: &'static str,
        /// The budget that ran out.
        budget: u64,
        /// The lanes still in the loop.
        lanes: SubgroupMask,
    },
    /// An arithmetic collective called on a type it does not take (a
    /// bitwise `subgroup_and` on `f32`, `subgroup_s_min` on `u32`).
    #[error("`{op}` does not take values of type `{ty}`")]
    Unsupported {
        /// The operation.
        op: Op,
        /// The type it was given.
        ty: &'static str,
    },
    /// An output buffer does not have one entry per invocation.
    #[error("the output holds {got} entries, but the dispatch has {expected} invocations")]
    OutputLength {
        /// The number of invocations in the dispatch.
        expected: usize,
        /// The length of the output given.
        got: usize,
    },
}

impl SimError {
    /// The undefined-behaviour report, if that is what this error is.
    pub fn as_undefined(&self) -> Option<&UndefinedBehavior> {
        match self {
            SimError::Undefined(ub) => Some(ub),
            _ => None,
        }
    }
}
