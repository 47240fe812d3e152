// Exclusive prefix sum, wrapping: out_keys[i] = keys[0] + … + keys[i - 1].
// A tile is WG * LOADS uvec4s, striped as compaction's are, so that loads
// and stores coalesce: load q of invocation i is the tile's uvec4
// e = q * WG + i. Each uvec4's sum goes to s_quads[e]; invocation i then
// sums the LOADS consecutive entries i * LOADS .. i * LOADS + LOADS - 1,
// in the tile's order, for the skeleton to scan. A uvec4's start is its
// group's scanned start plus the entries before it in the group.
// The tile's words: v, the current tile's; w, the next tile's, loaded
// while the current one is looked back and written. Past n the words are
// another buffer's or padding: not summed.
// The tile's sum is its scan's last entry.
const bool EARLY_TOTAL = false;
uvec4 v[LOADS];
uvec4 w[LOADS];
shared uint s_quads[LOADS * WG];

uint l_tile;
uint l_lid;
uint l_n;

// One load of `tile`'s into w. The EACH_LOAD placeholder calls it once per
// load, as write_quad below: on an H100 the loops of tile_load,
// tile_advance and tile_counts, written out so, took the scan at 2^28
// from 0.858 to 0.771 ms (`gpu_bench files`, docs/performance.md).
void load_quad(uint q) {
    uint index = l_tile * WG * LOADS + q * WG + l_lid;
    w[q] = uvec4(0u);
    if (index < (l_n + 3u) / 4u) {
        w[q] = keys[index];
    }
}

// Issues the loads of `tile` into w.
void tile_load(uint tile, uint lid, uint n) {
    l_tile = tile;
    l_lid = lid;
    l_n = n;
    {EACH_LOAD:load_quad}
}

void advance_quad(uint q) {
    v[q] = w[q];
}

// The loaded tile becomes the current one.
void tile_advance() {
    {EACH_LOAD:advance_quad}
}

// One load's words past n cleared, and its sum.
void count_quad(uint q) {
    uint index = l_tile * WG * LOADS + q * WG + l_lid;
    bvec4 inside = lessThan(uvec4(index * 4u) + uvec4(0u, 1u, 2u, 3u), uvec4(l_n));
    uvec4 x = uvec4(inside) * v[q];
    v[q] = x;
    s_quads[q * WG + l_lid] = x.x + x.y + x.z + x.w;
}

uint tile_counts(uint tile, uint lid, uint n) {
    l_tile = tile;
    l_lid = lid;
    l_n = n;
    {EACH_LOAD:count_quad}
    barrier();
    uint sum = 0u;
    for (uint k = 0u; k < LOADS; k++) {
        sum += s_quads[lid * LOADS + k];
    }
    s_counts[lid] = sum;
    return WG;
}

uint tile_weight(uint t, uint lid, uint n) {
    uint quads = (n + 3u) / 4u;
    uint sum = 0u;
    for (uint q = 0u; q < LOADS; q++) {
        uint index = t * WG * LOADS + q * WG + lid;
        if (index < quads) {
            uvec4 x = keys[index];
            for (uint j = 0u; j < 4u; j++) {
                sum += index * 4u + j < n ? x[j] : 0u;
            }
        }
    }
    return sum;
}

uint t_base;
uint t_lid;
uint t_n;
uint t_offset;

// One load's keys, written at their starts: four stores where the whole
// uvec4 lies below n. The EACH_LOAD placeholder calls it once per load, as
// scan.wgsl does; the looped form, a test per word, took the H200 1.24
// times as long.
void write_quad(uint q) {
    uint e = q * WG + t_lid;
    uint group = e / LOADS;
    uint at = t_offset + (group == 0u ? 0u : s_counts[group - 1u]);
    for (uint k = group * LOADS; k < e; k++) {
        at += s_quads[k];
    }
    uint first = (t_base + e) * 4u;
    uvec4 x = v[q];
    uvec4 starts = at + uvec4(0u, x.x, x.x + x.y, x.x + x.y + x.z);
    if (first + 3u < t_n) {
        out_keys[first] = starts.x;
        out_keys[first + 1u] = starts.y;
        out_keys[first + 2u] = starts.z;
        out_keys[first + 3u] = starts.w;
    } else {
        for (uint j = 0u; j < 3u; j++) {
            if (first + j < t_n) {
                out_keys[first + j] = starts[j];
            }
        }
    }
}

void tile_write(uint tile, uint lid, uint n, uint offset) {
    t_base = tile * WG * LOADS;
    t_lid = lid;
    t_n = n;
    t_offset = offset;
    {EACH_LOAD:write_quad}
}
