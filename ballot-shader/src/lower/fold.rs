//! Folding of constant sub-expressions, with the IR's semantics
//! ([`ballot_ir::scalar`], as the native simulator computes them).
//!
//! WGSL evaluates an expression made only of constants when the shader is
//! created, and rejects it if it overflows, divides by zero, shifts by 32 or
//! more, or yields NaN or an infinity, all of which are well-defined in the
//! IR (invariant 5). naga also propagates constant `let`s. So the WGSL
//! printer never leaves such an expression to WGSL: it writes the value
//! folded here as one literal. GLSL's compilers fold less, and the GLSL
//! printer writes around what naga's glsl-in folds instead
//! ([`super::helpers::glsl_folds`]).

use ballot_ir::ir::{Expr, Handle, Kernel, Literal};
use ballot_ir::scalar;

/// The constant sub-expressions of a kernel.
#[derive(Clone, Debug, Default)]
pub struct Folded {
    /// The value of each expression made only of constants.
    values: Vec<Option<Literal>>,
    /// Whether the expression is an operand of a constant one, and so is
    /// never written on its own.
    covered: Vec<bool>,
}

impl Folded {
    /// The constant value of `expr`, if it has one.
    pub fn value(&self, expr: Handle<Expr>) -> Option<Literal> {
        self.values.get(expr.index()).copied().flatten()
    }

    /// Whether `expr` is written as part of a folded parent rather than on
    /// its own.
    pub fn covered(&self, expr: Handle<Expr>) -> bool {
        self.covered.get(expr.index()).copied().unwrap_or(false)
    }
}

/// Folds every constant sub-expression of `kernel`.
pub fn fold(kernel: &Kernel) -> Folded {
    let mut values: Vec<Option<Literal>> = Vec::with_capacity(kernel.exprs.len());
    let mut covered = vec![false; kernel.exprs.len()];
    for (_, expr) in kernel.exprs.iter() {
        // Operands come first (IR invariant 2), so their values are known.
        let get = |e: Handle<Expr>| values.get(e.index()).copied().flatten();
        let value = match expr {
            Expr::Literal(lit) => Some(*lit),
            Expr::Unary { op, arg } => get(*arg).and_then(|a| scalar::unary(*op, a)),
            Expr::Binary { op, left, right } => match (get(*left), get(*right)) {
                (Some(l), Some(r)) => scalar::binary(*op, l, r),
                _ => None,
            },
            Expr::Cast { arg, to } => get(*arg).and_then(|a| scalar::cast(a, *to)),
            Expr::Select {
                cond,
                accept,
                reject,
            } => match (get(*cond), get(*accept), get(*reject)) {
                (Some(Literal::Bool(c)), Some(a), Some(r)) => Some(if c { a } else { r }),
                _ => None,
            },
            Expr::Mask { fun, args } => {
                let args: Option<Vec<Literal>> = args.iter().map(|&a| get(a)).collect();
                args.and_then(|args| scalar::mask_fn(*fun, &args))
            }
            Expr::Load(_)
            | Expr::LaneId
            | Expr::SubgroupSize
            | Expr::Op { .. }
            | Expr::Call { .. } => None,
        };
        if value.is_some() {
            for operand in expr.operands() {
                if let Some(c) = covered.get_mut(operand.index()) {
                    *c = true;
                }
            }
        }
        values.push(value);
    }
    Folded { values, covered }
}
