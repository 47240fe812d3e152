// Exclusive prefix sum: the WGSL twin of scan.glsl, which explains the
// tile order.
// The tile's sum is its scan's last entry.
const EARLY_TOTAL: bool = false;
// The tile's words: v, the current tile's; w, the next tile's, loaded
// while the current one is looked back and written.
var<private> v: array<vec4<u32>, LOADS>;
var<private> w: array<vec4<u32>, LOADS>;
var<workgroup> s_quads: array<u32, LOADS * WG>;
var<private> t_base: u32;
// The first uvec4 of the tile being loaded, which may be the next.
var<private> t_load: u32;
var<private> t_lid: u32;
var<private> t_n: u32;
var<private> t_offset: u32;

// The loops over the loads are unrolled (EACH_LOAD), as compact.wgsl
// says why.
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
    // Past n the words are another buffer's or padding: not summed.
    let first = (t_base + q * WG + t_lid) * 4u;
    let x = select(vec4<u32>(0u), v[q], first + vec4<u32>(0u, 1u, 2u, 3u) < vec4<u32>(t_n));
    v[q] = x;
    s_quads[q * WG + t_lid] = x.x + x.y + x.z + x.w;
}

fn tile_counts(tile: u32, lid: u32, n: u32) -> u32 {
    t_base = tile * WG * LOADS;
    t_lid = lid;
    t_n = n;
    {EACH_LOAD:count_quad}
    workgroupBarrier();
    var sum = 0u;
    for (var k = 0u; k < LOADS; k++) {
        sum += s_quads[lid * LOADS + k];
    }
    s_counts[lid] = sum;
    return WG;
}

fn tile_weight(t: u32, lid: u32, n: u32) -> u32 {
    let quads = (n + 3u) / 4u;
    var sum = 0u;
    for (var q = 0u; q < LOADS; q++) {
        let index = t * WG * LOADS + q * WG + lid;
        if (index < quads) {
            let x = keys[index];
            for (var j = 0u; j < 4u; j++) {
                sum += select(0u, x[j], index * 4u + j < n);
            }
        }
    }
    return sum;
}

fn write_quad(q: u32) {
    let e = q * WG + t_lid;
    let group = e / LOADS;
    var at = t_offset;
    if (group != 0u) {
        at += s_counts[group - 1u];
    }
    for (var k = group * LOADS; k < e; k++) {
        at += s_quads[k];
    }
    let first = (t_base + e) * 4u;
    let x = v[q];
    let starts = at + vec4<u32>(0u, x.x, x.x + x.y, x.x + x.y + x.z);
    if (first + 3u < t_n) {
        out_keys[first] = starts.x;
        out_keys[first + 1u] = starts.y;
        out_keys[first + 2u] = starts.z;
        out_keys[first + 3u] = starts.w;
    } else {
        for (var j = 0u; j < 3u; j++) {
            if (first + j < t_n) {
                out_keys[first + j] = starts[j];
            }
        }
    }
}

fn tile_write(tile: u32, lid: u32, n: u32, offset: u32) {
    t_offset = offset;
    {EACH_LOAD:write_quad}
}
