//! The kernel under construction: its arenas, with the span of every node
//! recorded as the node is appended.

use proc_macro2::Span;

use super::{Lowered, SourceMap};
use ballot_ir::ir::{Arena, Block, Expr, Handle, Kernel, Literal, Local, Param, Stmt, Type};
use ballot_ir::mask::SubgroupMask;

/// The arenas of the kernel being lowered and its [`SourceMap`].
#[derive(Default)]
pub(super) struct Builder {
    locals: Arena<Local>,
    exprs: Arena<Expr>,
    expr_types: Vec<Type>,
    stmts: Arena<Stmt>,
    spans: SourceMap,
    temps: usize,
}

impl Builder {
    /// Appends an expression of type `ty`. Operands must already be
    /// appended, which keeps the arena in post-order (invariant 2).
    pub(super) fn expr(&mut self, expr: Expr, ty: Type, span: Span) -> Handle<Expr> {
        self.expr_types.push(ty);
        self.spans.exprs.push(span);
        self.exprs.append(expr)
    }

    /// Appends a statement.
    pub(super) fn stmt(&mut self, stmt: Stmt, span: Span) -> Handle<Stmt> {
        self.spans.stmts.push(span);
        self.stmts.append(stmt)
    }

    /// Appends `local = value`.
    pub(super) fn assign(
        &mut self,
        local: Handle<Local>,
        value: Handle<Expr>,
        span: Span,
    ) -> Handle<Stmt> {
        self.stmt(Stmt::Assign { local, value }, span)
    }

    /// Appends a local.
    pub(super) fn local(
        &mut self,
        name: String,
        ty: Type,
        mutable: bool,
        span: Span,
    ) -> Handle<Local> {
        self.spans.locals.push(span);
        self.locals.append(Local { name, ty, mutable })
    }

    /// Appends a compiler-made local, named `_{prefix}{n}` with `n` unique
    /// in the kernel. Its name is a valid identifier, so backends can use
    /// it as is.
    pub(super) fn temp(
        &mut self,
        prefix: &str,
        ty: Type,
        mutable: bool,
        span: Span,
    ) -> Handle<Local> {
        let name = format!("_{prefix}{}", self.temps);
        self.temps += 1;
        self.local(name, ty, mutable, span)
    }

    /// Appends a load of `local`.
    pub(super) fn load(&mut self, local: Handle<Local>, span: Span) -> Handle<Expr> {
        let ty = self.locals[local].ty;
        self.expr(Expr::Load(local), ty, span)
    }

    /// Appends a literal.
    pub(super) fn literal(&mut self, literal: Literal, span: Span) -> Handle<Expr> {
        self.expr(Expr::Literal(literal), literal.ty(), span)
    }

    /// Appends a stand-in value of type `ty`, where the source has none to
    /// give: after an error, or for an expression that never completes.
    pub(super) fn placeholder(&mut self, ty: Type, span: Span) -> Handle<Expr> {
        let zero = match ty {
            Type::Bool => Literal::Bool(false),
            Type::U32 => Literal::U32(0),
            Type::I32 => Literal::I32(0),
            Type::F32 => Literal::F32(0.0),
            Type::Mask => Literal::Mask(SubgroupMask::EMPTY),
        };
        self.literal(zero, span)
    }

    /// The type of an appended expression.
    pub(super) fn type_of(&self, expr: Handle<Expr>) -> Type {
        self.expr_types[expr.index()]
    }

    /// The span of an appended expression.
    pub(super) fn span_of(&self, expr: Handle<Expr>) -> Span {
        self.spans.exprs[expr.index()]
    }

    /// Whether `expr` holds an [`Expr::Op`] or [`Expr::Call`], which must be
    /// evaluated in exactly the lanes Rust would evaluate it in.
    pub(super) fn has_collective(&self, expr: Handle<Expr>) -> bool {
        match &self.exprs[expr] {
            Expr::Op { .. } | Expr::Call { .. } => true,
            other => other.operands().into_iter().any(|e| self.has_collective(e)),
        }
    }

    /// Whether evaluating `expr` later would give the same value and effects:
    /// no collectives, and no loads of locals that can still change.
    pub(super) fn is_stable(&self, expr: Handle<Expr>) -> bool {
        match &self.exprs[expr] {
            Expr::Op { .. } | Expr::Call { .. } => false,
            Expr::Load(local) => !self.locals[*local].mutable,
            other => other.operands().into_iter().all(|e| self.is_stable(e)),
        }
    }

    /// The finished kernel.
    pub(super) fn finish(
        self,
        name: String,
        params: Vec<Param>,
        ret: Option<Type>,
        body: Block,
    ) -> Lowered {
        let kernel = Kernel {
            name,
            params,
            ret,
            locals: self.locals,
            exprs: self.exprs,
            expr_types: self.expr_types,
            stmts: self.stmts,
            body,
        };
        Lowered {
            kernel,
            spans: self.spans,
        }
    }
}
