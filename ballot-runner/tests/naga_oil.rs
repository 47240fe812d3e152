//! The polyfill libraries as naga_oil modules (`ballot_naga::compose`), the
//! way a wgpu program uses them: a shader that `#import`s `ballot::wgsl` or
//! `ballot::wgsl_no_subgroup` is composed by naga_oil's `Composer`,
//! validated by naga, written back to WGSL by naga and run on the driver
//! (lavapipe in CI). Every invocation's output is compared with values
//! computed here from the spec's definitions (docs/design.md,
//! "Semantics"), over the subgroups the records themselves reveal.
//!
//! Composition and validation need no GPU; without a Vulkan adapter the run
//! is skipped (loudly), unless `BALLOT_REQUIRE_GPU=1`.

use ballot_naga::compose;
use ballot_naga::polyfill::PolyfillOptions;
use ballot_runner::Gpu;
use ballot_shader::back::Target;
use naga_oil::compose::{
    ComposableModuleDescriptor, Composer, NagaModuleDescriptor, ShaderLanguage, ShaderType,
};

mod common;

use common::{loud, skip};

#[path = "common/records.rs"]
mod records;

use records::{check, EMULATED_SIZE, RECORDS, WORKGROUP, WORKGROUPS};

/// What each case composes and how it runs.
struct Case {
    target: Target,
    /// The shader, importing the module as naga_oil does.
    shader: fn() -> String,
    /// naga_oil's and naga's validation capabilities: the emulated module
    /// must need none.
    capabilities: naga::valid::Capabilities,
}

const CASES: [Case; 2] = [
    Case {
        target: Target::Wgsl,
        shader: || records::wgsl_shader("#import ballot::wgsl as ballot"),
        capabilities: naga::valid::Capabilities::SUBGROUP,
    },
    Case {
        target: Target::WgslNoSubgroup,
        shader: || records::wgsl_no_subgroup_shader("#import ballot::wgsl_no_subgroup as ballot"),
        capabilities: naga::valid::Capabilities::empty(),
    },
];

fn options() -> PolyfillOptions {
    PolyfillOptions {
        subgroup_size: EMULATED_SIZE,
        workgroup_size: WORKGROUP,
    }
}

/// Composes `case`'s shader with naga_oil, validates the naga module and
/// writes it as WGSL (what wgpu then compiles).
fn compose(case: &Case) -> String {
    let module = compose::naga_oil_module(case.target, &options()).unwrap();
    let mut composer = Composer::default().with_capabilities(case.capabilities);
    composer
        .add_composable_module(ComposableModuleDescriptor {
            source: module.source(),
            file_path: module.file_path(),
            language: ShaderLanguage::Wgsl,
            ..Default::default()
        })
        .map(|_| ())
        .unwrap_or_else(|e| panic!("{}: {}", case.target, e.emit_to_string(&composer)));
    let shader = (case.shader)();
    let composed = composer
        .make_naga_module(NagaModuleDescriptor {
            source: &shader,
            file_path: "user.wgsl",
            shader_type: ShaderType::Wgsl,
            ..Default::default()
        })
        .unwrap_or_else(|e| panic!("{}: {}", case.target, e.emit_to_string(&composer)));
    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), case.capabilities)
        .validate(&composed)
        .unwrap_or_else(|e| panic!("{}: naga rejects the composed module: {e:?}", case.target));
    naga::back::wgsl::write_string(&composed, &info, naga::back::wgsl::WriterFlags::empty())
        .unwrap_or_else(|e| panic!("{}: {e}", case.target))
}

#[test]
fn naga_oil_composes_the_modules_and_the_driver_agrees_with_the_spec() {
    // Composition and validation need no GPU.
    let texts: Vec<String> = CASES.iter().map(compose).collect();
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("naga_oil modules on a driver", &e.to_string()),
    };
    loud(&format!("naga_oil modules on {}", gpu.describe()));
    for (case, text) in CASES.iter().zip(&texts) {
        if let Some(why) = gpu.unsupported(case.target) {
            skip(&format!("the naga_oil `{}` module", case.target), &why);
            continue;
        }
        let invocations = (WORKGROUP[0] * WORKGROUPS[0]) as usize;
        let out = gpu
            .run_storage(
                case.target,
                text,
                WORKGROUP,
                WORKGROUPS,
                invocations * RECORDS * 4,
            )
            .unwrap_or_else(|e| panic!("{}: {e}\n{text}", case.target));
        let (compared, sizes) = check(case.target, &gpu, &out);
        loud(&format!(
            "naga_oil `{}` module: {invocations} invocations in subgroups of {sizes:?}, \
             {compared} values agree with the spec",
            case.target
        ));
    }
}
