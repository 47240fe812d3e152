#version 450
{COUNT_SCAN_HEAD}
// A device-wide primitive in one pass: ballot's `primitives` module fills
// in the braces. Each workgroup takes a tile from a counter, so that tiles
// start in order, sums it, publishes the sum, and looks back at its
// predecessors for its offset (Merrill and Garland's decoupled look-back).
// A predecessor that has published nothing after MAX_SPINS windows is
// summed here instead (Smith, Levien and Owens' decoupled fallback), so no
// workgroup ever waits on one that the device has not scheduled. With
// PERSIST, a workgroup goes on taking tiles until none is left.
{HELPERS}
layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

const uint WG = 256u;
const uint LOADS = {LOADS}u;
const uint COUNTS = {COUNTS}u;
const uint LOOK = {LOOK}u;
const uint MAX_SPINS = {SPINS}u;
// Whether a workgroup takes tiles until none is left (the host then
// dispatches fewer workgroups than tiles), and, if so, whether it takes the
// next tile and issues its loads (into the primitive's second set of
// registers) before the current tile's look-back, or only after the
// current tile's writes.
const bool PERSIST = {PERSIST};
const bool PREFETCH = {PREFETCH};
// A status word: a flag above bit 16, half of a 32-bit sum below. A tile
// has two, the low and the high half, so that sums need not fit in fewer
// bits; a reader takes them only when both carry the same flag.
const uint AGGREGATE = 1u;
const uint PREFIX = 2u;

layout(std430, set = 0, binding = 0) readonly buffer Keys { uvec4 keys[]; };
layout(std430, set = 0, binding = 1) readonly buffer Values { uvec4 values[]; };
layout(std430, set = 0, binding = 2) writeonly buffer OutKeys { uint out_keys[]; };
layout(std430, set = 0, binding = 3) writeonly buffer OutValues { uint out_values[]; };
// [0]: the next tile to take; [1]: the result's total; [2 + 2t], [3 + 2t]:
// tile t's status words.
layout(std430, set = 0, binding = 4) coherent buffer Status { uint status[]; };
// n, the number of tiles, then the primitive's own parameters.
layout(std430, set = 0, binding = 5) readonly buffer Params { uint params[]; };

shared uint s_counts[COUNTS];
{COUNT_SCAN_MEMORY}
shared uint s_tile;
shared uint s_next;
// The tile's total, where the primitive adds it up as it counts
// (EARLY_TOTAL), so that it is published before the scan of the counts.
shared uint s_total;
shared uint s_offset;
shared uint s_look;
shared uint s_spins;
shared uint s_flags[LOOK];
shared uint s_sums[LOOK];
shared uint s_fallback;

{PRIMITIVE}

// Publishes tile t's sum with `flag`. atomicMax, because a fallback may
// publish a tile's aggregate at any time, and must not undo its prefix.
void publish(uint t, uint flag, uint sum) {
    atomicMax(status[2u + 2u * t], (flag << 16u) | (sum & 0xffffu));
    atomicMax(status[3u + 2u * t], (flag << 16u) | (sum >> 16u));
}

uint t_read;
uint t_add;
bool t_done;
bool t_stop;

// Entry i of the look-back window: its sum counts if every nearer entry was
// an aggregate and it is ready; a prefix ends the look-back. The EACH_LOOK
// placeholder calls it for each entry, nearest first.
void look_step(uint i) {
    uint flag = s_flags[i];
    bool go = !t_stop && flag != 0u;
    t_add += go ? s_sums[i] : 0u;
    t_done = t_done || (go && flag == PREFIX);
    t_read += (go && flag != PREFIX) ? 1u : 0u;
    t_stop = !go || flag == PREFIX;
}

void main() {
    {INIT}
    uint lid = gl_LocalInvocationIndex;
    uint n = params[0];
    uint tiles = params[1];
    if (lid == 0u) {
        s_tile = atomicAdd(status[0], 1u);
        s_total = 0u;
    }
    barrier();
    uint tile = s_tile;
    if (tile >= tiles) {
        return;
    }
    tile_load(tile, lid, n);
    tile_advance();
    for (;;) {
        uint counts = tile_counts(tile, lid, n);
        barrier();
        if (EARLY_TOTAL && lid == 0u) {
            // Published before the scan below: successors waiting on this
            // tile wait no longer than its loads and ballots.
            publish(tile, tile == 0u ? PREFIX : AGGREGATE, s_total);
        }
        // Inclusive scan of the tile's counts.
        uint sum = lid < counts ? s_counts[lid] : 0u;
        {COUNT_SCAN}
        uint aggregate = EARLY_TOTAL ? s_total : s_counts[counts - 1u];

        if (lid == 0u) {
            if (!EARLY_TOTAL) {
                publish(tile, tile == 0u ? PREFIX : AGGREGATE, aggregate);
            }
            if (PERSIST && PREFETCH) {
                s_next = atomicAdd(status[0], 1u);
            }
            s_offset = 0u;
            s_look = tile;
            s_spins = 0u;
        }
        barrier();
        uint next = PERSIST && PREFETCH ? s_next : tiles;
        if (next < tiles) {
            tile_load(next, lid, n);
        }
        // s_look: the predecessors not yet summed are the tiles below it.
        // The first LOOK invocations read a window of them at once, nearest
        // first; invocation 0 sums the window up to the first inclusive
        // prefix, or to the first tile that has published nothing.
        while (s_look != 0u) {
            uint look = s_look;
            if (lid < LOOK) {
                uint flag = PREFIX;
                uint value = 0u;
                if (lid < look) {
                    uint t = look - 1u - lid;
                    uint low = status[2u + 2u * t];
                    uint high = status[3u + 2u * t];
                    flag = (low >> 16u) == (high >> 16u) ? low >> 16u : 0u;
                    value = (low & 0xffffu) | (high << 16u);
                }
                s_flags[lid] = flag;
                s_sums[lid] = value;
            }
            barrier();
            if (lid == 0u) {
                // Unrolled and branch-free, as in skeleton.wgsl, where
                // wgpu's loop bounding made the loop that left at the first
                // entry not ready cost the H200's wgsl compaction a quarter
                // of its time.
                t_read = 0u;
                t_add = 0u;
                t_done = false;
                t_stop = false;
                {EACH_LOOK:look_step}
                uint i = t_read;
                bool done = t_done;
                s_offset += t_add;
                s_look = done ? 0u : look - i;
                // Only a window that found its nearest tile unpublished is
                // a spin; one that ends the look-back must not start a
                // fallback.
                s_spins = (i == 0u && !done) ? s_spins + 1u : 0u;
            }
            barrier();
            if (s_spins >= MAX_SPINS) {
                // The decoupled fallback: sum the nearest unpublished tile
                // here, and publish its aggregate for the tiles after it.
                uint t = s_look - 1u;
                if (lid == 0u) {
                    s_fallback = 0u;
                }
                barrier();
                atomicAdd(s_fallback, tile_weight(t, lid, n));
                barrier();
                if (lid == 0u) {
                    publish(t, AGGREGATE, s_fallback);
                    s_offset += s_fallback;
                    s_look = t;
                    s_spins = 0u;
                }
                barrier();
            }
        }
        uint offset = s_offset;
        if (lid == 0u) {
            if (tile != 0u) {
                publish(tile, PREFIX, offset + aggregate);
            }
            if (tile == tiles - 1u) {
                status[1] = offset + aggregate;
            }
            // Every invocation has read it (the barriers of the look-back).
            s_total = 0u;
        }
        tile_write(tile, lid, n, offset);
        if (!PERSIST) {
            return;
        }
        if (!PREFETCH) {
            // The next tile, taken only once this one is written: a tile
            // taken is one its successors wait on until it publishes.
            if (lid == 0u) {
                s_next = atomicAdd(status[0], 1u);
            }
            barrier();
            next = s_next;
            if (next < tiles) {
                tile_load(next, lid, n);
            }
        }
        if (next >= tiles) {
            return;
        }
        // The next tile reuses the workgroup's memory.
        barrier();
        tile_advance();
        tile = next;
    }
}
