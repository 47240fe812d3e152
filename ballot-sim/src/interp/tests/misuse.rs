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
