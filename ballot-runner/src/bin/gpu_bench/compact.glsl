#version 450
{DEFINES}
// Ordered stream compaction in one pass, with decoupled look-back (Merrill &
// Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
// 2016). Placeholders in braces are filled in by the benchmark:
// the ballot helpers of the target, its per-invocation initialisation, and
// the subgroup size the tile layout assumes.
//
// A workgroup takes the next tile (ITEMS elements per invocation, striped:
// element k of invocation i is tile element k * WG + i, so loads coalesce
// and tile order is (k, subgroup, lane) order). For each k, the flagship
// kernel gives each kept element its slot within its subgroup, and a
// second kernel the subgroup's count; a scan of the counts in shared
// memory places the subgroups; the tile's global offset comes from looking
// back at its predecessors' published sums, a window of them at a time.
{HELPERS}

layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

const uint WG = 256u;
const uint ITEMS = {ITEMS}u;
const uint SUBGROUP = {SUBGROUP}u;
const uint SUBGROUPS = WG / SUBGROUP;
const uint COUNTS = ITEMS * SUBGROUPS;
// A tile's status word: a flag in the top two bits, a sum below.
const uint AGGREGATE = 1u << 30u;
const uint PREFIX = 2u << 30u;
const uint VALUE = AGGREGATE - 1u;

layout(std430, set = 0, binding = 0) readonly buffer Input { uint xs[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Output { uint ys[]; };
// status[0]: the next tile to take; status[1 + t]: tile t's status word.
layout(std430, set = 0, binding = 2) coherent buffer Status { uint status[]; };
// n, the selection threshold (keep x < threshold), the number of tiles.
layout(std430, set = 0, binding = 3) readonly buffer Params { uint params[]; };

shared uint s_counts[COUNTS];
shared uint s_tile;
shared uint s_offset;
// The look-back window: predecessors' status words, and where it ends.
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
    uint base = tile * WG * ITEMS;
    uint sg = lid / SUBGROUP;
    uint lane = lid % SUBGROUP;

    // Every load is issued before the first subgroup operation, so that
    // they overlap.
    uint v[ITEMS];
    uint slot[ITEMS];
    for (uint k = 0u; k < ITEMS; k++) {
        uint index = base + k * WG + lid;
        v[k] = index < n ? xs[index] : 0u;
    }
    for (uint k = 0u; k < ITEMS; k++) {
        uint index = base + k * WG + lid;
        uint x = v[k];
        bool keep = index < n && x < threshold;
        uint s = compaction_slot(keep);
        uint c = kept_in_subgroup(keep);
        slot[k] = keep ? s : 0xFFFFFFFFu;
        if (lane == 0u) {
            s_counts[k * SUBGROUPS + sg] = c;
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

    // Publish the tile's sum, then look back. The first LOOK invocations
    // read LOOK predecessors' status words at once; one invocation then
    // sums them, nearest first, up to the first inclusive prefix, and the
    // window moves on if it met a predecessor that has published nothing.
    uint aggregate = s_counts[COUNTS - 1u];
    if (lid == 0u) {
        atomicExchange(status[1u + tile], (tile == 0u ? PREFIX : AGGREGATE) | aggregate);
        s_offset = 0u;
        s_end = tile;
    }
    barrier();
#ifdef NO_LOOKBACK
    s_end = 0u;
    s_offset = tile * WG * ITEMS / 2u;
    barrier();
#endif
    while (s_end != 0u) {
        uint end = s_end;
        if (lid < LOOK) {
            s_look[lid] = lid < end ? atomicOr(status[end - lid], 0u) : PREFIX;
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
    for (uint k = 0u; k < ITEMS; k++) {
#ifdef NO_WRITE
        if (slot[k] == 0xFFFFFFFEu) {
#else
        if (slot[k] != 0xFFFFFFFFu) {
#endif
            uint i = k * SUBGROUPS + sg;
            uint before = i == 0u ? 0u : s_counts[i - 1u];
            ys[offset + before + slot[k]] = v[k];
        }
    }
}
