//! If-conversion: a kernel's structured control flow as straight-line
//! steps over activity flags, the one form the native simulator and the
//! emulated targets print.
//!
//! On the emulated targets (`glsl-no-subgroup`, `wgsl-no-subgroup`) every
//! invocation of the workgroup must reach every barrier, so every
//! invocation runs every statement, and a per-invocation `bool` says
//! whether it really executes it. The native simulator (`back::rust`) runs
//! all lanes of a subgroup together and tracks the same flags as lane
//! masks. Both print the [`Masked`] form this pass builds; a [`Flag`] is a
//! `bool` in one and a mask in the other, and [`Cond`]'s `&&`, `||` and `!`
//! are the same operations on either.
//!
//! # The form
//! - [`Flag::Active`]: the invocations executing the current step. It
//!   starts as [`Flag::ActiveIn`], the caller's.
//! - A value that holds an exchange, an InverseBallot or a kernel call
//!   has those computed first, by every invocation, each bound to a
//!   temporary ([`Step::Bind`], operands first, in evaluation order); the
//!   value itself is then lane-local. So where one statement holds two
//!   undefined operations, one bound and one lane-local written before it
//!   (`find_msb(m) << subgroup_clustered_xor::<4, _>(x)` in a subgroup of
//!   1), the native simulator reports the bound one, which it computes
//!   first; `ballot_sim::interp`, in the kernel's order, the other. Stores happen
//!   only where `Active` is set ([`Step::Store`]).
//! - `if`: [`Flag::Outer`] saves `Active`, [`Flag::Taken`] holds the
//!   condition; each non-empty branch runs with `Outer && Taken` (or
//!   `!Taken`) as a [`Step::Branch`], and `Active` is `Outer` again after,
//!   less the invocations that jumped out of the sequence.
//! - `break`, `continue` and `return` add the active invocations to
//!   [`Flag::Brk`], [`Flag::Cont`] or [`Flag::Ret`] and clear `Active`.
//!   After any statement that can jump ([`super::can_jump`]), the sequence
//!   drops the invocations that left it ([`Step::SkipRest`] follows).
//! - A loop keeps its entry invocations in [`Flag::Entry`]; every
//!   iteration recomputes `Active` from them and leaves when none is
//!   active ([`Step::Exit`]): of the workgroup, decided by a vote, when the
//!   loop holds an exchange, else of the invocation alone. After the loop,
//!   `Active` is the entry minus the returned invocations.
//!
//! Invocations that never return a value return the zero value.
//!
//! # Invariants
//! 1. Every flag is declared ([`Step::Let`] or [`Step::Var`]) before it is
//!    read, in a scope that encloses every read; only `Var`s, `Active` and
//!    `Ret` are [`Step::Set`]. `Active`, `Ret` and the kernel's result are
//!    declared by the printer, at the top of the function.
//! 2. A [`Step::Bind`] (or the [`Step::Exchange`] holding its ballot)
//!    precedes, in the same sequence or one around it, every step that
//!    reads its temporary; [`Masked::temp`] names it.
//!    Bound expressions are exactly the lane-consulting operations and
//!    calls ([`super::is_bound`]: the exchanges and InverseBallot) of the
//!    statement's values, in the order the kernel evaluates them, and none
//!    of their operands is one that is not bound before them.
//! 3. [`Step::Exit`] and [`Step::SkipRest`] are never inside a
//!    [`Step::Branch`] of the loop or sequence they leave: `Exit` sits
//!    directly in its [`Step::Loop`], `SkipRest` directly in the sequence
//!    it ends.
//! 4. Skipping is an optimisation only: a printer that runs every step
//!    (the emulated targets must, to reach their barriers) computes the
//!    same values, since every store and jump is guarded by `Active`.
//!
//! 5. [`Step::Tangle`] marks every point where lanes may meet again: after
//!    each `if` and loop, and at the top of each iteration, each after the
//!    `Active` it reports; its `Enter` precedes it in the same sequence
//!    (or, for `Iterate`, the sequence around the loop).
//!
//! [`Masked::verify`] checks invariants 1 to 3, and that each
//! [`Step::Tangle`] reads flags in scope.
//!
//! The pass accepts malformed IR without panicking: statements and
//! expressions it cannot reach are left out.

use std::collections::BTreeMap;

use super::{block_exchanges, can_jump, is_bound};
use ballot_ir::ir::{Block, Expr, Handle, Kernel, Local, Stmt};

/// An activity flag: a `bool` per invocation on emulated targets, a lane
/// mask in the native simulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// The invocations executing the current step.
    Active,
    /// The caller's `Active`: the function's first parameter.
    ActiveIn,
    /// The invocations that have returned.
    Ret,
    /// `Active` before the `if` with this id.
    Outer(usize),
    /// The condition of the `if` with this id.
    Taken(usize),
    /// The invocations that entered the loop with this id.
    Entry(usize),
    /// The invocations that broke out of the loop with this id.
    Brk(usize),
    /// The invocations that continued the loop with this id, in the
    /// current iteration.
    Cont(usize),
}

/// A set of invocations, built from flags.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    /// No invocation.
    None,
    /// A flag's invocations.
    Flag(Flag),
    /// The invocations not in a flag (only ever under [`Cond::And`]).
    Not(Flag),
    /// The invocations where a `bool` expression of the kernel holds.
    Expr(Handle<Expr>),
    /// Both.
    And(Box<Cond>, Box<Cond>),
    /// Either.
    Or(Box<Cond>, Box<Cond>),
}

impl Cond {
    fn and(self, other: Cond) -> Cond {
        Cond::And(Box::new(self), Box::new(other))
    }

    fn or(self, other: Cond) -> Cond {
        Cond::Or(Box::new(self), Box::new(other))
    }
}

/// Where a [`Step::Store`] stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    /// A local of the kernel.
    Local(Handle<Local>),
    /// The kernel's result.
    Result,
}

/// One step of an if-converted function.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Declares a flag that keeps its value.
    Let(Flag, Cond),
    /// Declares a flag that later steps set.
    Var(Flag, Cond),
    /// Sets a flag.
    Set(Flag, Cond),
    /// Computes an exchange or a call in every invocation, with `Active`.
    /// `temp` is the temporary that holds its value, `None` for a call
    /// whose value is unused (it may return nothing).
    Bind {
        /// The temporary's number, or none.
        temp: Option<usize>,
        /// The exchange or call.
        expr: Handle<Expr>,
    },
    /// Ballots computed together, with one exchange, in every invocation
    /// with `Active`: only [`super::share`] makes them, for the emulated
    /// targets. Each [`Shared`] is what a [`Step::Bind`] of its ballot
    /// would be; no predicate reads another's value.
    Exchange(Vec<Shared>),
    /// Stores a value in the invocations of `Active`.
    Store {
        /// Where.
        dest: Dest,
        /// What: lane-local once its exchanges are bound.
        value: Handle<Expr>,
    },
    /// Computes a value for nothing but its undefined behaviour, which the
    /// native simulator reports: the statement `expr;`.
    Eval(Handle<Expr>),
    /// Steps that need run only if some invocation is active.
    Branch(Vec<Step>),
    /// Repeats its steps until a [`Step::Exit`] leaves.
    Loop {
        /// The loop's id, as in its flags.
        id: usize,
        /// The steps of one iteration.
        steps: Vec<Step>,
    },
    /// Leaves the innermost loop once no invocation is active: no
    /// invocation of the workgroup when `vote`, else of this invocation.
    /// Each one starts an iteration, which the native simulator counts
    /// against its step budget, or (not `iteration`) the `continuing` part.
    Exit {
        /// Whether the whole workgroup decides together.
        vote: bool,
        /// Whether this test starts an iteration.
        iteration: bool,
    },
    /// Leaves the enclosing sequence if no invocation is active; a printer
    /// that runs every step prints nothing.
    SkipRest,
    /// A point where lanes may meet again, for a schedule that models
    /// weaker reconvergence than maximal (`ballot_sim::schedule`). Targets whose
    /// exchanges see exactly the `Active` flags print nothing.
    Tangle(Tangle),
}

/// One ballot or vote of a [`Step::Exchange`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shared {
    /// The temporary that holds its value.
    pub temp: usize,
    /// The ballot or vote ([`super::share::flag_of`]).
    pub expr: Handle<Expr>,
    /// Its slot of the exchange memory, shared by those of the same flag.
    pub slot: usize,
}

/// Where lanes may reconverge: the events a `ballot_sim::schedule::Scheduler`
/// follows. Each names its `if` or loop by id, whose flags are in scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tangle {
    /// Before the `if` or loop with this id: whether its lanes enter it in
    /// uniform control flow, kept for its end.
    Enter(usize),
    /// After the `if` with this id, `Active` set to the lanes that stay.
    JoinIf(usize),
    /// At the top of an iteration of the loop with this id, `Active` set.
    Iterate(usize),
    /// After the loop with this id, `Active` set to the lanes that stay.
    JoinLoop(usize),
}

/// A kernel, if-converted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Masked {
    /// The function's steps, after the declarations of invariant 1.
    pub steps: Vec<Step>,
    /// The temporary each bound expression is in.
    temps: BTreeMap<Handle<Expr>, usize>,
}

impl Masked {
    /// The temporary that holds `expr`'s value, if it is bound to one.
    pub fn temp(&self, expr: Handle<Expr>) -> Option<usize> {
        self.temps.get(&expr).copied()
    }
}

impl Masked {
    /// Checks invariants 1 to 3 of the [module](self) on `self`, the form
    /// of `kernel`: the first violation, in words, if any. The printers
    /// rely on them; the tests check every lowered kernel with this.
    pub fn verify(&self, kernel: &Kernel) -> Result<(), String> {
        let mut verifier = Verifier {
            kernel,
            masked: self,
            scopes: vec![Scope {
                flags: vec![
                    (Flag::Active, true),
                    (Flag::ActiveIn, false),
                    (Flag::Ret, true),
                ],
                temps: Vec::new(),
            }],
        };
        verifier.sequence(&self.steps, Place::Sequence)
    }
}

/// What directly holds the steps being verified.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// A sequence: the function's, or a branch's.
    Sequence,
    /// A loop.
    Loop,
}

/// The flags (and whether each may be set) and temporaries declared in one
/// block.
struct Scope {
    flags: Vec<(Flag, bool)>,
    temps: Vec<Handle<Expr>>,
}

struct Verifier<'a> {
    kernel: &'a Kernel,
    masked: &'a Masked,
    scopes: Vec<Scope>,
}

impl Verifier<'_> {
    fn flag(&self, flag: Flag) -> Option<bool> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.flags.iter().rev())
            .find(|(f, _)| *f == flag)
            .map(|&(_, settable)| settable)
    }

    fn sequence(&mut self, steps: &[Step], place: Place) -> Result<(), String> {
        self.scopes.push(Scope {
            flags: Vec::new(),
            temps: Vec::new(),
        });
        let verified = steps.iter().try_for_each(|step| self.step(step, place));
        self.scopes.pop();
        verified
    }

    fn step(&mut self, step: &Step, place: Place) -> Result<(), String> {
        match step {
            Step::Let(flag, cond) | Step::Var(flag, cond) => {
                self.cond(cond)?;
                let scope = self.scopes.last_mut().expect("a scope per sequence");
                scope.flags.push((*flag, matches!(step, Step::Var(..))));
            }
            Step::Set(flag, cond) => {
                self.cond(cond)?;
                match self.flag(*flag) {
                    Some(true) => {}
                    Some(false) => return Err(format!("{flag:?} is set but was declared by Let")),
                    None => return Err(format!("{flag:?} is set before it is declared")),
                }
            }
            Step::Bind { temp, expr } => {
                self.value(*expr, true)?;
                if temp.is_some() != self.masked.temp(*expr).is_some() {
                    return Err(format!("the temporary of {expr:?} is not the one recorded"));
                }
                let scope = self.scopes.last_mut().expect("a scope per sequence");
                scope.temps.push(*expr);
            }
            Step::Exchange(shared) => {
                // Every predicate is read before any value is bound.
                for s in shared {
                    self.value(s.expr, true)?;
                    if self.masked.temp(s.expr) != Some(s.temp) {
                        return Err(format!(
                            "the temporary of {:?} is not the one recorded",
                            s.expr
                        ));
                    }
                }
                let scope = self.scopes.last_mut().expect("a scope per sequence");
                scope.temps.extend(shared.iter().map(|s| s.expr));
            }
            Step::Store { value, .. } | Step::Eval(value) => self.value(*value, false)?,
            Step::Branch(steps) => self.sequence(steps, Place::Sequence)?,
            Step::Loop { steps, .. } => self.sequence(steps, Place::Loop)?,
            Step::Exit { .. } if place != Place::Loop => {
                return Err("a loop exit outside its loop's own steps".to_string())
            }
            Step::SkipRest if place != Place::Sequence => {
                return Err("a skip in a loop's own steps".to_string())
            }
            Step::Tangle(event) => {
                let needs: &[Flag] = match *event {
                    Tangle::Enter(_) => &[],
                    Tangle::JoinIf(id) => &[Flag::Outer(id), Flag::Taken(id)],
                    Tangle::Iterate(id) | Tangle::JoinLoop(id) => &[Flag::Entry(id)],
                };
                if let Some(flag) = needs.iter().find(|&&f| self.flag(f).is_none()) {
                    return Err(format!("{event:?} reads {flag:?} before it is declared"));
                }
            }
            Step::Exit { .. } | Step::SkipRest => {}
        }
        Ok(())
    }

    fn cond(&self, cond: &Cond) -> Result<(), String> {
        match cond {
            Cond::None => Ok(()),
            Cond::Flag(flag) | Cond::Not(flag) => match self.flag(*flag) {
                Some(_) => Ok(()),
                None => Err(format!("{flag:?} is read before it is declared")),
            },
            Cond::Expr(expr) => self.value(*expr, false),
            Cond::And(a, b) | Cond::Or(a, b) => {
                self.cond(a)?;
                self.cond(b)
            }
        }
    }

    /// Checks that every bound operation in `expr`'s tree is bound in
    /// scope; `root` is the one a [`Step::Bind`] computes itself.
    fn value(&self, expr: Handle<Expr>, root: bool) -> Result<(), String> {
        let Some(e) = self.kernel.exprs.get(expr) else {
            return Err(format!("{expr:?} is not in the kernel"));
        };
        if !root && is_bound(e) {
            let bound = self.scopes.iter().any(|s| s.temps.contains(&expr));
            return match (bound, self.masked.temp(expr)) {
                (true, Some(_)) => Ok(()),
                _ => Err(format!(
                    "the bound operation {expr:?} is read but not bound in scope"
                )),
            };
        }
        e.operands()
            .into_iter()
            .try_for_each(|operand| self.value(operand, false))
    }
}

/// If-converts `kernel`.
pub fn if_convert(kernel: &Kernel) -> Masked {
    let mut lowering = Lowering {
        kernel,
        next: 0,
        loops: Vec::new(),
        temps: BTreeMap::new(),
    };
    let steps = lowering.sequence(&kernel.body, Ctx::Kernel);
    Masked {
        steps,
        temps: lowering.temps,
    }
}

/// Where a sequence sits, for the invocations a jump removes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// Directly in the kernel, outside any loop.
    Kernel,
    /// In a loop's body.
    LoopBody,
    /// In a loop's `continuing` block, where only `return` can jump.
    Continuing,
}

struct Lowering<'k> {
    kernel: &'k Kernel,
    /// The last id handed out, to ifs, loops and temporaries alike.
    next: usize,
    /// The ids of the enclosing loops, innermost last.
    loops: Vec<usize>,
    temps: BTreeMap<Handle<Expr>, usize>,
}

impl Lowering<'_> {
    fn fresh(&mut self) -> usize {
        self.next += 1;
        self.next
    }

    /// The flags of the invocations that have jumped out of a sequence in
    /// `ctx`.
    fn exited(&self, ctx: Ctx) -> Vec<Flag> {
        match (ctx, self.loops.last()) {
            (Ctx::LoopBody, Some(&id)) => vec![Flag::Ret, Flag::Brk(id), Flag::Cont(id)],
            _ => vec![Flag::Ret],
        }
    }

    /// `flag`'s invocations that have not jumped out of a sequence in
    /// `ctx`.
    fn staying(&self, flag: Flag, ctx: Ctx) -> Cond {
        self.exited(ctx)
            .into_iter()
            .fold(Cond::Flag(flag), |c, f| c.and(Cond::Not(f)))
    }

    fn sequence(&mut self, block: &Block, ctx: Ctx) -> Vec<Step> {
        let mut steps = Vec::new();
        for &stmt in block {
            self.stmt(stmt, ctx, &mut steps);
            if !can_jump(self.kernel, stmt) {
                continue;
            }
            // A jump clears `Active` itself, and an `if` restores it less
            // the invocations that left; after a loop, they leave here.
            if matches!(self.kernel.stmts.get(stmt), Some(Stmt::Loop { .. })) {
                let staying = self.staying(Flag::Active, ctx);
                steps.push(Step::Set(Flag::Active, staying));
            }
            steps.push(Step::SkipRest);
        }
        steps
    }

    fn stmt(&mut self, stmt: Handle<Stmt>, ctx: Ctx, out: &mut Vec<Step>) {
        let Some(s) = self.kernel.stmts.get(stmt) else {
            return;
        };
        match s {
            Stmt::Assign { local, value } => {
                self.bind(*value, out);
                out.push(Step::Store {
                    dest: Dest::Local(*local),
                    value: *value,
                });
            }
            Stmt::Eval(value) => {
                if matches!(self.kernel.exprs.get(*value), Some(Expr::Call { .. })) {
                    // A call made for its effects, which may return
                    // nothing: no temporary.
                    self.bind_operands(*value, out);
                    out.push(Step::Bind {
                        temp: None,
                        expr: *value,
                    });
                } else {
                    self.bind(*value, out);
                    out.push(Step::Eval(*value));
                }
            }
            Stmt::If {
                cond,
                accept,
                reject,
            } => {
                self.bind(*cond, out);
                let id = self.fresh();
                out.push(Step::Let(Flag::Outer(id), Cond::Flag(Flag::Active)));
                out.push(Step::Let(Flag::Taken(id), Cond::Expr(*cond)));
                out.push(Step::Tangle(Tangle::Enter(id)));
                for (block, taken) in [
                    (accept, Cond::Flag(Flag::Taken(id))),
                    (reject, Cond::Not(Flag::Taken(id))),
                ] {
                    if block.is_empty() {
                        continue;
                    }
                    out.push(Step::Set(
                        Flag::Active,
                        Cond::Flag(Flag::Outer(id)).and(taken),
                    ));
                    let steps = self.sequence(block, ctx);
                    out.push(Step::Branch(steps));
                }
                let after = if can_jump(self.kernel, stmt) {
                    self.staying(Flag::Outer(id), ctx)
                } else {
                    Cond::Flag(Flag::Outer(id))
                };
                out.push(Step::Set(Flag::Active, after));
                out.push(Step::Tangle(Tangle::JoinIf(id)));
            }
            Stmt::Loop { body, continuing } => self.lower_loop(body, continuing, out),
            Stmt::Break | Stmt::Continue => {
                // Invariant 6 puts jumps in loop bodies only; elsewhere
                // there is no flag to set.
                if let Some(&id) = self.loops.last() {
                    let flag = if matches!(s, Stmt::Break) {
                        Flag::Brk(id)
                    } else {
                        Flag::Cont(id)
                    };
                    out.push(Step::Set(
                        flag,
                        Cond::Flag(flag).or(Cond::Flag(Flag::Active)),
                    ));
                }
                out.push(Step::Set(Flag::Active, Cond::None));
            }
            Stmt::Return(value) => {
                if let Some(value) = value {
                    self.bind(*value, out);
                    out.push(Step::Store {
                        dest: Dest::Result,
                        value: *value,
                    });
                }
                out.push(Step::Set(
                    Flag::Ret,
                    Cond::Flag(Flag::Ret).or(Cond::Flag(Flag::Active)),
                ));
                out.push(Step::Set(Flag::Active, Cond::None));
            }
        }
    }

    fn lower_loop(&mut self, body: &Block, continuing: &Block, out: &mut Vec<Step>) {
        let id = self.fresh();
        let kernel = self.kernel;
        let vote = block_exchanges(kernel, body) || block_exchanges(kernel, continuing);
        let staying = Cond::Flag(Flag::Entry(id))
            .and(Cond::Not(Flag::Brk(id)))
            .and(Cond::Not(Flag::Ret));
        out.push(Step::Let(Flag::Entry(id), Cond::Flag(Flag::Active)));
        out.push(Step::Var(Flag::Brk(id), Cond::None));
        out.push(Step::Var(Flag::Cont(id), Cond::None));
        out.push(Step::Tangle(Tangle::Enter(id)));
        let mut steps = vec![
            Step::Set(Flag::Cont(id), Cond::None),
            Step::Set(Flag::Active, staying.clone()),
            Step::Exit {
                vote,
                iteration: true,
            },
            Step::Tangle(Tangle::Iterate(id)),
        ];
        self.loops.push(id);
        steps.push(Step::Branch(self.sequence(body, Ctx::LoopBody)));
        if !continuing.is_empty() {
            // Invocations that continued rejoin for the continuing block.
            steps.push(Step::Set(Flag::Active, staying));
            steps.push(Step::Branch(self.sequence(continuing, Ctx::Continuing)));
        }
        self.loops.pop();
        out.push(Step::Loop { id, steps });
        // Invocations that broke out rejoin after the loop.
        out.push(Step::Set(
            Flag::Active,
            Cond::Flag(Flag::Entry(id)).and(Cond::Not(Flag::Ret)),
        ));
        out.push(Step::Tangle(Tangle::JoinLoop(id)));
    }

    /// Binds the operations ([`is_bound`]) and calls of `expr`'s tree,
    /// operands first.
    fn bind(&mut self, expr: Handle<Expr>, out: &mut Vec<Step>) {
        let Some(e) = self.kernel.exprs.get(expr) else {
            return;
        };
        self.bind_operands(expr, out);
        if is_bound(e) {
            let temp = self.fresh();
            self.temps.insert(expr, temp);
            out.push(Step::Bind {
                temp: Some(temp),
                expr,
            });
        }
    }

    fn bind_operands(&mut self, expr: Handle<Expr>, out: &mut Vec<Step>) {
        let Some(e) = self.kernel.exprs.get(expr) else {
            return;
        };
        for operand in e.operands() {
            // Operands precede their users (IR invariant 2); anything else
            // is malformed and left alone rather than followed in a cycle.
            if operand < expr {
                self.bind(operand, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lowered(source: &str) -> (Kernel, Masked) {
        let kernel = ballot_front::lower_source(source)
            .expect("the kernel lowers")
            .kernel;
        let masked = if_convert(&kernel);
        (kernel, masked)
    }

    /// Every kind of statement, nested: the form keeps its invariants.
    #[test]
    fn nested_control_flow_keeps_the_invariants() {
        let (kernel, masked) = lowered(
            "fn k(n: u32, p: bool) -> u32 {
                let mut total = 0u32;
                let mut i = 0u32;
                loop {
                    if i >= n { break; }
                    i += 1;
                    if subgroup_elect() { continue; }
                    if p { return subgroup_ballot_bit_count(subgroup_ballot(true)); }
                    total += subgroup_broadcast_first(i);
                }
                while total > 3 { total -= 1; }
                total
            }",
        );
        assert_eq!(masked.verify(&kernel), Ok(()));
        let steps = format!("{:?}", masked.steps);
        // One vote for the loop holding exchanges, none for the other.
        assert_eq!(steps.matches("vote: true").count(), 1, "{steps}");
        assert_eq!(steps.matches("vote: false").count(), 1, "{steps}");
    }

    /// The verifier rejects what the printers could not print.
    #[test]
    fn the_verifier_finds_broken_forms() {
        let (kernel, masked) = lowered(
            "fn k(p: bool) -> u32 {
                if p { return 1u32; }
                subgroup_ballot_bit_count(subgroup_ballot(p))
            }",
        );
        assert_eq!(masked.verify(&kernel), Ok(()));
        // A flag read before its declaration.
        let mut broken = masked.clone();
        broken
            .steps
            .insert(0, Step::Set(Flag::Active, Cond::Flag(Flag::Outer(99))));
        assert!(broken.verify(&kernel).unwrap_err().contains("Outer(99)"));
        // A `Let` flag set later.
        let mut broken = masked.clone();
        broken.steps.push(Step::Let(Flag::Taken(98), Cond::None));
        broken.steps.push(Step::Set(Flag::Taken(98), Cond::None));
        assert!(broken
            .verify(&kernel)
            .unwrap_err()
            .contains("declared by Let"));
        // An exchange read without its binding.
        let mut broken = masked.clone();
        broken.steps.retain(|s| !matches!(s, Step::Bind { .. }));
        assert!(broken.verify(&kernel).unwrap_err().contains("not bound"));
        // A loop exit outside a loop.
        let mut broken = masked;
        broken.steps.push(Step::Exit {
            vote: false,
            iteration: true,
        });
        assert!(broken.verify(&kernel).unwrap_err().contains("loop exit"));
    }
}
