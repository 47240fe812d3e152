//! `wgsl-no-subgroup`'s kernels: a printer of the if-converted form
//! ([`crate::lower::masked`]).
//!
//! The emulated subgroup exchanges values through workgroup memory between
//! barriers, and a barrier must be reached by every invocation of the
//! workgroup, in uniform control flow. So a kernel becomes
//! `fn <name>_masked(ballot_active_in: bool, params...)` whose steps run in
//! every invocation; each flag is a `bool` (`ballot_active`, `ballot_ret`,
//! `ballot_brk<id>`, …). A loop that holds an exchange leaves only when no
//! invocation of the workgroup is active: `ballot_workgroup_any` votes and
//! reads the answer with `workgroupUniformLoad`, so the exit is uniform for
//! naga's and Tint's analyses.

use core::fmt;

use super::{Func, Writer};
use crate::back::shading;
use crate::back::Level;

impl<W: fmt::Write> Writer<'_, W> {
    /// `fn <name>_masked(ballot_active_in: bool, params...) -> R`.
    pub(super) fn write_masked_function(&mut self, cx: Func<'_>) -> fmt::Result {
        writeln!(
            self.out,
            "// `{}` if-converted: every invocation runs every statement, and\n\
             // ballot_active says which really do. Called in uniform control flow.",
            cx.function.name
        )?;
        self.write_head(cx, &cx.function.masked, true)?;
        shading::write_masked_body(self, cx, Level(1))?;
        self.out.write_str("}\n")
    }

    /// The public function: the kernel with every invocation active.
    pub(super) fn write_wrapper(&mut self, cx: Func<'_>) -> fmt::Result {
        writeln!(
            self.out,
            "\n// Call in every invocation of the workgroup, in uniform control flow."
        )?;
        self.write_signature(&cx.function.name, cx, false)?;
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
}
