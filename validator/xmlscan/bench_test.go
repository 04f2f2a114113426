package xmlscan

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"sync"
	"testing"
)

// resourceList generates a ResourceSync Resource List with n entries, laid
// out the way real ones are: one element per line, indented.
func resourceList(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:md capability="resourcelist" at="2013-01-03T09:00:00Z"/>
`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `  <url>
    <loc>http://example.com/res/%d</loc>
    <lastmod>2013-01-02T13:00:00Z</lastmod>
    <rs:md hash="md5:1584abdf8ebdc9802ac0c6a7402c03b6 sha-256:854f61290e2e197a11bc91063afce22e43f8ccc655237050ace766adc68dc784" length="%d" type="text/html"/>
  </url>
`, i, 1000+i*7)
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

var (
	benchDocOnce sync.Once
	benchDoc     []byte
)

func benchDocument() []byte {
	benchDocOnce.Do(func() { benchDoc = resourceList(50000) })
	return benchDoc
}

// BenchmarkScan scans a 13 MB, 50,000-entry Resource List.
func BenchmarkScan(b *testing.B) {
	doc := benchDocument()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		s := NewScanner(bytes.NewReader(doc))
		n := 0
		for {
			_, err := s.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
}

// BenchmarkEncodingXML is the baseline: encoding/xml's Decoder.Token on the
// same document.
func BenchmarkEncodingXML(b *testing.B) {
	doc := benchDocument()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		d := xml.NewDecoder(bytes.NewReader(doc))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
