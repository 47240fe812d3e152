// Exclusive prefix sum, wrapping: out_keys[i] = keys[0] + … + keys[i - 1].
// A tile is WG * LOADS uvec4s, striped as compaction's are, so that loads
// and stores coalesce: load q of invocation i is the tile's uvec4
// e = q * WG + i. Each uvec4's sum goes to s_quads[e]; invocation i then
// sums the LOADS consecutive entries i * LOADS .. i * LOADS + LOADS - 1,
// in the tile's order, for the skeleton to scan. A uvec4's start is its
// group's scanned start plus the entries before it in the group.
uvec4 v[LOADS];
shared uint s_quads[LOADS * WG];

uint tile_counts(uint tile, uint lid, uint n) {
    uint quads = (n + 3u) / 4u;
    for (uint q = 0u; q < LOADS; q++) {
        uint index = tile * WG * LOADS + q * WG + lid;
        uvec4 x = index < quads ? keys[index] : uvec4(0u);
        // Past n the words are another buffer's or padding: not summed.
        bvec4 inside = lessThan(uvec4(index * 4u) + uvec4(0u, 1u, 2u, 3u), uvec4(n));
        v[q] = uvec4(inside) * x;
        s_quads[q * WG + lid] = v[q].x + v[q].y + v[q].z + v[q].w;
    }
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

void tile_write(uint tile, uint lid, uint n, uint offset) {
    for (uint q = 0u; q < LOADS; q++) {
        uint e = q * WG + lid;
        uint group = e / LOADS;
        uint at = offset + (group == 0u ? 0u : s_counts[group - 1u]);
        for (uint k = group * LOADS; k < e; k++) {
            at += s_quads[k];
        }
        uint index = tile * WG * LOADS + e;
        for (uint j = 0u; j < 4u; j++) {
            if (index * 4u + j < n) {
                out_keys[index * 4u + j] = at;
            }
            at += v[q][j];
        }
    }
}
