//! Diagnostics for the Rust that the kernel language lacks, each spanned to
//! the tokens that show the construct: the `&` of a reference, the `match`
//! keyword, the `?`, the `[...]` of an index.

use std::fmt::Display;

use quote::{quote, ToTokens};

use super::error::{snippet, unsupported};

/// The error for an expression the kernel language lacks; `None` for the
/// kinds it has (those are lowered, and report their own misuse).
pub(super) fn expr(e: &syn::Expr) -> Option<syn::Error> {
    use syn::Expr as E;
    let error = match e {
        E::Reference(r) => {
            let (and, mutability) = (r.and_token, r.mutability);
            at(quote!(#and #mutability), unsupported("references"))
        }
        E::RawAddr(r) => at(r.and_token, unsupported("raw borrows")),
        E::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => at(u.op, unsupported("dereferences")),
        E::Struct(s) => at(&s.path, unsupported("struct literals")),
        E::Field(f) => {
            let (dot, member) = (f.dot_token, &f.member);
            at(
                quote!(#dot #member),
                "field access is not supported in a kernel",
            )
        }
        E::Tuple(t) => at(t, unsupported("tuples")),
        E::Array(_) | E::Repeat(_) => at(e, unsupported("arrays")),
        E::Index(i) => syn::Error::new(
            i.bracket_token.span.join(),
            "indexing is not supported in a kernel",
        ),
        E::Closure(c) => {
            let (capture, or1, inputs, or2) = (c.capture, c.or1_token, &c.inputs, c.or2_token);
            at(quote!(#capture #or1 #inputs #or2), unsupported("closures"))
        }
        E::Match(m) => at(
            m.match_token,
            "`match` is not supported in a kernel; use `if` / `else`",
        ),
        E::Try(t) => at(
            t.question_token,
            "the `?` operator is not supported in a kernel",
        ),
        E::Macro(m) => {
            let (path, bang) = (&m.mac.path, m.mac.bang_token);
            let message = format!("{}, found `{}!`", unsupported("macros"), snippet(path));
            at(quote!(#path #bang), message)
        }
        E::Unsafe(u) => at(u.unsafe_token, unsupported("`unsafe` blocks")),
        E::Async(a) => at(a.async_token, unsupported("`async` blocks")),
        E::Await(a) => at(a.await_token, "`.await` is not supported in a kernel"),
        E::Const(c) => at(c.const_token, unsupported("`const` blocks")),
        E::TryBlock(t) => at(t.try_token, unsupported("`try` blocks")),
        E::Yield(y) => at(y.yield_token, "`yield` is not supported in a kernel"),
        E::Range(r) => at(
            r.limits,
            "ranges are only supported as the iterable of a `for` loop in a kernel",
        ),
        E::Let(l) => at(l.let_token, unsupported("`let` expressions")),
        E::Infer(i) => at(
            i.underscore_token,
            "`_` is not supported as an expression in a kernel",
        ),
        E::Lit(l)
            if !matches!(
                l.lit,
                syn::Lit::Int(_) | syn::Lit::Float(_) | syn::Lit::Bool(_)
            ) =>
        {
            lit(&l.lit)
        }
        E::Verbatim(tokens) => at(
            tokens,
            format!("unsupported expression `{}` in a kernel", snippet(tokens)),
        ),
        _ => return None,
    };
    Some(error)
}

/// An error spanned to `tokens`, the part of the source that shows the
/// construct.
fn at(tokens: impl ToTokens, message: impl Display) -> syn::Error {
    syn::Error::new_spanned(tokens, message)
}

/// The error for a literal the kernel language lacks.
pub(super) fn lit(lit: &syn::Lit) -> syn::Error {
    let message = match lit {
        syn::Lit::Str(_) => unsupported("string literals"),
        syn::Lit::ByteStr(_) => unsupported("byte string literals"),
        syn::Lit::CStr(_) => unsupported("C string literals"),
        syn::Lit::Byte(_) => unsupported("byte literals"),
        syn::Lit::Char(_) => unsupported("character literals"),
        other => format!("unsupported literal `{}` in a kernel", snippet(other)),
    };
    syn::Error::new_spanned(lit, message)
}
