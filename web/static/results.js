// Renders a report (the JSON form of rscheck's report.Result): a summary,
// severity and rule filters, per document its findings, each linked to its
// specification section and rule documentation and to the line in a
// source view; for explorations, the discovery summary and the hierarchy.

import { el, extLink, plural, bytes } from './dom.js';
import { SourceView } from './sourceview.js';

/** Names of the kinds of document, as the specification writes them. */
export const KIND_NAMES = {
  description: 'Source Description',
  'description-index': 'Source Description Index',
  capabilitylist: 'Capability List',
  resourcelist: 'Resource List',
  'resourcelist-index': 'Resource List Index',
  resourcedump: 'Resource Dump',
  'resourcedump-index': 'Resource Dump Index',
  'resourcedump-manifest': 'Resource Dump Manifest',
  changelist: 'Change List',
  'changelist-index': 'Change List Index',
  changedump: 'Change Dump',
  'changedump-index': 'Change Dump Index',
  'changedump-manifest': 'Change Dump Manifest',
  'change-notification': 'Change Notification',
  'framework-notification': 'Framework Notification',
  sitemap: 'Sitemap',
  sitemapindex: 'Sitemap index',
  unknown: 'not a Sitemap or ResourceSync document',
  'unknown-capability': 'unknown capability',
  package: 'dump package',
  html: 'HTML page',
  'robots.txt': 'robots.txt',
  page: 'page',
};

/**
 * The name of a kind of document.
 *
 * @param {string} kind
 * @returns {string}
 */
export function kindName(kind) {
  return KIND_NAMES[kind] ?? kind ?? '';
}

const SEVERITIES = ['error', 'warning', 'info'];

/** Rows rendered per document before "Show all". */
const FIRST_ROWS = 500;

/**
 * @typedef {object} RenderOptions
 * @property {Map<string, object>} rules the catalogue by rule ID
 * @property {(doc: number) => (Promise<Uint8Array>|null)} source the bytes of
 *   document doc (0-based), or null when the page cannot show them
 * @property {object} [explore] the explore message's details (stats, stopped…)
 * @property {(label: string, element: HTMLElement) => void} [actions] where to put export buttons
 */

/**
 * Renders result into container, replacing its content.
 *
 * @param {HTMLElement} container
 * @param {object} result report.Result as JSON
 * @param {RenderOptions} opts
 */
export function renderResults(container, result, opts) {
  const docs = result.documents ?? [];
  const s = result.summary ?? { errors: 0, warnings: 0, infos: 0, documents: docs.length };
  const view = new ResultsView(container, docs, opts);

  const head = el(
    'div',
    { class: 'summary' },
    el(
      'h2',
      { id: 'results-h' },
      s.errors ? '✗ ' : '✓ ',
      plural(s.documents ?? docs.length, 'document'),
      ' checked',
    ),
    el(
      'p',
      { class: 'counts', 'data-errors': s.errors, 'data-warnings': s.warnings, 'data-infos': s.infos },
      badge('error', plural(s.errors, 'error'), s.errors),
      ' ',
      badge('warning', plural(s.warnings, 'warning'), s.warnings),
      ' ',
      badge('info', plural(s.infos, 'info'), s.infos),
    ),
  );
  if (opts.actions) head.append(opts.actions);
  container.replaceChildren(head);
  if (result.discovery?.length || result.tree) {
    container.append(exploreSection(result, opts.explore, (i) => view.focusDoc(i)));
  }
  if (docs.some((d) => d.findings?.length)) container.append(view.filters(s));
  const explored = !!result.tree;
  const clean = [];
  docs.forEach((d, i) => {
    const a = view.doc(d, i);
    // An exploration reads dozens of documents: those without findings go
    // in one list, so that the problems are not lost among them.
    if (explored && !d.findings?.length) clean.push(a);
    else container.append(a);
  });
  if (clean.length) {
    container.append(
      el(
        'details',
        { class: 'clean-docs' },
        el('summary', {}, `✓ ${plural(clean.length, 'document')} without problems`),
        ...clean,
      ),
    );
  }
}

function badge(sev, text, n) {
  return el('span', { class: n === 0 ? `badge ${sev} zero` : `badge ${sev}` }, text);
}

/**
 * The cells of a finding's row in a findings table: severity, line:column,
 * rule (linked to its documentation), message with path, spec section.
 *
 * @param {object} f a finding of the JSON report
 * @param {Map<string, object>} rules the rule catalogue, by ID
 * @returns {HTMLTableCellElement[]}
 */
export function findingCells(f, rules) {
  const r = rules.get(f.rule);
  const ruleCell = el('td', { class: 'rule' }, r?.docURL ? extLink(r.docURL, f.rule) : f.rule);
  if (r) ruleCell.append(el('span', { class: 'rule-name' }, r.name));
  const msg = el('td', { class: 'msg' }, el('span', {}, f.message));
  if (f.path) msg.append(el('code', { class: 'path' }, f.path));
  const spec = el('td', { class: 'spec' });
  if (f.spec) spec.append(f.specURL ? extLink(f.specURL, `§ ${f.spec}`) : `§ ${f.spec}`);
  const where = f.line ? (f.column ? `${f.line}:${f.column}` : String(f.line)) : '—';
  return [el('td', {}, badge(f.severity, f.severity)), el('td', { class: 'where' }, where), ruleCell, msg, spec];
}

/**
 * A findings table of the rows in tbody.
 *
 * @param {string} caption what the table holds, for screen readers
 * @param {HTMLTableSectionElement} tbody
 */
export function findingsTable(caption, tbody) {
  return el(
    'table',
    { class: 'findings' },
    el('caption', { class: 'visually-hidden' }, caption),
    el('thead', {}, el('tr', {}, ...['Severity', 'Line', 'Rule', 'Message', 'Spec'].map((h) => el('th', { scope: 'col' }, h)))),
    tbody,
  );
}

class ResultsView {
  constructor(container, docs, opts) {
    this.container = container;
    this.docs = docs;
    this.opts = opts;
    this.show = new Set(SEVERITIES);
    this.rule = '';
    this.articles = [];
  }

  filters(s) {
    const byRule = new Map();
    for (const d of this.docs) for (const f of d.findings ?? []) byRule.set(f.rule, (byRule.get(f.rule) ?? 0) + 1);
    const boxes = SEVERITIES.map((sev) => {
      const n = { error: s.errors, warning: s.warnings, info: s.infos }[sev];
      const box = el('input', { type: 'checkbox', checked: true, 'data-severity': sev });
      box.addEventListener('change', () => {
        if (box.checked) this.show.add(sev);
        else this.show.delete(sev);
        this.apply();
      });
      return el('label', { class: `filter ${sev}` }, box, ` ${sev}s (${n.toLocaleString('en')})`);
    });
    const select = el('select', { id: 'rule-filter' }, el('option', { value: '' }, 'all rules'));
    for (const [id, n] of [...byRule].sort((a, b) => a[0].localeCompare(b[0]))) {
      const r = this.opts.rules.get(id);
      select.append(el('option', { value: id }, `${id}${r ? ' ' + r.name : ''} (${n})`));
    }
    select.addEventListener('change', () => {
      this.rule = select.value;
      this.apply();
    });
    return el(
      'fieldset',
      { class: 'filters' },
      el('legend', {}, 'Show'),
      ...boxes,
      el('label', { class: 'filter', for: 'rule-filter' }, 'Rule '),
      select,
    );
  }

  apply() {
    for (const a of this.articles) {
      let shown = 0;
      for (const row of a.querySelectorAll('tbody tr')) {
        const ok = this.show.has(row.dataset.severity) && (!this.rule || row.dataset.rule === this.rule);
        row.hidden = !ok;
        if (ok) shown++;
      }
      const none = a.querySelector('.none-shown');
      if (none) none.hidden = shown > 0 || !a.querySelector('tbody tr');
    }
  }

  focusDoc(i) {
    const a = this.articles[i];
    if (!a) return;
    const d = a.closest('details');
    if (d) d.open = true;
    a.scrollIntoView({ block: 'start', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    a.focus({ preventScroll: true });
  }

  doc(d, i) {
    const findings = d.findings ?? [];
    const kind = kindName(d.kind);
    const h = el(
      'h3',
      {},
      el('span', { class: 'doc-name' }, d.source || `document ${i + 1}`),
      ' ',
      el('span', { class: 'kind' }, kind),
    );
    const facts = [];
    if (d.capability && !KIND_NAMES[d.capability]) facts.push(`capability “${d.capability}”`);
    if (d.entries) facts.push(plural(d.entries, 'entry').replace(/entrys$/, 'entries'));
    if (d.bytes) facts.push(bytes(d.bytes));
    if (d.rsVersion) facts.push(`checked against ResourceSync ${d.rsVersion}`);
    const a = el(
      'article',
      { class: 'doc', id: `doc-${i + 1}`, tabindex: '-1', 'data-kind': d.kind ?? '' },
      h,
      el(
        'p',
        { class: 'doc-counts' },
        badge('error', plural(d.errors ?? 0, 'error'), d.errors ?? 0),
        ' ',
        badge('warning', plural(d.warnings ?? 0, 'warning'), d.warnings ?? 0),
        ' ',
        badge('info', plural(d.infos ?? 0, 'info'), d.infos ?? 0),
        facts.length ? el('span', { class: 'facts' }, ' · ' + facts.join(' · ')) : null,
      ),
    );
    if (/^https?:/i.test(d.source ?? '')) a.append(el('p', { class: 'hint' }, extLink(d.source, 'Open the document ↗')));
    this.articles[i] = a;
    if (!findings.length) {
      a.append(el('p', { class: 'clean' }, '✓ No problems found.'));
      return a;
    }
    const tbody = el('tbody');
    const table = findingsTable(`Findings in ${d.source || `document ${i + 1}`}`, tbody);
    const srcBox = el('div', { class: 'source-box' });
    const rows = (from, to) => {
      for (let k = from; k < to; k++) tbody.append(this.row(findings[k], i, srcBox));
    };
    rows(0, Math.min(findings.length, FIRST_ROWS));
    a.append(el('div', { class: 'table-wrap' }, table));
    if (findings.length > FIRST_ROWS) {
      const more = el('button', { type: 'button', class: 'link-button' }, `Show all ${findings.length.toLocaleString('en')} findings`);
      more.addEventListener('click', () => {
        rows(FIRST_ROWS, findings.length);
        more.remove();
        this.apply();
      });
      a.append(more);
    }
    if (d.suppressed) {
      const parts = Object.entries(d.suppressed).map(([r, n]) => `${n.toLocaleString('en')} more ${r}`);
      a.append(el('p', { class: 'hint' }, `Not listed (over the per-rule limit set in Options): ${parts.join(', ')}.`));
    }
    a.append(el('p', { class: 'none-shown hint', hidden: true }, 'No finding matches the filter.'));
    a.append(srcBox);
    return a;
  }

  row(f, doc, srcBox) {
    const tr = el(
      'tr',
      {
        class: `finding ${f.severity}`,
        tabindex: f.line ? '0' : '-1',
        'data-severity': f.severity,
        'data-rule': f.rule,
        'data-line': f.line,
        'aria-label': f.line ? `${f.severity} at line ${f.line}: ${f.message}. Press Enter to show the line.` : null,
      },
      ...findingCells(f, this.opts.rules),
    );
    if (f.line) {
      const go = (e) => {
        if (e.target.closest('a')) return; // the links go where they say
        e.preventDefault();
        this.showSource(doc, f, srcBox, tr);
      };
      tr.addEventListener('click', go);
      tr.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') go(e);
      });
    }
    return tr;
  }

  async showSource(doc, f, box, tr) {
    for (const r of this.container.querySelectorAll('tr.selected')) r.classList.remove('selected');
    tr.classList.add('selected');
    if (!box.view) {
      if (box.loading) {
        box.want = f;
        return;
      }
      const p = this.opts.source(doc);
      if (!p) {
        box.replaceChildren(el('p', { class: 'hint' }, 'The source of this document is not available here.'));
        return;
      }
      box.loading = true;
      box.want = f;
      box.replaceChildren(el('p', { class: 'hint' }, 'Loading the source…'));
      try {
        box.view = new SourceView(await p, this.docs[doc].source || `document ${doc + 1}`);
        box.replaceChildren(box.view.root);
      } catch (e) {
        box.replaceChildren(el('p', { class: 'hint' }, `Cannot show the source: ${e.message ?? e}`));
        return;
      } finally {
        box.loading = false;
      }
      f = box.want;
    }
    box.view.show(f.line, f.column);
    box.view.root.scrollIntoView({ block: 'nearest' });
  }
}

const STATUS_TEXT = {
  ok: 'OK',
  error: 'errors',
  warning: 'warnings',
  unreachable: 'unreachable',
  skipped: 'skipped',
};

const METHOD_NAMES = {
  'well-known': '/.well-known/resourcesync',
  'robots.txt': 'robots.txt Sitemap lines',
  'html-link': 'HTML <link rel="resourcesync">',
  'link-header': 'HTTP Link header',
  'up-links': 'rel="up" links',
  'start-url': 'the start URL',
};

function exploreSection(result, info, focusDoc) {
  const sec = el('section', { class: 'explore', 'aria-label': 'Exploration' });
  if (info) {
    const st = info.stats ?? {};
    const parts = [plural(st.documents ?? 0, 'document') + ' fetched'];
    if (st.failed) parts.push(`${st.failed} could not be read`);
    if (st.resources) parts.push(plural(st.resources, 'resource') + ' listed');
    if (st.bytes) parts.push(bytes(st.bytes));
    sec.append(el('p', { class: 'explore-stats' }, parts.join(' · ')));
    if (info.cancelled) sec.append(el('p', { class: 'warn-line' }, 'Stopped before the end: the results are partial.'));
    else if (info.stopped) sec.append(el('p', { class: 'warn-line' }, `The crawl stopped at a limit: ${info.stopped}.`));
    if (info.audit) {
      const a = info.audit;
      sec.append(
        el(
          'p',
          {},
          `Audit: ${a.checked} of ${a.sampled} sampled resources checked, ${a.mismatches} disagree with their metadata, ${a.unreachable} unreachable.`,
        ),
      );
    }
  }
  if (result.discovery?.length) {
    const ul = el('ul', { class: 'discovery' });
    for (const d of result.discovery) {
      const li = el('li', {}, el('strong', {}, METHOD_NAMES[d.method] ?? d.method), ': ');
      if (d.found?.length) {
        d.found.forEach((u, k) => {
          if (k) li.append(', ');
          li.append(extLink(u));
        });
      } else li.append('nothing');
      if (d.note) li.append(el('span', { class: 'note' }, ` — ${d.note}`));
      ul.append(li);
    }
    sec.append(el('h3', {}, 'Discovery'), ul);
  }
  if (result.tree) {
    let origin = '';
    try {
      origin = new URL(result.tree.url).origin;
    } catch {
      // not a URL: labels stay whole
    }
    sec.append(
      el('h3', {}, 'Hierarchy'),
      origin ? el('p', { class: 'hint' }, `Paths are on ${origin}. Choose a document to see its findings.`) : null,
      el('ul', { class: 'tree' }, treeNode(result.tree, 0, focusDoc, origin)),
    );
  }
  return sec;
}

// shortURL is url without origin when it is on origin.
function shortURL(url, origin) {
  return origin && typeof url === 'string' && url.startsWith(origin + '/') ? url.slice(origin.length) : url;
}

function treeNode(n, depth, focusDoc, origin) {
  const label = el(
    'span',
    { class: 'node', 'data-status': n.status, 'data-url': n.url },
    el('span', { class: `status ${n.status}` }, STATUS_TEXT[n.status] ?? n.status),
    ' ',
  );
  if (n.document) {
    const b = el('button', { type: 'button', class: 'node-url link-button', title: n.url }, shortURL(n.url, origin));
    b.addEventListener('click', (e) => {
      e.preventDefault(); // inside <summary>: do not toggle
      focusDoc(n.document - 1);
    });
    label.append(b);
  } else label.append(el('span', { class: 'node-url', title: n.url }, shortURL(n.url, origin)));
  if (n.kind) label.append(' ', el('span', { class: 'kind' }, kindName(n.kind)));
  if (n.errors || n.warnings) {
    label.append(' ', el('span', { class: 'node-counts' }, `${plural(n.errors, 'error')}, ${plural(n.warnings, 'warning')}`));
  }
  if (n.note) label.append(' ', el('span', { class: 'note' }, n.note));
  const li = el('li');
  if (n.children?.length) {
    const kids = el('ul');
    for (const c of n.children) kids.append(treeNode(c, depth + 1, focusDoc, origin));
    li.append(el('details', { open: depth < 3 }, el('summary', {}, label), kids));
  } else {
    li.append(label);
  }
  return li;
}
