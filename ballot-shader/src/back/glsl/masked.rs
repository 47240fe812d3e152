//! `glsl-no-subgroup`'s kernels: a printer of the if-converted form
//! ([`crate::lower::masked`]). Every invocation runs every step, so that
//! all reach every `barrier()`, and each flag is a `bool` per invocation
//! (`ballot_active`, `ballot_ret`, `ballot_brk<id>`, …). A loop that holds
//! an exchange leaves once `ballot_workgroup_any`, a vote through `shared`
//! memory, finds no invocation of the workgroup active.

use core::fmt::{self, Write};

use super::{Func, Writer};
use crate::back::shading;
use crate::back::Level;

impl<W: Write> Writer<'_, W> {
    /// `R name_masked(bool ballot_active_in, params) { … }`.
    pub(super) fn write_masked_function(&mut self, f: Func<'_>) -> fmt::Result {
        self.write_head(f, &f.function.masked, true)?;
        shading::write_masked_body(self, f, Level(1))?;
        writeln!(self.out, "}}\n")
    }

    /// `R name(params) { return name_masked(true, params); }`: the entry
    /// every invocation calls.
    pub(super) fn write_wrapper(&mut self, f: Func<'_>) -> fmt::Result {
        self.write_signature(f, &f.function.name, false)?;
        let ret = if f.kernel.ret.is_some() {
            "return "
        } else {
            ""
        };
        write!(self.out, " {{\n    {ret}{}(true", f.function.masked)?;
        for param in &f.kernel.params {
            write!(self.out, ", {}", f.function.locals[param.local.index()])?;
        }
        writeln!(self.out, ");\n}}\n")
    }
}
