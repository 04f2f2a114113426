package validator

import (
	"fmt"
	"strings"

	"github.com/rscheck/rscheck/validator/xmlscan"
)

// timeRow returns the Appendix A row of the document, and whether the
// document is a ResourceSync capability document with a row.
func timeRow(d *Doc) (TimeAttrs, bool) {
	if d.Cap == nil {
		return TimeAttrs{}, false
	}
	if d.IsIndex {
		if d.Cap.Index == "" {
			return TimeAttrs{}, false // wrong root: RS108 says so
		}
		return d.Cap.Index4, true
	}
	return d.Cap.List4, true
}

// docName names the document kind for messages: "a Change List Index".
func docName(d *Doc) string {
	if d.Cap == nil {
		return "this document"
	}
	n := d.Cap.Name
	if d.IsIndex && d.Cap.Index != "" {
		n += " Index"
	}
	return article(n) + " " + n
}

func article(s string) string {
	if s != "" && strings.ContainsRune("AEIOU", rune(s[0])) {
		return "an"
	}
	return "a"
}

// Appendix A and the capability sections.
var (
	ruleTopTimeRequired = &Rule{
		ID: "RS301", Name: "time-attribute-required", Severity: Error, Spec: specTimeAttrs,
		Doc: "The document-level <rs:md> has the time attribute Appendix A makes mandatory: at for snapshots, from for changes.",
		Run: func(p *Pass) {
			d := p.Doc
			row, ok := timeRow(d)
			if !ok || d.MD == nil {
				return
			}
			if row.TopAt == Mandatory && !d.MD.Has("at") {
				p.Reportf(d.MD, "%s must give the time its snapshot started in the at attribute of the document-level <rs:md>", docName(d))
			}
			if row.TopFrom == Mandatory && !d.MD.Has("from") {
				p.Reportf(d.MD, "%s must give the start of the period it covers in the from attribute of the document-level <rs:md>", docName(d))
			}
		},
	}
	ruleTopTimeForbidden = &Rule{
		ID: "RS302", Name: "time-attribute-misused", Severity: Error, Spec: specTimeAttrs,
		Doc: "The document-level <rs:md> does not use at/completed in change documents nor from/until in snapshot documents.",
		Run: func(p *Pass) {
			d := p.Doc
			row, ok := timeRow(d)
			if !ok || d.MD == nil {
				return
			}
			checkTimeAttrs(p, d.MD, row.TopAt, row.TopFrom, Forbidden, func(attr string) string {
				return fmt.Sprintf("%s does not use the %s attribute (Appendix A): %s", docName(d), attr, timeHint(attr))
			})
		},
	}
	ruleChildTime = &Rule{
		ID: "RS303", Name: "entry-time-attribute-misused", Severity: Error, Spec: specTimeAttrs,
		Doc: "Entries' <rs:md> use at/completed and from/until only where Appendix A allows them.",
		Run: func(p *Pass) {
			d := p.Doc
			row, ok := timeRow(d)
			if !ok {
				return
			}
			p.OnAttr(func(el *Element, a *xmlscan.Attr) {
				attr := a.Name.Local
				req := row.ChildFrom
				if attr == "at" || attr == "completed" {
					req = row.ChildAt
				}
				if !p.isEntryMD(el) || req != Forbidden {
					return
				}
				msg := fmt.Sprintf("the entries of %s do not use the %s attribute (Appendix A)", docName(d), attr)
				if d.Kind == ResourceList && (attr == "at" || attr == "completed") {
					msg += "; if this document lists Resource Lists, it is a Resource List Index and its root must be <sitemapindex>"
				}
				p.ReportAttrf(el, a, "%s", msg)
			}, "at", "completed", "from", "until")
		},
	}
	ruleChildFromRecommended = &Rule{
		ID: "RS304", Name: "entry-from-recommended", Severity: Warning, Spec: specTimeAttrs,
		Doc: "Entries of Change List Indexes, Change Dumps and Change Dump Indexes should give from (and until when closed).",
		Run: func(p *Pass) {
			d := p.Doc
			row, ok := timeRow(d)
			if !ok || row.ChildFrom != Recommended {
				return
			}
			p.OnEntry(func(e *Entry) {
				if e.MD == nil || !e.MD.Has("from") {
					p.Reportf(&e.Element, "this %s entry should have <rs:md from=\"…\"> (and until, once closed) giving the period it covers (Appendix A)", partNoun(d))
				}
			})
		},
	}
	ruleTimeUndefined = &Rule{
		ID: "RS305", Name: "time-attribute-undefined", Severity: Warning, Spec: specFormats,
		Doc: "Source Descriptions and Capability Lists have no time attributes; at, completed, from and until mean nothing there.",
		Run: func(p *Pass) {
			d := p.Doc
			row, ok := timeRow(d)
			if !ok || row.TopAt != Undefined {
				return
			}
			msg := func(attr string) string {
				return fmt.Sprintf("%s has no %s attribute in the specification; Destinations will ignore it", docName(d), attr)
			}
			if d.MD != nil {
				checkTimeAttrs(p, d.MD, Undefined, Undefined, Undefined, msg)
			}
			p.OnEntry(func(e *Entry) {
				if e.MD != nil {
					checkTimeAttrs(p, e.MD, Undefined, Undefined, Undefined, msg)
				}
			})
		},
	}
	ruleEntryMDRequired = &Rule{
		ID: "RS311", Name: "entry-md-required", Severity: Error, Spec: specFormats,
		Doc: "Entries of Capability Lists, Manifests, Change Lists and notifications must have an <rs:md> child.",
		Run: func(p *Pass) {
			d := p.Doc
			var need string
			switch d.Kind {
			case CapabilityList:
				need = "with the capability of the document it points to"
			case ResourceDumpManifest:
				need = "with the path of the bitstream in the package"
			case ChangeList, ChangeNotification:
				need = "with the change attribute"
			case ChangeDumpManifest:
				need = "with the change attribute and, unless deleted, the path of the bitstream"
			case FrameworkNotification:
				need = "with the change and capability attributes"
			default:
				return
			}
			p.OnEntry(func(e *Entry) {
				if e.MD == nil {
					p.Reportf(&e.Element, "every entry of %s must have an <rs:md> child %s", docName(d), need)
				}
			})
		},
	}
	ruleChangeRequired = &Rule{
		ID: "RS312", Name: "change-required", Severity: Error, Spec: specChangeList,
		Doc: "Each entry of a Change List, Change Dump Manifest or notification says its change: created, updated or deleted.",
		Run: func(p *Pass) {
			d := p.Doc
			switch d.Kind {
			case ChangeList, ChangeDumpManifest, ChangeNotification, FrameworkNotification:
			default:
				return
			}
			p.OnEntry(func(e *Entry) {
				if e.MD != nil && !e.MD.Has("change") {
					p.Reportf(e.MD, "the <rs:md> of every %s entry must have change=\"created\", \"updated\" or \"deleted\"", strings.TrimPrefix(docName(d), article(d.Cap.Name)+" "))
				}
			})
		},
	}
	ruleChangeMisplaced = &Rule{
		ID: "RS313", Name: "change-misplaced", Severity: Warning, Spec: specFormats,
		Doc: "The change attribute belongs to Change Lists, Change Dump Manifests and notifications only.",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Cap == nil || d.Cap.isArchive() {
				return
			}
			// The document's own rs:md never has a change, not even in a
			// Change List: its entries do.
			if d.MD != nil && d.MD.Has("change") {
				p.ReportAttrf(d.MD, d.MD.Attr("change"), "the change attribute describes a change to one resource; it has no meaning on the document's own <rs:md>")
			}
			switch d.Kind {
			case ChangeList, ChangeDumpManifest, ChangeNotification, FrameworkNotification:
				return
			}
			p.OnAttr(func(el *Element, a *xmlscan.Attr) {
				if p.isEntryMD(el) {
					p.ReportAttrf(el, a, "%s does not describe changes; the change attribute is used in Change Lists, Change Dump Manifests and notifications", docName(d))
				}
			}, "change")
		},
	}
	rulePathRequired = &Rule{
		ID: "RS314", Name: "path-required", Severity: Error, Spec: specResDumpMan,
		Doc: "Manifest entries give the bitstream's path in the package (except deleted changes in a Change Dump Manifest).",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Kind != ResourceDumpManifest && d.Kind != ChangeDumpManifest {
				return
			}
			p.OnEntry(func(e *Entry) {
				if e.MD == nil || e.MD.Has("path") {
					return
				}
				if d.Kind == ChangeDumpManifest && strings.TrimSpace(e.MD.Value("change")) == "deleted" {
					return
				}
				p.Reportf(e.MD, "this <rs:md> must have a path attribute giving where the bitstream is in the ZIP package, e.g. path=\"/resources/res1\"")
			})
		},
	}
	rulePathMisplaced = &Rule{
		ID: "RS315", Name: "path-misplaced", Severity: Warning, Spec: specFormats,
		Doc: "The path attribute of <rs:md> is used only in Resource Dump Manifests and Change Dump Manifests.",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Kind == ResourceDumpManifest || d.Kind == ChangeDumpManifest || (d.Cap != nil && d.Cap.isArchive()) {
				return
			}
			if d.Kind == Unknown || d.Kind == Sitemap || d.Kind == SitemapIndex {
				return
			}
			p.OnAttr(func(el *Element, a *xmlscan.Attr) {
				if p.isEntryMD(el) {
					p.ReportAttrf(el, a, "path locates a bitstream in a ZIP package; it is only used in Resource Dump Manifests and Change Dump Manifests, not in %s", docName(d))
				}
			}, "path")
		},
	}
	ruleManifestType = &Rule{
		ID: "RS316", Name: "manifest-type", Severity: Warning, Spec: specResDumpMan,
		Doc: "Manifest entries should give the bitstream's media type in the type attribute.",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Kind != ResourceDumpManifest && d.Kind != ChangeDumpManifest {
				return
			}
			p.OnEntry(func(e *Entry) {
				if e.MD == nil || e.MD.Has("type") || strings.TrimSpace(e.MD.Value("change")) == "deleted" {
					return
				}
				p.Reportf(e.MD, "the use of the type attribute is recommended in %s, so that Destinations know the bitstream's media type", docName(d))
			})
		},
	}
	ruleDumpTypeLength = &Rule{
		ID: "RS317", Name: "package-type-length", Severity: Warning, Spec: specResDump,
		Doc: "Entries of Resource Dumps and Change Dumps should give the package's type and length.",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Kind != ResourceDump && d.Kind != ChangeDump {
				return
			}
			p.OnEntry(func(e *Entry) {
				var missing []string
				for _, a := range []string{"type", "length"} {
					if !e.MD.Has(a) {
						missing = append(missing, a)
					}
				}
				if len(missing) > 0 {
					p.Reportf(&e.Element, "this package entry should have <rs:md> with the package's %s", strings.Join(missing, " and "))
				}
			})
		},
	}
	ruleDumpSameFormat = &Rule{
		ID: "RS318", Name: "package-same-format", Severity: Warning, Spec: specResDump,
		Doc: "A Resource Dump or Change Dump should point only to packages of the same format.",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Kind != ResourceDump && d.Kind != ChangeDump {
				return
			}
			first := ""
			p.OnEntry(func(e *Entry) {
				t := strings.ToLower(strings.TrimSpace(e.MD.Value("type")))
				if t == "" {
					return
				}
				if first == "" {
					first = t
				} else if t != first {
					p.ReportAttrf(e.MD, e.MD.Attr("type"), "this package is %s but earlier ones are %s; a dump should only point to packages of the same format", t, first)
				}
			})
		},
	}
	ruleDumpZip = &Rule{
		ID: "RS319", Name: "package-zip", Severity: Warning, Spec: specResDump,
		Doc: "ResourceSync recommends ZIP packages; other formats hurt interoperability.",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Kind != ResourceDump && d.Kind != ChangeDump {
				return
			}
			p.OnEntry(func(e *Entry) {
				t := strings.ToLower(strings.TrimSpace(e.MD.Value("type")))
				if t != "" && t != "application/zip" {
					p.ReportAttrf(e.MD, e.MD.Attr("type"), "the package is %s; ResourceSync recommends ZIP (application/zip), and Destinations of other communities may not read this format", t)
				}
			})
		},
	}
	ruleSDEntryCapability = &Rule{
		ID: "RS320", Name: "description-entries", Severity: Error, Spec: specSourceDesc,
		Doc: "The entries of a Source Description point to Capability Lists: their <rs:md>, if any, says capability=\"capabilitylist\".",
		Run: func(p *Pass) {
			if p.Doc.Kind != Description {
				return
			}
			p.OnEntry(func(e *Entry) {
				if e.MD == nil {
					return
				}
				if c := e.MD.Attr("capability"); c == nil {
					p.Reportf(e.MD, "the <rs:md> of a Source Description entry must have capability=\"capabilitylist\"")
				} else if strings.TrimSpace(c.Value) != "capabilitylist" {
					p.ReportAttrf(e.MD, c, "a Source Description lists Capability Lists only; capability=%q must be \"capabilitylist\" (other capabilities belong in a Capability List)", c.Value)
				}
			})
		},
	}
	ruleDescribedByEntry = &Rule{
		ID: "RS321", Name: "describedby-entry", Severity: Warning, Spec: specSourceDesc,
		Doc: "Each Capability List in a Source Description should link to a description of its set of resources (rel=\"describedby\").",
		Run: func(p *Pass) {
			if p.Doc.Kind != Description {
				return
			}
			p.OnEntry(func(e *Entry) {
				if len(e.LinksRel("describedby")) == 0 {
					p.Reportf(&e.Element, "a <rs:ln rel=\"describedby\"> pointing to a description of this set of resources is recommended")
				}
			})
		},
	}
	ruleDescribedByDoc = &Rule{
		ID: "RS322", Name: "describedby-document", Severity: Warning, Spec: specCapList,
		Doc: "Source Descriptions and Capability Lists should link to a description of the Source or set of resources (rel=\"describedby\").",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Kind != Description && d.Kind != CapabilityList {
				return
			}
			if len(d.LinksRel("describedby")) == 0 {
				what := "the set of resources"
				if d.Kind == Description {
					what = "the Source"
				}
				p.Reportf(d.MD, "a document-level <rs:ln rel=\"describedby\"> pointing to a description of %s is recommended", what)
			}
		},
	}
	ruleLastmodTop = &Rule{
		ID: "RS323", Name: "lastmod-omitted", Severity: Info, Spec: specCapList,
		Doc: "<lastmod> is omitted from Source Descriptions and Capability Lists unless kept up to date with the documents they list.",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Kind != Description && d.Kind != CapabilityList {
				return
			}
			p.OnEntry(func(e *Entry) {
				if e.Lastmod != nil {
					p.Reportf(e.Lastmod, "<lastmod> should be omitted from %s unless the Source updates it every time the listed document changes", docName(d))
				}
			})
		},
	}
	ruleSDEmpty = &Rule{
		ID: "RS324", Name: "description-empty", Severity: Warning, Spec: specSourceDesc,
		Doc: "A Source Description should list at least one Capability List.",
		Run: func(p *Pass) {
			if p.Doc.Kind != Description {
				return
			}
			p.OnEnd(func(s Stats) {
				if s.Entries == 0 {
					p.Reportf(&p.Doc.Root, "the Source Description lists no Capability List; it should have one <url> per set of resources")
				}
			})
		},
	}
	ruleUpLink = &Rule{
		ID: "RS325", Name: "up-link", Severity: Error, Spec: specNavigation,
		Doc: "Capability Lists link up to the Source Description, and capability documents to their Capability List (rel=\"up\").",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Cap == nil || d.Cap.isArchive() {
				return
			}
			switch d.Kind {
			case Description, DescriptionIndex, ChangeNotification, FrameworkNotification:
				return
			}
			if len(d.LinksRel("up")) == 0 {
				target := "its Capability List"
				if d.Kind == CapabilityList {
					target = "the Source Description"
				}
				p.Reportf(d.MD, "%s must have a document-level <rs:ln rel=\"up\" href=\"…\"> pointing to %s", docName(d), target)
			}
		},
	}
	ruleOneUpLink = &Rule{
		ID: "RS326", Name: "one-up-link", Severity: Warning, Spec: specNavigation,
		Doc: "A document has a single parent: one rel=\"up\" link.",
		Run: func(p *Pass) {
			if ups := p.Doc.LinksRel("up"); len(ups) > 1 {
				p.Reportf(ups[1], "the document has %d rel=\"up\" links; it resides under one parent, so Destinations cannot tell which to follow", len(ups))
			}
		},
	}
	ruleCapListEntries = &Rule{
		ID: "RS327", Name: "capabilitylist-entries", Severity: Error, Spec: specCapList,
		Doc: "Capability List entries give, in capability, the kind of capability document they point to.",
		Run: func(p *Pass) {
			if p.Doc.Kind != CapabilityList {
				return
			}
			p.OnEntry(func(e *Entry) {
				if e.MD == nil {
					return // RS311
				}
				c := e.MD.Attr("capability")
				if c == nil {
					p.Reportf(e.MD, "the <rs:md> of a Capability List entry must have a capability attribute saying what the document at <loc> is")
					return
				}
				v := strings.TrimSpace(c.Value)
				if Capabilities[v] != nil && !capabilityListEntries[v] {
					p.ReportAttrf(e.MD, c, "a Capability List does not list %s documents; it lists Resource Lists, Resource Dumps, Change Lists, Change Dumps and notification channels", v)
				}
			})
		},
	}
	ruleCapListUnknown = &Rule{
		ID: "RS328", Name: "capabilitylist-entry-known", Severity: Warning, Spec: specCapList,
		Doc: "Capability List entries should use capabilities defined by the ResourceSync specifications.",
		Run: func(p *Pass) {
			if p.Doc.Kind != CapabilityList {
				return
			}
			p.OnEntry(func(e *Entry) {
				if c := e.MD.Attr("capability"); c != nil && Capabilities[strings.TrimSpace(c.Value)] == nil {
					p.ReportAttrf(e.MD, c, "capability %q is not defined by the ResourceSync specifications%s", c.Value, suggestCapability(c.Value))
				}
			})
		},
	}
	ruleCapListUnique = &Rule{
		ID: "RS329", Name: "capabilitylist-unique", Severity: Error, Spec: specCapList,
		Doc: "A Capability List contains only one entry per capability.",
		Run: func(p *Pass) {
			if p.Doc.Kind != CapabilityList {
				return
			}
			first := map[string]int{}
			p.OnEntry(func(e *Entry) {
				c := e.MD.Attr("capability")
				if c == nil {
					return
				}
				v := strings.TrimSpace(c.Value)
				if n, dup := first[v]; dup {
					p.ReportAttrf(e.MD, c, "capability %q is already listed by entry %d; a Capability List must only contain one entry per capability (use an index to group several documents)", v, n)
					return
				}
				first[v] = e.N
			})
		},
	}
	ruleDuplicateLoc = &Rule{
		ID: "RS330", Name: "duplicate-loc", Severity: Warning, Spec: specResList,
		Doc: "A snapshot lists each resource once: the same <loc> twice in a Resource List, Manifest or index is ambiguous.",
		Run: func(p *Pass) {
			d := p.Doc
			switch {
			case d.Kind == ResourceList, d.Kind == ResourceDumpManifest, d.Kind == Description, d.Kind == CapabilityList:
			case d.IsIndex && d.Cap != nil:
			default:
				return
			}
			// 64-bit keys instead of the URIs: 50,000 entries cost about
			// 1 MB instead of several, and a collision (about 1e-10 at
			// that size) would at worst make one false duplicate warning.
			var first keySet
			p.OnEntry(func(e *Entry) {
				loc := e.LocText()
				if loc == "" {
					return
				}
				if n, dup := first.add(fnv64a(loc), int32(e.N)); dup {
					p.ReportTextf(e.Loc, "%s is already listed by entry %d; %s lists each %s once", loc, n, docName(d), entryNoun(d))
				}
			})
		},
	}
	ruleChangeDatetimeHint = &Rule{
		ID: "RS331", Name: "change-datetime", Severity: Info, Spec: specChangeList,
		Doc: "A datetime on every change lets Destinations tell which changes they have already processed.",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Kind != ChangeList && d.Kind != ChangeDumpManifest {
				return
			}
			missing := 0
			var first *Element
			p.OnEntry(func(e *Entry) {
				if e.MD != nil && !e.MD.Has("datetime") {
					if missing == 0 {
						first = e.MD.Detach()
					}
					missing++
				}
			})
			p.OnEnd(func(Stats) {
				if missing == 1 {
					p.Reportf(first, "this change has no datetime attribute; giving the datetime of every change makes it easy for Destinations to find where they stopped")
				} else if missing == 2 {
					p.Reportf(first, "this change and 1 other have no datetime attribute; giving the datetime of every change makes it easy for Destinations to find where they stopped")
				} else if missing > 2 {
					p.Reportf(first, "this change and %d others have no datetime attribute; giving the datetime of every change makes it easy for Destinations to find where they stopped", missing-1)
				}
			})
		},
	}
)

// checkTimeAttrs reports the time attributes of md whose requirement level
// (derived from atReq and fromReq, with completed following at and until
// following from) equals level.
func checkTimeAttrs(p *Pass, md *Element, atReq, fromReq, level Req, msg func(attr string) string) {
	req := map[string]Req{"at": atReq, "completed": atReq, "from": fromReq, "until": fromReq}
	for _, attr := range []string{"at", "completed", "from", "until"} {
		if a := md.Attr(attr); a != nil && req[attr] == level {
			p.ReportAttrf(md, a, "%s", msg(attr))
		}
	}
}

func timeHint(attr string) string {
	switch attr {
	case "at", "completed":
		return "change documents give the period they cover with from and until"
	}
	return "snapshot documents give the time of the snapshot with at and completed"
}

// partNoun names what an entry of a document with recommended entry-level
// from describes: "Change List" in a Change List Index, "package" in a
// Change Dump.
func partNoun(d *Doc) string {
	if d.IsIndex {
		return d.Cap.Name
	}
	return strings.ToLower(d.Cap.Entries)
}

func entryNoun(d *Doc) string {
	if d.IsIndex {
		return "document"
	}
	if d.Cap != nil {
		return strings.ToLower(d.Cap.Entries)
	}
	return "resource"
}

// fnv64a is the 64-bit FNV-1a hash of s, computed without allocating.
func fnv64a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// keySet maps 64-bit keys (already hashes) to the entry that had them
// first: an open-addressing table with linear probing, because Go maps
// hash even integer keys, slowly in WebAssembly.
type keySet struct {
	keys  []uint64 // 0 marks a free slot (key 0 is stored as 1)
	vals  []int32
	count int
}

// add records k for entry n, or returns the entry that recorded it first.
func (s *keySet) add(k uint64, n int32) (int32, bool) {
	if k == 0 {
		k = 1
	}
	if 2*(s.count+1) > len(s.keys) {
		s.grow()
	}
	mask := uint64(len(s.keys) - 1)
	for i := k & mask; ; i = (i + 1) & mask {
		switch s.keys[i] {
		case 0:
			s.keys[i], s.vals[i] = k, n
			s.count++
			return 0, false
		case k:
			return s.vals[i], true
		}
	}
}

func (s *keySet) grow() {
	old, oldVals := s.keys, s.vals
	size := max(1024, 2*len(old))
	s.keys, s.vals, s.count = make([]uint64, size), make([]int32, size), 0
	for i, k := range old {
		if k != 0 {
			s.add(k, oldVals[i])
		}
	}
}
