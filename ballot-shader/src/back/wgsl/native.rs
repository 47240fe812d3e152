//! Kernels on the native targets: the IR's structured control flow, written
//! as it is. The GPU provides the divergence that the native simulator
//! models with lane masks.

use core::fmt;

use super::{type_name, Func, Writer};
use crate::back::shading::{self, Shading, Structured};
use crate::back::Level;
use crate::lower;
use ballot_ir::ir::{Block, Expr, Handle};

impl<W: fmt::Write> Writer<'_, W> {
    /// `fn name(params) -> R { ... }`.
    pub(super) fn write_native_function(&mut self, cx: Func<'_>) -> fmt::Result {
        let kernel = cx.kernel;
        self.write_head(cx, &cx.function.name, false)?;
        shading::write_native_block(self, cx, &kernel.body, Level(1))?;
        // WGSL rejects a function whose end is reachable without a return.
        if let Some(ret) = kernel.ret {
            if lower::falls_through(kernel, &kernel.body) {
                writeln!(self.out, "{}return {}();", Level(1), type_name(ret))?;
            }
        }
        self.out.write_str("}\n")
    }

    /// Whether the call `expr` calls a kernel without a result.
    fn callee_is_void(&self, cx: Func<'_>, call: Handle<Expr>) -> bool {
        cx.function
            .calls
            .get(&call)
            .and_then(|&i| self.plan.functions.get(i))
            .and_then(|f| f.kernel())
            .is_some_and(|k| k.ret.is_none())
    }
}

impl<W: fmt::Write> Structured for Writer<'_, W> {
    /// A call of a kernel without a result is a statement; any other value
    /// is discarded through the phony assignment.
    fn write_eval(&mut self, cx: Func<'_>, value: Handle<Expr>, level: Level) -> fmt::Result {
        let void_call =
            matches!(cx.kernel.exprs[value], Expr::Call { .. }) && self.callee_is_void(cx, value);
        write!(self.out, "{level}{}", if void_call { "" } else { "_ = " })?;
        self.write_expr(cx, value)?;
        self.out.write_str(";\n")
    }

    /// `loop { body continuing { … } }`: where `continue` lands, as in the
    /// IR.
    fn write_loop(
        &mut self,
        cx: Func<'_>,
        body: &Block,
        next: &Block,
        level: Level,
    ) -> fmt::Result {
        writeln!(self.out, "{level}loop {{")?;
        shading::write_native_block(self, cx, body, level.next())?;
        if !next.is_empty() {
            writeln!(self.out, "{}continuing {{", level.next())?;
            shading::write_native_block(self, cx, next, level.next().next())?;
            writeln!(self.out, "{}}}", level.next())?;
        }
        writeln!(self.out, "{level}}}")
    }
}
