package explorer

import (
	"encoding/hex"
	"hash"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/rscheck/rscheck/validator"
)

// AuditStats summarise a content audit.
type AuditStats struct {
	// Resources is the number of resource entries the lists hold.
	Resources int64
	// Sampled is the number of resources chosen for the audit.
	Sampled int
	// Checked is the number that answered (with any status).
	Checked int
	// Unreachable is the number that could not be fetched.
	Unreachable int
	// Mismatches is the number with at least one finding.
	Mismatches int
	// ByRule counts the findings per rule ID.
	ByRule map[string]int
}

// audit fetches the sampled resources and compares them with their
// metadata.
func (c *crawler) audit() {
	c.progress(func(p *Progress) { p.Phase = "audit" })
	c.mu.Lock()
	items := append([]*auditItem(nil), c.sample.items...)
	c.mu.Unlock()
	// The order of the sample is the heap's; audit in list order instead.
	sort.Slice(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if a.doc.id != b.doc.id {
			return a.doc.id < b.doc.id
		}
		return a.at.Line < b.at.Line
	})
	st := &AuditStats{Resources: c.resources.Load(), Sampled: len(items), ByRule: map[string]int{}}
	var mu sync.Mutex
	for _, it := range items {
		c.pool.add(func() {
			fs, reached := c.auditOne(it)
			mu.Lock()
			defer mu.Unlock()
			if reached {
				st.Checked++
			} else if c.ctx.Err() == nil {
				st.Unreachable++
			}
			if len(fs) > 0 {
				st.Mismatches++
			}
			for _, f := range fs {
				st.ByRule[f.Rule]++
				c.addFinding(it.doc, f)
			}
			c.progress(func(p *Progress) { p.Audited++; p.URL = it.uri })
		})
	}
	c.pool.wait()
	c.auditStat = st
}

// auditOne fetches one resource; reached is false when there was no
// response.
func (c *crawler) auditOne(it *auditItem) (fs []validator.Finding, reached bool) {
	if c.ctx.Err() != nil {
		return nil, false
	}
	// identity: the hash and length describe the representation itself,
	// not a compressed transfer of it.
	resp, err := c.f.Fetch(c.ctx, &Request{URL: it.uri, Header: Header{"Accept-Encoding": {"identity"}}})
	if err != nil {
		if c.ctx.Err() != nil {
			return nil, false
		}
		return []validator.Finding{finding(RuleResourceStatus, it.at, "%s could not be fetched: %v", it.uri, err)}, false
	}
	defer resp.Body.Close()
	if it.change == "deleted" {
		if resp.StatusCode != 404 && resp.StatusCode != 410 {
			fs = append(fs, finding(RuleResourceStatus, it.at, "%s answers %s, but this Change List says it was deleted: a deleted resource answers 404 Not Found or 410 Gone (unless a later change re-created it)", it.uri, statusText(resp.StatusCode)))
		}
		return fs, true
	}
	if resp.StatusCode != 200 {
		what := "a listed resource answers 200 OK"
		if it.change != "" {
			what = "a resource this Change List says was " + it.change + " answers 200 OK (unless a later change deleted it)"
		}
		return append(fs, finding(RuleResourceStatus, it.at, "%s answers %s; %s", it.uri, statusText(resp.StatusCode), what)), true
	}
	if it.change != "" {
		// A later change may explain any difference with the metadata of
		// this one: only the status is checked.
		return nil, true
	}
	digests, _ := validator.ParseHash(it.hash)
	if strings.TrimSpace(it.hash) == "" {
		digests = nil
	}
	hs := map[string]hash.Hash{}
	ws := []io.Writer{io.Discard}
	for _, d := range digests {
		if mk := hashers[d.Alg]; mk != nil && hs[d.Alg] == nil {
			hs[d.Alg] = mk()
			ws = append(ws, hs[d.Alg])
		}
	}
	n, err := io.Copy(io.MultiWriter(ws...), resp.Body)
	if err != nil {
		if c.ctx.Err() != nil {
			return nil, false
		}
		return append(fs, finding(RuleResourceStatus, it.at, "%s could not be read to the end: %v", it.uri, err)), true
	}
	if want := parseLength(it.length); want >= 0 {
		switch {
		case n != want:
			fs = append(fs, finding(RuleResourceLength, it.at, "length is %d but %s returned %d bytes", want, it.uri, n))
		case resp.ContentLength >= 0 && resp.ContentLength != want && !resp.Decoded:
			fs = append(fs, finding(RuleResourceLength, it.at, "length is %d but %s answers Content-Length: %d", want, it.uri, resp.ContentLength))
		}
	}
	for _, d := range digests {
		if h := hs[d.Alg]; h != nil {
			if got := hex.EncodeToString(h.Sum(nil)); got != strings.ToLower(d.Hex) {
				fs = append(fs, finding(RuleResourceHash, it.at, "the %s digest of %s is %s, not %s as listed", d.Alg, it.uri, got, d.Hex))
			}
		}
	}
	if it.typ != "" {
		ct := resp.Header.Get("Content-Type")
		if ct == "" || mediaType(ct) != mediaType(it.typ) {
			fs = append(fs, finding(RuleResourceType, it.at, "type is %s but %s is served with %s", it.typ, it.uri, ctPhrase(ct)))
		}
	}
	if lm := resp.Header.Get("Last-Modified"); lm != "" {
		t, err := parseHTTPDate(lm)
		if err != nil {
			msg := "%s answers Last-Modified: %q, which is not an HTTP-date (such as \"Tue, 15 Nov 1994 08:12:31 GMT\")"
			if _, werr := validator.ParseDatetime(lm); werr == nil {
				msg += "; it is a W3C Datetime, the format of <lastmod>, not of HTTP headers"
			}
			fs = append(fs, finding(RuleLastModifiedFormat, it.at, msg, it.uri, lm))
		} else if it.lastmod != "" {
			if dt, err := validator.ParseDatetime(it.lastmod); err == nil && dt.HasTime && !dt.Time.Truncate(1e9).Equal(t) {
				fs = append(fs, finding(RuleResourceLastmod, it.at, "<lastmod> is %s but %s answers Last-Modified: %s", it.lastmod, it.uri, lm))
			}
		}
	}
	return fs, true
}
