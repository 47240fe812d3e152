{COUNT_SCAN_HEAD}
// A device-wide primitive in one pass: the WGSL twin of skeleton.glsl,
// which explains the tile order, the status words and the look-back with
// its fallback. ballot's `primitives` module fills in the braces.
{HELPERS}

const WG: u32 = 256u;
const LOADS: u32 = {LOADS}u;
const COUNTS: u32 = {COUNTS}u;
const LOOK: u32 = {LOOK}u;
const MAX_SPINS: u32 = {SPINS}u;
// As in skeleton.glsl: whether a workgroup takes tiles until none is
// left, and whether it loads the next before the current one's look-back.
const PERSIST: bool = {PERSIST};
const PREFETCH: bool = {PREFETCH};
const AGGREGATE: u32 = 1u;
const PREFIX: u32 = 2u;

@group(0) @binding(0) var<storage, read> keys: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> values: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> out_keys: array<u32>;
@group(0) @binding(3) var<storage, read_write> out_values: array<u32>;
@group(0) @binding(4) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read> params: array<u32>;

var<workgroup> s_counts: array<u32, COUNTS>;
var<workgroup> s_tile: u32;
var<workgroup> s_next: u32;
// The tile's total, where the primitive adds it up as it counts.
var<workgroup> s_total: atomic<u32>;
var<workgroup> s_offset: u32;
var<workgroup> s_look: u32;
var<workgroup> s_spins: u32;
var<workgroup> s_flags: array<u32, LOOK>;
var<workgroup> s_sums: array<u32, LOOK>;
var<workgroup> s_fallback: atomic<u32>;

{PRIMITIVE}

{COUNT_SCAN_MEMORY}

var<private> t_read: u32;
var<private> t_add: u32;
var<private> t_done: bool;
var<private> t_stop: bool;

// Entry i of the look-back window: its sum counts if every nearer entry was
// an aggregate and it is ready; a prefix ends the look-back.
fn look_step(i: u32) {
    let flag = s_flags[i];
    let go = !t_stop && flag != 0u;
    t_add += select(0u, s_sums[i], go);
    t_done = t_done || (go && flag == PREFIX);
    t_read += select(0u, 1u, go && flag != PREFIX);
    t_stop = !go || flag == PREFIX;
}

fn publish(t: u32, flag: u32, sum: u32) {
    atomicMax(&status[2u + 2u * t], (flag << 16u) | (sum & 0xffffu));
    atomicMax(&status[3u + 2u * t], (flag << 16u) | (sum >> 16u));
}

@compute @workgroup_size(256, 1, 1)
fn main(@builtin(local_invocation_index) lid: u32{BUILTINS}) {
    {INIT}
    let n = params[0];
    let tiles = params[1];
    if (lid == 0u) {
        s_tile = atomicAdd(&status[0], 1u);
        atomicStore(&s_total, 0u);
    }
    var tile = workgroupUniformLoad(&s_tile);
    if (tile >= tiles) {
        return;
    }
    tile_load(tile, lid, n);
    tile_advance();
    loop {
        let counts = tile_counts(tile, lid, n);
        workgroupBarrier();
        if (EARLY_TOTAL && lid == 0u) {
            // Published before the scan, as skeleton.glsl says why.
            publish(tile, select(AGGREGATE, PREFIX, tile == 0u), atomicLoad(&s_total));
        }
        // Inclusive scan of the tile's counts.
        var sum = 0u;
        if (lid < counts) {
            sum = s_counts[lid];
        }
        {COUNT_SCAN}
        var aggregate = s_counts[counts - 1u];
        if (EARLY_TOTAL) {
            aggregate = atomicLoad(&s_total);
        }

        if (lid == 0u) {
            if (!EARLY_TOTAL) {
                publish(tile, select(AGGREGATE, PREFIX, tile == 0u), aggregate);
            }
            if (PERSIST && PREFETCH) {
                s_next = atomicAdd(&status[0], 1u);
            }
            s_offset = 0u;
            s_look = tile;
            s_spins = 0u;
        }
        var next = tiles;
        if (PERSIST && PREFETCH) {
            next = workgroupUniformLoad(&s_next);
        }
        if (next < tiles) {
            tile_load(next, lid, n);
        }
        loop {
            let look = workgroupUniformLoad(&s_look);
            if (look == 0u) {
                break;
            }
            if (lid < LOOK) {
                var flag = PREFIX;
                var value = 0u;
                if (lid < look) {
                    let t = look - 1u - lid;
                    let low = atomicLoad(&status[2u + 2u * t]);
                    let high = atomicLoad(&status[3u + 2u * t]);
                    flag = select(0u, low >> 16u, (low >> 16u) == (high >> 16u));
                    value = (low & 0xffffu) | (high << 16u);
                }
                s_flags[lid] = flag;
                s_sums[lid] = value;
            }
            workgroupBarrier();
            if (lid == 0u) {
                // The window's entries, nearest first, up to the first that
                // is not ready or the first prefix; unrolled, as the loads
                // are.
                t_read = 0u;
                t_add = 0u;
                t_done = false;
                t_stop = false;
                {EACH_LOOK:look_step}
                let i = t_read;
                let done = t_done;
                s_offset += t_add;
                s_look = select(look - i, 0u, done);
                s_spins = select(0u, s_spins + 1u, i == 0u && !done);
            }
            let spins = workgroupUniformLoad(&s_spins);
            if (spins >= MAX_SPINS) {
                let t = look - 1u;
                if (lid == 0u) {
                    atomicStore(&s_fallback, 0u);
                }
                workgroupBarrier();
                atomicAdd(&s_fallback, tile_weight(t, lid, n));
                workgroupBarrier();
                if (lid == 0u) {
                    let weight = atomicLoad(&s_fallback);
                    publish(t, AGGREGATE, weight);
                    s_offset += weight;
                    s_look = t;
                    s_spins = 0u;
                }
            }
        }
        let offset = workgroupUniformLoad(&s_offset);
        if (lid == 0u) {
            if (tile != 0u) {
                publish(tile, PREFIX, offset + aggregate);
            }
            if (tile == tiles - 1u) {
                atomicStore(&status[1], offset + aggregate);
            }
            // Every invocation has read it (the barriers of the look-back).
            atomicStore(&s_total, 0u);
        }
        tile_write(tile, lid, n, offset);
        if (!PERSIST) {
            return;
        }
        if (!PREFETCH) {
            // The next tile, taken only once this one is written.
            if (lid == 0u) {
                s_next = atomicAdd(&status[0], 1u);
            }
            next = workgroupUniformLoad(&s_next);
            if (next < tiles) {
                tile_load(next, lid, n);
            }
        }
        if (next >= tiles) {
            return;
        }
        // The next tile reuses the workgroup's memory.
        workgroupBarrier();
        tile_advance();
        tile = next;
    }
}
