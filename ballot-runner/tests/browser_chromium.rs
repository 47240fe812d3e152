//! The `browser` example's page in a real browser: Debian's Chromium,
//! headless, driven by `puppeteer-core` through `dawn/chromium.mjs`. The
//! page runs as written, from `file://`, on Chromium's own WebGPU (its
//! Dawn and Tint, in its GPU process), three times:
//!
//! - as Chromium offers it: its Vulkan adapter, which is the SwiftShader it
//!   ships (lavapipe lacks the external semaphores Chromium requires of a
//!   Vulkan adapter), with `subgroups`: the page must pick `wgsl-web`;
//! - the same with `subgroups` hidden by a script that runs before the
//!   page's, as in Firefox and Safari: it must pick `wgsl-no-subgroup`;
//! - on Dawn's OpenGL ES adapter in compatibility mode, over ANGLE on
//!   Vulkan, here lavapipe, which has no `subgroups`: `wgsl-no-subgroup`.
//!
//! Each time the page checks all 256 slots itself, and the fallback must
//! show its virtual subgroups of 32.
//!
//! Without Node, `puppeteer-core` (`npm ci` in `ballot-runner/dawn`) or
//! Chromium (`BALLOT_CHROMIUM`, else `/usr/bin/chromium`) the test says why
//! on stderr and passes, unless `BALLOT_REQUIRE_GPU=1`.

// The root package's example, included, as in `browser_page.rs`.
#[allow(dead_code)] // The example's `main` is not called here.
#[path = "../../examples/browser.rs"]
mod browser;

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{loud, skip};

const WHAT: &str = "the browser page in headless Chromium";

/// Node, the directory of `chromium.mjs` with `puppeteer-core` installed,
/// and Chromium; or why not.
fn find() -> Result<(PathBuf, PathBuf), String> {
    let node = PathBuf::from(std::env::var_os("BALLOT_NODE").unwrap_or_else(|| "node".into()));
    match Command::new(&node).arg("--version").output() {
        Ok(out) if out.status.success() => {}
        _ => {
            return Err(format!(
                "`{}` does not run: install Node.js",
                node.display()
            ))
        }
    }
    let dir = ballot_runner::dawn::script_dir();
    if !dir
        .join("node_modules/puppeteer-core/package.json")
        .exists()
    {
        return Err(format!(
            "the npm package `puppeteer-core` is not installed: run `npm ci` in {}",
            dir.display()
        ));
    }
    let chromium =
        std::env::var_os("BALLOT_CHROMIUM").unwrap_or_else(|| "/usr/bin/chromium".into());
    if !PathBuf::from(&chromium).exists() {
        return Err(format!(
            "no Chromium at {}: install Debian's `chromium` (or set BALLOT_CHROMIUM)",
            PathBuf::from(chromium).display()
        ));
    }
    Ok((node, dir))
}

#[test]
fn the_browser_page_checks_out_in_headless_chromium() {
    let (node, dir) = match find() {
        Ok(found) => found,
        Err(why) => return skip(WHAT, &why),
    };
    let out = std::env::temp_dir().join(format!("ballot-browser-chromium-{}", std::process::id()));
    browser::write_page(&out).expect("the example writes its page");
    let page = out.join("index.html");
    let fallback = [
        "shader: wgsl-no-subgroup (emulated, subgroups of 32)",
        "every slot checks out, in subgroups of 32",
    ];
    for flags in [&[][..], &["--hide-subgroups"], &["--adapter=opengles"]] {
        let run = Command::new(&node)
            .arg(dir.join("chromium.mjs"))
            .arg(&page)
            .args(flags)
            .current_dir(&dir)
            .output()
            .expect("node starts");
        let log = String::from_utf8_lossy(&run.stdout);
        let err = String::from_utf8_lossy(&run.stderr);
        loud(&format!("browser page in Chromium {flags:?}:\n{log}{err}"));
        assert!(
            run.status.success(),
            "chromium.mjs {flags:?} exited with {}:\n{log}{err}",
            run.status
        );
        assert!(!log.contains("MISMATCH"), "{log}");
        if flags.is_empty() {
            if log.contains("shader: wgsl-web (native subgroups)") {
                assert!(
                    log.contains("every slot checks out, in subgroups of"),
                    "{log}"
                );
            } else {
                skip(
                    "the browser page's wgsl-web branch in Chromium",
                    &format!("Chromium's adapter lacks `subgroups`:\n{log}"),
                );
            }
        } else {
            for line in fallback {
                assert!(log.contains(line), "{flags:?}: no {line:?} in\n{log}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out);
}
