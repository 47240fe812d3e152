//! Everything decided before the first character is written: which
//! functions the module holds, under which names, with which helpers and
//! directives.
//!
//! The entry kernel calls others by path; they are looked up among the
//! kernels given by the path's last segment. Names come from one [`Namer`]
//! for the module (functions), cloned per function for its locals, so no
//! user identifier collides with another, with a WGSL reserved word or
//! built-in, or with a generated `ballot_` name.

use std::collections::{BTreeMap, BTreeSet};

use super::fold::{self, Folded};
use super::helpers::{self, Helper};
use crate::back::namer::Namer;
use crate::back::{Language, Missing, ShaderError, ShaderOptions, Target};
use crate::ir::{Expr, Handle, Kernel, Stmt};
use crate::lower::calls::{self, Module};

pub(super) use crate::lower::calls::Source;

/// One function of the module, with its WGSL names.
#[derive(Clone, Debug)]
pub(super) struct Function<'a> {
    /// What it computes.
    pub source: Source<'a>,
    /// The public function: the kernel itself on native targets, the
    /// wrapper that starts with every invocation active on the emulated one.
    pub name: String,
    /// The if-converted function that calls go through (emulated target).
    pub masked: String,
    /// The names of the kernel's locals, indexed like `Kernel::locals`.
    pub locals: Vec<String>,
    /// The WGSL name of each parameter: the local's own name, unless the
    /// kernel assigns to it (WGSL parameters are immutable), in which case
    /// the local is a `var` copied from a parameter of another name.
    pub params: Vec<String>,
    /// The function (an index into [`Plan::functions`]) each call calls.
    pub calls: BTreeMap<Handle<Expr>, usize>,
    /// Constant sub-expressions, folded.
    pub folded: Folded,
}

impl Function<'_> {
    /// The kernel, unless the function is a stub.
    pub fn kernel(&self) -> Option<&Kernel> {
        self.source.kernel()
    }
}

/// A planned module.
#[derive(Clone, Debug)]
pub(super) struct Plan<'a> {
    /// The target (one of the three WGSL ones).
    pub target: Target,
    /// The options, already validated.
    pub options: &'a ShaderOptions,
    /// The functions in writing order ([`crate::lower::calls`]): callees
    /// before their callers, the entry last.
    pub functions: Vec<Function<'a>>,
    /// The helpers to write, dependencies included.
    pub helpers: BTreeSet<Helper>,
}

impl<'a> Plan<'a> {
    /// Resolves the calls of `kernels[0]`, transitively, names everything
    /// and collects features.
    pub fn new(
        target: Target,
        kernels: &[&'a Kernel],
        options: &'a ShaderOptions,
        missing: Missing,
    ) -> Result<Self, ShaderError> {
        let functions = name(calls::resolve(kernels, missing)?, !target.has_subgroups());
        let mut plan = Plan {
            target,
            options,
            functions,
            helpers: BTreeSet::new(),
        };
        plan.helpers = helpers::collect(&plan);
        Ok(plan)
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

/// Names every function, then every function's locals.
fn name(module: Module<'_>, masked: bool) -> Vec<Function<'_>> {
    let mut namer = Namer::new(Language::Wgsl);
    // The compute shader's entry point, whatever the form, so that a
    // kernel's name does not depend on the form.
    namer.reserve("main");
    // The namer knows WGSL's reserved words; a local named like a
    // built-in function or type (`select`, `u32`) would shadow it too.
    namer.reserve_wgsl_builtins();
    let mut functions: Vec<Function<'_>> = module
        .functions
        .into_iter()
        .zip(module.calls)
        .map(|(source, calls)| {
            let name = namer.call(source.rust_name());
            let folded = source.kernel().map(fold::fold).unwrap_or_default();
            Function {
                source,
                masked: name.clone(),
                name,
                locals: Vec::new(),
                params: Vec::new(),
                calls,
                folded,
            }
        })
        .collect();
    if masked {
        for f in &mut functions {
            let base = f.name.clone();
            f.masked = namer.call(&format!("{base}_masked"));
        }
    }
    for function in &mut functions {
        if let Some(kernel) = function.source.kernel() {
            name_locals(function, kernel, namer.clone());
        }
    }
    functions
}

/// Names the locals of `kernel`, and its parameters.
fn name_locals(function: &mut Function<'_>, kernel: &Kernel, mut namer: Namer) {
    function.locals = kernel
        .locals
        .iter()
        .map(|(_, local)| namer.call(&local.name))
        .collect();
    let assigned = assigned_locals(kernel);
    function.params = kernel
        .params
        .iter()
        .map(|p| {
            let name = function
                .locals
                .get(p.local.index())
                .cloned()
                .unwrap_or_default();
            if assigned.contains(&p.local) {
                namer.call(&format!("{name}_in"))
            } else {
                name
            }
        })
        .collect();
}

/// The locals some statement of `kernel` assigns to.
pub(super) fn assigned_locals(kernel: &Kernel) -> BTreeSet<Handle<crate::ir::Local>> {
    kernel
        .stmts
        .iter()
        .filter_map(|(_, stmt)| match stmt {
            Stmt::Assign { local, .. } => Some(*local),
            _ => None,
        })
        .collect()
}

pub(super) use crate::lower::calls::type_of;
