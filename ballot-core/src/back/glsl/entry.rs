//! The compute-shader form: the buffers of the shader interface (see the
//! [`crate::back`] docs) and `main`, which loads each invocation's inputs,
//! calls the kernel and stores its result.
//!
//! Buffers are blocks without an instance name, because naga's glsl-in
//! takes `.length()` of a runtime-sized array only on such a block's
//! member. Every invocation runs the kernel (emulated subgroups need them
//! all at every barrier); loads and stores check the buffer's length, so a
//! dispatch larger than the buffers reads zeros and writes nothing there.

use core::fmt::{self, Write};

use super::{type_name, zero, Source, Writer};
use crate::back::shading::Shading;
use crate::back::Level;
use crate::ir::Type;

/// The element type a buffer stores for `ty`: `bool` is a `uint` 0 or 1.
const fn stored(ty: Type) -> &'static str {
    match ty {
        Type::Bool => "uint",
        _ => type_name(ty),
    }
}

impl<W: Write> Writer<'_, W> {
    /// The workgroup size and one binding per parameter, the output and
    /// the lane records.
    pub(super) fn write_interface(&mut self) -> fmt::Result {
        let [x, y, z] = self.options.workgroup_size;
        writeln!(
            self.out,
            "layout(local_size_x = {x}, local_size_y = {y}, local_size_z = {z}) in;\n"
        )?;
        let (params, ret) = match self.entry().map(|f| &f.source) {
            Some(Source::Kernel(kernel)) => (kernel.params.as_slice(), kernel.ret),
            _ => (&[][..], None),
        };
        for (i, param) in params.iter().enumerate() {
            let Some(Source::Kernel(kernel)) = self.entry().map(|f| &f.source) else {
                break;
            };
            let ty = stored(kernel.locals[param.local].ty);
            let member = if param.uniform {
                format!("{ty} ballot_in{i};")
            } else {
                format!("{ty} ballot_in{i}[];")
            };
            self.write_buffer(i, "readonly ", &format!("ballot_in{i}_block"), &member)?;
        }
        if let Some(ret) = ret {
            let member = format!("{} ballot_out[];", stored(ret));
            self.write_buffer(params.len(), "", "ballot_out_block", &member)?;
        }
        if self.options.record_lanes {
            // At P + 1 whether or not there is an output at P.
            let member = "uvec4 ballot_lanes[];";
            self.write_buffer(params.len() + 1, "", "ballot_lanes_block", member)?;
        }
        writeln!(self.out)
    }

    fn write_buffer(
        &mut self,
        binding: usize,
        access: &str,
        block: &str,
        member: &str,
    ) -> fmt::Result {
        writeln!(
            self.out,
            "layout(std430, set = 0, binding = {binding}) {access}buffer {block} {{ {member} }};"
        )
    }

    /// `void main()`: the invocation's index in the dispatch, its inputs,
    /// the kernel, its output.
    pub(super) fn write_main(&mut self) -> fmt::Result {
        let level = Level(1);
        let wg = self.options.invocations_per_workgroup();
        writeln!(self.out, "void main() {{")?;
        writeln!(
            self.out,
            "{level}uvec3 ballot_id = gl_WorkGroupID;\n\
             {level}uvec3 ballot_groups = gl_NumWorkGroups;\n\
             {level}uint ballot_workgroup = (ballot_id.x + (ballot_id.y * ballot_groups.x)) + \
             ((ballot_id.z * ballot_groups.x) * ballot_groups.y);\n\
             {level}uint ballot_global = (ballot_workgroup * {wg}u) + gl_LocalInvocationIndex;"
        )?;
        if self.emulated() {
            writeln!(self.out, "{level}ballot_init(gl_LocalInvocationIndex);")?;
        }
        if self.options.record_lanes {
            self.write_record(level)?;
        }
        if let Some((function, Source::Kernel(kernel))) = self.entry().map(|f| (f, &f.source)) {
            let mut args = Vec::new();
            for (i, param) in kernel.params.iter().enumerate() {
                let ty = kernel.locals[param.local].ty;
                args.push(self.write_load(i, ty, param.uniform, level)?);
            }
            let call = format!("{}({})", function.name, args.join(", "));
            match kernel.ret {
                Some(ret) => self.write_store(&call, ret, level)?,
                None => writeln!(self.out, "{level}{call};")?,
            }
        }
        writeln!(self.out, "}}")
    }

    /// Each invocation's lane id, subgroup size, subgroup key and
    /// workgroup index, read while every invocation is active.
    fn write_record(&mut self, level: Level) -> fmt::Result {
        let record = if self.emulated() {
            "uvec4(ballot_lane, ballot_subgroup_size, ballot_base, ballot_workgroup)"
        } else {
            writeln!(
                self.out,
                "{level}uint ballot_key = subgroupBroadcastFirst(gl_LocalInvocationIndex);"
            )?;
            "uvec4(gl_SubgroupInvocationID, gl_SubgroupSize, ballot_key, ballot_workgroup)"
        };
        writeln!(
            self.out,
            "{level}if (ballot_global < uint(ballot_lanes.length())) {{\n\
             {}ballot_lanes[ballot_global] = {record};\n\
             {level}}}",
            level.next()
        )
    }

    /// Declares `ballot_argN` holding parameter `index`'s value for this
    /// invocation, and returns its name.
    fn write_load(
        &mut self,
        index: usize,
        ty: Type,
        uniform: bool,
        level: Level,
    ) -> Result<String, fmt::Error> {
        let arg = format!("ballot_arg{index}");
        let tn = type_name(ty);
        let element = if uniform {
            format!("ballot_in{index}")
        } else {
            format!("ballot_in{index}[ballot_global]")
        };
        let value = match ty {
            Type::Bool => format!("({element} != 0u)"),
            _ => element,
        };
        if uniform {
            writeln!(self.out, "{level}{tn} {arg} = {value};")?;
        } else {
            writeln!(self.out, "{level}{tn} {arg} = {};", zero(ty))?;
            writeln!(
                self.out,
                "{level}if (ballot_global < uint(ballot_in{index}.length())) {{ {arg} = {value}; }}"
            )?;
        }
        Ok(arg)
    }

    /// Calls the kernel and stores its result, where the buffer has room.
    fn write_store(&mut self, call: &str, ret: Type, level: Level) -> fmt::Result {
        writeln!(
            self.out,
            "{level}{} ballot_result = {call};",
            type_name(ret)
        )?;
        let value = match ret {
            Type::Bool => "uint(ballot_result)",
            _ => "ballot_result",
        };
        writeln!(
            self.out,
            "{level}if (ballot_global < uint(ballot_out.length())) {{ ballot_out[ballot_global] = {value}; }}"
        )
    }
}
