//! The `glsl-no-subgroup` target's kernels, if-converted: every invocation
//! runs every statement, so that all reach every `barrier()`, and a `bool`
//! activity flag does what the GPU's active mask would. The lane masks of
//! the native simulator (`__active`, `__ret`, `__brk`, `__cont` in
//! [`crate::back::rust`]) become one flag per invocation each, with the
//! same updates.

use core::fmt::{self, Write};

use super::{type_name, Func, Writer};
use crate::back::Level;
use crate::ir::{Block, Expr, Handle, Stmt};
use crate::lower;

/// Where a statement sequence sits, for the invocations a jump removes.
#[derive(Clone)]
struct Flow {
    /// The activity flag of the sequence.
    act: String,
    /// The innermost loop's break and continue flags, in a loop body.
    jumps: Option<(String, String)>,
}

impl Flow {
    /// The invocations that have left the sequence: returned, or broken or
    /// continued out of the loop body it is in.
    fn exited(&self) -> String {
        match &self.jumps {
            Some((brk, cont)) => format!("((ballot_ret || {brk}) || {cont})"),
            None => "ballot_ret".to_string(),
        }
    }
}

impl<W: Write> Writer<'_, W> {
    /// `R name_masked(bool ballot_active_in, params) { … }`.
    pub(super) fn write_masked_function(&mut self, f: Func<'_>) -> fmt::Result {
        self.write_signature(f, &f.function.masked, true)?;
        writeln!(self.out, " {{")?;
        let level = Level(1);
        self.write_locals(f, level)?;
        writeln!(self.out, "{level}bool ballot_active = ballot_active_in;")?;
        writeln!(self.out, "{level}bool ballot_ret = false;")?;
        if let Some(ret) = f.kernel.ret {
            writeln!(
                self.out,
                "{level}{} ballot_result = {};",
                type_name(ret),
                super::zero(ret)
            )?;
        }
        let flow = Flow {
            act: "ballot_active".to_string(),
            jumps: None,
        };
        self.write_masked_block(f, &f.kernel.body, &flow, level)?;
        if f.kernel.ret.is_some() {
            writeln!(self.out, "{level}return ballot_result;")?;
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

    fn write_masked_block(
        &mut self,
        f: Func<'_>,
        block: &Block,
        flow: &Flow,
        level: Level,
    ) -> fmt::Result {
        for &stmt in block {
            self.write_masked_stmt(f, stmt, flow, level)?;
            // A jump itself clears the flag; a statement holding one
            // clears the invocations that took it.
            let jump = matches!(
                f.kernel.stmts[stmt],
                Stmt::Break | Stmt::Continue | Stmt::Return(_)
            );
            if !jump && lower::can_jump(f.kernel, stmt) {
                let act = &flow.act;
                writeln!(self.out, "{level}{act} = ({act} && !{});", flow.exited())?;
            }
        }
        Ok(())
    }

    fn write_masked_stmt(
        &mut self,
        f: Func<'_>,
        stmt: Handle<Stmt>,
        flow: &Flow,
        level: Level,
    ) -> fmt::Result {
        let act = &flow.act;
        match &f.kernel.stmts[stmt] {
            Stmt::Assign { local, value } => {
                let name = &f.function.locals[local.index()];
                self.write_guarded_store(f, name, *value, act, level)
            }
            Stmt::Eval(value) => {
                if lower::expr_exchanges(f.kernel, *value) {
                    self.write_value(f, *value, act, level)?;
                }
                Ok(())
            }
            Stmt::If {
                cond,
                accept,
                reject,
            } => self.write_masked_if(f, *cond, accept, reject, flow, level),
            Stmt::Loop { body, continuing } => {
                self.write_masked_loop(f, body, continuing, flow, level)
            }
            Stmt::Break => self.write_jump(flow, true, level),
            Stmt::Continue => self.write_jump(flow, false, level),
            Stmt::Return(value) => {
                if let Some(value) = value {
                    self.write_guarded_store(f, "ballot_result", *value, act, level)?;
                }
                writeln!(self.out, "{level}ballot_ret = (ballot_ret || {act});")?;
                writeln!(self.out, "{level}{act} = false;")
            }
        }
    }

    /// `break` or `continue`: the active invocations join the loop's flag
    /// and leave the sequence.
    fn write_jump(&mut self, flow: &Flow, brk: bool, level: Level) -> fmt::Result {
        let act = &flow.act;
        // Invariant 6 puts jumps in loop bodies only; elsewhere there is no
        // flag to set.
        if let Some((b, c)) = &flow.jumps {
            let flag = if brk { b } else { c };
            writeln!(self.out, "{level}{flag} = ({flag} || {act});")?;
        }
        writeln!(self.out, "{level}{act} = false;")
    }

    /// `if (act) { name = value; }`, with a value holding collectives
    /// computed first, by every invocation.
    fn write_guarded_store(
        &mut self,
        f: Func<'_>,
        name: &str,
        value: Handle<Expr>,
        act: &str,
        level: Level,
    ) -> fmt::Result {
        if lower::expr_exchanges(f.kernel, value) {
            let temp = self.write_value(f, value, act, level)?;
            return writeln!(self.out, "{level}if ({act}) {{ {name} = {temp}; }}");
        }
        write!(self.out, "{level}if ({act}) {{ {name} = ")?;
        self.write_expr(f, value, act)?;
        writeln!(self.out, "; }}")
    }

    /// `T ballot_tN = value;`, returning the temporary's name.
    fn write_value(
        &mut self,
        f: Func<'_>,
        value: Handle<Expr>,
        act: &str,
        level: Level,
    ) -> Result<String, fmt::Error> {
        let temp = self.temp("t");
        let ty = type_name(f.kernel.type_of(value));
        write!(self.out, "{level}{ty} {temp} = ")?;
        self.write_expr(f, value, act)?;
        writeln!(self.out, ";")?;
        Ok(temp)
    }

    /// Both branches run, each with the invocations that take it.
    fn write_masked_if(
        &mut self,
        f: Func<'_>,
        cond: Handle<Expr>,
        accept: &Block,
        reject: &Block,
        flow: &Flow,
        level: Level,
    ) -> fmt::Result {
        let c = self.temp("c");
        write!(self.out, "{level}bool {c} = ")?;
        self.write_expr(f, cond, &flow.act)?;
        writeln!(self.out, ";")?;
        for (block, taken) in [(accept, c.clone()), (reject, format!("!{c}"))] {
            if block.is_empty() {
                continue;
            }
            let act = self.temp("a");
            writeln!(self.out, "{level}{{")?;
            let inner = level.next();
            writeln!(self.out, "{inner}bool {act} = ({} && {taken});", flow.act)?;
            let branch = Flow {
                act,
                jumps: flow.jumps.clone(),
            };
            self.write_masked_block(f, block, &branch, inner)?;
            writeln!(self.out, "{level}}}")?;
        }
        Ok(())
    }

    /// The activity flag of an iteration, and the loop's exit once no
    /// invocation (of the workgroup when `vote`, else this one) stays.
    fn write_loop_test(
        &mut self,
        staying: &str,
        vote: bool,
        level: Level,
    ) -> Result<String, fmt::Error> {
        let a = self.temp("a");
        writeln!(self.out, "{level}bool {a} = {staying};")?;
        if vote {
            writeln!(self.out, "{level}if (!ballot_any_active({a})) {{ break; }}")?;
        } else {
            writeln!(self.out, "{level}if (!{a}) {{ break; }}")?;
        }
        Ok(a)
    }

    /// A loop that runs while any invocation that entered it is still in
    /// it: decided by the workgroup's vote when the body reaches barriers,
    /// by each invocation alone otherwise.
    fn write_masked_loop(
        &mut self,
        f: Func<'_>,
        body: &Block,
        continuing: &Block,
        flow: &Flow,
        level: Level,
    ) -> fmt::Result {
        let n = self.temps + 1;
        self.temps = n;
        let (entry, brk, cont) = (
            format!("ballot_e{n}"),
            format!("ballot_brk{n}"),
            format!("ballot_cont{n}"),
        );
        writeln!(self.out, "{level}bool {entry} = {};", flow.act)?;
        writeln!(self.out, "{level}bool {brk} = false;")?;
        writeln!(self.out, "{level}while (true) {{")?;
        let inner = level.next();
        let staying = format!("(({entry} && !{brk}) && !ballot_ret)");
        writeln!(self.out, "{inner}bool {cont} = false;")?;
        let vote =
            lower::block_exchanges(f.kernel, body) || lower::block_exchanges(f.kernel, continuing);
        let a = self.write_loop_test(&staying, vote, inner)?;
        let in_body = Flow {
            act: a,
            jumps: Some((brk.clone(), cont)),
        };
        self.write_masked_block(f, body, &in_body, inner)?;
        if !continuing.is_empty() {
            // Invocations that continued rejoin for the continuing block.
            let a = self.temp("a");
            writeln!(self.out, "{inner}bool {a} = {staying};")?;
            let in_continuing = Flow {
                act: a,
                jumps: None,
            };
            self.write_masked_block(f, continuing, &in_continuing, inner)?;
        }
        // Invocations that broke out rejoin after the loop: the flag of the
        // enclosing sequence is still the entry's, and the caller clears
        // the invocations that returned (the loop `can_jump`).
        writeln!(self.out, "{level}}}")
    }
}
