//! Procedural macros for the `ballot` crate: a thin shim over
//! `ballot_expand`, where all the logic lives and is unit-tested.

use proc_macro::TokenStream;

/// Turns a Rust function into a ballot kernel. See the `ballot` crate.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    // The tokens nest as deep as the kernel: their conversions recurse too.
    ballot_ir::stack::deep(|| ballot_expand::kernel(attr.into(), item.into()).into())
}

/// A hand-written WGSL shader, linked with the ballot helpers it calls,
/// for one target (`&'static str`) or several (an array). See the
/// `ballot` crate.
#[proc_macro]
pub fn include_wgsl(input: TokenStream) -> TokenStream {
    ballot_expand::include(ballot_ir::target::Language::Wgsl, input.into()).into()
}

/// A hand-written GLSL shader, linked with the ballot helpers it calls,
/// for one target (`&'static str`) or several (an array). See the
/// `ballot` crate.
#[proc_macro]
pub fn include_glsl(input: TokenStream) -> TokenStream {
    ballot_expand::include(ballot_ir::target::Language::Glsl, input.into()).into()
}
