//! The compute-shader form: the bindings and `main` of the shader
//! interface in `back`'s module docs.

use core::fmt;

use super::{type_name, Writer};
use crate::back::Level;
use ballot_ir::ir::{Kernel, Type};

/// The type a buffer stores a value of type `ty` as: WGSL allows no `bool`
/// in a buffer.
fn storage_type(ty: Type) -> &'static str {
    match ty {
        Type::Bool => "u32",
        other => type_name(other),
    }
}

impl<'p, W: fmt::Write> Writer<'p, W> {
    fn entry_kernel(&self) -> Option<&'p Kernel> {
        let plan: &'p super::Named<'p> = self.plan;
        plan.entry().and_then(|f| f.kernel())
    }

    /// One binding per parameter, then the output and the lane records.
    pub(super) fn write_bindings(&mut self) -> fmt::Result {
        let kernel = self.entry_kernel();
        let params = kernel.map_or(&[][..], |k| &k.params[..]);
        writeln!(self.out)?;
        for (i, param) in params.iter().enumerate() {
            let ty = storage_type(kernel.map_or(Type::U32, |k| k.locals[param.local].ty));
            let ty = if param.uniform {
                ty.to_string()
            } else {
                format!("array<{ty}>")
            };
            writeln!(
                self.out,
                "@group(0) @binding({i}) var<storage, read> ballot_in{i}: {ty};"
            )?;
        }
        let count = params.len();
        if let Some(ret) = kernel.and_then(|k| k.ret) {
            writeln!(
                self.out,
                "@group(0) @binding({count}) var<storage, read_write> ballot_out: array<{}>;",
                storage_type(ret)
            )?;
        }
        if self.plan.options.record_lanes {
            writeln!(
                self.out,
                "@group(0) @binding({}) var<storage, read_write> ballot_lanes: array<vec4<u32>>;",
                count + 1
            )?;
        }
        Ok(())
    }

    /// `main`: lane state, the invocation's global index, the lane record,
    /// the kernel's call, and the guarded store of its result.
    pub(super) fn write_main(&mut self) -> fmt::Result {
        let l = Level(1);
        self.write_main_signature()?;
        // The entry point's own names for the init's built-ins.
        let args: &[&str] = if self.plan.emulated() {
            &["ballot_local_index"]
        } else {
            &["ballot_subgroup_invocation_id", "ballot_subgroup_size_in"]
        };
        if let Some(init) = self.plan.target.init() {
            writeln!(self.out, "{l}{};", init.call(args))?;
        }
        writeln!(
            self.out,
            "{l}let ballot_workgroup_index = ((ballot_workgroup_id.x + (ballot_workgroup_id.y * ballot_num_workgroups.x))\n\
             {l}    + ((ballot_workgroup_id.z * ballot_num_workgroups.x) * ballot_num_workgroups.y));\n\
             {l}let ballot_global = ((ballot_workgroup_index * {}u) + ballot_local_index);",
            self.plan.options.invocations_per_workgroup()
        )?;
        if self.plan.options.record_lanes {
            self.write_record()?;
        }
        self.write_call_and_store()?;
        self.out.write_str("}\n")
    }

    /// The attributes and built-in parameters of `main`.
    fn write_main_signature(&mut self) -> fmt::Result {
        let [x, y, z] = self.plan.options.workgroup_size;
        let emulated = self.plan.emulated();
        writeln!(self.out)?;
        if emulated || y * z == 1 {
            writeln!(self.out, "@compute @workgroup_size({x}, {y}, {z})")?;
        } else {
            // naga rejects subgroup built-ins in a multi-dimensional
            // workgroup. Flattened, it has the same invocations under the
            // same local_invocation_index, which is all the interface uses.
            writeln!(
                self.out,
                "// Workgroup size {x}x{y}x{z}, flattened: naga rejects subgroup built-ins\n\
                 // in a multi-dimensional workgroup.\n\
                 @compute @workgroup_size({})",
                x * y * z
            )?;
        }
        let mut builtins = vec![
            "local_invocation_index) ballot_local_index: u32",
            "workgroup_id) ballot_workgroup_id: vec3<u32>",
            "num_workgroups) ballot_num_workgroups: vec3<u32>",
        ];
        if !emulated {
            builtins.push("subgroup_invocation_id) ballot_subgroup_invocation_id: u32");
            builtins.push("subgroup_size) ballot_subgroup_size_in: u32");
        }
        writeln!(self.out, "fn main(")?;
        for builtin in builtins {
            writeln!(self.out, "{}@builtin({builtin},", Level(1))?;
        }
        writeln!(self.out, ") {{")
    }

    /// The lane record, read while every invocation is active.
    fn write_record(&mut self) -> fmt::Result {
        let l = Level(1);
        let key = if self.plan.emulated() {
            "ballot_base"
        } else {
            "subgroupBroadcastFirst(ballot_local_index)"
        };
        writeln!(
            self.out,
            "{l}let ballot_key = {key};\n\
             {l}if (ballot_global < arrayLength(&ballot_lanes)) {{\n\
             {l}    ballot_lanes[ballot_global] = vec4<u32>(ballot_lane, ballot_size, ballot_key, ballot_workgroup_index);\n\
             {l}}}"
        )
    }

    /// Every invocation runs the kernel, also past the end of the buffers,
    /// so that subgroups keep their members; only the store is guarded.
    fn write_call_and_store(&mut self) -> fmt::Result {
        let l = Level(1);
        let Some(kernel) = self.entry_kernel() else {
            return Ok(());
        };
        self.write_entry_args(kernel)?;
        let args: Vec<String> = (0..kernel.params.len())
            .map(|i| format!("ballot_arg{i}"))
            .collect();
        let name = self.plan.entry().map_or("", |f| f.name.as_str());
        let Some(ret) = kernel.ret else {
            return writeln!(self.out, "{l}{name}({});", args.join(", "));
        };
        writeln!(
            self.out,
            "{l}let ballot_result = {name}({});",
            args.join(", ")
        )?;
        let value = if ret == Type::Bool {
            "select(0u, 1u, ballot_result)"
        } else {
            "ballot_result"
        };
        writeln!(
            self.out,
            "{l}if (ballot_global < arrayLength(&ballot_out)) {{\n\
             {l}    ballot_out[ballot_global] = {value};\n\
             {l}}}"
        )
    }

    /// `ballot_argN`: each parameter read from its buffer. An index past
    /// the end of a per-lane buffer reads its last element.
    fn write_entry_args(&mut self, kernel: &Kernel) -> fmt::Result {
        let l = Level(1);
        for (i, param) in kernel.params.iter().enumerate() {
            let load = if param.uniform {
                format!("ballot_in{i}")
            } else {
                format!("ballot_in{i}[min(ballot_global, (arrayLength(&ballot_in{i}) - 1u))]")
            };
            let load = if kernel.locals[param.local].ty == Type::Bool {
                format!("({load} != 0u)")
            } else {
                load
            };
            writeln!(self.out, "{l}let ballot_arg{i} = {load};")?;
        }
        Ok(())
    }
}
