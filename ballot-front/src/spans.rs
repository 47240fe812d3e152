//! Where each node of a lowered kernel came from in the user's Rust: the
//! spans the front end records and the native printer quotes, so that an
//! error in the generated code points at the kernel's own tokens.
//!
//! Beside [`ballot_ir::ir`], not in the front end: the Rust printer reads it
//! and names no module above the IR (feature `macros`, as both of its
//! users are).

use proc_macro2::Span;

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
