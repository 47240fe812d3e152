//! The feature collector: which `#extension` lines, helper functions and
//! `shared` arrays a module needs. Everything is kept in ordered sets, so
//! the text is the same on every run, and only what is used is written.

use std::collections::BTreeSet;

use super::helpers::Helper;
use super::plan::{Plan, Source};
use crate::back::Target;
use crate::error::Op;
use crate::ir::{Block, Expr, Kernel, MaskFn, Stmt, Type};
use crate::lower;

/// A GLSL extension the `glsl` target enables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Extension {
    /// `GL_KHR_shader_subgroup_basic`: `subgroupElect`, the lane id, the size.
    Basic,
    /// `GL_KHR_shader_subgroup_ballot`: every other operation.
    Ballot,
}

impl Extension {
    /// The extension's name.
    pub const fn name(self) -> &'static str {
        match self {
            Extension::Basic => "GL_KHR_shader_subgroup_basic",
            Extension::Ballot => "GL_KHR_shader_subgroup_ballot",
        }
    }

    /// The extension a native operation comes from.
    pub const fn of(op: Op) -> Extension {
        match op {
            Op::Elect => Extension::Basic,
            _ => Extension::Ballot,
        }
    }
}

/// The built-in variable the `glsl` target reads a lane's id from.
pub(super) const LANE_ID: &str = "gl_SubgroupInvocationID";

/// The built-in variable the `glsl` target reads the subgroup size from.
pub(super) const SUBGROUP_SIZE: &str = "gl_SubgroupSize";

/// What a module needs besides its kernels.
#[derive(Clone, Debug, Default)]
pub(super) struct Features {
    /// `#extension` lines (`glsl` only).
    pub extensions: BTreeSet<Extension>,
    /// Helper functions, with everything they call.
    pub helpers: BTreeSet<Helper>,
    /// The extensions' functions and built-in variables the text names
    /// (`glsl` only): what the validation mode declares stand-ins for
    /// ([`super::standins`]).
    pub names: BTreeSet<&'static str>,
}

impl Features {
    /// Collects the needs of every function of `plan`; `record_lanes` adds
    /// what the compute shader reads to record each invocation's lane.
    pub fn collect(target: Target, plan: &Plan<'_>, record_lanes: bool) -> Self {
        let mut features = Features::default();
        let native = target.has_subgroups();
        if native && record_lanes {
            features.extensions.insert(Extension::Basic);
            features.extensions.insert(Extension::Ballot);
            // What `entry::write_record` reads.
            features
                .names
                .extend([Op::BroadcastFirst.glsl_name(), LANE_ID, SUBGROUP_SIZE]);
        }
        if !native {
            features.add(Helper::Init);
        }
        for function in &plan.functions {
            if let Source::Kernel(kernel) = function.source {
                features.kernel(kernel, native);
            }
        }
        features
    }

    /// Adds `helper` and, first, what it calls.
    pub fn add(&mut self, helper: Helper) {
        for &dep in helper.deps() {
            self.add(dep);
        }
        self.helpers.insert(helper);
    }

    fn kernel(&mut self, kernel: &Kernel, native: bool) {
        for (_, expr) in kernel.exprs.iter() {
            match expr {
                Expr::Op { op, .. } if native => {
                    self.extensions.insert(Extension::of(*op));
                    self.names.insert(op.glsl_name());
                }
                Expr::Op { op, .. } => self.add(Helper::emulating(*op)),
                Expr::LaneId if native => {
                    self.extensions.insert(Extension::Basic);
                    self.names.insert(LANE_ID);
                }
                Expr::SubgroupSize if native => {
                    self.extensions.insert(Extension::Basic);
                    self.names.insert(SUBGROUP_SIZE);
                }
                Expr::Mask { fun, .. } => self.mask_fn(*fun),
                Expr::Binary { op, left, right } => {
                    if let Some(helper) = Helper::binary(kernel, *op, *left, *right) {
                        self.add(helper);
                    }
                }
                Expr::Cast { arg, to } => match (kernel.type_of(*arg), to) {
                    (Type::F32, Type::U32) => self.add(Helper::F32ToU32),
                    (Type::F32, Type::I32) => self.add(Helper::F32ToI32),
                    _ => {}
                },
                _ => {}
            }
        }
        if !native && needs_vote(kernel, &kernel.body) {
            self.add(Helper::AnyActive);
        }
    }

    fn mask_fn(&mut self, fun: MaskFn) {
        match fun {
            MaskFn::Lane => self.add(Helper::MaskLane),
            MaskFn::First => self.add(Helper::MaskFirst),
            MaskFn::Contains => self.add(Helper::MaskContains),
            MaskFn::Count => self.add(Helper::MaskCount),
            MaskFn::IsEmpty => {}
        }
    }
}

/// Whether a block holds a loop that must vote on emulated targets: one
/// whose body reaches a barrier.
fn needs_vote(kernel: &Kernel, block: &Block) -> bool {
    block.iter().any(|&s| match &kernel.stmts[s] {
        Stmt::Loop { body, continuing } => {
            lower::block_exchanges(kernel, body) || lower::block_exchanges(kernel, continuing)
        }
        Stmt::If { accept, reject, .. } => needs_vote(kernel, accept) || needs_vote(kernel, reject),
        _ => false,
    })
}
