//! Diagnostics for the Rust that the kernel language lacks, each spanned to
//! the tokens that show the construct: the `&` of a reference, the `match`
//! keyword, the `?`, the `[...]` of an index.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};

use super::error::{snippet, unsupported};

/// The error for an expression the kernel language lacks; `None` for the
/// kinds it has (those are lowered, and report their own misuse).
pub(super) fn expr(e: &syn::Expr) -> Option<syn::Error> {
    use syn::Expr as E;
    let (tokens, message): (TokenStream, String) = match e {
        E::Reference(r) => {
            let (and, mutability) = (r.and_token, r.mutability);
            (quote!(#and #mutability), unsupported("references"))
        }
        E::RawAddr(r) => (r.and_token.to_token_stream(), unsupported("raw borrows")),
        E::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => {
            (u.op.to_token_stream(), unsupported("dereferences"))
        }
        E::Struct(s) => (s.path.to_token_stream(), unsupported("struct literals")),
        E::Field(f) => {
            let (dot, member) = (f.dot_token, &f.member);
            (
                quote!(#dot #member),
                "field access is not supported in a kernel".to_owned(),
            )
        }
        E::Tuple(t) => (t.to_token_stream(), unsupported("tuples")),
        E::Array(_) | E::Repeat(_) => (e.to_token_stream(), unsupported("arrays")),
        E::Index(i) => {
            return Some(syn::Error::new(
                i.bracket_token.span.join(),
                "indexing is not supported in a kernel",
            ))
        }
        E::Closure(c) => {
            let (capture, or1, inputs, or2) = (c.capture, c.or1_token, &c.inputs, c.or2_token);
            (quote!(#capture #or1 #inputs #or2), unsupported("closures"))
        }
        E::Match(m) => (
            m.match_token.to_token_stream(),
            "`match` is not supported in a kernel; use `if` / `else`".to_owned(),
        ),
        E::Try(t) => (
            t.question_token.to_token_stream(),
            "the `?` operator is not supported in a kernel".to_owned(),
        ),
        E::Macro(m) => {
            let (path, bang) = (&m.mac.path, m.mac.bang_token);
            let message = format!("{}, found `{}!`", unsupported("macros"), snippet(path));
            (quote!(#path #bang), message)
        }
        E::Unsafe(u) => (
            u.unsafe_token.to_token_stream(),
            unsupported("`unsafe` blocks"),
        ),
        E::Async(a) => (
            a.async_token.to_token_stream(),
            unsupported("`async` blocks"),
        ),
        E::Await(a) => (
            a.await_token.to_token_stream(),
            "`.await` is not supported in a kernel".to_owned(),
        ),
        E::Const(c) => (
            c.const_token.to_token_stream(),
            unsupported("`const` blocks"),
        ),
        E::TryBlock(t) => (t.try_token.to_token_stream(), unsupported("`try` blocks")),
        E::Yield(y) => (
            y.yield_token.to_token_stream(),
            "`yield` is not supported in a kernel".to_owned(),
        ),
        E::Range(r) => (
            r.limits.to_token_stream(),
            "ranges are only supported as the iterable of a `for` loop in a kernel".to_owned(),
        ),
        E::Let(l) => (
            l.let_token.to_token_stream(),
            unsupported("`let` expressions"),
        ),
        E::Infer(i) => (
            i.underscore_token.to_token_stream(),
            "`_` is not supported as an expression in a kernel".to_owned(),
        ),
        E::Lit(l)
            if !matches!(
                l.lit,
                syn::Lit::Int(_) | syn::Lit::Float(_) | syn::Lit::Bool(_)
            ) =>
        {
            return Some(lit(&l.lit))
        }
        E::Verbatim(tokens) => (
            tokens.clone(),
            format!("unsupported expression `{}` in a kernel", snippet(tokens)),
        ),
        _ => return None,
    };
    Some(syn::Error::new_spanned(tokens, message))
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
