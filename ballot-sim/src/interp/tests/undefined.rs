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
