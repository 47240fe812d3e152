//! Turns Rust identifiers into names that are valid, and distinct, in a
//! shading language, and names a module's functions and locals
//! ([`name_module`]) the same way for every printer.
//!
//! A Rust kernel may call a local `input`, `sample`, `shared`, `texture` or
//! `active`, or `gl_thing`, or `a__b`; each is reserved in GLSL or WGSL. The
//! namer keeps the Rust name where it can, so emitted code stays readable,
//! and otherwise appends `_N` with the smallest `N` that makes it unique.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::OnceLock;

use super::{keywords, Language};
use crate::lower::calls::{Module, Source};
use ballot_ir::ir::{Expr, Handle, Kernel};

/// The prefix of every name the writers generate themselves: user names
/// never take it, so generated helpers never collide with them.
pub const RESERVED_PREFIX: &str = "ballot_";

/// Hands out unique, valid names in one scope (a shader module).
#[derive(Clone, Debug)]
pub struct Namer {
    language: Language,
    used: BTreeSet<String>,
    /// Whether WGSL's predeclared names (built-in functions and types,
    /// [`keywords::WGSL_BUILTINS`]) are taken: looked up in a set built once
    /// from that list rather than copied into `used`, which every namer and
    /// every clone of one would pay for (a few hundred strings).
    wgsl_builtins: bool,
}

impl Namer {
    /// A namer for `language`, with nothing taken yet.
    pub fn new(language: Language) -> Self {
        Self {
            language,
            used: BTreeSet::new(),
            wgsl_builtins: false,
        }
    }

    /// Marks every name of [`keywords::WGSL_BUILTINS`] as taken, as
    /// [`Namer::reserve`] of each would.
    pub fn reserve_wgsl_builtins(&mut self) {
        self.wgsl_builtins = true;
    }

    /// Marks `name` as taken (a generated helper, a built-in) without
    /// checking it.
    pub fn reserve(&mut self, name: &str) {
        self.used.insert(name.to_string());
    }

    /// A fresh, valid name derived from `rust_name`.
    pub fn call(&mut self, rust_name: &str) -> String {
        let base = self.sanitize(rust_name);
        let mut name = base.clone();
        let mut n = 1;
        while self.is_taken(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        self.used.insert(name.clone());
        name
    }

    fn is_taken(&self, name: &str) -> bool {
        self.used.contains(name)
            || self.is_reserved(name)
            || (self.wgsl_builtins && keyword_set(Set::WgslBuiltins).contains(name))
    }

    fn is_reserved(&self, name: &str) -> bool {
        match self.language {
            Language::Glsl => keyword_set(Set::Glsl).contains(name),
            Language::Wgsl => keyword_set(Set::Wgsl).contains(name),
        }
    }

    /// ASCII letters, digits and single underscores, not starting with a
    /// digit, `gl_` or the reserved prefix: valid in both languages (GLSL
    /// reserves `__` anywhere and `gl_` at the start, WGSL a leading `__`).
    fn sanitize(&self, rust_name: &str) -> String {
        let mut out = String::with_capacity(rust_name.len());
        for c in rust_name.chars() {
            let c = if c.is_ascii_alphanumeric() { c } else { '_' };
            if !(c == '_' && (out.is_empty() || out.ends_with('_'))) {
                out.push(c);
            }
        }
        while out.ends_with('_') {
            out.pop();
        }
        let clashes = out.starts_with("gl_") || out.starts_with(RESERVED_PREFIX);
        if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) || clashes {
            out.insert_str(0, "v_");
        }
        out
    }
}

/// One function of a module, with its names in one language.
#[derive(Clone, Debug)]
pub struct Function<'a> {
    /// What it computes.
    pub source: Source<'a>,
    /// The public function: the kernel itself on native targets, the
    /// wrapper that starts with every invocation active on emulated ones.
    pub name: String,
    /// The if-converted function that calls go through (emulated targets;
    /// the public name otherwise).
    pub masked: String,
    /// The names of the kernel's locals, indexed like `Kernel::locals`.
    pub locals: Vec<String>,
    /// The name of each parameter: the local's own, unless the language's
    /// parameters are immutable and the kernel assigns to it, in which case
    /// the local is a variable copied from a parameter of another name.
    pub params: Vec<String>,
    /// The function (an index into the module's functions) each call
    /// expression calls.
    pub calls: BTreeMap<Handle<Expr>, usize>,
}

impl Function<'_> {
    /// The kernel, unless the function is a stub.
    pub fn kernel(&self) -> Option<&Kernel> {
        self.source.kernel()
    }
}

/// Names the functions of `module` with `namer` (which holds the
/// language's reservations): every function, then, on emulated targets
/// (`masked`), every if-converted function, then each function's locals
/// with a clone of the module's namer, since locals of different functions
/// cannot collide.
pub fn name_module<'a>(
    module: Module<'a>,
    mut namer: Namer,
    masked: bool,
    immutable_params: bool,
) -> Vec<Function<'a>> {
    let mut functions: Vec<Function<'a>> = module
        .functions
        .into_iter()
        .zip(module.calls)
        .map(|(source, calls)| {
            let name = namer.call(source.rust_name());
            Function {
                source,
                masked: name.clone(),
                name,
                locals: Vec::new(),
                params: Vec::new(),
                calls,
            }
        })
        .collect();
    if masked {
        for f in &mut functions {
            let base = f.name.clone();
            f.masked = namer.call(&format!("{base}_masked"));
        }
    }
    for function in &mut functions {
        if let Source::Kernel(kernel) = function.source {
            name_locals(function, kernel, namer.clone(), immutable_params);
        }
    }
    functions
}

/// Names the locals of `kernel`, and its parameters.
fn name_locals(function: &mut Function<'_>, kernel: &Kernel, mut namer: Namer, immutable: bool) {
    function.locals = kernel
        .locals
        .iter()
        .map(|(_, local)| namer.call(&local.name))
        .collect();
    let assigned = if immutable {
        crate::lower::assigned_locals(kernel)
    } else {
        BTreeSet::new()
    };
    function.params = kernel
        .params
        .iter()
        .map(|p| {
            let name = function
                .locals
                .get(p.local.index())
                .cloned()
                .unwrap_or_default();
            if assigned.contains(&p.local) {
                namer.call(&format!("{name}_in"))
            } else {
                name
            }
        })
        .collect();
}

/// One of the [`keywords`] lists.
#[derive(Clone, Copy)]
enum Set {
    Glsl,
    Wgsl,
    WgslBuiltins,
}

/// A [`keywords`] list as a set: the namer looks up every name it hands
/// out, and lists that long are slow to scan in the unoptimised builds
/// that run the proc macro.
fn keyword_set(set: Set) -> &'static HashSet<&'static str> {
    static SETS: [OnceLock<HashSet<&'static str>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    SETS[set as usize].get_or_init(|| match set {
        Set::Glsl => keywords::GLSL.iter().copied().collect(),
        Set::Wgsl => keywords::WGSL.split_whitespace().collect(),
        Set::WgslBuiltins => keywords::WGSL_BUILTINS.split_whitespace().collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names `requests` in order with one namer of `language`, and checks
    /// each answer.
    fn assert_names(language: Language, requests: &[(&str, &str)]) {
        let mut namer = Namer::new(language);
        for &(name, expected) in requests {
            assert_eq!(namer.call(name), expected, "{language:?}: `{name}`");
        }
    }

    #[test]
    fn reserved_words_and_prefixes_are_renamed() {
        assert_names(
            Language::Glsl,
            &[
                ("input", "input_1"),
                ("shared", "shared_1"),
                ("sample", "sample_1"),
                ("gl_thing", "v_gl_thing"),
                ("a__b", "a_b"),
                ("_if0", "if0"),
                ("ballot_x", "v_ballot_x"),
            ],
        );
        assert_names(
            Language::Wgsl,
            &[
                ("active", "active_1"),
                ("texture", "texture"),
                ("__x", "x"),
                ("_", "v_"),
            ],
        );
    }

    #[test]
    fn repeated_names_get_distinct_suffixes() {
        assert_names(Language::Wgsl, &[("x", "x"), ("x", "x_1"), ("x", "x_2")]);
        let mut namer = Namer::new(Language::Wgsl);
        namer.reserve("y");
        assert_eq!(namer.call("y"), "y_1");
    }

    #[test]
    fn reserving_wgsl_builtins_is_reserving_each() {
        let mut set = Namer::new(Language::Wgsl);
        set.reserve_wgsl_builtins();
        let mut each = Namer::new(Language::Wgsl);
        for word in keywords::WGSL_BUILTINS.split_whitespace() {
            each.reserve(word);
        }
        for name in [
            "select",
            "u32",
            "vec4",
            "min",
            "subgroupBallot",
            "x",
            "total",
            "array",
        ] {
            assert_eq!(set.clone().call(name), each.clone().call(name), "{name}");
        }
        assert_eq!(set.call("select"), "select_1");
    }
}
