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

use super::Function;
use super::{type_name, Func, Writer};
use crate::back::shading::{self, flag_name, MaskedText, RESULT};
use crate::back::Level;
use crate::ir::{Expr, Handle, Kernel, Type};
use crate::lower::masked::Flag;

impl<'p, W: fmt::Write> Writer<'p, W> {
    /// `fn <name>_masked(ballot_active_in: bool, params...) -> R`.
    pub(super) fn write_masked_function(&mut self, cx: &Func<'p>) -> fmt::Result {
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
        let (active, ret) = (flag_name(Flag::Active), flag_name(Flag::Ret));
        let active_in = flag_name(Flag::ActiveIn);
        writeln!(self.out, "{level}var {active} = {active_in};")?;
        writeln!(self.out, "{level}var {ret} = false;")?;
        if let Some(ty) = kernel.ret {
            writeln!(self.out, "{level}var {RESULT}: {};", type_name(ty))?;
        }
        self.write_locals(cx, level)?;
        shading::write_steps(&mut Steps { writer: self, cx }, &cx.masked.steps, level)?;
        if kernel.ret.is_some() {
            writeln!(self.out, "{level}return {RESULT};")?;
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
}

/// The WGSL spelling of the steps ([`shading::write_steps`]).
struct Steps<'w, 'p, W> {
    writer: &'w mut Writer<'p, W>,
    cx: &'w Func<'p>,
}

impl<W: fmt::Write> MaskedText for Steps<'_, '_, W> {
    const IF_ACTIVE: &'static str = "if ballot_active {";
    const LOOP: &'static str = "loop {";

    fn text(&mut self, text: &str) -> fmt::Result {
        self.writer.out.write_str(text)
    }

    fn declare(&mut self, _: Type, mutable: bool) -> fmt::Result {
        self.text(if mutable { "var " } else { "let " })
    }

    fn expr(&mut self, expr: Handle<Expr>) -> fmt::Result {
        self.writer.write_expr(self.cx, expr)
    }

    fn node(&mut self, expr: Handle<Expr>) -> fmt::Result {
        self.writer.write_collective(self.cx, expr)
    }

    fn function(&self) -> &Function<'_> {
        self.cx.function
    }
}
