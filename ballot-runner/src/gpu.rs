//! Dispatches compute shaders through wgpu's Vulkan backend.
//!
//! WGSL targets load as WGSL (naga translates them to SPIR-V). GLSL targets
//! are compiled by glslang and handed to the driver untouched through
//! `Features::PASSTHROUGH_SHADERS`, because naga's SPIR-V reader rejects most
//! ballot opcodes. SPIR-V that `ballot_naga::cross` wrote goes the same way
//! ([`Gpu::run_spirv`], [`Gpu::run_storage_spirv`]), so that the driver runs
//! the cross-compiler's own words.

use std::borrow::Cow;
use std::sync::mpsc;

use ballot_shader::back::{Language, Target};
use ballot_sim::interp::Arg;
use wgpu::util::DeviceExt as _;

use crate::job::{decode_records, decode_values, Bindings, Dispatched, Job, UNWRITTEN};
use crate::RunnerError;

/// The environment variable that picks an adapter by (part of) its name.
pub const ADAPTER_VAR: &str = "BALLOT_ADAPTER";

/// A Vulkan device to dispatch on.
pub struct Gpu {
    info: wgpu::AdapterInfo,
    device: wgpu::Device,
    queue: wgpu::Queue,
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu")
            .field("info", &self.info)
            .finish_non_exhaustive()
    }
}

/// How an adapter ranks when no name is asked for: real GPUs before
/// software ones.
fn rank(info: &wgpu::AdapterInfo) -> u8 {
    match info.device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    }
}

/// The runtime checks wgpu adds to the WGSL the runner compiles: bounds
/// checks, as in wgpu's default, but no forced loop bound. wgpu's bound is
/// a 64-bit trip counter in every loop, so it never ends a loop that the
/// test could wait out; yet with it, lavapipe's LLVM takes 151 s to compile
/// the `wgsl-no-subgroup` polyfill self-test at subgroup size 128, against
/// 0.6 s without it (an empty Mesa shader cache, 2 cores). Loop bounding
/// is still run by the primitives' tests and by Dawn's own checks.
const RUNTIME_CHECKS: wgpu::ShaderRuntimeChecks = wgpu::ShaderRuntimeChecks {
    force_loop_bounding: false,
    ..wgpu::ShaderRuntimeChecks::checked()
};

impl Gpu {
    /// Opens the adapter named by `BALLOT_ADAPTER` (a case-insensitive part
    /// of its name) if set, else a real GPU if there is one, else a software
    /// one such as lavapipe.
    ///
    /// # Errors
    /// [`RunnerError::NoAdapter`] when no Vulkan adapter exists or none
    /// matches the name; [`RunnerError::Device`] when the device cannot be
    /// opened.
    pub fn new() -> Result<Self, RunnerError> {
        Self::with_adapter(std::env::var(ADAPTER_VAR).ok().as_deref())
    }

    /// Like [`Gpu::new`], with the adapter name given rather than read from
    /// the environment.
    ///
    /// # Errors
    /// As [`Gpu::new`].
    pub fn with_adapter(name: Option<&str>) -> Result<Self, RunnerError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::VULKAN,
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN));
        let names: Vec<String> = adapters
            .iter()
            .map(|a| {
                let info = a.get_info();
                format!("{} ({:?}, {})", info.name, info.device_type, info.driver)
            })
            .collect();
        let chosen = match name {
            Some(wanted) => {
                let wanted = wanted.to_lowercase();
                adapters
                    .into_iter()
                    .find(|a| a.get_info().name.to_lowercase().contains(&wanted))
            }
            None => adapters.into_iter().min_by_key(|a| rank(&a.get_info())),
        };
        let adapter = chosen.ok_or_else(|| RunnerError::NoAdapter {
            wanted: name.map(str::to_string),
            available: names,
        })?;
        let info = adapter.get_info();
        // Only what the targets need, and timestamps for the benchmarks;
        // all are optional, and a target whose feature is missing is
        // reported by `unsupported`.
        // The 64- and 16-bit types, for GLSL shaders that move them
        // through the emulation's 32-bit words.
        let wanted = wgpu::Features::SUBGROUP
            | wgpu::Features::PASSTHROUGH_SHADERS
            | wgpu::Features::TIMESTAMP_QUERY
            | wgpu::Features::SHADER_F64
            | wgpu::Features::SHADER_INT64
            | wgpu::Features::SHADER_I16
            | wgpu::Features::SHADER_F16;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("ballot-runner"),
            required_features: adapter.features() & wanted,
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .map_err(|e| RunnerError::Device {
            adapter: info.name.clone(),
            message: e.to_string(),
        })?;
        Ok(Self {
            info,
            device,
            queue,
        })
    }

    /// The adapter's description.
    pub fn info(&self) -> &wgpu::AdapterInfo {
        &self.info
    }

    /// The device, for callers that build their own pipelines (the GPU
    /// benchmark).
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The device's queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// A one-line description of the adapter.
    pub fn describe(&self) -> String {
        format!(
            "{} ({:?}, {} {})",
            self.info.name, self.info.device_type, self.info.driver, self.info.driver_info
        )
    }

    /// Why `target` cannot run on this device, if it cannot.
    pub fn unsupported(&self, target: Target) -> Option<String> {
        let features = self.device.features();
        match target {
            Target::WgslWeb => Some(
                "wgsl-web is Dawn/Tint's dialect (`enable subgroups;`), which naga rejects; \
                 the Dawn runner runs it"
                    .to_string(),
            ),
            Target::Wgsl if !features.contains(wgpu::Features::SUBGROUP) => {
                Some("the device lacks Features::SUBGROUP".to_string())
            }
            Target::Glsl | Target::GlslNoSubgroup => self.passthrough_missing(),
            _ => None,
        }
    }

    /// Emits `job`'s shader and runs every case of it.
    ///
    /// # Errors
    /// The writer's, glslang's or the device's error.
    pub fn run(&self, job: &Job<'_>) -> Result<Vec<Dispatched>, RunnerError> {
        let text = job.shader().map_err(|e| RunnerError::Shader {
            job: job.describe(),
            message: e.to_string(),
        })?;
        self.run_text(job, &text)
    }

    /// Runs every case of `job` with `text` as its shader, which must follow
    /// the shader interface for the job's kernel (a test may pass a
    /// deliberately broken one).
    ///
    /// # Errors
    /// glslang's or the device's error.
    pub fn run_text(&self, job: &Job<'_>, text: &str) -> Result<Vec<Dispatched>, RunnerError> {
        if let Some(why) = self.unsupported(job.target) {
            return Err(RunnerError::Unsupported {
                target: job.target,
                why,
            });
        }
        self.run_module(job, || self.module(job, text))
    }

    /// Runs every case of `job` with `spirv` as its shader: a SPIR-V module
    /// that follows the shader interface for the job's kernel, such as
    /// `ballot_naga::cross::compile(CrossTarget::SpirV, ..)` of the job's
    /// `wgsl` text. The words reach the driver untouched (wgpu's
    /// passthrough), so the driver, not naga's SPIR-V reader or wgpu's own
    /// translation, runs exactly what the cross-compiler wrote.
    ///
    /// # Errors
    /// [`RunnerError::Unsupported`] without passthrough; the device's error
    /// otherwise.
    pub fn run_spirv(&self, job: &Job<'_>, spirv: &[u32]) -> Result<Vec<Dispatched>, RunnerError> {
        if let Some(why) = self.passthrough_missing() {
            return Err(RunnerError::Unsupported {
                target: job.target,
                why,
            });
        }
        let label = job.kernel().name.clone();
        let module = || Ok(self.passthrough(&label, job.options.workgroup_size, spirv.to_vec()));
        self.run_module(job, module)
    }

    /// Why SPIR-V cannot be handed to this device untouched, if it cannot.
    pub fn passthrough_missing(&self) -> Option<String> {
        (!self
            .device
            .features()
            .contains(wgpu::Features::PASSTHROUGH_SHADERS))
        .then(|| "the device lacks Features::PASSTHROUGH_SHADERS".to_string())
    }

    /// Runs every case of `job` with the shader `module` makes.
    fn run_module(
        &self,
        job: &Job<'_>,
        module: impl FnOnce() -> Result<wgpu::ShaderModule, RunnerError>,
    ) -> Result<Vec<Dispatched>, RunnerError> {
        let device_error = |message: String| RunnerError::Dispatch {
            job: job.describe(),
            message,
        };
        let first = job.cases.first().map(|c| Bindings::of(job, c));
        let layout_entries = first.as_ref().map(layout_entries).unwrap_or_default();
        let (bind_layout, pipeline) =
            self.pipeline(&job.describe(), &job.kernel().name, module, &layout_entries)?;

        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        let mut readbacks = Vec::new();
        for case in &job.cases {
            readbacks.push(self.encode_case(job, case, &bind_layout, &pipeline, &mut encoder));
        }
        self.queue.submit([encoder.finish()]);
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(device_error(e.to_string()));
        }

        let (tx, rx) = mpsc::channel();
        for (i, (staging, _)) in readbacks.iter().enumerate() {
            let tx = tx.clone();
            staging.map_async(wgpu::MapMode::Read, .., move |r| {
                let _ = tx.send((i, r));
            });
        }
        drop(tx);
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| device_error(e.to_string()))?;
        for (i, result) in rx.iter() {
            result.map_err(|e| device_error(format!("reading case {i} back: {e}")))?;
        }

        let n = job.invocation_count();
        let ret = job.kernel().ret;
        let mut out = Vec::with_capacity(readbacks.len());
        for (staging, bindings) in &readbacks {
            let view = staging
                .get_mapped_range(..)
                .map_err(|e| device_error(e.to_string()))?;
            let words = words_of(&view);
            drop(view);
            staging.unmap();
            let output_words = bindings.output_words.unwrap_or(0);
            out.push(Dispatched {
                values: decode_values(ret, &words[..output_words], n),
                records: decode_records(&words[output_words..], n),
            });
        }
        Ok(out)
    }

    /// The shader module: WGSL through naga, GLSL as glslang's SPIR-V.
    fn module(&self, job: &Job<'_>, text: &str) -> Result<wgpu::ShaderModule, RunnerError> {
        dump(job, text);
        self.module_of(
            job.target,
            &job.kernel().name,
            job.options.workgroup_size,
            text,
        )
        .map_err(|message| RunnerError::Shader {
            job: job.describe(),
            message,
        })
    }

    /// The shader module of `text` for `target`, whose entry point `main`
    /// has `workgroup_size`; the error is glslang's message. GLSL goes
    /// through glslang and SPIR-V passthrough, so nothing checks its
    /// bindings against the pipeline layout: they must match.
    pub fn module_of(
        &self,
        target: Target,
        label: &str,
        workgroup_size: [u32; 3],
        text: &str,
    ) -> Result<wgpu::ShaderModule, String> {
        match target.language() {
            // SAFETY: the checks kept are the ones that guard memory;
            // see `RUNTIME_CHECKS` for the one left out.
            Language::Wgsl => Ok(unsafe {
                self.device.create_shader_module_trusted(
                    wgpu::ShaderModuleDescriptor {
                        label: Some(label),
                        source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(text)),
                    },
                    RUNTIME_CHECKS,
                )
            }),
            Language::Glsl => {
                let bytes = ballot_naga::valid::glslang_spirv(text).map_err(|e| e.to_string())?;
                Ok(self.passthrough(label, workgroup_size, words_of(&bytes)))
            }
        }
    }

    /// The shader module of SPIR-V `words`, handed to the driver untouched;
    /// its entry point `main` has `workgroup_size`.
    fn passthrough(
        &self,
        label: &str,
        workgroup_size: [u32; 3],
        words: Vec<u32>,
    ) -> wgpu::ShaderModule {
        let [x, y, z] = workgroup_size;
        let entry = [wgpu::PassthroughShaderEntryPoint {
            name: Cow::Borrowed("main"),
            workgroup_size: (x, y, z),
        }];
        // SAFETY: the SPIR-V comes from glslang or naga's SPIR-V writer
        // (tests run spirv-val on both for Vulkan 1.1), and its bindings
        // are the ones the layout declares (the shader interface of
        // `ballot_shader::back`, or the single buffer of `run_storage`); the
        // callers document that requirement.
        unsafe {
            self.device
                .create_shader_module_passthrough(wgpu::ShaderModuleDescriptorPassthrough {
                    label: Some(label),
                    entry_points: Cow::Borrowed(&entry),
                    spirv: Some(Cow::Owned(words)),
                    ..Default::default()
                })
        }
    }

    /// Runs `text`, any compute shader for `target` whose entry point `main`
    /// has `workgroup_size` and whose ONLY binding is a read-write storage
    /// buffer at group / set 0, binding 0, on a buffer of `words` words
    /// filled with [`UNWRITTEN`], in `workgroups` workgroups; returns the
    /// buffer's words afterwards. (With GLSL's SPIR-V passthrough nothing
    /// checks the shader's bindings against this layout: a shader with other
    /// bindings is undefined behaviour in the driver.) Used to run
    /// `ballot_naga::polyfill::self_test`.
    ///
    /// # Errors
    /// [`RunnerError::Unsupported`] when the device cannot run `target`;
    /// glslang's, wgpu's or the device's error otherwise.
    pub fn run_storage(
        &self,
        target: Target,
        text: &str,
        workgroup_size: [u32; 3],
        workgroups: [u32; 3],
        words: usize,
    ) -> Result<Vec<u32>, RunnerError> {
        if let Some(why) = self.unsupported(target) {
            return Err(RunnerError::Unsupported { target, why });
        }
        let what = format!("storage shader for {target}");
        let module = || {
            self.module_of(target, &what, workgroup_size, text)
                .map_err(|message| RunnerError::Shader {
                    job: what.clone(),
                    message,
                })
        };
        self.run_storage_module(&what, module, workgroups, words)
    }

    /// [`Gpu::run_storage`] for a SPIR-V module, handed to the driver
    /// untouched (wgpu's passthrough), such as
    /// `ballot_naga::cross::compile(CrossTarget::SpirV, ..)` of a `wgsl`
    /// polyfill self-test. `what` names it in errors. The same binding
    /// rule holds, and again nothing checks it.
    ///
    /// # Errors
    /// [`RunnerError::Unsupported`] without passthrough; the device's error
    /// otherwise.
    pub fn run_storage_spirv(
        &self,
        what: &str,
        spirv: &[u32],
        workgroup_size: [u32; 3],
        workgroups: [u32; 3],
        words: usize,
    ) -> Result<Vec<u32>, RunnerError> {
        if let Some(why) = self.passthrough_missing() {
            return Err(RunnerError::Dispatch {
                job: what.to_string(),
                message: why,
            });
        }
        let module = || Ok(self.passthrough(what, workgroup_size, spirv.to_vec()));
        self.run_storage_module(what, module, workgroups, words)
    }

    /// Dispatches the shader `module` makes over one read-write buffer of
    /// `words` words (see [`Gpu::run_storage`]) and reads the buffer back:
    /// for a module the caller creates, such as one from
    /// `ballot::include_wgsl!(.., descriptor)`. `what` names it in errors.
    ///
    /// # Errors
    /// `module`'s error, or the device's.
    pub fn run_storage_module(
        &self,
        what: &str,
        module: impl FnOnce() -> Result<wgpu::ShaderModule, RunnerError>,
        workgroups: [u32; 3],
        words: usize,
    ) -> Result<Vec<u32>, RunnerError> {
        let error = |message: String| RunnerError::Dispatch {
            job: what.to_string(),
            message,
        };
        let (bind_layout, pipeline) =
            self.pipeline(what, what, module, &[storage_entry(0, false)])?;

        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let buffer = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: bytes_of(&vec![UNWRITTEN; words]).as_slice(),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            });
        let bytes = words as u64 * 4;
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &bind_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: buffer.as_entire_binding(),
            }],
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            let [x, y, z] = workgroups;
            pass.dispatch_workgroups(x, y, z);
        }
        encoder.copy_buffer_to_buffer(&buffer, 0, &staging, 0, bytes);
        self.queue.submit([encoder.finish()]);
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(error(e.to_string()));
        }
        let (tx, rx) = mpsc::channel();
        staging.map_async(wgpu::MapMode::Read, .., move |r| {
            let _ = tx.send(r);
        });
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| error(e.to_string()))?;
        rx.recv()
            .map_err(|e| error(e.to_string()))?
            .map_err(|e| error(format!("reading back: {e}")))?;
        let view = staging
            .get_mapped_range(..)
            .map_err(|e| error(e.to_string()))?;
        let out = words_of(&view);
        drop(view);
        staging.unmap();
        Ok(out)
    }

    /// The compute pipeline of entry point `main` in the module `module`
    /// makes, over one bind group of `entries`, and that group's layout.
    /// `what` names the shader in errors, `label` in wgpu's objects.
    ///
    /// # Errors
    /// `module`'s error, or the device's rejection of the pipeline.
    pub fn pipeline(
        &self,
        what: &str,
        label: &str,
        module: impl FnOnce() -> Result<wgpu::ShaderModule, RunnerError>,
        entries: &[wgpu::BindGroupLayoutEntry],
    ) -> Result<(wgpu::BindGroupLayout, wgpu::ComputePipeline), RunnerError> {
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let internal = self.device.push_error_scope(wgpu::ErrorFilter::Internal);
        let module = match module() {
            Ok(module) => module,
            Err(e) => {
                // Leave no scope pushed for later calls to inherit.
                let _ = pollster::block_on(internal.pop());
                let _ = pollster::block_on(validation.pop());
                return Err(e);
            }
        };
        let bind_layout = self
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: None,
                entries,
            });
        let pipeline_layout = self
            .device
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: None,
                bind_group_layouts: &[Some(&bind_layout)],
                immediate_size: 0,
            });
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(label),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                cache: None,
            });
        let internal = pollster::block_on(internal.pop());
        let validation = pollster::block_on(validation.pop());
        if let Some(e) = validation.or(internal) {
            return Err(RunnerError::Pipeline {
                job: what.to_string(),
                message: e.to_string(),
            });
        }
        Ok((bind_layout, pipeline))
    }

    /// Records one case's buffers, dispatch and copy to a staging buffer.
    fn encode_case(
        &self,
        job: &Job<'_>,
        case: &[Arg],
        layout: &wgpu::BindGroupLayout,
        pipeline: &wgpu::ComputePipeline,
        encoder: &mut wgpu::CommandEncoder,
    ) -> (wgpu::Buffer, Bindings) {
        let bindings = Bindings::of(job, case);
        let storage = |contents: &[u32], usage: wgpu::BufferUsages| {
            self.device
                .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: None,
                    contents: bytes_of(contents).as_slice(),
                    usage: wgpu::BufferUsages::STORAGE | usage,
                })
        };
        let params: Vec<wgpu::Buffer> = bindings
            .params
            .iter()
            .map(|words| storage(words, wgpu::BufferUsages::empty()))
            .collect();
        // One word of placeholder when the kernel returns nothing (see
        // `layout_entries`); it is never read back.
        let output = storage(
            &vec![UNWRITTEN; bindings.output_words.unwrap_or(1)],
            wgpu::BufferUsages::COPY_SRC,
        );
        let records = storage(
            &vec![UNWRITTEN; bindings.record_words],
            wgpu::BufferUsages::COPY_SRC,
        );
        let mut entries: Vec<wgpu::BindGroupEntry> = params
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        entries.push(wgpu::BindGroupEntry {
            binding: bindings.output_binding(),
            resource: output.as_entire_binding(),
        });
        entries.push(wgpu::BindGroupEntry {
            binding: bindings.record_binding(),
            resource: records.as_entire_binding(),
        });
        let group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout,
            entries: &entries,
        });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &group, &[]);
            let [x, y, z] = job.workgroups;
            pass.dispatch_workgroups(x, y, z);
        }
        let output_bytes = bindings.output_words.unwrap_or(0) as u64 * 4;
        let record_bytes = bindings.record_words as u64 * 4;
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: output_bytes + record_bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        if output_bytes > 0 {
            encoder.copy_buffer_to_buffer(&output, 0, &staging, 0, output_bytes);
        }
        encoder.copy_buffer_to_buffer(&records, 0, &staging, output_bytes, record_bytes);
        (staging, bindings)
    }
}

/// The bind group layout of the shader interface: parameters read-only,
/// output and records read-write.
fn layout_entries(bindings: &Bindings) -> Vec<wgpu::BindGroupLayoutEntry> {
    let entry = storage_entry;
    let mut entries: Vec<_> = (0..bindings.params.len() as u32)
        .map(|i| entry(i, true))
        .collect();
    // A kernel without a result still gets a (placeholder) buffer at the
    // output's binding: with a gap in the binding numbers, lavapipe (Mesa
    // 25.0) through wgpu's SPIR-V passthrough leaves the records unwritten
    // or crashes.
    entries.push(entry(bindings.output_binding(), false));
    entries.push(entry(bindings.record_binding(), false));
    entries
}

/// A storage buffer at `binding`, seen by the compute stage.
pub fn storage_entry(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Little-endian words of `bytes` (a whole number of them).
pub fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// With `BALLOT_DUMP=DIR`, writes the shader text of `job` to
/// `DIR/<kernel>.<target>.<ext>` before the driver sees it, so that a
/// driver crash leaves the shader that caused it behind.
fn dump(job: &Job<'_>, text: &str) {
    let Some(dir) = std::env::var_os("BALLOT_DUMP") else {
        return;
    };
    let ext = job.target.language().extension();
    let dir = std::path::PathBuf::from(dir);
    let path = dir.join(format!("{}.{}.{ext}", job.kernel().name, job.target));
    // Dumping is a debugging aid: a failure to write must not fail the run.
    let _ = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(path, text));
}
