//! Types from later uses: `let mut n = 0; … n += i;` makes `n` a `u32`
//! when `i` is one, as Rust's inference does.
//!
//! A binding whose initializer has no type of its own (an unsuffixed
//! literal, a kernel call) takes the type of its first use below that pins
//! one; only if none does is an integer `i32`. Like hints, this reads the
//! syntax and only proposes a type: lowering still checks every use.

use syn::visit::{self, Visit};

use super::call::{pinned_type, resolve, Callee};
use super::expr::{binary_op, strip_parens};
use super::stmt::split_tail;
use super::ty::{parse_type, Ret};
use super::Lowerer;
use ballot_ir::ir::{op_is_generic, op_signature, BinaryOp, Type};
use ballot_ir::op::Op;

/// The code after a binding, where its uses are.
#[derive(Clone, Copy)]
pub(super) struct Later<'a> {
    /// The statements after it in its block, the tail included.
    pub(super) stmts: &'a [syn::Stmt],
    /// The type the block's tail must have, where known.
    pub(super) tail: Option<Type>,
}

impl Lowerer {
    /// The type the first use of `name` in `later` pins, if any.
    pub(super) fn type_from_uses(&self, name: &str, later: Later<'_>) -> Option<Type> {
        let mut uses = Uses {
            cx: self,
            name,
            found: None,
        };
        let (stmts, tail) = match later.stmts.split_last() {
            Some((syn::Stmt::Expr(tail, None), stmts)) => (stmts, Some(tail)),
            _ => (later.stmts, None),
        };
        for stmt in stmts {
            uses.visit_stmt(stmt);
        }
        if let Some(tail) = tail {
            uses.expr(tail, later.tail);
        }
        uses.found
    }
}

struct Uses<'a> {
    cx: &'a Lowerer,
    name: &'a str,
    found: Option<Type>,
}

impl Uses<'_> {
    fn is_name(&self, e: &syn::Expr) -> bool {
        match strip_parens(e) {
            syn::Expr::Path(p) => p.qself.is_none() && p.path.is_ident(self.name),
            _ => false,
        }
    }

    fn pin(&mut self, ty: Option<Type>) {
        if self.found.is_none() {
            self.found = ty;
        }
    }

    /// The hint of `e`, which must not rest on the binding itself (an
    /// outer binding of the same name is not this one).
    fn hint(&self, e: &syn::Expr) -> Option<Type> {
        if self.is_name(e) {
            None
        } else {
            self.cx.hint(e)
        }
    }

    /// Walks `e`, whose context wants a value of type `want`.
    fn expr(&mut self, e: &syn::Expr, want: Option<Type>) {
        if self.is_name(e) {
            return self.pin(want);
        }
        match e {
            syn::Expr::Paren(p) => self.expr(&p.expr, want),
            syn::Expr::Group(g) => self.expr(&g.expr, want),
            syn::Expr::Unary(u) if !matches!(u.op, syn::UnOp::Deref(_)) => self.expr(&u.expr, want),
            syn::Expr::Binary(b) => self.binary(b, want),
            syn::Expr::Assign(a) => {
                let (left, right) = (self.hint(&a.right), self.hint(&a.left));
                self.expr(&a.left, left);
                self.expr(&a.right, right);
            }
            syn::Expr::Call(c) => self.call(c, want),
            syn::Expr::MethodCall(m) => {
                self.expr(&m.receiver, Some(Type::Mask));
                for arg in &m.args {
                    self.expr(arg, Some(Type::U32));
                }
            }
            syn::Expr::Return(r) => {
                let ret = match self.cx.ret {
                    Ret::Val(ty) => Some(ty),
                    Ret::Unit | Ret::Err => None,
                };
                if let Some(value) = &r.expr {
                    self.expr(value, ret);
                }
            }
            syn::Expr::If(i) => {
                self.expr(&i.cond, Some(Type::Bool));
                self.block(&i.then_branch, want);
                if let Some((_, branch)) = &i.else_branch {
                    self.expr(branch, want);
                }
            }
            syn::Expr::Block(b) => self.block(&b.block, want),
            _ => visit::visit_expr(self, e),
        }
    }

    fn binary(&mut self, e: &syn::ExprBinary, want: Option<Type>) {
        let Some((op, compound)) = binary_op(&e.op) else {
            return visit::visit_expr_binary(self, e);
        };
        let (left, right) = match op {
            BinaryOp::LogicalAnd | BinaryOp::LogicalOr => (Some(Type::Bool), Some(Type::Bool)),
            BinaryOp::Shl | BinaryOp::Shr => (want.filter(|_| !compound), Some(Type::U32)),
            _ => {
                let want = want.filter(|_| !compound && !op.is_comparison());
                (want.or(self.hint(&e.right)), want.or(self.hint(&e.left)))
            }
        };
        self.expr(&e.left, left);
        self.expr(&e.right, right);
    }

    fn call(&mut self, e: &syn::ExprCall, want: Option<Type>) {
        let params = match strip_parens(&e.func) {
            syn::Expr::Path(p) => match resolve(&p.path, &self.cx.name) {
                // A generic operation yields its value's type, unless its
                // name pins the type; a broadcast's lane id is a literal.
                Callee::Op(Op::AllEqual) => vec![None],
                Callee::Op(op) if op_is_generic(op) => {
                    vec![pinned_type(op).or(want), Some(Type::U32)]
                }
                Callee::QuadSwap => vec![want],
                Callee::Clustered(arith) => vec![pinned_type(Op::Clustered(arith)).or(want)],
                Callee::Op(op) => op_signature(op, Type::U32)
                    .0
                    .into_iter()
                    .map(Some)
                    .collect(),
                Callee::Mask(fun) => fun.params().iter().copied().map(Some).collect(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        for (i, arg) in e.args.iter().enumerate() {
            self.expr(arg, params.get(i).copied().flatten());
        }
    }

    /// Walks a block whose value the context wants as `want`.
    fn block(&mut self, block: &syn::Block, want: Option<Type>) {
        let (stmts, tail) = split_tail(block);
        for stmt in stmts {
            self.visit_stmt(stmt);
        }
        if let Some(tail) = tail {
            self.expr(tail, want);
        }
    }
}

impl<'ast> Visit<'ast> for Uses<'_> {
    fn visit_expr(&mut self, e: &'ast syn::Expr) {
        self.expr(e, None);
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        self.block(block, None);
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        let want = match &local.pat {
            syn::Pat::Type(p) => parse_type(&p.ty).ok(),
            _ => None,
        };
        if let Some(init) = &local.init {
            self.expr(&init.expr, want);
            if let Some((_, diverge)) = &init.diverge {
                self.expr(diverge, None);
            }
        }
    }
}
