//! The types of a WGSL shader's broadcasts, for `wgsl-no-subgroup`.
//!
//! WGSL's `subgroupBroadcast` and `subgroupBroadcastFirst` take any
//! numeric scalar or vector; WGSL has no overloading, so the emulation
//! needs one function per type, and the lexer that reads the shader knows
//! no types. naga does: the shader linked for `wgsl`, where both are
//! WGSL's own, is parsed and validated once, and each broadcast's value
//! type is read from naga's analysis, at the call's place in the user's
//! text. The emulated call is then named for its type
//! ([`Broadcast::suffix`]), and [`Broadcast::wrapper`] is its function over
//! the `vec4<u32>` exchange. (Broadcast's lane, an `i32` or a `u32`, is
//! converted at the call, in both texts: naga takes only a `u32`.)

use std::collections::BTreeMap;

use naga::common::wgsl::TypeContext as _;
use naga::{Scalar, ScalarKind, TypeInner, VectorSize};

use crate::back::Target;
use crate::op::Op;
use crate::valid;

/// The spec name of a broadcast, which the linked ones extend.
fn base(op: Op) -> &'static str {
    match op {
        Op::Broadcast => "subgroupBroadcast",
        _ => "subgroupBroadcastFirst",
    }
}

/// A broadcast's operand types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Broadcast {
    /// `Broadcast` or `BroadcastFirst`.
    pub op: Op,
    /// The value's scalar: `u32`, `i32`, `f32` or `f16`.
    scalar: Element,
    /// Components: 1 for a scalar, else the vector's size.
    width: u8,
}

/// A scalar the emulation broadcasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Element {
    U32,
    I32,
    F32,
    F16,
}

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

/// What naga found at a broadcast it cannot be linked for: the type.
pub(super) type Unbroadcastable = String;

impl Broadcast {
    /// The plain `u32` broadcast the library has itself.
    fn is_plain(&self) -> bool {
        self.scalar == Element::U32 && self.width == 1
    }

    /// The value's WGSL type.
    fn ty(&self) -> String {
        match self.width {
            1 => self.scalar.wgsl().to_string(),
            n => format!("vec{n}<{}>", self.scalar.wgsl()),
        }
    }

    /// What the linked name gets after `subgroupBroadcast` or
    /// `subgroupBroadcastFirst`, or `None` for the library's own `u32`
    /// function: `_vec3f32`, `_i32`.
    pub fn suffix(&self) -> Option<String> {
        if self.is_plain() {
            return None;
        }
        let ty = match self.width {
            1 => self.scalar.wgsl().to_string(),
            n => format!("vec{n}{}", self.scalar.wgsl()),
        };
        Some(format!("_{ty}"))
    }

    /// The function, under `ballot_`, over the library's
    /// `ballot_subgroupBroadcastVec4` / `ballot_subgroupBroadcastFirstVec4`:
    /// the value's bits in the exchange's words (f16 widened to f32, which
    /// is exact both ways), and back.
    pub fn wrapper(&self) -> String {
        let ty = self.ty();
        let n = self.width;
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
        let name = base(self.op);
        let (lane_param, lane_arg) = match self.op {
            Op::Broadcast => (", id: u32", ", id"),
            _ => ("", ""),
        };
        let exchanged = format!("ballot_{name}Vec4(on, {padded}{lane_arg})");
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
        format!(
            "\nfn ballot_{name}{suffix}(on: bool, value: {ty}{lane_param}) -> {ty} {{\n    \
             return {back};\n}}\n"
        )
    }

    /// Every variant's linked name under `prefix`, for the conversion's
    /// list of exchanges.
    pub fn every_name(prefix: &str) -> Vec<String> {
        let mut names = Vec::new();
        for op in [Op::Broadcast, Op::BroadcastFirst] {
            for scalar in [Element::U32, Element::I32, Element::F32, Element::F16] {
                for width in 1..=4 {
                    let b = Broadcast { op, scalar, width };
                    if let Some(suffix) = b.suffix() {
                        names.push(format!("{prefix}{}{suffix}", base(op)));
                    }
                }
            }
        }
        names
    }
}

/// The broadcasts of `text`, the shader linked for `wgsl`, by the offset
/// in it of each call's first character: their types, or the type naga
/// found where the emulation has no function for it. Empty where naga
/// rejects the text: the emulated link then reports the validator's
/// verdict, at the user's line.
pub(super) fn broadcasts(text: &str) -> BTreeMap<usize, Result<Broadcast, Unbroadcastable>> {
    let mut found = BTreeMap::new();
    let Ok((module, info)) = valid::diagnose(Target::Wgsl, text) else {
        return found;
    };
    let functions = module
        .functions
        .iter()
        .map(|(handle, f)| (f, &info[handle]))
        .chain(
            module
                .entry_points
                .iter()
                .enumerate()
                .map(|(i, e)| (&e.function, info.get_entry_point(i))),
        );
    for (function, analysis) in functions {
        let ty = |h: naga::Handle<naga::Expression>| analysis[h].ty.inner_with(&module.types);
        let mut blocks = vec![&function.body];
        while let Some(block) = blocks.pop() {
            for (statement, span) in block.span_iter() {
                use naga::Statement as S;
                match statement {
                    S::Block(b) => blocks.push(b),
                    S::If { accept, reject, .. } => blocks.extend([accept, reject]),
                    S::Switch { cases, .. } => blocks.extend(cases.iter().map(|c| &c.body)),
                    S::Loop {
                        body, continuing, ..
                    } => blocks.extend([body, continuing]),
                    S::SubgroupGather { mode, argument, .. } => {
                        let op = match mode {
                            naga::GatherMode::Broadcast(_) => Op::Broadcast,
                            naga::GatherMode::BroadcastFirst => Op::BroadcastFirst,
                            // Shuffles and quads are refused before linking.
                            _ => continue,
                        };
                        let Some(at) = span.to_range().map(|r| r.start) else {
                            continue;
                        };
                        let value = ty(*argument);
                        let (scalar, width) = match *value {
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
                        let result = match Element::of(scalar).filter(|_| width > 0) {
                            Some(scalar) => Ok(Broadcast { op, scalar, width }),
                            None => Err(module
                                .types
                                .type_resolution_to_string(&analysis[*argument].ty)),
                        };
                        found.insert(at, result);
                    }
                    _ => {}
                }
            }
        }
    }
    found
}

/// GLSL overloads its functions, so `glsl-no-subgroup` needs no types
/// read: the library has the `uint` and `uvec4` broadcasts, and these are
/// the rest of GL_KHR_shader_subgroup_ballot's `genType`, `genIType`,
/// `genUType` and `genBType` (doubles aside), each over the library's
/// `uvec4` one, bit for bit (`floatBitsToUint`; `uint(int)` keeps the bits).
/// An `int` lane converts to the `uint` parameter, as GLSL converts
/// arguments (GLSL 4.60, section 6.1).
pub(super) fn glsl_overloads(op: Op) -> String {
    let name = base(op);
    let (lane_param, lane_arg) = match op {
        Op::Broadcast => (", uint id", ", id"),
        _ => ("", ""),
    };
    // The library's `uvec4` overload, guard included.
    let exchange = format!("ballot_{name}");
    let mut out = String::new();
    for (scalar, prefix, to_bits, from_bits) in [
        ("int", "i", "uint", "int"),
        ("float", "", "floatBitsToUint", "uintBitsToFloat"),
        ("uint", "u", "", ""),
        ("bool", "b", "uint", "bool"),
    ] {
        for n in 1..=4usize {
            // The library's own.
            if scalar == "uint" && (n == 1 || n == 4) {
                continue;
            }
            let (ty, words) = match n {
                1 => (scalar.to_string(), "uint".to_string()),
                n => (format!("{prefix}vec{n}"), format!("uvec{n}")),
            };
            let bits = match to_bits {
                "" => "value".to_string(),
                f if f == "uint" && n > 1 => format!("{words}(value)"),
                f => format!("{f}(value)"),
            };
            let padded = match n {
                4 => bits,
                _ => format!("uvec4({bits}{})", ", 0u".repeat(4 - n)),
            };
            let swizzle = ["", ".x", ".xy", ".xyz", ""][n];
            let exchanged = format!("{exchange}(on, {padded}{lane_arg}){swizzle}");
            let back = match from_bits {
                "" => exchanged,
                "int" | "bool" => format!("{ty}({exchanged})"),
                f => format!("{f}({exchanged})"),
            };
            out.push_str(&format!(
                "\n{ty} ballot_{name}(bool on, {ty} value{lane_param}) {{\n    return {back};\n}}\n"
            ));
        }
    }
    out
}
