//! Control flow: `if`, blocks, loops, `break`, `continue` and `return`.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::error::{mismatch, unsupported};
use super::expr::strip_parens;
use super::infer::Later;
use super::scope::name_of;
use super::sig::Bound;
use super::ty::{Operand, Ret, Value, Want};
use super::Lowerer;
use crate::ir::{BinaryOp, Block, Expr, Literal, Stmt, Type, UnaryOp};

/// One arm of an `if` lowered on its own: its statements and its value.
struct Arm {
    block: Block,
    value: Value,
    span: Span,
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
    fn cond(&mut self, out: &mut Block, cond: &syn::Expr) -> Operand {
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
            return Value::Err;
        }
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
        match want {
            Want::Discard => self.if_stmt(out, e, cond, accept, reject),
            Want::Value(_) => self.if_value(out, e, cond, accept, reject),
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

    fn if_stmt(
        &mut self,
        out: &mut Block,
        e: &syn::ExprIf,
        cond: Operand,
        accept: Arm,
        reject: Arm,
    ) -> Value {
        let never = accept.value.is_never() && reject.value.is_never();
        let stmt = Stmt::If {
            cond: cond.expr,
            accept: accept.block,
            reject: reject.block,
        };
        out.push(self.b.stmt(stmt, e.span()));
        if never {
            Value::Never
        } else {
            Value::Unit
        }
    }

    fn if_value(
        &mut self,
        out: &mut Block,
        e: &syn::ExprIf,
        cond: Operand,
        accept: Arm,
        reject: Arm,
    ) -> Value {
        let (a, r) = (accept.value, reject.value);
        if !a.is_value() && !r.is_value() {
            return self.if_stmt(out, e, cond, accept, reject);
        }
        if e.else_branch.is_none() {
            self.errors
                .spanned(e.if_token, "`if` may be missing an `else` clause");
        } else if matches!(a, Value::Unit) || matches!(r, Value::Unit) {
            let (expected, found) = (describe(a), describe(r));
            let message = format!(
                "`if` and `else` have incompatible types: expected `{expected}`, found `{found}`"
            );
            self.errors.at(reject.span, message);
        } else if let (Value::Val(_, ta), Value::Val(_, tr)) = (a, r) {
            if ta != tr {
                let message = format!(
                    "`if` and `else` have incompatible types: expected `{ta}`, found `{tr}`"
                );
                self.errors.at(reject.span, message);
                self.if_stmt(out, e, cond, accept, reject);
                return Value::Err;
            }
        }
        let ty = a.ty().or(r.ty());
        match (a, r) {
            (Value::Val(ax, _), Value::Val(rx, _))
                if self.is_pure_arm(&accept, ax) && self.is_pure_arm(&reject, rx) =>
            {
                let select = Expr::Select {
                    cond: cond.expr,
                    accept: ax,
                    reject: rx,
                };
                self.value(select, ty, e.span())
            }
            _ => self.if_temp(out, e, cond, accept, reject, ty),
        }
    }

    fn is_pure_arm(&self, arm: &Arm, value: crate::ir::Handle<Expr>) -> bool {
        arm.block.is_empty() && !self.b.has_collective(value)
    }

    /// `if` as a value through a temporary: each arm that completes stores
    /// its value last, so the temporary is set on every path that reads it.
    fn if_temp(
        &mut self,
        out: &mut Block,
        e: &syn::ExprIf,
        cond: Operand,
        mut accept: Arm,
        mut reject: Arm,
        ty: Option<Type>,
    ) -> Value {
        let span = e.span();
        let temp = self.b.temp("if", ty.unwrap_or(Type::I32), false, span);
        for arm in [&mut accept, &mut reject] {
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
        let stmt = Stmt::If {
            cond: cond.expr,
            accept: accept.block,
            reject: reject.block,
        };
        out.push(self.b.stmt(stmt, span));
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

    /// Lowers a loop body with the loop's entry on the loop stack; returns
    /// the body and whether a `break` leaves the loop.
    fn in_loop(&mut self, fill: impl FnOnce(&mut Self, &mut Block)) -> (Block, bool) {
        self.loops.push(false);
        let mut body = Block::new();
        fill(self, &mut body);
        let broken = self.loops.pop().unwrap_or(false);
        (body, broken)
    }

    fn no_label(&mut self, label: &Option<syn::Label>) {
        if let Some(label) = label {
            self.errors.spanned(&label.name, unsupported("loop labels"));
        }
    }

    fn loop_expr(&mut self, out: &mut Block, e: &syn::ExprLoop) -> Value {
        self.no_label(&e.label);
        let (body, broken) = self.in_loop(|cx, body| {
            cx.block(body, &e.body, Want::Discard);
        });
        let stmt = Stmt::Loop {
            body,
            continuing: Block::new(),
        };
        out.push(self.b.stmt(stmt, e.span()));
        if broken {
            Value::Unit
        } else {
            Value::Never
        }
    }

    /// `while c { body }` is `loop { if !c { break } body }`.
    fn while_expr(&mut self, out: &mut Block, e: &syn::ExprWhile) -> Value {
        self.no_label(&e.label);
        if let syn::Expr::Let(l) = strip_parens(&e.cond) {
            self.errors
                .spanned(l.let_token, unsupported("`while let` loops"));
            return Value::Unit;
        }
        let (body, _) = self.in_loop(|cx, body| {
            let cond = cx.cond(body, &e.cond);
            let cond = cx.evaluated_first(body, cond, "while");
            cx.break_unless(body, cond.expr, e.cond.span());
            cx.block(body, &e.body, Want::Discard);
        });
        let stmt = Stmt::Loop {
            body,
            continuing: Block::new(),
        };
        out.push(self.b.stmt(stmt, e.span()));
        Value::Unit
    }

    /// A condition holding a collective is stored in a temporary first, so
    /// the collective is a statement of its own.
    fn evaluated_first(&mut self, out: &mut Block, cond: Operand, prefix: &str) -> Operand {
        if !self.b.has_collective(cond.expr) {
            return cond;
        }
        let span = self.b.span_of(cond.expr);
        let temp = self.b.temp(prefix, Type::Bool, false, span);
        out.push(self.b.assign(temp, cond.expr, span));
        Operand {
            expr: self.b.load(temp, span),
            ty: cond.ty,
        }
    }

    /// Appends `if !cond { break }`.
    fn break_unless(&mut self, out: &mut Block, cond: crate::ir::Handle<Expr>, span: Span) {
        let not = Expr::Unary {
            op: UnaryOp::Not,
            arg: cond,
        };
        let not = self.b.expr(not, Type::Bool, span);
        let exit = vec![self.b.stmt(Stmt::Break, span)];
        let stmt = Stmt::If {
            cond: not,
            accept: exit,
            reject: Block::new(),
        };
        out.push(self.b.stmt(stmt, span));
    }

    fn break_expr(&mut self, out: &mut Block, e: &syn::ExprBreak) -> Value {
        if let Some(label) = &e.label {
            self.errors.spanned(label, unsupported("loop labels"));
        }
        if let Some(value) = &e.expr {
            self.errors
                .spanned(value, "`break` with a value is not supported in a kernel");
        }
        match self.loops.last_mut() {
            Some(broken) => *broken = true,
            None => self
                .errors
                .spanned(e.break_token, "`break` outside of a loop"),
        }
        out.push(self.b.stmt(Stmt::Break, e.span()));
        Value::Never
    }

    fn continue_expr(&mut self, out: &mut Block, e: &syn::ExprContinue) -> Value {
        if let Some(label) = &e.label {
            self.errors.spanned(label, unsupported("loop labels"));
        }
        if self.loops.is_empty() {
            self.errors
                .spanned(e.continue_token, "`continue` outside of a loop");
        }
        out.push(self.b.stmt(Stmt::Continue, e.span()));
        Value::Never
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

    /// `for i in a..b { body }`: a hidden counter runs from `a`, and `b` is
    /// evaluated once, before the loop.
    fn for_expr(&mut self, out: &mut Block, e: &syn::ExprForLoop) -> Value {
        self.no_label(&e.label);
        let bound = self.bound_pat(&e.pat);
        let Some((start, end)) = self.for_range(&e.expr) else {
            return Value::Unit;
        };
        let span = e.expr.span();
        let ty = self.range_type(start, end, &e.body, bound.as_ref());
        let counter = self.hidden("for", out, start, ty, true);
        let limit = self.hidden("end", out, end, ty, false);
        let (body, _) = self.in_loop(|cx, body| {
            let at = cx.b.load(counter, span);
            let below = cx.b.load(limit, span);
            let cond = Expr::Binary {
                op: BinaryOp::Lt,
                left: at,
                right: below,
            };
            let cond = cx.b.expr(cond, Type::Bool, span);
            cx.break_unless(body, cond, span);
            cx.scopes.push();
            if let Some(Bound::Name(ident, mutable)) = bound {
                let index = cx.declare(ident, ty, mutable);
                let value = cx.b.load(counter, ident.span());
                body.push(cx.b.assign(index, value, ident.span()));
            }
            cx.block(body, &e.body, Want::Discard);
            cx.scopes.pop();
        });
        let continuing = vec![self.increment(counter, ty, span)];
        out.push(self.b.stmt(Stmt::Loop { body, continuing }, e.span()));
        Value::Unit
    }

    /// The bounds of a `for` loop's `a..b`, reporting any other iterable.
    fn for_range<'a>(&mut self, iterable: &'a syn::Expr) -> Option<(&'a syn::Expr, &'a syn::Expr)> {
        let syn::Expr::Range(range) = strip_parens(iterable) else {
            let message = "`for` loops in a kernel iterate over a range `a..b` only";
            self.errors.spanned(iterable, message);
            return None;
        };
        if let syn::RangeLimits::Closed(dots) = range.limits {
            self.errors
                .spanned(dots, unsupported("inclusive ranges `a..=b`"));
            return None;
        }
        match (&range.start, &range.end) {
            (Some(start), Some(end)) => Some((start, end)),
            _ => {
                self.errors
                    .spanned(range, "`for` ranges in a kernel need both bounds: `a..b`");
                None
            }
        }
    }

    /// The type of `a..b`: `u32` or `i32`, from whichever bound is typed.
    fn range_type(
        &mut self,
        start: &syn::Expr,
        end: &syn::Expr,
        body: &syn::Block,
        bound: Option<&Bound<'_>>,
    ) -> Option<Type> {
        let from_uses = || match bound {
            Some(Bound::Name(ident, _)) => {
                let later = Later {
                    stmts: &body.stmts,
                    tail: None,
                };
                self.type_from_uses(&name_of(ident), later)
            }
            _ => None,
        };
        let ty = self
            .hint(start)
            .or(self.hint(end))
            .or_else(from_uses)
            .unwrap_or(Type::I32);
        if ty.is_integer() {
            return Some(ty);
        }
        let message = format!("`for` ranges in a kernel must be `u32` or `i32`, found `{ty}`");
        self.errors.spanned(start, message);
        None
    }

    /// Stores a `for` bound in a hidden local.
    fn hidden(
        &mut self,
        prefix: &str,
        out: &mut Block,
        bound: &syn::Expr,
        ty: Option<Type>,
        mutable: bool,
    ) -> crate::ir::Handle<crate::ir::Local> {
        let value = self.expr(out, bound, ty);
        let value = self.require(value, ty, bound);
        let local = self
            .b
            .temp(prefix, ty.unwrap_or(Type::I32), mutable, bound.span());
        out.push(self.b.assign(local, value.expr, bound.span()));
        local
    }

    /// `counter = counter + 1`.
    fn increment(
        &mut self,
        counter: crate::ir::Handle<crate::ir::Local>,
        ty: Option<Type>,
        span: Span,
    ) -> crate::ir::Handle<Stmt> {
        let one = match ty {
            Some(Type::U32) => Literal::U32(1),
            _ => Literal::I32(1),
        };
        let left = self.b.load(counter, span);
        let right = self.b.literal(one, span);
        let sum = Expr::Binary {
            op: BinaryOp::Add,
            left,
            right,
        };
        let sum = self.b.expr(sum, one.ty(), span);
        self.b.assign(counter, sum, span)
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
