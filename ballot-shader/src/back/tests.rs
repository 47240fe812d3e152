//! The printers' helper texts against the lowering's registry of helpers:
//! every helper a module can need has a text in each language, after what
//! it needs. Here rather than in `lower`, which names no printer.

use super::{glsl, wgsl};
use crate::lower::helpers::{Helper, Needs};
use ballot_ir::ir::MaskFn;
use ballot_ir::op::Op;
use ballot_ir::target::Language;

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

/// [`family_source`], lowered.
pub(crate) fn family_kernel() -> ballot_ir::ir::Kernel {
    let item: syn::ItemFn =
        syn::parse_str(&ballot_testkit::kernels::family_source()).expect("Rust");
    match ballot_front::lower(&item) {
        Ok(lowered) => lowered.kernel,
        Err(e) => panic!(
            "kernel rejected: {e}\n{}",
            ballot_testkit::kernels::family_source()
        ),
    }
}

/// Where a native target has an operation, no helper stands in; the
/// emulated targets have one for every operation.
#[test]
fn helpers_stand_in_only_where_the_target_lacks_the_operation() {
    for op in Op::ALL {
        assert_eq!(Helper::of_op(op, Language::Glsl, false), None, "{op:?}");
        assert!(Helper::of_op(op, Language::Glsl, true).is_some(), "{op:?}");
        assert!(Helper::of_op(op, Language::Wgsl, true).is_some(), "{op:?}");
        let lacks = op.wgsl_name().is_none() || op == Op::Elect;
        assert_eq!(
            Helper::of_op(op, Language::Wgsl, false).is_some(),
            lacks,
            "{op:?}"
        );
    }
}

/// `ballot_identity`'s text in each language against the spec's
/// identities (`ops::Arithmetic::identity`), through the numbering the
/// printers pass (`shading::arith_code`): the value of every case, the
/// default's 0 included.
#[test]
fn the_identity_text_gives_each_operation_its_identity() {
    use ballot_ir::op::ArithOp;
    use ballot_sim::ops::Arithmetic;
    let spec = |op: ArithOp| -> u32 {
        match op {
            ArithOp::FAdd | ArithOp::FMul | ArithOp::FMin | ArithOp::FMax => {
                <f32 as Arithmetic>::identity(op).unwrap().to_bits()
            }
            ArithOp::SMin | ArithOp::SMax => <i32 as Arithmetic>::identity(op).unwrap() as u32,
            _ => <u32 as Arithmetic>::identity(op).unwrap(),
        }
    };
    for language in [Language::Glsl, Language::Wgsl] {
        let text = super::tests::text(language, Helper::Identity, true).expect("a text");
        // The value of each `case` label, reading fall-through labels
        // (GLSL's `case 5u:` over `case 10u: return ..`) with the next
        // value.
        let mut table = std::collections::BTreeMap::new();
        let mut pending = Vec::new();
        let mut default = None;
        for line in text.lines().map(str::trim) {
            let at = line.find("return");
            if line.starts_with("case") {
                let labels = &line[..at.unwrap_or(line.len())];
                pending.extend(
                    labels
                        .split(|c: char| !c.is_ascii_alphanumeric())
                        .filter_map(|w| w.strip_suffix('u')?.parse::<u32>().ok()),
                );
            }
            let Some(at) = at else { continue };
            let value = &line[at..];
            let number = value
                .split(|c: char| !c.is_ascii_alphanumeric())
                .find_map(|w| {
                    let w = w.strip_suffix('u')?;
                    match w.strip_prefix("0x") {
                        Some(hex) => u32::from_str_radix(hex, 16).ok(),
                        None => w.parse().ok(),
                    }
                })
                .expect("a constant");
            if line.starts_with("default") {
                default = Some(number);
            }
            for code in pending.drain(..) {
                table.insert(code, number);
            }
        }
        for op in ArithOp::ALL {
            let code = crate::back::shading::arith_code(op);
            let text_value = table.get(&code).copied().or(default).expect("a value");
            assert_eq!(text_value, spec(op), "{language:?} {op:?}");
        }
    }
}
