//! The scalar rules of the IR (invariant 5), defined once: the native
//! code's runtime, the interpreter and the constant folder all compute
//! with these, so a shader's folded constant, the simulator's value and
//! the oracle's value cannot disagree.
//!
//! - Integer `+ - *` wrap.
//! - Integer `/` and `%` by zero give `x / 0 == x` and `x % 0 == 0`, and
//!   `i32::MIN / -1 == i32::MIN`, `i32::MIN % -1 == 0`: WGSL's answers.
//! - Shifts use the low five bits of the `u32` amount.
//! - `f32` follows IEEE 754; comparisons with NaN are false, and `==`
//!   treats NaN as different from itself, as Rust does.
//! - `as` is Rust's: `bool` to 0 or 1, float to integer saturating with
//!   NaN to 0, nothing to `bool`.

use crate::ir::{BinaryOp, Literal, MaskFn, Type, UnaryOp};
use crate::mask::SubgroupMask;

/// Wrapping arithmetic with WGSL's answers for division by zero.
pub trait Arith: Copy {
    /// `a + b`, wrapping.
    fn add(self, rhs: Self) -> Self;
    /// `a - b`, wrapping.
    fn sub(self, rhs: Self) -> Self;
    /// `a * b`, wrapping.
    fn mul(self, rhs: Self) -> Self;
    /// `a / b`; `a` when `b` is 0 or the quotient overflows.
    fn div(self, rhs: Self) -> Self;
    /// `a % b`; 0 when `b` is 0 or the quotient overflows.
    fn rem(self, rhs: Self) -> Self;
}

macro_rules! integer_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                self.wrapping_add(rhs)
            }
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                self.wrapping_sub(rhs)
            }
            #[inline(always)]
            fn mul(self, rhs: Self) -> Self {
                self.wrapping_mul(rhs)
            }
            #[inline(always)]
            fn div(self, rhs: Self) -> Self {
                self.checked_div(rhs).unwrap_or(self)
            }
            #[inline(always)]
            fn rem(self, rhs: Self) -> Self {
                self.checked_rem(rhs).unwrap_or(0)
            }
        }
    )*};
}
integer_arith!(u32, i32);

impl Arith for f32 {
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        self + rhs
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        self - rhs
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        self * rhs
    }
    #[inline(always)]
    fn div(self, rhs: Self) -> Self {
        self / rhs
    }
    #[inline(always)]
    fn rem(self, rhs: Self) -> Self {
        self % rhs
    }
}

/// `op arg`; `None` where the IR's typing rules do not allow it.
pub fn unary(op: UnaryOp, arg: Literal) -> Option<Literal> {
    use Literal::*;
    Some(match (op, arg) {
        (UnaryOp::Neg, I32(x)) => I32(x.wrapping_neg()),
        (UnaryOp::Neg, F32(x)) => F32(-x),
        (UnaryOp::Not, Bool(b)) => Bool(!b),
        (UnaryOp::Not, U32(x)) => U32(!x),
        (UnaryOp::Not, I32(x)) => I32(!x),
        (UnaryOp::Not, Mask(m)) => Mask(!m),
        _ => return None,
    })
}

/// `l op r`; `None` where the IR's typing rules do not allow it.
pub fn binary(op: BinaryOp, l: Literal, r: Literal) -> Option<Literal> {
    use BinaryOp::*;
    match op {
        Add | Sub | Mul | Div | Rem => arithmetic(op, l, r),
        BitAnd | BitOr | BitXor => bitwise(op, l, r),
        Shl | Shr => shift(op == Shl, l, r),
        Eq | Ne => {
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

fn arithmetic(op: BinaryOp, l: Literal, r: Literal) -> Option<Literal> {
    fn apply<T: Arith>(op: BinaryOp, a: T, b: T) -> T {
        match op {
            BinaryOp::Add => a.add(b),
            BinaryOp::Sub => a.sub(b),
            BinaryOp::Mul => a.mul(b),
            BinaryOp::Div => a.div(b),
            _ => a.rem(b),
        }
    }
    Some(match (l, r) {
        (Literal::U32(a), Literal::U32(b)) => Literal::U32(apply(op, a, b)),
        (Literal::I32(a), Literal::I32(b)) => Literal::I32(apply(op, a, b)),
        (Literal::F32(a), Literal::F32(b)) => Literal::F32(apply(op, a, b)),
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

/// `wrapping_shl` / `wrapping_shr` use the low five bits of the amount for
/// 32-bit values: invariant 5.
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
pub fn cast(v: Literal, to: Type) -> Option<Literal> {
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
        // Saturating, with NaN giving 0: Rust's `as`.
        (F32(x), Type::U32) => U32(x as u32),
        (F32(x), Type::I32) => I32(x as i32),
        (F32(x), Type::F32) => F32(x),
        _ => return None,
    })
}

/// A [`MaskFn`] of `args`.
pub fn mask_fn(fun: MaskFn, args: &[Literal]) -> Option<Literal> {
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
