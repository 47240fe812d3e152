// Exclusive prefix sum: the WGSL twin of scan.glsl, which explains the
// tile order.
var<private> v: array<vec4<u32>, LOADS>;

fn tile_counts(tile: u32, lid: u32, n: u32) -> u32 {
    let quads = (n + 3u) / 4u;
    var sum = 0u;
    for (var q = 0u; q < LOADS; q++) {
        let index = (tile * WG + lid) * LOADS + q;
        var x = vec4<u32>(0u);
        if (index < quads) {
            x = keys[index];
        }
        for (var j = 0u; j < 4u; j++) {
            if (index * 4u + j >= n) {
                x[j] = 0u;
            }
        }
        v[q] = x;
        sum += x.x + x.y + x.z + x.w;
    }
    s_counts[lid] = sum;
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

fn tile_write(tile: u32, lid: u32, n: u32, offset: u32) {
    var at = offset;
    if (lid != 0u) {
        at += s_counts[lid - 1u];
    }
    for (var q = 0u; q < LOADS; q++) {
        let index = (tile * WG + lid) * LOADS + q;
        for (var j = 0u; j < 4u; j++) {
            if (index * 4u + j < n) {
                out_keys[index * 4u + j] = at;
            }
            at += v[q][j];
        }
    }
}
