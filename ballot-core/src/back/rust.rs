//! IR → native Rust: the SPMD-on-SIMD body of a kernel.
//!
//! The generated function is generic over the lane count `__N` (see
//! [`crate::rt`]). It takes every parameter as a per-lane value
//! ([`crate::rt::V`]), plus the active mask on entry, and returns the
//! per-lane result. Divergence is tracked with `u128` lane masks:
//!
//! - `__active`: the lanes executing the current statement. Each block
//!   shadows it with its own.
//! - `__ret`: the lanes that have returned from the kernel.
//! - `__brk` / `__cont`: the lanes that have left the innermost loop, or
//!   skipped to the end of its current iteration.
//!
//! After a statement that can jump, the block drops the lanes that jumped
//! from `__active`, and leaves the block (through its label) once none is
//! left, so the statements after it run only in the lanes still there.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use crate::error::Op;
use crate::front::SourceMap;
use crate::ir::{BinaryOp, Block, Expr, Handle, Kernel, Literal, MaskFn, Stmt, Type, UnaryOp};

/// Writes the body of a kernel's `__simd` function.
pub struct Writer<'a> {
    kernel: &'a Kernel,
    spans: &'a SourceMap,
    /// The crate path generated code reaches the runtime through.
    krate: TokenStream,
    /// Counter for unique block labels.
    labels: usize,
}

/// Where a statement sits, for the lanes a jump removes.
#[derive(Clone, Copy)]
enum Ctx {
    /// Directly in the kernel, outside any loop.
    Kernel,
    /// Inside a loop's body.
    LoopBody,
    /// Inside a loop's `continuing` block, where only `return` can jump.
    Continuing,
}

impl<'a> Writer<'a> {
    /// A writer for `kernel`, reaching the runtime through `krate` (e.g.
    /// `::ballot::__private`).
    pub fn new(kernel: &'a Kernel, spans: &'a SourceMap, krate: TokenStream) -> Self {
        Self {
            kernel,
            spans,
            krate,
            labels: 0,
        }
    }

    /// The Rust type of one lane's value.
    pub fn lane_type(&self, ty: Type) -> TokenStream {
        let krate = &self.krate;
        match ty {
            Type::Bool => quote!(bool),
            Type::U32 => quote!(u32),
            Type::I32 => quote!(i32),
            Type::F32 => quote!(f32),
            Type::Mask => quote!(#krate::SubgroupMask),
        }
    }

    /// The Rust type of the kernel's per-lane result.
    pub fn ret_type(&self) -> TokenStream {
        self.kernel
            .ret
            .map_or_else(|| quote!(()), |ty| self.lane_type(ty))
    }

    /// The identifier of a local.
    pub fn local(&self, local: Handle<crate::ir::Local>) -> Ident {
        format_ident!("__l{}", local.index())
    }

    /// The `__simd` function body: locals, then the statements.
    pub fn body(&mut self) -> TokenStream {
        let krate = self.krate.clone();
        let params: Vec<_> = self.kernel.params.iter().map(|p| p.local).collect();
        let locals: Vec<_> = self
            .kernel
            .locals
            .iter()
            .filter(|(h, _)| !params.contains(h))
            .map(|(h, local)| {
                let name = self.local(h);
                let ty = self.lane_type(local.ty);
                quote!(let mut #name: #krate::__rt::V<#ty, __N> = ::core::default::Default::default();)
            })
            .collect();
        let copies: Vec<_> = params
            .iter()
            .enumerate()
            .map(|(i, &h)| {
                let name = self.local(h);
                let arg = format_ident!("__p{}", i);
                quote!(let mut #name = *#arg;)
            })
            .collect();
        let ret = self.ret_type();
        let block = self.block(&self.kernel.body.clone(), Ctx::Kernel);
        quote! {
            #(#copies)*
            #(#locals)*
            let mut __ret_val: #krate::__rt::V<#ret, __N> = ::core::default::Default::default();
            let mut __ret: u128 = 0;
            let mut __active: u128 = __entry;
            #block
            ::core::result::Result::Ok(__ret_val)
        }
    }

    /// The lanes that have jumped out of the current statement sequence.
    fn exited(ctx: Ctx) -> TokenStream {
        match ctx {
            Ctx::Kernel | Ctx::Continuing => quote!(__ret),
            Ctx::LoopBody => quote!((__ret | __brk | __cont)),
        }
    }

    fn block(&mut self, block: &Block, ctx: Ctx) -> TokenStream {
        self.labels += 1;
        let label = syn::Lifetime::new(&format!("'__b{}", self.labels), Span::call_site());
        let exited = Self::exited(ctx);
        let stmts = block.iter().map(|&s| {
            let code = self.stmt(s, ctx);
            if self.can_jump(s) {
                quote! {
                    #code
                    __active &= !#exited;
                    if __active == 0 { break #label; }
                }
            } else {
                code
            }
        });
        let stmts: Vec<_> = stmts.collect();
        quote!(#label: { #(#stmts)* })
    }

    /// Whether a statement can remove lanes from the enclosing sequence.
    fn can_jump(&self, stmt: Handle<Stmt>) -> bool {
        match &self.kernel.stmts[stmt] {
            Stmt::Break | Stmt::Continue | Stmt::Return(_) => true,
            Stmt::If { accept, reject, .. } => {
                accept.iter().chain(reject).any(|&s| self.can_jump(s))
            }
            // A loop consumes its own breaks and continues; only returns escape.
            Stmt::Loop { body, continuing } => {
                body.iter().chain(continuing).any(|&s| self.returns(s))
            }
            Stmt::Assign { .. } | Stmt::Eval(_) => false,
        }
    }

    fn returns(&self, stmt: Handle<Stmt>) -> bool {
        match &self.kernel.stmts[stmt] {
            Stmt::Return(_) => true,
            Stmt::If { accept, reject, .. } => {
                accept.iter().chain(reject).any(|&s| self.returns(s))
            }
            Stmt::Loop { body, continuing } => {
                body.iter().chain(continuing).any(|&s| self.returns(s))
            }
            _ => false,
        }
    }

    fn stmt(&mut self, stmt: Handle<Stmt>, ctx: Ctx) -> TokenStream {
        let krate = self.krate.clone();
        match self.kernel.stmts[stmt].clone() {
            Stmt::Assign { local, value } => {
                let name = self.local(local);
                let value = self.expr(value);
                // The value may read the local, so it is computed first.
                quote!({
                    let __value = #value;
                    #krate::__rt::assign(__cx, &mut #name, &__value, __active);
                })
            }
            Stmt::Eval(expr) => {
                let value = self.expr(expr);
                quote!(let _ = #value;)
            }
            Stmt::If {
                cond,
                accept,
                reject,
            } => self.if_stmt(cond, &accept, &reject, ctx),
            Stmt::Loop { body, continuing } => self.loop_stmt(&body, &continuing),
            Stmt::Break => quote!(__brk |= __active; __active = 0;),
            Stmt::Continue => quote!(__cont |= __active; __active = 0;),
            Stmt::Return(value) => {
                let store = value.map(|v| {
                    let v = self.expr(v);
                    quote!({
                        let __value = #v;
                        #krate::__rt::assign(__cx, &mut __ret_val, &__value, __active);
                    })
                });
                quote!(#store __ret |= __active; __active = 0;)
            }
        }
    }

    fn if_stmt(
        &mut self,
        cond: Handle<Expr>,
        accept: &Block,
        reject: &Block,
        ctx: Ctx,
    ) -> TokenStream {
        let krate = self.krate.clone();
        let cond = self.expr(cond);
        let branch = |this: &mut Self, block: &Block, lanes: TokenStream| {
            if block.is_empty() {
                return quote!();
            }
            let body = this.block(block, ctx);
            quote! {
                let __lanes: u128 = #lanes;
                if __lanes != 0 {
                    let mut __active: u128 = __lanes;
                    #body
                }
            }
        };
        let accept = branch(self, accept, quote!(__outer & __taken));
        let reject = branch(self, reject, quote!(__outer & !__taken));
        quote! {
            {
                let __taken: u128 = #krate::__rt::lanes_where(__cx, &#cond);
                let __outer: u128 = __active;
                #accept
                #reject
            }
        }
    }

    fn loop_stmt(&mut self, body: &Block, continuing: &Block) -> TokenStream {
        let name = self.kernel.name.as_str();
        let body = self.block(body, Ctx::LoopBody);
        let continuing = self.block(continuing, Ctx::Continuing);
        quote! {
            {
                let __entry_lanes: u128 = __active;
                let mut __brk: u128 = 0;
                loop {
                    let mut __cont: u128 = 0;
                    let mut __active: u128 = __entry_lanes & !(__brk | __ret);
                    if __active == 0 { break; }
                    __cx.step(#name, __active)?;
                    #body
                    // Lanes that continued rejoin for the continuing block.
                    let mut __active: u128 = __entry_lanes & !(__brk | __ret);
                    if __active == 0 { break; }
                    #continuing
                }
                // Lanes that broke out rejoin after the loop.
                __active = __entry_lanes & !__ret;
            }
        }
    }

    fn span(&self, expr: Handle<Expr>) -> Span {
        self.spans
            .exprs
            .get(expr.index())
            .copied()
            .unwrap_or_else(Span::call_site)
    }

    /// An expression of type `V<T>`.
    fn expr(&mut self, expr: Handle<Expr>) -> TokenStream {
        let krate = self.krate.clone();
        let rt = quote!(#krate::__rt);
        match self.kernel.exprs[expr].clone() {
            Expr::Literal(lit) => {
                let lit = self.literal(lit);
                quote!(__cx.splat(#lit))
            }
            Expr::Load(local) => {
                let name = self.local(local);
                quote!(#name)
            }
            Expr::Unary { op, arg } => {
                let ty = self.kernel.type_of(arg);
                let arg = self.expr(arg);
                let f = match (op, ty) {
                    (UnaryOp::Neg, Type::I32) => quote!(|x: i32| x.wrapping_neg()),
                    (UnaryOp::Neg, _) => quote!(|x| -x),
                    (UnaryOp::Not, _) => quote!(|x| !x),
                };
                quote!(#rt::map1(__cx, &#arg, #f))
            }
            Expr::Binary { op, left, right } => self.binary(op, left, right),
            Expr::Cast { arg, to } => {
                let from = self.kernel.type_of(arg);
                let arg = self.expr(arg);
                let to_ty = self.lane_type(to);
                // `bool as f32` is not Rust; go through an integer.
                let f = if from == Type::Bool && to == Type::F32 {
                    quote!(|x: bool| x as u32 as f32)
                } else {
                    quote!(|x| x as #to_ty)
                };
                quote!(#rt::map1(__cx, &#arg, #f))
            }
            Expr::Select {
                cond,
                accept,
                reject,
            } => {
                let (c, a, r) = (self.expr(cond), self.expr(accept), self.expr(reject));
                quote!(#rt::select(__cx, &#c, &#a, &#r))
            }
            Expr::LaneId => quote!(#rt::lane_id(__cx)),
            Expr::SubgroupSize => quote!(__cx.splat(__cx.size.get())),
            Expr::Mask { fun, args } => self.mask_fn(fun, &args),
            Expr::Op { op, args } => self.op(op, &args),
            Expr::Call { callee, args } => {
                let span = self.span(expr);
                let path: TokenStream = callee.parse().unwrap_or_else(|_| quote!(#callee));
                let path = respan(path, span);
                let args: Vec<_> = args.iter().map(|&a| self.expr(a)).collect();
                quote_spanned!(span=> #path::__simd(__cx, __active, #(&#args),*)?)
            }
        }
    }

    fn literal(&self, lit: Literal) -> TokenStream {
        let krate = &self.krate;
        match lit {
            Literal::Bool(b) => quote!(#b),
            Literal::U32(v) => quote!(#v),
            Literal::I32(v) => quote!(#v),
            // Through the bits, so that every value, NaN included, is exact.
            Literal::F32(v) => {
                let bits = v.to_bits();
                quote!(f32::from_bits(#bits))
            }
            Literal::Mask(m) => {
                let bits = m.bits();
                quote!(#krate::SubgroupMask::from_bits(#bits))
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, left: Handle<Expr>, right: Handle<Expr>) -> TokenStream {
        let krate = self.krate.clone();
        let ty = self.kernel.type_of(left);
        let (l, r) = (self.expr(left), self.expr(right));
        let arith = |method: &str| {
            let method = format_ident!("{}", method);
            quote!(|a, b| #krate::__rt::Arith::#method(a, b))
        };
        let f = match op {
            BinaryOp::Add => arith("add"),
            BinaryOp::Sub => arith("sub"),
            BinaryOp::Mul => arith("mul"),
            BinaryOp::Div => arith("div"),
            BinaryOp::Rem => arith("rem"),
            BinaryOp::Shl => {
                let t = self.lane_type(ty);
                quote!(|a: #t, b: u32| a.wrapping_shl(b))
            }
            BinaryOp::Shr => {
                let t = self.lane_type(ty);
                quote!(|a: #t, b: u32| a.wrapping_shr(b))
            }
            BinaryOp::BitAnd => quote!(|a, b| a & b),
            BinaryOp::BitOr => quote!(|a, b| a | b),
            BinaryOp::BitXor => quote!(|a, b| a ^ b),
            BinaryOp::Eq => quote!(|a, b| a == b),
            BinaryOp::Ne => quote!(|a, b| a != b),
            BinaryOp::Lt => quote!(|a, b| a < b),
            BinaryOp::Le => quote!(|a, b| a <= b),
            BinaryOp::Gt => quote!(|a, b| a > b),
            BinaryOp::Ge => quote!(|a, b| a >= b),
            BinaryOp::LogicalAnd => quote!(|a: bool, b: bool| a && b),
            BinaryOp::LogicalOr => quote!(|a: bool, b: bool| a || b),
        };
        quote!(#krate::__rt::map2(__cx, &#l, &#r, #f))
    }

    fn mask_fn(&mut self, fun: MaskFn, args: &[Handle<Expr>]) -> TokenStream {
        let krate = self.krate.clone();
        let args: Vec<_> = args.iter().map(|&a| self.expr(a)).collect();
        let m = quote!(#krate::SubgroupMask);
        match (fun, args.as_slice()) {
            (MaskFn::Lane, [i]) => quote!(#krate::__rt::map1(__cx, &#i, #m::lane)),
            (MaskFn::First, [n]) => quote!(#krate::__rt::map1(__cx, &#n, #m::first)),
            (MaskFn::Contains, [v, i]) => quote!(#krate::__rt::map2(__cx, &#v, &#i, #m::contains)),
            (MaskFn::Count, [v]) => quote!(#krate::__rt::map1(__cx, &#v, #m::count)),
            (MaskFn::IsEmpty, [v]) => quote!(#krate::__rt::map1(__cx, &#v, #m::is_empty)),
            _ => malformed("mask function arity"),
        }
    }

    fn op(&mut self, op: Op, args: &[Handle<Expr>]) -> TokenStream {
        let krate = self.krate.clone();
        let rt = quote!(#krate::__rt);
        let m = quote!(#krate::SubgroupMask);
        // The id of a broadcast stays a plain constant (IR invariant 8).
        let broadcast_id = match (op, args) {
            (Op::Broadcast, [_, id]) => match self.kernel.exprs[*id] {
                Expr::Literal(Literal::U32(id)) => Some(id),
                _ => return malformed("non-constant broadcast id"),
            },
            _ => None,
        };
        let a: Vec<_> = args
            .iter()
            .take(if broadcast_id.is_some() {
                1
            } else {
                args.len()
            })
            .map(|&a| self.expr(a))
            .collect();
        match (op, a.as_slice()) {
            (Op::Ballot, [p]) => quote!(#rt::ballot(__cx, __active, &#p)),
            (Op::InverseBallot, [v]) => quote!(#rt::inverse_ballot(__cx, __active, &#v)?),
            (Op::BitExtract, [v, i]) => quote!(#rt::bit_extract(__cx, __active, &#v, &#i)?),
            (Op::BitCount, [v]) => quote!(#rt::bit_count(__cx, &#v)),
            (Op::InclusiveBitCount, [v]) => quote!(#rt::inclusive_bit_count(__cx, &#v)),
            (Op::ExclusiveBitCount, [v]) => quote!(#rt::exclusive_bit_count(__cx, &#v)),
            (Op::FindLsb, [v]) => quote!(#rt::find_lsb(__cx, __active, &#v)?),
            (Op::FindMsb, [v]) => quote!(#rt::find_msb(__cx, __active, &#v)?),
            (Op::EqMask, []) => quote!(#rt::builtin_mask(__cx, #m::eq_mask)),
            (Op::GeMask, []) => quote!(#rt::builtin_mask(__cx, #m::ge_mask)),
            (Op::GtMask, []) => quote!(#rt::builtin_mask(__cx, #m::gt_mask)),
            (Op::LeMask, []) => quote!(#rt::builtin_mask(__cx, #m::le_mask)),
            (Op::LtMask, []) => quote!(#rt::builtin_mask(__cx, #m::lt_mask)),
            (Op::Elect, []) => quote!(#rt::elect(__cx, __active)),
            (Op::BroadcastFirst, [v]) => quote!(#rt::broadcast_first(__cx, __active, &#v)),
            (Op::Broadcast, [v]) => {
                let id = broadcast_id.unwrap_or_default();
                quote!(#rt::broadcast(__cx, __active, &#v, #id)?)
            }
            _ => malformed("ballot operation arity"),
        }
    }
}

/// Code for IR that breaks an invariant the front end guarantees: a compile
/// error in the generated code rather than a panic in the macro.
fn malformed(what: &str) -> TokenStream {
    let msg = format!("ballot: malformed kernel IR ({what}); please report this");
    quote!(::core::compile_error!(#msg))
}

/// Gives every token of `tokens` the span `span`, so that a type error in a
/// kernel call points at the call in the user's source.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tt| {
            tt.set_span(span);
            tt
        })
        .collect()
}
