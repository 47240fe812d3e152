//! `ballot::include_wgsl!` and `ballot::include_glsl!`: a hand-written
//! shader file, linked ([`crate::link`]) for one or more targets when the
//! crate builds.
//!
//! ```text
//! include_wgsl!("shaders/scan.wgsl", target = "wgsl-no-subgroup")
//! include_wgsl!("shaders/scan.wgsl", targets = ["wgsl", "wgsl-no-subgroup"], subgroup_size = 16)
//! ```
//!
//! `target = T` expands to a `&'static str`; `targets = [..]` to an array
//! of them, in the order given. With `descriptor` (and `ballot`'s `wgpu`
//! feature), to `wgpu::ShaderModuleDescriptor`s, labelled with the path and
//! the target. The path is relative to the crate's
//! `CARGO_MANIFEST_DIR`, as Cargo's build scripts take paths. The output
//! `include_str!`s the file, so that the crate is rebuilt when it
//! changes. Every error is a `compile_error!` at the macro's argument it
//! concerns; a linking error carries the shader's own path, line, column
//! and line.

use std::path::{Path, PathBuf};

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::{LitInt, LitStr, Token};

use crate::back::{Language, Target};
use crate::link::{link, LinkOptions};

/// Expands `include_wgsl!` (`language` WGSL) or `include_glsl!`.
pub fn include(language: Language, input: TokenStream) -> TokenStream {
    match expand(language, input) {
        Ok(tokens) => tokens,
        Err(error) => error.to_compile_error(),
    }
}

/// The macro's arguments.
struct Args {
    path: LitStr,
    targets: Vec<(Target, Span)>,
    /// Whether `targets = [..]` (an array) was written.
    many: bool,
    subgroup_size: Option<LitInt>,
    /// `descriptor`: `wgpu::ShaderModuleDescriptor`s rather than texts.
    descriptor: bool,
}

impl Parse for Args {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let path: LitStr = input.parse()?;
        let mut targets = None;
        let mut many = false;
        let mut subgroup_size = None;
        let mut descriptor = false;
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: syn::Ident = input.parse()?;
            if key == "descriptor" {
                descriptor = true;
                continue;
            }
            input.parse::<Token![=]>()?;
            match key.to_string().as_str() {
                "target" | "targets" if targets.is_some() => {
                    return Err(syn::Error::new(key.span(), "the targets are given twice"))
                }
                "target" => targets = Some(vec![target(input)?]),
                "targets" => {
                    let list;
                    syn::bracketed!(list in input);
                    let mut all = Vec::new();
                    while !list.is_empty() {
                        all.push(target(&list)?);
                        if !list.is_empty() {
                            list.parse::<Token![,]>()?;
                        }
                    }
                    if all.is_empty() {
                        return Err(syn::Error::new(key.span(), "`targets` is empty"));
                    }
                    many = true;
                    targets = Some(all);
                }
                "subgroup_size" => subgroup_size = Some(input.parse()?),
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                            "unknown option `{other}`: the options are `target`, `targets`, \
                             `subgroup_size` and `descriptor`"
                        ),
                    ))
                }
            }
        }
        let targets = targets.ok_or_else(|| {
            syn::Error::new(
                path.span(),
                "no target: add `target = wgsl` (or `targets = [wgsl, wgsl-no-subgroup]`)",
            )
        })?;
        Ok(Args {
            path,
            targets,
            many,
            subgroup_size,
            descriptor,
        })
    }
}

/// A target, as `wgsl-no-subgroup` (its words) or `"wgsl-no-subgroup"`.
fn target(input: ParseStream<'_>) -> syn::Result<(Target, Span)> {
    let (name, span) = if input.peek(LitStr) {
        let lit: LitStr = input.parse()?;
        (lit.value(), lit.span())
    } else {
        let mut name = String::new();
        let mut span = None;
        while !input.is_empty() && !input.peek(Token![,]) {
            let tree: TokenTree = input.parse()?;
            span.get_or_insert(tree.span());
            name.push_str(&tree.to_string());
        }
        (name, span.unwrap_or_else(|| input.span()))
    };
    let target = Target::ALL
        .into_iter()
        .find(|t| t.name() == name)
        .ok_or_else(|| {
            syn::Error::new(
                span,
                format!(
                    "unknown target `{name}`: one of {}",
                    Target::ALL.map(Target::name).join(", ")
                ),
            )
        })?;
    Ok((target, span))
}

fn expand(language: Language, input: TokenStream) -> syn::Result<TokenStream> {
    let args: Args = syn::parse2(input)?;
    for &(target, span) in &args.targets {
        if target.language() != language {
            let (other, wanted) = match language {
                Language::Wgsl => ("include_glsl!", "WGSL"),
                Language::Glsl => ("include_wgsl!", "GLSL"),
            };
            return Err(syn::Error::new(
                span,
                format!("`{target}` is not a {wanted} target: use {other} for it"),
            ));
        }
    }
    let mut options = LinkOptions::default();
    if let Some(size) = &args.subgroup_size {
        options.subgroup_size = size.base10_parse()?;
    }
    let relative = args.path.value();
    let full = resolve(&relative).map_err(|message| syn::Error::new(args.path.span(), message))?;
    let source = std::fs::read_to_string(&full).map_err(|e| {
        syn::Error::new(
            args.path.span(),
            // The path as written, not as resolved: the crate's root is the
            // user's to know, and the resolved path would name wherever the
            // build happens to run (another target directory, another
            // machine).
            format!(
                "cannot read shader `{relative}` (paths are relative to the crate's root, \
                 CARGO_MANIFEST_DIR): {e}"
            ),
        )
    })?;
    if args.descriptor && language != Language::Wgsl {
        return Err(syn::Error::new(
            args.path.span(),
            "`descriptor` is for WGSL: wgpu takes GLSL only through its `glsl` feature",
        ));
    }
    let mut texts = Vec::new();
    for &(target, _) in &args.targets {
        let linked = link(&source, &relative, target, &options)
            .map_err(|e| syn::Error::new(args.path.span(), e.to_string()))?;
        let text = linked.text;
        texts.push(if args.descriptor {
            let label = format!("{relative} ({target})");
            quote!(::ballot::__private::shader_module_descriptor::<()>(#label, #text))
        } else {
            quote!(#text)
        });
    }
    // The file as a dependency of the crate: Cargo rebuilds when it changes.
    let full = full.to_string_lossy().into_owned();
    let track = quote_spanned!(args.path.span()=> const _: &str = ::core::include_str!(#full););
    Ok(if args.many {
        quote!({ #track [#(#texts),*] })
    } else {
        quote!({ #track #(#texts)* })
    })
}

/// `relative` under `CARGO_MANIFEST_DIR`.
fn resolve(relative: &str) -> Result<PathBuf, String> {
    if Path::new(relative).is_absolute() {
        return Ok(PathBuf::from(relative));
    }
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .ok_or("CARGO_MANIFEST_DIR is not set: build with Cargo")?;
    Ok(Path::new(&dir).join(relative))
}
