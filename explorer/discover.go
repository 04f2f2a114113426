package explorer

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/jimsmart/grobotstxt"
	"golang.org/x/net/html"

	"github.com/rscheck/rscheck/validator"
)

// Discovery methods (§6.3).
const (
	MethodStartURL   = "start-url"   // the start URL is a ResourceSync document: climb its up links
	MethodWellKnown  = "well-known"  // /.well-known/resourcesync (§6.3.2)
	MethodHTMLLink   = "html-link"   // <link rel="resourcesync"> in an HTML page (§6.3.3)
	MethodLinkHeader = "link-header" // Link: <…>; rel="resourcesync" (§6.3.3)
	MethodRobots     = "robots.txt"  // Sitemap: directives in /robots.txt (§6.3.4)
)

// A Discovery is what one discovery method found.
type Discovery struct {
	// Method is one of the Method constants.
	Method string
	// URL is where the method looked (the page, the robots.txt, the
	// well-known URI, the start document).
	URL string
	// Found lists the documents the method pointed to.
	Found []string
	// Description is the Source Description reached from them by
	// following up links, "" when none was reached.
	Description string
	// Note says, for a person, what happened.
	Note string

	from *Document // the document where the path to Description left the primary one
	at   pos
}

// discLink is a discovery link found in a fetched page.
type discLink struct {
	method string
	target string
	at     pos
}

// discover runs every discovery method from start and chooses the roots
// of the crawl.
func (c *crawler) discover(start string) {
	c.progress(func(p *Progress) { p.Phase = "discovery" })
	startDoc := c.discoveryDoc(start, roleStart, nil, pos{}, false)
	var recs []Discovery
	origin := ""
	if u, err := url.Parse(start); err == nil {
		origin = u.Scheme + "://" + u.Host
	}
	if startDoc != nil {
		switch {
		case startDoc.fail != failNone:
			recs = append(recs, Discovery{Method: MethodStartURL, URL: start, Note: "the start URL could not be fetched: " + startDoc.Error})
		case startDoc.facts.read && startDoc.facts.kind != validator.Sitemap && startDoc.facts.kind != validator.SitemapIndex:
			rec := Discovery{Method: MethodStartURL, URL: start, Found: []string{start}}
			c.climbInto(&rec, startDoc)
			recs = append(recs, rec)
		}
		// Links in the start page: HTML <link>, Link headers, robots.txt.
		byMethod := map[string]*Discovery{}
		var order []string
		for _, l := range startDoc.disc {
			rec := byMethod[l.method]
			if rec == nil {
				rec = &Discovery{Method: l.method, URL: start}
				byMethod[l.method] = rec
				order = append(order, l.method)
			}
			rec.Found = append(rec.Found, l.target)
			d := c.discoveryDoc(l.target, roleDiscovery, startDoc, l.at, false)
			c.checkDiscoveryTarget(startDoc, l, d)
			if rec.Description == "" {
				c.climbInto(rec, d)
			}
		}
		for _, m := range order {
			if m == MethodLinkHeader {
				byMethod[m].Note = linkNote(startDoc)
			}
			recs = append(recs, *byMethod[m])
		}
	}
	if wk := origin + "/.well-known/resourcesync"; origin != "" && !sameURL(wk, start) {
		rec := Discovery{Method: MethodWellKnown, URL: wk}
		d := c.discoveryDoc(wk, roleDiscovery, nil, pos{}, true)
		switch {
		case d == nil:
		case d.fail != failNone:
			rec.Note = "no Source Description: " + d.Error
		default:
			rec.Found = []string{wk}
			c.climbInto(&rec, d)
		}
		recs = append(recs, rec)
	}
	if rb := origin + "/robots.txt"; origin != "" && !sameURL(rb, start) {
		rec := Discovery{Method: MethodRobots, URL: rb}
		d := c.discoveryDoc(rb, roleDiscovery, nil, pos{}, true)
		switch {
		case d == nil:
		case d.fail != failNone:
			rec.Note = "no robots.txt: " + d.Error
		default:
			for _, l := range d.disc {
				rec.Found = append(rec.Found, l.target)
				t := c.discoveryDoc(l.target, roleDiscovery, d, l.at, false)
				c.checkDiscoveryTarget(d, l, t)
				if rec.Description == "" {
					c.climbInto(&rec, t)
				}
			}
			if len(rec.Found) == 0 {
				rec.Note = "robots.txt has no Sitemap directive"
			}
		}
		recs = append(recs, rec)
	}
	c.agree(start, startDoc, recs)
}

// discoveryDoc fetches a document for discovery, or returns the known one.
// A probe (the well-known URI and robots.txt, tried on every Source) that
// fails is not a document of the Source: it only shows in the discovery
// summary.
func (c *crawler) discoveryDoc(rawURL string, rl role, from *Document, at pos, probe bool) *Document {
	r := &ref{from: from, at: at, role: rl}
	c.mu.Lock()
	if d := c.docs[NormalizeURL(rawURL)]; d != nil {
		if from != nil {
			d.refs = append(d.refs, r)
		}
		c.mu.Unlock()
		return d
	}
	d := c.newDocLocked(rawURL, r, nil)
	if d == nil {
		c.mu.Unlock()
		return nil
	}
	d.scope = newScope()
	d.probe = probe
	if rl == roleDiscovery && from == nil {
		d.Via = "discovery: " + strings.TrimPrefix(rawURL, originOf(rawURL))
	}
	c.mu.Unlock()
	c.progress(func(p *Progress) { p.Discovered++; p.URL = rawURL })
	c.fetchDocument(d)
	return d
}

func originOf(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Scheme + "://" + u.Host
	}
	return ""
}

// climbInto follows up links from d to the Source Description and records
// what it reached.
func (c *crawler) climbInto(rec *Discovery, d *Document) {
	seen := map[*Document]bool{}
	for steps := 0; d != nil && steps <= c.o.MaxDepth; steps++ {
		if d.fail != failNone || !d.facts.read {
			return
		}
		if d.facts.kind == validator.Description {
			rec.Description = d.URL
			return
		}
		if seen[d] {
			c.addFinding(d, finding(RuleCycle, d.facts.up[0].at, "following rel=\"up\" links from here comes back to this document; up links lead to the Source Description"))
			return
		}
		seen[d] = true
		if d.facts.kind == validator.Unknown || d.facts.kind == validator.Sitemap || d.facts.kind == validator.SitemapIndex {
			if len(d.refs) > 0 && d.refs[0].role == roleUp && d.refs[0].from != nil {
				up := d.refs[0]
				c.addFinding(up.from, finding(RuleUpReachesDescription, up.at, "rel=\"up\" points to %s, which is not a ResourceSync document (%s); up links lead to the Source Description", d.URL, d.Kind))
			}
			return
		}
		if len(d.facts.up) == 0 {
			return // RS325 says a document of this kind must have an up link
		}
		up := d.facts.up[0]
		rec.from, rec.at = d, up.at
		d = c.discoveryDoc(up.href, roleUp, d, up.at, false)
	}
}

// checkDiscoveryTarget reports a resourcesync link that does not point to
// a Capability List, and a robots.txt Sitemap that is not ResourceSync.
func (c *crawler) checkDiscoveryTarget(page *Document, l discLink, d *Document) {
	if d == nil || d.fail != failNone {
		return // the fetching rules report it on page
	}
	switch l.method {
	case MethodRobots:
		if d.facts.kind == validator.Sitemap || d.facts.kind == validator.SitemapIndex {
			c.addFinding(page, finding(RuleRobotsSitemap, l.at, "Sitemap %s is a plain Sitemap, without ResourceSync metadata: it plays no part in ResourceSync discovery", l.target))
		}
	case MethodHTMLLink, MethodLinkHeader:
		if d.facts.kind != validator.CapabilityList {
			what := "an HTML <link>"
			if l.method == MethodLinkHeader {
				what = "the HTTP Link header"
			}
			c.addFinding(page, finding(RuleDiscoveryTarget, l.at, "rel=\"resourcesync\" in %s points to %s, which is %s; it must point to a Capability List", what, l.target, kindPhrase(d)))
		}
	}
}

func kindPhrase(d *Document) string {
	if cp := validator.Capabilities[d.facts.capability]; cp != nil && d.facts.read {
		if d.facts.isIndex && cp.Index != "" {
			return "a " + cp.Name + " Index"
		}
		return "a " + cp.Name
	}
	switch d.Kind {
	case validator.Sitemap:
		return "a plain Sitemap"
	case validator.SitemapIndex:
		return "a plain Sitemap index"
	case KindHTML:
		return "an HTML page"
	}
	return "not a ResourceSync document"
}

// agree chooses the roots of the crawl and reports discovery methods that
// lead to different Source Descriptions, a missing well-known Source
// Description, and a Source where none can be found.
func (c *crawler) agree(start string, startDoc *Document, recs []Discovery) {
	primary := ""
	for _, m := range []string{MethodWellKnown, MethodStartURL, MethodHTMLLink, MethodLinkHeader, MethodRobots} {
		for _, r := range recs {
			if r.Method == m && r.Description != "" && primary == "" {
				primary = r.Description
			}
		}
	}
	c.mu.Lock()
	var sd *Document
	if primary != "" {
		sd = c.docs[NormalizeURL(primary)]
		c.roots = append(c.roots, sd)
	}
	c.mu.Unlock()
	for i := range recs {
		r := &recs[i]
		switch {
		case r.Description == "" && r.Note == "" && len(r.Found) > 0:
			r.Note = "no Source Description reached by following rel=\"up\" links"
		case r.Description != "" && !sameURL(r.Description, primary):
			r.Note = joinNote(r.Note, "leads to a different Source Description than "+primary)
			if r.from != nil {
				c.addFinding(r.from, finding(RuleDiscoveryDisagree, r.at, "following rel=\"up\" from here (found by %s discovery) leads to the Source Description %s, but discovery also finds %s; a Source has one Source Description, and every way to discover it should agree", r.Method, r.Description, primary))
			}
		case r.Description != "":
			r.Note = joinNote(r.Note, "agrees")
		}
		if r.Method == MethodWellKnown && (r.Description == "" || !sameURL(r.Description, r.URL)) {
			target := sd
			if target == nil {
				target = startDoc
			}
			msg := r.Note
			if len(r.Found) > 0 {
				msg = "it is not a Source Description"
			}
			if target != nil {
				c.addFinding(target, finding(RuleWellKnown, pos{}, "%s: %s; a Source should publish its Source Description at the well-known URI /.well-known/resourcesync", r.URL, msg))
			}
		}
	}
	if primary == "" && startDoc != nil {
		var tried []string
		for _, r := range recs {
			t := r.Method
			if r.Note != "" {
				t += " (" + r.Note + ")"
			}
			tried = append(tried, t)
		}
		c.addFinding(startDoc, finding(RuleNoDescription, pos{}, "no Source Description could be discovered from %s; tried: %s", start, strings.Join(tried, "; ")))
	}
	c.mu.Lock()
	c.discovery = recs
	c.mu.Unlock()
}

// linkHeader collects rel="resourcesync" links of a response.
func (c *crawler) linkHeader(d *Document, resp *Response) {
	links, problems := ParseLinkHeader(parseURL(resp.URL), resp.Header.Values("Link"))
	for _, l := range links {
		if l.HasRel("resourcesync") {
			d.disc = append(d.disc, discLink{method: MethodLinkHeader, target: l.Target})
		}
	}
	d.linkProblems = problems
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// linkNote says what was wrong with the Link header of d, for the
// discovery summary.
func linkNote(d *Document) string {
	if len(d.linkProblems) == 0 {
		return ""
	}
	return "malformed Link header: " + strings.Join(d.linkProblems, "; ")
}

// examineHTML collects <link rel="resourcesync"> elements of an HTML page,
// with their lines, honouring <base href>.
func (c *crawler) examineHTML(d *Document, r io.Reader, pageURL string) {
	d.Kind = KindHTML
	d.Report = emptyReport(d.URL, KindHTML)
	base := parseURL(pageURL)
	z := html.NewTokenizer(io.LimitReader(r, 4<<20))
	line := 1
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := z.Raw()
		at := line
		line += bytes.Count(raw, []byte{'\n'})
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		tag := string(name)
		if (tag != "link" && tag != "base") || !hasAttr {
			continue
		}
		var rel, href string
		hasHref := false
		for {
			k, v, more := z.TagAttr()
			switch string(k) {
			case "rel":
				rel = string(v)
			case "href":
				href, hasHref = string(v), true
			}
			if !more {
				break
			}
		}
		if tag == "base" {
			if hasHref && base != nil {
				if b, err := base.Parse(strings.TrimSpace(href)); err == nil {
					base = b
				}
			}
			continue
		}
		for _, r := range strings.Fields(rel) {
			if strings.EqualFold(r, "resourcesync") && hasHref {
				d.disc = append(d.disc, discLink{method: MethodHTMLLink, target: resolve(base, strings.TrimSpace(href)), at: pos{Line: at, Col: 1}})
				break
			}
		}
	}
}

// examineRobots collects the Sitemap directives of a robots.txt, with
// their lines.
func (c *crawler) examineRobots(d *Document, r io.Reader, robotsURL string) {
	d.Kind = KindRobots
	d.Report = emptyReport(d.URL, KindRobots)
	data, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		c.failed(d, err)
		return
	}
	// Google's own robots.txt parser (ported to Go): it reads files the
	// way the major crawlers do, typos and all, and gives each directive's
	// line.
	base := parseURL(robotsURL)
	grobotstxt.Parse(string(data), &sitemapLines{fn: func(line int, s string) {
		d.disc = append(d.disc, discLink{method: MethodRobots, target: resolve(base, s), at: pos{Line: line, Col: 1}})
	}})
}

// sitemapLines collects the Sitemap directives of a robots.txt.
type sitemapLines struct{ fn func(line int, value string) }

func (h *sitemapLines) HandleRobotsStart()                      {}
func (h *sitemapLines) HandleRobotsEnd()                        {}
func (h *sitemapLines) HandleUserAgent(int, string)             {}
func (h *sitemapLines) HandleAllow(int, string)                 {}
func (h *sitemapLines) HandleDisallow(int, string)              {}
func (h *sitemapLines) HandleUnknownAction(int, string, string) {}
func (h *sitemapLines) HandleSitemap(line int, value string) {
	if value != "" {
		h.fn(line, value)
	}
}

// String sums the discovery up on one line, for logs.
func (r Discovery) String() string {
	s := fmt.Sprintf("%s %s", r.Method, r.URL)
	if len(r.Found) > 0 {
		s += " → " + strings.Join(r.Found, ", ")
	}
	if r.Description != "" {
		s += " ⇒ " + r.Description
	}
	if r.Note != "" {
		s += " (" + r.Note + ")"
	}
	return s
}
