#version 450
// Ordered stream compaction in one pass, with decoupled look-back (Merrill &
// Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
// 2016). Placeholders in braces are filled in by the benchmark: the ballot
// helpers of the target, its per-invocation initialisation, the subgroup
// size the tile layout assumes, the `uvec4` loads per invocation, and
// defines for `gpu_bench probe`'s variants (NO_LOOKBACK: every tile takes a
// made-up offset, to time the rest; ATOMIC_LOOK: read the predecessors'
// status words with atomics).
//
// A workgroup takes the next tile of WG * LOADS `uvec4`s, striped: load q
// of invocation i is the tile's `uvec4` q * WG + i, so loads coalesce, and
// tile order is (q, subgroup, lane, component) order. A kept element's
// place in its subgroup's run of load q is the sum over the four
// components of the flagship kernel's slot (the kept lanes below), plus
// the lane's own kept components before it; a second kernel gives each
// component's count in the subgroup. A scan of the counts in shared memory
// places the runs in the tile; the tile's offset comes from looking back
// at its predecessors' published sums, a window of them at a time.
{DEFINES}
{HELPERS}

layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

const uint WG = 256u;
const uint LOADS = {LOADS}u;
const uint SUBGROUP = {SUBGROUP}u;
const uint SUBGROUPS = WG / SUBGROUP;
const uint COUNTS = LOADS * SUBGROUPS;
// A tile's status word: a flag in the top two bits, a sum below.
const uint AGGREGATE = 1u << 30u;
const uint PREFIX = 2u << 30u;
const uint VALUE = AGGREGATE - 1u;

layout(std430, set = 0, binding = 0) readonly buffer Input { uvec4 xs[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Output { uint ys[]; };
// status[0]: the next tile to take; status[1 + t]: tile t's status word.
layout(std430, set = 0, binding = 2) coherent buffer Status { uint status[]; };
// n, the selection threshold (keep x < threshold), the number of tiles.
layout(std430, set = 0, binding = 3) readonly buffer Params { uint params[]; };

shared uint s_counts[COUNTS];
shared uint s_tile;
shared uint s_offset;
const uint LOOK = 32u;
shared uint s_look[LOOK];
shared uint s_end;

void main() {
    {INIT}
    uint lid = gl_LocalInvocationIndex;
    uint n = params[0];
    uint threshold = params[1];
    if (lid == 0u) {
        s_tile = atomicAdd(status[0], 1u);
    }
    barrier();
    uint tile = s_tile;
    if (tile >= params[2]) {
        return;
    }
    uint base = tile * WG * LOADS;
    uint sg = lid / SUBGROUP;
    uint lane = lid % SUBGROUP;
    uint quads = (n + 3u) / 4u;

    uvec4 v[LOADS];
    for (uint q = 0u; q < LOADS; q++) {
        uint index = base + q * WG + lid;
        v[q] = index < quads ? xs[index] : uvec4(0u);
    }
    // Bit 4q + j: component j of load q is kept (LOADS is at most 8).
    uint kept = 0u;
    uint place[LOADS];
    for (uint q = 0u; q < LOADS; q++) {
        uint first = (base + q * WG + lid) * 4u;
        uint before = 0u;
        uint total = 0u;
        for (uint j = 0u; j < 4u; j++) {
            bool keep = first + j < n && v[q][j] < threshold;
            before += compaction_slot(keep);
            total += kept_in_subgroup(keep);
            kept |= keep ? 1u << (4u * q + j) : 0u;
        }
        place[q] = before;
        if (lane == 0u) {
            s_counts[q * SUBGROUPS + sg] = total;
        }
    }
    barrier();

    // Inclusive scan of the counts (Hillis-Steele).
    uint sum = lid < COUNTS ? s_counts[lid] : 0u;
    for (uint d = 1u; d < COUNTS; d <<= 1u) {
        uint add = (lid < COUNTS && lid >= d) ? s_counts[lid - d] : 0u;
        barrier();
        if (lid < COUNTS) {
            sum += add;
            s_counts[lid] = sum;
        }
        barrier();
    }
    uint aggregate = s_counts[COUNTS - 1u];

    // Publish the tile's sum, then look back. The first LOOK invocations
    // read LOOK predecessors' status words at once; one invocation then
    // sums them, nearest first, up to the first inclusive prefix, and the
    // window moves on if it met a predecessor that has published nothing.
    if (lid == 0u) {
        atomicExchange(status[1u + tile], (tile == 0u ? PREFIX : AGGREGATE) | aggregate);
        s_offset = 0u;
        s_end = tile;
    }
    barrier();
#ifdef NO_LOOKBACK
    s_end = 0u;
    s_offset = tile * WG * LOADS * 2u;
    barrier();
#endif
    while (s_end != 0u) {
        uint end = s_end;
        if (lid < LOOK) {
#ifdef ATOMIC_LOOK
            s_look[lid] = lid < end ? atomicOr(status[end - lid], 0u) : PREFIX;
#else
            // A plain load of a coherent buffer: each status word is read
            // whole, and loads of many tiles' words need not queue at the
            // L2 one after another as read-modify-write atomics do.
            s_look[lid] = lid < end ? status[end - lid] : PREFIX;
#endif
        }
        barrier();
        if (lid == 0u) {
            uint sum = 0u;
            uint i = 0u;
            for (; i < LOOK; i++) {
                uint word = s_look[i];
                uint flag = word & ~VALUE;
                if (flag == 0u) {
                    break;
                }
                sum += word & VALUE;
                if (flag == PREFIX) {
                    i = LOOK + 1u;
                    break;
                }
            }
            s_offset += sum;
            s_end = i > LOOK ? 0u : end - i;
        }
        barrier();
    }
    if (lid == 0u && tile != 0u) {
        atomicExchange(status[1u + tile], PREFIX | (s_offset + aggregate));
    }
    uint offset = s_offset;

    for (uint q = 0u; q < LOADS; q++) {
        uint i = q * SUBGROUPS + sg;
        uint at = offset + (i == 0u ? 0u : s_counts[i - 1u]) + place[q];
        for (uint j = 0u; j < 4u; j++) {
            if ((kept & (1u << (4u * q + j))) != 0u) {
                ys[at] = v[q][j];
                at++;
            }
        }
    }
}
