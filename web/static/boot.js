// Starts compiling rscheck's WebAssembly module the moment the page's head
// is parsed. A classic script runs at once, where the page's modules (app.js
// and its imports) run only after the whole page and every import have
// loaded: compiling here saves that wait. client.js picks the promise up.
// The page's CSP allows no inline script, hence this file.
'use strict';
if ('compileStreaming' in WebAssembly) {
  performance.mark('rscheck-compile-start');
  self.rscheckModule = WebAssembly.compileStreaming(fetch('rscheck.wasm'));
  self.rscheckModule.catch(() => {}); // client.js reports it
}
