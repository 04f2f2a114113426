package xsd

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/rscheck/rscheck/validator/xmlscan"
)

// benchDocPath, when set, makes TestWriteBenchDoc write the benchmark
// document there, so that testdata/bench.sh can time xmllint on the very
// same bytes.
var benchDocPath = flag.String("benchdoc", "", "write the generated Resource List to this file")

// resourceList generates a Resource List of n entries, each with loc,
// lastmod and rs:md (hash, length, type): about 240 bytes per entry, so
// 50,000 entries make 12 MB.
func resourceList(n int) []byte {
	var b bytes.Buffer
	b.Grow(n * 260)
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up" href="http://example.com/dataset1/capabilitylist.xml"/>
  <rs:md capability="resourcelist" at="2013-01-03T09:00:00Z" completed="2013-01-03T09:01:00Z"/>
`)
	types := []string{"text/html", "application/pdf", "image/png", "application/xml", "text/plain"}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `  <url>
    <loc>http://example.com/dataset1/resources/%08d/item.html</loc>
    <lastmod>2013-01-%02dT%02d:%02d:%02dZ</lastmod>
    <rs:md hash="md5:%032x" length="%d" type="%s"/>
  </url>
`, i, 1+i%28, i%24, i%60, (i/60)%60, uint64(i)*0x9e3779b97f4a7c15, 1000+i%50000, types[i%len(types)])
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

func TestWriteBenchDoc(t *testing.T) {
	if *benchDocPath == "" {
		t.Skip("no -benchdoc path given")
	}
	if err := os.WriteFile(*benchDocPath, resourceList(50000), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestResourceListIsValid(t *testing.T) {
	errs, err := official(t).Validate(bytes.NewReader(resourceList(500)))
	if err != nil || len(errs) > 0 {
		t.Fatalf("generated Resource List: err %v, %d validation errors, first %v", err, len(errs), errs)
	}
}

// BenchmarkValidateResourceList validates a 12 MB, 50,000-entry Resource
// List, scanner included, as the product does it (push API).
func BenchmarkValidateResourceList(b *testing.B) {
	s := official(b)
	doc := resourceList(50000)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	defer reportCPU(b, start)
	for i := 0; i < b.N; i++ {
		sc := xmlscan.NewScanner(bytes.NewReader(doc))
		n := 0
		v := s.NewValidator(sc, func(*Error) { n++ })
		for {
			t, err := sc.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			v.Token(t)
		}
		v.Close()
		if n != 0 {
			b.Fatalf("%d errors", n)
		}
	}
}

// BenchmarkScanOnly is the scanner alone on the same document, to tell
// the validator's share.
func BenchmarkScanOnly(b *testing.B) {
	doc := resourceList(50000)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	defer reportCPU(b, start)
	for i := 0; i < b.N; i++ {
		sc := xmlscan.NewScanner(bytes.NewReader(doc))
		for {
			if _, err := sc.Next(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
	}
}

// BenchmarkSchemaValidate is the convenience path: Schema.Validate, with
// its SourceTracker, on the same document.
func BenchmarkSchemaValidate(b *testing.B) {
	s := official(b)
	doc := resourceList(50000)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	defer reportCPU(b, start)
	for i := 0; i < b.N; i++ {
		errs, err := s.Validate(bytes.NewReader(doc))
		if err != nil || len(errs) > 0 {
			b.Fatal(err, errs)
		}
	}
}
