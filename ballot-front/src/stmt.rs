//! Blocks and statements: `let`, assignment, compound assignment and
//! expression statements, and the kernel body with its tail expression.

use syn::spanned::Spanned;

use super::error::{mismatch, snippet, unsupported};
use super::infer::Later;
use super::ty::{Ret, Value, Want};
use super::Lowerer;
use ballot_ir::ir::{Block, Stmt, Type};

/// The statements of a block, and its tail expression if it has one.
pub(super) fn split_tail(block: &syn::Block) -> (&[syn::Stmt], Option<&syn::Expr>) {
    match block.stmts.split_last() {
        Some((syn::Stmt::Expr(tail, None), rest)) => (rest, Some(tail)),
        _ => (&block.stmts, None),
    }
}

impl Lowerer {
    /// Lowers the kernel body; the parameters' scope, opened by
    /// [`Lowerer::signature`], closes here.
    pub(super) fn body(&mut self, block: &syn::Block) -> Block {
        let mut out = Block::new();
        self.scopes.push();
        let tail_ty = match self.ret {
            Ret::Val(ty) => Some(ty),
            Ret::Unit | Ret::Err => None,
        };
        let flow = match self.stmts(&mut out, block, tail_ty) {
            true => Value::Never,
            false => Value::Unit,
        };
        match split_tail(block).1 {
            Some(tail) => self.tail(&mut out, tail),
            None => self.falls_off(block, flow),
        }
        self.scopes.pop();
        self.scopes.pop();
        out
    }

    /// The body's tail expression: the kernel's result.
    fn tail(&mut self, out: &mut Block, tail: &syn::Expr) {
        match self.ret {
            Ret::Val(ty) => {
                let value = self.expr(out, tail, Some(ty));
                if !value.is_never() {
                    let result = self.require(value, Some(ty), tail);
                    let stmt = self.b.stmt(Stmt::Return(Some(result.expr)), tail.span());
                    out.push(stmt);
                }
            }
            Ret::Unit => {
                if let Value::Val(_, ty) = self.expr(out, tail, None) {
                    self.errors.spanned(tail, mismatch("()", ty));
                }
            }
            Ret::Err => {
                self.expr_stmt(out, tail);
            }
        }
    }

    /// Reports a body without a tail that can reach its end in a kernel
    /// that returns a value.
    fn falls_off(&mut self, block: &syn::Block, flow: Value) {
        if let (Ret::Val(ty), false) = (self.ret, flow.is_never()) {
            let message = format!(
                "{}; the kernel's body does not return a value on every path",
                mismatch(ty, "()")
            );
            self.errors.at(block.brace_token.span.close(), message);
        }
    }

    /// Lowers a block in a scope of its own; see [`Want`] for its tail.
    pub(super) fn block(&mut self, out: &mut Block, block: &syn::Block, want: Want) -> Value {
        self.scopes.push();
        let tail_ty = match want {
            Want::Value(expected) => expected,
            Want::Discard => None,
        };
        let never = self.stmts(out, block, tail_ty);
        let value = match (split_tail(block).1, want) {
            (Some(tail), Want::Value(expected)) => self.expr(out, tail, expected),
            (Some(tail), Want::Discard) => self.expr_stmt(out, tail),
            (None, _) => Value::Unit,
        };
        self.scopes.pop();
        match value {
            Value::Unit if never => Value::Never,
            value => value,
        }
    }

    /// Lowers the statements of a block before its tail; whether control
    /// never gets past them. `tail_ty` is the type the tail must have.
    fn stmts(&mut self, out: &mut Block, block: &syn::Block, tail_ty: Option<Type>) -> bool {
        let (stmts, _) = split_tail(block);
        let mut never = false;
        for (i, stmt) in stmts.iter().enumerate() {
            let later = Later {
                stmts: &block.stmts[i + 1..],
                tail: tail_ty,
            };
            never |= self.stmt(out, stmt, later).is_never();
        }
        never
    }

    /// Lowers a statement: [`Value::Never`] if control never gets past it.
    fn stmt(&mut self, out: &mut Block, stmt: &syn::Stmt, later: Later<'_>) -> Value {
        match stmt {
            syn::Stmt::Local(local) => self.let_stmt(out, local, later),
            syn::Stmt::Expr(expr, _) => self.expr_stmt(out, expr),
            syn::Stmt::Item(item) => {
                self.errors
                    .spanned(item, "items are not supported inside a kernel");
                Value::Unit
            }
            syn::Stmt::Macro(mac) => {
                let message = format!(
                    "{}, found `{}!`",
                    unsupported("macros"),
                    snippet(&mac.mac.path)
                );
                let (path, bang) = (&mac.mac.path, mac.mac.bang_token);
                self.errors.spanned(quote::quote!(#path #bang), message);
                Value::Unit
            }
        }
    }

    /// Lowers an expression for its effects only.
    pub(super) fn expr_stmt(&mut self, out: &mut Block, expr: &syn::Expr) -> Value {
        match expr {
            syn::Expr::If(e) => self.if_expr(out, e, Want::Discard),
            syn::Expr::Block(e) => self.block_expr(out, e, Want::Discard),
            _ => match self.expr(out, expr, None) {
                Value::Val(value, _) => {
                    let stmt = self.b.stmt(Stmt::Eval(value), expr.span());
                    out.push(stmt);
                    Value::Unit
                }
                Value::Never => Value::Never,
                Value::Unit | Value::Err => Value::Unit,
            },
        }
    }
}
