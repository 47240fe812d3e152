// Runs ballot compute shaders on Dawn/Tint through the npm package `webgpu`.
//
//   node run.mjs JOBS.json RESULTS.jsonl
//
// JOBS.json: {"jobs": [{"name", "shader", "subgroups": bool, "workgroups": [x, y, z],
//   "cases": [{"params": [[u32...]...], "output_words": n | null, "record_words": n}]}]}
// RESULTS.jsonl: one line per job, in order, written as each job finishes so
// that a crash still leaves the earlier results:
//   {"cases": [{"output": [u32...], "records": [u32...]}]} or {"error": "..."}
// Buffers not written by the shader keep the 0xDEADBEEF they start with.

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
    requiredLimits: {
      maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage,
      maxComputeInvocationsPerWorkgroup: adapter.limits.maxComputeInvocationsPerWorkgroup,
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
      line = { cases: await runJob(device, job) };
    } catch (e) {
      line = { error: String(e && e.message || e) };
    }
    appendFileSync(resultsPath, JSON.stringify(line) + '\n');
  }
  device.destroy();
  // Keep `gpu` reachable until here.
  return gpu;
}

async function runJob(device, job) {
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code: job.shader });
  const compile = await module.getCompilationInfo();
  const errors = compile.messages.filter((m) => m.type === 'error');
  if (errors.length) {
    await device.popErrorScope();
    throw new Error(`Tint rejects the shader: ${errors.map((m) => `${m.lineNum}:${m.linePos}: ${m.message}`).join('; ')}`);
  }
  const paramCount = job.cases[0] ? job.cases[0].params.length : 0;
  const hasOutput = job.cases[0] ? job.cases[0].output_words !== null : false;
  const entries = [];
  for (let i = 0; i < paramCount; i++) {
    entries.push({ binding: i, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } });
  }
  if (hasOutput) entries.push({ binding: paramCount, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } });
  entries.push({ binding: paramCount + 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } });
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
    const params = c.params.map((words) => storage(words, 0));
    const outWords = c.output_words || 0;
    const output = c.output_words !== null ? storage(new Array(outWords).fill(UNWRITTEN), GPUBufferUsage.COPY_SRC) : null;
    const records = storage(new Array(c.record_words).fill(UNWRITTEN), GPUBufferUsage.COPY_SRC);
    const groupEntries = params.map((b, i) => ({ binding: i, resource: { buffer: b } }));
    if (output) groupEntries.push({ binding: params.length, resource: { buffer: output } });
    groupEntries.push({ binding: params.length + 1, resource: { buffer: records } });
    const group = device.createBindGroup({ layout: bindLayout, entries: groupEntries });
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(...job.workgroups);
    pass.end();
    const total = (outWords + c.record_words) * 4;
    const staging = device.createBuffer({ size: total, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    if (output) encoder.copyBufferToBuffer(output, 0, staging, 0, outWords * 4);
    encoder.copyBufferToBuffer(records, 0, staging, outWords * 4, c.record_words * 4);
    readbacks.push({ staging, outWords, buffers: [...params, output, records] });
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
    for (const b of r.buffers) if (b) b.destroy();
    cases.push({ output: words.slice(0, r.outWords), records: words.slice(r.outWords) });
  }
  return cases;
}

main().then(
  (keep) => { if (!keep) process.exitCode = 1; },
  (e) => { console.error(`dawn: ${e && e.stack || e}`); process.exit(1); },
);
