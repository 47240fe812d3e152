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
//!
//! The file is untrusted as `ballot check`'s are, and naga recurses on it
//! in rustc's own process, where an overflow kills the compiler: the macro
//! reads a regular file of at most [`MAX_SOURCE_BYTES`]
//! ([`crate::source::read`]), applies [`crate::check`]'s limits before
//! naga sees it, and links on [`check::guarded`]'s thread, whose stack holds
//! the deepest shader those limits let through even at opt-level 0, within
//! [`check::TIMEOUT`].

use std::path::{Path, PathBuf};

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::{LitInt, LitStr, Token};

use crate::back::{Language, Target};
use crate::check::{self, CheckError, Limits, Problem, MAX_SOURCE_BYTES};
use crate::link::{link, LinkError, LinkOptions};

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
    let at = |message: String| syn::Error::new(args.path.span(), message);
    let full = resolve(&relative).map_err(at)?;
    let bytes = crate::source::read(&full, MAX_SOURCE_BYTES).map_err(|e| {
        let shown = if Path::new(&relative).is_absolute() {
            format!("`{relative}`")
        } else {
            format!(
                "`{relative}` (relative to CARGO_MANIFEST_DIR, {})",
                full.display()
            )
        };
        at(format!("cannot read shader {shown}: {e}"))
    })?;
    if args.descriptor && language != Language::Wgsl {
        return Err(at(
            "`descriptor` is for WGSL: wgpu takes GLSL only through its `glsl` feature".into(),
        ));
    }
    // `link` admits the text too, per target; once here gives one error
    // for them all.
    let limits = Limits::default();
    let first = args.targets[0].0;
    let source = check::admit(first, &bytes, &limits)
        .map_err(|problem| {
            at(CheckError {
                path: relative.clone(),
                problem,
            }
            .to_string())
        })?
        .to_owned();
    let targets: Vec<Target> = args.targets.iter().map(|&(target, _)| target).collect();
    let path = relative.clone();
    let linked = check::guarded(&limits, move || {
        targets
            .into_iter()
            .map(|target| link(&source, &path, target, &options).map(|l| l.text))
            .collect::<Result<Vec<String>, LinkError>>()
    });
    let linked = match linked {
        Ok(Ok(texts)) => texts,
        Ok(Err(e)) => return Err(at(e.to_string())),
        Err(Problem::TimedOut { limit }) => {
            return Err(at(format!(
                "linking `{relative}` did not finish within {} s; a shader this slow to \
                 validate is best split, or linked in a build script (`ballot::link::Build`)",
                limit.as_secs_f64()
            )))
        }
        Err(problem) => return Err(at(format!("linking `{relative}` failed: {problem}"))),
    };
    let mut texts = Vec::new();
    for (text, &(target, _)) in linked.iter().zip(&args.targets) {
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
