//! The typed functions of the generic subgroup calls, on the emulated
//! targets: broadcasts, arithmetic, shuffles and quads.
//!
//! These take any numeric scalar or vector (GLSL: `bool`s too), and the
//! emulation exchanges four `u32` words: each typed function moves its
//! value's bits into those words, calls the exchange, and takes the bits
//! back.
//!
//! - WGSL has no overloading, so `wgsl-no-subgroup` needs one function per
//!   operation and type, and the lexer that reads the shader knows no
//!   types. naga does: the shader linked for `wgsl`, where these are all
//!   WGSL's own, is parsed and validated once, and each call's operation
//!   and value type are read from naga's module at the call's place in the
//!   user's text ([`calls`]). That also picks the operation WGSL's one name
//!   stands for (`subgroupAdd` of an `f32` is `FAdd`, of an `i32` `IAdd`).
//!   The emulated call is then named for its type ([`Typed::suffix`]), and
//!   [`Typed::wrapper`] is its function. (Broadcast's, Shuffle's and
//!   QuadBroadcast's lane, an `i32` or a `u32`, is converted at the call, in
//!   both texts: naga takes only a `u32`.)
//! - GLSL overloads its functions, so `glsl-no-subgroup` needs no types
//!   read: [`glsl_overloads`] writes every 32-bit type the extension takes
//!   for an operation, and glslang picks.

use std::collections::{BTreeMap, BTreeSet};

use naga::common::wgsl::TypeContext as _;
use naga::{CollectiveOperation, Scalar, ScalarKind, SubgroupOperation, TypeInner, VectorSize};

use crate::polyfill::{family_call, family_operand};
use crate::valid;
use ballot_ir::op::{ArithOp, Op, Quad, Scan};
use ballot_shader::back::Language;
use ballot_shader::lower::helpers::Helper;

/// A generic call's operation and value type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Typed {
    /// `Broadcast`, `BroadcastFirst`, or one of the rest of the family but
    /// the votes ([`is_typed`]).
    pub op: Op,
    /// The value's scalar.
    scalar: Element,
    /// Components: 1 for a scalar, else the vector's size.
    width: u8,
}

/// Whether calls of `op` are linked as [`Typed`] functions: the
/// operations generic in their value, but `AllEqual`, whose result is a
/// `bool`, and which WGSL lacks.
pub(super) fn is_typed(op: Op) -> bool {
    ballot_ir::ir::op_is_generic(op) && op != Op::AllEqual
}

/// A scalar the emulation moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Element {
    U32,
    I32,
    F32,
    F16,
}

const ELEMENTS: [Element; 4] = [Element::U32, Element::I32, Element::F32, Element::F16];

impl Element {
    fn of(scalar: Scalar) -> Option<Self> {
        Some(match (scalar.kind, scalar.width) {
            (ScalarKind::Uint, 4) => Element::U32,
            (ScalarKind::Sint, 4) => Element::I32,
            (ScalarKind::Float, 4) => Element::F32,
            (ScalarKind::Float, 2) => Element::F16,
            _ => return None,
        })
    }

    fn wgsl(self) -> &'static str {
        match self {
            Element::U32 => "u32",
            Element::I32 => "i32",
            Element::F32 => "f32",
            Element::F16 => "f16",
        }
    }
}

/// What naga found at a call it cannot be linked for: the value's type.
pub(super) type Untyped = String;

/// The arithmetic operation WGSL's `op` is on a value of `element`: `None`
/// where the emulation has none. f16's are the float operations, which its
/// own functions ([`F16_ARITH`]) compute in f16.
fn arith(op: SubgroupOperation, element: Element) -> Option<ArithOp> {
    use Element::*;
    use SubgroupOperation as S;
    Some(match (op, element) {
        (S::Add, F32 | F16) => ArithOp::FAdd,
        (S::Add, _) => ArithOp::IAdd,
        (S::Mul, F32 | F16) => ArithOp::FMul,
        (S::Mul, _) => ArithOp::IMul,
        (S::Min, F32 | F16) => ArithOp::FMin,
        (S::Min, I32) => ArithOp::SMin,
        (S::Min, U32) => ArithOp::UMin,
        (S::Max, F32 | F16) => ArithOp::FMax,
        (S::Max, I32) => ArithOp::SMax,
        (S::Max, U32) => ArithOp::UMax,
        (S::And, U32 | I32) => ArithOp::And,
        (S::Or, U32 | I32) => ArithOp::Or,
        (S::Xor, U32 | I32) => ArithOp::Xor,
        _ => return None,
    })
}

impl Typed {
    /// `op` of a `u32`: what a call gets where naga gives no type.
    pub fn plain(op: Op) -> Self {
        Typed {
            op,
            scalar: Element::U32,
            width: 1,
        }
    }

    /// The plain `u32` broadcast the library has itself.
    fn is_plain_broadcast(&self) -> bool {
        matches!(self.op, Op::Broadcast | Op::BroadcastFirst)
            && self.scalar == Element::U32
            && self.width == 1
    }

    /// The value's WGSL type.
    fn ty(&self) -> String {
        match self.width {
            1 => self.scalar.wgsl().to_string(),
            n => format!("vec{n}<{}>", self.scalar.wgsl()),
        }
    }

    /// What the linked name gets after the operation's linked name
    /// ([`super::linked_name`]), or `None` for the library's own `u32`
    /// broadcasts: `_vec3f32`, `_i32`.
    pub fn suffix(&self) -> Option<String> {
        if self.is_plain_broadcast() {
            return None;
        }
        let ty = match self.width {
            1 => self.scalar.wgsl().to_string(),
            n => format!("vec{n}{}", self.scalar.wgsl()),
        };
        Some(format!("_{ty}"))
    }

    /// Whether it is f16 arithmetic, which [`F16_ARITH`] computes.
    pub fn is_f16_arith(&self) -> bool {
        self.scalar == Element::F16 && self.op.arith().is_some()
    }

    /// The WGSL function, under `ballot_`: the value's bits in the
    /// exchange's four words (f16 widened to f32, which is exact both
    /// ways), the exchange, and the bits back. Broadcasts go through the
    /// library's `vec4<u32>` functions, the rest through their helpers;
    /// f16 arithmetic through [`F16_ARITH`].
    pub fn wrapper(&self) -> String {
        let ty = self.ty();
        let n = self.width;
        if let (true, Op::Arith(arith, scan)) = (self.is_f16_arith(), self.op) {
            let padded = match n {
                1 => "vec4<f16>(value, f16(), f16(), f16())",
                2 => "vec4<f16>(value, vec2<f16>())",
                3 => "vec4<f16>(value, f16())",
                _ => "value",
            };
            let swizzle = ["", ".x", ".xy", ".xyz", ""][n as usize];
            let code = ballot_shader::back::shading::arith_code(arith);
            let kind = scan as u32;
            let name = super::linked_name(self.op);
            let suffix = self.suffix().unwrap_or_default();
            return format!(
                "\nfn {name}{suffix}(on: bool, value: {ty}) -> {ty} {{\n    \
                 return ballot_arith_f16(on, {padded}, {code}u, {kind}u, {n}u){swizzle};\n}}\n"
            );
        }
        let words = match n {
            1 => "u32".to_string(),
            n => format!("vec{n}<u32>"),
        };
        let bits = match self.scalar {
            Element::U32 => "value".to_string(),
            Element::I32 | Element::F32 => format!("bitcast<{words}>(value)"),
            Element::F16 if n == 1 => "bitcast<u32>(f32(value))".to_string(),
            Element::F16 => format!("bitcast<{words}>(vec{n}<f32>(value))"),
        };
        let padded = match n {
            4 => bits,
            _ => format!("vec4<u32>({bits}{})", ", 0u".repeat(4 - n as usize)),
        };
        let name = super::linked_name(self.op);
        let operand = family_operand(self.op);
        let float = self.scalar == Element::F32;
        let exchanged = exchange_call(Language::Wgsl, self.op, float, &padded, n.into());
        let words_back = match n {
            1 => format!("{exchanged}.x"),
            2 => format!("{exchanged}.xy"),
            3 => format!("{exchanged}.xyz"),
            _ => exchanged,
        };
        let back = match (self.scalar, n) {
            (Element::U32, _) => words_back,
            (Element::I32 | Element::F32, _) => format!("bitcast<{ty}>({words_back})"),
            (Element::F16, 1) => format!("f16(bitcast<f32>({words_back}))"),
            (Element::F16, n) => format!("{ty}(bitcast<vec{n}<f32>>({words_back}))"),
        };
        let suffix = self.suffix().unwrap_or_default();
        let operand = operand.map_or(String::new(), |o| format!(", {o}: u32"));
        format!(
            "\nfn {name}{suffix}(on: bool, value: {ty}{operand}) -> {ty} {{\n    \
             return {back};\n}}\n"
        )
    }

    /// Every typed function's linked name under `prefix`, with its
    /// operation, for the conversion's list of exchanges.
    pub fn every_name(prefix: &str) -> Vec<(String, Op)> {
        let mut names = Vec::new();
        for op in Op::ALL
            .into_iter()
            .filter(|&op| is_typed(op) && crate::polyfill::covers(op))
        {
            let linked = super::linked_name(op);
            let stem = &linked["ballot_".len()..];
            for scalar in ELEMENTS {
                for width in 1..=4 {
                    let t = Typed { op, scalar, width };
                    if let Some(suffix) = t.suffix() {
                        names.push((format!("{prefix}{stem}{suffix}"), op));
                    }
                }
            }
        }
        names.sort();
        names.dedup();
        names
    }
}

/// The arithmetic collectives of f16 values (WGSL's `enable f16;`), over
/// the first `words` components of a `vec4<f16>`: `op` numbered as in
/// `ballot_identity` (1 FAdd, 3 FMul, 6 FMin, 9 FMax), `kind` 0 for the
/// reduction, 1 the inclusive scan, 2 the exclusive one. One exchange of
/// the components widened to f32 (exact), then every lane combines the
/// values of the lanes it takes in lane order, in f16, from the identity
/// (the library's f32 identity narrowed, infinities included), so that
/// each step rounds to f16 as a driver's does, where the f32 helpers
/// would round once. Inactive lanes wrote the identity; lanes a ragged
/// subgroup lacks are not read.
pub(super) const F16_ARITH: &str = "
fn ballot_combine_f16(op: u32, a: vec4<f16>, b: vec4<f16>) -> vec4<f16> {
    switch op {
        case 3u: { return a * b; }
        case 6u: { return min(a, b); }
        case 9u: { return max(a, b); }
        default: { return a + b; }
    }
}

fn ballot_arith_f16(on: bool, v: vec4<f16>, op: u32, kind: u32, words: u32) -> vec4<f16> {
    let identity = vec4<f16>(bitcast<vec4<f32>>(ballot_identity(op)));
    ballot_put(bitcast<vec4<u32>>(vec4<f32>(select(identity, ballot_combine_f16(op, identity, v), on))), words);
    let at = (ballot_values_sync() + ballot_base);
    var r = identity;
    for (var k = 0u; k < ballot_subgroup_size; k++) {
        let taken = (k < ballot_count) && ((kind == 0u) || (k < ballot_lane) || ((kind == 1u) && (k == ballot_lane)));
        let w = vec4<f16>(bitcast<vec4<f32>>(ballot_get((at + k), words)));
        r = select(r, ballot_combine_f16(op, r, w), taken);
    }
    return r;
}
";

/// The call that moves `words`, a value's four exchange words, through
/// `op`'s exchange, in a typed function whose parameters are `on`, `value`
/// and `op`'s operand ([`family_operand`]): the broadcasts through the
/// library's own four-word functions (WGSL names them `…Vec4`; GLSL
/// overloads the name), the rest through their helpers, which move only
/// the `used` words the value fills; `float` says whether the value is an
/// `f32`.
fn exchange_call(language: Language, op: Op, float: bool, words: &str, used: u32) -> String {
    let name = super::linked_name(op);
    let vec4 = match language {
        Language::Wgsl => "Vec4",
        Language::Glsl => "",
    };
    match op {
        Op::Broadcast => format!("{name}{vec4}(on, {words}, id)"),
        Op::BroadcastFirst => format!("{name}{vec4}(on, {words})"),
        op => {
            let helper = Helper::of_op(op, language, true)
                .and_then(Helper::name)
                .unwrap_or_default();
            family_call(helper, true, op, float, words, used)
        }
    }
}

/// The generic calls of `text`, the shader linked for `wgsl`, by the
/// offset in it of each call's first character: their operation and type,
/// or the type naga found where the emulation has no function for it.
/// Empty where naga rejects the text: the emulated link then reports the
/// validator's verdict, at the user's line.
pub(super) fn calls(text: &str) -> BTreeMap<usize, Result<Typed, Untyped>> {
    let mut found = BTreeMap::new();
    let Ok((module, info)) = valid::read_types(text) else {
        return found;
    };
    for (function, analysis) in functions(&module, &info) {
        let mut blocks = vec![&function.body];
        while let Some(block) = blocks.pop() {
            for (statement, span) in block.span_iter() {
                use naga::Statement as S;
                let (kind, argument) = match statement {
                    S::Block(b) => {
                        blocks.push(b);
                        continue;
                    }
                    S::If { accept, reject, .. } => {
                        blocks.extend([accept, reject]);
                        continue;
                    }
                    S::Switch { cases, .. } => {
                        blocks.extend(cases.iter().map(|c| &c.body));
                        continue;
                    }
                    S::Loop {
                        body, continuing, ..
                    } => {
                        blocks.extend([body, continuing]);
                        continue;
                    }
                    S::SubgroupGather { mode, argument, .. } => (Kind::Gather(*mode), *argument),
                    S::SubgroupCollectiveOperation {
                        op,
                        collective_op,
                        argument,
                        ..
                    } => (Kind::Collective(*op, *collective_op), *argument),
                    _ => continue,
                };
                let Some(at) = span.to_range().map(|r| r.start) else {
                    continue;
                };
                let (scalar, width) = match *analysis[argument].ty.inner_with(&module.types) {
                    TypeInner::Scalar(s) => (s, 1),
                    TypeInner::Vector { size, scalar } => (
                        scalar,
                        match size {
                            VectorSize::Bi => 2,
                            VectorSize::Tri => 3,
                            VectorSize::Quad => 4,
                        },
                    ),
                    _ => (Scalar::BOOL, 0),
                };
                let element = Element::of(scalar).filter(|_| width > 0);
                let op = match (kind, element) {
                    // The votes take a `bool`, and need no type.
                    (Kind::Collective(SubgroupOperation::All | SubgroupOperation::Any, _), _) => {
                        continue
                    }
                    (_, None) => None,
                    (Kind::Gather(mode), Some(_)) => Some(gathered(mode)),
                    (Kind::Collective(op, collective), Some(e)) => {
                        arith(op, e).map(|a| Op::Arith(a, scan(collective)))
                    }
                };
                let result = match (op, element) {
                    (Some(op), Some(scalar)) => Ok(Typed { op, scalar, width }),
                    _ => Err(module
                        .types
                        .type_resolution_to_string(&analysis[argument].ty)),
                };
                found.insert(at, result);
            }
        }
    }
    found
}

/// Every function of `module` and every entry point's, with naga's
/// analysis of it.
fn functions<'m>(
    module: &'m naga::Module,
    info: &'m naga::valid::ModuleInfo,
) -> impl Iterator<Item = (&'m naga::Function, &'m naga::valid::FunctionInfo)> {
    module
        .functions
        .iter()
        .map(|(handle, f)| (f, &info[handle]))
        .chain(
            module
                .entry_points
                .iter()
                .enumerate()
                .map(|(i, e)| (&e.function, info.get_entry_point(i))),
        )
}

/// The types naga gives the local declarations of the WGSL `text`, each
/// as WGSL writes it, by where it is: a `let`'s at its initialiser's
/// start, a `var`'s at the start of its declaration (naga keeps no span of
/// a `var`'s initialiser). A type no declaration may spell is left out:
/// a pointer, an atomic, or a type of naga's own (the result of
/// `atomicCompareExchangeWeak`). Empty where naga rejects the text.
pub(super) fn declarations(text: &str) -> BTreeMap<usize, String> {
    let mut found = BTreeMap::new();
    let Ok((module, info)) = valid::read_types(text) else {
        return found;
    };
    let spelled = |inner: &TypeInner| {
        !matches!(
            inner,
            TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. } | TypeInner::Atomic(_)
        )
    };
    let mut keep = |at: Option<std::ops::Range<usize>>, name: String| {
        if let Some(at) = at {
            if !name.starts_with("__") {
                found.insert(at.start, name);
            }
        }
    };
    for (function, analysis) in functions(&module, &info) {
        for handle in function.named_expressions.keys() {
            let ty = &analysis[*handle].ty;
            if spelled(ty.inner_with(&module.types)) {
                keep(
                    function.expressions.get_span(*handle).to_range(),
                    module.types.type_resolution_to_string(ty),
                );
            }
        }
        for (handle, local) in function.local_variables.iter() {
            if spelled(&module.types[local.ty].inner) {
                keep(
                    function.local_variables.get_span(handle).to_range(),
                    module.types.type_to_string(local.ty),
                );
            }
        }
    }
    found
}

/// A naga subgroup statement's kind.
#[derive(Clone, Copy)]
enum Kind {
    Gather(naga::GatherMode),
    Collective(SubgroupOperation, CollectiveOperation),
}

/// The operation of a naga gather.
fn gathered(mode: naga::GatherMode) -> Op {
    use naga::GatherMode as G;
    match mode {
        G::BroadcastFirst => Op::BroadcastFirst,
        G::Broadcast(_) => Op::Broadcast,
        G::Shuffle(_) => Op::Shuffle,
        G::ShuffleDown(_) => Op::ShuffleDown,
        G::ShuffleUp(_) => Op::ShuffleUp,
        G::ShuffleXor(_) => Op::ShuffleXor,
        G::QuadBroadcast(_) => Op::QuadBroadcast,
        G::QuadSwap(naga::Direction::X) => Op::QuadSwap(Quad::Horizontal),
        G::QuadSwap(naga::Direction::Y) => Op::QuadSwap(Quad::Vertical),
        G::QuadSwap(naga::Direction::Diagonal) => Op::QuadSwap(Quad::Diagonal),
    }
}

fn scan(collective: CollectiveOperation) -> Scan {
    match collective {
        CollectiveOperation::Reduce => Scan::Reduce,
        CollectiveOperation::InclusiveScan => Scan::Inclusive,
        CollectiveOperation::ExclusiveScan => Scan::Exclusive,
    }
}

/// A GLSL scalar the emulation moves: its name, its vectors' prefix, and
/// how its bits go to `uint` and back.
struct GlslScalar {
    name: &'static str,
    prefix: &'static str,
    to_bits: &'static str,
    from_bits: &'static str,
}

const GLSL_INT: GlslScalar = GlslScalar {
    name: "int",
    prefix: "i",
    to_bits: "uint",
    from_bits: "int",
};
const GLSL_FLOAT: GlslScalar = GlslScalar {
    name: "float",
    prefix: "",
    to_bits: "floatBitsToUint",
    from_bits: "uintBitsToFloat",
};
const GLSL_UINT: GlslScalar = GlslScalar {
    name: "uint",
    prefix: "u",
    to_bits: "",
    from_bits: "",
};
const GLSL_BOOL: GlslScalar = GlslScalar {
    name: "bool",
    prefix: "b",
    to_bits: "uint",
    from_bits: "bool",
};

/// The GLSL operations that share `op`'s name, so that their overloads go
/// together: `subgroupAdd` is `IAdd` of `int` and `uint` and `FAdd` of
/// `float`.
pub(super) fn glsl_namesakes(op: Op) -> Vec<Op> {
    Op::ALL
        .into_iter()
        .filter(|o| o.glsl_name() == op.glsl_name())
        .collect()
}

/// The scalars `op` takes in GLSL (GL_KHR_shader_subgroup_*'s `genType`,
/// `genIType`, `genUType`, `genBType`, doubles aside). The clustered
/// reductions take what the arithmetic does: Add, Mul, Min and Max
/// `genFType`, `genIType` and `genUType`; And, Or and Xor `genIType`,
/// `genUType` and `genBType`.
fn glsl_scalars(op: Op) -> Vec<GlslScalar> {
    use ArithOp::*;
    match op.arith() {
        Some(IAdd | IMul) => vec![GLSL_INT, GLSL_UINT],
        Some(FAdd | FMul | FMin | FMax) => vec![GLSL_FLOAT],
        Some(SMin | SMax) => vec![GLSL_INT],
        Some(UMin | UMax) => vec![GLSL_UINT],
        Some(And | Or | Xor) => vec![GLSL_INT, GLSL_UINT, GLSL_BOOL],
        None => vec![GLSL_INT, GLSL_FLOAT, GLSL_UINT, GLSL_BOOL],
    }
}

/// A GLSL scalar of other than 32 bits, which the exchange moves through a
/// 32-bit type (`carrier`) or two words (`uvec2`), exactly: every value
/// comes back as it went.
struct GlslWide {
    name: &'static str,
    /// The vectors' prefix: `dvec3`, `i8vec2`.
    prefix: &'static str,
    carrier: &'static str,
    /// The carrier of a value `{}`, and the value of a carrier `{}`.
    to: &'static str,
    back: &'static str,
}

const GLSL_WIDE: [GlslWide; 8] = [
    GlslWide {
        name: "double",
        prefix: "d",
        carrier: "uvec2",
        to: "unpackDouble2x32({})",
        back: "packDouble2x32({})",
    },
    GlslWide {
        name: "int64_t",
        prefix: "i64",
        carrier: "uvec2",
        to: "uvec2(uint({}), uint(uint64_t({}) >> 32u))",
        back: "int64_t(uint64_t({}.x) | (uint64_t({}.y) << 32u))",
    },
    GlslWide {
        name: "uint64_t",
        prefix: "u64",
        carrier: "uvec2",
        to: "uvec2(uint({}), uint({} >> 32u))",
        back: "(uint64_t({}.x) | (uint64_t({}.y) << 32u))",
    },
    // float holds every float16_t value, and `==` on it compares them as
    // float16_t does.
    GlslWide {
        name: "float16_t",
        prefix: "f16",
        carrier: "float",
        to: "float({})",
        back: "float16_t({})",
    },
    GlslWide {
        name: "int8_t",
        prefix: "i8",
        carrier: "int",
        to: "int({})",
        back: "int8_t({})",
    },
    GlslWide {
        name: "int16_t",
        prefix: "i16",
        carrier: "int",
        to: "int({})",
        back: "int16_t({})",
    },
    GlslWide {
        name: "uint8_t",
        prefix: "u8",
        carrier: "uint",
        to: "uint({})",
        back: "uint8_t({})",
    },
    GlslWide {
        name: "uint16_t",
        prefix: "u16",
        carrier: "uint",
        to: "uint({})",
        back: "uint16_t({})",
    },
];

/// The `#extension` lines that declare the types of [`glsl_wide_overloads`]
/// over `used`: the library comes right after `#version`, before the
/// shader's own lines that enable them.
pub(super) fn glsl_wide_extensions(used: &BTreeSet<(Op, String)>) -> String {
    let mut names: BTreeSet<&str> = BTreeSet::new();
    for (_, ty) in used {
        if let Some((wide, _)) = glsl_wide(ty) {
            names.extend(match wide.name {
                "int8_t" | "uint8_t" => Some("int8"),
                "int16_t" | "uint16_t" => Some("int16"),
                "int64_t" | "uint64_t" => Some("int64"),
                "float16_t" => Some("float16"),
                _ => None,
            });
        }
    }
    names
        .into_iter()
        // Each after a break: the library follows `#version`'s line.
        .map(|n| format!("\n#extension GL_EXT_shader_explicit_arithmetic_types_{n} : enable"))
        .collect()
}

/// `ty`, a GLSL type of other than 32 bits the exchange moves (a scalar of
/// [`GLSL_WIDE`] or a vector of one), as its scalar and width.
fn glsl_wide(ty: &str) -> Option<(&'static GlslWide, usize)> {
    GLSL_WIDE.iter().find_map(|w| {
        if ty == w.name {
            return Some((w, 1));
        }
        let n = ty.strip_prefix(w.prefix)?.strip_prefix("vec")?;
        let n = n.parse::<usize>().ok().filter(|n| (2..=4).contains(n))?;
        Some((w, n))
    })
}

/// Whether `glsl-no-subgroup` moves a value of `ty` for `op` through the
/// 32-bit overloads ([`glsl_wide_overloads`]): every generic operation but
/// the arithmetic, clustered too, whose operations would have to be the
/// type's own.
pub(super) fn glsl_moves_wide(op: Op, ty: &str) -> bool {
    op.arith().is_none() && glsl_wide(ty).is_some()
}

/// What arithmetic a [`GlslWide`] type takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum WideClass {
    Float,
    Signed,
    Unsigned,
}

impl GlslWide {
    fn class(&self) -> WideClass {
        if self.name.starts_with("int") {
            WideClass::Signed
        } else if self.name.starts_with("uint") {
            WideClass::Unsigned
        } else {
            WideClass::Float
        }
    }

    /// Its bits.
    fn bits(&self) -> u32 {
        match self.name {
            "double" | "int64_t" | "uint64_t" => 64,
            "int8_t" | "uint8_t" => 8,
            _ => 16,
        }
    }

    /// The identity of `arith` (numbered as in `ballot_identity`) in this
    /// type, as a GLSL expression: built from its bits, as GLSL has no
    /// infinity literal.
    fn identity(&self, arith: ArithOp) -> String {
        use ArithOp::*;
        let bits = self.bits();
        let ones = u64::MAX >> (64 - bits);
        let value: u64 = match (self.class(), arith) {
            (WideClass::Float, FMul) if bits == 64 => 1f64.to_bits(),
            (WideClass::Float, FMin) if bits == 64 => f64::INFINITY.to_bits(),
            (WideClass::Float, FMax) if bits == 64 => f64::NEG_INFINITY.to_bits(),
            // float16_t through its f32 carrier.
            (WideClass::Float, FMul) => u64::from(1f32.to_bits()),
            (WideClass::Float, FMin) => u64::from(f32::INFINITY.to_bits()),
            (WideClass::Float, FMax) => u64::from(f32::NEG_INFINITY.to_bits()),
            (_, IMul) => 1,
            (_, SMin) => ones >> 1,
            (_, SMax) => 1 << (bits - 1),
            (_, UMin | And) => ones,
            _ => 0,
        };
        match self.carrier {
            "uvec2" => {
                let words = format!("uvec2({:#x}u, {:#x}u)", value as u32, value >> 32);
                self.back.replace("{}", &words)
            }
            "float" => format!("{}(uintBitsToFloat({value:#x}u))", self.name),
            // Sign-extended from the type's bits, as the type reads them.
            "int" => {
                let signed = ((value << (64 - bits)) as i64) >> (64 - bits);
                format!("{}({signed})", self.name)
            }
            _ => format!("{}({value}u)", self.name),
        }
    }
}

/// The arithmetic `glsl-no-subgroup` links for the types of [`GLSL_WIDE`]
/// ([`wide_arith`]): Add, Mul, Min and Max of `double`, `float16_t` and
/// their vectors (GL_KHR_shader_subgroup_arithmetic's `genDType`,
/// GL_EXT_shader_subgroup_extended_types_float16), and those and And, Or
/// and Xor of the 8-, 16- and 64-bit integers and their vectors
/// (GL_EXT_shader_subgroup_extended_types_int8, `_int16`, `_int64`),
/// reductions, scans and clustered reductions: as the operation of `op`'s
/// kind on the type, `None` for any other.
fn glsl_wide_arith(op: Op, ty: &str) -> Option<Op> {
    use ArithOp::*;
    let arith = op.arith()?;
    let typed = match (glsl_wide(ty)?.0.class(), arith) {
        (WideClass::Float, IAdd | FAdd) => FAdd,
        (WideClass::Float, IMul | FMul) => FMul,
        (WideClass::Float, SMin | UMin | FMin) => FMin,
        (WideClass::Float, SMax | UMax | FMax) => FMax,
        (WideClass::Float, And | Or | Xor) => return None,
        (_, IAdd | FAdd) => IAdd,
        (_, IMul | FMul) => IMul,
        (WideClass::Signed, SMin | UMin | FMin) => SMin,
        (WideClass::Signed, SMax | UMax | FMax) => SMax,
        (WideClass::Unsigned, SMin | UMin | FMin) => UMin,
        (WideClass::Unsigned, SMax | UMax | FMax) => UMax,
        (_, And | Or | Xor) => arith,
    };
    Some(match op {
        Op::Arith(_, scan) => Op::Arith(typed, scan),
        _ => Op::Clustered(typed),
    })
}

/// Whether `glsl-no-subgroup` links a generic call of `op` on a value of
/// `ty` in [`glsl_wide_overloads`]: a move ([`glsl_moves_wide`]) or
/// arithmetic ([`glsl_wide_arith`]).
pub(super) fn glsl_links_wide(op: Op, ty: &str) -> bool {
    glsl_moves_wide(op, ty) || glsl_wide_arith(op, ty).is_some()
}

/// The arithmetic collectives of `wide`, a scalar of [`GLSL_WIDE`]: `op`
/// numbered as in `ballot_identity`, `kind` 0 for the reduction, 1 the
/// inclusive scan, 2 the exclusive one, over the lanes of the caller's
/// cluster of `cluster` lanes (the subgroup's size but for a clustered
/// reduction: the lanes whose ids agree above log2(`cluster`)). One exchange of the value's words
/// through its carrier (`ballot_put`, whose helpers the operation's own
/// arithmetic brings), then every lane combines the values of the lanes
/// it takes in lane order, in the type, from the identity, as the 32-bit
/// helpers do: inactive lanes wrote the identity, and lanes a ragged
/// subgroup lacks are not read. In the type, so that each step rounds (a
/// `float16_t`) or wraps (an `int8_t`) as the type's own does, where the
/// 32-bit helpers would do it once. A subgroup's reads, rather than the
/// 32-bit helpers' two exchanges of about its square root, keep the code
/// apart from theirs: the library's `ballot_combine` is over 32-bit words,
/// and these types there would ask every shader for them.
fn wide_arith(wide: &GlslWide) -> String {
    use ArithOp::*;
    let t = wide.name;
    let class = wide.class();
    let codes: &[ArithOp] = match class {
        WideClass::Float => &[FAdd, FMul, FMin, FMax],
        WideClass::Signed => &[IAdd, IMul, SMin, SMax, And, Or, Xor],
        WideClass::Unsigned => &[IAdd, IMul, UMin, UMax, And, Or, Xor],
    };
    let case = |arith: ArithOp| ballot_shader::back::shading::arith_code(arith);
    let mut identities = String::new();
    let mut combines = String::new();
    for &arith in codes {
        let code = case(arith);
        identities.push_str(&format!(
            "    case {code}u: return {};\n",
            wide.identity(arith)
        ));
        let combined = match arith {
            FAdd | IAdd => "a + b",
            FMul | IMul => "a * b",
            FMin | SMin | UMin => "min(a, b)",
            FMax | SMax | UMax => "max(a, b)",
            And => "a & b",
            Or => "a | b",
            Xor => "a ^ b",
        };
        combines.push_str(&format!("    case {code}u: return {combined};\n"));
    }
    let to = wide.to.replace("{}", "mine");
    let (words, put, word, value) = match wide.carrier {
        "uvec2" => (
            2,
            format!("uvec4({to}, 0u, 0u)"),
            "uvec2 w = ballot_get(at + k, 2u).xy;",
            wide.back.replace("{}", "w"),
        ),
        "float" => (
            1,
            format!("uvec4(floatBitsToUint({to}), 0u, 0u, 0u)"),
            "uint w = ballot_get(at + k, 1u).x;",
            wide.back.replace("{}", "uintBitsToFloat(w)"),
        ),
        "int" => (
            1,
            format!("uvec4(uint({to}), 0u, 0u, 0u)"),
            "uint w = ballot_get(at + k, 1u).x;",
            wide.back.replace("{}", "int(w)"),
        ),
        _ => (
            1,
            format!("uvec4({to}, 0u, 0u, 0u)"),
            "uint w = ballot_get(at + k, 1u).x;",
            wide.back.replace("{}", "w"),
        ),
    };
    format!(
        "
{t} ballot_identity_{t}(uint op) {{
    switch (op) {{
{identities}    default: return {t}(0);
    }}
}}

{t} ballot_combine_{t}(uint op, {t} a, {t} b) {{
    switch (op) {{
{combines}    default: return a;
    }}
}}

{t} ballot_arith_{t}(bool act, {t} v, uint op, uint kind, uint cluster) {{
    {t} identity = ballot_identity_{t}(op);
    {t} mine = act ? ballot_combine_{t}(op, identity, v) : identity;
    ballot_put({put}, {words}u);
    uint at = ballot_sync() + ballot_base;
    {t} r = identity;
    for (uint k = 0u; k < ballot_subgroup_size; k = k + 1u) {{
        bool taken = k < ballot_count && k / cluster == ballot_lane / cluster
            && (kind == 0u || k < ballot_lane || (kind == 1u && k == ballot_lane));
        {word}
        r = taken ? ballot_combine_{t}(op, r, {value}) : r;
    }}
    return r;
}}
"
    )
}

/// The `glsl-no-subgroup` overloads of the generic calls `used` (each an
/// operation and a value type for which [`glsl_moves_wide`] holds), over
/// [`glsl_overloads`]' own: a value of 8, 16 or 64 bits goes through its
/// carrier, each collective once, into a local first, so that no
/// collective runs twice. A vector of 64-bit values moves one component
/// at a time, through the scalar's overload, written first. `AllEqual` of
/// a `double` compares values as `double`s do (-0.0 equals 0.0, a NaN
/// nothing), against the lowest active lane's, through the library's
/// `ballot_broadcast_first` and `ballot_all`, which its `AllEqual` holds.
pub(super) fn glsl_wide_overloads(used: &BTreeSet<(Op, String)>) -> String {
    // Scalars first: the 64-bit vectors call them. `double` arithmetic as
    // its float operation, whichever namesake the call was read as.
    let mut wanted: BTreeSet<(usize, Op, &'static str)> = BTreeSet::new();
    for (op, ty) in used {
        let Some((wide, n)) = glsl_wide(ty).filter(|_| glsl_links_wide(*op, ty)) else {
            continue;
        };
        let op = glsl_wide_arith(*op, ty).unwrap_or(*op);
        if n > 1 && (wide.carrier == "uvec2" || op.arith().is_some()) {
            wanted.insert((1, op, wide.name));
        }
        wanted.insert((n, op, wide.name));
    }
    let mut out = String::new();
    // The arithmetic's functions, each type's once, before the overloads.
    let arithmetic: BTreeSet<&str> = wanted
        .iter()
        .filter(|&&(_, op, _)| op.arith().is_some())
        .map(|&(_, _, name)| name)
        .collect();
    for wide in GLSL_WIDE.iter().filter(|w| arithmetic.contains(w.name)) {
        out.push_str(&wide_arith(wide));
    }
    for (n, op, scalar) in wanted {
        let Some(wide) = GLSL_WIDE.iter().find(|w| w.name == scalar) else {
            continue;
        };
        let name = super::linked_name(op);
        let operand = family_operand(op);
        let param = operand.map_or(String::new(), |o| format!(", uint {o}"));
        let arg = operand.map_or(String::new(), |o| format!(", {o}"));
        let ty = match n {
            1 => wide.name.to_string(),
            n => format!("{}vec{n}", wide.prefix),
        };
        let all_equal = op == Op::AllEqual;
        let ret = if all_equal { "bool" } else { &ty };
        let body = if n > 1 && (wide.carrier == "uvec2" || op.arith().is_some()) {
            // One component at a time, each its own collective, into a
            // local first: `&&` would skip the later ones. Arithmetic so
            // too, in the type.
            let names = &["x", "y", "z", "w"][..n];
            let local = if all_equal { "bool" } else { wide.name };
            let locals: String = names
                .iter()
                .map(|c| format!("    {local} {c} = {name}(on, value.{c}{arg});\n"))
                .collect();
            let result = if all_equal {
                names.join(" && ")
            } else {
                format!("{ty}({})", names.join(", "))
            };
            format!("{locals}    return {result};\n")
        } else if let Some(arith) = op.arith() {
            // A scalar's arithmetic, the one arithmetic here: a clustered
            // reduction is a reduction over its cluster.
            let code = ballot_shader::back::shading::arith_code(arith);
            let (kind, cluster) = match op {
                Op::Arith(_, scan) => (scan as u32, "ballot_subgroup_size"),
                _ => (0, operand.unwrap_or_default()),
            };
            format!(
                "    return ballot_arith_{}(on, value, {code}u, {kind}u, {cluster});\n",
                wide.name
            )
        } else if all_equal && wide.name == "double" {
            "    uvec4 first = ballot_broadcast_first(on, uvec4(unpackDouble2x32(value), 0u, 0u), 2u);\n    \
             return ballot_all(on, value == packDouble2x32(first.xy));\n"
                .to_string()
        } else {
            let carrier = match n {
                1 => wide.carrier.to_string(),
                n => {
                    let prefix = match wide.carrier {
                        "int" => "i",
                        "uint" => "u",
                        _ => "",
                    };
                    format!("{prefix}vec{n}")
                }
            };
            let to = wide.to.replace("{}", "value");
            let moved = match n {
                1 => to,
                _ => format!("{carrier}(value)"),
            };
            if all_equal {
                format!("    return {name}(on, {moved}{arg});\n")
            } else {
                let back = match n {
                    1 => wide.back.replace("{}", "w"),
                    _ => format!("{ty}(w)"),
                };
                format!("    {carrier} w = {name}(on, {moved}{arg});\n    return {back};\n")
            }
        };
        out.push_str(&format!(
            "\n{ret} {name}(bool on, {ty} value{param}) {{\n{body}}}\n"
        ));
    }
    out
}

/// The `glsl-no-subgroup` overloads of `op` (a broadcast, `AllEqual`, or
/// one of the rest of the family but the votes on a `bool`), for each scalar it takes and their
/// vectors, each over the four-word exchange, bit for bit
/// (`floatBitsToUint`; `uint(int)` keeps the bits). The library has the
/// `uint` and `uvec4` broadcasts itself. An `int` lane converts to the
/// `uint` parameter, as GLSL converts arguments (GLSL 4.60, section 6.1).
pub(super) fn glsl_overloads(op: Op) -> String {
    let name = super::linked_name(op);
    let operand = family_operand(op);
    let operand_param = operand.map_or(String::new(), |o| format!(", uint {o}"));
    let mut out = String::new();
    for scalar in glsl_scalars(op) {
        for n in 1..=4usize {
            let broadcast = matches!(op, Op::Broadcast | Op::BroadcastFirst);
            // The library's own.
            if broadcast && scalar.name == "uint" && (n == 1 || n == 4) {
                continue;
            }
            let (ty, words) = match n {
                1 => (scalar.name.to_string(), "uint".to_string()),
                n => (format!("{}vec{n}", scalar.prefix), format!("uvec{n}")),
            };
            let bits = match scalar.to_bits {
                "" => "value".to_string(),
                "uint" if n > 1 => format!("{words}(value)"),
                f => format!("{f}(value)"),
            };
            let padded = match n {
                4 => bits,
                _ => format!("uvec4({bits}{})", ", 0u".repeat(4 - n)),
            };
            let exchanged = exchange_call(
                Language::Glsl,
                op,
                scalar.name == "float",
                &padded,
                n as u32,
            );
            let swizzle = ["", ".x", ".xy", ".xyz", ""][n];
            let words_back = format!("{exchanged}{swizzle}");
            let (ret, back) = match (op, scalar.from_bits) {
                // A vote on the value: its `bool` as it is.
                (Op::AllEqual, _) => ("bool".to_string(), exchanged),
                (_, "") => (ty.clone(), words_back),
                (_, "int" | "bool") => (ty.clone(), format!("{ty}({words_back})")),
                (_, f) => (ty.clone(), format!("{f}({words_back})")),
            };
            out.push_str(&format!(
                "\n{ret} {name}(bool on, {ty} value{operand_param}) {{\n    return {back};\n}}\n"
            ));
        }
    }
    out
}
