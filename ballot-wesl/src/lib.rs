//! ballot's subgroup polyfills as a [WESL](https://wesl-lang.dev) package,
//! for programs that compose their shaders with
//! [wesl-rs](https://docs.rs/wesl), as Bevy does.
//!
//! WGSL has `subgroupBallot` but none of its helpers (`BitCount`,
//! `FindLSB`, the lane masks, `Elect`, …), and Firefox, older Safari and
//! many GL drivers have no subgroups at all. The package's modules are
//! ballot's polyfill libraries (`ballot::polyfill::library`), unchanged
//! but for a header line:
//!
//! | module | for | init call |
//! |---|---|---|
//! | `ballot::wgsl` | wgpu's `Features::SUBGROUP` (native, or the browser with `enable subgroups;` in your root module) | `ballot_init(subgroup_invocation_id, subgroup_size)` |
//! | `ballot::wgsl_no_subgroup` | every WebGPU device: virtual subgroups of 32 in a workgroup of 64 invocations | `ballot_init(local_invocation_index)` |
//! | `ballot::wgsl_no_subgroup_w128` | the same, in a workgroup of 128 | the same |
//! | `ballot::wgsl_no_subgroup_w256` | the same, in a workgroup of 256 | the same |
//!
//! Every name, init call and calling rule is the library's own: the
//! comment at the top of each module says them, and `ballot::polyfill`'s
//! docs in full. On the emulated modules, `subgroupBallot`, `subgroupElect`
//! and the broadcasts take `on` first (whether the invocation takes part),
//! and every invocation of the workgroup must call them, in uniform
//! control flow; the workgroup must have exactly the module's invocation
//! count. For another virtual subgroup size or workgroup, write the
//! library with `ballot::polyfill::library` (or `ballot polyfill
//! --target wgsl-no-subgroup --subgroup-size S --workgroup-size W`) and
//! give it to wesl-rs as a module of your own.
//!
//! ```wgsl
//! // main.wesl
//! import ballot::wgsl_no_subgroup as ballot;
//!
//! @group(0) @binding(0) var<storage, read_write> out: array<u32>;
//!
//! @compute @workgroup_size(64)
//! fn main(@builtin(local_invocation_index) index: u32) {
//!     ballot::ballot_init(index);
//!     let kept = ballot::subgroupBallot(true, index % 3u == 0u);
//!     out[index] = ballot::subgroupBallotExclusiveBitCount(kept);
//! }
//! ```
//!
//! In a build script, with your shaders in `src/shaders`:
//!
//! ```no_run
//! let mut compiler = wesl::Wesl::new("src/shaders");
//! compiler.add_package(&ballot_wesl::PACKAGE);
//! let wgsl = compiler.compile(&"package::main".parse().unwrap())?.to_string();
//! # Ok::<(), wesl::Error>(())
//! ```
//!
//! The modules are generated, and a test compares each with what
//! ballot-naga writes today; their wesl-rs output is validated by naga and
//! run on a driver in ballot's tests.

use wesl::{CodegenModule, CodegenPkg};

/// The package, for `Wesl::add_package` / `PkgResolver::add_package`:
/// imported as `ballot`.
pub static PACKAGE: CodegenPkg = CodegenPkg {
    crate_name: "ballot_wesl",
    root: &ROOT,
    dependencies: &[],
};

/// The package's root module, `ballot`: empty but for its submodules.
pub static ROOT: CodegenModule = CodegenModule {
    name: "ballot",
    source: "",
    submodules: &[
        &WGSL,
        &WGSL_NO_SUBGROUP,
        &WGSL_NO_SUBGROUP_W128,
        &WGSL_NO_SUBGROUP_W256,
    ],
};

/// `ballot::wgsl`: the helpers over the device's own subgroups.
pub static WGSL: CodegenModule = CodegenModule {
    name: "wgsl",
    source: include_str!("shaders/wgsl.wesl"),
    submodules: &[],
};

/// `ballot::wgsl_no_subgroup`: virtual subgroups of 32 in workgroups of
/// 64 invocations, in workgroup memory.
pub static WGSL_NO_SUBGROUP: CodegenModule = CodegenModule {
    name: "wgsl_no_subgroup",
    source: include_str!("shaders/wgsl_no_subgroup.wesl"),
    submodules: &[],
};

/// `ballot::wgsl_no_subgroup_w128`: virtual subgroups of 32 in workgroups
/// of 128 invocations.
pub static WGSL_NO_SUBGROUP_W128: CodegenModule = CodegenModule {
    name: "wgsl_no_subgroup_w128",
    source: include_str!("shaders/wgsl_no_subgroup_w128.wesl"),
    submodules: &[],
};

/// `ballot::wgsl_no_subgroup_w256`: virtual subgroups of 32 in workgroups
/// of 256 invocations.
pub static WGSL_NO_SUBGROUP_W256: CodegenModule = CodegenModule {
    name: "wgsl_no_subgroup_w256",
    source: include_str!("shaders/wgsl_no_subgroup_w256.wesl"),
    submodules: &[],
};

/// What each emulated module was written for: its name, the virtual
/// subgroup size and the workgroup's invocation count.
pub const EMULATED: [(&str, u32, u32); 3] = [
    ("wgsl_no_subgroup", 32, 64),
    ("wgsl_no_subgroup_w128", 32, 128),
    ("wgsl_no_subgroup_w256", 32, 256),
];
