//! Compile-time validation of every shader a kernel yields.

use syn::ItemFn;

use super::timing::{timed, Phases};
use super::Options;
use crate::back::{self, Form, Missing, Target};
use crate::ir::Kernel;
use crate::valid;

/// Emits every target in every form and validates each with naga; one
/// error per failure, spanned at the kernel's name. Kernels it calls are
/// stood in for by stubs with the signature of the call: each is checked
/// when its own attribute expands. The time of each step goes to `phases`.
pub fn shaders(
    item: &ItemFn,
    kernel: &Kernel,
    options: &Options,
    phases: &mut Phases,
) -> Vec<syn::Error> {
    if !options.validate {
        return Vec::new();
    }
    let mut errors = Vec::new();
    for (t, target) in Target::ALL.into_iter().enumerate() {
        for form in Form::ALL {
            let text = timed(&mut phases.emit[t], || {
                back::emit(target, form, &[kernel], &options.shader, Missing::Stub)
            });
            let result = text.map_err(|e| e.to_string()).and_then(|text| {
                timed(&mut phases.validate[t], || {
                    valid::validate(target, form, &text)
                })
                .map_err(|e| report(&e))
            });
            if let Err(message) = result {
                let message = format!(
                    "the {form} form of target `{target}` is invalid: {message}\n\
                     (turn this check off with `#[ballot::kernel(validate = false)]` \
                     or the `skip-validation` feature)"
                );
                errors.push(syn::Error::new(item.sig.ident.span(), message));
            }
        }
    }
    errors
}

fn report(e: &valid::ValidationError) -> String {
    match (e.line, &e.line_text) {
        (Some(line), Some(text)) => {
            format!(
                "naga says, at line {line} `{}`:\n{}",
                text.trim(),
                e.message
            )
        }
        _ => format!("naga says:\n{}", e.message),
    }
}
