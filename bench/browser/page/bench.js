// The in-page half of rscheck's browser benchmark. The driver
// (bench/browser/main.go) loads bench.html from its local server and calls
// the functions exported on window.bench; each returns timings in
// milliseconds. The peer is xmllint-wasm (libxml2 in WebAssembly), served
// from node_modules under /peer/.

/**
 * Watches the main thread while fn runs: the longest gap between two
 * animation frames and the long tasks (over 50 ms) the browser reports.
 *
 * @template T
 * @param {() => Promise<T>} fn
 * @returns {Promise<{value: T, ms: number, maxFrameGap: number, longTasks: number, longTaskMs: number}>}
 */
export async function watched(fn) {
  let maxGap = 0;
  let last = performance.now();
  let running = true;
  const frame = (t) => {
    maxGap = Math.max(maxGap, t - last);
    last = t;
    if (running) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  let longTasks = 0;
  let longTaskMs = 0;
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      longTasks++;
      longTaskMs += e.duration;
    }
  });
  obs.observe({ type: 'longtask', buffered: false });
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  // One more frame, so that a gap that ends after fn is counted.
  await new Promise((r) => requestAnimationFrame(() => r()));
  running = false;
  obs.disconnect();
  return { value, ms, maxFrameGap: maxGap, longTasks, longTaskMs };
}

async function text(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.text();
}

const SCHEMAS = ['wrapper-sitemap-ns-both.xsd', 'sitemap.xsd', 'siteindex.xsd', 'resourcesync-1.1.xsd'];

let xmllint;
let schema;
let preload;

/**
 * Loads xmllint-wasm and runs it once on a tiny document, so that it has
 * fetched and compiled its module: the peer's "ready to validate".
 *
 * @returns {Promise<number>} milliseconds since navigation start
 */
async function xmllintReady() {
  xmllint = await import('/peer/index-browser.mjs');
  schema = [{ fileName: 'wrapper-all.xsd', contents: await text('/schemas/wrapper-all.xsd') }];
  preload = await Promise.all(SCHEMAS.map(async (f) => ({ fileName: f, contents: await text(`/schemas/${f}`) })));
  const r = await xmllint.validateXML({
    xml: [{ fileName: 'tiny.xml', contents: '<a/>' }],
    schema: [{ fileName: 'tiny.xsd', contents: '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="a"/></xs:schema>' }],
  });
  if (!r.valid) throw new Error('xmllint-wasm: the tiny document is invalid');
  return performance.now();
}

/**
 * Validates a document with xmllint-wasm against the official schemas.
 *
 * @param {string} url
 * @returns {Promise<object>}
 */
async function xmllintValidate(url) {
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  return watched(async () => {
    const r = await xmllint.validateXML({
      xml: [{ fileName: 'document.xml', contents: bytes }],
      schema,
      preload,
      maxMemoryPages: xmllint.memoryPages.GiB,
    });
    return { valid: r.valid, errors: r.errors.length };
  });
}

let checker;

/**
 * Starts rscheck's worker (the page's Checker) and waits until it answers.
 *
 * @returns {Promise<number>} milliseconds from the call
 */
async function rscheckWorker() {
  const { Checker } = await import('/client.js');
  const t0 = performance.now();
  checker = new Checker(new URL('/worker.js', location.href));
  await checker.ready;
  await checker.rules();
  return performance.now() - t0;
}

/**
 * Validates a document with rscheck's worker (XML Schema and all rules),
 * given as a Blob as the page gives a file.
 *
 * @param {string} url
 * @returns {Promise<object>}
 */
async function rscheckValidate(url) {
  const blob = await (await fetch(url)).blob();
  return watched(async () => {
    const r = await checker.validate([{ input: blob, name: 'document.xml' }], { maxPerRule: 0 });
    return { valid: r.result.summary.errors === 0, errors: r.result.summary.errors, warnings: r.result.summary.warnings };
  });
}

window.bench = { xmllintReady, xmllintValidate, rscheckWorker, rscheckValidate, watched };
document.body.dataset.ready = 'true';
