//! Atomic aggregation: one atomic per subgroup instead of one per
//! invocation. Every invocation that wants a slot in a shared output joins
//! a ballot; the elected leader reserves room for all of them with a single
//! atomic add; `subgroupBroadcastFirst` hands the leader's base to the
//! others, which add their rank among the wanting lanes.
//!
//! ```text
//! cargo run --example leader_election
//! ```
//!
//! Natively, the atomic is a `u32` counter updated by each elected leader,
//! subgroups in a shuffled order, as a GPU schedules them. The example
//! checks that every wanting invocation gets a distinct slot, counts the
//! atomics saved, and writes the shaders. No GPU is needed.
//!
//! `cargo run -p ballot-runner --example leader_election_gpu` does the same,
//! then runs `slot` on a Vulkan adapter and compares each invocation with
//! the simulator. It includes this file as a module, so that this example
//! builds without wgpu.

mod common;

use std::process::ExitCode;

use ballot::prelude::*;

/// Whether this invocation leads the ones that want a slot: the lowest of
/// them, the one `subgroup_broadcast_first` reads below.
#[ballot::kernel]
pub fn leads(want: bool) -> bool {
    let mut leader = false;
    if want {
        leader = subgroup_elect();
    }
    leader
}

/// How many slots the invocations that want one take, as the leader adds
/// it to the counter.
#[ballot::kernel]
pub fn wanted(want: bool) -> u32 {
    subgroup_ballot_bit_count(subgroup_ballot(want))
}

/// The slot of each invocation that wants one (`u32::MAX` for the others):
/// the base the leader reserved, broadcast from the lowest wanting lane,
/// plus this lane's rank among the wanting ones.
#[ballot::kernel]
pub fn slot(want: bool, base_if_leader: u32) -> u32 {
    let mut slot = 0xffff_ffff;
    if want {
        let rank = subgroup_ballot_exclusive_bit_count(subgroup_ballot(true));
        slot = subgroup_broadcast_first(base_if_leader) + rank;
    }
    slot
}

const WORKGROUP: u32 = 128;
const SUBGROUP: u32 = 32;
const WORKGROUPS: u32 = 8;

fn main() -> ExitCode {
    match run() {
        Ok(_) => {
            println!(
                "\nto run them on a Vulkan adapter and compare every invocation with the \
                 simulator: cargo run -p ballot-runner --example leader_election_gpu"
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What a driver needs to run `slot` as the native run did.
pub struct Election {
    /// Whether each invocation wants a slot.
    pub want: Vec<bool>,
    /// The base each leader reserved with its atomic add (0 elsewhere).
    pub base_if_leader: Vec<u32>,
    /// The workgroups of the dispatch, along x.
    pub workgroups: u32,
    /// The options the shaders were written with.
    pub options: ShaderOptions,
}

/// Elects, counts and hands out the slots natively, checks them, prints
/// `slot`'s GLSL helpers and writes every target's compute shader.
pub fn run() -> Result<Election, Box<dyn std::error::Error>> {
    let dispatch = Dispatch::new([WORKGROUP, 1, 1], SUBGROUP, [WORKGROUPS, 1, 1])?;
    let n = dispatch.invocation_count();
    // About one invocation in five wants a slot; some subgroups none.
    let want: Vec<bool> = (0..n as u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 7) % 5 == 0 && (i / 32) % 7 != 3)
        .collect();

    // Step 1: elect, count.
    let leaders = leads::run_dispatch(&dispatch, &want)?;
    let counts = wanted::run_dispatch(&dispatch, &want)?;

    // Step 2: each leader does one atomic add, in a scheduling order of the
    // GPU's choosing (here, a fixed shuffle of the subgroups).
    let mut order: Vec<usize> = (0..dispatch.subgroups().count()).collect();
    order.reverse();
    order.rotate_left(3);
    let subgroups: Vec<_> = dispatch.subgroups().collect();
    let mut counter = 0u32;
    let mut atomics = 0;
    let mut base_if_leader = vec![0u32; n];
    for i in order {
        let sg = &subgroups[i];
        let lanes =
            sg.first_invocation..sg.first_invocation + sg.subgroup.active().count() as usize;
        for g in lanes.filter(|&g| leaders[g]) {
            base_if_leader[g] = counter; // atomicAdd(&counter, wanted) returns the old value
            counter += counts[g];
            atomics += 1;
        }
    }

    // Step 3: everyone learns its slot from its leader.
    let slots = slot::run_dispatch(&dispatch, &want, &base_if_leader)?;
    let mut taken: Vec<u32> = slots.iter().copied().filter(|&s| s != u32::MAX).collect();
    taken.sort_unstable();
    let wanting = want.iter().filter(|&&w| w).count();
    assert_eq!(
        taken,
        (0..wanting as u32).collect::<Vec<_>>(),
        "slots are distinct and dense"
    );
    println!(
        "{wanting} of {n} invocations took a slot with {atomics} atomics instead of {wanting}"
    );

    let options = ShaderOptions {
        workgroup_size: [WORKGROUP, 1, 1],
        subgroup_size: SUBGROUP,
        ..ShaderOptions::default()
    };
    println!("\n--- slot as GLSL helpers (GL_KHR_shader_subgroup_ballot) ---");
    println!("{}", slot::shader(Target::Glsl, Form::Helpers, &options)?);
    for path in common::write_shaders("leader_election", &slot::kernels(), &options)? {
        println!("wrote {}", path.display());
    }

    Ok(Election {
        want,
        base_if_leader,
        workgroups: WORKGROUPS,
        options,
    })
}
