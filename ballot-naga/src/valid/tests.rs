use super::*;

const BALLOT_WGSL: &str = "\
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) i: u32) {
    let m = subgroupBallot((i % 2u) == 0u);
}
";

/// The error that `check` reports on `text` with `from` replaced by `to`,
/// after it accepted `text` itself; the error points at `line`.
#[track_caller]
fn broken_at(
    check: impl Fn(&str) -> Result<(), ValidationError>,
    text: &str,
    (from, to): (&str, &str),
    line: u32,
) -> ValidationError {
    assert_eq!(check(text), Ok(()));
    let err = check(&text.replace(from, to)).unwrap_err();
    assert_eq!(err.line, Some(line), "{err}");
    err
}

#[test]
fn subgroup_wgsl_needs_the_subgroup_capability() {
    assert_eq!(
        validate(Target::Wgsl, Form::ComputeShader, BALLOT_WGSL),
        Ok(())
    );
    let err = validate(Target::WgslNoSubgroup, Form::ComputeShader, BALLOT_WGSL).unwrap_err();
    assert_eq!(err.line, Some(3));
    assert_eq!(
        err.line_text.as_deref(),
        Some("    let m = subgroupBallot((i % 2u) == 0u);")
    );
}

#[test]
fn web_text_is_read_after_its_directives_at_its_own_lines() {
    let web = format!(
        "// A comment.\nenable subgroups;\ndiagnostic(off, subgroup_uniformity);\n{BALLOT_WGSL}"
    );
    assert!(
        naga::front::wgsl::parse_str(&web).is_err(),
        "naga rejects `enable subgroups;`"
    );
    let err = broken_at(
        |text| validate(Target::WgslWeb, Form::ComputeShader, text),
        &web,
        ("2u) == 0u", "2u) == 0i"),
        6,
    );
    assert!(err.message.contains("wgsl:6:"), "{}", err.message);
    // The text naga reads: the same offsets, the directives blank.
    let read = after_directives(&web);
    assert_eq!(read.len(), web.len());
    assert!(read.ends_with(BALLOT_WGSL));
    assert_eq!(read.lines().count(), web.lines().count());
    assert!(!read.contains("enable") && !read.contains("diagnostic"));
}

#[test]
fn only_leading_directives_are_read_as_blank() {
    // A directive after a declaration is not one naga should miss.
    let late = "fn f() {}\nenable subgroups;\n";
    assert_eq!(after_directives(late), late);
    // Block comments, nested as WGSL nests them, before, between and
    // after the directives, stay as written (gridwise's generated kernels
    // open with one); one inside a directive leaves it as written.
    let comment = "/* a /* nested */ one */\nenable subgroups; /*\n*/ diagnostic(off, subgroup_uniformity);\nfn f() {}\n";
    assert_eq!(
        after_directives(comment),
        format!(
            "/* a /* nested */ one */\n{}/*\n*/ {}\nfn f() {{}}\n",
            " ".repeat("enable subgroups; ".len()),
            " ".repeat("diagnostic(off, subgroup_uniformity);".len())
        )
    );
    let (module, _) = crate::valid::diagnose(Target::WgslWeb, comment).expect("naga reads it");
    assert_eq!(module.functions.len(), 1);
    let inside = "enable /* the browser's */ subgroups;\nfn f() {}\n";
    assert_eq!(after_directives(inside), inside);
    let open = "/* never closed\nenable subgroups;\n";
    assert_eq!(after_directives(open), open);
    // A line comment is one whatever it holds (webgpu-sorting's files open
    // with a `//****` banner), and one after a directive stays as written.
    let banner = "//****\nenable subgroups; // for the scans\nfn f() {}\n";
    assert_eq!(
        after_directives(banner),
        "//****\n                  // for the scans\nfn f() {}\n"
    );
    let (module, _) = crate::valid::diagnose(Target::WgslWeb, banner).expect("naga reads it");
    assert_eq!(module.functions.len(), 1);
}

/// A `glsl` compute shader as a user writes it: the extensions' names,
/// no declarations of them.
const USER_GLSL: &str = "#version 450\n#extension GL_KHR_shader_subgroup_ballot : require\n\
    layout(local_size_x = 32) in;\n\
    void main() {\n\
    uvec4 m = subgroupBallot(gl_SubgroupInvocationID < 3u);\n\
    uint n = subgroupBallotBitCount(m) + gl_SubgroupSize;\n\
    }\n";

#[test]
fn glsl_stand_ins_go_on_a_line_of_their_own_and_reports_keep_the_texts_lines() {
    let source = Parsed::new(Target::Glsl, USER_GLSL, false, Author::Elsewhere);
    // One line added after `#version`; every line of the text is there,
    // unchanged.
    let lines: Vec<&str> = source.source.lines().collect();
    assert_eq!(lines[0], "#version 450");
    for name in [
        "subgroupBallot(",
        "subgroupBallotBitCount(",
        "gl_SubgroupSize =",
    ] {
        assert!(lines[1].contains(name), "{name} in {}", lines[1]);
    }
    assert_eq!(lines[2..], USER_GLSL.lines().collect::<Vec<_>>()[1..]);

    let err = broken_at(
        |text| validate(Target::Glsl, Form::ComputeShader, text),
        USER_GLSL,
        ("uint n", "bool n"),
        6,
    );
    assert_eq!(
        err.line_text.as_deref(),
        Some("uint n = subgroupBallotBitCount(m) + gl_SubgroupSize;")
            .map(|l| l.replace("uint", "bool"))
            .as_deref()
    );
    assert!(err.message.contains("6 │ bool n ="), "{}", err.message);
    assert!(!err.message.contains("return uvec4(0u)"), "{}", err.message);
}

/// `USER_GLSL` asking for maximal reconvergence, the attribute spaced out
/// over two lines.
const MAXIMAL_GLSL: &str = "#version 450\n#extension GL_KHR_shader_subgroup_ballot : require\n\
    #extension GL_EXT_maximal_reconvergence : require\n\
    layout(local_size_x = 32) in;\n\
    void main() [[ maximally_reconverges\n\
    ]] {\n\
    uvec4 m = subgroupBallot(gl_SubgroupInvocationID < 3u);\n\
    uint n = subgroupBallotBitCount(m) + gl_SubgroupSize;\n\
    }\n";

#[test]
fn the_maximal_reconvergence_attribute_reads_as_blank_space_at_the_texts_offsets() {
    let source = Parsed::new(Target::Glsl, MAXIMAL_GLSL, false, Author::Elsewhere);
    assert!(!source.source.contains("[["), "{}", source.source);
    assert!(!source.source.contains("maximally_reconverges"));
    // The directive stays: naga takes any `#extension` line.
    assert!(source
        .source
        .contains("GL_EXT_maximal_reconvergence : require"));
    // Only the stand-ins' line is added, and every line keeps its length.
    let text_lines: Vec<&str> = MAXIMAL_GLSL.lines().collect();
    let read_lines: Vec<&str> = source.source.lines().collect();
    assert_eq!(read_lines.len(), text_lines.len() + 1);
    for (text, read) in text_lines[1..].iter().zip(&read_lines[2..]) {
        assert_eq!(text.len(), read.len(), "{read}");
    }
    assert_eq!(read_lines[5].trim_end(), "void main()");
    assert_eq!(read_lines[6], "   {");

    let err = broken_at(
        |text| validate(Target::Glsl, Form::ComputeShader, text),
        MAXIMAL_GLSL,
        ("uint n", "bool n"),
        8,
    );
    assert!(err.message.contains("8 │ bool n ="), "{}", err.message);
    // A user's shader without subgroups may ask for it too.
    let own = "#version 450\n#extension GL_EXT_maximal_reconvergence : require\n\
               layout(local_size_x = 32) in;\n\
               void main() [[maximally_reconverges]] {\n    uint n = 3u;\n}\n";
    let options = naga::front::glsl::Options::from(naga::ShaderStage::Compute);
    let parsed = naga::front::glsl::Frontend::default().parse(&options, own);
    assert!(parsed.is_err(), "naga's glsl-in parses no attribute");
    assert_eq!(
        check_source(Target::GlslNoSubgroup, "own.comp", own),
        Ok(())
    );
}

#[test]
fn only_the_whole_maximal_reconvergence_attribute_is_blanked() {
    for text in [
        "uint a[2]; uint f() { return a[a[0]]; }",
        "// [[maximally_reconverges_later]]",
        "[[unroll]] for (;;) {}",
        "[[maximally_reconverges, unroll]]",
    ] {
        assert_eq!(blank_attributes(text), None, "{text}");
    }
    assert_eq!(
        blank_attributes("a [[maximally_reconverges]] b [[x]]").as_deref(),
        Some("a                           b [[x]]")
    );
}

#[test]
fn glsl_helper_libraries_are_wrapped_and_lines_refer_to_the_library() {
    let helpers = "uint twice(uint x) {\n    return x * 2u;\n}\n";
    let err = broken_at(
        |text| validate(Target::GlslNoSubgroup, Form::Helpers, text),
        helpers,
        ("2u", "true"),
        2,
    );
    assert!(
        err.message.contains("2 │     return x * true;"),
        "{}",
        err.message
    );
}

#[test]
fn a_printed_text_is_parsed_as_written() {
    // Stand-ins already in the text, as the validation mode writes them:
    // nothing is added, and a second declaration would clash.
    let line = standins::declarations(|n| USER_GLSL.contains(n));
    let printed = USER_GLSL
        .replacen('\n', &format!("\n{line}\n"), 2)
        .replacen(&format!("\n{line}\n"), "\n", 1);
    let source = Parsed::new(Target::Glsl, &printed, false, Author::Printed);
    assert_eq!(source.source, printed);
    assert!(source.added.is_empty());
    broken_at(
        |text| validate_printed(Target::Glsl, Form::ComputeShader, text),
        &printed,
        ("uint n", "bool n"),
        7,
    );
}

const LIBRARY: &str = "\
// A library.
fn twice(x: u32) -> u32 {
    return x * 2u;
}
";

/// `library` with bindings and an entry point, and their ranges.
fn shader(library: &str, main: &str) -> (String, Vec<Range<usize>>) {
    let bindings = "\n@group(0) @binding(0) var<storage, read_write> ballot_out: array<u32>;\n";
    let entry = format!(
        "\n@compute @workgroup_size(64, 1, 1)\nfn main(@builtin(local_invocation_index) i: u32) {{\n{main}\n}}\n"
    );
    let text = format!("{library}{bindings}{entry}");
    let own = vec![Range {
        start: library.len(),
        end: text.len(),
    }];
    (text, own)
}

#[test]
fn a_valid_compute_shader_stands_for_its_library_when_nothing_else_names_its_parts() {
    let (text, own) = shader(LIBRARY, "ballot_out[i] = twice(i);");
    let (compute, library) = validate_with_library(Target::Wgsl, &text, &own);
    assert_eq!(compute, Ok(()));
    assert!(library);
    // The library reads the binding: valid with it, invalid without.
    let reads = LIBRARY.replace("x * 2u", "x * ballot_out[0]");
    let (text, own) = shader(&reads, "ballot_out[i] = twice(i);");
    let (compute, library) = validate_with_library(Target::Wgsl, &text, &own);
    assert_eq!(compute, Ok(()));
    assert!(!library);
    assert!(validate(Target::Wgsl, Form::Helpers, &reads).is_err());
    // A type declared with the bindings, used by the library.
    let typed = "fn f(p: Pair) -> u32 {\n    return p.a;\n}\n";
    let (text, mut own) = shader(typed, "ballot_out[i] = f(Pair(i, i));");
    let text = format!("{text}struct Pair {{ a: u32, b: u32 }}\n");
    own[0].end = text.len();
    let (compute, library) = validate_with_library(Target::Wgsl, &text, &own);
    assert_eq!(compute, Ok(()));
    assert!(!library);
}

#[test]
fn a_failed_compute_shader_reports_its_own_line() {
    let (text, own) = shader(LIBRARY, "ballot_out[i] = twice(true);");
    let (compute, library) = validate_with_library(Target::Wgsl, &text, &own);
    let err = compute.unwrap_err();
    assert_eq!(err.line, Some(10), "{err}");
    assert_eq!(
        err.line_text.as_deref(),
        Some("ballot_out[i] = twice(true);")
    );
    assert!(!library);
}

#[test]
fn glslang_compiles_and_spirv_val_accepts_a_ballot_shader() {
    if !ballot_testkit::have_tools("glslang and spirv-val", &ballot_testkit::GLSL_TOOLS) {
        return;
    }
    let text = "#version 450\n#extension GL_KHR_shader_subgroup_ballot : require\n\
                layout(local_size_x = 32) in;\n\
                layout(std430, set = 0, binding = 0) buffer Out { uvec4 data[]; } out_;\n\
                void main() { out_.data[gl_LocalInvocationIndex] = subgroupBallot(true); }\n";
    let spirv = glslang_spirv(text).expect("glslang-tools and spirv-tools are installed");
    assert_eq!(&spirv[..4], &0x0723_0203u32.to_le_bytes());
    let err =
        glslang_spirv(&text.replace("subgroupBallot(true)", "subgroupBallot(1.0)")).unwrap_err();
    assert_eq!(err.tool, "glslangValidator");
}

#[test]
fn a_users_glsl_library_keeps_its_own_version_line() {
    let library =
        "// A library.\n#version 450\n#extension GL_KHR_shader_subgroup_basic : require\n\
                   uint lane() {\n    return gl_SubgroupInvocationID;\n}\n";
    assert_eq!(check_source(Target::Glsl, "lib.glsl", library), Ok(()));
    let broken = library.replace("return gl_SubgroupInvocationID;", "return true;");
    let err = check_source(Target::Glsl, "lib.glsl", &broken).unwrap_err();
    assert_eq!(err.line, Some(5), "{err}");
    assert!(err.report.contains("lib.glsl"), "{}", err.report);
}

/// The lane's id and masks differ per invocation: an expression that
/// would overflow, or divide by zero, at lane 0 only is valid GLSL
/// (glslang compiles it), and their stand-ins must not let naga fold it.
#[test]
fn expressions_of_the_lane_id_are_not_folded_as_constants() {
    let text = "#version 450\n#extension GL_KHR_shader_subgroup_ballot : require\n\
        layout(local_size_x = 32) in;\n\
        layout(std430, binding = 0) buffer B { uint data[]; };\n\
        void main() {\n\
        uint s = (gl_SubgroupInvocationID - 64u) << 20u;\n\
        uint d = 100u / gl_SubgroupInvocationID;\n\
        uint m = 7u % gl_SubgroupEqMask.x;\n\
        data[gl_SubgroupInvocationID] = s + d + m;\n\
        }\n";
    validate(Target::Glsl, Form::ComputeShader, text).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn statement_diagnostics_read_as_blank_and_function_ones_stay() {
    // naga reads `@diagnostic` on a function, not on a statement.
    let text = "@diagnostic(off, subgroup_uniformity)\nfn f(i: u32) -> u32 {\n    @diagnostic(off, subgroup_uniformity) /* @diagnostic(x) */\n    if (i < 2u) { @ diagnostic (warning, derivative_uniformity) { return 1u; } }\n    // @diagnostic(off, y)\n    return 0u;\n}\n";
    let blanked = without_statement_diagnostics(text).expect("two on statements");
    assert_eq!(blanked.len(), text.len());
    assert_eq!(blanked.lines().count(), text.lines().count());
    assert!(blanked.starts_with("@diagnostic(off, subgroup_uniformity)\nfn f"));
    // Those in comments stay; the two on statements go.
    assert_eq!(blanked.matches("@diagnostic").count(), 3, "{blanked}");
    assert!(!blanked.contains("derivative_uniformity"), "{blanked}");
    naga::front::wgsl::parse_str(&blanked).expect("naga reads the rest");
    assert!(naga::front::wgsl::parse_str(text).is_err());
    assert_eq!(without_statement_diagnostics("fn f() {}\n"), None);
    // A `@diagnostics` attribute is another name.
    assert_eq!(
        without_statement_diagnostics("fn f() { @diagnosticx(a) }"),
        None
    );
}
