// Exclusive prefix sum: the WGSL twin of scan.glsl, which explains the
// tile order.
var<private> v: array<vec4<u32>, LOADS>;
var<private> t_first: u32;
var<private> t_n: u32;
var<private> t_sum: u32;
var<private> t_at: u32;

// The loops over the loads are unrolled (EACH_LOAD), as compact.wgsl
// says why.
fn load_quad(q: u32) {
    let index = t_first + q;
    var x = vec4<u32>(0u);
    if (index < (t_n + 3u) / 4u) {
        x = keys[index];
    }
    // Past n the words are another buffer's or padding: not summed.
    let first = index * 4u;
    x = select(vec4<u32>(0u), x, first + vec4<u32>(0u, 1u, 2u, 3u) < vec4<u32>(t_n));
    v[q] = x;
    t_sum += x.x + x.y + x.z + x.w;
}

fn tile_counts(tile: u32, lid: u32, n: u32) -> u32 {
    t_first = (tile * WG + lid) * LOADS;
    t_n = n;
    t_sum = 0u;
    {EACH_LOAD:load_quad}
    s_counts[lid] = t_sum;
    return WG;
}

fn tile_weight(t: u32, lid: u32, n: u32) -> u32 {
    let quads = (n + 3u) / 4u;
    var sum = 0u;
    for (var q = 0u; q < LOADS; q++) {
        let index = (t * WG + lid) * LOADS + q;
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
    let first = (t_first + q) * 4u;
    let x = v[q];
    let at = t_at + vec4<u32>(0u, x.x, x.x + x.y, x.x + x.y + x.z);
    if (first + 3u < t_n) {
        out_keys[first] = at.x;
        out_keys[first + 1u] = at.y;
        out_keys[first + 2u] = at.z;
        out_keys[first + 3u] = at.w;
    } else {
        for (var j = 0u; j < 3u; j++) {
            if (first + j < t_n) {
                out_keys[first + j] = at[j];
            }
        }
    }
    t_at = at.w + x.w;
}

fn tile_write(tile: u32, lid: u32, n: u32, offset: u32) {
    t_at = offset;
    if (lid != 0u) {
        t_at += s_counts[lid - 1u];
    }
    {EACH_LOAD:write_quad}
}
