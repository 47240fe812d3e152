//! Whether a compute shader's verdict is its helper library's too: the
//! expansion validates the one text and reads naga's module to see that
//! nothing of the library refers to the compute shader's own parts.

use std::ops::Range;

use naga::valid::ModuleInfo;

use super::{Author, Parsed, ValidationError};
use ballot_shader::back::{Form, Target};

/// The verdicts on the validation-mode text of a compute shader and on its
/// library, from one validation: `compute` is naga's verdict on the text,
/// and `library`, whether the library is valid because the compute shader
/// is. `compute_only` are the parts of `text` that its library lacks
/// ([`ballot_shader::back::forms::Forms::compute_only`]); the rest, written by the
/// same writer in the same pass, is the library's text but for its own
/// comments. So the library's module is the compute shader's without what
/// those parts declare (bindings, the entry point), and a valid module
/// stays valid when items nothing else refers to are taken away: each
/// function, global and type is validated on its own and against what it
/// refers to, and an entry point only adds checks of its own. Whether
/// anything else refers to them is read off naga's module, not the text
/// (`library_stands`); where something does, or the compute shader
/// fails, `library` is false, and the library must be validated itself.
pub fn validate_with_library(
    target: Target,
    text: &str,
    compute_only: &[Range<usize>],
) -> (Result<(), ValidationError>, bool) {
    let source = Parsed::new(target, text, false, Author::Printed);
    match source.check(target.language().extension()) {
        Ok((module, info)) => (Ok(()), library_stands(&module, &info, compute_only)),
        Err(failure) => (Err(failure.error(target, Form::ComputeShader, text)), false),
    }
}

/// Whether the library of a compute shader is valid because the compute
/// shader is (see [`validate_with_library`]): nothing in `module` outside
/// the byte ranges `own`, the compute shader's own parts, refers to what
/// those parts declare. They may declare globals (the bindings, and the
/// built-ins naga's glsl-in makes globals of where `main` reads them),
/// types and functions (glsl-in's `main`, which its entry point calls); a
/// constant or override there is taken for one the library could need.
/// Entry points are the compute shader's own.
fn library_stands(module: &naga::Module, info: &ModuleInfo, own: &[Range<usize>]) -> bool {
    let inside = |span: naga::Span| {
        span.to_range()
            .is_some_and(|r| own.iter().any(|o| o.contains(&r.start)))
    };
    let declares = !declared(&module.constants, inside).is_empty()
        || !declared(&module.overrides, inside).is_empty();
    if declares {
        return false;
    }
    let globals = declared(&module.global_variables, inside);
    let functions = declared(&module.functions, inside);
    // The named types declared there, and every type made of one.
    let mut theirs = vec![false; module.types.len()];
    for (h, ty) in module.types.iter() {
        use naga::TypeInner as T;
        let made_of = match &ty.inner {
            T::Array { base, .. } | T::BindingArray { base, .. } | T::Pointer { base, .. } => {
                theirs[base.index()]
            }
            T::Struct { members, .. } => members.iter().any(|m| theirs[m.ty.index()]),
            _ => false,
        };
        theirs[h.index()] = made_of || (ty.name.is_some() && inside(module.types.get_span(h)));
    }
    let theirs = |ty: naga::Handle<naga::Type>| theirs[ty.index()];
    let mut library = module
        .functions
        .iter()
        .filter(|(h, _)| !functions.contains(h));
    let functions_stand = library.all(|(h, function)| {
        let uses = &info[h];
        let mut called = Vec::new();
        calls(&function.body, &mut called);
        globals.iter().all(|&g| uses[g].is_empty())
            && called.iter().all(|f| !functions.contains(f))
            && function.arguments.iter().all(|a| !theirs(a.ty))
            && function.result.as_ref().is_none_or(|r| !theirs(r.ty))
            && function.local_variables.iter().all(|(_, l)| !theirs(l.ty))
            && function.expressions.iter().all(|(e, _)| match uses[e].ty {
                naga::proc::TypeResolution::Handle(ty) => !theirs(ty),
                naga::proc::TypeResolution::Value(naga::TypeInner::Pointer { base, .. }) => {
                    !theirs(base)
                }
                naga::proc::TypeResolution::Value(_) => true,
            })
    });
    functions_stand
        && module
            .global_variables
            .iter()
            .all(|(h, g)| globals.contains(&h) || !theirs(g.ty))
        && module.constants.iter().all(|(_, c)| !theirs(c.ty))
}

/// The handles of the items of `arena` whose spans are `inside`.
fn declared<T>(
    arena: &naga::Arena<T>,
    inside: impl Fn(naga::Span) -> bool,
) -> Vec<naga::Handle<T>> {
    arena
        .iter()
        .map(|(h, _)| h)
        .filter(|&h| inside(arena.get_span(h)))
        .collect()
}

/// Every function `block` calls, nested blocks included.
fn calls(block: &naga::Block, out: &mut Vec<naga::Handle<naga::Function>>) {
    use naga::Statement as S;
    for statement in block.iter() {
        match statement {
            S::Call { function, .. } => out.push(*function),
            S::Block(block) => calls(block, out),
            S::If { accept, reject, .. } => {
                calls(accept, out);
                calls(reject, out);
            }
            S::Switch { cases, .. } => cases.iter().for_each(|case| calls(&case.body, out)),
            S::Loop {
                body, continuing, ..
            } => {
                calls(body, out);
                calls(continuing, out);
            }
            _ => {}
        }
    }
}
