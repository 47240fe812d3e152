//! Kernels on the native targets: the IR's structured control flow, written
//! as it is. The GPU provides the divergence that the native simulator
//! models with lane masks.

use core::fmt;

use super::{type_name, Func, Writer};
use crate::back::Level;
use crate::ir::{Block, Expr, Kernel, Stmt};

impl<'p, W: fmt::Write> Writer<'p, W> {
    /// `fn name(params) -> R { ... }`.
    pub(super) fn write_native_function(&mut self, cx: &mut Func<'p>) -> fmt::Result {
        let kernel: &'p Kernel = cx.kernel;
        let name: &'p str = &cx.function.name;
        self.write_signature(name, cx, false)?;
        self.write_locals(cx, Level(1))?;
        self.write_native_block(cx, &kernel.body, Level(1))?;
        // WGSL rejects a function whose end is reachable without a return.
        if let Some(ret) = kernel.ret {
            if falls_through(kernel, &kernel.body) {
                writeln!(self.out, "{}return {}();", Level(1), type_name(ret))?;
            }
        }
        self.out.write_str("}\n")
    }

    fn write_native_block(&mut self, cx: &Func<'p>, block: &Block, level: Level) -> fmt::Result {
        block
            .iter()
            .try_for_each(|&stmt| self.write_native_stmt(cx, stmt, level))
    }

    fn write_native_stmt(
        &mut self,
        cx: &Func<'p>,
        stmt: crate::ir::Handle<Stmt>,
        level: Level,
    ) -> fmt::Result {
        let kernel: &'p Kernel = cx.kernel;
        match &kernel.stmts[stmt] {
            Stmt::Assign { local, value } => {
                write!(self.out, "{level}{} = ", cx.local(*local))?;
                self.write_expr(cx, *value)?;
                self.out.write_str(";\n")
            }
            Stmt::Eval(value) => {
                // A call of a kernel without a result is a statement; any
                // other value is discarded through the phony assignment.
                let void_call = matches!(kernel.exprs[*value], Expr::Call { .. })
                    && self.callee_is_void(cx, *value);
                write!(self.out, "{level}{}", if void_call { "" } else { "_ = " })?;
                self.write_expr(cx, *value)?;
                self.out.write_str(";\n")
            }
            Stmt::If {
                cond,
                accept,
                reject,
            } => self.write_native_if(cx, *cond, accept, reject, level),
            Stmt::Loop { body, continuing } => self.write_native_loop(cx, body, continuing, level),
            Stmt::Break => writeln!(self.out, "{level}break;"),
            Stmt::Continue => writeln!(self.out, "{level}continue;"),
            Stmt::Return(None) => writeln!(self.out, "{level}return;"),
            Stmt::Return(Some(value)) => {
                write!(self.out, "{level}return ")?;
                self.write_expr(cx, *value)?;
                self.out.write_str(";\n")
            }
        }
    }

    fn write_native_if(
        &mut self,
        cx: &Func<'p>,
        cond: crate::ir::Handle<Expr>,
        accept: &Block,
        reject: &Block,
        level: Level,
    ) -> fmt::Result {
        write!(self.out, "{level}if ")?;
        self.write_expr(cx, cond)?;
        self.out.write_str(" {\n")?;
        self.write_native_block(cx, accept, level.next())?;
        if !reject.is_empty() {
            writeln!(self.out, "{level}}} else {{")?;
            self.write_native_block(cx, reject, level.next())?;
        }
        writeln!(self.out, "{level}}}")
    }

    fn write_native_loop(
        &mut self,
        cx: &Func<'p>,
        body: &Block,
        continuing: &Block,
        level: Level,
    ) -> fmt::Result {
        writeln!(self.out, "{level}loop {{")?;
        self.write_native_block(cx, body, level.next())?;
        if !continuing.is_empty() {
            // Where `continue` lands, as in the IR.
            writeln!(self.out, "{}continuing {{", level.next())?;
            self.write_native_block(cx, continuing, level.next().next())?;
            writeln!(self.out, "{}}}", level.next())?;
        }
        writeln!(self.out, "{level}}}")
    }

    /// Whether the call `expr` calls a kernel without a result.
    pub(super) fn callee_is_void(&self, cx: &Func<'_>, call: crate::ir::Handle<Expr>) -> bool {
        cx.function
            .calls
            .get(&call)
            .and_then(|&i| self.plan.functions.get(i))
            .and_then(|f| f.kernel())
            .is_some_and(|k| k.ret.is_none())
    }
}

/// Whether control can reach the end of `block` (WGSL's behaviour
/// analysis, as far as the IR needs it).
fn falls_through(kernel: &Kernel, block: &Block) -> bool {
    let Some(&last) = block.last() else {
        return true;
    };
    match &kernel.stmts[last] {
        Stmt::Return(_) => false,
        Stmt::If { accept, reject, .. } => {
            falls_through(kernel, accept) || falls_through(kernel, reject)
        }
        // A loop that no `break` leaves only ends by returning.
        Stmt::Loop { body, .. } => breaks(kernel, body),
        _ => true,
    }
}

/// Whether a `break` in `block` leaves the loop whose body it is.
fn breaks(kernel: &Kernel, block: &Block) -> bool {
    block.iter().any(|&s| match &kernel.stmts[s] {
        Stmt::Break => true,
        Stmt::If { accept, reject, .. } => breaks(kernel, accept) || breaks(kernel, reject),
        _ => false,
    })
}
