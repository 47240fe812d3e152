//! Folding of constant sub-expressions, with the IR's semantics.
//!
//! WGSL evaluates an expression made only of constants when the shader is
//! created, and rejects it if it overflows, divides by zero, shifts by 32 or
//! more, or yields NaN or an infinity, all of which are well-defined in the
//! IR (invariant 5). naga also propagates constant `let`s. So the writer
//! never leaves such an expression to WGSL: it folds it here, exactly as the
//! native simulator computes it, and writes the result as one literal.

use crate::ir::{BinaryOp, Expr, Handle, Kernel, Literal, MaskFn, Type, UnaryOp};
use crate::mask::SubgroupMask;

/// The constant sub-expressions of a kernel.
#[derive(Clone, Debug, Default)]
pub(crate) struct Folded {
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
pub(crate) fn fold(kernel: &Kernel) -> Folded {
    let mut values: Vec<Option<Literal>> = Vec::with_capacity(kernel.exprs.len());
    let mut covered = vec![false; kernel.exprs.len()];
    for (_, expr) in kernel.exprs.iter() {
        // Operands come first (IR invariant 2), so their values are known.
        let get = |e: Handle<Expr>| values.get(e.index()).copied().flatten();
        let value = match expr {
            Expr::Literal(lit) => Some(*lit),
            Expr::Unary { op, arg } => get(*arg).and_then(|a| unary(*op, a)),
            Expr::Binary { op, left, right } => match (get(*left), get(*right)) {
                (Some(l), Some(r)) => binary(*op, l, r),
                _ => None,
            },
            Expr::Cast { arg, to } => get(*arg).and_then(|a| cast(a, *to)),
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
                args.and_then(|args| mask_fn(*fun, &args))
            }
            Expr::Load(_)
            | Expr::LaneId
            | Expr::SubgroupSize
            | Expr::Op { .. }
            | Expr::Call { .. } => None,
        };
        if value.is_some() {
            for operand in operands(expr) {
                if let Some(c) = covered.get_mut(operand.index()) {
                    *c = true;
                }
            }
        }
        values.push(value);
    }
    Folded { values, covered }
}

/// The operands of an expression, left to right.
pub(crate) fn operands(expr: &Expr) -> Vec<Handle<Expr>> {
    match expr {
        Expr::Literal(_) | Expr::Load(_) | Expr::LaneId | Expr::SubgroupSize => Vec::new(),
        Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => vec![*arg],
        Expr::Binary { left, right, .. } => vec![*left, *right],
        Expr::Select {
            cond,
            accept,
            reject,
        } => vec![*cond, *accept, *reject],
        Expr::Mask { args, .. } | Expr::Op { args, .. } | Expr::Call { args, .. } => args.clone(),
    }
}

fn unary(op: UnaryOp, v: Literal) -> Option<Literal> {
    use Literal::*;
    Some(match (op, v) {
        (UnaryOp::Neg, I32(x)) => I32(x.wrapping_neg()),
        (UnaryOp::Neg, F32(x)) => F32(-x),
        (UnaryOp::Not, Bool(b)) => Bool(!b),
        (UnaryOp::Not, U32(x)) => U32(!x),
        (UnaryOp::Not, I32(x)) => I32(!x),
        (UnaryOp::Not, Mask(m)) => Mask(!m),
        _ => return None,
    })
}

fn binary(op: BinaryOp, l: Literal, r: Literal) -> Option<Literal> {
    use BinaryOp::*;
    match op {
        Add | Sub | Mul | Div | Rem => arithmetic(op, l, r),
        BitAnd | BitOr | BitXor => bitwise(op, l, r),
        Shl | Shr => shift(op == Shl, l, r),
        Eq | Ne => {
            // IEEE equality for floats (NaN differs from itself), as in Rust.
            let eq = match (l, r) {
                (Literal::Bool(a), Literal::Bool(b)) => a == b,
                (Literal::U32(a), Literal::U32(b)) => a == b,
                (Literal::I32(a), Literal::I32(b)) => a == b,
                (Literal::F32(a), Literal::F32(b)) => a == b,
                (Literal::Mask(a), Literal::Mask(b)) => a == b,
                _ => return None,
            };
            Some(Literal::Bool(eq == (op == Eq)))
        }
        Lt | Le | Gt | Ge => compare(op, l, r),
        LogicalAnd | LogicalOr => match (l, r) {
            (Literal::Bool(a), Literal::Bool(b)) => Some(Literal::Bool(if op == LogicalAnd {
                a && b
            } else {
                a || b
            })),
            _ => None,
        },
    }
}

/// Ordered comparisons; unordered (NaN) ones are false, as in Rust.
fn compare(op: BinaryOp, l: Literal, r: Literal) -> Option<Literal> {
    let ord = match (l, r) {
        (Literal::U32(a), Literal::U32(b)) => a.partial_cmp(&b),
        (Literal::I32(a), Literal::I32(b)) => a.partial_cmp(&b),
        (Literal::F32(a), Literal::F32(b)) => a.partial_cmp(&b),
        _ => return None,
    };
    let holds = ord.is_some_and(|ord| match op {
        BinaryOp::Lt => ord.is_lt(),
        BinaryOp::Le => ord.is_le(),
        BinaryOp::Gt => ord.is_gt(),
        _ => ord.is_ge(),
    });
    Some(Literal::Bool(holds))
}

/// Invariant 5: wrapping integers, and WGSL's results for division and
/// remainder by zero and of `i32::MIN / -1`.
fn arithmetic(op: BinaryOp, l: Literal, r: Literal) -> Option<Literal> {
    use BinaryOp::*;
    use Literal::*;
    Some(match (l, r) {
        (U32(a), U32(b)) => U32(match op {
            Add => a.wrapping_add(b),
            Sub => a.wrapping_sub(b),
            Mul => a.wrapping_mul(b),
            Div => a.checked_div(b).unwrap_or(a),
            _ => a.checked_rem(b).unwrap_or(0),
        }),
        (I32(a), I32(b)) => I32(match op {
            Add => a.wrapping_add(b),
            Sub => a.wrapping_sub(b),
            Mul => a.wrapping_mul(b),
            Div if b == 0 => a,
            Div => a.wrapping_div(b),
            Rem if b == 0 => 0,
            _ => a.wrapping_rem(b),
        }),
        (F32(a), F32(b)) => F32(match op {
            Add => a + b,
            Sub => a - b,
            Mul => a * b,
            Div => a / b,
            _ => a % b,
        }),
        _ => return None,
    })
}

fn bitwise(op: BinaryOp, l: Literal, r: Literal) -> Option<Literal> {
    use Literal::*;
    macro_rules! apply {
        ($a:expr, $b:expr) => {
            match op {
                BinaryOp::BitAnd => $a & $b,
                BinaryOp::BitOr => $a | $b,
                _ => $a ^ $b,
            }
        };
    }
    Some(match (l, r) {
        (Bool(a), Bool(b)) => Bool(apply!(a, b)),
        (U32(a), U32(b)) => U32(apply!(a, b)),
        (I32(a), I32(b)) => I32(apply!(a, b)),
        (Mask(a), Mask(b)) => Mask(apply!(a, b)),
        _ => return None,
    })
}

/// Shifts by the low five bits of the amount.
fn shift(left: bool, l: Literal, r: Literal) -> Option<Literal> {
    let Literal::U32(by) = r else { return None };
    Some(match (l, left) {
        (Literal::U32(a), true) => Literal::U32(a.wrapping_shl(by)),
        (Literal::U32(a), false) => Literal::U32(a.wrapping_shr(by)),
        (Literal::I32(a), true) => Literal::I32(a.wrapping_shl(by)),
        (Literal::I32(a), false) => Literal::I32(a.wrapping_shr(by)),
        _ => return None,
    })
}

/// Rust's `as` between scalars.
fn cast(v: Literal, to: Type) -> Option<Literal> {
    use Literal::*;
    Some(match (v, to) {
        (Bool(b), Type::U32) => U32(u32::from(b)),
        (Bool(b), Type::I32) => I32(i32::from(b)),
        (Bool(b), Type::F32) => F32(if b { 1.0 } else { 0.0 }),
        (U32(x), Type::U32) => U32(x),
        (U32(x), Type::I32) => I32(x as i32),
        (U32(x), Type::F32) => F32(x as f32),
        (I32(x), Type::U32) => U32(x as u32),
        (I32(x), Type::I32) => I32(x),
        (I32(x), Type::F32) => F32(x as f32),
        (F32(x), Type::U32) => U32(x as u32),
        (F32(x), Type::I32) => I32(x as i32),
        (F32(x), Type::F32) => F32(x),
        _ => return None,
    })
}

fn mask_fn(fun: MaskFn, args: &[Literal]) -> Option<Literal> {
    use Literal::*;
    Some(match (fun, args) {
        (MaskFn::Lane, [U32(i)]) => Mask(SubgroupMask::lane(*i)),
        (MaskFn::First, [U32(n)]) => Mask(SubgroupMask::first(*n)),
        (MaskFn::Contains, [Mask(m), U32(i)]) => Bool(m.contains(*i)),
        (MaskFn::Count, [Mask(m)]) => U32(m.count()),
        (MaskFn::IsEmpty, [Mask(m)]) => Bool(m.is_empty()),
        _ => return None,
    })
}
