//! IR → native Rust: the SPMD-on-SIMD body of a kernel. A printer of the
//! if-converted form ([`ballot_shader::lower::masked`]).
//!
//! The generated function is generic over the lane count `__N` (see
//! [`ballot_sim::spmd`]). It takes every parameter as a per-lane value
//! ([`ballot_sim::spmd::V`]), plus the active mask on entry (`__entry`), and
//! returns the per-lane result. Each flag of the if-converted form is a
//! `u128` lane mask (`__active`, `__ret`, `__brk<id>`, …).
//!
//! The emulated shaders run every step in every invocation; here a
//! sequence is a labelled block that is left once no lane is active, and a
//! branch runs only if some lane takes it, so that an operation never runs
//! with no active lane (where the simulator would report undefined
//! behaviour that the kernel cannot reach).

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};

use ballot_front::spans::SourceMap;
use ballot_ir::ir::{BinaryOp, Expr, Handle, Kernel, Literal, MaskFn, Type, UnaryOp};
use ballot_ir::op::Op;
use ballot_shader::lower::masked::{Cond, Dest, Flag, Masked, Step, Tangle};

/// Writes the body of a kernel's `__simd` function.
pub struct Writer<'a> {
    kernel: &'a Kernel,
    spans: &'a SourceMap,
    /// The crate path generated code reaches the runtime through.
    krate: TokenStream,
    /// The kernel, if-converted.
    masked: Masked,
    /// Counter for unique block labels.
    labels: usize,
    /// The ids of the loops around the step being written, innermost last.
    loops: Vec<usize>,
}

impl<'a> Writer<'a> {
    /// A writer for `kernel`, whose if-converted form is `masked` (the
    /// lowering's, [`ballot_shader::lower::plan::Plan::masked`]), reaching the
    /// runtime through `krate` (e.g. `::ballot::__private`).
    pub fn new(
        kernel: &'a Kernel,
        masked: Masked,
        spans: &'a SourceMap,
        krate: TokenStream,
    ) -> Self {
        Self {
            kernel,
            spans,
            krate,
            masked,
            labels: 0,
            loops: Vec::new(),
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
    pub fn local(&self, local: Handle<ballot_ir::ir::Local>) -> Ident {
        format_ident!("__l{}", local.index())
    }

    /// The `__simd` function body: locals, then the if-converted steps.
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
                quote!(let mut #name: #krate::__spmd::V<#ty, __N> = ::core::default::Default::default();)
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
        let steps = core::mem::take(&mut self.masked.steps);
        let body = self.sequence(&steps);
        self.masked.steps = steps;
        quote! {
            #(#copies)*
            #(#locals)*
            let mut __ret_val: #krate::__spmd::V<#ret, __N> = ::core::default::Default::default();
            let mut __ret: u128 = 0;
            let mut __active: u128 = __entry;
            #body
            ::core::result::Result::Ok(__ret_val)
        }
    }

    /// A sequence of steps, in a labelled block that [`Step::SkipRest`]
    /// leaves.
    fn sequence(&mut self, steps: &[Step]) -> TokenStream {
        self.labels += 1;
        let label = syn::Lifetime::new(&format!("'__b{}", self.labels), Span::call_site());
        let steps: Vec<_> = steps.iter().map(|s| self.step(s, &label)).collect();
        quote!(#label: { #(#steps)* })
    }

    fn step(&mut self, step: &Step, label: &syn::Lifetime) -> TokenStream {
        let krate = self.krate.clone();
        match step {
            Step::Let(flag, cond) => {
                let (flag, cond) = (flag_ident(*flag), self.cond(cond));
                quote!(let #flag: u128 = #cond;)
            }
            Step::Var(flag, cond) => {
                let (flag, cond) = (flag_ident(*flag), self.cond(cond));
                quote!(let mut #flag: u128 = #cond;)
            }
            Step::Set(flag, cond) => {
                let (flag, cond) = (flag_ident(*flag), self.cond(cond));
                quote!(#flag = #cond;)
            }
            Step::Bind { temp, expr } => {
                let value = self.node(*expr);
                let temp = temp.map_or_else(|| quote!(_), |t| temp_ident(t).into_token_stream());
                quote!(let #temp = #value;)
            }
            // A lane mask needs no barrier: the ballots, one after another.
            Step::Exchange(shared) => {
                let binds = shared.iter().map(|s| {
                    let (value, temp) = (self.node(s.expr), temp_ident(s.temp));
                    quote!(let #temp = #value;)
                });
                quote!(#(#binds)*)
            }
            Step::Store { dest, value } => {
                let dest = match dest {
                    Dest::Local(local) => self.local(*local),
                    Dest::Result => format_ident!("__ret_val"),
                };
                let value = self.expr(*value);
                // The value may read the local, so it is computed first.
                quote!({
                    let __value = #value;
                    #krate::__spmd::assign(__cx, &mut #dest, &__value, __active);
                })
            }
            Step::Eval(value) => {
                let value = self.expr(*value);
                quote!(let _ = #value;)
            }
            Step::Branch(steps) => {
                let body = self.sequence(steps);
                quote!(if __active != 0 { #body })
            }
            Step::Loop { id, steps } => {
                let label = loop_label(*id);
                self.loops.push(*id);
                let steps: Vec<_> = steps.iter().map(|s| self.step(s, &label)).collect();
                self.loops.pop();
                quote!(#label: loop { #(#steps)* })
            }
            Step::Exit { iteration, .. } => {
                let Some(&id) = self.loops.last() else {
                    return malformed("loop exit outside a loop");
                };
                let label = loop_label(id);
                let name = self.kernel.name.as_str();
                let step = iteration.then(|| quote!(__cx.step(#name, __active)?;));
                quote!(if __active == 0 { break #label; } #step)
            }
            Step::SkipRest => quote!(if __active == 0 { break #label; }),
            Step::Tangle(event) => {
                let sched = quote!(__cx.sched);
                match *event {
                    Tangle::Enter(id) => {
                        let uniform = uniform_ident(id);
                        quote!(let #uniform: bool = #sched.enter(__active);)
                    }
                    Tangle::JoinIf(id) => {
                        let uniform = uniform_ident(id);
                        let outer = flag_ident(Flag::Outer(id));
                        let taken = flag_ident(Flag::Taken(id));
                        quote!(#sched.join_if(#uniform, #outer, #taken, __active);)
                    }
                    Tangle::Iterate(id) => {
                        let entry = flag_ident(Flag::Entry(id));
                        quote!(#sched.iterate(#entry, __active);)
                    }
                    Tangle::JoinLoop(id) => {
                        let uniform = uniform_ident(id);
                        let entry = flag_ident(Flag::Entry(id));
                        quote!(#sched.join_loop(#uniform, #entry, __active);)
                    }
                }
            }
        }
    }

    /// A set of lanes, as a `u128` mask.
    fn cond(&mut self, cond: &Cond) -> TokenStream {
        let krate = self.krate.clone();
        match cond {
            Cond::None => quote!(0u128),
            Cond::Flag(flag) => flag_ident(*flag).into_token_stream(),
            Cond::Not(flag) => {
                let flag = flag_ident(*flag);
                quote!(!#flag)
            }
            Cond::Expr(expr) => {
                let expr = self.expr(*expr);
                quote!(#krate::__spmd::lanes_where(__cx, &#expr))
            }
            Cond::And(a, b) => {
                let (a, b) = (self.cond(a), self.cond(b));
                quote!((#a & #b))
            }
            Cond::Or(a, b) => {
                let (a, b) = (self.cond(a), self.cond(b));
                quote!((#a | #b))
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

    /// An expression of type `V<T>`: its temporary where it is bound.
    fn expr(&mut self, expr: Handle<Expr>) -> TokenStream {
        match self.masked.temp(expr) {
            Some(temp) => temp_ident(temp).into_token_stream(),
            None => self.node(expr),
        }
    }

    /// `expr` itself, its operands through [`Self::expr`].
    fn node(&mut self, expr: Handle<Expr>) -> TokenStream {
        let krate = self.krate.clone();
        let rt = quote!(#krate::__spmd);
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
            quote!(|a, b| #krate::__spmd::Arith::#method(a, b))
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
        quote!(#krate::__spmd::map2(__cx, &#l, &#r, #f))
    }

    fn mask_fn(&mut self, fun: MaskFn, args: &[Handle<Expr>]) -> TokenStream {
        let krate = self.krate.clone();
        let args: Vec<_> = args.iter().map(|&a| self.expr(a)).collect();
        let m = quote!(#krate::SubgroupMask);
        match (fun, args.as_slice()) {
            (MaskFn::Lane, [i]) => quote!(#krate::__spmd::map1(__cx, &#i, #m::lane)),
            (MaskFn::First, [n]) => quote!(#krate::__spmd::map1(__cx, &#n, #m::first)),
            (MaskFn::Contains, [v, i]) => {
                quote!(#krate::__spmd::map2(__cx, &#v, &#i, #m::contains))
            }
            (MaskFn::Count, [v]) => quote!(#krate::__spmd::map1(__cx, &#v, #m::count)),
            (MaskFn::IsEmpty, [v]) => quote!(#krate::__spmd::map1(__cx, &#v, #m::is_empty)),
            _ => malformed("mask function arity"),
        }
    }

    fn op(&mut self, op: Op, args: &[Handle<Expr>]) -> TokenStream {
        let krate = self.krate.clone();
        let rt = quote!(#krate::__spmd);
        let m = quote!(#krate::SubgroupMask);
        // The id of a broadcast and a cluster size stay plain constants
        // (IR invariant 8).
        let broadcast_id = match (op, args) {
            (Op::Broadcast | Op::QuadBroadcast | Op::Clustered(_), [_, id]) => {
                match self.kernel.exprs[*id] {
                    Expr::Literal(Literal::U32(id)) => Some(id),
                    _ => return malformed("non-constant broadcast id"),
                }
            }
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
            (Op::FindLsb, [v]) => quote!(#rt::find(__cx, __active, &#v, #rt::Op::FindLsb)?),
            (Op::FindMsb, [v]) => quote!(#rt::find(__cx, __active, &#v, #rt::Op::FindMsb)?),
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
            (Op::All, [p]) => quote!(#rt::vote(__cx, __active, #rt::Op::All, &#p)?),
            (Op::Any, [p]) => quote!(#rt::vote(__cx, __active, #rt::Op::Any, &#p)?),
            (Op::AllEqual, [v]) => quote!(#rt::all_equal(__cx, __active, &#v)?),
            (Op::Arith(arith, scan), [v]) => {
                let arith = format_ident!("{arith:?}");
                let scan = format_ident!("{scan:?}");
                quote!(#rt::arithmetic(__cx, __active, #rt::ArithOp::#arith, #rt::Scan::#scan, &#v)?)
            }
            (Op::Shuffle | Op::ShuffleXor | Op::ShuffleUp | Op::ShuffleDown, [v, x]) => {
                let op = format_ident!("{op:?}");
                quote!(#rt::shuffle(__cx, __active, #rt::Op::#op, &#v, &#x)?)
            }
            (Op::QuadBroadcast, [v]) => {
                let index = broadcast_id.unwrap_or_default();
                quote!(#rt::quad_broadcast(__cx, __active, &#v, #index)?)
            }
            (Op::QuadSwap(quad), [v]) => {
                let quad = format_ident!("{quad:?}");
                quote!(#rt::quad_swap(__cx, __active, #rt::Quad::#quad, &#v)?)
            }
            (Op::Clustered(arith), [v]) => {
                let arith = format_ident!("{arith:?}");
                let cluster = broadcast_id.unwrap_or_default();
                quote!(#rt::clustered(__cx, __active, #rt::ArithOp::#arith, #cluster, &#v)?)
            }
            _ => malformed("operation arity"),
        }
    }
}

/// The variable holding a flag's lanes.
fn flag_ident(flag: Flag) -> Ident {
    match flag {
        Flag::Active => format_ident!("__active"),
        Flag::ActiveIn => format_ident!("__entry"),
        Flag::Ret => format_ident!("__ret"),
        Flag::Outer(id) => format_ident!("__outer{}", id),
        Flag::Taken(id) => format_ident!("__taken{}", id),
        Flag::Entry(id) => format_ident!("__entry{}", id),
        Flag::Brk(id) => format_ident!("__brk{}", id),
        Flag::Cont(id) => format_ident!("__cont{}", id),
    }
}

/// The variable holding a bound value.
fn temp_ident(temp: usize) -> Ident {
    format_ident!("__t{}", temp)
}

/// Whether the lanes entered the `if` or loop `id` in uniform control flow.
fn uniform_ident(id: usize) -> Ident {
    format_ident!("__uniform{}", id)
}

/// The label of the loop with this id.
fn loop_label(id: usize) -> syn::Lifetime {
    syn::Lifetime::new(&format!("'__loop{id}"), Span::call_site())
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
