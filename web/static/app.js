// The rscheck page: inputs (paste, files, drop, a URL to explore), the
// running check (progress, Stop), the results, exports, the URL fragment
// that reproduces a check, and the bookmarklet, both the link it offers
// and the window the bookmarklet opens.
//
// document.body.dataset.state tells where the page is, for people's
// scripts and the end-to-end tests: loading, ready, running, done, error.
// Performance marks time it for benchmarks: "rscheck-ready" when the
// module has answered, and a "rscheck-check" measure per check, from its
// start to its results on the page.

import { Checker, CheckError } from './client.js';
import { el, clear, bytes, plural, download } from './dom.js';
import { renderResults } from './results.js';
import { sourceBytes } from './sourceview.js';
import { readFragment, exploreFragment, validateFragment } from './state.js';
import { Relay, bookmarkletURL, isSitemap } from './relay.js';

const $ = (id) => document.getElementById(id);

const EXAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<!-- An example Change List with two mistakes: find them below. -->
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up" href="http://example.com/dataset1/capabilitylist.xml"/>
  <rs:md capability="changelist" from="2013-01-03T00:00:00Z"/>
  <url>
    <loc>http://example.com/res2.pdf</loc>
    <lastmod>2013-01-02T13:00:00Z</lastmod>
    <rs:md change="updated" datetime="2013-01-02T13:00:00"/>
  </url>
  <url>
    <loc>http://example.com/res3.tiff</loc>
    <lastmod>2013-01-02T18:00:00Z</lastmod>
    <rs:md change="removed" hash="md5:1e0d5cb8ef6ba40c99b14c0237be735e"/>
  </url>
</urlset>
`;

const app = {
  checker: new Checker(),
  rules: new Map(),
  /** @type {Promise<void>} the rules above, loaded */
  rulesLoaded: Promise.resolve(),
  /** @type {AbortController|null} */
  running: null,
  /** @type {Relay|null} */
  relay: null,
  proxy: '', // the proxy endpoint, when serve runs with --proxy
  last: null, // {id, result, fragment, name}
};

function setState(s) {
  document.body.dataset.state = s;
}

// ---- start-up ----

setState('loading');
setUpBookmarkletLink();
const proxyKnown = detectProxy();
app.checker.ready
  .then(async (v) => {
    // The catalogue names and links each finding's rule: results wait for
    // it (show), the start does not (a round trip to the worker).
    app.rulesLoaded = app.checker.rules().then(
      (rules) => rules.forEach((r) => app.rules.set(r.id, r)),
      () => {}, // findings then show their rule IDs alone
    );
    $('engine').textContent = 'Ready: paste, drop or point at your documents.';
    $('engine').classList.add('ok');
    $('version').textContent = v.version;
    performance.mark('rscheck-ready');
    setState('ready');
    await proxyKnown; // a link may ask for the proxy
    await runFragment();
    // Once idle, let the worker warm its code up for the first large check.
    (self.requestIdleCallback ?? ((f) => setTimeout(f, 500)))(() => app.checker.warmUp());
  })
  .catch((e) => {
    $('engine').textContent = `The checker could not start: ${e.message}`;
    $('engine').classList.add('bad');
    setState('error');
  });


$('check-paste').addEventListener('click', () => checkPaste());
$('example').addEventListener('click', () => {
  $('paste').value = EXAMPLE;
  checkPaste();
});
$('paste').addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) checkPaste();
});
$('files').addEventListener('change', (e) => {
  const files = [...e.target.files];
  e.target.value = ''; // choosing the same files again checks them again
  if (files.length) checkFiles(files);
});
$('explore-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const url = $('url').value.trim();
  if (url) explore(url, $('use-proxy').checked ? 'proxy' : 'direct');
});
$('stop').addEventListener('click', () => app.running?.abort());
window.addEventListener('hashchange', () => runFragment());

// Files can be dropped anywhere on the page.
let dragDepth = 0;
document.addEventListener('dragenter', (e) => {
  if (![...(e.dataTransfer?.types ?? [])].includes('Files')) return;
  dragDepth++;
  $('drop').classList.add('over');
});
document.addEventListener('dragleave', () => {
  if (--dragDepth <= 0) {
    dragDepth = 0;
    $('drop').classList.remove('over');
  }
});
document.addEventListener('dragover', (e) => {
  if ([...(e.dataTransfer?.types ?? [])].includes('Files')) e.preventDefault();
});
document.addEventListener('drop', (e) => {
  const files = [...(e.dataTransfer?.files ?? [])];
  if (!files.length) return;
  e.preventDefault();
  dragDepth = 0;
  $('drop').classList.remove('over');
  checkFiles(files);
});

// ---- options ----

async function options() {
  const o = {
    rsVersion: $('rs-version').value,
    schemaOnly: $('schema-only').checked,
    maxPerRule: Math.max(0, Number($('max-per-rule').value) || 0),
    schemas: await Promise.all([...$('schemas').files].map(async (f) => ({ name: f.name, text: await f.text() }))),
  };
  return o;
}

// ---- checks ----

/** Starts a check, stopping the one under way. */
function begin(label) {
  app.running?.abort();
  performance.mark('rscheck-check-start');
  const ac = new AbortController();
  app.running = ac;
  setState('running');
  hideNotice();
  $('status').hidden = false;
  $('stop').disabled = false;
  $('progress').removeAttribute('value'); // indeterminate until figures come
  $('status-text').textContent = label;
  return ac;
}

function end(ac) {
  if (app.running === ac) {
    app.running = null;
    $('status').hidden = true;
  }
}

async function checkPaste() {
  const text = $('paste').value;
  if (!text.trim()) {
    notice('Paste a document first, or choose files.', 'info');
    $('paste').focus();
    return;
  }
  const fragment = await validateFragment(text);
  await validate([{ input: text, name: 'pasted document' }], [() => sourceBytes(text)], fragment);
}

function checkFiles(files) {
  return validate(
    files.map((f) => ({ input: f, name: f.name })),
    files.map((f) => () => sourceBytes(f)),
    null,
  );
}

/**
 * Validates documents and shows the results.
 *
 * @param {{input: any, name: string}[]} inputs
 * @param {(() => Promise<Uint8Array>)[]} sources how to read each back for the source view
 * @param {string|null} fragment the URL fragment that reproduces the check
 */
async function validate(inputs, sources, fragment) {
  const what = inputs.length === 1 ? inputs[0].name : plural(inputs.length, 'document');
  const ac = begin(`Checking ${what}…`);
  const started = performance.now();
  try {
    const r = await app.checker.validate(inputs, await options(), {
      signal: ac.signal,
      onProgress: (p) => {
        $('progress').max = p.total || 1;
        $('progress').value = p.bytes;
        $('status-text').textContent = `Checking ${p.name}: ${bytes(p.bytes)} of ${bytes(p.total)}`;
      },
    });
    if (fragment) history.replaceState(null, '', fragment);
    else if (location.hash && !location.hash.startsWith('#bookmarklet')) history.replaceState(null, '', location.pathname);
    await app.rulesLoaded;
    show(r, {
      fragment,
      elapsed: performance.now() - started,
      source: (i) => (r.documents[i]?.package ? null : sources[i]?.()),
      name: inputs.length === 1 ? inputs[0].name : 'documents',
    });
  } catch (e) {
    failed(e);
  } finally {
    end(ac);
  }
}

/**
 * Explores the Source of url.
 *
 * @param {string} url
 * @param {'direct'|'relay'|'proxy'} via
 */
async function explore(url, via) {
  const ac = begin(`Exploring ${url}…`);
  const started = performance.now();
  $('url').value = url;
  if (via !== 'relay') history.replaceState(null, '', exploreFragment(url, via));
  try {
    const o = await options();
    o.audit = Math.max(0, Number($('audit').value) || 0);
    o.maxDocuments = Math.max(1, Number($('max-docs').value) || 10000);
    const r = await app.checker.explore(url, o, {
      signal: ac.signal,
      via,
      proxy: app.proxy,
      onProgress: (p) => {
        $('progress').max = Math.max(p.discovered, 1);
        $('progress').value = p.fetched;
        const parts = [`${p.fetched} of ${p.discovered} documents fetched`, `${p.validated} validated`, bytes(p.bytes)];
        if (p.resources) parts.push(plural(p.resources, 'resource'));
        if (p.audited) parts.push(`${p.audited} audited`);
        $('status-text').textContent = `${phaseName(p.phase)}: ${parts.join(' · ')}${p.url ? ` — ${p.url}` : ''}`;
      },
    });
    await app.rulesLoaded;
    show(r, {
      fragment: via === 'relay' ? null : exploreFragment(url, via),
      elapsed: performance.now() - started,
      source: (i) => fetchSource(r.result.documents[i]?.source, via),
      name: hostOf(url),
    });
    const cors = r.explore?.cors;
    if (cors?.failures) corsNotice(cors, url, via);
  } catch (e) {
    failed(e);
  } finally {
    end(ac);
  }
}

function phaseName(p) {
  return { discovery: 'Discovering', crawl: 'Crawling', audit: 'Auditing', done: 'Finishing' }[p] ?? 'Working';
}

function hostOf(url) {
  try {
    return new URL(url).host;
  } catch {
    return 'source';
  }
}

/** Fetches an explored document again for the source view. */
async function fetchSource(url, via) {
  if (!/^https?:/i.test(url ?? '')) return null;
  let buf;
  if (via === 'relay' && app.relay) {
    buf = (await app.relay.fetch(url, 'GET')).body;
  } else {
    const target = via === 'proxy' && app.proxy ? `${app.proxy}?url=${encodeURIComponent(url)}` : url;
    const resp = await fetch(target, { credentials: 'omit' });
    buf = await resp.arrayBuffer();
  }
  return sourceBytes(buf);
}

function show(r, { fragment, elapsed, source, name }) {
  app.last = { id: r.id, result: r.result, fragment, name };
  const actions = el(
    'div',
    { class: 'actions' },
    el('button', { type: 'button', id: 'dl-html', onclick: () => downloadHTML() }, 'Download HTML report'),
    el('button', { type: 'button', id: 'dl-json', onclick: () => downloadJSON() }, 'Download JSON'),
    fragment ? el('button', { type: 'button', id: 'copy-link', onclick: (e) => copyLink(e.target) }, 'Copy link to this check') : null,
    el('span', { class: 'hint' }, `took ${elapsed < 1000 ? `${Math.round(elapsed)} ms` : `${(elapsed / 1000).toFixed(1)} s`}`),
  );
  const results = $('results');
  renderResults(results, r.result, { rules: app.rules, source, explore: r.explore, actions });
  results.setAttribute('aria-labelledby', 'results-h');
  performance.measure('rscheck-check', 'rscheck-check-start');
  setState('done');
  document.body.dataset.checks = String(Number(document.body.dataset.checks ?? 0) + 1);
  results.focus({ preventScroll: true });
  results.scrollIntoView({ block: 'start', behavior: motion() });
}

/** The scrolling behaviour the reader's motion preference allows. */
function motion() {
  return matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}

function failed(e) {
  if (e?.code === 'cancelled' || e?.name === 'AbortError') {
    notice('Stopped.', 'info');
    setState('done');
    return;
  }
  notice(e?.message ?? String(e), 'error');
  setState('error');
}

async function downloadHTML() {
  const { id, name } = app.last ?? {};
  if (!id) return;
  try {
    const html = await app.checker.render(id, 'html');
    download(html, `rscheck-${fileSafe(name)}.html`, 'text/html;charset=utf-8');
  } catch (e) {
    notice(`Cannot make the report: ${e.message}`, 'error');
  }
}

async function downloadJSON() {
  const { id, name } = app.last ?? {};
  if (!id) return;
  try {
    // The worker's rendering is byte for byte what rscheck --format json writes.
    const json = await app.checker.render(id, 'json');
    download(json, `rscheck-${fileSafe(name)}.json`, 'application/json');
  } catch (e) {
    notice(`Cannot make the JSON report: ${e.message}`, 'error');
  }
}

function fileSafe(s) {
  return (s || 'report').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60);
}

async function copyLink(button) {
  const url = location.origin + location.pathname + (app.last?.fragment ?? '');
  try {
    await navigator.clipboard.writeText(url);
    button.textContent = 'Link copied';
  } catch {
    notice(`The link to this check: ${url}`, 'info');
  }
}

// ---- notices ----

function notice(text, kind) {
  const n = $('notice');
  n.className = `notice ${kind}`;
  n.replaceChildren(el('p', {}, text));
  n.hidden = false;
}

function hideNotice() {
  $('notice').hidden = true;
}

function corsNotice(cors, url, via) {
  const n = $('notice');
  n.className = 'notice warn';
  const list = el('ol');
  list.append(
    el(
      'li',
      {},
      el('strong', {}, 'Use the bookmarklet: '),
      'drag “rscheck this site” (at the bottom of this page) to your bookmarks bar, open the site, and click it. It reads the site from the site itself.',
    ),
  );
  const proxyItem = el(
    'li',
    {},
    el('strong', {}, 'Use the local proxy: '),
    'run the checker with ',
    el('code', {}, 'go run ./cmd/serve --proxy'),
    ' and tick “Fetch through the local proxy”.',
  );
  if (app.proxy && via !== 'proxy') {
    proxyItem.append(
      ' ',
      el('button', { type: 'button', onclick: () => ($('use-proxy').checked = true, explore(url, 'proxy')) }, 'Retry through the proxy'),
    );
  }
  list.append(proxyItem);
  n.replaceChildren(
    el(
      'p',
      {},
      el('strong', {}, `The browser could not read ${plural(cors.failures, 'document')} of this Source`),
      ` (the first: ${cors.first}). `,
      via === 'relay'
        ? 'The bookmarklet reads only its own site: documents on other hosts cannot be fetched this way.'
        : 'Most likely the site does not allow other sites to read it (no CORS headers), or it cannot be reached. Two ways out:',
    ),
    via === 'relay' ? null : list,
  );
  n.hidden = false;
}

// ---- the URL fragment ----

async function runFragment() {
  const s = await readFragment(location.hash);
  switch (s.kind) {
    case 'explore': {
      if ($('url').value === s.url && app.last) break; // the page wrote this fragment itself
      let via = s.via;
      if (via === 'proxy' && !app.proxy) {
        via = 'direct'; // the link's proxy is not running here
      }
      $('use-proxy').checked = via === 'proxy';
      explore(s.url, via);
      break;
    }
    case 'validate':
      if ($('paste').value !== s.text || !app.last) {
        $('paste').value = s.text;
        checkPaste();
      }
      break;
    case 'bookmarklet':
      if (!app.relay) bookmarkletMode();
      break;
  }
}

// ---- the bookmarklet ----

async function setUpBookmarkletLink() {
  const a = $('bookmarklet');
  try {
    const src = await (await fetch(new URL('bookmarklet.js', import.meta.url))).text();
    a.setAttribute('href', bookmarkletURL(src, location.origin + location.pathname));
  } catch {
    a.replaceWith(el('span', {}, '(the bookmarklet could not be built)'));
    return;
  }
  // Clicked here, a javascript: URL would be blocked by this page's CSP.
  a.addEventListener('click', (e) => {
    e.preventDefault();
    $('bm-hint').hidden = false;
  });
}

async function bookmarkletMode() {
  if (!window.opener) {
    notice(
      'This window was opened as the bookmarklet’s checker, but the page that opened it is gone (or its Cross-Origin-Opener-Policy cut the link). Click the bookmarklet again on the site’s page.',
      'error',
    );
    return;
  }
  const relay = new Relay(window.opener);
  app.relay = relay;
  app.checker.relay = (url, method, signal) => relay.fetch(url, method, signal);
  let info;
  try {
    info = await relay.connect();
  } catch (e) {
    notice(`The bookmarklet did not answer: ${e.message}`, 'error');
    return;
  }
  document.title = `rscheck — ${info.origin}`;
  $('engine').textContent = `Checking ${info.origin} through the bookmarklet.`;
  if (info.isXML) {
    // An XML page: if it is a ResourceSync document, check it alone.
    const ac = begin(`Reading ${info.href}…`);
    let body;
    try {
      body = (await relay.fetch(info.href, 'GET', ac.signal)).body;
    } catch (e) {
      end(ac);
      failed(e);
      return;
    }
    end(ac);
    if (isSitemap(body)) {
      await validate([{ input: body, name: info.href }], [() => sourceBytes(body)], null);
      return;
    }
  }
  await explore(info.href, 'relay');
}

// ---- the proxy ----

async function detectProxy() {
  try {
    const r = await fetch(new URL('proxy/status', document.baseURI));
    const s = r.ok ? await r.json() : null;
    if (s?.enabled && typeof s.endpoint === 'string') {
      app.proxy = new URL(s.endpoint, document.baseURI).href;
      $('proxy-line').hidden = false;
    }
  } catch {
    // Served by something else than cmd/serve: no proxy.
  }
}
