// Ordered compaction: the WGSL twin of compact.glsl, which explains the
// tile order.
const PAIRS: bool = {PAIRS};
// The tile's count is added up in s_total as the ballots count it.
const EARLY_TOTAL: bool = true;

// Whether to keep x, as compact.glsl says: ((x & mask) - start) <= last,
// where any is set; params[2..6], read once in tile_counts.
var<private> keep_mask: u32;
var<private> keep_start: u32;
var<private> keep_last: u32;
var<private> keep_any: bool;

fn keep(x: u32) -> bool {
    return keep_any && ((x & keep_mask) - keep_start) <= keep_last;
}

// The tile's keys: v, the current tile's; w, the next tile's, loaded
// while the current one is looked back and written.
var<private> v: array<vec4<u32>, LOADS>;
var<private> w: array<vec4<u32>, LOADS>;
var<private> kept: u32;
var<private> place: array<u32, LOADS>;
var<private> sg: u32;
var<private> subgroups: u32;
var<private> lane: u32;
var<private> t_base: u32;
// The first uvec4 of the tile being loaded, which may be the next.
var<private> t_load: u32;
var<private> t_lid: u32;
var<private> t_n: u32;
var<private> t_offset: u32;
// This invocation's share of the tile's count (lane 0 of each subgroup).
var<private> t_total: u32;

// The tile's loops over its loads are unrolled: an EACH_LOAD placeholder is
// one call per load, with a constant argument. wgpu's runtime checks bound
// every loop with a counter, which keeps the driver from unrolling it and
// so from holding `v` and `place` in registers; the looped form took the
// H200 2.6 times as long with the checks as without.
fn load_quad(q: u32) {
    let index = t_load + q * WG + t_lid;
    w[q] = vec4<u32>(0u);
    if (index < (t_n + 3u) / 4u) {
        w[q] = keys[index];
    }
}

fn advance_quad(q: u32) {
    v[q] = w[q];
}

// Issues the loads of `tile` into w.
fn tile_load(tile: u32, lid: u32, n: u32) {
    t_load = tile * WG * LOADS;
    t_lid = lid;
    t_n = n;
    {EACH_LOAD:load_quad}
}

// The loaded tile becomes the current one.
fn tile_advance() {
    {EACH_LOAD:advance_quad}
}

fn count_quad(q: u32) {
    let first = (t_base + q * WG + t_lid) * 4u;
    let x = v[q];
    let k = vec4<bool>(
        first < t_n && keep(x.x),
        first + 1u < t_n && keep(x.y),
        first + 2u < t_n && keep(x.z),
        first + 3u < t_n && keep(x.w),
    );
    let bits = select(vec4<u32>(0u), vec4<u32>(1u, 2u, 4u, 8u), k);
    kept |= (bits.x | bits.y | bits.z | bits.w) << (4u * q);
    let step = compaction_quad(k.x, k.y, k.z, k.w);
    place[q] = step & 0xffffu;
    if (lane == 0u) {
        s_counts[q * subgroups + sg] = step >> 16u;
        t_total += step >> 16u;
    }
}

fn tile_counts(tile: u32, lid: u32, n: u32) -> u32 {
    keep_mask = params[2];
    keep_start = params[3];
    keep_last = params[4];
    keep_any = params[5] != 0u;
    let size = {SUBGROUP_SIZE};
    subgroups = WG / size;
    sg = lid / size;
    lane = lid % size;
    t_base = tile * WG * LOADS;
    t_lid = lid;
    t_n = n;
    kept = 0u;
    t_total = 0u;
    {EACH_LOAD:count_quad}
    if (lane == 0u) {
        atomicAdd(&s_total, t_total);
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

// Writes key (and value) at `at` where `bit` is set; the next place.
fn put(at: u32, bit: bool, key: u32, value: u32) -> u32 {
    if (bit) {
        out_keys[at] = key;
        if (PAIRS) {
            out_values[at] = value;
        }
    }
    return at + select(0u, 1u, bit);
}

fn write_quad(q: u32) {
    let mine = (kept >> (4u * q)) & 0xfu;
    if (mine == 0u) {
        return;
    }
    let i = q * subgroups + sg;
    var at = t_offset + place[q];
    if (i != 0u) {
        at += s_counts[i - 1u];
    }
    var w = vec4<u32>(0u);
    if (PAIRS) {
        w = values[t_base + q * WG + t_lid];
    }
    let x = v[q];
    at = put(at, (mine & 1u) != 0u, x.x, w.x);
    at = put(at, (mine & 2u) != 0u, x.y, w.y);
    at = put(at, (mine & 4u) != 0u, x.z, w.z);
    put(at, (mine & 8u) != 0u, x.w, w.w);
}

// The staged write, as compact.glsl explains: STAGE_LOADS loads' kept
// elements at a time go to s_stage (keys, then values with PAIRS), and the
// workgroup writes the stage out as consecutive words.
const STAGED: bool = {STAGED};
const STAGE_LOADS: u32 = {STAGE_LOADS}u;
const STAGE: u32 = STAGE_LOADS * WG * 4u;
// STAGE words, twice with PAIRS.
var<workgroup> s_stage: array<u32, {STAGE_WORDS}>;
// The tile's kept elements before the stage's first, and the stage's.
var<private> t_from: u32;
var<private> t_count: u32;

// Puts key (and value) at `at` in the stage where `bit` is set; the next
// place.
fn stage_put(at: u32, bit: bool, key: u32, value: u32) -> u32 {
    if (bit) {
        s_stage[at] = key;
        if (PAIRS) {
            s_stage[STAGE + at] = value;
        }
    }
    return at + select(0u, 1u, bit);
}

fn stage_quad(q: u32) {
    let mine = (kept >> (4u * q)) & 0xfu;
    // No early return: the barriers of `flush` follow.
    if (mine != 0u) {
        let i = q * subgroups + sg;
        var at = place[q] - t_from;
        if (i != 0u) {
            at += s_counts[i - 1u];
        }
        var w = vec4<u32>(0u);
        if (PAIRS) {
            w = values[t_base + q * WG + t_lid];
        }
        let x = v[q];
        at = stage_put(at, (mine & 1u) != 0u, x.x, w.x);
        at = stage_put(at, (mine & 2u) != 0u, x.y, w.y);
        at = stage_put(at, (mine & 4u) != 0u, x.z, w.z);
        stage_put(at, (mine & 8u) != 0u, x.w, w.w);
    }
}

// Word k * WG + lid of the stage, if the stage holds it.
fn flush_word(k: u32) {
    let at = k * WG + t_lid;
    if (at < t_count) {
        out_keys[t_offset + t_from + at] = s_stage[at];
        if (PAIRS) {
            out_values[t_offset + t_from + at] = s_stage[STAGE + at];
        }
    }
}

// Writes the stage out, once load q, the stage's last, is in it.
fn flush(q: u32) {
    workgroupBarrier();
    let end = s_counts[(q + 1u) * subgroups - 1u];
    t_count = end - t_from;
    {EACH_STAGE:flush_word}
    workgroupBarrier();
    t_from = end;
}

fn tile_write(tile: u32, lid: u32, n: u32, offset: u32) {
    t_offset = offset;
    t_from = 0u;
    if (STAGED) {
        {STAGED_WRITE}
    } else {
        {EACH_LOAD:write_quad}
    }
}
