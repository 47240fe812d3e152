//! Pipelines over plain storage buffers, timed with timestamp queries.

use std::borrow::Cow;

use ballot::prelude::Target;
use ballot_runner::gpu::{storage_entry, words_of};
use ballot_runner::{Gpu, RunnerError};
use ballot_shader::back::Language;
use wgpu::util::DeviceExt;

/// A compute pipeline whose bindings are storage buffers 0, 1, … in group 0.
pub struct Kernel {
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
}

impl Kernel {
    /// Compiles `text` for `target` (entry point `main`, workgroup of 256)
    /// with `read_only[i]` telling whether binding `i` is read-only.
    pub fn new(
        gpu: &Gpu,
        target: Target,
        label: &str,
        text: &str,
        read_only: &[bool],
    ) -> Result<Self, String> {
        Self::with_checks(gpu, target, label, text, read_only, true)
    }

    /// Like [`Kernel::new`]; with `checks` off, WGSL is compiled without
    /// the runtime checks wgpu adds to every module (bounds checks, and a
    /// counter that bounds every loop): the cost of those checks apart.
    pub fn with_checks(
        gpu: &Gpu,
        target: Target,
        label: &str,
        text: &str,
        read_only: &[bool],
        checks: bool,
    ) -> Result<Self, String> {
        Self::build(gpu, target, label, text, read_only, checks, [256, 1, 1])
    }

    /// Like [`Kernel::new`], for an entry point of another workgroup size
    /// (GLSL's SPIR-V is handed to the driver with it).
    pub fn sized(
        gpu: &Gpu,
        target: Target,
        label: &str,
        text: &str,
        read_only: &[bool],
        workgroup: [u32; 3],
    ) -> Result<Self, String> {
        Self::build(gpu, target, label, text, read_only, true, workgroup)
    }

    fn build(
        gpu: &Gpu,
        target: Target,
        label: &str,
        text: &str,
        read_only: &[bool],
        checks: bool,
        workgroup: [u32; 3],
    ) -> Result<Self, String> {
        let entries: Vec<_> = read_only
            .iter()
            .enumerate()
            .map(|(i, &read_only)| storage_entry(i as u32, read_only))
            .collect();
        let module = || {
            if !checks && target.language() == Language::Wgsl {
                let desc = wgpu::ShaderModuleDescriptor {
                    label: Some(label),
                    source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(text)),
                };
                // SAFETY: the benchmark's shaders index only within their
                // buffers (the outputs are checked against the CPU) and
                // every loop ends.
                return Ok(unsafe {
                    gpu.device()
                        .create_shader_module_trusted(desc, wgpu::ShaderRuntimeChecks::unchecked())
                });
            }
            gpu.module_of(target, label, workgroup, text)
                .map_err(|message| RunnerError::Shader {
                    job: format!("{label} on {target}"),
                    message,
                })
        };
        let (layout, pipeline) = gpu
            .pipeline(label, label, module, &entries)
            .map_err(|e| e.to_string())?;
        Ok(Self { pipeline, layout })
    }

    /// Records one dispatch of `workgroups` with `group` in `pass`.
    pub fn dispatch(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        group: &wgpu::BindGroup,
        [x, y, z]: [u32; 3],
    ) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(x, y, z);
    }

    /// A bind group of `buffers`, in binding order.
    pub fn bind(&self, gpu: &Gpu, buffers: &[&wgpu::Buffer]) -> wgpu::BindGroup {
        let entries: Vec<_> = buffers
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        gpu.device().create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.layout,
            entries: &entries,
        })
    }
}

/// A storage buffer of `words`.
pub fn upload(gpu: &Gpu, label: &str, words: &[u32]) -> wgpu::Buffer {
    gpu.device()
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: bytes(words),
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
        })
}

/// An uninitialised storage buffer of `words` words.
pub fn storage(gpu: &Gpu, label: &str, words: usize) -> wgpu::Buffer {
    gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: (words.max(1) * 4) as u64,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// The bytes of `words`, for buffer writes.
pub fn bytes(words: &[u32]) -> &[u8] {
    // SAFETY: u32 has no padding and any byte pattern is a valid u8.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast(), std::mem::size_of_val(words)) }
}

/// The first `words` words of `buffer`.
pub fn download(gpu: &Gpu, buffer: &wgpu::Buffer, words: usize) -> Vec<u32> {
    let size = (words.max(1) * 4) as u64;
    let staging = gpu.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device().create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
    gpu.queue().submit([encoder.finish()]);
    let slice = staging.slice(..);
    slice.map_async(wgpu::MapMode::Read, |r| r.expect("map readback buffer"));
    gpu.device()
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("device lost");
    let data = staging
        .get_mapped_range(..)
        .expect("mapped readback buffer");
    let mut out = words_of(&data);
    out.truncate(words);
    drop(data);
    staging.unmap();
    out
}

/// The shortest warm-up of each measurement, and the longest.
const WARM_UP: std::time::Duration = std::time::Duration::from_secs(1);
const WARM_UP_MAX: std::time::Duration = std::time::Duration::from_secs(5);

/// How close two batches' medians must be for the GPU to count as settled.
const SETTLED: f64 = 0.02;

/// The spread of a set of timed runs, in milliseconds.
#[derive(Clone, Copy, Debug)]
pub struct Times {
    /// The fastest run.
    pub min: f64,
    /// The median run: the figure the tables report.
    pub median: f64,
    /// The slowest run.
    pub max: f64,
}

/// Runs `kernel` with `group` over `workgroups` workgroups, each dispatch
/// in its own timed pass after `reset` (untimed) has run, and returns the
/// spread of one batch of `repeats`, in milliseconds ([`time_runs`]).
pub fn time(
    gpu: &Gpu,
    kernel: &Kernel,
    group: &wgpu::BindGroup,
    [x, y, z]: [u32; 3],
    repeats: usize,
    reset: &dyn Fn(&mut wgpu::CommandEncoder),
) -> Times {
    time_runs(gpu, repeats, &|encoder, timestamps| {
        reset(encoder);
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: None,
            timestamp_writes: Some(timestamps),
        });
        pass.set_pipeline(&kernel.pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(x, y, z);
    })
}

/// Times `run`, which records whatever it must before its pass, then one
/// compute pass with the timestamp writes it is given; returns the spread
/// of one batch of `repeats`, in milliseconds.
///
/// Batches of `repeats` timed passes run until at least [`WARM_UP`] has
/// passed and the last two batches' medians agree within [`SETTLED`] (or
/// [`WARM_UP_MAX`] has passed); the last batch is reported. An idle H200
/// lowers its clocks, and at 2^28 elements a kernel's first second of
/// batches ran at under half the speed of the later ones.
pub fn time_runs(
    gpu: &Gpu,
    repeats: usize,
    run: &dyn Fn(&mut wgpu::CommandEncoder, wgpu::ComputePassTimestampWrites<'_>),
) -> Times {
    let start = std::time::Instant::now();
    let mut last = batch(gpu, run, repeats);
    loop {
        let next = batch(gpu, run, repeats);
        let settled = (next.median - last.median).abs() <= SETTLED * last.median;
        let waited = start.elapsed();
        last = next;
        if (settled && waited >= WARM_UP) || waited >= WARM_UP_MAX {
            return last;
        }
    }
}

/// One batch of [`time_runs`]: `repeats` passes, each timed on its own,
/// with no warm-up (as `gpu_bench guard` takes them on a software driver,
/// whose clocks do not change).
pub fn batch(
    gpu: &Gpu,
    run: &dyn Fn(&mut wgpu::CommandEncoder, wgpu::ComputePassTimestampWrites<'_>),
    repeats: usize,
) -> Times {
    let device = gpu.device();
    let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
        label: Some("timestamps"),
        ty: wgpu::QueryType::Timestamp,
        count: (2 * repeats) as u32,
    });
    let resolved = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("timestamps"),
        size: (16 * repeats) as u64,
        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    for r in 0..repeats {
        run(
            &mut encoder,
            wgpu::ComputePassTimestampWrites {
                query_set: &queries,
                beginning_of_pass_write_index: Some((2 * r) as u32),
                end_of_pass_write_index: Some((2 * r + 1) as u32),
            },
        );
    }
    encoder.resolve_query_set(&queries, 0..(2 * repeats) as u32, &resolved, 0);
    gpu.queue().submit([encoder.finish()]);
    let words = download(gpu, &resolved, 4 * repeats);
    let period = f64::from(gpu.queue().get_timestamp_period());
    let mut times: Vec<f64> = words
        .chunks_exact(4)
        .map(|w| {
            let start = u64::from(w[0]) | (u64::from(w[1]) << 32);
            let end = u64::from(w[2]) | (u64::from(w[3]) << 32);
            end.saturating_sub(start) as f64 * period / 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    Times {
        min: times[0],
        median: times[times.len() / 2],
        max: times[times.len() - 1],
    }
}

/// A 1D launch of `count` workgroups as a grid within the 65535 limit of
/// each dimension; surplus workgroups must exit (`index >= count`).
pub fn grid(count: u32) -> [u32; 3] {
    const MAX: u32 = 65535;
    if count <= MAX {
        [count.max(1), 1, 1]
    } else {
        [MAX, count.div_ceil(MAX), 1]
    }
}

/// A WGSL compute shader that copies `src` to `dst` as `vec4<u32>`s: the
/// bandwidth limit any compaction is held to.
pub const COPY_WGSL: &str = "
@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) id: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>) {
    let i = id.x + id.y * groups.x * 256u;
    if (i < arrayLength(&src)) {
        dst[i] = src[i];
    }
}
";

/// `times[1..]` as ratios to `times[0]`, as table cells.
pub fn ratios(times: &[f64]) -> String {
    let cells: Vec<String> = times[1..]
        .iter()
        .map(|t| format!("{:.2}", t / times[0]))
        .collect();
    cells.join(" | ")
}
