package xmlscan

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestPath(t *testing.T) {
	const sm = "http://www.sitemaps.org/schemas/sitemap/0.9"
	const rs = "http://www.openarchives.org/rs/terms/"
	doc := `<urlset xmlns="` + sm + `" xmlns:rs="` + rs + `">
<rs:ln href="a"/><rs:ln href="b"/><rs:md/>
<url><loc>x</loc><rs:md hash="h"/></url>
<url><loc>y</loc><loc>z</loc><rs:md hash="h"/></url>
</urlset>`
	s := NewScanner(strings.NewReader(doc))
	var p Path
	var got []string
	for {
		tok, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch tok.Kind {
		case StartElement:
			p.Push(tok.Name)
			got = append(got, p.String())
			for _, a := range tok.Attrs {
				got = append(got, p.Attr(a.Name))
			}
		case EndElement:
			p.Pop()
		}
	}
	want := []string{
		"/urlset",
		"/urlset/rs:ln[1]", "/urlset/rs:ln[1]/@href",
		"/urlset/rs:ln[2]", "/urlset/rs:ln[2]/@href",
		"/urlset/rs:md",
		"/urlset/url[1]", "/urlset/url[1]/loc", "/urlset/url[1]/rs:md", "/urlset/url[1]/rs:md/@hash",
		"/urlset/url[2]", "/urlset/url[2]/loc", "/urlset/url[2]/loc[2]", "/urlset/url[2]/rs:md", "/urlset/url[2]/rs:md/@hash",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p.Depth() != 0 || p.String() != "/" {
		t.Errorf("after the root: depth %d, %q", p.Depth(), p.String())
	}
	// Sibling indexes use expanded names: the same local name in another
	// namespace counts apart; the root never gets an index.
	var q Path
	q.Push(Name{Local: "url"})
	q.Push(Name{Space: "a", Local: "x", Prefix: "p"})
	q.Pop()
	q.Push(Name{Space: "b", Local: "x", Prefix: "p"})
	q.Pop()
	q.Push(Name{Space: "a", Local: "x", Prefix: "q"})
	if got := q.Attr(Name{Space: xmlNS, Local: "lang", Prefix: "xml"}); got != "/url/q:x[2]/@xml:lang" {
		t.Errorf("got %s", got)
	}
}

// TestPathManySiblings checks sibling counting stays linear, including past
// the switch to a map.
func TestPathManySiblings(t *testing.T) {
	var p Path
	p.Push(Name{Local: "urlset"})
	for i := 1; i <= 50000; i++ {
		p.Push(Name{Local: "url"})
		p.Pop()
	}
	for i := 0; i < 100; i++ {
		p.Push(Name{Local: fmt.Sprint("e", i)})
		p.Pop()
	}
	p.Push(Name{Local: "url"})
	if got := p.String(); got != "/urlset/url[50001]" {
		t.Errorf("got %s", got)
	}
	p.Pop()
	p.Push(Name{Local: "e7"})
	if got := p.String(); got != "/urlset/e7[2]" {
		t.Errorf("got %s", got)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		p.Push(Name{Local: "url"})
		p.Pop()
	})
	if allocs != 0 {
		t.Errorf("Push/Pop allocate %v times", allocs)
	}
}
