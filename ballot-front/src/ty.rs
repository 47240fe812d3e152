//! Types: the kernel types written in the source, and the results of
//! lowering an expression, with the checks between them.

use proc_macro2::Span;
use quote::ToTokens;
use syn::spanned::Spanned;

use super::error::{mismatch, snippet, unsupported};
use super::Lowerer;
use ballot_ir::ir::{Expr, Handle, Type};

/// The result of lowering an expression.
#[derive(Clone, Copy, Debug)]
pub(super) enum Value {
    /// A value of a kernel type.
    Val(Handle<Expr>, Type),
    /// `()`: an `if` without `else`, a loop, an assignment.
    Unit,
    /// `!`: control never gets past it (`return`, `break`, `continue`).
    Never,
    /// Lowering it failed and the error is recorded; its uses go unchecked.
    Err,
}

impl Value {
    /// Whether control never gets past the expression.
    pub(super) fn is_never(self) -> bool {
        matches!(self, Value::Never)
    }

    /// Whether it yields a value (or would have, but for an error).
    pub(super) fn is_value(self) -> bool {
        matches!(self, Value::Val(..) | Value::Err)
    }

    /// The type, if known.
    pub(super) fn ty(self) -> Option<Type> {
        match self {
            Value::Val(_, ty) => Some(ty),
            _ => None,
        }
    }
}

/// An expression used as an operand: it always has a handle, standing in
/// for the value when lowering failed.
#[derive(Clone, Copy, Debug)]
pub(super) struct Operand {
    /// The expression.
    pub(super) expr: Handle<Expr>,
    /// Its type; `None` after an error, when uses go unchecked.
    pub(super) ty: Option<Type>,
}

/// The kernel's return type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Ret {
    /// `()` or none written.
    Unit,
    /// A kernel type.
    Val(Type),
    /// The written type is not supported (and reported).
    Err,
}

/// What the context wants of an expression.
#[derive(Clone, Copy, Debug)]
pub(super) enum Want {
    /// Its value, preferably of this type (a hint for literals and calls).
    Value(Option<Type>),
    /// Only its effects: the value of an expression statement.
    Discard,
}

/// The kernel type that `ty` spells.
pub(super) fn parse_type(ty: &syn::Type) -> syn::Result<Type> {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => path_type(&p.path),
        syn::Type::Paren(p) => parse_type(&p.elem),
        syn::Type::Group(g) => parse_type(&g.elem),
        syn::Type::Reference(r) => {
            let (and, lifetime, mutability) = (r.and_token, &r.lifetime, r.mutability);
            let tokens = quote::quote!(#and #lifetime #mutability);
            Err(syn::Error::new_spanned(tokens, unsupported("references")))
        }
        syn::Type::Tuple(t) if !t.elems.is_empty() => {
            Err(syn::Error::new_spanned(t, unsupported("tuples")))
        }
        syn::Type::Array(a) => Err(syn::Error::new_spanned(a, unsupported("arrays"))),
        syn::Type::Slice(s) => Err(syn::Error::new_spanned(s, unsupported("slices"))),
        syn::Type::Ptr(p) => {
            let (star, constness, mutability) = (p.star_token, p.const_token, p.mutability);
            let tokens = quote::quote!(#star #constness #mutability);
            Err(syn::Error::new_spanned(tokens, unsupported("raw pointers")))
        }
        other => Err(unsupported_type(other)),
    }
}

fn path_type(path: &syn::Path) -> syn::Result<Type> {
    let plain = path.segments.iter().all(|s| s.arguments.is_none());
    if plain {
        if let Some(ident) = path.get_ident() {
            match ident.to_string().as_str() {
                "bool" => return Ok(Type::Bool),
                "u32" => return Ok(Type::U32),
                "i32" => return Ok(Type::I32),
                "f32" => return Ok(Type::F32),
                _ => {}
            }
        }
        if path
            .segments
            .last()
            .is_some_and(|s| s.ident == "SubgroupMask")
        {
            return Ok(Type::Mask);
        }
    }
    Err(unsupported_type(path))
}

fn unsupported_type<T: ToTokens>(ty: &T) -> syn::Error {
    let message = format!(
        "unsupported type `{}` in a kernel; expected `bool`, `u32`, `i32`, `f32` or `SubgroupMask`",
        snippet(ty)
    );
    syn::Error::new_spanned(ty, message)
}

/// Whether `ty` is `()`.
pub(super) fn is_unit_type(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Tuple(t) => t.elems.is_empty(),
        syn::Type::Paren(p) => is_unit_type(&p.elem),
        syn::Type::Group(g) => is_unit_type(&g.elem),
        _ => false,
    }
}

impl Lowerer {
    /// The kernel type `ty` spells, or `None` after recording why not.
    pub(super) fn ty(&mut self, ty: &syn::Type) -> Option<Type> {
        parse_type(ty).map_err(|e| self.errors.push(e)).ok()
    }

    /// Turns `value` into an operand of type `want` (any type if `None`),
    /// reporting a mismatch at `at`. After an error the operand's type is
    /// unknown, so the mistake is reported once rather than at every use.
    pub(super) fn require<T: ToTokens>(
        &mut self,
        value: Value,
        want: Option<Type>,
        at: &T,
    ) -> Operand {
        let span = at.span();
        match value {
            Value::Val(expr, ty) => match want {
                Some(want) if want != ty => {
                    self.errors.spanned(at, mismatch(want, ty));
                    Operand { expr, ty: None }
                }
                _ => Operand { expr, ty: Some(ty) },
            },
            Value::Unit => {
                let expected = want.map_or_else(|| "a value".to_owned(), |t| format!("`{t}`"));
                let message = format!("mismatched types: expected {expected}, found `()`");
                self.errors.spanned(at, message);
                self.stand_in(None, span)
            }
            // Unreachable code: any value of the wanted type will do.
            Value::Never => self.stand_in(want, span),
            Value::Err => self.stand_in(None, span),
        }
    }

    /// A placeholder operand of type `ty` (unchecked when `None`).
    pub(super) fn stand_in(&mut self, ty: Option<Type>, span: Span) -> Operand {
        let expr = self.b.placeholder(ty.unwrap_or(Type::I32), span);
        Operand { expr, ty }
    }

    /// Appends `expr` of type `ty`; an unknown type gives [`Value::Err`].
    pub(super) fn value(&mut self, expr: Expr, ty: Option<Type>, span: Span) -> Value {
        let handle = self.b.expr(expr, ty.unwrap_or(Type::I32), span);
        match ty {
            Some(ty) => Value::Val(handle, ty),
            None => Value::Err,
        }
    }
}
