//! The `browser` example's page, run as a browser runs it, on Dawn/Tint
//! under Node (no browser is needed): once as Chrome sees the adapter, with
//! the `subgroups` feature, where the page must pick the `wgsl-web` shader,
//! and once with the feature hidden, as in Firefox and Safari, where it
//! must pick `wgsl-no-subgroup`. Either way the page checks every slot
//! against the compaction slot's definition (the kept invocations below
//! in the same subgroup), computed in JavaScript, and the emulated
//! fallback must show its documented virtual subgroups of 32.
//!
//! Without Node's `webgpu` package (or a Vulkan driver for Dawn) the test
//! says why on stderr and passes, unless `BALLOT_REQUIRE_GPU=1`.

// The root package's example, included: it lives in `ballot-runner`,
// where Dawn is, so that the root's tests build no driver harness.
#[allow(dead_code)] // The example's `main` is not called here.
#[path = "../../examples/browser.rs"]
mod browser;

mod common;

use ballot_runner::dawn::Dawn;
use common::{loud, required, skip};

#[test]
fn the_browser_page_picks_its_shader_and_every_slot_checks_out() {
    let dawn = match Dawn::find() {
        Ok(dawn) => dawn,
        Err(why) => return skip("the browser page on Dawn", &why),
    };
    let dir = std::env::temp_dir().join(format!("ballot-browser-page-{}", std::process::id()));
    browser::write_page(&dir).expect("the example writes its page");
    let page = dir.join("index.html");
    for hide in [false, true] {
        let log = match dawn.run_page(&page, hide) {
            Ok(log) => log,
            Err(e) if !required() && e.to_string().contains("no WebGPU adapter") => {
                return skip("the browser page on Dawn", &e.to_string())
            }
            Err(e) => panic!("{e}"),
        };
        loud(&format!("browser page (subgroups hidden: {hide}):{log}"));
        if hide {
            assert!(
                log.contains("shader: wgsl-no-subgroup (emulated, subgroups of 32)"),
                "{log}"
            );
            assert!(
                log.contains("every slot checks out, in subgroups of 32"),
                "{log}"
            );
        } else if log.contains("shader: wgsl-web (native subgroups)") {
            assert!(
                log.contains("every slot checks out, in subgroups of"),
                "{log}"
            );
        } else {
            skip(
                "the browser page's wgsl-web branch",
                &format!("Dawn's adapter lacks `subgroups`:{log}"),
            );
        }
        assert!(!log.contains("MISMATCH"), "{log}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
