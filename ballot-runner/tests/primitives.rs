//! `ballot::primitives` on the Vulkan driver through wgpu: ordered
//! compaction of keys and of pairs, and the exclusive scan, for every
//! target, at sizes 1, 31, 2^10 + 3, 2^20 and 2^24 and at 0%, 5%, 50%, 95%
//! and 100% kept, each output word and count compared with
//! `primitives::reference`, the definitions, and the WGSL targets the same
//! way on Dawn. `BALLOT_PRIMITIVE_MAX_LOG` lowers the largest size (for
//! quick runs), `BALLOT_TARGETS=glsl,wgsl` picks targets; lavapipe's subgroup size is
//! set by `LP_NATIVE_VECTOR_WIDTH` (scripts/test runs 4, 8 and 16).
//!
//! Without a Vulkan adapter the test says why on stderr and passes, unless
//! `BALLOT_REQUIRE_GPU=1`.

use ballot::primitives::{
    padded_words, reference, Compaction, ExclusiveScan, Keep, PairCompaction, Primitive,
    PrimitiveOptions,
};
use ballot::Target;
use ballot_runner::Gpu;
use wgpu::util::DeviceExt;

mod common;

use common::{loud, skip, targets};

/// The sizes every target runs, up to 2^`BALLOT_PRIMITIVE_MAX_LOG`: 2^20
/// by default (256 tiles, so that the look-back crosses many workgroups
/// and windows), 2^24 under `scripts/test --full`. The 2^24 runs are most
/// of this test's time on lavapipe and Dawn, and exercise no path 2^20
/// does not.
fn sizes() -> Vec<u32> {
    let max_log: u32 = std::env::var("BALLOT_PRIMITIVE_MAX_LOG")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    [1, 31, (1 << 10) + 3, 1 << 20, 1 << 24]
        .into_iter()
        .filter(|&n| n <= 1 << max_log)
        .collect()
}

/// The kept shares, and the `Keep` that gives each over uniform words.
fn keeps() -> [(u32, Keep); 5] {
    let below = |percent: u64| Keep::Below(((1u64 << 32) * percent / 100) as u32);
    [
        (0, Keep::Below(0)),
        (5, below(5)),
        (50, below(50)),
        (95, below(95)),
        (100, Keep::AtLeast(0)),
    ]
}

/// A fixed xorshift stream.
fn words(n: u32, seed: u32) -> Vec<u32> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect()
}

struct Runner<'g> {
    gpu: &'g Gpu,
}

impl Runner<'_> {
    fn device(&self) -> &wgpu::Device {
        self.gpu.device()
    }

    /// A storage buffer of `data`, padded as the primitives read it.
    fn input(&self, data: &[u32]) -> wgpu::Buffer {
        let mut padded = data.to_vec();
        padded.resize(padded_words(data.len() as u32) as usize, 0);
        self.device()
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: &bytes(&padded),
                usage: wgpu::BufferUsages::STORAGE,
            })
    }

    /// An output buffer of `n` words, all 0xdeadbeef, so that a word left
    /// unwritten differs from any expected one that is not.
    fn output(&self, n: u32) -> wgpu::Buffer {
        self.device()
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: &bytes(&vec![0xdead_beef; n.max(1) as usize]),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            })
    }

    fn read(&self, buffer: &wgpu::Buffer, words: usize) -> Vec<u32> {
        let staging = self.device().create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: (words.max(1) * 4) as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder = self.device().create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, (words.max(1) * 4) as u64);
        self.gpu.queue().submit([encoder.finish()]);
        staging
            .slice(..)
            .map_async(wgpu::MapMode::Read, |r| r.unwrap());
        self.device()
            .poll(wgpu::PollType::wait_indefinitely())
            .unwrap();
        let view = staging.slice(..).get_mapped_range().unwrap();
        let out = view
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect::<Vec<_>>();
        drop(view);
        staging.unmap();
        out[..words].to_vec()
    }

    fn submit(&self, encoder: wgpu::CommandEncoder) {
        self.gpu.queue().submit([encoder.finish()]);
    }
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The three pipelines of one target.
struct Pipelines {
    compact: Compaction,
    pairs: PairCompaction,
    scan: ExclusiveScan,
}

fn pipelines(gpu: &Gpu, target: Target, options: &PrimitiveOptions) -> Result<Pipelines, String> {
    let device = gpu.device();
    let e = |e: ballot::primitives::PrimitiveError| e.to_string();
    if target.language() == ballot::Language::Glsl {
        let spirv = |primitive: Primitive| -> Result<Vec<u32>, String> {
            let text =
                ballot::primitives::PrimitiveShader::new(primitive, target, options).map_err(e)?;
            let bytes =
                ballot_naga::valid::glslang_spirv(text.text()).map_err(|e| e.to_string())?;
            Ok(ballot_runner::gpu::words_of(&bytes))
        };
        // SAFETY: each SPIR-V is glslang's compilation of that primitive's
        // shader for `target` with `options`.
        unsafe {
            Ok(Pipelines {
                compact: Compaction::from_spirv(
                    device,
                    target,
                    options,
                    &spirv(Primitive::Compact)?,
                )
                .map_err(e)?,
                pairs: PairCompaction::from_spirv(
                    device,
                    target,
                    options,
                    &spirv(Primitive::CompactPairs)?,
                )
                .map_err(e)?,
                scan: ExclusiveScan::from_spirv(
                    device,
                    target,
                    options,
                    &spirv(Primitive::ExclusiveScan)?,
                )
                .map_err(e)?,
            })
        }
    } else {
        Ok(Pipelines {
            compact: Compaction::new(device, target, options).map_err(e)?,
            pairs: PairCompaction::new(device, target, options).map_err(e)?,
            scan: ExclusiveScan::new(device, target, options).map_err(e)?,
        })
    }
}

/// The first difference between `got` and `want`, described.
fn differs(what: &str, got: &[u32], want: &[u32]) -> Option<String> {
    if got == want {
        return None;
    }
    let wrong = got.iter().zip(want).filter(|(a, b)| a != b).count();
    let first = got.iter().zip(want).position(|(a, b)| a != b);
    Some(format!(
        "{what}: {wrong} of {} words wrong, the first at {first:?}",
        want.len()
    ))
}

/// Runs every primitive of `pipelines` at every size and share; returns
/// the failures.
fn run_target(runner: &Runner<'_>, target: Target, pipelines: &Pipelines) -> Vec<String> {
    let device = runner.device();
    let mut failures = Vec::new();
    let mut fail = |what: String| {
        eprintln!("FAIL {what}");
        failures.push(what);
    };
    for n in sizes() {
        let keys = words(n, 0x9e37_79b9 ^ n);
        let values: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2_654_435_761)).collect();
        let small: Vec<u32> = keys.iter().map(|k| k >> 20).collect();
        let keys_buffer = runner.input(&keys);
        let values_buffer = runner.input(&values);
        let out_keys = runner.output(n);
        let out_values = runner.output(n);
        let workspace = pipelines.pairs.workspace(device, n);
        for (percent, keep) in keeps() {
            let at = format!("{target}, n = {n}, {percent}% kept");
            // Keys alone.
            let mut encoder = device.create_command_encoder(&Default::default());
            pipelines
                .compact
                .encode(
                    device,
                    &mut encoder,
                    &workspace,
                    n,
                    keep,
                    &keys_buffer,
                    &out_keys,
                )
                .unwrap();
            runner.submit(encoder);
            let want = reference::compact(&keys, keep);
            let count = workspace.read_count(device, runner.gpu.queue()).unwrap();
            if count as usize != want.len() {
                fail(format!("compact, {at}: count {count}, not {}", want.len()));
            } else if let Some(why) = differs(
                &format!("compact, {at}"),
                &runner.read(&out_keys, want.len()),
                &want,
            ) {
                fail(why);
            }
            // Pairs.
            let mut encoder = device.create_command_encoder(&Default::default());
            pipelines
                .pairs
                .encode(
                    device,
                    &mut encoder,
                    &workspace,
                    n,
                    keep,
                    &keys_buffer,
                    &values_buffer,
                    &out_keys,
                    &out_values,
                )
                .unwrap();
            runner.submit(encoder);
            let (want_keys, want_values) = reference::compact_pairs(&keys, &values, keep);
            let count = workspace.read_count(device, runner.gpu.queue()).unwrap();
            if count as usize != want_keys.len() {
                fail(format!(
                    "pairs, {at}: count {count}, not {}",
                    want_keys.len()
                ));
            } else {
                let got_keys = runner.read(&out_keys, want_keys.len());
                let got_values = runner.read(&out_values, want_values.len());
                for why in [
                    differs(&format!("pairs' keys, {at}"), &got_keys, &want_keys),
                    differs(&format!("pairs' values, {at}"), &got_values, &want_values),
                ]
                .into_iter()
                .flatten()
                {
                    fail(why);
                }
            }
        }
        // The scan, of full words (the sums wrap) and of small ones.
        for (what, input) in [("full words", &keys), ("12-bit words", &small)] {
            let at = format!("scan of {what}, {target}, n = {n}");
            let buffer = if what == "full words" {
                &keys_buffer
            } else {
                &runner.input(input)
            };
            let mut encoder = device.create_command_encoder(&Default::default());
            pipelines
                .scan
                .encode(device, &mut encoder, &workspace, n, buffer, &out_keys)
                .unwrap();
            runner.submit(encoder);
            let (want, total) = reference::exclusive_scan(input);
            let count = workspace.read_count(device, runner.gpu.queue()).unwrap();
            if count != total {
                fail(format!("{at}: total {count}, not {total}"));
            }
            if let Some(why) = differs(&at, &runner.read(&out_keys, n as usize), &want) {
                fail(why);
            }
        }
    }
    failures
}

#[test]
fn primitives_on_the_driver() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("device-wide primitives", &e.to_string()),
    };
    let runner = Runner { gpu: &gpu };
    let hardware = gpu.info().subgroup_min_size.max(4);
    let mut failures = Vec::new();
    let mut ran = 0;
    for target in targets(&[
        Target::Glsl,
        Target::Wgsl,
        Target::GlslNoSubgroup,
        Target::WgslNoSubgroup,
    ]) {
        if let Some(why) = gpu.unsupported(target) {
            skip(&format!("primitives on {target}"), &why);
            continue;
        }
        // The defaults, and a configuration that takes the decoupled
        // fallback at the first unpublished predecessor (`spins: 1`) with
        // tiles of 4 loads per invocation (the defaults take 8, compaction
        // where subgroups allow it) and three workgroups, each taking many
        // tiles in turn, loading the next ahead (the defaults dispatch one
        // workgroup per tile): real subgroups at the device's size,
        // emulated ones of the target's default size and of the other of
        // 8 (more subgroups in the workgroup than loads) and 32.
        let other = if target == Target::GlslNoSubgroup {
            32
        } else {
            8
        };
        // (subgroup size, spins, loads, workgroups)
        type Config = (Option<u32>, u32, Option<u32>, Option<u32>);
        let configs: &[Config] = if target.has_subgroups() {
            &[
                (Some(hardware), 4, None, None),
                (Some(hardware), 1, Some(4), Some(3)),
            ]
        } else {
            &[(None, 4, None, None), (Some(other), 1, Some(4), Some(3))]
        };
        for &(subgroup_size, spins, loads, workgroups) in configs {
            let options = PrimitiveOptions {
                subgroup_size,
                spins,
                loads,
                workgroups,
            };
            let start = std::time::Instant::now();
            match pipelines(&gpu, target, &options) {
                Ok(pipelines) => failures.extend(run_target(&runner, target, &pipelines)),
                Err(e) => failures.push(format!("{target}: {e}")),
            }
            ran += 1;
            loud(&format!(
                "primitives on {target}, subgroups of {subgroup_size:?}, {spins} spins, {}: {:.1?}",
                gpu.describe(),
                start.elapsed()
            ));
        }
    }
    assert!(ran > 0 || !common::required(), "no target ran");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The WGSL targets' shaders on Dawn/Tint, at the same sizes and shares,
/// through `ballot_runner::dawn` with the bindings `PrimitiveShader`
/// documents: what a browser host does.
#[test]
fn primitives_on_dawn() {
    use ballot::primitives::PrimitiveShader;
    use ballot_runner::dawn::{BufferSpec, BuffersJob, Dawn};

    let dawn = match Dawn::find() {
        Ok(dawn) => dawn,
        Err(why) => return skip("device-wide primitives on Dawn", &why),
    };
    // Dawn's subgroups may be as small as 4 on a software adapter: the
    // smallest the shader must allow for. From 2^20 elements, seven
    // workgroups, so that each takes many tiles in turn, loading the next
    // ahead, on Tint too; below, the defaults' one workgroup per tile.
    let options = |target: Target, n: u32| PrimitiveOptions {
        subgroup_size: Some(if target.has_subgroups() { 4 } else { 32 }),
        workgroups: (n >= 1 << 20).then_some(7),
        ..PrimitiveOptions::default()
    };
    let start = std::time::Instant::now();
    let mut failures = Vec::new();
    let mut ran = 0;
    for target in targets(&ballot_runner::dawn::TARGETS) {
        for n in sizes() {
            // One Node process per size: all sizes' buffers at once would
            // take gigabytes.
            let mut jobs = Vec::new();
            // What each job's read-back must be: output keys, output values
            // (pairs only), and the count.
            let mut wants: Vec<(String, Vec<Vec<u32>>, u32)> = Vec::new();
            let keys = words(n, 0x9e37_79b9 ^ n);
            let values: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2_654_435_761)).collect();
            let padded = |data: &[u32]| {
                let mut data = data.to_vec();
                data.resize(padded_words(n) as usize, 0);
                data
            };
            let mut cases: Vec<(Primitive, Keep, String)> = keeps()
                .into_iter()
                .flat_map(|(percent, keep)| {
                    [Primitive::Compact, Primitive::CompactPairs]
                        .map(|p| (p, keep, format!("{percent}% kept")))
                })
                .collect();
            cases.push((Primitive::ExclusiveScan, Keep::Below(0), "scan".to_string()));
            for (primitive, keep, what) in cases {
                let shader = PrimitiveShader::new(primitive, target, &options(target, n)).unwrap();
                let name = format!("{} on {target}, n = {n}, {what}", primitive.name());
                let (want, count) = match primitive {
                    Primitive::Compact => {
                        let want = reference::compact(&keys, keep);
                        let count = want.len() as u32;
                        (vec![want], count)
                    }
                    Primitive::CompactPairs => {
                        let (k, v) = reference::compact_pairs(&keys, &values, keep);
                        let count = k.len() as u32;
                        (vec![k, v], count)
                    }
                    Primitive::ExclusiveScan => {
                        let (sums, total) = reference::exclusive_scan(&keys);
                        (vec![sums], total)
                    }
                };
                let pairs = primitive == Primitive::CompactPairs;
                let spec = |binding, read_only, words, read_back| BufferSpec {
                    binding,
                    read_only,
                    words,
                    read_back,
                    ..Default::default()
                };
                jobs.push(BuffersJob {
                    name: name.clone(),
                    target,
                    shader: shader.text().to_string(),
                    entries: vec![],
                    workgroups: shader.workgroups(n),
                    buffers: vec![
                        spec(0, true, padded(&keys), false),
                        spec(1, true, if pairs { padded(&values) } else { vec![] }, false),
                        spec(2, false, vec![0xdead_beef; n as usize], true),
                        spec(
                            3,
                            false,
                            vec![0xdead_beef; if pairs { n as usize } else { 1 }],
                            pairs,
                        ),
                        spec(4, false, vec![0; shader.status_words(n) as usize], true),
                        spec(5, true, shader.params(n, keep).to_vec(), false),
                    ],
                });
                wants.push((name, want, count));
            }
            let results = match dawn.run_buffers(&jobs) {
                Ok(results) => results,
                Err(e) if !common::required() && e.to_string().contains("no Vulkan adapter") => {
                    return skip("device-wide primitives on Dawn", &e.to_string())
                }
                Err(e) => panic!("primitives on Dawn: {e}"),
            };
            ran += jobs.len();
            for ((name, want, count), result) in wants.iter().zip(results) {
                let read = match result {
                    Ok(read) => read,
                    Err(e) => {
                        failures.push(format!("{name}: {e}"));
                        continue;
                    }
                };
                let status = read.last().expect("the status is read back");
                if status[1] != *count {
                    failures.push(format!("{name}: count {}, not {count}", status[1]));
                }
                for (got, want) in read.iter().zip(want) {
                    if let Some(why) = differs(name, &got[..want.len()], want) {
                        failures.push(why);
                    }
                }
            }
        }
    }
    loud(&format!(
        "primitives on Dawn: {ran} jobs in {:.1?}",
        start.elapsed()
    ));
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every primitive's shader for every target and subgroup size is valid
/// where no driver is needed: naga validates the WGSL, glslang compiles the
/// GLSL to SPIR-V.
#[test]
fn every_shader_validates() {
    use ballot::primitives::PrimitiveShader;
    use ballot::Form;

    let glslang = ballot_testkit::have_tools(
        "the primitives' GLSL through glslang",
        &[ballot_testkit::GLSLANG],
    );
    let mut failures = Vec::new();
    for target in Target::ALL {
        for primitive in Primitive::ALL {
            // Every subgroup size in the default tile, both tile sizes in
            // subgroups of 32, and workgroups that take tiles in turn.
            let configs = [4, 8, 16, 32, 64, 128]
                .map(|size| (size, None, None))
                .into_iter()
                .chain([
                    (32, Some(4), None),
                    (32, Some(8), None),
                    (32, None, Some(64)),
                ]);
            for (subgroup_size, loads, workgroups) in configs {
                let options = PrimitiveOptions {
                    subgroup_size: Some(subgroup_size),
                    loads,
                    workgroups,
                    ..PrimitiveOptions::default()
                };
                let shader = PrimitiveShader::new(primitive, target, &options).unwrap();
                let what = format!(
                    "{} on {target}, subgroups of {subgroup_size}, loads {loads:?}, \
                     workgroups {workgroups:?}",
                    primitive.name()
                );
                let result = match target.language() {
                    ballot::Language::Wgsl => {
                        ballot_naga::valid::validate(target, Form::ComputeShader, shader.text())
                            .map_err(|e| e.to_string())
                    }
                    ballot::Language::Glsl if glslang => {
                        ballot_naga::valid::glslang_spirv(shader.text())
                            .map(drop)
                            .map_err(|e| e.to_string())
                    }
                    ballot::Language::Glsl => Ok(()),
                };
                if let Err(e) = result {
                    failures.push(format!("{what}: {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn options_out_of_range_are_named() {
    use ballot::primitives::{PrimitiveError, PrimitiveShader};

    for (options, named) in [
        (
            PrimitiveOptions {
                subgroup_size: Some(12),
                ..PrimitiveOptions::default()
            },
            "subgroup_size",
        ),
        (
            PrimitiveOptions {
                subgroup_size: Some(2),
                ..PrimitiveOptions::default()
            },
            "subgroup_size",
        ),
        (
            PrimitiveOptions {
                spins: 0,
                ..PrimitiveOptions::default()
            },
            "spins",
        ),
        (
            PrimitiveOptions {
                loads: Some(6),
                ..PrimitiveOptions::default()
            },
            "loads",
        ),
        (
            PrimitiveOptions {
                subgroup_size: Some(4),
                loads: Some(8),
                ..PrimitiveOptions::default()
            },
            "loads",
        ),
        (
            PrimitiveOptions {
                workgroups: Some(0),
                ..PrimitiveOptions::default()
            },
            "workgroups",
        ),
    ] {
        match PrimitiveShader::new(Primitive::Compact, Target::Wgsl, &options) {
            Err(PrimitiveError::Option { option, .. }) => assert_eq!(option, named),
            other => panic!("{options:?}: {other:?}"),
        }
    }
}

/// Every kind of `Keep`, edges included, on every target: the shaders'
/// single branch-free test against `Keep::keeps`.
#[test]
fn every_keep_on_the_driver() {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("every Keep on the driver", &e.to_string()),
    };
    let runner = Runner { gpu: &gpu };
    let device = gpu.device();
    let n = (1 << 12) + 3;
    // Small keys beside random ones, so that equality and ranges meet them.
    let keys: Vec<u32> = words(n, 7)
        .into_iter()
        .enumerate()
        .map(|(i, x)| if i % 3 == 0 { i as u32 % 17 } else { x })
        .collect();
    let keeps = [
        Keep::Below(0),
        Keep::Below(9),
        Keep::AtLeast(0),
        Keep::AtLeast(1 << 31),
        Keep::NotEqual(5),
        Keep::NotEqual(u32::MAX),
        Keep::InRange(3, 9),
        Keep::InRange(9, 3),
        Keep::InRange(5, 5),
        Keep::AnyBit(0),
        Keep::AnyBit(1),
        Keep::AnyBit(1 << 31),
    ];
    let input = runner.input(&keys);
    let output = runner.output(n);
    let workspace = ballot::primitives::Workspace::new(device, n);
    let hardware = gpu.info().subgroup_min_size.max(4);
    let mut failures = Vec::new();
    for target in targets(&[
        Target::Glsl,
        Target::Wgsl,
        Target::GlslNoSubgroup,
        Target::WgslNoSubgroup,
    ]) {
        if let Some(why) = gpu.unsupported(target) {
            skip(&format!("every Keep on {target}"), &why);
            continue;
        }
        let options = PrimitiveOptions {
            // The target's default where subgroups are emulated.
            subgroup_size: target.has_subgroups().then_some(hardware),
            ..PrimitiveOptions::default()
        };
        let compact = match pipelines(&gpu, target, &options) {
            Ok(pipelines) => pipelines.compact,
            Err(e) => {
                failures.push(format!("{target}: {e}"));
                continue;
            }
        };
        for keep in keeps {
            let mut encoder = device.create_command_encoder(&Default::default());
            compact
                .encode(device, &mut encoder, &workspace, n, keep, &input, &output)
                .unwrap();
            runner.submit(encoder);
            let want = reference::compact(&keys, keep);
            let count = workspace.read_count(device, gpu.queue()).unwrap();
            let at = format!("{keep:?} on {target}");
            if count as usize != want.len() {
                failures.push(format!("{at}: count {count}, not {}", want.len()));
            } else if let Some(why) = differs(&at, &runner.read(&output, want.len()), &want) {
                failures.push(why);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
