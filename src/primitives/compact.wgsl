// Ordered compaction: the WGSL twin of compact.glsl, which explains the
// tile order.
const PAIRS: bool = {PAIRS};

// Whether to keep x, as compact.glsl says: ((x & mask) - start) <= last,
// where any is set; params[2..6], read once in tile_counts.
var<private> keep_mask: u32;
var<private> keep_start: u32;
var<private> keep_last: u32;
var<private> keep_any: bool;

fn keep(x: u32) -> bool {
    return keep_any && ((x & keep_mask) - keep_start) <= keep_last;
}

var<private> v: array<vec4<u32>, LOADS>;
var<private> kept: u32;
var<private> place: array<u32, LOADS>;
var<private> sg: u32;
var<private> subgroups: u32;

fn tile_counts(tile: u32, lid: u32, n: u32) -> u32 {
    keep_mask = params[2];
    keep_start = params[3];
    keep_last = params[4];
    keep_any = params[5] != 0u;
    let size = {SUBGROUP_SIZE};
    subgroups = WG / size;
    sg = lid / size;
    let lane = lid % size;
    let base = tile * WG * LOADS;
    let quads = (n + 3u) / 4u;
    for (var q = 0u; q < LOADS; q++) {
        let index = base + q * WG + lid;
        v[q] = vec4<u32>(0u);
        if (index < quads) {
            v[q] = keys[index];
        }
    }
    kept = 0u;
    for (var q = 0u; q < LOADS; q++) {
        let first = (base + q * WG + lid) * 4u;
        var k = vec4<bool>(false);
        for (var j = 0u; j < 4u; j++) {
            k[j] = first + j < n && keep(v[q][j]);
            kept |= select(0u, 1u << (4u * q + j), k[j]);
        }
        let step = compaction_quad(k.x, k.y, k.z, k.w);
        place[q] = step & 0xffffu;
        if (lane == 0u) {
            s_counts[q * subgroups + sg] = step >> 16u;
        }
    }
    return LOADS * subgroups;
}

fn tile_weight(t: u32, lid: u32, n: u32) -> u32 {
    let quads = (n + 3u) / 4u;
    var count = 0u;
    for (var q = 0u; q < LOADS; q++) {
        let index = t * WG * LOADS + q * WG + lid;
        if (index < quads) {
            let x = keys[index];
            for (var j = 0u; j < 4u; j++) {
                count += select(0u, 1u, index * 4u + j < n && keep(x[j]));
            }
        }
    }
    return count;
}

fn tile_write(tile: u32, lid: u32, n: u32, offset: u32) {
    let base = tile * WG * LOADS;
    for (var q = 0u; q < LOADS; q++) {
        let i = q * subgroups + sg;
        var at = offset + place[q];
        if (i != 0u) {
            at += s_counts[i - 1u];
        }
        let mine = (kept >> (4u * q)) & 0xfu;
        if (mine == 0u) {
            continue;
        }
        var w = vec4<u32>(0u);
        if (PAIRS) {
            w = values[base + q * WG + lid];
        }
        for (var j = 0u; j < 4u; j++) {
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
