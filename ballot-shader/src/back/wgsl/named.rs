//! Everything decided before the first character is written: which
//! functions the module holds, under which names, with which helpers and
//! directives.
//!
//! The entry kernel calls others by path; they are looked up among the
//! kernels given by the path's last segment. Names come from one [`Namer`]
//! for the module (functions), cloned per function for its locals, so no
//! user identifier collides with another, with a WGSL reserved word or
//! built-in, or with a generated `ballot_` name.

use std::collections::BTreeSet;

use super::helpers::Helper;
pub(super) use crate::back::namer::Function;
use crate::back::namer::{name_module, Namer};
use crate::back::{Language, ShaderOptions, Target};
use crate::lower::fold::Folded;
use crate::lower::masked::Masked;
use crate::lower::plan;

pub(super) use crate::lower::calls::Source;

/// The lowering's plan, its functions named for WGSL and its helpers
/// collected.
#[derive(Clone, Debug)]
pub(super) struct Named<'a> {
    /// The target (one of the three WGSL ones).
    pub target: Target,
    /// The options, already validated.
    pub options: &'a ShaderOptions,
    /// The functions in writing order ([`crate::lower::calls`]): callees
    /// before their callers, the entry last.
    pub functions: Vec<Function<'a>>,
    /// Each function's constant sub-expressions, folded; indexed like
    /// `functions`.
    pub folded: &'a [Folded],
    /// Each kernel's if-converted form with its ballots shared, on
    /// emulated targets; indexed like `functions`.
    pub masked: &'a [Option<Masked>],
    /// The helpers to write, dependencies included.
    pub helpers: BTreeSet<Helper>,
}

impl<'a> Named<'a> {
    /// Names the functions of `lowered`'s module and collects their
    /// helpers; the constants folded and the if-converted forms are the
    /// lowering's.
    pub fn new(target: Target, lowered: &'a plan::Plan<'a>, options: &'a ShaderOptions) -> Self {
        let mut namer = Namer::new(Language::Wgsl);
        // The compute shader's entry point, whatever the form, so that a
        // kernel's name does not depend on the form.
        namer.reserve("main");
        // The namer knows WGSL's reserved words; a local named like a
        // built-in function or type (`select`, `u32`) would shadow it too.
        namer.reserve_wgsl_builtins();
        // WGSL parameters are immutable.
        let functions = name_module(lowered.module.clone(), namer, !target.has_subgroups(), true);
        let folded = lowered.folded();
        let masked = lowered.forms(!target.has_subgroups());
        let mut plan = Named {
            target,
            options,
            functions,
            folded,
            masked,
            helpers: BTreeSet::new(),
        };
        plan.helpers = lowered.helpers(Language::Wgsl, plan.emulated(), true);
        plan
    }

    /// Whether the target emulates subgroups (and so if-converts kernels).
    pub fn emulated(&self) -> bool {
        !self.target.has_subgroups()
    }

    /// The entry kernel's function, if a kernel was given.
    pub fn entry(&self) -> Option<&Function<'a>> {
        self.functions.last()
    }
}
