//! `#include` in GLSL shaders (`GL_GOOGLE_include_directive`'s form,
//! `#include "name"` and `#include <name>`): expanded before the shader is
//! read, through an [`Includes`] the caller gives, each file's lines in
//! place of its directive, so that every line of the expanded text is a
//! line of one file, and an error on it goes back there.
//!
//! The expansion is textual and comes before the preprocessor. An
//! `#include` that cannot be resolved inside a conditional (`#if`,
//! `#ifdef`, `#ifndef`: a header for the host, a debug one that is not
//! shipped) becomes an `#error` line saying why, in its place: glslang,
//! like the emulated targets' reading of conditionals, reports it only
//! where its branch is compiled.
//! A file that holds `#pragma once` is expanded once; include guards
//! (`#ifndef`) work as they do in glslang, since the preprocessor still
//! sees them.

use std::path::{Path, PathBuf};

use ballot_ir::source::{self, MAX_SOURCE_BYTES};

/// How deep includes may nest: far deeper than real shaders go, and
/// shallow enough that a cycle stops at once.
pub const MAX_INCLUDE_DEPTH: usize = 32;

/// Where `#include` finds its files.
pub trait Includes {
    /// The file that `#include "name"` (`system`: `#include <name>`) names
    /// in the file at `from` (its path as [`Includes::include`] gave it,
    /// or the shader's own): that file's path, as messages name it, and its
    /// text; or why there is none.
    fn include(&self, name: &str, system: bool, from: &str) -> Result<(String, String), String>;
}

/// No includes: each `#include` is an error naming where a resolver is
/// given. What [`super::link`] uses.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoIncludes;

impl Includes for NoIncludes {
    fn include(&self, name: &str, _: bool, _: &str) -> Result<(String, String), String> {
        Err(format!(
            "cannot include `{name}`: no include directories were given (`ballot link -I DIR`, \
             `Build::include_dir`, or `link::link_with` and an `Includes`)"
        ))
    }
}

/// Files on disk: `#include "name"` relative to the including file's
/// directory, then in each directory in turn; `#include <name>` in the
/// directories only, as C compilers and glslang look. Each file is read
/// bounded, as the shader is ([`ballot_ir::source::read`]).
#[derive(Clone, Debug, Default)]
pub struct IncludeDirs {
    dirs: Vec<PathBuf>,
    root: Option<PathBuf>,
}

impl IncludeDirs {
    /// Includes relative to the including file only.
    pub fn new() -> Self {
        Self::default()
    }

    /// These, with `dir` searched after the ones before it.
    pub fn dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.dirs.push(dir.into());
        self
    }

    /// Relative paths (the including files', the directories') are
    /// relative to `root` rather than to the working directory, and the
    /// paths messages show are relative to it: the include macros' root is
    /// the crate's, `CARGO_MANIFEST_DIR`.
    pub fn root(mut self, root: impl Into<PathBuf>) -> Self {
        self.root = Some(root.into());
        self
    }

    /// `path` under the root, where there is one.
    pub fn under_root(&self, path: &Path) -> PathBuf {
        match &self.root {
            Some(root) => root.join(path),
            None => path.to_path_buf(),
        }
    }
}

impl Includes for IncludeDirs {
    fn include(&self, name: &str, system: bool, from: &str) -> Result<(String, String), String> {
        let from = self.under_root(Path::new(from));
        let beside = from.parent().map(|dir| dir.join(name));
        let candidates = beside
            .filter(|_| !system)
            .into_iter()
            .chain(self.dirs.iter().map(|dir| self.under_root(dir).join(name)));
        let mut tried = Vec::new();
        for path in candidates {
            if !path.is_file() {
                tried.push(path.display().to_string());
                continue;
            }
            let shown = match &self.root {
                Some(root) => path.strip_prefix(root).unwrap_or(&path),
                None => &path,
            };
            let shown = shown.display().to_string();
            let bytes = source::read(&path, MAX_SOURCE_BYTES)
                .map_err(|e| format!("cannot read `{shown}`: {e}"))?;
            let text = String::from_utf8(bytes).map_err(|e| {
                format!(
                    "`{shown}` is not UTF-8 (at byte {})",
                    e.utf8_error().valid_up_to()
                )
            })?;
            return Ok((shown, text));
        }
        Err(match tried.is_empty() {
            true => format!("cannot include `{name}`: no include directory was given"),
            false => format!("cannot include `{name}`: no file at {}", tried.join(", ")),
        })
    }
}

/// A run of lines of the expanded text from one file.
#[derive(Clone, Debug)]
struct Run {
    /// The run's first line in the expanded text, 1-based.
    line: u32,
    /// The file, an index into [`Expanded::files`].
    file: usize,
    /// The run's first line in the file, 1-based.
    file_line: u32,
}

/// A shader with its includes expanded.
#[derive(Clone, Debug)]
pub(super) struct Expanded {
    pub text: String,
    /// Every file read: the shader first, then each include, by path, with
    /// the line of the `#include` that first brought it in.
    pub files: Vec<(String, Option<(usize, u32)>)>,
    runs: Vec<Run>,
}

/// Why an expansion stopped: the file, the byte range of the `#include`
/// line in it, and the message.
pub(super) type Refused = (String, String, std::ops::Range<usize>, String);

impl Expanded {
    /// Where line `line` of the expanded text is: the file's index and its
    /// line there.
    pub fn origin(&self, line: u32) -> (usize, u32) {
        let at = self
            .runs
            .partition_point(|r| r.line <= line)
            .saturating_sub(1);
        let run = &self.runs[at];
        (run.file, run.file_line + (line - run.line))
    }
}

/// The name an `#include` line names, and whether in `<…>`.
fn directive(line: &str) -> Option<(&str, bool)> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("include")?.trim_start();
    let (close, system) = match rest.chars().next()? {
        '"' => ('"', false),
        '<' => ('>', true),
        _ => return None,
    };
    let name = &rest[1..];
    let end = name.find(close)?;
    Some((&name[..end], system))
}

/// Whether `line` opens a conditional (`Some(true)`: `#if`, `#ifdef`,
/// `#ifndef`) or closes one (`Some(false)`: `#endif`).
fn conditional(line: &str) -> Option<bool> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let word = rest
        .split(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or("");
    match word {
        "if" | "ifdef" | "ifndef" => Some(true),
        "endif" => Some(false),
        _ => None,
    }
}

fn is_pragma_once(line: &str) -> bool {
    let words: Vec<&str> = line
        .trim_start()
        .trim_start_matches('#')
        .split_whitespace()
        .collect();
    line.trim_start().starts_with('#') && words == ["pragma", "once"]
}

/// `source`, the file at `path`, with its includes expanded; `None` where
/// it has none (the text links as it is).
pub(super) fn expand(
    source: &str,
    path: &str,
    includes: &dyn Includes,
) -> Result<Option<Expanded>, Refused> {
    if !source.lines().any(|l| directive(l).is_some()) {
        return Ok(None);
    }
    let mut expanded = Expanded {
        text: String::with_capacity(source.len()),
        files: vec![(path.to_string(), None)],
        runs: Vec::new(),
    };
    let mut state = State {
        line: 1,
        conditionals: 0,
        once: Vec::new(),
    };
    file(
        &mut expanded,
        &mut state,
        includes,
        0,
        source.to_string(),
        &mut Vec::new(),
    )?;
    Ok(Some(expanded))
}

struct State {
    /// The next line of the expanded text.
    line: u32,
    /// How many conditionals are open at the line being read, in its
    /// file and in the files that include it.
    conditionals: usize,
    /// The files with `#pragma once` already expanded, by path.
    once: Vec<String>,
}

/// Appends file `index`, whose text is `text`, to `out`; `stack`: the files
/// that include it, outermost first.
fn file(
    out: &mut Expanded,
    state: &mut State,
    includes: &dyn Includes,
    index: usize,
    text: String,
    stack: &mut Vec<usize>,
) -> Result<(), Refused> {
    let path = out.files[index].0.clone();
    if is_once(&text) {
        state.once.push(path.clone());
    }
    stack.push(index);
    let mut run_open = false;
    let mut offset = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let range = offset..offset + line.trim_end_matches(['\r', '\n']).len();
        offset += line.len();
        let file_line = n as u32 + 1;
        let Some((name, system)) = directive(line) else {
            state.conditionals = match conditional(line) {
                Some(true) => state.conditionals + 1,
                Some(false) => state.conditionals.saturating_sub(1),
                None => state.conditionals,
            };
            open_run(out, state, &mut run_open, index, file_line);
            // `#pragma once` has done its work; glslang would warn of it.
            if is_pragma_once(line) {
                out.text
                    .push_str(&" ".repeat(line.trim_end_matches(['\r', '\n']).len()));
                out.text
                    .push_str(&line[line.trim_end_matches(['\r', '\n']).len()..]);
            } else {
                out.text.push_str(line);
            }
            if !line.ends_with('\n') {
                out.text.push('\n');
            }
            state.line += 1;
            continue;
        };
        let refuse = |message: String| (path.clone(), text.clone(), range.clone(), message);
        if stack.len() > MAX_INCLUDE_DEPTH {
            return Err(refuse(format!(
                "includes nest deeper than {MAX_INCLUDE_DEPTH} here: `{name}` includes itself, \
                 through {}",
                stack
                    .iter()
                    .map(|&i| format!("`{}`", out.files[i].0))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let (included, body) = match includes.include(name, system, &path) {
            Ok(found) => found,
            Err(why) if state.conditionals > 0 => {
                // In its place, one line: an error where the branch is
                // compiled, nothing where it is not.
                open_run(out, state, &mut run_open, index, file_line);
                out.text
                    .push_str(&format!("#error {}\n", why.replace(['\n', '\r'], " ")));
                state.line += 1;
                continue;
            }
            Err(why) => return Err(refuse(why)),
        };
        run_open = false;
        if state.once.contains(&included) {
            continue;
        }
        if out.text.len() + body.len() > MAX_SOURCE_BYTES {
            return Err(refuse(format!(
                "the shader with its includes passes {} MiB, the limit of a shader",
                MAX_SOURCE_BYTES >> 20
            )));
        }
        out.files.push((included, Some((index, file_line))));
        let child = out.files.len() - 1;
        file(out, state, includes, child, body, stack)?;
    }
    stack.pop();
    Ok(())
}

/// Starts a run of lines of file `index` at its line `file_line`, where
/// the line before was not of it.
fn open_run(out: &mut Expanded, state: &State, open: &mut bool, index: usize, file_line: u32) {
    if !*open {
        out.runs.push(Run {
            line: state.line,
            file: index,
            file_line,
        });
        *open = true;
    }
}

fn is_once(text: &str) -> bool {
    text.lines().any(is_pragma_once)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Files in memory, by name.
    struct Files(BTreeMap<&'static str, &'static str>);

    impl Includes for Files {
        fn include(&self, name: &str, _: bool, _: &str) -> Result<(String, String), String> {
            self.0
                .get(name)
                .map(|t| (name.to_string(), t.to_string()))
                .ok_or_else(|| format!("no `{name}`"))
        }
    }

    #[test]
    fn lines_map_back_to_their_files() {
        let files = Files(BTreeMap::from([
            ("a.glsl", "// a1\n#include \"b.glsl\"\n// a3"),
            ("b.glsl", "#pragma once\n// b2\n"),
        ]));
        let main = "#version 450\n#include \"a.glsl\"\n#include <b.glsl>\nvoid main() {}\n";
        let e = expand(main, "m.comp", &files).unwrap().expect("includes");
        assert_eq!(
            e.text,
            "#version 450\n// a1\n            \n// b2\n// a3\nvoid main() {}\n"
        );
        let at = |line| {
            let (file, l) = e.origin(line);
            (e.files[file].0.as_str(), l)
        };
        assert_eq!(at(1), ("m.comp", 1));
        assert_eq!(at(2), ("a.glsl", 1));
        assert_eq!(at(3), ("b.glsl", 1));
        assert_eq!(at(4), ("b.glsl", 2));
        assert_eq!(at(5), ("a.glsl", 3));
        assert_eq!(at(6), ("m.comp", 4));
        assert_eq!(e.files[2].1, Some((1, 2)));
        assert!(expand("void main() {}\n", "m.comp", &files)
            .unwrap()
            .is_none());
    }

    #[test]
    fn a_cycle_and_a_missing_file_stop_at_the_directive() {
        let files = Files(BTreeMap::from([("self.glsl", "#include \"self.glsl\"\n")]));
        let (path, _, range, message) =
            expand("#version 450\n#include \"self.glsl\"\n", "m.comp", &files).unwrap_err();
        assert_eq!(path, "self.glsl");
        assert_eq!(range, 0..20);
        assert!(message.contains("nest deeper than 32"), "{message}");
        let (path, text, range, message) =
            expand("#version 450\n  #include \"gone.glsl\"\n", "m.comp", &files).unwrap_err();
        assert_eq!(
            (path.as_str(), &text[range]),
            ("m.comp", "  #include \"gone.glsl\"")
        );
        assert_eq!(message, "no `gone.glsl`");
    }

    #[test]
    fn a_missing_file_inside_a_conditional_is_an_error_only_where_compiled() {
        let files = Files(BTreeMap::new());
        let text = "#version 450\n#ifdef HOST\n#include \"host.h\"\n#endif\nvoid main() {}\n";
        let expanded = expand(text, "m.comp", &files).unwrap().unwrap();
        let lines: Vec<&str> = expanded.text.lines().collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[2], "#error no `host.h`");
        assert_eq!(expanded.origin(3), (0, 3));
        assert_eq!(expanded.origin(5), (0, 5));
        // After the conditional closes, a missing file stops the expansion.
        let text = "#ifdef HOST\n#endif\n#include \"host.h\"\n";
        assert!(expand(text, "m.comp", &files).is_err());
    }

    #[test]
    fn directories_are_searched_in_order() {
        let root = std::env::temp_dir().join(format!("ballot-include-{}", std::process::id()));
        let (beside, first, second) = (root.join("shader"), root.join("one"), root.join("two"));
        for dir in [&beside, &first, &second] {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(beside.join("x.glsl"), "beside").unwrap();
        std::fs::write(second.join("x.glsl"), "second").unwrap();
        std::fs::write(second.join("y.glsl"), "y").unwrap();
        let dirs = IncludeDirs::new().dir(&first).dir(&second);
        let from = beside.join("m.comp").display().to_string();
        assert_eq!(dirs.include("x.glsl", false, &from).unwrap().1, "beside");
        assert_eq!(dirs.include("x.glsl", true, &from).unwrap().1, "second");
        assert_eq!(dirs.include("y.glsl", false, &from).unwrap().1, "y");
        let missing = dirs.include("z.glsl", false, &from).unwrap_err();
        assert!(
            missing.contains("no file at") && missing.contains("two"),
            "{missing}"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
