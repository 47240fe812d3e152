//! The `#[ballot::kernel]` expansion: options, lowering, and the generated
//! items. `ballot-macros` is a shim over [`kernel`].

#![warn(missing_docs)]

use std::time::Duration;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::{Ident, ItemFn};

mod cache;
mod include;
mod ir_tokens;
mod options;
pub mod rust;
mod timing;
mod validate;

pub use cache::CACHE_VAR;
pub use include::include;
pub use options::Options;
pub use validate::{MAX_THREADS, THREADS_VAR};

use crate::rust::Writer;
use ballot_front as front;
use ballot_front::Lowered;
use ballot_ir::ir::{Kernel, Type};
use ballot_shader::back::Missing;
use ballot_shader::lower::plan::Plan;
use timing::{timed, Phases};

/// Expands `#[ballot::kernel(attr)] item`.
///
/// On error the output holds every `compile_error!` next to a stub with the
/// kernel's API, so uses of the kernel elsewhere don't add errors of their
/// own.
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    let timing = std::env::var_os(TIMING_VAR)
        .is_some()
        .then(std::time::Instant::now);
    let name = timing.map(|_| fn_name(&item));
    let mut phases = Phases::default();
    let output = ballot_ir::stack::deep(|| expand(attr, item, &mut phases));
    if let (Some(start), Some(name)) = (timing, name) {
        let total = start.elapsed();
        let ms = total.as_secs_f64() * 1e3;
        eprintln!("ballot: expanded kernel `{name}` in {ms:.3} ms");
        eprintln!("{}", phases.report(&name, total));
    }
    output
}

/// Set this environment variable (to anything) while building to have
/// every `#[ballot::kernel]` print how long its expansion took, validation
/// included, on standard error (visible with `cargo build -vv`):
/// `ballot: expanded kernel `name` in X ms`, then a line with the time of
/// each phase (parse, lower, emit and validate per target, rust, other).
pub const TIMING_VAR: &str = "BALLOT_TIME_EXPANSION";

/// The identifier after `fn`, read off the tokens without parsing them.
fn fn_name(item: &TokenStream) -> String {
    let mut tokens = item.clone().into_iter();
    while let Some(token) = tokens.next() {
        if matches!(&token, proc_macro2::TokenTree::Ident(i) if i == "fn") {
            return tokens.next().map_or_else(String::new, |t| t.to_string());
        }
    }
    String::new()
}

fn expand(attr: TokenStream, item: TokenStream, phases: &mut Phases) -> TokenStream {
    if let Err(err) = front::limits::check_tokens(item.clone()) {
        return too_large(err, attr, &item);
    }
    let parsed = timed(&mut phases.parse, || syn::parse2::<ItemFn>(item.clone()));
    let item: ItemFn = match parsed {
        Ok(item) => item,
        Err(err) => {
            let err = syn::Error::new(err.span(), "`#[ballot::kernel]` applies to a function");
            let err = err.to_compile_error();
            return quote!(#err #item);
        }
    };
    let options = timed(&mut phases.parse, || syn::parse2::<Options>(attr));
    let lowered = timed(&mut phases.lower, || {
        front::limits::check_depth(&item).and_then(|()| front::lower(&item))
    });
    match (options, lowered) {
        (Ok(options), Ok(lowered)) => {
            // The native Rust is generated on this thread while the shaders
            // are checked on others.
            let mut rust = Duration::ZERO;
            // One plan for every printer: the kernel is if-converted once.
            // Its callees are stood in for by stubs of the call's signature:
            // each is checked when its own attribute expands.
            let plan = match Plan::new(&[&lowered.kernel], Missing::Stub) {
                Ok(plan) => plan,
                Err(e) => {
                    let err = syn::Error::new(item.sig.ident.span(), e).to_compile_error();
                    return quote!(#err #item);
                }
            };
            let (errors, generated) = validate::shaders(&item, &plan, &options, phases, || {
                timed(&mut rust, || generate(&item, &lowered, &plan, &options))
            });
            phases.rust = rust;
            let errors = errors.iter().map(syn::Error::to_compile_error);
            quote!(#(#errors)* #generated)
        }
        (options, lowered) => {
            let krate = options
                .as_ref()
                .map_or_else(|_| Options::default().krate, |o| o.krate.clone());
            let errors = [options.err(), lowered.err()].into_iter().flatten();
            let errors = errors.map(|e| e.to_compile_error());
            let stub = stub(&item, &krate);
            quote!(#(#errors)* #stub)
        }
    }
}

/// The error for a kernel past [`front::limits`], next to a stub of its
/// API, read off the signature alone: the body is never parsed.
fn too_large(err: syn::Error, attr: TokenStream, item: &TokenStream) -> TokenStream {
    let error = err.to_compile_error();
    let mut signature: Vec<proc_macro2::TokenTree> = item.clone().into_iter().collect();
    if matches!(signature.last(), Some(proc_macro2::TokenTree::Group(g)) if g.delimiter() == proc_macro2::Delimiter::Brace)
    {
        signature.pop();
    }
    let signature: TokenStream = signature.into_iter().collect();
    match syn::parse2::<ItemFn>(quote!(#signature {})) {
        Ok(item) => {
            let krate = syn::parse2::<Options>(attr).unwrap_or_default().krate;
            let stub = stub(&item, &krate);
            quote!(#error #stub)
        }
        Err(_) => error,
    }
}

/// The kernel's source as the macro accepted it, without its docs:
/// `ballot_front::lower_source` lowers it to the kernel's IR again.
fn source_text(item: &ItemFn) -> String {
    let mut item = item.clone();
    item.attrs.retain(|a| !a.path().is_ident("doc"));
    item.to_token_stream().to_string()
}

struct Signature {
    /// `name: &[T]` or `name: T` for `run`.
    inputs: Vec<TokenStream>,
    /// The parameter names.
    names: Vec<Ident>,
    uniform: Vec<bool>,
    /// Lane types.
    types: Vec<TokenStream>,
}

fn signature(item: &ItemFn, kernel: &Kernel, writer: &Writer) -> Signature {
    let mut sig = Signature {
        inputs: vec![],
        names: vec![],
        uniform: vec![],
        types: vec![],
    };
    for (i, param) in kernel.params.iter().enumerate() {
        let name = param_ident(item, i);
        let ty = writer.lane_type(kernel.param_type(i));
        sig.inputs.push(if param.uniform {
            quote!(#name: #ty)
        } else {
            quote!(#name: &[#ty])
        });
        sig.names.push(name);
        sig.uniform.push(param.uniform);
        sig.types.push(ty);
    }
    sig
}

fn param_ident(item: &ItemFn, index: usize) -> Ident {
    match item.sig.inputs.iter().nth(index) {
        Some(syn::FnArg::Typed(pat)) => match &*pat.pat {
            syn::Pat::Ident(p) => Ident::new(&p.ident.to_string(), p.ident.span()),
            _ => format_ident!("arg{}", index),
        },
        _ => format_ident!("arg{}", index),
    }
}

fn generate(item: &ItemFn, lowered: &Lowered, plan: &Plan<'_>, options: &Options) -> TokenStream {
    let kernel = &lowered.kernel;
    let krate = &options.krate;
    // The plan's form of the kernel; a plan of other kernels would be the
    // caller's mistake, and the kernel is if-converted here instead.
    let masked = plan
        .masked_of(kernel)
        .cloned()
        .unwrap_or_else(|| ballot_shader::lower::masked::if_convert(kernel));
    let mut writer = Writer::new(kernel, masked, &lowered.spans, krate.clone());
    let body = writer.body();
    let ret = writer.ret_type();
    let sig = signature(item, kernel, &writer);
    let name = &item.sig.ident;
    let vis = &item.vis;
    let docs = item.attrs.iter().filter(|a| a.path().is_ident("doc"));
    let name_str = name.to_string();
    let source = source_text(item);
    let simd_params = sig.types.iter().enumerate().map(|(i, ty)| {
        let p = format_ident!("__p{}", i);
        quote!(#p: &#krate::__spmd::V<#ty, __N>)
    });
    let run = run_fn(&sig, krate, &ret);
    let run_dispatch = run_dispatch_fn(&sig, krate, &ret);
    let kernel_impl = kernel_impl(name, &sig, krate, &ret);
    let api_doc = api_doc(&name_str, kernel);
    let ir = ir_tokens::kernel(kernel, krate);
    let callees: Vec<TokenStream> = kernel
        .callees()
        .iter()
        .map(|path| path.parse().unwrap_or_else(|_| quote!(#path)))
        .collect();
    let no_recursion = no_recursion(name, lowered);
    let seen = SEEN;
    quote! {
        #no_recursion

        #kernel_impl

        #(#docs)*
        #[doc = #api_doc]
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        #vis struct #name;

        #[allow(dead_code, clippy::too_many_arguments)]
        impl #name {
            /// The kernel's name.
            pub const NAME: &'static str = #name_str;
            /// The kernel's source, as the macro accepted it.
            pub const SOURCE: &'static str = #source;

            #run
            #run_dispatch

            /// This kernel and every kernel it calls, directly or not, each
            /// once, this one first: what a shader of it must contain.
            pub fn kernels() -> ::std::vec::Vec<&'static #krate::ir::Kernel> {
                let mut all = ::std::vec![Self::ir()];
                #(
                    for kernel in #callees::kernels() {
                        if !all.iter().any(|k| ::core::ptr::eq(*k, kernel)) {
                            all.push(kernel);
                        }
                    }
                )*
                all
            }

            /// The kernel as shader text for `target`, in `form`, with
            /// every kernel it calls.
            ///
            /// # Errors
            /// Invalid `options`, naming the option.
            pub fn shader(
                target: #krate::Target,
                form: #krate::Form,
                options: &#krate::ShaderOptions,
            ) -> ::core::result::Result<::std::string::String, #krate::ShaderError> {
                #krate::emit(target, form, &Self::kernels(), options, #krate::Missing::Error)
            }

            #[doc(hidden)]
            pub const __PATH: &'static str = ::core::concat!(::core::module_path!(), "::", #name_str);

            /// Whether the calls below this kernel reach the kernel whose
            /// `__PATH` is `target`: a depth-first walk, at compile time, that
            /// marks the kernels it has left in `seen`, so that each is
            /// walked once.
            #[doc(hidden)]
            pub const fn __reaches(
                __target: &str,
                __seen: &mut ([&'static str; #seen], usize),
                __depth: usize,
            ) -> bool {
                if __depth >= #seen {
                    return false;
                }
                let mut __i = 0;
                while __i < __seen.1 {
                    if Self::__same_path(__seen.0[__i], Self::__PATH) {
                        return false;
                    }
                    __i += 1;
                }
                if __seen.1 < #seen {
                    __seen.0[__seen.1] = Self::__PATH;
                    __seen.1 += 1;
                }
                #(
                    if Self::__same_path(#callees::__PATH, __target)
                        || #callees::__reaches(__target, __seen, __depth + 1)
                    {
                        return true;
                    }
                )*
                false
            }

            /// Whether this kernel calls the kernel whose `__PATH` is
            /// `target` itself.
            #[doc(hidden)]
            pub const fn __calls(__target: &str) -> bool {
                #(
                    if Self::__same_path(#callees::__PATH, __target) {
                        return true;
                    }
                )*
                false
            }

            /// `a == b`, in a constant.
            #[doc(hidden)]
            pub const fn __same_path(__a: &str, __b: &str) -> bool {
                let (__a, __b) = (__a.as_bytes(), __b.as_bytes());
                if __a.len() != __b.len() {
                    return false;
                }
                let mut __i = 0;
                while __i < __a.len() {
                    if __a[__i] != __b[__i] {
                        return false;
                    }
                    __i += 1;
                }
                true
            }

            /// The kernel's IR, which every shader backend reads.
            pub fn ir() -> &'static #krate::ir::Kernel {
                static IR: ::std::sync::OnceLock<#krate::ir::Kernel> = ::std::sync::OnceLock::new();
                IR.get_or_init(|| #ir)
            }

            #[doc(hidden)]
            #[allow(unused_mut, unused_variables, unused_assignments, unused_labels, unreachable_code, clippy::all)]
            #[inline]
            pub fn __simd<const __N: usize>(
                __cx: &#krate::__spmd::Cx<__N>,
                __entry: u128,
                #(#simd_params),*
            ) -> ::core::result::Result<#krate::__spmd::V<#ret, __N>, #krate::SimError> {
                #body
            }
        }
    }
}

/// How many kernels the walk against recursion marks, and how deep it
/// goes: a cycle through more kernels than this is not seen at compile
/// time (docs/architecture.md).
const SEEN: usize = 256;

/// The constant that refuses recursion through other kernels, which the
/// front end cannot see: kernels in a crate know each other only by the
/// paths rustc resolves, so the walk runs in rustc's constant evaluation,
/// over each kernel's `__reaches`. A cycle fails it with a panic, spanned
/// at this kernel's call that starts the cycle, whose message names the
/// kernels: every kernel of a cycle reports its own call.
fn no_recursion(name: &Ident, lowered: &Lowered) -> TokenStream {
    let kernel = &lowered.kernel;
    let mut seen: Vec<&str> = Vec::new();
    let mut checks = Vec::new();
    let capacity = SEEN;
    for (handle, expr) in kernel.exprs.iter() {
        let ballot_ir::ir::Expr::Call { callee, .. } = expr else {
            continue;
        };
        if seen.contains(&callee.as_str()) {
            continue;
        }
        seen.push(callee);
        let span = lowered
            .spans
            .exprs
            .get(handle.index())
            .copied()
            .unwrap_or_else(Span::call_site);
        let Ok(path) = callee.parse::<TokenStream>() else {
            continue;
        };
        let path = respan(path, span);
        let callee_name = callee.rsplit("::").next().unwrap_or(callee).trim();
        let itself = format!("`{name}` calls itself (as `{callee}`): kernels cannot recurse");
        let direct = front::cycle_message(&[name.to_string(), callee_name.to_string()]);
        let through = format!(
            "`{name}` calls `{callee_name}`, which calls `{name}` through other kernels: \
             kernels cannot recurse"
        );
        checks.push(quote_spanned! {span=>
            if #name::__same_path(#path::__PATH, #name::__PATH) {
                ::core::panic!(#itself);
            }
            if #path::__calls(#name::__PATH) {
                ::core::panic!(#direct);
            }
            if #path::__reaches(#name::__PATH, &mut ([""; #capacity], 0), 0) {
                ::core::panic!(#through);
            }
        });
    }
    if checks.is_empty() {
        return TokenStream::new();
    }
    quote! {
        // Kernels cannot recurse: evaluating this refuses a cycle of calls.
        const _: () = { #(#checks)* };
    }
}

/// `tokens` with every token at `span`, so that errors about them point at
/// the user's code.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tree| {
            if let proc_macro2::TokenTree::Group(g) = &tree {
                let mut group = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(span);
                tree = proc_macro2::TokenTree::Group(group);
            } else {
                tree.set_span(span);
            }
            tree
        })
        .collect()
}

fn api_doc(name: &str, kernel: &Kernel) -> String {
    let params: Vec<String> = kernel
        .params
        .iter()
        .map(|p| {
            let local = &kernel.locals[p.local];
            let kind = if p.uniform { "uniform" } else { "per-lane" };
            format!("`{}: {}` ({kind})", local.name, type_name(local.ty))
        })
        .collect();
    format!(
        "\n\n`#[ballot::kernel]`: run it with [`{name}::run`] over one subgroup or \
         [`{name}::run_dispatch`] over a dispatch. Parameters: {}.",
        if params.is_empty() {
            "none".to_string()
        } else {
            params.join(", ")
        }
    )
}

fn type_name(ty: Type) -> &'static str {
    ty.rust_name()
}

/// A `match` on the subgroup size that calls `Self::#inner::<N>(#args)` with
/// the lane count [`ballot_sim::spmd::width`] picks: one arm per width of
/// [`ballot_sim::spmd::WIDTHS`].
fn by_width(
    size: TokenStream,
    inner: &Ident,
    args: &[TokenStream],
    krate: &TokenStream,
) -> TokenStream {
    let (last, rest) = ballot_sim::spmd::WIDTHS
        .split_last()
        .expect("at least one width");
    let arms = rest
        .iter()
        .map(|&n| quote!(#n => Self::#inner::<#n>(#(#args),*),));
    quote! {
        match #krate::__spmd::width(#size) {
            #(#arms)*
            _ => Self::#inner::<#last>(#(#args),*),
        }
    }
}

fn run_fn(sig: &Signature, krate: &TokenStream, ret: &TokenStream) -> TokenStream {
    let subgroup = Ident::new("subgroup", Span::mixed_site());
    let cx = Ident::new("cx", Span::mixed_site());
    let out = Ident::new("out", Span::mixed_site());
    let inner = format_ident!("__run");
    let inputs = &sig.inputs;
    let loads = sig.names.iter().zip(&sig.uniform).map(|(name, &uniform)| {
        let name_str = name.to_string();
        if uniform {
            quote!(let #name = #cx.splat(#name);)
        } else {
            quote!(let #name = #krate::__spmd::load(&#cx, #name_str, #name)?;)
        }
    });
    let names = &sig.names;
    let args: Vec<_> = std::iter::once(quote!(#subgroup))
        .chain(names.iter().map(|n| quote!(#n)))
        .collect();
    let dispatch = by_width(quote!(#subgroup.size()), &inner, &args, krate);
    quote! {
        /// Runs the kernel over the active lanes of one subgroup. Per-lane
        /// inputs hold one entry per lane, indexed by lane id; entries of
        /// inactive lanes are ignored. Inactive lanes get no output.
        ///
        /// # Errors
        /// A report of the first undefined behaviour, naming the operation
        /// and the lane, or an input of the wrong length.
        pub fn run(
            #subgroup: &#krate::Subgroup,
            #(#inputs),*
        ) -> ::core::result::Result<#krate::PerLane<#ret>, #krate::SimError> {
            #dispatch
        }

        #[doc(hidden)]
        fn #inner<const __N: usize>(
            #subgroup: &#krate::Subgroup,
            #(#inputs),*
        ) -> ::core::result::Result<#krate::PerLane<#ret>, #krate::SimError> {
            let #cx = #krate::__spmd::Cx::<__N>::new(#subgroup);
            #(#loads)*
            let #out = Self::__simd(&#cx, #subgroup.active().bits(), #(&#names),*)?;
            ::core::result::Result::Ok(#krate::__spmd::store(#subgroup, &#out))
        }
    }
}

/// The kernel's [`ballot_sim::sim::SimKernel`] implementation: its arguments as
/// tuples, per-lane ones one per invocation.
fn kernel_impl(
    name: &Ident,
    sig: &Signature,
    krate: &TokenStream,
    ret: &TokenStream,
) -> TokenStream {
    let lanes = Ident::new("lanes", Span::mixed_site());
    let uniform = Ident::new("uniform", Span::mixed_site());
    let dispatch = Ident::new("dispatch", Span::mixed_site());
    let (mut lane_types, mut uniform_types, mut columns, mut args) =
        (vec![], vec![], vec![], vec![]);
    for ((name, &is_uniform), ty) in sig.names.iter().zip(&sig.uniform).zip(&sig.types) {
        let column = format_ident!("{}", name, span = Span::mixed_site());
        if is_uniform {
            let index = syn::Index::from(uniform_types.len());
            uniform_types.push(ty.clone());
            args.push(quote!(#uniform.#index));
        } else {
            let index = syn::Index::from(lane_types.len());
            lane_types.push(ty.clone());
            columns.push(quote! {
                let #column: ::std::vec::Vec<#ty> = #lanes.iter().map(|l| l.#index).collect();
            });
            args.push(quote!(&#column));
        }
    }
    let name_str = name.to_string();
    quote! {
        impl #krate::SimKernel for #name {
            const NAME: &'static str = #name_str;
            type Lane = (#(#lane_types,)*);
            type Uniform = (#(#uniform_types,)*);
            type Output = #ret;

            fn run_invocations(
                #dispatch: &#krate::Dispatch,
                #uniform: &Self::Uniform,
                #lanes: &[Self::Lane],
            ) -> ::core::result::Result<::std::vec::Vec<#ret>, #krate::SimError> {
                #(#columns)*
                Self::run_dispatch(#dispatch, #(#args),*)
            }
        }
    }
}

fn run_dispatch_fn(sig: &Signature, krate: &TokenStream, ret: &TokenStream) -> TokenStream {
    let dispatch = Ident::new("dispatch", Span::mixed_site());
    let out = Ident::new("out", Span::mixed_site());
    let sg = Ident::new("sg", Span::mixed_site());
    let range = Ident::new("range", Span::mixed_site());
    let cx = Ident::new("cx", Span::mixed_site());
    let count = Ident::new("count", Span::mixed_site());
    let result = Ident::new("result", Span::mixed_site());
    let inner = format_ident!("__run_dispatch");
    let inputs = &sig.inputs;
    let checks = sig
        .names
        .iter()
        .zip(&sig.uniform)
        .filter(|(_, &u)| !u)
        .map(|(name, _)| {
            let name_str = name.to_string();
            quote!(#krate::__spmd::check_len(#name_str, #name, #dispatch.invocation_count())?;)
        });
    let lanes: Vec<_> = sig
        .names
        .iter()
        .map(|n| format_ident!("{}", n, span = Span::mixed_site()))
        .collect();
    let loads = sig
        .names
        .iter()
        .zip(&sig.uniform)
        .zip(&lanes)
        .map(|((name, &uniform), lane)| {
            if uniform {
                quote!(let #lane = #cx.splat(#name);)
            } else {
                quote!(let #lane = #krate::__spmd::V::from_slice(&#name[#range.clone()]);)
            }
        });
    let args: Vec<_> = [quote!(#dispatch), quote!(#out)]
        .into_iter()
        .chain(sig.names.iter().map(|n| quote!(#n)))
        .collect();
    let by_width = by_width(quote!(#dispatch.subgroup_size()), &inner, &args, krate);
    let names = &sig.names;
    quote! {
        /// Runs the kernel over every subgroup of a dispatch. Per-lane
        /// inputs hold one entry per invocation, workgroup by workgroup and
        /// by `local_invocation_index` within each; the output is in the
        /// same order.
        ///
        /// # Errors
        /// A report of the first undefined behaviour, naming the operation
        /// and the lane, or an input of the wrong length.
        pub fn run_dispatch(
            #dispatch: &#krate::Dispatch,
            #(#inputs),*
        ) -> ::core::result::Result<::std::vec::Vec<#ret>, #krate::SimError> {
            let mut #out = ::std::vec![<#ret as ::core::default::Default>::default(); #dispatch.invocation_count()];
            Self::run_dispatch_into(#dispatch, &mut #out, #(#names),*)?;
            ::core::result::Result::Ok(#out)
        }

        /// Like `run_dispatch`, writing into `out`, which holds one entry
        /// per invocation: for callers that run the kernel repeatedly and
        /// reuse one buffer. On an error, `out` holds the results of the
        /// subgroups before the failing one.
        ///
        /// # Errors
        /// A report of the first undefined behaviour, naming the operation
        /// and the lane, or an input or output of the wrong length.
        pub fn run_dispatch_into(
            #dispatch: &#krate::Dispatch,
            #out: &mut [#ret],
            #(#inputs),*
        ) -> ::core::result::Result<(), #krate::SimError> {
            #(#checks)*
            if #out.len() != #dispatch.invocation_count() {
                return ::core::result::Result::Err(#krate::SimError::OutputLength {
                    expected: #dispatch.invocation_count(),
                    got: #out.len(),
                });
            }
            #by_width
        }

        #[doc(hidden)]
        fn #inner<const __N: usize>(
            #dispatch: &#krate::Dispatch,
            #out: &mut [#ret],
            #(#inputs),*
        ) -> ::core::result::Result<(), #krate::SimError> {
            for #sg in #dispatch.subgroups() {
                let #cx = #krate::__spmd::Cx::<__N>::new(&#sg.subgroup);
                let #count = #sg.subgroup.active().count() as usize;
                let #range = #sg.first_invocation..#sg.first_invocation + #count;
                #(#loads)*
                // Read in place: moving the lanes out of the `Result` is a
                // copy the optimiser does not always remove.
                let #result = Self::__simd(&#cx, #sg.subgroup.active().bits(), #(&#lanes),*);
                match &#result {
                    ::core::result::Result::Ok(lanes) => {
                        #out[#range].copy_from_slice(&lanes.0[..#count]);
                    }
                    ::core::result::Result::Err(_) => return #result.map(|_| ()),
                }
            }
            ::core::result::Result::Ok(())
        }
    }
}

/// The kernel's API with bodies that never run: emitted next to the
/// errors, so that every use of the kernel (a call from another kernel, a
/// `run`, a `shader`) type-checks and adds no error of its own.
fn stub(item: &ItemFn, krate: &TokenStream) -> TokenStream {
    let name = &item.sig.ident;
    let vis = &item.vis;
    let mut inputs = Vec::new();
    let mut lanes = Vec::new();
    for (i, arg) in item.sig.inputs.iter().enumerate() {
        let name = param_ident(item, i);
        let ty = match arg {
            syn::FnArg::Typed(pat) => {
                let ty = &pat.ty;
                let uniform = pat.attrs.iter().any(|a| a.path().is_ident("uniform"));
                inputs.push(if uniform {
                    quote!(#name: #ty)
                } else {
                    quote!(#name: &[#ty])
                });
                quote!(#ty)
            }
            syn::FnArg::Receiver(_) => {
                inputs.push(quote!(#name: ()));
                quote!(())
            }
        };
        let lane = format_ident!("__p{}", i);
        lanes.push(quote!(#lane: &#krate::__spmd::V<#ty, __N>));
    }
    let ret = match &item.sig.output {
        syn::ReturnType::Default => quote!(()),
        syn::ReturnType::Type(_, ty) => quote!(#ty),
    };
    let name_str = name.to_string();
    let seen = SEEN;
    quote! {
        #[allow(non_camel_case_types, dead_code)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        #vis struct #name;

        #[allow(dead_code, unused_variables, clippy::all)]
        impl #name {
            pub const NAME: &'static str = #name_str;
            pub const SOURCE: &'static str = "";
            #[doc(hidden)]
            pub const __PATH: &'static str = ::core::concat!(::core::module_path!(), "::", #name_str);
            #[doc(hidden)]
            pub const fn __reaches(
                __target: &str,
                __seen: &mut ([&'static str; #seen], usize),
                __depth: usize,
            ) -> bool {
                false
            }
            #[doc(hidden)]
            pub const fn __calls(__target: &str) -> bool {
                false
            }
            pub fn run(subgroup: &#krate::Subgroup, #(#inputs),*)
                -> ::core::result::Result<#krate::PerLane<#ret>, #krate::SimError> {
                ::core::unreachable!("the kernel failed to compile")
            }
            pub fn run_dispatch(dispatch: &#krate::Dispatch, #(#inputs),*)
                -> ::core::result::Result<::std::vec::Vec<#ret>, #krate::SimError> {
                ::core::unreachable!("the kernel failed to compile")
            }
            pub fn run_dispatch_into(dispatch: &#krate::Dispatch, out: &mut [#ret], #(#inputs),*)
                -> ::core::result::Result<(), #krate::SimError> {
                ::core::unreachable!("the kernel failed to compile")
            }
            pub fn kernels() -> ::std::vec::Vec<&'static #krate::ir::Kernel> {
                ::core::unreachable!("the kernel failed to compile")
            }
            pub fn shader(
                target: #krate::Target,
                form: #krate::Form,
                options: &#krate::ShaderOptions,
            ) -> ::core::result::Result<::std::string::String, #krate::ShaderError> {
                ::core::unreachable!("the kernel failed to compile")
            }
            pub fn ir() -> &'static #krate::ir::Kernel {
                ::core::unreachable!("the kernel failed to compile")
            }
            #[doc(hidden)]
            pub fn __simd<const __N: usize>(
                __cx: &#krate::__spmd::Cx<__N>,
                __entry: u128,
                #(#lanes),*
            ) -> ::core::result::Result<#krate::__spmd::V<#ret, __N>, #krate::SimError> {
                ::core::unreachable!("the kernel failed to compile")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    /// One expansion writes five targets in two forms, validates them on
    /// several threads and writes the native Rust, and if-converts the
    /// kernel once: every printer reads the one plan.
    #[test]
    fn an_expansion_if_converts_its_kernel_once() {
        let item = quote! {
            fn expansion_lowers_once(x: u32) -> u32 {
                if x > 3 {
                    return 0;
                }
                let mut n = 0;
                while n < x {
                    n += subgroup_ballot_bit_count(subgroup_ballot(n % 2 == 0));
                }
                n
            }
        };
        // Validation on, whatever the features: it is what writes the
        // shaders.
        let expanded = super::kernel(quote!(validate = true), item).to_string();
        assert!(
            !expanded.contains("compile_error"),
            "the kernel expands without errors: {expanded}"
        );
        assert_eq!(
            ballot_shader::lower::plan::counter::lowered("expansion_lowers_once"),
            1,
            "if-conversions of the kernel in one expansion"
        );
    }
}
