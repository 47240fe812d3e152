//! The emulated targets' step after writing: the linked text's functions
//! that reach an exchange, if-converted ([`crate::reconverge`]), so that a
//! ballot after an early `return`, in a loop or under a branch keeps the
//! meaning it has on hardware subgroups under maximal reconvergence.
//!
//! It reads the linked text, where every exchange is a linked function
//! whose first argument is the activity (`true` as written), and leaves
//! the linked functions themselves alone.

use crate::reconverge::{self, Exchange, ExchangeResult, Operand, Options, Printed};
use ballot_ir::op::Op;
use ballot_shader::back::Language;
use std::collections::BTreeMap;
use std::ops::Range;

/// The shader's own calls that every invocation makes together: never
/// guarded by the conversion.
const WGSL_BARRIERS: &[&str] = &["workgroupBarrier", "storageBarrier", "textureBarrier"];
const GLSL_BARRIERS: &[&str] = &[
    "barrier",
    "memoryBarrier",
    "memoryBarrierShared",
    "memoryBarrierBuffer",
    "memoryBarrierImage",
    "groupMemoryBarrier",
];

/// The linked exchanges under `prefix`, with their result types and
/// operands: the collectives of [`super::is_collective`] (in GLSL one
/// overloaded name each, in WGSL also one per type,
/// [`super::types::Typed`]).
pub(super) fn exchanges(prefix: &str) -> BTreeMap<String, Exchange> {
    let mut map = BTreeMap::new();
    for op in Op::ALL {
        // The clustered reductions too, which only GLSL's linker links.
        if !super::is_collective(op) {
            continue;
        }
        let linked = super::linked_name(op);
        let name = format!("{prefix}{}", &linked["ballot_".len()..]);
        map.insert(name, exchange(op));
    }
    // `subgroupBarrier`, an exchange of no value.
    map.insert(
        format!("{prefix}subgroupBarrier"),
        Exchange {
            result: ExchangeResult::Bool,
            operands: &[],
        },
    );
    for (name, op) in super::types::Typed::every_name(prefix) {
        map.insert(name, exchange(op));
    }
    map
}

/// A collective's result type and operands, as the subgroup extensions
/// declare them.
fn exchange(op: Op) -> Exchange {
    use Operand::*;
    let result = match op {
        Op::Ballot => ExchangeResult::Mask,
        Op::Elect | Op::All | Op::Any | Op::AllEqual => ExchangeResult::Bool,
        _ => ExchangeResult::Value,
    };
    let operands: &'static [Operand] = match op {
        Op::Ballot | Op::All | Op::Any => &[Bool],
        Op::Broadcast | Op::Shuffle | Op::ShuffleXor | Op::ShuffleUp | Op::ShuffleDown => {
            &[Value, Lane]
        }
        Op::QuadBroadcast | Op::Clustered(_) => &[Value, Constant],
        Op::Elect => &[],
        _ => &[Value],
    };
    Exchange { result, operands }
}

/// The name of the workgroup vote under `prefix`.
pub(super) fn vote(prefix: &str) -> String {
    format!("{prefix}workgroup_any")
}

/// The object-like macros `text` defines (GLSL) as nothing or as
/// attributes (GL_EXT_control_flow_attributes' `[[unroll]]`): what a
/// shader writes before a loop as `UNROLL for (…)`. A `-D` define is among
/// them, as the linked text writes it after `#version`.
fn hint_macros(text: &str) -> Vec<String> {
    super::conditional::object_macros(text)
        .into_iter()
        .filter(|(_, body)| body.is_empty() || body.starts_with("[[") && body.ends_with("]]"))
        .map(|(name, _)| name)
        .collect()
}

/// `text` converted; a refusal at a range of `text`. `init_type` tells
/// the type of a WGSL initialiser at a range of `text`
/// ([`Options::init_type`]); `calls` which overload a GLSL call calls
/// ([`Options::calls`]).
pub(super) fn converge(
    text: &str,
    language: Language,
    prefix: &str,
    linked: &[String],
    init_type: &dyn Fn(Range<usize>) -> Option<String>,
    calls: &dyn Fn(Range<usize>, Range<usize>) -> Option<bool>,
) -> Result<Printed, reconverge::Refused> {
    let exchanges = exchanges(prefix);
    let vote = vote(prefix);
    // WGSL has no preprocessor.
    let (hints, macros) = match language {
        Language::Glsl => (hint_macros(text), super::conditional::function_macros(text)),
        Language::Wgsl => (Vec::new(), Vec::new()),
    };
    let options = Options {
        exchanges: &exchanges,
        barriers: match language {
            Language::Wgsl => WGSL_BARRIERS,
            Language::Glsl => GLSL_BARRIERS,
        },
        prefix,
        vote: &vote,
        skip: linked,
        init_type,
        calls,
        hints: &hints.iter().map(String::as_str).collect::<Vec<_>>(),
        macros: &macros
            .iter()
            .map(|(name, body)| (name.as_str(), body.as_str()))
            .collect::<Vec<_>>(),
    };
    reconverge::convert(text, language, &options).map(|(printed, _)| printed)
}
