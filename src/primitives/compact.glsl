// Ordered compaction: keep keys[i] where keep(keys[i]); with PAIRS, values[i]
// goes along. A tile is WG * LOADS uvec4s, striped: load q of invocation i
// is the tile's uvec4 q * WG + i, so that loads coalesce, and the tile's
// order is (q, subgroup, lane, component). A kept element's place in its
// subgroup's run of load q comes from one ballot per component; the
// subgroups' counts, scanned, place the runs in the tile.
const bool PAIRS = {PAIRS};
// The tile's count is added up in s_total as the ballots count it.
const bool EARLY_TOTAL = true;

// Whether to keep x: ((x & mask) - start) <= last, where any is set;
// params[2..6] hold mask, start, last and any (Keep::words). One form for
// every Keep, with no branch: with a switch on the kind, uniform as it is,
// the compaction took the H200 1.7 times as long.
uint keep_mask;
uint keep_start;
uint keep_last;
bool keep_any;

bool keep(uint x) {
    return keep_any && ((x & keep_mask) - keep_start) <= keep_last;
}

// The tile's keys: v, the current tile's; w, the next tile's, loaded
// while the current one is looked back and written.
uvec4 v[LOADS];
uvec4 w[LOADS];
// Bit 4q + j: component j of load q is kept (LOADS is at most 8).
uint kept;
uint place[LOADS];
uint sg;
uint subgroups;

// Issues the loads of `tile` into w.
void tile_load(uint tile, uint lid, uint n) {
    uint base = tile * WG * LOADS;
    uint quads = (n + 3u) / 4u;
    for (uint q = 0u; q < LOADS; q++) {
        uint index = base + q * WG + lid;
        w[q] = index < quads ? keys[index] : uvec4(0u);
    }
}

// The loaded tile becomes the current one.
void tile_advance() {
    for (uint q = 0u; q < LOADS; q++) {
        v[q] = w[q];
    }
}

uint tile_counts(uint tile, uint lid, uint n) {
    keep_mask = params[2];
    keep_start = params[3];
    keep_last = params[4];
    keep_any = params[5] != 0u;
    uint size = {SUBGROUP_SIZE};
    subgroups = WG / size;
    sg = lid / size;
    uint lane = lid % size;
    uint base = tile * WG * LOADS;
    kept = 0u;
    uint total = 0u;
    for (uint q = 0u; q < LOADS; q++) {
        uint first = (base + q * WG + lid) * 4u;
        bvec4 k = bvec4(false);
        for (uint j = 0u; j < 4u; j++) {
            k[j] = first + j < n && keep(v[q][j]);
            kept |= k[j] ? 1u << (4u * q + j) : 0u;
        }
        uint step = compaction_quad(k.x, k.y, k.z, k.w);
        place[q] = step & 0xffffu;
        if (lane == 0u) {
            s_counts[q * subgroups + sg] = step >> 16u;
            total += step >> 16u;
        }
    }
    if (lane == 0u) {
        atomicAdd(s_total, total);
    }
    return LOADS * subgroups;
}

uint tile_weight(uint t, uint lid, uint n) {
    uint quads = (n + 3u) / 4u;
    uint count = 0u;
    for (uint q = 0u; q < LOADS; q++) {
        uint index = t * WG * LOADS + q * WG + lid;
        if (index < quads) {
            uvec4 x = keys[index];
            for (uint j = 0u; j < 4u; j++) {
                count += (index * 4u + j < n && keep(x[j])) ? 1u : 0u;
            }
        }
    }
    return count;
}

uint t_offset;

// Each invocation writes its own kept elements: a subgroup's run of one
// load is consecutive, but each store spans it with gaps.
void write_direct(uint tile, uint lid) {
    uint base = tile * WG * LOADS;
    for (uint q = 0u; q < LOADS; q++) {
        uint i = q * subgroups + sg;
        uint at = t_offset + (i == 0u ? 0u : s_counts[i - 1u]) + place[q];
        uint mine = (kept >> (4u * q)) & 0xfu;
        if (mine == 0u) {
            continue;
        }
        uvec4 w = PAIRS ? values[base + q * WG + lid] : uvec4(0u);
        for (uint j = 0u; j < 4u; j++) {
            if ((mine & (1u << j)) != 0u) {
                out_keys[at] = v[q][j];
                if (PAIRS) {
                    out_values[at] = w[j];
                }
                at++;
            }
        }
    }
}

// The staged write: the kept elements of STAGE_LOADS loads at a time go to
// their places in s_stage (keys, then values with PAIRS), and the whole
// workgroup then writes the stage out as consecutive words, so that each
// store of a subgroup is one run of the output.
const bool STAGED = {STAGED};
const uint STAGE_LOADS = {STAGE_LOADS}u;
const uint STAGE = STAGE_LOADS * WG * 4u;
// STAGE words, twice with PAIRS.
shared uint s_stage[{STAGE_WORDS}];

uint t_base;
uint t_lid;
// The tile's kept elements before the stage's first.
uint t_from;
uint t_count;

void stage_quad(uint q) {
    uint mine = (kept >> (4u * q)) & 0xfu;
    if (mine == 0u) {
        return;
    }
    uint i = q * subgroups + sg;
    uint at = (i == 0u ? 0u : s_counts[i - 1u]) + place[q] - t_from;
    uvec4 w = PAIRS ? values[t_base + q * WG + t_lid] : uvec4(0u);
    uvec4 x = v[q];
    for (uint j = 0u; j < 4u; j++) {
        if ((mine & (1u << j)) != 0u) {
            s_stage[at] = x[j];
            if (PAIRS) {
                s_stage[STAGE + at] = w[j];
            }
            at++;
        }
    }
}

// Word k * WG + lid of the stage, if the stage holds it.
void flush_word(uint k) {
    uint at = k * WG + t_lid;
    if (at < t_count) {
        out_keys[t_offset + t_from + at] = s_stage[at];
        if (PAIRS) {
            out_values[t_offset + t_from + at] = s_stage[STAGE + at];
        }
    }
}

// Writes the stage out, once load q, the stage's last, is in it.
void flush(uint q) {
    barrier();
    uint end = s_counts[(q + 1u) * subgroups - 1u];
    t_count = end - t_from;
    {EACH_STAGE:flush_word}
    barrier();
    t_from = end;
}

void tile_write(uint tile, uint lid, uint n, uint offset) {
    t_offset = offset;
    t_base = tile * WG * LOADS;
    t_lid = lid;
    t_from = 0u;
    if (STAGED) {
        {STAGED_WRITE}
    } else {
        write_direct(tile, lid);
    }
}
