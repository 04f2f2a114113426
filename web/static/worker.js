// The Web Worker that runs rscheck's WebAssembly module, so that checking
// a 50 MB document never freezes the page. Go's wasm_exec.js defines the
// Go class; the module (wasm/ in the repository) installs the worker's
// message handler and announces itself with {type: "ready"}. The message
// protocol is described in wasm/README.md; client.js is the page's side.

import './wasm_exec.js';

const go = new Go();

/**
 * Starts the module once the page sends it, compiled (see compileModule in
 * client.js); a page that could not compile it sends the error instead.
 * Go's main then installs the worker's own message handler.
 *
 * @param {MessageEvent} e
 */
self.onmessage = async (e) => {
  if (e.data?.type !== 'module') {
    return; // the page waits for "ready" before sending anything else
  }
  self.onmessage = null;
  try {
    if (e.data.error) {
      throw new Error(e.data.error);
    }
    const instance = await WebAssembly.instantiate(e.data.module, go.importObject);
    go.run(instance).then(() => {
      postMessage({ type: 'fatal', message: 'rscheck stopped unexpectedly' });
    });
  } catch (err) {
    postMessage({
      type: 'fatal',
      message: `cannot load rscheck.wasm (${err}). Build it with "make wasm" and reload.`,
    });
  }
};
