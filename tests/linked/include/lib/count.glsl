#pragma once
#include "bits.glsl"

// How many of the subgroup's invocations keep theirs.
uint kept(bool p) {
    return subgroupBallotBitCount(subgroupBallot(p)) + low_bit(0u);
}
