//! Stand-ins for the names the `GL_KHR_shader_subgroup` extensions add
//! (`_basic`, `_ballot`, `_vote`, `_arithmetic`, `_shuffle`,
//! `_shuffle_relative`, `_quad`, `_clustered`), for naga's glsl-in, which knows none of
//! them (docs/design.md, "naga's limits").
//!
//! The `glsl` target calls the extensions' functions and reads their
//! built-in variables. In its validation mode ([`crate::back::Mode`]) the
//! writer declares, on the line after the `#extension` lines (blank in the
//! output), a stand-in for each name the text uses: a function of the same
//! name and signature, or a variable of the built-in's name and type. naga
//! lets a module declare names that start with `gl_`, and a declared
//! function takes the place of a built-in naga lacks, so every other line
//! is the output's, character for character, and naga's reports quote it.
//! `ballot_naga::valid` declares the same stand-ins for `glsl` text that ballot
//! did not write (a user's shader file), on a line it inserts.
//!
//! `gl_SubgroupSize` is a constant, as the validation of a kernel has
//! always seen it: the writer counts on naga folding it as it folds the
//! emulated targets' size (`is_constant`). The lane's id and its masks
//! differ per invocation, so they are private variables: as constants,
//! naga would fold the expressions that read them and refuse a valid
//! shader whose value at lane 0 overflows, such as
//! `(gl_SubgroupInvocationID - 64u) << 20u` or `1u / gl_SubgroupInvocationID`.

use ballot_ir::op::{ArithOp, Op};

/// Each name of the ballot family, with its stand-in: one line of
/// declarations. The rest of the family's are [`family_stand_in`]'s.
const STAND_INS: &[(&str, &str)] = &[
    (
        "subgroupBallot",
        "uvec4 subgroupBallot(bool p) { return uvec4(0u); }",
    ),
    (
        "subgroupInverseBallot",
        "bool subgroupInverseBallot(uvec4 v) { return false; }",
    ),
    (
        "subgroupBallotBitExtract",
        "bool subgroupBallotBitExtract(uvec4 v, uint i) { return false; }",
    ),
    (
        "subgroupBallotBitCount",
        "uint subgroupBallotBitCount(uvec4 v) { return 0u; }",
    ),
    (
        "subgroupBallotInclusiveBitCount",
        "uint subgroupBallotInclusiveBitCount(uvec4 v) { return 0u; }",
    ),
    (
        "subgroupBallotExclusiveBitCount",
        "uint subgroupBallotExclusiveBitCount(uvec4 v) { return 0u; }",
    ),
    (
        "subgroupBallotFindLSB",
        "uint subgroupBallotFindLSB(uvec4 v) { return 0u; }",
    ),
    (
        "subgroupBallotFindMSB",
        "uint subgroupBallotFindMSB(uvec4 v) { return 0u; }",
    ),
    ("subgroupElect", "bool subgroupElect() { return false; }"),
    (
        "subgroupBroadcastFirst",
        "bool subgroupBroadcastFirst(bool x) { return x; } \
         uint subgroupBroadcastFirst(uint x) { return x; } \
         int subgroupBroadcastFirst(int x) { return x; } \
         float subgroupBroadcastFirst(float x) { return x; } \
         uvec4 subgroupBroadcastFirst(uvec4 x) { return x; }",
    ),
    (
        "subgroupBroadcast",
        "bool subgroupBroadcast(bool x, uint id) { return x; } \
         uint subgroupBroadcast(uint x, uint id) { return x; } \
         int subgroupBroadcast(int x, uint id) { return x; } \
         float subgroupBroadcast(float x, uint id) { return x; } \
         uvec4 subgroupBroadcast(uvec4 x, uint id) { return x; }",
    ),
    (
        "gl_SubgroupInvocationID",
        "uint gl_SubgroupInvocationID = 0u;",
    ),
    ("gl_SubgroupSize", "const uint gl_SubgroupSize = 32u;"),
    ("gl_SubgroupEqMask", "uvec4 gl_SubgroupEqMask = uvec4(0u);"),
    ("gl_SubgroupGeMask", "uvec4 gl_SubgroupGeMask = uvec4(0u);"),
    ("gl_SubgroupGtMask", "uvec4 gl_SubgroupGtMask = uvec4(0u);"),
    ("gl_SubgroupLeMask", "uvec4 gl_SubgroupLeMask = uvec4(0u);"),
    ("gl_SubgroupLtMask", "uvec4 gl_SubgroupLtMask = uvec4(0u);"),
];

/// The stand-in of one of the names the rest of the family adds
/// (`GL_KHR_shader_subgroup_vote`, `_arithmetic`, `_shuffle`,
/// `_shuffle_relative`, `_quad`, `_clustered`): every overload GLSL declares for the
/// types the writer passes (`bool`, `uint`, `int`, `float`, `uvec4`), as
/// functions that return their value (or `true`). `None` for another name.
fn family_stand_in(name: &str) -> Option<String> {
    let op = Op::ALL
        .into_iter()
        .find(|op| !op.is_ballot() && op.glsl_name() == name)?;
    let all = ["bool", "uint", "int", "float", "uvec4"];
    let (types, params, ret): (&[&str], &str, Option<&str>) = match op {
        Op::All | Op::Any => (&["bool"], "", None),
        Op::AllEqual => (&all, "", Some("bool")),
        Op::Arith(ArithOp::And | ArithOp::Or | ArithOp::Xor, _) => {
            (&["bool", "uint", "int"], "", None)
        }
        Op::Arith(..) => (&["uint", "int", "float"], "", None),
        Op::Clustered(ArithOp::And | ArithOp::Or | ArithOp::Xor) => {
            (&["bool", "uint", "int"], ", uint clusterSize", None)
        }
        Op::Clustered(_) => (&["uint", "int", "float"], ", uint clusterSize", None),
        Op::Shuffle | Op::ShuffleXor | Op::ShuffleUp | Op::ShuffleDown | Op::QuadBroadcast => {
            (&all, ", uint id", None)
        }
        _ => (&all, "", None),
    };
    let overloads: Vec<String> = types
        .iter()
        .map(|ty| {
            let (ret, value) = match ret {
                Some(ret) => (ret, "true"),
                None => (*ty, "x"),
            };
            format!("{ret} {name}({ty} x{params}) {{ return {value}; }}")
        })
        .collect();
    Some(overloads.join(" "))
}

/// The stand-ins for the names `uses` accepts, in one line (no line
/// break), in a fixed order; empty when it accepts none.
pub fn declarations(mut uses: impl FnMut(&str) -> bool) -> String {
    let mut line = String::new();
    let mut push = |declaration: &str| {
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(declaration);
    };
    for (name, declaration) in STAND_INS {
        if uses(name) {
            push(declaration);
        }
    }
    // The rest of the family, each GLSL name once (several operations share
    // one: `subgroupAdd` is IAdd's and FAdd's).
    let mut seen = std::collections::BTreeSet::new();
    for op in Op::ALL.into_iter().filter(|op| !op.is_ballot()) {
        let name = op.glsl_name();
        if seen.insert(name) && uses(name) {
            if let Some(declaration) = family_stand_in(name) {
                push(&declaration);
            }
        }
    }
    line
}

/// Whether the validation mode has a stand-in for `name`.
#[cfg(test)]
fn has_stand_in(name: &str) -> bool {
    STAND_INS.iter().any(|(n, _)| *n == name) || family_stand_in(name).is_some()
}

#[cfg(test)]
pub(crate) mod tests {

    use super::*;
    use crate::back::{Form, Missing, Mode, ShaderOptions, Target};
    use ballot_ir::op::Op;

    #[test]
    fn every_native_name_the_writer_uses_has_a_stand_in_on_one_line() {
        let names = Op::ALL
            .iter()
            .map(|op| op.glsl_name())
            .chain(["gl_SubgroupInvocationID", "gl_SubgroupSize"]);
        for name in names {
            assert!(has_stand_in(name), "{name}");
            let line = declarations(|n| n == name);
            assert!(line.contains(name) && !line.contains('\n'), "{line}");
        }
        assert_eq!(declarations(|_| false), "");
    }

    /// [`ballot_testkit::kernels::every_name_source`], lowered.
    pub(crate) fn every_name() -> ballot_ir::ir::Kernel {
        let source = ballot_testkit::kernels::every_name_source();
        let item: syn::ItemFn = syn::parse_str(&source).expect("Rust");
        ballot_front::lower(&item).expect("accepted").kernel
    }

    #[test]
    fn stand_ins_are_written_in_the_validation_mode_alone_on_the_line_blank_in_the_output() {
        let kernel = every_name();
        let record = ShaderOptions {
            record_lanes: true,
            ..ShaderOptions::default()
        };
        for options in [ShaderOptions::default(), record] {
            for target in [Target::Glsl, Target::GlslNoSubgroup] {
                let write = |mode| {
                    let kernels = [&kernel];
                    crate::back::write_forms(
                        target,
                        &Form::ALL,
                        &kernels,
                        &options,
                        Missing::Error,
                        mode,
                    )
                    .expect("written")
                };
                let (output, validation) = (write(Mode::Output), write(Mode::Validation));
                for form in Form::ALL {
                    let out = output.text(form).expect("asked for");
                    let val = validation.text(form).expect("asked for");
                    let emitted =
                        crate::back::emit(target, form, &[&kernel], &options, Missing::Error);
                    assert_eq!(emitted.as_deref(), Ok(out), "the output is what users get");
                    assert_eq!(out.lines().count(), val.lines().count());
                    let lines: Vec<(&str, &str)> = out.lines().zip(val.lines()).collect();
                    let differ: Vec<usize> = (0..lines.len())
                        .filter(|&i| lines[i].0 != lines[i].1)
                        .collect();
                    if target == Target::GlslNoSubgroup {
                        assert!(differ.is_empty(), "{target} {form}:\n{val}");
                        continue;
                    }
                    // One line: blank in the output, after the extensions.
                    assert_eq!(differ.len(), 1, "{target} {form}:\n{val}");
                    let at = differ[0];
                    assert_eq!(lines[at].0, "");
                    assert!(lines[at - 1].0.starts_with("#extension"));
                    for name in Op::ALL
                        .iter()
                        .map(|op| op.glsl_name())
                        .chain(["gl_SubgroupSize"])
                    {
                        assert!(
                            lines[at].1.contains(name),
                            "{name} not declared: {}",
                            lines[at].1
                        );
                    }
                    for stand_in in ["subgroupBallot(bool p)", "const uint gl_SubgroupSize"] {
                        assert!(!out.contains(stand_in), "a stand-in in the output:\n{out}");
                    }
                    assert_eq!(
                        ballot_naga::valid::validate_printed(target, form, val),
                        Ok(())
                    );
                }
            }
        }
    }
}
