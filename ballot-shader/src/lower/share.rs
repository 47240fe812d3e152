//! Exchange sharing: on the emulated targets every exchange meets the
//! workgroup at a barrier, so consecutive ballots and votes share one.
//!
//! The pass rewrites the if-converted form ([`super::masked`]) of an
//! emulated target. A run of ballots and votes ([`Step::Bind`]s of
//! [`Op::Ballot`], [`Op::Any`] and [`Op::All`], each a ballot of one flag
//! per lane: [`flag_of`]) that nothing between them can tell apart from
//! one simultaneous exchange becomes one [`Step::Exchange`]: each publishes
//! its flag into a slot of the exchange memory, the workgroup meets at one
//! barrier, and each reads its slot, a vote as whether any flag is set.
//! Those of the same flag share a slot, so they cost one. A ballot followed
//! by lane-local ops on its value (a bit count, a find) is already one
//! exchange: those need no other lane.
//!
//! A ballot or vote joins the run before it when:
//! - the steps since the run began are only [`Step::Store`]s and
//!   [`Step::Eval`]s, which change no flag, so `Active` is the same;
//! - its predicate reads no local those steps store, and no value the run
//!   itself exchanges: it can be computed where the run begins.
//!
//! The ballots move up to the run's first one; the stores and evaluations
//! keep their order after it. A run holds at most [`MAX_SLOTS`] slots,
//! which bounds the exchange memory. A run of one stays a [`Step::Bind`].
//!
//! The native simulator does not run this pass: its ballots are lane-mask
//! operations with no barrier to share.

use super::masked::{Dest, Masked, Shared, Step};
use ballot_ir::ir::{Expr, Handle, Kernel, Local};
use ballot_ir::op::Op;

/// The most slots one [`Step::Exchange`] uses: each is one flag per
/// invocation (GLSL) or one bit (WGSL) per buffer of the exchange memory.
pub const MAX_SLOTS: usize = 8;

/// Groups the consecutive ballots of `masked`, the form of `kernel`.
pub fn share(kernel: &Kernel, masked: &mut Masked) {
    let steps = std::mem::take(&mut masked.steps);
    masked.steps = sequence(kernel, steps);
}

/// The most slots any [`Step::Exchange`] of `masked` uses: at least 1,
/// since every exchange uses one.
pub fn slots(masked: &Masked) -> usize {
    fn walk(steps: &[Step]) -> usize {
        steps
            .iter()
            .map(|step| match step {
                Step::Exchange(shared) => shared.iter().map(|s| s.slot + 1).max().unwrap_or(1),
                Step::Branch(steps) | Step::Loop { steps, .. } => walk(steps),
                _ => 1,
            })
            .max()
            .unwrap_or(1)
    }
    walk(&masked.steps)
}
/// The slots a module of these emulated forms needs: the most any uses.
pub fn module_slots<'m>(forms: impl IntoIterator<Item = &'m Masked>) -> u32 {
    forms
        .into_iter()
        .map(slots)
        .max()
        .map_or(1, |s| u32::try_from(s).unwrap_or(1))
}

/// A run being gathered: where its first ballot was, its ballots, and the
/// locals stored since it began.
struct Run {
    at: usize,
    shared: Vec<Shared>,
    stored: Vec<Handle<Local>>,
}

fn sequence(kernel: &Kernel, steps: Vec<Step>) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::with_capacity(steps.len());
    let mut run: Option<Run> = None;
    for step in steps {
        let step = match step {
            Step::Branch(steps) => Step::Branch(sequence(kernel, steps)),
            Step::Loop { id, steps } => Step::Loop {
                id,
                steps: sequence(kernel, steps),
            },
            other => other,
        };
        if let Step::Bind {
            temp: Some(temp),
            expr,
        } = step
        {
            if let Some(flag) = flag_of(kernel, expr) {
                if let Some(r) = run.as_mut() {
                    if let Some(slot) = joins(kernel, r, flag) {
                        r.shared.push(Shared { temp, expr, slot });
                        continue;
                    }
                }
                close(&mut out, run.take());
                run = Some(Run {
                    at: out.len(),
                    shared: vec![Shared {
                        temp,
                        expr,
                        slot: 0,
                    }],
                    stored: Vec::new(),
                });
                // A placeholder, replaced when the run closes.
                out.push(Step::Eval(expr));
                continue;
            }
        }
        match (&step, run.as_mut()) {
            (Step::Store { dest, .. }, Some(r)) => {
                if let Dest::Local(local) = dest {
                    r.stored.push(*local);
                }
            }
            (Step::Eval(_), Some(_)) => {}
            _ => close(&mut out, run.take()),
        }
        out.push(step);
    }
    close(&mut out, run);
    out
}

/// Puts a closed run's step in its place.
fn close(out: &mut [Step], run: Option<Run>) {
    let Some(run) = run else { return };
    out[run.at] = match <[Shared; 1]>::try_from(run.shared) {
        Ok([one]) => Step::Bind {
            temp: Some(one.temp),
            expr: one.expr,
        },
        Err(shared) => Step::Exchange(shared),
    };
}

/// The flag an exchange publishes for a ballot or vote, and how its ballot
/// is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    /// The operand of the ballot or vote: the flag is its value in each
    /// active lane, negated for [`Read::All`].
    pub predicate: Handle<Expr>,
    /// What the ballot of the flags gives.
    pub read: Read,
}

/// What a ballot or vote makes of the ballot of its flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    /// The ballot itself.
    Ballot,
    /// Whether any flag is set.
    Any,
    /// Whether none is: the flags are the lanes whose predicate fails.
    All,
}

impl Flag {
    /// Whether the flag is the predicate's negation.
    pub fn negated(self) -> bool {
        self.read == Read::All
    }
}

/// The flag `expr` publishes, if it is a ballot or a vote.
pub fn flag_of(kernel: &Kernel, expr: Handle<Expr>) -> Option<Flag> {
    let Some(Expr::Op { op, args }) = kernel.exprs.get(expr) else {
        return None;
    };
    let read = match op {
        Op::Ballot => Read::Ballot,
        Op::Any => Read::Any,
        Op::All => Read::All,
        _ => return None,
    };
    match args[..] {
        [predicate] if predicate < expr => Some(Flag { predicate, read }),
        _ => None,
    }
}

/// The slot `flag` takes in `run`, if it can join it.
fn joins(kernel: &Kernel, run: &Run, flag: Flag) -> Option<usize> {
    if !movable(kernel, run, flag.predicate) {
        return None;
    }
    for shared in &run.shared {
        if let Some(other) = flag_of(kernel, shared.expr) {
            if other.negated() == flag.negated() && same(kernel, other.predicate, flag.predicate) {
                return Some(shared.slot);
            }
        }
    }
    let next = run.shared.iter().map(|s| s.slot + 1).max().unwrap_or(0);
    (next < MAX_SLOTS).then_some(next)
}

/// Whether `expr` can be computed where `run` began: it reads no local
/// stored since, and no value the run exchanges.
fn movable(kernel: &Kernel, run: &Run, expr: Handle<Expr>) -> bool {
    if run.shared.iter().any(|s| s.expr == expr) {
        return false;
    }
    match kernel.exprs.get(expr) {
        None => false,
        Some(Expr::Load(local)) => !run.stored.contains(local),
        Some(e) => e
            .operands()
            .into_iter()
            .all(|o| o < expr && movable(kernel, run, o)),
    }
}

/// Whether `a` and `b` compute the same value where they are read
/// together: the same tree of lane-local operations over the same locals
/// and exchanges. An exchange or a call is the same only as itself.
fn same(kernel: &Kernel, a: Handle<Expr>, b: Handle<Expr>) -> bool {
    if a == b {
        return true;
    }
    let (Some(ea), Some(eb)) = (kernel.exprs.get(a), kernel.exprs.get(b)) else {
        return false;
    };
    let head = match (ea, eb) {
        (Expr::Literal(x), Expr::Literal(y)) => x == y,
        (Expr::Load(x), Expr::Load(y)) => x == y,
        (Expr::Unary { op: x, .. }, Expr::Unary { op: y, .. }) => x == y,
        (Expr::Binary { op: x, .. }, Expr::Binary { op: y, .. }) => x == y,
        (Expr::Cast { to: x, .. }, Expr::Cast { to: y, .. }) => x == y,
        (Expr::Select { .. }, Expr::Select { .. })
        | (Expr::LaneId, Expr::LaneId)
        | (Expr::SubgroupSize, Expr::SubgroupSize) => true,
        (Expr::Mask { fun: x, .. }, Expr::Mask { fun: y, .. }) => x == y,
        (Expr::Op { op: x, .. }, Expr::Op { op: y, .. }) => x == y && !super::exchanges(*x),
        _ => false,
    };
    let (oa, ob) = (ea.operands(), eb.operands());
    head && oa.len() == ob.len()
        && oa
            .iter()
            .zip(&ob)
            .all(|(&x, &y)| x < a && y < b && same(kernel, x, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared(source: &str) -> (Kernel, Masked) {
        let kernel = ballot_front::lower_source(source)
            .expect("the kernel lowers")
            .kernel;
        let mut masked = crate::lower::masked::if_convert(&kernel);
        share(&kernel, &mut masked);
        assert_eq!(masked.verify(&kernel), Ok(()));
        (kernel, masked)
    }

    /// The exchanges of a form, each as its slots: a bound ballot is one.
    fn exchanges(kernel: &Kernel, steps: &[Step]) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        for step in steps {
            match step {
                Step::Exchange(shared) => out.push(shared.iter().map(|s| s.slot).collect()),
                Step::Bind { expr, .. } if flag_of(kernel, *expr).is_some() => {
                    out.push(vec![0]);
                }
                Step::Branch(steps) | Step::Loop { steps, .. } => {
                    out.extend(exchanges(kernel, steps));
                }
                _ => {}
            }
        }
        out
    }

    #[test]
    fn consecutive_ballots_share_one_exchange_and_equal_predicates_a_slot() {
        let (kernel, masked) = shared(
            "fn k(x: u32) -> u32 {
                let a = subgroup_ballot(x % 2u32 == 0u32);
                let b = subgroup_ballot(x % 2u32 == 0u32);
                let c = subgroup_ballot(x > 7u32);
                subgroup_ballot_bit_count(a) + subgroup_ballot_bit_count(b)
                    + subgroup_ballot_bit_count(c)
            }",
        );
        assert_eq!(exchanges(&kernel, &masked.steps), [vec![0, 0, 1]]);
        assert_eq!(slots(&masked), 2);
    }

    #[test]
    fn a_ballot_that_reads_the_run_or_a_store_since_starts_another() {
        let (kernel, masked) = shared(
            "fn k(x: u32) -> u32 {
                let mut n = 0u32;
                let c = subgroup_ballot(x > 7u32);
                let d = subgroup_ballot(subgroup_ballot_bit_extract(c, x));
                n = subgroup_ballot_bit_count(d);
                let e = subgroup_ballot(x > 3u32);
                let f = subgroup_ballot(n > 3u32);
                subgroup_ballot_bit_count(e) + subgroup_ballot_bit_count(f)
            }",
        );
        // d reads c; e joins d past the store of n; f reads n.
        assert_eq!(
            exchanges(&kernel, &masked.steps),
            [vec![0], vec![0, 1], vec![0]]
        );
    }

    #[test]
    fn flags_and_other_exchanges_end_a_run() {
        let (kernel, masked) = shared(
            "fn k(x: u32) -> u32 {
                let a = subgroup_ballot(x > 1u32);
                let e = subgroup_elect();
                let b = subgroup_ballot(x > 2u32);
                let mut n = 0u32;
                if x > 5u32 {
                    n = subgroup_ballot_bit_count(subgroup_ballot(x > 3u32));
                }
                let c = subgroup_ballot(x > 4u32);
                n + subgroup_ballot_bit_count(a) + subgroup_ballot_bit_count(b)
                    + subgroup_ballot_bit_count(c) + e as u32
            }",
        );
        assert_eq!(
            exchanges(&kernel, &masked.steps),
            [vec![0], vec![0], vec![0], vec![0]]
        );
        assert_eq!(slots(&masked), 1);
    }

    #[test]
    fn votes_join_ballots_and_share_a_slot_only_with_the_same_flag() {
        let (kernel, masked) = shared(
            "fn k(x: u32) -> u32 {
                let a = subgroup_any(x > 1u32);
                let b = subgroup_ballot(x > 1u32);
                let c = subgroup_all(x > 1u32);
                let d = subgroup_all(x > 1u32);
                let e = subgroup_any(x < 9u32);
                subgroup_ballot_bit_count(b) + (a as u32) + (c as u32) + (d as u32) + (e as u32)
            }",
        );
        // Any and the ballot publish x > 1; both Alls publish !(x > 1).
        assert_eq!(exchanges(&kernel, &masked.steps), [vec![0, 0, 1, 1, 2]]);
    }

    #[test]
    fn a_run_holds_at_most_max_slots() {
        let ballots: Vec<String> = (0..MAX_SLOTS + 2)
            .map(|i| format!("let b{i} = subgroup_ballot(x > {i}u32);"))
            .collect();
        let counts: Vec<String> = (0..MAX_SLOTS + 2)
            .map(|i| format!("subgroup_ballot_bit_count(b{i})"))
            .collect();
        let (kernel, masked) = shared(&format!(
            "fn k(x: u32) -> u32 {{ {} {} }}",
            ballots.join(" "),
            counts.join(" + ")
        ));
        let runs = exchanges(&kernel, &masked.steps);
        assert_eq!(runs.len(), 2, "{runs:?}");
        assert_eq!(runs[0], (0..MAX_SLOTS).collect::<Vec<_>>());
        assert_eq!(slots(&masked), MAX_SLOTS);
    }
}
