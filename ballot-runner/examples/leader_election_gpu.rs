//! The root package's `leader_election` example, then its `slot` kernel on
//! a real driver.
//!
//! ```text
//! cargo run -p ballot-runner --example leader_election_gpu
//! ```
//!
//! Everything `cargo run --example leader_election` does (the native
//! election and slots, checked; the shaders, written), then, when a Vulkan
//! adapter exists (lavapipe counts; `BALLOT_ADAPTER` picks one), `slot` on
//! `glsl`, `glsl-no-subgroup`, `wgsl` and `wgsl-no-subgroup`, every
//! invocation compared with the simulator in the subgroups the driver
//! formed. Exits with failure on any difference.

// The root example, included rather than copied, so that the kernels and
// the native run checked here are the ones `cargo run --example
// leader_election` runs.
#[allow(dead_code)] // Its `main` is not called here.
#[path = "../../examples/leader_election.rs"]
mod native;

mod common;

use std::process::ExitCode;

use ballot::Target;
use ballot_sim::interp::{Arg, Value};
use native::slot;

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<bool, Box<dyn std::error::Error>> {
    let native::Election {
        want,
        base_if_leader,
        workgroups,
        options,
    } = native::run()?;
    let args = vec![
        Arg::PerLane(want.iter().map(|&w| Value::Bool(w)).collect()),
        Arg::PerLane(base_if_leader.iter().map(|&b| Value::U32(b)).collect()),
    ];
    let result = common::on_gpu(
        &slot::kernels(),
        &[
            Target::Glsl,
            Target::GlslNoSubgroup,
            Target::Wgsl,
            Target::WgslNoSubgroup,
        ],
        &options,
        [workgroups, 1, 1],
        args,
        |d| {
            let out = slot::run_dispatch(d, &want, &base_if_leader)?;
            Ok(out.into_iter().map(Value::U32).collect())
        },
    );
    Ok(common::report(result))
}
