//! glslang, the Khronos reference compiler, run as `glslangValidator`: the
//! validator of the GLSL a user writes (the linker's verdict, and `ballot
//! check`'s where naga's GLSL front end cannot read a text), and its
//! report as a diagnostic on the text.
//!
//! It runs as a program, found as [`GLSLANG_VAR`] or on `PATH`, and not as
//! a library: the glslang crates build its C++ from source, minutes on
//! two cores for every user's first build. Each run is bounded: its output
//! at 1 MiB, its time at [`GLSLANG_TIMEOUT`], after which it is killed.

use std::io::{Read as _, Write as _};
use std::ops::Range;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::Diagnostic;

/// How long glslang may take on one text: `ballot check`'s limit
/// (`check::TIMEOUT`).
pub const GLSLANG_TIMEOUT: Duration = Duration::from_secs(60);

/// The environment variable naming the `glslangValidator` to run.
pub const GLSLANG_VAR: &str = "BALLOT_GLSLANG";

/// The stages glslang names by a file's extension.
pub(crate) const STAGES: [&str; 14] = [
    "comp", "frag", "vert", "geom", "tesc", "tese", "mesh", "task", "rgen", "rint", "rahit",
    "rchit", "rmiss", "rcall",
];

/// The stage glslang compiles a file as, from its extension as glslang
/// names stages (`.comp`, `.frag`, `.vert`, …), or, as glslang reads
/// `x.frag.glsl` and `x.frag.hlsl`, from the extension before a last
/// `.glsl` or `.hlsl`; any other name (`.glsl`) is a compute shader, and
/// the second value says the stage was assumed.
pub(crate) fn glsl_stage(path: &str) -> (&'static str, bool) {
    // Only the file's name: a folder may hold dots.
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let mut extensions = name.rsplit('.');
    let mut extension = extensions.next().filter(|_| name.contains('.'));
    if matches!(extension, Some("glsl" | "hlsl")) {
        // A name of one part before `.glsl` has no stage in it.
        extension = extensions.next().filter(|_| name.matches('.').count() >= 2);
    }
    match STAGES.iter().find(|&&s| Some(s) == extension) {
        Some(stage) => (stage, false),
        None => ("comp", true),
    }
}

/// The Vulkan version a GLSL shader is compiled for, as glslang's
/// `--target-env`: it sets the SPIR-V version, and with it what the
/// language allows (from SPIR-V 1.5, Vulkan 1.2, `subgroupBroadcast`'s lane
/// need only be dynamically uniform, not a constant).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum VulkanVersion {
    /// Vulkan 1.1 (SPIR-V 1.3), where subgroups begin: the default, so
    /// that a linked shader runs on every Vulkan device with subgroups.
    #[default]
    V1_1,
    /// Vulkan 1.2 (SPIR-V 1.5).
    V1_2,
    /// Vulkan 1.3 (SPIR-V 1.6).
    V1_3,
}

impl VulkanVersion {
    /// Every version, oldest first.
    pub const ALL: [VulkanVersion; 3] = [Self::V1_1, Self::V1_2, Self::V1_3];

    /// The version written `1.2` or `vulkan1.2`; for any other text, the
    /// error naming it and the versions there are.
    ///
    /// # Errors
    /// A text that names no version.
    pub fn parse(text: &str) -> Result<Self, String> {
        let number = text.strip_prefix("vulkan").unwrap_or(text);
        Self::ALL
            .into_iter()
            .find(|v| v.number() == number)
            .ok_or_else(|| {
                format!(
                    "unknown Vulkan version `{text}`: one of {}",
                    Self::ALL.map(Self::number).join(", ")
                )
            })
    }

    /// `1.1`, `1.2` or `1.3`.
    pub fn number(self) -> &'static str {
        match self {
            Self::V1_1 => "1.1",
            Self::V1_2 => "1.2",
            Self::V1_3 => "1.3",
        }
    }

    /// glslang's `--target-env` for it.
    fn env(self) -> &'static str {
        match self {
            Self::V1_1 => "vulkan1.1",
            Self::V1_2 => "vulkan1.2",
            Self::V1_3 => "vulkan1.3",
        }
    }
}

impl std::fmt::Display for VulkanVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Vulkan {}", self.number())
    }
}

/// What glslang compiles and judges a GLSL shader for: Vulkan at a
/// version, or OpenGL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GlslApi {
    /// Vulkan: glslang's `-V --target-env vulkan1.x`, to SPIR-V, with
    /// Vulkan's rules (every uniform in a block, every resource bound).
    Vulkan(VulkanVersion),
    /// OpenGL: glslang's checks for an OpenGL driver's own compiler (no
    /// `-V`, no SPIR-V), which take what Vulkan refuses, such as a
    /// uniform outside a block or a sampler without a binding.
    OpenGl,
}

impl Default for GlslApi {
    /// Vulkan 1.1, where subgroups begin.
    fn default() -> Self {
        Self::Vulkan(VulkanVersion::default())
    }
}

impl From<VulkanVersion> for GlslApi {
    fn from(version: VulkanVersion) -> Self {
        Self::Vulkan(version)
    }
}

impl std::fmt::Display for GlslApi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Vulkan(version) => version.fmt(f),
            Self::OpenGl => f.write_str("OpenGL"),
        }
    }
}

/// What glslang made of a text it compiled: SPIR-V for Vulkan; for
/// OpenGL, which it only checks, its intermediate tree.
pub(crate) enum Compiled {
    /// The SPIR-V words.
    Spirv(Vec<u32>),
    /// The `-i` listing.
    Tree(String),
}

/// Whether glslang's `message` is a rule of GLSL for Vulkan that OpenGL's
/// GLSL lacks (GL_KHR_vulkan_glsl): uniforms in blocks, resources bound.
pub(crate) fn vulkan_rule(message: &str) -> bool {
    ["using GLSL for Vulkan", "requires layout(binding"]
        .iter()
        .any(|rule| message.contains(rule))
}

/// The Vulkan version glslang compiles a stage for: `vulkan`, but at
/// least 1.2 for the stages that exist only from SPIR-V 1.4 on (task and
/// mesh shaders of GL_EXT_mesh_shader, and ray tracing's), which glslang
/// refuses to compile for 1.1.
fn target_env(stage: &str, vulkan: VulkanVersion) -> &'static str {
    let least = match stage {
        "task" | "mesh" | "rgen" | "rint" | "rahit" | "rchit" | "rmiss" | "rcall" => {
            VulkanVersion::V1_2
        }
        _ => VulkanVersion::V1_1,
    };
    vulkan.max(least).env()
}

fn glslang_program() -> PathBuf {
    std::env::var_os(GLSLANG_VAR)
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from("glslangValidator"), PathBuf::from)
}

/// Whether `glslangValidator` runs here: asked once a process, as the
/// program does not come or go while one runs.
pub(crate) fn runs() -> bool {
    static RUNS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *RUNS.get_or_init(|| {
        Command::new(glslang_program())
            .arg("--version")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    })
}

/// Compiles `text` as a shader of `stage` for `api` (for Vulkan, 1.2
/// where the stage needs it: [`target_env`]) with glslang: its SPIR-V
/// words, or for OpenGL its tree, or glslang's first error as a
/// diagnostic on `text` (its later errors as notes). A glslang that
/// cannot run, or that runs past [`GLSLANG_TIMEOUT`], is a diagnostic
/// without a place, saying so.
pub(crate) fn compile(text: &str, stage: &str, api: GlslApi) -> Result<Compiled, Diagnostic> {
    let tree = api == GlslApi::OpenGl;
    let (compiled, report) = run(text, stage, api, tree);
    compiled.map(|words| match words {
        Some(words) => Compiled::Spirv(words),
        None => Compiled::Tree(report),
    })
}

/// glslang's intermediate tree of `text` (its `-i` listing, bounded as
/// its report is), where it compiles: what it knows of every
/// expression's type, line by line.
pub(crate) fn intermediate(text: &str, stage: &str, api: GlslApi) -> Option<String> {
    let (compiled, report) = run(text, stage, api, true);
    compiled.ok().map(|_| report)
}

/// glslang on `text`: the SPIR-V (none for OpenGL) or the diagnostic,
/// and its report (with `intermediate`, the tree first).
fn run(
    text: &str,
    stage: &str,
    api: GlslApi,
    intermediate: bool,
) -> (Result<Option<Vec<u32>>, Diagnostic>, String) {
    let program = glslang_program();
    let plain = |message: String| Diagnostic {
        message,
        labels: Vec::new(),
        notes: Vec::new(),
    };
    // Parallel links (tests, a build script's threads) each have a file.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let spv = std::env::temp_dir().join(format!(
        "ballot-link-{}-{}.spv",
        std::process::id(),
        CALLS.fetch_add(1, Ordering::Relaxed)
    ));
    let mut command = Command::new(&program);
    match api {
        GlslApi::Vulkan(vulkan) => command
            .args(["-V", "--target-env", target_env(stage, vulkan)])
            .arg("-o")
            .arg(&spv),
        GlslApi::OpenGl => &mut command,
    };
    let child = command
        .args(["--stdin", "-S", stage])
        .args(intermediate.then_some("-i"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            plain(format!(
                "GLSL is judged by glslang, the Khronos reference compiler, and `{}` cannot \
                 run ({e}): install it (Debian and Ubuntu: `apt install glslang-tools`), or \
                 name it in {GLSLANG_VAR}",
                program.display()
            ))
        });
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return (Err(e), String::new()),
    };
    // Writing and reading on threads of their own: a pipe that fills
    // would otherwise stop both sides.
    let input = child.stdin.take().map(|mut pipe| {
        let text = text.as_bytes().to_vec();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&text);
        })
    });
    // glslang's report on a text of at most 16 MiB, bounded all the same:
    // its messages at 1 MiB; its intermediate tree, which lists every
    // node of every expression (ggml's flash attention, 130 KB of GLSL,
    // gives 1.4 MB; a chain of vector arithmetic 25 bytes a byte), at 64
    // bytes a byte of the text and at most 256 MiB, so that a large
    // shader's tree is read whole. Past the bound glslang's pipe closes,
    // and the run fails.
    let bound = match intermediate {
        true => (text.len() as u64)
            .saturating_mul(64)
            .clamp(1 << 20, 1 << 28),
        false => 1 << 20,
    };
    let reader = move |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut out = Vec::new();
            if let Some(pipe) = pipe {
                let _ = pipe.take(bound).read_to_end(&mut out);
            }
            out
        })
    };
    let stdout = reader(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = reader(child.stderr.take().map(|p| Box::new(p) as _));
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) if started.elapsed() > GLSLANG_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                break Err(format!(
                    "glslang did not finish within {} s",
                    GLSLANG_TIMEOUT.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => break Err(format!("waiting for glslang: {e}")),
        }
    };
    if let Some(input) = input {
        let _ = input.join();
    }
    let mut report = stdout.join().unwrap_or_default();
    report.extend(stderr.join().unwrap_or_default());
    let report = String::from_utf8_lossy(&report).into_owned();
    let result = match status {
        Err(message) => Err(plain(message)),
        Ok(status) if status.success() && api == GlslApi::OpenGl => Ok(None),
        Ok(status) if status.success() => match std::fs::read(&spv) {
            Ok(bytes) => Ok(Some(
                bytes
                    .chunks_exact(4)
                    .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                    .collect(),
            )),
            Err(e) => Err(plain(format!("glslang wrote no SPIR-V: {e}"))),
        },
        Ok(_) => Err(diagnostic(text, &report)),
    };
    let _ = std::fs::remove_file(&spv);
    (result, report)
}

/// glslang's errors on `text`, as a diagnostic: the first at its line (at
/// the token it quotes, where that is on the line), the rest as notes.
/// glslang writes each as `ERROR: stdin:LINE: 'TOKEN' : MESSAGE`, or
/// without a place (`ERROR: #version: …`, `ERROR: Linking compute stage:
/// …`).
fn diagnostic(text: &str, report: &str) -> Diagnostic {
    let mut errors = report.lines().filter_map(|line| {
        let rest = line.trim().strip_prefix("ERROR: ")?;
        let placed = rest
            .strip_prefix("stdin:")
            .or_else(|| rest.strip_prefix("0:"));
        let (number, rest) = match placed.and_then(|r| r.split_once(':')) {
            Some((number, rest)) if number.trim().parse::<usize>().is_ok() => {
                (number.trim().parse::<usize>().ok(), rest.trim())
            }
            _ => (None, rest),
        };
        let (token, message) = match rest.strip_prefix('\'').and_then(|r| r.split_once("' :")) {
            Some((token, message)) => (token, message.trim()),
            None => ("", rest),
        };
        // glslang's own closing words, which say nothing of the text.
        let closing = message == "compilation terminated"
            || message.ends_with("compilation errors.  No code generated.")
            || message.ends_with("compilation error.  No code generated.");
        (!closing).then_some((number, token, message))
    });
    let Some((number, token, message)) = errors.next() else {
        return Diagnostic {
            message: format!("glslang rejects the shader: {}", report.trim()),
            labels: Vec::new(),
            notes: Vec::new(),
        };
    };
    let quoted = |token: &str, message: &str| match token {
        "" => message.to_string(),
        token => format!("`{token}`: {message}"),
    };
    let notes: Vec<String> = errors
        .take(8)
        .map(|(n, token, message)| match n {
            Some(n) => format!(
                "glslang, also: {} (line {n} of the text it was given)",
                quoted(token, message)
            ),
            None => format!("glslang, also: {}", quoted(token, message)),
        })
        .collect();
    // No line given: the first line, where `#version` belongs, for
    // glslang's words on it; else no place.
    let number = number.or_else(|| message.starts_with("#version").then_some(1));
    Diagnostic {
        message: format!("glslang: {}", quoted(token, message)),
        labels: number
            .and_then(|n| line_range(text, n, token))
            .map(|range| (range, String::new()))
            .into_iter()
            .collect(),
        notes,
    }
}

/// The range of `token` on 1-based line `number` of `text`, or of the
/// line's code where the token is not on it.
fn line_range(text: &str, number: usize, token: &str) -> Option<Range<usize>> {
    let start: usize = text
        .split_inclusive('\n')
        .take(number.checked_sub(1)?)
        .map(str::len)
        .sum();
    let line = text[start..].split('\n').next()?;
    if let Some(at) = (!token.is_empty()).then(|| line.find(token)).flatten() {
        return Some(start + at..start + at + token.len());
    }
    let code = line.trim_start();
    let indent = line.len() - code.len();
    Some(start + indent..start + indent + code.trim_end().len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glslang_errors_are_placed_at_their_token() {
        let text =
            "#version 450\nlayout(local_size_x = 4) in;\nvoid main() {\n  int x = foo(1);\n}\n";
        let report = "stdin\nERROR: stdin:4: 'foo' : no matching overloaded function found \n\
                      ERROR: stdin:4: '=' :  cannot convert from ' const float' to ' temp highp int'\n\
                      ERROR: stdin:4: '' : compilation terminated \nERROR: 3 compilation errors.  No code generated.\n";
        let d = diagnostic(text, report);
        assert_eq!(
            d.message,
            "glslang: `foo`: no matching overloaded function found"
        );
        let (range, _) = &d.labels[0];
        assert_eq!(&text[range.clone()], "foo");
        assert_eq!(d.notes.len(), 1, "{:?}", d.notes);
        assert!(d.notes[0].contains("cannot convert"), "{:?}", d.notes);
        // A token not on its line: the line's code.
        assert_eq!(
            line_range(text, 2, "zzz").map(|r| &text[r]),
            Some("layout(local_size_x = 4) in;")
        );
        assert_eq!(line_range(text, 0, "x"), None);
    }

    #[test]
    fn stages_come_from_glslang_s_extensions() {
        assert_eq!(glsl_stage("a/b.frag"), ("frag", false));
        assert_eq!(glsl_stage("x.comp"), ("comp", false));
        assert_eq!(glsl_stage("x.glsl"), ("comp", true));
        assert_eq!(glsl_stage("noext"), ("comp", true));
        // glslang's `x.STAGE.glsl` (StandAlone.cpp's FindLanguage).
        assert_eq!(glsl_stage("cull.task.glsl"), ("task", false));
        assert_eq!(glsl_stage("dir/shade.frag.hlsl"), ("frag", false));
        assert_eq!(glsl_stage("x.y.glsl"), ("comp", true));
        // Dots of a folder are not extensions.
        assert_eq!(glsl_stage("v1.frag/x.glsl"), ("comp", true));
        assert_eq!(glsl_stage("v1.frag/glsl"), ("comp", true));
        assert_eq!(glsl_stage(".frag"), ("frag", false));
    }
}
