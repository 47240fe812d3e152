//! The error accumulator and the wording of the messages shared by several
//! phases.
//!
//! Lowering never stops at the first mistake: each phase records its errors
//! here and carries on with a placeholder, and [`Errors::finish`] combines
//! them into one `syn::Error`, so the user sees every problem at once.

use core::fmt::Display;

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;

/// Every error found so far, in the order found.
#[derive(Default)]
pub(super) struct Errors {
    errors: Vec<syn::Error>,
}

impl Errors {
    /// Records an error spanned to `tokens`.
    pub(super) fn spanned<T: ToTokens, M: Display>(&mut self, tokens: T, message: M) {
        // One non-generic call keeps monomorphised copies small.
        self.push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records an error at `span`.
    pub(super) fn at<M: Display>(&mut self, span: Span, message: M) {
        self.push(syn::Error::new(span, message));
    }

    /// Records a ready-made error.
    pub(super) fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// All the errors combined into one, or `Ok` if there were none.
    pub(super) fn finish(self) -> syn::Result<()> {
        let mut errors = self.errors.into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for rest in errors {
            combined.combine(rest);
        }
        Err(combined)
    }
}

/// "mismatched types: expected `A`, found `B`".
pub(super) fn mismatch(expected: impl Display, found: impl Display) -> String {
    format!("mismatched types: expected `{expected}`, found `{found}`")
}

/// "`what` are not supported in a kernel".
pub(super) fn unsupported(what: &str) -> String {
    format!("{what} are not supported in a kernel")
}

/// "`name` takes N argument(s) but M were supplied".
pub(super) fn arity(name: &str, expected: usize, found: usize) -> String {
    let s = if expected == 1 { "" } else { "s" };
    let were = if found == 1 { "was" } else { "were" };
    format!("`{name}` takes {expected} argument{s} but {found} {were} supplied")
}

/// The source text of `tokens`, compact enough to quote in a message:
/// `helpers::slot`, `Vec<u32>`, `println!`, `&mut u32`.
///
/// Spaces separate two words only (and follow commas and semicolons), which
/// is how rustc prints paths and types.
pub(super) fn snippet<T: ToTokens + ?Sized>(tokens: &T) -> String {
    let mut text = String::new();
    write_snippet(tokens.to_token_stream(), &mut text);
    text
}

fn write_snippet(tokens: TokenStream, text: &mut String) {
    for tree in tokens {
        match tree {
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    proc_macro2::Delimiter::Parenthesis => ("(", ")"),
                    proc_macro2::Delimiter::Brace => ("{ ", " }"),
                    proc_macro2::Delimiter::Bracket => ("[", "]"),
                    proc_macro2::Delimiter::None => ("", ""),
                };
                text.push_str(open);
                write_snippet(group.stream(), text);
                text.push_str(close);
            }
            TokenTree::Punct(punct) => {
                text.push(punct.as_char());
                if matches!(punct.as_char(), ',' | ';') {
                    text.push(' ');
                }
            }
            word => {
                if text.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                    text.push(' ');
                }
                text.push_str(&word.to_string());
            }
        }
    }
}
