//! The polyfill libraries' self-tests (`ballot_naga::polyfill::self_test`)
//! on real drivers, every record of every invocation compared with the
//! simulator (`ballot_sim::ops`), which implements docs/design.md's semantics
//! independently of the WGSL / GLSL helpers. Three ways to the driver:
//!
//! - wgpu on Vulkan: `glsl` and `wgsl` in the driver's own subgroups, and
//!   `glsl-no-subgroup` and `wgsl-no-subgroup` at virtual subgroup sizes 1
//!   to 128, including ragged workgroups whose last virtual subgroup is
//!   partial.
//! - Dawn/Tint (Node's `webgpu`): `wgsl-web` in the driver's subgroups and
//!   `wgsl-no-subgroup` in the same shapes as above, all in one Node process.
//! - The SPIR-V that `ballot_naga::cross::compile` writes from the `wgsl`
//!   and `wgsl-no-subgroup` self-tests, handed to lavapipe untouched through
//!   wgpu's passthrough.
//!
//! Subgroups are rebuilt from the records alone: an invocation's subgroup is
//! the invocations of its workgroup that got the same `BroadcastFirst(3g +
//! 1)` (record 8.x), its lane id and size are records 8.w and 9.x, and the
//! active lanes are the lanes present. A wrong BroadcastFirst splits or
//! merges subgroups, which the other records then contradict. On emulated
//! targets the documented layout (`lane = local index % S`, `size = S`) is
//! asserted too.
//!
//! Without a Vulkan adapter (or Node's `webgpu`, for Dawn) the tests say why
//! on stderr and pass, unless `BALLOT_REQUIRE_GPU=1`.

use std::collections::BTreeMap;
use std::time::Instant;

use ballot_ir::op::{ArithOp, Op, Quad, Scan};
use ballot_naga::cross::{self, CrossOutput, CrossTarget};
use ballot_naga::polyfill::{self, PolyfillOptions, SELF_TEST_RECORDS};
use ballot_runner::dawn::{Dawn, StorageJob};
use ballot_runner::Gpu;
use ballot_shader::back::{Target, UNDEFINED_FIND};
use ballot_sim::ops;
use ballot_sim::{PerLane, SimError, Subgroup, SubgroupMask};

mod common;

use common::{loud, required, skip};

const R: usize = SELF_TEST_RECORDS as usize;
type Record = [u32; 4];

/// One self-test dispatch.
struct Case {
    target: Target,
    options: PolyfillOptions,
    workgroups: [u32; 3],
}

impl Case {
    fn describe(&self) -> String {
        format!(
            "{} (subgroup size {}, workgroup {:?}, {:?} workgroups)",
            self.target, self.options.subgroup_size, self.options.workgroup_size, self.workgroups
        )
    }

    fn invocations_per_workgroup(&self) -> usize {
        self.options.workgroup_size.iter().product::<u32>() as usize
    }

    fn invocations(&self) -> usize {
        self.invocations_per_workgroup() * self.workgroups.iter().product::<u32>() as usize
    }
}

/// What was compared.
#[derive(Default, Debug)]
struct Figures {
    invocations: usize,
    subgroups: usize,
    values: usize,
    sizes: Vec<u32>,
}

/// The simulator's per-lane result in `lane`, which must be active.
fn at<T: Copy>(values: &PerLane<T>, lane: u32) -> T {
    *values.get(lane).expect("the lane is active")
}

/// The documented value of an undefined case (`Some`), or `None` where the
/// target leaves it to the driver; `result` must be the simulator's report
/// that the case is undefined.
fn undefined<T>(result: Result<T, SimError>, what: &str, documented: Option<u32>) -> Option<u32> {
    assert!(
        result.is_err(),
        "the simulator defines {what}, which the self-test takes as undefined"
    );
    documented
}

/// Compares the dispatch's `words` with the simulator; the error lists the
/// mismatches (target, invocation, record, expected, got).
fn check(case: &Case, words: &[u32]) -> Result<Figures, String> {
    let target = case.target;
    let emulated = !target.has_subgroups();
    let n = case.invocations_per_workgroup();
    let total = case.invocations();
    assert_eq!(words.len(), total * R * 4);
    let records: Vec<[Record; R]> = words
        .chunks_exact(R * 4)
        .map(|inv| std::array::from_fn(|r| std::array::from_fn(|c| inv[r * 4 + c])))
        .collect();
    let mut problems = Vec::new();

    // Rebuild the subgroups: (workgroup, BroadcastFirst) -> invocations.
    let mut groups: BTreeMap<(usize, u32), Vec<usize>> = BTreeMap::new();
    for (g, rec) in records.iter().enumerate() {
        let (lane, size) = (rec[8][3], rec[9][0]);
        if emulated {
            let s = case.options.subgroup_size;
            let local = (g % n) as u32;
            if (lane, size) != (local % s, s) {
                problems.push(format!(
                    "{}: invocation {g}: lane/size ({lane}, {size}), documented ({}, {s})",
                    case.describe(),
                    local % s
                ));
            }
        }
        if !size.is_power_of_two() || size > 128 || lane >= size {
            problems.push(format!(
                "{}: invocation {g}: impossible lane {lane} / size {size}",
                case.describe()
            ));
            continue;
        }
        groups.entry((g / n, rec[8][0])).or_default().push(g);
    }
    if !problems.is_empty() {
        return Err(problems.join("\n"));
    }

    let mut figures = Figures {
        invocations: total,
        subgroups: groups.len(),
        ..Default::default()
    };
    for ((workgroup, first), members) in &groups {
        let size = records[members[0]][9][0];
        let mut g_of = vec![0u32; size as usize];
        let mut active = SubgroupMask::EMPTY;
        for &g in members {
            let (lane, s) = (records[g][8][3], records[g][9][0]);
            if s != size || active.contains(lane) {
                problems.push(format!(
                    "{}: workgroup {workgroup}, subgroup of BroadcastFirst {first}: \
                     invocation {g} has lane {lane} / size {s}, clashing with the others \
                     (size {size}, lanes {active:#})",
                    case.describe()
                ));
                continue;
            }
            active.set(lane, true);
            g_of[lane as usize] = g as u32;
        }
        if !figures.sizes.contains(&size) {
            figures.sizes.push(size);
        }
        let sg = Subgroup::new(size, active).expect("lanes below the size");
        let sz = size as usize;
        let even: Vec<bool> = (0..size).map(|l| l % 2 == 0).collect();
        let b = ops::subgroup_ballot(&sg, &even).unwrap();
        let bv: Vec<SubgroupMask> = (0..size)
            .map(|l| b.get(l).copied().unwrap_or_default())
            .collect();
        let count = ops::subgroup_ballot_bit_count(&sg, &bv).unwrap();
        let incl = ops::subgroup_ballot_inclusive_bit_count(&sg, &bv).unwrap();
        let excl = ops::subgroup_ballot_exclusive_bit_count(&sg, &bv).unwrap();
        // b is empty only if no even lane is active: then FindLSB/MSB are
        // undefined, and the library documents UNDEFINED_FIND.
        let documented_find = (target != Target::Glsl).then_some(UNDEFINED_FIND);
        let find = |r: Result<PerLane<u32>, SimError>, lane: u32| match r {
            Ok(v) => Some(at(&v, lane)),
            Err(_) => documented_find,
        };
        let lsb = ops::subgroup_ballot_find_lsb(&sg, &bv);
        let msb = ops::subgroup_ballot_find_msb(&sg, &bv);
        let next: Vec<u32> = (0..size).map(|l| (l + 1) % size).collect();
        let extract = ops::subgroup_ballot_bit_extract(&sg, &bv, &next).unwrap();
        let inverse = ops::subgroup_inverse_ballot(&sg, &bv).unwrap();
        let elect = ops::subgroup_elect(&sg);
        let masks = [
            ops::subgroup_eq_mask(&sg),
            ops::subgroup_ge_mask(&sg),
            ops::subgroup_gt_mask(&sg),
            ops::subgroup_le_mask(&sg),
            ops::subgroup_lt_mask(&sg),
        ];
        let v3: Vec<u32> = g_of.iter().map(|g| 3 * g + 1).collect();
        let v5: Vec<u32> = g_of.iter().map(|g| 5 * g + 2).collect();
        let first_exp = ops::subgroup_broadcast_first(&sg, &v3).unwrap();
        // Lane 0 inactive: undefined; emulated targets document the
        // caller's own value.
        let from0 = ops::subgroup_broadcast(&sg, &v5, 0).ok();
        // The branch of lanes with bit 1 set.
        let inside = sg.narrow((0..size).filter(|l| l & 2 != 0).collect());
        let inside_elect = ops::subgroup_elect(&inside);
        let inside_ballot = ops::subgroup_ballot(&inside, &vec![true; sz]).unwrap();
        let ib: Vec<SubgroupMask> = (0..size)
            .map(|l| inside_ballot.get(l).copied().unwrap_or_default())
            .collect();
        let inside_count = ops::subgroup_ballot_bit_count(&inside, &ib).unwrap();
        // Record 9: cases the spec leaves undefined.
        let documented = |v: u32| (target != Target::Glsl).then_some(v);
        let lsb0 = undefined(
            ops::subgroup_ballot_find_lsb(&sg, &vec![SubgroupMask::EMPTY; sz]),
            "FindLSB(0)",
            documented(UNDEFINED_FIND),
        );
        let msb0 = undefined(
            ops::subgroup_ballot_find_msb(&sg, &vec![SubgroupMask::EMPTY; sz]),
            "FindMSB(0)",
            documented(UNDEFINED_FIND),
        );
        let extract_size = undefined(
            ops::subgroup_ballot_bit_extract(&sg, &vec![SubgroupMask::ALL; sz], &vec![size; sz]),
            "BitExtract(all ones, size)",
            documented(0),
        );

        let family = Family {
            sg: &sg,
            g: &g_of,
            emulated,
        };
        for lane in sg.active().iter() {
            let g = g_of[lane as usize] as usize;
            let words = |m: SubgroupMask| m.to_words().map(Some);
            let bit = |v: bool| Some(u32::from(v));
            let split = if inside.is_active(lane) {
                Some(u32::from(at(&inside_elect, lane)) | (at(&inside_count, lane) << 1))
            } else {
                Some(u32::MAX)
            };
            let from0 = match &from0 {
                Some(v) => Some(at(v, lane)),
                None if emulated => Some(v5[lane as usize]),
                None => None,
            };
            let mut expected: [[Option<u32>; 4]; R] = [
                words(at(&b, lane)),
                [
                    Some(at(&count, lane)),
                    Some(at(&incl, lane)),
                    Some(at(&excl, lane)),
                    find(lsb.clone(), lane),
                ],
                [
                    find(msb.clone(), lane),
                    bit(at(&extract, lane)),
                    bit(at(&inverse, lane)),
                    bit(at(&elect, lane)),
                ],
                [None; 4],
                [None; 4],
                [None; 4],
                [None; 4],
                [None; 4],
                [Some(at(&first_exp, lane)), from0, split, Some(lane)],
                [Some(size), lsb0, msb0, extract_size],
                // Records 10 to 19, below.
                [None; 4],
                [None; 4],
                [None; 4],
                [None; 4],
                [None; 4],
                [None; 4],
                [None; 4],
                [None; 4],
                [None; 4],
                [None; 4],
            ];
            for (i, m) in masks.iter().enumerate() {
                expected[3 + i] = words(at(m, lane));
            }
            expected[10..].copy_from_slice(&family.expected(lane));
            for (r, (want, got)) in expected.iter().zip(&records[g]).enumerate() {
                for c in 0..4 {
                    let Some(w) = want[c] else { continue };
                    figures.values += 1;
                    if w != got[c] {
                        problems.push(format!(
                            "{}: invocation {g} (workgroup {workgroup}, lane {lane} of \
                             {size}, active {active:#}): record {r}.{}: expected {w:#x}, \
                             got {:#x} (record: {got:x?})",
                            case.describe(),
                            ["x", "y", "z", "w"][c],
                            got[c]
                        ));
                    }
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(figures)
    } else {
        let shown = problems.len().min(20);
        Err(format!(
            "{} mismatches, the first {shown}:\n{}",
            problems.len(),
            problems[..shown].join("\n")
        ))
    }
}

/// Runs `text` as `case`'s self-test and compares it.
fn run(gpu: &Gpu, case: &Case, text: &str) -> Result<Figures, String> {
    let words = gpu
        .run_storage(
            case.target,
            text,
            case.options.workgroup_size,
            case.workgroups,
            case.invocations() * R * 4,
        )
        .unwrap_or_else(|e| panic!("{}: {e}", case.describe()));
    check(case, &words)
}

fn case(
    target: Target,
    subgroup_size: u32,
    workgroup_size: [u32; 3],
    workgroups: [u32; 3],
) -> Case {
    Case {
        target,
        options: PolyfillOptions {
            subgroup_size,
            workgroup_size,
        },
        workgroups,
    }
}

/// The emulated targets' shapes: virtual subgroup size, workgroup size,
/// workgroups.
const EMULATED_SHAPES: [(u32, [u32; 3], [u32; 3]); 8] = [
    (1, [16, 1, 1], [2, 1, 1]),
    (4, [64, 1, 1], [2, 1, 1]),
    (8, [64, 1, 1], [2, 2, 1]),
    (32, [64, 1, 1], [2, 1, 1]),
    (64, [128, 1, 1], [2, 1, 1]),
    (128, [256, 1, 1], [2, 1, 1]),
    // Ragged: the second virtual subgroup has 16 of 32 lanes.
    (32, [48, 1, 1], [3, 1, 1]),
    // Ragged, three-dimensional: 60 invocations, subgroups of 16.
    (16, [5, 4, 3], [2, 1, 1]),
];

/// The shapes a target with the driver's own subgroups runs in: the
/// subgroup size option is unused there.
const NATIVE_SHAPES: [([u32; 3], [u32; 3]); 2] = [([64, 1, 1], [3, 1, 1]), ([8, 4, 2], [2, 2, 1])];

/// Every case of `target`.
fn cases_of(target: Target) -> Vec<Case> {
    if target.has_subgroups() {
        NATIVE_SHAPES
            .iter()
            .map(|&(wg, groups)| case(target, 32, wg, groups))
            .collect()
    } else {
        // lavapipe's LLVM takes minutes to compile the self-test, whose
        // arithmetic scans it unrolls, at virtual subgroups of 64 and 128
        // and in the ragged workgroups: the release run (`scripts/test
        // --full`) sets BALLOT_POLYFILL_LARGE=1 for them; the default run
        // takes the first four shapes.
        let large = std::env::var("BALLOT_POLYFILL_LARGE").is_ok_and(|v| v == "1");
        EMULATED_SHAPES
            .iter()
            .take(if large { EMULATED_SHAPES.len() } else { 4 })
            .map(|&(s, wg, groups)| case(target, s, wg, groups))
            .collect()
    }
}

fn cases() -> Vec<Case> {
    [
        Target::Glsl,
        Target::Wgsl,
        Target::GlslNoSubgroup,
        Target::WgslNoSubgroup,
    ]
    .into_iter()
    .flat_map(cases_of)
    .collect()
}

/// Sums up the cases compared; the error lists every failure.
#[derive(Default)]
struct Tally {
    cases: usize,
    values: usize,
    failures: Vec<String>,
}

impl Tally {
    /// Adds one case's comparison; `since` is when its run began, if it
    /// ran on its own.
    fn add(&mut self, case: &Case, result: Result<Figures, String>, since: Option<Instant>) {
        match result {
            Ok(f) => {
                let time = since
                    .map(|s| format!(", {:.1}s", s.elapsed().as_secs_f64()))
                    .unwrap_or_default();
                loud(&format!(
                    "ok {}: {} invocations in {} subgroups (sizes {:?}), {} values compared{time}",
                    case.describe(),
                    f.invocations,
                    f.subgroups,
                    f.sizes,
                    f.values,
                ));
                self.cases += 1;
                self.values += f.values;
            }
            Err(e) => self.failures.push(e),
        }
    }

    /// Prints the totals and fails on any failure.
    fn finish(self, driver: &str, start: Instant) {
        loud(&format!(
            "{driver}: {} self-tests, {} values compared, {:.1}s",
            self.cases,
            self.values,
            start.elapsed().as_secs_f64()
        ));
        assert!(
            self.failures.is_empty(),
            "{driver}: polyfill self-tests disagree with the simulator:\n{}",
            self.failures.join("\n\n")
        );
    }
}

#[test]
fn polyfill_self_tests_agree_with_the_simulator() {
    let start = Instant::now();
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("polyfill driver tests", &e.to_string()),
    };
    loud(&format!("polyfill self-tests on {}", gpu.describe()));
    let mut tally = Tally::default();
    for case in cases() {
        if let Some(why) = gpu.unsupported(case.target) {
            skip(&format!("{} on {}", case.describe(), gpu.describe()), &why);
            continue;
        }
        let since = Instant::now();
        let text = polyfill::self_test(case.target, &case.options)
            .unwrap_or_else(|e| panic!("{}: {e}", case.describe()));
        tally.add(&case, run(&gpu, &case, &text), Some(since));
    }
    tally.finish("wgpu", start);
}

/// The `wgsl-web` and `wgsl-no-subgroup` self-tests on Dawn/Tint, in one
/// Node process, with one deliberately wrong `wgsl-no-subgroup` self-test
/// in the same batch to show that a wrong helper fails there too.
#[test]
fn polyfill_self_tests_agree_on_dawn() {
    let start = Instant::now();
    let dawn = match Dawn::find() {
        Ok(dawn) => dawn,
        Err(why) => return skip("polyfill self-tests on Dawn", &why),
    };
    let cases: Vec<Case> = [Target::WgslWeb, Target::WgslNoSubgroup]
        .into_iter()
        .flat_map(cases_of)
        .collect();
    let job = |case: &Case, shader: String| StorageJob {
        name: case.describe(),
        target: case.target,
        shader,
        workgroups: case.workgroups,
        words: case.invocations() * R * 4,
    };
    let mut jobs: Vec<StorageJob> = cases
        .iter()
        .map(|case| {
            let text = polyfill::self_test(case.target, &case.options)
                .unwrap_or_else(|e| panic!("{}: {e}", case.describe()));
            job(case, text)
        })
        .collect();
    let sabotaged = case(Target::WgslNoSubgroup, 8, [64, 1, 1], [1, 1, 1]);
    jobs.push(job(&sabotaged, wrong_exclusive_count(&sabotaged)));
    let results = match dawn.run_storage(&jobs) {
        Ok(results) => results,
        // Dawn finds no adapter where Vulkan has none: the same skip.
        Err(e) if !required() && e.to_string().contains("no Vulkan adapter") => {
            return skip("polyfill self-tests on Dawn", &e.to_string())
        }
        Err(e) => panic!("{e}"),
    };
    let mut results = results.into_iter();
    let mut tally = Tally::default();
    for (case, result) in cases.iter().zip(results.by_ref()) {
        let words = result.unwrap_or_else(|e| panic!("{}: {e}", case.describe()));
        // One Node process ran them all: no time per case.
        tally.add(case, check(case, &words), None);
    }
    let words = results.next().expect("the sabotaged job's result");
    let error = check(
        &sabotaged,
        &words.expect("the wrong self-test runs on Dawn"),
    )
    .map(|f| f.values)
    .expect_err("a wrong ExclusiveBitCount passed on Dawn");
    assert!(error.contains("record 1.z"), "{error}");
    tally.finish("Dawn/Tint", start);
}

/// The SPIR-V 1.3 that `cross::compile` writes from the `wgsl` and
/// `wgsl-no-subgroup` self-tests, run untouched on the Vulkan driver.
#[test]
fn cross_compiled_spirv_self_tests_agree_with_the_simulator() {
    let start = Instant::now();
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("cross-compiled SPIR-V self-tests", &e.to_string()),
    };
    if let Some(why) = gpu.passthrough_missing() {
        return skip("cross-compiled SPIR-V self-tests", &why);
    }
    let mut tally = Tally::default();
    for case in [Target::Wgsl, Target::WgslNoSubgroup]
        .into_iter()
        .flat_map(cases_of)
    {
        let since = Instant::now();
        let text = polyfill::self_test(case.target, &case.options)
            .unwrap_or_else(|e| panic!("{}: {e}", case.describe()));
        let words = run_spirv(&gpu, &case, &text);
        tally.add(&case, check(&case, &words), Some(since));
    }
    // The comparison fails on this path too.
    let sabotaged = case(Target::Wgsl, 32, [64, 1, 1], [1, 1, 1]);
    let words = run_spirv(&gpu, &sabotaged, &wrong_exclusive_count(&sabotaged));
    let error = check(&sabotaged, &words)
        .map(|f| f.values)
        .expect_err("a wrong ExclusiveBitCount passed as SPIR-V");
    assert!(error.contains("record 1.z"), "{error}");
    tally.finish("cross-compiled SPIR-V on wgpu", start);
}

/// Cross-compiles the `wgsl` / `wgsl-no-subgroup` self-test `text` to
/// SPIR-V and runs it as `case`, returning the records' words.
fn run_spirv(gpu: &Gpu, case: &Case, text: &str) -> Vec<u32> {
    let CrossOutput::SpirV(spirv) = cross::compile(text, CrossTarget::SpirV)
        .unwrap_or_else(|e| panic!("{}: {e}", case.describe()))
    else {
        panic!("{}: SPIR-V came back as text", case.describe());
    };
    let what = format!("SPIR-V of {}", case.describe());
    gpu.run_storage_spirv(
        &what,
        &spirv,
        case.options.workgroup_size,
        case.workgroups,
        case.invocations() * R * 4,
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// `case`'s self-test with the public ExclusiveBitCount answering the
/// inclusive count, which record 1.z must catch.
fn wrong_exclusive_count(case: &Case) -> String {
    let text = polyfill::self_test(case.target, &case.options).unwrap();
    // The public wrapper's call, the same in both languages (the helper's
    // own parameter is `v`).
    let right = "ballot_exclusive_bit_count(value)";
    let wrong = "ballot_inclusive_bit_count(value)";
    assert_eq!(
        text.matches(right).count(),
        1,
        "{}: the public ExclusiveBitCount's body moved:\n{text}",
        case.target
    );
    text.replacen(right, wrong, 1)
}

/// The comparison can fail: with ExclusiveBitCount answering the inclusive
/// count, record 1.z disagrees.
#[test]
fn a_wrong_helper_is_caught() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("the wrong-helper test", &e.to_string()),
    };
    let mut ran = 0;
    for target in [Target::WgslNoSubgroup, Target::Wgsl, Target::GlslNoSubgroup] {
        if let Some(why) = gpu.unsupported(target) {
            skip(&format!("wrong helper on {target}"), &why);
            continue;
        }
        let case = case(target, 8, [64, 1, 1], [1, 1, 1]);
        let text = polyfill::self_test(target, &case.options).unwrap();
        let broken = wrong_exclusive_count(&case);
        run(&gpu, &case, &text).unwrap_or_else(|e| panic!("the intact self-test fails: {e}"));
        let error = run(&gpu, &case, &broken)
            .map(|f| f.values)
            .expect_err("a wrong ExclusiveBitCount passed");
        assert!(error.contains("record 1.z"), "{error}");
        ran += 1;
    }
    if ran == 0 {
        skip("the wrong-helper test", "no target ran");
    }
}

/// Records 10 to 17 of the self-test (the rest of the subgroup family, see
/// `ballot_naga::polyfill`'s docs) in one subgroup, from the simulator's
/// operations, which `ballot-sim/tests/family.rs` checks against the spec.
struct Family<'a> {
    sg: &'a Subgroup,
    /// The global invocation index of each lane.
    g: &'a [u32],
    emulated: bool,
}

impl Family<'_> {
    /// A collective over `sg` of per-lane inputs `f(lane)`.
    fn per_lane<T: Copy>(&self, f: impl Fn(u32) -> T) -> Vec<T> {
        (0..self.sg.size().get()).map(f).collect()
    }

    fn arith<T: ops::Arithmetic>(
        &self,
        sg: &Subgroup,
        op: ArithOp,
        scan: Scan,
        v: &[T],
        bits: fn(T) -> u32,
        lane: u32,
    ) -> Option<u32> {
        let r = ops::subgroup_arithmetic(sg, op, scan, v).unwrap();
        Some(bits(at(&r, lane)))
    }

    /// `g` of the lane a shuffle or quad operation reads, where the spec
    /// defines it; the caller's own `g` on the emulated targets, which
    /// document that, and nothing to compare on the others.
    fn read(&self, sg: &Subgroup, op: Op, lane: u32, operand: u32) -> Option<u32> {
        let size = sg.size().get();
        match ops::source_lane(op, lane, operand) {
            Some(s) if s < size && sg.is_active(s) => Some(self.g[s as usize]),
            _ if self.emulated => Some(self.g[lane as usize]),
            _ => None,
        }
    }

    fn expected(&self, lane: u32) -> [[Option<u32>; 4]; 10] {
        let sg = self.sg;
        let size = sg.size().get();
        let bit = |v: bool| u32::from(v);
        let vote = |op: Op, p: &dyn Fn(u32) -> bool| {
            let p = self.per_lane(p);
            let r = match op {
                Op::All => ops::subgroup_all(sg, &p),
                _ => ops::subgroup_any(sg, &p),
            };
            at(&r.unwrap(), lane)
        };
        let votes = bit(vote(Op::All, &|l| l < size))
            | bit(vote(Op::All, &|l| l % 2 == 0)) << 1
            | bit(vote(Op::Any, &|l| l % 2 == 0)) << 2
            | bit(vote(Op::Any, &|l| l >= size)) << 3;
        let equal = |v: Vec<f32>| at(&ops::subgroup_all_equal(sg, &v).unwrap(), lane);
        let equal_u = |v: Vec<u32>| at(&ops::subgroup_all_equal(sg, &v).unwrap(), lane);
        // AllEqual of size, lane, -1, 1.5, true and b: uniform but for
        // lane; f32(lane) as lane.
        let by_lane = equal_u(self.per_lane(|l| l));
        let equals = bit(equal_u(self.per_lane(|_| size)))
            | bit(by_lane) << 1
            | bit(equal_u(self.per_lane(|_| u32::MAX))) << 2
            | bit(equal(self.per_lane(|_| 1.5))) << 3
            | bit(true) << 4
            | bit(true) << 5
            | bit(equal(self.per_lane(|l| l as f32))) << 6;
        let g = self.g;
        let u = |v: u32| v;
        let fb = f32::to_bits;
        let ib = |v: i32| v as u32;
        let lane_f = self.per_lane(|l| l as f32);
        let one_or_two = self.per_lane(|l| 1 + (l & 1));
        let one_bit = self.per_lane(|l| 1u32 << (l & 31));
        let r10 = [
            Some(votes),
            Some(equals),
            self.arith(sg, ArithOp::IAdd, Scan::Reduce, g, u, lane),
            self.arith(sg, ArithOp::IAdd, Scan::Inclusive, g, u, lane),
        ];
        let r11 = [
            self.arith(sg, ArithOp::IAdd, Scan::Exclusive, g, u, lane),
            self.arith(sg, ArithOp::UMin, Scan::Reduce, g, u, lane),
            self.arith(sg, ArithOp::UMax, Scan::Inclusive, g, u, lane),
            self.arith(sg, ArithOp::Xor, Scan::Exclusive, g, u, lane),
        ];
        let r12 = [
            self.arith(sg, ArithOp::FAdd, Scan::Reduce, &lane_f, fb, lane),
            self.arith(
                sg,
                ArithOp::FMin,
                Scan::Inclusive,
                &self.per_lane(|l| (size - l) as f32),
                fb,
                lane,
            ),
            self.arith(
                sg,
                ArithOp::SMax,
                Scan::Reduce,
                &self.per_lane(|l| l as i32 - 5),
                ib,
                lane,
            ),
            self.arith(
                sg,
                ArithOp::And,
                Scan::Exclusive,
                &self.per_lane(|l| !(l as i32)),
                ib,
                lane,
            ),
        ];
        let r13 = [
            self.arith(sg, ArithOp::IMul, Scan::Reduce, &one_or_two, u, lane),
            self.arith(sg, ArithOp::IMul, Scan::Inclusive, &one_or_two, u, lane),
            self.arith(sg, ArithOp::Or, Scan::Exclusive, &one_bit, u, lane),
            self.arith(
                sg,
                ArithOp::And,
                Scan::Inclusive,
                &self.per_lane(|l| !(1u32 << (l & 31))),
                u,
                lane,
            ),
        ];
        let r14 = [
            self.arith(
                sg,
                ArithOp::FMul,
                Scan::Exclusive,
                &self.per_lane(|l| (1 + (l & 1)) as f32),
                fb,
                lane,
            ),
            self.arith(
                sg,
                ArithOp::SMin,
                Scan::Inclusive,
                &self.per_lane(|l| 5 - l as i32),
                ib,
                lane,
            ),
            self.arith(
                sg,
                ArithOp::FMax,
                Scan::Exclusive,
                &self.per_lane(|l| -(l as f32)),
                fb,
                lane,
            ),
            self.arith(
                sg,
                ArithOp::Xor,
                Scan::Reduce,
                &self.per_lane(|l| l as i32),
                ib,
                lane,
            ),
        ];
        let r15 = [
            self.read(sg, Op::Shuffle, lane, (lane + 1) % size),
            self.read(sg, Op::ShuffleXor, lane, 1 % size),
            self.read(sg, Op::ShuffleUp, lane, lane.min(1)),
            self.read(sg, Op::ShuffleDown, lane, u32::from(lane + 1 < size)),
        ];
        let r16 = [
            self.read(sg, Op::QuadBroadcast, lane, 1),
            self.read(sg, Op::QuadSwap(Quad::Horizontal), lane, 0),
            self.read(sg, Op::QuadSwap(Quad::Vertical), lane, 0),
            self.read(sg, Op::QuadSwap(Quad::Diagonal), lane, 0),
        ];
        // Record 17: the branch of the lanes with bit 1 of the lane id set.
        let inside = sg.narrow((0..size).filter(|l| l & 2 != 0).collect());
        let r17 = if inside.is_active(lane) {
            let ones = vec![1u32; size as usize];
            let p = |f: fn(u32) -> bool| self.per_lane(f);
            let all = at(
                &ops::subgroup_all(&inside, &p(|l| l % 2 == 0)).unwrap(),
                lane,
            );
            let any = at(&ops::subgroup_any(&inside, &p(|l| l == 3)).unwrap(), lane);
            [
                self.arith(&inside, ArithOp::IAdd, Scan::Inclusive, &ones, u, lane),
                self.arith(&inside, ArithOp::IAdd, Scan::Reduce, &ones, u, lane),
                self.read(&inside, Op::ShuffleXor, lane, 1),
                Some(bit(all) | bit(any) << 1),
            ]
        } else {
            [Some(u32::MAX); 4]
        };
        let r18 = [
            self.arith(
                sg,
                ArithOp::And,
                Scan::Reduce,
                &self.per_lane(|l| !(1u32 << (l & 31))),
                u,
                lane,
            ),
            self.arith(sg, ArithOp::Or, Scan::Reduce, &one_bit, u, lane),
            self.arith(sg, ArithOp::Or, Scan::Inclusive, &one_bit, u, lane),
            self.arith(sg, ArithOp::Xor, Scan::Inclusive, g, u, lane),
        ];
        let r19 = [
            self.arith(sg, ArithOp::UMin, Scan::Exclusive, g, u, lane),
            self.arith(sg, ArithOp::UMax, Scan::Exclusive, g, u, lane),
            self.arith(sg, ArithOp::IMul, Scan::Exclusive, &one_or_two, u, lane),
            self.arith(sg, ArithOp::UMin, Scan::Inclusive, g, u, lane),
        ];
        [r10, r11, r12, r13, r14, r15, r16, r17, r18, r19]
    }
}
