//! IR → GLSL for the `glsl` and `glsl-no-subgroup` targets, in both forms.
//!
//! [`crate::back::emit`] is the entry point. The text follows the contract of the
//! [parent module](crate::back) ("The shader interface" and "Semantics
//! every target keeps"); the emitted text of both targets is accepted by
//! glslang for Vulkan 1.1, and that of `glsl-no-subgroup` also by naga's
//! glsl-in (naga 30).
//!
//! # `glsl`
//! The kernel's structured control flow is written as it is, and the GPU
//! provides divergence: ballot operations are the `GL_KHR_shader_subgroup`
//! functions and built-ins (`subgroupBallot`, `gl_SubgroupEqMask`, …), and
//! the `#extension` lines enable just the extensions the text uses.
//!
//! # `glsl-no-subgroup`
//! Virtual subgroups of [`ShaderOptions::subgroup_size`] invocations live in
//! `shared` memory. The ballot, elect and broadcast helpers exchange values
//! through `shared` arrays between two `barrier()`s; every other operation is
//! a lane-local function of the lane id and size. Since every invocation of
//! the workgroup must reach every barrier, each kernel is *if-converted*
//! ([`crate::lower::masked`]) into `R <name>_masked(bool ballot_active_in,
//! params…)`, whose steps every invocation runs, with `bool` flags standing
//! for the GPU's active mask; a kernel call passes the caller's flag:
//! `callee_masked(ballot_active, args…)`.
//!
//! The public `R <name>(params…)` calls it with every invocation active and
//! must be called by every invocation, in uniform control flow, after
//! `ballot_init(local_invocation_index)`. Lanes that never return yield the
//! zero value.
//!
//! # Forms
//! The compute shader starts with `#version 450`. The helper form is text to
//! paste after the user's own `#version` line: it has none, but starts with
//! the `#extension` lines it needs (which must precede any other code), then
//! a comment on how to call it and what undefined cases return.
//!
//! Generated names start with `ballot_`; user identifiers go through one
//! [`Namer`](crate::back::namer::Namer) per module, which never hands that
//! prefix out, so the two cannot collide.

mod entry;
mod expr;
mod features;
pub mod helpers;
mod masked;
mod names;
mod native;
pub mod standins;
#[cfg(test)]
mod tests;

use core::fmt::{self, Write};

use std::collections::BTreeSet;

use crate::back::forms::Forms;
use crate::back::shading::{self, Func, Shading};
use crate::back::{Form, Language, Mode, Request, ShaderOptions, Target};
use crate::lower;
use crate::lower::helpers::ExchangeMemory;
use crate::lower::masked::Masked;
use ballot_ir::ir::Type;
use features::{Extension, Features};
use names::{Function, Source};

/// Prints `glsl` and `glsl-no-subgroup` for [`crate::back::write_forms`],
/// in each form of the request at once ([`Forms`]).
pub(crate) fn write(request: Request<'_>) -> Forms {
    let (target, options) = (request.target, request.options);
    let functions = names::name(request.plan.module.clone(), !target.has_subgroups());
    // The compute shader's needs: the library's, and what the lane record
    // reads.
    let mut features = Features::collect(target, request.plan, options.record_lanes);
    let library_extensions = match options.record_lanes {
        true => Features::collect(target, request.plan, false).extensions,
        false => features.extensions.clone(),
    };
    if options.maximal_reconvergence {
        // Its attribute goes on `main`, which only the compute shader has.
        features.extensions.insert(Extension::MaximalReconvergence);
    }
    let masked = request.plan.forms(!target.has_subgroups());
    let mut forms = Forms::new(request.wanted);
    let mut writer = Writer {
        out: &mut forms,
        target,
        mode: request.mode,
        library_extensions,
        options,
        functions: &functions,
        masked,
        features,
        temps: 0,
    };
    writer
        .write_module()
        .expect("writing into `Forms` cannot fail");
    forms
}

/// Writes one GLSL module.
struct Writer<'a, W> {
    out: W,
    target: Target,
    mode: Mode,
    /// The `#extension` lines of the helper form: the compute shader's
    /// (`features`) but those only its lane record and `main` need.
    library_extensions: BTreeSet<Extension>,
    options: &'a ShaderOptions,
    /// The module's functions, callees first, the entry last.
    functions: &'a [Function<'a>],
    /// Their if-converted forms with ballots shared (emulated targets'
    /// kernels only), indexed like `functions`.
    masked: &'a [Option<Masked>],
    features: Features,
    /// Numbers the generated locals of the native function being written.
    temps: usize,
}

impl<'a, W> Writer<'a, W> {
    /// The entry kernel's function: the last one.
    fn entry(&self) -> Option<&'a Function<'a>> {
        self.functions.last()
    }

    /// The ballots one exchange of the module holds.
    fn slots(&self) -> u32 {
        lower::share::module_slots(self.masked.iter().flatten())
    }
}

impl Writer<'_, &mut Forms> {
    /// The module in both forms at once: the compute shader's `#version`
    /// line, the `#extension` lines only its lane record needs, its
    /// interface and `main` are its own, the library's usage comment is
    /// the library's, everything else is both's.
    fn write_module(&mut self) -> fmt::Result {
        self.out.only(Some(Form::ComputeShader));
        writeln!(self.out, "#version 450")?;
        self.out.only(Some(Form::Helpers));
        self.write_usage()?;
        for ext in &self.features.extensions {
            let library = self.library_extensions.contains(ext);
            self.out.only((!library).then_some(Form::ComputeShader));
            writeln!(self.out, "#extension {} : require", ext.name())?;
        }
        self.out.only(None);
        if self.mode == Mode::Validation {
            // On the line that is blank in the output, so that every
            // other line keeps its number.
            let names = &self.features.names;
            let declarations = standins::declarations(|name| names.contains(name));
            self.out.write_str(&declarations)?;
        }
        writeln!(self.out)?;
        if self.emulated() {
            self.out
                .write_str(&emulated_constants(self.options, false, self.slots()))?;
        }
        self.out.only(Some(Form::ComputeShader));
        self.write_interface()?;
        self.out.only(None);
        let mut text = String::new();
        helpers::write_all(&mut text, &self.features.helpers);
        self.out.write_str(&text)?;
        let (functions, masked) = (self.functions, self.masked);
        for (function, masked) in functions.iter().zip(masked) {
            self.write_function(function, masked.as_ref())?;
        }
        self.out.only(Some(Form::ComputeShader));
        self.write_main()?;
        self.out.only(None);
        Ok(())
    }
}

impl<W: Write> Writer<'_, W> {
    /// The helper form's opening comment: how to include and call it.
    fn write_usage(&mut self) -> fmt::Result {
        let name = self.entry().map_or("", |f| f.name.as_str());
        let target = self.target;
        writeln!(
            self.out,
            "// Generated by ballot from kernel `{name}` for target `{target}`, as helper functions."
        )?;
        writeln!(
            self.out,
            "// Paste this text right after your shader's `#version 450` line: any\n\
             // #extension lines below must precede all other code."
        )?;
        if !self.emulated() {
            return writeln!(
                self.out,
                "// Needs GL_KHR_shader_subgroup_ballot. Call `{name}` from anywhere: the lanes\n\
                 // that reach the call take part in its subgroup operations."
            );
        }
        let s = self.options.subgroup_size;
        let [x, y, z] = self.options.workgroup_size;
        let init = target.init().map_or_else(String::new, |i| i.documented());
        writeln!(
            self.out,
            "// Subgroups of {s} invocations are emulated in shared memory, for a workgroup\n\
             // of local_size {x}x{y}x{z}: virtual subgroup s is the invocations with\n\
             // gl_LocalInvocationIndex in s * {s} .. s * {s} + {s}.\n\
             // - Call {init} once, at the top of main().\n\
             // - Call `{name}` from every invocation of the workgroup, in uniform control\n\
             //   flow: it holds barrier()s that all invocations must reach.\n\
             // Where the spec leaves a result undefined, these helpers return:\n\
             // FindLSB / FindMSB with no bit below the size: 0xFFFFFFFFu; BitExtract at or\n\
             // above the size: false; Broadcast from an inactive lane or one at or above\n\
             // the size: the caller's own value; InverseBallot of a value that differs\n\
             // across lanes: each lane's own bit. Names starting with ballot_ are taken."
        )
    }

    /// One function of the plan: the kernel, or a stub; on emulated targets
    /// the if-converted function and its public wrapper.
    fn write_function(&mut self, function: &Function<'_>, masked: Option<&Masked>) -> fmt::Result {
        self.temps = 0;
        let kernel = match &function.source {
            Source::Stub { params, ret, .. } => return self.write_stub(function, params, *ret),
            Source::Kernel(kernel) => *kernel,
        };
        if let (true, Some(masked)) = (self.emulated(), masked) {
            let f = Func {
                kernel,
                function,
                functions: self.functions,
                masked: Some(masked),
                folded: None,
            };
            self.write_masked_function(f)?;
            self.write_wrapper(f)
        } else {
            let f = Func {
                kernel,
                function,
                functions: self.functions,
                masked: None,
                folded: None,
            };
            self.write_native_function(f)
        }
    }

    /// A callee that was not given: the call's signature, returning zero.
    fn write_stub(&mut self, function: &Function<'_>, params: &[Type], ret: Type) -> fmt::Result {
        let name = if self.emulated() {
            &function.masked
        } else {
            &function.name
        };
        write!(self.out, "{} {name}(", type_name(ret))?;
        if self.emulated() {
            write!(self.out, "bool ballot_active_in")?;
        }
        for (i, ty) in params.iter().enumerate() {
            let sep = if i == 0 && !self.emulated() { "" } else { ", " };
            write!(self.out, "{sep}{} ballot_p{i}", type_name(*ty))?;
        }
        writeln!(self.out, ") {{\n    return {};\n}}\n", zero(ret))
    }

    /// `R name(params) {` or `void name(params) {`, and the locals.
    fn write_head(&mut self, f: Func<'_>, name: &str, masked: bool) -> fmt::Result {
        self.write_signature(f, name, masked)?;
        writeln!(self.out, " {{")?;
        self.write_locals(f, Level(1))
    }

    /// `R name(params)` or `void name(params)`, without the body.
    fn write_signature(&mut self, f: Func<'_>, name: &str, masked: bool) -> fmt::Result {
        let ret = f.kernel.ret.map_or("void", type_name);
        write!(self.out, "{ret} {name}(")?;
        if masked {
            write!(self.out, "bool ballot_active_in")?;
        }
        for (i, param) in f.kernel.params.iter().enumerate() {
            let sep = if i == 0 && !masked { "" } else { ", " };
            let ty = type_name(f.kernel.locals[param.local].ty);
            write!(
                self.out,
                "{sep}{ty} {}",
                f.function.locals[param.local.index()]
            )?;
        }
        write!(self.out, ")")
    }

    /// Declares every local that is not a parameter, zeroed: the IR may
    /// declare a local in a branch and read it after, and emulated code
    /// evaluates everything in inactive invocations too.
    fn write_locals(&mut self, f: Func<'_>, level: Level) -> fmt::Result {
        for (handle, local) in f.kernel.locals.iter() {
            if f.kernel.params.iter().any(|p| p.local == handle) {
                continue;
            }
            let name = &f.function.locals[handle.index()];
            let (ty, zero) = (type_name(local.ty), zero(local.ty));
            writeln!(self.out, "{level}{ty} {name} = {zero};")?;
        }
        Ok(())
    }

    /// A fresh name for a generated local: `ballot_<what><n>`.
    fn temp(&mut self, what: &str) -> String {
        self.temps += 1;
        format!("ballot_{what}{}", self.temps)
    }
}

use crate::back::Level;

/// The emulated target's constants, followed by a blank line: the virtual
/// subgroup size, the invocations per workgroup and the exchange memory's
/// layout (`ExchangeMemory`), which the helpers read. With the `guard`
/// (polyfill libraries), a spare slot takes the writes of invocations past
/// the workgroup.
pub fn emulated_constants(options: &ShaderOptions, guard: bool, slots: u32) -> String {
    let e = ExchangeMemory::new(options, guard, slots);
    let [workgroup, padded, half] = [e.workgroup, e.padded, e.half].map(|n| format!("{n}u"));
    constants(&e, &workgroup, &padded, &half)
}

/// [`emulated_constants`] for a shader whose workgroup size the pipeline
/// specialises (`layout(local_size_x_id = …) in;`): the invocations per
/// workgroup, and the exchange memory's sizes that follow from them, are
/// specialisation-constant expressions of `gl_WorkGroupSize`, so that the
/// arrays and the ragged last subgroup follow the size the pipeline gives
/// (Vulkan GLSL sizes arrays by such expressions); the virtual subgroup's
/// constants stay literals. glslang reads `gl_WorkGroupSize` as the layout
/// declared so far, so the text must come after the shader's
/// `layout(…) in;`. No guard: the libraries know their size.
pub fn specialised_emulated_constants(options: &ShaderOptions, slots: u32) -> String {
    let e = ExchangeMemory::new(options, false, slots);
    // Whole virtual subgroups, and whole uvec4s of flags: ExchangeMemory's
    // padding, as an expression.
    let unit = e.subgroup.max(4);
    let padded = format!(
        "(ballot_workgroup_size + {}u) / {unit}u * {unit}u",
        unit - 1
    );
    constants(
        &e,
        "gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z",
        &padded,
        "ballot_padded_size",
    )
}

/// The constants block of both: the invocations per workgroup, the padded
/// size and a half's size as GLSL expressions, the rest from `e`.
fn constants(e: &ExchangeMemory, workgroup: &str, padded: &str, half: &str) -> String {
    format!(
        "const uint ballot_subgroup_size = {}u;\nconst uint ballot_workgroup_size = {workgroup};\n\
         const uint ballot_padded_size = {padded};\nconst uint ballot_exchange_size = {half};\n\
         const uint ballot_subgroup_chunks = {}u;\nconst uint ballot_exchange_slots = {}u;\n\
         const uint ballot_slot_stride = 2u * ballot_exchange_size;\n\n",
        e.subgroup, e.chunks, e.slots
    )
}

/// The GLSL spelling of a type.
const fn type_name(ty: Type) -> &'static str {
    shading::type_name(Language::Glsl, ty)
}

/// The zero value of a type.
const fn zero(ty: Type) -> &'static str {
    shading::zero(Language::Glsl, ty)
}

/// The writer is where the shared walks ([`shading`]) write.
impl<W: Write> Write for Writer<'_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.out.write_str(s)
    }
}
