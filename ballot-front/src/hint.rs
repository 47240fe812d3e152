//! Type hints: the type an expression will have, read off its syntax
//! before it is lowered.
//!
//! Rust types `x + 1` from `x`, and `1 + x` too. Lowering runs left to
//! right, so before the `1` is lowered, the hint of `x` says which type it
//! takes. A hint is only a preference: the lowered operands are still
//! checked against each other.

use super::call::{pinned_type, resolve, Callee};
use super::expr::{binary_op, constant};
use super::scope::name_of;
use super::ty::parse_type;
use super::Lowerer;
use ballot_ir::ir::{op_is_generic, op_signature, BinaryOp, Type};
use ballot_ir::op::Op;

impl Lowerer {
    /// The type `e` will have, where its syntax and the names in scope tell.
    pub(super) fn hint(&self, e: &syn::Expr) -> Option<Type> {
        match e {
            syn::Expr::Lit(l) => literal_hint(&l.lit),
            syn::Expr::Path(p) if p.qself.is_none() => match p.path.get_ident() {
                Some(ident) => self.scopes.lookup(&name_of(ident)).and_then(|b| b.ty),
                None => constant(&p.path).map(|c| c.ty()),
            },
            syn::Expr::Paren(p) => self.hint(&p.expr),
            syn::Expr::Group(g) => self.hint(&g.expr),
            syn::Expr::Unary(u) => match u.op {
                syn::UnOp::Neg(_) | syn::UnOp::Not(_) => self.hint(&u.expr),
                _ => None,
            },
            syn::Expr::Binary(b) => self.binary_hint(b),
            syn::Expr::Cast(c) => parse_type(&c.ty).ok(),
            syn::Expr::Call(c) => self.call_hint(c),
            syn::Expr::MethodCall(m) => match m.method.to_string().as_str() {
                "contains" | "is_empty" => Some(Type::Bool),
                "count" => Some(Type::U32),
                _ => None,
            },
            syn::Expr::If(i) => self.if_hint(i),
            syn::Expr::Block(b) => self.block_hint(&b.block),
            _ => None,
        }
    }

    /// The hint of an `if`: that of whichever arm has one.
    pub(super) fn if_hint(&self, e: &syn::ExprIf) -> Option<Type> {
        self.block_hint(&e.then_branch).or_else(|| {
            let (_, branch) = e.else_branch.as_ref()?;
            self.hint(branch)
        })
    }

    fn binary_hint(&self, e: &syn::ExprBinary) -> Option<Type> {
        let (op, compound) = binary_op(&e.op)?;
        match op {
            _ if compound => None,
            _ if op.is_comparison() => Some(Type::Bool),
            BinaryOp::LogicalAnd | BinaryOp::LogicalOr => Some(Type::Bool),
            BinaryOp::Shl | BinaryOp::Shr => self.hint(&e.left),
            _ => self.hint(&e.left).or_else(|| self.hint(&e.right)),
        }
    }

    fn call_hint(&self, e: &syn::ExprCall) -> Option<Type> {
        let syn::Expr::Path(p) = &*e.func else {
            return None;
        };
        match resolve(&p.path, &self.name) {
            Callee::Op(Op::AllEqual) => Some(Type::Bool),
            Callee::Op(op) if op_is_generic(op) => {
                pinned_type(op).or_else(|| self.hint(e.args.first()?))
            }
            Callee::QuadSwap => self.hint(e.args.first()?),
            Callee::Clustered(arith) => {
                pinned_type(Op::Clustered(arith)).or_else(|| self.hint(e.args.first()?))
            }
            Callee::Op(op) => Some(op_signature(op, Type::U32).1),
            Callee::LaneId | Callee::SubgroupSize => Some(Type::U32),
            Callee::Mask(fun) => Some(fun.result()),
            Callee::Kernel(_) | Callee::Recursion | Callee::Unknown(_) => None,
        }
    }

    /// The hint of a block made of a tail expression only: with statements
    /// before it, the tail may name locals not yet in scope.
    fn block_hint(&self, block: &syn::Block) -> Option<Type> {
        match block.stmts.as_slice() {
            [syn::Stmt::Expr(tail, None)] => self.hint(tail),
            _ => None,
        }
    }
}

fn literal_hint(lit: &syn::Lit) -> Option<Type> {
    match lit {
        syn::Lit::Bool(_) => Some(Type::Bool),
        syn::Lit::Float(_) => Some(Type::F32),
        syn::Lit::Int(i) => match i.suffix() {
            "u32" => Some(Type::U32),
            "i32" => Some(Type::I32),
            "f32" => Some(Type::F32),
            _ => None,
        },
        _ => None,
    }
}
