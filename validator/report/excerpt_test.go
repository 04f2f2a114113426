package report

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rscheck/rscheck/validator"
)

func excerptsOf(t *testing.T, src string, pos ...Pos) Excerpts {
	t.Helper()
	var fs []validator.Finding
	for _, p := range pos {
		fs = append(fs, validator.Finding{Rule: "RS404", Severity: validator.Error, Line: p.Line, Column: p.Column})
	}
	r := NewResult([]*validator.Report{{Source: "x", Findings: fs}})
	if err := r.AddExcerpts(0, strings.NewReader(src)); err != nil {
		t.Fatal(err)
	}
	return r.Excerpts[0]
}

// at returns the text at the caret.
func at(ex Excerpt) string {
	if ex.Caret < 0 {
		return ""
	}
	return ex.Text[ex.Caret:]
}

func TestExcerptLineEnds(t *testing.T) {
	// LF, CRLF and a lone CR each end a line, as in XML.
	src := "<a>\n  <b x='1'/>\r\n\t<c/>\r<d/>"
	ex := excerptsOf(t, src, Pos{2, 3}, Pos{3, 2}, Pos{4, 1}, Pos{1, 0})
	for p, want := range map[Pos]Excerpt{
		{2, 3}: {`<b x='1'/>`, 0},
		{3, 2}: {`<c/>`, 0},
		{4, 1}: {`<d/>`, 0},
		{1, 0}: {`<a>`, -1},
	} {
		if got := ex[p]; got != want {
			t.Errorf("%v: got %+v, want %+v", p, got, want)
		}
	}
}

func TestExcerptLongLine(t *testing.T) {
	// A 1 MB single-line document: the excerpt is a window with ellipses.
	line := strings.Repeat("<url><loc>http://example.org/x</loc></url>", 25000)
	col := len(line)/2 + 1
	ex := excerptsOf(t, "<urlset>"+line+"</urlset>\n", Pos{1, col + 8}, Pos{1, 1})
	mid := ex[Pos{1, col + 8}]
	if len(mid.Text) > excerptWidth+2*len("…") || !strings.HasPrefix(mid.Text, "…") || !strings.HasSuffix(mid.Text, "…") {
		t.Errorf("middle excerpt of %d bytes: %q", len(mid.Text), mid.Text)
	}
	if want := line[col-1 : col+9]; !strings.HasPrefix(at(mid), want) {
		t.Errorf("caret at %q, want %q", at(mid), want)
	}
	start := ex[Pos{1, 1}]
	if !strings.HasPrefix(start.Text, "<urlset><url>") || start.Caret != 0 || !strings.HasSuffix(start.Text, "…") {
		t.Errorf("start excerpt %+v", start)
	}
}

func TestExcerptUTF8Cut(t *testing.T) {
	// Window ends falling inside multi-byte characters are cut cleanly.
	for shift := range 4 {
		line := strings.Repeat("é€𝔘", 100)[shift:] // starts mid-character for shift > 0
		col := 200
		ex := excerptsOf(t, line, Pos{1, col})[Pos{1, col}]
		if !utf8.ValidString(ex.Text) {
			t.Errorf("shift %d: invalid UTF-8 %q", shift, ex.Text)
		}
		if ex.Caret < 0 || ex.Caret > len(ex.Text) {
			t.Errorf("shift %d: caret %d out of %q", shift, ex.Caret, ex.Text)
		}
	}
	// Invalid UTF-8 in the source (a Latin-1 document) is replaced.
	ex := excerptsOf(t, "<a>caf\xe9</a>", Pos{1, 8})[Pos{1, 8}]
	if ex.Text != "<a>caf\uFFFD</a>" || at(ex) != "</a>" {
		t.Errorf("latin-1: %+v", ex)
	}
}

func TestExcerptSources(t *testing.T) {
	src := "\xEF\xBB\xBF<urlset>\n  <url><loc>x y</loc></url>\n</urlset>\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.WriteString(zw, src)
	zw.Close()
	for name, in := range map[string]string{"plain with BOM": src, "gzip": gz.String()} {
		ex := excerptsOf(t, in, Pos{1, 1}, Pos{2, 13})
		if got := ex[Pos{1, 1}]; got != (Excerpt{"<urlset>", 0}) {
			t.Errorf("%s: line 1 = %+v", name, got)
		}
		if got := at(ex[Pos{2, 13}]); got != "x y</loc></url>" {
			t.Errorf("%s: caret at %q", name, got)
		}
	}
	if ex := excerptsOf(t, "\xff\xfe<\x00a\x00/\x00>\x00", Pos{1, 1}); len(ex) != 0 {
		t.Errorf("UTF-16: %v", ex)
	}
	// Positions past the end of the input or of a line.
	ex := excerptsOf(t, "<a/>", Pos{1, 9}, Pos{5, 1})
	if got := ex[Pos{1, 9}]; got.Text != "<a/>" || got.Caret != 4 {
		t.Errorf("column past the end: %+v", got)
	}
	if _, ok := ex[Pos{5, 1}]; ok {
		t.Error("excerpt of a line past the end")
	}
}

// TestExcerptStopsEarly checks that reading stops after the last line
// needed.
func TestExcerptStopsEarly(t *testing.T) {
	r := &countReader{r: strings.NewReader("<a>\n<b/>\n" + strings.Repeat("<c/>\n", 1<<20))}
	res := NewResult([]*validator.Report{{Findings: []validator.Finding{{Line: 2, Column: 1}}}})
	if err := res.AddExcerpts(0, r); err != nil {
		t.Fatal(err)
	}
	if r.n > 1<<17 {
		t.Errorf("read %d bytes for an excerpt of line 2", r.n)
	}
	if err := res.AddExcerpts(1, r); err == nil {
		t.Error("AddExcerpts accepted a document index out of range")
	}
}

type countReader struct {
	r io.Reader
	n int
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
