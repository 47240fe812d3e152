//! The feature collector: which `#extension` lines and extension names a
//! module needs, and which helpers ([`crate::lower::helpers::Needs`]).
//! Everything is kept in ordered sets, so the text is the same on every
//! run, and only what is used is written.

use std::collections::BTreeSet;

use crate::back::{Language, Target};
use crate::lower::helpers::Helper;
use crate::lower::plan::Plan;
use ballot_ir::ir::Expr;
use ballot_ir::op::Op;

/// A GLSL extension the `glsl` target enables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Extension {
    /// `GL_KHR_shader_subgroup_basic`: `subgroupElect`, the lane id, the size.
    Basic,
    /// `GL_KHR_shader_subgroup_ballot`: the rest of the ballot family.
    Ballot,
    /// `GL_KHR_shader_subgroup_vote`: `subgroupAll`, `subgroupAny`,
    /// `subgroupAllEqual`.
    Vote,
    /// `GL_KHR_shader_subgroup_arithmetic`: reductions and scans.
    Arithmetic,
    /// `GL_KHR_shader_subgroup_shuffle`: `subgroupShuffle`,
    /// `subgroupShuffleXor`.
    Shuffle,
    /// `GL_KHR_shader_subgroup_shuffle_relative`: `subgroupShuffleUp`,
    /// `subgroupShuffleDown`.
    ShuffleRelative,
    /// `GL_KHR_shader_subgroup_quad`: `subgroupQuadBroadcast` and the swaps.
    Quad,
    /// `GL_KHR_shader_subgroup_clustered`: `subgroupClusteredAdd` and the
    /// other clustered reductions.
    Clustered,
    /// `GL_EXT_maximal_reconvergence`: the `[[maximally_reconverges]]`
    /// attribute on `main`, with
    /// [`ShaderOptions::maximal_reconvergence`](crate::back::ShaderOptions::maximal_reconvergence).
    MaximalReconvergence,
}

impl Extension {
    /// The extension's name.
    pub const fn name(self) -> &'static str {
        match self {
            Extension::Basic => "GL_KHR_shader_subgroup_basic",
            Extension::Ballot => "GL_KHR_shader_subgroup_ballot",
            Extension::Vote => "GL_KHR_shader_subgroup_vote",
            Extension::Arithmetic => "GL_KHR_shader_subgroup_arithmetic",
            Extension::Shuffle => "GL_KHR_shader_subgroup_shuffle",
            Extension::ShuffleRelative => "GL_KHR_shader_subgroup_shuffle_relative",
            Extension::Quad => "GL_KHR_shader_subgroup_quad",
            Extension::Clustered => "GL_KHR_shader_subgroup_clustered",
            Extension::MaximalReconvergence => "GL_EXT_maximal_reconvergence",
        }
    }

    /// The extension a native operation comes from.
    pub const fn of(op: Op) -> Extension {
        match op {
            Op::Elect => Extension::Basic,
            Op::All | Op::Any | Op::AllEqual => Extension::Vote,
            Op::Arith(..) => Extension::Arithmetic,
            Op::Shuffle | Op::ShuffleXor => Extension::Shuffle,
            Op::ShuffleUp | Op::ShuffleDown => Extension::ShuffleRelative,
            Op::QuadBroadcast | Op::QuadSwap(_) => Extension::Quad,
            Op::Clustered(_) => Extension::Clustered,
            _ => Extension::Ballot,
        }
    }
}

/// The built-in variable the `glsl` target reads a lane's id from.
pub(super) const LANE_ID: &str = "gl_SubgroupInvocationID";

/// The built-in variable the `glsl` target reads the subgroup size from.
pub(super) const SUBGROUP_SIZE: &str = "gl_SubgroupSize";

/// The attribute `GL_EXT_maximal_reconvergence` puts on an entry point,
/// "between the function prototype and the function body" (the
/// extension's section 6.1): `void main() [[maximally_reconverges]] {`.
pub(crate) const MAXIMALLY_RECONVERGES: &str = "[[maximally_reconverges]]";

/// What a module needs besides its kernels.
#[derive(Clone, Debug, Default)]
pub(super) struct Features {
    /// `#extension` lines (`glsl` only).
    pub extensions: BTreeSet<Extension>,
    /// Helper functions, with everything they call, from the registry.
    pub helpers: BTreeSet<Helper>,
    /// The extensions' functions and built-in variables the text names
    /// (`glsl` only): what the validation mode declares stand-ins for
    /// ([`super::standins`]).
    pub names: BTreeSet<&'static str>,
}

impl Features {
    /// Collects the needs of every function of the module; `record_lanes`
    /// adds what the compute shader reads to record each invocation's lane.
    pub fn collect(target: Target, plan: &Plan<'_>, record_lanes: bool) -> Self {
        let native = target.has_subgroups();
        let mut extensions = BTreeSet::new();
        let mut names = BTreeSet::new();
        if native && record_lanes {
            extensions.insert(Extension::Basic);
            extensions.insert(Extension::Ballot);
            // What `entry::write_record` reads.
            names.extend([Op::BroadcastFirst.glsl_name(), LANE_ID, SUBGROUP_SIZE]);
        }
        // Only the native target names the extensions' functions.
        if native {
            for kernel in plan.module.functions.iter().filter_map(|f| f.kernel()) {
                for (_, expr) in kernel.exprs.iter() {
                    let (extension, name) = match expr {
                        Expr::Op { op, .. } => (Extension::of(*op), op.glsl_name()),
                        Expr::LaneId => (Extension::Basic, LANE_ID),
                        Expr::SubgroupSize => (Extension::Basic, SUBGROUP_SIZE),
                        _ => continue,
                    };
                    extensions.insert(extension);
                    names.insert(name);
                }
            }
        }
        Features {
            extensions,
            // GLSL writes every expression: nothing is folded away.
            helpers: plan.helpers(Language::Glsl, !native, false),
            names,
        }
    }
}
