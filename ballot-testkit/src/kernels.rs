//! Kernel sources the crates' tests share: Rust functions in the kernel
//! language that call every operation, for the printers' and the
//! expansion's tests to lower with the front end.

use ballot_ir::op::Op;

/// A sum of `u32`s that calls every operation beyond the ballot family,
/// of every value type it takes, with a constant lane operand of 200
/// among them (out of range: WGSL takes no constant from 128 up). The
/// values are the expressions `u`, `i`, `f`, `p`, `m` (of types `u32`,
/// `i32`, `f32`, `bool`, `SubgroupMask`); `u` also gives lane operands.
pub fn family_sum([u, i, f, p, m]: [&str; 5]) -> String {
    use ballot_ir::ir::{op_takes, Type};
    let values = [
        (u, Type::U32),
        (i, Type::I32),
        (f, Type::F32),
        (p, Type::Bool),
        (m, Type::Mask),
    ];
    // A value of any type as a `u32` summand.
    let summand = |call: String, ty: Type| match ty {
        Type::Mask => format!("{call}.count()"),
        _ => format!("({call} as u32)"),
    };
    let mut calls = Vec::new();
    for op in Op::ALL.into_iter().filter(|op| !op.is_ballot()) {
        let name = match op {
            // Cluster sizes from 1 to 128, a different one for each
            // operation: over the subgroup size is undefined, but the
            // text must still validate.
            Op::Clustered(arith) => format!(
                "{}::<{}, _>",
                op.spirv_std_name(),
                1u32 << (arith as u32 % 8)
            ),
            _ => op.spirv_std_name().to_string(),
        };
        for (value, ty) in values {
            let operand = match op {
                Op::All | Op::Any if ty == Type::Bool => String::new(),
                Op::All | Op::Any => continue,
                Op::Arith(..) | Op::Clustered(_) if ty == Type::Bool || ty == Type::Mask => {
                    continue
                }
                Op::Arith(..) | Op::Clustered(_) if !op_takes(op, ty) => continue,
                Op::Shuffle => format!(", {u}"),
                Op::ShuffleXor => ", 3".to_string(),
                Op::ShuffleUp => format!(", {u} & 7"),
                Op::ShuffleDown => ", 200".to_string(),
                Op::QuadBroadcast => ", 2".to_string(),
                _ => String::new(),
            };
            let result = match op {
                Op::AllEqual => Type::Bool,
                _ => ty,
            };
            calls.push(summand(format!("{name}({value}{operand})"), result));
        }
    }
    calls.join("\n            + ")
}

/// The source of a kernel that calls every operation beyond the ballot
/// family ([`family_sum`]) once in uniform control flow and once in a
/// branch, where the emulated targets pass the branch's activity.
pub fn family_source() -> String {
    let sum = family_sum(["x", "i", "f", "p", "m"]);
    format!(
        "fn family(x: u32, i: i32, f: f32, p: bool, m: SubgroupMask) -> u32 {{
            let mut n = {sum};
            if x > 3 {{
                n += {sum};
            }}
            n
        }}"
    )
}

/// The source of a kernel that names every extension name a GLSL writer
/// can write: it calls every operation (the rest of the family through
/// [`family_sum`]) and reads both built-ins.
pub fn every_name_source() -> String {
    let family = family_sum(["x", "(x as i32)", "f", "p", "m"]);
    format!(
        "fn every_name(x: u32, m: SubgroupMask, p: bool, f: f32) -> u32 {{
            let b = subgroup_ballot(p);
            let c = subgroup_ballot_bit_count(b) + subgroup_ballot_inclusive_bit_count(m)
                + subgroup_ballot_exclusive_bit_count(b);
            let masks = subgroup_eq_mask() | subgroup_ge_mask() | subgroup_gt_mask()
                | subgroup_le_mask() | subgroup_lt_mask();
            let mut n = c + subgroup_ballot_find_lsb(masks) + subgroup_ballot_find_msb(b);
            if subgroup_elect() && subgroup_inverse_ballot(m) && subgroup_ballot_bit_extract(b, x) {{
                n += subgroup_broadcast_first(x) + (subgroup_broadcast(f, 1) as u32);
            }}
            n += {family};
            n + subgroup_local_invocation_id() + subgroup_size()
        }}"
    )
}
