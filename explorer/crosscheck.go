package explorer

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rscheck/rscheck/explorer/dump"
	"github.com/rscheck/rscheck/validator"
)

// crossCheck runs the checks between documents once the crawl is over,
// when every document's facts and every link to it are known.
func (c *crawler) crossCheck(order []*Document) {
	stopped := c.ctx.Err() != nil
	for _, d := range order {
		c.fetchFindings(d, stopped)
		if d.Parent == nil || d.fail != failNone {
			continue
		}
		r := d.treeRef()
		if r == nil {
			continue
		}
		c.checkUp(d)
		switch d.role {
		case roleCapList, roleCapDoc:
			c.checkCapability(d, r)
		case rolePart:
			c.checkPart(d, r)
		case rolePackage:
			c.checkPackage(d, r)
		case roleProbe:
			if d.facts.read && d.facts.capability != "" && d.facts.capability == d.Parent.facts.capability {
				c.addFinding(d.Parent, finding(RuleIndexForm, r.at, "%s is itself %s: a %s that lists %ss is an index and must be a <sitemapindex> with <sitemap> entries, not a <urlset>", d.URL, kindPhrase(d), capName(d.facts.capability), capName(d.facts.capability)))
			}
		}
		if d.role == rolePart || d.role == roleProbe {
			c.checkIndexLink(d)
		}
		c.checkParents(d)
	}
	for _, d := range order {
		if d.facts.read && (d.facts.kind == validator.ChangeListIndex || d.facts.kind == validator.ChangeDumpIndex) && d.fail == failNone {
			c.checkChangeIndex(d)
		}
	}
	if !stopped {
		c.checkDumpCoverage(order)
	}
}

func capName(v string) string {
	if cp := validator.Capabilities[v]; cp != nil {
		return cp.Name
	}
	return v
}

// treeRef returns the link through which d's parent lists it.
func (d *Document) treeRef() *ref {
	for _, r := range d.refs {
		if r.from == d.Parent && r.role.tree() {
			return r
		}
	}
	return nil
}

// fetchFindings reports, on each document that links to d, why d could not
// be had as it should: status, network, size, redirects, content type.
func (c *crawler) fetchFindings(d *Document, stopped bool) {
	onSelf := true
	for _, r := range d.refs {
		if r.from == nil {
			continue
		}
		onSelf = false
		if f, ok := c.fetchProblem(d, r.at, stopped); ok {
			c.addFinding(r.from, f)
		}
		if d.fail == failNone && len(d.Redirects) > 0 && r.role != roleUp {
			c.addFinding(r.from, finding(RuleRedirect, r.at, "%s redirects (%s) to %s; link to the document's own URL", d.URL, redirectChain(d.Redirects), d.Redirects[len(d.Redirects)-1].To))
		}
		if d.fail == failNone && d.Report != nil && isRSKind(d.Kind) && !xmlContentType(d.ContentType, d.gzip) {
			c.addFinding(r.from, finding(RuleContentType, r.at, "%s is served with %s; ResourceSync documents are XML: Content-Type application/xml or text/xml (application/gzip for a .gz file)", d.URL, ctPhrase(d.ContentType)))
		}
	}
	if onSelf && !d.probe && d.fail != failNone {
		if f, ok := c.fetchProblem(d, pos{}, stopped); ok {
			if d.Report == nil {
				d.Report = emptyReport(d.URL, d.Kind)
			}
			c.addFinding(d, f)
		}
	}
}

func (c *crawler) fetchProblem(d *Document, at pos, stopped bool) (validator.Finding, bool) {
	switch d.fail {
	case failStatus:
		return finding(RuleHTTPStatus, at, "%s answered %s; a document the Source lists must answer 200 OK", d.URL, d.Error), true
	case failNetwork, failRead:
		return finding(RuleUnreachable, at, "%s could not be fetched: %s", d.URL, d.Error), true
	case failTooLarge:
		return finding(RuleTooLarge, at, "%s was not read: %s", d.URL, d.Error), true
	case failStopped:
		if stopped && c.stopReason() != "" {
			return finding(RuleNotExplored, at, "%s was not read: %s first", d.URL, c.stopReason()), true
		}
	}
	return validator.Finding{}, false
}

func (c *crawler) stopReason() string {
	switch context.Cause(c.ctx) {
	case errTimeLimit:
		return "the exploration reached its time limit"
	case errByteLimit:
		return "the exploration reached its limit of bytes read"
	}
	return "" // cancelled by the caller: nothing to report
}

func redirectChain(rs []Redirect) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, strconv.Itoa(r.Status))
	}
	return strings.Join(parts, ", ")
}

func ctPhrase(ct string) string {
	if ct == "" {
		return "no Content-Type"
	}
	return fmt.Sprintf("Content-Type %q", ct)
}

func isRSKind(k validator.Kind) bool {
	switch k {
	case KindHTML, KindRobots, KindPage, KindPackage:
		return false
	}
	return true
}

// xmlContentType reports whether a document's Content-Type is acceptable.
func xmlContentType(ct string, gzipped bool) bool {
	switch mediaType(ct) {
	case "application/xml", "text/xml":
		return true
	case "application/gzip", "application/x-gzip":
		return gzipped
	}
	return false
}

// expectedUp returns the URL d's up link must point to: the document
// above it in the hierarchy, "" when unknown.
func expectedUp(d *Document) string {
	p := d.Parent
	if p == nil {
		return ""
	}
	switch d.role {
	case roleCapList, roleCapDoc:
		return p.URL
	case rolePart, roleProbe, rolePackage, roleContents:
		if p.Parent != nil {
			return expectedUp(p)
		}
		if len(p.facts.up) > 0 {
			return p.facts.up[0].href
		}
	}
	return ""
}

// checkUp reports an up link that does not point to the parent (RX101).
func (c *crawler) checkUp(d *Document) {
	exp := expectedUp(d)
	if exp == "" || !d.facts.read || len(d.facts.up) == 0 {
		return
	}
	for _, u := range d.facts.up {
		if sameURL(u.href, exp) {
			return
		}
	}
	what := "document"
	if cp := validator.Capabilities[d.facts.capability]; cp != nil {
		what = cp.Name
	}
	if d.role == rolePackage {
		what = "package's Manifest"
	}
	c.addFinding(d, finding(RuleUpParent, d.facts.up[0].at, "rel=\"up\" points to %s, but this %s sits under %s; the up link points to the document above it in the hierarchy", d.facts.up[0].href, what, exp))
}

// checkIndexLink reports a part of an index without an index link to it
// (RX103) or with one pointing elsewhere (RX102).
func (c *crawler) checkIndexLink(d *Document) {
	if !d.facts.read {
		return
	}
	if len(d.facts.index) == 0 {
		c.addFinding(d, finding(RuleIndexLinkMissing, pos{}, "this document is listed by the index %s but has no <rs:ln rel=\"index\" href=\"%s\"/>; the link is recommended, so that Destinations can navigate to the index", d.Parent.URL, d.Parent.URL))
		return
	}
	for _, l := range d.facts.index {
		if sameURL(l.href, d.Parent.URL) {
			return
		}
	}
	c.addFinding(d, finding(RuleIndexParent, d.facts.index[0].at, "rel=\"index\" points to %s, but the index that lists this document is %s", d.facts.index[0].href, d.Parent.URL))
}

// checkCapability compares the capability a Source Description or
// Capability List announces with the document's own (RX104).
func (c *crawler) checkCapability(d *Document, r *ref) {
	want := r.cap
	lister := "Capability List"
	if d.role == roleCapList {
		want, lister = "capabilitylist", "Source Description"
	}
	if want == "" {
		return // RS327 reports a Capability List entry without capability
	}
	at := r.capAt
	if r.cap == "" {
		at = r.at
	}
	switch {
	case !d.facts.read || d.facts.capability == "":
		c.addFinding(d.Parent, finding(RuleCapabilityMismatch, at, "the %s announces %s as a %s, but it is %s", lister, d.URL, capName(want), kindPhrase(d)))
	case d.facts.capability != want:
		c.addFinding(d.Parent, finding(RuleCapabilityMismatch, at, "the %s announces %s as a %s (capability=%q), but the document declares capability=%q", lister, d.URL, capName(want), want, d.facts.capability))
	}
}

// checkPart compares an index entry with the part it points to.
func (c *crawler) checkPart(d *Document, r *ref) {
	idx := d.Parent
	if !d.facts.read {
		c.addFinding(idx, finding(RuleIndexPartCapability, r.at, "the index lists %s as a %s, but it is %s", d.URL, capName(idx.facts.capability), kindPhrase(d)))
		return
	}
	if d.facts.capability != idx.facts.capability {
		c.addFinding(idx, finding(RuleIndexPartCapability, r.at, "%s declares capability=%q, but the parts of this %s index have its capability, %q", d.URL, d.facts.capability, capName(idx.facts.capability), idx.facts.capability))
	}
	if d.facts.isIndex {
		c.addFinding(idx, finding(RuleIndexForm, r.at, "%s is itself a <sitemapindex>; the parts of an index are <urlset> documents, indexes do not nest", d.URL))
	}
	c.compareTimes(idx, r, d.facts.times, d.URL)
	if k := idx.facts.kind; k == validator.ChangeListIndex || k == validator.ChangeDumpIndex {
		part, entry := d.facts.times, r.times
		switch {
		case part.has[tUntil] && !entry.has[tUntil]:
			c.addFinding(idx, finding(RuleChangeIndexClosed, r.at, "%s is closed (until=%s), so its entry in the index must give until=%q", d.URL, part.val[tUntil], part.val[tUntil]))
		case !part.has[tUntil] && entry.has[tUntil]:
			c.addFinding(idx, finding(RuleChangeIndexClosed, entry.at[tUntil], "%s is open (it has no until), so its entry in the index must not give until", d.URL))
		}
	}
}

// compareTimes reports entry time attributes that differ from the target's
// own (RX107).
func (c *crawler) compareTimes(lister *Document, r *ref, own times, target string) {
	for i, name := range timeNames {
		if !r.times.has[i] || !own.has[i] || sameTime(r.times.val[i], own.val[i]) {
			continue
		}
		c.addFinding(lister, finding(RuleIndexPartTimes, r.times.at[i], "%s is %s here but %s in %s itself; an entry's time attributes repeat those of the document it points to", name, r.times.val[i], own.val[i], target))
	}
}

func sameTime(a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := validator.ParseDatetime(a)
	y, err2 := validator.ParseDatetime(b)
	return err1 == nil && err2 == nil && x.Time.Equal(y.Time)
}

// checkPackage compares a dump entry with the package it points to.
func (c *crawler) checkPackage(d *Document, r *ref) {
	dm, pf := d.Parent, d.pkg
	if pf == nil {
		return
	}
	if n := parseLength(r.length); n >= 0 && n != pf.size {
		c.addFinding(dm, finding(dump.RulePackageLength, r.lengthAt, "length is %d but the package %s has %d bytes", n, d.URL, pf.size))
	}
	if t := mediaType(r.typ); t != "" {
		switch {
		case t == "application/zip" && !pf.zip:
			c.addFinding(dm, finding(dump.RulePackageType, r.typAt, "type is application/zip but %s is not a ZIP file", d.URL))
		case t != "application/zip" && pf.zip:
			c.addFinding(dm, finding(dump.RulePackageType, r.typAt, "type is %s but %s is a ZIP file: its type is application/zip", r.typ, d.URL))
		}
	}
	digests, _ := validator.ParseHash(r.hash)
	for _, dg := range digests {
		if got, ok := pf.digests[dg.Alg]; ok && got != strings.ToLower(dg.Hex) {
			c.addFinding(dm, finding(dump.RulePackageHash, r.hashAt, "the %s digest of %s is %s, not %s", dg.Alg, d.URL, got, dg.Hex))
		}
	}
	if d.facts.read {
		c.compareTimes(dm, r, d.facts.times, "the Manifest of "+d.URL)
	}
	if r.contents != "" && d.fp != nil {
		c.mu.Lock()
		cd := c.docs[NormalizeURL(r.contents)]
		c.mu.Unlock()
		if cd != nil && cd.fp != nil && cd.fail == failNone {
			if diff := dump.Diff(cd.fp, d.fp); diff != "" {
				c.addFinding(dm, finding(dump.RuleContentsManifest, r.contentsAt, "the Manifest at %s differs from the manifest.xml in %s: %s", r.contents, d.URL, diff))
			}
		}
	}
}

// checkParents reports the documents that list d besides its parent (RX114).
func (c *crawler) checkParents(d *Document) {
	seen := map[*Document]bool{d.Parent: true}
	for _, r := range d.refs {
		if r.from == nil || !r.role.tree() || seen[r.from] || r.role == roleContents {
			continue
		}
		seen[r.from] = true
		c.addFinding(r.from, finding(RuleSeveralParents, r.at, "%s is also listed by %s; each document has one parent in the hierarchy", d.URL, d.Parent.URL))
	}
}

// reportedHere reports whether the document's own validation already
// reported, with one of the rules, a finding on the line of at: when an
// index's entries repeat its parts' times, as they should, the validator
// sees an order or gap problem in the index itself, and the same problem
// found from the parts would only be said twice.
func reportedHere(d *Document, at pos, rules ...string) bool {
	if d.Report == nil || at.Line == 0 {
		return false
	}
	for _, f := range d.Report.Findings {
		if f.Line == at.Line && slices.Contains(rules, f.Rule) {
			return true
		}
	}
	return false
}

// checkChangeIndex checks the Change Lists (or Change Dumps) of an index
// by their own from and until: order, openness, gaps (RX109, RX110).
func (c *crawler) checkChangeIndex(idx *Document) {
	var parts []*Document
	for _, p := range idx.Children {
		if p.role == rolePart && p.fail == failNone && p.facts.read {
			parts = append(parts, p)
		}
	}
	for i, p := range parts {
		r := p.treeRef()
		t := p.facts.times
		if i == 0 {
			continue
		}
		prev := parts[i-1]
		pt := prev.facts.times
		if !pt.has[tUntil] && !reportedHere(idx, prev.treeRef().at, "RS407") {
			c.addFinding(idx, finding(RuleChangeIndexOrder, prev.treeRef().at, "%s is open (no until) but is not the last part of the index; only the last may be open", prev.URL))
		}
		if !t.has[tFrom] || !pt.has[tFrom] {
			continue
		}
		a, errA := validator.ParseDatetime(pt.val[tFrom])
		b, errB := validator.ParseDatetime(t.val[tFrom])
		if errA == nil && errB == nil && b.Time.Before(a.Time) {
			if reportedHere(idx, r.at, "RS406") {
				continue
			}
			c.addFinding(idx, finding(RuleChangeIndexOrder, r.at, "%s (from %s) is listed after %s (from %s); an index lists its parts in forward chronological order", p.URL, t.val[tFrom], prev.URL, pt.val[tFrom]))
			continue
		}
		if pt.has[tUntil] && !sameTime(pt.val[tUntil], t.val[tFrom]) && !reportedHere(idx, r.at, "RS408") {
			u, errU := validator.ParseDatetime(pt.val[tUntil])
			word := "a gap"
			if errU == nil && errB == nil && b.Time.Before(u.Time) {
				word = "an overlap"
			}
			c.addFinding(idx, finding(RuleChangeIndexGap, r.at, "%s starts at %s but the previous part, %s, ends at %s: %s; each part starts where the previous one ends", p.URL, t.val[tFrom], prev.URL, pt.val[tUntil], word))
		}
	}
	if n := len(parts); n > 0 && idx.facts.times.has[tUntil] && !parts[n-1].facts.times.has[tUntil] {
		c.addFinding(idx, finding(RuleChangeIndexOrder, parts[n-1].treeRef().at, "the index is closed (until=%s) but its last part, %s, is open", idx.facts.times.val[tUntil], parts[n-1].URL))
	}
}

// checkDumpCoverage reports the resources of a Resource List that no
// package of the Resource Dump beside it contains (RX112), when both were
// read whole.
func (c *crawler) checkDumpCoverage(order []*Document) {
	incomplete := map[*scope]bool{}
	scopes := map[*scope]bool{}
	for _, d := range order {
		if d.scope == nil {
			continue
		}
		scopes[d.scope] = true
		if (d.inRL || d.inRD) && d.fail != failNone {
			incomplete[d.scope] = true
		}
	}
	c.mu.Lock()
	if c.stopped != "" {
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	for s := range scopes {
		s.pmu.Lock()
		ok := s.hasRL && s.hasRD && !incomplete[s]
		s.pmu.Unlock()
		s.mu.Lock()
		if !ok || s.dumped == 0 {
			s.mu.Unlock()
			continue
		}
		var missing []resFact
		for _, f := range s.rl {
			if !f.inDump {
				missing = append(missing, f)
			}
		}
		s.mu.Unlock()
		for _, f := range missing {
			c.addFinding(c.byID[f.doc], finding(RuleListDumpAgree, pos{Line: int(f.line)}, "this resource is in no package of the Resource Dump of the same Capability List; both describe the same set of resources"))
		}
	}
}
