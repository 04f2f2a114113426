// The notification monitor's panel. With cmd/serve --monitor the page
// finds a Source's notification channels, has the server subscribe to
// them, and shows each notification as it arrives, with its findings and
// latency, from the server's event stream (Server-Sent Events). The
// browser cannot receive a hub's POSTs: the server holds the WebSub
// callback and relays what arrives. Without --monitor the panel says how
// to turn it on.
//
// #monitor's data-state tells where the panel is, for people's scripts
// and the end-to-end tests: loading, off, refused, idle, discovering,
// discovered, subscribing, running, stopping, ended. Each row of the feed
// (#monitor-feed > li) has data-kind (the event's kind), and a
// notification's row data-topic, data-seq, data-rules (its findings' rule
// IDs) and data-errors.

import { el, extLink, plural, download } from './dom.js';
import { kindName, findingCells, findingsTable as findingsTableOf } from './results.js';

const $ = (id) => document.getElementById(id);

/** The most rows the feed shows. */
const FEED_MAX = 1000;

/** Where a reloaded page finds the session it watched. */
const STORE = 'rscheck-monitor-session';

/** An error the monitor's API answered, with its HTTP status. */
export class MonitorError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   */
  constructor(message, status) {
    super(message);
    this.name = 'MonitorError';
    this.status = status;
  }
}

/** MonitorAPI is the page's side of cmd/serve's /monitor/ endpoints. */
export class MonitorAPI {
  /** @param {string|URL} [base] the URL of /monitor/ */
  constructor(base = new URL('monitor/', document.baseURI)) {
    this.base = new URL(base);
  }

  /**
   * Whether the server monitors, and for whom.
   *
   * @returns {Promise<{enabled: boolean, allowed?: boolean, reason?: string, callbackURL?: string,
   *   loopbackCallback?: boolean, maxSessions?: number}>}
   */
  async status() {
    try {
      // A file of the app's: served by anything else than cmd/serve
      // --monitor, it says that monitoring is off.
      const r = await fetch(new URL('status.json', this.base), { credentials: 'same-origin' });
      return r.ok ? await r.json() : { enabled: false };
    } catch {
      return { enabled: false }; // another server than cmd/serve
    }
  }

  /** @returns {Promise<object[]>} the rule catalogue */
  rules() {
    return this.#call('GET', 'rules');
  }

  /**
   * Discovers the channels of a Source or topic: a new session.
   *
   * @param {string} url
   * @param {AbortSignal} [signal]
   * @returns {Promise<object>} the session
   */
  create(url, signal) {
    return this.#call('POST', 'sessions', { url }, signal);
  }

  /** @param {string} id @returns {Promise<object>} the session */
  session(id) {
    return this.#call('GET', `sessions/${encodeURIComponent(id)}`);
  }

  /**
   * Subscribes to some of the session's channels.
   *
   * @param {string} id
   * @param {string[]} topics
   * @param {boolean} follow look for the changes in the Change List
   * @returns {Promise<object>} the session
   */
  subscribe(id, topics, follow) {
    return this.#call('POST', `sessions/${encodeURIComponent(id)}/subscribe`, { topics, follow });
  }

  /** Unsubscribes and ends the monitoring. @param {string} id @returns {Promise<object>} */
  stop(id) {
    return this.#call('POST', `sessions/${encodeURIComponent(id)}/stop`);
  }

  /** Ends the session and forgets it. @param {string} id */
  async remove(id) {
    await this.#call('DELETE', `sessions/${encodeURIComponent(id)}`);
  }

  /**
   * The session's event stream.
   *
   * @param {string} id
   * @returns {EventSource}
   */
  events(id) {
    return new EventSource(new URL(`sessions/${encodeURIComponent(id)}/events`, this.base));
  }

  /**
   * The report so far.
   *
   * @param {string} id
   * @param {'html'|'json'|'text'|'junit'|'sarif'} format
   * @returns {Promise<Blob>}
   */
  async report(id, format) {
    const r = await fetch(new URL(`sessions/${encodeURIComponent(id)}/report?format=${format}`, this.base));
    if (!r.ok) throw await failure(r);
    return r.blob();
  }

  async #call(method, path, body, signal) {
    const init = { method, signal, headers: {} };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const r = await fetch(new URL(path, this.base), init);
    if (!r.ok) throw await failure(r);
    return r.status === 204 ? null : r.json();
  }
}

async function failure(r) {
  let msg = `${r.status} ${r.statusText}`;
  try {
    msg = (await r.json()).error || msg;
  } catch {
    // not the API's JSON: keep the status
  }
  return new MonitorError(msg, r.status);
}

// ---- formatting ----

/**
 * A duration in nanoseconds (Go's encoding of time.Duration), for people.
 *
 * @param {number} ns
 * @returns {string}
 */
export function duration(ns) {
  const sign = ns < 0 ? '−' : '';
  const ms = Math.abs(ns) / 1e6;
  if (ms < 1000) return `${sign}${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${sign}${s.toFixed(s < 10 ? 1 : 0)} s`;
  const units = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [n, name] of units) {
    if (s >= n) return `${sign}${plural(Math.round((s / n) * 10) / 10, name)}`;
  }
  return `${sign}${Math.round(s)} s`;
}

function clock(t) {
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString([], { hour12: false });
}

function when(t) {
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? String(t) : d.toLocaleString([], { hour12: false });
}

function timeEl(t) {
  return el('time', { class: 'feed-time', datetime: t }, clock(t));
}

function badge(sev, n) {
  return el('span', { class: n ? `badge ${sev}` : `badge ${sev} zero` }, plural(n, sev));
}

/** The severity summary of a report: badges, or a tick when clean. */
function verdict(rep) {
  const e = rep?.errors ?? 0;
  const w = rep?.warnings ?? 0;
  const i = rep?.infos ?? 0;
  if (!e && !w && !i) return el('span', { class: 'feed-ok' }, '✓ no problems');
  return el('span', { class: 'feed-verdict' }, e ? badge('error', e) : null, ' ', w ? badge('warning', w) : null, ' ', i ? badge('info', i) : null);
}

// ---- the panel ----

const ui = {
  api: new MonitorAPI(),
  rules: new Map(),
  /** @type {object|null} the session shown */
  session: null,
  /** @type {EventSource|null} */
  es: null,
  lastId: 0,
  leaving: false, // the page is being unloaded
  /** @type {AbortController|null} a discovery under way */
  finding: null,
  channels: new Map(), // topic → channel
  counts: { notifications: 0, withErrors: 0 },
  /** @type {Array<[string, object]>} events not drawn yet, oldest first */
  pending: [],
  /** @type {object[]} notifications not announced yet */
  arrived: [],
};

function setState(s) {
  $('monitor').dataset.state = s;
}

async function init() {
  setState('loading');
  const st = await ui.api.status();
  if (!st.enabled) {
    $('monitor-off').hidden = false;
    setState('off');
    return;
  }
  if (!st.allowed) {
    const p = $('monitor-refused');
    p.textContent = `This server monitors, but not for this page: ${st.reason ?? 'it answers only this machine'}.`;
    p.hidden = false;
    setState('refused');
    return;
  }
  $('monitor-on').hidden = false;
  callbackNote(st);
  $('monitor-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const url = $('monitor-url').value.trim();
    if (url) find(url);
  });
  $('monitor-cancel').addEventListener('click', () => ui.finding?.abort());
  $('monitor-stop').addEventListener('click', () => stop());
  $('monitor-dl-html').addEventListener('click', () => downloadReport('html'));
  $('monitor-dl-json').addEventListener('click', () => downloadReport('json'));
  ui.api
    .rules()
    .then((rules) => {
      for (const r of rules) ui.rules.set(r.id, r);
    })
    .catch(() => {}); // rule names are a nicety
  addEventListener('pagehide', () => {
    ui.leaving = true;
  });
  addEventListener('pageshow', () => {
    ui.leaving = false; // back from the back-forward cache
  });
  if (!(await restore())) setState('idle');
}

/** Says, on the page, who receives the hub's requests. */
function callbackNote(st) {
  const note = $('monitor-callback');
  note.replaceChildren(
    el('strong', {}, 'Your browser cannot receive the hubs’ notifications'),
    ': WebSub hubs deliver them with HTTP POSTs to a callback URL. This server (cmd/serve) holds the callback at ',
    el('code', { id: 'monitor-callback-url' }, st.callbackURL ?? ''),
    ', checks what arrives and relays it to this page. The hubs must be able to reach that URL.',
  );
  if (st.loopbackCallback) {
    note.append(
      ' ',
      el(
        'span',
        { class: 'warn-line' },
        'It is a loopback address, which only a hub on this machine can reach: for a hub elsewhere, restart the server with ',
        el('code', { class: 'nowrap' }, '--public-url'),
        ' and an address the hub can reach.',
      ),
    );
  }
}

/**
 * Reattaches to the session a reloaded page was watching; the server
 * replays its events. Reports whether there was one.
 */
async function restore() {
  const id = sessionStorage.getItem(STORE);
  if (!id) return false;
  let s;
  try {
    s = await ui.api.session(id);
  } catch {
    sessionStorage.removeItem(STORE);
    return false;
  }
  $('monitor-url').value = s.start;
  showSession(s);
  if (s.state !== 'discovered') watch(s);
  return true;
}

/** Discovers the channels of url, in a new session. */
async function find(url) {
  ui.finding?.abort();
  const old = ui.session;
  closeStream();
  ui.session = null;
  sessionStorage.removeItem(STORE);
  if (old) ui.api.remove(old.id).catch(() => {}); // it may be gone already
  const ac = new AbortController();
  ui.finding = ac;
  setState('discovering');
  $('monitor-live').hidden = true;
  $('monitor-cancel').hidden = false;
  say(`Finding the notification channels of ${url} (exploring the Source)…`);
  $('monitor-channels').replaceChildren();
  try {
    const s = await ui.api.create(url, ac.signal);
    sessionStorage.setItem(STORE, s.id);
    showSession(s);
    $('monitor-channel-list').focus();
  } catch (e) {
    if (ui.finding !== ac) return; // another search replaced this one
    setState('idle');
    say(e.name === 'AbortError' ? 'Cancelled.' : `Cannot find channels: ${e.message}`, e.name === 'AbortError' ? '' : 'error');
  } finally {
    if (ui.finding === ac) {
      ui.finding = null;
      $('monitor-cancel').hidden = true;
    }
  }
}

/** Shows a session: its channels, and the feed once subscribed. */
function showSession(s) {
  ui.session = s;
  ui.channels = new Map(s.channels.map((c) => [c.topic, c]));
  setState(s.state === 'discovered' ? 'discovered' : s.state);
  say('');
  $('monitor-channels').replaceChildren(channelList(s));
  if (s.state !== 'discovered') $('monitor-live').hidden = false;
}

function channelList(s) {
  const subscribed = s.state !== 'discovered';
  const list = el('ul', { class: 'monitor-channel-items' });
  for (const c of s.channels) {
    const box = el('input', {
      type: 'checkbox',
      name: 'topic',
      value: c.topic,
      checked: subscribed ? c.subscribed : !!c.hub,
      disabled: subscribed || !c.hub,
    });
    const facts = el('p', { class: 'hint' });
    if (c.hub) facts.append('hub ', el('code', {}, c.hub));
    else facts.append(el('span', { class: 'warn-line' }, 'no hub: cannot subscribe'));
    if (c.capabilityList) facts.append(' · advertised in ', extLink(c.capabilityList, 'its Capability List'));
    const li = el(
      'li',
      { 'data-topic': c.topic },
      el(
        'label',
        {},
        box,
        ' ',
        el('strong', {}, c.capability ? kindName(c.capability) : 'Topic'),
        ' ',
        el('code', { class: 'monitor-topic' }, c.topic),
      ),
      facts,
    );
    if (c.findings?.length) li.append(findingsTable(c.findings, `Findings of the channel ${c.topic}`));
    list.append(li);
  }
  const x = s.exploration;
  const explored = x
    ? el(
        'p',
        { class: 'hint' },
        `Discovery explored ${plural(x.documents, 'document')}: ${plural(x.errors, 'error')}, ${plural(x.warnings, 'warning')}`,
        x.stopped ? ` (stopped at a limit: ${x.stopped})` : '',
        '. Explore the Source above for its documents’ findings.',
      )
    : null;
  const fs = el(
    'fieldset',
    { class: 'monitor-channels', id: 'monitor-channel-list', tabindex: '-1' },
    el('legend', {}, `${plural(s.channels.length, 'channel')} of `, el('span', { class: 'monitor-start' }, s.start)),
    explored,
    list,
  );
  if (!subscribed) {
    const follow = el('input', { type: 'checkbox', id: 'monitor-follow' });
    const go = el('button', { type: 'button', class: 'primary', id: 'monitor-subscribe' }, 'Subscribe');
    go.addEventListener('click', () => subscribe(fs, follow.checked));
    fs.append(
      el(
        'p',
        {},
        el('label', { for: 'monitor-follow' }, follow, ' Also look for each change notification’s changes in the Source’s Change List'),
      ),
      el('div', { class: 'row' }, go),
    );
  } else if (s.follow) {
    fs.append(el('p', { class: 'hint' }, 'Following the Change List.'));
  }
  return fs;
}

async function subscribe(fs, follow) {
  const topics = [...fs.querySelectorAll('input[name="topic"]:checked')].map((b) => b.value);
  if (!topics.length) {
    say('Choose at least one channel.', 'error');
    return;
  }
  const s = ui.session;
  setState('subscribing');
  $('monitor-subscribe').disabled = true;
  say(`Subscribing to ${plural(topics.length, 'channel')}…`);
  try {
    const next = await ui.api.subscribe(s.id, topics, follow);
    showSession(next);
    watch(next);
    $('monitor-stop').focus();
  } catch (e) {
    setState('discovered');
    $('monitor-subscribe').disabled = false;
    say(`Cannot subscribe: ${e.message}`, 'error');
  }
}

// ---- the feed ----

const KINDS = [
  'subscribed',
  'verified',
  'renewed',
  'denied',
  'notification',
  'refused',
  'followed',
  'unsubscribed',
  'error',
  'stopping',
  'ended',
  'gap',
];

/** Opens the session's event stream; the server replays what it keeps. */
function watch(s) {
  closeStream();
  ui.lastId = 0;
  ui.counts = { notifications: 0, withErrors: 0 };
  ui.pending = [];
  ui.arrived = [];
  $('monitor-feed').replaceChildren();
  $('monitor-trimmed').hidden = true;
  $('monitor-live').hidden = false;
  $('monitor-stop').disabled = !(s.state === 'running');
  const es = ui.api.events(s.id);
  ui.es = es;
  for (const k of KINDS) {
    es.addEventListener(k, (e) => {
      if (ui.es !== es) return;
      const id = Number(e.lastEventId);
      if (id && id <= ui.lastId) return; // seen before the reconnection
      if (id) ui.lastId = id;
      let data;
      try {
        data = JSON.parse(e.data);
      } catch {
        return;
      }
      onEvent(k, data);
    });
  }
  es.addEventListener('open', () => {
    if (ui.es === es) $('monitor-link').textContent = 'live';
  });
  es.addEventListener('error', () => {
    // Leaving the page closes the stream too: that is no news, and the
    // session is to be found again after a reload.
    if (ui.es !== es || ui.leaving) return;
    if (es.readyState !== EventSource.CLOSED) {
      $('monitor-link').textContent = 'reconnecting…';
      return;
    }
    // The server refused the stream: most likely the session is gone.
    $('monitor-link').textContent = 'disconnected';
    $('monitor-stop').disabled = true;
    ui.api.session(s.id).then(
      () => say('The connection to the server was lost: reload the page to see the feed again.', 'error'),
      () => {
        if (ui.leaving) return;
        say('The server no longer knows this session (it ended long ago, or the server restarted). The feed is what arrived.', 'error');
        setState('ended');
        sessionStorage.removeItem(STORE);
      },
    );
  });
  summary();
}

function closeStream() {
  ui.es?.close();
  ui.es = null;
}

// Events are counted as they come but drawn once per frame: a burst of a
// thousand notifications then costs a few frames, not a thousand layouts,
// and a screen reader hears one summary instead of a thousand lines.
function onEvent(kind, ev) {
  ui.pending.push([kind, ev]);
  // Rows beyond FEED_MAX would be trimmed as soon as drawn (a hidden tab
  // draws nothing until shown again).
  if (ui.pending.length > FEED_MAX) {
    ui.pending.shift();
    $('monitor-trimmed').hidden = false;
  }
  switch (kind) {
    case 'notification': {
      const rep = ev.notification?.report;
      ui.counts.notifications++;
      if (rep?.errors) ui.counts.withErrors++;
      ui.arrived.push(ev);
      break;
    }
    case 'stopping':
      setState('stopping');
      $('monitor-stop').disabled = true;
      break;
    case 'ended':
      setState('ended');
      $('monitor-stop').disabled = true;
      say(`The monitoring ended: ${ev.reason}. The report stays available while this page is open.`);
      break;
  }
  if (ui.pending.length === 1) requestAnimationFrame(drawPending);
}

/** Draws the events that came since the last frame, newest first. */
function drawPending() {
  const rows = ui.pending.map(([kind, ev]) => feedRow(kind, ev)).reverse();
  ui.pending = [];
  const feed = $('monitor-feed');
  feed.prepend(...rows);
  // A day of notifications would make a slow page: the oldest rows go,
  // the report keeps everything.
  if (feed.children.length > FEED_MAX) {
    while (feed.children.length > FEED_MAX) feed.lastElementChild.remove();
    $('monitor-trimmed').hidden = false;
  }
  const arrived = ui.arrived;
  ui.arrived = [];
  if (arrived.length === 1) {
    const ev = arrived[0];
    const n = ev.notification;
    const rep = n?.report;
    announce(`Notification #${n?.seq ?? '?'} on ${channelName(ev.topic)}: ${rep?.errors || rep?.warnings ? `${plural(rep.errors, 'error')}, ${plural(rep.warnings, 'warning')}` : 'no problems'}.`);
  } else if (arrived.length > 1) {
    const bad = arrived.filter((ev) => ev.notification?.report?.errors).length;
    announce(`${plural(arrived.length, 'notification')} arrived${bad ? `, ${bad} with errors` : ''}.`);
  }
  summary();
}

/** The line above the feed: what is monitored, and what arrived. */
function summary() {
  const s = ui.session;
  if (!s) return;
  const n = s.channels.filter((c) => c.subscribed).length;
  const parts = [`${plural(n, 'channel')} of ${s.start}`, plural(ui.counts.notifications, 'notification')];
  if (ui.counts.withErrors) parts.push(`${ui.counts.withErrors} with errors`);
  $('monitor-summary').textContent = parts.join(' · ');
}

/** A short name of a channel: its kind, and the topic for the curious. */
function channelName(topic) {
  const c = ui.channels.get(topic);
  const what = c?.capability === 'change-notification' ? 'the change channel' : c?.capability === 'framework-notification' ? 'the framework channel' : 'the channel';
  return what;
}

function channelCell(topic) {
  if (!topic) return el('span', { class: 'feed-channel' }, 'unknown callback');
  const c = ui.channels.get(topic);
  const label = c?.capability === 'change-notification' ? 'change' : c?.capability === 'framework-notification' ? 'framework' : 'topic';
  const cell = el('span', { class: 'feed-channel', title: topic }, el('span', { class: 'kind' }, label));
  // The kind tells the channels apart, unless two share it: then the
  // topic's path does (the whole URI is in the title).
  const shared = [...ui.channels.values()].filter((o) => o.capability === c?.capability).length > 1;
  if (shared || !c) {
    let short = topic;
    try {
      const u = new URL(topic);
      short = u.pathname + u.search;
    } catch {
      // not a URL: shown whole
    }
    cell.append(' ', el('span', { class: 'feed-topic' }, short));
  }
  return cell;
}

const LABELS = {
  subscribed: 'Subscribed',
  verified: 'Verified',
  renewed: 'Renewed',
  denied: 'Denied',
  refused: 'Refused',
  followed: 'Change List',
  unsubscribed: 'Unsubscribed',
  error: 'Error',
  stopping: 'Stopping',
  ended: 'Ended',
  gap: 'Gap',
};

/** One row of the feed. */
function feedRow(kind, ev) {
  if (kind === 'notification' || (kind === 'refused' && ev.notification)) return notificationRow(kind, ev);
  const li = el('li', { class: `feed-item lifecycle ${kind}`, 'data-kind': kind });
  const text = el('span', { class: 'feed-text' }, lifecycleText(kind, ev));
  const line = [ev.time ? timeEl(ev.time) : null, el('span', { class: 'feed-kind' }, LABELS[kind] ?? kind), ev.topic ? channelCell(ev.topic) : null, text];
  const findings = ev.findings ?? [];
  if (findings.length && kind !== 'error') {
    li.append(
      el(
        'details',
        {},
        el('summary', { class: 'feed-line' }, ...line, verdict(counts(findings))),
        findingsTable(findings, `Findings of the ${LABELS[kind] ?? kind} event`),
      ),
    );
  } else {
    li.append(el('div', { class: 'feed-line' }, ...line));
  }
  return li;
}

function counts(findings) {
  const c = { errors: 0, warnings: 0, infos: 0 };
  for (const f of findings) c[`${f.severity}s`] = (c[`${f.severity}s`] ?? 0) + 1;
  return c;
}

function lifecycleText(kind, ev) {
  switch (kind) {
    case 'subscribed':
      return `${ev.renewal ? 'renewal' : 'subscription'} accepted by the hub ${ev.hub ?? ''}${ev.lease ? ` (lease of ${duration(ev.lease)} asked)` : ''}; waiting for its verification of intent`;
    case 'verified':
      return `the hub verified the subscription: lease of ${duration(ev.lease ?? 0)}, until ${when(ev.expires)}`;
    case 'renewed':
      return `lease of ${duration(ev.lease ?? 0)}, until ${when(ev.expires)}`;
    case 'denied':
      return `the hub denied the subscription: ${ev.reason || 'no reason given'}`;
    case 'refused': {
      const r = ev.request;
      return `${r ? `${r.method} ${r.path} (answered ${r.status}): ` : ''}${ev.reason ?? ''}`;
    }
    case 'followed': {
      const f = ev.notification?.follow;
      if (!f) return `notification #${ev.notification?.seq ?? '?'}`;
      return f.complete
        ? `the changes of notification #${ev.notification.seq} appeared in the Change List after ${duration(f.delay)}`
        : `${plural(f.missing?.length ?? 0, 'change')} of notification #${ev.notification.seq} not in the Change List${f.stopped ? ' when the monitoring stopped' : ''}`;
    }
    case 'unsubscribed':
      return 'the hub verified the unsubscription';
    case 'stopping':
      return `${ev.reason}: unsubscribing from every channel…`;
    case 'ended':
      return ev.reason;
    case 'gap':
      return `${plural(ev.missed ?? 0, 'earlier event')} are no longer kept by the server: the report has everything`;
    default:
      return ev.reason ?? '';
  }
}

function notificationRow(kind, ev) {
  const n = ev.notification;
  const rep = n.report ?? {};
  const findings = rep.findings ?? [];
  const rules = [...new Set(findings.map((f) => f.rule))];
  const li = el('li', {
    class: `feed-item notification${rep.errors ? ' has-errors' : rep.warnings ? ' has-warnings' : ''}${n.ignored ? ' ignored' : ''}`,
    'data-kind': kind,
    'data-topic': ev.topic ?? '',
    'data-seq': n.seq,
    'data-rules': rules.join(' '),
    'data-errors': rep.errors ?? 0,
  });
  const what = n.ignored ? 'ignored delivery' : n.capability ? kindName(n.capability) : 'notification';
  const facts = [];
  if (!n.ignored) {
    const k = n.changes?.length ?? rep.entries ?? 0;
    facts.push(k === 1 ? '1 change' : `${k.toLocaleString('en')} changes`);
  }
  const latency = n.latency
    ? el('span', { class: 'feed-latency', title: 'From the end of the period the notification covers to its receipt, by the Source’s clock and this server’s' }, `latency ${duration(n.latency)}`)
    : el('span', { class: 'feed-latency', title: 'The notification gives no time to measure from' }, 'latency —');
  const summaryLine = el(
    'summary',
    { class: 'feed-line' },
    timeEl(n.received ?? ev.time),
    el('span', { class: 'feed-kind' }, `#${n.seq} `, what),
    channelCell(ev.topic),
    facts.length ? el('span', { class: 'feed-facts' }, facts.join(' · ')) : null,
    n.ignored ? null : latency,
    verdict(rep),
  );
  const body = el('div', { class: 'feed-body' });
  body.append(el('p', { class: 'hint' }, 'Channel ', el('code', {}, ev.topic ?? ''), '.'));
  if (kind === 'refused' && ev.reason) body.append(el('p', { class: 'warn-line' }, ev.reason));
  const period = [];
  if (n.from) period.push(`from ${when(n.from)}`);
  if (n.until) period.push(`until ${when(n.until)}`);
  if (period.length) body.append(el('p', { class: 'hint' }, `Period: ${period.join(' ')}.`));
  body.append(
    findings.length
      ? findingsTable(findings, `Findings of notification #${n.seq} on ${ev.topic ?? ''}`)
      : el('p', { class: 'clean' }, '✓ No problems found.'),
  );
  if (rep.suppressed) {
    const parts = Object.entries(rep.suppressed).map(([r, k]) => `${k.toLocaleString('en')} more ${r}`);
    body.append(el('p', { class: 'hint' }, `Not listed: ${parts.join(', ')}.`));
  }
  if (n.changes?.length) {
    const ul = el('ul', { class: 'feed-changes' });
    for (const c of n.changes.slice(0, 50)) ul.append(el('li', {}, el('span', { class: 'kind' }, c.change), ' ', extLink(c.url)));
    if (n.changes.length > 50) ul.append(el('li', { class: 'hint' }, `and ${n.changes.length - 50} more (in the report)`));
    body.append(el('details', { class: 'feed-change-list' }, el('summary', {}, plural(n.changes.length, 'change')), ul));
  }
  li.append(el('details', {}, summaryLine, body));
  return li;
}

/**
 * A findings table, in the style of the results' (results.js): severity,
 * line, rule with its name and documentation, message, specification.
 */
function findingsTable(findings, caption) {
  const rows = findings.map((f) =>
    el('tr', { class: `finding ${f.severity}`, 'data-severity': f.severity, 'data-rule': f.rule, 'data-line': f.line }, ...findingCells(f, ui.rules)),
  );
  return el('div', { class: 'table-wrap' }, findingsTableOf(caption, el('tbody', {}, ...rows)));
}

// ---- actions ----

async function stop() {
  const s = ui.session;
  if (!s) return;
  $('monitor-stop').disabled = true;
  setState('stopping');
  say('Unsubscribing from every channel…');
  try {
    await ui.api.stop(s.id);
  } catch (e) {
    say(`Cannot stop: ${e.message}`, 'error');
  }
}

async function downloadReport(format) {
  const s = ui.session;
  if (!s) return;
  try {
    const blob = await ui.api.report(s.id, format);
    let host = 'source';
    try {
      host = new URL(s.start).host;
    } catch {
      // keep "source"
    }
    download(blob, `rscheck-monitor-${host.replace(/[^A-Za-z0-9.-]+/g, '_')}.${format}`);
  } catch (e) {
    say(`Cannot download the report: ${e.message}`, 'error');
  }
}

/** Tells screen reader users what arrived, without a visible line. */
function announce(text) {
  $('monitor-announce').textContent = text;
}

/** Says something in the panel's status line (read out politely). */
function say(text, kind = '') {
  const p = $('monitor-status');
  p.textContent = text;
  p.className = kind ? `monitor-status ${kind}` : 'monitor-status';
}

init();
