//! The polyfill libraries as a WESL package (`ballot-wesl`), the way a
//! Bevy or wgpu program uses them: a shader that `import`s `ballot::wgsl`
//! or `ballot::wgsl_no_subgroup` is compiled by wesl-rs, validated by naga
//! and run on the driver (lavapipe in CI). Every invocation's output is
//! compared with values computed from the spec's definitions, as the
//! naga_oil test does, with the same records.
//!
//! Compilation and validation need no GPU; without a Vulkan adapter the
//! run is skipped (loudly), unless `BALLOT_REQUIRE_GPU=1`.

use ballot_runner::Gpu;
use ballot_shader::back::Target;
use wesl::{ModulePath, PkgResolver, Router, VirtualResolver, Wesl};

mod common;
#[path = "common/records.rs"]
mod records;

use common::{loud, skip};
use records::{check, EMULATED_SIZE, RECORDS, WORKGROUP, WORKGROUPS};

/// `root` compiled by wesl-rs with the package, as a build script does.
fn compile(target: Target, root: &str) -> String {
    let mut user = VirtualResolver::new();
    user.add_module(
        "package::main".parse::<ModulePath>().unwrap(),
        root.to_string().into(),
    );
    let mut packages = PkgResolver::new();
    packages.add_package(&ballot_wesl::PACKAGE);
    let mut router = Router::new();
    router.mount_resolver("package".parse::<ModulePath>().unwrap(), user);
    router.mount_fallback_resolver(packages);
    let wgsl = Wesl::new("unused")
        .set_custom_resolver(router)
        .compile(&"package::main".parse().unwrap())
        .unwrap_or_else(|e| panic!("{target}: wesl-rs: {e}"))
        .to_string();
    let capabilities = if target.has_subgroups() {
        naga::valid::Capabilities::SUBGROUP
    } else {
        naga::valid::Capabilities::empty()
    };
    let module = naga::front::wgsl::parse_str(&wgsl)
        .unwrap_or_else(|e| panic!("{target}: {}", e.emit_to_string(&wgsl)));
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), capabilities)
        .validate(&module)
        .unwrap_or_else(|e| panic!("{target}: naga rejects wesl-rs's output: {e:?}\n{wgsl}"));
    wgsl
}

#[test]
fn wesl_rs_compiles_the_package_and_the_driver_agrees_with_the_spec() {
    // The package's emulated module is the one the records expect.
    assert_eq!(
        ballot_wesl::EMULATED[0],
        ("wgsl_no_subgroup", EMULATED_SIZE, WORKGROUP[0])
    );
    let cases = [
        (
            Target::Wgsl,
            compile(
                Target::Wgsl,
                &records::wgsl_shader("import ballot::wgsl as ballot;"),
            ),
        ),
        (
            Target::WgslNoSubgroup,
            compile(
                Target::WgslNoSubgroup,
                &records::wgsl_no_subgroup_shader("import ballot::wgsl_no_subgroup as ballot;"),
            ),
        ),
    ];
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip("the WESL package on a driver", &e.to_string()),
    };
    loud(&format!("the WESL package on {}", gpu.describe()));
    for (target, text) in &cases {
        if let Some(why) = gpu.unsupported(*target) {
            skip(&format!("the WESL package's `{target}` module"), &why);
            continue;
        }
        let invocations = (WORKGROUP[0] * WORKGROUPS[0]) as usize;
        let out = gpu
            .run_storage(
                *target,
                text,
                WORKGROUP,
                WORKGROUPS,
                invocations * RECORDS * 4,
            )
            .unwrap_or_else(|e| panic!("{target}: {e}\n{text}"));
        let (compared, sizes) = check(*target, &gpu, &out);
        loud(&format!(
            "WESL `{target}` module: {invocations} invocations in subgroups of {sizes:?}, \
             {compared} values agree with the spec"
        ));
    }
}
