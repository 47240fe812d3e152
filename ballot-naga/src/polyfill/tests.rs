use super::*;

/// Whether `target`'s library must define `op` itself: every operation
/// the target lacks (docs/design.md, "Targets"); native WGSL has its own
/// but for `subgroupElect` (which naga lacks), the ballot family,
/// `AllEqual` and the scans of Min, Max, And, Or and Xor.
fn defined(target: Target, op: Op) -> bool {
    // The clustered reductions are the kernels' alone (`covers`).
    if matches!(op, Op::Clustered(_)) {
        return false;
    }
    match target {
        Target::Glsl => false,
        Target::Wgsl | Target::WgslWeb => op.wgsl_name().is_none() || op == Op::Elect,
        Target::GlslNoSubgroup | Target::WgslNoSubgroup => true,
    }
}

#[test]
fn every_library_defines_every_missing_operation_and_validates() {
    for target in Target::ALL {
        let text = library(target, &PolyfillOptions::default())
            .unwrap_or_else(|e| panic!("{target}: {e}"));
        for op in Op::ALL {
            let names = function_names(target, op);
            assert_eq!(!names.is_empty(), defined(target, op), "{target} {op:?}");
            for name in names {
                let definition = match target.language() {
                    ballot_shader::back::Language::Wgsl => format!("fn {name}("),
                    ballot_shader::back::Language::Glsl => format!(" {name}("),
                };
                assert!(text.contains(&definition), "{target} lacks {name}:\n{text}");
            }
        }
        assert!(text.contains(&format!("target `{target}`")), "{target}");
        if target == Target::Glsl {
            assert!(
                text.contains("undefined cases are the driver's"),
                "{target}"
            );
        } else {
            assert!(
                text.contains("0xFFFFFFFF"),
                "{target} documents FindLSB/MSB"
            );
        }
    }
}

/// The init contract is one: each library defines the init function
/// with one parameter per built-in of [`Target::init`], and its header
/// tells the user to make that call; `glsl` has none.
#[test]
fn every_library_defines_the_init_its_header_documents() {
    for target in Target::ALL {
        let text = library(target, &PolyfillOptions::default()).unwrap();
        let Some(init) = target.init() else {
            assert!(
                !text.contains(ballot_shader::back::Init::NAME),
                "{target} has no init"
            );
            continue;
        };
        let definition = match target.language() {
            Language::Glsl => "void ballot_init(",
            Language::Wgsl => "fn ballot_init(",
        };
        let at = text
            .find(definition)
            .unwrap_or_else(|| panic!("{target} defines no init"));
        let params = &text[at + definition.len()..];
        let params = &params[..params.find(')').expect("a parameter list")];
        assert_eq!(
            params.split(',').count(),
            init.builtins.len(),
            "{target}: `{params}`"
        );
        assert!(
            text.contains(&format!("Init: call {} once", init.documented())),
            "{target}'s header documents {}",
            init.documented()
        );
    }
}

#[test]
fn native_wgsl_keeps_wgsl_s_own_functions() {
    for target in [Target::Wgsl, Target::WgslWeb] {
        let text = library(target, &PolyfillOptions::default()).unwrap();
        for name in [
            "subgroupBallot",
            "subgroupBroadcast",
            "subgroupBroadcastFirst",
        ] {
            assert!(
                !text.contains(&format!("fn {name}(")),
                "{target} redefines {name}"
            );
        }
        assert!(text.contains("fn ballot_init(subgroup_invocation_id: u32, subgroup_size: u32)"));
    }
    let web = library(Target::WgslWeb, &PolyfillOptions::default()).unwrap();
    assert!(web.contains("\nenable subgroups;\ndiagnostic(off, subgroup_uniformity);\n"));
    let plain = library(Target::Wgsl, &PolyfillOptions::default()).unwrap();
    assert!(
        !plain.contains("\nenable "),
        "naga rejects `enable subgroups;`"
    );
}

#[test]
fn glsl_libraries_have_no_version_and_the_native_one_enables_the_extensions() {
    let native = library(Target::Glsl, &PolyfillOptions::default()).unwrap();
    assert!(native.contains("#extension GL_KHR_shader_subgroup_ballot : require"));
    assert!(native.contains("#extension GL_KHR_shader_subgroup_basic : require"));
    for extension in ["vote", "arithmetic", "shuffle", "shuffle_relative", "quad"] {
        let line = format!("#extension GL_KHR_shader_subgroup_{extension} : require\n");
        assert!(native.contains(&line), "{line}");
    }
    let emulated = library(Target::GlslNoSubgroup, &PolyfillOptions::default()).unwrap();
    assert!(!emulated.contains("#extension"));
    for text in [native, emulated] {
        assert!(!text.lines().any(|l| l.starts_with("#version")));
    }
}

#[test]
fn emulated_libraries_are_sized_by_the_options() {
    let options = PolyfillOptions {
        subgroup_size: 8,
        workgroup_size: [4, 6, 1],
    };
    let wgsl = library(Target::WgslNoSubgroup, &options).unwrap();
    assert!(wgsl.contains("const ballot_subgroup_size: u32 = 8u;"));
    assert!(wgsl.contains("const ballot_workgroup_size: u32 = 24u;"));
    let glsl = library(Target::GlslNoSubgroup, &options).unwrap();
    assert!(glsl.contains("const uint ballot_subgroup_size = 8u;"));
    assert!(glsl.contains("const uint ballot_workgroup_size = 24u;"));
}

#[test]
fn invalid_options_are_typed_errors_naming_the_option() {
    let cases = [
        (33, [64, 1, 1], "subgroup_size"),
        (0, [64, 1, 1], "subgroup_size"),
        (256, [256, 1, 1], "subgroup_size"),
        (32, [0, 1, 1], "workgroup_size"),
        (32, [512, 1, 1], "workgroup_size"),
    ];
    for target in Target::ALL {
        for (subgroup_size, workgroup_size, option) in cases {
            let options = PolyfillOptions {
                subgroup_size,
                workgroup_size,
            };
            match library(target, &options) {
                Err(PolyfillError::Options(OptionError::Invalid { option: o, .. })) => {
                    assert_eq!(o, option, "{target} {options:?}")
                }
                other => panic!("{target} {options:?}: {other:?}"),
            }
        }
        let options = PolyfillOptions {
            subgroup_size: 64,
            workgroup_size: [8, 4, 1],
        };
        let err = library(target, &options).unwrap_err();
        assert!(
            matches!(
                err,
                PolyfillError::Options(OptionError::Mismatch {
                    subgroup_size: 64,
                    workgroup_size: [8, 4, 1]
                })
            ),
            "{err:?}"
        );
        assert!(err.to_string().contains("subgroup_size"), "{err}");
    }
}

#[test]
fn self_tests_validate_for_every_target_and_size() {
    for target in Target::ALL {
        for (subgroup_size, workgroup_size) in [
            (32, [64, 1, 1]),
            (128, [128, 2, 1]),
            (1, [3, 1, 1]),
            (16, [5, 7, 1]),
        ] {
            let options = PolyfillOptions {
                subgroup_size,
                workgroup_size,
            };
            let text =
                self_test(target, &options).unwrap_or_else(|e| panic!("{target} {options:?}: {e}"));
            let [x, y, z] = workgroup_size;
            let size = match target.language() {
                // Flattened where naga needs it (native WGSL, 2-D).
                ballot_shader::back::Language::Wgsl if target.has_subgroups() && y * z > 1 => {
                    format!("@workgroup_size({})", x * y * z)
                }
                ballot_shader::back::Language::Wgsl => format!("@workgroup_size({x}, {y}, {z})"),
                ballot_shader::back::Language::Glsl => {
                    format!("local_size_x = {x}, local_size_y = {y}, local_size_z = {z}")
                }
            };
            assert!(text.contains(&size), "{target}");
        }
    }
}

#[test]
fn a_broken_library_is_reported_as_our_bug() {
    let text = write_library(Target::Wgsl, &ShaderOptions::default()).replace(
        "ballot_lane = subgroup_invocation_id;",
        "ballot_lane = true;",
    );
    let error = valid::validate(Target::Wgsl, Form::Helpers, &text).unwrap_err();
    let err = PolyfillError::Invalid {
        target: Target::Wgsl,
        error,
    };
    assert!(err.to_string().contains("a bug in ballot"), "{err}");
}

#[test]
fn header_lines_fit_in_80_columns() {
    for target in Target::ALL {
        let text = library(target, &PolyfillOptions::default()).unwrap();
        let header = text.lines().take_while(|l| l.starts_with("//"));
        for line in header {
            assert!(line.len() <= 80, "{target}: {line}");
        }
    }
}

/// The typed surface of the rest of the family: GLSL overloads one name
/// for the types the extension allows, WGSL suffixes every type but
/// `u32`, and the operations that share a GLSL name share the rule.
#[test]
fn the_rest_of_the_family_is_offered_for_every_type_it_takes() {
    use ballot_ir::op::{ArithOp, Quad, Scan};
    let names = |target, op| function_names(target, op);
    let wgsl = Target::WgslNoSubgroup;
    assert_eq!(names(wgsl, Op::All), ["subgroupAll"]);
    assert_eq!(
        names(wgsl, Op::AllEqual),
        [
            "subgroupAllEqual",
            "subgroupAllEqualI32",
            "subgroupAllEqualF32",
            "subgroupAllEqualBool",
            "subgroupAllEqualVec4"
        ]
    );
    assert_eq!(
        names(wgsl, Op::Arith(ArithOp::IAdd, Scan::Reduce)),
        ["subgroupAdd", "subgroupAddI32"]
    );
    assert_eq!(
        names(wgsl, Op::Arith(ArithOp::FAdd, Scan::Inclusive)),
        ["subgroupInclusiveAddF32"]
    );
    assert_eq!(
        names(wgsl, Op::Arith(ArithOp::SMin, Scan::Exclusive)),
        ["subgroupExclusiveMinI32"]
    );
    assert_eq!(
        names(wgsl, Op::QuadSwap(Quad::Diagonal)),
        [
            "subgroupQuadSwapDiagonal",
            "subgroupQuadSwapDiagonalI32",
            "subgroupQuadSwapDiagonalF32",
            "subgroupQuadSwapDiagonalVec4"
        ]
    );
    // Native WGSL has the reductions and the scans of Add and Mul itself.
    assert!(names(Target::Wgsl, Op::Arith(ArithOp::UMax, Scan::Reduce)).is_empty());
    assert!(names(Target::Wgsl, Op::Arith(ArithOp::FMul, Scan::Exclusive)).is_empty());
    assert_eq!(
        names(Target::WgslWeb, Op::Arith(ArithOp::Xor, Scan::Inclusive)),
        ["subgroupInclusiveXor", "subgroupInclusiveXorI32"]
    );
    // Every suffixed function is defined once, with `on` where emulated.
    let options = PolyfillOptions::default();
    for target in [Target::Wgsl, Target::WgslNoSubgroup] {
        let text = library(target, &options).unwrap();
        for op in Op::ALL.into_iter().filter(|op| !op.is_ballot()) {
            for name in names(target, op) {
                let definition = format!("fn {name}(");
                assert_eq!(text.matches(&definition).count(), 1, "{target} {name}");
                let on = text[text.find(&definition).unwrap()..]
                    .starts_with(&format!("{definition}on: bool"));
                assert_eq!(on, target == Target::WgslNoSubgroup, "{target} {name}");
            }
        }
    }
    // GLSL overloads: Min of uint, int and float; And of uint, int, bool.
    let glsl = library(Target::GlslNoSubgroup, &options).unwrap();
    for signature in [
        "uint ballotSubgroupInclusiveMin(bool on, uint value)",
        "int ballotSubgroupInclusiveMin(bool on, int value)",
        "float ballotSubgroupInclusiveMin(bool on, float value)",
        "bool ballotSubgroupAnd(bool on, bool value)",
        "int ballotSubgroupExclusiveXor(bool on, int value)",
        "uvec4 ballotSubgroupShuffleUp(bool on, uvec4 value, uint delta)",
        "bool ballotSubgroupQuadBroadcast(bool on, bool value, uint index)",
        "bool ballotSubgroupAllEqual(bool on, float value)",
        "bool ballotSubgroupAny(bool on, bool predicate)",
    ] {
        assert!(glsl.contains(signature), "{signature}");
    }
    assert!(
        !glsl.contains("float ballotSubgroupAnd("),
        "And takes no float"
    );
}
