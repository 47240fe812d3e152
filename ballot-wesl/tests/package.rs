//! The package as a user's build sees it: each module is the polyfill
//! library ballot-naga writes today (`BALLOT_BLESS=1` rewrites them), and
//! a shader importing it through wesl-rs compiles to WGSL that naga
//! validates, with the capabilities each module promises to need.

use std::path::Path;

use ballot_naga::polyfill::{self, PolyfillOptions};
use ballot_shader::back::Target;
use wesl::{CodegenModule, ModulePath, PkgResolver, Router, VirtualResolver, Wesl};

/// The line each module starts with, before the library's own header.
fn header(module: &str) -> String {
    format!(
        "// The WESL module `ballot::{module}` of the ballot-wesl package, generated \
         from ballot's polyfill library: edit ballot-naga, then run \
         `BALLOT_BLESS=1 cargo test -p ballot-wesl`.\n"
    )
}

/// Every module, with the library it must hold.
fn expected() -> Vec<(&'static CodegenModule, String)> {
    let mut modules = vec![(
        &ballot_wesl::WGSL,
        polyfill::library(Target::Wgsl, &PolyfillOptions::default()).unwrap(),
    )];
    let emulated = [
        &ballot_wesl::WGSL_NO_SUBGROUP,
        &ballot_wesl::WGSL_NO_SUBGROUP_W128,
        &ballot_wesl::WGSL_NO_SUBGROUP_W256,
    ];
    for (module, (name, subgroup_size, invocations)) in
        emulated.into_iter().zip(ballot_wesl::EMULATED)
    {
        assert_eq!(module.name, name);
        let options = PolyfillOptions {
            subgroup_size,
            workgroup_size: [invocations, 1, 1],
        };
        modules.push((
            module,
            polyfill::library(Target::WgslNoSubgroup, &options).unwrap(),
        ));
    }
    modules
        .into_iter()
        .map(|(module, library)| (module, format!("{}{library}", header(module.name))))
        .collect()
}

#[test]
fn every_module_is_the_library_ballot_naga_writes() {
    let bless = std::env::var_os("BALLOT_BLESS").is_some();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/shaders");
    let mut stale = Vec::new();
    for (module, text) in expected() {
        if module.source != text {
            stale.push(module.name);
            if bless {
                std::fs::write(dir.join(format!("{}.wesl", module.name)), &text).unwrap();
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale modules (run `BALLOT_BLESS=1 cargo test -p ballot-wesl`, then rebuild): {stale:?}"
    );
    let names: Vec<&str> = ballot_wesl::ROOT
        .submodules
        .iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(
        names,
        [
            "wgsl",
            "wgsl_no_subgroup",
            "wgsl_no_subgroup_w128",
            "wgsl_no_subgroup_w256"
        ]
    );
}

/// `root` compiled by wesl-rs with the package, as a user's build does.
pub fn compile(root: &str) -> Result<String, wesl::Error> {
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
    let compiler = Wesl::new("unused").set_custom_resolver(router);
    compiler
        .compile(&"package::main".parse().unwrap())
        .map(|result| result.to_string())
}

fn validate(wgsl: &str, capabilities: naga::valid::Capabilities) -> Result<(), String> {
    let module = naga::front::wgsl::parse_str(wgsl).map_err(|e| e.emit_to_string(wgsl))?;
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), capabilities)
        .validate(&module)
        .map(|_| ())
        .map_err(|e| format!("{e:?}"))
}

const EMULATED_SHADER: &str = "
import ballot::MODULE as ballot;

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(SIZE)
fn main(@builtin(local_invocation_index) index: u32) {
    ballot::ballot_init(index);
    let kept = ballot::subgroupBallot(true, index % 3u == 0u);
    let first = ballot::subgroupBroadcastFirst(index < 7u, index);
    out[index] = ballot::subgroupBallotExclusiveBitCount(kept) + first
        + u32(ballot::subgroupElect(true));
}
";

#[test]
fn a_shader_importing_an_emulated_module_compiles_and_needs_no_subgroups() {
    for (module, _, invocations) in ballot_wesl::EMULATED {
        let root = EMULATED_SHADER
            .replace("MODULE", module)
            .replace("SIZE", &invocations.to_string());
        let wgsl = compile(&root).unwrap_or_else(|e| panic!("{module}: {e}"));
        validate(&wgsl, naga::valid::Capabilities::empty())
            .unwrap_or_else(|e| panic!("{module}: naga rejects wesl-rs's output: {e}\n{wgsl}"));
    }
}

#[test]
fn a_shader_importing_the_hardware_module_compiles_with_subgroups() {
    let root = "
import ballot::wgsl::{ballot_init, subgroupBallotBitCount, subgroupElect};

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(
    @builtin(local_invocation_index) index: u32,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) size: u32,
) {
    ballot_init(lane, size);
    out[index] = subgroupBallotBitCount(subgroupBallot(true)) + u32(subgroupElect());
}
";
    let wgsl = compile(root).unwrap_or_else(|e| panic!("{e}"));
    validate(&wgsl, naga::valid::Capabilities::SUBGROUP)
        .unwrap_or_else(|e| panic!("naga rejects wesl-rs's output: {e}\n{wgsl}"));
    // Without subgroups the same shader is refused: the module calls the
    // device's own.
    assert!(validate(&wgsl, naga::valid::Capabilities::empty()).is_err());
}

#[test]
fn an_item_the_module_lacks_is_wesl_rs_s_error_naming_it() {
    let root = "
import ballot::wgsl_no_subgroup::subgroupShuffle;
@compute @workgroup_size(64)
fn main() { let x = subgroupShuffle(1u, 0u); }
";
    let error = compile(root).unwrap_err().to_string();
    assert!(error.contains("subgroupShuffle"), "{error}");
}
