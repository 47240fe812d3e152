//! What a driver is asked to run, and what it gives back: the buffer layout
//! of `ballot_shader::back`'s "shader interface", in words.

use ballot_ir::ir::{Kernel, Type};
use ballot_ir::SubgroupMask;
use ballot_shader::back::{emit, Form, Missing, ShaderError, ShaderOptions, Target};
use ballot_sim::interp::{Arg, Value};

/// One kernel's compute shader for one target and one set of shader options,
/// dispatched once per case with the same pipeline.
#[derive(Clone, Debug)]
pub struct Job<'k> {
    /// The kernel first, then every kernel it calls (more are harmless).
    pub kernels: Vec<&'k Kernel>,
    /// The target whose text is dispatched.
    pub target: Target,
    /// Workgroup size and virtual subgroup size; `record_lanes` is always
    /// turned on by [`Job::shader`].
    pub options: ShaderOptions,
    /// How many workgroups each dispatch has, in x, y, z.
    pub workgroups: [u32; 3],
    /// One entry per dispatch: one [`Arg`] per kernel parameter. A per-lane
    /// argument holds one value per invocation of the whole dispatch (index
    /// `workgroup_index * invocations_per_workgroup +
    /// local_invocation_index`); a uniform one holds a single value.
    pub cases: Vec<Vec<Arg>>,
}

impl<'k> Job<'k> {
    /// The kernel run.
    pub fn kernel(&self) -> &'k Kernel {
        self.kernels[0]
    }

    /// Invocations in one workgroup.
    pub fn invocations_per_workgroup(&self) -> usize {
        self.options.invocations_per_workgroup() as usize
    }

    /// Invocations in one dispatch.
    pub fn invocation_count(&self) -> usize {
        self.invocations_per_workgroup() * self.workgroups.iter().product::<u32>() as usize
    }

    /// The options the shader is emitted with: the job's own, recording
    /// lanes.
    pub fn shader_options(&self) -> ShaderOptions {
        ShaderOptions {
            record_lanes: true,
            ..self.options.clone()
        }
    }

    /// The complete compute shader for the job's target.
    ///
    /// # Errors
    /// The shader writer's error.
    pub fn shader(&self) -> Result<String, ShaderError> {
        emit(
            self.target,
            Form::ComputeShader,
            &self.kernels,
            &self.shader_options(),
            Missing::Error,
        )
    }

    /// A short description for reports: kernel, target, shape.
    pub fn describe(&self) -> String {
        let [x, y, z] = self.options.workgroup_size;
        let [a, b, c] = self.workgroups;
        let virtual_size = if self.target.has_subgroups() {
            String::new()
        } else {
            format!(", virtual subgroup {}", self.options.subgroup_size)
        };
        format!(
            "`{}` on {} (workgroup {x}x{y}x{z}, {a}x{b}x{c} workgroups{virtual_size})",
            self.kernel().name,
            self.target
        )
    }
}

/// One invocation's record of where it ran, as the shader wrote it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaneRecord {
    /// Its lane id in its subgroup.
    pub lane: u32,
    /// Its subgroup's size.
    pub size: u32,
    /// Its subgroup's key: the first active `local_invocation_index`.
    pub key: u32,
    /// Its workgroup's index, in dispatch order.
    pub workgroup: u32,
}

impl LaneRecord {
    /// A record from the four words the shader wrote.
    pub const fn from_words([lane, size, key, workgroup]: [u32; 4]) -> Self {
        Self {
            lane,
            size,
            key,
            workgroup,
        }
    }
}

/// What one dispatch gave back.
#[derive(Clone, Debug, PartialEq)]
pub struct Dispatched {
    /// One result per invocation ([`Value::Unit`] for a kernel that returns
    /// nothing). A `bool` output that is neither 0 nor 1 comes back as the
    /// [`Value::U32`] found, so that it cannot compare equal.
    pub values: Vec<Value>,
    /// One record per invocation.
    pub records: Vec<LaneRecord>,
}

/// The number of 32-bit words one value of `ty` takes in a buffer.
pub const fn words_per_value(ty: Type) -> usize {
    match ty {
        Type::Mask => 4,
        _ => 1,
    }
}

/// A value as the words a buffer holds (`bool` as 0 or 1).
pub fn value_words(value: Value, out: &mut Vec<u32>) {
    match value {
        Value::Bool(b) => out.push(b as u32),
        Value::U32(x) => out.push(x),
        Value::I32(x) => out.push(x as u32),
        Value::F32(x) => out.push(x.to_bits()),
        Value::Mask(m) => out.extend(m.to_words()),
        Value::Unit => {}
    }
}

/// The words of an argument's buffer.
pub fn arg_words(arg: &Arg) -> Vec<u32> {
    let mut out = Vec::new();
    match arg {
        Arg::PerLane(values) => values.iter().for_each(|&v| value_words(v, &mut out)),
        Arg::Uniform(v) => value_words(*v, &mut out),
    }
    out
}

/// Reads the values of `ty` back from a buffer's words.
pub fn decode_values(ty: Option<Type>, words: &[u32], count: usize) -> Vec<Value> {
    let Some(ty) = ty else {
        return vec![Value::Unit; count];
    };
    words
        .chunks_exact(words_per_value(ty))
        .take(count)
        .map(|w| match ty {
            Type::Bool => match w[0] {
                0 => Value::Bool(false),
                1 => Value::Bool(true),
                other => Value::U32(other),
            },
            Type::U32 => Value::U32(w[0]),
            Type::I32 => Value::I32(w[0] as i32),
            Type::F32 => Value::F32(f32::from_bits(w[0])),
            Type::Mask => Value::Mask(SubgroupMask::from_words([w[0], w[1], w[2], w[3]])),
        })
        .collect()
}

/// Reads the lane records back from a buffer's words.
pub fn decode_records(words: &[u32], count: usize) -> Vec<LaneRecord> {
    words
        .chunks_exact(4)
        .take(count)
        .map(|w| LaneRecord::from_words([w[0], w[1], w[2], w[3]]))
        .collect()
}

/// What the output and record buffers hold before a dispatch: a pattern no
/// shader writes by chance, so that an invocation that wrote nothing shows.
pub const UNWRITTEN: u32 = 0xDEAD_BEEF;

/// The buffers of one dispatch, as words, in binding order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bindings {
    /// Binding `i`: parameter `i`'s contents (read-only).
    pub params: Vec<Vec<u32>>,
    /// Binding `P`: the output's size in words, if the kernel returns a
    /// value.
    pub output_words: Option<usize>,
    /// Binding `P + 1`: the records' size in words.
    pub record_words: usize,
}

impl Bindings {
    /// The buffers of one case of `job`.
    pub fn of(job: &Job<'_>, case: &[Arg]) -> Self {
        let kernel = job.kernel();
        let n = job.invocation_count();
        Self {
            params: case.iter().map(arg_words).collect(),
            output_words: kernel.ret.map(|ty| n * words_per_value(ty)),
            record_words: n * 4,
        }
    }

    /// The binding index of the output.
    pub fn output_binding(&self) -> u32 {
        self.params.len() as u32
    }

    /// The binding index of the records.
    pub fn record_binding(&self) -> u32 {
        self.params.len() as u32 + 1
    }
}
