//! What the workspace's tests share when something they need is missing.
//!
//! Some tests need programs outside Rust (glslang, spirv-val) or a driver
//! (a Vulkan adapter, Node's `webgpu` package for Dawn). Where one is
//! missing, the test skips the part that needs it, and the skip is never
//! silent:
//! - a `SKIPPED …` line goes to stderr past the test harness's capture, so
//!   it is seen in a passing run;
//! - a line goes to the ledger file named by [`LEDGER_VAR`], from which
//!   `scripts/test` prints one summary at the end of the run: what was
//!   skipped, why, and the command that installs what was missing;
//! - [`REQUIRE_TOOLS_VAR`]`=1` and [`REQUIRE_GPU_VAR`]`=1` turn the skips
//!   of each kind into failures. CI sets both.
//! - A tool that runs but is older than a test needs is a kind of its own,
//!   which only [`REQUIRE_VERSIONS_VAR`]`=1` turns into a failure: Debian
//!   bookworm's glslang and SPIRV-Tools predate some extensions, and no
//!   package of that release brings newer ones, so CI cannot require them.

pub mod kernels;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;

/// Set to `1`, a missing tool fails the test instead of skipping it.
pub const REQUIRE_TOOLS_VAR: &str = "BALLOT_REQUIRE_TOOLS";

/// Set to `1`, a missing driver fails the test instead of skipping it.
pub const REQUIRE_GPU_VAR: &str = "BALLOT_REQUIRE_GPU";

/// Set to `1`, a tool too old for a test fails the test instead of
/// skipping it.
pub const REQUIRE_VERSIONS_VAR: &str = "BALLOT_REQUIRE_TOOL_VERSIONS";

/// A file that every skip appends one line to:
/// `kind<TAB>what<TAB>why<TAB>install`. `scripts/test` sets it and reads
/// it back for its summary.
pub const LEDGER_VAR: &str = "BALLOT_SKIP_LEDGER";

/// What a skipped test lacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// An external program; [`REQUIRE_TOOLS_VAR`] forbids the skip.
    Tool,
    /// A driver or device; [`REQUIRE_GPU_VAR`] forbids the skip.
    Gpu,
    /// A newer version of a tool that runs; [`REQUIRE_VERSIONS_VAR`]
    /// forbids the skip.
    Version,
}

impl Need {
    /// The environment variable that turns this kind of skip into a
    /// failure.
    pub fn require_var(self) -> &'static str {
        match self {
            Need::Tool => REQUIRE_TOOLS_VAR,
            Need::Gpu => REQUIRE_GPU_VAR,
            Need::Version => REQUIRE_VERSIONS_VAR,
        }
    }

    /// The ledger's name for the kind.
    pub fn name(self) -> &'static str {
        match self {
            Need::Tool => "tool",
            Need::Gpu => "gpu",
            Need::Version => "version",
        }
    }

    /// Whether the environment forbids skipping for lack of this.
    pub fn required(self) -> bool {
        std::env::var(self.require_var()).is_ok_and(|v| v == "1")
    }
}

/// An external program some tests run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tool {
    /// The program's name on `PATH`.
    pub program: &'static str,
    /// The arguments that make it print its version and exit 0.
    pub version_args: &'static [&'static str],
    /// The command that installs it on Debian.
    pub install: &'static str,
}

/// glslang's reference compiler, which compiles GLSL to SPIR-V.
pub const GLSLANG: Tool = Tool {
    program: "glslangValidator",
    version_args: &["--version"],
    install: "apt-get install glslang-tools",
};

/// The SPIR-V validator of SPIRV-Tools.
pub const SPIRV_VAL: Tool = Tool {
    program: "spirv-val",
    version_args: &["--version"],
    install: "apt-get install spirv-tools",
};

/// The SPIR-V disassembler of SPIRV-Tools.
pub const SPIRV_DIS: Tool = Tool {
    program: "spirv-dis",
    version_args: &["--version"],
    install: "apt-get install spirv-tools",
};

/// What GLSL's checks beyond naga run: [`GLSLANG`], then [`SPIRV_VAL`].
pub const GLSL_TOOLS: [Tool; 2] = [GLSLANG, SPIRV_VAL];

/// A compute shader whose `subgroupBroadcast` lane is dynamically uniform
/// (a push constant), not constant: GL_KHR_shader_subgroup_ballot allows
/// it from SPIR-V 1.5 (Vulkan 1.2) only, so glslang compiles it for Vulkan
/// 1.2 and refuses it for 1.1. The broadcast is on line 7.
pub const DYNAMIC_BROADCAST_COMP: &str = "#version 450
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint data[]; };
layout(push_constant) uniform P { uint src; };
void main() {
    data[gl_LocalInvocationID.x] = subgroupBroadcast(data[gl_LocalInvocationID.x], src);
}
";

impl Tool {
    /// Whether the program runs: `Err` says why not. Asked once per
    /// process and program.
    pub fn available(&self) -> Result<(), String> {
        static SEEN: Mutex<BTreeMap<&'static str, Result<(), String>>> =
            Mutex::new(BTreeMap::new());
        let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
        seen.entry(self.program)
            .or_insert_with(|| self.probe())
            .clone()
    }

    fn probe(&self) -> Result<(), String> {
        let status = Command::new(self.program)
            .args(self.version_args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        match status {
            Ok(s) if s.success() => Ok(()),
            Ok(s) => Err(format!("`{} --version` failed ({s})", self.program)),
            Err(e) => Err(format!("`{}` cannot run: {e}", self.program)),
        }
    }
}

/// Whether every tool in `tools` runs. Where one does not, records that
/// `what` was skipped for lack of it (or panics, if
/// [`REQUIRE_TOOLS_VAR`]`=1`) and returns `false`.
#[track_caller]
pub fn have_tools(what: &str, tools: &[Tool]) -> bool {
    for tool in tools {
        if let Err(why) = tool.available() {
            skip(Need::Tool, what, &why, tool.install);
            return false;
        }
    }
    true
}

/// Skips `what` for lack of a driver (or panics, if
/// [`REQUIRE_GPU_VAR`]`=1`).
#[track_caller]
pub fn skip_gpu(what: &str, why: &str) {
    skip(Need::Gpu, what, why, GPU_INSTALL);
}

/// Skips `what` because a tool that runs is too old for it: `why` names
/// the tool, its version and the first version that would do; `install`
/// says where a newer one comes from. Panics instead if
/// [`REQUIRE_VERSIONS_VAR`]`=1`.
#[track_caller]
pub fn skip_outdated(what: &str, why: &str, install: &str) {
    skip(Need::Version, what, why, install);
}

/// The first line `tool` prints with its version arguments, for reports;
/// empty if it prints nothing or does not run.
pub fn version_line(tool: &Tool) -> String {
    Command::new(tool.program)
        .args(tool.version_args)
        .stdin(Stdio::null())
        .output()
        .map(|out| {
            let text = String::from_utf8_lossy(&out.stdout);
            text.lines().next().unwrap_or_default().trim().to_string()
        })
        .unwrap_or_default()
}

/// How to install the drivers the GPU tests look for, on Debian.
pub const GPU_INSTALL: &str =
    "scripts/test installs them (Mesa's lavapipe from bookworm-backports, \
     libvulkan1, and `npm ci` in ballot-runner/dawn)";

/// Records that `what` was skipped because `why`, and that `install` would
/// bring what it lacked; panics instead where the environment requires
/// `need`.
#[track_caller]
pub fn skip(need: Need, what: &str, why: &str, install: &str) {
    if need.required() {
        panic!(
            "{what}: {why} ({}=1 forbids skipping; install with: {install})",
            need.require_var()
        );
    }
    let test = std::thread::current()
        .name()
        .filter(|n| *n != "main")
        .map(|n| format!("[{n}] "))
        .unwrap_or_default();
    // A test that skips the same thing several times is listed once.
    static SEEN: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let entry = format!("{test}{what}");
    if !SEEN.lock().unwrap_or_else(|e| e.into_inner()).insert(entry) {
        return;
    }
    loud(&format!("SKIPPED {test}{what}: {why}"));
    if let Some(path) = std::env::var_os(LEDGER_VAR) {
        let line = [need.name(), &format!("{test}{what}"), why, install]
            .map(one_line)
            .join("\t");
        // One `write` of one line: appends from parallel tests stay whole.
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()));
        if let Err(e) = written {
            loud(&format!(
                "cannot record the skip in {}: {e}",
                PathBuf::from(path).display()
            ));
        }
    }
}

fn one_line(text: &str) -> String {
    text.replace(['\t', '\n', '\r'], " ")
}

/// Prints past the test harness's capture, so that the line is seen even
/// in a passing run.
pub fn loud(message: &str) {
    let _ = writeln!(std::io::stderr(), "{message}");
}

/// Runs the current test binary again on `tests` (exact names), with
/// `env` set and `PATH` replaced by an empty directory, so that no
/// external tool can be found; the ledger goes to `ledger`. For tests of
/// the skips themselves.
pub fn rerun_without_tools(
    tests: &[&str],
    env: &[(&str, &str)],
    ledger: &std::path::Path,
) -> Output {
    let exe = std::env::current_exe().expect("the test binary knows its path");
    let empty = std::env::temp_dir().join(format!("ballot-empty-path-{}", std::process::id()));
    std::fs::create_dir_all(&empty).expect("a temporary directory");
    let mut command = Command::new(exe);
    command
        .args(tests)
        .args(["--exact", "--test-threads=1"])
        .env("PATH", &empty)
        .env_remove(REQUIRE_TOOLS_VAR)
        .env(LEDGER_VAR, ledger);
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("the test binary runs again")
}
