//! Lowers a `#[ballot::kernel]` function from the syn AST to [`ballot_ir::ir`].
//!
//! [`lower`] runs one pass over the function, in phases kept in files of
//! their own:
//! - `sig`: the signature (qualifiers, generics, parameters, return type);
//! - `stmt`: blocks, `let`, assignments and expression statements;
//! - `control`, `loops`: `if`, `return`, loops, `break` and `continue`;
//! - `expr`, `lit`, `call`: expressions, literals, intrinsics and calls;
//! - `hint`: the type an expression will have, read off the syntax, which
//!   types unsuffixed literals and kernel calls from their context.
//!
//! Every error is recorded in an accumulator and lowering carries on with a
//! placeholder, so the user sees every mistake of a kernel at once. An
//! erroneous expression gets an unknown type, which later checks skip, so
//! one mistake gives one message.
//!
//! # Keeping Rust's semantics in a structured IR
//! Some expressions need statements: an `if` whose arms hold collectives or
//! statements, `&&` / `||` whose right operand does, and blocks. They are
//! hoisted into statements ahead of the one being built (IR invariant 4),
//! and their value is read back from a temporary local named `_if0`,
//! `_and1`, … Operands to their left that are not yet fixed (collectives,
//! loads of mutable locals) are first spilled into temporaries, so Rust's
//! left-to-right evaluation order survives.

#![warn(missing_docs)]

mod assign;
mod builder;
mod call;
mod control;
mod error;
mod expr;
mod file;
mod hint;
mod infer;
pub mod limits;
mod lit;
mod loops;
mod reject;
mod scope;
mod sig;
pub mod spans;
mod stmt;
mod ty;

#[cfg(test)]
mod invariants;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use ballot_ir::ir;
use builder::Builder;
use error::Errors;
pub use file::{calls, check_recursion, cycle_message, resolve, FileKernel, Resolved};
use scope::Scopes;
use ty::Ret;

pub use crate::spans::SourceMap;

/// A kernel lowered to IR, with the spans of its nodes.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The IR.
    pub kernel: ir::Kernel,
    /// Where each IR node came from.
    pub spans: SourceMap,
}

/// Lowers `item`, reporting every error at once, combined into one
/// `syn::Error`.
pub fn lower(item: &syn::ItemFn) -> syn::Result<Lowered> {
    let mut cx = Lowerer::new(&item.sig.ident);
    let params = cx.signature(&item.sig);
    let body = cx.body(&item.block);
    cx.finish(params, body)
}

/// Lowers every kernel of a Rust file held as text: the functions marked
/// `#[ballot::kernel]` or `#[kernel]`, in the file and its inline modules,
/// in order. For tools that read kernels from source, such as
/// `ballot portability`; [`lower_file_kernels`] names each by its path.
///
/// # Errors
/// As [`lower_file_kernels`].
pub fn lower_file(source: &str) -> syn::Result<Vec<Lowered>> {
    Ok(lower_file_kernels(source)?
        .into_iter()
        .map(|k| k.lowered)
        .collect())
}

/// Lowers every kernel of a Rust file held as text, as [`lower_file`]
/// does, each with the inline modules it is in.
///
/// # Errors
/// The file does not parse, a kernel in it does not lower, two kernels
/// of one module have one name, or kernels call each other in a cycle
/// ([`check_recursion`]): the first error, with its span.
pub fn lower_file_kernels(source: &str) -> syn::Result<Vec<FileKernel>> {
    ballot_ir::stack::deep(|| {
        let file: syn::File = parse_checked(source)?;
        let mut out = Vec::new();
        file::collect(&file.items, &mut Vec::new(), &mut out)?;
        check_recursion(&out).map_err(|(_, e)| e)?;
        Ok(out)
    })
}

/// Parses `source` as a `T`, after the token checks the macro makes, so
/// that no text can overflow syn's recursion.
fn parse_checked<T: syn::parse::Parse>(source: &str) -> syn::Result<T> {
    // Where the lexer stopped (with proc-macro2's `span-locations`, as a
    // tool reading a file enables, its line and column).
    let tokens: proc_macro2::TokenStream = source.parse().map_err(|e: proc_macro2::LexError| {
        syn::Error::new(
            e.span(),
            "the text is no Rust tokens from here: an unclosed bracket or string, or a \
             character Rust has no token for",
        )
    })?;
    limits::check_tokens(tokens.clone())?;
    syn::parse2(tokens)
}

/// Parses and lowers a kernel held as text, with the checks the macro makes
/// on its tokens: for tools and tests.
pub fn lower_source(source: &str) -> syn::Result<Lowered> {
    ballot_ir::stack::deep(|| {
        let item: syn::ItemFn = parse_checked(source)?;
        limits::check_depth(&item)?;
        lower(&item)
    })
}

/// The state of one kernel's lowering.
struct Lowerer {
    /// The kernel's name, to spot recursion.
    name: String,
    /// The return type.
    ret: Ret,
    /// The IR built so far.
    b: Builder,
    /// Every error so far.
    errors: Errors,
    /// The names in scope.
    scopes: Scopes,
    /// One entry per enclosing loop, innermost last: whether a `break`
    /// leaves it (a `loop` that none leaves never completes).
    loops: Vec<bool>,
    /// The loop labels reported so far, so that a `break 'label` to one
    /// is not reported again.
    labels: BTreeSet<String>,
}

impl Lowerer {
    fn new(name: &syn::Ident) -> Self {
        Lowerer {
            name: scope::name_of(name),
            ret: Ret::Unit,
            b: Builder::default(),
            errors: Errors::default(),
            scopes: Scopes::default(),
            loops: Vec::new(),
            labels: BTreeSet::new(),
        }
    }

    fn finish(self, params: Vec<ir::Param>, body: ir::Block) -> syn::Result<Lowered> {
        self.errors.finish()?;
        let ret = match self.ret {
            Ret::Val(ty) => Some(ty),
            Ret::Unit | Ret::Err => None,
        };
        Ok(self.b.finish(self.name, params, ret, body))
    }
}
