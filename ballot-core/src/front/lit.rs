//! Literals: their type (from the suffix, else the context, else `i32`)
//! and whether their value fits it.

use quote::ToTokens;

use super::ty::Value;
use super::{reject, Lowerer};
use crate::ir::{Literal, Type};

impl Lowerer {
    /// Lowers a literal; `minus` is the `-` in front of it, folded in so
    /// that `-2147483648i32` is in range as it is in Rust.
    pub(super) fn lit(
        &mut self,
        lit: &syn::Lit,
        expected: Option<Type>,
        minus: Option<&syn::UnOp>,
    ) -> Value {
        let literal = match lit {
            syn::Lit::Bool(b) => Some(Literal::Bool(b.value)),
            syn::Lit::Int(int) => self.int_lit(int, expected, minus),
            syn::Lit::Float(float) => self.float_lit(float, minus.is_some()),
            other => {
                self.errors.push(reject::lit(other));
                None
            }
        };
        match literal {
            Some(literal) => Value::Val(self.b.literal(literal, lit.span()), literal.ty()),
            None => Value::Err,
        }
    }

    fn int_lit(
        &mut self,
        lit: &syn::LitInt,
        expected: Option<Type>,
        minus: Option<&syn::UnOp>,
    ) -> Option<Literal> {
        let ty = match lit.suffix() {
            "" => match expected {
                None => Type::I32,
                Some(ty) if ty.is_integer() => ty,
                Some(ty) => {
                    let message = format!("mismatched types: expected `{ty}`, found integer");
                    self.errors.spanned(lit, message);
                    return None;
                }
            },
            "u32" => Type::U32,
            "i32" => Type::I32,
            "f32" => return self.float_value(lit.base10_parse(), lit, minus.is_some()),
            "f64" => {
                self.errors.spanned(
                    lit,
                    "float suffix `f64` is not supported in a kernel; use `f32`",
                );
                return None;
            }
            suffix => {
                let message = format!(
                    "integer suffix `{suffix}` is not supported in a kernel; use `u32` or `i32`"
                );
                self.errors.spanned(lit, message);
                return None;
            }
        };
        if let (Type::U32, Some(minus)) = (ty, minus) {
            self.errors
                .spanned(minus, "cannot apply unary operator `-` to type `u32`");
            return None;
        }
        let magnitude = lit.base10_parse::<u64>().ok();
        let literal = match (ty, minus) {
            (Type::U32, _) => magnitude
                .and_then(|v| u32::try_from(v).ok())
                .map(Literal::U32),
            (_, None) => magnitude
                .and_then(|v| i32::try_from(v).ok())
                .map(Literal::I32),
            (_, Some(_)) => magnitude
                .filter(|&v| v <= 1 << 31)
                .map(|v| Literal::I32((-(v as i64)) as i32)),
        };
        if literal.is_none() {
            self.errors
                .spanned(lit, format!("literal out of range for `{ty}`"));
        }
        literal
    }

    fn float_lit(&mut self, lit: &syn::LitFloat, negative: bool) -> Option<Literal> {
        match lit.suffix() {
            "" | "f32" => self.float_value(lit.base10_parse(), lit, negative),
            suffix => {
                let message =
                    format!("float suffix `{suffix}` is not supported in a kernel; use `f32`");
                self.errors.spanned(lit, message);
                None
            }
        }
    }

    fn float_value<T: ToTokens>(
        &mut self,
        parsed: syn::Result<f32>,
        lit: &T,
        negative: bool,
    ) -> Option<Literal> {
        match parsed {
            Ok(value) if value.is_finite() => {
                Some(Literal::F32(if negative { -value } else { value }))
            }
            _ => {
                self.errors.spanned(lit, "literal out of range for `f32`");
                None
            }
        }
    }
}
