//! The WGSL polyfill libraries as [naga_oil](https://docs.rs/naga_oil)
//! modules, for wgpu programs that compose their shaders with naga_oil's
//! `#define_import_path` / `#import`.
//!
//! [`naga_oil_module`] returns the text of [`polyfill::library`] under a
//! `#define_import_path` line, with the import path and a file path to
//! register it under. ballot does not depend on naga_oil: hand the three to
//! naga_oil's `Composer::add_composable_module` (naga_oil 0.23, which uses
//! naga 30 as ballot does).
//!
//! | target | import path | init call |
//! |---|---|---|
//! | `wgsl` | `ballot::wgsl` | `ballot_init(subgroup_invocation_id, subgroup_size)` |
//! | `wgsl-no-subgroup` | `ballot::wgsl_no_subgroup` | `ballot_init(local_invocation_index)` |
//!
//! Every name, init call and calling rule is the library's own (see
//! [`polyfill`]'s module docs); only the inclusion differs: import the
//! module and qualify its items with the import's name.
//!
//! ```wgsl
//! #import ballot::wgsl as ballot
//!
//! @group(0) @binding(0) var<storage, read_write> out: array<u32>;
//!
//! @compute @workgroup_size(64)
//! fn main(
//!     @builtin(global_invocation_id) id: vec3<u32>,
//!     @builtin(subgroup_invocation_id) lane: u32,
//!     @builtin(subgroup_size) size: u32,
//! ) {
//!     ballot::ballot_init(lane, size);
//!     let b = subgroupBallot(lane % 2u == 1u); // WGSL's own
//!     out[id.x] = ballot::subgroupBallotExclusiveBitCount(b);
//! }
//! ```
//!
//! In Rust (naga_oil's API; `Capabilities::SUBGROUP` for `wgsl`, which
//! calls WGSL's subgroup built-ins, so that naga_oil's validation accepts
//! the module):
//!
//! ```ignore
//! use ballot::back::Target;
//! use ballot::polyfill::PolyfillOptions;
//! use naga_oil::compose::{ComposableModuleDescriptor, Composer, NagaModuleDescriptor};
//!
//! let module = ballot::compose::naga_oil_module(Target::Wgsl, &PolyfillOptions::default())?;
//! let mut composer = Composer::default().with_capabilities(naga::valid::Capabilities::SUBGROUP);
//! composer.add_composable_module(ComposableModuleDescriptor {
//!     source: module.source(),
//!     file_path: module.file_path(),
//!     ..Default::default()
//! })?;
//! let naga_module = composer.make_naga_module(NagaModuleDescriptor {
//!     source: SHADER, // the shader above
//!     file_path: "main.wgsl",
//!     ..Default::default()
//! })?;
//! ```
//!
//! # `wgsl-web`
//! There is no `wgsl-web` module: naga_oil parses every module with naga,
//! which rejects the library's `enable subgroups;` directive, and the naga
//! IR it composes carries no directive anyway. A wgpu program composing
//! with naga_oil uses the `wgsl` module whatever the backend, and turns on
//! wgpu's `Features::SUBGROUP`; [`naga_oil_module`] answers
//! [`ComposeError::Unsupported`] for `wgsl-web`, as for the GLSL targets
//! (naga_oil composes GLSL only for vertex and fragment shaders, and the
//! `glsl` library is only `#extension` lines).
//!
//! # What naga_oil does to the library
//! Nothing the library's user sees: naga_oil renames every item of a module
//! in the composed naga IR (`subgroupElect` becomes
//! `subgroupElectX_naga_oil_mod_X…X`), so the library's functions no longer
//! shadow WGSL's built-ins there, and the user's own code keeps WGSL's
//! `subgroupBallot` / `subgroupBroadcast` next to `wgsl-no-subgroup`'s
//! `ballot::subgroupBallot(on, p)`. It keeps only the items the shader uses,
//! with what they use: the private and workgroup variables and the
//! `const`s `ballot_init` and the functions read. The library's text goes
//! in unchanged; the tests compose both modules and run them on lavapipe.
//!
//! # Options
//! The `wgsl-no-subgroup` module's text depends on [`PolyfillOptions`]
//! (the virtual subgroup size and the workgroup size are `const`s in it),
//! and its import path does not: a composer holds one module per path, so
//! shaders of different workgroup sizes need one composer each (or the
//! path renamed by the caller).

use std::fmt;

use crate::polyfill::{self, PolyfillError, PolyfillOptions};
use ballot_shader::back::Target;

/// The targets that have a naga_oil module, in [`Target::ALL`]'s order.
pub const TARGETS: [Target; 2] = [Target::Wgsl, Target::WgslNoSubgroup];

/// The `#define_import_path` of `target`'s module (`ballot::wgsl`,
/// `ballot::wgsl_no_subgroup`): `ballot::` and the target's name with
/// underscores. `None` for the targets without one (see the module docs).
pub const fn import_path(target: Target) -> Option<&'static str> {
    match target {
        Target::Wgsl => Some("ballot::wgsl"),
        Target::WgslNoSubgroup => Some("ballot::wgsl_no_subgroup"),
        Target::Glsl | Target::GlslNoSubgroup | Target::WgslWeb => None,
    }
}

/// The file path under which [`naga_oil_module`] suggests registering
/// `target`'s module: naga_oil names the file in its error reports.
const fn file_path(target: Target) -> Option<&'static str> {
    match target {
        Target::Wgsl => Some("ballot/wgsl.wgsl"),
        Target::WgslNoSubgroup => Some("ballot/wgsl_no_subgroup.wgsl"),
        Target::Glsl | Target::GlslNoSubgroup | Target::WgslWeb => None,
    }
}

/// A polyfill library as a naga_oil composable module: what
/// `naga_oil::compose::ComposableModuleDescriptor` takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NagaOilModule {
    target: Target,
    import_path: &'static str,
    file_path: &'static str,
    source: String,
}

impl NagaOilModule {
    /// The library's target.
    pub fn target(&self) -> Target {
        self.target
    }

    /// The path shaders import the module by, as its `#define_import_path`
    /// line says: `#import ballot::wgsl as ballot`.
    pub fn import_path(&self) -> &'static str {
        self.import_path
    }

    /// A file path to register the module under
    /// (`ComposableModuleDescriptor::file_path`), such as
    /// `ballot/wgsl.wgsl`: naga_oil names it in error reports.
    pub fn file_path(&self) -> &'static str {
        self.file_path
    }

    /// The module's WGSL source (`ComposableModuleDescriptor::source`):
    /// the `#define_import_path` line, a comment, then the library as
    /// [`polyfill::library`] writes it.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The source, owned.
    pub fn into_source(self) -> String {
        self.source
    }
}

impl fmt::Display for NagaOilModule {
    /// The source: what a file at [`NagaOilModule::file_path`] holds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

/// Why [`naga_oil_module`] has no module to give.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ComposeError {
    /// The target has no naga_oil module: only [`TARGETS`] do.
    #[error("target `{target}` has no naga_oil module: {why}")]
    Unsupported {
        /// The target asked for.
        target: Target,
        /// Why, and what to use instead.
        why: &'static str,
    },
    /// The library could not be written: invalid options, or a bug in
    /// ballot.
    #[error(transparent)]
    Polyfill(#[from] PolyfillError),
}

/// The polyfill library of `target` (`wgsl` or `wgsl-no-subgroup`) as a
/// naga_oil module, validated with naga as [`polyfill::library`] does.
///
/// # Errors
/// [`ComposeError::Unsupported`] for the other targets;
/// [`ComposeError::Polyfill`] for invalid options.
pub fn naga_oil_module(
    target: Target,
    options: &PolyfillOptions,
) -> Result<NagaOilModule, ComposeError> {
    let (Some(import_path), Some(file_path)) = (import_path(target), file_path(target)) else {
        return Err(ComposeError::Unsupported {
            target,
            why: unsupported(target),
        });
    };
    let library = polyfill::library(target, options)?;
    let source = format!(
        "#define_import_path {import_path}\n\
         //\n\
         // The naga_oil module of ballot's polyfill library: instead of\n\
         // concatenating the text, as its comment below says, import it\n\
         // (`#import {import_path} as ballot`) and call its items through\n\
         // the import's name: `ballot::ballot_init(..)`, `ballot::subgroupElect(..)`.\n\
         {library}"
    );
    Ok(NagaOilModule {
        target,
        import_path,
        file_path,
        source,
    })
}

/// Why `target` has no module.
const fn unsupported(target: Target) -> &'static str {
    match target {
        Target::WgslWeb => {
            "naga_oil parses modules with naga, which rejects its `enable subgroups;`, and \
             composes naga IR, which carries no directive: use the `wgsl` module (with \
             wgpu's Features::SUBGROUP) on every wgpu backend"
        }
        _ => {
            "naga_oil composes GLSL only for vertex and fragment shaders: use the `wgsl` or \
             `wgsl-no-subgroup` module"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use naga_oil::compose::{
        ComposableModuleDescriptor, Composer, ImportDefinition, NagaModuleDescriptor,
        ShaderLanguage, ShaderType,
    };

    /// A shader that imports `target`'s module and calls every public
    /// function and the init call.
    fn user_shader(target: Target) -> String {
        let path = import_path(target).unwrap();
        let mut calls = vec![];
        let emulated = target == Target::WgslNoSubgroup;
        let (params, args): (_, &[&str]) = if emulated {
            ("@builtin(local_invocation_index) index: u32", &["index"])
        } else {
            (
                "@builtin(subgroup_invocation_id) lane: u32, @builtin(subgroup_size) size: u32",
                &["lane", "size"],
            )
        };
        let init = target.init().expect("a WGSL target has an init call");
        calls.push(format!(
            "{};",
            init.call_as(
                &format!("ballot::{}", ballot_shader::back::Init::NAME),
                args
            )
        ));
        if emulated {
            calls.push("let b = ballot::subgroupBallot(true, (index & 1u) == 1u);".into());
            calls.push("var e = ballot::subgroupElect(true);".into());
            calls.push("var x = ballot::subgroupBroadcast(true, 7u, 0u);".into());
            calls.push("var y = ballot::subgroupBroadcastFirst(true, 7u);".into());
            calls.push("var z = ballot::subgroupBroadcastVec4(true, b, 1u);".into());
            calls.push("var w = ballot::subgroupBroadcastFirstVec4(true, b);".into());
        } else {
            calls.push("let b = subgroupBallot(true);".into());
            calls.push("var e = ballot::subgroupElect();".into());
        }
        for f in [
            "subgroupBallotBitCount",
            "subgroupBallotInclusiveBitCount",
            "subgroupBallotExclusiveBitCount",
            "subgroupBallotFindLSB",
            "subgroupBallotFindMSB",
        ] {
            calls.push(format!("out[0] = ballot::{f}(b);"));
        }
        calls.push("e = ballot::subgroupInverseBallot(b);".into());
        calls.push("e = ballot::subgroupBallotBitExtract(b, 3u);".into());
        for f in ["Eq", "Ge", "Gt", "Le", "Lt"] {
            calls.push(format!("out[1] = ballot::subgroup{f}Mask().x;"));
        }
        // The rest of the family: every function the library defines, of
        // its value type (by suffix) and with the lane operand where the
        // operation has one.
        for op in ballot_ir::Op::ALL.into_iter().filter(|op| !op.is_ballot()) {
            for name in polyfill::function_names(target, op) {
                let suffix = &name[polyfill::function_name(target, op).len()..];
                let value = match suffix {
                    _ if matches!(op, ballot_ir::Op::All | ballot_ir::Op::Any) => "true",
                    "I32" => "7i",
                    "F32" => "1.5f",
                    "Bool" => "true",
                    "Vec4" => "b",
                    _ => "7u",
                };
                let on = if emulated { "true, " } else { "" };
                let operand = match op {
                    ballot_ir::Op::Shuffle
                    | ballot_ir::Op::ShuffleXor
                    | ballot_ir::Op::ShuffleUp
                    | ballot_ir::Op::ShuffleDown
                    | ballot_ir::Op::QuadBroadcast => ", 1u",
                    _ => "",
                };
                calls.push(format!("_ = ballot::{name}({on}{value}{operand});"));
            }
        }
        let [x, y, z] = PolyfillOptions::default().workgroup_size;
        format!(
            "#import {path} as ballot\n\n\
             @group(0) @binding(0) var<storage, read_write> out: array<u32>;\n\n\
             @compute @workgroup_size({x}, {y}, {z})\n\
             fn main({params}) {{\n    {}\n}}\n",
            calls.join("\n    ")
        )
    }

    fn compose(target: Target) -> Result<naga::Module, String> {
        let module = naga_oil_module(target, &PolyfillOptions::default()).unwrap();
        let mut composer =
            Composer::default().with_capabilities(naga::valid::Capabilities::SUBGROUP);
        composer
            .add_composable_module(ComposableModuleDescriptor {
                source: module.source(),
                file_path: module.file_path(),
                language: ShaderLanguage::Wgsl,
                ..Default::default()
            })
            .map(|_| ())
            .map_err(|e| e.emit_to_string(&composer))?;
        let source = user_shader(target);
        composer
            .make_naga_module(NagaModuleDescriptor {
                source: &source,
                file_path: "user.wgsl",
                shader_type: ShaderType::Wgsl,
                ..Default::default()
            })
            .map_err(|e| format!("{}\n{source}", e.emit_to_string(&composer)))
    }

    #[test]
    fn naga_oil_composes_every_module_and_naga_validates_the_result() {
        for target in TARGETS {
            let module = compose(target).unwrap_or_else(|e| panic!("{target}: {e}"));
            naga::valid::Validator::new(
                naga::valid::ValidationFlags::all(),
                naga::valid::Capabilities::SUBGROUP,
            )
            .validate(&module)
            .unwrap_or_else(|e| panic!("{target}: {e:?}"));
            // Every public function came along (renamed by naga_oil).
            let names: Vec<&str> = module
                .functions
                .iter()
                .filter_map(|(_, f)| f.name.as_deref())
                .collect();
            for op in ballot_ir::Op::ALL {
                let defined = polyfill::function_names(target, op);
                // The vec4 broadcasts are not called above.
                for name in defined
                    .iter()
                    .filter(|n| !n.ends_with("Vec4") || !op.is_ballot())
                {
                    let found = names.iter().any(|n| {
                        n.strip_prefix(name.as_str())
                            .is_some_and(|rest| rest.starts_with("X_naga_oil_mod_X"))
                    });
                    assert!(found, "{target}: {name} in {names:?}");
                }
                // Only WGSL's own built-ins are left to WGSL, and the
                // clustered reductions to the kernels (`polyfill::covers`).
                let native = target.has_subgroups()
                    && op.wgsl_name().is_some()
                    && op != ballot_ir::Op::Elect;
                let left = native || !polyfill::covers(op);
                assert_eq!(defined.is_empty(), left, "{target}: {op:?}");
            }
        }
    }

    #[test]
    fn modules_carry_their_import_path_and_the_library() {
        let options = PolyfillOptions::default();
        for target in TARGETS {
            let module = naga_oil_module(target, &options).unwrap();
            assert_eq!(module.target(), target);
            assert_eq!(Some(module.import_path()), import_path(target));
            assert_eq!(
                module.import_path(),
                format!("ballot::{}", target.name().replace('-', "_"))
            );
            let first = module.source().lines().next().unwrap();
            assert_eq!(
                first,
                format!("#define_import_path {}", module.import_path())
            );
            assert!(module
                .source()
                .ends_with(&polyfill::library(target, &options).unwrap()));
            assert_eq!(module.to_string(), module.source());
        }
    }

    #[test]
    fn other_targets_have_no_module() {
        for target in Target::ALL {
            let result = naga_oil_module(target, &PolyfillOptions::default());
            assert_eq!(result.is_ok(), TARGETS.contains(&target), "{target}");
            if let Err(e) = result {
                assert!(matches!(e, ComposeError::Unsupported { .. }), "{e}");
                assert!(e.to_string().contains(target.name()), "{e}");
            }
        }
    }

    #[test]
    fn invalid_options_are_the_librarys_error() {
        let options = PolyfillOptions {
            subgroup_size: 3,
            ..Default::default()
        };
        let e = naga_oil_module(Target::WgslNoSubgroup, &options).unwrap_err();
        assert!(
            matches!(e, ComposeError::Polyfill(PolyfillError::Options(_))),
            "{e}"
        );
    }

    /// Why wgsl-web has no module: naga_oil, through naga, rejects the
    /// `wgsl-web` library's directives.
    #[test]
    fn naga_oil_rejects_the_wgsl_web_library() {
        let library = polyfill::library(Target::WgslWeb, &PolyfillOptions::default()).unwrap();
        let source = format!("#define_import_path ballot::wgsl_web\n{library}");
        let mut composer =
            Composer::default().with_capabilities(naga::valid::Capabilities::SUBGROUP);
        let result = composer
            .add_composable_module(ComposableModuleDescriptor {
                source: &source,
                file_path: "ballot/wgsl_web.wgsl",
                language: ShaderLanguage::Wgsl,
                additional_imports: &[] as &[ImportDefinition],
                ..Default::default()
            })
            .map(|_| ());
        let error = match result {
            Ok(_) => {
                // Adding may defer parsing to the first use: import it.
                composer
                    .make_naga_module(NagaModuleDescriptor {
                        source: "#import ballot::wgsl_web as b\n\
                                 @compute @workgroup_size(1) fn main() { _ = b::subgroupEqMask(); }",
                        file_path: "user.wgsl",
                        shader_type: ShaderType::Wgsl,
                        ..Default::default()
                    })
                    .expect_err("naga accepted `enable subgroups;`")
                    .emit_to_string(&composer)
            }
            Err(e) => e.emit_to_string(&composer),
        };
        assert!(error.contains("`subgroups` enable-extension"), "{error}");
    }
}
