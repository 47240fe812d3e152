//! Control flow other than loops: `if`, blocks and `return`.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::error::{mismatch, unsupported};
use super::expr::strip_parens;
use super::ty::{Operand, Ret, Value, Want};
use super::Lowerer;
use ballot_ir::ir::{Block, Expr, Stmt, Type};

/// One arm of an `if` lowered on its own: its statements and its value.
struct Arm {
    block: Block,
    value: Value,
    span: Span,
}

/// An `if` whose condition and arms are lowered, not yet placed.
struct Branches {
    cond: Operand,
    accept: Arm,
    reject: Arm,
}

impl Branches {
    /// The `if` as a statement, each arm's block as lowered.
    fn into_stmt(self) -> Stmt {
        Stmt::If {
            cond: self.cond.expr,
            accept: self.accept.block,
            reject: self.reject.block,
        }
    }
}

impl Lowerer {
    /// Lowers the expressions that are control flow, and rejects the rest.
    pub(super) fn control(&mut self, out: &mut Block, e: &syn::Expr) -> Value {
        match e {
            syn::Expr::While(w) => self.while_expr(out, w),
            syn::Expr::Loop(l) => self.loop_expr(out, l),
            syn::Expr::ForLoop(f) => self.for_expr(out, f),
            syn::Expr::Break(b) => self.break_expr(out, b),
            syn::Expr::Continue(c) => self.continue_expr(out, c),
            syn::Expr::Return(r) => self.return_expr(out, r),
            other => self.reject(other),
        }
    }

    /// Lowers a `bool` condition.
    pub(super) fn cond(&mut self, out: &mut Block, cond: &syn::Expr) -> Operand {
        let value = self.expr(out, cond, Some(Type::Bool));
        self.require(value, Some(Type::Bool), cond)
    }

    /// Lowers `if`. As a value, an `if` whose arms are pure becomes an
    /// [`Expr::Select`]; any other is hoisted into a [`Stmt::If`] whose
    /// arms store their value in a temporary (invariant 4).
    pub(super) fn if_expr(&mut self, out: &mut Block, e: &syn::ExprIf, want: Want) -> Value {
        if let syn::Expr::Let(l) = strip_parens(&e.cond) {
            self.errors
                .spanned(l.let_token, unsupported("`if let` expressions"));
            self.unlowered_body(Some(&l.pat), &e.then_branch, false);
            if let Some((_, branch)) = &e.else_branch {
                self.expr_stmt(&mut Block::new(), branch);
            }
            return Value::Err;
        }
        // `if p { 1 } else { x }` types the `1` from `x`, as Rust does.
        let want = match want {
            Want::Value(None) => Want::Value(self.if_hint(e)),
            want => want,
        };
        let cond = self.cond(out, &e.cond);
        let accept = self.arm(&e.then_branch, want);
        let else_want = match (want, accept.value) {
            (Want::Value(expected), value) => Want::Value(value.ty().or(expected)),
            (Want::Discard, _) => Want::Discard,
        };
        let reject = match &e.else_branch {
            Some((_, branch)) => self.else_arm(branch, else_want),
            None => Arm {
                block: Block::new(),
                value: Value::Unit,
                span: e.span(),
            },
        };
        let branches = Branches {
            cond,
            accept,
            reject,
        };
        match want {
            Want::Discard => self.if_stmt(out, e, branches),
            Want::Value(_) => self.if_value(out, e, branches),
        }
    }

    fn arm(&mut self, block: &syn::Block, want: Want) -> Arm {
        let mut out = Block::new();
        let value = self.block(&mut out, block, want);
        let span = match block.stmts.last() {
            Some(syn::Stmt::Expr(tail, None)) => tail.span(),
            _ => block.span(),
        };
        Arm {
            block: out,
            value,
            span,
        }
    }

    fn else_arm(&mut self, branch: &syn::Expr, want: Want) -> Arm {
        match branch {
            syn::Expr::Block(b) if b.label.is_none() => self.arm(&b.block, want),
            other => {
                let mut out = Block::new();
                let value = match (other, want) {
                    (syn::Expr::If(i), _) => self.if_expr(&mut out, i, want),
                    (_, Want::Value(expected)) => self.expr(&mut out, other, expected),
                    (_, Want::Discard) => self.expr_stmt(&mut out, other),
                };
                Arm {
                    block: out,
                    value,
                    span: other.span(),
                }
            }
        }
    }

    fn if_stmt(&mut self, out: &mut Block, e: &syn::ExprIf, branches: Branches) -> Value {
        let never = branches.accept.value.is_never() && branches.reject.value.is_never();
        out.push(self.b.stmt(branches.into_stmt(), e.span()));
        if never {
            Value::Never
        } else {
            Value::Unit
        }
    }

    fn if_value(&mut self, out: &mut Block, e: &syn::ExprIf, branches: Branches) -> Value {
        let (a, r) = (branches.accept.value, branches.reject.value);
        if !a.is_value() && !r.is_value() {
            return self.if_stmt(out, e, branches);
        }
        if !self.arms_agree(e, a, r, branches.reject.span) {
            self.if_stmt(out, e, branches);
            return Value::Err;
        }
        let ty = a.ty().or(r.ty());
        match (a, r) {
            (Value::Val(ax, _), Value::Val(rx, _))
                if self.is_pure_arm(&branches.accept, ax)
                    && self.is_pure_arm(&branches.reject, rx) =>
            {
                let select = Expr::Select {
                    cond: branches.cond.expr,
                    accept: ax,
                    reject: rx,
                };
                self.value(select, ty, e.span())
            }
            _ => self.if_temp(out, e, branches, ty),
        }
    }

    /// Reports arms whose values cannot be joined; whether they can.
    fn arms_agree(&mut self, e: &syn::ExprIf, a: Value, r: Value, else_span: Span) -> bool {
        if e.else_branch.is_none() {
            let message = "`if` may be missing an `else` clause";
            self.errors.spanned(e.if_token, message);
            return false;
        }
        let agree = match (a, r) {
            (Value::Unit, _) | (_, Value::Unit) => false,
            (Value::Val(_, ta), Value::Val(_, tr)) => ta == tr,
            _ => true,
        };
        if !agree {
            let (expected, found) = (describe(a), describe(r));
            let message = format!(
                "`if` and `else` have incompatible types: expected `{expected}`, found `{found}`"
            );
            self.errors.at(else_span, message);
        }
        agree
    }

    fn is_pure_arm(&self, arm: &Arm, value: ballot_ir::ir::Handle<Expr>) -> bool {
        arm.block.is_empty() && !self.b.has_collective(value)
    }

    /// `if` as a value through a temporary: each arm that completes stores
    /// its value last, so the temporary is set on every path that reads it.
    fn if_temp(
        &mut self,
        out: &mut Block,
        e: &syn::ExprIf,
        mut branches: Branches,
        ty: Option<Type>,
    ) -> Value {
        let span = e.span();
        let temp = self.b.temp("if", ty.unwrap_or(Type::I32), false, span);
        for arm in [&mut branches.accept, &mut branches.reject] {
            if arm.value.is_never() || matches!(arm.value, Value::Unit) {
                continue;
            }
            let value = match arm.value {
                Value::Val(value, _) => value,
                _ => self.b.placeholder(ty.unwrap_or(Type::I32), arm.span),
            };
            let stmt = self.b.assign(temp, value, arm.span);
            arm.block.push(stmt);
        }
        out.push(self.b.stmt(branches.into_stmt(), span));
        let load = self.b.load(temp, span);
        ty.map_or(Value::Err, |ty| Value::Val(load, ty))
    }

    /// Lowers a block expression `{ … }`.
    pub(super) fn block_expr(&mut self, out: &mut Block, e: &syn::ExprBlock, want: Want) -> Value {
        if let Some(label) = &e.label {
            self.errors
                .spanned(&label.name, unsupported("labeled blocks"));
        }
        self.block(out, &e.block, want)
    }

    fn return_expr(&mut self, out: &mut Block, e: &syn::ExprReturn) -> Value {
        let value = match (&e.expr, self.ret) {
            (Some(value), Ret::Val(ty)) => {
                let lowered = self.expr(out, value, Some(ty));
                if lowered.is_never() {
                    return Value::Never;
                }
                Some(self.require(lowered, Some(ty), value).expr)
            }
            (Some(value), ret) => {
                if let (Value::Val(_, ty), Ret::Unit) = (self.expr(out, value, None), ret) {
                    self.errors.spanned(value, mismatch("()", ty));
                }
                None
            }
            (None, Ret::Val(ty)) => {
                self.errors.spanned(e.return_token, mismatch(ty, "()"));
                None
            }
            (None, _) => None,
        };
        out.push(self.b.stmt(Stmt::Return(value), e.span()));
        Value::Never
    }
}

/// How an arm's value reads in a message.
fn describe(value: Value) -> String {
    match value {
        Value::Val(_, ty) => ty.to_string(),
        Value::Unit => "()".to_owned(),
        Value::Never => "!".to_owned(),
        Value::Err => "_".to_owned(),
    }
}
