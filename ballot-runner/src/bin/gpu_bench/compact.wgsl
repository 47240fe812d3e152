// Ordered stream compaction in one pass, with decoupled look-back: the WGSL
// twin of compact.glsl, which explains the tile layout and the look-back
// window. Placeholders in braces are filled in by the benchmark.
{HELPERS}

const WG: u32 = 256u;
const LOADS: u32 = {LOADS}u;
const SUBGROUP: u32 = {SUBGROUP}u;
const SUBGROUPS: u32 = WG / SUBGROUP;
const COUNTS: u32 = LOADS * SUBGROUPS;
const AGGREGATE: u32 = 1u << 30u;
const PREFIX: u32 = 2u << 30u;
const VALUE: u32 = AGGREGATE - 1u;

@group(0) @binding(0) var<storage, read> xs: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> ys: array<u32>;
@group(0) @binding(2) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read> params: array<u32>;

var<workgroup> s_counts: array<u32, COUNTS>;
var<workgroup> s_tile: u32;
var<workgroup> s_offset: u32;
const LOOK: u32 = 32u;
var<workgroup> s_look: array<u32, LOOK>;
var<workgroup> s_end: u32;

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_index) lid: u32{BUILTINS}) {
    {INIT}
    let n = params[0];
    let threshold = params[1];
    if (lid == 0u) {
        s_tile = atomicAdd(&status[0], 1u);
    }
    let tile = workgroupUniformLoad(&s_tile);
    if (tile >= params[2]) {
        return;
    }
    let base = tile * WG * LOADS;
    let sg = lid / SUBGROUP;
    let lane = lid % SUBGROUP;
    let quads = (n + 3u) / 4u;

    var v: array<vec4<u32>, LOADS>;
    // Every load is issued before the first subgroup operation.
    for (var q = 0u; q < LOADS; q++) {
        let index = base + q * WG + lid;
        if (index < quads) {
            v[q] = xs[index];
        }
    }
    // Bit 4q + j: component j of load q is kept (LOADS is at most 8).
    var kept = 0u;
    var place: array<u32, LOADS>;
    for (var q = 0u; q < LOADS; q++) {
        let first = (base + q * WG + lid) * 4u;
        var before = 0u;
        var total = 0u;
        for (var j = 0u; j < 4u; j++) {
            let keep = first + j < n && v[q][j] < threshold;
            before += compaction_slot(keep);
            total += kept_in_subgroup(keep);
            kept |= select(0u, 1u << (4u * q + j), keep);
        }
        place[q] = before;
        if (lane == 0u) {
            s_counts[q * SUBGROUPS + sg] = total;
        }
    }
    workgroupBarrier();

    var sum = 0u;
    if (lid < COUNTS) {
        sum = s_counts[lid];
    }
    for (var d = 1u; d < COUNTS; d <<= 1u) {
        var add = 0u;
        if (lid < COUNTS && lid >= d) {
            add = s_counts[lid - d];
        }
        workgroupBarrier();
        if (lid < COUNTS) {
            sum += add;
            s_counts[lid] = sum;
        }
        workgroupBarrier();
    }

    let aggregate = s_counts[COUNTS - 1u];
    if (lid == 0u) {
        atomicStore(&status[1u + tile], select(AGGREGATE, PREFIX, tile == 0u) | aggregate);
        s_offset = 0u;
        s_end = tile;
    }
    loop {
        let end = workgroupUniformLoad(&s_end);
        if (end == 0u) {
            break;
        }
        if (lid < LOOK) {
            var word = PREFIX;
            if (lid < end) {
                word = atomicLoad(&status[end - lid]);
            }
            s_look[lid] = word;
        }
        workgroupBarrier();
        if (lid == 0u) {
            var sum = 0u;
            var i = 0u;
            for (; i < LOOK; i++) {
                let word = s_look[i];
                let flag = word & ~VALUE;
                if (flag == 0u) {
                    break;
                }
                sum += word & VALUE;
                if (flag == PREFIX) {
                    i = LOOK + 1u;
                    break;
                }
            }
            s_offset += sum;
            s_end = select(end - i, 0u, i > LOOK);
        }
    }
    if (lid == 0u && tile != 0u) {
        atomicStore(&status[1u + tile], PREFIX | (s_offset + aggregate));
    }
    let offset = workgroupUniformLoad(&s_offset);

    for (var q = 0u; q < LOADS; q++) {
        let i = q * SUBGROUPS + sg;
        var at = offset + place[q];
        if (i != 0u) {
            at += s_counts[i - 1u];
        }
        for (var j = 0u; j < 4u; j++) {
            if ((kept & (1u << (4u * q + j))) != 0u) {
                ys[at] = v[q][j];
                at++;
            }
        }
    }
}
