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
use crate::back::{Form, Language, Missing, ShaderError, ShaderOptions, Target};
use crate::ir::{Expr, Handle, Kernel, Stmt, Type};

/// What a function of the module computes.
#[derive(Clone, Debug)]
pub(super) enum Source<'a> {
    /// A kernel given to the writer.
    Kernel(&'a Kernel),
    /// A callee that was not given ([`Missing::Stub`]): it returns the zero
    /// value.
    Stub {
        /// The parameter types, read off the call's arguments.
        params: Vec<Type>,
        /// The result type, read off the call.
        ret: Type,
    },
}

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
        match self.source {
            Source::Kernel(kernel) => Some(kernel),
            Source::Stub { .. } => None,
        }
    }
}

/// A planned module.
#[derive(Clone, Debug)]
pub(super) struct Plan<'a> {
    /// The target (one of the three WGSL ones).
    pub target: Target,
    /// The form.
    pub form: Form,
    /// The options, already validated.
    pub options: &'a ShaderOptions,
    /// The functions in writing order: the entry first, then its callees in
    /// the order calls first reach them.
    pub functions: Vec<Function<'a>>,
    /// The helpers to write, dependencies included.
    pub helpers: BTreeSet<Helper>,
}

impl<'a> Plan<'a> {
    /// Resolves the calls of `kernels[0]`, transitively, names everything
    /// and collects features.
    pub fn new(
        target: Target,
        form: Form,
        kernels: &[&'a Kernel],
        options: &'a ShaderOptions,
        missing: Missing,
    ) -> Result<Self, ShaderError> {
        let mut resolver = Resolver {
            kernels,
            missing,
            order: Vec::new(),
            stubs: Vec::new(),
            calls: BTreeMap::new(),
        };
        if !kernels.is_empty() {
            resolver.visit(0)?;
        }
        let functions = resolver.name(!target.has_subgroups());
        let mut plan = Plan {
            target,
            form,
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
        self.functions.first()
    }
}

/// A function before it is named: a kernel by its index in the writer's
/// input, or a stub by its index among the stubs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Kernel(usize),
    Stub(usize),
}

struct Resolver<'k, 'a> {
    kernels: &'k [&'a Kernel],
    missing: Missing,
    /// Functions in writing order.
    order: Vec<Key>,
    /// Stubs: the callee's last path segment, parameter types and result.
    stubs: Vec<(String, Vec<Type>, Type)>,
    /// What each call of each kernel resolves to.
    calls: BTreeMap<(usize, Handle<Expr>), Key>,
}

impl<'a> Resolver<'_, 'a> {
    fn visit(&mut self, index: usize) -> Result<(), ShaderError> {
        // Pushed before the callees, so a cycle is not followed twice.
        self.order.push(Key::Kernel(index));
        let kernel = self.kernels[index];
        for (handle, expr) in kernel.exprs.iter() {
            if let Expr::Call { callee, args } = expr {
                let key = self.resolve(kernel, handle, callee, args)?;
                self.calls.insert((index, handle), key);
            }
        }
        Ok(())
    }

    fn resolve(
        &mut self,
        kernel: &Kernel,
        call: Handle<Expr>,
        callee: &str,
        args: &[Handle<Expr>],
    ) -> Result<Key, ShaderError> {
        let segment = callee.rsplit("::").next().unwrap_or(callee).trim();
        let found = (1..self.kernels.len()).find(|&i| self.kernels[i].name == segment);
        if let Some(index) = found {
            if !self.order.contains(&Key::Kernel(index)) {
                self.visit(index)?;
            }
            return Ok(Key::Kernel(index));
        }
        if self.missing == Missing::Error {
            return Err(ShaderError::MissingCallee {
                caller: kernel.name.clone(),
                callee: callee.to_string(),
            });
        }
        // One stub per signature: WGSL has no overloading, so calls with
        // other argument types get a stand-in (and a name) of their own.
        let params: Vec<Type> = args.iter().map(|&a| type_of(kernel, a)).collect();
        let stub = (segment.to_string(), params, type_of(kernel, call));
        let index = match self.stubs.iter().position(|s| *s == stub) {
            Some(index) => index,
            None => {
                self.stubs.push(stub);
                self.order.push(Key::Stub(self.stubs.len() - 1));
                self.stubs.len() - 1
            }
        };
        Ok(Key::Stub(index))
    }

    /// Names every function, then every function's locals.
    fn name(self, masked: bool) -> Vec<Function<'a>> {
        let mut namer = Namer::new(Language::Wgsl);
        // The compute shader's entry point, whatever the form, so that a
        // kernel's name does not depend on the form.
        namer.reserve("main");
        // The namer knows WGSL's reserved words; a local named like a
        // built-in function or type (`select`, `u32`) would shadow it too.
        namer.reserve_wgsl_builtins();
        let mut functions: Vec<Function<'a>> = self
            .order
            .iter()
            .map(|&key| self.function(key, &mut namer))
            .collect();
        if masked {
            for f in &mut functions {
                let base = f.name.clone();
                f.masked = namer.call(&format!("{base}_masked"));
            }
        }
        for (i, &key) in self.order.iter().enumerate() {
            if let Key::Kernel(index) = key {
                name_locals(&mut functions[i], self.kernels[index], namer.clone());
                functions[i].calls = self.calls_of(index);
            }
        }
        functions
    }

    fn function(&self, key: Key, namer: &mut Namer) -> Function<'a> {
        let (source, name) = match key {
            Key::Kernel(index) => {
                let kernel = self.kernels[index];
                (Source::Kernel(kernel), namer.call(&kernel.name))
            }
            Key::Stub(index) => {
                let (segment, params, ret) = self.stubs[index].clone();
                (Source::Stub { params, ret }, namer.call(&segment))
            }
        };
        let folded = match source {
            Source::Kernel(kernel) => fold::fold(kernel),
            Source::Stub { .. } => Folded::default(),
        };
        Function {
            source,
            masked: name.clone(),
            name,
            locals: Vec::new(),
            params: Vec::new(),
            calls: BTreeMap::new(),
            folded,
        }
    }

    /// Each call of kernel `index`, as an index into the writing order.
    fn calls_of(&self, index: usize) -> BTreeMap<Handle<Expr>, usize> {
        self.calls
            .range((index, Handle::from_index(0))..)
            .take_while(|((caller, _), _)| *caller == index)
            .filter_map(|(&(_, call), key)| {
                let position = self.order.iter().position(|k| k == key)?;
                Some((call, position))
            })
            .collect()
    }
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

/// The type of `expr`, or `u32` for a handle outside the kernel (malformed
/// IR), so that planning never panics.
pub(super) fn type_of(kernel: &Kernel, expr: Handle<Expr>) -> Type {
    kernel
        .expr_types
        .get(expr.index())
        .copied()
        .unwrap_or(Type::U32)
}
