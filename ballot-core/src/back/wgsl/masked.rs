//! If-conversion for `wgsl-no-subgroup`.
//!
//! The emulated subgroup exchanges values through workgroup memory between
//! barriers, and a barrier must be reached by every invocation of the
//! workgroup, in uniform control flow. So a kernel becomes
//! `fn <name>_masked(ballot_active_in: bool, params...)` whose statements
//! run in every invocation, with a per-invocation flag `ballot_active`
//! saying whether the invocation is really executing them:
//!
//! - A ballot operation or kernel call is hoisted into a `let` before its
//!   statement and always executed, passing `ballot_active`; an assignment
//!   stores only `if ballot_active`.
//! - `if` saves the flag in `ballot_outerN`, narrows it to each branch, and
//!   restores it without the invocations that left through a jump.
//! - `break`, `continue` and `return` set the flags `ballot_brkN`,
//!   `ballot_contN` and `ballot_ret` and clear `ballot_active`: each
//!   invocation leaves exactly where it would natively.
//! - A loop recomputes `ballot_active` at every iteration from its entry
//!   flag and those flags. One that holds collectives leaves only when no
//!   invocation of the workgroup is active: `ballot_workgroup_any` votes
//!   and reads the answer with `workgroupUniformLoad`, so the exit is
//!   uniform for naga's and Tint's analyses. A loop without collectives is
//!   an ordinary per-invocation loop.
//!
//! The semantics are those of the native simulator (`back::rust`), which
//! tracks the same flags as lane masks. Invocations that never return a
//! value return the zero value.

use core::fmt;

use super::{type_name, Func, Writer};
use crate::back::Level;
use crate::ir::{Block, Expr, Handle, Kernel, Stmt};
use crate::lower;

/// Where a statement sits, for the invocations a jump removes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// Directly in the kernel, outside any loop.
    Kernel,
    /// In a loop's body.
    LoopBody,
    /// In a loop's `continuing` block, where only `return` can jump.
    Continuing,
}

impl<'p, W: fmt::Write> Writer<'p, W> {
    /// `fn <name>_masked(ballot_active_in: bool, params...) -> R`.
    pub(super) fn write_masked_function(&mut self, cx: &mut Func<'p>) -> fmt::Result {
        let kernel: &'p Kernel = cx.kernel;
        let name: &'p str = &cx.function.masked;
        writeln!(
            self.out,
            "// `{}` if-converted: every invocation runs every statement, and\n\
             // ballot_active says which really do. Called in uniform control flow.",
            cx.function.name
        )?;
        self.write_signature(name, cx, true)?;
        let level = Level(1);
        writeln!(self.out, "{level}var ballot_active = ballot_active_in;")?;
        writeln!(self.out, "{level}var ballot_ret = false;")?;
        if let Some(ret) = kernel.ret {
            writeln!(self.out, "{level}var ballot_ret_val: {};", type_name(ret))?;
        }
        self.write_locals(cx, level)?;
        self.write_masked_block(cx, &kernel.body, level, Ctx::Kernel)?;
        if kernel.ret.is_some() {
            writeln!(self.out, "{level}return ballot_ret_val;")?;
        }
        self.out.write_str("}\n")
    }

    /// The public function: the kernel with every invocation active.
    pub(super) fn write_wrapper(&mut self, cx: &Func<'p>) -> fmt::Result {
        writeln!(
            self.out,
            "\n// Call in every invocation of the workgroup, in uniform control flow."
        )?;
        let name: &'p str = &cx.function.name;
        self.write_signature(name, cx, false)?;
        let ret = if cx.kernel.ret.is_some() {
            "return "
        } else {
            ""
        };
        write!(self.out, "{}{ret}{}(true", Level(1), cx.function.masked)?;
        for param in &cx.function.params {
            write!(self.out, ", {param}")?;
        }
        self.out.write_str(");\n}\n")
    }

    fn write_masked_block(
        &mut self,
        cx: &mut Func<'p>,
        block: &Block,
        level: Level,
        ctx: Ctx,
    ) -> fmt::Result {
        block
            .iter()
            .try_for_each(|&stmt| self.write_masked_stmt(cx, stmt, level, ctx))
    }

    fn write_masked_stmt(
        &mut self,
        cx: &mut Func<'p>,
        stmt: Handle<Stmt>,
        level: Level,
        ctx: Ctx,
    ) -> fmt::Result {
        let kernel: &'p Kernel = cx.kernel;
        match &kernel.stmts[stmt] {
            Stmt::Assign { local, value } => {
                self.hoist(cx, *value, level)?;
                write!(
                    self.out,
                    "{level}if ballot_active {{ {} = ",
                    cx.local(*local)
                )?;
                self.write_expr(cx, *value)?;
                self.out.write_str("; }\n")
            }
            Stmt::Eval(value) => self.hoist(cx, *value, level),
            Stmt::If {
                cond,
                accept,
                reject,
            } => self.write_masked_if(cx, *cond, accept, reject, level, ctx),
            Stmt::Loop { body, continuing } => self.write_masked_loop(cx, body, continuing, level),
            Stmt::Break | Stmt::Continue => {
                let flag = if matches!(kernel.stmts[stmt], Stmt::Break) {
                    "brk"
                } else {
                    "cont"
                };
                if let Some(id) = cx.loops.last() {
                    let var = format!("ballot_{flag}{id}");
                    writeln!(self.out, "{level}{var} = ({var} || ballot_active);")?;
                }
                writeln!(self.out, "{level}ballot_active = false;")
            }
            Stmt::Return(value) => {
                if let Some(value) = value {
                    self.hoist(cx, *value, level)?;
                    write!(self.out, "{level}if ballot_active {{ ballot_ret_val = ")?;
                    self.write_expr(cx, *value)?;
                    self.out.write_str("; }\n")?;
                }
                writeln!(
                    self.out,
                    "{level}ballot_ret = (ballot_ret || ballot_active);"
                )?;
                writeln!(self.out, "{level}ballot_active = false;")
            }
        }
    }

    fn write_masked_if(
        &mut self,
        cx: &mut Func<'p>,
        cond: Handle<Expr>,
        accept: &Block,
        reject: &Block,
        level: Level,
        ctx: Ctx,
    ) -> fmt::Result {
        self.hoist(cx, cond, level)?;
        let id = cx.fresh();
        let (outer, taken) = (format!("ballot_outer{id}"), format!("ballot_taken{id}"));
        writeln!(self.out, "{level}let {outer} = ballot_active;")?;
        write!(self.out, "{level}let {taken} = ")?;
        self.write_expr(cx, cond)?;
        self.out.write_str(";\n")?;
        for (block, sign) in [(accept, ""), (reject, "!")] {
            if block.is_empty() {
                continue;
            }
            writeln!(
                self.out,
                "{level}ballot_active = ({outer} && {sign}{taken});"
            )?;
            writeln!(self.out, "{level}{{")?;
            self.write_masked_block(cx, block, level.next(), ctx)?;
            writeln!(self.out, "{level}}}")?;
        }
        let kernel = cx.kernel;
        if accept
            .iter()
            .chain(reject)
            .any(|&s| lower::can_jump(kernel, s))
        {
            let exited = exited(cx, ctx);
            writeln!(self.out, "{level}ballot_active = ({outer} && !{exited});")
        } else {
            writeln!(self.out, "{level}ballot_active = {outer};")
        }
    }

    fn write_masked_loop(
        &mut self,
        cx: &mut Func<'p>,
        body: &Block,
        continuing: &Block,
        level: Level,
    ) -> fmt::Result {
        let id = cx.fresh();
        let (entry, brk) = (format!("ballot_entry{id}"), format!("ballot_brk{id}"));
        let inner = level.next();
        let active = format!("(({entry} && !{brk}) && !ballot_ret)");
        writeln!(self.out, "{level}let {entry} = ballot_active;")?;
        writeln!(self.out, "{level}var {brk} = false;")?;
        writeln!(self.out, "{level}var ballot_cont{id} = false;")?;
        writeln!(self.out, "{level}loop {{")?;
        writeln!(self.out, "{inner}ballot_cont{id} = false;")?;
        writeln!(self.out, "{inner}ballot_active = {active};")?;
        let kernel = cx.kernel;
        if body
            .iter()
            .chain(continuing)
            .any(|&s| lower::stmt_exchanges(kernel, s))
        {
            // Every invocation iterates until none of the workgroup is active.
            writeln!(
                self.out,
                "{inner}if (!ballot_workgroup_any(ballot_active)) {{ break; }}"
            )?;
        } else {
            writeln!(self.out, "{inner}if (!ballot_active) {{ break; }}")?;
        }
        cx.loops.push(id);
        self.write_masked_block(cx, body, inner, Ctx::LoopBody)?;
        if !continuing.is_empty() {
            // Invocations that continued rejoin for the continuing block.
            writeln!(self.out, "{inner}ballot_active = {active};")?;
            self.write_masked_block(cx, continuing, inner, Ctx::Continuing)?;
        }
        cx.loops.pop();
        writeln!(self.out, "{level}}}")?;
        // Invocations that broke out rejoin after the loop.
        writeln!(self.out, "{level}ballot_active = ({entry} && !ballot_ret);")
    }

    /// Writes a `let` for each ballot operation and kernel call in `root`'s
    /// tree, in evaluation order, and records it for [`Self::write_expr`].
    fn hoist(&mut self, cx: &mut Func<'p>, root: Handle<Expr>, level: Level) -> fmt::Result {
        let mut order = Vec::new();
        collectives(cx, root, &mut order);
        for expr in order {
            let void = self.callee_is_void(cx, expr);
            let temp = format!("ballot_t{}", cx.fresh());
            if void {
                // Nothing to bind: the call is a statement.
                write!(self.out, "{level}")?;
            } else {
                write!(self.out, "{level}let {temp} = ")?;
            }
            self.write_collective(cx, expr)?;
            self.out.write_str(";\n")?;
            if void {
                let ty = super::plan::type_of(cx.kernel, expr);
                cx.temps.insert(expr, format!("{}()", type_name(ty)));
            } else {
                cx.temps.insert(expr, temp);
            }
        }
        Ok(())
    }
}

/// The ballot operations and calls of `expr`'s tree, operands first.
fn collectives(cx: &Func<'_>, expr: Handle<Expr>, out: &mut Vec<Handle<Expr>>) {
    if cx.function.folded.value(expr).is_some() || expr.index() >= cx.kernel.exprs.len() {
        return;
    }
    let e = &cx.kernel.exprs[expr];
    for operand in e.operands() {
        if operand < expr {
            collectives(cx, operand, out);
        }
    }
    if matches!(e, Expr::Op { .. } | Expr::Call { .. }) {
        out.push(expr);
    }
}

/// The invocations that have jumped out of the current statement sequence.
fn exited(cx: &Func<'_>, ctx: Ctx) -> String {
    match (ctx, cx.loops.last()) {
        (Ctx::LoopBody, Some(id)) => {
            format!("((ballot_ret || ballot_brk{id}) || ballot_cont{id})")
        }
        _ => "ballot_ret".to_string(),
    }
}
