// The Web Worker that runs rscheck's WebAssembly module, so that checking
// a 50 MB document never freezes the page. Go's wasm_exec.js defines the
// Go class; the module (wasm/ in the repository) installs the worker's
// message handler and announces itself with {type: "ready"}. The message
// protocol is described in wasm/README.md; client.js is the page's side.

import './wasm_exec.js';

const go = new Go();
try {
  const { instance } = await WebAssembly.instantiateStreaming(
    fetch(new URL('rscheck.wasm', import.meta.url)),
    go.importObject,
  );
  go.run(instance).then(() => {
    postMessage({ type: 'fatal', message: 'rscheck stopped unexpectedly' });
  });
} catch (e) {
  postMessage({
    type: 'fatal',
    message: `cannot load rscheck.wasm (${e}). Build it with "make wasm" and reload.`,
  });
}
