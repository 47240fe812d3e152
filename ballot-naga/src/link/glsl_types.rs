//! The value types of a GLSL shader's generic subgroup calls (broadcasts,
//! arithmetic, shuffles, quads: [`super::types::is_typed`]), for
//! `glsl-no-subgroup`.
//!
//! The emulation overloads these for the 32-bit scalars and their vectors
//! (`uint`, `int`, `float`, `bool`, `uvec2` … `vec4`), and where a call
//! sits in code that not every invocation runs, the if-conversion
//! computes it into a temporary, whose type it must write.
//! The linker's reader knows no types; glslang does: the shader, with the
//! subgroup extensions enabled and its lines numbered as written (`#line`),
//! is compiled once more with `-i`, and each call's type (its result's,
//! which is its value's) is read from its intermediate tree, line by line,
//! in the order the calls are written (the tree lists a line's calls
//! outermost and leftmost first, as the text has them). Where that reading
//! does not give one type for every call the linker found, it gives none,
//! and the linker goes on as before.
//!
//! The same tree gives each clustered reduction's cluster size as glslang
//! folds it (a `const` name or a macro as well as a literal): the
//! emulation's helper takes it as an operand, and the linker checks it
//! is a power of two. glslang itself refuses a size that
//! is no constant, or no power of two, as it compiles this text.

use std::collections::BTreeMap;

use crate::polyfill::GLSL_FAMILY_EXTENSIONS;
use crate::valid::{glslang, GlslApi};
use ballot_ir::op::Op;

/// A generic call as glslang's tree has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Call {
    /// Its value's type, as GLSL writes it; empty where the tree gives
    /// none (a constant).
    pub ty: String,
    /// A clustered reduction's cluster size, the constant glslang folds it
    /// to; `None` for the other operations.
    pub cluster: Option<i64>,
}

/// The generic calls by 1-based line of `text`, in the order of the calls
/// on each line; `None` where glslang cannot compile the text as `stage`
/// (with `defines`, `#define` lines) or no `#version` line is found.
pub(super) fn values(
    text: &str,
    stage: &str,
    api: GlslApi,
    defines: &str,
) -> Option<BTreeMap<u32, Vec<Call>>> {
    let tree = tree(text, stage, api, defines)?;
    values_in(&tree)
}

/// A call of one of the shader's own functions, as glslang's tree has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct UserCall {
    /// The function's name.
    pub name: String,
    /// Its result's type as GLSL writes it (`vec2`), or empty where that is
    /// no name GLSL writes (a struct's, which the tree spells out).
    pub ty: String,
    /// The 1-based line of the definition of the overload it calls.
    pub definition: Option<u32>,
}

/// The calls of the shader's own functions by 1-based line of `text`, in
/// the order of the calls on each line (outermost and leftmost first, as
/// the text has them). So a call of an overloaded function gets the
/// overload it calls: its result type, and where it is defined. `None` as
/// for [`values`].
pub(super) fn user_calls(
    text: &str,
    stage: &str,
    api: GlslApi,
    defines: &str,
) -> Option<BTreeMap<u32, Vec<UserCall>>> {
    let tree = tree(text, stage, api, defines)?;
    let mut found: BTreeMap<u32, Vec<UserCall>> = BTreeMap::new();
    // Each overload's definition by its mangled name (`sum(vf2;`).
    let mut definitions: BTreeMap<&str, u32> = BTreeMap::new();
    let mut calls: Vec<(u32, &str, &str, &str)> = Vec::new();
    for line in tree.lines() {
        if line.starts_with("Linked ") {
            break;
        }
        let Some((number, node)) = line
            .strip_prefix("0:")
            .and_then(|rest| rest.split_once(char::is_whitespace))
        else {
            continue;
        };
        let Ok(number) = number.parse::<u32>() else {
            continue;
        };
        // `Function Call: sum(vf2; ( global highp 2-component vector of float)`
        let node = node.trim();
        let (call, rest) = match (
            node.strip_prefix("Function Call: "),
            node.strip_prefix("Function Definition: "),
        ) {
            (Some(rest), _) => (true, rest),
            (None, Some(rest)) => (false, rest),
            (None, None) => continue,
        };
        let Some((mangled, ty)) = rest
            .split_once(" (")
            .and_then(|(mangled, ty)| Some((mangled, ty.strip_suffix(')')?)))
        else {
            continue;
        };
        let Some((name, _)) = mangled.split_once('(') else {
            continue;
        };
        match call {
            true => calls.push((number, name, mangled, ty)),
            false => {
                definitions.entry(mangled).or_insert(number);
            }
        }
    }
    for (number, name, mangled, ty) in calls {
        let ty = type_name(ty.trim_start());
        let named = ty.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        found.entry(number).or_default().push(UserCall {
            name: name.to_string(),
            ty: if named { ty } else { String::new() },
            definition: definitions.get(mangled).copied(),
        });
    }
    Some(found)
}

/// glslang's intermediate tree of `text`, compiled as `stage` with
/// `defines` and the subgroup extensions enabled, its lines numbered as
/// written; `None` where it does not compile or has no `#version` line.
fn tree(text: &str, stage: &str, api: GlslApi, defines: &str) -> Option<String> {
    let version = text
        .lines()
        .position(|l| l.trim_start().starts_with("#version"))?;
    let mut given = String::with_capacity(text.len() + 160);
    let mut lines = text.split_inclusive('\n');
    for line in lines.by_ref().take(version + 1) {
        given.push_str(line);
    }
    if !given.ends_with('\n') {
        given.push('\n');
    }
    // The caller's defines (`#define` lines, each after a break).
    given.push_str(defines.trim_start_matches('\n'));
    if !defines.is_empty() {
        given.push('\n');
    }
    given.push_str("#extension GL_KHR_shader_subgroup_basic : enable\n");
    given.push_str("#extension GL_KHR_shader_subgroup_ballot : enable\n");
    // The clustered reductions' too, which the `glsl` library leaves out
    // (`polyfill::covers`) and the linker links.
    for extension in GLSL_FAMILY_EXTENSIONS
        .iter()
        .chain(&["GL_KHR_shader_subgroup_clustered"])
    {
        given.push_str(&format!("#extension {extension} : enable\n"));
    }
    given.push_str(&format!("#line {}\n", version + 2));
    lines.for_each(|l| given.push_str(l));
    glslang::intermediate(&given, stage, api)
}

/// [`values`] of glslang's tree.
fn values_in(tree: &str) -> Option<BTreeMap<u32, Vec<Call>>> {
    let names: Vec<&str> = Op::ALL
        .into_iter()
        .filter(|&op| ballot_ir::ir::op_is_generic(op))
        .map(Op::glsl_name)
        .collect();
    let mut found: BTreeMap<u32, Vec<Call>> = BTreeMap::new();
    // `subgroupAllEqual`'s node has the type of its result, a `bool`: its
    // value's is its first child's, on the next line.
    let mut all_equal_at: Option<u32> = None;
    // The clustered reductions whose cluster size is still to come: each
    // one's line, its call's index there, its node's indentation, how
    // many of its children have been seen, and whether the next line is
    // its size's constant. Its children are the lines indented 2 more
    // than it; the second is the size, a `Constant:` node whose value is
    // on the line after it.
    let mut clusters: Vec<Pending> = Vec::new();
    for line in tree.lines() {
        // The tree again, after linking: the first one has every call.
        if line.starts_with("Linked ") {
            break;
        }
        let Some(rest) = line.strip_prefix("0:") else {
            continue;
        };
        let Some((number, node)) = rest.split_once(char::is_whitespace) else {
            continue;
        };
        let Ok(number) = number.parse::<u32>() else {
            continue;
        };
        let indent = node.len() - node.trim_start().len();
        let node = node.trim();
        // The clustered nodes this line is no longer inside of are done.
        while clusters.last().is_some_and(|c| indent <= c.indent) {
            clusters.pop();
        }
        if let Some(c) = clusters.last_mut() {
            if c.constant_next {
                c.constant_next = false;
                let value = node.split_once(" (const ").and_then(|(v, t)| {
                    matches!(t, "int)" | "uint)")
                        .then(|| v.parse::<i64>().ok())
                        .flatten()
                });
                if let Some(call) = found.get_mut(&c.line).and_then(|l| l.get_mut(c.index)) {
                    call.cluster = value;
                }
            } else if indent == c.indent + 2 {
                c.children += 1;
                c.constant_next = c.children == 2 && node == "Constant:";
            }
        }
        if let Some(at) = all_equal_at.take() {
            found.entry(at).or_default().push(Call {
                ty: match child_type(node) {
                    Some(ty) => type_name(ty),
                    None => String::new(),
                },
                cluster: None,
            });
            continue;
        }
        let Some((name, ty)) = node
            .split_once(" (")
            .filter(|(name, _)| names.contains(name))
            .and_then(|(name, t)| Some((name, t.strip_suffix(')')?)))
        else {
            continue;
        };
        if name == "subgroupAllEqual" {
            all_equal_at = Some(number);
            continue;
        }
        // `( global bool, operation at highp)`: the type is before the comma.
        let ty = ty.split(", ").next().unwrap_or(ty);
        let calls = found.entry(number).or_default();
        if name.starts_with("subgroupClustered") {
            clusters.push(Pending {
                line: number,
                index: calls.len(),
                indent,
                children: 0,
                constant_next: false,
            });
        }
        calls.push(Call {
            ty: type_name(ty),
            cluster: None,
        });
    }
    Some(found)
}

/// A clustered reduction of glslang's tree whose size is still to be
/// read ([`values`]).
struct Pending {
    line: u32,
    index: usize,
    indent: usize,
    children: usize,
    constant_next: bool,
}

/// The type of a node of glslang's tree, the last parenthesised group of
/// its line (`d: direct index for structure (layout( column_major std430)
/// buffer double)`), its layout dropped; `None` where the line has none (a
/// `Constant:` node).
fn child_type(node: &str) -> Option<&str> {
    let inner = node.strip_suffix(')')?;
    let mut depth = 0usize;
    let open = inner.char_indices().rev().find_map(|(i, c)| match c {
        ')' => {
            depth += 1;
            None
        }
        '(' if depth == 0 => Some(i),
        '(' => {
            depth -= 1;
            None
        }
        _ => None,
    })?;
    let ty = &inner[open + 1..];
    // `layout( … ) buffer double`: what follows the layout.
    let ty = match ty.trim_start().strip_prefix("layout(") {
        Some(rest) => rest.split_once(')').map_or(rest, |(_, after)| after),
        None => ty,
    };
    Some(ty.split(", ").next().unwrap_or(ty).trim())
}

/// glslang's spelling of a type (`global highp 3-component vector of
/// uint`) as GLSL writes it (`uvec3`); a type with no GLSL name
/// (a structure, an array) as glslang spells it, qualifiers dropped.
fn type_name(spelled: &str) -> String {
    const QUALIFIERS: [&str; 9] = [
        "global", "temp", "const", "highp", "mediump", "lowp", "uniform", "buffer", "shared",
    ];
    let words: Vec<&str> = spelled
        .split_whitespace()
        .filter(|w| !QUALIFIERS.contains(w))
        .collect();
    let plain = words.join(" ");
    let Some((size, scalar)) = plain.split_once("-component vector of ") else {
        return plain;
    };
    let prefix = match scalar {
        "float" => "",
        "int" => "i",
        "uint" => "u",
        "bool" => "b",
        "double" => "d",
        "float16_t" => "f16",
        "int64_t" => "i64",
        "uint64_t" => "u64",
        "int16_t" => "i16",
        "uint16_t" => "u16",
        "int8_t" => "i8",
        "uint8_t" => "u8",
        _ => return plain,
    };
    format!("{prefix}vec{size}")
}

/// Whether the emulation carries a value of `ty`: a 32-bit scalar or a
/// vector of them, or `bool`'s.
pub(super) fn carried(ty: &str) -> bool {
    matches!(ty, "uint" | "int" | "float" | "bool")
        || ["uvec", "ivec", "vec", "bvec"].iter().any(|p| {
            ty.strip_prefix(p)
                .is_some_and(|n| matches!(n, "2" | "3" | "4"))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glslang_spellings_become_glsl_names() {
        assert_eq!(type_name("global highp float"), "float");
        assert_eq!(type_name("global bool"), "bool");
        assert_eq!(
            type_name("global highp 3-component vector of uint"),
            "uvec3"
        );
        assert_eq!(
            type_name("global highp 2-component vector of double"),
            "dvec2"
        );
        assert_eq!(type_name("global highp float16_t"), "float16_t");
        assert!(carried("uvec3") && carried("bool") && carried("vec4"));
        assert!(!carried("double") && !carried("f16vec2") && !carried("vec5"));
    }

    /// The types alone, by line.
    fn types(found: &BTreeMap<u32, Vec<Call>>) -> BTreeMap<u32, Vec<String>> {
        found
            .iter()
            .map(|(&line, calls)| (line, calls.iter().map(|c| c.ty.clone()).collect()))
            .collect()
    }

    #[test]
    fn each_clustered_reduction_gets_the_size_glslang_folds() {
        if !ballot_testkit::have_tools("glslang's cluster sizes", &[ballot_testkit::GLSLANG]) {
            return;
        }
        // A literal, a `const` name, a macro, a constant expression, a
        // nested call (outer first, as written) and a vector.
        let text = "#version 450\nlayout(local_size_x = 32) in;\n\
                    layout(binding = 0) buffer B { vec4 f; uint d[]; } b;\n\
                    const uint K = 2u * 4u;\n#define C 2\n\
                    void main() {\n    \
                    const int L = 16;\n    \
                    uint v = b.d[gl_LocalInvocationIndex];\n    \
                    b.d[0] = subgroupClusteredAdd(v, K) + subgroupClusteredMax(v, 0x4u);\n    \
                    b.d[1] = subgroupClusteredOr(subgroupClusteredXor(v, 1u), C) + uint(subgroupClusteredAnd(v > 2u, L));\n    \
                    b.f = subgroupClusteredMul(b.f, K / 4u) + subgroupBroadcast(b.f, 1u);\n}\n";
        let found = values(text, "comp", GlslApi::default(), "").expect("glslang compiles it");
        let clusters =
            |line: u32| -> Vec<Option<i64>> { found[&line].iter().map(|c| c.cluster).collect() };
        assert_eq!(clusters(9), [Some(8), Some(4)]);
        assert_eq!(clusters(10), [Some(2), Some(1), Some(16)]);
        assert_eq!(clusters(11), [Some(2), None]);
        assert_eq!(types(&found)[&10], ["uint", "uint", "bool"]);
        assert_eq!(types(&found)[&11], ["vec4", "vec4"]);
        // A size glslang cannot fold is its error: no tree.
        let variable = text.replace("(v, K)", "(v, v)");
        assert_eq!(values(&variable, "comp", GlslApi::default(), ""), None);
    }

    #[test]
    fn each_broadcast_gets_its_type_at_its_line() {
        if !ballot_testkit::have_tools("glslang's types", &[ballot_testkit::GLSLANG]) {
            return;
        }
        let text = "// a comment first\n#version 450\nlayout(local_size_x = 32) in;\n\
                    layout(binding = 0) buffer B { vec4 v; double d; } b;\n\
                    void main() {\n    \
                    b.v.x = subgroupBroadcast(b.v.y * 2.0, 1u) + float(subgroupBroadcastFirst(gl_LocalInvocationIndex > 3u));\n    \
                    b.d = subgroupBroadcastFirst(b.d);\n}\n";
        let found =
            types(&values(text, "comp", GlslApi::default(), "").expect("glslang compiles it"));
        assert_eq!(found[&6], ["float", "bool"]);
        assert_eq!(found[&7], ["double"]);
        assert_eq!(found.len(), 2);
        // AllEqual's value, not its `bool`, and the others' types before a
        // precision note.
        let text = "#version 450\nlayout(local_size_x = 32) in;\n\
                    layout(binding = 0) buffer B { double d; vec2 v; uint r; } b;\n\
                    void main() {\n    \
                    bool x = subgroupAllEqual(b.d);\n    \
                    bool y = subgroupAllEqual(b.v * 2.0) && subgroupAllEqual(true);\n    \
                    b.r = uint(x) + uint(y) + subgroupAdd(b.r);\n}\n";
        let found =
            types(&values(text, "comp", GlslApi::default(), "").expect("glslang compiles it"));
        assert_eq!(found[&5], ["double"]);
        assert_eq!(found[&6], ["vec2", ""]);
        assert_eq!(found[&7], ["uint"]);
    }

    /// A shader whose intermediate tree is larger than glslang's messages
    /// may be (ggml's flash attention: 1.4 MB from 130 KB of GLSL) is read
    /// whole: its last broadcast has its type.
    #[test]
    fn a_large_shader_s_tree_is_read_whole() {
        if !ballot_testkit::have_tools("glslang's types", &[ballot_testkit::GLSLANG]) {
            return;
        }
        let mut text = String::from(
            "#version 450\nlayout(local_size_x = 32) in;\n\
             layout(binding = 0) buffer B { vec4 v; } b;\nvoid main() {\n    vec4 x = b.v;\n",
        );
        for k in 0..6000 {
            text.push_str(&format!("    x = x * 1.5 + vec4({k}.0, 1.0, 2.0, 3.0);\n"));
        }
        text.push_str("    b.v = subgroupBroadcastFirst(x);\n}\n");
        let line = text.lines().count() as u32 - 1;
        let found =
            types(&values(&text, "comp", GlslApi::default(), "").expect("glslang compiles it"));
        assert_eq!(found[&line], ["vec4"]);
    }
}
