package validator

import (
	"strings"

	"github.com/rscheck/rscheck/validator/xmlscan"
)

// XML-level rules. Their findings are produced by the driver, not by a Run
// function: they describe input that could not be read as a document.
var (
	ruleWellFormed = &Rule{
		ID: "XML001", Name: "well-formed", Severity: Error, Spec: specXML,
		Doc: "The document must be well-formed XML 1.0 with namespaces; reading stops at the first error.",
	}
	ruleNotXML = &Rule{
		ID: "XML002", Name: "not-xml", Severity: Error, Spec: specXML,
		Doc: "The input must be an XML document (not empty, not HTML, not binary data).",
	}
	ruleDoctype = &Rule{
		ID: "XML003", Name: "doctype", Severity: Warning, Spec: specXML,
		Doc: "A Sitemap should not have a DOCTYPE; its entities are never expanded by rscheck, and many consumers refuse them.",
		Run: func(p *Pass) {
			if d := p.Doc.Doctype; d != nil {
				p.Reportf(d, "the document has a DOCTYPE declaration; Sitemaps do not use one, and entities it declares are not expanded (by rscheck, nor safely by Destinations)")
			}
		},
	}
	ruleUTF8 = &Rule{
		ID: "XML004", Name: "utf8", Severity: Error, Spec: specSitemapsEnc,
		Doc: "A Sitemap must be UTF-8 encoded.",
		Run: func(p *Pass) {
			// US-ASCII is accepted: the scanner rejects any byte above
			// 0x7F in a document declared so, which makes it UTF-8 too.
			if enc := p.Doc.Encoding; enc != "UTF-8" && enc != "US-ASCII" {
				p.Reportf(nil, "the document is encoded in %s; the Sitemap protocol requires UTF-8", p.Doc.Encoding)
			}
		},
	}
)

// Structure rules: root, document-level rs:md, rs:ln (§7).
var (
	ruleRoot = &Rule{
		ID: "RS101", Name: "root-element", Severity: Error, Spec: specFormats,
		Doc: "The root element must be <urlset> or <sitemapindex> in the Sitemap namespace.",
		Run: func(p *Pass) {
			root := &p.Doc.Root
			n := root.Name
			switch {
			case n.Local != "urlset" && n.Local != "sitemapindex":
				p.Reportf(root, "the root element is <%s>; a ResourceSync document is a Sitemap whose root is <urlset> or <sitemapindex>", qname(n))
			case n.Space == "":
				p.Reportf(root, "<%s> is in no namespace; it must be in the Sitemap namespace: xmlns=%q", n.Local, SitemapNS)
			case n.Space != SitemapNS:
				p.Reportf(root, "<%s> is in the namespace %q; the Sitemap namespace is %q", n.Local, n.Space, SitemapNS)
			}
		},
	}
	rulePlainSitemap = &Rule{
		ID: "RS100", Name: "plain-sitemap", Severity: Info, Spec: specFormats,
		Doc: "A Sitemap without ResourceSync metadata is recognised, and checked only against the Sitemap protocol.",
		Run: func(p *Pass) {
			d := p.Doc
			if (d.Kind != Sitemap && d.Kind != SitemapIndex) || len(d.Links) > 0 {
				return
			}
			rs := false
			p.OnEntry(func(e *Entry) { rs = rs || e.MD != nil || len(e.Links) > 0 })
			p.OnEnd(func(Stats) {
				if rs {
					return // RS102: a ResourceSync document without its rs:md
				}
				if len(d.ForeignRS) > 0 {
					return // RS103: ResourceSync elements in the wrong namespace
				}
				what := "Sitemap"
				if d.IsIndex {
					what = "Sitemap index"
				}
				p.Reportf(&d.Root, "this is a plain %s, not a ResourceSync document: it has no <rs:md capability=\"…\"> child of <%s>", what, d.Root.Name.Local)
			})
		},
	}
	ruleMissingMD = &Rule{
		ID: "RS102", Name: "document-md", Severity: Error, Spec: specFormats,
		Doc: "A ResourceSync document must have an <rs:md> child of the root element, giving its capability.",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Kind != Sitemap && d.Kind != SitemapIndex {
				return
			}
			if len(d.Links) > 0 {
				p.Reportf(&d.Root, "the document uses ResourceSync links but has no <rs:md capability=\"…\"> child of <%s>; every ResourceSync document must have one", d.Root.Name.Local)
				return
			}
			reported := false
			p.OnEntry(func(e *Entry) {
				if !reported && (e.MD != nil || len(e.Links) > 0) {
					reported = true
					p.Reportf(&e.Element, "entries carry ResourceSync metadata but the document has no <rs:md capability=\"…\"> child of <%s>; every ResourceSync document must have one", d.Root.Name.Local)
				}
			})
		},
	}
	ruleRSNamespace = &Rule{
		ID: "RS103", Name: "rs-namespace", Severity: Error, Spec: specFormats,
		Doc: "ResourceSync elements must be in the namespace http://www.openarchives.org/rs/terms/ exactly.",
		Run: func(p *Pass) {
			report := func(el *Element) {
				p.Reportf(el, "<%s> is in the namespace %q; the ResourceSync namespace is %q exactly (with the trailing slash)", qname(el.Name), el.Name.Space, RSNS)
			}
			// The root's children: those before the first entry now, those
			// after the entries (misplaced too) at the end.
			reported := 0
			flush := func() {
				for ; reported < len(p.Doc.ForeignRS); reported++ {
					report(p.Doc.ForeignRS[reported])
				}
			}
			flush()
			p.OnEntry(func(e *Entry) {
				for _, el := range e.ForeignRS {
					report(el)
				}
			})
			p.OnEnd(func(Stats) { flush() })
		},
	}
	ruleOneDocMD = &Rule{
		ID: "RS104", Name: "one-document-md", Severity: Error, Spec: specFormats,
		Doc: "The root element has exactly one <rs:md> child.",
		Run: func(p *Pass) {
			if p.Doc.MDs > 1 {
				p.Reportf(p.Doc.ExtraMDs[0], "the root element has %d <rs:md> children; it must have exactly one (the first, line %d, says what the document is)", p.Doc.MDs, p.Doc.MD.Pos.Line)
			}
		},
	}
	ruleCapabilityAttr = &Rule{
		ID: "RS105", Name: "capability-required", Severity: Error, Spec: specFormats,
		Doc: "The document-level <rs:md> must have a capability attribute.",
		Run: func(p *Pass) {
			md := p.Doc.MD
			if md == nil || md.Has("capability") {
				return
			}
			for i := range md.Attrs {
				if a := &md.Attrs[i]; a.Name.Local == "capability" {
					// §7: "these attributes must not have an XML Namespace prefix".
					p.ReportAttrf(md, a, "the capability attribute is written %s; ResourceSync attributes must not have a namespace prefix: write capability=%q", qname(a.Name), a.Value)
					return
				}
			}
			p.Reportf(md, "the document-level <rs:md> has no capability attribute; it must say what the document is (resourcelist, changelist, …)")
		},
	}
	ruleCapabilityKnown = &Rule{
		ID: "RS106", Name: "capability-known", Severity: Warning, Spec: specFormats,
		Doc: "The capability value should be one defined by the ResourceSync specifications.",
		Run: func(p *Pass) {
			md := p.Doc.MD
			if md == nil || !md.Has("capability") {
				return
			}
			a := md.Attr("capability")
			if Capabilities[strings.TrimSpace(a.Value)] != nil {
				return // known (Doc.Cap is nil when the root is not a Sitemap)
			}
			p.ReportAttrf(md, a, "capability %q is not defined by the ResourceSync specifications%s", a.Value, suggestCapability(a.Value))
		},
	}
	ruleCapabilitySpace = &Rule{
		ID: "RS107", Name: "capability-whitespace", Severity: Error, Spec: specFormats,
		Doc: "Capability values must be written exactly, without surrounding whitespace.",
		Run: func(p *Pass) {
			p.OnAttr(func(el *Element, a *xmlscan.Attr) {
				if el.Name.Local == "md" && a.Value != strings.TrimSpace(a.Value) {
					p.ReportAttrf(el, a, "capability %q has surrounding whitespace; Destinations compare the value exactly", a.Value)
				}
			}, "capability")
		},
	}
	ruleIndexAllowed = &Rule{
		ID: "RS108", Name: "urlset-required", Severity: Error, Spec: specStructure,
		Doc: "Manifests and notifications must use <urlset>, never <sitemapindex>.",
		Run: func(p *Pass) {
			d := p.Doc
			// A Capability List as an index is a SHOULD NOT (§9): RS112.
			if d.IsIndex && d.Cap != nil && d.Cap.Index == "" && d.Kind != CapabilityList {
				p.Reportf(&d.Root, "a %s must have the <urlset> root element; <sitemapindex> is only for indexes of Resource Lists, Resource Dumps, Change Lists, Change Dumps and Source Descriptions", d.Cap.Name)
			}
		},
	}
	ruleCapListIndex = &Rule{
		ID: "RS112", Name: "capabilitylist-urlset", Severity: Warning, Spec: specCapList,
		Doc: "A Capability List should be a <urlset>: ResourceSync defines too few capabilities to need a <sitemapindex>.",
		Run: func(p *Pass) {
			d := p.Doc
			if d.IsIndex && d.Kind == CapabilityList {
				p.Reportf(&d.Root, "a Capability List should not be a <sitemapindex>: it lists one entry per capability, which never approaches the limits of one <urlset> document")
			}
		},
	}
	ruleOneEntryMD = &Rule{
		ID: "RS109", Name: "one-entry-md", Severity: Error, Spec: specFormats,
		Doc: "An entry has at most one <rs:md> child: the element is not repeatable.",
		Run: func(p *Pass) {
			p.OnEntry(func(e *Entry) {
				if e.MDs > 1 {
					p.Reportf(&e.Element, "this <%s> has %d <rs:md> children; <rs:md> is not repeatable, merge the attributes into one", e.Name.Local, e.MDs)
				}
			})
		},
	}
	ruleEntryElement = &Rule{
		ID: "RS111", Name: "entry-element", Severity: Error, Spec: specStructure,
		Doc: "A <urlset> holds <url> entries and a <sitemapindex> holds <sitemap> entries; an index served as <urlset> is not an index.",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Kind == Unknown {
				return
			}
			reported := false
			p.OnEntry(func(e *Entry) {
				if reported {
					return
				}
				switch {
				case d.IsIndex && e.Name.Local == "url":
					p.Reportf(&e.Element, "a <sitemapindex> lists <sitemap> entries, not <url>; if this document lists resources, its root must be <urlset>")
				case !d.IsIndex && e.Name.Local == "sitemap":
					p.Reportf(&e.Element, "a <urlset> lists <url> entries, not <sitemap>; if this document is an index of other documents, its root must be <sitemapindex>")
				default:
					return
				}
				reported = true
			})
		},
	}
	ruleLinkAttrs = &Rule{
		ID: "RS110", Name: "link-rel-href", Severity: Error, Spec: specFormats,
		Doc: "Every <rs:ln> must have a rel and an href attribute.",
		Run: func(p *Pass) {
			check := func(l *Element) {
				switch {
				case !l.Has("rel") && !l.Has("href"):
					p.Reportf(l, "<rs:ln> has neither rel nor href; both are mandatory")
				case !l.Has("rel"):
					p.Reportf(l, "<rs:ln href=%q> has no rel attribute; the relation type is mandatory", l.Value("href"))
				case !l.Has("href"):
					p.Reportf(l, "<rs:ln rel=%q> has no href attribute; the link target is mandatory", l.Value("rel"))
				}
			}
			for _, l := range p.Doc.Links {
				check(l)
			}
			p.OnLink(func(_ *Entry, l *Element, _ string) { check(l) })
		},
	}
)

// suggestCapability proposes the defined capability closest to v.
func suggestCapability(v string) string {
	norm := strings.ToLower(strings.NewReplacer("-", "", "_", "", " ", "").Replace(v))
	for c := range Capabilities {
		if strings.ReplaceAll(c, "-", "") == norm {
			return "; did you mean " + `"` + c + `"?`
		}
	}
	return " (defined: description, capabilitylist, resourcelist, resourcedump, resourcedump-manifest, changelist, changedump, changedump-manifest, change-notification, framework-notification and the -archive capabilities)"
}
