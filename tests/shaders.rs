//! Golden files for emitted shaders: every target, both forms, for a set of
//! kernels that between them use every operation and every kind of control
//! flow. Each output is validated (naga for every target; glslang and
//! spirv-val for GLSL) before it is compared with, or written to,
//! `tests/out/<target>/<kernel>[.<options>].<form>.<ext>`: the default
//! options, the emulated targets' largest subgroup (128), and a ragged
//! workgroup. Regenerate with
//! `BALLOT_BLESS=1 cargo test --test shaders`, then read the diff; CI
//! fails if a committed file is stale.

use std::path::PathBuf;

use ballot::ir::Kernel;
use ballot::prelude::*;
use ballot::{Language, Missing, ShaderOptions};

#[ballot::kernel]
fn compaction_slot(keep: bool) -> u32 {
    subgroup_ballot_exclusive_bit_count(subgroup_ballot(keep))
}

#[ballot::kernel]
fn every_op(v: SubgroupMask, i: u32, x: f32) -> u32 {
    let mut acc = subgroup_ballot_bit_count(v) + subgroup_ballot_inclusive_bit_count(v);
    acc += subgroup_ballot_exclusive_bit_count(v);
    if subgroup_ballot_bit_extract(v, i % subgroup_size()) {
        acc += 1;
    }
    if subgroup_inverse_ballot(subgroup_broadcast_first(v)) {
        acc += 2;
    }
    let masks = subgroup_eq_mask() | subgroup_ge_mask() | subgroup_gt_mask();
    let more = subgroup_le_mask() ^ subgroup_lt_mask();
    acc += (masks & more).count();
    if subgroup_elect() {
        acc += 100;
    }
    let first = subgroup_broadcast(x, 0) as u32;
    acc + first
        + subgroup_ballot_find_lsb(SubgroupMask::ALL)
        + subgroup_ballot_find_msb(SubgroupMask::ALL)
}

#[ballot::kernel]
fn divergent(n: u32, #[uniform] limit: i32) -> i32 {
    let mut total = 0i32;
    for i in 0..limit {
        if (i as u32) >= n {
            break;
        }
        if subgroup_elect() {
            continue;
        }
        total += subgroup_ballot_bit_count(subgroup_ballot(true)) as i32;
    }
    while total > 100 {
        total -= 7;
    }
    if total == 0 {
        return -1;
    }
    total
}

/// Rust names that are reserved words or prefixes in GLSL or WGSL.
#[ballot::kernel]
fn reserved_names(input: u32, sample: bool) -> u32 {
    let active = subgroup_ballot(sample);
    let shared = subgroup_ballot_bit_count(active);
    let texture = input + shared;
    let gl_thing = texture * 2;
    let a__b = gl_thing ^ 1;
    a__b
}

#[ballot::kernel]
fn leader(p: bool) -> u32 {
    let mut result = 0u32;
    if p {
        result = compaction_slot(p);
    }
    result
}

/// The clustered reductions in both arms of a divergent `if`, of each value
/// type, with clusters of 1 to 8 lanes (the ragged fixture's subgroup).
#[ballot::kernel]
fn clustered(x: u32, i: i32, f: f32) -> u32 {
    let mut out = 0u32;
    if x % 2 == 0 {
        out = subgroup_clustered_i_add::<4, _>(x) + subgroup_clustered_u_max::<2, _>(x);
    } else {
        out = subgroup_clustered_xor::<8, _>(x) ^ (subgroup_clustered_s_min::<2, _>(i) as u32);
    }
    out + (subgroup_clustered_f_mul::<8, _>(f) as u32) + subgroup_clustered_and::<1, _>(x)
}

struct Fixture {
    name: &'static str,
    kernels: fn() -> Vec<&'static Kernel>,
    options: ShaderOptions,
}

const DEFAULT: ShaderOptions = ShaderOptions {
    workgroup_size: [64, 1, 1],
    subgroup_size: 32,
    record_lanes: false,
    maximal_reconvergence: false,
};

/// The emulated targets' largest virtual subgroup, the only size at which
/// all four mask words hold lanes.
const SUBGROUP_128: ShaderOptions = ShaderOptions {
    workgroup_size: [128, 1, 1],
    subgroup_size: 128,
    record_lanes: false,
    maximal_reconvergence: false,
};

/// A workgroup of 2 × 3 × 2 = 12 invocations in virtual subgroups of 8: the
/// last subgroup is partial. The lane record is on, as the driver tests
/// have it.
const RAGGED: ShaderOptions = ShaderOptions {
    workgroup_size: [2, 3, 2],
    subgroup_size: 8,
    record_lanes: true,
    maximal_reconvergence: false,
};

const FIXTURES: &[Fixture] = &[
    Fixture {
        name: "compaction_slot",
        kernels: compaction_slot::kernels,
        options: DEFAULT,
    },
    Fixture {
        name: "every_op",
        kernels: every_op::kernels,
        options: DEFAULT,
    },
    Fixture {
        name: "divergent",
        kernels: divergent::kernels,
        options: DEFAULT,
    },
    Fixture {
        name: "reserved_names",
        kernels: reserved_names::kernels,
        options: DEFAULT,
    },
    Fixture {
        name: "leader",
        kernels: leader::kernels,
        options: DEFAULT,
    },
    Fixture {
        name: "every_op.subgroup-128",
        kernels: every_op::kernels,
        options: SUBGROUP_128,
    },
    Fixture {
        name: "reserved_names.subgroup-128",
        kernels: reserved_names::kernels,
        options: SUBGROUP_128,
    },
    Fixture {
        name: "divergent.ragged-2x3x2",
        kernels: divergent::kernels,
        options: RAGGED,
    },
    Fixture {
        name: "reserved_names.ragged-2x3x2",
        kernels: reserved_names::kernels,
        options: RAGGED,
    },
    Fixture {
        name: "clustered",
        kernels: clustered::kernels,
        options: DEFAULT,
    },
    Fixture {
        name: "clustered.ragged-2x3x2",
        kernels: clustered::kernels,
        options: RAGGED,
    },
];

fn path(target: Target, form: Form, name: &str) -> PathBuf {
    let ext = target.language().extension();
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/out")
        .join(target.name())
        .join(format!("{name}.{form}.{ext}"))
}

#[test]
fn emitted_shaders_are_valid_and_match_their_golden_files() {
    let bless = std::env::var_os("BALLOT_BLESS").is_some();
    assert_eq!(DEFAULT, ShaderOptions::default());
    let mut failures = Vec::new();
    for fixture in FIXTURES {
        let kernels = (fixture.kernels)();
        let options = fixture.options.clone();
        for target in Target::ALL {
            for form in Form::ALL {
                let text = ballot::emit(target, form, &kernels, &options, Missing::Error)
                    .unwrap_or_else(|e| panic!("{} {target} {form}: {e}", fixture.name));
                if let Err(e) = ballot_naga::valid::validate(target, form, &text) {
                    failures.push(format!("{} {target} {form}: {e}", fixture.name));
                    continue;
                }
                if target.language() == Language::Glsl
                    && ballot_testkit::have_tools(
                        "glslang and spirv-val checks of the golden GLSL",
                        &ballot_testkit::GLSL_TOOLS,
                    )
                {
                    if let Err(e) = ballot_naga::valid::glslang(&text, form) {
                        failures.push(format!("{} {target} {form}: {e}", fixture.name));
                        continue;
                    }
                }
                let file = path(target, form, fixture.name);
                if bless {
                    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                    std::fs::write(&file, &text).unwrap();
                } else if std::fs::read_to_string(&file).ok().as_deref() != Some(text.as_str()) {
                    failures.push(format!(
                        "stale golden file {} (run with BALLOT_BLESS=1)",
                        file.display()
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
