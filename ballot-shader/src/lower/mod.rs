//! The shared lowering: everything the printers need beyond the IR,
//! computed once, by one definition, for every backend.
//!
//! It sits between the IR and the printers (`back::rust`, `back::glsl`,
//! `back::wgsl`), which only print what it decides:
//! - [`calls`]: which functions a module holds, in which order, and what
//!   each call calls;
//! - [`masked`]: the if-conversion, the one form that the native code and
//!   both emulated targets print;
//! - [`share`]: on the emulated targets, consecutive ballots share one
//!   exchange, and so one barrier;
//! - [`helpers`]: the helper registry: which generated functions a module
//!   needs, with what each of them needs, in writing order;
//! - [`fold`]: constant folding with the IR's scalar rules.
//!
//! Here too, the control-flow facts those passes rest on:
//! - which operations exchange values between lanes ([`exchanges`]), and so
//!   meet the workgroup at a barrier on the emulated targets;
//! - which expressions, statements and blocks hold such an exchange or a
//!   kernel call ([`expr_exchanges`], [`stmt_exchanges`],
//!   [`block_exchanges`]), and which loops must therefore leave together
//!   ([`has_exchanging_loop`]);
//! - which statements can take lanes out of the sequence they are in
//!   ([`can_jump`], [`returns`]).
//!
//! The scalar rules live in [`ballot_ir::scalar`], the operand order in
//! [`ballot_ir::ir::Expr::operands`], the names in [`crate::back::namer`].
//!
//! Every function here accepts malformed IR (handles out of range,
//! operands after their users) without panicking: it then answers `false`
//! for the parts it cannot reach.

pub mod calls;
pub mod fold;
pub mod helpers;
pub mod masked;
pub mod plan;
pub mod share;
pub mod uniformity;

use ballot_ir::ir::{Block, Expr, Handle, Kernel, Stmt};
use ballot_ir::op::Op;

/// Whether an operation exchanges values between lanes: on emulated
/// targets it goes through workgroup memory between barriers, and on
/// native ones its result depends on the active lanes. The others are
/// lane-local functions of the lane id and the subgroup size, and
/// `subgroupInverseBallot`, whose operand is uniform where it is defined.
pub const fn exchanges(op: Op) -> bool {
    op.depends_on_lanes() && !matches!(op, Op::InverseBallot)
}

/// Whether the if-conversion binds an operation to a temporary, in the
/// order the kernel writes it: every operation that consults the lanes
/// executing it together. Those are the exchanges, and
/// `subgroupInverseBallot`, which is lane-local on emulated targets but
/// whose operand must be uniform across those lanes: the simulator checks
/// that, and meets each such operation in source order, as the
/// interpreter does.
pub const fn binds(op: Op) -> bool {
    op.depends_on_lanes()
}

/// Whether `expr` is an operation the if-conversion binds ([`binds`]) or
/// a kernel call.
pub fn is_bound(expr: &Expr) -> bool {
    match expr {
        Expr::Op { op, .. } => binds(*op),
        Expr::Call { .. } => true,
        _ => false,
    }
}

/// Whether `expr` is itself an exchange ([`exchanges`]) or a kernel call,
/// which may exchange.
pub fn is_exchange(expr: &Expr) -> bool {
    match expr {
        Expr::Op { op, .. } => exchanges(*op),
        Expr::Call { .. } => true,
        _ => false,
    }
}

/// Whether `expr`'s tree holds an exchange or a kernel call.
pub fn expr_exchanges(kernel: &Kernel, expr: Handle<Expr>) -> bool {
    let Some(e) = kernel.exprs.get(expr) else {
        return false;
    };
    is_exchange(e)
        || e.operands()
            .into_iter()
            .any(|o| o < expr && expr_exchanges(kernel, o))
}

/// Whether a statement holds an exchange or a kernel call anywhere,
/// nested statements included.
pub fn stmt_exchanges(kernel: &Kernel, stmt: Handle<Stmt>) -> bool {
    let Some(s) = kernel.stmts.get(stmt) else {
        return false;
    };
    match s {
        Stmt::Assign { value: e, .. } | Stmt::Eval(e) | Stmt::Return(Some(e)) => {
            expr_exchanges(kernel, *e)
        }
        Stmt::If {
            cond,
            accept,
            reject,
        } => {
            expr_exchanges(kernel, *cond)
                || block_exchanges(kernel, accept)
                || block_exchanges(kernel, reject)
        }
        Stmt::Loop { body, continuing } => {
            block_exchanges(kernel, body) || block_exchanges(kernel, continuing)
        }
        Stmt::Break | Stmt::Continue | Stmt::Return(None) => false,
    }
}

/// Whether a block reaches an exchange or a kernel call: on emulated
/// targets, a barrier.
pub fn block_exchanges(kernel: &Kernel, block: &Block) -> bool {
    block.iter().any(|&s| stmt_exchanges(kernel, s))
}

/// Whether some loop of `kernel` reaches an exchange, and so must leave
/// only when no invocation of the workgroup is still in it.
pub fn has_exchanging_loop(kernel: &Kernel) -> bool {
    kernel
        .stmts
        .iter()
        .any(|(handle, stmt)| matches!(stmt, Stmt::Loop { .. }) && stmt_exchanges(kernel, handle))
}

/// The locals some statement of `kernel` assigns to: parameters among them
/// need a variable of their own where parameters are immutable (WGSL), and
/// are not uniform however they were declared.
pub fn assigned_locals(
    kernel: &Kernel,
) -> std::collections::BTreeSet<Handle<ballot_ir::ir::Local>> {
    kernel
        .stmts
        .iter()
        .filter_map(|(_, stmt)| match stmt {
            Stmt::Assign { local, .. } => Some(*local),
            _ => None,
        })
        .collect()
}

/// Whether a statement can take lanes out of the statement sequence it is
/// in: a jump, or a statement holding one that escapes it. A loop consumes
/// its own `break`s and `continue`s; only its `return`s escape.
pub fn can_jump(kernel: &Kernel, stmt: Handle<Stmt>) -> bool {
    match kernel.stmts.get(stmt) {
        Some(Stmt::Break | Stmt::Continue | Stmt::Return(_)) => true,
        Some(Stmt::If { accept, reject, .. }) => {
            accept.iter().chain(reject).any(|&s| can_jump(kernel, s))
        }
        Some(Stmt::Loop { body, continuing }) => {
            body.iter().chain(continuing).any(|&s| returns(kernel, s))
        }
        Some(Stmt::Assign { .. } | Stmt::Eval(_)) | None => false,
    }
}

/// Whether a statement holds a `return`, nested statements included.
pub fn returns(kernel: &Kernel, stmt: Handle<Stmt>) -> bool {
    match kernel.stmts.get(stmt) {
        Some(Stmt::Return(_)) => true,
        Some(Stmt::If { accept, reject, .. }) => {
            accept.iter().chain(reject).any(|&s| returns(kernel, s))
        }
        Some(Stmt::Loop { body, continuing }) => {
            body.iter().chain(continuing).any(|&s| returns(kernel, s))
        }
        _ => false,
    }
}

/// Whether control can reach the end of `block`: WGSL's behaviour
/// analysis, as far as the IR needs it, and the one reachability rule of
/// every printer (a function whose end is reachable gets a `return` of
/// the zero value).
pub fn falls_through(kernel: &Kernel, block: &Block) -> bool {
    let Some(&last) = block.last() else {
        return true;
    };
    match &kernel.stmts[last] {
        Stmt::Return(_) => false,
        Stmt::If { accept, reject, .. } => {
            falls_through(kernel, accept) || falls_through(kernel, reject)
        }
        // A loop that no `break` leaves only ends by returning.
        Stmt::Loop { body, .. } => breaks(kernel, body),
        _ => true,
    }
}

/// Whether a `break` in `block` leaves the loop whose body it is.
fn breaks(kernel: &Kernel, block: &Block) -> bool {
    block.iter().any(|&s| match &kernel.stmts[s] {
        Stmt::Break => true,
        Stmt::If { accept, reject, .. } => breaks(kernel, accept) || breaks(kernel, reject),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::falls_through;

    fn falls(source: &str) -> bool {
        let kernel = ballot_front::lower_source(source).expect("lowers").kernel;
        falls_through(&kernel, &kernel.body)
    }

    /// WGSL's behaviour analysis (WGSL § "Behaviour analysis"): a
    /// statement sequence ends where its last statement's behaviours hold
    /// "Next"; `if` has its branches' union, a `loop` has "Next" only
    /// through a `break` of its own.
    #[test]
    fn the_end_is_reachable_as_wgsl_s_behaviour_analysis_says() {
        // A tail expression is a `return`.
        assert!(!falls("fn k(x: u32) -> u32 { let y = x + 1; y }"));
        assert!(!falls("fn k(x: u32) -> u32 { if x > 1 { return 1; } 0 }"));
        assert!(!falls(
            "fn k(x: u32) -> u32 { if x > 1 { return 1; } else { return 2; } }"
        ));
        // Kernels without a result, whose end Rust lets control reach.
        assert!(falls(
            "fn k(x: u32) { let mut y = x; if x > 1 { return; } else { y = 2; } }"
        ));
        assert!(falls(
            "fn k(x: u32) { let mut y = x; loop { if y > 9 { break; } y += 1; } }"
        ));
        assert!(!falls(
            "fn k(x: u32) -> u32 { loop { if x > 9 { return 1; } } }"
        ));
        // An inner loop's `break` leaves the inner loop only.
        assert!(!falls(
            "fn k(x: u32) -> u32 { loop { loop { break; } if x > 9 { return 1; } } }"
        ));
    }
}
