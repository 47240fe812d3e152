//! `let`, assignment and compound assignment.

use syn::spanned::Spanned;

use super::error::unsupported;
use super::expr::strip_parens;
use super::infer::Later;
use super::scope::{name_of, Binding};
use super::sig::Bound;
use super::ty::{Operand, Value};
use super::{reject, Lowerer};
use ballot_ir::ir::{BinaryOp, Block, Expr, Stmt, Type};

impl Lowerer {
    /// Lowers `let [mut] x [: T] = init;` (or `let _ = init;`).
    pub(super) fn let_stmt(
        &mut self,
        out: &mut Block,
        local: &syn::Local,
        later: Later<'_>,
    ) -> Value {
        for attr in &local.attrs {
            let message = unsupported("attributes on statements");
            self.errors.spanned(attr, message);
        }
        let (pat, annotation) = match &local.pat {
            syn::Pat::Type(p) => (&*p.pat, Some(&*p.ty)),
            pat => (pat, None),
        };
        let declared = annotation.map(|ty| self.ty(ty));
        let bound = self.bound_pat(pat);
        let Some(init) = &local.init else {
            self.uninitialized(local, pat, bound);
            return Value::Unit;
        };
        if let Some((else_token, _)) = &init.diverge {
            let message = unsupported("`let ... else` statements");
            self.errors.spanned(else_token, message);
        }
        let expected = match (declared, &bound) {
            (Some(ty), _) => ty,
            (None, Some(Bound::Name(ident, _))) => self
                .hint(&init.expr)
                .or_else(|| self.type_from_uses(&name_of(ident), later)),
            (None, _) => None,
        };
        let value = self.expr(out, &init.expr, expected);
        self.store(out, local, bound, declared, value, &init.expr);
        if value.is_never() {
            Value::Never
        } else {
            Value::Unit
        }
    }

    /// Reports `let x;`, binding `x` so its uses raise no errors.
    fn uninitialized(&mut self, local: &syn::Local, pat: &syn::Pat, bound: Option<Bound<'_>>) {
        let message =
            "`let` without an initializer is not supported in a kernel; give the binding a value";
        let let_token = local.let_token;
        self.errors.spanned(quote::quote!(#let_token #pat), message);
        match bound {
            Some(Bound::Name(ident, mutable)) => {
                self.declare(ident, None, mutable);
            }
            Some(Bound::Wild) => {}
            None => self.bind_unlowered(pat),
        }
    }

    /// Declares what a `let` binds, and stores its value.
    fn store(
        &mut self,
        out: &mut Block,
        local: &syn::Local,
        bound: Option<Bound<'_>>,
        declared: Option<Option<Type>>,
        value: Value,
        init: &syn::Expr,
    ) {
        let stmt = match bound {
            Some(Bound::Name(ident, mutable)) => {
                let (ty, operand) = self.binding_value(value, declared, init);
                let target = self.declare(ident, ty, mutable);
                self.b.assign(target, operand.expr, local.span())
            }
            Some(Bound::Wild) => match value {
                Value::Val(value, _) => self.b.stmt(Stmt::Eval(value), local.span()),
                _ => return,
            },
            None => return self.bind_unlowered(&local.pat),
        };
        out.push(stmt);
    }

    /// The type of a new binding, from its annotation or else its value,
    /// and the value to store.
    fn binding_value(
        &mut self,
        value: Value,
        declared: Option<Option<Type>>,
        init: &syn::Expr,
    ) -> (Option<Type>, Operand) {
        match (declared, value) {
            (Some(ty), value) => (ty, self.require(value, ty, init)),
            (None, Value::Val(expr, ty)) => (Some(ty), Operand { expr, ty: Some(ty) }),
            (None, Value::Unit) => {
                self.errors
                    .spanned(init, unsupported("`let` bindings of type `()`"));
                (None, self.stand_in(None, init.span()))
            }
            (None, Value::Never | Value::Err) => (None, self.stand_in(None, init.span())),
        }
    }

    /// Lowers `x = value`.
    pub(super) fn assign(&mut self, out: &mut Block, e: &syn::ExprAssign) -> Value {
        let target = self.assign_target(&e.left);
        let want = target.and_then(|t| t.ty);
        let value = self.expr(out, &e.right, want);
        let flow = if value.is_never() {
            Value::Never
        } else {
            Value::Unit
        };
        if let Some(target) = target {
            let value = self.require(value, want, &e.right);
            let stmt = self.b.assign(target.local, value.expr, e.span());
            out.push(stmt);
        }
        flow
    }

    /// Lowers `x op= value` as `x = x op value`. Rust evaluates the right
    /// operand of a compound assignment of primitives first, and so does
    /// this: its hoisted statements, if any, run before `x` is loaded.
    pub(super) fn compound_assign(
        &mut self,
        out: &mut Block,
        e: &syn::ExprBinary,
        op: BinaryOp,
    ) -> Value {
        let target = self.assign_target(&e.left);
        let want = match op {
            BinaryOp::Shl | BinaryOp::Shr => Some(Type::U32),
            _ => target.and_then(|t| t.ty),
        };
        let value = self.expr(out, &e.right, want);
        let Some(target) = target else {
            return Value::Unit;
        };
        let right = self.require(value, want, &e.right);
        let left = Operand {
            expr: self.b.load(target.local, e.left.span()),
            ty: target.ty,
        };
        let ty = self.binary_type(op, &e.op, left.ty);
        let combined = Expr::Binary {
            op,
            left: left.expr,
            right: right.expr,
        };
        let combined = self.b.expr(combined, ty.unwrap_or(Type::I32), e.span());
        let stmt = self.b.assign(target.local, combined, e.span());
        out.push(stmt);
        Value::Unit
    }

    /// The mutable local that `left` names, reporting anything else.
    fn assign_target(&mut self, left: &syn::Expr) -> Option<Binding> {
        let ident = match strip_parens(left) {
            syn::Expr::Path(p) if p.qself.is_none() => p.path.get_ident(),
            _ => None,
        };
        let Some(ident) = ident else {
            let error = reject::expr(left).unwrap_or_else(|| {
                syn::Error::new_spanned(left, "invalid left-hand side of assignment")
            });
            self.errors.push(error);
            return None;
        };
        let Some(binding) = self.scopes.lookup(&name_of(ident)) else {
            self.errors
                .spanned(ident, format!("cannot find value `{ident}` in this kernel"));
            return None;
        };
        if !binding.mutable {
            let message = format!("cannot assign twice to immutable variable `{ident}`");
            self.errors.spanned(ident, message);
        }
        Some(binding)
    }
}
