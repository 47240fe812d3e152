//! The `glsl` target's kernels: structured control flow written as it is,
//! so that the GPU's own divergence decides which lanes take part in each
//! subgroup operation.

use core::fmt::{self, Write};

use super::{type_name, zero, Func, Writer};
use crate::back::Level;
use crate::ir::{Block, Expr, Handle, Stmt};
use crate::lower;

impl<W: Write> Writer<'_, W> {
    /// `R name(params) { locals; body }`.
    pub(super) fn write_native_function(&mut self, f: Func<'_>) -> fmt::Result {
        self.write_signature(f, &f.function.name, false)?;
        writeln!(self.out, " {{")?;
        let level = Level(1);
        self.write_locals(f, level)?;
        self.write_native_block(f, &f.kernel.body, level)?;
        let ends_in_return = f
            .kernel
            .body
            .last()
            .is_some_and(|&s| matches!(f.kernel.stmts[s], Stmt::Return(_)));
        if let (Some(ret), false) = (f.kernel.ret, ends_in_return) {
            // Lanes that never return yield zero, and GLSL wants a return
            // on every path.
            writeln!(self.out, "{level}return {};", zero(ret))?;
        }
        writeln!(self.out, "}}\n")
    }

    fn write_native_block(&mut self, f: Func<'_>, block: &Block, level: Level) -> fmt::Result {
        for &stmt in block {
            self.write_native_stmt(f, stmt, level)?;
        }
        Ok(())
    }

    fn write_native_stmt(&mut self, f: Func<'_>, stmt: Handle<Stmt>, level: Level) -> fmt::Result {
        match &f.kernel.stmts[stmt] {
            Stmt::Assign { local, value } => {
                write!(self.out, "{level}{} = ", f.function.locals[local.index()])?;
                self.write_expr(f, *value)?;
                writeln!(self.out, ";")
            }
            Stmt::Eval(value) => self.write_native_eval(f, *value, level),
            Stmt::If {
                cond,
                accept,
                reject,
            } => {
                write!(self.out, "{level}if (")?;
                self.write_expr(f, *cond)?;
                writeln!(self.out, ") {{")?;
                self.write_native_block(f, accept, level.next())?;
                if !reject.is_empty() {
                    writeln!(self.out, "{level}}} else {{")?;
                    self.write_native_block(f, reject, level.next())?;
                }
                writeln!(self.out, "{level}}}")
            }
            Stmt::Loop { body, continuing } => self.write_native_loop(f, body, continuing, level),
            Stmt::Break => writeln!(self.out, "{level}break;"),
            Stmt::Continue => writeln!(self.out, "{level}continue;"),
            Stmt::Return(None) => writeln!(self.out, "{level}return;"),
            Stmt::Return(Some(value)) => {
                write!(self.out, "{level}return ")?;
                self.write_expr(f, *value)?;
                writeln!(self.out, ";")
            }
        }
    }

    /// An expression kept for its subgroup operations; a pure one has no
    /// effect and is left out.
    fn write_native_eval(&mut self, f: Func<'_>, value: Handle<Expr>, level: Level) -> fmt::Result {
        if !lower::expr_exchanges(f.kernel, value) {
            return Ok(());
        }
        let temp = self.temp("t");
        let ty = type_name(f.kernel.type_of(value));
        write!(self.out, "{level}{ty} {temp} = ")?;
        self.write_expr(f, value)?;
        writeln!(self.out, ";")
    }

    /// A loop whose `continuing` block runs at the top of every iteration
    /// but the first, where `continue` leads too.
    fn write_native_loop(
        &mut self,
        f: Func<'_>,
        body: &Block,
        continuing: &Block,
        level: Level,
    ) -> fmt::Result {
        let first = (!continuing.is_empty()).then(|| self.temp("first"));
        if let Some(first) = &first {
            writeln!(self.out, "{level}bool {first} = true;")?;
        }
        writeln!(self.out, "{level}while (true) {{")?;
        let inner = level.next();
        if let Some(first) = &first {
            writeln!(self.out, "{inner}if (!{first}) {{")?;
            self.write_native_block(f, continuing, inner.next())?;
            writeln!(self.out, "{inner}}}")?;
            writeln!(self.out, "{inner}{first} = false;")?;
        }
        self.write_native_block(f, body, inner)?;
        writeln!(self.out, "{level}}}")
    }
}
