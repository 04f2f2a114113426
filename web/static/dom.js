// DOM helpers. Every string the app shows comes from a document, a
// report or a server and is untrusted: it goes into the page as text
// (textContent, attribute values set one by one), never as markup, and
// becomes a link only when it is an http or https URL.

/**
 * Creates an element. Attributes are set one by one (never parsed as
 * markup); children are nodes or strings, which become text nodes.
 * Attribute values false, null and undefined are skipped; an "on…" key
 * with a function adds an event listener.
 *
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...(Node|string|number|null|undefined|false)} children
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      e.addEventListener(k.slice(2), v);
    } else if (k === 'class') {
      e.className = v;
    } else if (k === 'text') {
      e.textContent = String(v);
    } else if (k === 'href') {
      const h = safeHref(v);
      if (h) e.setAttribute('href', h);
    } else {
      e.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(e, ...children);
  return e;
}

/**
 * Appends children: nodes as they are, strings and numbers as text.
 *
 * @param {Node} parent
 * @param {...(Node|string|number|null|undefined|false)} children
 */
export function append(parent, ...children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/**
 * Returns url, normalised, if it is an absolute http or https URL, and
 * null otherwise (javascript:, data:, relative, malformed…).
 *
 * @param {unknown} url
 * @returns {string|null}
 */
export function safeHref(url) {
  if (typeof url !== 'string') return null;
  let u;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
}

/**
 * A link to an external http(s) URL, opened in a new tab without an
 * opener or referrer; plain text when the URL is not http(s).
 *
 * @param {unknown} url
 * @param {string|Node} [label] defaults to the URL itself
 * @returns {HTMLElement}
 */
export function extLink(url, label) {
  const href = safeHref(url);
  const text = label ?? String(url ?? '');
  if (!href) return el('span', { class: 'url' }, text);
  return el('a', { href, target: '_blank', rel: 'noopener noreferrer' }, text);
}

/**
 * Removes every child of an element.
 *
 * @param {Element} e
 */
export function clear(e) {
  e.replaceChildren();
}

/**
 * Formats a byte count for people: "12.4 MB".
 *
 * @param {number} n
 * @returns {string}
 */
export function bytes(n) {
  if (!(n >= 0)) return '';
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = -1;
  do {
    v /= 1024;
    u++;
  } while (v >= 1024 && u < units.length - 1);
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}

/**
 * "1 error", "3 errors".
 *
 * @param {number} n
 * @param {string} word
 * @returns {string}
 */
export function plural(n, word) {
  return `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Saves a string or a Blob as a download.
 *
 * @param {string|Blob} data
 * @param {string} filename
 * @param {string} type media type, for strings
 */
export function download(data, filename, type) {
  const blob = data instanceof Blob ? data : new Blob([data], { type });
  const url = URL.createObjectURL(blob);
  const a = el('a', { download: filename });
  a.setAttribute('href', url); // a blob: URL of our own making
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
