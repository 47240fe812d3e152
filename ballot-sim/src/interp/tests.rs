//! Interpreter tests on hand-built IR. Every expected value is derived by
//! hand from docs/design.md's semantics, in the comment next to it.

use super::*;
use ballot_ir::error::{UbKind, UndefinedBehavior};
use ballot_ir::ir::{Arena, Block, Local, Param};

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

mod undefined;

mod calls;

mod values;

mod misuse;

/// Kernels written in Rust and lowered by [`ballot_front`], with expected
/// values derived by hand.
mod from_source;
