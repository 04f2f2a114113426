package xmlscan

import (
	"fmt"
	"io"
	"runtime"
	"testing"
)

// genReader produces a large Resource List on the fly, so that the test
// itself holds no document in memory.
type genReader struct {
	n, max int
	buf    []byte
	done   bool
	total  int64
}

func (g *genReader) Read(p []byte) (int, error) {
	for len(g.buf) == 0 {
		switch {
		case g.done:
			return 0, io.EOF
		case g.n == 0:
			g.buf = []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:md capability="resourcelist" at="2013-01-03T09:00:00Z"/>
`)
		case g.n > g.max:
			g.buf = []byte("</urlset>\n")
			g.done = true
		default:
			g.buf = fmt.Appendf(g.buf[:0], "  <url>\n    <loc>http://example.com/res/%d</loc>\n    <lastmod>2013-01-02T13:00:00Z</lastmod>\n    <rs:md hash=\"md5:1584abdf8ebdc9802ac0c6a7402c03b6\" length=\"%d\" type=\"text/html\"/>\n  </url>\n", g.n, g.n)
		}
		g.n++
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	g.total += int64(n)
	return n, nil
}

// TestStreamingMemory scans a generated 60 MB document and checks the heap
// stays far below the document size.
func TestStreamingMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("60 MB scan")
	}
	g := &genReader{max: 340000} // ~60 MB
	s := NewScanner(g)
	var ms runtime.MemStats
	var peak uint64
	var p Path
	for n := 0; ; n++ {
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
		case EndElement:
			p.Pop()
		}
		if n%200000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}
	}
	if g.total < 60<<20 {
		t.Fatalf("document only %d bytes", g.total)
	}
	t.Logf("scanned %d MB, peak heap in use %.1f MB", g.total>>20, float64(peak)/(1<<20))
	if peak > 16<<20 {
		t.Errorf("heap in use reached %d bytes for a %d-byte document", peak, g.total)
	}
}
