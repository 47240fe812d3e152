//! The signature: qualifiers, generics, parameters and the return type.

use super::error::{snippet, unsupported};
use super::scope::name_of;
use super::ty::{is_unit_type, Ret};
use super::Lowerer;
use ballot_ir::ir::Param;

/// What a pattern binds.
pub(super) enum Bound<'a> {
    /// A name, and whether it is `mut`.
    Name(&'a syn::Ident, bool),
    /// `_`.
    Wild,
}

impl Lowerer {
    /// Checks the signature, declares the parameters in a new scope (closed
    /// by [`Lowerer::body`]) and records the return type.
    pub(super) fn signature(&mut self, sig: &syn::Signature) -> Vec<Param> {
        // In a kernel a call of an operation's name is the operation,
        // never a kernel: a kernel named like one (`subgroup_size`) would
        // be silently passed over where it is called, as Rust would not.
        let name = sig.ident.to_string();
        if crate::call::is_operation(&name) {
            self.errors.spanned(
                &sig.ident,
                format!(
                    "a kernel cannot be named `{name}`: in kernels a call of `{name}` is the \
                     subgroup operation; rename it"
                ),
            );
        }
        self.qualifiers(sig);
        self.generics(&sig.generics);
        self.ret = self.return_type(&sig.output);
        self.scopes.push();
        let params = sig
            .inputs
            .iter()
            .filter_map(|arg| self.param(arg))
            .collect();
        if let Some(variadic) = &sig.variadic {
            self.errors
                .spanned(variadic.dots, unsupported("variadic parameters"));
        }
        params
    }

    fn qualifiers(&mut self, sig: &syn::Signature) {
        if let Some(token) = sig.constness {
            self.errors
                .spanned(token, "`const` kernels are not supported");
        }
        if let Some(token) = sig.asyncness {
            self.errors
                .spanned(token, "`async` kernels are not supported");
        }
        if let Some(token) = sig.unsafety {
            self.errors
                .spanned(token, "`unsafe` kernels are not supported");
        }
        if let Some(abi) = &sig.abi {
            self.errors
                .spanned(abi, "`extern` kernels are not supported");
        }
    }

    fn generics(&mut self, generics: &syn::Generics) {
        for param in &generics.params {
            match param {
                syn::GenericParam::Lifetime(l) => {
                    self.errors
                        .spanned(&l.lifetime, unsupported("lifetime parameters"));
                }
                syn::GenericParam::Type(t) => {
                    self.errors
                        .spanned(&t.ident, unsupported("generic parameters"));
                }
                syn::GenericParam::Const(c) => {
                    let (const_token, ident) = (c.const_token, &c.ident);
                    let tokens = quote::quote!(#const_token #ident);
                    self.errors
                        .spanned(tokens, unsupported("const generic parameters"));
                }
            }
        }
        if let Some(clause) = &generics.where_clause {
            self.errors
                .spanned(clause.where_token, unsupported("`where` clauses"));
        }
    }

    fn return_type(&mut self, output: &syn::ReturnType) -> Ret {
        match output {
            syn::ReturnType::Default => Ret::Unit,
            syn::ReturnType::Type(_, ty) if is_unit_type(ty) => Ret::Unit,
            syn::ReturnType::Type(_, ty) => self.ty(ty).map_or(Ret::Err, Ret::Val),
        }
    }

    fn param(&mut self, arg: &syn::FnArg) -> Option<Param> {
        let arg = match arg {
            syn::FnArg::Typed(arg) => arg,
            syn::FnArg::Receiver(receiver) => {
                self.errors
                    .spanned(receiver.self_token, unsupported("`self` parameters"));
                return None;
            }
        };
        let uniform = self.param_attrs(&arg.attrs);
        let ty = self.ty(&arg.ty);
        let (ident, mutable) = match self.bound_pat(&arg.pat) {
            Some(Bound::Name(ident, mutable)) => (ident, mutable),
            None => {
                self.bind_unlowered(&arg.pat);
                return None;
            }
            Some(Bound::Wild) => {
                self.errors
                    .spanned(&arg.pat, "kernel parameters must be named, found `_`");
                return None;
            }
        };
        if self.scopes.binds_here(&name_of(ident)) {
            let message =
                format!("identifier `{ident}` is bound more than once in this parameter list");
            self.errors.spanned(ident, message);
        }
        let local = self.declare(ident, ty, mutable);
        Some(Param { local, uniform })
    }

    /// Whether the attributes mark the parameter `#[uniform]`; any other
    /// attribute is an error.
    fn param_attrs(&mut self, attrs: &[syn::Attribute]) -> bool {
        let mut uniform = false;
        for attr in attrs {
            if !attr.path().is_ident("uniform") {
                let message = format!(
                    "unsupported attribute `#[{}]` on a kernel parameter; only `#[uniform]` is allowed",
                    snippet(attr.path())
                );
                self.errors.spanned(attr, message);
            } else if !matches!(attr.meta, syn::Meta::Path(_)) {
                self.errors
                    .spanned(&attr.meta, "`#[uniform]` takes no arguments");
            } else {
                uniform = true;
            }
        }
        uniform
    }

    /// Binds every name in a pattern that could not be lowered, with an
    /// unknown type, so that its uses raise no errors of their own.
    pub(super) fn bind_unlowered(&mut self, pat: &syn::Pat) {
        struct Names<'a>(Vec<&'a syn::Ident>);
        impl<'a> syn::visit::Visit<'a> for Names<'a> {
            fn visit_pat_ident(&mut self, p: &'a syn::PatIdent) {
                self.0.push(&p.ident);
                syn::visit::visit_pat_ident(self, p);
            }
        }
        let mut names = Names(Vec::new());
        syn::visit::Visit::visit_pat(&mut names, pat);
        for ident in names.0 {
            self.declare(ident, None, true);
        }
    }

    /// What a `let`, parameter or `for` pattern binds; anything but a plain
    /// (possibly `mut`) identifier or `_` is reported.
    pub(super) fn bound_pat<'a>(&mut self, pat: &'a syn::Pat) -> Option<Bound<'a>> {
        match pat {
            syn::Pat::Ident(p) if p.by_ref.is_some() => {
                self.errors.spanned(p.by_ref, unsupported("`ref` bindings"));
                None
            }
            syn::Pat::Ident(p) => match &p.subpat {
                Some((at, _)) => {
                    self.errors.spanned(at, unsupported("`@` patterns"));
                    None
                }
                None => Some(Bound::Name(&p.ident, p.mutability.is_some())),
            },
            syn::Pat::Wild(_) => Some(Bound::Wild),
            syn::Pat::Paren(p) => self.bound_pat(&p.pat),
            other => {
                let message = format!(
                    "only plain identifiers can be bound in a kernel, found `{}`",
                    snippet(other)
                );
                self.errors.spanned(other, message);
                None
            }
        }
    }
}
