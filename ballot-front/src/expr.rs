//! Expressions: names, operators and casts, and the spilling that keeps
//! Rust's evaluation order when an operand hoists statements.

use syn::spanned::Spanned;

use super::error::{snippet, unsupported};
use super::scope::name_of;
use super::ty::{parse_type, Operand, Value, Want};
use super::{reject, Lowerer};
use ballot_ir::ir::{BinaryOp, Block, Expr, Literal, Stmt, Type, UnaryOp};
use ballot_ir::mask::SubgroupMask;

/// A lowered operand, and the length of the block just after it: where its
/// spill goes if a later operand hoists statements.
pub(super) struct Pending {
    /// The operand (replaced by a load of its temporary once spilled).
    pub(super) operand: Operand,
    end: usize,
}

/// `e` without the parentheses (and invisible groups) around it.
pub(super) fn strip_parens(mut e: &syn::Expr) -> &syn::Expr {
    loop {
        match e {
            syn::Expr::Paren(p) => e = &p.expr,
            syn::Expr::Group(g) => e = &g.expr,
            _ => return e,
        }
    }
}

impl Lowerer {
    /// Lowers an expression for its value. `expected` is the type the
    /// context would like: it types unsuffixed literals and kernel calls,
    /// and the caller checks the result against what it requires.
    pub(super) fn expr(&mut self, out: &mut Block, e: &syn::Expr, expected: Option<Type>) -> Value {
        match e {
            syn::Expr::Lit(l) => self.lit(&l.lit, expected, None),
            syn::Expr::Path(p) => self.path_expr(p),
            syn::Expr::Paren(p) => self.expr(out, &p.expr, expected),
            syn::Expr::Group(g) => self.expr(out, &g.expr, expected),
            syn::Expr::Unary(u) => self.unary(out, u, expected),
            syn::Expr::Binary(b) => self.binary(out, b, expected),
            syn::Expr::Cast(c) => self.cast(out, c),
            syn::Expr::Call(c) => self.call(out, c, expected),
            syn::Expr::MethodCall(m) => self.method_call(out, m),
            syn::Expr::Assign(a) => self.assign(out, a),
            syn::Expr::Tuple(t) if t.elems.is_empty() => Value::Unit,
            syn::Expr::If(i) => self.if_expr(out, i, Want::Value(expected)),
            syn::Expr::Block(b) => self.block_expr(out, b, Want::Value(expected)),
            other => self.control(out, other),
        }
    }

    fn path_expr(&mut self, e: &syn::ExprPath) -> Value {
        if let (None, Some(ident)) = (&e.qself, e.path.get_ident()) {
            let Some(binding) = self.scopes.lookup(&name_of(ident)) else {
                self.errors
                    .spanned(ident, format!("cannot find value `{ident}` in this kernel"));
                return Value::Err;
            };
            let load = self.b.load(binding.local, e.span());
            return binding.ty.map_or(Value::Err, |ty| Value::Val(load, ty));
        }
        match e.qself.is_none().then(|| constant(&e.path)).flatten() {
            Some(literal) => Value::Val(self.b.literal(literal, e.span()), literal.ty()),
            None => {
                let message = format!("cannot find value `{}` in this kernel", snippet(e));
                self.errors.spanned(e, message);
                Value::Err
            }
        }
    }

    fn unary(&mut self, out: &mut Block, e: &syn::ExprUnary, expected: Option<Type>) -> Value {
        let op = match e.op {
            syn::UnOp::Neg(_) => UnaryOp::Neg,
            syn::UnOp::Not(_) => UnaryOp::Not,
            _ => {
                self.errors.spanned(e.op, unsupported("dereferences"));
                return Value::Err;
            }
        };
        // `-2147483648i32` is one literal in Rust, not the negation of an
        // out-of-range one.
        if let (UnaryOp::Neg, syn::Expr::Lit(l)) = (op, &*e.expr) {
            if matches!(l.lit, syn::Lit::Int(_) | syn::Lit::Float(_)) {
                return self.lit(&l.lit, expected, Some(&e.op));
            }
        }
        let value = self.expr(out, &e.expr, expected);
        let arg = self.require(value, None, &e.expr);
        let ty = arg.ty.filter(|&ty| {
            let ok = match op {
                UnaryOp::Neg => matches!(ty, Type::I32 | Type::F32),
                UnaryOp::Not => ty != Type::F32,
            };
            if !ok {
                let message = format!(
                    "cannot apply unary operator `{}` to type `{ty}`",
                    snippet(&e.op)
                );
                self.errors.spanned(e.op, message);
            }
            ok
        });
        self.value(Expr::Unary { op, arg: arg.expr }, ty, e.span())
    }

    fn binary(&mut self, out: &mut Block, e: &syn::ExprBinary, expected: Option<Type>) -> Value {
        let Some((op, compound)) = binary_op(&e.op) else {
            self.errors
                .spanned(e.op, format!("unsupported operator `{}`", snippet(&e.op)));
            return Value::Err;
        };
        if compound {
            return self.compound_assign(out, e, op);
        }
        if matches!(op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr) {
            return self.logical(out, e, op);
        }
        let shift = matches!(op, BinaryOp::Shl | BinaryOp::Shr);
        let left_hint = match op {
            _ if shift => expected,
            _ if op.is_comparison() => self.hint(&e.right),
            _ => self.hint(&e.right).or(expected),
        };
        let mut done = Vec::new();
        let start = out.len();
        let left = self.expr(out, &e.left, left_hint);
        let left = self.require(left, None, &e.left);
        self.settle(out, &mut done, start, left);
        let right_want = if shift { Some(Type::U32) } else { left.ty };
        let start = out.len();
        let right = self.expr(out, &e.right, right_want);
        let right = self.require(right, right_want, &e.right);
        self.settle(out, &mut done, start, right);
        let (left, right) = (done[0].operand, done[1].operand);
        let ty = self.binary_type(op, &e.op, left.ty);
        let expr = Expr::Binary {
            op,
            left: left.expr,
            right: right.expr,
        };
        self.value(expr, ty, e.span())
    }

    /// The result type of `left op right`, reporting an operator that does
    /// not apply to the (already matched) operand type.
    pub(super) fn binary_type(
        &mut self,
        op: BinaryOp,
        token: &syn::BinOp,
        left: Option<Type>,
    ) -> Option<Type> {
        let yields_bool =
            op.is_comparison() || matches!(op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr);
        let result = if yields_bool { Some(Type::Bool) } else { left };
        let Some(ty) = left else {
            return result;
        };
        let applies = match op {
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => {
                ty.is_numeric()
            }
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => ty.is_numeric(),
            BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor => ty != Type::F32,
            BinaryOp::Shl | BinaryOp::Shr => ty.is_integer(),
            BinaryOp::Eq | BinaryOp::Ne => true,
            BinaryOp::LogicalAnd | BinaryOp::LogicalOr => ty == Type::Bool,
        };
        if applies {
            return result;
        }
        let message = format!(
            "binary operation `{}` cannot be applied to type `{ty}`",
            snippet(token)
        );
        self.errors.spanned(token, message);
        result.filter(|_| yields_bool)
    }

    /// `a && b` / `a || b`. A right operand that holds a collective or
    /// needs statements must run only where Rust would evaluate it, so it
    /// becomes `let mut t = a; if t { t = b }` (invariant 4).
    fn logical(&mut self, out: &mut Block, e: &syn::ExprBinary, op: BinaryOp) -> Value {
        let left = self.expr(out, &e.left, Some(Type::Bool));
        let left = self.require(left, Some(Type::Bool), &e.left);
        let mut lazy = Block::new();
        let right = self.expr(&mut lazy, &e.right, Some(Type::Bool));
        let right = self.require(right, Some(Type::Bool), &e.right);
        if lazy.is_empty() && !self.b.has_collective(right.expr) {
            let expr = Expr::Binary {
                op,
                left: left.expr,
                right: right.expr,
            };
            return self.value(expr, Some(Type::Bool), e.span());
        }
        let span = e.span();
        let prefix = if op == BinaryOp::LogicalAnd {
            "and"
        } else {
            "or"
        };
        let temp = self.b.temp(prefix, Type::Bool, true, span);
        let init = self.b.assign(temp, left.expr, e.left.span());
        out.push(init);
        lazy.push(self.b.assign(temp, right.expr, e.right.span()));
        let cond = self.b.load(temp, span);
        let (accept, reject) = match op {
            BinaryOp::LogicalAnd => (lazy, Block::new()),
            _ => (Block::new(), lazy),
        };
        let stmt = self.b.stmt(
            Stmt::If {
                cond,
                accept,
                reject,
            },
            span,
        );
        out.push(stmt);
        Value::Val(self.b.load(temp, span), Type::Bool)
    }

    fn cast(&mut self, out: &mut Block, e: &syn::ExprCast) -> Value {
        let to = self.cast_target(&e.ty);
        let value = self.expr(out, &e.expr, None);
        let arg = self.require(value, None, &e.expr);
        let from_mask = arg.ty == Some(Type::Mask);
        if from_mask {
            let message = format!("non-primitive cast: `SubgroupMask` as `{}`", snippet(&e.ty));
            self.errors.spanned(e, message);
        }
        let ty = to.filter(|_| !from_mask);
        let expr = Expr::Cast {
            arg: arg.expr,
            to: to.unwrap_or(Type::I32),
        };
        self.value(expr, ty, e.span())
    }

    fn cast_target(&mut self, ty: &syn::Type) -> Option<Type> {
        match parse_type(ty) {
            Ok(Type::Bool) => {
                let message =
                    "cannot cast to `bool` in a kernel; compare with zero instead: `x != 0`";
                self.errors.spanned(ty, message);
                None
            }
            Ok(Type::Mask) => {
                let message = "cannot cast to `SubgroupMask` in a kernel; \
                               use `SubgroupMask::lane` or `SubgroupMask::first`";
                self.errors.spanned(ty, message);
                None
            }
            Ok(ty) => Some(ty),
            Err(error) => {
                self.errors.push(error);
                None
            }
        }
    }

    /// Records `operand`, lowered from `start` on in `out`. If lowering it
    /// hoisted statements, the operands before it that those statements
    /// could change (or that are collectives) are spilled into temporaries
    /// ahead of them, so they are still evaluated first.
    pub(super) fn settle(
        &mut self,
        out: &mut Block,
        done: &mut Vec<Pending>,
        start: usize,
        operand: Operand,
    ) {
        if out.len() > start {
            self.spill(out, done);
        }
        done.push(Pending {
            operand,
            end: out.len(),
        });
    }

    fn spill(&mut self, out: &mut Block, done: &mut [Pending]) {
        // Last first, so the insertion points of earlier operands stay put.
        for pending in done.iter_mut().rev() {
            let expr = pending.operand.expr;
            if self.b.is_stable(expr) {
                continue;
            }
            let (ty, span) = (self.b.type_of(expr), self.b.span_of(expr));
            let temp = self.b.temp("tmp", ty, false, span);
            let stmt = self.b.assign(temp, expr, span);
            out.insert(pending.end, stmt);
            pending.operand.expr = self.b.load(temp, span);
        }
    }

    /// Reports an expression the kernel language lacks.
    pub(super) fn reject(&mut self, e: &syn::Expr) -> Value {
        let error = reject::expr(e)
            .unwrap_or_else(|| syn::Error::new_spanned(e, unsupported("these expressions")));
        self.errors.push(error);
        Value::Err
    }
}

/// The constant a path names: `SubgroupMask::EMPTY`, `SubgroupMask::ALL`,
/// the bounds of `u32` and `i32`, and the special values of `f32`.
pub(super) fn constant(path: &syn::Path) -> Option<Literal> {
    if path.segments.iter().any(|s| !s.arguments.is_none()) {
        return None;
    }
    let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let [.., owner, name] = names.as_slice() else {
        return None;
    };
    let primitive = names.len() == 2 && path.leading_colon.is_none();
    Some(match (owner.as_str(), name.as_str()) {
        ("SubgroupMask", "EMPTY") => Literal::Mask(SubgroupMask::EMPTY),
        ("SubgroupMask", "ALL") => Literal::Mask(SubgroupMask::ALL),
        ("u32", "MAX") if primitive => Literal::U32(u32::MAX),
        ("u32", "MIN") if primitive => Literal::U32(u32::MIN),
        ("i32", "MAX") if primitive => Literal::I32(i32::MAX),
        ("i32", "MIN") if primitive => Literal::I32(i32::MIN),
        ("f32", name) if primitive => Literal::F32(f32_constant(name)?),
        _ => return None,
    })
}

fn f32_constant(name: &str) -> Option<f32> {
    Some(match name {
        "MAX" => f32::MAX,
        "MIN" => f32::MIN,
        "MIN_POSITIVE" => f32::MIN_POSITIVE,
        "EPSILON" => f32::EPSILON,
        "INFINITY" => f32::INFINITY,
        "NEG_INFINITY" => f32::NEG_INFINITY,
        "NAN" => f32::NAN,
        _ => return None,
    })
}

/// The IR operator of a binary operator, and whether it is the compound
/// assignment form (`+=`).
pub(super) fn binary_op(op: &syn::BinOp) -> Option<(BinaryOp, bool)> {
    use syn::BinOp as B;
    use BinaryOp::*;
    Some(match op {
        B::Add(_) => (Add, false),
        B::Sub(_) => (Sub, false),
        B::Mul(_) => (Mul, false),
        B::Div(_) => (Div, false),
        B::Rem(_) => (Rem, false),
        B::And(_) => (LogicalAnd, false),
        B::Or(_) => (LogicalOr, false),
        B::BitXor(_) => (BitXor, false),
        B::BitAnd(_) => (BitAnd, false),
        B::BitOr(_) => (BitOr, false),
        B::Shl(_) => (Shl, false),
        B::Shr(_) => (Shr, false),
        B::Eq(_) => (Eq, false),
        B::Lt(_) => (Lt, false),
        B::Le(_) => (Le, false),
        B::Ne(_) => (Ne, false),
        B::Ge(_) => (Ge, false),
        B::Gt(_) => (Gt, false),
        B::AddAssign(_) => (Add, true),
        B::SubAssign(_) => (Sub, true),
        B::MulAssign(_) => (Mul, true),
        B::DivAssign(_) => (Div, true),
        B::RemAssign(_) => (Rem, true),
        B::BitXorAssign(_) => (BitXor, true),
        B::BitAndAssign(_) => (BitAnd, true),
        B::BitOrAssign(_) => (BitOr, true),
        B::ShlAssign(_) => (Shl, true),
        B::ShrAssign(_) => (Shr, true),
        _ => return None,
    })
}
