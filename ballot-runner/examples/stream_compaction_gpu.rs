//! The root package's `stream_compaction` example, then its compute shader
//! on a real driver.
//!
//! ```text
//! cargo run -p ballot-runner --example stream_compaction_gpu [COUNT]
//! ```
//!
//! Everything `cargo run --example stream_compaction` does (the native
//! compaction, checked; the shaders, written), then, when a Vulkan adapter
//! exists (lavapipe counts; `BALLOT_ADAPTER` picks one), the compaction slot
//! on `glsl`, `glsl-no-subgroup`, `wgsl` and `wgsl-no-subgroup`, every
//! invocation compared with the simulator in the subgroups the driver
//! formed. Exits with failure on any difference.

// The root example, included rather than copied, so that the kernels and
// the native run checked here are the ones the README's first command runs.
#[allow(dead_code)] // Its `main` is not called here.
#[path = "../../examples/stream_compaction.rs"]
mod native;

mod common;

use std::process::ExitCode;

use ballot::Target;
use ballot_sim::interp::{Arg, Value};
use native::compaction_slot;

fn main() -> ExitCode {
    let count = match native::count_arg() {
        Ok(count) => count,
        Err(code) => return code,
    };
    match run(count) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(count: usize) -> Result<bool, Box<dyn std::error::Error>> {
    let native::Compaction {
        keep,
        workgroups,
        options,
    } = native::run(count)?;
    let keep_arg = Arg::PerLane(keep.iter().map(|&k| Value::Bool(k)).collect());
    let result = common::on_gpu(
        &compaction_slot::kernels(),
        &[
            Target::Glsl,
            Target::GlslNoSubgroup,
            Target::Wgsl,
            Target::WgslNoSubgroup,
        ],
        &options,
        [workgroups, 1, 1],
        vec![keep_arg],
        |d| {
            Ok(compaction_slot::run_dispatch(d, &keep)?
                .into_iter()
                .map(Value::U32)
                .collect())
        },
    );
    Ok(common::report(result))
}
