// Exclusive prefix sum, wrapping: out_keys[i] = keys[0] + … + keys[i - 1].
// A tile is WG * LOADS uvec4s, blocked: invocation i sums the tile's
// uvec4s i * LOADS to i * LOADS + LOADS - 1, and the invocations' sums,
// scanned, give each one its start.
uvec4 v[LOADS];

uint tile_counts(uint tile, uint lid, uint n) {
    uint quads = (n + 3u) / 4u;
    uint sum = 0u;
    for (uint q = 0u; q < LOADS; q++) {
        uint index = (tile * WG + lid) * LOADS + q;
        v[q] = index < quads ? keys[index] : uvec4(0u);
        for (uint j = 0u; j < 4u; j++) {
            // Past n the words are another buffer's or padding: not summed.
            v[q][j] = index * 4u + j < n ? v[q][j] : 0u;
            sum += v[q][j];
        }
    }
    s_counts[lid] = sum;
    return WG;
}

uint tile_weight(uint t, uint lid, uint n) {
    uint quads = (n + 3u) / 4u;
    uint sum = 0u;
    for (uint q = 0u; q < LOADS; q++) {
        uint index = (t * WG + lid) * LOADS + q;
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
    uint at = offset + (lid == 0u ? 0u : s_counts[lid - 1u]);
    for (uint q = 0u; q < LOADS; q++) {
        uint index = (tile * WG + lid) * LOADS + q;
        for (uint j = 0u; j < 4u; j++) {
            if (index * 4u + j < n) {
                out_keys[index * 4u + j] = at;
            }
            at += v[q][j];
        }
    }
}
