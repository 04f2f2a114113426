//go:build !js

// Natively only: these tests crawl real HTTP servers on 127.0.0.1.

package explorer_test

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// serveDocs serves XML documents by path; {B} stands for the server's URL.
func serveDocs(t *testing.T, docs map[string]string) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		body := []byte(strings.ReplaceAll(d, "{B}", srv.URL))
		if strings.HasSuffix(r.URL.Path, ".gz") {
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write(body)
			zw.Close()
			w.Header().Set("Content-Type", "application/gzip")
			w.Write(b.Bytes())
			return
		}
		w.Header().Set("Content-Type", "application/xml")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

const (
	xmlHead = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
`
)

// TestCycles serves a Capability List that lists the Source Description
// above it, and a Resource List whose up links go round in a circle: the
// crawl ends, and both loops are findings.
func TestCycles(t *testing.T) {
	checkNoLeaks(t)
	srv := serveDocs(t, map[string]string{
		"/.well-known/resourcesync": xmlHead + `  <rs:md capability="description"/>
  <url><loc>{B}/cl.xml</loc><rs:md capability="capabilitylist"/></url>
</urlset>`,
		"/cl.xml": xmlHead + `  <rs:ln rel="up" href="{B}/.well-known/resourcesync"/>
  <rs:md capability="capabilitylist"/>
  <url><loc>{B}/.well-known/resourcesync</loc><rs:md capability="resourcelist"/></url>
  <url><loc>{B}/rl.xml.gz</loc><rs:md capability="changelist"/></url>
</urlset>`,
		// A gzip-compressed document, served as such: validated, and
		// application/gzip is fine for it.
		"/rl.xml.gz": xmlHead + `  <rs:ln rel="up" href="{B}/cl.xml"/>
  <rs:md capability="changelist" from="2024-01-01T00:00:00Z"/>
  <url><loc>{B}/r1</loc><rs:md change="created" datetime="2024-01-01T01:00:00Z"/></url>
</urlset>`,
		"/loop-a.xml": xmlHead + `  <rs:ln rel="up" href="{B}/loop-b.xml"/>
  <rs:md capability="capabilitylist"/>
  <url><loc>{B}/r1</loc><rs:md capability="resourcelist"/></url>
</urlset>`,
		"/loop-b.xml": xmlHead + `  <rs:ln rel="up" href="{B}/loop-a.xml"/>
  <rs:md capability="capabilitylist"/>
  <url><loc>{B}/r2</loc><rs:md capability="resourcelist"/></url>
</urlset>`,
	})
	res := explore(t, srv.URL+"/loop-a.xml", nil)
	rules := map[string][]string{}
	for _, f := range res.Findings() {
		rules[f.Rule] = append(rules[f.Rule], f.String())
	}
	if len(rules["RX113"]) != 2 {
		t.Errorf("RX113 findings: %q, want the listing loop and the up-link loop", rules["RX113"])
		dumpFindings(t, res)
	}
	if len(rules["RF102"]) != 0 {
		t.Errorf("the gzip document's Content-Type was reported: %q", rules["RF102"])
	}
	gz := false
	for _, d := range res.Documents {
		if strings.HasSuffix(d.URL, ".gz") && d.Report != nil && d.Report.Entries == 1 && d.Report.Valid() {
			gz = true
		}
	}
	if !gz {
		t.Error("the .xml.gz Change List was not validated")
	}
}
