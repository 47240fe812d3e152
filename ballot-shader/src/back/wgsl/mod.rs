//! IR → WGSL, for the targets `wgsl`, `wgsl-web` and `wgsl-no-subgroup`,
//! in both [`Form`]s.
//!
//! [`crate::back::emit`] reaches it with a resolved module; it plans the
//! module first (`plan`: names, folded constants, helpers, directives),
//! then writes it through a `Writer`:
//! - On the native targets (`wgsl`, `wgsl-web`) a kernel keeps its
//!   structured control flow (`native`): the GPU provides the divergence,
//!   and the ballot operations WGSL lacks are generated helpers.
//! - On `wgsl-no-subgroup` a kernel is if-converted (`masked`), so that
//!   every invocation reaches every barrier of the exchange through
//!   workgroup memory that emulates the subgroup.
//!
//! Rules that keep the text valid for naga and Tint whatever the kernel:
//! - Every unary and binary expression is parenthesised, so that
//!   `f(a, x < k, y >= z)` can never parse as a template list.
//! - Kernel locals are `var`s, never `let`s: naga propagates constant
//!   `let`s, and a constant `x / 0u` or `x << 40u` is rejected.
//! - Sub-expressions made only of constants are folded with the IR's
//!   semantics ([`crate::lower::fold`]), and a constant divisor of zero is written out, so
//!   WGSL never evaluates an operation at shader-creation time that could
//!   fail there.
//! - NaN and the infinities go through a function, `ballot_f32_bits`.
//!
//! # Limitations
//! - On the native targets, a ballot after divergent control flow sees the
//!   lanes the GPU has reconverged. WGSL does not promise reconvergence;
//!   GPUs reconverge at the end of an `if` and a loop in practice, which is
//!   what the native simulator models.
//! - `f32 % f32` is WGSL's `x - y * trunc(x / y)`, which can differ from
//!   Rust's exact remainder in the last bits; integer-to-float conversions
//!   round as the GPU does.

mod compute;
mod expr;
pub mod helpers;
mod masked;
mod named;
mod native;

#[cfg(test)]
mod tests;

use core::fmt::{self, Write as _};

use crate::back::forms::Forms;
use crate::back::shading::{self, Func};
use crate::back::{Form, Language, Level, Request, ShaderOptions, Target};
use crate::lower;
use crate::lower::fold::Folded;
use crate::lower::helpers::ExchangeMemory;
use crate::lower::masked::Masked;
use ballot_ir::ir::Type;
use named::{Function, Named, Source};

/// Prints the WGSL targets for [`crate::back::write_forms`] (a GLSL
/// target as the WGSL one with the same subgroup support), in each form of
/// the request at once ([`Forms`]). WGSL needs no validation mode.
pub(crate) fn write(request: Request<'_>) -> Forms {
    let (target, web) = match request.target {
        Target::Wgsl | Target::WgslNoSubgroup => (request.target, false),
        // The `wgsl` module, after the directives Tint needs.
        Target::WgslWeb => (Target::Wgsl, true),
        Target::Glsl => (Target::Wgsl, false),
        Target::GlslNoSubgroup => (Target::WgslNoSubgroup, false),
    };
    let plan = Named::new(target, request.plan, request.options);
    let mut forms = Forms::new(request.wanted);
    // Writing into `Forms` cannot fail.
    if web {
        let _ = write_web_directives(&mut forms, request.plan.needs_uniformity_diagnostic());
    }
    let _ = Writer::new(&mut forms, &plan).write_module();
    forms
}

/// What makes the `wgsl` module the `wgsl-web` one: `enable subgroups;`
/// and, where a ballot sits in control flow Tint cannot prove uniform, the
/// diagnostic that lets it through. Everything after them is the `wgsl`
/// text, byte for byte, so naga's verdict on that text is the verdict on
/// this one (naga rejects the directives themselves).
fn write_web_directives(out: &mut impl fmt::Write, diagnostic_off: bool) -> fmt::Result {
    writeln!(
        out,
        "// Target `wgsl-web`: the `wgsl` module below, after the directives Tint needs."
    )?;
    writeln!(out, "enable subgroups;")?;
    if diagnostic_off {
        writeln!(out, "diagnostic(off, subgroup_uniformity);")?;
    }
    writeln!(out)
}

/// The WGSL spelling of a type.
const fn type_name(ty: Type) -> &'static str {
    shading::type_name(Language::Wgsl, ty)
}

/// Writes one planned module.
pub(crate) struct Writer<'p, W> {
    out: W,
    plan: &'p Named<'p>,
}

/// The writer is where the shared walks ([`shading`]) write.
impl<W: fmt::Write> fmt::Write for Writer<'_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.out.write_str(s)
    }
}

impl Writer<'_, &mut Forms> {
    /// The whole module in both forms at once: header, lane state,
    /// helpers, the kernels' functions, and the compute shader's bindings
    /// and `main`. The first header line names the form; the library's
    /// usage comment, and the compute shader's bindings and `main`, are
    /// their form's alone.
    fn write_module(&mut self) -> fmt::Result {
        self.write_header()?;
        self.write_lane_state()?;
        let plan = self.plan;
        for helper in &plan.helpers {
            writeln!(self.out)?;
            self.out
                .write_str(helpers::text(*helper, plan.emulated()).unwrap_or_default())?;
        }
        self.out.only(Some(Form::ComputeShader));
        self.write_bindings()?;
        self.out.only(None);
        for ((function, folded), masked) in plan.functions.iter().zip(plan.folded).zip(plan.masked)
        {
            self.write_function(function, folded, masked.as_ref())?;
        }
        self.out.only(Some(Form::ComputeShader));
        self.write_main()?;
        self.out.only(None);
        Ok(())
    }

    fn write_header(&mut self) -> fmt::Result {
        let plan = self.plan;
        let entry = plan.entry().map_or("", |f| f.name.as_str());
        for (form, what) in [
            (Form::Helpers, "Helper functions"),
            (Form::ComputeShader, "A compute shader"),
        ] {
            self.out.only(Some(form));
            writeln!(
                self.out,
                "// {what} for kernel `{entry}`, target `{}`, written by ballot.",
                plan.target
            )?;
        }
        self.out.only(Some(Form::Helpers));
        self.write_usage()?;
        self.out.only(None);
        self.out.write_str(
            "// Where the spec leaves a result undefined, these functions return a\n\
             // documented value: FindLSB / FindMSB with no bit below the subgroup size\n\
             // give 0xffffffffu, and BitExtract at or above the size gives false.\n",
        )
    }
}

impl<'p, W: fmt::Write> Writer<'p, W> {
    /// A writer of `plan` into `out`.
    fn new(out: W, plan: &'p Named<'p>) -> Self {
        Writer { out, plan }
    }

    /// How to call the helper form.
    fn write_usage(&mut self) -> fmt::Result {
        let init = self
            .plan
            .target
            .init()
            .map_or_else(String::new, |i| i.documented());
        if !self.plan.emulated() {
            return writeln!(
                self.out,
                "// Call {init} once at the top\n\
                 // of the entry point, with the built-in values of those names; then call\n\
                 // the kernel's function from anywhere."
            );
        }
        let options = self.plan.options;
        writeln!(
            self.out,
            "// Virtual subgroups of {} lanes in workgroups of {} invocations: subgroup s\n\
             // is local_invocation_index s * {0} .. s * {0} + {0}. Every invocation of the\n\
             // workgroup must call {init} at the top of the\n\
             // entry point, then the kernel's function in workgroup-uniform control\n\
             // flow: it holds barriers. Broadcast from an inactive or missing lane gives\n\
             // the invocation's own value.",
            options.subgroup_size,
            options.invocations_per_workgroup()
        )
    }

    /// The invocation's lane state and `ballot_init`, which sets it.
    fn write_lane_state(&mut self) -> fmt::Result {
        let plan = self.plan;
        self.out.write_str(&lane_state(
            plan.emulated(),
            plan.options,
            &plan.helpers,
            lower::share::module_slots(plan.masked.iter().flatten()),
        ))
    }

    /// A kernel's function(s), or a stub's.
    fn write_function(
        &mut self,
        function: &'p Function<'p>,
        folded: &'p Folded,
        masked: Option<&'p Masked>,
    ) -> fmt::Result {
        writeln!(self.out)?;
        match &function.source {
            Source::Kernel(kernel) => {
                let cx = Func {
                    kernel,
                    function,
                    functions: &self.plan.functions,
                    masked,
                    folded: Some(folded),
                };
                if self.plan.emulated() {
                    self.write_masked_function(cx)?;
                    self.write_wrapper(cx)
                } else {
                    self.write_native_function(cx)
                }
            }
            Source::Stub { params, ret, .. } => self.write_stub(function, params, *ret),
        }
    }

    /// `fn name(params) -> R {` and the locals.
    fn write_head(&mut self, cx: Func<'_>, name: &str, masked: bool) -> fmt::Result {
        self.write_signature(name, cx, masked)?;
        self.write_locals(cx, Level(1))
    }

    /// `fn name(params) -> R {`, with the leading `ballot_active_in: bool`
    /// of an if-converted function.
    fn write_signature(&mut self, name: &str, cx: Func<'_>, masked: bool) -> fmt::Result {
        write!(self.out, "fn {name}(")?;
        let mut separator = "";
        if masked {
            self.out.write_str("ballot_active_in: bool")?;
            separator = ", ";
        }
        for (i, param) in cx.kernel.params.iter().enumerate() {
            let ty = cx.kernel.locals[param.local].ty;
            let name = cx.function.params.get(i).map_or("", String::as_str);
            write!(self.out, "{separator}{name}: {}", type_name(ty))?;
            separator = ", ";
        }
        self.out.write_str(")")?;
        if let Some(ret) = cx.kernel.ret {
            write!(self.out, " -> {}", type_name(ret))?;
        }
        self.out.write_str(" {\n")
    }

    /// The locals as `var`s at the top of the function (WGSL scopes would
    /// not let a local declared in a branch outlive it), and copies of the
    /// parameters the kernel assigns to.
    fn write_locals(&mut self, cx: Func<'_>, level: Level) -> fmt::Result {
        let kernel = cx.kernel;
        for (i, param) in kernel.params.iter().enumerate() {
            let name = cx.local(param.local);
            let arg = cx.function.params.get(i).map_or(name, String::as_str);
            if arg != name {
                writeln!(self.out, "{level}var {name} = {arg};")?;
            }
        }
        for (handle, local) in kernel.locals.iter() {
            if !kernel.params.iter().any(|p| p.local == handle) {
                writeln!(
                    self.out,
                    "{level}var {}: {};",
                    cx.local(handle),
                    type_name(local.ty)
                )?;
            }
        }
        Ok(())
    }

    /// A stand-in for a callee that was not given: it returns zero.
    fn write_stub(&mut self, function: &Function<'_>, params: &[Type], ret: Type) -> fmt::Result {
        let name = if self.plan.emulated() {
            &function.masked
        } else {
            &function.name
        };
        writeln!(
            self.out,
            "// A stand-in for kernel `{}`, which was not given: it returns zero.",
            function.name
        )?;
        write!(self.out, "fn {name}(")?;
        let mut separator = "";
        if self.plan.emulated() {
            self.out.write_str("ballot_active_in: bool")?;
            separator = ", ";
        }
        for (i, ty) in params.iter().enumerate() {
            write!(self.out, "{separator}ballot_arg{i}: {}", type_name(*ty))?;
            separator = ", ";
        }
        let ty = type_name(ret);
        writeln!(self.out, ") -> {ty} {{\n{}return {ty}();\n}}", Level(1))
    }
}

/// The lane state and `ballot_init`, which sets it, for a module holding
/// `helpers`: `ballot_init` also computes, once, the masks of those helpers
/// that depend only on the lane and the subgroup size (`helpers::init`).
/// The emulated targets' constants come first.
pub fn lane_state(
    emulated: bool,
    options: &ShaderOptions,
    helpers: &std::collections::BTreeSet<helpers::Helper>,
    slots: u32,
) -> String {
    if emulated {
        return emulated_lane_state(options, helpers, slots, WorkgroupCount::Fixed);
    }
    lane_state_after(String::new(), false, helpers)
}

/// Where an emulated module's invocation count, `ballot_workgroup_size`,
/// comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkgroupCount {
    /// A constant: the options' workgroup size.
    Fixed,
    /// The pipeline's (`@workgroup_size(n)` with `override n: u32`): an
    /// `override` the caller declares, whose initialiser is the shader's
    /// own expression, which is not the library's to rename. The exchange
    /// memory's sizes are `override`s computed from it, so that the
    /// workgroup arrays (WGSL sizes those by override-expressions) and the
    /// ragged last subgroup follow the size the pipeline gives.
    Overridden,
    /// Entry points of different sizes: a private variable each entry
    /// point sets to its own count before it calls `ballot_init`; the
    /// exchange memory is laid out for the options' size, the largest.
    PerEntry,
}

/// [`lane_state`] of an emulated target, its invocation count from
/// `count`.
pub fn emulated_lane_state(
    options: &ShaderOptions,
    helpers: &std::collections::BTreeSet<helpers::Helper>,
    slots: u32,
    count: WorkgroupCount,
) -> String {
    let guard = helpers.contains(&helpers::Helper::Guard);
    lane_state_after(
        emulated_constants(options, guard, slots, count),
        true,
        helpers,
    )
}

/// The lane state after `constants`.
fn lane_state_after(
    mut out: String,
    emulated: bool,
    helpers: &std::collections::BTreeSet<helpers::Helper>,
) -> String {
    let state = if emulated {
        EMULATED_LANE_STATE
    } else {
        NATIVE_LANE_STATE
    };
    // `ballot_init` ends the text; the masks go at its end.
    let body = state
        .strip_suffix("}\n")
        .expect("the lane state ends with ballot_init's closing brace");
    out.push_str(body);
    for init in helpers.iter().filter_map(|&h| helpers::init(h)) {
        out.push_str("    ");
        out.push_str(init);
        out.push('\n');
    }
    out.push_str("}\n");
    out
}

/// The emulated targets' constants: the virtual subgroup size, the
/// invocations per workgroup (from `count`), and the exchange memory's
/// layout ([`ExchangeMemory`]), which the helpers and lane state read.
/// With the `guard` (polyfill libraries), a spare slot takes the writes of
/// invocations past the workgroup.
pub(crate) fn emulated_constants(
    options: &ShaderOptions,
    guard: bool,
    slots: u32,
    count: WorkgroupCount,
) -> String {
    let e = ExchangeMemory::new(options, guard, slots);
    let layout = || {
        format!(
            "const ballot_padded_size: u32 = {}u;\n\
             const ballot_exchange_size: u32 = {}u;\n\
             const ballot_exchange_words: u32 = {}u;\n",
            e.padded, e.half, e.words
        )
    };
    let (sizes, derived) = match count {
        WorkgroupCount::Fixed => (
            format!(
                "const ballot_workgroup_size: u32 = {}u;\n{}",
                e.workgroup,
                layout()
            ),
            "const",
        ),
        WorkgroupCount::PerEntry => (
            format!("var<private> ballot_workgroup_size: u32;\n{}", layout()),
            "const",
        ),
        // Whole virtual subgroups, and whole vec4s of slots:
        // ExchangeMemory's padding, and its words of flag bits, as
        // expressions; no guard, as the libraries know their size.
        WorkgroupCount::Overridden => {
            let unit = e.subgroup.max(4);
            (
                format!(
                    "override ballot_padded_size: u32 = (ballot_workgroup_size + {}u) / {unit}u * {unit}u;\n\
                     override ballot_exchange_size: u32 = ballot_padded_size;\n\
                     override ballot_exchange_words: u32 = (ballot_padded_size + 31u) / 32u;\n",
                    unit - 1
                ),
                "override",
            )
        }
    };
    constants(&e, &sizes, derived)
}

/// The constants block of every count: the workgroup's `sizes` as declared, the
/// rest from `e`, and what follows from the sizes declared as `derived`
/// (`const`, or `override` where the sizes are overrides).
fn constants(e: &ExchangeMemory, sizes: &str, derived: &str) -> String {
    // The workgroup arrays are sized by bare names: naga gives an array
    // size that is an override-expression of its own an unnamed override,
    // which its pipeline-constant pass (naga 30's `process_overrides`)
    // reaches as `unreachable!()` when a named override follows it.
    format!(
        "\n// The virtual subgroup size, the invocations per workgroup, the slots\n\
         // of whole virtual subgroups they fill, the slots of each half of the\n\
         // broadcast values, the words of flag bits per exchange buffer, and a\n\
         // virtual subgroup's words; the ballots one exchange holds, the words\n\
         // of each one's buffers, and the lengths of the exchange arrays.\n\
         const ballot_subgroup_size: u32 = {}u;\n\
         {sizes}\
         const ballot_subgroup_words: u32 = {}u;\n\
         const ballot_exchange_slots: u32 = {}u;\n\
         {derived} ballot_slot_stride: u32 = 3u * ballot_exchange_words;\n\
         {derived} ballot_words_length: u32 = ballot_exchange_slots * ballot_slot_stride;\n\
         {derived} ballot_values_length: u32 = 2u * ballot_exchange_size;\n\
         {derived} ballot_present_length: u32 = 2u * ballot_exchange_size;\n",
        e.subgroup, e.subgroup_words, e.slots
    )
}

pub(crate) const NATIVE_LANE_STATE: &str = "
// The invocation's lane id and its subgroup's size. WGSL has them only as
// entry-point built-ins, so ballot_init keeps them for the functions below.
var<private> ballot_lane: u32;
var<private> ballot_size: u32;

// Call once at the top of the entry point, with @builtin(subgroup_invocation_id)
// and @builtin(subgroup_size).
fn ballot_init(subgroup_invocation_id: u32, subgroup_size: u32) {
    ballot_lane = subgroup_invocation_id;
    ballot_size = subgroup_size;
}
";

pub(crate) const EMULATED_LANE_STATE: &str = "
// The invocation's place: its local_invocation_index, its lane, and its
// virtual subgroup's first invocation, lane count and size.
var<private> ballot_index: u32;
var<private> ballot_lane: u32;
var<private> ballot_base: u32;
var<private> ballot_count: u32;
var<private> ballot_size: u32;

// Call once at the top of the entry point, in every invocation, with
// @builtin(local_invocation_index).
fn ballot_init(local_invocation_index: u32) {
    ballot_index = local_invocation_index;
    ballot_lane = (local_invocation_index % ballot_subgroup_size);
    ballot_base = (local_invocation_index - ballot_lane);
    ballot_count = min(ballot_subgroup_size, (ballot_workgroup_size - ballot_base));
    ballot_size = ballot_subgroup_size;
}
";
