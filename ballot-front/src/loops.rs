//! Loops: `loop`, `while` and `for`, with `break` and `continue`.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::error::unsupported;
use super::expr::strip_parens;
use super::infer::Later;
use super::scope::name_of;
use super::sig::Bound;
use super::ty::{Operand, Value, Want};
use super::Lowerer;
use ballot_ir::ir::{BinaryOp, Block, Expr, Handle, Literal, Local, Stmt, Type, UnaryOp};

impl Lowerer {
    /// Lowers a loop body with the loop's entry on the loop stack; returns
    /// the body and whether a `break` leaves the loop.
    fn in_loop(&mut self, fill: impl FnOnce(&mut Self, &mut Block)) -> (Block, bool) {
        self.loops.push(false);
        let mut body = Block::new();
        fill(self, &mut body);
        let broken = self.loops.pop().unwrap_or(false);
        (body, broken)
    }

    /// Lowers the body of a construct that has been reported, only to
    /// find the errors inside; the names `pat` binds have unknown types.
    pub(super) fn unlowered_body(
        &mut self,
        pat: Option<&syn::Pat>,
        block: &syn::Block,
        is_loop: bool,
    ) {
        let lower = |cx: &mut Self, out: &mut Block| {
            cx.scopes.push();
            if let Some(pat) = pat {
                cx.bind_unlowered(pat);
            }
            cx.block(out, block, Want::Discard);
            cx.scopes.pop();
        };
        if is_loop {
            self.in_loop(lower);
        } else {
            lower(self, &mut Block::new());
        }
    }

    fn no_label(&mut self, label: &Option<syn::Label>) {
        if let Some(label) = label {
            self.errors.spanned(&label.name, unsupported("loop labels"));
            self.labels.insert(label.name.ident.to_string());
        }
    }

    /// Reports the label of a `break` or `continue`, unless the loop it
    /// names was reported already.
    fn no_jump_label(&mut self, label: &Option<syn::Lifetime>) {
        if let Some(label) = label {
            if !self.labels.contains(&label.ident.to_string()) {
                self.errors.spanned(label, unsupported("loop labels"));
            }
        }
    }

    pub(super) fn loop_expr(&mut self, out: &mut Block, e: &syn::ExprLoop) -> Value {
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
    pub(super) fn while_expr(&mut self, out: &mut Block, e: &syn::ExprWhile) -> Value {
        self.no_label(&e.label);
        if let syn::Expr::Let(l) = strip_parens(&e.cond) {
            self.errors
                .spanned(l.let_token, unsupported("`while let` loops"));
            self.unlowered_body(Some(&l.pat), &e.body, true);
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
    fn break_unless(&mut self, out: &mut Block, cond: Handle<Expr>, span: Span) {
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

    pub(super) fn break_expr(&mut self, out: &mut Block, e: &syn::ExprBreak) -> Value {
        self.no_jump_label(&e.label);
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

    pub(super) fn continue_expr(&mut self, out: &mut Block, e: &syn::ExprContinue) -> Value {
        self.no_jump_label(&e.label);
        if self.loops.is_empty() {
            self.errors
                .spanned(e.continue_token, "`continue` outside of a loop");
        }
        out.push(self.b.stmt(Stmt::Continue, e.span()));
        Value::Never
    }

    /// `for i in a..b { body }`: a hidden counter runs from `a`, and `b` is
    /// evaluated once, before the loop.
    pub(super) fn for_expr(&mut self, out: &mut Block, e: &syn::ExprForLoop) -> Value {
        self.no_label(&e.label);
        let bound = self.bound_pat(&e.pat);
        let Some((start, end)) = self.for_range(&e.expr) else {
            self.unlowered_body(Some(&e.pat), &e.body, true);
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
            match bound {
                Some(Bound::Name(ident, mutable)) => {
                    let index = cx.declare(ident, ty, mutable);
                    let value = cx.b.load(counter, ident.span());
                    body.push(cx.b.assign(index, value, ident.span()));
                }
                Some(Bound::Wild) => {}
                None => cx.bind_unlowered(&e.pat),
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
    ) -> Handle<Local> {
        let value = self.expr(out, bound, ty);
        let value = self.require(value, ty, bound);
        let local = self
            .b
            .temp(prefix, ty.unwrap_or(Type::I32), mutable, bound.span());
        out.push(self.b.assign(local, value.expr, bound.span()));
        local
    }

    /// `counter = counter + 1`.
    fn increment(&mut self, counter: Handle<Local>, ty: Option<Type>, span: Span) -> Handle<Stmt> {
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
