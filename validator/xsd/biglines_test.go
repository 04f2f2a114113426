package xsd

import (
	"strings"
	"testing"
)

// bigLinesDoc is a Sitemap of more than 65535 lines with errors beyond
// that line, where libxml2 reports borrowed lines (see biglines.go).
func bigLinesDoc() string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:rs=\"http://www.openarchives.org/rs/terms/\">\n")
	for i := 3; i < 69999; i++ {
		b.WriteString("<url><loc>http://example.com/x</loc></url>\n")
	}
	b.WriteString(`<url><!-- c -->
<lastmod>2013-01-01</lastmod></url>
<url><loc>http://example.com/x</loc><rs:md length="x"/><!-- c --></url>
<url><loc>http://example.com/x</loc>
  <rs:md length="y"/>
</url>
<url><loc>http://example.com/x</loc><rs:md length="z"/></url>
<url><loc>http://example.com/x</loc><rs:md length="z"/>
<rs:md/></url>
<url>
<!-- c --><loc>http://ex/</loc></url>
<url><loc>http://example.com/x</loc>
<bogus/></url>
<url>
<loc>http://example.com/x</loc>hello</url>
</urlset>
`)
	return b.String()
}

// bigLinesWant are the lines xmllint 2.9.14 reports for bigLinesDoc
// (TestBigLinesAgainstXmllint re-checks them), with the lines of the
// elements concerned.
var bigLinesWant = []struct{ libxml2, own int }{
	{70000, 70000}, // lastmod: its text child
	{65535, 70001}, // rs:md followed by a comment: no line to borrow
	{70004, 70003}, // rs:md: the line break after it (next sibling text)
	{70005, 70005}, // last child rs:md: the previous sibling's text
	{70007, 70006}, // rs:md: the next sibling text, ending on the next line
	{70009, 70009}, // loc: its text child
	{70011, 70011}, // bogus: the previous sibling loc's text
	{70013, 70012}, // url: its first child, the line break
}

func TestBigLines(t *testing.T) {
	errs, err := official(t).Validate(strings.NewReader(bigLinesDoc()))
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != len(bigLinesWant) {
		for _, e := range errs {
			t.Log(e)
		}
		t.Fatalf("%d errors, want %d", len(errs), len(bigLinesWant))
	}
	for i, w := range bigLinesWant {
		if errs[i].Line != w.libxml2 || errs[i].Pos.Line > w.own {
			t.Errorf("error %d (%s): Line %d, Pos.Line %d; want Line %d (libxml2), element on line %d", i, errs[i].Message, errs[i].Line, errs[i].Pos.Line, w.libxml2, w.own)
		}
	}
}
