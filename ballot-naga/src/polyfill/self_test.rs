//! Each library's self-test entry point: one record per operation and
//! invocation, which the driver tests compare with the spec (see the
//! module docs of [`super`]).

use super::header::init_call;
use super::{function_name, wgsl_suffix, SELF_TEST_RECORDS};
use ballot_ir::ir::Type;
use ballot_ir::op::{ArithOp, Op, Quad, Scan};
use ballot_shader::back::{Language, ShaderOptions, Target};
use ballot_shader::lower::helpers::Helper;

/// The WGSL self-test entry point (see the module docs).
pub(super) fn wgsl_self_test(target: Target, options: &ShaderOptions) -> String {
    let emulated = !target.has_subgroups();
    let [x, y, z] = options.workgroup_size;
    let n = options.invocations_per_workgroup();
    let r = SELF_TEST_RECORDS;
    // naga rejects subgroup built-ins in a multi-dimensional workgroup.
    // Flattened, it has the same invocations under the same
    // local_invocation_index, which is all the self-test reads.
    let size = if emulated || y * z == 1 {
        format!("{x}, {y}, {z}")
    } else {
        n.to_string()
    };
    let init = target.init().map_or_else(String::new, |i| {
        if emulated {
            i.call(&["local_index"])
        } else {
            i.documented()
        }
    });
    let (builtins, ballot_even, elect, first, from0, split) = if emulated {
        (
            "",
            "subgroupBallot(true, even)",
            "subgroupElect(true)",
            "subgroupBroadcastFirst(true, ((g * 3u) + 1u))",
            "subgroupBroadcast(true, ((g * 5u) + 2u), 0u)",
            // Collectives run in every invocation, taking the branch as `on`.
            "    let inside = ((lane & 2u) != 0u);\n    \
             let inside_elect = subgroupElect(inside);\n    \
             let inside_ballot = subgroupBallot(inside, true);\n    \
             var split = 0xffffffffu;\n    \
             if (inside) {\n        \
             split = (select(0u, 1u, inside_elect) | (subgroupBallotBitCount(inside_ballot) << 1u));\n    \
             }\n",
        )
    } else {
        (
            "    @builtin(subgroup_invocation_id) subgroup_invocation_id: u32,\n    \
             @builtin(subgroup_size) subgroup_size: u32,\n",
            "subgroupBallot(even)",
            "subgroupElect()",
            "subgroupBroadcastFirst(((g * 3u) + 1u))",
            "subgroupBroadcast(((g * 5u) + 2u), 0u)",
            "    var split = 0xffffffffu;\n    \
             if ((lane & 2u) != 0u) {\n        \
             split = (select(0u, 1u, subgroupElect()) | (subgroupBallotBitCount(subgroupBallot(true)) << 1u));\n    \
             }\n",
        )
    };
    let family = family_records(target);
    format!(
        "
// Self-test: not part of the library. It calls every function and writes
// {r} records per invocation to binding 0 (see ballot::polyfill).
@group(0) @binding(0) var<storage, read_write> ballot_self_test: array<vec4<u32>>;

@compute @workgroup_size({size})
fn main(
    @builtin(local_invocation_index) local_index: u32,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
{builtins}) {{
    {init};
    let lane = ballot_lane;
    let size = ballot_size;
    let workgroup = ((workgroup_id.x + (workgroup_id.y * num_workgroups.x)) + ((workgroup_id.z * num_workgroups.x) * num_workgroups.y));
    let g = ((workgroup * {n}u) + local_index);
    let at = (g * {r}u);
    let even = ((lane & 1u) == 0u);
    let b = {ballot_even};
    let elected = {elect};
    let first = {first};
    let from0 = {from0};
{split}    ballot_self_test[at] = b;
    ballot_self_test[(at + 1u)] = vec4<u32>(subgroupBallotBitCount(b), subgroupBallotInclusiveBitCount(b), subgroupBallotExclusiveBitCount(b), subgroupBallotFindLSB(b));
    ballot_self_test[(at + 2u)] = vec4<u32>(subgroupBallotFindMSB(b), select(0u, 1u, subgroupBallotBitExtract(b, ((lane + 1u) % size))), select(0u, 1u, subgroupInverseBallot(b)), select(0u, 1u, elected));
    ballot_self_test[(at + 3u)] = subgroupEqMask();
    ballot_self_test[(at + 4u)] = subgroupGeMask();
    ballot_self_test[(at + 5u)] = subgroupGtMask();
    ballot_self_test[(at + 6u)] = subgroupLeMask();
    ballot_self_test[(at + 7u)] = subgroupLtMask();
    ballot_self_test[(at + 8u)] = vec4<u32>(first, from0, split, lane);
    ballot_self_test[(at + 9u)] = vec4<u32>(size, subgroupBallotFindLSB(vec4<u32>(0u)), subgroupBallotFindMSB(vec4<u32>(0u)), select(0u, 1u, subgroupBallotBitExtract(vec4<u32>(0xffffffffu), size)));
{family}}}
"
    )
}

/// The GLSL self-test entry point (see the module docs).
pub(super) fn glsl_self_test(target: Target, options: &ShaderOptions) -> String {
    let emulated = !target.has_subgroups();
    let [x, y, z] = options.workgroup_size;
    let n = options.invocations_per_workgroup();
    let r = SELF_TEST_RECORDS;
    let f = |op: Op| function_name(target, op);
    // On `glsl` the masks are built-in variables; elsewhere functions.
    let mask = |op: Op| {
        if emulated {
            format!("{}()", f(op))
        } else {
            f(op).to_string()
        }
    };
    let (init, lane, size, ballot_even, elect, first, from0, split) = if emulated {
        (
            format!("    {};\n", init_call(target)),
            "ballot_lane",
            "ballot_subgroup_size",
            format!("{}(true, even)", f(Op::Ballot)),
            format!("{}(true)", f(Op::Elect)),
            format!("{}(true, g * 3u + 1u)", f(Op::BroadcastFirst)),
            format!("{}(true, g * 5u + 2u, 0u)", f(Op::Broadcast)),
            // Collectives run in every invocation, taking the branch as `on`.
            format!(
                "    bool inside = (lane & 2u) != 0u;\n    \
                 bool inside_elect = {}(inside);\n    \
                 uvec4 inside_ballot = {}(inside, true);\n    \
                 uint split = 0xFFFFFFFFu;\n    \
                 if (inside) {{\n        \
                 split = uint(inside_elect) | ({}(inside_ballot) << 1u);\n    \
                 }}\n",
                f(Op::Elect),
                f(Op::Ballot),
                f(Op::BitCount)
            ),
        )
    } else {
        (
            String::new(),
            "gl_SubgroupInvocationID",
            "gl_SubgroupSize",
            "subgroupBallot(even)".to_string(),
            "subgroupElect()".to_string(),
            "subgroupBroadcastFirst(g * 3u + 1u)".to_string(),
            "subgroupBroadcast(g * 5u + 2u, 0u)".to_string(),
            "    uint split = 0xFFFFFFFFu;\n    \
             if ((lane & 2u) != 0u) {\n        \
             split = uint(subgroupElect()) | (subgroupBallotBitCount(subgroupBallot(true)) << 1u);\n    \
             }\n"
                .to_string(),
        )
    };
    let (count, inclusive, exclusive) = (
        f(Op::BitCount),
        f(Op::InclusiveBitCount),
        f(Op::ExclusiveBitCount),
    );
    let (lsb, msb, extract, inverse) = (
        f(Op::FindLsb),
        f(Op::FindMsb),
        f(Op::BitExtract),
        f(Op::InverseBallot),
    );
    let (eq, ge, gt, le, lt) = (
        mask(Op::EqMask),
        mask(Op::GeMask),
        mask(Op::GtMask),
        mask(Op::LeMask),
        mask(Op::LtMask),
    );
    let family = family_records(target);
    format!(
        "
// Self-test: not part of the library. It calls every function and writes
// {r} records per invocation to binding 0 (see ballot::polyfill).
layout(local_size_x = {x}, local_size_y = {y}, local_size_z = {z}) in;
layout(std430, set = 0, binding = 0) buffer ballot_self_test_block {{ uvec4 ballot_self_test[]; }};

void main() {{
{init}    uint lane = {lane};
    uint size = {size};
    uvec3 id = gl_WorkGroupID;
    uvec3 groups = gl_NumWorkGroups;
    uint workgroup = (id.x + id.y * groups.x) + (id.z * groups.x) * groups.y;
    uint g = workgroup * {n}u + gl_LocalInvocationIndex;
    uint at = g * {r}u;
    bool even = (lane & 1u) == 0u;
    uvec4 b = {ballot_even};
    bool elected = {elect};
    uint first = {first};
    uint from0 = {from0};
{split}    ballot_self_test[at] = b;
    ballot_self_test[at + 1u] = uvec4({count}(b), {inclusive}(b), {exclusive}(b), {lsb}(b));
    ballot_self_test[at + 2u] = uvec4({msb}(b), uint({extract}(b, (lane + 1u) % size)), uint({inverse}(b)), uint(elected));
    ballot_self_test[at + 3u] = {eq};
    ballot_self_test[at + 4u] = {ge};
    ballot_self_test[at + 5u] = {gt};
    ballot_self_test[at + 6u] = {le};
    ballot_self_test[at + 7u] = {lt};
    ballot_self_test[at + 8u] = uvec4(first, from0, split, lane);
    ballot_self_test[at + 9u] = uvec4(size, {lsb}(uvec4(0u)), {msb}(uvec4(0u)), uint({extract}(uvec4(0xFFFFFFFFu), size)));
{family}}}
"
    )
}

/// How the self-test calls the rest of the family on `target`.
struct Caller {
    target: Target,
    glsl: bool,
    emulated: bool,
}

impl Caller {
    fn new(target: Target) -> Self {
        Caller {
            target,
            glsl: target.language() == Language::Glsl,
            emulated: !target.has_subgroups(),
        }
    }

    /// A call of `op` on a value of type `ty`, taking part where `on`
    /// (emulated targets pass it first): the library's function (of
    /// `ty`'s suffix in WGSL), or the target's own built-in.
    fn call(&self, op: Op, ty: Type, on: &str, args: &[&str]) -> String {
        let language = self.target.language();
        let library =
            self.target != Target::Glsl && Helper::of_op(op, language, self.emulated).is_some();
        let name = match (self.glsl, library) {
            (true, _) => function_name(self.target, op).to_string(),
            (false, true) => format!("{}{}", function_name(self.target, op), wgsl_suffix(op, ty)),
            (false, false) => op.wgsl_name().unwrap_or("ballot_malformed").to_string(),
        };
        let mut all: Vec<&str> = Vec::new();
        if self.emulated {
            all.push(on);
        }
        all.extend(args);
        format!("{name}({})", all.join(", "))
    }

    /// `value` of type `ty` as its `u32` bits (a `bool` as 0 or 1).
    fn bits(&self, value: String, ty: Type) -> String {
        match (self.glsl, ty) {
            (_, Type::U32 | Type::Mask) => value,
            (true, Type::Bool | Type::I32) => format!("uint({value})"),
            (true, Type::F32) => format!("floatBitsToUint({value})"),
            (false, Type::Bool) => format!("select(0u, 1u, {value})"),
            (false, _) => format!("bitcast<u32>({value})"),
        }
    }

    /// `u32` expression `e` as an `i32` or `f32` value.
    fn cast_u32(&self, e: &str, ty: Type) -> String {
        match (self.glsl, ty) {
            (true, Type::I32) => format!("int({e})"),
            (true, Type::F32) => format!("float({e})"),
            (false, Type::I32) => format!("i32({e})"),
            (false, Type::F32) => format!("f32({e})"),
            _ => e.to_string(),
        }
    }

    /// `call(op, ty, on, args)` as `u32` bits.
    fn bits_of(&self, op: Op, ty: Type, on: &str, args: &[&str]) -> String {
        let result = if op == Op::AllEqual { Type::Bool } else { ty };
        self.bits(self.call(op, ty, on, args), result)
    }

    /// Booleans packed into bits 0, 1, …
    fn pack(&self, flags: &[String]) -> String {
        let terms: Vec<String> = flags
            .iter()
            .enumerate()
            .map(|(i, f)| format!("({} << {i}u)", self.bits(f.clone(), Type::Bool)))
            .collect();
        format!("({})", terms.join(" | "))
    }
}

/// Records 10 to 17 (see the module docs of [`super`]): statements in
/// `target`'s language, after `lane`, `size`, `g`, `at`, `even` and `b`.
/// On emulated targets every collective runs in every invocation, record
/// 17's with the branch as `on`.
pub(super) fn family_records(target: Target) -> String {
    use ArithOp::*;
    use Scan::*;
    let c = Caller::new(target);
    let t = "true";
    let u = Type::U32;
    let (i, f) = (Type::I32, Type::F32);
    let arith = |op, scan, ty, arg: &str| c.bits_of(Op::Arith(op, scan), ty, t, &[arg]);
    let lane_f = c.cast_u32("lane", f);
    let size_minus_lane = c.cast_u32("(size - lane)", f);
    let lane_i = c.cast_u32("lane", i);
    let one_or_two = c.cast_u32("(1u + (lane & 1u))", f);
    let (minus_one, one_and_half, five) = if c.glsl {
        ("-1", "1.5", "5")
    } else {
        ("-1i", "1.5f", "5i")
    };
    let (neg, not) = ("-", "~");
    let up = "min(1u, lane)".to_string();
    let down = if c.glsl {
        "((lane + 1u) < size ? 1u : 0u)".to_string()
    } else {
        "select(0u, 1u, ((lane + 1u) < size))".to_string()
    };
    let records: [[String; 4]; 7] = [
        [
            c.pack(&[
                c.call(Op::All, Type::Bool, t, &["(lane < size)"]),
                c.call(Op::All, Type::Bool, t, &["even"]),
                c.call(Op::Any, Type::Bool, t, &["even"]),
                c.call(Op::Any, Type::Bool, t, &["(lane >= size)"]),
            ]),
            c.pack(&[
                c.call(Op::AllEqual, u, t, &["size"]),
                c.call(Op::AllEqual, u, t, &["lane"]),
                c.call(Op::AllEqual, i, t, &[minus_one]),
                c.call(Op::AllEqual, f, t, &[one_and_half]),
                c.call(Op::AllEqual, Type::Bool, t, &["true"]),
                c.call(Op::AllEqual, Type::Mask, t, &["b"]),
                c.call(Op::AllEqual, f, t, &[&lane_f]),
            ]),
            arith(IAdd, Reduce, u, "g"),
            arith(IAdd, Inclusive, u, "g"),
        ],
        [
            arith(IAdd, Exclusive, u, "g"),
            arith(UMin, Reduce, u, "g"),
            arith(UMax, Inclusive, u, "g"),
            arith(Xor, Exclusive, u, "g"),
        ],
        [
            arith(FAdd, Reduce, f, &lane_f),
            arith(FMin, Inclusive, f, &size_minus_lane),
            arith(SMax, Reduce, i, &format!("({lane_i} - {five})")),
            arith(And, Exclusive, i, &format!("({not}{lane_i})")),
        ],
        [
            arith(IMul, Reduce, u, "(1u + (lane & 1u))"),
            arith(IMul, Inclusive, u, "(1u + (lane & 1u))"),
            arith(Or, Exclusive, u, "(1u << (lane & 31u))"),
            arith(And, Inclusive, u, "(~(1u << (lane & 31u)))"),
        ],
        [
            arith(FMul, Exclusive, f, &one_or_two),
            arith(SMin, Inclusive, i, &format!("({five} - {lane_i})")),
            arith(FMax, Exclusive, f, &format!("({neg}{lane_f})")),
            arith(Xor, Reduce, i, &lane_i),
        ],
        [
            c.bits_of(Op::Shuffle, u, t, &["g", "((lane + 1u) % size)"]),
            c.bits_of(Op::ShuffleXor, u, t, &["g", "(1u % size)"]),
            c.bits_of(Op::ShuffleUp, u, t, &["g", &up]),
            c.bits_of(Op::ShuffleDown, u, t, &["g", &down]),
        ],
        [
            c.bits_of(Op::QuadBroadcast, u, t, &["g", "1u"]),
            c.bits_of(Op::QuadSwap(Quad::Horizontal), u, t, &["g"]),
            c.bits_of(Op::QuadSwap(Quad::Vertical), u, t, &["g"]),
            c.bits_of(Op::QuadSwap(Quad::Diagonal), u, t, &["g"]),
        ],
    ];
    let record = |k: usize, words: &[String; 4]| match c.glsl {
        true => format!(
            "    ballot_self_test[at + {k}u] = uvec4({});\n",
            words.join(", ")
        ),
        false => format!(
            "    ballot_self_test[(at + {k}u)] = vec4<u32>({});\n",
            words.join(", ")
        ),
    };
    // Records 18 and 19: the names the records above leave uncalled.
    let after: [[String; 4]; 2] = [
        [
            arith(And, Reduce, u, "(~(1u << (lane & 31u)))"),
            arith(Or, Reduce, u, "(1u << (lane & 31u))"),
            arith(Or, Inclusive, u, "(1u << (lane & 31u))"),
            arith(Xor, Inclusive, u, "g"),
        ],
        [
            arith(UMin, Exclusive, u, "g"),
            arith(UMax, Exclusive, u, "g"),
            arith(IMul, Exclusive, u, "(1u + (lane & 1u))"),
            arith(UMin, Inclusive, u, "g"),
        ],
    ];
    let mut out = String::new();
    for (k, words) in records.iter().enumerate() {
        out.push_str(&record(10 + k, words));
    }
    for (k, words) in after.iter().enumerate() {
        out.push_str(&record(18 + k, words));
    }
    // Record 17: the lanes with bit 1 of the lane id set, in a branch.
    let inside = "((lane & 2u) != 0u)";
    let on = if c.emulated { "inside" } else { t };
    let branch = [
        c.bits_of(Op::Arith(IAdd, Inclusive), u, on, &["1u"]),
        c.bits_of(Op::Arith(IAdd, Reduce), u, on, &["1u"]),
        c.bits_of(Op::ShuffleXor, u, on, &["g", "1u"]),
        c.pack(&[
            c.call(Op::All, Type::Bool, on, &["even"]),
            c.call(Op::Any, Type::Bool, on, &["(lane == 3u)"]),
        ]),
    ];
    let names = ["inside_scan", "inside_sum", "inside_xor", "inside_votes"];
    let declare = |name: &str, value: &str| match c.glsl {
        true => format!("    uint {name} = {value};\n"),
        false => format!("    let {name} = {value};\n"),
    };
    let all_ones = if c.glsl { "0xFFFFFFFFu" } else { "0xffffffffu" };
    let words = names.map(String::from);
    let (open, write) = match c.glsl {
        true => (
            format!("    if ({inside}) {{\n"),
            format!("    {}", record(17, &words)),
        ),
        false => (
            format!("    if {inside} {{\n"),
            format!("    {}", record(17, &words)),
        ),
    };
    if c.emulated {
        // `inside` is record 8's branch, declared before.
        for (name, value) in names.iter().zip(&branch) {
            out.push_str(&declare(name, value));
        }
        out.push_str(&record(17, &[0, 1, 2, 3].map(|_| all_ones.to_string())));
        out.push_str(&open);
        out.push_str(&write);
        out.push_str("    }\n");
    } else {
        out.push_str(&record(17, &[0, 1, 2, 3].map(|_| all_ones.to_string())));
        out.push_str(&open);
        for (name, value) in names.iter().zip(&branch) {
            out.push_str("    ");
            out.push_str(&declare(name, value));
        }
        out.push_str(&write);
        out.push_str("    }\n");
    }
    out
}
