package validator

import (
	"strings"
)

// forEachEntryLink calls fn for every link of every entry (see Pass.OnLink).
func forEachEntryLink(p *Pass, fn func(e *Entry, l *Element, rel string)) { p.OnLink(fn) }

// Linking to related resources (§14) and links with a structural role.
var (
	rulePatchType = &Rule{
		ID: "RS501", Name: "patch-type", Severity: Error, Spec: specPatch,
		Doc: "A patch link (rel=\"http://www.openarchives.org/rs/terms/patch\") must give the patch's media type in type.",
		Run: func(p *Pass) {
			forEachEntryLink(p, func(e *Entry, l *Element, rel string) {
				if rel == RelPatch && !l.Has("type") {
					p.Reportf(l, "a patch link must have a type attribute with a media type that unambiguously says how to apply the patch (e.g. application/json-patch+json)")
				}
			})
		},
	}
	rulePatchPlace = &Rule{
		ID: "RS502", Name: "patch-placement", Severity: Error, Spec: specPatch,
		Doc: "Patch links are only applicable to Change Lists and Change Dumps (their Manifests) and change notifications.",
		Run: func(p *Pass) {
			d := p.Doc
			switch d.Kind {
			case ChangeList, ChangeDumpManifest, ChangeNotification, Unknown, UnknownCapability, Sitemap, SitemapIndex:
				return
			}
			forEachEntryLink(p, func(e *Entry, l *Element, rel string) {
				switch {
				case rel != RelPatch:
				case d.Kind == ChangeDump:
					p.Reportf(l, "a Change Dump entry describes a package, not a change: the patch link belongs to the change's entry in the package's Change Dump Manifest, with the path of the patch in the package")
				default:
					p.Reportf(l, "patch links describe the difference between versions: they apply to Change Lists and Change Dumps, not to %s", docName(d))
				}
			})
		},
	}
	rulePatchPath = &Rule{
		ID: "RS503", Name: "patch-path", Severity: Error, Spec: specPatch,
		Doc: "In a Change Dump Manifest, a patch link has the path of the patch in the package.",
		Run: func(p *Pass) {
			if p.Doc.Kind != ChangeDumpManifest {
				return
			}
			forEachEntryLink(p, func(e *Entry, l *Element, rel string) {
				if rel == RelPatch && !l.Has("path") {
					p.Reportf(l, "a patch link in a Change Dump Manifest must have a path attribute locating the patch in the ZIP package")
				}
			})
		},
	}
	ruleAlternateType = &Rule{
		ID: "RS504", Name: "alternate-type", Severity: Warning, Spec: specAlternate,
		Doc: "A link to an alternate representation should give its media type.",
		Run: func(p *Pass) {
			forEachEntryLink(p, func(e *Entry, l *Element, rel string) {
				if rel == "alternate" && !l.Has("type") {
					p.Reportf(l, "a rel=\"alternate\" link should have a type attribute giving the media type of the alternate representation")
				}
			})
		},
	}
	ruleTimegateAttrs = &Rule{
		ID: "RS505", Name: "timegate-attributes", Severity: Warning, Spec: specVersions,
		Doc: "A link to a Memento TimeGate should carry no attributes other than rel and href: the others are meaningless for TimeGates.",
		Run: func(p *Pass) {
			forEachEntryLink(p, func(e *Entry, l *Element, rel string) {
				if rel != "timegate" {
					return
				}
				for i := range l.Attrs {
					a := &l.Attrs[i]
					if a.Name.Space == "" && a.Name.Local != "rel" && a.Name.Local != "href" {
						p.ReportAttrf(l, a, "%s is meaningless on a link to a TimeGate and should not be used", a.Name.Local)
					}
				}
			})
		},
	}
	ruleMementoModified = &Rule{
		ID: "RS506", Name: "memento-modified", Severity: Warning, Spec: specVersions,
		Doc: "A link to a memento (prior version) should give the version's last modification time in modified.",
		Run: func(p *Pass) {
			forEachEntryLink(p, func(e *Entry, l *Element, rel string) {
				if rel == "memento" && !l.Has("modified") {
					p.Reportf(l, "a rel=\"memento\" link should have a modified attribute with the last modification datetime of that version")
				}
			})
		},
	}
	ruleDuplicateAttrs = &Rule{
		ID: "RS507", Name: "mirror-attributes", Severity: Warning, Spec: specMirror,
		Doc: "Mirror links (rel=\"duplicate\") should omit encoding, hash, length and type: a mirror has the resource's own.",
		Run: func(p *Pass) {
			forEachEntryLink(p, func(e *Entry, l *Element, rel string) {
				if rel != "duplicate" {
					return
				}
				for _, n := range []string{"encoding", "hash", "length", "type"} {
					a := l.Attr(n)
					switch {
					case a == nil:
					case !e.MD.Has(n):
						p.ReportAttrf(l, a, "%s should be omitted from a mirror link: a mirror is a duplicate, so its %s is the resource's; give it on the entry's <rs:md>", n, n)
					case e.MD.Value(n) == a.Value:
						p.ReportAttrf(l, a, "%s repeats the value of the resource's <rs:md>; a mirror is a duplicate, so it should be omitted from the rs:ln", n)
					default:
						p.ReportAttrf(l, a, "%s=%q differs from the resource's %s=%q, yet a mirror is a duplicate with the same %s; omit it from the rs:ln (and check the mirror)", n, a.Value, n, e.MD.Value(n), n)
					}
				}
			})
		},
	}
	ruleContentsPlace = &Rule{
		ID: "RS508", Name: "contents-placement", Severity: Warning, Spec: specResDump,
		Doc: "A contents link points from a dump's package entry to its Manifest; elsewhere it means nothing.",
		Run: func(p *Pass) {
			d := p.Doc
			switch d.Kind {
			case ResourceDump, ChangeDump, Unknown, UnknownCapability, Sitemap, SitemapIndex:
				return
			}
			if d.Cap != nil && d.Cap.isArchive() {
				return
			}
			forEachEntryLink(p, func(e *Entry, l *Element, rel string) {
				if rel == "contents" {
					p.Reportf(l, "rel=\"contents\" links a Resource Dump or Change Dump package to its Manifest; it has no meaning in %s", docName(d))
				}
			})
		},
	}
	ruleHubPlace = &Rule{
		ID: "RS509", Name: "hub-placement", Severity: Warning, Spec: specCNAdvertise,
		Doc: "A hub link belongs to a notification channel entry of a Capability List.",
		Run: func(p *Pass) {
			d := p.Doc
			forEachEntryLink(p, func(e *Entry, l *Element, rel string) {
				if rel != "hub" {
					return
				}
				c := strings.TrimSpace(e.MD.Value("capability"))
				if d.Kind != CapabilityList || (c != "change-notification" && c != "framework-notification") {
					p.Reportf(l, "rel=\"hub\" gives the WebSub hub of a notification channel; it belongs to a change-notification or framework-notification entry of a Capability List")
				}
			})
		},
	}
	ruleEntryUp = &Rule{
		ID: "RS510", Name: "navigation-link-placement", Severity: Warning, Spec: specNavigation,
		Doc: "Navigation links (up, index) are children of the root element, except index links in framework notifications.",
		Run: func(p *Pass) {
			d := p.Doc
			forEachEntryLink(p, func(e *Entry, l *Element, rel string) {
				if rel == "up" || (rel == "index" && d.Kind != FrameworkNotification) {
					p.Reportf(l, "rel=%q is a navigation link between documents: it is a child of <%s>, not of an entry", rel, d.Root.Name.Local)
				}
			})
		},
	}
	ruleOneVia = &Rule{
		ID: "RS512", Name: "one-via-link", Severity: Warning, Spec: specRepublish,
		Doc: "A republished resource has one via link, to the original Source: aggregators in a chain keep it rather than adding their own.",
		Run: func(p *Pass) {
			p.OnLink(func(e *Entry, l *Element, rel string) {
				if rel != "via" {
					return
				}
				if vias := e.LinksRel("via"); len(vias) > 1 && vias[1] == l {
					p.Reportf(l, "this entry has %d rel=\"via\" links; an aggregator should maintain only the existing via link, which points to the resource at the original Source", len(vias))
				}
			})
		},
	}
	ruleIndexLinkPlace = &Rule{
		ID: "RS511", Name: "index-link-target", Severity: Warning, Spec: specNavigation,
		Doc: "Only documents that can reside under an index (lists, dumps) have a document-level index link.",
		Run: func(p *Pass) {
			d := p.Doc
			if d.Cap == nil {
				return
			}
			switch d.Kind {
			case CapabilityList, ResourceDumpManifest, ChangeDumpManifest, ChangeNotification, FrameworkNotification:
				for _, l := range d.LinksRel("index") {
					p.Reportf(l, "%s never resides under an index, so its rel=\"index\" link points nowhere meaningful", docName(d))
				}
			}
			if d.IsIndex {
				for _, l := range d.LinksRel("index") {
					p.Reportf(l, "an index does not reside under another index; rel=\"index\" links go from a list to its index")
				}
			}
		},
	}
)
