// The checker's side of the bookmarklet (bookmarklet.js): the window the
// bookmarklet opened talks to the site's page that opened it, which
// fetches the site's URLs from its own origin and posts the answers back.

/** Bytes the checker accepts in one relayed body (the relay's limit too). */
const MAX_BODY = 256 * 1024 * 1024;

/**
 * Builds the javascript: URL of the bookmarklet from its readable source.
 *
 * @param {string} source the text of bookmarklet.js
 * @param {string} checkerURL where the bookmarklet opens the checker
 * @returns {string}
 */
export function bookmarkletURL(source, checkerURL) {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ')
    .replace('__RSCHECK_CHECKER__', checkerURL.replace(/[\\']/g, '\\$&'));
  return `javascript:${encodeURIComponent(code)}`;
}

/**
 * Reports whether bytes hold a Sitemap or ResourceSync document: the first
 * element, past the XML declaration, comments and DOCTYPE, is urlset or
 * sitemapindex (with any prefix).
 *
 * @param {ArrayBuffer} buf
 * @returns {boolean}
 */
export function isSitemap(buf) {
  const head = new TextDecoder().decode(new Uint8Array(buf, 0, Math.min(buf.byteLength, 65536)));
  const text = head.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/g, '');
  const m = /<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(text);
  return !!m && (m[2] === 'urlset' || m[2] === 'sitemapindex');
}

/**
 * @typedef {object} RelayInfo what the bookmarklet says of its page
 * @property {string} href
 * @property {string} origin
 * @property {string} contentType
 * @property {boolean} isXML whether the page is an XML document
 */

/** A Relay fetches through the bookmarklet in the opener window. */
export class Relay {
  #opener;
  #origin = '';
  #next = 1;
  /** @type {Map<number, {resolve: Function, reject: Function}>} */
  #pending = new Map();

  /** @param {Window} opener */
  constructor(opener) {
    this.#opener = opener;
  }

  /** The site's origin, once connected. */
  get origin() {
    return this.#origin;
  }

  /**
   * Greets the bookmarklet and resolves with what it says of its page.
   *
   * @param {number} [timeout] milliseconds
   * @returns {Promise<RelayInfo>}
   */
  connect(timeout = 5000) {
    return new Promise((resolve, reject) => {
      let timer;
      let hello;
      const onMessage = (ev) => {
        // Only the window that opened this one speaks for the site.
        if (ev.source !== this.#opener || !ev.data || typeof ev.data !== 'object') return;
        const m = ev.data;
        if (!this.#origin && m.type === 'rscheck-relay' && m.origin === ev.origin) {
          this.#origin = ev.origin;
          clearTimeout(timer);
          clearInterval(hello);
          resolve({
            href: String(m.href ?? ''),
            origin: ev.origin,
            contentType: String(m.contentType ?? ''),
            isXML: m.isXML === true,
          });
        } else if (this.#origin && ev.origin === this.#origin && m.type === 'rscheck-fetch-result') {
          const p = this.#pending.get(m.fid);
          if (!p) return;
          this.#pending.delete(m.fid);
          if (typeof m.error === 'string') p.reject(new Error(m.error));
          else if (!(m.body instanceof ArrayBuffer) || m.body.byteLength > MAX_BODY) p.reject(new Error('the relay sent no usable body'));
          else {
            p.resolve({
              status: Number(m.status) | 0,
              url: typeof m.url === 'string' ? m.url : '',
              headers: Array.isArray(m.headers)
                ? m.headers.filter((h) => Array.isArray(h) && h.length === 2).map((h) => [String(h[0]), String(h[1])])
                : [],
              body: m.body,
            });
          }
        }
      };
      window.addEventListener('message', onMessage);
      // The hello carries nothing secret: any origin may receive it. The
      // answer is checked (source and origin) before it is believed.
      const greet = () => this.#opener.postMessage({ type: 'rscheck-hello' }, '*');
      greet();
      hello = setInterval(greet, 250);
      timer = setTimeout(() => {
        clearInterval(hello);
        reject(new Error('the page that opened this window did not answer'));
      }, timeout);
    });
  }

  /**
   * Fetches a URL of the site through the bookmarklet.
   *
   * @param {string} url
   * @param {string} method "GET" or "HEAD"
   * @param {AbortSignal} [signal]
   * @returns {Promise<import('./client.js').FetchReply>}
   */
  fetch(url, method = 'GET', signal) {
    if (!this.#origin) return Promise.reject(new Error('the relay is not connected'));
    let origin;
    try {
      origin = new URL(url).origin;
    } catch {
      return Promise.reject(new Error(`not a URL: ${url}`));
    }
    if (origin !== this.#origin) {
      return Promise.reject(
        new Error(`the bookmarklet reads only ${this.#origin}; ${origin} is another site (try the local proxy)`),
      );
    }
    const fid = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(fid, { resolve, reject });
      signal?.addEventListener(
        'abort',
        () => {
          if (!this.#pending.delete(fid)) return;
          this.#opener.postMessage({ type: 'rscheck-abort', fid }, this.#origin);
          reject(new DOMException('cancelled', 'AbortError'));
        },
        { once: true },
      );
      this.#opener.postMessage({ type: 'rscheck-fetch', fid, url, method }, this.#origin);
    });
  }
}
