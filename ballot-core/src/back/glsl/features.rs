//! The feature collector: which `#extension` lines a module needs, and
//! which helpers ([`crate::lower::helpers::Needs`]). Everything is kept in ordered sets, so
//! the text is the same on every run, and only what is used is written.

use std::collections::BTreeSet;

use super::names::{Function, Source};
use crate::back::{Language, Target};
use crate::ir::Expr;
use crate::lower::helpers::{Helper, Needs};
use crate::op::Op;

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

/// What a module needs besides its kernels.
#[derive(Clone, Debug, Default)]
pub(super) struct Features {
    /// `#extension` lines (`glsl` only).
    pub extensions: BTreeSet<Extension>,
    /// Helper functions, with everything they call, from the registry.
    pub helpers: BTreeSet<Helper>,
}

impl Features {
    /// Collects the needs of every function of the module; `record_lanes` adds
    /// what the compute shader reads to record each invocation's lane.
    pub fn collect(target: Target, functions: &[Function<'_>], record_lanes: bool) -> Self {
        let native = target.has_subgroups();
        let mut extensions = BTreeSet::new();
        if native && record_lanes {
            extensions.insert(Extension::Basic);
            extensions.insert(Extension::Ballot);
        }
        let mut needs = Needs::new(Language::Glsl, !native);
        for function in functions {
            if let Source::Kernel(kernel) = function.source {
                needs.all_of(kernel);
                if native {
                    extensions.extend(kernel.exprs.iter().filter_map(|(_, e)| match e {
                        Expr::Op { op, .. } => Some(Extension::of(*op)),
                        Expr::LaneId | Expr::SubgroupSize => Some(Extension::Basic),
                        _ => None,
                    }));
                }
            }
        }
        Features {
            extensions,
            helpers: needs.into_set(),
        }
    }
}
