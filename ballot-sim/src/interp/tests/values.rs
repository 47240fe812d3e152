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
