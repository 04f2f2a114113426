//go:build js && wasm

package main

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/hack-pad/safejs"
	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/validator/report"
)

// explore answers an explore request: it crawls the Source from url,
// posting progress, and answers with the result, partial when the request
// was cancelled or a limit stopped the crawl.
func (s *server) explore(ctx context.Context, id safejs.Value, k string, data safejs.Value) (obj, error) {
	start := strings.TrimSpace(str(data, "url"))
	if u, err := url.Parse(start); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, inputErrorf("explore: want an http or https URL, have %q", start)
	}
	o := get(data, "options")
	vo, err := validatorOptions(o)
	if err != nil {
		return nil, err
	}
	eo := &explorer.Options{Validator: vo}
	if n, ok := num(o, "audit"); ok {
		eo.Audit = int(n)
	}
	if n, ok := num(o, "maxDocuments"); ok && n > 0 {
		eo.MaxDocuments = int(n)
	}
	if n, ok := num(o, "maxDepth"); ok && n > 0 {
		eo.MaxDepth = int(n)
	}
	if n, ok := num(o, "concurrency"); ok && n > 0 {
		eo.Concurrency = int(n)
	}
	if n, ok := num(o, "maxSeconds"); ok && n > 0 {
		eo.MaxDuration = time.Duration(n * float64(time.Second))
	}
	if n, ok := num(o, "timeoutSeconds"); ok && n > 0 {
		eo.Timeout = time.Duration(n * float64(time.Second))
	}
	if n, ok := num(o, "delayMs"); ok && n > 0 {
		eo.Delay = time.Duration(n * float64(time.Millisecond))
	}

	var base explorer.Fetcher = jsFetcher{}
	switch via := str(data, "via"); via {
	case "", "direct":
	case "relay":
		base = s.relay
		// What the site's window passes on is held in memory twice (in
		// the page and here): keep packages to what the relay carries.
		eo.MaxPackageBytes = maxRelayBody
	case "proxy":
		p := str(data, "proxy")
		if u, err := url.Parse(p); err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, inputErrorf("explore: proxy: want the http(s) URL of the proxy endpoint, have %q", p)
		}
		base = &proxyFetcher{endpoint: p, f: base}
	default:
		return nil, inputErrorf("explore: unknown via %q (want direct, relay or proxy)", via)
	}
	watch := &corsWatch{f: base}
	eo.Fetcher = watch

	prog := newThrottle(func(p obj) { post(obj{"type": "progress", "id": id, "progress": p}) })
	defer prog.stop()
	eo.Progress = func(p explorer.Progress) {
		prog.update(obj{
			"phase": p.Phase, "url": p.URL, "discovered": p.Discovered, "fetched": p.Fetched,
			"validated": p.Validated, "bytes": float64(p.Bytes), "resources": float64(p.Resources),
			"audited": p.Audited,
		})
	}

	er, err := explorer.Explore(ctx, start, eo)
	cancelled := err != nil && errors.Is(err, context.Canceled)
	if er == nil || (err != nil && !cancelled) {
		if err == nil {
			err = errors.New("explore: no result")
		}
		return nil, err
	}
	res := er.Report()
	res.Version = version()
	s.results.put(k, res)

	msg, err := resultMessage(res, data)
	if err != nil {
		return nil, err
	}
	info := obj{
		"start":     er.Start,
		"stopped":   er.Stopped,
		"cancelled": cancelled,
		"cors":      watch.summary(),
		"stats": obj{
			"documents": er.Stats.Documents, "failed": er.Stats.Failed, "bytes": float64(er.Stats.Bytes),
			"resources": float64(er.Stats.Resources), "errors": er.Stats.Errors,
			"warnings": er.Stats.Warnings, "infos": er.Stats.Infos,
		},
	}
	if a := er.Audit; a != nil {
		byRule := obj{}
		for r, n := range a.ByRule {
			byRule[r] = n
		}
		info["audit"] = obj{
			"resources": float64(a.Resources), "sampled": a.Sampled, "checked": a.Checked,
			"unreachable": a.Unreachable, "mismatches": a.Mismatches, "byRule": byRule,
		}
	}
	msg["explore"] = info
	return msg, nil
}

// render answers a render request: a result kept from an earlier request
// (of: its id) in one of the report formats.
func (s *server) render(data safejs.Value) (obj, error) {
	format := str(data, "format")
	if format == "" {
		format = "html"
	}
	res := s.results.get(key(get(data, "of")))
	if res == nil {
		return nil, inputErrorf("render: no result for that request (only the latest few are kept)")
	}
	var b strings.Builder
	if err := report.Write(format, &b, res, report.Options{Rules: catalogue()}); err != nil {
		return nil, inputErrorf("render: %v", err)
	}
	return obj{"type": "rendered", "format": format, "text": b.String()}, nil
}
