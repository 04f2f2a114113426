/*
 * The rscheck bookmarklet, readable. The page (app.js) turns this file into
 * the javascript: URL of its "rscheck this site" link: comments and
 * indentation are dropped and __RSCHECK_CHECKER__ becomes the checker's
 * URL. Every statement ends with a semicolon and comments are block
 * comments, so the lines can be joined.
 *
 * Clicked on a page of a site, it loads no script (an https site cannot
 * load one from http://localhost, and the site's CSP may forbid it). It
 * opens the checker in a new window and stays behind as a relay: the
 * checker asks, by postMessage, for URLs of this site; this code fetches
 * them from the site's own origin, where CORS does not apply, and posts
 * back the status, headers, final URL and body.
 *
 * It answers only the window it opened, and only when that window has the
 * checker's origin; it fetches only URLs of this page's origin (the
 * checker sees nothing the site does not show to anyone), without
 * cookies, and never more than MAX bytes.
 */
(function () {
  'use strict';
  var CHECKER = '__RSCHECK_CHECKER__';
  var MAX = 268435456;
  var checkerOrigin = new URL(CHECKER).origin;
  /* Browsers show XML in a viewer that may replace the document's root:
     the checker reads the document itself to see whether it is a
     ResourceSync document. */
  var info = {
    type: 'rscheck-relay',
    href: location.href,
    origin: location.origin,
    contentType: document.contentType || '',
    isXML: /xml/i.test(document.contentType || '')
  };
  var win = window.open(CHECKER + '#bookmarklet', '_blank');
  if (!win) {
    alert('rscheck: the browser blocked the checker window. Allow pop-ups for this site and click the bookmarklet again.');
    return;
  }
  var running = new Map();
  function reply(msg, transfer) {
    msg.type = 'rscheck-fetch-result';
    win.postMessage(msg, checkerOrigin, transfer || []);
  }
  function relay(m) {
    var target;
    try {
      target = new URL(String(m.url), location.href);
    } catch (e) {
      reply({ fid: m.fid, error: 'not a URL: ' + m.url });
      return;
    }
    if (target.origin !== location.origin) {
      reply({ fid: m.fid, error: 'the bookmarklet fetches only URLs of ' + location.origin + ', not ' + target.origin });
      return;
    }
    var method = m.method === 'HEAD' ? 'HEAD' : 'GET';
    var ac = new AbortController();
    running.set(m.fid, ac);
    fetch(target.href, { method: method, credentials: 'omit', cache: 'no-store', redirect: 'follow', signal: ac.signal })
      .then(function (r) {
        var headers = [];
        r.headers.forEach(function (v, k) {
          headers.push([k, v]);
        });
        if (Number(r.headers.get('content-length')) > MAX) {
          throw new Error('the body is larger than ' + MAX + ' bytes');
        }
        var chunks = [];
        var size = 0;
        var reader = r.body ? r.body.getReader() : null;
        function pump() {
          if (!reader || method === 'HEAD') {
            return Promise.resolve();
          }
          return reader.read().then(function (c) {
            if (c.done) {
              return;
            }
            size += c.value.length;
            if (size > MAX) {
              ac.abort();
              throw new Error('the body is larger than ' + MAX + ' bytes');
            }
            chunks.push(c.value);
            return pump();
          });
        }
        return pump().then(function () {
          var body = new Uint8Array(size);
          var at = 0;
          chunks.forEach(function (c) {
            body.set(c, at);
            at += c.length;
          });
          reply({ fid: m.fid, status: r.status, url: r.url, redirected: r.redirected, headers: headers, body: body.buffer }, [body.buffer]);
        });
      })
      .catch(function (e) {
        reply({ fid: m.fid, error: String(e && e.message ? e.name + ': ' + e.message : e) });
      })
      .finally(function () {
        running.delete(m.fid);
      });
  }
  window.addEventListener('message', function (ev) {
    if (ev.source !== win || ev.origin !== checkerOrigin) {
      return;
    }
    var m = ev.data;
    if (!m || typeof m !== 'object') {
      return;
    }
    if (m.type === 'rscheck-hello') {
      win.postMessage(info, checkerOrigin);
    } else if (m.type === 'rscheck-fetch') {
      relay(m);
    } else if (m.type === 'rscheck-abort' && running.has(m.fid)) {
      running.get(m.fid).abort();
    }
  });
})();
