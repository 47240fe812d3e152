//! `ballot::primitives` refusing buffers that wgpu would refuse: one
//! without the `STORAGE` usage, and one passed as two arguments where the
//! run writes one of them. Each entry point (`bind` and `encode` of the
//! compaction, the pair compaction and the scan) returns the typed error
//! naming the arguments, without a panic in wgpu's error handler and with
//! nothing left in a validation scope.
//!
//! Without a Vulkan adapter the tests say why on stderr and pass, unless
//! `BALLOT_REQUIRE_GPU=1`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use ballot::primitives::{
    padded_words, Compaction, ExclusiveScan, Keep, PairCompaction, PrimitiveError,
    PrimitiveOptions, Workspace,
};
use ballot::Target;
use ballot_runner::Gpu;

mod common;

use common::{loud, skip};

/// Elements of every run: one tile, so that the sizes pass.
const N: u32 = 100;

/// A buffer of `words` words with `usage`.
fn buffer(device: &wgpu::Device, words: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: words * 4,
        usage,
        mapped_at_creation: false,
    })
}

/// A storage buffer large enough for any argument of a run of `N`.
fn storage(device: &wgpu::Device) -> wgpu::Buffer {
    buffer(device, padded_words(N), wgpu::BufferUsages::STORAGE)
}

/// The three pipelines, on `wgsl-no-subgroup`, which every Vulkan device
/// runs.
struct Pipelines {
    compact: Compaction,
    pairs: PairCompaction,
    scan: ExclusiveScan,
    workspace: Workspace,
}

fn setup(what: &str) -> Option<(Gpu, Pipelines)> {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => {
            skip(what, &e.to_string());
            return None;
        }
    };
    let device = gpu.device();
    let target = Target::WgslNoSubgroup;
    let options = PrimitiveOptions::default();
    let pipelines = Pipelines {
        compact: Compaction::new(device, target, &options).expect("the compaction's pipeline"),
        pairs: PairCompaction::new(device, target, &options).expect("the pairs' pipeline"),
        scan: ExclusiveScan::new(device, target, &options).expect("the scan's pipeline"),
        workspace: Workspace::new(device, N),
    };
    loud(&format!("{what}: on {}", gpu.describe()));
    Some((gpu, pipelines))
}

/// Which entry point a case calls.
#[derive(Clone, Copy, Debug)]
enum Entry {
    Bind,
    Encode,
}

/// The buffers of one call, by the entry point's argument names.
#[derive(Clone, Copy)]
enum Call<'b> {
    Compact {
        keys: &'b wgpu::Buffer,
        out_keys: &'b wgpu::Buffer,
    },
    Pairs {
        keys: &'b wgpu::Buffer,
        values: &'b wgpu::Buffer,
        out_keys: &'b wgpu::Buffer,
        out_values: &'b wgpu::Buffer,
    },
    Scan {
        input: &'b wgpu::Buffer,
        output: &'b wgpu::Buffer,
    },
}

/// Runs `call` through `entry` inside a validation scope and an out-of-memory
/// one, catching any panic: the primitive's result, or what went wrong
/// beyond it.
fn call(
    gpu: &Gpu,
    pipelines: &Pipelines,
    entry: Entry,
    call: Call<'_>,
) -> Result<Result<(), PrimitiveError>, String> {
    let device = gpu.device();
    let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let workspace = &pipelines.workspace;
    let keep = Keep::Below(50);
    let mut encoder = device.create_command_encoder(&Default::default());
    let result = catch_unwind(AssertUnwindSafe(|| match (entry, call) {
        (Entry::Bind, Call::Compact { keys, out_keys }) => pipelines
            .compact
            .bind(device, workspace, N, keep, keys, out_keys)
            .map(drop),
        (Entry::Encode, Call::Compact { keys, out_keys }) => {
            pipelines
                .compact
                .encode(device, &mut encoder, workspace, N, keep, keys, out_keys)
        }
        (
            Entry::Bind,
            Call::Pairs {
                keys,
                values,
                out_keys,
                out_values,
            },
        ) => pipelines
            .pairs
            .bind(
                device, workspace, N, keep, keys, values, out_keys, out_values,
            )
            .map(drop),
        (
            Entry::Encode,
            Call::Pairs {
                keys,
                values,
                out_keys,
                out_values,
            },
        ) => pipelines.pairs.encode(
            device,
            &mut encoder,
            workspace,
            N,
            keep,
            keys,
            values,
            out_keys,
            out_values,
        ),
        (Entry::Bind, Call::Scan { input, output }) => pipelines
            .scan
            .bind(device, workspace, N, input, output)
            .map(drop),
        (Entry::Encode, Call::Scan { input, output }) => {
            pipelines
                .scan
                .encode(device, &mut encoder, workspace, N, input, output)
        }
    }));
    // The encoder is submitted, so that an error wgpu would only find in
    // the recorded commands shows too.
    gpu.queue().submit([encoder.finish()]);
    let scoped = pollster::block_on(validation.pop());
    let result = result.map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!("panicked: {message}")
    })?;
    match scoped {
        Some(error) => Err(format!("wgpu reported an error: {error}")),
        None => Ok(result),
    }
}

/// Checks that every case gives the error `want` accepts, naming it.
fn expect_all(
    gpu: &Gpu,
    pipelines: &Pipelines,
    cases: &[(&str, Call<'_>)],
    want: impl Fn(&str, &PrimitiveError) -> bool,
) {
    let mut failures = Vec::new();
    for &(name, case) in cases {
        for entry in [Entry::Bind, Entry::Encode] {
            match call(gpu, pipelines, entry, case) {
                Ok(Err(e)) if want(name, &e) => {}
                Ok(other) => failures.push(format!("{name}, {entry:?}: {other:?}")),
                Err(why) => failures.push(format!("{name}, {entry:?}: {why}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A buffer without `STORAGE` (here `MAP_READ | COPY_DST`, a readback
/// buffer), as each argument of each entry point: `MissingUsage` naming
/// that argument and `STORAGE`, where wgpu's `create_bind_group` used to
/// panic.
#[test]
fn a_buffer_without_storage_is_refused() {
    let Some((gpu, pipelines)) = setup("buffers without STORAGE") else {
        return;
    };
    let device = gpu.device();
    let good = [(); 4].map(|()| storage(device));
    let bad = buffer(
        device,
        padded_words(N),
        wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
    );
    let pick = |i: usize, at: usize| if i == at { &bad } else { &good[i] };
    let mut cases = vec![
        (
            "keys",
            Call::Compact {
                keys: &bad,
                out_keys: &good[2],
            },
        ),
        (
            "out_keys",
            Call::Compact {
                keys: &good[0],
                out_keys: &bad,
            },
        ),
        (
            "input",
            Call::Scan {
                input: &bad,
                output: &good[2],
            },
        ),
        (
            "output",
            Call::Scan {
                input: &good[0],
                output: &bad,
            },
        ),
    ];
    for (at, name) in ["keys", "values", "out_keys", "out_values"]
        .into_iter()
        .enumerate()
    {
        cases.push((
            name,
            Call::Pairs {
                keys: pick(0, at),
                values: pick(1, at),
                out_keys: pick(2, at),
                out_values: pick(3, at),
            },
        ));
    }
    expect_all(&gpu, &pipelines, &cases, |name, e| {
        let named = matches!(e, PrimitiveError::MissingUsage { buffer, missing: "STORAGE", usages }
            if *buffer == name && usages == "MAP_READ | COPY_DST");
        named && e.to_string().contains(&format!("`{name}`"))
    });
}

/// One buffer passed as an input and an output, as two outputs, or as an
/// argument and the workspace's count buffer: `Aliased` naming both
/// arguments, where wgpu used to panic with "conflicting usages".
#[test]
fn a_buffer_passed_twice_is_refused() {
    let Some((gpu, pipelines)) = setup("aliased buffers") else {
        return;
    };
    let device = gpu.device();
    let [a, b, c, d] = [(); 4].map(|()| storage(device));
    // The workspace's status buffer, as the caller can reach it; a clone
    // is the same buffer.
    let status = pipelines.workspace.count_buffer().0.clone();
    let cases = [
        (
            "keys out_keys",
            Call::Compact {
                keys: &a,
                out_keys: &a,
            },
        ),
        (
            "keys workspace",
            Call::Compact {
                keys: &status,
                out_keys: &b,
            },
        ),
        (
            "out_keys workspace",
            Call::Compact {
                keys: &a,
                out_keys: &status,
            },
        ),
        (
            "input output",
            Call::Scan {
                input: &a,
                output: &a,
            },
        ),
        (
            "output workspace",
            Call::Scan {
                input: &a,
                output: &status,
            },
        ),
        (
            "values out_keys",
            Call::Pairs {
                keys: &a,
                values: &b,
                out_keys: &b,
                out_values: &d,
            },
        ),
        (
            "out_keys out_values",
            Call::Pairs {
                keys: &a,
                values: &b,
                out_keys: &c,
                out_values: &c,
            },
        ),
        (
            "keys out_values",
            Call::Pairs {
                keys: &a,
                values: &b,
                out_keys: &c,
                out_values: &a,
            },
        ),
    ];
    expect_all(&gpu, &pipelines, &cases, |names, e| {
        let (want_first, want_second) = names.split_once(' ').expect("two names");
        let named = matches!(e, PrimitiveError::Aliased { first, second }
            if *first == want_first && *second == want_second);
        let message = e.to_string();
        named
            && message.contains(&format!("`{want_first}`"))
            && message.contains(&format!("`{want_second}`"))
    });
}

/// What stays allowed: one buffer as both inputs of the pair compaction
/// (both read), and the sizes' error still naming the scan's own argument.
#[test]
fn two_inputs_may_share_a_buffer() {
    let Some((gpu, pipelines)) = setup("inputs sharing a buffer") else {
        return;
    };
    let device = gpu.device();
    let [a, b, c] = [(); 3].map(|()| storage(device));
    let shared = Call::Pairs {
        keys: &a,
        values: &a,
        out_keys: &b,
        out_values: &c,
    };
    for entry in [Entry::Bind, Entry::Encode] {
        assert!(
            matches!(call(&gpu, &pipelines, entry, shared), Ok(Ok(()))),
            "{entry:?}"
        );
    }
    let small = buffer(device, 1, wgpu::BufferUsages::STORAGE);
    let small_output = Call::Scan {
        input: &a,
        output: &small,
    };
    for entry in [Entry::Bind, Entry::Encode] {
        let got = call(&gpu, &pipelines, entry, small_output);
        assert!(
            matches!(
                got,
                Ok(Err(PrimitiveError::BufferTooSmall {
                    buffer: "output",
                    ..
                }))
            ),
            "{entry:?}: {got:?}"
        );
    }
}
