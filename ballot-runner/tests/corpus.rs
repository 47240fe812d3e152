//! The corpus of real shaders (`tests/corpus`, issue 28) run on the Vulkan
//! adapter: each compute shader that needs nothing but its own buffers is
//! linked for its language's hardware target (`glsl`, `wgsl`) and for its
//! emulated one (`glsl-no-subgroup`, `wgsl-no-subgroup`) at the adapter's
//! subgroup size, both run on the same inputs, and every buffer must hold
//! the same bytes afterwards. DESIGN.md ("Hand-written shaders on emulated
//! targets") asks exactly that: the emulated shader gives what hardware
//! subgroups of the virtual size give under maximal reconvergence. The
//! driver's subgroups are the reference, so nothing here is computed by the
//! code under test.
//!
//! The texts are not in the repository (`tests/corpus/README.md` says
//! why): `BALLOT_CORPUS` names a folder holding them as `wgsl/<file>` and
//! `glsl/<file>`, as `scripts/corpus` rebuilds them. Without it the test
//! says so and passes; with it, a shader whose two runs differ, or that
//! the driver refuses, fails the test. `BALLOT_CORPUS_ONLY` keeps the
//! shaders whose file names hold it.
//!
//! The inputs come from the shader's own interface, as naga reads it (for
//! GLSL, from glslang's SPIR-V): every buffer binding gets a buffer of its
//! type's size, a runtime-sized array 1,024 elements, filled value by value
//! from a fixed hash where the shader only reads it (uniforms, read-only
//! storage): integers from 0 to 63 (small enough to be sizes, counts and
//! indices), floats powers of two from 1/4 to 2, so that sums and products
//! over a subgroup are exact in any order (the spec fixes no order of a
//! float reduction). What it may write starts zeroed. Each compute entry point is dispatched as
//! one workgroup, in the file's order, over the same buffers: one
//! workgroup, so that no shader waits on another workgroup's progress (a
//! decoupled look-back's first tile waits on none). A shader with
//! textures, samplers or push constants is listed as not run, with why.
//!
//! Where lanes sit is the same on both sides only if the driver fills its
//! subgroups in local-index order, as the emulation does (virtual subgroup
//! k holds indices [k·V, (k+1)·V)); lavapipe does, so run this on lavapipe
//! (`BALLOT_ADAPTER=llvmpipe`).

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use ballot_naga::link::{link, LinkOptions};
use ballot_runner::dawn::{BufferSpec, BuffersJob, Dawn};
use ballot_runner::Gpu;
use ballot_shader::back::{Language, Target};
use wgpu::util::DeviceExt as _;

mod common;

use common::{loud, skip};

/// Elements of a runtime-sized array.
const RUNTIME_ELEMENTS: u32 = 1024;

/// The `-D`s a shader's upstream build always passes, by file name.
const DEFINES: &[(&str, &[(&str, &str)])] = &[
    (
        "uvkcompute-subgroup-arithmetic-intrinsic.comp",
        &[("ARITHMETIC_ADD", "1")],
    ),
    (
        "uvkcompute-tree-reduce-subgroup.comp",
        &[("TYPE", "float"), ("BATCH_SIZE", "64")],
    ),
    ("granite-subgroup-test.comp", &[("WAVE_UNIFORM", "1")]),
];

/// Bits of every word of a shader's buffers whose value the spec leaves
/// undefined, by file name, with why: the two runs may differ there.
const UNDEFINED: &[(&str, u32, &str)] = &[(
    "wgpu-subgroup-operations-test.wgsl",
    (1 << 24) | (1 << 25),
    "bits 24 and 25 test `subgroupShuffleDown` and `subgroupShuffleUp` from a lane that \
     `||` left inactive, which the spec leaves undefined (the emulation returns the caller's \
     own value, docs/design.md)",
)];

/// What became of one shader.
enum Outcome {
    /// Both ran, and every byte of every buffer agreed, but for the bits
    /// [`UNDEFINED`] names.
    Agrees {
        buffers: usize,
        bytes: u64,
        undefined: Option<&'static str>,
        /// What Dawn gave, for WGSL where Node's `webgpu` is installed.
        dawn: Option<String>,
    },
    /// Both ran, and these buffers differ (binding, first words that do).
    Differs(Vec<String>),
    /// Not run, and why (a refusal the corpus table lists, or an input
    /// this harness does not make).
    NotRun(String),
    /// The driver or the harness failed on a shader that linked.
    Failed(String),
}

/// One buffer's (group, binding) and its bytes after a run.
type BufferBytes = ((u32, u32), Vec<u8>);

#[test]
fn corpus_shaders_give_the_same_buffers_with_and_without_subgroups() {
    let Some(dir) = std::env::var_os("BALLOT_CORPUS").map(PathBuf::from) else {
        loud(
            "corpus: BALLOT_CORPUS is not set (the texts are not in the repository; \
             scripts/corpus rebuilds them): nothing run",
        );
        return;
    };
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("corpus", &e.to_string()),
    };
    for target in [Target::Glsl, Target::Wgsl] {
        if let Some(why) = gpu.unsupported(target) {
            return skip("corpus", &why);
        }
    }
    // Dawn (Node's `webgpu`, on the same Vulkan driver) runs the WGSL
    // shaders' `wgsl-web` and `wgsl-no-subgroup` texts too, where it is
    // installed.
    let dawn = match Dawn::find() {
        Ok(dawn) => Some(dawn),
        Err(why) => {
            loud(&format!("corpus: no Dawn ({why}): WGSL runs on wgpu alone"));
            None
        }
    };
    let size = gpu.info().subgroup_min_size;
    if size != gpu.info().subgroup_max_size {
        return skip(
            "corpus",
            &format!(
                "the adapter's subgroups are {} to {} wide: the comparison needs one size",
                gpu.info().subgroup_min_size,
                gpu.info().subgroup_max_size
            ),
        );
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus/manifest.tsv");
    let manifest = std::fs::read_to_string(&manifest).expect("tests/corpus/manifest.tsv");
    // `BALLOT_CORPUS_ONLY`: the shaders whose file names hold it.
    let only = std::env::var("BALLOT_CORPUS_ONLY").ok();
    let mut results = Vec::new();
    for row in manifest.lines().skip(1) {
        let columns: Vec<&str> = row.split('\t').collect();
        let (lang, file) = (columns[0], columns[1]);
        if !only.as_deref().is_none_or(|o| file.contains(o)) {
            continue;
        }
        let path = dir.join(lang).join(file);
        let Ok(text) = std::fs::read_to_string(&path) else {
            results.push((file.to_string(), Outcome::NotRun("text absent".to_string())));
            continue;
        };
        eprintln!("corpus: {file}");
        let outcome = run_shader(&gpu, dawn.as_ref(), file, &text, size);
        results.push((file.to_string(), outcome));
    }
    eprintln!(
        "corpus on {}, subgroups of {size}:\n| shader | outcome |\n|---|---|",
        gpu.describe()
    );
    let mut bad = Vec::new();
    let mut ran = 0;
    for (file, outcome) in &results {
        let said = match outcome {
            Outcome::Agrees {
                buffers,
                bytes,
                undefined,
                dawn,
            } => {
                ran += 1;
                let mut said = format!("agree: {buffers} buffer(s), {bytes} bytes");
                if let Some(why) = undefined {
                    said += &format!(", but {why}");
                }
                if let Some(dawn) = dawn {
                    said += &format!("; {dawn}");
                }
                said
            }
            Outcome::Differs(lines) => {
                bad.push(format!("{file}: {}", lines.join("; ")));
                format!("DIFFER: {}", lines.join("; "))
            }
            Outcome::NotRun(why) => format!("not run: {why}"),
            Outcome::Failed(why) => {
                bad.push(format!("{file}: {why}"));
                format!("FAILED: {why}")
            }
        };
        eprintln!("| {file} | {said} |");
    }
    assert!(
        bad.is_empty(),
        "corpus runs that failed:\n{}",
        bad.join("\n")
    );
    assert!(
        ran > 0,
        "BALLOT_CORPUS is set, but no shader of it ran: is it the folder `scripts/corpus` fills?"
    );
}

/// Links `text` for both targets of its language and runs both.
fn run_shader(gpu: &Gpu, dawn: Option<&Dawn>, file: &str, text: &str, size: u32) -> Outcome {
    let language = if file.ends_with(".wgsl") {
        Language::Wgsl
    } else {
        Language::Glsl
    };
    if language == Language::Glsl && !file.ends_with(".comp") {
        return Outcome::NotRun("not a compute shader".to_string());
    }
    if text.contains("#include") {
        return Outcome::NotRun("includes its project's headers".to_string());
    }
    let (hardware, emulated) = match language {
        Language::Wgsl => (Target::Wgsl, Target::WgslNoSubgroup),
        Language::Glsl => (Target::Glsl, Target::GlslNoSubgroup),
    };
    let mut options = LinkOptions::default().subgroup_size(size);
    for (name, value) in DEFINES
        .iter()
        .filter(|(f, _)| *f == file)
        .flat_map(|(_, d)| d.iter())
    {
        options = options.define(*name, *value);
    }
    let linked = |target: Target| {
        link(text, file, target, &options).map_err(|e| {
            let first = e.to_string().lines().next().unwrap_or_default().to_string();
            Outcome::NotRun(format!("`{target}` does not link: {first}"))
        })
    };
    let (hardware_text, emulated_text) = match (linked(hardware), linked(emulated)) {
        (Ok(h), Ok(e)) => (h.text, e.text),
        (Err(why), _) | (_, Err(why)) => return why,
    };
    // The interface, from the emulated text (the linker adds no binding,
    // so both texts have the same).
    let interface = match Interface::of(language, &emulated_text) {
        Ok(interface) => interface,
        Err(why) => return why,
    };
    let run = |target: Target, text: &str| {
        interface
            .run(gpu, target, text)
            .map_err(|e| format!("`{target}`: {e}"))
    };
    let (want, got) = match (run(hardware, &hardware_text), run(emulated, &emulated_text)) {
        (Ok(want), Ok(got)) => (want, got),
        (Err(e), _) | (_, Err(e)) => return Outcome::Failed(e),
    };
    let undefined = UNDEFINED.iter().find(|(f, _, _)| *f == file);
    let undefined_bits = undefined.map_or(0, |(_, bits, _)| *bits);
    let mut differ = compare("", &want, &got, undefined_bits);
    let dawn = match (dawn, language) {
        (Some(dawn), Language::Wgsl) => {
            let web = linked(Target::WgslWeb).map(|l| l.text);
            match on_dawn(dawn, &interface, file, web, &emulated_text) {
                Ok((web, emulated)) => {
                    let mut said = Vec::new();
                    match web {
                        Ok(web) => {
                            differ.extend(compare(
                                "Dawn, `wgsl-web`: ",
                                &want,
                                &web,
                                undefined_bits,
                            ));
                            said.push("`wgsl-web` agrees");
                        }
                        Err(why) => {
                            said.push("Tint refuses `wgsl-web`, as the shader is written");
                            differ.extend(
                                // Tint's own verdict on the text as written
                                // is the shader's; any other failure is not.
                                (!why.contains("Tint rejects"))
                                    .then(|| format!("Dawn, `wgsl-web`: {why}")),
                            );
                            eprintln!("corpus: {file}: Dawn, `wgsl-web`: {why}");
                        }
                    }
                    match emulated {
                        Ok(emulated) => {
                            differ.extend(compare(
                                "Dawn, `wgsl-no-subgroup`: ",
                                &want,
                                &emulated,
                                undefined_bits,
                            ));
                            said.push("`wgsl-no-subgroup` agrees");
                        }
                        Err(why) => {
                            return Outcome::Failed(format!("Dawn, `wgsl-no-subgroup`: {why}"))
                        }
                    }
                    Some(format!("on Dawn, {}", said.join(", ")))
                }
                Err(why) => return Outcome::Failed(format!("Dawn: {why}")),
            }
        }
        _ => None,
    };
    if differ.is_empty() {
        Outcome::Agrees {
            buffers: want.len(),
            bytes: want.iter().map(|(_, b)| b.len() as u64).sum(),
            undefined: undefined.map(|(_, _, why)| *why),
            dawn,
        }
    } else {
        Outcome::Differs(differ)
    }
}

/// The buffers of `got` that differ from `want` outside `undefined_bits`,
/// each as a line that starts with `what`.
fn compare(
    what: &str,
    want: &[BufferBytes],
    got: &[BufferBytes],
    undefined_bits: u32,
) -> Vec<String> {
    let mut differ = Vec::new();
    for ((binding, want), (_, got)) in want.iter().zip(got) {
        let at = |b: &[u8], w: usize| u32::from_le_bytes(b[w * 4..w * 4 + 4].try_into().unwrap());
        let words: Vec<usize> = (0..want.len().min(got.len()) / 4)
            .filter(|&w| (at(want, w) ^ at(got, w)) & !undefined_bits != 0)
            .collect();
        if let Some(&first) = words.first() {
            differ.push(format!(
                "{what}binding {binding:?}: {} word(s) differ (words {:?}{}), the first {:#x} with \
                 subgroups, {:#x} without",
                words.len(),
                &words[..words.len().min(8)],
                if words.len() > 8 { ", …" } else { "" },
                at(want, first),
                at(got, first)
            ));
        } else if want.len() != got.len() {
            differ.push(format!(
                "{what}binding {binding:?}: {} bytes, not {}",
                got.len(),
                want.len()
            ));
        }
    }
    differ
}

/// One text's buffers after Dawn ran it, or why it did not run.
type DawnRun = Result<Vec<BufferBytes>, String>;

/// Runs the `wgsl-web` text (or why it did not link) and the
/// `wgsl-no-subgroup` text on Dawn, over `interface`'s buffers, each entry
/// point one workgroup, in order. Errs where Node itself failed.
fn on_dawn(
    dawn: &Dawn,
    interface: &Interface,
    file: &str,
    web: Result<String, Outcome>,
    emulated: &str,
) -> Result<(DawnRun, DawnRun), String> {
    let job = |target: Target, shader: &str| BuffersJob {
        name: format!("{file} ({target})"),
        target,
        shader: shader.to_string(),
        entries: interface
            .entries
            .iter()
            .map(|(name, _)| name.clone())
            .collect(),
        workgroups: [1, 1, 1],
        buffers: interface
            .bindings
            .iter()
            .map(|b| BufferSpec {
                group: b.group,
                binding: b.binding,
                uniform: b.ty == wgpu::BufferBindingType::Uniform,
                read_only: matches!(b.ty, wgpu::BufferBindingType::Storage { read_only: true }),
                words: b
                    .contents
                    .chunks(4)
                    .map(|c| {
                        let mut word = [0; 4];
                        word[..c.len()].copy_from_slice(c);
                        u32::from_le_bytes(word)
                    })
                    .collect(),
                read_back: true,
            })
            .collect(),
    };
    let bytes = |words: Vec<Vec<u32>>| -> Vec<BufferBytes> {
        interface
            .bindings
            .iter()
            .zip(words)
            .map(|(b, words)| {
                let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                bytes.truncate(b.contents.len());
                ((b.group, b.binding), bytes)
            })
            .collect()
    };
    let mut jobs = vec![job(Target::WgslNoSubgroup, emulated)];
    let web = web.map_err(|why| match why {
        Outcome::NotRun(why) | Outcome::Failed(why) => why,
        _ => String::new(),
    });
    if let Ok(web) = &web {
        jobs.push(job(Target::WgslWeb, web));
    }
    let mut results = dawn
        .run_buffers(&jobs)
        .map_err(|e| e.to_string())?
        .into_iter();
    let emulated = results
        .next()
        .ok_or("no result")?
        .map(bytes)
        .map_err(|e| e.to_string());
    let web = match web {
        Ok(_) => results
            .next()
            .ok_or("no result")?
            .map(bytes)
            .map_err(|e| e.to_string()),
        Err(why) => Err(why),
    };
    Ok((web, emulated))
}

/// A buffer binding's type, as much of it as filling it needs.
#[derive(Clone, Debug)]
enum Ty {
    /// A number of `width` bytes: a float or not.
    Scalar { float: bool, width: u32 },
    /// Values of `base`, `stride` bytes apart; `count` of them, or
    /// [`RUNTIME_ELEMENTS`] where the array is runtime-sized. Vectors and
    /// matrices are arrays too.
    Array {
        base: Box<Ty>,
        count: Option<u32>,
        stride: u32,
    },
    /// Members at their byte offsets.
    Struct(Vec<(u32, Ty)>),
    /// Something a buffer cannot hold (or this harness does not fill).
    Other,
}

/// One buffer binding of the shader.
struct Binding {
    group: u32,
    binding: u32,
    ty: wgpu::BufferBindingType,
    /// Its initial contents.
    contents: Vec<u8>,
}

/// What a dispatch needs: the bindings, and the compute entry points with
/// their workgroup sizes.
struct Interface {
    bindings: Vec<Binding>,
    entries: Vec<(String, [u32; 3])>,
}

/// A binding as a reader found it: where, which kind, of what type.
type Found = (u32, u32, wgpu::BufferBindingType, Ty);

impl Interface {
    /// The interface of a linked text: WGSL as naga reads it, GLSL from
    /// glslang's SPIR-V (naga's GLSL front end reads too little of Vulkan
    /// GLSL, and its SPIR-V one refuses glslang's spec constants). A
    /// shader this harness cannot feed is [`Outcome::NotRun`].
    fn of(language: Language, text: &str) -> Result<Self, Outcome> {
        let (found, entries) = match language {
            Language::Wgsl => {
                let module = naga::front::wgsl::parse_str(text)
                    .map_err(|e| Outcome::Failed(e.to_string()))?;
                from_naga(&module)?
            }
            Language::Glsl => {
                let spirv = ballot_naga::valid::glslang_spirv(text)
                    .map_err(|e| Outcome::Failed(e.to_string()))?;
                spirv::reflect(&ballot_runner::gpu::words_of(&spirv)).map_err(Outcome::NotRun)?
            }
        };
        if entries.is_empty() {
            return Err(Outcome::NotRun("no compute entry point".to_string()));
        }
        if found.is_empty() {
            return Err(Outcome::NotRun("no buffer to compare".to_string()));
        }
        let mut bindings: Vec<Binding> = found
            .into_iter()
            .map(|(group, binding, ty, of)| {
                let mut contents = Vec::new();
                fill(&of, 0, &mut contents);
                // What the shader may write starts zeroed: it holds the
                // shader's counters and flags as well as its results, and
                // a decoupled look-back handed a tile number of 37 by a
                // counter at 37 waits for ever on tiles no one scans.
                if ty != wgpu::BufferBindingType::Uniform
                    && ty != (wgpu::BufferBindingType::Storage { read_only: true })
                {
                    contents.fill(0);
                }
                // Uniform buffers are read in 16-byte rows.
                contents.resize(contents.len().next_multiple_of(16).max(16), 0);
                Binding {
                    group,
                    binding,
                    ty,
                    contents,
                }
            })
            .collect();
        bindings.sort_by_key(|b| (b.group, b.binding));
        Ok(Self { bindings, entries })
    }

    /// Runs every entry point of `text`, in order, over fresh buffers;
    /// returns each buffer's bytes afterwards.
    fn run(&self, gpu: &Gpu, target: Target, text: &str) -> Result<Vec<BufferBytes>, String> {
        let device = gpu.device();
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let buffers: Vec<wgpu::Buffer> = self
            .bindings
            .iter()
            .map(|b| {
                let usage = match b.ty {
                    wgpu::BufferBindingType::Uniform => wgpu::BufferUsages::UNIFORM,
                    _ => wgpu::BufferUsages::STORAGE,
                };
                device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: None,
                    contents: &b.contents,
                    usage: usage | wgpu::BufferUsages::COPY_SRC,
                })
            })
            .collect();
        let groups = self.bindings.iter().map(|b| b.group).max().unwrap_or(0) + 1;
        let layouts: Vec<wgpu::BindGroupLayout> = (0..groups)
            .map(|g| {
                let entries: Vec<wgpu::BindGroupLayoutEntry> = self
                    .bindings
                    .iter()
                    .filter(|b| b.group == g)
                    .map(|b| wgpu::BindGroupLayoutEntry {
                        binding: b.binding,
                        visibility: wgpu::ShaderStages::COMPUTE,
                        ty: wgpu::BindingType::Buffer {
                            ty: b.ty,
                            has_dynamic_offset: false,
                            min_binding_size: None,
                        },
                        count: None,
                    })
                    .collect();
                device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                    label: None,
                    entries: &entries,
                })
            })
            .collect();
        let bind_groups: Vec<wgpu::BindGroup> = (0..groups)
            .map(|g| {
                let entries: Vec<wgpu::BindGroupEntry> = self
                    .bindings
                    .iter()
                    .zip(&buffers)
                    .filter(|(b, _)| b.group == g)
                    .map(|(b, buffer)| wgpu::BindGroupEntry {
                        binding: b.binding,
                        resource: buffer.as_entire_binding(),
                    })
                    .collect();
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: None,
                    layout: &layouts[g as usize],
                    entries: &entries,
                })
            })
            .collect();
        let layout_refs: Vec<Option<&wgpu::BindGroupLayout>> = layouts.iter().map(Some).collect();
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &layout_refs,
            immediate_size: 0,
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        for (entry, workgroup) in &self.entries {
            let module = gpu.module_of(target, entry, *workgroup, text)?;
            let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            });
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(&pipeline);
            for (g, group) in bind_groups.iter().enumerate() {
                pass.set_bind_group(g as u32, group, &[]);
            }
            pass.dispatch_workgroups(1, 1, 1);
        }
        let staging: Vec<wgpu::Buffer> = buffers
            .iter()
            .map(|b| {
                let copy = device.create_buffer(&wgpu::BufferDescriptor {
                    label: None,
                    size: b.size(),
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                encoder.copy_buffer_to_buffer(b, 0, &copy, 0, b.size());
                copy
            })
            .collect();
        gpu.queue().submit([encoder.finish()]);
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(e.to_string());
        }
        let (tx, rx) = mpsc::channel();
        for (k, copy) in staging.iter().enumerate() {
            let tx = tx.clone();
            copy.map_async(wgpu::MapMode::Read, .., move |r| {
                let _ = tx.send((k, r));
            });
        }
        // A shader that spins on memory no invocation writes would hold
        // the device for ever: a minute is far past any of these.
        device
            .poll(wgpu::PollType::Wait {
                submission_index: None,
                timeout: Some(Duration::from_secs(60)),
            })
            .map_err(|e| format!("the dispatch did not finish: {e}"))?;
        for _ in 0..staging.len() {
            let (k, r) = rx.recv().map_err(|e| e.to_string())?;
            r.map_err(|e| format!("reading back buffer {k}: {e}"))?;
        }
        let mut out = Vec::new();
        for (b, copy) in self.bindings.iter().zip(&staging) {
            let bytes = copy
                .get_mapped_range(..)
                .map_err(|e| e.to_string())?
                .to_vec();
            copy.unmap();
            out.push(((b.group, b.binding), bytes));
        }
        Ok(out)
    }
}

/// A fixed hash of a byte offset: the inputs are the same on both sides
/// and from run to run.
fn hash(at: u32) -> u32 {
    let mut x = at.wrapping_mul(0x9e37_79b9) ^ 0x85eb_ca6b;
    x ^= x >> 15;
    x = x.wrapping_mul(0x2c1b_3c6d);
    x ^ (x >> 12)
}

/// The bindings and compute entry points of a naga module.
#[allow(clippy::type_complexity)]
fn from_naga(module: &naga::Module) -> Result<(Vec<Found>, Vec<(String, [u32; 3])>), Outcome> {
    let mut layouter = naga::proc::Layouter::default();
    layouter
        .update(module.to_ctx())
        .map_err(|e| Outcome::Failed(format!("layout: {e}")))?;
    let mut found = Vec::new();
    for (_, global) in module.global_variables.iter() {
        let kind = match global.space {
            naga::AddressSpace::Storage { access } => wgpu::BufferBindingType::Storage {
                read_only: !access.contains(naga::StorageAccess::STORE),
            },
            naga::AddressSpace::Uniform => wgpu::BufferBindingType::Uniform,
            naga::AddressSpace::Handle => {
                return Err(Outcome::NotRun("it samples or stores textures".to_string()))
            }
            naga::AddressSpace::Immediate => {
                return Err(Outcome::NotRun("it has push constants".to_string()))
            }
            _ => continue,
        };
        let Some(at) = &global.binding else { continue };
        found.push((
            at.group,
            at.binding,
            kind,
            naga_ty(module, &layouter, global.ty),
        ));
    }
    let entries = module
        .entry_points
        .iter()
        .filter(|e| e.stage == naga::ShaderStage::Compute)
        .map(|e| (e.name.clone(), e.workgroup_size))
        .collect();
    Ok((found, entries))
}

/// naga's type `ty` as a [`Ty`].
fn naga_ty(
    module: &naga::Module,
    layouter: &naga::proc::Layouter,
    ty: naga::Handle<naga::Type>,
) -> Ty {
    use naga::TypeInner;
    let scalar = |s: naga::Scalar| Ty::Scalar {
        float: s.kind == naga::ScalarKind::Float,
        width: u32::from(s.width),
    };
    match &module.types[ty].inner {
        TypeInner::Scalar(s) | TypeInner::Atomic(s) => scalar(*s),
        TypeInner::Vector { size, scalar: s } => Ty::Array {
            base: Box::new(scalar(*s)),
            count: Some(*size as u32),
            stride: u32::from(s.width),
        },
        TypeInner::Matrix {
            columns,
            rows,
            scalar: s,
        } => Ty::Array {
            base: Box::new(Ty::Array {
                base: Box::new(scalar(*s)),
                count: Some(*rows as u32),
                stride: u32::from(s.width),
            }),
            count: Some(*columns as u32),
            stride: layouter[ty].size / *columns as u32,
        },
        TypeInner::Array { base, size, stride } => Ty::Array {
            base: Box::new(naga_ty(module, layouter, *base)),
            count: match size {
                naga::ArraySize::Constant(n) => Some(n.get()),
                _ => None,
            },
            stride: *stride,
        },
        TypeInner::Struct { members, .. } => Ty::Struct(
            members
                .iter()
                .map(|m| (m.offset, naga_ty(module, layouter, m.ty)))
                .collect(),
        ),
        _ => Ty::Other,
    }
}

/// Writes a value of type `ty` at byte `at` of `out` (grown as needed):
/// integers 0 to 63, floats 2^-2 to 2^1, runtime arrays
/// [`RUNTIME_ELEMENTS`] long, padding zero.
fn fill(ty: &Ty, at: u32, out: &mut Vec<u8>) {
    match ty {
        Ty::Scalar { float, width } => {
            let h = hash(at);
            let bytes: Vec<u8> = match (float, width) {
                (true, 4) => (2f32.powi((h % 4) as i32 - 2)).to_le_bytes().to_vec(),
                (true, 8) => (2f64.powi((h % 4) as i32 - 2)).to_le_bytes().to_vec(),
                // 1, 2, 0.5 and 0.25 as IEEE halves.
                (true, _) => [0x3c00u16, 0x4000, 0x3800, 0x3400][(h % 4) as usize]
                    .to_le_bytes()
                    .to_vec(),
                (false, width) => {
                    u64::from(h % 64).to_le_bytes()[..(*width as usize).min(8)].to_vec()
                }
            };
            let at = at as usize;
            if out.len() < at + bytes.len() {
                out.resize(at + bytes.len(), 0);
            }
            out[at..at + bytes.len()].copy_from_slice(&bytes);
        }
        Ty::Array {
            base,
            count,
            stride,
        } => {
            for k in 0..count.unwrap_or(RUNTIME_ELEMENTS) {
                fill(base, at + k * stride, out);
            }
        }
        Ty::Struct(members) => {
            for (offset, member) in members {
                fill(member, at + offset, out);
            }
        }
        Ty::Other => {}
    }
}

/// The buffer bindings and entry point of glslang's SPIR-V: what
/// [`Interface`] needs, read from the module's decorations and types (the
/// SPIR-V specification, sections 2.3 and 3; opcodes from its tables).
mod spirv {
    use super::{Found, Ty};
    use std::collections::HashMap;

    const ENTRY_POINT: u32 = 15;
    const EXECUTION_MODE: u32 = 16;
    const TYPE_BOOL: u32 = 20;
    const TYPE_INT: u32 = 21;
    const TYPE_FLOAT: u32 = 22;
    const TYPE_VECTOR: u32 = 23;
    const TYPE_MATRIX: u32 = 24;
    const TYPE_ARRAY: u32 = 28;
    const TYPE_RUNTIME_ARRAY: u32 = 29;
    const TYPE_STRUCT: u32 = 30;
    const TYPE_POINTER: u32 = 32;
    const CONSTANT: u32 = 43;
    const SPEC_CONSTANT: u32 = 50;
    const VARIABLE: u32 = 59;
    const DECORATE: u32 = 71;
    const MEMBER_DECORATE: u32 = 72;

    // Decorations.
    const BUFFER_BLOCK: u32 = 3;
    const ARRAY_STRIDE: u32 = 6;
    const MATRIX_STRIDE: u32 = 7;
    const NON_WRITABLE: u32 = 24;
    const BINDING: u32 = 33;
    const DESCRIPTOR_SET: u32 = 34;
    const OFFSET: u32 = 35;

    // Storage classes.
    const UNIFORM_CONSTANT: u32 = 0;
    const UNIFORM: u32 = 2;
    const PUSH_CONSTANT: u32 = 9;
    const STORAGE_BUFFER: u32 = 12;

    const GL_COMPUTE: u32 = 5;
    const LOCAL_SIZE: u32 = 17;

    /// What `words` binds, and its compute entry point (`main`).
    #[allow(clippy::type_complexity)]
    pub fn reflect(words: &[u32]) -> Result<(Vec<Found>, Vec<(String, [u32; 3])>), String> {
        if words.len() < 5 || words[0] != 0x0723_0203 {
            return Err("not SPIR-V".to_string());
        }
        let mut types: HashMap<u32, &[u32]> = HashMap::new();
        let mut constants: HashMap<u32, u32> = HashMap::new();
        let mut decorations: HashMap<(u32, u32), u32> = HashMap::new();
        let mut flags: HashMap<u32, Vec<u32>> = HashMap::new();
        let mut members: HashMap<(u32, u32, u32), u32> = HashMap::new();
        let mut variables = Vec::new();
        let mut entry = None;
        let mut size = [1, 1, 1];
        let mut at = 5;
        while at < words.len() {
            let count = (words[at] >> 16) as usize;
            let op = words[at] & 0xffff;
            if count == 0 || at + count > words.len() {
                return Err("a SPIR-V instruction runs past the module".to_string());
            }
            let i = &words[at + 1..at + count];
            match op {
                ENTRY_POINT if i[0] == GL_COMPUTE => entry = Some(i[1]),
                EXECUTION_MODE if i[1] == LOCAL_SIZE && i.len() >= 5 => {
                    size = [i[2], i[3], i[4]];
                }
                TYPE_BOOL | TYPE_INT | TYPE_FLOAT | TYPE_VECTOR | TYPE_MATRIX | TYPE_ARRAY
                | TYPE_RUNTIME_ARRAY | TYPE_STRUCT | TYPE_POINTER => {
                    types.insert(i[0], &words[at..at + count]);
                }
                CONSTANT | SPEC_CONSTANT if i.len() >= 3 => {
                    constants.insert(i[1], i[2]);
                }
                VARIABLE => variables.push((i[0], i[1], i[2])),
                DECORATE if i.len() >= 2 => {
                    decorations.insert((i[0], i[1]), i.get(2).copied().unwrap_or(0));
                    flags.entry(i[0]).or_default().push(i[1]);
                }
                MEMBER_DECORATE if i.len() >= 3 => {
                    members.insert((i[0], i[1], i[2]), i.get(3).copied().unwrap_or(0));
                }
                _ => {}
            }
            at += count;
        }
        let Some(_) = entry else {
            return Ok((Vec::new(), Vec::new()));
        };
        let reader = Reader {
            types: &types,
            constants: &constants,
            decorations: &decorations,
            members: &members,
        };
        let mut found = Vec::new();
        for (pointer, id, class) in variables {
            let pointee = match types.get(&pointer) {
                Some(t) if t[0] & 0xffff == TYPE_POINTER => t[3],
                _ => continue,
            };
            if types
                .get(&pointee)
                .is_some_and(|t| matches!(t[0] & 0xffff, TYPE_ARRAY | TYPE_RUNTIME_ARRAY))
                && matches!(class, STORAGE_BUFFER | UNIFORM)
            {
                return Err("it binds an array of buffers".to_string());
            }
            let block = flags.get(&pointee).cloned().unwrap_or_default();
            // `readonly`: glslang marks the variable, or each member of
            // its block, NonWritable.
            let read_only = flags.get(&id).is_some_and(|f| f.contains(&NON_WRITABLE))
                || types.get(&pointee).is_some_and(|t| {
                    t[0] & 0xffff == TYPE_STRUCT
                        && (0..t.len() as u32 - 2)
                            .all(|k| members.contains_key(&(pointee, k, NON_WRITABLE)))
                });
            let kind = match class {
                STORAGE_BUFFER => wgpu::BufferBindingType::Storage { read_only },
                UNIFORM if block.contains(&BUFFER_BLOCK) => {
                    wgpu::BufferBindingType::Storage { read_only }
                }
                UNIFORM => wgpu::BufferBindingType::Uniform,
                UNIFORM_CONSTANT => return Err("it samples or stores textures".to_string()),
                PUSH_CONSTANT => return Err("it has push constants".to_string()),
                _ => continue,
            };
            let (Some(&binding), set) = (
                decorations.get(&(id, BINDING)),
                decorations.get(&(id, DESCRIPTOR_SET)).copied().unwrap_or(0),
            ) else {
                continue;
            };
            found.push((set, binding, kind, reader.ty(pointee, 0)?));
        }
        Ok((found, vec![("main".to_string(), size)]))
    }

    struct Reader<'a> {
        types: &'a HashMap<u32, &'a [u32]>,
        constants: &'a HashMap<u32, u32>,
        decorations: &'a HashMap<(u32, u32), u32>,
        members: &'a HashMap<(u32, u32, u32), u32>,
    }

    impl Reader<'_> {
        /// The type `id`; `matrix_stride` is the member decoration of a
        /// matrix being read.
        fn ty(&self, id: u32, matrix_stride: u32) -> Result<Ty, String> {
            let Some(t) = self.types.get(&id) else {
                return Ok(Ty::Other);
            };
            let stride = |id: u32| self.decorations.get(&(id, ARRAY_STRIDE)).copied();
            Ok(match t[0] & 0xffff {
                TYPE_INT => Ty::Scalar {
                    float: false,
                    width: t[2] / 8,
                },
                TYPE_FLOAT => Ty::Scalar {
                    float: true,
                    width: t[2] / 8,
                },
                TYPE_VECTOR => {
                    let base = self.ty(t[2], 0)?;
                    let width = match base {
                        Ty::Scalar { width, .. } => width,
                        _ => return Ok(Ty::Other),
                    };
                    Ty::Array {
                        base: Box::new(base),
                        count: Some(t[3]),
                        stride: width,
                    }
                }
                TYPE_MATRIX => Ty::Array {
                    base: Box::new(self.ty(t[2], 0)?),
                    count: Some(t[3]),
                    stride: matrix_stride,
                },
                TYPE_ARRAY => Ty::Array {
                    base: Box::new(self.ty(t[2], 0)?),
                    count: Some(
                        *self
                            .constants
                            .get(&t[3])
                            .ok_or("an array whose length is no constant")?,
                    ),
                    stride: stride(t[1]).ok_or("an array without ArrayStride")?,
                },
                TYPE_RUNTIME_ARRAY => Ty::Array {
                    base: Box::new(self.ty(t[2], 0)?),
                    count: None,
                    stride: stride(t[1]).ok_or("an array without ArrayStride")?,
                },
                TYPE_STRUCT => {
                    let mut out = Vec::new();
                    for (k, &member) in t[2..].iter().enumerate() {
                        let k = k as u32;
                        let offset = self
                            .members
                            .get(&(t[1], k, OFFSET))
                            .copied()
                            .ok_or("a block member without Offset")?;
                        let matrix = self
                            .members
                            .get(&(t[1], k, MATRIX_STRIDE))
                            .copied()
                            .unwrap_or(0);
                        out.push((offset, self.ty(member, matrix)?));
                    }
                    Ty::Struct(out)
                }
                _ => Ty::Other,
            })
        }
    }
}
