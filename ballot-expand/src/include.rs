//! `ballot::include_wgsl!` and `ballot::include_glsl!`: a hand-written
//! shader file, linked ([`ballot_naga::link`]) for one or more targets when the
//! crate builds.
//!
//! ```text
//! include_wgsl!("shaders/scan.wgsl", target = "wgsl-no-subgroup")
//! include_wgsl!("shaders/scan.wgsl", targets = ["wgsl", "wgsl-no-subgroup"], subgroup_size = 16)
//! include_glsl!("shaders/scan.comp", target = "glsl-no-subgroup", defines = ["WG=64", "FAST"],
//!     include_dirs = ["shaders/common"], vulkan = "1.2")
//! include_glsl!("shaders/blur.comp", target = "glsl-no-subgroup", opengl)
//! ```
//!
//! GLSL is judged for Vulkan 1.1 unless `vulkan = "1.2"` names a later
//! version, or `opengl` an OpenGL driver's rules (uniforms outside a
//! block, samplers without a binding).
//!
//! `target = T` expands to a `&'static str`; `targets = [..]` to an array
//! of them, in the order given. With `descriptor` (and `ballot`'s `wgpu`
//! feature), to `wgpu::ShaderModuleDescriptor`s, labelled with the path and
//! the target. The path is relative to the crate's
//! `CARGO_MANIFEST_DIR`, as Cargo's build scripts take paths. The output
//! `include_str!`s the file, so that the crate is rebuilt when it
//! changes. Every error is a `compile_error!` at the macro's argument it
//! concerns; a linking error carries the shader's own path, line, column
//! and line.
//!
//! The file is untrusted as `ballot check`'s are, and naga recurses on it
//! in rustc's own process, where an overflow kills the compiler: the macro
//! reads a regular file of at most [`MAX_SOURCE_BYTES`]
//! ([`ballot_ir::source::read`]), applies [`ballot_naga::check`]'s limits before
//! naga sees it, and links on [`check::guarded`]'s thread, whose stack holds
//! the deepest shader those limits let through even at opt-level 0, within
//! [`check::TIMEOUT`].

use std::path::{Path, PathBuf};

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::{LitInt, LitStr, Token};

use ballot_naga::check::{self, CheckError, Limits, Problem, MAX_SOURCE_BYTES};
use ballot_naga::link::{link_with, IncludeDirs, LinkOptions, VulkanVersion};
use ballot_shader::back::{Language, Target};

/// Expands `include_wgsl!` (`language` WGSL) or `include_glsl!`.
pub fn include(language: Language, input: TokenStream) -> TokenStream {
    include_within(language, input, &Limits::default())
}

/// [`include`] under `limits`: its size limits and its time limit.
fn include_within(language: Language, input: TokenStream, limits: &Limits) -> TokenStream {
    match expand(language, input, limits) {
        Ok(tokens) => tokens,
        Err(error) => error.to_compile_error(),
    }
}

/// The macro's arguments.
struct Args {
    path: LitStr,
    targets: Vec<(Target, Span)>,
    /// Whether `targets = [..]` (an array) was written.
    many: bool,
    subgroup_size: Option<LitInt>,
    /// `defines = ["NAME=VALUE", "NAME"]`: GLSL's `-D`s.
    defines: Vec<LitStr>,
    /// `include_dirs = ["shaders/common"]`: GLSL's `-I`s, relative to the
    /// crate's root.
    include_dirs: Vec<LitStr>,
    /// `descriptor`: `wgpu::ShaderModuleDescriptor`s rather than texts.
    descriptor: bool,
    /// `vulkan = "1.2"`: the Vulkan version GLSL is judged for.
    vulkan: Option<LitStr>,
    /// `opengl`: GLSL judged for OpenGL rather than Vulkan; where it was
    /// written.
    opengl: Option<Span>,
}

impl Parse for Args {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let path: LitStr = input.parse()?;
        let mut targets = None;
        let mut many = false;
        let mut subgroup_size = None;
        let mut defines = Vec::new();
        let mut include_dirs = Vec::new();
        let mut descriptor = false;
        let mut vulkan: Option<LitStr> = None;
        let mut opengl = None;
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: syn::Ident = input.parse()?;
            if key == "descriptor" {
                descriptor = true;
                continue;
            }
            if key == "opengl" {
                opengl = Some(key.span());
                continue;
            }
            input.parse::<Token![=]>()?;
            match key.to_string().as_str() {
                "target" | "targets" if targets.is_some() => {
                    return Err(syn::Error::new(key.span(), "the targets are given twice"))
                }
                "target" => targets = Some(vec![target(input)?]),
                "targets" => {
                    let list;
                    syn::bracketed!(list in input);
                    let mut all = Vec::new();
                    while !list.is_empty() {
                        all.push(target(&list)?);
                        if !list.is_empty() {
                            list.parse::<Token![,]>()?;
                        }
                    }
                    if all.is_empty() {
                        return Err(syn::Error::new(key.span(), "`targets` is empty"));
                    }
                    many = true;
                    targets = Some(all);
                }
                "subgroup_size" => subgroup_size = Some(input.parse()?),
                "defines" => defines = strings(input)?,
                "include_dirs" => include_dirs = strings(input)?,
                "vulkan" => vulkan = Some(input.parse()?),
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                            "unknown option `{other}`: the options are `target`, `targets`, \
                             `subgroup_size`, `defines`, `include_dirs`, `vulkan`, \
                             `opengl` and `descriptor`"
                        ),
                    ))
                }
            }
        }
        let targets = targets.ok_or_else(|| {
            syn::Error::new(
                path.span(),
                "no target: add `target = wgsl` (or `targets = [wgsl, wgsl-no-subgroup]`)",
            )
        })?;
        Ok(Args {
            path,
            targets,
            many,
            subgroup_size,
            defines,
            include_dirs,
            descriptor,
            vulkan,
            opengl,
        })
    }
}

/// A bracketed list of strings, `["a", "b"]`.
fn strings(input: ParseStream<'_>) -> syn::Result<Vec<LitStr>> {
    let list;
    syn::bracketed!(list in input);
    let mut all = Vec::new();
    while !list.is_empty() {
        all.push(list.parse()?);
        if !list.is_empty() {
            list.parse::<Token![,]>()?;
        }
    }
    Ok(all)
}

/// A target, as `wgsl-no-subgroup` (its words) or `"wgsl-no-subgroup"`.
fn target(input: ParseStream<'_>) -> syn::Result<(Target, Span)> {
    let (name, span) = if input.peek(LitStr) {
        let lit: LitStr = input.parse()?;
        (lit.value(), lit.span())
    } else {
        let mut name = String::new();
        let mut span = None;
        while !input.is_empty() && !input.peek(Token![,]) {
            let tree: TokenTree = input.parse()?;
            span.get_or_insert(tree.span());
            name.push_str(&tree.to_string());
        }
        (name, span.unwrap_or_else(|| input.span()))
    };
    let target = Target::ALL
        .into_iter()
        .find(|t| t.name() == name)
        .ok_or_else(|| {
            syn::Error::new(
                span,
                format!(
                    "unknown target `{name}`: one of {}",
                    Target::ALL.map(Target::name).join(", ")
                ),
            )
        })?;
    Ok((target, span))
}

fn expand(language: Language, input: TokenStream, limits: &Limits) -> syn::Result<TokenStream> {
    let args: Args = syn::parse2(input)?;
    for &(target, span) in &args.targets {
        if target.language() != language {
            let (other, wanted) = match language {
                Language::Wgsl => ("include_glsl!", "WGSL"),
                Language::Glsl => ("include_wgsl!", "GLSL"),
            };
            return Err(syn::Error::new(
                span,
                format!("`{target}` is not a {wanted} target: use {other} for it"),
            ));
        }
    }
    let mut options = LinkOptions::default();
    if let Some(size) = &args.subgroup_size {
        options.subgroup_size = size.base10_parse()?;
    }
    if let Some(version) = &args.vulkan {
        let at = |message: String| syn::Error::new(version.span(), message);
        if args.opengl.is_some() {
            return Err(at(
                "`vulkan` and `opengl` both name what GLSL is judged for: give one".to_string(),
            ));
        }
        options = options.vulkan(VulkanVersion::parse(&version.value()).map_err(at)?);
        if let Some(message) = options.api_error(language) {
            return Err(at(message));
        }
    }
    if let Some(span) = args.opengl {
        options = options.opengl();
        if let Some(message) = options.api_error(language) {
            return Err(syn::Error::new(span, message));
        }
    }
    // Each define on its own, so that an error falls on its string.
    for define in &args.defines {
        let text = define.value();
        let (name, value) = text.split_once('=').unwrap_or((&text, ""));
        let one = LinkOptions::default().define(name, value);
        if let Some(message) = one.define_error(language) {
            return Err(syn::Error::new(define.span(), message));
        }
        options = options.define(name, value);
    }
    let relative = args.path.value();
    let at = |message: String| syn::Error::new(args.path.span(), message);
    let full = resolve(&relative).map_err(at)?;
    let bytes = ballot_ir::source::read(&full, MAX_SOURCE_BYTES).map_err(|e| {
        // The path as written, not as resolved: the crate's root is the
        // user's to know, and the resolved path would name wherever the
        // build happens to run (another target directory, another
        // machine).
        let shown = if Path::new(&relative).is_absolute() {
            format!("`{relative}`")
        } else {
            format!("`{relative}` (paths are relative to the crate's root, CARGO_MANIFEST_DIR)")
        };
        at(format!("cannot read shader {shown}: {e}"))
    })?;
    if args.descriptor && language != Language::Wgsl {
        return Err(at(
            "`descriptor` is for WGSL: wgpu takes GLSL only through its `glsl` feature".into(),
        ));
    }
    // `link` admits the text too, per target; once here gives one error
    // for them all.
    let first = args.targets[0].0;
    let source = check::admit(first, &bytes, limits)
        .map_err(|problem| {
            at(CheckError {
                path: relative.clone(),
                problem,
            }
            .to_string())
        })?
        .to_owned();
    let targets: Vec<Target> = args.targets.iter().map(|&(target, _)| target).collect();
    let path = relative.clone();
    // `#include "name"` beside the shader, its path relative to the
    // crate's root as the shader's is.
    let mut includes = match std::env::var_os("CARGO_MANIFEST_DIR") {
        Some(root) => IncludeDirs::new().root(root),
        None => IncludeDirs::new(),
    };
    // Then each directory given, in order, relative to the crate's root.
    for dir in &args.include_dirs {
        if language == Language::Wgsl {
            return Err(syn::Error::new(
                dir.span(),
                "`include_dirs` is for GLSL's `#include`: WGSL has none",
            ));
        }
        let under = includes.under_root(Path::new(&dir.value()));
        if !under.is_dir() {
            return Err(syn::Error::new(
                dir.span(),
                format!("no directory `{}` under the crate's root", dir.value()),
            ));
        }
        includes = includes.dir(dir.value());
    }
    let roots = includes.clone();
    let linked = check::guarded(limits, move || {
        targets
            .into_iter()
            .map(|target| {
                link_with(&source, &path, target, &options, &includes)
                    .map(|linked| (linked.text, linked.includes))
                    .map_err(|e| e.to_string())
            })
            .collect::<Result<Vec<(String, Vec<String>)>, String>>()
    });
    let linked = match linked {
        Ok(Ok(texts)) => texts,
        Ok(Err(message)) => return Err(at(message)),
        Err(Problem::TimedOut { limit }) => {
            return Err(at(format!(
                "linking `{relative}` did not finish within {} s; a shader this slow to \
                 validate is best split, or linked in a build script (`ballot::link::Build`)",
                limit.as_secs_f64()
            )))
        }
        Err(problem) => {
            return Err(at(format!(
                "linking `{relative}` failed: {}",
                check::link_stopped(&problem)
            )))
        }
    };
    let mut texts = Vec::new();
    let included: std::collections::BTreeSet<String> = linked
        .iter()
        .flat_map(|(_, files)| files.iter().cloned())
        .collect();
    let linked: Vec<String> = linked.into_iter().map(|(text, _)| text).collect();
    for (text, &(target, _)) in linked.iter().zip(&args.targets) {
        texts.push(if args.descriptor {
            let label = format!("{relative} ({target})");
            quote!(::ballot::__private::shader_module_descriptor::<()>(#label, #text))
        } else {
            quote!(#text)
        });
    }
    // The file as a dependency of the crate: Cargo rebuilds when it changes.
    let full = full.to_string_lossy().into_owned();
    let included = included.iter().map(|file| {
        roots
            .under_root(Path::new(file))
            .to_string_lossy()
            .into_owned()
    });
    let track = quote_spanned!(args.path.span()=>
        const _: &str = ::core::include_str!(#full);
        #(const _: &str = ::core::include_str!(#included);)*
    );
    Ok(if args.many {
        quote!({ #track [#(#texts),*] })
    } else {
        quote!({ #track #(#texts)* })
    })
}

/// `relative` under `CARGO_MANIFEST_DIR`.
fn resolve(relative: &str) -> Result<PathBuf, String> {
    if Path::new(relative).is_absolute() {
        return Ok(PathBuf::from(relative));
    }
    let dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .ok_or("CARGO_MANIFEST_DIR is not set: build with Cargo")?;
    Ok(Path::new(&dir).join(relative))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The expansion of the macro for `language` on the file `name`
    /// holding `text`, under the temporary directory (an absolute path).
    fn expand_file(language: Language, target: &str, name: &str, text: &[u8]) -> String {
        let dir = std::env::temp_dir().join(format!("ballot-include-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        expand_path(language, target, &path.to_string_lossy())
    }

    fn expand_path(language: Language, target: &str, path: &str) -> String {
        include(language, quote!(#path, target = #target)).to_string()
    }

    fn chain(terms: usize) -> String {
        let mut sum = String::from("x");
        for _ in 1..terms {
            sum.push_str(" + x");
        }
        sum
    }

    /// The operator limit is 4096 a statement: this chain of 4096 operands
    /// (4095 `+`, and the `=`) is at it. On rustc's own stack naga's GLSL front end
    /// overflowed at about 200 operands, its WGSL lowerer at about 1,200.
    #[test]
    fn a_chain_at_the_operator_limit_links_on_the_deep_stack() {
        let wgsl = format!(
            "@compute @workgroup_size(64)\nfn main(@builtin(local_invocation_index) i: u32) {{\n    \
             var x = i;\n    let r = {};\n}}\n",
            chain(4096)
        );
        for target in ["wgsl", "wgsl-no-subgroup"] {
            let out = expand_file(Language::Wgsl, target, "chain.wgsl", wgsl.as_bytes());
            assert!(
                !out.contains("compile_error") && out.contains("include_str"),
                "{target}: {out:.400}"
            );
        }
        let glsl = format!(
            "#version 450\nlayout(local_size_x = 64) in;\nvoid main() {{\n    \
             uint x = gl_LocalInvocationIndex;\n    uint r = {};\n}}\n",
            chain(4096)
        );
        for target in ["glsl", "glsl-no-subgroup"] {
            let out = expand_file(Language::Glsl, target, "chain.comp", glsl.as_bytes());
            assert!(
                !out.contains("compile_error") && out.contains("include_str"),
                "{target}: {out:.400}"
            );
        }
        // One more operand is past the limit: refused before naga.
        let over = wgsl.replace("let r = x", "let r = x + x");
        let out = expand_file(Language::Wgsl, "wgsl", "over.wgsl", over.as_bytes());
        assert!(
            out.contains("compile_error")
                && out.contains("a statement holds more than 4096 operators at line 4"),
            "{out:.400}"
        );
    }

    #[test]
    fn an_else_if_chain_past_the_nesting_limit_is_refused_before_naga() {
        let arms = "else if x == 1u { x = 2u; } ".repeat(10_000);
        let text = format!(
            "@compute @workgroup_size(64)\nfn main() {{\n    var x = 1u;\n    \
             if x == 0u {{ x = 2u; }} {arms}\n}}\n"
        );
        let out = expand_file(Language::Wgsl, "wgsl", "arms.wgsl", text.as_bytes());
        assert!(
            out.contains("brackets and statements nest more than 256 deep at line 4"),
            "{out:.400}"
        );
    }

    #[test]
    fn defines_reach_glsl_and_a_bad_one_is_an_error_at_its_string() {
        let dir = std::env::temp_dir().join(format!("ballot-include-d-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("d.comp");
        std::fs::write(
            &path,
            "#version 450\nlayout(local_size_x = WG) in;\nvoid main() {}\n",
        )
        .unwrap();
        let path = path.to_string_lossy().to_string();
        let out = include(
            Language::Glsl,
            quote!(#path, target = "glsl-no-subgroup", defines = ["GL_NO=1"]),
        )
        .to_string();
        assert!(out.contains("invalid define `GL_NO`"), "{out:.400}");
        let out = include(
            Language::Wgsl,
            quote!(#path, target = "wgsl", defines = ["N"]),
        )
        .to_string();
        assert!(out.contains("WGSL has no preprocessor"), "{out:.400}");
        if ballot_testkit::have_tools("include_glsl! with defines", &[ballot_testkit::GLSLANG]) {
            let out = include(
                Language::Glsl,
                quote!(#path, target = "glsl-no-subgroup", defines = ["WG=64", "UNUSED"]),
            )
            .to_string();
            assert!(!out.contains("compile_error"), "{out:.400}");
        }
    }

    /// GL_KHR_shader_subgroup_ballot: before SPIR-V 1.5 (Vulkan 1.2) the
    /// lane of `subgroupBroadcast` must be a compile-time constant; from
    /// 1.5 it may be dynamically uniform.
    #[test]
    fn the_vulkan_version_reaches_glslang_and_a_bad_one_is_an_error_at_it() {
        let dir = std::env::temp_dir().join(format!("ballot-include-v-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("v.comp");
        std::fs::write(&path, ballot_testkit::DYNAMIC_BROADCAST_COMP).unwrap();
        let path = path.to_string_lossy().to_string();
        let out = include(
            Language::Glsl,
            quote!(#path, target = "glsl", vulkan = "1.5"),
        )
        .to_string();
        assert!(
            out.contains("unknown Vulkan version `1.5`: one of 1.1, 1.2, 1.3"),
            "{out:.400}"
        );
        let out = include(
            Language::Wgsl,
            quote!(#path, target = "wgsl", vulkan = "1.2"),
        )
        .to_string();
        assert!(out.contains("`vulkan` is for GLSL"), "{out:.400}");
        if ballot_testkit::have_tools("include_glsl! with vulkan", &[ballot_testkit::GLSLANG]) {
            let out = include(Language::Glsl, quote!(#path, target = "glsl")).to_string();
            assert!(
                out.contains("compile_error") && out.contains("from Vulkan 1.2"),
                "{out:.400}"
            );
            for version in ["1.2", "vulkan1.3"] {
                let out = include(
                    Language::Glsl,
                    quote!(#path, targets = ["glsl", "glsl-no-subgroup"], vulkan = #version),
                )
                .to_string();
                assert!(!out.contains("compile_error"), "{version}: {out:.400}");
            }
        }
    }

    /// `opengl` judges GLSL as an OpenGL driver compiles it: a plain
    /// uniform, which GLSL for Vulkan refuses, links; with `vulkan`, or
    /// for WGSL, it is an error at the option.
    #[test]
    fn opengl_reaches_glslang_and_clashes_with_vulkan() {
        let dir = std::env::temp_dir().join(format!("ballot-include-gl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("gl.comp");
        std::fs::write(
            &path,
            "#version 430 core\n#extension GL_KHR_shader_subgroup_arithmetic : require\n\
             layout(local_size_x = 64) in;\nuniform float scale;\n\
             layout(std430, binding = 0) buffer B { float d[]; };\n\
             void main() { d[gl_LocalInvocationIndex] = subgroupAdd(scale); }\n",
        )
        .unwrap();
        let path = path.to_string_lossy().to_string();
        let out = include(
            Language::Glsl,
            quote!(#path, target = "glsl", opengl, vulkan = "1.2"),
        )
        .to_string();
        assert!(out.contains("`vulkan` and `opengl`"), "{out:.400}");
        let out = include(Language::Wgsl, quote!(#path, target = "wgsl", opengl)).to_string();
        assert!(out.contains("`opengl` is for GLSL"), "{out:.400}");
        if ballot_testkit::have_tools("include_glsl! with opengl", &[ballot_testkit::GLSLANG]) {
            let out = include(Language::Glsl, quote!(#path, target = "glsl")).to_string();
            assert!(
                out.contains("compile_error") && out.contains("--opengl"),
                "{out:.400}"
            );
            let out = include(
                Language::Glsl,
                quote!(#path, targets = ["glsl", "glsl-no-subgroup"], opengl),
            )
            .to_string();
            assert!(!out.contains("compile_error"), "{out:.400}");
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn include_dirs_are_searched_and_one_that_is_not_there_is_an_error_at_it() {
        let dir = std::env::temp_dir().join(format!("ballot-include-i-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("common")).unwrap();
        std::fs::write(dir.join("common/size.h"), "#define WG 32\n").unwrap();
        let path = dir.join("i.comp");
        std::fs::write(
            &path,
            "#version 450\n#extension GL_GOOGLE_include_directive : enable\n\
             #include <size.h>\nlayout(local_size_x = WG) in;\nvoid main() {}\n",
        )
        .unwrap();
        let path = path.to_string_lossy().to_string();
        let common = dir.join("common").to_string_lossy().to_string();
        let missing = dir.join("absent").to_string_lossy().to_string();
        let out = include(
            Language::Glsl,
            quote!(#path, target = "glsl", include_dirs = [#missing]),
        )
        .to_string();
        assert!(out.contains("no directory"), "{out:.400}");
        if ballot_testkit::have_tools(
            "include_glsl! with include_dirs",
            &[ballot_testkit::GLSLANG],
        ) {
            let out = include(
                Language::Glsl,
                quote!(#path, target = "glsl-no-subgroup", include_dirs = [#common]),
            )
            .to_string();
            assert!(!out.contains("compile_error"), "{out:.400}");
            // The header is tracked for rebuilds.
            assert!(out.contains("size.h"), "{out:.400}");
        }
    }

    #[test]
    fn reads_are_bounded() {
        let big = vec![b' '; MAX_SOURCE_BYTES + 1];
        let out = expand_file(Language::Wgsl, "wgsl", "big.wgsl", &big);
        assert!(
            out.contains("the file has 16777217 bytes; the limit is 16777216"),
            "{out:.400}"
        );
        let start = std::time::Instant::now();
        let out = expand_path(Language::Wgsl, "wgsl", "/dev/zero");
        assert!(
            out.contains(
                "cannot read shader `/dev/zero`: it is a character device, not a regular file"
            ),
            "{out:.400}"
        );
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn a_link_past_the_time_limit_is_an_error_at_the_path() {
        // 20,000 ballots, which take far more than the millisecond allowed:
        // the error comes back when the limit passes, not when the work
        // ends, and names the file and the limit.
        let mut text = String::from(
            "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n\
             @compute @workgroup_size(64)\n\
             fn main(@builtin(local_invocation_index) i: u32) {\n    var t = 0u;\n",
        );
        for k in 0..20_000 {
            text.push_str(&format!(
                "    t += subgroupBallotBitCount(subgroupBallot(i > {k}u));\n"
            ));
        }
        text.push_str("    out[i] = t;\n}\n");
        let dir = std::env::temp_dir().join(format!("ballot-include-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("slow.wgsl");
        std::fs::write(&path, &text).unwrap();
        let path = path.to_string_lossy().to_string();
        let limits = Limits {
            timeout: std::time::Duration::from_millis(1),
            ..Limits::default()
        };
        let start = std::time::Instant::now();
        let out = include_within(
            Language::Wgsl,
            quote!(#path, target = "wgsl-no-subgroup"),
            &limits,
        )
        .to_string();
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        assert!(
            out.contains("compile_error")
                && out.contains("slow.wgsl` did not finish within 0.001 s"),
            "{out:.400}"
        );
    }
}
