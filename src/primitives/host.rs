//! The primitives on a `wgpu::Device`: pipelines, buffers, dispatch, and
//! reading back the count.

use std::borrow::Cow;

use wgpu::util::DeviceExt;

use super::{
    padded_words, status_words, Keep, Primitive, PrimitiveError, PrimitiveOptions, PrimitiveShader,
    MIN_TILE,
};
use crate::{Language, Target};

/// One primitive's pipeline, and what it binds where a buffer is unused.
#[derive(Debug)]
struct Pipeline {
    shader: PrimitiveShader,
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
    /// For unused binding 1 (read-only) and 3 (read-write), at `binding / 2`:
    /// one
    /// buffer may not be both in a dispatch.
    unused: [wgpu::Buffer; 2],
}

/// How the shader module is made.
enum Module<'a> {
    /// WGSL, with or without wgpu's runtime checks.
    Wgsl { checked: bool },
    /// SPIR-V from glslang, for the GLSL targets.
    Spirv(&'a [u32]),
}

impl Pipeline {
    fn new(
        device: &wgpu::Device,
        primitive: Primitive,
        target: Target,
        options: &PrimitiveOptions,
        module: Module<'_>,
    ) -> Result<Self, PrimitiveError> {
        let shader = PrimitiveShader::new(primitive, target, options)?;
        let label = Some(primitive.name());
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = match module {
            Module::Wgsl { checked } => {
                if target.language() != Language::Wgsl {
                    let _ = pollster::block_on(scope.pop());
                    return Err(PrimitiveError::NeedsSpirv {
                        target,
                        language: target.language(),
                    });
                }
                let desc = wgpu::ShaderModuleDescriptor {
                    label,
                    source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(shader.text())),
                };
                if checked {
                    device.create_shader_module(desc)
                } else {
                    // SAFETY: the caller of `new_unchecked` vouches for it;
                    // the shader indexes its buffers only below the sizes
                    // `encode` checks, and every loop ends (the look-back
                    // moves down a tile at least every `spins` windows).
                    unsafe {
                        device.create_shader_module_trusted(
                            desc,
                            wgpu::ShaderRuntimeChecks::unchecked(),
                        )
                    }
                }
            }
            Module::Spirv(words) => {
                let entry = [wgpu::PassthroughShaderEntryPoint {
                    name: Cow::Borrowed("main"),
                    workgroup_size: (256, 1, 1),
                }];
                // SAFETY: `from_spirv`'s caller vouches that `words` is this
                // shader compiled by glslang; its bindings are the layout's.
                unsafe {
                    device.create_shader_module_passthrough(
                        wgpu::ShaderModuleDescriptorPassthrough {
                            label,
                            entry_points: Cow::Borrowed(&entry),
                            spirv: Some(Cow::Borrowed(words)),
                            ..Default::default()
                        },
                    )
                }
            }
        };
        let entries: Vec<_> = [true, true, false, false, false, true]
            .iter()
            .enumerate()
            .map(|(binding, &read_only)| wgpu::BindGroupLayoutEntry {
                binding: binding as u32,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            })
            .collect();
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label,
            entries: &entries,
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label,
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label,
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(PrimitiveError::Pipeline {
                primitive: primitive.name(),
                target,
                message: error.to_string(),
            });
        }
        let unused = [(); 2].map(|()| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("ballot primitive: unused binding"),
                size: 16,
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            })
        });
        Ok(Pipeline {
            shader,
            layout,
            pipeline,
            unused,
        })
    }

    /// The run over `n` elements, bound. `buffers` are keys, values,
    /// out_keys, out_values (bindings 0 to 3), each with the name of the
    /// argument it came from, for the errors.
    fn bind(
        &self,
        device: &wgpu::Device,
        workspace: &Workspace,
        n: u32,
        keep: Keep,
        buffers: [Option<(&'static str, &wgpu::Buffer)>; 4],
    ) -> Result<Bound<'_>, PrimitiveError> {
        let n = self.shader.check_len(u64::from(n))?;
        check_buffers(&buffers, workspace)?;
        let needs = [padded_words(n), padded_words(n), u64::from(n), u64::from(n)];
        for (buffer, words) in buffers.iter().zip(needs) {
            if let Some((name, buffer)) = buffer {
                if buffer.size() < words * 4 {
                    return Err(PrimitiveError::BufferTooSmall {
                        buffer: name,
                        bytes: buffer.size(),
                        needed: words * 4,
                    });
                }
            }
        }
        let status_bytes = self.shader.status_words(n) * 4;
        if workspace.status.size() < status_bytes {
            return Err(PrimitiveError::BufferTooSmall {
                buffer: "workspace",
                bytes: workspace.status.size(),
                needed: status_bytes,
            });
        }
        let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("ballot primitive: parameters"),
            contents: &words_bytes(&self.shader.params(n, keep)),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let [keys, values, out_keys, out_values] = buffers.map(|b| b.map(|(_, buffer)| buffer));
        let bound = [
            keys,
            values,
            out_keys,
            out_values,
            Some(&workspace.status),
            Some(&params),
        ];
        let entries: Vec<_> = bound
            .iter()
            .enumerate()
            .map(|(binding, buffer)| wgpu::BindGroupEntry {
                binding: binding as u32,
                resource: buffer
                    .unwrap_or_else(|| &self.unused[binding / 2])
                    .as_entire_binding(),
            })
            .collect();
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(self.shader.primitive().name()),
            layout: &self.layout,
            entries: &entries,
        });
        Ok(Bound {
            pipeline: &self.pipeline,
            group,
            status: workspace.status.clone(),
            status_bytes,
            // Nothing to dispatch for no elements: the cleared status says 0.
            workgroups: (n > 0).then(|| self.shader.workgroups(n)),
        })
    }
}

/// Whether the bindings that wgpu would refuse, with a panic in its
/// default error handler, are absent: every buffer has the `STORAGE` usage
/// its binding needs, and no buffer is bound twice where one of the two is
/// written (wgpu refuses a buffer that is both read-only and read-write
/// storage in one dispatch, and a written input would be overwritten as it
/// is read). The workspace's status buffer is written, and
/// [`Workspace::count_buffer`] hands it out, so it takes part as
/// `workspace`. The run only binds the caller's buffers: it never copies
/// or maps them, so `STORAGE` is all it needs of them.
fn check_buffers(
    buffers: &[Option<(&'static str, &wgpu::Buffer)>; 4],
    workspace: &Workspace,
) -> Result<(), PrimitiveError> {
    for (name, buffer) in buffers.iter().flatten() {
        if !buffer.usage().contains(wgpu::BufferUsages::STORAGE) {
            return Err(PrimitiveError::MissingUsage {
                buffer: name,
                missing: "STORAGE",
                usages: usage_names(buffer.usage()),
            });
        }
    }
    // Bindings 0 and 1 are read, the rest written: in argument order, so
    // that the later of two names is always one that is written.
    let bound: Vec<(&'static str, &wgpu::Buffer, bool)> = buffers
        .iter()
        .enumerate()
        .filter_map(|(binding, b)| b.map(|(name, buffer)| (name, buffer, binding >= 2)))
        .chain([("workspace", &workspace.status, true)])
        .collect();
    for (at, &(second, later, written)) in bound.iter().enumerate() {
        let earlier = bound[..at]
            .iter()
            .find(|&&(_, buffer, written_too)| buffer == later && (written || written_too));
        if let Some(&(first, _, _)) = earlier {
            return Err(PrimitiveError::Aliased { first, second });
        }
    }
    Ok(())
}

/// A buffer's usages as wgpu spells them, `MAP_READ | COPY_DST`, or
/// `none`.
fn usage_names(usages: wgpu::BufferUsages) -> String {
    let names: Vec<&str> = usages.iter_names().map(|(name, _)| name).collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(" | ")
    }
}

/// A run bound to its buffers: to record into a compute pass of your own
/// (after [`Bound::clear`], outside it), as when timing or fusing passes.
#[derive(Debug)]
pub struct Bound<'p> {
    pipeline: &'p wgpu::ComputePipeline,
    group: wgpu::BindGroup,
    status: wgpu::Buffer,
    status_bytes: u64,
    workgroups: Option<[u32; 3]>,
}

impl Bound<'_> {
    /// Records the clearing of the status words, which the dispatch needs:
    /// before the pass that holds [`Bound::dispatch`].
    pub fn clear(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.clear_buffer(&self.status, 0, Some(self.status_bytes));
    }

    /// Records the dispatch into `pass`.
    pub fn dispatch(&self, pass: &mut wgpu::ComputePass<'_>) {
        if let Some([x, y, z]) = self.workgroups {
            pass.set_pipeline(self.pipeline);
            pass.set_bind_group(0, &self.group, &[]);
            pass.dispatch_workgroups(x, y, z);
        }
    }

    /// Records the whole run: the clearing, then the dispatch in a pass of
    /// its own.
    pub fn encode(&self, encoder: &mut wgpu::CommandEncoder) {
        self.clear(encoder);
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("ballot primitive"),
            timestamp_writes: None,
        });
        self.dispatch(&mut pass);
    }
}

fn words_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The scratch memory of runs of up to some number of elements: the tiles'
/// status words, and the count the last run left.
#[derive(Debug)]
pub struct Workspace {
    status: wgpu::Buffer,
}

impl Workspace {
    /// Scratch memory for runs of any primitive over up to `max_elements`
    /// elements, one run at a time.
    pub fn new(device: &wgpu::Device, max_elements: u32) -> Self {
        Workspace {
            status: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("ballot primitive: status"),
                size: status_words(max_elements, MIN_TILE) * 4,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
        }
    }

    /// The buffer whose word 1 (bytes 4..8) holds the last run's count of
    /// kept elements, or the scan's total, once the run is done: to copy
    /// into a buffer of your own, or to bind as an indirect count.
    pub fn count_buffer(&self) -> (&wgpu::Buffer, wgpu::BufferAddress) {
        (&self.status, 4)
    }

    /// Reads the count back: copies it, submits, and waits for the device.
    ///
    /// # Errors
    /// [`PrimitiveError::Readback`] if mapping the copy failed.
    pub fn read_count(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<u32, PrimitiveError> {
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("ballot primitive: count"),
            size: 4,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(&self.status, 4, &staging, 0, 4);
        queue.submit([encoder.finish()]);
        let (send, receive) = std::sync::mpsc::channel();
        staging
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |result| {
                let _ = send.send(result);
            });
        let _ = device.poll(wgpu::PollType::wait_indefinitely());
        let readback = |e: &dyn std::fmt::Display| PrimitiveError::Readback(e.to_string());
        receive
            .recv()
            .unwrap_or(Err(wgpu::BufferAsyncError))
            .map_err(|e| readback(&e))?;
        let view = staging
            .slice(..)
            .get_mapped_range()
            .map_err(|e| readback(&e))?;
        let count = u32::from_le_bytes([view[0], view[1], view[2], view[3]]);
        drop(view);
        staging.unmap();
        Ok(count)
    }
}

macro_rules! primitive_host {
    ($(#[$doc:meta])* $name:ident, $primitive:expr) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name(Pipeline);

        impl $name {
            /// The pipeline for a WGSL `target` (`wgsl`, `wgsl-web` or
            /// `wgsl-no-subgroup`), with wgpu's runtime checks.
            ///
            /// # Errors
            /// [`PrimitiveError::NeedsSpirv`] for a GLSL target; an option
            /// out of range; the device's rejection of the pipeline.
            pub fn new(
                device: &wgpu::Device,
                target: Target,
                options: &PrimitiveOptions,
            ) -> Result<Self, PrimitiveError> {
                Pipeline::new(device, $primitive, target, options, Module::Wgsl { checked: true })
                    .map(Self)
            }

            /// [`Self::new`] without wgpu's runtime checks (bounds checks,
            /// loop bounds), for speed.
            ///
            /// # Safety
            /// The buffers bound must be the sizes `encode` checks, as they
            /// are through this type; the shader itself indexes within
            /// them, which the crate's tests check on several drivers.
            pub unsafe fn new_unchecked(
                device: &wgpu::Device,
                target: Target,
                options: &PrimitiveOptions,
            ) -> Result<Self, PrimitiveError> {
                Pipeline::new(device, $primitive, target, options, Module::Wgsl { checked: false })
                    .map(Self)
            }

            /// The pipeline for any target from `spirv`, the SPIR-V of
            /// [`Self::shader_text`]'s text for that target (from glslang
            /// for GLSL: `glslangValidator -V --target-env vulkan1.1`). The
            /// device needs `Features::PASSTHROUGH_SHADERS`.
            ///
            /// # Safety
            /// `spirv` must be that shader's SPIR-V: wgpu hands it to the
            /// driver unchecked.
            pub unsafe fn from_spirv(
                device: &wgpu::Device,
                target: Target,
                options: &PrimitiveOptions,
                spirv: &[u32],
            ) -> Result<Self, PrimitiveError> {
                Pipeline::new(device, $primitive, target, options, Module::Spirv(spirv)).map(Self)
            }

            /// The shader's text for `target`, to compile for
            /// [`Self::from_spirv`].
            ///
            /// # Errors
            /// As [`PrimitiveShader::new`].
            pub fn shader_text(
                target: Target,
                options: &PrimitiveOptions,
            ) -> Result<String, PrimitiveError> {
                Ok(PrimitiveShader::new($primitive, target, options)?.text().to_string())
            }

            /// The shader and its layout.
            pub fn shader(&self) -> &PrimitiveShader {
                &self.0.shader
            }

            /// Scratch memory for runs of up to `max_elements` elements
            /// ([`Workspace::new`]).
            pub fn workspace(&self, device: &wgpu::Device, max_elements: u32) -> Workspace {
                Workspace::new(device, max_elements)
            }
        }
    };
}

primitive_host!(
    /// Ordered stream compaction on a `wgpu::Device`: the keys a [`Keep`]
    /// keeps, in order, and their count.
    Compaction,
    Primitive::Compact
);
primitive_host!(
    /// Ordered compaction of key-value pairs on a `wgpu::Device`: the pairs
    /// whose key a [`Keep`] keeps, in order, and their count.
    PairCompaction,
    Primitive::CompactPairs
);
primitive_host!(
    /// Exclusive prefix sum (wrapping) on a `wgpu::Device`, and the total.
    ExclusiveScan,
    Primitive::ExclusiveScan
);

impl Compaction {
    /// [`Self::encode`]'s run, bound, to record into a pass of your own.
    ///
    /// # Errors
    /// As [`Self::encode`].
    pub fn bind(
        &self,
        device: &wgpu::Device,
        workspace: &Workspace,
        n: u32,
        keep: Keep,
        keys: &wgpu::Buffer,
        out_keys: &wgpu::Buffer,
    ) -> Result<Bound<'_>, PrimitiveError> {
        let buffers = [
            Some(("keys", keys)),
            None,
            Some(("out_keys", out_keys)),
            None,
        ];
        self.0.bind(device, workspace, n, keep, buffers)
    }

    /// Records the compaction of the first `n` words of `keys` into
    /// `out_keys`; the count lands in `workspace` ([`Workspace::count_buffer`]).
    /// `keys` holds at least [`padded_words`]`(n)` words, `out_keys` `n`.
    ///
    /// # Errors
    /// [`PrimitiveError::TooLarge`]; [`PrimitiveError::MissingUsage`] for
    /// a buffer without `STORAGE`; [`PrimitiveError::Aliased`] for one
    /// buffer passed as an input and an output, as two outputs, or as the
    /// workspace's; [`PrimitiveError::BufferTooSmall`]. Each before wgpu
    /// sees the buffers, so nothing reaches its error handler.
    #[allow(clippy::too_many_arguments)] // wgpu's objects, then the run's
    pub fn encode(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        workspace: &Workspace,
        n: u32,
        keep: Keep,
        keys: &wgpu::Buffer,
        out_keys: &wgpu::Buffer,
    ) -> Result<(), PrimitiveError> {
        self.bind(device, workspace, n, keep, keys, out_keys)?
            .encode(encoder);
        Ok(())
    }
}

impl PairCompaction {
    /// [`Self::encode`]'s run, bound, to record into a pass of your own.
    ///
    /// # Errors
    /// As [`Self::encode`].
    #[allow(clippy::too_many_arguments)] // the four buffers are the call
    pub fn bind(
        &self,
        device: &wgpu::Device,
        workspace: &Workspace,
        n: u32,
        keep: Keep,
        keys: &wgpu::Buffer,
        values: &wgpu::Buffer,
        out_keys: &wgpu::Buffer,
        out_values: &wgpu::Buffer,
    ) -> Result<Bound<'_>, PrimitiveError> {
        let buffers = [
            Some(("keys", keys)),
            Some(("values", values)),
            Some(("out_keys", out_keys)),
            Some(("out_values", out_values)),
        ];
        self.0.bind(device, workspace, n, keep, buffers)
    }

    /// Records the compaction of the first `n` pairs of `keys` and
    /// `values` into `out_keys` and `out_values`; the count lands in
    /// `workspace`. The inputs hold at least [`padded_words`]`(n)` words,
    /// the outputs `n`.
    ///
    /// # Errors
    /// [`PrimitiveError::TooLarge`]; [`PrimitiveError::MissingUsage`] for
    /// a buffer without `STORAGE`; [`PrimitiveError::Aliased`] for one
    /// buffer passed as an input and an output, as two outputs, or as the
    /// workspace's; [`PrimitiveError::BufferTooSmall`]. Each before wgpu
    /// sees the buffers, so nothing reaches its error handler.
    #[allow(clippy::too_many_arguments)] // the four buffers are the call
    pub fn encode(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        workspace: &Workspace,
        n: u32,
        keep: Keep,
        keys: &wgpu::Buffer,
        values: &wgpu::Buffer,
        out_keys: &wgpu::Buffer,
        out_values: &wgpu::Buffer,
    ) -> Result<(), PrimitiveError> {
        self.bind(
            device, workspace, n, keep, keys, values, out_keys, out_values,
        )?
        .encode(encoder);
        Ok(())
    }
}

impl ExclusiveScan {
    /// [`Self::encode`]'s run, bound, to record into a pass of your own.
    ///
    /// # Errors
    /// As [`Self::encode`].
    pub fn bind(
        &self,
        device: &wgpu::Device,
        workspace: &Workspace,
        n: u32,
        input: &wgpu::Buffer,
        output: &wgpu::Buffer,
    ) -> Result<Bound<'_>, PrimitiveError> {
        let buffers = [Some(("input", input)), None, Some(("output", output)), None];
        self.0.bind(device, workspace, n, Keep::Below(0), buffers)
    }

    /// Records the exclusive prefix sum of the first `n` words of `input`
    /// into `output`; the total lands in `workspace`. `input` holds at
    /// least [`padded_words`]`(n)` words, `output` `n`.
    ///
    /// # Errors
    /// [`PrimitiveError::TooLarge`]; [`PrimitiveError::MissingUsage`] for
    /// a buffer without `STORAGE`; [`PrimitiveError::Aliased`] for one
    /// buffer passed as an input and an output, as two outputs, or as the
    /// workspace's; [`PrimitiveError::BufferTooSmall`]. Each before wgpu
    /// sees the buffers, so nothing reaches its error handler.
    pub fn encode(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        workspace: &Workspace,
        n: u32,
        input: &wgpu::Buffer,
        output: &wgpu::Buffer,
    ) -> Result<(), PrimitiveError> {
        self.bind(device, workspace, n, input, output)?
            .encode(encoder);
        Ok(())
    }
}
