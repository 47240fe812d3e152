//! `ballot targets`.

use std::fmt::Write as _;

use ballot::cross::CrossTarget;
use ballot::Target;

/// What a cross-compiled output is and what runs it.
pub fn cross_description(target: CrossTarget) -> &'static str {
    match target {
        CrossTarget::SpirV => {
            "SPIR-V 1.3 binary for Vulkan 1.1 with subgroup ballot (write it with -o FILE)"
        }
        CrossTarget::Hlsl => "HLSL shader model 6.0 wave intrinsics (D3D12)",
        CrossTarget::Msl => "Metal Shading Language 2.1; simd_ballot covers only 32 lanes",
    }
}

/// The listing `ballot targets` prints.
pub fn listing() -> String {
    let mut out = String::from("Targets (check --target, polyfill --target):\n");
    for target in Target::ALL {
        let _ = writeln!(out, "  {:<18}{}", target.name(), target.requirements());
    }
    out.push_str("\nCross-compiled from the wgsl library by naga (polyfill --target):\n");
    for target in CrossTarget::ALL {
        let _ = writeln!(out, "  {:<18}{}", target.name(), cross_description(target));
    }
    out
}
