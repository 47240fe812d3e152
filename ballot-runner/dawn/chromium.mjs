// Opens a WebGPU page (such as the `browser` example's index.html) in a real
// headless Chromium, driven by puppeteer-core, and prints what the page's
// script wrote to its log element:
//
//   node chromium.mjs PAGE.html [--hide-subgroups] [--adapter=default|opengles]
//
// The browser is the installed one (BALLOT_CHROMIUM, else /usr/bin/chromium);
// puppeteer-core downloads none. It talks to it over --remote-debugging-pipe,
// so no port is opened.
//
// --adapter=default: Chromium's own choice on Linux. Chromium's WebGPU uses a
//   Vulkan adapter only if it can import external images (Dawn's
//   SupportsExternalImages, which needs VK_KHR_external_semaphore_fd);
//   lavapipe lacks that, so Chromium falls back to the SwiftShader it ships
//   (/usr/lib/chromium/libvk_swiftshader.so), which has `subgroups`.
// --adapter=opengles: Dawn's OpenGL ES backend in compatibility mode, over
//   ANGLE, whose GL runs on Vulkan, here lavapipe. It lacks `subgroups`.
// --hide-subgroups: a script run before the page's hides the adapter's
//   `subgroups` feature, as in Firefox and Safari.
//
// After the page, prints an `adapter:` line (what Chromium gave the page) and
// a `GL renderer:` line (ANGLE's, from WebGL).
// Exits 0 when the page's check passed ("every slot checks out"), 1 when it
// failed, threw, or did not finish within BALLOT_CHROMIUM_TIMEOUT_MS (60 s).

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const [pagePath, ...flags] = process.argv.slice(2);
if (!pagePath) {
  console.error('usage: node chromium.mjs PAGE.html [--hide-subgroups] [--adapter=default|opengles]');
  process.exit(2);
}
const hide = flags.includes('--hide-subgroups');
const adapter = (flags.find((f) => f.startsWith('--adapter=')) ?? '--adapter=default').slice(10);
if (!['default', 'opengles'].includes(adapter)) {
  console.error(`unknown adapter ${adapter}: default or opengles`);
  process.exit(2);
}
const executablePath = process.env.BALLOT_CHROMIUM || '/usr/bin/chromium';
if (!existsSync(executablePath)) {
  console.error(`no Chromium at ${executablePath}: install Debian's chromium, or set BALLOT_CHROMIUM`);
  process.exit(2);
}
const timeout = Number(process.env.BALLOT_CHROMIUM_TIMEOUT_MS || 60000);

const args = [
  // CI runs as root, where Chromium's sandbox cannot start.
  '--no-sandbox',
  '--disable-gpu-sandbox',
  '--enable-unsafe-webgpu',
  // The GPU process on Vulkan (ANGLE and Skia), and no software blocklist
  // for lavapipe, whose GL renderer string is llvmpipe.
  '--enable-features=Vulkan',
  '--use-vulkan=native',
  '--use-angle=vulkan',
  '--ignore-gpu-blocklist',
];
if (adapter === 'opengles') args.push('--use-webgpu-adapter=opengles', '--force-webgpu-compat');

const browser = await puppeteer.launch({
  executablePath,
  headless: true, // --headless=new
  pipe: true,
  args,
  env: process.env,
  timeout,
});
let failed = true;
try {
  const page = await browser.newPage();
  // Uncaught errors fail the run; the console is only shown.
  const errors = [];
  const consoled = [];
  page.on('pageerror', (e) => errors.push(`page error: ${e && e.message || e}`));
  page.on('console', (m) => consoled.push(`console ${m.type()}: ${m.text()}`));
  if (hide) {
    await page.evaluateOnNewDocument(() => {
      if (!globalThis.GPUAdapter) return;
      const features = Object.getOwnPropertyDescriptor(GPUAdapter.prototype, 'features');
      Object.defineProperty(GPUAdapter.prototype, 'features', {
        configurable: true,
        get() {
          return new Set([...features.get.call(this)].filter((f) => f !== 'subgroups'));
        },
      });
    });
  }
  await page.goto(pathToFileURL(resolve(pagePath)).href);
  const done = /every slot checks out|MISMATCH|no WebGPU adapter/;
  const log = () => page.evaluate(() => document.getElementById('log')?.textContent ?? '');
  const start = Date.now();
  let text = await log();
  while (!done.test(text) && errors.length === 0 && Date.now() - start < timeout) {
    await new Promise((r) => setTimeout(r, 50));
    text = await log();
  }
  process.stdout.write(`${text}\n`);
  const info = await page.evaluate(async () => {
    const a = await navigator.gpu?.requestAdapter();
    if (!a) return 'none';
    const i = a.info;
    return `${[i.vendor, i.architecture, i.description].filter(Boolean).join(' ') || '(unnamed)'}` +
      `${i.isFallbackAdapter ? ' (fallback adapter)' : ''}, subgroups ${i.subgroupMinSize}..${i.subgroupMaxSize}, ` +
      `features: ${[...a.features].sort().join(' ')}`;
  });
  process.stdout.write(`adapter: ${info}\n`);
  // The GL renderer under ANGLE, which the `opengles` adapter runs on.
  const renderer = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
    if (!gl) return 'no WebGL';
    const debug = gl.getExtension('WEBGL_debug_renderer_info');
    return String(gl.getParameter(debug ? debug.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  });
  process.stdout.write(`GL renderer: ${renderer}\n`);
  for (const line of [...consoled, ...errors]) process.stdout.write(`${line}\n`);
  if (!done.test(text)) process.stdout.write(`the page did not finish within ${timeout} ms\n`);
  failed = errors.length > 0 || !/every slot checks out/.test(text) || /MISMATCH/.test(text);
} catch (e) {
  console.error(`chromium: ${e && e.stack || e}`);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
