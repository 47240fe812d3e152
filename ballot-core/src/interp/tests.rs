//! Interpreter tests on hand-built IR. Every expected value is derived by
//! hand from docs/design.md's semantics, in the comment next to it.

use super::*;
use crate::error::{UbKind, UndefinedBehavior};
use crate::ir::{Arena, Block, Local, Param};

type E = Handle<Expr>;
type S = Handle<Stmt>;

/// Builds a kernel bottom-up, so that expressions come out in post-order and
/// their types are filled in as they are appended.
struct Builder {
    kernel: Kernel,
}

impl Builder {
    fn new(name: &str, ret: Option<Type>) -> Self {
        Self {
            kernel: Kernel {
                name: name.to_owned(),
                params: Vec::new(),
                ret,
                locals: Arena::new(),
                exprs: Arena::new(),
                expr_types: Vec::new(),
                stmts: Arena::new(),
                body: Vec::new(),
            },
        }
    }

    fn param(&mut self, name: &str, ty: Type, uniform: bool) -> Handle<Local> {
        let local = self.local(name, ty);
        self.kernel.params.push(Param { local, uniform });
        local
    }

    fn local(&mut self, name: &str, ty: Type) -> Handle<Local> {
        self.kernel.locals.append(Local {
            name: name.to_owned(),
            ty,
            mutable: true,
        })
    }

    fn expr(&mut self, expr: Expr, ty: Type) -> E {
        self.kernel.expr_types.push(ty);
        self.kernel.exprs.append(expr)
    }

    fn lit(&mut self, lit: Literal) -> E {
        self.expr(Expr::Literal(lit), lit.ty())
    }

    fn u(&mut self, x: u32) -> E {
        self.lit(Literal::U32(x))
    }

    fn b(&mut self, x: bool) -> E {
        self.lit(Literal::Bool(x))
    }

    fn load(&mut self, local: Handle<Local>) -> E {
        let ty = self.kernel.locals[local].ty;
        self.expr(Expr::Load(local), ty)
    }

    fn lane(&mut self) -> E {
        self.expr(Expr::LaneId, Type::U32)
    }

    fn bin(&mut self, op: BinaryOp, left: E, right: E) -> E {
        let ty = match op {
            BinaryOp::LogicalAnd | BinaryOp::LogicalOr => Type::Bool,
            op if op.is_comparison() => Type::Bool,
            _ => self.kernel.type_of(left),
        };
        self.expr(Expr::Binary { op, left, right }, ty)
    }

    fn op(&mut self, op: Op, args: &[E]) -> E {
        let value = args.first().map_or(Type::Bool, |&a| self.kernel.type_of(a));
        let ty = ir::op_signature(op, value).1;
        self.expr(
            Expr::Op {
                op,
                args: args.to_vec(),
            },
            ty,
        )
    }

    fn call(&mut self, callee: &str, args: &[E], ty: Type) -> E {
        self.expr(
            Expr::Call {
                callee: callee.to_owned(),
                args: args.to_vec(),
            },
            ty,
        )
    }

    fn stmt(&mut self, stmt: Stmt) -> S {
        self.kernel.stmts.append(stmt)
    }

    fn assign(&mut self, local: Handle<Local>, value: E) -> S {
        self.stmt(Stmt::Assign { local, value })
    }

    fn ret(&mut self, value: E) -> S {
        self.stmt(Stmt::Return(Some(value)))
    }

    /// `return local`.
    fn ret_local(&mut self, local: Handle<Local>) -> S {
        let value = self.load(local);
        self.ret(value)
    }

    fn if_(&mut self, cond: E, accept: Block, reject: Block) -> S {
        self.stmt(Stmt::If {
            cond,
            accept,
            reject,
        })
    }

    /// `if cond { jump }`, for `break` or `continue`.
    fn if_jump(&mut self, cond: E, jump: Stmt) -> S {
        let jump = self.stmt(jump);
        self.if_(cond, vec![jump], vec![])
    }

    fn loop_(&mut self, body: Block, continuing: Block) -> S {
        self.stmt(Stmt::Loop { body, continuing })
    }

    /// `left <op> n`.
    fn bin_u(&mut self, op: BinaryOp, left: E, n: u32) -> E {
        let n = self.u(n);
        self.bin(op, left, n)
    }

    /// `lane <op> n`.
    fn lane_op(&mut self, op: BinaryOp, n: u32) -> E {
        let lane = self.lane();
        self.bin_u(op, lane, n)
    }

    /// `local = n` as a statement.
    fn assign_u(&mut self, local: Handle<Local>, n: u32) -> S {
        let n = self.u(n);
        self.assign(local, n)
    }

    /// `let mut name = n` for a `u32`: the local and the statement that
    /// sets it.
    fn let_u(&mut self, name: &str, n: u32) -> (Handle<Local>, S) {
        let local = self.local(name, Type::U32);
        (local, self.assign_u(local, n))
    }

    /// `local += by` as a statement.
    fn add_assign(&mut self, local: Handle<Local>, by: E) -> S {
        let cur = self.load(local);
        let sum = self.bin(BinaryOp::Add, cur, by);
        self.assign(local, sum)
    }

    /// `ballot(true)`.
    fn ballot_true(&mut self) -> E {
        let t = self.b(true);
        self.op(Op::Ballot, &[t])
    }

    /// `bit_count(ballot(true))`: the number of lanes running it.
    fn active_count(&mut self) -> E {
        let all = self.ballot_true();
        self.op(Op::BitCount, &[all])
    }

    fn finish(mut self, body: Block) -> Kernel {
        self.kernel.body = body;
        self.kernel
    }
}

fn sg(size: u32, active: &[u32]) -> Subgroup {
    Subgroup::new(size, active.iter().copied().collect()).unwrap()
}

fn full(size: u32) -> Subgroup {
    Subgroup::full(size).unwrap()
}

/// Runs a kernel without parameters.
fn run(kernel: &Kernel, sg: &Subgroup) -> Result<PerLane<Value>, InterpError> {
    Interpreter::new([kernel])
        .with_iteration_limit(10_000)
        .run(&kernel.name, sg, &[])
}

/// The `u32` results of the active lanes, by lane.
fn u32s(out: &PerLane<Value>) -> Vec<(u32, u32)> {
    out.active()
        .map(|(l, v)| (l, v.as_u32().unwrap()))
        .collect()
}

/// Asserts the `u32` results of the active lanes of a run of `kernel`.
#[track_caller]
fn assert_u32s(kernel: &Kernel, sg: &Subgroup, expected: &[(u32, u32)]) {
    let out = run(kernel, sg).unwrap();
    assert_eq!(u32s(&out), expected);
}

fn masks(out: &PerLane<Value>) -> Vec<(u32, SubgroupMask)> {
    out.active()
        .map(|(l, v)| (l, v.as_mask().unwrap()))
        .collect()
}

fn mask_of(lanes: &[u32]) -> SubgroupMask {
    lanes.iter().copied().collect()
}

fn ub(op: Op, lane: u32, kind: UbKind) -> InterpError {
    InterpError::Sim(SimError::Undefined(UndefinedBehavior { op, lane, kind }))
}

/// `let r; if lane & 1 == 0 { r = ballot(true) } else { r = ballot(lane < 4) }; r`
#[test]
fn ballot_in_both_arms_of_a_divergent_if() {
    let mut b = Builder::new("arms", Some(Type::Mask));
    let r = b.local("r", Type::Mask);
    let bit = b.lane_op(BinaryOp::BitAnd, 1);
    let even = b.bin_u(BinaryOp::Eq, bit, 0);
    let all = b.ballot_true();
    let then = b.assign(r, all);
    let low = b.lane_op(BinaryOp::Lt, 4);
    let low_ballot = b.op(Op::Ballot, &[low]);
    let els = b.assign(r, low_ballot);
    let if_ = b.if_(even, vec![then], vec![els]);
    let ret = b.ret_local(r);
    let k = b.finish(vec![if_, ret]);

    // Even lanes see only the even lanes; odd lanes ballot `lane < 4` among
    // the odd lanes: {1, 3}.
    let out = run(&k, &full(8)).unwrap();
    let even = mask_of(&[0, 2, 4, 6]);
    let odd_low = mask_of(&[1, 3]);
    let expected: Vec<_> = (0..8)
        .map(|l| (l, if l % 2 == 0 { even } else { odd_low }))
        .collect();
    assert_eq!(masks(&out), expected);

    // Lanes {0, 1, 5, 6}: even arm {0, 6}, odd arm `lane < 4` among {1, 5}: {1}.
    let out = run(&k, &sg(8, &[0, 1, 5, 6])).unwrap();
    assert_eq!(
        masks(&out),
        vec![
            (0, mask_of(&[0, 6])),
            (1, mask_of(&[1])),
            (5, mask_of(&[1])),
            (6, mask_of(&[0, 6])),
        ]
    );
}

/// ```text
/// let mut i = 0; let mut count = 0;
/// loop { if i >= lane { break } count += bit_count(ballot(true)); i += 1 }
/// count + bit_count(ballot(true)) * 100
/// ```
#[test]
fn loop_where_lanes_leave_at_different_iterations() {
    let mut b = Builder::new("leave", Some(Type::U32));
    let (i, init_i) = b.let_u("i", 0);
    let (count, init_count) = b.let_u("count", 0);
    let li = b.load(i);
    let lane = b.lane();
    let done = b.bin(BinaryOp::Ge, li, lane);
    let exit = b.if_jump(done, Stmt::Break);
    let n = b.active_count();
    let acc = b.add_assign(count, n);
    let one = b.u(1);
    let inc = b.add_assign(i, one);
    let lp = b.loop_(vec![exit, acc, inc], vec![]);
    let n = b.active_count();
    let scaled = b.bin_u(BinaryOp::Mul, n, 100);
    let c = b.load(count);
    let sum = b.bin(BinaryOp::Add, c, scaled);
    let ret = b.ret(sum);
    let k = b.finish(vec![init_i, init_count, lp, ret]);

    // Iteration 0: lane 0 leaves, {1, 2, 3} add 3. Iteration 1: lane 1
    // leaves, {2, 3} add 2. Iteration 2: lane 2 leaves, lane 3 adds 1.
    // Iteration 3: lane 3 leaves. After the loop all four lanes reconverge.
    assert_u32s(&k, &full(4), &[(0, 400), (1, 403), (2, 405), (3, 406)]);

    // Lanes {1, 3} of 4: iteration 0 both add 2; iteration 1 lane 1 leaves,
    // lane 3 adds 1, and again at iteration 2; iteration 3 lane 3 leaves.
    assert_u32s(&k, &sg(4, &[1, 3]), &[(1, 202), (3, 204)]);
}

/// `let mut i = 0; loop { let c = bit_count(ballot(true)); if i == lane { return c * 10 + i } i += 1 }`
#[test]
fn returns_inside_a_loop_shrink_later_ballots() {
    let mut b = Builder::new("ret_loop", Some(Type::U32));
    let (i, init) = b.let_u("i", 0);
    let c = b.local("c", Type::U32);
    let n = b.active_count();
    let set_c = b.assign(c, n);
    let li = b.load(i);
    let lane = b.lane();
    let hit = b.bin(BinaryOp::Eq, li, lane);
    let lc = b.load(c);
    let c10 = b.bin_u(BinaryOp::Mul, lc, 10);
    let li = b.load(i);
    let value = b.bin(BinaryOp::Add, c10, li);
    let ret = b.ret(value);
    let check = b.if_(hit, vec![ret], vec![]);
    let one = b.u(1);
    let inc = b.add_assign(i, one);
    let lp = b.loop_(vec![set_c, check, inc], vec![]);
    let k = b.finish(vec![init, lp]);

    // Lane i returns at iteration i, when 4 - i lanes are left.
    assert_u32s(&k, &full(4), &[(0, 40), (1, 31), (2, 22), (3, 13)]);
}

/// `if lane < 2 { return 0 } bit_count(ballot(true))`
#[test]
fn early_return_before_a_ballot() {
    let mut b = Builder::new("early", Some(Type::U32));
    let low = b.lane_op(BinaryOp::Lt, 2);
    let zero = b.u(0);
    let ret0 = b.ret(zero);
    let if_ = b.if_(low, vec![ret0], vec![]);
    let n = b.active_count();
    let ret = b.ret(n);
    let k = b.finish(vec![if_, ret]);

    let out = run(&k, &full(8)).unwrap();
    let expected: Vec<_> = (0..8).map(|l| (l, if l < 2 { 0 } else { 6 })).collect();
    assert_eq!(u32s(&out), expected);

    // Lanes {1, 2, 5}: lane 1 returns early, {2, 5} remain.
    assert_u32s(&k, &sg(8, &[1, 2, 5]), &[(1, 0), (2, 2), (5, 2)]);

    // Every lane returns early: the ballot never runs.
    assert_u32s(&k, &sg(8, &[0, 1]), &[(0, 0), (1, 0)]);
}

/// ```text
/// let mut i = 0; let mut total = 0;
/// loop {
///     if i >= 4 { break }
///     if (i + lane) & 1 == 0 { continue }
///     total += bit_count(ballot(true)) * (i + 1);
/// } continuing { i += 1 }
/// total
/// ```
#[test]
fn continue_skips_the_body_but_runs_continuing() {
    let mut b = Builder::new("cont", Some(Type::U32));
    let (i, init_i) = b.let_u("i", 0);
    let (total, init_t) = b.let_u("total", 0);
    let li = b.load(i);
    let done = b.bin_u(BinaryOp::Ge, li, 4);
    let exit = b.if_jump(done, Stmt::Break);
    let li = b.load(i);
    let lane = b.lane();
    let sum = b.bin(BinaryOp::Add, li, lane);
    let parity = b.bin_u(BinaryOp::BitAnd, sum, 1);
    let even = b.bin_u(BinaryOp::Eq, parity, 0);
    let skip = b.if_jump(even, Stmt::Continue);
    let n = b.active_count();
    let li = b.load(i);
    let weight = b.bin_u(BinaryOp::Add, li, 1);
    let add = b.bin(BinaryOp::Mul, n, weight);
    let acc = b.add_assign(total, add);
    let one = b.u(1);
    let inc = b.add_assign(i, one);
    let lp = b.loop_(vec![exit, skip, acc], vec![inc]);
    let ret = b.ret_local(total);
    let k = b.finish(vec![init_i, init_t, lp, ret]);

    // Full 4: odd i + lane ballots at i = 0 ({1, 3}), 1 ({0, 2}), 2, 3:
    // two lanes each, weights 1..4. Lanes 0, 2: 2*2 + 2*4 = 12; lanes 1, 3:
    // 2*1 + 2*3 = 8.
    assert_u32s(&k, &full(4), &[(0, 12), (1, 8), (2, 12), (3, 8)]);

    // Lanes {0, 1, 3}: i=0 {1, 3} add 2; i=1 {0} adds 1*2; i=2 {1, 3} add
    // 2*3; i=3 {0} adds 1*4.
    assert_u32s(&k, &sg(4, &[0, 1, 3]), &[(0, 6), (1, 8), (3, 8)]);
}

/// ```text
/// let r;
/// if lane < 4 { if lane & 1 == 1 { r = ballot(true) } else { r = ballot(true) } }
/// else { r = ballot(lane == 6) }
/// bit_count(r) * 100 + find_lsb(r) * 10 + bit_count(ballot(true))
/// ```
#[test]
fn nested_divergence() {
    let mut b = Builder::new("nested", Some(Type::U32));
    let r = b.local("r", Type::Mask);
    let low = b.lane_op(BinaryOp::Lt, 4);
    let bit = b.lane_op(BinaryOp::BitAnd, 1);
    let odd = b.bin_u(BinaryOp::Eq, bit, 1);
    let all = b.ballot_true();
    let a = b.assign(r, all);
    let all = b.ballot_true();
    let c = b.assign(r, all);
    let inner = b.if_(odd, vec![a], vec![c]);
    let is6 = b.lane_op(BinaryOp::Eq, 6);
    let m6 = b.op(Op::Ballot, &[is6]);
    let hi = b.assign(r, m6);
    let outer = b.if_(low, vec![inner], vec![hi]);
    let lr = b.load(r);
    let cnt = b.op(Op::BitCount, &[lr]);
    let cnt100 = b.bin_u(BinaryOp::Mul, cnt, 100);
    let lr = b.load(r);
    let lsb = b.op(Op::FindLsb, &[lr]);
    let lsb10 = b.bin_u(BinaryOp::Mul, lsb, 10);
    let s = b.bin(BinaryOp::Add, cnt100, lsb10);
    let n = b.active_count();
    let s = b.bin(BinaryOp::Add, s, n);
    let ret = b.ret(s);
    let k = b.finish(vec![outer, ret]);

    // Lanes 1, 3: r = {1, 3} → 200 + 10 + 8; lanes 0, 2: r = {0, 2} → 208;
    // lanes 4..8: r = {6} → 100 + 60 + 8.
    let out = run(&k, &full(8)).unwrap();
    let expected = [208, 218, 208, 218, 168, 168, 168, 168];
    assert_eq!(u32s(&out), (0..8).zip(expected).collect::<Vec<_>>());
}

/// CTS: `if elect() { 99 } else { find_lsb(ballot(true)) }`, where the else
/// arm's lowest lane is above the elected one, so the result there is > 0.
#[test]
fn elect_inside_a_branch() {
    let mut b = Builder::new("elect", Some(Type::U32));
    let r = b.local("r", Type::U32);
    let e = b.op(Op::Elect, &[]);
    let a = b.assign_u(r, 99);
    let all = b.ballot_true();
    let lsb = b.op(Op::FindLsb, &[all]);
    let c = b.assign(r, lsb);
    let if_ = b.if_(e, vec![a], vec![c]);
    let ret = b.ret_local(r);
    let k = b.finish(vec![if_, ret]);

    assert_u32s(&k, &full(4), &[(0, 99), (1, 1), (2, 1), (3, 1)]);
    assert_u32s(&k, &sg(8, &[2, 5, 7]), &[(2, 99), (5, 5), (7, 5)]);
    // A single lane is elected; the else arm never runs, so its FindLSB
    // (which would see no lane) is not undefined.
    assert_u32s(&k, &sg(8, &[3]), &[(3, 99)]);
}

/// `bit_count(ballot(true)) + lane * 10` over a ragged dispatch.
#[test]
fn dispatch_splits_into_subgroups() {
    let mut b = Builder::new("disp", Some(Type::U32));
    let n = b.active_count();
    let l10 = b.lane_op(BinaryOp::Mul, 10);
    let s = b.bin(BinaryOp::Add, n, l10);
    let ret = b.ret(s);
    let k = b.finish(vec![ret]);
    let interp = Interpreter::new([&k]);
    // Workgroups of 6 in subgroups of 4: lanes 0..4, then a partial {0, 1}.
    let dispatch = Dispatch::new([6, 1, 1], 4, [2, 1, 1]).unwrap();
    let out = interp.run_dispatch("disp", &dispatch, &[]).unwrap();
    let expected: Vec<Value> = [4, 14, 24, 34, 2, 12, 4, 14, 24, 34, 2, 12]
        .into_iter()
        .map(Value::U32)
        .collect();
    assert_eq!(out, expected);
}

mod undefined {
    use super::*;

    /// `find_lsb(ballot(lane == 100))` in every active lane.
    #[test]
    fn find_lsb_of_an_empty_ballot() {
        let mut b = Builder::new("lsb", Some(Type::U32));
        let never = b.lane_op(BinaryOp::Eq, 100);
        let m = b.op(Op::Ballot, &[never]);
        let lsb = b.op(Op::FindLsb, &[m]);
        let ret = b.ret(lsb);
        let k = b.finish(vec![ret]);
        let err = run(&k, &sg(8, &[3, 4])).unwrap_err();
        let kind = UbKind::EmptyMask {
            mask: SubgroupMask::EMPTY,
            size: 8,
        };
        assert_eq!(err, ub(Op::FindLsb, 3, kind));
    }

    /// `if lane >= 2 { broadcast(lane, 0) } else { 7 }`: lane 0 is not in
    /// the branch, and the lowest lane that reads it is 2.
    #[test]
    fn broadcast_from_a_lane_outside_the_branch() {
        let mut b = Builder::new("bc", Some(Type::U32));
        let hi = b.lane_op(BinaryOp::Ge, 2);
        let lane = b.lane();
        let zero = b.u(0);
        let bc = b.op(Op::Broadcast, &[lane, zero]);
        let ret_bc = b.ret(bc);
        let seven = b.u(7);
        let ret7 = b.ret(seven);
        let if_ = b.if_(hi, vec![ret_bc], vec![ret7]);
        let k = b.finish(vec![if_]);
        let err = run(&k, &full(4)).unwrap_err();
        assert_eq!(
            err,
            ub(Op::Broadcast, 2, UbKind::InactiveSource { source_lane: 0 })
        );
        // With lane 0 inactive the branch is the same.
        let err = run(&k, &sg(4, &[1, 3])).unwrap_err();
        assert_eq!(
            err,
            ub(Op::Broadcast, 3, UbKind::InactiveSource { source_lane: 0 })
        );
        // Only lanes 0 and 1: the branch is skipped, nothing is undefined.
        assert_u32s(&k, &sg(4, &[0, 1]), &[(0, 7), (1, 7)]);
    }

    /// `broadcast(lane, 9)` in a subgroup of 8.
    #[test]
    fn broadcast_id_out_of_range() {
        let mut b = Builder::new("bc9", Some(Type::U32));
        let lane = b.lane();
        let nine = b.u(9);
        let bc = b.op(Op::Broadcast, &[lane, nine]);
        let ret = b.ret(bc);
        let k = b.finish(vec![ret]);
        let err = run(&k, &sg(8, &[5, 6])).unwrap_err();
        let kind = UbKind::IndexOutOfRange { index: 9, size: 8 };
        assert_eq!(err, ub(Op::Broadcast, 5, kind));
        // In a subgroup of 16 lane 9 is a valid, active source.
        assert_u32s(&k, &sg(16, &[5, 9]), &[(5, 9), (9, 9)]);
    }

    /// `inverse_ballot(SubgroupMask::lane(lane & 2))`: lanes 1 and 4 pass
    /// `lane(0)`, lane 3 passes `lane(2)`.
    #[test]
    fn inverse_ballot_of_a_non_uniform_mask() {
        let mut b = Builder::new("inv", Some(Type::Bool));
        let bit = b.lane_op(BinaryOp::BitAnd, 2);
        let m = b.expr(
            Expr::Mask {
                fun: MaskFn::Lane,
                args: vec![bit],
            },
            Type::Mask,
        );
        let inv = b.op(Op::InverseBallot, &[m]);
        let ret = b.ret(inv);
        let k = b.finish(vec![ret]);
        let err = run(&k, &sg(8, &[1, 3, 4])).unwrap_err();
        let kind = UbKind::NonUniform {
            value: SubgroupMask::lane(2),
            first: SubgroupMask::lane(0),
            first_lane: 1,
        };
        assert_eq!(err, ub(Op::InverseBallot, 3, kind));
        // Lanes {0, 1}: both pass lane(0); only lane 0 finds its bit.
        let out = run(&k, &sg(8, &[0, 1])).unwrap();
        let got: Vec<_> = out.active().map(|(l, v)| (l, *v)).collect();
        assert_eq!(got, vec![(0, Value::Bool(true)), (1, Value::Bool(false))]);
    }

    /// `bit_extract(ballot(true), lane + 6)` in a subgroup of 8.
    #[test]
    fn bit_extract_index_out_of_range_in_the_lowest_lane() {
        let mut b = Builder::new("bx", Some(Type::Bool));
        let all = b.ballot_true();
        let index = b.lane_op(BinaryOp::Add, 6);
        let bx = b.op(Op::BitExtract, &[all, index]);
        let ret = b.ret(bx);
        let k = b.finish(vec![ret]);
        let err = run(&k, &sg(8, &[0, 2, 3])).unwrap_err();
        let kind = UbKind::IndexOutOfRange { index: 8, size: 8 };
        assert_eq!(err, ub(Op::BitExtract, 2, kind));
    }

    /// The first undefined operation in evaluation order is the one reported:
    /// `find_msb(ballot(false)) + find_lsb(ballot(false))`.
    #[test]
    fn first_undefined_operation_in_evaluation_order() {
        let mut b = Builder::new("order", Some(Type::U32));
        let f = b.b(false);
        let m = b.op(Op::Ballot, &[f]);
        let msb = b.op(Op::FindMsb, &[m]);
        let f = b.b(false);
        let m = b.op(Op::Ballot, &[f]);
        let lsb = b.op(Op::FindLsb, &[m]);
        let sum = b.bin(BinaryOp::Add, msb, lsb);
        let ret = b.ret(sum);
        let k = b.finish(vec![ret]);
        let err = run(&k, &full(2)).unwrap_err();
        let kind = UbKind::EmptyMask {
            mask: SubgroupMask::EMPTY,
            size: 2,
        };
        assert_eq!(err, ub(Op::FindMsb, 0, kind));
    }
}

mod calls {
    use super::*;

    /// `fn inner() -> u32 { if elect() { return 1000 } bit_count(ballot(true)) }`
    fn inner() -> Kernel {
        let mut b = Builder::new("inner", Some(Type::U32));
        let e = b.op(Op::Elect, &[]);
        let k1000 = b.u(1000);
        let r = b.ret(k1000);
        let if_ = b.if_(e, vec![r], vec![]);
        let n = b.active_count();
        let ret = b.ret(n);
        b.finish(vec![if_, ret])
    }

    /// `if lane < 3 { helpers::inner() } else { 100 + helpers::inner() }`
    fn outer(callee: &str) -> Kernel {
        let mut b = Builder::new("outer", Some(Type::U32));
        let low = b.lane_op(BinaryOp::Lt, 3);
        let c = b.call(callee, &[], Type::U32);
        let a = b.ret(c);
        let hundred = b.u(100);
        let c = b.call(callee, &[], Type::U32);
        let s = b.bin(BinaryOp::Add, hundred, c);
        let r = b.ret(s);
        let if_ = b.if_(low, vec![a], vec![r]);
        b.finish(vec![if_])
    }

    #[test]
    fn callee_runs_with_the_callers_active_lanes() {
        let (inner, outer) = (inner(), outer("helpers::inner"));
        let interp = Interpreter::new([&inner, &outer]);
        let out = interp.run("outer", &full(8), &[]).unwrap();
        // Lanes 0..3: lane 0 is elected, {1, 2} count 2. Lanes 3..8: lane 3
        // is elected, {4..8} count 4.
        let expected = [1000, 2, 2, 1100, 104, 104, 104, 104];
        assert_eq!(u32s(&out), (0..8).zip(expected).collect::<Vec<_>>());
    }

    #[test]
    fn unknown_callee() {
        let outer = outer("nowhere");
        let interp = Interpreter::new([&outer]);
        let err = interp.run("outer", &full(4), &[]).unwrap_err();
        assert_eq!(err, InterpError::UnknownKernel("nowhere".into()));
    }

    #[test]
    fn recursion_hits_the_call_depth() {
        let outer = outer("outer");
        let interp = Interpreter::new([&outer]).with_call_depth(5);
        let err = interp.run("outer", &full(4), &[]).unwrap_err();
        assert_eq!(
            err,
            InterpError::CallDepth {
                kernel: "outer".into(),
                limit: 5
            }
        );
    }

    /// `fn twice(x: u32) -> u32 { x * 2 }` called with `lane + k`.
    #[test]
    fn arguments_are_per_lane() {
        let mut b = Builder::new("twice", Some(Type::U32));
        let x = b.param("x", Type::U32, false);
        let lx = b.load(x);
        let d = b.bin_u(BinaryOp::Mul, lx, 2);
        let ret = b.ret(d);
        let twice = b.finish(vec![ret]);

        let mut b = Builder::new("caller", Some(Type::U32));
        let k = b.param("k", Type::U32, true);
        let lane = b.lane();
        let lk = b.load(k);
        let arg = b.bin(BinaryOp::Add, lane, lk);
        let c = b.call("twice", &[arg], Type::U32);
        let ret = b.ret(c);
        let caller = b.finish(vec![ret]);

        let interp = Interpreter::new([&twice, &caller]);
        let out = interp
            .run("caller", &sg(4, &[1, 2]), &[Arg::Uniform(Value::U32(10))])
            .unwrap();
        assert_eq!(u32s(&out), vec![(1, 22), (2, 24)]);
    }
}

mod values {
    use super::*;

    /// A kernel `fn f(a: T, b: T) -> R { a <op> b }`, run lane by lane.
    fn binary_op(op: BinaryOp, ty: Type, pairs: &[(Value, Value)]) -> Vec<Value> {
        let mut b = Builder::new("f", None);
        let a = b.param("a", ty, false);
        let c = b.param(
            "b",
            if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
                Type::U32
            } else {
                ty
            },
            false,
        );
        let la = b.load(a);
        let lc = b.load(c);
        let r = b.bin(op, la, lc);
        let ret_ty = b.kernel.type_of(r);
        b.kernel.ret = Some(ret_ty);
        let ret = b.ret(r);
        let k = b.finish(vec![ret]);
        let n = pairs.len().next_power_of_two() as u32;
        let mut left: Vec<Value> = pairs.iter().map(|p| p.0).collect();
        let mut right: Vec<Value> = pairs.iter().map(|p| p.1).collect();
        left.resize(n as usize, pairs[0].0);
        right.resize(n as usize, pairs[0].1);
        let out = Interpreter::new([&k])
            .run(
                "f",
                &Subgroup::partial(n, pairs.len() as u32).unwrap(),
                &[Arg::PerLane(left), Arg::PerLane(right)],
            )
            .unwrap();
        out.active().map(|(_, v)| *v).collect()
    }

    fn u(x: u32) -> Value {
        Value::U32(x)
    }

    fn i(x: i32) -> Value {
        Value::I32(x)
    }

    #[test]
    fn integer_division_follows_wgsl() {
        let out = binary_op(BinaryOp::Div, Type::U32, &[(u(7), u(2)), (u(7), u(0))]);
        assert_eq!(out, vec![u(3), u(7)]);
        let out = binary_op(BinaryOp::Rem, Type::U32, &[(u(7), u(2)), (u(7), u(0))]);
        assert_eq!(out, vec![u(1), u(0)]);
        let pairs = [
            (i(-7), i(2)),
            (i(-7), i(0)),
            (i(i32::MIN), i(-1)),
            (i(7), i(-2)),
        ];
        // Truncating division; x / 0 == x; MIN / -1 == MIN.
        let out = binary_op(BinaryOp::Div, Type::I32, &pairs);
        assert_eq!(out, vec![i(-3), i(-7), i(i32::MIN), i(-3)]);
        // The remainder takes the dividend's sign; x % 0 == 0; MIN % -1 == 0.
        let out = binary_op(BinaryOp::Rem, Type::I32, &pairs);
        assert_eq!(out, vec![i(-1), i(0), i(0), i(1)]);
    }

    #[test]
    fn arithmetic_wraps_and_shifts_use_five_bits() {
        let out = binary_op(BinaryOp::Add, Type::U32, &[(u(u32::MAX), u(2))]);
        assert_eq!(out, vec![u(1)]);
        let out = binary_op(BinaryOp::Mul, Type::I32, &[(i(i32::MAX), i(2))]);
        assert_eq!(out, vec![i(-2)]);
        let out = binary_op(BinaryOp::Shl, Type::U32, &[(u(1), u(33)), (u(1), u(31))]);
        assert_eq!(out, vec![u(2), u(1 << 31)]);
        // Arithmetic on i32, by 35 & 31 == 3.
        let out = binary_op(BinaryOp::Shr, Type::I32, &[(i(-16), u(35))]);
        assert_eq!(out, vec![i(-2)]);
        let out = binary_op(BinaryOp::Shr, Type::U32, &[(u(0x8000_0000), u(63))]);
        assert_eq!(out, vec![u(1)]);
    }

    #[test]
    fn float_comparisons_are_ieee() {
        let nan = Value::F32(f32::NAN);
        let one = Value::F32(1.0);
        let out = binary_op(BinaryOp::Lt, Type::F32, &[(nan, one), (one, nan)]);
        assert_eq!(out, vec![Value::Bool(false); 2]);
        let out = binary_op(BinaryOp::Ne, Type::F32, &[(nan, nan), (one, one)]);
        assert_eq!(out, vec![Value::Bool(true), Value::Bool(false)]);
    }

    #[test]
    fn casts_follow_rust_as() {
        let cases = [
            (Value::F32(f32::NAN), Type::U32, u(0)),
            (Value::F32(-5.5), Type::U32, u(0)),
            (Value::F32(1e20), Type::I32, i(i32::MAX)),
            (Value::F32(-2.7), Type::I32, i(-2)),
            (u(u32::MAX), Type::I32, i(-1)),
            (i(-1), Type::U32, u(u32::MAX)),
            (Value::Bool(true), Type::U32, u(1)),
            (u(16_777_217), Type::F32, Value::F32(16_777_216.0)),
        ];
        for (from, to, expected) in cases {
            let got = cast(from, to).unwrap();
            assert!(got.bit_eq(expected), "{from:?} as {to}: {got:?}");
        }
        assert_eq!(cast(u(1), Type::Bool), None);
    }

    #[test]
    fn mask_functions() {
        let m = SubgroupMask::first(3);
        assert_eq!(
            mask_fn(MaskFn::Lane, Some(u(200)), None),
            Some(Value::Mask(SubgroupMask::EMPTY))
        );
        assert_eq!(
            mask_fn(MaskFn::First, Some(u(500)), None),
            Some(Value::Mask(SubgroupMask::ALL))
        );
        assert_eq!(
            mask_fn(MaskFn::Contains, Some(Value::Mask(m)), Some(u(2))),
            Some(Value::Bool(true))
        );
        assert_eq!(
            mask_fn(MaskFn::Count, Some(Value::Mask(m)), None),
            Some(u(3))
        );
        assert_eq!(mask_fn(MaskFn::Count, Some(u(3)), None), None);
    }
}

mod misuse {
    use super::*;

    /// `fn f(a: bool, #[uniform] k: u32) {}`
    fn two_params() -> Kernel {
        let mut b = Builder::new("f", None);
        b.param("a", Type::Bool, false);
        b.param("k", Type::U32, true);
        b.finish(vec![])
    }

    #[test]
    fn no_return_type_gives_unit_in_active_lanes() {
        let k = two_params();
        let interp = Interpreter::new([&k]);
        let a = Arg::PerLane(vec![Value::Bool(false); 4]);
        let out = interp
            .run("f", &sg(4, &[0, 2]), &[a, Arg::Uniform(Value::U32(1))])
            .unwrap();
        assert_eq!(
            out.as_slice(),
            &[Some(Value::Unit), None, Some(Value::Unit), None]
        );
    }

    #[test]
    fn bad_arguments_are_typed_errors() {
        let k = two_params();
        let interp = Interpreter::new([&k]);
        let s = full(4);
        let bools = Arg::PerLane(vec![Value::Bool(true); 4]);
        let k1 = Arg::Uniform(Value::U32(1));
        assert_eq!(
            interp.run("g", &s, &[]),
            Err(InterpError::UnknownKernel("g".into()))
        );
        assert!(matches!(
            interp.run("f", &s, std::slice::from_ref(&bools)),
            Err(InterpError::ArgCount {
                expected: 2,
                got: 1,
                ..
            })
        ));
        assert!(matches!(
            interp.run(
                "f",
                &s,
                &[Arg::PerLane(vec![Value::Bool(true); 3]), k1.clone()]
            ),
            Err(InterpError::ArgLength {
                index: 0,
                expected: 4,
                got: 3,
                ..
            })
        ));
        assert!(matches!(
            interp.run("f", &s, &[bools.clone(), Arg::Uniform(Value::I32(1))]),
            Err(InterpError::ArgType {
                index: 1,
                expected: Type::U32,
                got: Value::I32(1),
                ..
            })
        ));
        assert!(matches!(
            interp.run(
                "f",
                &s,
                &[bools.clone(), Arg::PerLane(vec![Value::U32(1); 4])]
            ),
            Err(InterpError::PerLaneForUniform { index: 1, .. })
        ));
        assert!(interp.run("f", &s, &[bools, k1]).is_ok());
    }

    #[test]
    fn malformed_ir_is_an_error_not_a_panic() {
        // A local read before it is assigned.
        let mut b = Builder::new("m", Some(Type::U32));
        let x = b.local("x", Type::U32);
        let ret = b.ret_local(x);
        let k = b.finish(vec![ret]);
        assert!(matches!(
            run(&k, &full(2)),
            Err(InterpError::Malformed { .. })
        ));

        // `break` outside a loop.
        let mut b = Builder::new("m", None);
        let brk = b.stmt(Stmt::Break);
        let k = b.finish(vec![brk]);
        assert!(matches!(
            run(&k, &full(2)),
            Err(InterpError::Malformed { .. })
        ));

        // A statement that contains itself.
        let mut b = Builder::new("m", None);
        let t = b.b(true);
        let me = Handle::from_index(0);
        let if_ = b.if_(t, vec![me], vec![]);
        let k = b.finish(vec![if_]);
        assert!(matches!(
            run(&k, &full(2)),
            Err(InterpError::Malformed { .. })
        ));

        // `u32 + bool`.
        let mut b = Builder::new("m", Some(Type::U32));
        let one = b.u(1);
        let t = b.b(true);
        let sum = b.bin(BinaryOp::Add, one, t);
        let ret = b.ret(sum);
        let k = b.finish(vec![ret]);
        assert!(matches!(
            run(&k, &full(2)),
            Err(InterpError::Malformed { .. })
        ));

        // Falling off the end of a kernel that returns a value.
        let k = Builder::new("m", Some(Type::U32)).finish(vec![]);
        assert!(matches!(
            run(&k, &full(2)),
            Err(InterpError::Malformed { .. })
        ));
    }

    #[test]
    fn endless_loops_hit_the_iteration_limit() {
        let mut b = Builder::new("spin", None);
        let lp = b.loop_(vec![], vec![]);
        let k = b.finish(vec![lp]);
        assert_eq!(
            run(&k, &full(2)),
            Err(InterpError::IterationLimit {
                kernel: "spin".into(),
                limit: 10_000
            })
        );
        // No lane enters: the loop does not run at all.
        assert_eq!(run(&k, &sg(2, &[])).map(|out| out.active().count()), Ok(0));
    }
}

/// Kernels written in Rust and lowered by [`crate::front`], with expected
/// values derived by hand.
mod from_source {
    use super::*;

    fn lower(item: syn::ItemFn) -> Kernel {
        match crate::front::lower(&item) {
            Ok(lowered) => lowered.kernel,
            Err(err) => panic!("{err}"),
        }
    }

    fn per_lane_u32(values: &[u32]) -> Arg {
        Arg::PerLane(values.iter().map(|&v| Value::U32(v)).collect())
    }

    /// README's `laps`: lane `i` runs `n[i]` iterations, each counting the
    /// lanes still in the loop.
    #[test]
    fn laps() {
        let k = lower(syn::parse_quote! {
            fn laps(n: u32) -> u32 {
                let mut i = 0u32;
                let mut seen = 0u32;
                while i < n {
                    seen += subgroup_ballot_bit_count(subgroup_ballot(true));
                    i += 1;
                }
                seen
            }
        });
        let out = Interpreter::new([&k])
            .run("laps", &full(4), &[per_lane_u32(&[1, 2, 3, 0])])
            .unwrap();
        // Iteration 0: lanes 0, 1, 2 (3); iteration 1: lanes 1, 2 (2);
        // iteration 2: lane 2 (1).
        assert_eq!(u32s(&out), vec![(0, 3), (1, 5), (2, 6), (3, 0)]);
    }

    /// The right operand of `&&` runs only where the left one holds, so
    /// `elect` there elects among those lanes.
    #[test]
    fn elect_on_the_right_of_and() {
        let k = lower(syn::parse_quote! {
            fn first_taker(p: bool) -> bool {
                p && subgroup_elect()
            }
        });
        let p = Arg::PerLane([false, true, true, false].map(Value::Bool).to_vec());
        let out = Interpreter::new([&k])
            .run("first_taker", &full(4), &[p])
            .unwrap();
        let got: Vec<_> = out.active().map(|(_, v)| *v).collect();
        assert_eq!(got, [false, true, false, false].map(Value::Bool));
    }

    /// `for` with `continue`: the increment runs for lanes that continued.
    #[test]
    fn for_with_continue() {
        let k = lower(syn::parse_quote! {
            fn odd_rounds() -> u32 {
                let lane = subgroup_local_invocation_id();
                let mut total = 0u32;
                for i in 0u32..4u32 {
                    if (i + lane) % 2u32 == 0u32 {
                        continue;
                    }
                    total += subgroup_ballot_bit_count(subgroup_ballot(true)) * (i + 1u32);
                }
                total
            }
        });
        // As `continue_skips_the_body_but_runs_continuing`, lanes {0, 1, 3}.
        assert_u32s(&k, &sg(4, &[0, 1, 3]), &[(0, 6), (1, 8), (3, 8)]);
    }

    /// A callee reached through a path, run in the lanes of one arm.
    #[test]
    fn call_through_a_path() {
        let callee = lower(syn::parse_quote! {
            fn lowest() -> u32 {
                subgroup_ballot_find_lsb(subgroup_ballot(true))
            }
        });
        let caller = lower(syn::parse_quote! {
            fn split() -> u32 {
                if subgroup_local_invocation_id() >= 5u32 {
                    let x: u32 = helpers::lowest();
                    x
                } else {
                    let x: u32 = self::lowest();
                    x + 100u32
                }
            }
        });
        let out = Interpreter::new([&callee, &caller])
            .run("split", &sg(8, &[1, 3, 5, 6]), &[])
            .unwrap();
        assert_eq!(u32s(&out), vec![(1, 101), (3, 101), (5, 5), (6, 5)]);
    }
}
