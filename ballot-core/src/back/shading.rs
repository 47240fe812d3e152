//! What GLSL and WGSL print alike: the if-converted form of the emulated
//! targets ([`crate::lower::masked`]), whose flags are a `bool` per
//! invocation in both. Each language supplies its spelling through
//! [`MaskedText`]; the walk over the steps is written once.

use core::fmt;

use super::namer::Function;
use super::Level;
use crate::ir::{Expr, Handle, Local, Type};
use crate::lower::helpers::Helper;
use crate::lower::masked::{Cond, Dest, Flag, Step};

/// How one shading language spells the parts of an if-converted function
/// that differ between GLSL and WGSL.
pub(crate) trait MaskedText {
    /// `if ballot_active {` in WGSL, `if (ballot_active) {` in GLSL.
    const IF_ACTIVE: &'static str;
    /// The head of an endless loop.
    const LOOP: &'static str;

    /// Writes text.
    fn text(&mut self, text: &str) -> fmt::Result;
    /// Writes the start of a declaration of a `ty` variable: `let ` or
    /// `var ` (`mutable`) in WGSL, the type in GLSL.
    fn declare(&mut self, ty: Type, mutable: bool) -> fmt::Result;
    /// Writes a kernel expression, or the temporary it is bound to.
    fn expr(&mut self, expr: Handle<Expr>) -> fmt::Result;
    /// Writes a bound exchange or call itself.
    fn node(&mut self, expr: Handle<Expr>) -> fmt::Result;
    /// The function being written, with its names.
    fn function(&self) -> &Function<'_>;
}

/// The type of a kernel expression of `w`'s function.
fn type_of<T: MaskedText>(w: &T, expr: Handle<Expr>) -> Type {
    w.function()
        .kernel()
        .map_or(Type::Bool, |kernel| kernel.type_of(expr))
}

/// The name of a local of `w`'s function.
fn local<T: MaskedText>(w: &T, local: Handle<Local>) -> String {
    w.function()
        .locals
        .get(local.index())
        .map_or_else(|| "ballot_malformed".to_string(), Clone::clone)
}

/// The variable of a flag.
pub(crate) fn flag_name(flag: Flag) -> String {
    match flag {
        Flag::Active => "ballot_active".to_string(),
        Flag::ActiveIn => "ballot_active_in".to_string(),
        Flag::Ret => "ballot_ret".to_string(),
        Flag::Outer(id) => format!("ballot_outer{id}"),
        Flag::Taken(id) => format!("ballot_taken{id}"),
        Flag::Entry(id) => format!("ballot_entry{id}"),
        Flag::Brk(id) => format!("ballot_brk{id}"),
        Flag::Cont(id) => format!("ballot_cont{id}"),
    }
}

/// The variable of a bound value.
pub(crate) fn temp_name(temp: usize) -> String {
    format!("ballot_t{temp}")
}

/// The variable holding the kernel's result.
pub(crate) const RESULT: &str = "ballot_ret_val";

/// Writes `steps`, one per line (blocks over several), at `level`.
pub(crate) fn write_steps<T: MaskedText>(w: &mut T, steps: &[Step], level: Level) -> fmt::Result {
    steps.iter().try_for_each(|step| write_step(w, step, level))
}

fn write_step<T: MaskedText>(w: &mut T, step: &Step, level: Level) -> fmt::Result {
    let indent = level.to_string();
    match step {
        Step::Let(flag, cond) | Step::Var(flag, cond) | Step::Set(flag, cond) => {
            w.text(&indent)?;
            if !matches!(step, Step::Set(..)) {
                w.declare(Type::Bool, matches!(step, Step::Var(..)))?;
            }
            w.text(&flag_name(*flag))?;
            w.text(" = ")?;
            write_cond(w, cond)?;
            w.text(";\n")
        }
        Step::Bind { temp, expr } => {
            w.text(&indent)?;
            if let Some(temp) = temp {
                w.declare(type_of(w, *expr), false)?;
                w.text(&temp_name(*temp))?;
                w.text(" = ")?;
            }
            w.node(*expr)?;
            w.text(";\n")
        }
        Step::Store { dest, value } => {
            let dest = match dest {
                Dest::Local(l) => local(w, *l),
                Dest::Result => RESULT.to_string(),
            };
            w.text(&format!("{indent}{} {dest} = ", T::IF_ACTIVE))?;
            w.expr(*value)?;
            w.text("; }\n")
        }
        // Lane-local values have no effect here, and undefined cases a
        // documented result; every step runs, so that every invocation
        // reaches every barrier.
        Step::Eval(_) | Step::SkipRest => Ok(()),
        Step::Branch(steps) | Step::Loop { steps, .. } => {
            let open = if matches!(step, Step::Branch(_)) {
                "{"
            } else {
                T::LOOP
            };
            w.text(&format!("{indent}{open}\n"))?;
            write_steps(w, steps, level.next())?;
            w.text(&format!("{indent}}}\n"))
        }
        Step::Exit { vote, .. } => {
            let test = if *vote {
                let any = Helper::call_name(Some(Helper::WorkgroupAny));
                format!("{any}({})", flag_name(Flag::Active))
            } else {
                flag_name(Flag::Active)
            };
            w.text(&format!("{indent}if (!{test}) {{ break; }}\n"))
        }
    }
}

/// Writes a set of invocations as a `bool`, fully parenthesised: GLSL and
/// WGSL spell `&&`, `||` and `!` alike.
fn write_cond<T: MaskedText>(w: &mut T, cond: &Cond) -> fmt::Result {
    match cond {
        Cond::None => w.text("false"),
        Cond::Flag(flag) => w.text(&flag_name(*flag)),
        Cond::Not(flag) => w.text(&format!("!{}", flag_name(*flag))),
        Cond::Expr(e) => w.expr(*e),
        Cond::And(a, b) | Cond::Or(a, b) => {
            let op = if matches!(cond, Cond::And(..)) {
                " && "
            } else {
                " || "
            };
            w.text("(")?;
            write_cond(w, a)?;
            w.text(op)?;
            write_cond(w, b)?;
            w.text(")")
        }
    }
}
