package validator

import (
	"strconv"
	"strings"

	"github.com/rscheck/rscheck/validator/xmlscan"
)

// timeAttrs are the attributes whose value is a W3C Datetime (§7).
var timeAttrs = []string{"at", "completed", "from", "until", "datetime", "modified"}

// forEachAttr calls fn for every unprefixed attribute of every rs:md and
// rs:ln whose local name is one of names (see Pass.OnAttr).
func forEachAttr(p *Pass, names []string, fn func(el *Element, a *xmlscan.Attr)) {
	p.OnAttr(fn, names...)
}

// Value rules (§7).
var (
	ruleDatetime = &Rule{
		ID: "RS201", Name: "w3c-datetime", Severity: Error, Spec: specFormats,
		Doc: "Time attributes and <lastmod> must be W3C Datetimes; a time of day needs a time zone designator.",
		Run: func(p *Pass) {
			forEachAttr(p, timeAttrs, func(el *Element, a *xmlscan.Attr) {
				if _, err := p.datetime(a.Value); err != nil {
					p.ReportAttrf(el, a, "%s: %v", a.Name.Local, err)
				}
			})
			if isPlainSitemap(p.Doc) {
				return // SM107: the Sitemaps protocol only says "should"
			}
			p.OnEntry(func(e *Entry) {
				if e.Lastmod == nil {
					return
				}
				if _, err := p.datetime(e.Lastmod.Text); err != nil {
					p.ReportTextf(e.Lastmod, "<lastmod>: %v", err)
				}
			})
		},
	}
	ruleSitemapLastmod = &Rule{
		ID: "SM107", Name: "lastmod-w3c", Severity: Warning, Spec: specSitemaps,
		Doc: "In a plain Sitemap, <lastmod> should be a W3C Datetime (ResourceSync documents must: RS201).",
		Run: func(p *Pass) {
			if !isPlainSitemap(p.Doc) {
				return
			}
			p.OnEntry(func(e *Entry) {
				if e.Lastmod == nil {
					return
				}
				if _, err := p.datetime(e.Lastmod.Text); err != nil {
					p.ReportTextf(e.Lastmod, "<lastmod>: %v", err)
				}
			})
		},
	}
	ruleDatetimeUTC = &Rule{
		ID: "RS202", Name: "datetime-utc", Severity: Warning, Spec: specFormats,
		Doc: "Datetimes should be complete and in UTC: YYYY-MM-DDThh:mm:ss[.s]Z.",
		Run: func(p *Pass) {
			check := func(v string) (string, bool) {
				d, err := p.datetime(v)
				if err != nil || d.Complete() {
					return "", false
				}
				if d.HasTime && d.Seconds {
					return "is not in UTC; the specification recommends UTC with \"Z\": " + d.Time.Format("2006-01-02T15:04:05.999999999Z"), true
				}
				return "is not a complete date and time; the specification recommends YYYY-MM-DDThh:mm:ss[.s]Z", true
			}
			forEachAttr(p, timeAttrs, func(el *Element, a *xmlscan.Attr) {
				if msg, bad := check(a.Value); bad {
					p.ReportAttrf(el, a, "%s=%q %s", a.Name.Local, a.Value, msg)
				}
			})
			switch p.Doc.Kind {
			case Sitemap, SitemapIndex, Unknown:
				// The Sitemap protocol lets a plain Sitemap's <lastmod>
				// omit the time ("YYYY-MM-DD"); the recommendation is
				// ResourceSync's.
				return
			}
			p.OnEntry(func(e *Entry) {
				if e.Lastmod == nil {
					return
				}
				if msg, bad := check(e.Lastmod.Text); bad {
					p.ReportTextf(e.Lastmod, "<lastmod> %q %s", strings.TrimSpace(e.Lastmod.Text), msg)
				}
			})
		},
	}
	ruleHash = &Rule{
		ID: "RS203", Name: "hash-syntax", Severity: Error, Spec: specFormats,
		Doc: "hash is a space-separated list of alg:hexdigest with hex digests of the algorithm's length.",
		Run: func(p *Pass) {
			forEachAttr(p, []string{"hash"}, func(el *Element, a *xmlscan.Attr) {
				probs := p.hashProblems(a.Value)
				for _, pr := range probs {
					if !pr.Unknown {
						p.ReportAttrf(el, a, "%s", pr.Msg)
					}
				}
			})
		},
	}
	ruleHashAlg = &Rule{
		ID: "RS204", Name: "hash-algorithm", Severity: Warning, Spec: specFormats,
		Doc: "hash algorithms should be registered hash function names (md5, sha-1, sha-256, …).",
		Run: func(p *Pass) {
			forEachAttr(p, []string{"hash"}, func(el *Element, a *xmlscan.Attr) {
				probs := p.hashProblems(a.Value)
				for _, pr := range probs {
					if pr.Unknown {
						p.ReportAttrf(el, a, "%s", pr.Msg)
					}
				}
			})
		},
	}
	ruleLength = &Rule{
		ID: "RS205", Name: "length-non-negative", Severity: Error, Spec: specFormats,
		Doc: "length is a content length: a non-negative integer.",
		Run: func(p *Pass) {
			forEachAttr(p, []string{"length"}, func(el *Element, a *xmlscan.Attr) {
				v := strings.TrimSpace(a.Value)
				if n, err := strconv.ParseInt(strings.TrimPrefix(v, "+"), 10, 64); err == nil && n < 0 {
					p.ReportAttrf(el, a, "length=%q is negative; a content length is a number of bytes, 0 or more", a.Value)
				}
			})
		},
	}
	ruleMediaType = &Rule{
		ID: "RS206", Name: "media-type", Severity: Error, Spec: specFormats,
		Doc: "type is a media type: type/subtype (RFC 6838).",
		Run: func(p *Pass) {
			forEachAttr(p, []string{"type"}, func(el *Element, a *xmlscan.Attr) {
				if prob, _ := p.mediaType(a.Value); prob != "" {
					p.ReportAttrf(el, a, "%s", prob)
				}
			})
		},
	}
	ruleMediaTypeTop = &Rule{
		ID: "RS207", Name: "media-type-registered", Severity: Warning, Spec: specFormats,
		Doc: "type should use a registered top-level media type (application, text, image, …).",
		Run: func(p *Pass) {
			forEachAttr(p, []string{"type"}, func(el *Element, a *xmlscan.Attr) {
				if prob, unknown := p.mediaType(a.Value); prob == "" && unknown {
					top, _, _ := strings.Cut(a.Value, "/")
					p.ReportAttrf(el, a, "type %q has the top-level type %q, which is not registered (application, audio, font, image, message, model, multipart, text, video)", a.Value, top)
				}
			})
		},
	}
	rulePathSafe = &Rule{
		ID: "RS208", Name: "path-in-package", Severity: Error, Spec: specResDumpMan,
		Doc: "path is a file path inside the package: a leading slash, no \"..\" segment, no backslash.",
		Run: func(p *Pass) {
			forEachAttr(p, []string{"path"}, func(el *Element, a *xmlscan.Attr) {
				if msg := checkPackagePath(a.Value); msg != "" {
					p.ReportAttrf(el, a, "path=%q %s", a.Value, msg)
				}
			})
		},
	}
	ruleRel = &Rule{
		ID: "RS209", Name: "rel-syntax", Severity: Error, Spec: specFormats,
		Doc: "rel is one registered relation type in lowercase or an absolute URI.",
		Run: func(p *Pass) {
			forEachAttr(p, []string{"rel"}, func(el *Element, a *xmlscan.Attr) {
				if prob, msg := CheckRel(a.Value); prob == RelInvalid && el.Name.Local == "ln" {
					p.ReportAttrf(el, a, "%s", msg)
				}
			})
		},
	}
	ruleRelRegistered = &Rule{
		ID: "RS210", Name: "rel-registered", Severity: Warning, Spec: specFormats,
		Doc: "A relation type that is not a URI should be registered in the IANA Link Relations registry.",
		Run: func(p *Pass) {
			forEachAttr(p, []string{"rel"}, func(el *Element, a *xmlscan.Attr) {
				if prob, msg := CheckRel(a.Value); prob == RelUnregistered && el.Name.Local == "ln" {
					p.ReportAttrf(el, a, "%s", msg)
				}
			})
		},
	}
	ruleHref = &Rule{
		ID: "RS211", Name: "href-uri", Severity: Error, Spec: specFormats,
		Doc: "href is a URI: no spaces or characters that must be percent-encoded.",
		Run: func(p *Pass) {
			forEachAttr(p, []string{"href"}, func(el *Element, a *xmlscan.Attr) {
				if prob, msg := p.uri(a.Value); prob == URIInvalid || prob == URIWhitespace {
					p.ReportAttrf(el, a, "href %s", msg)
				}
			})
		},
	}
	ruleHrefAbs = &Rule{
		ID: "RS212", Name: "href-absolute", Severity: Warning, Spec: specFormats,
		Doc: "href should be an absolute URI, as Destinations resolve links out of context.",
		Run: func(p *Pass) {
			forEachAttr(p, []string{"href"}, func(el *Element, a *xmlscan.Attr) {
				if prob, _ := p.uri(a.Value); prob == URIRelative {
					p.ReportAttrf(el, a, "href %q is a relative reference; it should be an absolute URI, as Destinations follow links from copies of the document and from other contexts than its location", a.Value)
				}
			})
		},
	}
	ruleEncoding = &Rule{
		ID: "RS213", Name: "content-coding", Severity: Warning, Spec: specFormats,
		Doc: "encoding should name registered HTTP content codings (gzip, br, …), as in Content-Encoding.",
		Run: func(p *Pass) {
			forEachAttr(p, []string{"encoding"}, func(el *Element, a *xmlscan.Attr) {
				for _, c := range strings.Split(a.Value, ",") {
					c = strings.ToLower(strings.TrimSpace(c))
					if !ContentCodings[c] {
						p.ReportAttrf(el, a, "encoding %q is not a registered HTTP content coding (gzip, br, deflate, compress, zstd, identity, …); it should equal the Content-Encoding of the response", strings.TrimSpace(a.Value))
						return
					}
				}
			})
		},
	}
)

// checkPackagePath checks a path attribute against the ZIP package it
// designates (§11.2, §13.2): relative to the package root, written with a
// leading slash, and not escaping the package.
func checkPackagePath(v string) string {
	switch {
	case !strings.HasPrefix(v, "/"):
		return "must start with a slash: paths are relative to the package root and written with a leading \"/\""
	case strings.ContainsRune(v, '\\'):
		return "contains a backslash; ZIP paths use \"/\" as the separator"
	case strings.ContainsRune(v, 0):
		return "contains a NUL character"
	}
	for _, seg := range strings.Split(v[1:], "/") {
		if seg == ".." {
			return "has a \"..\" segment: it would point outside the package when unpacked"
		}
	}
	return ""
}

// isPlainSitemap reports whether the document is a Sitemap without
// ResourceSync metadata, to which only the Sitemap protocol applies.
func isPlainSitemap(d *Doc) bool { return d.Kind == Sitemap || d.Kind == SitemapIndex }
