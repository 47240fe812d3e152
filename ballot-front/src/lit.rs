//! Literals: their type (from the suffix, else the context, else `i32`)
//! and whether their value fits it.

use quote::ToTokens;

use super::ty::Value;
use super::{reject, Lowerer};
use ballot_ir::ir::{Literal, Type};

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
        // `1f32` is an integer literal to the tokenizer.
        if lit.suffix() == "f32" {
            return self.float_value(lit.base10_parse(), lit, minus.is_some());
        }
        let ty = self.int_type(lit, expected)?;
        if let (Type::U32, Some(minus)) = (ty, minus) {
            let message = "cannot apply unary operator `-` to type `u32`";
            self.errors.spanned(minus, message);
            return None;
        }
        let magnitude = lit.base10_parse::<u64>().ok();
        let literal = int_value(ty, magnitude, minus.is_some());
        if literal.is_none() {
            let message = format!("literal out of range for `{ty}`");
            self.errors.spanned(lit, message);
        }
        literal
    }

    /// The type of an integer literal: its suffix, else the context's
    /// integer type, else `i32`.
    fn int_type(&mut self, lit: &syn::LitInt, expected: Option<Type>) -> Option<Type> {
        let message = match (lit.suffix(), expected) {
            ("", None) => return Some(Type::I32),
            ("", Some(ty)) if ty.is_integer() => return Some(ty),
            ("", Some(ty)) => format!("mismatched types: expected `{ty}`, found integer"),
            ("u32", _) => return Some(Type::U32),
            ("i32", _) => return Some(Type::I32),
            ("f64", _) => "float suffix `f64` is not supported in a kernel; use `f32`".to_owned(),
            (suffix, _) => format!(
                "integer suffix `{suffix}` is not supported in a kernel; use `u32` or `i32`"
            ),
        };
        self.errors.spanned(lit, message);
        None
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

/// The literal of type `ty` with this magnitude and sign, if it fits.
fn int_value(ty: Type, magnitude: Option<u64>, negative: bool) -> Option<Literal> {
    let magnitude = magnitude?;
    match (ty, negative) {
        (Type::U32, false) => u32::try_from(magnitude).ok().map(Literal::U32),
        (Type::I32, false) => i32::try_from(magnitude).ok().map(Literal::I32),
        (Type::I32, true) => {
            let value = i64::try_from(magnitude).ok()?.checked_neg()?;
            i32::try_from(value).ok().map(Literal::I32)
        }
        _ => None,
    }
}
