//! When naga's verdict on one text stands, exactly, for another's: the
//! expansion then validates one text instead of two, and proves nothing
//! less.
//!
//! The fact below is about the texts naga parses
//! ([`crate::valid::naga_source`]), checked on those very texts each time,
//! and rests on one property of naga's WGSL and GLSL front ends: the
//! module they build, and so the validator's verdict, depends on the
//! sequence of tokens; where a token sits (its span) only feeds error
//! reports. Comments and whitespace are not tokens. (`wgsl-web` needs no
//! such proof: its text is the `wgsl` text after its directives, by
//! construction in `back::wgsl::write`.)
//!
//! [`covers`]: the helper library is the compute shader minus whole
//!   top-level items (the storage buffers, the workgroup size, the entry
//!   point), which declare nothing that the library names. A valid module
//!   stays valid when items that nothing left refers to are removed: each
//!   function, global and type is validated on its own and against what it
//!   refers to, and an entry point only adds checks of its own. So a valid
//!   compute shader proves its library valid. For GLSL the library is
//!   checked with an empty entry point added ([`crate::valid::GLSL_LIBRARY_ENTRY`]),
//!   valid on its own as long as the library does not name `main`.
//!
//! Anything this check cannot see through (block comments, line
//! continuations, preprocessor directives other than `#version` and
//! `#extension`, an insert they cannot read as whole items) makes them
//! answer `false`, and the expansion validates the text itself.

use crate::back::Language;
use crate::valid::{GLSL_LIBRARY_ENTRY, GLSL_LIBRARY_VERSION};

/// Whether `helpers`, the text naga parses for a helper library, is valid
/// whenever `compute`, that of the compute shader of the same kernel,
/// target and options, is (see the module documentation).
pub fn covers(language: Language, compute: &str, helpers: &str) -> bool {
    let (Some(mut library), Some(shader)) = (token_lines(helpers), token_lines(compute)) else {
        return false;
    };
    if language == Language::Glsl {
        // The library's own entry point, after its text: drop it, and make
        // sure below that nothing else can refer to it or clash with it.
        let entry = library.split_off(library.len().saturating_sub(GLSL_LIBRARY_ENTRY.len()));
        let version = library.first().map(|l| l.text);
        if !entry.iter().map(|l| l.text).eq(GLSL_LIBRARY_ENTRY)
            || version != Some(GLSL_LIBRARY_VERSION)
        {
            return false;
        }
    }
    let directive = |line: &Line<'_>| {
        let text = line.text;
        text.starts_with('#') && !text.starts_with("#version") && !text.starts_with("#extension")
    };
    if library.iter().chain(&shader).any(directive) {
        return false;
    }
    // Walk the shader; every line the library lacks must belong to an
    // insert of whole top-level items, placed between the library's items.
    // What the inserts may declare at module scope is collected, `main`
    // first (see the module documentation).
    let mut declared = vec!["main"];
    let (mut i, mut j) = (0, 0);
    let mut depth = 0i64;
    let mut between_items = true;
    while j < shader.len() {
        if library.get(i) == Some(&shader[j]) {
            depth += nesting(shader[j]);
            between_items = depth == 0 && ends_item(shader[j]);
            i += 1;
            j += 1;
            continue;
        }
        if !between_items {
            return false;
        }
        let start = j;
        let mut inner = 0i64;
        loop {
            inner += nesting(shader[j]);
            if inner < 0 {
                return false;
            }
            j += 1;
            let whole = inner == 0 && ends_item(shader[j - 1]);
            if whole && (j == shader.len() || library.get(i) == Some(&shader[j])) {
                break;
            }
            if j == shader.len() {
                return false;
            }
        }
        if !declarations(language, &shader[start..j], &mut declared) {
            return false;
        }
    }
    i == library.len() && !library.iter().any(|line| names_any(line.code, &declared))
}

/// A line of a text that holds tokens.
#[derive(Clone, Copy, Debug)]
struct Line<'a> {
    /// The line, trimmed.
    text: &'a str,
    /// Its code: without a trailing `//` comment, trimmed.
    code: &'a str,
}

/// Lines are compared whole, comments included: that over-approximates.
impl PartialEq for Line<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

/// The lines of `text` that hold tokens, in order; `None` where a whole
/// line might not be what it seems: a block comment, a backslash that
/// joins lines in GLSL, or a character other than `\n` that WGSL takes
/// for a line break (any byte outside ASCII, or `\r`, `\x0b`, `\x0c`),
/// which could end a `//` comment in mid-line. (One byte loop: this runs
/// in the proc macro, unoptimised in a user's build.)
fn token_lines(text: &str) -> Option<Vec<Line<'_>>> {
    let b = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    while start < b.len() {
        let mut end = start;
        while end < b.len() && b[end] != b'\n' {
            if b[end] >= 0x80 || matches!(b[end], b'\r' | 0x0b | 0x0c) {
                return None;
            }
            end += 1;
        }
        let next = end + 1;
        while start < end && b[start].is_ascii_whitespace() {
            start += 1;
        }
        while end > start && b[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        if end > start && b[end - 1] == b'\\' {
            return None;
        }
        // The code ends where a `//` comment starts; a `/*` before that
        // opens a block comment.
        let mut code_end = end;
        let mut k = start;
        while k + 1 < end {
            if b[k] == b'/' && b[k + 1] == b'/' {
                code_end = k;
                break;
            }
            if b[k] == b'/' && b[k + 1] == b'*' {
                return None;
            }
            k += 1;
        }
        // `///` and `//!` are doc comments, which WGSL may keep as tokens.
        let doc = code_end == start && end - start >= 3 && matches!(b[start + 2], b'/' | b'!');
        if end > start && (code_end > start || doc) {
            lines.push(Line {
                text: &text[start..end],
                code: text[start..code_end].trim_end(),
            });
        }
        start = next;
    }
    Some(lines)
}

/// How much deeper in brackets the line ends than it starts.
fn nesting(line: Line<'_>) -> i64 {
    let mut n = 0;
    for &c in line.code.as_bytes() {
        match c {
            b'{' | b'(' | b'[' => n += 1,
            b'}' | b')' | b']' => n -= 1,
            _ => {}
        }
    }
    n
}

/// Whether an item can end with this line: a statement or a block closes
/// on it, or it is a preprocessor line.
fn ends_item(line: Line<'_>) -> bool {
    line.text.starts_with('#') || matches!(line.code.as_bytes().last(), Some(b';' | b'}'))
}

/// Whether `code` holds one of `words` as a whole identifier.
fn names_any(code: &str, words: &[&str]) -> bool {
    let b = code.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut k = 0;
    while k < b.len() {
        if !word(b[k]) {
            k += 1;
            continue;
        }
        let start = k;
        while k < b.len() && word(b[k]) {
            k += 1;
        }
        let ident = &code[start..k];
        if words.contains(&ident) {
            return true;
        }
    }
    false
}

/// The tokens of a line's code: identifiers, numbers (digits and letters),
/// and single punctuation characters.
fn tokens(code: &str) -> Vec<&str> {
    let b = code.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut k = 0;
    while k < b.len() {
        let start = k;
        if word(b[k]) {
            while k < b.len() && word(b[k]) {
                k += 1;
            }
        } else {
            // One character, whole: UTF-8 continuation bytes follow it.
            k += 1;
            while k < b.len() && (b[k] & 0xc0) == 0x80 {
                k += 1;
            }
        }
        if !b[start].is_ascii_whitespace() {
            out.push(&code[start..k]);
        }
    }
    out
}

fn is_ident(token: &str) -> bool {
    token.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

/// Adds to `declared` every name that `insert` (whole items, see
/// [`covers`]) may declare at module scope, and answers whether it holds
/// nothing else that could change the rest of the module: nothing that
/// acts on the whole module. Declarations are over-approximated: a use
/// that looks like one is added too, which at worst costs a validation.
fn declarations<'a>(language: Language, insert: &[Line<'a>], declared: &mut Vec<&'a str>) -> bool {
    if insert.iter().any(|line| line.text.starts_with('#')) {
        return false;
    }
    let tokens: Vec<&str> = insert.iter().flat_map(|line| tokens(line.code)).collect();
    // Module-wide effects: WGSL directives and diagnostics; GLSL default
    // precisions and default qualifiers other than the workgroup size
    // (`layout(...) in;`, which only the entry point reads).
    let global = match language {
        Language::Wgsl => ["enable", "requires", "diagnostic"].as_slice(),
        Language::Glsl => ["precision"].as_slice(),
    };
    if tokens.iter().any(|t| global.contains(t)) {
        return false;
    }
    if language == Language::Glsl && has_default_qualifier(&tokens) {
        return false;
    }
    let mut attribute_depth = None;
    let mut depth = 0i64;
    // Open braces: whether each holds module-scope names (the members of
    // a GLSL interface block without an instance name, `buffer B { .. };`)
    // or local ones (a function body, a WGSL struct's members).
    let mut braces: Vec<bool> = Vec::new();
    for (k, &token) in tokens.iter().enumerate() {
        let prev = k.checked_sub(1).map(|p| tokens[p]);
        match token {
            "(" => depth += 1,
            ")" => {
                depth -= 1;
                if attribute_depth == Some(depth) {
                    attribute_depth = None;
                }
            }
            "{" => braces.push(
                language == Language::Glsl && braces.is_empty() && prev.is_some_and(is_ident),
            ),
            "}" => {
                braces.pop();
            }
            _ => {}
        }
        // The arguments of a WGSL attribute, `@builtin(name)`, declare
        // nothing.
        if language == Language::Wgsl
            && token == "("
            && k >= 2
            && tokens[k - 2] == "@"
            && attribute_depth.is_none()
        {
            attribute_depth = Some(depth - 1);
        }
        if !is_ident(token) || attribute_depth.is_some() {
            continue;
        }
        if language == Language::Glsl && GLSL_KEYWORDS.contains(&token) {
            continue; // never a name: `const uint x` declares `x`
        }
        if matches!(prev, Some(".") | Some("@")) {
            continue; // a member or swizzle, an attribute's name
        }
        let next = tokens.get(k + 1).copied();
        // Parameters, locals and struct members are not module-scope.
        let module_scope = depth == 0 && braces.iter().all(|&global| global);
        let declares = module_scope
            && match language {
                Language::Wgsl => {
                    matches!(
                        prev,
                        Some(
                            "fn" | "var" | "let" | "const" | "override" | "struct" | "alias" | ">"
                        )
                    ) || next == Some(":")
                }
                // `type name`, `type[] name`, `type a, name`, and a block's
                // instance, `} name;` or `} name[n];` (after any other `}`, a
                // statement starts).
                Language::Glsl => {
                    prev.is_some_and(|p| is_ident(p) || matches!(p, "]" | ","))
                        || (prev == Some("}") && matches!(next, Some(";" | "[")))
                }
            };
        if declares {
            declared.push(token);
        }
    }
    true
}

/// GLSL keywords (types, qualifiers, statements) that the emitted texts
/// use: no declaration can take these names.
const GLSL_KEYWORDS: &[&str] = &[
    "void",
    "bool",
    "int",
    "uint",
    "float",
    "double",
    "vec2",
    "vec3",
    "vec4",
    "ivec2",
    "ivec3",
    "ivec4",
    "uvec2",
    "uvec3",
    "uvec4",
    "bvec2",
    "bvec3",
    "bvec4",
    "mat2",
    "mat3",
    "mat4",
    "const",
    "in",
    "out",
    "inout",
    "uniform",
    "buffer",
    "shared",
    "readonly",
    "writeonly",
    "coherent",
    "volatile",
    "restrict",
    "layout",
    "struct",
    "true",
    "false",
    "return",
    "if",
    "else",
    "for",
    "while",
    "do",
    "break",
    "continue",
];

/// Whether the tokens hold a GLSL default-qualifier statement other than
/// `layout(...) in;`: `layout(...) buffer;`, `layout(...) uniform;` and the
/// like change the declarations after them.
fn has_default_qualifier(tokens: &[&str]) -> bool {
    tokens.split(|t| *t == ";").any(|statement| {
        let [first, .., last] = statement else {
            return false;
        };
        *first == "layout" && statement.get(1) == Some(&"(") && {
            let before_last = statement[statement.len() - 2];
            before_last == ")" && *last != "in"
        }
    })
}

#[cfg(test)]
mod tests {
    use syn::parse_quote;

    use super::*;
    use crate::back::{Form, Missing, ShaderOptions, Target};
    use crate::ir::Kernel;

    const LIBRARY: &str = "\
// A library.
var<private> ballot_lane: u32;

fn ballot_init(subgroup_invocation_id: u32) {
    ballot_lane = subgroup_invocation_id;
}

fn twice(x: u32) -> u32 {
    return x * 2u;
}
";

    const SHADER: &str = "\
// A shader.
var<private> ballot_lane: u32;

fn ballot_init(subgroup_invocation_id: u32) {
    ballot_lane = subgroup_invocation_id;
}

@group(0) @binding(0) var<storage, read_write> ballot_out: array<u32>;

fn twice(x: u32) -> u32 {
    return x * 2u;
}

@compute @workgroup_size(64, 1, 1)
fn main(
    @builtin(local_invocation_index) i: u32,
    @builtin(subgroup_invocation_id) sid: u32,
) {
    ballot_init(sid);
    ballot_out[i] = twice(i);
}
";

    #[test]
    fn a_shader_covers_its_library_when_only_whole_items_are_added() {
        assert!(covers(Language::Wgsl, SHADER, LIBRARY));
        // The library must be all there, in order.
        assert!(!covers(
            Language::Wgsl,
            SHADER,
            &format!("{LIBRARY}fn more() {{}}\n")
        ));
        assert!(!covers(
            Language::Wgsl,
            &SHADER.replace("x * 2u", "x * 3u"),
            LIBRARY
        ));
    }

    #[test]
    fn an_insert_that_declares_what_the_library_names_does_not_cover_it() {
        // The library uses `ballot_out`, which only the shader declares.
        let uses = LIBRARY.replace("return x * 2u;", "return ballot_out[x];");
        let shader = SHADER.replace("return x * 2u;", "return ballot_out[x];");
        assert!(!covers(Language::Wgsl, &shader, &uses));
        // A library naming `main` could clash with the entry point.
        let main = LIBRARY.replace("twice", "main");
        assert!(!covers(
            Language::Wgsl,
            &SHADER.replace("twice", "main"),
            &main
        ));
    }

    #[test]
    fn an_insert_inside_an_item_does_not_cover() {
        let split = SHADER.replace(
            "    return x * 2u;\n",
            "    let y = x;\n    return x * 2u;\n",
        );
        assert!(!covers(Language::Wgsl, &split, LIBRARY));
    }

    #[test]
    fn module_wide_directives_in_an_insert_do_not_cover() {
        let shader = SHADER.replace(
            "@compute",
            "diagnostic(off, derivative_uniformity);\n@compute",
        );
        assert!(!covers(Language::Wgsl, &shader, LIBRARY));
    }

    const GLSL_LIBRARY: &str = "\
#version 450
// helpers
#extension GL_KHR_shader_subgroup_ballot : require
uint twice(uint x) {
    return x * 2u;
}
layout(local_size_x = 1) in;
void main() {}
";

    const GLSL_SHADER: &str = "\
// A shader.
#version 450
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;
layout(std430, set = 0, binding = 0) buffer ballot_out_block { uint ballot_out[]; };
uint twice(uint x) {
    return x * 2u;
}
void main() {
    ballot_out[gl_LocalInvocationIndex] = twice(gl_LocalInvocationIndex);
}
";

    #[test]
    fn glsl_libraries_are_covered_with_their_own_entry_point() {
        assert!(covers(Language::Glsl, GLSL_SHADER, GLSL_LIBRARY));
        // Without the library's empty entry point, the check does not apply.
        let bare = GLSL_LIBRARY.replace("void main() {}\n", "");
        assert!(!covers(Language::Glsl, GLSL_SHADER, &bare));
        // A default qualifier changes what follows it.
        let shader = GLSL_SHADER.replace(
            "layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;",
            "layout(std140) uniform;",
        );
        assert!(!covers(Language::Glsl, &shader, GLSL_LIBRARY));
        // A declaration of a name the library uses (an overload of `twice`).
        let shader = GLSL_SHADER.replace(
            "void main() {\n",
            "uint twice(int x) { return 0u; }\nvoid main() {\n",
        );
        assert!(!covers(Language::Glsl, &shader, GLSL_LIBRARY));
        // The members of a block without an instance name are module-scope.
        let uses = GLSL_LIBRARY.replace("return x * 2u;", "return ballot_out[x];");
        let shader = GLSL_SHADER.replace("return x * 2u;", "return ballot_out[x];");
        assert!(!covers(Language::Glsl, &shader, &uses));
        // A macro could rewrite the library.
        let shader = GLSL_SHADER.replace("#extension", "#define twice thrice\n#extension");
        assert!(!covers(Language::Glsl, &shader, GLSL_LIBRARY));
    }

    /// The texts naga parses for `kernel` in `target`, helpers and compute.
    fn sources(target: Target, kernel: &Kernel, options: &ShaderOptions) -> [String; 2] {
        Form::ALL.map(|form| {
            let text = crate::back::emit(target, form, &[kernel], options, Missing::Stub)
                .expect("the kernel emits");
            crate::valid::naga_source(target, form, &text)
        })
    }

    /// The expansion counts on these covers to validate 4 texts instead of
    /// 10: every kernel shape of the compile-time benchmark, and one with
    /// every operation, under the options the attribute can set (sizes
    /// change the emulation). Lane records, which the attribute cannot ask
    /// for, would put built-ins in the `glsl` entry point, and so stand-ins
    /// in its shim that the library lacks: that library would be validated
    /// itself.
    #[test]
    fn the_emitted_forms_are_covered_for_every_target() {
        let items: Vec<syn::ItemFn> = vec![
            parse_quote! {
                fn slot_if(x: u32) -> u32 {
                    let mut n = 0xffff_ffffu32;
                    if x % 3u32 == 0u32 { n = slot(x > 7u32); }
                    n
                }
            },
            parse_quote! {
                fn reserve(want: bool, base_if_leader: u32) -> u32 {
                    let mut slot = 0xffff_ffffu32;
                    if want {
                        let rank = subgroup_ballot_exclusive_bit_count(subgroup_ballot(true));
                        if subgroup_elect() { slot = base_if_leader; }
                        slot = subgroup_broadcast_first(base_if_leader + 3u32) + rank;
                    }
                    slot
                }
            },
            parse_quote! {
                fn scan(x: u32, #[uniform] rounds: u32) -> u32 {
                    let mut acc = 0u32;
                    for r in 0u32..rounds {
                        if ((x >> r) & 1u32) == 0u32 { continue; }
                        acc += subgroup_ballot_inclusive_bit_count(subgroup_ballot((x & 3u32) != 0u32));
                        if acc > 300u32 { break; }
                    }
                    acc
                }
            },
            parse_quote! {
                fn vote(v: i32, #[uniform] p: bool) -> i32 {
                    let m = subgroup_ballot(p);
                    let lead = subgroup_broadcast(v, 2);
                    if subgroup_inverse_ballot(m) { lead } else {
                        v * 3i32 - (subgroup_ballot_find_msb(subgroup_ballot(true)) as i32)
                    }
                }
            },
            parse_quote! {
                fn window(#[uniform] w: u32) -> SubgroupMask {
                    let id = subgroup_local_invocation_id();
                    let win = SubgroupMask::first(w + 2u32) & subgroup_ge_mask();
                    if win.contains(id) && id < subgroup_size() {
                        win ^ SubgroupMask::lane(id)
                    } else {
                        subgroup_eq_mask() | SubgroupMask::EMPTY
                    }
                }
            },
            parse_quote! {
                fn every_op(x: u32, m: SubgroupMask, p: bool, f: f32) -> f32 {
                    let b = subgroup_ballot(p);
                    let c = subgroup_ballot_bit_count(b) + subgroup_ballot_find_lsb(m)
                        + (subgroup_ballot_bit_extract(b, x) as u32)
                        + (subgroup_lt_mask() | subgroup_le_mask() | subgroup_gt_mask()).count();
                    let e = subgroup_elect() && subgroup_broadcast_first(p);
                    let mut t = subgroup_broadcast(f, 0);
                    while t < 10.0f32 { t += 1.0f32; if e { break; } }
                    t + (c as f32)
                }
            },
        ];
        let options = [
            ShaderOptions::default(),
            ShaderOptions {
                workgroup_size: [8, 3, 2],
                subgroup_size: 16,
                record_lanes: false,
            },
            ShaderOptions {
                workgroup_size: [128, 1, 1],
                subgroup_size: 128,
                record_lanes: false,
            },
        ];
        for item in &items {
            let kernel = crate::front::lower(item).expect("the kernel lowers").kernel;
            for options in &options {
                for target in Target::ALL {
                    let [helpers, compute] = sources(target, &kernel, options);
                    assert!(
                        covers(target.language(), &compute, &helpers),
                        "{target} {}: the compute shader does not cover\n{helpers}\n---\n{compute}",
                        kernel.name
                    );
                }
                // The expansion gives `wgsl-web` the `wgsl` verdict: its
                // text is the `wgsl` one after the directives.
                for form in Form::ALL {
                    let emit = |target| {
                        crate::back::emit(target, form, &[&kernel], options, Missing::Stub)
                            .expect("valid options")
                    };
                    let (web, wgsl) = (emit(Target::WgslWeb), emit(Target::Wgsl));
                    let directives = web
                        .strip_suffix(wgsl.as_str())
                        .expect("wgsl-web ends with wgsl");
                    assert!(directives.contains("enable subgroups;"), "{directives}");
                    for line in directives.lines() {
                        assert!(
                            line.is_empty()
                                || line.starts_with("//")
                                || line == "enable subgroups;"
                                || line == "diagnostic(off, subgroup_uniformity);",
                            "{directives}"
                        );
                    }
                }
            }
        }
    }
}
