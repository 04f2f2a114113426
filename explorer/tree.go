package explorer

import (
	"fmt"
	"strings"

	"github.com/rscheck/rscheck/validator"
)

// crawl explores the hierarchy from the roots discovery chose, then from
// the documents discovery found that the hierarchy does not include.
func (c *crawler) crawl() {
	c.progress(func(p *Progress) { p.Phase = "crawl" })
	for i := 0; ; i++ {
		c.mu.Lock()
		if i >= len(c.roots) {
			c.mu.Unlock()
			break
		}
		r := c.roots[i]
		c.mu.Unlock()
		c.startRoot(r)
		c.pool.wait()
	}
	// Then the documents discovery found outside that hierarchy, the
	// highest first, so that a Capability List is crawled under its own
	// Source Description rather than as a root of its own.
	rank := func(d *Document) int {
		switch d.facts.kind {
		case validator.Description:
			return 0
		case validator.CapabilityList:
			return 1
		}
		return 2
	}
	for r := 0; r < 3; r++ {
		for i := 0; ; i++ {
			c.mu.Lock()
			if i >= len(c.byID) {
				c.mu.Unlock()
				break
			}
			d := c.byID[i]
			orphan := d.Parent == nil && !d.root && d.done && d.fail == failNone && d.facts.read &&
				d.facts.kind != validator.Sitemap && d.facts.kind != validator.SitemapIndex && rank(d) == r
			if orphan {
				c.roots = append(c.roots, d)
			}
			c.mu.Unlock()
			if orphan {
				c.startRoot(d)
				c.pool.wait()
			}
		}
	}
}

// startRoot makes d a root and schedules what it lists.
func (c *crawler) startRoot(d *Document) {
	c.mu.Lock()
	d.root = true
	if d.scope == nil {
		d.scope = newScope()
	}
	c.mu.Unlock()
	c.pool.add(func() { c.scheduleChildren(d) })
}

// scheduleChildren links the documents d lists, once d has its place.
func (c *crawler) scheduleChildren(d *Document) {
	c.mu.Lock()
	specs, chans := d.specs, d.channels
	d.specs = nil
	c.channels = append(c.channels, chans...)
	c.mu.Unlock()
	s := d.scope
	guard := false
	if d.facts.kind == validator.CapabilityList {
		// Know the branches before any child is read, so that packages
		// wait for the Resource List whatever the order of the entries.
		s.pmu.Lock()
		for _, sp := range specs {
			switch sp.ref.cap {
			case "resourcelist":
				if !guard {
					guard, s.hasRL = true, true
					s.rlPending++
				}
			case "resourcedump":
				s.hasRD = true
			}
		}
		s.pmu.Unlock()
	}
	for _, sp := range specs {
		c.link(d, sp)
		if r := sp.ref; r.role == rolePackage && r.contents != "" {
			c.link(d, &childSpec{url: r.contents, ref: &ref{from: d, at: r.contentsAt, role: roleContents, n: r.n}})
		}
	}
	for _, ch := range chans {
		c.pool.add(func() { c.checkChannel(ch) })
	}
	if guard {
		c.leaveRL(s)
	}
}

// link records that parent lists the document at sp.url, and fetches it
// unless it is known.
func (c *crawler) link(parent *Document, sp *childSpec) {
	r := sp.ref
	c.mu.Lock()
	if d := c.docs[NormalizeURL(sp.url)]; d != nil {
		d.refs = append(d.refs, r)
		if d == parent || isAncestor(d, parent) {
			c.addFindingLocked(parent, finding(RuleCycle, r.at, "%s is %s above this document in the hierarchy; the documents must form a tree, and following this link loops", sp.url, describe(d)))
			c.mu.Unlock()
			return
		}
		adopt := d.Parent == nil && !d.root && d.done && r.role.tree()
		var old *scope
		if adopt {
			old = c.placeLocked(d, parent, r)
		}
		c.mu.Unlock()
		if adopt {
			c.afterPlaced(d, old)
		}
		return
	}
	d := c.newDocLocked(sp.url, r, parent)
	if d == nil {
		c.mu.Unlock()
		return
	}
	c.placeLocked(d, parent, r)
	c.mu.Unlock()
	c.progress(func(p *Progress) { p.Discovered++; p.URL = d.URL })
	if d.role == rolePackage {
		c.schedulePackage(d)
		return
	}
	c.pool.add(func() {
		c.fetchDocument(d)
		if d.fail == failNone {
			c.scheduleChildren(d)
		}
		if d.inRL {
			c.leaveRL(d.scope)
		}
	})
}

func isAncestor(a, d *Document) bool {
	for p := d.Parent; p != nil; p = p.Parent {
		if p == a {
			return true
		}
	}
	return false
}

func describe(d *Document) string {
	if c := validator.Capabilities[d.facts.capability]; c != nil {
		return "the " + c.Name
	}
	return "a document"
}

// placeLocked gives d its place under parent; c.mu must be held. It
// returns the scope d had on its own, to merge into its new one.
func (c *crawler) placeLocked(d, parent *Document, r *ref) (old *scope) {
	d.Parent = parent
	d.Depth = parent.Depth + 1
	d.ordinal = r.n
	d.role = r.role
	d.Via = roleVia[r.role]
	parent.Children = append(parent.Children, d)
	d.inRL = parent.inRL || (r.role == roleCapDoc && r.cap == "resourcelist")
	d.inRD = parent.inRD || (r.role == roleCapDoc && r.cap == "resourcedump")
	if r.role == roleCapList {
		if d.scope == nil {
			d.scope = newScope()
		}
	} else {
		old = d.scope
		d.scope = parent.scope
		if old == d.scope {
			old = nil
		}
	}
	if d.inRL {
		d.scope.pmu.Lock()
		d.scope.rlPending++
		d.scope.pmu.Unlock()
	}
	return old
}

// afterPlaced completes the placing of a document read before its place
// was known (during discovery).
func (c *crawler) afterPlaced(d *Document, old *scope) {
	if old != nil {
		d.scope.merge(c, old, d)
	}
	c.scheduleChildren(d)
	if d.inRL {
		c.leaveRL(d.scope)
	}
}

// leaveRL marks one document of a Resource List branch done; the last one
// releases the packages waiting for the branch.
func (c *crawler) leaveRL(s *scope) {
	s.pmu.Lock()
	s.rlPending--
	var run []func()
	if s.rlPending == 0 {
		run, s.deferred = s.deferred, nil
	}
	s.pmu.Unlock()
	for _, t := range run {
		c.pool.add(t)
	}
}

// schedulePackage queues a package task, after the Resource List branch
// of its Capability List when there is one.
func (c *crawler) schedulePackage(d *Document) {
	task := func() { c.fetchPackage(d) }
	s := d.scope
	s.pmu.Lock()
	if s.hasRL && s.rlPending > 0 {
		s.deferred = append(s.deferred, task)
		s.pmu.Unlock()
		return
	}
	s.pmu.Unlock()
	c.pool.add(task)
}

// A Channel is a notification channel advertised in a Capability List
// (CN §5, FN §5). The explorer does not subscribe; it checks that the
// topic URI answers as a WebSub topic must.
type Channel struct {
	// Topic is the topic URI (the entry's <loc>), Hub the hub URI (its
	// rel="hub" link, "" when missing).
	Topic, Hub string
	// Capability is "change-notification" or "framework-notification".
	Capability string
	// CapabilityList is the URL of the Capability List advertising it.
	CapabilityList string
	// Status and ContentType are those of the topic's answer to GET.
	Status      int
	ContentType string
	// OK is true when the topic URI answered HEAD and GET correctly.
	OK bool

	at pos
}

// checkChannel checks a channel's topic URI with HEAD and GET (CN §4.1,
// FN §4.1): 200, Content-Type application/xml or no content, and Link
// headers naming the topic (self) and the hub.
func (c *crawler) checkChannel(ch *Channel) {
	c.mu.Lock()
	var cl *Document
	if d := c.docs[NormalizeURL(ch.CapabilityList)]; d != nil {
		cl = d
	}
	c.mu.Unlock()
	if cl == nil || c.ctx.Err() != nil {
		return
	}
	ok := true
	for _, m := range []string{"HEAD", "GET"} {
		resp, err := c.f.Fetch(c.ctx, &Request{Method: m, URL: ch.Topic})
		if err != nil {
			if c.ctx.Err() != nil {
				return
			}
			ok = false
			c.addFinding(cl, finding(RuleTopicResponse, ch.at, "%s %s failed: %v; the topic URI of a notification channel must answer HEAD and GET with 200", m, ch.Topic, err))
			continue
		}
		n, _ := drain(resp.Body, 1<<20)
		resp.Body.Close()
		ct, cl0 := resp.Header.Get("Content-Type"), resp.Header.Get("Content-Length")
		if m == "GET" {
			ch.Status, ch.ContentType = resp.StatusCode, ct
		}
		var problems []string
		if resp.StatusCode != 200 {
			problems = append(problems, "status "+statusText(resp.StatusCode)+", not 200 OK")
		}
		empty := strings.TrimSpace(cl0) == "0" || (m == "GET" && n == 0 && cl0 == "")
		if mediaType(ct) != "application/xml" && !empty {
			if ct == "" {
				problems = append(problems, "no Content-Type")
			} else {
				problems = append(problems, fmt.Sprintf("Content-Type %q", ct))
			}
		}
		if len(problems) > 0 {
			ok = false
			c.addFinding(cl, finding(RuleTopicResponse, ch.at, "%s %s answered with %s; a topic URI answers 200 with Content-Type application/xml, the type of the notifications, or with Content-Length 0 when it serves no content",
				m, ch.Topic, strings.Join(problems, " and ")))
			continue
		}
		if m == "GET" {
			if msg := topicLinks(ch, resp); msg != "" {
				ok = false
				c.addFinding(cl, finding(RuleTopicLinks, ch.at, "%s", msg))
			}
		}
	}
	ch.OK = ok
}

// topicLinks checks the Link headers of a topic URI's response.
func topicLinks(ch *Channel, resp *Response) string {
	links, _ := ParseLinkHeader(parseURL(resp.URL), resp.Header.Values("Link"))
	self, hub := LinkTargets(links, "self"), LinkTargets(links, "hub")
	var missing []string
	switch {
	case len(self) == 0:
		missing = append(missing, "no rel=\"self\" link giving the topic URI")
	case !sameURL(self[0], ch.Topic):
		missing = append(missing, fmt.Sprintf("rel=\"self\" is %s, not the topic URI", self[0]))
	}
	switch {
	case len(hub) == 0:
		missing = append(missing, "no rel=\"hub\" link giving the hub URI")
	case ch.Hub != "" && !sameURL(hub[0], ch.Hub):
		missing = append(missing, fmt.Sprintf("rel=\"hub\" is %s, but the Capability List gives the hub %s", hub[0], ch.Hub))
	}
	if len(missing) == 0 {
		return ""
	}
	return fmt.Sprintf("the Link header of %s has %s; the topic URI's response must link to itself (self) and to its hub (hub)", ch.Topic, strings.Join(missing, " and "))
}
