//! The GLSL names of a module's functions and locals.
//!
//! Which functions, in which order, is [`crate::lower::calls`]'s; here they
//! are named by one [`Namer`] for the whole module, so that no user
//! identifier collides with another, with a keyword or with a generated
//! `ballot_` name.

use std::collections::BTreeMap;

use crate::back::namer::Namer;
use crate::back::{Language, Missing, ShaderError};
use crate::error::Op;
use crate::ir::{Expr, Handle};
pub(super) use crate::lower::calls::Source;
use crate::lower::calls::{self, Module};

/// One function of the module, with its GLSL names.
#[derive(Clone, Debug)]
pub(super) struct Function<'a> {
    /// What it computes.
    pub source: Source<'a>,
    /// The public function: the kernel itself on native targets, the
    /// wrapper that starts with every invocation active on emulated ones.
    pub name: String,
    /// The if-converted function that calls go through (emulated targets).
    pub masked: String,
    /// The names of the kernel's locals, indexed like `Kernel::locals`.
    pub locals: Vec<String>,
    /// The function (an index into [`Plan::functions`]) each call
    /// expression calls.
    pub calls: BTreeMap<Handle<Expr>, usize>,
}

/// Every function of a module, callees before their callers.
#[derive(Clone, Debug)]
pub(super) struct Plan<'a> {
    /// The functions in the order they are written; the entry is last.
    pub functions: Vec<Function<'a>>,
}

impl Plan<'_> {
    /// The entry kernel's function.
    pub fn entry(&self) -> Option<&Function<'_>> {
        self.functions.last()
    }
}

/// Resolves the calls of `kernels[0]`, transitively, and names everything.
pub(super) fn plan<'a>(
    kernels: &[&'a crate::ir::Kernel],
    missing: Missing,
    masked: bool,
) -> Result<Plan<'a>, ShaderError> {
    Ok(name(calls::resolve(kernels, missing)?, masked))
}

/// Names every function, then every local, in writing order.
fn name(module: Module<'_>, masked: bool) -> Plan<'_> {
    let mut namer = Namer::new(Language::Glsl);
    // The extension's functions are no keywords, but a user name that
    // shadowed one would hide it from the code that calls it.
    for op in Op::ALL {
        namer.reserve(op.glsl_name());
    }
    let mut functions: Vec<Function<'_>> = module
        .functions
        .into_iter()
        .zip(module.calls)
        .map(|(source, calls)| {
            let rust_name = source.rust_name().to_owned();
            let name = namer.call(&rust_name);
            let masked = if masked {
                namer.call(&format!("{rust_name}_masked"))
            } else {
                String::new()
            };
            Function {
                source,
                name,
                masked,
                locals: Vec::new(),
                calls,
            }
        })
        .collect();
    for function in &mut functions {
        if let Source::Kernel(kernel) = function.source {
            function.locals = kernel
                .locals
                .iter()
                .map(|(_, l)| namer.call(&l.name))
                .collect();
        }
    }
    Plan { functions }
}
