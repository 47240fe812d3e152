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
