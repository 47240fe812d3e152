//! `glsl-no-subgroup`'s kernels: a printer of the if-converted form
//! ([`crate::lower::masked`]). Every invocation runs every step, so that
//! all reach every `barrier()`, and each flag is a `bool` per invocation
//! (`ballot_active`, `ballot_ret`, `ballot_brk<id>`, …). A loop that holds
//! an exchange leaves once `ballot_workgroup_any`, a vote through `shared`
//! memory, finds no invocation of the workgroup active.

use core::fmt::{self, Write};

use super::Function;
use super::{type_name, zero, Func, Writer};
use crate::back::shading::{self, flag_name, MaskedText, RESULT};
use crate::back::Level;
use crate::ir::{Expr, Handle, Type};
use crate::lower::masked::Flag;

impl<W: Write> Writer<'_, W> {
    /// `R name_masked(bool ballot_active_in, params) { … }`.
    pub(super) fn write_masked_function(&mut self, f: Func<'_>) -> fmt::Result {
        self.write_signature(f, &f.function.masked, true)?;
        writeln!(self.out, " {{")?;
        let level = Level(1);
        self.write_locals(f, level)?;
        let (active, ret) = (flag_name(Flag::Active), flag_name(Flag::Ret));
        let active_in = flag_name(Flag::ActiveIn);
        writeln!(self.out, "{level}bool {active} = {active_in};")?;
        writeln!(self.out, "{level}bool {ret} = false;")?;
        if let Some(ty) = f.kernel.ret {
            writeln!(
                self.out,
                "{level}{} {RESULT} = {};",
                type_name(ty),
                zero(ty)
            )?;
        }
        if let Some(masked) = f.masked {
            shading::write_steps(&mut Steps { writer: self, f }, &masked.steps, level)?;
        }
        if f.kernel.ret.is_some() {
            writeln!(self.out, "{level}return {RESULT};")?;
        }
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

/// The GLSL spelling of the steps ([`shading::write_steps`]).
struct Steps<'w, 'a, 'f, W> {
    writer: &'w mut Writer<'a, W>,
    f: Func<'f>,
}

impl<W: Write> MaskedText for Steps<'_, '_, '_, W> {
    const IF_ACTIVE: &'static str = "if (ballot_active) {";
    const LOOP: &'static str = "while (true) {";

    fn text(&mut self, text: &str) -> fmt::Result {
        self.writer.out.write_str(text)
    }

    // GLSL's `const` wants a constant initialiser: every flag is a plain
    // variable.
    fn declare(&mut self, ty: Type, _: bool) -> fmt::Result {
        write!(self.writer.out, "{} ", type_name(ty))
    }

    fn expr(&mut self, expr: Handle<Expr>) -> fmt::Result {
        self.writer.write_expr(self.f, expr)
    }

    fn node(&mut self, expr: Handle<Expr>) -> fmt::Result {
        self.writer.write_node(self.f, expr)
    }

    fn function(&self) -> &Function<'_> {
        self.f.function
    }
}
