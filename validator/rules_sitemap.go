package validator

import (
	"strings"
	"unicode/utf8"
)

// Limits of the Sitemap protocol that ResourceSync adopts (§7).
const (
	MaxEntries  = 50000
	MaxBytes    = 50 * 1024 * 1024 // 52,428,800 bytes, uncompressed
	MaxLocChars = 2048
)

// Sitemap protocol rules.
var (
	ruleMaxEntries = &Rule{
		ID: "SM101", Name: "max-entries", Severity: Error, Spec: specFormats,
		Doc: "A document holds at most 50,000 entries; larger sets are split and grouped by an index.",
		Run: func(p *Pass) {
			p.OnEnd(func(s Stats) {
				if s.Entries > MaxEntries {
					p.Reportf(nil, "the document has %d entries; the limit is %d per document: split it into several documents grouped by a <sitemapindex>", s.Entries, MaxEntries)
				}
			})
		},
	}
	ruleMaxBytes = &Rule{
		ID: "SM102", Name: "max-size", Severity: Error, Spec: specFormats,
		Doc: "A document is at most 50 MB (52,428,800 bytes) uncompressed.",
		Run: func(p *Pass) {
			p.OnEnd(func(s Stats) {
				if s.Bytes > MaxBytes {
					p.Reportf(nil, "the document is %d bytes uncompressed; the limit is %d bytes (50 MB): split it and group the parts by a <sitemapindex>", s.Bytes, MaxBytes)
				}
			})
		},
	}
	ruleLocURI = &Rule{
		ID: "SM103", Name: "loc-uri", Severity: Error, Spec: specSitemaps,
		Doc: "<loc> must hold an absolute http or https URI, properly escaped.",
		Run: func(p *Pass) {
			p.OnEntry(func(e *Entry) {
				if e.Loc == nil {
					return
				}
				switch prob, msg := p.uri(strings.TrimSpace(e.Loc.Text)); prob {
				case URIInvalid, URIRelative, URINotHTTP:
					p.ReportTextf(e.Loc, "<loc> %s", msg)
				}
			})
		},
	}
	ruleLocLength = &Rule{
		ID: "SM104", Name: "loc-length", Severity: Error, Spec: specSitemaps,
		Doc: "<loc> holds at most 2,048 characters.",
		Run: func(p *Pass) {
			p.OnEntry(func(e *Entry) {
				if e.Loc == nil {
					return
				}
				if n := utf8.RuneCountInString(strings.TrimSpace(e.Loc.Text)); n > MaxLocChars {
					p.ReportTextf(e.Loc, "<loc> is %d characters long; the Sitemap protocol allows at most %d", n, MaxLocChars)
				}
			})
		},
	}
	ruleLocSpace = &Rule{
		ID: "SM105", Name: "loc-whitespace", Severity: Warning, Spec: specSitemaps,
		Doc: "<loc> should hold the URI alone, without surrounding whitespace.",
		Run: func(p *Pass) {
			p.OnEntry(func(e *Entry) {
				if e.Loc != nil && e.Loc.Text != strings.TrimSpace(e.Loc.Text) && strings.TrimSpace(e.Loc.Text) != "" {
					p.ReportTextf(e.Loc, "<loc> has whitespace around the URI %q; the schema tolerates it, but many Destinations use the text as is", strings.TrimSpace(e.Loc.Text))
				}
			})
		},
	}
	ruleLocASCII = &Rule{
		ID: "SM106", Name: "loc-ascii", Severity: Warning, Spec: specSitemapsEnc,
		Doc: "<loc> should be URL-escaped: characters outside ASCII percent-encoded as UTF-8.",
		Run: func(p *Pass) {
			p.OnEntry(func(e *Entry) {
				if e.Loc == nil {
					return
				}
				if prob, msg := p.uri(strings.TrimSpace(e.Loc.Text)); prob == URINonASCII {
					p.ReportTextf(e.Loc, "<loc> %s", msg)
				}
			})
		},
	}
)
