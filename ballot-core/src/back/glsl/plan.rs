//! Which functions a module defines, in which order, under which names.
//!
//! The entry kernel calls others by path; they are looked up by the path's
//! last segment, written before their callers (GLSL needs a declaration
//! before a call), and named by one [`Namer`] for the whole module, so that
//! no user identifier collides with another, with a keyword or with a
//! generated `ballot_` name.

use std::collections::BTreeMap;

use crate::back::namer::Namer;
use crate::back::{Language, Missing, ShaderError};
use crate::error::Op;
use crate::ir::{Expr, Handle, Kernel, Type};

/// A function of the module.
#[derive(Clone, Debug)]
pub(super) enum Source<'a> {
    /// A kernel given to the writer.
    Kernel(&'a Kernel),
    /// A callee that was not given: it returns the zero value.
    Stub {
        /// The parameter types, read off the call's arguments.
        params: Vec<Type>,
        /// The result type, read off the call.
        ret: Type,
    },
}

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

/// A function before it is named: a kernel by its index in the writer's
/// input, or a stub by its index among the stubs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Kernel(usize),
    Stub(usize),
}

/// Resolves the calls of `kernels[0]`, transitively, and names everything.
pub(super) fn plan<'a>(
    kernels: &[&'a Kernel],
    missing: Missing,
    masked: bool,
) -> Result<Plan<'a>, ShaderError> {
    let mut resolver = Resolver {
        kernels,
        missing,
        order: Vec::new(),
        visited: Vec::new(),
        stubs: Vec::new(),
        calls: BTreeMap::new(),
    };
    if !kernels.is_empty() {
        resolver.visit(0)?;
    }
    Ok(resolver.name(masked))
}

struct Resolver<'k, 'a> {
    kernels: &'k [&'a Kernel],
    missing: Missing,
    /// Functions in writing order.
    order: Vec<Key>,
    /// Kernels already visited (or being visited: a cycle is not followed).
    visited: Vec<usize>,
    /// Stubs: the callee's last path segment, parameter types and result.
    stubs: Vec<(String, Vec<Type>, Type)>,
    /// What each call of each kernel resolves to.
    calls: BTreeMap<(usize, Handle<Expr>), Key>,
}

impl<'a> Resolver<'_, 'a> {
    fn visit(&mut self, index: usize) -> Result<(), ShaderError> {
        self.visited.push(index);
        let kernel = self.kernels[index];
        for (handle, expr) in kernel.exprs.iter() {
            if let Expr::Call { callee, args } = expr {
                let key = self.resolve(kernel, handle, callee, args)?;
                self.calls.insert((index, handle), key);
            }
        }
        self.order.push(Key::Kernel(index));
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
            if !self.visited.contains(&index) {
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
        // One stub per signature, so that calls with different argument
        // types each get a declaration that fits them.
        let params: Vec<Type> = args.iter().map(|&a| kernel.type_of(a)).collect();
        let stub = (segment.to_string(), params, kernel.type_of(call));
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

    /// Names every function, then every local, in writing order.
    fn name(self, masked: bool) -> Plan<'a> {
        let mut namer = Namer::new(Language::Glsl);
        // The extension's functions are no keywords, but a user name that
        // shadowed one would hide it from the code that calls it.
        for op in Op::ALL {
            namer.reserve(op.glsl_name());
        }
        let position: BTreeMap<Key, usize> = self
            .order
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, i))
            .collect();
        let mut functions: Vec<Function<'a>> = self
            .order
            .iter()
            .map(|&key| self.function(key, &position, &mut namer, masked))
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

    /// One function, named, with its calls resolved to positions.
    fn function(
        &self,
        key: Key,
        position: &BTreeMap<Key, usize>,
        namer: &mut Namer,
        masked: bool,
    ) -> Function<'a> {
        let (source, rust_name) = match key {
            Key::Kernel(i) => (
                Source::Kernel(self.kernels[i]),
                self.kernels[i].name.as_str(),
            ),
            Key::Stub(i) => {
                let (name, params, ret) = &self.stubs[i];
                let params = params.clone();
                (Source::Stub { params, ret: *ret }, name.as_str())
            }
        };
        let name = namer.call(rust_name);
        let masked = if masked {
            namer.call(&format!("{rust_name}_masked"))
        } else {
            String::new()
        };
        let calls = self
            .calls
            .iter()
            .filter(|((k, _), _)| Key::Kernel(*k) == key)
            .filter_map(|((_, call), callee)| Some((*call, *position.get(callee)?)))
            .collect();
        Function {
            source,
            name,
            masked,
            locals: Vec::new(),
            calls,
        }
    }
}
