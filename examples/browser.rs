//! A kernel for the web: the `wgsl-web` shader for browsers that expose
//! WebGPU's `subgroups` feature (Chrome), the `wgsl-no-subgroup` fallback
//! for those that don't (Firefox, Safari), and a page that picks one with
//! `adapter.features.has('subgroups')`.
//!
//! ```text
//! cargo run --example browser
//! ```
//!
//! Writes `compaction_slot.wgsl-web.wgsl`, `compaction_slot.wgsl-no-subgroup.wgsl`
//! and `index.html` to `target/ballot-examples/browser/`. The page embeds
//! both shaders, so it can be opened from disk or any static server; it runs
//! the kernel on 256 invocations and checks every slot against the same
//! computation in JavaScript. The example itself checks the kernel natively.

mod common;

use ballot::prelude::*;

/// The README's compaction slot.
#[ballot::kernel]
fn compaction_slot(keep: bool) -> u32 {
    let kept = subgroup_ballot(keep);
    subgroup_ballot_exclusive_bit_count(kept)
}

const WORKGROUP: u32 = 64;
const INVOCATIONS: u32 = 256;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = common::out_dir("browser");
    write_page(&dir)?;
    println!("wrote {}/{{index.html, compaction_slot.wgsl-web.wgsl, compaction_slot.wgsl-no-subgroup.wgsl}}", dir.display());
    println!(
        "open index.html in a WebGPU browser: it names the shader it chose and checks every slot"
    );
    Ok(())
}

/// Checks the kernel natively, then writes both shaders and `index.html`
/// to `dir`. (`ballot-runner/tests/browser_page.rs` calls it too, and
/// runs the page's script on Dawn.)
pub fn write_page(dir: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    // The predicate the page uses: keep every invocation whose index has
    // bit 0 or bit 3 set.
    let keep: Vec<bool> = (0..INVOCATIONS).map(|i| i & 0b1001 != 0).collect();
    // The fallback's virtual subgroups are 32 wide; check natively that
    // the slots restart at every subgroup and count kept lanes below.
    let dispatch = Dispatch::new([WORKGROUP, 1, 1], 32, [INVOCATIONS / WORKGROUP, 1, 1])?;
    let slots = compaction_slot::run_dispatch(&dispatch, &keep)?;
    for (g, &slot) in slots.iter().enumerate() {
        let first = g - g % 32;
        let below = keep[first..g].iter().filter(|&&k| k).count() as u32;
        assert_eq!(slot, below, "invocation {g}");
    }
    println!("native: {} slots checked in subgroups of 32", slots.len());

    let options = ShaderOptions {
        workgroup_size: [WORKGROUP, 1, 1],
        subgroup_size: 32,
        ..ShaderOptions::default()
    };
    let web = compaction_slot::shader(Target::WgslWeb, Form::ComputeShader, &options)?;
    let fallback = compaction_slot::shader(Target::WgslNoSubgroup, Form::ComputeShader, &options)?;
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("compaction_slot.wgsl-web.wgsl"), &web)?;
    std::fs::write(dir.join("compaction_slot.wgsl-no-subgroup.wgsl"), &fallback)?;
    let page = PAGE
        .replace("@WEB@", &js_string(&web))
        .replace("@FALLBACK@", &js_string(&fallback))
        .replace("@INVOCATIONS@", &INVOCATIONS.to_string())
        .replace("@WORKGROUP@", &WORKGROUP.to_string());
    std::fs::write(dir.join("index.html"), page)?;
    Ok(())
}

/// `text` as a JavaScript string literal.
fn js_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            // `</script>` must not end the page's script early.
            '<' => out.push_str("\\u003c"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The page. Bindings follow the shader interface of `ballot::back`:
/// binding 0 the per-invocation `keep` flags as u32, binding 1 the slots.
const PAGE: &str = r#"<!doctype html>
<meta charset="utf-8">
<title>ballot: compaction_slot on WebGPU</title>
<pre id="log">running…</pre>
<script type="module">
const log = (line) => (document.getElementById("log").textContent += "\n" + line);
const SHADERS = { web: @WEB@, fallback: @FALLBACK@ };
const N = @INVOCATIONS@, WORKGROUP = @WORKGROUP@;

const adapter = await navigator.gpu?.requestAdapter();
if (!adapter) throw log("no WebGPU adapter in this browser");
// Chrome exposes `subgroups`; elsewhere the emulated fallback runs.
const subgroups = adapter.features.has("subgroups");
const device = await adapter.requestDevice({ requiredFeatures: subgroups ? ["subgroups"] : [] });
const code = subgroups ? SHADERS.web : SHADERS.fallback;
log(`shader: ${subgroups ? "wgsl-web (native subgroups)" : "wgsl-no-subgroup (emulated, subgroups of 32)"}`);

const keep = new Uint32Array(N).map((_, i) => ((i & 0b1001) !== 0 ? 1 : 0));
const storage = (size, usage) => device.createBuffer({ size, usage: GPUBufferUsage.STORAGE | usage });
const input = storage(keep.byteLength, GPUBufferUsage.COPY_DST);
device.queue.writeBuffer(input, 0, keep);
const output = storage(keep.byteLength, GPUBufferUsage.COPY_SRC);
const readback = device.createBuffer({ size: keep.byteLength, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });

const module = device.createShaderModule({ code });
const info = await module.getCompilationInfo();
for (const m of info.messages) log(`${m.type}: ${m.message} (line ${m.lineNum})`);
const pipeline = device.createComputePipeline({ layout: "auto", compute: { module, entryPoint: "main" } });
const bindGroup = device.createBindGroup({
  layout: pipeline.getBindGroupLayout(0),
  entries: [{ binding: 0, resource: { buffer: input } }, { binding: 1, resource: { buffer: output } }],
});
const encoder = device.createCommandEncoder();
const pass = encoder.beginComputePass();
pass.setPipeline(pipeline);
pass.setBindGroup(0, bindGroup);
pass.dispatchWorkgroups(N / WORKGROUP);
pass.end();
encoder.copyBufferToBuffer(output, 0, readback, 0, keep.byteLength);
device.queue.submit([encoder.finish()]);
await readback.mapAsync(GPUMapMode.READ);
const slots = new Uint32Array(readback.getMappedRange().slice(0));

// Each kept element's slot counts the kept ones below it in its subgroup.
// Subgroups are runs of `size` invocations with size a power of two; find
// the size that explains every slot (emulation: 32; hardware: its own).
const explains = (size) => slots.every((s, i) => {
  if (!keep[i]) return true;
  let below = 0;
  for (let j = i - (i % size); j < i; j++) below += keep[j];
  return s === below;
});
const size = [4, 8, 16, 32, 64, 128].find(explains);
log(size ? `every slot checks out, in subgroups of ${size}` : "MISMATCH: no subgroup size explains the slots");
</script>
"#;
