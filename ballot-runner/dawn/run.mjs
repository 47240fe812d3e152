// Runs ballot compute shaders on Dawn/Tint through the npm package `webgpu`.
//
//   node run.mjs JOBS.json RESULTS.jsonl
//
// JOBS.json: {"jobs": [{"name", "shader", "subgroups": bool, "workgroups": [x, y, z],
//   "cases": [{"buffers": [{"binding": n, "words": [u32...]} | {"binding": n, "fill": n}]}]}]}
// A buffer given by `words` is read-only input; one given by `fill` (a
// size in words) is read-write, starts as 0xDEADBEEF in every word (so that
// what the shader did not write shows), and is read back. Every case of a
// job has the same bindings, as the driver kernels' shader interface and a
// polyfill self-test (a single `fill` buffer at binding 0) both do.
//
// A job with `"binary": true` instead has, at job level, no `cases` but
//   "buffers": [{"binding": n, "group": n?, "read_only": bool, "uniform": bool?,
//                "size": words, "input": PATH?, "output": PATH?}],
//   "entries": [NAME...]?
// and is dispatched once per entry point, in order (`["main"]` without
// `entries`), over the same buffers. A buffer is in bind group `group`
// (0 without one); a `uniform` one is `var<uniform>`. Its buffers may hold tens of MB, far too many
// words for JSON, so their contents travel as files of raw bytes
// (little-endian u32 words, as Rust writes and WebGPU stores them): a
// buffer starts as the bytes of `input` (zeros without one, and past its
// end), and a buffer with `output` has its first `size` words written
// there after the dispatch. `read_only` buffers are `var<storage, read>`.
// RESULTS.jsonl: one line per job, in order, written as each job finishes so
// that a crash still leaves the earlier results:
//   {"cases": [{"read": [[u32...] per `fill` buffer, in order]}]} or {"error": "..."};
//   for a binary job, {"written": [PATH per buffer with `output`, in order]} or {"error": "..."}

import { readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);

const UNWRITTEN = 0xdeadbeef;
const [jobsPath, resultsPath] = process.argv.slice(2);
if (!jobsPath || !resultsPath) {
  console.error('usage: node run.mjs JOBS.json RESULTS.jsonl');
  process.exit(2);
}

// The object create() returns must stay referenced for the whole run: the
// package crashes once it is collected. `gpu` lives until the end of main.
const gpu = create(['backend=vulkan']);

async function main() {
  const { jobs } = JSON.parse(readFileSync(jobsPath, 'utf8'));
  writeFileSync(resultsPath, '');
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) {
    throw new Error('Dawn found no Vulkan adapter (it needs lavapipe from Mesa 25 or a real GPU)');
  }
  const hasSubgroups = adapter.features.has('subgroups');
  const device = await adapter.requestDevice({
    requiredFeatures: hasSubgroups ? ['subgroups'] : [],
    // The adapter's maxima, not WebGPU's defaults: the default binding
    // size (128 MiB) and buffer size (256 MiB) are below what binary jobs
    // may bind on a real GPU, and 65535 workgroups per dimension is only
    // the guaranteed minimum.
    requiredLimits: {
      maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage,
      maxComputeInvocationsPerWorkgroup: adapter.limits.maxComputeInvocationsPerWorkgroup,
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
      maxBufferSize: adapter.limits.maxBufferSize,
      maxComputeWorkgroupsPerDimension: adapter.limits.maxComputeWorkgroupsPerDimension,
    },
  });
  let lost = null;
  device.lost.then((info) => { lost = info.message; });
  const info = adapter.info || {};
  console.error(`dawn: adapter ${info.vendor || '?'} ${info.architecture || ''} ${info.device || ''} ${info.description || ''}, subgroups ${hasSubgroups}`);
  for (const job of jobs) {
    let line;
    try {
      if (lost) throw new Error(`device lost: ${lost}`);
      if (job.subgroups && !hasSubgroups) throw new Error('the adapter lacks the `subgroups` feature');
      line = job.binary
        ? { written: await runBinaryJob(device, job) }
        : { cases: await runJob(device, job) };
    } catch (e) {
      line = { error: String(e && e.message || e) };
    }
    appendFileSync(resultsPath, JSON.stringify(line) + '\n');
  }
  device.destroy();
  // Keep `gpu` reachable until here.
  return gpu;
}

// The job's shader module, in the validation error scope the caller pushed
// (popped here if Tint rejects the shader).
async function compileShader(device, job) {
  const module = device.createShaderModule({ code: job.shader });
  const compile = await module.getCompilationInfo();
  const errors = compile.messages.filter((m) => m.type === 'error');
  if (errors.length) {
    await device.popErrorScope();
    throw new Error(`Tint rejects the shader: ${errors.map((m) => `${m.lineNum}:${m.linePos}: ${m.message}`).join('; ')}`);
  }
  return module;
}

async function runJob(device, job) {
  device.pushErrorScope('validation');
  const module = await compileShader(device, job);
  const layoutOf = job.cases[0] ? job.cases[0].buffers : [];
  const entries = layoutOf.map((b) => ({
    binding: b.binding,
    visibility: GPUShaderStage.COMPUTE,
    buffer: { type: b.words ? 'read-only-storage' : 'storage' },
  }));
  const bindLayout = device.createBindGroupLayout({ entries });
  const pipeline = device.createComputePipeline({
    layout: device.createPipelineLayout({ bindGroupLayouts: [bindLayout] }),
    compute: { module, entryPoint: 'main' },
  });
  const err = await device.popErrorScope();
  if (err) throw new Error(`pipeline rejected: ${err.message}`);

  device.pushErrorScope('validation');
  const encoder = device.createCommandEncoder();
  const readbacks = [];
  const storage = (words, usage) => {
    const buffer = device.createBuffer({ size: Math.max(4, words.length * 4), usage: GPUBufferUsage.STORAGE | usage, mappedAtCreation: true });
    new Uint32Array(buffer.getMappedRange()).set(words);
    buffer.unmap();
    return buffer;
  };
  for (const c of job.cases) {
    const buffers = c.buffers.map((b) => b.words
      ? storage(b.words, 0)
      : storage(new Array(b.fill).fill(UNWRITTEN), GPUBufferUsage.COPY_SRC));
    const group = device.createBindGroup({
      layout: bindLayout,
      entries: c.buffers.map((b, i) => ({ binding: b.binding, resource: { buffer: buffers[i] } })),
    });
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(...job.workgroups);
    pass.end();
    // Every read-write buffer goes, one after the other, to one staging buffer.
    const written = c.buffers.map((b, i) => [b, buffers[i]]).filter(([b]) => !b.words);
    const sizes = written.map(([b]) => b.fill);
    const total = sizes.reduce((a, n) => a + n, 0);
    const staging = device.createBuffer({ size: Math.max(4, total * 4), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    let offset = 0;
    for (const [b, buffer] of written) {
      encoder.copyBufferToBuffer(buffer, 0, staging, offset * 4, b.fill * 4);
      offset += b.fill;
    }
    readbacks.push({ staging, sizes, buffers });
  }
  device.queue.submit([encoder.finish()]);
  const submitErr = await device.popErrorScope();
  if (submitErr) throw new Error(`dispatch rejected: ${submitErr.message}`);
  const cases = [];
  for (const r of readbacks) {
    await r.staging.mapAsync(GPUMapMode.READ);
    const words = Array.from(new Uint32Array(r.staging.getMappedRange()));
    r.staging.unmap();
    r.staging.destroy();
    for (const b of r.buffers) b.destroy();
    const read = [];
    let at = 0;
    for (const n of r.sizes) {
      read.push(words.slice(at, at + n));
      at += n;
    }
    cases.push({ read });
  }
  return cases;
}

// A `binary` job: one dispatch over `job.buffers`, whose contents come from
// and go to files. Returns the paths written, in the order of the buffers.
async function runBinaryJob(device, job) {
  device.pushErrorScope('validation');
  const module = await compileShader(device, job);
  // An explicit layout, not 'auto': 'auto' leaves out the bindings the
  // shader does not use, and a bind group naming them would be rejected.
  // One layout per group up to the highest, empty where no buffer is.
  const groups = Math.max(0, ...job.buffers.map((b) => b.group || 0)) + 1;
  const bindLayouts = Array.from({ length: groups }, (_, g) => device.createBindGroupLayout({
    entries: job.buffers.filter((b) => (b.group || 0) === g).map((b) => ({
      binding: b.binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type: b.uniform ? 'uniform' : b.read_only ? 'read-only-storage' : 'storage' },
    })),
  }));
  const layout = device.createPipelineLayout({ bindGroupLayouts: bindLayouts });
  const pipelines = (job.entries || ['main']).map((entryPoint) => device.createComputePipeline({
    layout,
    compute: { module, entryPoint },
  }));
  const err = await device.popErrorScope();
  if (err) throw new Error(`pipeline rejected: ${err.message}`);

  device.pushErrorScope('validation');
  device.pushErrorScope('out-of-memory');
  // Scopes still pushed: a throw below pops them in `finally`, so that the
  // next job's scopes are not nested in these.
  let scopes = 2;
  const pop = () => { scopes -= 1; return device.popErrorScope(); };
  const made = [];
  try {
    const buffers = job.buffers.map((b) => {
      // At least 16 bytes and a multiple of 16, so that a shader's
      // `array<vec4<u32>>` view of a short buffer still binds.
      const size = Math.ceil(Math.max(b.size, 4) * 4 / 16) * 16;
      const buffer = device.createBuffer({
        size,
        usage: (b.uniform ? GPUBufferUsage.UNIFORM : GPUBufferUsage.STORAGE)
          | (b.output ? GPUBufferUsage.COPY_SRC : 0),
        mappedAtCreation: true,
      });
      made.push(buffer);
      if (b.input) {
        const bytes = readFileSync(b.input);
        if (bytes.length > b.size * 4) throw new Error(`${b.input} holds ${bytes.length} bytes, more than ${b.size} words`);
        // Zero-initialised by WebGPU; the file's bytes go at the start.
        new Uint8Array(buffer.getMappedRange()).set(bytes);
      }
      buffer.unmap();
      return buffer;
    });
    const bindGroups = bindLayouts.map((bindLayout, g) => device.createBindGroup({
      layout: bindLayout,
      entries: job.buffers.flatMap((b, i) => ((b.group || 0) === g
        ? [{ binding: b.binding, resource: { buffer: buffers[i] } }]
        : [])),
    }));
    const encoder = device.createCommandEncoder();
    // A pass per entry point: each sees the writes of the one before.
    for (const pipeline of pipelines) {
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      bindGroups.forEach((group, g) => pass.setBindGroup(g, group));
      pass.dispatchWorkgroups(...job.workgroups);
      pass.end();
    }
    // One staging buffer per read-back buffer: together they could pass
    // maxBufferSize.
    const reads = [];
    job.buffers.forEach((b, i) => {
      if (!b.output) return;
      const bytes = b.size * 4;
      const staging = device.createBuffer({ size: Math.max(4, bytes), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      made.push(staging);
      if (bytes > 0) encoder.copyBufferToBuffer(buffers[i], 0, staging, 0, bytes);
      reads.push({ path: b.output, staging, bytes });
    });
    device.queue.submit([encoder.finish()]);
    const oom = await pop();
    const submitErr = await pop();
    if (oom) throw new Error(`out of memory: ${oom.message}`);
    if (submitErr) throw new Error(`dispatch rejected: ${submitErr.message}`);
    const written = [];
    for (const r of reads) {
      await r.staging.mapAsync(GPUMapMode.READ);
      // Written straight from the mapping, before unmap: no copy in Node.
      writeFileSync(r.path, new Uint8Array(r.staging.getMappedRange(0, Math.max(4, r.bytes)), 0, r.bytes));
      r.staging.unmap();
      written.push(r.path);
    }
    return written;
  } finally {
    while (scopes > 0) await pop();
    // Freed at once, not when collected: the next job may need the memory.
    for (const buffer of made) buffer.destroy();
  }
}

main().then(
  (keep) => { if (!keep) process.exitCode = 1; },
  (e) => { console.error(`dawn: ${e && e.stack || e}`); process.exit(1); },
);
