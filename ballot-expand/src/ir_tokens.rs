//! A kernel's IR as Rust code that builds it: what the generated `ir()`
//! returns, so that the user's binary never parses the kernel again and
//! carries no front end.
//!
//! The IR's enums without data (`Type`, `Op`, `UnaryOp`, `BinaryOp`,
//! `MaskFn`) are written by their variant names, which their `Debug` output
//! is; handles by their indices; floats and masks by their bits, so the
//! rebuilt kernel equals the lowered one exactly (`tests/ir_tokens.rs` in
//! the facade checks this for every kernel of the test suite).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use ballot_ir::ir::{Expr, Handle, Kernel, Literal, Stmt, Type};
use ballot_ir::op::Op;

/// An expression of type `ballot::ir::Kernel` equal to `kernel`, with the
/// crate's paths under `krate`.
pub fn kernel(kernel: &Kernel, krate: &TokenStream) -> TokenStream {
    // Short local names keep the generated code small: the user's crate
    // compiles it on every build.
    let ir = quote!(__ir);
    let name = &kernel.name;
    let params = kernel.params.iter().map(|p| {
        let local = handle(p.local);
        let uniform = p.uniform;
        quote!(#ir::Param { local: #local, uniform: #uniform })
    });
    let ret = match kernel.ret {
        Some(ty) => {
            let ty = type_(ty, &ir);
            quote!(::core::option::Option::Some(#ty))
        }
        None => quote!(::core::option::Option::None),
    };
    let locals = kernel.locals.iter().map(|(_, l)| {
        let (name, ty, mutable) = (&l.name, type_(l.ty, &ir), l.mutable);
        quote!(#ir::Local { name: ::std::string::String::from(#name), ty: #ty, mutable: #mutable })
    });
    let exprs = kernel.exprs.iter().map(|(_, e)| expr(e, &ir, krate));
    let types = kernel.expr_types.iter().map(|&t| type_(t, &ir));
    let stmts = kernel.stmts.iter().map(|(_, s)| stmt(s, &ir));
    let body = handles(&kernel.body);
    quote! {{
        #[allow(unused_imports)]
        use #krate::{ir as __ir, ArithOp as __ArithOp, Op as __Op, Quad as __Quad, Scan as __Scan};
        fn __h<T>(index: usize) -> __ir::Handle<T> {
            __ir::Handle::from_index(index)
        }
        #ir::Kernel {
            name: ::std::string::String::from(#name),
            params: ::std::vec![#(#params),*],
            ret: #ret,
            locals: #ir::Arena::from_vec(::std::vec![#(#locals),*]),
            exprs: #ir::Arena::from_vec(::std::vec![#(#exprs),*]),
            expr_types: ::std::vec![#(#types),*],
            stmts: #ir::Arena::from_vec(::std::vec![#(#stmts),*]),
            body: #body,
        }
    }}
}

fn handle<T>(h: Handle<T>) -> TokenStream {
    let index = h.index();
    quote!(__h(#index))
}

fn handles<T>(hs: &[Handle<T>]) -> TokenStream {
    let hs = hs.iter().map(|&h| handle(h));
    quote!(::std::vec![#(#hs),*])
}

/// A variant of a data-less enum, by its `Debug` name.
fn variant(ty: TokenStream, value: impl core::fmt::Debug) -> TokenStream {
    let name = format_ident!("{}", format!("{value:?}"));
    quote!(#ty::#name)
}

/// An operation, with the kinds some variants carry.
fn op_(op: Op) -> TokenStream {
    match op {
        Op::Arith(arith, scan) => {
            let (arith, scan) = (
                variant(quote!(__ArithOp), arith),
                variant(quote!(__Scan), scan),
            );
            quote!(__Op::Arith(#arith, #scan))
        }
        Op::QuadSwap(quad) => {
            let quad = variant(quote!(__Quad), quad);
            quote!(__Op::QuadSwap(#quad))
        }
        Op::Clustered(arith) => {
            let arith = variant(quote!(__ArithOp), arith);
            quote!(__Op::Clustered(#arith))
        }
        _ => variant(quote!(__Op), op),
    }
}

fn type_(t: Type, ir: &TokenStream) -> TokenStream {
    variant(quote!(#ir::Type), t)
}

fn literal(l: Literal, ir: &TokenStream, krate: &TokenStream) -> TokenStream {
    match l {
        Literal::Bool(b) => quote!(#ir::Literal::Bool(#b)),
        Literal::U32(x) => quote!(#ir::Literal::U32(#x)),
        Literal::I32(x) => quote!(#ir::Literal::I32(#x)),
        Literal::F32(x) => {
            let bits = x.to_bits();
            quote!(#ir::Literal::F32(f32::from_bits(#bits)))
        }
        Literal::Mask(m) => {
            let bits = m.bits();
            quote!(#ir::Literal::Mask(#krate::SubgroupMask::from_bits(#bits)))
        }
    }
}

fn expr(e: &Expr, ir: &TokenStream, krate: &TokenStream) -> TokenStream {
    let h = |x: &Handle<Expr>| handle(*x);
    match e {
        Expr::Literal(l) => {
            let l = literal(*l, ir, krate);
            quote!(#ir::Expr::Literal(#l))
        }
        Expr::Load(local) => {
            let local = handle(*local);
            quote!(#ir::Expr::Load(#local))
        }
        Expr::Unary { op, arg } => {
            let (op, arg) = (variant(quote!(#ir::UnaryOp), op), h(arg));
            quote!(#ir::Expr::Unary { op: #op, arg: #arg })
        }
        Expr::Binary { op, left, right } => {
            let (op, left, right) = (variant(quote!(#ir::BinaryOp), op), h(left), h(right));
            quote!(#ir::Expr::Binary { op: #op, left: #left, right: #right })
        }
        Expr::Cast { arg, to } => {
            let (arg, to) = (h(arg), type_(*to, ir));
            quote!(#ir::Expr::Cast { arg: #arg, to: #to })
        }
        Expr::Select {
            cond,
            accept,
            reject,
        } => {
            let (cond, accept, reject) = (h(cond), h(accept), h(reject));
            quote!(#ir::Expr::Select { cond: #cond, accept: #accept, reject: #reject })
        }
        Expr::LaneId => quote!(#ir::Expr::LaneId),
        Expr::SubgroupSize => quote!(#ir::Expr::SubgroupSize),
        Expr::Mask { fun, args } => {
            let (fun, args) = (variant(quote!(#ir::MaskFn), fun), handles(args));
            quote!(#ir::Expr::Mask { fun: #fun, args: #args })
        }
        Expr::Op { op, args } => {
            let (op, args) = (op_(*op), handles(args));
            quote!(#ir::Expr::Op { op: #op, args: #args })
        }
        Expr::Call { callee, args } => {
            let args = handles(args);
            quote!(#ir::Expr::Call { callee: ::std::string::String::from(#callee), args: #args })
        }
    }
}

fn stmt(s: &Stmt, ir: &TokenStream) -> TokenStream {
    match s {
        Stmt::Assign { local, value } => {
            let (local, value) = (handle(*local), handle(*value));
            quote!(#ir::Stmt::Assign { local: #local, value: #value })
        }
        Stmt::Eval(e) => {
            let e = handle(*e);
            quote!(#ir::Stmt::Eval(#e))
        }
        Stmt::If {
            cond,
            accept,
            reject,
        } => {
            let (cond, accept, reject) = (handle(*cond), handles(accept), handles(reject));
            quote!(#ir::Stmt::If { cond: #cond, accept: #accept, reject: #reject })
        }
        Stmt::Loop { body, continuing } => {
            let (body, continuing) = (handles(body), handles(continuing));
            quote!(#ir::Stmt::Loop { body: #body, continuing: #continuing })
        }
        Stmt::Break => quote!(#ir::Stmt::Break),
        Stmt::Continue => quote!(#ir::Stmt::Continue),
        Stmt::Return(value) => match value {
            Some(e) => {
                let e = handle(*e);
                quote!(#ir::Stmt::Return(::core::option::Option::Some(#e)))
            }
            None => quote!(#ir::Stmt::Return(::core::option::Option::None)),
        },
    }
}
