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

use super::features::MAXIMALLY_RECONVERGES;
use super::{type_name, zero, Source, Writer};
use crate::back::shading::Shading;
use crate::back::{Level, Mode};
use ballot_ir::ir::Type;

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
        writeln!(self.out, "void main(){} {{", self.main_attribute())?;
        writeln!(
            self.out,
            "{level}uvec3 ballot_id = gl_WorkGroupID;\n\
             {level}uvec3 ballot_groups = gl_NumWorkGroups;\n\
             {level}uint ballot_workgroup = (ballot_id.x + (ballot_id.y * ballot_groups.x)) + \
             ((ballot_id.z * ballot_groups.x) * ballot_groups.y);\n\
             {level}uint ballot_global = (ballot_workgroup * {wg}u) + gl_LocalInvocationIndex;"
        )?;
        if let Some(init) = self.target.init().filter(|_| self.emulated()) {
            writeln!(self.out, "{level}{};", init.documented())?;
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

    /// What goes between `main`'s prototype and its body: with
    /// [`ShaderOptions::maximal_reconvergence`](crate::back::ShaderOptions::maximal_reconvergence),
    /// ` [[maximally_reconverges]]`. naga's glsl-in does not parse
    /// attributes, so in the validation mode the attribute reads as blank
    /// space of its width: every column of the line stays the output's.
    fn main_attribute(&self) -> String {
        if !self.options.maximal_reconvergence {
            return String::new();
        }
        match self.mode {
            Mode::Output => format!(" {MAXIMALLY_RECONVERGES}"),
            Mode::Validation => " ".repeat(MAXIMALLY_RECONVERGES.len() + 1),
        }
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

#[cfg(test)]
mod tests {
    use crate::back::glsl::standins::tests::every_name;
    use crate::back::{
        emit, write_forms, Form, Missing, Mode, OptionError, ShaderError, ShaderOptions, Target,
    };

    const DIRECTIVE: &str = "#extension GL_EXT_maximal_reconvergence : require";
    const MAIN: &str = "void main() [[maximally_reconverges]] {";

    fn maximal(record_lanes: bool) -> ShaderOptions {
        ShaderOptions {
            maximal_reconvergence: true,
            record_lanes,
            ..ShaderOptions::default()
        }
    }

    #[test]
    fn without_the_option_nothing_asks_for_maximal_reconvergence() {
        let kernel = every_name();
        for target in [Target::Glsl, Target::GlslNoSubgroup] {
            for form in Form::ALL {
                let options = ShaderOptions::default();
                let text = emit(target, form, &[&kernel], &options, Missing::Error).unwrap();
                assert!(!text.contains("maximal"), "{target} {form}:\n{text}");
                assert!(!text.contains("[["), "{target} {form}:\n{text}");
            }
        }
    }

    #[test]
    fn the_option_puts_the_directive_and_the_attribute_in_the_compute_shader_alone() {
        let kernel = every_name();
        for options in [maximal(false), maximal(true)] {
            let write = |options: &ShaderOptions, mode| {
                write_forms(
                    Target::Glsl,
                    &Form::ALL,
                    &[&kernel],
                    options,
                    Missing::Error,
                    mode,
                )
                .expect("written")
            };
            let output = write(&options, Mode::Output);
            let compute = output.text(Form::ComputeShader).expect("asked for");
            let lines: Vec<&str> = compute.lines().collect();
            // With the other extensions, before any code.
            let at = lines.iter().position(|l| *l == DIRECTIVE);
            let at = at.unwrap_or_else(|| panic!("no directive in\n{compute}"));
            assert!(lines[..at].iter().all(|l| l.starts_with('#')), "{compute}");
            assert_eq!(lines.iter().filter(|l| **l == MAIN).count(), 1, "{compute}");
            // The rest is the text without the option, and the library
            // (which has no `main`) is unchanged.
            let plain = write(
                &ShaderOptions {
                    maximal_reconvergence: false,
                    ..options.clone()
                },
                Mode::Output,
            );
            let without = compute
                .replace(&format!("{DIRECTIVE}\n"), "")
                .replace(" [[maximally_reconverges]]", "");
            assert_eq!(Some(without.as_str()), plain.text(Form::ComputeShader));
            assert_eq!(output.text(Form::Helpers), plain.text(Form::Helpers));
            // naga accepts the text users get, and the expansion's shim,
            // whose `main` line has the attribute as blank space.
            let valid = ballot_naga::valid::validate(Target::Glsl, Form::ComputeShader, compute);
            assert_eq!(valid, Ok(()));
            let shim = write(&options, Mode::Validation);
            let shim_compute = shim.text(Form::ComputeShader).expect("asked for");
            assert!(shim_compute.contains(DIRECTIVE) && !shim_compute.contains("[["));
            let main = shim_compute.lines().find(|l| l.starts_with("void main()"));
            assert_eq!(main.map(str::len), Some(MAIN.len()), "{shim_compute}");
            let (verdict, library) = ballot_naga::valid::validate_with_library(
                Target::Glsl,
                shim_compute,
                shim.compute_only(),
            );
            assert_eq!(verdict, Ok(()));
            assert!(library, "the library's verdict is the compute shader's");
        }
    }

    #[test]
    fn every_other_target_refuses_the_option_by_name() {
        let kernel = every_name();
        for target in Target::ALL.into_iter().filter(|t| *t != Target::Glsl) {
            for form in Form::ALL {
                let err = emit(target, form, &[&kernel], &maximal(false), Missing::Error)
                    .expect_err("refused");
                let ShaderError::Options(OptionError::Unsupported {
                    option,
                    target: refusing,
                    reason,
                }) = &err
                else {
                    panic!("{target} {form}: {err:?}");
                };
                assert_eq!((*option, *refusing), ("maximal_reconvergence", target));
                let why = match target.has_subgroups() {
                    true => "WGSL has no attribute",
                    false => "if-converted",
                };
                assert!(reason.contains(why), "{reason}");
                let message = err.to_string();
                let expected =
                    format!("`maximal_reconvergence` is not supported by target `{target}`");
                assert!(message.starts_with(&expected), "{message}");
            }
        }
        assert_eq!(maximal(false).validate_for(Target::Glsl), Ok(()));
        // The checks of every target come first.
        let both = ShaderOptions {
            subgroup_size: 3,
            ..maximal(false)
        };
        assert!(matches!(
            both.validate_for(Target::Wgsl),
            Err(OptionError::Invalid {
                option: "subgroup_size",
                ..
            })
        ));
    }
}
