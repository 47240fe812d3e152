#version 450
// The middle pass of three-pass compaction: the tiles' counts, which the
// count pass left in status[1 ..= tiles], become their exclusive prefix
// sums, in place, in one workgroup. Each invocation sums a run of
// consecutive tiles; a shared-memory scan places the runs.
layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

// Not `coherent`: only this one dispatch touches the words, and the
// barriers between dispatches make the count pass's stores visible.
layout(std430, set = 0, binding = 2) buffer Status { uint status[]; };
layout(std430, set = 0, binding = 3) readonly buffer Params { uint params[]; };

shared uint s_sums[256];

void main() {
    uint lid = gl_LocalInvocationIndex;
    uint tiles = params[2];
    uint per = (tiles + 255u) / 256u;
    uint begin = min(lid * per, tiles);
    uint end = min(begin + per, tiles);
    uint sum = 0u;
    for (uint t = begin; t < end; t++) {
        sum += status[1u + t];
    }
    s_sums[lid] = sum;
    barrier();
    for (uint d = 1u; d < 256u; d <<= 1u) {
        uint add = lid >= d ? s_sums[lid - d] : 0u;
        barrier();
        s_sums[lid] += add;
        barrier();
    }
    uint running = s_sums[lid] - sum;
    for (uint t = begin; t < end; t++) {
        uint count = status[1u + t];
        status[1u + t] = running;
        running += count;
    }
}
