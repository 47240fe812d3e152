//! Writes the polyfill libraries: the ballot functions each target lacks,
//! for shaders written by hand in GLSL or WGSL, plus the `wgsl` library
//! cross-compiled to SPIR-V, HLSL and MSL.
//!
//! ```text
//! cargo run --example polyfill [SUBGROUP_SIZE]
//! ```
//!
//! SUBGROUP_SIZE (default 32) is the virtual subgroup size of the emulated
//! libraries. The files land in `target/ballot-examples/polyfill/`; the
//! `wgsl-no-subgroup` one is also printed, since it is the one browsers
//! without subgroups need. Every library was validated by naga before it
//! was returned; `ballot check FILE` validates a shader that includes one.

mod common;

use std::process::ExitCode;

use ballot::cross::{self, CrossTarget};
use ballot::polyfill::{self, PolyfillOptions};
use ballot::Target;

fn main() -> ExitCode {
    let subgroup_size = match std::env::args().nth(1).map(|s| s.parse::<u32>()) {
        None => 32,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("error: SUBGROUP_SIZE must be a number: {e}");
            return ExitCode::from(2);
        }
    };
    match run(subgroup_size) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // An invalid size is a typed error naming the option.
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(subgroup_size: u32) -> Result<(), Box<dyn std::error::Error>> {
    let options = PolyfillOptions {
        subgroup_size,
        ..PolyfillOptions::default()
    };
    let dir = common::out_dir("polyfill");
    std::fs::create_dir_all(&dir)?;
    for target in Target::ALL {
        let text = polyfill::library(target, &options)?;
        let ext = target.language().extension();
        let path = dir.join(format!("ballot.{target}.{ext}"));
        std::fs::write(&path, &text)?;
        println!("wrote {} ({} lines)", path.display(), text.lines().count());
        if target == Target::WgslNoSubgroup {
            println!("\n--- the wgsl-no-subgroup library, header ---");
            for line in text
                .lines()
                .take_while(|l| l.starts_with("//") || l.is_empty())
            {
                println!("{line}");
            }
            println!();
        }
    }

    // The wgsl library through naga's other writers. Its self-test entry
    // point gives SPIR-V an entry point, which Vulkan modules need.
    let wgsl = polyfill::self_test(Target::Wgsl, &options)?;
    for to in CrossTarget::ALL {
        let out = cross::compile(&wgsl, to)?;
        let path = dir.join(format!("ballot.self-test.{}", to.name()));
        std::fs::write(&path, out.to_bytes())?;
        println!("wrote {} (from the wgsl self-test)", path.display());
    }
    Ok(())
}
