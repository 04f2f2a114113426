package explorer_test

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/rscheck/rscheck/explorer"
)

func TestParseLinkHeader(t *testing.T) {
	base, _ := url.Parse("http://example.com/dataset1/res/page.html")
	type link struct {
		Target string
		Rel    string // space-separated
		Params string // name=value;…
	}
	tests := []struct {
		name     string
		values   []string
		want     []link
		problems int
	}{
		{"spec example 10", []string{`<http://www.example.com/dataset1/capabilitylist.xml>;
         rel="resourcesync"`},
			[]link{{"http://www.example.com/dataset1/capabilitylist.xml", "resourcesync", ""}}, 0},
		{"unquoted rel", []string{`<http://a.example/cl.xml>; rel=resourcesync`},
			[]link{{"http://a.example/cl.xml", "resourcesync", ""}}, 0},
		{"relative target resolved against the request URL", []string{`<../capabilitylist.xml>; rel="resourcesync"`},
			[]link{{"http://example.com/dataset1/capabilitylist.xml", "resourcesync", ""}}, 0},
		{"absolute path and empty target", []string{`</cl.xml>; rel="resourcesync", <>; rel=self`},
			[]link{{"http://example.com/cl.xml", "resourcesync", ""}, {"http://example.com/dataset1/res/page.html", "self", ""}}, 0},
		{"several links in one field", []string{`<http://a.example/1>; rel="next", <http://a.example/cl.xml>; rel="resourcesync"`},
			[]link{{"http://a.example/1", "next", ""}, {"http://a.example/cl.xml", "resourcesync", ""}}, 0},
		{"several fields", []string{`<http://a.example/1>; rel=next`, `<http://a.example/cl.xml>; rel="resourcesync"`},
			[]link{{"http://a.example/1", "next", ""}, {"http://a.example/cl.xml", "resourcesync", ""}}, 0},
		{"relation type list, case-insensitive", []string{`<http://a.example/cl.xml>; rel="Alternate  ResourceSync"`},
			[]link{{"http://a.example/cl.xml", "alternate resourcesync", ""}}, 0},
		{"quoted commas and semicolons in parameters", []string{`<http://a.example/cl.xml>; title="a, b; c"; rel="resourcesync", <http://a.example/2>; rel=next`},
			[]link{{"http://a.example/cl.xml", "resourcesync", "title=a, b; c"}, {"http://a.example/2", "next", ""}}, 0},
		{"escaped quote in quoted string", []string{`<http://a.example/x>; title="say \"hi\", then \\ go"; rel=self`},
			[]link{{"http://a.example/x", "self", `title=say "hi", then \ go`}}, 0},
		{"comma and semicolon in the target", []string{`<http://a.example/a,b;c>; rel="resourcesync"`},
			[]link{{"http://a.example/a,b;c", "resourcesync", ""}}, 0},
		{"only the first rel counts", []string{`<http://a.example/x>; rel=next; rel=resourcesync`},
			[]link{{"http://a.example/x", "next", ""}}, 0},
		{"parameter names are case-insensitive", []string{`<http://a.example/x>; REL="resourcesync"; Type="application/xml"`},
			[]link{{"http://a.example/x", "resourcesync", "type=application/xml"}}, 0},
		{"whitespace around = and ;", []string{"<http://a.example/x> ;\trel = \"resourcesync\" ; anchor=\"#a\""},
			[]link{{"http://a.example/x", "resourcesync", ""}}, 0},
		{"parameter without value", []string{`<http://a.example/x>; crossorigin; rel=resourcesync`},
			[]link{{"http://a.example/x", "resourcesync", "crossorigin="}}, 0},
		{"link without rel", []string{`<http://a.example/x>`},
			[]link{{"http://a.example/x", "", ""}}, 0},
		{"empty elements", []string{` , <http://a.example/x>; rel=self,, `},
			[]link{{"http://a.example/x", "self", ""}}, 0},
		{"extended parameter", []string{`<http://a.example/x>; rel=self; title*=UTF-8'de'n%c3%a4chstes%20Kapitel`},
			[]link{{"http://a.example/x", "self", "title*=nächstes Kapitel"}}, 0},
		{"malformed link is skipped", []string{`http://a.example/bad; rel=resourcesync, <http://a.example/good>; rel="resourcesync"`},
			[]link{{"http://a.example/good", "resourcesync", ""}}, 1},
		{"malformed link with quoted comma is skipped whole", []string{`junk; title="x, <http://no.example/>"; rel=x, <http://a.example/good>; rel=next`},
			[]link{{"http://a.example/good", "next", ""}}, 1},
		{"unterminated target", []string{`<http://a.example/x; rel=resourcesync`}, nil, 1},
		{"unterminated quoted string", []string{`<http://a.example/x>; rel="resourcesync`},
			[]link{{"http://a.example/x", "resourcesync", ""}}, 0},
		{"text after the parameters", []string{`<http://a.example/x>; rel=self junk, <http://a.example/y>; rel=next`},
			[]link{{"http://a.example/x", "self junk", ""}, {"http://a.example/y", "next", ""}}, 0},
		{"text between links", []string{`<http://a.example/x>; rel=self "junk", <http://a.example/y>; rel=next`},
			[]link{{"http://a.example/x", "self \"junk\"", ""}, {"http://a.example/y", "next", ""}}, 0},
		{"garbage after a quoted value", []string{`<http://a.example/x>; rel="self" junk, <http://a.example/y>; rel=next`},
			[]link{{"http://a.example/x", "self", ""}, {"http://a.example/y", "next", ""}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			links, problems := explorer.ParseLinkHeader(base, tt.values)
			var got []link
			for _, l := range links {
				var ps []string
				for _, p := range l.Params {
					ps = append(ps, p.Name+"="+p.Value)
				}
				got = append(got, link{l.Target, strings.Join(l.Rel, " "), strings.Join(ps, ";")})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseLinkHeader(%q)\n got %q\nwant %q", tt.values, got, tt.want)
			}
			if len(problems) != tt.problems {
				t.Errorf("problems = %q, want %d", problems, tt.problems)
			}
		})
	}
}

func TestLinkHasRelAndAnchor(t *testing.T) {
	base, _ := url.Parse("http://example.com/a/b")
	links, _ := explorer.ParseLinkHeader(base, []string{`<c>; rel="Up ResourceSync"; anchor="../d"; type=application/xml`})
	if len(links) != 1 {
		t.Fatalf("got %d links", len(links))
	}
	l := links[0]
	if !l.HasRel("resourcesync") || !l.HasRel("UP") || l.HasRel("self") {
		t.Errorf("HasRel wrong for %q", l.Rel)
	}
	if l.Anchor != "http://example.com/d" || l.Target != "http://example.com/a/c" || l.Param("TYPE") != "application/xml" {
		t.Errorf("got %+v", l)
	}
}

// FuzzParseLinkHeader checks that the parser never panics and that every
// target it returns came from between angle brackets.
func FuzzParseLinkHeader(f *testing.F) {
	for _, s := range []string{`<a>; rel="x, y", <b>; rel=z`, `<`, `<>;;;,,`, `"<a>"`, `<a>; t="\"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		links, _ := explorer.ParseLinkHeader(nil, []string{s})
		for _, l := range links {
			if !strings.Contains(s, "<"+l.Target) && !strings.Contains(s, "<"+" ") {
				t.Errorf("target %q not in input %q", l.Target, s)
			}
		}
	})
}
