//! The `glsl` target's kernels: structured control flow written as it is,
//! so that the GPU's own divergence decides which lanes take part in each
//! subgroup operation.

use core::fmt::{self, Write};

use super::{type_name, zero, Func, Writer};
use crate::back::shading::{self, Shading, Structured};
use crate::back::Level;
use crate::lower;
use ballot_ir::ir::{Block, Expr, Handle};

impl<W: Write> Writer<'_, W> {
    /// `R name(params) { locals; body }`.
    pub(super) fn write_native_function(&mut self, f: Func<'_>) -> fmt::Result {
        self.write_head(f, &f.function.name, false)?;
        let level = Level(1);
        shading::write_native_block(self, f, &f.kernel.body, level)?;
        if let Some(ret) = f.kernel.ret {
            // Lanes that never return yield zero, and GLSL wants a return
            // on every path.
            if lower::falls_through(f.kernel, &f.kernel.body) {
                writeln!(self.out, "{level}return {};", zero(ret))?;
            }
        }
        writeln!(self.out, "}}\n")
    }
}

impl<W: Write> Structured for Writer<'_, W> {
    /// An expression kept for its subgroup operations; a pure one has no
    /// effect and is left out.
    fn write_eval(&mut self, f: Func<'_>, value: Handle<Expr>, level: Level) -> fmt::Result {
        if !lower::expr_exchanges(f.kernel, value) {
            return Ok(());
        }
        let temp = self.temp("t");
        let ty = type_name(f.kernel.type_of(value));
        write!(self.out, "{level}{ty} {temp} = ")?;
        self.write_expr(f, value)?;
        writeln!(self.out, ";")
    }

    /// A loop whose continuing block (`next`) runs at the top of every
    /// iteration but the first, where `continue` leads too.
    fn write_loop(&mut self, f: Func<'_>, body: &Block, next: &Block, level: Level) -> fmt::Result {
        let first = (!next.is_empty()).then(|| self.temp("first"));
        if let Some(first) = &first {
            writeln!(self.out, "{level}bool {first} = true;")?;
        }
        writeln!(self.out, "{level}while (true) {{")?;
        let inner = level.next();
        if let Some(first) = &first {
            writeln!(self.out, "{inner}if (!{first}) {{")?;
            shading::write_native_block(self, f, next, inner.next())?;
            writeln!(self.out, "{inner}}}")?;
            writeln!(self.out, "{inner}{first} = false;")?;
        }
        shading::write_native_block(self, f, body, inner)?;
        writeln!(self.out, "{level}}}")
    }
}
