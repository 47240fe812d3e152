//! naga's verdicts on texts it found valid, kept between builds under the
//! target directory: part of the validation pass of the expansion
//! ([`super::validate`]).
//!
//! A rebuild expands every kernel of the crate again, and all but the
//! edited ones write the same texts as before: naga need not read them
//! again. An entry is a file that holds everything the verdict was
//! reached from: the kind of check, the target and its capabilities, the
//! text naga read and, for a compute shader that stands for its library,
//! the parts the library lacks. A lookup compares the file with that,
//! byte for byte, so neither a hash collision nor a stale or damaged file
//! can stand in for a verdict. Only successes are kept: a failure is
//! always validated again, so that its report is naga's.
//!
//! The entries live in a directory named after the build of the proc
//! macro that wrote them: the name, size and modification time of every
//! `ballot_macros` library in rustc's dependency directories. A new naga,
//! a new ballot or a change to either (a path dependency being edited)
//! rebuilds that library, and the verdicts of the old one are not read
//! (the directory is removed). Where rustc's output directory or those
//! libraries cannot be found (rust-analyzer runs the macro outside rustc),
//! nothing is cached; where a file cannot be read or written, the text is
//! validated as if it had never been. `cargo clean` removes the cache, and
//! [`CACHE_VAR`] turns it off.

use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::UNIX_EPOCH;

use ballot_naga::valid;
use ballot_shader::back::Target;

/// Set this environment variable to `off` (or `0`) while building to have
/// every `#[ballot::kernel]` validate its shaders with naga, whatever was
/// validated before. The output is the same either way.
pub const CACHE_VAR: &str = "BALLOT_VALIDATION_CACHE";

/// Changes when what an entry means changes.
const FORMAT: &str = "ballot validation verdict 1";

/// The directory under rustc's output directory's parent (the profile's
/// directory of the target directory) that holds the cache.
const DIR: &str = "ballot-validation";

/// More entries than this, and the directory is emptied once.
const MAX_ENTRIES: usize = 20_000;

/// What a verdict is about.
#[derive(Clone, Copy, Debug)]
pub enum Key<'a> {
    /// A text ballot wrote in the validation mode, in `form`, valid
    /// itself ([`valid::validate_printed`]).
    Text(Target, ballot_shader::back::Form, &'a str),
    /// The text of a compute shader in the validation mode, valid, and
    /// valid without the parts `compute_only` ([`valid::validate_with_library`]).
    WithLibrary(Target, &'a str, &'a [Range<usize>]),
}

impl Key<'_> {
    /// Everything the verdict depends on besides naga and ballot, whose
    /// build names the directory.
    fn contents(&self) -> String {
        let mut head = format!("{FORMAT}\n");
        let text = match *self {
            Key::Text(target, form, text) => {
                let caps = valid::capabilities(target).bits();
                let _ = writeln!(head, "text {target} {form} {caps:#x}");
                text
            }
            Key::WithLibrary(target, text, ranges) => {
                let caps = valid::capabilities(target).bits();
                let _ = write!(head, "with-library {target} {caps:#x}");
                for range in ranges {
                    let _ = write!(head, " {}..{}", range.start, range.end);
                }
                head.push('\n');
                text
            }
        };
        head + text
    }
}

/// The cache of one build of the proc macro, for one target directory.
#[derive(Debug)]
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    /// The cache of this rustc process, found once; `None` where there is
    /// none (see the module docs).
    pub fn get() -> Option<&'static Cache> {
        static CACHE: OnceLock<Option<Cache>> = OnceLock::new();
        CACHE.get_or_init(Cache::find).as_ref()
    }

    fn find() -> Option<Cache> {
        let setting = std::env::var(CACHE_VAR).unwrap_or_default();
        if matches!(setting.trim(), "off" | "0") {
            return None;
        }
        let args: Vec<String> = std::env::args().collect();
        let out_dir = flag_values(&args, "--out-dir").next()?;
        let root = Path::new(&out_dir).parent()?.join(DIR);
        let build = macro_build(
            flag_values(&args, "-L")
                .filter_map(|v| v.strip_prefix("dependency=").map(str::to_string)),
        )?;
        let dir = root.join(format!("{build:016x}"));
        if !dir.is_dir() {
            // The verdicts of other builds of the macro are never read.
            if let Ok(entries) = fs::read_dir(&root) {
                for entry in entries.flatten() {
                    let _ = fs::remove_dir_all(entry.path());
                }
            }
            fs::create_dir_all(&dir).ok()?;
        } else if fs::read_dir(&dir).map_or(0, Iterator::count) > MAX_ENTRIES {
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).ok()?;
        }
        Some(Cache { dir })
    }

    /// A cache in `dir`, for tests.
    #[cfg(test)]
    pub(crate) fn at(dir: PathBuf) -> Cache {
        Cache { dir }
    }

    /// Whether naga found what `key` describes valid before.
    pub fn has(&self, key: &Key<'_>) -> bool {
        let contents = key.contents();
        fs::read(self.path(&contents)).is_ok_and(|kept| kept == contents.as_bytes())
    }

    /// Records that naga found what `key` describes valid. Best effort: a
    /// verdict that cannot be kept is found again next time.
    pub fn keep(&self, key: &Key<'_>) {
        let contents = key.contents();
        let path = self.path(&contents);
        // Written aside, then renamed: a concurrent reader sees the whole
        // file or none.
        static WRITES: AtomicUsize = AtomicUsize::new(0);
        let n = WRITES.fetch_add(1, Ordering::Relaxed);
        let temp = path.with_extension(format!("{}-{n}.tmp", std::process::id()));
        let written = fs::File::create(&temp)
            .and_then(|mut file| file.write_all(contents.as_bytes()))
            .and_then(|()| fs::rename(&temp, &path));
        if written.is_err() {
            let _ = fs::remove_file(&temp);
        }
    }

    fn path(&self, contents: &str) -> PathBuf {
        self.dir
            .join(format!("{:016x}", fnv1a(contents.as_bytes())))
    }
}

/// The values of a command-line flag given as `flag value` or
/// `flag=value` (rustc takes both), in order.
fn flag_values<'a>(args: &'a [String], flag: &'a str) -> impl Iterator<Item = String> + 'a {
    args.iter().enumerate().filter_map(move |(i, arg)| {
        if arg == flag {
            args.get(i + 1).cloned()
        } else {
            arg.strip_prefix(flag)
                .and_then(|rest| rest.strip_prefix('='))
                .map(str::to_string)
        }
    })
}

/// A hash of the name, size and modification time of every
/// `ballot_macros` library in `dirs`: the build of this proc macro (and of
/// every variant of it there), or `None` if there is none.
fn macro_build(dirs: impl Iterator<Item = String>) -> Option<u64> {
    let mut found = Vec::new();
    for dir in dirs {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let stem = name.strip_prefix("lib").unwrap_or(&name);
            if !stem.starts_with("ballot_macros-") || name.ends_with(".d") {
                continue;
            }
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            let modified = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            found.push(format!("{dir}/{name} {} {modified}", meta.len()));
        }
    }
    found.sort();
    (!found.is_empty()).then(|| fnv1a(found.join("\n").as_bytes()))
}

/// FNV-1a, 64 bits: file names only; the contents decide a hit.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ballot_shader::back::Form;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ballot-cache-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_kept_verdict_is_found_for_the_same_key_only() {
        let dir = temp_dir("keys");
        let cache = Cache::at(dir.clone());
        let text = "fn f() {}\n";
        let key = Key::Text(Target::Wgsl, Form::Helpers, text);
        assert!(!cache.has(&key));
        cache.keep(&key);
        assert!(cache.has(&key));
        // Another text, target (capabilities), form or kind: no verdict.
        assert!(!cache.has(&Key::Text(Target::Wgsl, Form::Helpers, "fn g() {}\n")));
        assert!(!cache.has(&Key::Text(Target::WgslNoSubgroup, Form::Helpers, text)));
        assert!(!cache.has(&Key::Text(Target::Wgsl, Form::ComputeShader, text)));
        assert!(!cache.has(&Key::WithLibrary(Target::Wgsl, text, &[])));
        let ranges = vec![1..3, 5..8];
        cache.keep(&Key::WithLibrary(Target::Wgsl, text, &ranges));
        assert!(!cache.has(&Key::WithLibrary(Target::Wgsl, text, &[1..3, 5..9])));
        assert!(cache.has(&Key::WithLibrary(Target::Wgsl, text, &ranges)));
        let _ = fs::remove_dir_all(dir);
    }

    #[test]
    fn a_damaged_or_colliding_entry_is_no_verdict() {
        let dir = temp_dir("damaged");
        let cache = Cache::at(dir.clone());
        let key = Key::Text(Target::Glsl, Form::ComputeShader, "void main() {}\n");
        cache.keep(&key);
        // The file under the key's name holds something else: another
        // key with the same hash, or a torn write.
        let path = cache.path(&key.contents());
        fs::write(&path, "void main() {}\n").unwrap();
        assert!(!cache.has(&key));
        let _ = fs::remove_dir_all(dir);
    }

    #[test]
    fn flags_are_read_in_both_spellings() {
        let args: Vec<String> = [
            "rustc",
            "--out-dir",
            "/t/debug/deps",
            "-L",
            "dependency=/a",
            "-L=dependency=/b",
        ]
        .map(str::to_string)
        .to_vec();
        assert_eq!(
            flag_values(&args, "--out-dir").collect::<Vec<_>>(),
            ["/t/debug/deps"]
        );
        assert_eq!(
            flag_values(&args, "-L").collect::<Vec<_>>(),
            ["dependency=/a", "dependency=/b"]
        );
    }

    #[test]
    fn the_build_of_the_macro_changes_with_its_library() {
        let dir = temp_dir("build");
        let dirs = || std::iter::once(dir.to_string_lossy().into_owned());
        assert_eq!(macro_build(dirs()), None);
        fs::write(dir.join("libballot_macros-0123.so"), "one").unwrap();
        fs::write(dir.join("libballot_expand-0123.rlib"), "other").unwrap();
        let first = macro_build(dirs()).unwrap();
        assert_eq!(macro_build(dirs()), Some(first));
        fs::write(dir.join("libballot_macros-0123.so"), "rebuilt").unwrap();
        assert_ne!(macro_build(dirs()), Some(first));
        let _ = fs::remove_dir_all(dir);
    }
}
