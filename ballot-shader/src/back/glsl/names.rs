//! The GLSL names of a module's functions and locals.
//!
//! Which functions, in which order, is [`crate::lower::calls`]'s; here they
//! are named ([`name_module`]) by a [`Namer`] that also keeps the
//! extension's function names, so that no user identifier collides with
//! another, with a keyword, with a built-in or with a generated `ballot_`
//! name.

pub(super) use crate::back::namer::Function;
use crate::back::namer::{name_module, Namer};
use crate::back::Language;
use crate::lower::calls::Module;
pub(super) use crate::lower::calls::Source;
use ballot_ir::op::Op;

/// Names every function of `module` and its locals, callees first: the
/// order they are written in.
pub(super) fn name(module: Module<'_>, masked: bool) -> Vec<Function<'_>> {
    let mut namer = Namer::new(Language::Glsl);
    // The extension's functions are no keywords, but a user name that
    // shadowed one would hide it from the code that calls it.
    for op in Op::ALL {
        namer.reserve(op.glsl_name());
    }
    name_module(module, namer, masked, false)
}
