// Helper functions for kernel `leader`, target `wgsl`, written by ballot.
// Call ballot_init(subgroup_invocation_id, subgroup_size) once at the top
// of the entry point, with the built-in values of those names; then call
// the kernel's function from anywhere.
// Where the spec leaves a result undefined, these functions return a
// documented value: FindLSB / FindMSB with no bit below the subgroup size
// give 0xffffffffu, and BitExtract at or above the size gives false.

// The invocation's lane id and its subgroup's size. WGSL has them only as
// entry-point built-ins, so ballot_init keeps them for the functions below.
var<private> ballot_lane: u32;
var<private> ballot_size: u32;

// Call once at the top of the entry point, with @builtin(subgroup_invocation_id)
// and @builtin(subgroup_size).
fn ballot_init(subgroup_invocation_id: u32, subgroup_size: u32) {
    ballot_lane = subgroup_invocation_id;
    ballot_size = subgroup_size;
    ballot_below_bits = ballot_mask_first(ballot_size);
    ballot_lt_bits = (ballot_mask_first(ballot_lane) & ballot_below_bits);
}

// SubgroupMask::first(n): bits 0..n, saturating at 128.
fn ballot_mask_first(n: u32) -> vec4<u32> {
    let low = vec4<u32>(0u, 32u, 64u, 96u);
    let bits = min((max(vec4<u32>(n), low) - low), vec4<u32>(32u));
    // A shift by 32 would wrap to a shift by 0, so full words are chosen apart.
    let partial = ((vec4<u32>(1u) << (bits & vec4<u32>(31u))) - vec4<u32>(1u));
    return select(partial, vec4<u32>(0xffffffffu), (bits == vec4<u32>(32u)));
}

// m.count(): the set bits among all 128.
fn ballot_mask_count(m: vec4<u32>) -> u32 {
    let c = countOneBits(m);
    return ((c.x + c.y) + (c.z + c.w));
}

// The bits below the subgroup size: the only ones ballot operations read.
// Like the lane masks below, ballot_init computes them once, so that no
// operation recomputes them.
var<private> ballot_below_bits: vec4<u32>;
fn ballot_below() -> vec4<u32> {
    return ballot_below_bits;
}

// gl_SubgroupLtMask: the bits below this lane.
var<private> ballot_lt_bits: vec4<u32>;
fn ballot_lt_mask() -> vec4<u32> {
    return ballot_lt_bits;
}

// subgroupBallotExclusiveBitCount(v): the set bits below this lane.
fn ballot_exclusive_bit_count(v: vec4<u32>) -> u32 {
    return ballot_mask_count((v & ballot_lt_mask()));
}

fn compaction_slot(keep: bool) -> u32 {
    return ballot_exclusive_bit_count(subgroupBallot(keep));
}

fn leader(p: bool) -> u32 {
    var result: u32;
    result = 0u;
    if p {
        result = compaction_slot(p);
    }
    return result;
}
