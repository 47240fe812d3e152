//! Ballot code in Rust-GPU style. The intrinsics carry spirv-std's names
//! (`spirv_std::arch::subgroup_ballot`, …), and a mask converts to and from
//! `glam::UVec4`, which is spirv-std's `SubgroupMask`. A function body
//! written for a rust-gpu shader therefore reads the same under
//! `#[ballot::kernel]`, where it runs on the CPU and becomes GLSL or WGSL.
//!
//! ```text
//! cargo run --example rust_gpu_style --features glam
//! ```

use ballot::prelude::*;
use ballot::Op;

// In a rust-gpu shader the same body sits in an `unsafe` block, with the
// intrinsics imported from `spirv_std::arch` and `SubgroupMask` being
// `glam::UVec4`:
//
//     unsafe fn first_busy_lane(busy: bool) -> u32 {
//         let ballot = spirv_std::arch::subgroup_ballot(busy);
//         if spirv_std::arch::subgroup_ballot_bit_count(ballot) == 0 {
//             return u32::MAX;
//         }
//         spirv_std::arch::subgroup_ballot_find_lsb(ballot)
//     }

/// The lowest lane with work, or `u32::MAX` when none has any (FindLSB of
/// an empty ballot is undefined, so it is never asked).
#[ballot::kernel]
fn first_busy_lane(busy: bool) -> u32 {
    let ballot = subgroup_ballot(busy);
    if subgroup_ballot_bit_count(ballot) == 0 {
        return 0xffff_ffff;
    }
    subgroup_ballot_find_lsb(ballot)
}

/// The ballot itself, to hand to code that expects spirv-std's mask type.
#[ballot::kernel]
fn busy_ballot(busy: bool) -> SubgroupMask {
    subgroup_ballot(busy)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("spirv-std name                          GLSL name");
    for op in Op::ALL {
        println!("{:<39} {}", op.spirv_std_name(), op.glsl_name());
    }

    let sg = Subgroup::full(32)?;
    let busy: Vec<bool> = (0..32).map(|lane| lane % 8 == 5).collect();
    let first = first_busy_lane::run(&sg, &busy)?;
    println!("\nfirst busy lane: {:?}", first.get(0));
    assert_eq!(first.get(0), Some(&5));
    let idle = first_busy_lane::run(&sg, &[false; 32])?;
    assert_eq!(idle.get(31), Some(&u32::MAX));

    // The ballot as spirv-std's SubgroupMask (glam::UVec4): lanes 5, 13, 21
    // and 29 are bits of the first word.
    let ballot = busy_ballot::run(&sg, &busy)?;
    let as_spirv_std: glam::UVec4 = (*ballot.get(0).expect("lane 0 is active")).into();
    println!("ballot as glam::UVec4: {as_spirv_std}");
    assert_eq!(as_spirv_std, glam::UVec4::new(0x2020_2020, 0, 0, 0));
    assert_eq!(SubgroupMask::from(as_spirv_std), *ballot.get(0).unwrap());

    println!("\n--- first_busy_lane as WGSL helpers ---");
    println!(
        "{}",
        first_busy_lane::shader(Target::Wgsl, Form::Helpers, &ShaderOptions::default())?
    );
    Ok(())
}
