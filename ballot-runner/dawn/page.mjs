// Runs the module script of a page that uses WebGPU (such as the `browser`
// example's index.html) on Dawn, as a browser would, minus the browser:
//
//   node page.mjs PAGE.html [--hide-subgroups]
//
// `navigator.gpu` is the npm package `webgpu`'s; `document.getElementById`
// gives an element whose text, as the script appends lines, goes to stdout.
// With --hide-subgroups the adapter does not list the `subgroups` feature,
// as in Firefox and Safari. Exits 1 if the script throws.

import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);

const [pagePath, ...flags] = process.argv.slice(2);
if (!pagePath) {
  console.error('usage: node page.mjs PAGE.html [--hide-subgroups]');
  process.exit(2);
}
const hide = flags.includes('--hide-subgroups');

// Referenced until the end: the package crashes once it is collected.
const gpu = create(['backend=vulkan']);

// The page's own view of WebGPU: Dawn's, less `subgroups` if asked. Only
// what the page reads of the adapter is passed on.
const pageGpu = {
  async requestAdapter(options) {
    const adapter = await gpu.requestAdapter(options);
    if (!adapter || !hide) return adapter;
    return {
      features: new Set([...adapter.features].filter((f) => f !== 'subgroups')),
      limits: adapter.limits,
      info: adapter.info,
      requestDevice: (descriptor) => adapter.requestDevice(descriptor),
    };
  },
};
Object.defineProperty(globalThis, 'navigator', { value: { gpu: pageGpu }, configurable: true });

let shown = '';
const element = {
  get textContent() { return shown; },
  set textContent(text) {
    process.stdout.write(text.startsWith(shown) ? text.slice(shown.length) : `\n${text}`);
    shown = text;
  },
};
globalThis.document = { getElementById: () => element };

const html = readFileSync(pagePath, 'utf8');
const script = html.match(/<script type="module">([\s\S]*?)<\/script>/);
if (!script) {
  console.error(`${pagePath}: no <script type="module">`);
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'ballot-page-'));
const file = join(dir, 'page.mjs');
writeFileSync(file, script[1]);
try {
  await import(pathToFileURL(file).href);
  process.stdout.write('\n');
  process.exitCode = 0;
} catch (e) {
  console.error(`\npage script failed: ${e && e.stack || e}`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
// Dawn's device keeps the event loop alive; the page is done.
process.exit(gpu ? process.exitCode : 1);
