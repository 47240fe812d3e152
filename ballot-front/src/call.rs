//! Calls: the subgroup intrinsics, the lane id and subgroup size, the mask
//! API, and calls of other kernels.

use proc_macro2::Span;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;

use super::error::{arity, snippet, unsupported};
use super::expr::{strip_parens, Pending};
use super::scope::name_of;
use super::ty::{parse_type, Operand, Value};
use super::Lowerer;
use ballot_ir::ir::{op_is_generic, op_signature, op_takes, Block, Expr, Literal, MaskFn, Type};
use ballot_ir::op::{ArithOp, Op, Quad};

const METHODS: &str =
    "method calls are not supported in a kernel, except `contains`, `count` and `is_empty` on a `SubgroupMask`";

/// What a call path names. Intrinsics are recognised by the last segment,
/// so `subgroup_ballot`, `ballot::prelude::subgroup_ballot` and
/// `spirv_std::arch::subgroup_ballot` are one function.
pub(super) enum Callee {
    /// A subgroup operation, by its spirv-std name.
    Op(Op),
    /// spirv-std's `subgroup_quad_swap::<DIRECTION>`, whose direction the
    /// call's generic argument gives.
    QuadSwap,
    /// A clustered reduction, `subgroup_clustered_i_add::<CLUSTER_SIZE, _>`
    /// and the like, whose cluster size the call's generic argument gives.
    Clustered(ArithOp),
    /// `subgroup_local_invocation_id()`.
    LaneId,
    /// `subgroup_size()`.
    SubgroupSize,
    /// `SubgroupMask::lane` / `SubgroupMask::first`.
    Mask(MaskFn),
    /// Another kernel, by its path as written.
    Kernel(String),
    /// The kernel being lowered.
    Recursion,
    /// Something named like an intrinsic that the language lacks; the
    /// message says so.
    Unknown(String),
}

/// Whether a call of `name` is a subgroup operation or built-in of the
/// kernel language, whatever the kernels of the file are named.
pub(super) fn is_operation(name: &str) -> bool {
    Op::from_spirv_std_name(name).is_some()
        || matches!(
            name,
            "subgroup_local_invocation_id" | "subgroup_size" | "subgroup_quad_swap"
        )
}

/// Resolves a call path in the kernel called `kernel`.
pub(super) fn resolve(path: &syn::Path, kernel: &str) -> Callee {
    let names: Vec<String> = path.segments.iter().map(|s| name_of(&s.ident)).collect();
    if let [.., owner, name] = names.as_slice() {
        if owner == "SubgroupMask" {
            return match name.as_str() {
                "lane" => Callee::Mask(MaskFn::Lane),
                "first" => Callee::Mask(MaskFn::First),
                _ => Callee::Unknown(format!(
                    "`SubgroupMask::{name}` is not supported in a kernel; \
                     use `SubgroupMask::lane` or `SubgroupMask::first`"
                )),
            };
        }
    }
    let last = names.last().map_or("", String::as_str);
    match Op::from_spirv_std_name(last) {
        Some(Op::Clustered(arith)) => return Callee::Clustered(arith),
        Some(op) => return Callee::Op(op),
        None => {}
    }
    match last {
        "subgroup_local_invocation_id" => return Callee::LaneId,
        "subgroup_size" => return Callee::SubgroupSize,
        "subgroup_quad_swap" => return Callee::QuadSwap,
        _ if last.starts_with("subgroup_") => {
            return Callee::Unknown(format!(
                "unsupported subgroup intrinsic `{last}`; kernels support spirv-std's \
                 ballot, vote, arithmetic (reductions, scans and clustered reductions), \
                 shuffle and quad intrinsics"
            ))
        }
        _ => {}
    }
    let here = path.leading_colon.is_none()
        && (names.len() == 1 || names.len() == 2 && names[0] == "self");
    if here && last == kernel {
        Callee::Recursion
    } else {
        Callee::Kernel(snippet(path))
    }
}

impl Lowerer {
    /// Lowers `path(args)`.
    pub(super) fn call(
        &mut self,
        out: &mut Block,
        e: &syn::ExprCall,
        expected: Option<Type>,
    ) -> Value {
        let path = match strip_parens(&e.func) {
            syn::Expr::Path(p) if p.qself.is_none() => &p.path,
            other => {
                self.errors
                    .spanned(other, "only named functions can be called in a kernel");
                return Value::Err;
            }
        };
        let callee = resolve(path, &self.name);
        let generic = path.segments.iter().find(|s| !s.arguments.is_none());
        let takes_generics = matches!(callee, Callee::QuadSwap | Callee::Clustered(_));
        if let (false, Some(segment)) = (takes_generics, generic) {
            self.errors
                .spanned(&segment.arguments, unsupported("generic arguments"));
            return Value::Err;
        }
        match callee {
            Callee::Op(op) => self.op_call(out, e, op, expected),
            Callee::QuadSwap => match self.quad_direction(path, generic) {
                Some(quad) => self.op_call(out, e, Op::QuadSwap(quad), expected),
                None => Value::Err,
            },
            Callee::Clustered(arith) => {
                let op = Op::Clustered(arith);
                match self.cluster_size(path, generic, op) {
                    Some(size) => self.op_call_with(out, e, op, expected, Some(size)),
                    None => Value::Err,
                }
            }
            Callee::LaneId => self.builtin(e, Expr::LaneId),
            Callee::SubgroupSize => self.builtin(e, Expr::SubgroupSize),
            Callee::Mask(fun) => self.mask_fn(out, e, fun),
            Callee::Kernel(callee) => self.kernel_call(out, e, callee, expected),
            Callee::Recursion => {
                let message = format!("recursion is not supported: `{}` calls itself", self.name);
                self.errors.spanned(&e.func, message);
                Value::Err
            }
            Callee::Unknown(message) => {
                self.errors.spanned(&e.func, message);
                Value::Err
            }
        }
    }

    /// Whether `found` arguments were given to `name`, which takes
    /// `expected`; reports a mismatch at `at`.
    fn arity_ok<T: quote::ToTokens>(
        &mut self,
        at: &T,
        name: &str,
        expected: usize,
        found: usize,
    ) -> bool {
        if expected != found {
            self.errors.spanned(at, arity(name, expected, found));
        }
        expected == found
    }

    fn op_call(
        &mut self,
        out: &mut Block,
        e: &syn::ExprCall,
        op: Op,
        expected: Option<Type>,
    ) -> Value {
        self.op_call_with(out, e, op, expected, None)
    }

    /// Lowers a call of `op`; `cluster`, a clustered reduction's size from
    /// its generic argument, becomes its last operand, which the call does
    /// not write.
    fn op_call_with(
        &mut self,
        out: &mut Block,
        e: &syn::ExprCall,
        op: Op,
        expected: Option<Type>,
        cluster: Option<Cluster>,
    ) -> Value {
        let (mut params, result) = op_signature(op, Type::U32);
        if cluster.is_some() {
            params.pop();
        }
        if !self.arity_ok(&e.func, op.spirv_std_name(), params.len(), e.args.len()) {
            return Value::Err;
        }
        // The value of a generic operation takes the type its context
        // expects, where its result is that value's type.
        let generic = op_is_generic(op);
        // A clustered reduction's value type, where its call names one.
        let explicit = cluster.and_then(|c| c.ty);
        let hint = match op {
            Op::AllEqual => None,
            _ if generic => explicit.or(pinned_type(op)).or(expected),
            _ => None,
        };
        let mut done = Vec::new();
        for (i, arg) in e.args.iter().enumerate() {
            let start = out.len();
            let operand = match i {
                0 if generic => {
                    let value = self.expr(out, arg, hint);
                    let operand = self.require(value, explicit, arg);
                    match operand.ty {
                        Some(ty) if !op_takes(op, ty) => {
                            self.errors.spanned(arg, wrong_type(op, ty));
                            self.stand_in(None, arg.span())
                        }
                        _ => operand,
                    }
                }
                1 if op == Op::Broadcast => self.lane_id(arg, op, u32::MAX),
                1 if op == Op::QuadBroadcast => self.lane_id(arg, op, 4),
                _ => {
                    let value = self.expr(out, arg, Some(params[i]));
                    self.require(value, Some(params[i]), arg)
                }
            };
            self.settle(out, &mut done, start, operand);
        }
        let ty = if generic && op != Op::AllEqual {
            done[0].operand.ty
        } else {
            Some(result)
        };
        let mut args: Vec<_> = done.iter().map(|p| p.operand.expr).collect();
        if let Some(Cluster { size, span, .. }) = cluster {
            // Invariant 8: the cluster size is a literal, appended after
            // the value so that the arena stays in post-order.
            args.push(self.b.literal(Literal::U32(size), span));
        }
        self.value(Expr::Op { op, args }, ty, e.span())
    }

    /// The direction of `subgroup_quad_swap::<DIRECTION>`: 0, 1 or 2.
    fn quad_direction(
        &mut self,
        path: &syn::Path,
        segment: Option<&syn::PathSegment>,
    ) -> Option<Quad> {
        const HOW: &str = "`subgroup_quad_swap` takes its direction as a constant generic \
             argument: `subgroup_quad_swap::<0>` (horizontal), `::<1>` (vertical) or `::<2>` \
             (diagonal)";
        let last = path.segments.last();
        let Some(segment) = segment.filter(|s| Some(*s) == last) else {
            self.errors.spanned(path, HOW);
            return None;
        };
        if let syn::PathArguments::AngleBracketed(args) = &segment.arguments {
            let direction = match args.args.iter().collect::<Vec<_>>().as_slice() {
                [syn::GenericArgument::Const(c)] => const_u32(c),
                _ => None,
            };
            if let Some(quad) = direction.and_then(|d| Quad::ALL.get(d as usize).copied()) {
                return Some(quad);
            }
        }
        self.errors.spanned(&segment.arguments, HOW);
        None
    }

    /// The cluster size of a clustered reduction `op`, from its generic
    /// arguments (`::<4>`, `::<4, _>` or `::<4, u32>`, spirv-std's
    /// `<CLUSTER_SIZE, I>`): a power of two from 1 to 128, as
    /// `GL_KHR_shader_subgroup_clustered` wants a constant power of two and
    /// no subgroup has more than 128 lanes (invariant 8). A size above the
    /// running subgroup's is reported by the simulator.
    fn cluster_size(
        &mut self,
        path: &syn::Path,
        segment: Option<&syn::PathSegment>,
        op: Op,
    ) -> Option<Cluster> {
        let name = op.spirv_std_name();
        let how = format!(
            "`{name}` takes its cluster size as a constant generic argument, \
             a power of two from 1 to 128: `{name}::<4, _>(value)`"
        );
        let last = path.segments.last();
        let Some(segment) = segment.filter(|s| Some(*s) == last) else {
            self.errors.spanned(path, how);
            return None;
        };
        let syn::PathArguments::AngleBracketed(args) = &segment.arguments else {
            self.errors.spanned(&segment.arguments, how);
            return None;
        };
        let generics: Vec<_> = args.args.iter().collect();
        let (size, ty) = match generics.as_slice() {
            [syn::GenericArgument::Const(c)]
            | [syn::GenericArgument::Const(c), syn::GenericArgument::Type(syn::Type::Infer(_))] => {
                (c, None)
            }
            [syn::GenericArgument::Const(c), syn::GenericArgument::Type(t)] => {
                match parse_type(t) {
                    Ok(ty) => (c, Some(ty)),
                    Err(e) => {
                        self.errors.push(e);
                        return None;
                    }
                }
            }
            _ => {
                self.errors.spanned(&segment.arguments, how);
                return None;
            }
        };
        match const_u32(size) {
            Some(n) if n.is_power_of_two() && n <= 128 => Some(Cluster {
                size: n,
                span: size.span(),
                ty,
            }),
            Some(n) => {
                let message = format!(
                    "the cluster size of `{name}` must be a power of two from 1 to 128, not {n}"
                );
                self.errors.spanned(size, message);
                None
            }
            None => {
                self.errors.spanned(size, how);
                None
            }
        }
    }

    /// The constant lane id of `subgroup_broadcast` and of
    /// `subgroup_quad_broadcast` (invariant 8), below `bound`.
    fn lane_id(&mut self, arg: &syn::Expr, op: Op, bound: u32) -> Operand {
        if let syn::Expr::Lit(syn::ExprLit {
            lit: lit @ syn::Lit::Int(int),
            ..
        }) = strip_parens(arg)
        {
            let value = self.lit(lit, Some(Type::U32), None);
            let operand = self.require(value, Some(Type::U32), arg);
            let id = int.base10_parse::<u64>().ok();
            if let Some(id) = id.filter(|&id| id >= u64::from(bound)) {
                self.errors.spanned(
                    arg,
                    format!(
                        "the index of `{}` must be below {bound}, not {id}",
                        op.spirv_std_name()
                    ),
                );
            }
            return operand;
        }
        self.errors.spanned(
            arg,
            format!(
                "the lane id of `{}` must be a constant",
                op.spirv_std_name()
            ),
        );
        self.stand_in(Some(Type::U32), arg.span())
    }

    fn builtin(&mut self, e: &syn::ExprCall, expr: Expr) -> Value {
        let name = snippet(&e.func);
        if !self.arity_ok(&e.func, &name, 0, e.args.len()) {
            return Value::Err;
        }
        self.value(expr, Some(Type::U32), e.span())
    }

    fn mask_fn(&mut self, out: &mut Block, e: &syn::ExprCall, fun: MaskFn) -> Value {
        let name = snippet(&e.func);
        if !self.arity_ok(&e.func, &name, fun.params().len(), e.args.len()) {
            return Value::Err;
        }
        self.mask_call(out, Vec::new(), fun, &e.args, e.span())
    }

    /// Lowers the explicit arguments of a mask function, after those in
    /// `done` (the receiver of a method), and the call itself.
    fn mask_call(
        &mut self,
        out: &mut Block,
        mut done: Vec<Pending>,
        fun: MaskFn,
        args: &Punctuated<syn::Expr, syn::Token![,]>,
        span: Span,
    ) -> Value {
        let params = &fun.params()[done.len()..];
        for (arg, &want) in args.iter().zip(params) {
            let start = out.len();
            let value = self.expr(out, arg, Some(want));
            let operand = self.require(value, Some(want), arg);
            self.settle(out, &mut done, start, operand);
        }
        let args = done.iter().map(|p| p.operand.expr).collect();
        self.value(Expr::Mask { fun, args }, Some(fun.result()), span)
    }

    /// Lowers `m.contains(i)`, `m.count()` or `m.is_empty()`.
    pub(super) fn method_call(&mut self, out: &mut Block, e: &syn::ExprMethodCall) -> Value {
        let fun = match e.method.to_string().as_str() {
            "contains" => MaskFn::Contains,
            "count" => MaskFn::Count,
            "is_empty" => MaskFn::IsEmpty,
            _ => {
                self.errors.spanned(&e.method, METHODS);
                return Value::Err;
            }
        };
        if let Some(turbofish) = &e.turbofish {
            self.errors
                .spanned(turbofish, unsupported("generic arguments"));
        }
        let start = out.len();
        let receiver = self.expr(out, &e.receiver, Some(Type::Mask));
        if receiver.ty().is_some_and(|ty| ty != Type::Mask) {
            self.errors.spanned(&e.method, METHODS);
            return Value::Err;
        }
        let receiver = self.require(receiver, Some(Type::Mask), &e.receiver);
        let name = e.method.to_string();
        if !self.arity_ok(&e.method, &name, fun.params().len() - 1, e.args.len()) {
            return Value::Err;
        }
        let mut done = Vec::new();
        self.settle(out, &mut done, start, receiver);
        self.mask_call(out, done, fun, &e.args, e.span())
    }

    /// A call of another kernel. Its signature is not known here, so its
    /// result type comes from the context.
    fn kernel_call(
        &mut self,
        out: &mut Block,
        e: &syn::ExprCall,
        callee: String,
        expected: Option<Type>,
    ) -> Value {
        let mut done = Vec::new();
        for arg in &e.args {
            self.untyped_literal(&callee, arg);
            let start = out.len();
            let value = self.expr(out, arg, None);
            let operand = self.require(value, None, arg);
            self.settle(out, &mut done, start, operand);
        }
        let Some(ty) = expected else {
            let message = format!(
                "cannot infer the return type of kernel `{callee}`; \
                 annotate the binding: `let x: u32 = {callee}(..)`"
            );
            self.errors.spanned(&e.func, message);
            return Value::Err;
        };
        let args = done.iter().map(|p| p.operand.expr).collect();
        self.value(Expr::Call { callee, args }, Some(ty), e.span())
    }

    /// Reports an argument of a kernel call whose type only the callee's
    /// signature could tell, which the front end does not see: guessing
    /// `i32` would silently mismatch a `u32` parameter.
    fn untyped_literal(&mut self, callee: &str, arg: &syn::Expr) {
        if self.hint(arg).is_some() {
            return;
        }
        let literal = match strip_parens(arg) {
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => strip_parens(&u.expr),
            other => other,
        };
        if let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(int),
            ..
        }) = literal
        {
            let message = format!(
                "cannot infer the type of `{}` passed to kernel `{callee}`; add a suffix: `{0}u32` or `{0}i32`",
                int.base10_digits()
            );
            self.errors.spanned(arg, message);
        }
    }
}

/// A clustered reduction's generic arguments: its cluster size, where the
/// size was written, and the value type where the call names one.
#[derive(Clone, Copy)]
struct Cluster {
    size: u32,
    span: Span,
    ty: Option<Type>,
}

/// The message for a value of type `ty` given to `op`, which does not take
/// it, naming the spirv-std function that does.
fn wrong_type(op: Op, ty: Type) -> String {
    let name = op.spirv_std_name();
    let takes = match op {
        Op::Arith(arith, _) | Op::Clustered(arith) => match arith {
            ArithOp::SMin | ArithOp::SMax => "`i32`",
            ArithOp::UMin | ArithOp::UMax => "`u32`",
            a if a.is_float() => "`f32`",
            _ => "`u32` or `i32`",
        },
        _ => "a scalar",
    };
    format!(
        "`{name}` takes {takes}, not `{}`; spirv-std names the operation by its type \
         (`i_add` for integers, `f_add` for `f32`, `s_min`/`u_min`/`f_min`)",
        ty.rust_name()
    )
}

/// A constant generic argument written as a literal `u32`.
fn const_u32(expr: &syn::Expr) -> Option<u32> {
    match strip_parens(expr) {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse().ok(),
        syn::Expr::Block(b) => match b.block.stmts.as_slice() {
            [syn::Stmt::Expr(e, None)] => const_u32(e),
            _ => None,
        },
        _ => None,
    }
}

/// The type an operation's name pins its value to: `f32` for the `f_`
/// operations, `i32` for `s_min`/`s_max`, `u32` for `u_min`/`u_max`.
pub(super) const fn pinned_type(op: Op) -> Option<Type> {
    let Some(arith) = op.arith() else {
        return None;
    };
    match arith {
        ArithOp::SMin | ArithOp::SMax => Some(Type::I32),
        ArithOp::UMin | ArithOp::UMax => Some(Type::U32),
        arith if arith.is_float() => Some(Type::F32),
        _ => None,
    }
}
