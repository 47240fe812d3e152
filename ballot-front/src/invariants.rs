//! A checker for the invariants documented in [`ballot_ir::ir`], run by the
//! tests on every kernel they lower.

use std::collections::BTreeSet;

use ballot_ir::ir::{
    op_signature, BinaryOp, Block, Expr, Handle, Kernel, Literal, Local, Stmt, Type, UnaryOp,
};
use ballot_ir::op::Op;

use super::Lowered;

/// Checks every invariant of `lowered`, describing the first one broken.
pub(super) fn check(lowered: &Lowered) -> Result<(), String> {
    let k = &lowered.kernel;
    let spans = &lowered.spans;
    if k.expr_types.len() != k.exprs.len()
        || spans.exprs.len() != k.exprs.len()
        || spans.stmts.len() != k.stmts.len()
        || spans.locals.len() != k.locals.len()
    {
        return Err("arena, type and span lengths differ".into());
    }
    post_order(k)?;
    for (handle, expr) in k.exprs.iter() {
        expr_type(k, handle, expr)?;
    }
    let mut checker = Checker {
        k,
        seen: vec![false; k.stmts.len()],
        assigned: k.params.iter().map(|p| p.local).collect(),
    };
    checker.block(&k.body, false)?;
    match checker.seen.iter().position(|seen| !seen) {
        Some(i) => Err(format!("statement [{i}] is in no block")),
        None => Ok(()),
    }
}

/// Invariant 2: operands come first, and each expression has one parent.
fn post_order(k: &Kernel) -> Result<(), String> {
    let mut uses = vec![0; k.exprs.len()];
    for (handle, expr) in k.exprs.iter() {
        for operand in expr.operands() {
            if operand >= handle {
                return Err(format!("{handle:?} uses the later {operand:?}"));
            }
            uses[operand.index()] += 1;
        }
    }
    for (_, stmt) in k.stmts.iter() {
        let used = match stmt {
            Stmt::Assign { value, .. } => Some(*value),
            Stmt::Eval(value) | Stmt::If { cond: value, .. } | Stmt::Return(Some(value)) => {
                Some(*value)
            }
            _ => None,
        };
        if let Some(used) = used {
            uses[used.index()] += 1;
        }
    }
    match uses.iter().position(|&n| n != 1) {
        Some(i) => Err(format!("expression [{i}] is used {} times", uses[i])),
        None => Ok(()),
    }
}

/// Invariant 3 for one expression, and invariant 8.
fn expr_type(k: &Kernel, handle: Handle<Expr>, expr: &Expr) -> Result<(), String> {
    let ty = k.type_of(handle);
    let of = |e: Handle<Expr>| k.type_of(e);
    let ok = match expr {
        Expr::Literal(literal) => literal.ty() == ty,
        Expr::Load(local) => k.locals[*local].ty == ty,
        Expr::Unary {
            op: UnaryOp::Neg,
            arg,
        } => of(*arg) == ty && matches!(ty, Type::I32 | Type::F32),
        Expr::Unary {
            op: UnaryOp::Not,
            arg,
        } => of(*arg) == ty && ty != Type::F32,
        Expr::Binary { op, left, right } => binary_ok(*op, of(*left), of(*right), ty),
        Expr::Cast { arg, to } => of(*arg).is_scalar() && *to == ty && to.is_numeric(),
        Expr::Select {
            cond,
            accept,
            reject,
        } => of(*cond) == Type::Bool && of(*accept) == ty && of(*reject) == ty,
        Expr::LaneId | Expr::SubgroupSize => ty == Type::U32,
        Expr::Mask { fun, args } => {
            fun.result() == ty && args.iter().map(|&a| of(a)).eq(fun.params().iter().copied())
        }
        Expr::Op { op, args } => op_ok(k, *op, args, ty),
        Expr::Call { .. } => true,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{handle:?} = {expr:?} is mistyped as {ty}"))
    }
}

fn binary_ok(op: BinaryOp, left: Type, right: Type, ty: Type) -> bool {
    use BinaryOp::*;
    let operands = match op {
        Shl | Shr => left.is_integer() && right == Type::U32,
        Add | Sub | Mul | Div | Rem | Lt | Le | Gt | Ge => left.is_numeric() && left == right,
        BitAnd | BitOr | BitXor => left != Type::F32 && left == right,
        Eq | Ne => left == right,
        LogicalAnd | LogicalOr => left == Type::Bool && right == Type::Bool,
    };
    let result = if op.is_comparison() || matches!(op, LogicalAnd | LogicalOr) {
        Type::Bool
    } else {
        left
    };
    operands && result == ty
}

fn op_ok(k: &Kernel, op: Op, args: &[Handle<Expr>], ty: Type) -> bool {
    let value = args.first().map_or(Type::U32, |&a| k.type_of(a));
    let (params, result) = op_signature(op, value);
    let literal = || match args.get(1).map(|&a| &k.exprs[a]) {
        Some(Expr::Literal(Literal::U32(n))) => Some(*n),
        _ => None,
    };
    let constant = match op {
        Op::Broadcast => literal().is_some(),
        Op::QuadBroadcast => literal().is_some_and(|i| i < 4),
        Op::Clustered(_) => literal().is_some_and(|n| n.is_power_of_two() && n <= 128),
        _ => true,
    };
    constant && result == ty && args.iter().map(|&a| k.type_of(a)).eq(params)
}

/// Walks the statements: invariants 4, 6 and 7, and statement typing.
struct Checker<'k> {
    k: &'k Kernel,
    seen: Vec<bool>,
    assigned: BTreeSet<Handle<Local>>,
}

impl Checker<'_> {
    fn block(&mut self, block: &Block, in_loop: bool) -> Result<(), String> {
        for &stmt in block {
            if std::mem::replace(&mut self.seen[stmt.index()], true) {
                return Err(format!("statement {stmt:?} is in two blocks"));
            }
            self.stmt(stmt, in_loop)?;
        }
        Ok(())
    }

    fn stmt(&mut self, stmt: Handle<Stmt>, in_loop: bool) -> Result<(), String> {
        let k = self.k;
        match &k.stmts[stmt] {
            Stmt::Assign { local, value } => {
                self.root(*value)?;
                if k.locals[*local].ty != k.type_of(*value) {
                    return Err(format!("{stmt:?} stores a mistyped value"));
                }
                self.assigned.insert(*local);
            }
            Stmt::Eval(value) => self.root(*value)?,
            Stmt::If {
                cond,
                accept,
                reject,
            } => {
                self.root(*cond)?;
                if k.type_of(*cond) != Type::Bool {
                    return Err(format!("{stmt:?} has a non-bool condition"));
                }
                self.block(accept, in_loop)?;
                self.block(reject, in_loop)?;
            }
            Stmt::Loop { body, continuing } => {
                self.block(body, true)?;
                self.block(continuing, false)?;
            }
            Stmt::Break | Stmt::Continue if !in_loop => {
                return Err(format!("{stmt:?} is outside a loop body"))
            }
            Stmt::Break | Stmt::Continue => {}
            Stmt::Return(value) => {
                if let Some(value) = value {
                    self.root(*value)?;
                }
                if value.map(|v| k.type_of(v)) != k.ret {
                    return Err(format!("{stmt:?} returns the wrong type"));
                }
            }
        }
        Ok(())
    }

    /// Checks an expression tree held by a statement.
    fn root(&self, expr: Handle<Expr>) -> Result<(), String> {
        self.tree(expr, false)
    }

    fn tree(&self, expr: Handle<Expr>, lazy: bool) -> Result<(), String> {
        let node = &self.k.exprs[expr];
        match node {
            Expr::Op { .. } | Expr::Call { .. } if lazy => {
                return Err(format!("collective {expr:?} is evaluated lazily"));
            }
            Expr::Load(local) if !self.assigned.contains(local) => {
                return Err(format!("{expr:?} loads {local:?} before any assignment"));
            }
            _ => {}
        }
        let lazy_from = match node {
            Expr::Binary {
                op: BinaryOp::LogicalAnd | BinaryOp::LogicalOr,
                ..
            } => 1,
            Expr::Select { .. } => 1,
            _ => usize::MAX,
        };
        for (i, operand) in node.operands().into_iter().enumerate() {
            self.tree(operand, lazy || i >= lazy_from)?;
        }
        Ok(())
    }
}
