//! `#[ballot::kernel(...)]` options.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::ext::IdentExt as _;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, Lit, Token};

use ballot_shader::back::ShaderOptions;

/// The options, every one optional:
///
/// - `crate = path`: where the `ballot` facade is, for code that renames it
///   (default `::ballot`).
/// - `workgroup_size = N` or `[X, Y, Z]`: the workgroup size the shaders
///   are validated with (default 64).
/// - `subgroup_size = N`: the virtual subgroup size of the emulated targets
///   (default 32).
/// - `validate = false`: skip naga validation of the emitted shaders at
///   compile time, for faster builds. The `skip-validation` feature of the
///   `ballot` crate does the same for every kernel.
#[derive(Clone, Debug)]
pub struct Options {
    /// The path generated code reaches the runtime through: the facade
    /// crate's `__private` module.
    pub krate: TokenStream,
    /// The shader options validation uses.
    pub shader: ShaderOptions,
    /// Whether to validate emitted shaders.
    pub validate: bool,
    /// The span of the shader options, for errors about their combination.
    pub shader_span: Span,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            krate: quote!(::ballot::__private),
            shader: ShaderOptions::default(),
            validate: !cfg!(feature = "skip-validation"),
            shader_span: Span::call_site(),
        }
    }
}

/// One `name = value` option.
struct OptionArg {
    name: Ident,
    value: Expr,
}

impl Parse for OptionArg {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name = input.call(Ident::parse_any)?;
        input.parse::<Token![=]>()?;
        Ok(Self {
            name,
            value: input.parse()?,
        })
    }
}

const KNOWN: &str = "`crate`, `workgroup_size`, `subgroup_size` and `validate`";

impl Parse for Options {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut options = Options::default();
        let args = Punctuated::<OptionArg, Token![,]>::parse_terminated(input)?;
        let mut errors: Option<syn::Error> = None;
        for arg in args {
            if let Err(err) = options.apply(&arg) {
                match &mut errors {
                    Some(all) => all.combine(err),
                    None => errors = Some(err),
                }
            }
        }
        match errors {
            Some(errors) => Err(errors),
            None => {
                let shader = &options.shader;
                shader
                    .validate()
                    .map_err(|e| syn::Error::new(options.shader_span, e))?;
                Ok(options)
            }
        }
    }
}

impl Options {
    fn apply(&mut self, arg: &OptionArg) -> syn::Result<()> {
        let value = &arg.value;
        match arg.name.to_string().as_str() {
            "crate" => match value {
                Expr::Path(path) => {
                    let path = &path.path;
                    self.krate = quote!(#path::__private);
                }
                _ => {
                    return Err(syn::Error::new_spanned(
                        value,
                        "`crate` takes a path, e.g. `crate = ::ballot`",
                    ))
                }
            },
            "workgroup_size" => {
                self.shader.workgroup_size = workgroup_size(value)?;
                self.shader_span = arg.name.span();
            }
            "subgroup_size" => {
                self.shader.subgroup_size = int(value, "subgroup_size")?;
                self.shader_span = arg.name.span();
            }
            "validate" => match value {
                Expr::Lit(syn::ExprLit {
                    lit: Lit::Bool(b), ..
                }) => self.validate = b.value,
                _ => {
                    return Err(syn::Error::new_spanned(
                        value,
                        "`validate` takes `true` or `false`",
                    ))
                }
            },
            other => {
                let msg = format!("unknown kernel option `{other}`; the options are {KNOWN}");
                return Err(syn::Error::new(arg.name.span(), msg));
            }
        }
        Ok(())
    }
}

fn int(value: &Expr, option: &str) -> syn::Result<u32> {
    match value {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Int(i), ..
        }) => i.base10_parse(),
        _ => Err(syn::Error::new_spanned(
            value,
            format!("`{option}` takes an integer literal"),
        )),
    }
}

fn workgroup_size(value: &Expr) -> syn::Result<[u32; 3]> {
    let option = "workgroup_size";
    match value {
        Expr::Array(array) if (1..=3).contains(&array.elems.len()) => {
            let mut size = [1; 3];
            for (slot, elem) in size.iter_mut().zip(&array.elems) {
                *slot = int(elem, option)?;
            }
            Ok(size)
        }
        Expr::Array(array) => Err(syn::Error::new_spanned(
            array,
            "`workgroup_size` takes 1 to 3 dimensions",
        )),
        other => Ok([int(other, option)?, 1, 1]),
    }
}
