//! The conversion on its own: what it refuses, and that what it writes
//! is valid and keeps every exchange out of divergent control flow. The
//! results on drivers are the linker's tests (`ballot-runner`).

use std::collections::BTreeMap;

use super::{convert, Exchange, ExchangeResult, Operand, Options};
use ballot_shader::back::{Language, Target};

/// Stand-ins for the linked exchanges: their signatures, with a barrier
/// each, as the emulated ones have.
const WGSL_STUBS: &str = "var<workgroup> x_word: atomic<u32>;\n\
    fn x_ballot(on: bool, p: bool) -> vec4<u32> { workgroupBarrier(); return vec4<u32>(select(0u, 1u, on && p)); }\n\
    fn x_elect(on: bool) -> bool { workgroupBarrier(); return on; }\n\
    fn x_broadcast_first(on: bool, v: u32) -> u32 { workgroupBarrier(); return v; }\n\
    fn x_any(p: bool) -> bool { if p { atomicAdd(&x_word, 1u); } return workgroupUniformLoad(&x_word) != 0u; }\n";

fn exchanges() -> BTreeMap<String, Exchange> {
    let exchange = |result, operands| Exchange { result, operands };
    [
        ("x_ballot", exchange(ExchangeResult::Mask, &[Operand::Bool])),
        ("x_elect", exchange(ExchangeResult::Bool, &[])),
        (
            "x_broadcast_first",
            exchange(ExchangeResult::Value, &[Operand::Value]),
        ),
    ]
    .into_iter()
    .map(|(n, e)| (n.to_string(), e))
    .collect()
}

fn wgsl(body: &str) -> Result<String, super::Refused> {
    let text = format!("{WGSL_STUBS}{body}");
    let exchanges = exchanges();
    let options = Options {
        exchanges: &exchanges,
        barriers: &["workgroupBarrier", "storageBarrier"],
        prefix: "x_",
        vote: "x_any",
        skip: &[],
        init_type: &|_| None,
        calls: &|_, _| None,
        macros: &[],
        hints: &[],
    };
    let (printed, _) = convert(&text, Language::Wgsl, &options)?;
    Ok(printed.text)
}

/// naga's verdict on `text`, with the emulated target's capabilities.
fn valid_wgsl(text: &str) {
    if let Err(e) = crate::valid::diagnose(Target::WgslNoSubgroup, text) {
        panic!("naga rejects the conversion: {}\n{text}", e.1.message);
    }
}

/// The function `name` of `text`, from `fn name` to the next `\n}`.
fn function<'t>(text: &'t str, name: &str) -> &'t str {
    let start = text.find(&format!("fn {name}(")).expect("the function");
    let end = text[start..]
        .find("\n}")
        .map_or(text.len(), |e| start + e + 2);
    &text[start..end]
}

const BOUNDS_GUARD: &str = "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\
    @compute @workgroup_size(64)\n\
    fn main(@builtin(local_invocation_index) i: u32) {\n\
        if i >= arrayLength(&data) { return; }\n\
        let b = x_ballot(true, data[i] > 3u);\n\
        data[i] = b.x;\n\
    }\n";

#[test]
fn a_ballot_after_an_early_return_runs_in_every_invocation() {
    let out = wgsl(BOUNDS_GUARD).unwrap();
    valid_wgsl(&out);
    let main = function(&out, "main");
    // The exchange is unguarded, with the activity; the store guarded;
    // the return a flag.
    assert!(
        main.contains("let b = x_ballot(x_active, data[i] > 3u);"),
        "{main}"
    );
    assert!(main.contains("if (x_active) { data[i] = b.x; }"), "{main}");
    assert!(!main.contains("return;"), "{main}");
    assert!(main.contains("x_ret = (x_ret || x_active);"), "{main}");
}

#[test]
fn a_loop_holding_a_ballot_leaves_by_the_workgroup_vote() {
    let out = wgsl(
        "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) i: u32) {\n\
             var seen = 0u;\n\
             for (var k = 0u; k < i % 5u; k++) {\n\
                 if k == 2u { continue; }\n\
                 seen += x_ballot(true, true).x;\n\
                 if seen > 100u { break; }\n\
             }\n\
             data[i] = seen;\n\
         }\n",
    )
    .unwrap();
    valid_wgsl(&out);
    let main = function(&out, "main");
    assert!(main.contains("if (!x_any(x_active)) { break; }"), "{main}");
    assert!(
        main.contains("let x_t"),
        "the ballot is bound before its guarded use: {main}"
    );
    assert!(!main.contains("continue;"), "{main}");
}

#[test]
fn a_function_of_the_shaders_own_takes_the_activity() {
    let out = wgsl(
        "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\
         fn count(p: bool) -> u32 {\n\
             if !p { return 0u; }\n\
             return x_ballot(true, p).x;\n\
         }\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) i: u32) {\n\
             if i % 2u == 0u {\n\
                 data[i] = count(i % 4u == 0u);\n\
             }\n\
         }\n",
    )
    .unwrap();
    valid_wgsl(&out);
    assert!(function(&out, "count").starts_with("fn count(x_active_in: bool, p: bool) -> u32"));
    let main = function(&out, "main");
    assert!(main.contains("= count(x_active, i % 4u == 0u);"), "{main}");
}

#[test]
fn the_khronos_compaction_shape_converts() {
    let out = wgsl(
        "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\
         @group(0) @binding(1) var<storage, read_write> counter: atomic<u32>;\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) i: u32) {\n\
             if data[i] != 0u {\n\
                 var base = 0u;\n\
                 if x_elect(true) { base = atomicAdd(&counter, 4u); }\n\
                 base = x_broadcast_first(true, base);\n\
                 data[i] = base;\n\
             }\n\
         }\n",
    )
    .unwrap();
    valid_wgsl(&out);
    let main = function(&out, "main");
    // The atomic happens only where the branch and the election hold.
    assert!(
        main.contains("if (x_active) { base = atomicAdd(&counter, 4u); }"),
        "{main}"
    );
}

#[test]
fn what_cannot_be_converted_is_refused_at_its_token() {
    let refused = |body: &str, at: &str| {
        let text = format!("{WGSL_STUBS}{body}");
        let e = wgsl(body).unwrap_err();
        assert_eq!(&text[e.at.clone()], at, "{}", e.message);
        e.message
    };
    let m = refused(
        "@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) {\n\
         if i > 2u && (i < 5u || x_elect(true)) { }\n}\n",
        "x_elect",
    );
    assert!(m.contains("`&&`"), "{m}");
    let m = refused(
        "@group(0) @binding(0) var<storage, read_write> c: atomic<u32>;\n\
         @compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) {\n\
         if i > 2u { return; }\nlet n = atomicAdd(&c, 1u);\nlet b = x_ballot(true, n > 1u);\n}\n",
        "n",
    );
    assert!(m.contains("give `n` its type"), "{m}");
    let m = refused(
        "@fragment fn main() -> @location(0) vec4<f32> {\n\
         let b = x_ballot(true, true);\nreturn vec4<f32>(f32(b.x));\n}\n",
        "main",
    );
    assert!(m.contains("fragment entry point"), "{m}");
}

#[test]
fn a_shader_without_exchanges_is_unchanged() {
    let text = format!(
        "{WGSL_STUBS}@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) {{\n\
         if i > 2u {{ return; }}\n}}\n"
    );
    let exchanges = exchanges();
    let options = Options {
        exchanges: &exchanges,
        barriers: &[],
        prefix: "x_",
        vote: "x_any",
        skip: &[],
        init_type: &|_| None,
        calls: &|_, _| None,
        macros: &[],
        hints: &[],
    };
    let (printed, vote) = convert(&text, Language::Wgsl, &options).unwrap();
    assert_eq!(printed.text, text);
    assert!(!vote);
}

#[test]
fn glsl_shapes_convert_with_typed_temporaries() {
    let text = "#version 450\nlayout(local_size_x = 64) in;\n\
        layout(std430, binding = 0) buffer B { uint data[]; };\n\
        uvec4 x_ballot(bool on, bool p) { barrier(); return uvec4(on && p ? 1u : 0u); }\n\
        uint x_broadcast_first(bool on, uint v) { barrier(); return v; }\n\
        bool x_any(bool p) { barrier(); return p; }\n\
        void main() {\n\
            uint i = gl_LocalInvocationIndex;\n\
            if (i >= 60u) return;\n\
            uint v = data[i];\n\
            do { data[i] = x_broadcast_first(true, v); v -= 1u; } while (v > 3u);\n\
            switch (i % 3u) { case 0u: case 1u: data[i] += x_ballot(true, true).x; break; default: break; }\n\
        }\n";
    let exchanges = exchanges();
    let options = Options {
        exchanges: &exchanges,
        barriers: &["barrier"],
        prefix: "x_",
        vote: "x_any",
        skip: &[],
        init_type: &|_| None,
        calls: &|_, _| None,
        macros: &[],
        hints: &[],
    };
    let (printed, vote) = convert(text, Language::Glsl, &options).unwrap();
    let out = printed.text;
    assert!(vote);
    // The declaration after the return is split, its load guarded.
    assert!(out.contains("uint v;\n"), "{out}");
    assert!(out.contains("if (x_active) { v = data[i]; }"), "{out}");
    // The broadcast's temporary takes `v`'s declared type.
    assert!(out.contains("uint x_t"), "{out}");
    assert!(out.contains("uvec4 x_t"), "{out}");
    if ballot_testkit::have_tools("glslang on a converted shader", &ballot_testkit::GLSL_TOOLS) {
        if let Err(e) = crate::valid::glslang(&out, ballot_shader::back::Form::ComputeShader) {
            panic!("glslang rejects the conversion: {e}\n{out}");
        }
    }
}

#[test]
fn a_glsl_case_falling_through_runs_on_with_the_next_case_s_invocations() {
    // SPV_KHR_maximal_reconvergence lets a case's label take any subset of
    // the switch's invocations that reach it: those falling through join
    // the case's own. A case that declares a variable and falls through
    // is refused: its own branch would hide the name from the next.
    let text = "#version 450\nlayout(local_size_x = 8) in;\n\
        uvec4 x_ballot(bool on, bool p) { return uvec4(0u); }\n\
        void main() {\n  uint n = 0u;\n\
        switch (gl_LocalInvocationIndex) { case 0u: n = 1u; case 1u: n += x_ballot(true, true).x; break; }\n}\n";
    let exchanges = exchanges();
    let options = Options {
        exchanges: &exchanges,
        barriers: &[],
        prefix: "x_",
        vote: "x_any",
        skip: &[],
        init_type: &|_| None,
        calls: &|_, _| None,
        macros: &[],
        hints: &[],
    };
    let out = convert(text, Language::Glsl, &options).unwrap().0.text;
    assert!(
        out.contains("x_active = (x_active || (x_outer0 && x_taken2));"),
        "{out}"
    );
    let declares = text.replace("case 0u: n = 1u;", "case 0u: uint m = 1u; n = m;");
    let e = convert(&declares, Language::Glsl, &options).unwrap_err();
    assert_eq!(&declares[e.at.clone()], "case 0u");
    assert!(e.message.contains("declares a variable"), "{}", e.message);
}

#[test]
fn a_function_every_invocation_enters_together_keeps_its_text() {
    // `count` is called only from `main`'s top, before anything can have
    // returned: every invocation of the workgroup calls it, all active.
    // Its body and `main`'s need nothing of the conversion.
    let body = "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\
         fn count(p: bool) -> u32 {\n\
             var n = 0u;\n\
             { let b = x_ballot(true, p); n += b.x; }\n\
             return n;\n\
         }\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) i: u32) {\n\
             let c = count(i % 4u == 0u) + 1u;\n\
             data[i] = c;\n\
         }\n";
    let out = wgsl(body).unwrap();
    assert_eq!(out, format!("{WGSL_STUBS}{body}"));
}

#[test]
fn a_function_entered_together_converts_without_taking_the_activity() {
    // `count` is entered by every invocation, but returns early in some:
    // its ballot after the return runs in all of them, with its own
    // activity, which starts set.
    let out = wgsl(
        "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\
         fn count(p: bool) -> u32 {\n\
             if !p { return 0u; }\n\
             return x_ballot(true, p).x;\n\
         }\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) i: u32) {\n\
             data[i] = count(i % 4u == 0u);\n\
         }\n",
    )
    .unwrap();
    valid_wgsl(&out);
    let count = function(&out, "count");
    assert!(count.starts_with("fn count(p: bool) -> u32"), "{count}");
    assert!(count.contains("var x_active = true;"), "{count}");
    assert!(
        count.contains("x_ballot(x_active, p)"),
        "the ballot runs in every invocation, with the activity: {count}"
    );
    let main = function(&out, "main");
    assert!(main.contains("data[i] = count(i % 4u == 0u);"), "{main}");
}

#[test]
fn a_function_also_called_where_some_invocations_are_inactive_takes_the_activity() {
    // One call at the top, one under a branch, one after an early return:
    // only the first is made by every invocation.
    for second in [
        "if i > 3u { data[i] += count(true); }",
        "if i > 3u { return; }\n data[i] += count(true);",
    ] {
        let out = wgsl(&format!(
            "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\
             fn count(p: bool) -> u32 {{ return x_ballot(true, p).x; }}\n\
             @compute @workgroup_size(64)\n\
             fn main(@builtin(local_invocation_index) i: u32) {{\n\
                 data[i] = count(i % 4u == 0u);\n\
                 {second}\n\
             }}\n"
        ))
        .unwrap();
        valid_wgsl(&out);
        let count = function(&out, "count");
        assert!(
            count.starts_with("fn count(x_active_in: bool, p: bool) -> u32"),
            "{count}"
        );
        let main = function(&out, "main");
        assert!(main.contains("count(x_active, i % 4u == 0u)"), "{main}");
        assert!(main.contains("count(x_active, true)"), "{main}");
    }
    // A caller that is not entered together passes its callee none either.
    let out = wgsl(
        "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\
         fn inner(p: bool) -> u32 { return x_ballot(true, p).x; }\n\
         fn outer(p: bool) -> u32 { return inner(p); }\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) i: u32) {\n\
             if i > 3u { data[i] = outer(true); }\n\
         }\n",
    )
    .unwrap();
    valid_wgsl(&out);
    assert!(
        function(&out, "inner").starts_with("fn inner(x_active_in: bool, p: bool)"),
        "{out}"
    );
    assert!(
        function(&out, "outer").contains("inner(x_active, p)"),
        "{out}"
    );
}

#[test]
fn a_ballot_under_a_short_circuit_runs_in_every_invocation_with_the_circuits_activity() {
    // wgpu's own subgroup test writes `a || f(x) == y`: `f` runs only where
    // `a` is false. Without subgroups it runs in every invocation, before
    // the statement, with the activity of those `a` lets through; `a` is
    // computed once, before, and its flag takes its place.
    for (expr, circuit) in [
        (
            "i == 63u || x_ballot(true, i > 3u).x == 1u",
            "(x_active && !x_taken",
        ),
        (
            "(i & 1u) != 0u && x_ballot(true, i > 3u).x == 1u",
            "(x_active && x_taken",
        ),
    ] {
        let out = wgsl(&format!(
            "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\
             @compute @workgroup_size(64)\n\
             fn main(@builtin(local_invocation_index) i: u32) {{\n\
                 if i >= arrayLength(&data) {{ return; }}\n\
                 let ok = {expr};\n\
                 data[i] = select(0u, 1u, ok);\n\
             }}\n"
        ))
        .unwrap();
        valid_wgsl(&out);
        let main = function(&out, "main");
        assert!(main.contains(circuit), "{main}");
        assert!(main.contains("x_ballot(x_outer"), "{main}");
        assert!(
            !main.contains("i == 63u ||") && !main.contains("!= 0u &&"),
            "{main}"
        );
    }
    // At the top of an entry point too, and in a call's argument.
    let out = wgsl(
        "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\
         fn put(k: u32, v: bool) { data[k] = select(0u, 1u, v); }\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) i: u32) {\n\
             put(i, i == 0u || x_broadcast_first(true, i) == 0u);\n\
         }\n",
    )
    .unwrap();
    valid_wgsl(&out);
    let main = function(&out, "main");
    assert!(main.contains("x_broadcast_first(x_outer"), "{main}");
    assert!(main.contains("put(i, x_taken"), "{main}");
}

#[test]
fn a_ballot_under_two_short_circuits_is_refused() {
    let text = format!(
        "{WGSL_STUBS}@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) {{\n\
         let b = i > 2u || (i < 1u && x_elect(true));\n}}\n"
    );
    let e = wgsl(&text[WGSL_STUBS.len()..]).unwrap_err();
    assert_eq!(&text[e.at.clone()], "x_elect");
    assert!(e.message.contains("more than one"), "{}", e.message);
}

#[test]
fn glsl_arms_of_the_conditional_operator_run_with_their_activity() {
    let text = "#version 450\nlayout(local_size_x = 64) in;\n\
        layout(std430, binding = 0) buffer B { uint data[]; };\n\
        uvec4 x_ballot(bool on, bool p) { barrier(); return uvec4(on && p ? 1u : 0u); }\n\
        uint x_broadcast_first(bool on, uint v) { barrier(); return v; }\n\
        bool x_any(bool p) { barrier(); return p; }\n\
        void main() {\n\
            uint i = gl_LocalInvocationIndex;\n\
            if (i >= 60u) return;\n\
            uint v = (i & 1u) == 0u ? x_broadcast_first(true, i) : x_ballot(true, i > 9u).x;\n\
            data[i] = v;\n\
        }\n";
    let exchanges = exchanges();
    let options = Options {
        exchanges: &exchanges,
        barriers: &["barrier"],
        prefix: "x_",
        vote: "x_any",
        skip: &[],
        init_type: &|_| None,
        calls: &|_, _| None,
        macros: &[],
        hints: &[],
    };
    let (printed, _) = convert(text, Language::Glsl, &options).unwrap();
    let out = printed.text;
    assert!(out.contains("(x_active && x_taken"), "{out}");
    assert!(out.contains("(x_active && !x_taken"), "{out}");
    assert!(out.contains("x_broadcast_first(x_outer"), "{out}");
    assert!(out.contains("x_ballot(x_outer"), "{out}");
    if ballot_testkit::have_tools("glslang on a converted shader", &ballot_testkit::GLSL_TOOLS) {
        if let Err(e) = crate::valid::glslang(&out, ballot_shader::back::Form::ComputeShader) {
            panic!("glslang rejects the conversion: {e}\n{out}");
        }
    }
}

#[test]
fn a_chain_of_one_operator_is_one_short_circuit() {
    // `a || b || f` is `(a || b) || f`, `a && b || f` is `(a && b) || f`,
    // `a && b && f` is `(a && b) && f`: all before the nearest operator is
    // its left operand. `a || b && f` is `a || (b && f)`: two circuits.
    for (expr, left, when) in [
        (
            "i == 1u || i == 2u || x_elect(true)",
            "x_taken1 = (i == 1u || i == 2u);",
            "!x_taken",
        ),
        (
            "i > 1u && i < 9u || x_elect(true)",
            "x_taken1 = (i > 1u && i < 9u);",
            "!x_taken1",
        ),
        (
            "i > 1u && i < 9u && x_elect(true)",
            "x_taken1 = (i > 1u && i < 9u);",
            "(x_active && x_taken1)",
        ),
        (
            "x_elect(true) || i > 1u",
            "let ok = x_elect(x_active) || i > 1u;",
            "x_elect(x_active)",
        ),
    ] {
        let out = wgsl(&format!(
            "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\
             @compute @workgroup_size(64)\n\
             fn main(@builtin(local_invocation_index) i: u32) {{\n\
                 if i >= arrayLength(&data) {{ return; }}\n\
                 let ok = {expr};\n\
                 data[i] = select(0u, 1u, ok);\n\
             }}\n"
        ))
        .unwrap();
        valid_wgsl(&out);
        let main = function(&out, "main");
        assert!(main.contains(left), "{expr}: {main}");
        assert!(main.contains(when), "{expr}: {main}");
    }
    let text = format!(
        "{WGSL_STUBS}@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) {{\n\
         let b = i > 2u || i < 1u && x_elect(true);\n}}\n"
    );
    let e = wgsl(&text[WGSL_STUBS.len()..]).unwrap_err();
    assert_eq!(&text[e.at.clone()], "x_elect");
}

/// A short circuit in the left operand of another (`(a || f) || g`): the
/// inner one's flag is part of the outer one's value, computed before it,
/// and the statement names only the outer one's flag.
#[test]
fn a_short_circuit_inside_another_s_left_operand_is_its_value() {
    let out = wgsl(
        "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(local_invocation_index) i: u32) {\n\
             if i >= arrayLength(&data) { return; }\n\
             let ok = (i == 1u || x_elect(true)) || x_elect(true);\n\
             data[i] = select(0u, 1u, ok);\n\
         }\n",
    )
    .unwrap();
    valid_wgsl(&out);
    let main = function(&out, "main");
    // The inner left operand, then the outer one from it and the inner
    // call's temporary, then the statement from the outer flag alone.
    assert!(main.contains("x_taken1 = (i == 1u);"), "{main}");
    assert!(main.contains("x_taken4 = ((x_taken1 || x_t3));"), "{main}");
    assert!(main.contains("let ok = x_taken4 || x_t6;"), "{main}");
}

/// A GLSL text with the stand-in exchanges, and `body` after them.
fn glsl(body: &str) -> Result<String, super::Refused> {
    let text = format!(
        "#version 450\nlayout(local_size_x = 64) in;\n\
         layout(std430, binding = 0) buffer B {{ uint data[]; }};\n\
         uvec4 x_ballot(bool on, bool p) {{ barrier(); return uvec4(on && p ? 1u : 0u); }}\n\
         bool x_any(bool p) {{ barrier(); return p; }}\n{body}"
    );
    let exchanges = exchanges();
    let options = Options {
        exchanges: &exchanges,
        barriers: &["barrier"],
        prefix: "x_",
        vote: "x_any",
        skip: &[],
        init_type: &|_| None,
        calls: &|_, _| None,
        macros: &[],
        hints: &[],
    };
    convert(&text, Language::Glsl, &options).map(|(printed, _)| printed.text)
}

#[test]
fn a_converted_function_s_prototype_takes_the_activity_too() {
    let out = glsl(
        "uint count(uint bias);\n\
         uint count(void);\n\
         void main() { if (gl_LocalInvocationIndex > 3u) { return; } data[0] = count(1u) + count(); }\n\
         uint count(uint bias) { return x_ballot(true, true).x + bias; }\n\
         uint count(void) { return x_ballot(true, true).x; }\n",
    )
    .unwrap();
    assert!(
        out.contains("uint count(bool x_active_in, uint bias);"),
        "{out}"
    );
    assert!(out.contains("uint count(bool x_active_in);"), "{out}");
    assert!(
        out.contains("uint count(bool x_active_in, uint bias) {"),
        "{out}"
    );
    assert!(out.contains("uint count(bool x_active_in) {"), "{out}");
}

#[test]
fn overloads_are_converted_together() {
    // Only the first overload reaches an exchange; a call of the name may
    // call either, so both take the activity.
    let out = glsl(
        "uint f(uint v) { return x_ballot(true, v > 1u).x; }\n\
         uint f(uint v, uint w) { return v + w; }\n\
         void main() { if (gl_LocalInvocationIndex > 3u) { return; } data[0] = f(1u, 2u); }\n",
    )
    .unwrap();
    assert!(out.contains("uint f(bool x_active_in, uint v) {"), "{out}");
    assert!(
        out.contains("uint f(bool x_active_in, uint v, uint w) {"),
        "{out}"
    );
}

#[test]
fn overloads_of_different_return_types_are_refused_where_a_call_needs_a_temporary() {
    let refused = glsl(
        "uint f(uint v) { return x_ballot(true, v > 1u).x; }\n\
         float f(float v) { return v; }\n\
         void main() { uint i = gl_LocalInvocationIndex; if (i > 3u) { return; } data[i] = f(i) + 1u; }\n",
    )
    .unwrap_err();
    assert!(
        refused
            .message
            .contains("`f` is overloaded with different return types"),
        "{}",
        refused.message
    );
}

#[test]
fn a_preprocessor_line_in_a_converted_loop_keeps_a_line_of_its_own() {
    let out = glsl(
        "void main() {\n\
             for (uint k = 0u; k < gl_LocalInvocationIndex % 3u; ++k) {\n\
                 #pragma unroll\n\
                 for (uint j = 0u; j < 2u; ++j) { data[k] += x_ballot(true, true).x; }\n\
             }\n\
         }\n",
    )
    .unwrap();
    let line = out
        .lines()
        .find(|l| l.contains("#pragma"))
        .expect("the pragma is kept");
    assert_eq!(line.trim(), "#pragma unroll", "{out}");
}

/// `let n = twice(i);` after an early return, where `twice` is the
/// shader's own function (which may write memory, so that only active
/// invocations run it): its initialiser runs apart from its declaration,
/// under the activity, and the declaration takes `twice`'s declared return
/// type. A call of a built-in keeps the refusal
/// (`what_cannot_be_converted_is_refused_at_its_token`), and so does an
/// initialiser that is more than the call.
#[test]
fn an_untyped_let_of_an_own_call_takes_its_return_type() {
    let out = wgsl(
        "fn twice(x: u32) -> u32 { return 2u * x; }\n\
         @group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\
         @compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) {\n\
         if i > 5u { return; }\nlet n = twice(i);\nlet b = x_ballot(true, n > 4u);\ndata[i] = b.x;\n}\n",
    )
    .unwrap();
    valid_wgsl(&out);
    let main = function(&out, "main");
    assert!(main.contains("var n: u32;"), "{main}");
    assert!(main.contains("if (x_active) { n = twice(i); }"), "{main}");
    let e = wgsl(
        "fn twice(x: u32) -> u32 { return 2u * x; }\n\
         @compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i: u32) {\n\
         if i > 5u { return; }\nlet n = twice(i) + 1u;\nlet b = x_ballot(true, n > 4u);\n}\n",
    )
    .unwrap_err();
    assert!(e.message.contains("give `n` its type"), "{}", e.message);
}
