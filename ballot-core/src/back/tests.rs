//! The printers' helper texts against the lowering's registry of helpers:
//! every helper a module can need has a text in each language, after what
//! it needs. Here rather than in `lower`, which names no printer.

use super::{glsl, wgsl};
use crate::ir::MaskFn;
use crate::lower::helpers::{Helper, Needs};
use crate::op::Op;
use crate::target::Language;

fn text(language: Language, helper: Helper, emulated: bool) -> Option<&'static str> {
    match language {
        Language::Glsl => glsl::helpers::text(helper),
        Language::Wgsl => wgsl::helpers::text(helper, emulated),
    }
}

/// What a module can need, in each language, has a text there, and
/// every helper comes after what it needs: GLSL wants a function
/// declared before its use, and the registry's order is the writing
/// order of both.
#[test]
fn every_helper_a_module_can_need_has_a_text_after_its_dependencies() {
    for language in [Language::Glsl, Language::Wgsl] {
        for emulated in [false, true] {
            let mut needs = Needs::new(language, emulated);
            for op in Op::ALL {
                if let Some(helper) = Helper::of_op(op, language, emulated) {
                    needs.add(helper);
                }
            }
            for fun in [MaskFn::Lane, MaskFn::First, MaskFn::Contains, MaskFn::Count] {
                needs.add(Helper::of_mask_fn(fun).expect("a helper"));
            }
            needs.add(Helper::F32ToU32);
            needs.add(Helper::F32ToI32);
            if emulated {
                needs.add(Helper::WorkgroupAny);
            }
            if language == Language::Glsl {
                for helper in [
                    Helper::DivU32,
                    Helper::DivI32,
                    Helper::RemU32,
                    Helper::RemI32,
                    Helper::RemF32,
                    Helper::ShlU32,
                    Helper::ShlI32,
                ] {
                    needs.add(helper);
                }
            } else {
                needs.add(Helper::F32Bits);
            }
            let set = needs.into_set();
            for helper in set {
                assert!(
                    text(language, helper, emulated).is_some(),
                    "{helper:?} has no {language:?} text (emulated: {emulated})"
                );
                for &dep in helper.deps(language, emulated) {
                    assert!(dep < helper, "{helper:?} comes before {dep:?}");
                }
            }
        }
    }
}

/// A helper's function name is in its text, in every language that
/// has one.
#[test]
fn every_function_name_is_defined_by_its_text() {
    for &helper in Helper::ALL {
        let Some(name) = helper.name() else {
            continue;
        };
        for (language, emulated) in [
            (Language::Glsl, true),
            (Language::Wgsl, false),
            (Language::Wgsl, true),
        ] {
            if let Some(text) = text(language, helper, emulated) {
                assert!(
                    text.contains(&format!("{name}(")),
                    "{helper:?}: `{name}` is not in its {language:?} text"
                );
            }
        }
    }
}
