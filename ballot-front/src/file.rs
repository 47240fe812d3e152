//! The kernels of Rust files, for tools that read kernels from source
//! (`ballot portability`): each named by its module path, each call
//! resolved to the kernel it names, and recursion refused.
//!
//! In a crate, rustc resolves a kernel's calls, and the macro refuses a
//! cycle through the items it generates (`expand`). A file read as text
//! has no rustc, so its calls are resolved here, by Rust's rules for the
//! paths a kernel may write: `name`, `self::…`, `super::…`, `crate::…` and
//! a path into an inline module. A path that names no kernel so (one
//! brought in by `use`, or a kernel of another file) falls back to the one
//! kernel of that name, if there is exactly one.

use proc_macro2::Span;

use super::Lowered;
use ballot_ir::ir::{Expr, Handle};

/// A kernel of a Rust file, named by its path.
#[derive(Clone, Debug)]
pub struct FileKernel {
    /// Which of the files given together it is in (0 for one file).
    pub file: usize,
    /// The inline modules it is in, outermost first.
    pub modules: Vec<String>,
    /// The kernel and its spans.
    pub lowered: Lowered,
}

impl FileKernel {
    /// The kernel's path in its file: `module::name`, or `name` at the top.
    pub fn path(&self) -> String {
        let mut path = self.modules.clone();
        path.push(self.lowered.kernel.name.clone());
        path.join("::")
    }
}

/// What a call of a file's kernel names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// The kernel of that index.
    Kernel(usize),
    /// No kernel of the files.
    Missing,
    /// Several kernels of that name, none of which the path names by
    /// Rust's rules: their indices.
    Ambiguous(Vec<usize>),
}

/// What `callee`, a path as a call in `kernels[caller]` writes it, names
/// among `kernels`.
pub fn resolve(kernels: &[FileKernel], caller: usize, callee: &str) -> Resolved {
    let from = &kernels[caller];
    let segments: Vec<&str> = callee.split("::").map(str::trim).collect();
    let (Some(&name), Some(mut rest)) = (segments.last(), segments.split_last().map(|s| s.1))
    else {
        return Resolved::Missing;
    };
    // The module the path starts from, then the modules it names.
    let mut module: Option<Vec<String>> = Some(from.modules.clone());
    if rest.first() == Some(&"") {
        // `::name`: an extern crate, never a kernel of the file.
        module = None;
    } else if rest.first() == Some(&"crate") {
        module = Some(Vec::new());
        rest = &rest[1..];
    }
    for &segment in rest {
        module = module.and_then(|mut m| match segment {
            "self" => Some(m),
            "super" => m.pop().map(|_| m),
            "crate" => None,
            other => {
                m.push(other.to_string());
                Some(m)
            }
        });
    }
    let named = |i: &usize| kernels[*i].lowered.kernel.name == name;
    if let Some(module) = module {
        let exact = (0..kernels.len())
            .filter(named)
            .find(|&i| kernels[i].file == from.file && kernels[i].modules == module);
        if let Some(index) = exact {
            return Resolved::Kernel(index);
        }
    }
    let same_name: Vec<usize> = (0..kernels.len()).filter(named).collect();
    match same_name.as_slice() {
        [] => Resolved::Missing,
        [only] => Resolved::Kernel(*only),
        _ => Resolved::Ambiguous(same_name),
    }
}

/// The calls of each kernel: for each call expression, what it names.
pub fn calls(kernels: &[FileKernel]) -> Vec<Vec<(Handle<Expr>, Resolved)>> {
    (0..kernels.len())
        .map(|caller| {
            kernels[caller]
                .lowered
                .kernel
                .exprs
                .iter()
                .filter_map(|(handle, expr)| match expr {
                    Expr::Call { callee, .. } => Some((handle, resolve(kernels, caller, callee))),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// Refuses kernels whose calls form a cycle: kernels cannot recurse (no
/// shading language has a call stack). The error is at the call that
/// closes the first cycle found, in file order, and names the cycle:
/// "`a` calls `b`, which calls `a`: kernels cannot recurse". Returns the
/// index of the kernel that makes that call, with the error.
///
/// # Errors
/// The first cycle, as above.
pub fn check_recursion(kernels: &[FileKernel]) -> Result<(), (usize, syn::Error)> {
    let calls = calls(kernels);
    // 0: not visited, 1: on the current path, 2: done.
    let mut state = vec![0u8; kernels.len()];
    for root in 0..kernels.len() {
        if state[root] != 0 {
            continue;
        }
        // An explicit stack of (kernel, next call to follow), so that no
        // call graph can overflow this one.
        let mut path: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(top) = path.last_mut() {
            let (kernel, next) = *top;
            top.1 += 1;
            let Some((handle, resolved)) = calls[kernel].get(next) else {
                state[kernel] = 2;
                path.pop();
                continue;
            };
            let Resolved::Kernel(callee) = *resolved else {
                continue;
            };
            match state[callee] {
                0 => {
                    state[callee] = 1;
                    path.push((callee, 0));
                }
                1 => {
                    let start = path.iter().position(|&(k, _)| k == callee).unwrap_or(0);
                    let cycle: Vec<usize> = path[start..].iter().map(|&(k, _)| k).collect();
                    let span = call_span(&kernels[kernel].lowered, *handle);
                    return Err((kernel, recursion(kernels, &cycle, span)));
                }
                _ => {}
            }
        }
    }
    Ok(())
}

fn call_span(lowered: &Lowered, call: Handle<Expr>) -> Span {
    lowered
        .spans
        .exprs
        .get(call.index())
        .copied()
        .unwrap_or_else(Span::call_site)
}

/// The message for `cycle`, kernels each calling the next, the last the
/// first.
pub(crate) fn recursion(kernels: &[FileKernel], cycle: &[usize], span: Span) -> syn::Error {
    let names: Vec<String> = cycle.iter().map(|&k| kernels[k].path()).collect();
    syn::Error::new(span, cycle_message(&names))
}

/// "`a` calls `b`, which calls `a`: kernels cannot recurse", for kernels
/// `names`, each calling the next and the last the first; "`a` calls
/// itself" for one.
pub fn cycle_message(names: &[String]) -> String {
    let Some(first) = names.first() else {
        return "kernels cannot recurse".into();
    };
    if names.len() == 1 {
        return format!("`{first}` calls itself: kernels cannot recurse");
    }
    let mut text = format!("`{first}` calls `{}`", names[1]);
    for name in names[2..].iter().chain([first]) {
        text.push_str(&format!(", which calls `{name}`"));
    }
    text.push_str(": kernels cannot recurse");
    text
}

/// The kernels of a file's items, in order, each with its modules.
pub(super) fn collect(
    items: &[syn::Item],
    modules: &mut Vec<String>,
    out: &mut Vec<FileKernel>,
) -> syn::Result<()> {
    for item in items {
        match item {
            syn::Item::Fn(f) if is_kernel(f) => {
                let name = super::scope::name_of(&f.sig.ident);
                let twice = out
                    .iter()
                    .any(|k| k.modules == *modules && k.lowered.kernel.name == name);
                if twice {
                    let mut path = modules.clone();
                    path.push(name);
                    let message = format!("kernel `{}` is defined twice", path.join("::"));
                    return Err(syn::Error::new(f.sig.ident.span(), message));
                }
                super::limits::check_depth(f)?;
                out.push(FileKernel {
                    file: 0,
                    modules: modules.clone(),
                    lowered: super::lower(f)?,
                });
            }
            syn::Item::Mod(syn::ItemMod {
                ident,
                content: Some((_, items)),
                ..
            }) => {
                modules.push(super::scope::name_of(ident));
                let result = collect(items, modules, out);
                modules.pop();
                result?;
            }
            _ => {}
        }
    }
    Ok(())
}

fn is_kernel(f: &syn::ItemFn) -> bool {
    f.attrs.iter().any(|a| {
        let path: Vec<String> = a
            .path()
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        path == ["kernel"] || path == ["ballot", "kernel"]
    })
}
