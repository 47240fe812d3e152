//! Procedural macros for the `ballot` crate: a thin shim over
//! `ballot_core::expand`, where all the logic lives and is unit-tested.

use proc_macro::TokenStream;

/// Turns a Rust function into a ballot kernel. See the `ballot` crate.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    // The tokens nest as deep as the kernel: their conversions recurse too.
    ballot_core::stack::deep(|| ballot_core::expand::kernel(attr.into(), item.into()).into())
}

/// A hand-written WGSL shader, linked with the ballot helpers it calls,
/// for one target (`&'static str`) or several (an array). See the
/// `ballot` crate.
#[proc_macro]
pub fn include_wgsl(input: TokenStream) -> TokenStream {
    ballot_core::expand::include(ballot_core::back::Language::Wgsl, input.into()).into()
}

/// A hand-written GLSL shader, linked with the ballot helpers it calls,
/// for one target (`&'static str`) or several (an array). See the
/// `ballot` crate.
#[proc_macro]
pub fn include_glsl(input: TokenStream) -> TokenStream {
    ballot_core::expand::include(ballot_core::back::Language::Glsl, input.into()).into()
}
