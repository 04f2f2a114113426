// The page's JavaScript API to rscheck: a Checker owns the Web Worker that
// runs the WebAssembly module and turns the message protocol (wasm/README.md)
// into promises. Cancellation uses the platform's AbortSignal.

/**
 * @typedef {object} ValidateOptions
 * @property {string} [rsVersion] "1.1" (default), "1.0" or "0.9.1"
 * @property {{name: string, text: string}[]} [schemas] extra XSD documents
 * @property {boolean} [schemaOnly] only XML and XML Schema findings
 * @property {number} [maxPerRule] findings kept per rule; 0 keeps all
 */

/**
 * @typedef {ValidateOptions & {audit?: number, maxDocuments?: number, maxDepth?: number,
 *   concurrency?: number, maxSeconds?: number, timeoutSeconds?: number, delayMs?: number}} ExploreOptions
 */

/**
 * @typedef {object} FetchReply what a relay returns for one request
 * @property {number} status
 * @property {string} url the final URL
 * @property {[string, string][]} headers
 * @property {ArrayBuffer} body
 */

/** An error that ended a request, with the worker's code. */
export class CheckError extends Error {
  /**
   * @param {string} message
   * @param {string} code "cancelled", "input", "network", "internal" or "fatal"
   */
  constructor(message, code) {
    super(message);
    this.name = code === 'cancelled' ? 'AbortError' : 'CheckError';
    this.code = code;
  }
}

const wasmURL = new URL('rscheck.wasm', import.meta.url);
/** @type {Promise<WebAssembly.Module>|null} */
let compiled = null;

/**
 * Compiles the module once per page, as early as possible: compilation
 * streams while the page's other scripts and the worker load, and the
 * compiled module is then handed to each worker (modules are
 * structured-cloneable), instead of each worker fetching and compiling it
 * after its own scripts have loaded.
 *
 * @returns {Promise<WebAssembly.Module>}
 */
export function compileModule() {
  if (!compiled) {
    if (self.rscheckModule) {
      compiled = self.rscheckModule; // started by boot.js
    } else {
      performance.mark('rscheck-compile-start');
      compiled = WebAssembly.compileStreaming(fetch(wasmURL));
    }
    compiled.then(() => performance.mark('rscheck-compiled'), () => {});
  }
  return compiled;
}

/** A Checker runs rscheck in a Web Worker. */
export class Checker {
  #worker;
  #next = 1;
  /** @type {Map<number, {resolve: Function, reject: Function, onProgress?: Function}>} */
  #pending = new Map();
  /** @type {Map<number, AbortController>} */
  #fetches = new Map();
  #ready;

  /**
   * Starts the worker. The module loads in the background; requests wait
   * for it.
   *
   * @param {string|URL} [workerURL]
   */
  constructor(workerURL = new URL('worker.js', import.meta.url)) {
    /**
     * Relays the worker's fetches in bookmarklet mode: set it to a
     * function (url, method, signal) => Promise<FetchReply>.
     *
     * @type {((url: string, method: string, signal: AbortSignal) => Promise<FetchReply>)|null}
     */
    this.relay = null;
    let ready, fail;
    this.#ready = new Promise((res, rej) => {
      ready = res;
      fail = rej;
    });
    this.#ready.catch(() => {}); // reported to whoever awaits it
    this.#worker = new Worker(workerURL, { type: 'module', name: 'rscheck' });
    compileModule().then(
      (module) => this.#worker.postMessage({ type: 'module', module }),
      (e) => this.#worker.postMessage({ type: 'module', error: String(e) }),
    );
    this.#worker.onmessage = (e) => this.#receive(e.data, ready, fail);
    this.#worker.onerror = (e) => {
      e.preventDefault();
      this.#die(`the checker's worker failed: ${e.message || 'cannot start it'}`, fail);
    };
  }

  /**
   * Asks the worker to warm its code up on a small document, so that the
   * first real validation runs on the browser's optimised code; the next
   * request interrupts it. Call it when the page is idle.
   */
  warmUp() {
    this.#ready.then(() => this.#worker.postMessage({ type: 'warmup' }), () => {});
  }

  /**
   * Resolves with {version, go} once the module is loaded.
   *
   * @returns {Promise<{version: string, go: string}>}
   */
  get ready() {
    return this.#ready;
  }

  /**
   * Validates documents.
   *
   * @param {{input: string|ArrayBuffer|ArrayBufferView|Blob, name: string}[]} inputs
   * @param {ValidateOptions} [options]
   * @param {{signal?: AbortSignal, html?: boolean, onProgress?: (p: object) => void}} [how]
   * @returns {Promise<{id: number, result: object, documents: object[], html?: string}>}
   */
  async validate(inputs, options = {}, how = {}) {
    const msg = await this.#request({ type: 'validate', inputs, options, html: !!how.html }, how);
    return { id: msg.id, result: JSON.parse(msg.json), documents: msg.documents, html: msg.html };
  }

  /**
   * Explores the Source a URL belongs to. Cancelling resolves with the
   * partial result (explore.cancelled is then true).
   *
   * @param {string} url
   * @param {ExploreOptions} [options]
   * @param {{signal?: AbortSignal, via?: 'direct'|'relay'|'proxy', proxy?: string,
   *   html?: boolean, onProgress?: (p: object) => void}} [how]
   * @returns {Promise<{id: number, result: object, explore: object, html?: string}>}
   */
  async explore(url, options = {}, how = {}) {
    const msg = await this.#request(
      { type: 'explore', url, options, via: how.via ?? 'direct', proxy: how.proxy ?? '', html: !!how.html },
      how,
    );
    return { id: msg.id, result: JSON.parse(msg.json), explore: msg.explore, html: msg.html };
  }

  /**
   * Renders a kept result (by the id of the request that made it) in a
   * report format: "html", "json", "text", "sarif" or "junit".
   *
   * @param {number} of
   * @param {string} format
   * @returns {Promise<string>}
   */
  async render(of, format) {
    return (await this.#request({ type: 'render', of, format })).text;
  }

  /**
   * Returns the rule catalogue: [{id, name, severity, spec, specURL, doc, docURL}].
   *
   * @returns {Promise<object[]>}
   */
  async rules() {
    return JSON.parse((await this.#request({ type: 'rules' })).json);
  }

  /** Stops the worker; pending requests fail. */
  terminate() {
    this.#worker.terminate();
    this.#die('the checker was stopped', () => {});
  }

  async #request(msg, { signal, onProgress } = {}) {
    await this.#ready;
    if (signal?.aborted) throw new CheckError('cancelled', 'cancelled');
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, onProgress });
      const onAbort = () => this.#worker.postMessage({ type: 'cancel', id });
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.#pending.get(id).done = done;
      try {
        this.#worker.postMessage({ ...msg, id });
      } catch (e) {
        this.#pending.delete(id);
        done();
        reject(new CheckError(`cannot send the request: ${e.message}`, 'input'));
      }
    });
  }

  #receive(msg, ready, fail) {
    if (!msg || typeof msg !== 'object') return;
    switch (msg.type) {
      case 'ready':
        ready({ version: msg.version, go: msg.go });
        return;
      case 'fatal':
        this.#die(msg.message, fail);
        return;
      case 'fetch':
        this.#relayFetch(msg);
        return;
      case 'fetch-abort':
        this.#fetches.get(msg.fid)?.abort();
        return;
    }
    const p = this.#pending.get(msg.id);
    if (!p) return;
    if (msg.type === 'progress') {
      p.onProgress?.(msg.progress);
      return;
    }
    this.#pending.delete(msg.id);
    p.done?.();
    if (msg.type === 'error') p.reject(new CheckError(msg.message, msg.code));
    else p.resolve(msg);
  }

  async #relayFetch({ fid, url, method }) {
    const ac = new AbortController();
    this.#fetches.set(fid, ac);
    try {
      if (!this.relay) throw new Error('no relay: fetches go through the bookmarklet only in bookmarklet mode');
      const r = await this.relay(url, method, ac.signal);
      this.#worker.postMessage({ type: 'fetch-result', fid, ...r }, r.body ? [r.body] : []);
    } catch (e) {
      this.#worker.postMessage({ type: 'fetch-result', fid, error: String(e?.message ?? e) });
    } finally {
      this.#fetches.delete(fid);
    }
  }

  #die(message, fail) {
    fail(new CheckError(message, 'fatal'));
    for (const p of this.#pending.values()) {
      p.done?.();
      p.reject(new CheckError(message, 'fatal'));
    }
    this.#pending.clear();
  }
}
