//! `ballot::include_wgsl!` and `include_glsl!` on hand-written shaders:
//! what is linked in, by name, and naga's verdict on every output. The
//! shaders run on lavapipe and Dawn in ballot-runner/tests/include_wgsl.rs.

use ballot_naga::valid::check_source;
use ballot_shader::back::Target;

/// tests/linked/four.wgsl, linked for each WGSL target.
const FOUR: [&str; 3] = ballot::include_wgsl!(
    "tests/linked/four.wgsl",
    targets = ["wgsl", "wgsl-web", "wgsl-no-subgroup"]
);
const TARGETS: [Target; 3] = [Target::Wgsl, Target::WgslWeb, Target::WgslNoSubgroup];

/// The names of the functions a WGSL text defines.
fn functions(text: &str) -> Vec<&str> {
    text.split("fn ")
        .skip(1)
        .filter_map(|rest| rest.split('(').next())
        .map(str::trim)
        .collect()
}

/// The four the shader calls, and the helpers of ops it does not call.
const CALLED: [&str; 4] = [
    "ballot_subgroupBallotBitCount",
    "ballot_subgroupBallotExclusiveBitCount",
    "ballot_subgroupBallotFindLSB",
    "ballot_subgroupBallotBitExtract",
];
const NOT_CALLED: [&str; 11] = [
    "ballot_subgroupBallotInclusiveBitCount",
    "ballot_subgroupBallotFindMSB",
    "ballot_subgroupInverseBallot",
    "ballot_subgroupElect",
    "ballot_subgroupBroadcast",
    "ballot_subgroupBroadcastFirst",
    "ballot_subgroupEqMask",
    "ballot_subgroupLtMask",
    "ballot_find_msb",
    "ballot_elect",
    "ballot_inclusive_bit_count",
];

#[test]
fn only_the_four_helpers_and_their_dependencies_are_linked() {
    let full = ballot_naga::polyfill::library(Target::Wgsl, &Default::default()).unwrap();
    for (target, text) in TARGETS.iter().zip(FOUR) {
        let defined = functions(text);
        for name in CALLED {
            assert!(
                defined.contains(&name),
                "{target}: {name} missing from {defined:?}"
            );
        }
        for name in NOT_CALLED {
            assert!(!defined.contains(&name), "{target}: {name} linked");
        }
        // Every function the linker added is ballot's, and the user's
        // `keep` and `main` are still there.
        for name in &defined {
            assert!(
                name.starts_with("ballot_") || ["keep", "main"].contains(name),
                "{target}: {name}"
            );
        }
        assert!(
            defined.len() < functions(&full).len(),
            "{target}: {defined:?}"
        );
        // WGSL's own ballot, except where it is emulated.
        assert_eq!(
            defined.contains(&"ballot_subgroupBallot"),
            *target == Target::WgslNoSubgroup,
            "{target}"
        );
    }
}

#[test]
fn every_output_validates_with_naga() {
    for (target, text) in TARGETS.into_iter().zip(FOUR) {
        check_source(target, "four.wgsl", text).unwrap_or_else(|e| panic!("{target}: {e}"));
    }
}

#[test]
fn one_target_is_one_str() {
    const NATIVE: &str = ballot::include_wgsl!("tests/linked/four.wgsl", target = "wgsl");
    assert_eq!(NATIVE, FOUR[0]);
}

#[test]
fn glsl_links_for_both_targets() {
    const GLSL: [&str; 2] = ballot::include_glsl!(
        "tests/linked/four.comp",
        targets = ["glsl", "glsl-no-subgroup"],
        subgroup_size = 16
    );
    for (target, text) in [Target::Glsl, Target::GlslNoSubgroup].into_iter().zip(GLSL) {
        check_source(target, "four.comp", text).unwrap_or_else(|e| panic!("{target}: {e}"));
    }
    assert!(GLSL[1].contains("const uint ballot_subgroup_size = 16u;"));
    assert!(GLSL[1].contains("const uint ballot_workgroup_size = 64u;"));
    assert!(!GLSL[1].contains("#extension"));
}

#[test]
fn glsl_includes_are_found_beside_their_file() {
    // main.comp includes lib/count.glsl, which includes bits.glsl beside
    // itself; the ballot calls in the include are linked.
    const GLSL: [&str; 2] = ballot::include_glsl!(
        "tests/linked/include/main.comp",
        targets = ["glsl", "glsl-no-subgroup"]
    );
    for text in GLSL {
        assert!(!text.contains("#include"), "{text}");
        assert!(text.contains("uint low_bit(uint x)"), "{text}");
    }
    assert!(
        GLSL[1].contains("ballot_subgroupBallotBitCount("),
        "{}",
        GLSL[1]
    );
}
