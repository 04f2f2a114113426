// A virtualised view of a document's source: only the lines in sight are
// in the DOM, so a 50 MB document costs a line index (4 bytes a line) and
// a few dozen elements, however long it is.

import { el } from './dom.js';

/** Longest part of a line shown, in bytes; the rest is cut with "…". */
const MAX_LINE = 2000;
/** Lines rendered beyond the visible ones, above and below. */
const OVERSCAN = 20;
/** Tallest scroll area used; browsers cap element heights near 2^25 px. */
const MAX_HEIGHT = 8_000_000;

const decoder = new TextDecoder('utf-8');

/**
 * Returns a document's bytes for the view: the text encoded as UTF-8, or
 * the file's bytes, gunzipped when they are gzip-compressed.
 *
 * @param {string|Blob|ArrayBuffer} src
 * @returns {Promise<Uint8Array>}
 */
export async function sourceBytes(src) {
  if (typeof src === 'string') return new TextEncoder().encode(src);
  const blob = src instanceof Blob ? src : new Blob([src]);
  const head = new Uint8Array(await blob.slice(0, 2).arrayBuffer());
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const stream = blob.stream().pipeThrough(new DecompressionStream('gzip'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }
  return new Uint8Array(await blob.arrayBuffer());
}

/**
 * Indexes the starts of the lines of a document.
 *
 * @param {Uint8Array} b
 * @returns {Uint32Array}
 */
export function lineStarts(b) {
  let starts = new Uint32Array(1024);
  let n = 1;
  for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) {
    if (n === starts.length) {
      const grown = new Uint32Array(starts.length * 2);
      grown.set(starts);
      starts = grown;
    }
    starts[n++] = i + 1;
  }
  if (n > 1 && starts[n - 1] === b.length) n--; // a final newline ends the last line
  return starts.subarray(0, n);
}

/** A SourceView shows a document's lines and highlights one. */
export class SourceView {
  /**
   * @param {Uint8Array} bytes the document
   * @param {string} name for the view's label
   */
  constructor(bytes, name) {
    this.bytes = bytes;
    this.starts = lineStarts(bytes);
    this.lines = this.starts.length;
    this.hl = 0; // highlighted line, 1-based; 0 for none
    this.hlCol = 0;
    this.lineHeight = 20;
    this.spacer = el('div', { class: 'spacer' });
    this.win = el('div', { class: 'win' });
    this.status = el('span', { class: 'where', 'aria-live': 'polite' });
    this.viewport = el(
      'div',
      { class: 'viewport', tabindex: '0', role: 'region', 'aria-label': `Source of ${name}` },
      this.spacer,
      this.win,
    );
    this.root = el(
      'div',
      { class: 'source' },
      el('div', { class: 'source-head' }, el('span', { class: 'name' }, name), this.status),
      this.viewport,
    );
    this.viewport.addEventListener('scroll', () => this.#schedule());
    new ResizeObserver(() => this.#schedule()).observe(this.viewport);
    this.#measure();
    this.#schedule();
  }

  /**
   * Scrolls to a line and highlights it, and the column's character.
   *
   * @param {number} line 1-based
   * @param {number} [column] 1-based, in bytes as findings count
   */
  show(line, column = 0) {
    this.hl = Math.min(Math.max(line, 1), this.lines);
    this.hlCol = column;
    this.#measure();
    const visible = Math.max(1, Math.floor(this.viewport.clientHeight / this.lineHeight));
    const first = Math.max(0, this.hl - 1 - Math.floor(visible / 3));
    this.viewport.scrollTop = this.#topOf(first);
    this.status.textContent = `line ${this.hl.toLocaleString('en')} of ${this.lines.toLocaleString('en')}`;
    this.#render();
  }

  #measure() {
    const probe = el('div', { class: 'line' }, el('span', { class: 'code' }, 'x'));
    this.win.append(probe);
    const h = probe.getBoundingClientRect().height;
    probe.remove();
    if (h > 0) this.lineHeight = h;
    this.height = Math.min(this.lines * this.lineHeight, MAX_HEIGHT);
    this.spacer.style.height = `${this.height}px`;
  }

  // Beyond MAX_HEIGHT, scroll positions map to lines proportionally.
  #topOf(line) {
    const full = this.lines * this.lineHeight;
    if (full <= MAX_HEIGHT) return line * this.lineHeight;
    const span = this.height - this.viewport.clientHeight;
    const lines = this.lines - Math.floor(this.viewport.clientHeight / this.lineHeight);
    return lines > 0 ? (line / lines) * span : 0;
  }

  #firstAt(scrollTop) {
    const full = this.lines * this.lineHeight;
    if (full <= MAX_HEIGHT) return Math.floor(scrollTop / this.lineHeight);
    const span = this.height - this.viewport.clientHeight;
    const lines = this.lines - Math.floor(this.viewport.clientHeight / this.lineHeight);
    return span > 0 ? Math.round((scrollTop / span) * lines) : 0;
  }

  #schedule() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => {
      this.pending = 0;
      this.#render();
    });
  }

  #render() {
    if (!this.viewport.isConnected) return;
    const top = this.viewport.scrollTop;
    const visible = Math.ceil(this.viewport.clientHeight / this.lineHeight) + 1;
    const first = Math.max(0, this.#firstAt(top) - OVERSCAN);
    const last = Math.min(this.lines, this.#firstAt(top) + visible + OVERSCAN);
    const rows = [];
    for (let i = first; i < last; i++) rows.push(this.#line(i + 1));
    this.win.replaceChildren(...rows);
    // Place the window where its first line belongs in scroll space.
    const scaled = this.lines * this.lineHeight > MAX_HEIGHT;
    const offset = scaled ? top - (this.#firstAt(top) - first) * this.lineHeight : first * this.lineHeight;
    this.win.style.transform = `translateY(${Math.max(0, offset)}px)`;
  }

  #line(n) {
    const start = this.starts[n - 1];
    let end = n < this.lines ? this.starts[n] - 1 : this.bytes.length;
    if (end > start && this.bytes[end - 1] === 13) end--; // CRLF
    const hl = n === this.hl;
    const code = el('span', { class: 'code' });
    let from = start;
    let to = end;
    if (end - start > MAX_LINE) {
      // Show the part around the highlighted column, else the start.
      const col = hl && this.hlCol > 0 ? start + this.hlCol - 1 : start;
      from = Math.max(start, col - MAX_LINE / 2);
      to = Math.min(end, from + MAX_LINE);
    }
    const pre = from > start ? '…' : '';
    const post = to < end ? '…' : '';
    if (hl && this.hlCol > 0 && start + this.hlCol - 1 >= from && start + this.hlCol - 1 <= to) {
      const at = start + this.hlCol - 1;
      const ch = Math.min(to, at + charLen(this.bytes[at]));
      code.append(
        pre + decoder.decode(this.bytes.subarray(from, at)),
        el('mark', { class: 'col' }, decoder.decode(this.bytes.subarray(at, ch)) || ' '),
        decoder.decode(this.bytes.subarray(ch, to)) + post,
      );
    } else {
      code.textContent = pre + decoder.decode(this.bytes.subarray(from, to)) + post;
    }
    return el(
      'div',
      { class: hl ? 'line hl' : 'line', 'data-line': n },
      el('span', { class: 'ln', 'aria-hidden': 'true' }, n),
      code,
    );
  }
}

// charLen is the length of the UTF-8 sequence a byte starts.
function charLen(b) {
  if (b >= 0xf0) return 4;
  if (b >= 0xe0) return 3;
  if (b >= 0xc0) return 2;
  return 1;
}
