// The check a page shows, kept in the URL fragment so that a link
// reproduces it: #explore=<URL> (and &via=proxy when it went through the
// local proxy), #validate=<text> (deflate-raw compressed, base64url),
// #bookmarklet (the window the bookmarklet opened). The fragment never
// reaches a server.

/** The longest fragment #validate= writes, so that links stay shareable. */
export const MAX_FRAGMENT = 8 * 1024;

/**
 * @typedef {{kind: 'explore', url: string, via: 'direct'|'proxy'} | {kind: 'validate', text: string} |
 *   {kind: 'bookmarklet'} | {kind: 'none'}} State
 */

/**
 * Reads the state from a fragment ("#explore=…").
 *
 * @param {string} hash location.hash
 * @returns {Promise<State>}
 */
export async function readFragment(hash) {
  const h = hash.replace(/^#/, '');
  if (h === 'bookmarklet') return { kind: 'bookmarklet' };
  const params = new Map(
    h.split('&').map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? [p, ''] : [p.slice(0, eq), p.slice(eq + 1)];
    }),
  );
  try {
    if (params.has('explore')) {
      return {
        kind: 'explore',
        url: decodeURIComponent(params.get('explore')),
        via: params.get('via') === 'proxy' ? 'proxy' : 'direct',
      };
    }
    if (params.has('validate')) return { kind: 'validate', text: await inflate(params.get('validate')) };
  } catch {
    // A damaged link is the same as none.
  }
  return { kind: 'none' };
}

/**
 * The fragment of an exploration.
 *
 * @param {string} url
 * @param {'direct'|'proxy'|'relay'} [via]
 * @returns {string}
 */
export function exploreFragment(url, via = 'direct') {
  return `#explore=${encodeURIComponent(url)}${via === 'proxy' ? '&via=proxy' : ''}`;
}

/**
 * The fragment of a validated text, or null when it would be longer than
 * MAX_FRAGMENT.
 *
 * @param {string} text
 * @returns {Promise<string|null>}
 */
export async function validateFragment(text) {
  if (text.length > 1 << 20) return null; // cannot compress to 8 KB in practice
  const f = `#validate=${await deflate(text)}`;
  return f.length <= MAX_FRAGMENT ? f : null;
}

async function deflate(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  const buf = new Uint8Array(await new Response(stream).arrayBuffer());
  let bin = '';
  for (let i = 0; i < buf.length; i += 0x8000) bin += String.fromCharCode(...buf.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function inflate(b64) {
  const bin = atob(b64.replace(/-/g, '+').replace(/_/g, '/'));
  const buf = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  const stream = new Blob([buf]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  // A bomb in a link would only hurt the person who opens it, but keep
  // it bounded anyway.
  const text = await new Response(stream).text();
  if (text.length > 64 << 20) throw new Error('too large');
  return text;
}
