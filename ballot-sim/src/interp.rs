//! An interpreter for [`ballot_ir::ir`]: a second execution of a kernel, written
//! independently of the native code the proc macro generates, so that the two
//! can be compared on the same kernels and inputs.
//!
//! # Execution model
//! Every value is per lane: the interpreter keeps one [`Value`] for each lane
//! of the subgroup and computes only in the lanes active at each point.
//! - A statement runs in the active lanes; once none is left, the rest of the
//!   block is skipped.
//! - [`ir::Stmt::If`] splits the active lanes by its condition and runs
//!   `accept`, then `reject`; a branch no lane takes is skipped entirely.
//! - [`ir::Stmt::Loop`] repeats `body` then `continuing` until every lane
//!   that entered has left through `Break` or `Return`. Lanes that `Break`
//!   wait for the others and carry on after the loop together.
//! - [`ir::Stmt::Return`] removes lanes from the kernel for the rest of its
//!   execution and records their value.
//! - Ballot operations are collectives over the lanes active at the
//!   statement holding them, computed by [`crate::ops`], so they report
//!   undefined behaviour exactly as the simulator does.
//! - A call runs the callee, looked up by the last `::` segment of its path
//!   among the kernels the interpreter was given, with the caller's active
//!   lanes. A `#[uniform]` callee parameter receives the caller's per-lane
//!   values unchanged.
//!
//! The interpreter trusts the IR's typing only as far as it must: an
//! operation applied to values of the wrong type, a dangling handle, a cycle
//! or a read of an unassigned local is reported as
//! [`InterpError::Malformed`], never a panic.
//!
//! ```
//! use ballot_sim::interp::{Arg, Interpreter, Value};
//! use ballot_ir::ir::{Arena, Expr, Kernel, Local, Param, Stmt, Type};
//! use ballot_sim::{Op, Subgroup, SubgroupMask};
//!
//! // fn count(p: bool) -> u32 { subgroup_ballot_bit_count(subgroup_ballot(p)) }
//! let mut locals = Arena::new();
//! let p = locals.append(Local { name: "p".into(), ty: Type::Bool, mutable: false });
//! let mut exprs = Arena::new();
//! let load = exprs.append(Expr::Load(p));
//! let ballot = exprs.append(Expr::Op { op: Op::Ballot, args: vec![load] });
//! let count = exprs.append(Expr::Op { op: Op::BitCount, args: vec![ballot] });
//! let mut stmts = Arena::new();
//! let ret = stmts.append(Stmt::Return(Some(count)));
//! let kernel = Kernel {
//!     name: "count".into(),
//!     params: vec![Param { local: p, uniform: false }],
//!     ret: Some(Type::U32),
//!     locals,
//!     exprs,
//!     expr_types: vec![Type::Bool, Type::Mask, Type::U32],
//!     stmts,
//!     body: vec![ret],
//! };
//!
//! let interp = Interpreter::new([&kernel]);
//! let sg = Subgroup::new(4, [0, 1, 3].into_iter().collect()).unwrap();
//! let p = Arg::PerLane(vec![true.into(), true.into(), true.into(), false.into()]);
//! let out = interp.run("count", &sg, &[p]).unwrap();
//! assert_eq!(out.get(0), Some(&Value::U32(2)));
//! assert_eq!(out.get(2), None); // inactive
//! ```

use std::collections::BTreeMap;

use crate::ops;
use crate::schedule::Scheduler;
use crate::sim::{Dispatch, PerLane, Subgroup, SubgroupSize};
use ballot_ir::error::SimError;
use ballot_ir::ir::{self, BinaryOp, Expr, Handle, Kernel, Literal, MaskFn, Stmt, Type, UnaryOp};
use ballot_ir::mask::SubgroupMask;
use ballot_ir::op::Op;
use ballot_ir::scalar;

#[cfg(test)]
mod tests;

/// The value of one lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A `bool`.
    Bool(bool),
    /// A `u32`.
    U32(u32),
    /// An `i32`.
    I32(i32),
    /// An `f32`.
    F32(f32),
    /// A [`SubgroupMask`].
    Mask(SubgroupMask),
    /// The result of a kernel without a return type.
    Unit,
}

impl From<Literal> for Value {
    fn from(lit: Literal) -> Self {
        match lit {
            Literal::Bool(b) => Value::Bool(b),
            Literal::U32(x) => Value::U32(x),
            Literal::I32(x) => Value::I32(x),
            Literal::F32(x) => Value::F32(x),
            Literal::Mask(m) => Value::Mask(m),
        }
    }
}

impl Value {
    /// The value as an IR literal; `None` for [`Value::Unit`].
    pub const fn literal(self) -> Option<Literal> {
        Some(match self {
            Value::Bool(b) => Literal::Bool(b),
            Value::U32(x) => Literal::U32(x),
            Value::I32(x) => Literal::I32(x),
            Value::F32(x) => Literal::F32(x),
            Value::Mask(m) => Literal::Mask(m),
            Value::Unit => return None,
        })
    }

    /// The IR type of the value; `None` for [`Value::Unit`].
    pub const fn ty(self) -> Option<Type> {
        match self {
            Value::Bool(_) => Some(Type::Bool),
            Value::U32(_) => Some(Type::U32),
            Value::I32(_) => Some(Type::I32),
            Value::F32(_) => Some(Type::F32),
            Value::Mask(_) => Some(Type::Mask),
            Value::Unit => None,
        }
    }

    /// Whether `self` and `other` are the same value, comparing `f32`s by
    /// their bits (so `NaN` equals itself and `0.0` differs from `-0.0`).
    pub fn bit_eq(self, other: Value) -> bool {
        match (self, other) {
            (Value::F32(a), Value::F32(b)) => a.to_bits() == b.to_bits(),
            (a, b) => a == b,
        }
    }
}

/// The conversions between [`Value`] and each scalar it can hold: `From`
/// wraps, `as_*` unwraps. Generated together so that no scalar lacks one.
macro_rules! scalar_conversions {
    ($($variant:ident($ty:ty), $as:ident, $doc:literal;)*) => {
        impl Value {
            $(
                #[doc = $doc]
                pub const fn $as(self) -> Option<$ty> {
                    match self {
                        Value::$variant(x) => Some(x),
                        _ => None,
                    }
                }
            )*
        }

        $(
            impl From<$ty> for Value {
                fn from(x: $ty) -> Self {
                    Value::$variant(x)
                }
            }
        )*
    };
}

scalar_conversions! {
    Bool(bool), as_bool, "The `bool`, if the value is one.";
    U32(u32), as_u32, "The `u32`, if the value is one.";
    I32(i32), as_i32, "The `i32`, if the value is one.";
    F32(f32), as_f32, "The `f32`, if the value is one.";
    Mask(SubgroupMask), as_mask, "The mask, if the value is one.";
}

/// One kernel argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// One value per lane of the subgroup, indexed by lane id (for
    /// [`Interpreter::run_dispatch`]: one per invocation). Entries of
    /// inactive lanes are never read, but must still have the parameter's
    /// type. Only per-lane parameters accept it.
    PerLane(Vec<Value>),
    /// One value for every lane. Accepted by uniform and per-lane
    /// parameters alike.
    Uniform(Value),
}

/// Why an interpreted kernel failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum InterpError {
    /// A ballot operation's result is undefined, or the configuration is
    /// invalid: the simulator's own report.
    #[error(transparent)]
    Sim(#[from] SimError),
    /// No kernel of that name was given to the interpreter.
    #[error("no kernel named `{0}`")]
    UnknownKernel(String),
    /// The kernel was given the wrong number of arguments.
    #[error("kernel `{kernel}` takes {expected} arguments, got {got}")]
    ArgCount {
        /// The kernel run.
        kernel: String,
        /// Its number of parameters.
        expected: usize,
        /// The number of arguments given.
        got: usize,
    },
    /// A per-lane argument does not have one entry per lane.
    #[error("argument {index} of `{kernel}` has {got} entries, expected {expected}")]
    ArgLength {
        /// The kernel run.
        kernel: String,
        /// The argument's position.
        index: usize,
        /// The subgroup size (or invocation count of a dispatch).
        expected: usize,
        /// The number of entries given.
        got: usize,
    },
    /// An argument value does not have the parameter's type.
    #[error("argument {index} of `{kernel}` must be `{expected}`, got {got:?}")]
    ArgType {
        /// The kernel run.
        kernel: String,
        /// The argument's position.
        index: usize,
        /// The parameter's type.
        expected: Type,
        /// The first offending value.
        got: Value,
    },
    /// A `#[uniform]` parameter was given per-lane values.
    #[error("argument {index} of `{kernel}` is uniform but was given per-lane values")]
    PerLaneForUniform {
        /// The kernel run.
        kernel: String,
        /// The argument's position.
        index: usize,
    },
    /// Calls nested deeper than the interpreter allows (recursion).
    #[error("calls nest deeper than {limit} at `{kernel}`")]
    CallDepth {
        /// The kernel whose call exceeded the limit.
        kernel: String,
        /// The limit.
        limit: usize,
    },
    /// More loop iterations ran than [`Interpreter::with_iteration_limit`]
    /// allows.
    #[error("more than {limit} loop iterations in `{kernel}`")]
    IterationLimit {
        /// The kernel whose loop exceeded the limit.
        kernel: String,
        /// The limit.
        limit: u64,
    },
    /// The IR breaks one of its invariants.
    #[error("kernel `{kernel}` is malformed: {reason}")]
    Malformed {
        /// The offending kernel.
        kernel: String,
        /// What is wrong.
        reason: String,
    },
}

/// How deep calls may nest by default: kernels cannot recurse, so anything
/// deeper is a cycle in hand-built IR.
const DEFAULT_CALL_DEPTH: usize = 64;

/// Runs kernels from their IR.
#[derive(Clone, Debug)]
pub struct Interpreter<'k> {
    kernels: BTreeMap<&'k str, &'k Kernel>,
    max_call_depth: usize,
    iteration_limit: Option<u64>,
}

impl<'k> Interpreter<'k> {
    /// An interpreter that can run, and call between, `kernels`. Of two
    /// kernels with one name, the later one is kept.
    pub fn new(kernels: impl IntoIterator<Item = &'k Kernel>) -> Self {
        Self {
            kernels: kernels.into_iter().map(|k| (k.name.as_str(), k)).collect(),
            max_call_depth: DEFAULT_CALL_DEPTH,
            iteration_limit: None,
        }
    }

    /// Fails a run with [`InterpError::IterationLimit`] once more than
    /// `limit` loop iterations (of all loops together, in every call) have
    /// run. Unless set, the limit is the subgroup's step budget
    /// ([`crate::sim::DEFAULT_STEP_BUDGET`] unless the subgroup or dispatch
    /// sets another), as in the generated native code.
    pub fn with_iteration_limit(mut self, limit: u64) -> Self {
        self.iteration_limit = Some(limit);
        self
    }

    /// Fails a run with [`InterpError::CallDepth`] when calls nest deeper
    /// than `depth` (64 unless set).
    pub fn with_call_depth(mut self, depth: usize) -> Self {
        self.max_call_depth = depth;
        self
    }

    /// The kernel called `name`, or the last `::` segment of `name`.
    pub fn kernel(&self, name: &str) -> Option<&'k Kernel> {
        let last = name.rsplit("::").next().unwrap_or(name);
        self.kernels.get(last).copied()
    }

    /// [`Interpreter::kernel`], or the error that names the missing one.
    fn known(&self, name: &str) -> Result<&'k Kernel, InterpError> {
        self.kernel(name)
            .ok_or_else(|| InterpError::UnknownKernel(name.to_owned()))
    }

    /// Runs kernel `name` over `subgroup`, with one [`Arg`] per parameter.
    ///
    /// Returns the value each active lane returned ([`Value::Unit`] for a
    /// kernel without a return type); inactive lanes hold nothing.
    pub fn run(
        &self,
        name: &str,
        subgroup: &Subgroup,
        args: &[Arg],
    ) -> Result<PerLane<Value>, InterpError> {
        let (kernel, lanes) = self.bind(name, args, subgroup.size().as_usize())?;
        self.run_bound(kernel, subgroup, lanes)
    }

    /// Runs kernel `name` over every subgroup of `dispatch`, as
    /// [`Dispatch::run`] lays them out, and gathers one result per
    /// invocation. [`Arg::PerLane`] arguments hold one value per invocation.
    /// The first failing subgroup's error is returned.
    pub fn run_dispatch(
        &self,
        name: &str,
        dispatch: &Dispatch,
        args: &[Arg],
    ) -> Result<Vec<Value>, InterpError> {
        let count = dispatch.invocation_count();
        // Type and length checks once, on the whole dispatch.
        let (kernel, whole) = self.bind(name, args, count)?;
        let size = dispatch.subgroup_size().as_usize();
        let mut out = Vec::with_capacity(count);
        for sg in dispatch.subgroups() {
            let n = sg.subgroup.active().count() as usize;
            let lanes = whole
                .iter()
                .map(|all| {
                    let mut lanes = all[sg.first_invocation..sg.first_invocation + n].to_vec();
                    lanes.resize(size, Value::Unit);
                    lanes
                })
                .collect();
            let result = self.run_bound(kernel, &sg.subgroup, lanes)?;
            out.extend(result.into_vec().into_iter().take(n).flatten());
        }
        Ok(out)
    }

    /// The kernel called `name`, with `args` checked against its parameters
    /// and spread into `len` values per parameter.
    fn bind(
        &self,
        name: &str,
        args: &[Arg],
        len: usize,
    ) -> Result<(&'k Kernel, Vec<Vec<Value>>), InterpError> {
        let kernel = self.known(name)?;
        Ok((kernel, bind_args(kernel, args, len)?))
    }

    /// Runs `kernel` over `subgroup` as a whole run, its parameters bound to
    /// `lanes`: the iteration limit counts afresh, on a stack deep enough
    /// for the deepest kernel within the limits.
    fn run_bound(
        &self,
        kernel: &Kernel,
        subgroup: &Subgroup,
        lanes: Vec<Vec<Value>>,
    ) -> Result<PerLane<Value>, InterpError> {
        let mut fuel = Fuel {
            used: 0,
            limit: self.iteration_limit.unwrap_or(subgroup.step_budget()),
            sched: Scheduler::new(subgroup.schedule(), subgroup.active()),
        };
        ballot_ir::stack::deep(|| self.call(kernel, subgroup, lanes, 0, &mut fuel))
    }

    /// Runs `kernel` with its parameters already bound to per-lane values.
    fn call(
        &self,
        kernel: &Kernel,
        sg: &Subgroup,
        params: Vec<Vec<Value>>,
        depth: usize,
        fuel: &mut Fuel,
    ) -> Result<PerLane<Value>, InterpError> {
        if depth > self.max_call_depth {
            return Err(InterpError::CallDepth {
                kernel: kernel.name.clone(),
                limit: self.max_call_depth,
            });
        }
        check_structure(kernel)?;
        let mut frame = Frame::new(self, kernel, sg.size(), depth, fuel);
        for (param, values) in kernel.params.iter().zip(params) {
            let slot = &mut frame.locals[param.local.index()];
            for lane in sg.active() {
                slot[lane as usize] = Some(values[lane as usize]);
            }
        }
        let fallthrough = frame.block(&kernel.body, sg.active())?;
        frame.finish(sg, fallthrough)
    }
}

/// Checks the arguments against `kernel`'s parameters and spreads them into
/// one vector of `len` values per parameter.
fn bind_args(kernel: &Kernel, args: &[Arg], len: usize) -> Result<Vec<Vec<Value>>, InterpError> {
    if args.len() != kernel.params.len() {
        return Err(InterpError::ArgCount {
            kernel: kernel.name.clone(),
            expected: kernel.params.len(),
            got: args.len(),
        });
    }
    let mut bound = Vec::with_capacity(args.len());
    for (index, (param, arg)) in kernel.params.iter().zip(args).enumerate() {
        let expected = local_type(kernel, param.local)
            .ok_or_else(|| malformed(kernel, format!("parameter {index} has no local")))?;
        let values = match arg {
            Arg::Uniform(v) => vec![*v; len],
            Arg::PerLane(_) if param.uniform => {
                return Err(InterpError::PerLaneForUniform {
                    kernel: kernel.name.clone(),
                    index,
                });
            }
            Arg::PerLane(values) if values.len() != len => {
                return Err(InterpError::ArgLength {
                    kernel: kernel.name.clone(),
                    index,
                    expected: len,
                    got: values.len(),
                });
            }
            Arg::PerLane(values) => values.clone(),
        };
        if let Some(got) = values.iter().find(|v| v.ty() != Some(expected)) {
            return Err(InterpError::ArgType {
                kernel: kernel.name.clone(),
                index,
                expected,
                got: *got,
            });
        }
        bound.push(values);
    }
    Ok(bound)
}

/// The type of `local`, if the handle is in range.
fn local_type(kernel: &Kernel, local: Handle<ir::Local>) -> Option<Type> {
    (local.index() < kernel.locals.len()).then(|| kernel.locals[local].ty)
}

fn malformed(kernel: &Kernel, reason: String) -> InterpError {
    InterpError::Malformed {
        kernel: kernel.name.clone(),
        reason,
    }
}

/// Checks what evaluation relies on to terminate without panicking: handles
/// in range, operands before their users, and statements forming a tree.
fn check_structure(kernel: &Kernel) -> Result<(), InterpError> {
    let bad = |reason: String| Err(malformed(kernel, reason));
    if kernel.expr_types.len() != kernel.exprs.len() {
        return bad(format!(
            "{} expression types for {} expressions",
            kernel.expr_types.len(),
            kernel.exprs.len()
        ));
    }
    let n_locals = kernel.locals.len();
    for param in &kernel.params {
        if param.local.index() >= n_locals {
            return bad(format!("parameter local {:?} is out of range", param.local));
        }
    }
    for (h, expr) in kernel.exprs.iter() {
        let local = match expr {
            Expr::Load(local) => Some(*local),
            _ => None,
        };
        if let Some(op) = expr.operands().iter().find(|op| **op >= h) {
            return bad(format!(
                "operand {op:?} of expression {h:?} does not precede it"
            ));
        }
        if local.is_some_and(|l| l.index() >= n_locals) {
            return bad(format!("expression {h:?} loads a local out of range"));
        }
    }
    let mut seen = vec![false; kernel.stmts.len()];
    let mut pending: Vec<&ir::Block> = vec![&kernel.body];
    while let Some(block) = pending.pop() {
        for &s in block {
            match seen.get_mut(s.index()) {
                None => return bad(format!("statement {s:?} is out of range")),
                Some(true) => return bad(format!("statement {s:?} is used twice")),
                Some(flag) => *flag = true,
            }
            let (exprs, local) = stmt_parts(&kernel.stmts[s]);
            if exprs.iter().any(|e| e.index() >= kernel.exprs.len()) {
                return bad(format!("statement {s:?} uses an expression out of range"));
            }
            if local.is_some_and(|l| l.index() >= n_locals) {
                return bad(format!("statement {s:?} assigns a local out of range"));
            }
            match &kernel.stmts[s] {
                Stmt::If { accept, reject, .. } => pending.extend([accept, reject]),
                Stmt::Loop { body, continuing } => pending.extend([body, continuing]),
                _ => {}
            }
        }
    }
    Ok(())
}

/// The expressions a statement evaluates directly, and the local it writes.
fn stmt_parts(stmt: &Stmt) -> (Vec<Handle<Expr>>, Option<Handle<ir::Local>>) {
    match stmt {
        Stmt::Assign { local, value } => (vec![*value], Some(*local)),
        Stmt::Eval(e) | Stmt::If { cond: e, .. } | Stmt::Return(Some(e)) => (vec![*e], None),
        Stmt::Loop { .. } | Stmt::Break | Stmt::Continue | Stmt::Return(None) => (vec![], None),
    }
}

/// The loop-iteration budget of one run, and its scheduler.
struct Fuel {
    used: u64,
    limit: u64,
    sched: Scheduler,
}

/// Lanes that left the innermost loop so far.
#[derive(Default)]
struct LoopState {
    broken: SubgroupMask,
    continued: SubgroupMask,
    in_continuing: bool,
}

/// One value per lane; entries of lanes that did not compute are
/// [`Value::Unit`].
type Lanes = Vec<Value>;

/// The state of one kernel invocation over a subgroup.
struct Frame<'i, 'k, 'f> {
    interp: &'i Interpreter<'k>,
    kernel: &'i Kernel,
    size: SubgroupSize,
    depth: usize,
    fuel: &'f mut Fuel,
    /// `locals[local][lane]`: `None` until the lane assigns it.
    locals: Vec<Vec<Option<Value>>>,
    /// The value each lane returned, once it has.
    returned: Vec<Option<Value>>,
    loops: Vec<LoopState>,
}

impl<'i, 'k, 'f> Frame<'i, 'k, 'f> {
    fn new(
        interp: &'i Interpreter<'k>,
        kernel: &'i Kernel,
        size: SubgroupSize,
        depth: usize,
        fuel: &'f mut Fuel,
    ) -> Self {
        let n = size.as_usize();
        Self {
            interp,
            kernel,
            size,
            depth,
            fuel,
            locals: vec![vec![None; n]; kernel.locals.len()],
            returned: vec![None; n],
            loops: Vec::new(),
        }
    }

    fn malformed(&self, reason: String) -> InterpError {
        malformed(self.kernel, reason)
    }

    /// Collects each lane's result once the body has run; `fallthrough` are
    /// the lanes that reached its end without returning.
    fn finish(
        self,
        sg: &Subgroup,
        fallthrough: SubgroupMask,
    ) -> Result<PerLane<Value>, InterpError> {
        if self.kernel.ret.is_some() {
            if let Some(lane) = fallthrough.lowest() {
                return Err(self.malformed(format!(
                    "lane {lane} reaches the end of the kernel without returning a value"
                )));
            }
        }
        let returned = self.returned;
        Ok(PerLane::from_fn(sg, |lane| {
            returned[lane as usize].unwrap_or(Value::Unit)
        }))
    }

    /// Runs `block` in `active`; returns the lanes that reach its end.
    fn block(
        &mut self,
        block: &ir::Block,
        mut active: SubgroupMask,
    ) -> Result<SubgroupMask, InterpError> {
        for &stmt in block {
            if active.is_empty() {
                break;
            }
            active = self.stmt(stmt, active)?;
        }
        Ok(active)
    }

    /// Runs one statement in `active`; returns the lanes that carry on after it.
    fn stmt(
        &mut self,
        stmt: Handle<Stmt>,
        active: SubgroupMask,
    ) -> Result<SubgroupMask, InterpError> {
        let kernel = self.kernel;
        match &kernel.stmts[stmt] {
            Stmt::Assign { local, value } => {
                let values = self.eval(*value, active)?;
                let slot = &mut self.locals[local.index()];
                for lane in active {
                    slot[lane as usize] = Some(values[lane as usize]);
                }
                Ok(active)
            }
            Stmt::Eval(expr) => {
                self.eval(*expr, active)?;
                Ok(active)
            }
            Stmt::If {
                cond,
                accept,
                reject,
            } => {
                let cond = self.eval(*cond, active)?;
                let mut taken = SubgroupMask::EMPTY;
                for lane in active {
                    let b = cond[lane as usize].as_bool().ok_or_else(|| {
                        self.malformed(format!("`if` condition in {stmt:?} is not a bool"))
                    })?;
                    taken.set(lane, b);
                }
                let not_taken = active & !taken;
                let uniform = self.fuel.sched.enter(active.bits());
                let mut after = SubgroupMask::EMPTY;
                if !taken.is_empty() {
                    after |= self.block(accept, taken)?;
                }
                if !not_taken.is_empty() {
                    after |= self.block(reject, not_taken)?;
                }
                let bits = (active.bits(), taken.bits(), after.bits());
                self.fuel.sched.join_if(uniform, bits.0, bits.1, bits.2);
                Ok(after)
            }
            Stmt::Loop { body, continuing } => self.run_loop(body, continuing, active),
            Stmt::Break | Stmt::Continue => {
                let is_break = matches!(kernel.stmts[stmt], Stmt::Break);
                let state = self
                    .loops
                    .last_mut()
                    .filter(|state| !state.in_continuing)
                    .ok_or_else(|| malformed(kernel, format!("{stmt:?} is outside a loop body")))?;
                if is_break {
                    state.broken |= active;
                } else {
                    state.continued |= active;
                }
                Ok(SubgroupMask::EMPTY)
            }
            Stmt::Return(value) => {
                let values = match (value, kernel.ret) {
                    (Some(expr), Some(_)) => self.eval(*expr, active)?,
                    (None, None) => vec![Value::Unit; self.size.as_usize()],
                    _ => {
                        return Err(self.malformed(format!(
                            "{stmt:?} does not match the return type {:?}",
                            kernel.ret
                        )))
                    }
                };
                for lane in active {
                    self.returned[lane as usize] = Some(values[lane as usize]);
                }
                Ok(SubgroupMask::EMPTY)
            }
        }
    }

    /// Runs a loop entered by `active`; returns the lanes that leave it by
    /// `Break`, which carry on after it.
    fn run_loop(
        &mut self,
        body: &ir::Block,
        continuing: &ir::Block,
        active: SubgroupMask,
    ) -> Result<SubgroupMask, InterpError> {
        self.loops.push(LoopState::default());
        let uniform = self.fuel.sched.enter(active.bits());
        let mut current = active;
        while !current.is_empty() {
            self.fuel.sched.iterate(active.bits(), current.bits());
            self.fuel.used += 1;
            if self.fuel.used > self.fuel.limit {
                return Err(InterpError::IterationLimit {
                    kernel: self.kernel.name.clone(),
                    limit: self.fuel.limit,
                });
            }
            let fell_through = self.block(body, current)?;
            let state = self.state_mut()?;
            let next = fell_through | core::mem::take(&mut state.continued);
            state.in_continuing = true;
            current = if next.is_empty() {
                next
            } else {
                self.block(continuing, next)?
            };
            self.state_mut()?.in_continuing = false;
        }
        let state = self
            .loops
            .pop()
            .ok_or_else(|| self.malformed("loop state lost".to_owned()))?;
        // Every lane left by `break` or by `return`: the ones that broke
        // carry on.
        let after = state.broken.bits();
        self.fuel.sched.join_loop(uniform, active.bits(), after);
        Ok(state.broken)
    }

    fn state_mut(&mut self) -> Result<&mut LoopState, InterpError> {
        let kernel = self.kernel;
        self.loops
            .last_mut()
            .ok_or_else(|| malformed(kernel, "loop state lost".to_owned()))
    }

    /// Evaluates `expr` in the `active` lanes.
    fn eval(&mut self, expr: Handle<Expr>, active: SubgroupMask) -> Result<Lanes, InterpError> {
        let kernel = self.kernel;
        let n = self.size.as_usize();
        match &kernel.exprs[expr] {
            Expr::Literal(lit) => Ok(vec![Value::from(*lit); n]),
            Expr::Load(local) => {
                let slot = &self.locals[local.index()];
                let mut out = vec![Value::Unit; n];
                for lane in active {
                    out[lane as usize] = slot[lane as usize].ok_or_else(|| {
                        self.malformed(format!(
                            "local `{}` is read before it is assigned in lane {lane}",
                            kernel.locals[*local].name
                        ))
                    })?;
                }
                Ok(out)
            }
            Expr::Unary { op, arg } => {
                let arg = self.eval(*arg, active)?;
                self.lanewise(expr, active, |lane| unary(*op, arg[lane]))
            }
            Expr::Binary { op, left, right } => {
                let left = self.eval(*left, active)?;
                let right = self.eval(*right, active)?;
                self.lanewise(expr, active, |lane| binary(*op, left[lane], right[lane]))
            }
            Expr::Cast { arg, to } => {
                let arg = self.eval(*arg, active)?;
                self.lanewise(expr, active, |lane| cast(arg[lane], *to))
            }
            Expr::Select {
                cond,
                accept,
                reject,
            } => {
                let cond = self.eval(*cond, active)?;
                let accept = self.eval(*accept, active)?;
                let reject = self.eval(*reject, active)?;
                self.lanewise(expr, active, |lane| match cond[lane] {
                    Value::Bool(true) => Some(accept[lane]),
                    Value::Bool(false) => Some(reject[lane]),
                    _ => None,
                })
            }
            Expr::LaneId => self.lanewise(expr, active, |lane| Some(Value::U32(lane as u32))),
            Expr::SubgroupSize => {
                let size = self.size.get();
                Ok(vec![Value::U32(size); n])
            }
            Expr::Mask { fun, args } => {
                let args = self.eval_all(args, active)?;
                self.lanewise(expr, active, |lane| {
                    let at = |i: usize| args.get(i).map(|a: &Lanes| a[lane]);
                    mask_fn(*fun, at(0), at(1))
                })
            }
            Expr::Op { op, args } => self.op(expr, *op, args, active),
            Expr::Call { callee, args } => self.call(callee, args, active),
        }
    }

    fn eval_all(
        &mut self,
        args: &[Handle<Expr>],
        active: SubgroupMask,
    ) -> Result<Vec<Lanes>, InterpError> {
        args.iter().map(|&arg| self.eval(arg, active)).collect()
    }

    /// Computes `expr` lane by lane; `f` answers `None` when the operands
    /// have types the operation does not take.
    fn lanewise(
        &self,
        expr: Handle<Expr>,
        active: SubgroupMask,
        mut f: impl FnMut(usize) -> Option<Value>,
    ) -> Result<Lanes, InterpError> {
        let mut out = vec![Value::Unit; self.size.as_usize()];
        for lane in active {
            out[lane as usize] = f(lane as usize).ok_or_else(|| {
                self.malformed(format!(
                    "expression {expr:?} ({:?}) is applied to operands of the wrong types",
                    self.kernel.exprs[expr]
                ))
            })?;
        }
        Ok(out)
    }

    /// Evaluates ballot operation `op` over the active lanes.
    fn op(
        &mut self,
        expr: Handle<Expr>,
        op: Op,
        args: &[Handle<Expr>],
        active: SubgroupMask,
    ) -> Result<Lanes, InterpError> {
        let kernel = self.kernel;
        let value_ty = args.first().map_or(Type::Bool, |&a| kernel.type_of(a));
        let arity = ir::op_signature(op, value_ty).0.len();
        if args.len() != arity {
            return Err(self.malformed(format!(
                "`{op}` in {expr:?} takes {arity} operands, has {}",
                args.len()
            )));
        }
        let values = self.eval_all(args, active)?;
        let groups = if op.depends_on_lanes() {
            self.fuel.sched.groups(op, active.bits())
        } else {
            None
        };
        let Some(groups) = groups else {
            return self.op_in(expr, op, args, &values, active);
        };
        // Each group executes the operation on its own.
        let mut out = vec![Value::Unit; self.size.as_usize()];
        for group in groups {
            let group = SubgroupMask::from_bits(group);
            let lanes = self.op_in(expr, op, args, &values, group)?;
            for lane in group {
                out[lane as usize] = lanes[lane as usize];
            }
        }
        Ok(out)
    }

    /// Evaluates `op` with operands `values`, executed together by lanes
    /// `active`.
    fn op_in(
        &self,
        expr: Handle<Expr>,
        op: Op,
        args: &[Handle<Expr>],
        values: &[Lanes],
        active: SubgroupMask,
    ) -> Result<Lanes, InterpError> {
        let kernel = self.kernel;
        let sg = Subgroup::from_parts(self.size, active);
        let bad_type = || {
            self.malformed(format!(
                "`{op}` in {expr:?} has an operand of the wrong type"
            ))
        };
        let masks = |i: usize| typed(&values[i], active, Value::as_mask).ok_or_else(bad_type);
        let result: Lanes = match op {
            Op::Ballot => {
                let p = typed(&values[0], active, Value::as_bool).ok_or_else(bad_type)?;
                to_lanes(ops::subgroup_ballot(&sg, &p)?)
            }
            Op::InverseBallot => to_lanes(ops::subgroup_inverse_ballot(&sg, &masks(0)?)?),
            Op::BitExtract => {
                let index = typed(&values[1], active, Value::as_u32).ok_or_else(bad_type)?;
                to_lanes(ops::subgroup_ballot_bit_extract(&sg, &masks(0)?, &index)?)
            }
            Op::BitCount => to_lanes(ops::subgroup_ballot_bit_count(&sg, &masks(0)?)?),
            Op::InclusiveBitCount => {
                to_lanes(ops::subgroup_ballot_inclusive_bit_count(&sg, &masks(0)?)?)
            }
            Op::ExclusiveBitCount => {
                to_lanes(ops::subgroup_ballot_exclusive_bit_count(&sg, &masks(0)?)?)
            }
            Op::FindLsb => to_lanes(ops::subgroup_ballot_find_lsb(&sg, &masks(0)?)?),
            Op::FindMsb => to_lanes(ops::subgroup_ballot_find_msb(&sg, &masks(0)?)?),
            Op::EqMask => to_lanes(ops::subgroup_eq_mask(&sg)),
            Op::GeMask => to_lanes(ops::subgroup_ge_mask(&sg)),
            Op::GtMask => to_lanes(ops::subgroup_gt_mask(&sg)),
            Op::LeMask => to_lanes(ops::subgroup_le_mask(&sg)),
            Op::LtMask => to_lanes(ops::subgroup_lt_mask(&sg)),
            Op::Elect => to_lanes(ops::subgroup_elect(&sg)),
            Op::BroadcastFirst => to_lanes(ops::subgroup_broadcast_first(&sg, &values[0])?),
            Op::Broadcast => {
                // Invariant 8: the id is a literal, the same in every lane.
                let id = match kernel.exprs[args[1]] {
                    Expr::Literal(Literal::U32(id)) => id,
                    _ => {
                        return Err(self.malformed(format!(
                            "the id of `{op}` in {expr:?} is not a `u32` literal"
                        )))
                    }
                };
                to_lanes(ops::subgroup_broadcast(&sg, &values[0], id)?)
            }
            Op::All | Op::Any => {
                let p = typed(&values[0], active, Value::as_bool).ok_or_else(bad_type)?;
                let f = match op {
                    Op::All => ops::subgroup_all,
                    _ => ops::subgroup_any,
                };
                to_lanes(f(&sg, &p)?)
            }
            Op::AllEqual => to_lanes(ops::subgroup_all_equal(&sg, &values[0])?),
            Op::Arith(arith, scan) => match kernel.type_of(args[0]) {
                Type::U32 => {
                    let v = typed(&values[0], active, Value::as_u32).ok_or_else(bad_type)?;
                    to_lanes(ops::subgroup_arithmetic(&sg, arith, scan, &v)?)
                }
                Type::I32 => {
                    let v = typed(&values[0], active, Value::as_i32).ok_or_else(bad_type)?;
                    to_lanes(ops::subgroup_arithmetic(&sg, arith, scan, &v)?)
                }
                Type::F32 => {
                    let v = typed(&values[0], active, Value::as_f32).ok_or_else(bad_type)?;
                    to_lanes(ops::subgroup_arithmetic(&sg, arith, scan, &v)?)
                }
                Type::Bool | Type::Mask => return Err(bad_type()),
            },
            Op::Shuffle | Op::ShuffleXor | Op::ShuffleUp | Op::ShuffleDown => {
                let operand = typed(&values[1], active, Value::as_u32).ok_or_else(bad_type)?;
                let f = match op {
                    Op::Shuffle => ops::subgroup_shuffle,
                    Op::ShuffleXor => ops::subgroup_shuffle_xor,
                    Op::ShuffleUp => ops::subgroup_shuffle_up,
                    _ => ops::subgroup_shuffle_down,
                };
                to_lanes(f(&sg, &values[0], &operand)?)
            }
            Op::QuadBroadcast => {
                // Invariant 8: the index is a literal, the same in every lane.
                let Expr::Literal(Literal::U32(index)) = kernel.exprs[args[1]] else {
                    return Err(self.malformed(format!(
                        "the index of `{op}` in {expr:?} is not a `u32` literal"
                    )));
                };
                to_lanes(ops::subgroup_quad_broadcast(&sg, &values[0], index)?)
            }
            Op::QuadSwap(quad) => to_lanes(ops::subgroup_quad_swap(&sg, &values[0], quad)?),
            Op::Clustered(arith) => {
                // Invariant 8: the cluster size is a literal, the same in
                // every lane.
                let Expr::Literal(Literal::U32(cluster)) = kernel.exprs[args[1]] else {
                    return Err(self.malformed(format!(
                        "the cluster size of `{op}` in {expr:?} is not a `u32` literal"
                    )));
                };
                match kernel.type_of(args[0]) {
                    Type::U32 => {
                        let v = typed(&values[0], active, Value::as_u32).ok_or_else(bad_type)?;
                        to_lanes(ops::subgroup_clustered(&sg, arith, cluster, &v)?)
                    }
                    Type::I32 => {
                        let v = typed(&values[0], active, Value::as_i32).ok_or_else(bad_type)?;
                        to_lanes(ops::subgroup_clustered(&sg, arith, cluster, &v)?)
                    }
                    Type::F32 => {
                        let v = typed(&values[0], active, Value::as_f32).ok_or_else(bad_type)?;
                        to_lanes(ops::subgroup_clustered(&sg, arith, cluster, &v)?)
                    }
                    Type::Bool | Type::Mask => return Err(bad_type()),
                }
            }
        };
        Ok(result)
    }

    /// Runs the kernel `callee` in the active lanes.
    fn call(
        &mut self,
        callee: &str,
        args: &[Handle<Expr>],
        active: SubgroupMask,
    ) -> Result<Lanes, InterpError> {
        let target = self.interp.known(callee)?;
        if target.params.len() != args.len() {
            return Err(InterpError::ArgCount {
                kernel: target.name.clone(),
                expected: target.params.len(),
                got: args.len(),
            });
        }
        let values = self.eval_all(args, active)?;
        for (index, (param, lanes)) in target.params.iter().zip(&values).enumerate() {
            let expected = local_type(target, param.local)
                .ok_or_else(|| malformed(target, format!("parameter {index} has no local")))?;
            if let Some(&got) = active
                .iter()
                .map(|lane| &lanes[lane as usize])
                .find(|v| v.ty() != Some(expected))
            {
                return Err(InterpError::ArgType {
                    kernel: target.name.clone(),
                    index,
                    expected,
                    got,
                });
            }
        }
        let sg = Subgroup::from_parts(self.size, active);
        let result = self
            .interp
            .call(target, &sg, values, self.depth + 1, self.fuel)?;
        Ok(to_lanes(result))
    }
}

/// The typed inputs of a collective: `get` of each active lane's value, and
/// `T::default()` in the inactive lanes, which the operation never reads.
/// `None` if an active lane holds a value of another type.
fn typed<T: Default + Clone>(
    lanes: &[Value],
    active: SubgroupMask,
    get: impl Fn(Value) -> Option<T>,
) -> Option<Vec<T>> {
    let mut out = vec![T::default(); lanes.len()];
    for lane in active {
        out[lane as usize] = get(lanes[lane as usize])?;
    }
    Some(out)
}

fn to_lanes<T: Into<Value>>(per_lane: PerLane<T>) -> Lanes {
    per_lane
        .into_vec()
        .into_iter()
        .map(|v| v.map_or(Value::Unit, Into::into))
        .collect()
}

fn unary(op: UnaryOp, v: Value) -> Option<Value> {
    scalar::unary(op, v.literal()?).map(Value::from)
}

fn binary(op: BinaryOp, l: Value, r: Value) -> Option<Value> {
    scalar::binary(op, l.literal()?, r.literal()?).map(Value::from)
}

fn cast(v: Value, to: Type) -> Option<Value> {
    scalar::cast(v.literal()?, to).map(Value::from)
}

fn mask_fn(fun: MaskFn, a: Option<Value>, b: Option<Value>) -> Option<Value> {
    let args: Option<Vec<Literal>> = [a, b].into_iter().flatten().map(Value::literal).collect();
    scalar::mask_fn(fun, &args?).map(Value::from)
}
