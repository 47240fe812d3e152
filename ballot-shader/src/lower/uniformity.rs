//! Whether a `wgsl-web` module needs `diagnostic(off, subgroup_uniformity)`.
//!
//! Tint rejects a subgroup built-in (`subgroupBallot`, `subgroupBroadcast`,
//! `subgroupBroadcastFirst`, and so elect) in control flow that it cannot
//! prove uniform, although divergent ballots are the point of many kernels.
//! The module turns the check off only where a kernel might need it, by a
//! conservative analysis that may say "needed" when Tint would agree
//! without it, but never the reverse:
//!
//! - A value is uniform if it is built only from literals, `#[uniform]`
//!   parameters that the kernel never assigns, and immutable locals
//!   assigned a uniform value in uniform control flow. The lane id and
//!   subgroup size are not (they live in `var<private>`s, which Tint
//!   treats as non-uniform), nor are the results of ballots and calls.
//! - Control flow is uniform at the top of a kernel, and stays so inside an
//!   `if` whose condition is uniform. A `return` in non-uniform control
//!   flow makes the rest of the kernel non-uniform; a `break` or `continue`
//!   there makes its whole loop non-uniform, and the rest of the kernel.
//! - The check is needed if a subgroup built-in or a kernel call sits in
//!   non-uniform control flow, or a call passes a non-uniform value to a
//!   callee's `#[uniform]` parameter.

//!
//! An analysis of the IR, beside the lowering's others: the WGSL printer
//! only asks it ([`super::plan::Plan::needs_uniformity_diagnostic`]).

use std::collections::BTreeMap;

use super::fold::Folded;
use super::plan::Plan;
use ballot_ir::ir::{Block, Expr, Handle, Kernel, Local, Stmt};
use ballot_ir::op::Op;

/// Whether any kernel of the module may use a subgroup built-in in
/// control flow that Tint cannot prove uniform.
pub fn needs_diagnostic(plan: &Plan<'_>) -> bool {
    let module = &plan.module;
    module
        .functions
        .iter()
        .zip(&module.calls)
        .zip(plan.folded())
        .any(|((function, calls), folded)| {
            function
                .kernel()
                .is_some_and(|kernel| Analysis::new(plan, calls, folded, kernel).run())
        })
}

struct Analysis<'p> {
    plan: &'p Plan<'p>,
    /// The function each call expression of the kernel calls.
    calls: &'p BTreeMap<Handle<Expr>, usize>,
    folded: &'p Folded,
    kernel: &'p Kernel,
    /// Whether each local holds a uniform value.
    uniform: Vec<bool>,
    /// A jump in non-uniform control flow has left the kernel: everything
    /// after it (in program order) is non-uniform.
    diverged: bool,
    /// A `break` or `continue` of the innermost loop was non-uniform.
    loop_diverged: bool,
    /// Something needs the diagnostic.
    found: bool,
}

impl<'p> Analysis<'p> {
    fn new(
        plan: &'p Plan<'p>,
        calls: &'p BTreeMap<Handle<Expr>, usize>,
        folded: &'p Folded,
        kernel: &'p Kernel,
    ) -> Self {
        let assigned = crate::lower::assigned_locals(kernel);
        let mut uniform = vec![false; kernel.locals.len()];
        for param in &kernel.params {
            if param.uniform && !assigned.contains(&param.local) {
                if let Some(u) = uniform.get_mut(param.local.index()) {
                    *u = true;
                }
            }
        }
        Analysis {
            plan,
            calls,
            folded,
            kernel,
            uniform,
            diverged: false,
            loop_diverged: false,
            found: false,
        }
    }

    fn run(mut self) -> bool {
        let kernel = self.kernel;
        self.block(&kernel.body, true);
        self.found
    }

    fn block(&mut self, block: &Block, uniform: bool) {
        for &stmt in block {
            let cf = uniform && !self.diverged;
            self.stmt(stmt, cf);
        }
    }

    fn stmt(&mut self, stmt: Handle<Stmt>, cf: bool) {
        let kernel = self.kernel;
        match &kernel.stmts[stmt] {
            Stmt::Assign { local, value } => {
                self.check(*value, cf);
                let mutable = kernel.locals[*local].mutable;
                let is_param = kernel.params.iter().any(|p| p.local == *local);
                let value_uniform = cf && self.is_uniform(*value);
                if let Some(u) = self.uniform.get_mut(local.index()) {
                    *u = value_uniform && !mutable && !is_param;
                }
            }
            Stmt::Eval(value) => self.check(*value, cf),
            Stmt::If {
                cond,
                accept,
                reject,
            } => {
                self.check(*cond, cf);
                let branch = cf && self.is_uniform(*cond);
                self.block(accept, branch);
                self.block(reject, branch);
            }
            Stmt::Loop { body, continuing } => self.loop_stmt(body, continuing, cf),
            Stmt::Break | Stmt::Continue => self.loop_diverged |= !cf,
            Stmt::Return(value) => {
                if let Some(value) = value {
                    self.check(*value, cf);
                }
                self.diverged |= !cf;
            }
        }
    }

    /// Walks a loop as its first iteration sees it; if some invocations
    /// may leave or skip part of it there, later iterations are divergent,
    /// so it is walked again as such.
    fn loop_stmt(&mut self, body: &Block, continuing: &Block, cf: bool) {
        let outer = core::mem::replace(&mut self.loop_diverged, false);
        let diverged_before = self.diverged;
        self.block(body, cf);
        self.block(continuing, cf);
        if cf && (self.loop_diverged || self.diverged != diverged_before) {
            self.block(body, false);
            self.block(continuing, false);
            self.diverged = true;
        }
        self.loop_diverged = outer;
    }

    /// Records a subgroup built-in or call of `expr` in non-uniform control
    /// flow, or a non-uniform argument for a `#[uniform]` parameter.
    fn check(&mut self, expr: Handle<Expr>, cf: bool) {
        let kernel = self.kernel;
        if self.folded.value(expr).is_some() || expr.index() >= kernel.exprs.len() {
            return;
        }
        let e = &kernel.exprs[expr];
        for operand in e.operands() {
            if operand < expr {
                self.check(operand, cf);
            }
        }
        match e {
            Expr::Op { op, .. } if !cf => {
                self.found |= super::exchanges(*op);
            }
            // Tint also wants the mask or delta of a relative shuffle
            // uniform, in uniform control flow too.
            Expr::Op {
                op: Op::ShuffleXor | Op::ShuffleUp | Op::ShuffleDown,
                args,
            } => {
                self.found |= args.get(1).is_some_and(|&a| !self.is_uniform(a));
            }
            Expr::Call { args, .. } => {
                self.found |= !cf || !self.uniform_args_ok(expr, args);
            }
            _ => {}
        }
    }

    fn uniform_args_ok(&self, call: Handle<Expr>, args: &[Handle<Expr>]) -> bool {
        let callee = self
            .calls
            .get(&call)
            .and_then(|&i| self.plan.module.functions.get(i))
            .and_then(|f| f.kernel());
        let Some(callee) = callee else {
            return true;
        };
        callee
            .params
            .iter()
            .zip(args)
            .all(|(param, &arg)| !param.uniform || self.is_uniform(arg))
    }

    fn is_uniform(&self, expr: Handle<Expr>) -> bool {
        let kernel = self.kernel;
        if self.folded.value(expr).is_some() {
            return true;
        }
        if expr.index() >= kernel.exprs.len() {
            return false;
        }
        match &kernel.exprs[expr] {
            Expr::Literal(_) => true,
            Expr::Load(local) => self.local_uniform(*local),
            e @ (Expr::Unary { .. }
            | Expr::Binary { .. }
            | Expr::Cast { .. }
            | Expr::Select { .. }
            | Expr::Mask { .. }) => e
                .operands()
                .into_iter()
                .all(|o| o < expr && self.is_uniform(o)),
            Expr::LaneId | Expr::SubgroupSize | Expr::Op { .. } | Expr::Call { .. } => false,
        }
    }

    fn local_uniform(&self, local: Handle<Local>) -> bool {
        self.uniform.get(local.index()).copied().unwrap_or(false)
    }
}
