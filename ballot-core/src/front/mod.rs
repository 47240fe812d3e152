//! Lowers a `#[ballot::kernel]` function from the syn AST to [`crate::ir`].
//!
//! (Work in progress: the lowering lands with the kernel language.)

use proc_macro2::Span;

use crate::ir;

/// Source spans of a lowered kernel's nodes, indexed like its arenas.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    /// The span of each expression, indexed like `Kernel::exprs`.
    pub exprs: Vec<Span>,
    /// The span of each statement, indexed like `Kernel::stmts`.
    pub stmts: Vec<Span>,
    /// The span of each local's declaring identifier, indexed like `Kernel::locals`.
    pub locals: Vec<Span>,
}

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
    Err(syn::Error::new_spanned(&item.sig.ident, "kernel lowering is not implemented yet"))
}
