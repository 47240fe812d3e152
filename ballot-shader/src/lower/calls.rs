//! Which functions a module holds, and in which order: the entry kernel
//! and every kernel it calls, transitively, with a stand-in for each
//! callee that was not given.
//!
//! A call names its callee by path; it is looked up among the kernels
//! given to the writer by the path's last segment. Functions are ordered
//! callees first (GLSL needs a declaration before a call; WGSL takes any
//! order), the entry last. A callee that was not given gets one stub per
//! signature, so that calls with different argument types each get a
//! function that fits them (neither language overloads a generated name).

use std::collections::BTreeMap;

use ballot_ir::ir::{Expr, Handle, Kernel, Type};
use ballot_ir::target::Missing;

/// Why the calls of a module cannot be resolved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    /// A called kernel was not among the kernels given, with
    /// [`Missing::Error`].
    #[error("kernel `{caller}` calls `{callee}`, which was not given to the shader writer")]
    MissingCallee {
        /// The calling kernel.
        caller: String,
        /// The missing callee's path.
        callee: String,
    },
}

/// What a function of the module computes.
#[derive(Clone, Debug)]
pub enum Source<'a> {
    /// A kernel given to the writer.
    Kernel(&'a Kernel),
    /// A callee that was not given ([`Missing::Stub`]): it returns the zero
    /// value.
    Stub {
        /// The callee's last path segment, which the stub is named after.
        name: String,
        /// The parameter types, read off the call's arguments.
        params: Vec<Type>,
        /// The result type, read off the call.
        ret: Type,
    },
}

impl<'a> Source<'a> {
    /// The kernel, unless the function is a stub.
    pub fn kernel(&self) -> Option<&'a Kernel> {
        match self {
            Source::Kernel(kernel) => Some(kernel),
            Source::Stub { .. } => None,
        }
    }

    /// The Rust name the function is named after.
    pub fn rust_name(&self) -> &str {
        match self {
            Source::Kernel(kernel) => &kernel.name,
            Source::Stub { name, .. } => name,
        }
    }
}

/// The functions of a module, in writing order.
#[derive(Clone, Debug)]
pub struct Module<'a> {
    /// Every function, callees before their callers; the entry is last.
    pub functions: Vec<Source<'a>>,
    /// For each function, the function (an index into `functions`) each of
    /// its call expressions calls.
    pub calls: Vec<BTreeMap<Handle<Expr>, usize>>,
}

/// Resolves the calls of `kernels[0]`, transitively, among `kernels[1..]`.
///
/// # Errors
/// [`CallError::MissingCallee`] for a callee not given, with
/// [`Missing::Error`].
pub fn resolve<'a>(kernels: &[&'a Kernel], missing: Missing) -> Result<Module<'a>, CallError> {
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
    Ok(resolver.finish())
}

/// A function before it has a place: a kernel by its index in the
/// writer's input, or a stub by its index among the stubs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Kernel(usize),
    Stub(usize),
}

struct Resolver<'k, 'a> {
    kernels: &'k [&'a Kernel],
    missing: Missing,
    /// Functions in writing order.
    order: Vec<Key>,
    /// Kernels already visited, or being visited: a cycle is not followed.
    visited: Vec<usize>,
    /// Stubs: the callee's last path segment, parameter types and result.
    stubs: Vec<(String, Vec<Type>, Type)>,
    /// What each call of each kernel resolves to.
    calls: BTreeMap<(usize, Handle<Expr>), Key>,
}

impl<'a> Resolver<'_, 'a> {
    fn visit(&mut self, index: usize) -> Result<(), CallError> {
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
    ) -> Result<Key, CallError> {
        let segment = callee.rsplit("::").next().unwrap_or(callee).trim();
        let found = (1..self.kernels.len()).find(|&i| self.kernels[i].name == segment);
        if let Some(index) = found {
            if !self.visited.contains(&index) {
                self.visit(index)?;
            }
            return Ok(Key::Kernel(index));
        }
        if self.missing == Missing::Error {
            return Err(CallError::MissingCallee {
                caller: kernel.name.clone(),
                callee: callee.to_string(),
            });
        }
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

    fn finish(self) -> Module<'a> {
        let position: BTreeMap<Key, usize> = self
            .order
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, i))
            .collect();
        let functions = self
            .order
            .iter()
            .map(|&key| match key {
                Key::Kernel(i) => Source::Kernel(self.kernels[i]),
                Key::Stub(i) => {
                    let (name, params, ret) = self.stubs[i].clone();
                    Source::Stub { name, params, ret }
                }
            })
            .collect();
        let calls = self
            .order
            .iter()
            .map(|&key| {
                self.calls
                    .iter()
                    .filter(|((caller, _), _)| Key::Kernel(*caller) == key)
                    .filter_map(|((_, call), callee)| Some((*call, *position.get(callee)?)))
                    .collect()
            })
            .collect();
        Module { functions, calls }
    }
}

/// The type of `expr`, or `u32` for a handle outside the kernel (malformed
/// IR), so that planning never panics.
pub fn type_of(kernel: &Kernel, expr: Handle<Expr>) -> Type {
    kernel
        .expr_types
        .get(expr.index())
        .copied()
        .unwrap_or(Type::U32)
}
