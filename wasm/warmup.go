//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/rscheck/rscheck/validator"
)

// warmUp validates a small synthetic Resource List when the page, idle,
// asks for it ({type: "warmup"}). V8 first runs a module on its baseline compiler and swaps in
// optimised code only for later calls; a validation is one long call, so
// without this the user's first large validation would run entirely on
// baseline code, about twice as slow. The warm-up yields to the event loop
// often and stops as soon as a request arrives (ctx), so it delays nobody.
func warmUp(ctx context.Context) {
	var doc bytes.Buffer
	doc.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:ln rel="up" href="http://example.com/capabilitylist.xml"/>
<rs:md capability="resourcelist" at="2013-01-03T09:00:00Z"/>
`)
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&doc, "<url><loc>http://example.com/res/%d</loc><lastmod>2013-01-02T13:00:00Z</lastmod>"+
			"<rs:md hash=\"md5:1584abdf8ebdc9802ac0c6a7402c03b6 sha-256:854f61290e2e197a11bc91063afce22e43f8ccc655237050ace766adc68dc784\" length=\"%d\" type=\"text/html\"/></url>\n", i, i)
	}
	doc.WriteString("</urlset>\n")
	r := &yieldingReader{r: bytes.NewReader(doc.Bytes())}
	validator.Validate(ctx, r, nil) // the result does not matter; a cancellation is fine
}

// yieldingReader gives the event loop a turn every 128 KiB, so that a
// request arriving during the warm-up cancels it at once. The pause is
// 4 ms: Chromium runs a shorter timer before a message already queued.
type yieldingReader struct {
	r     *bytes.Reader
	since int
}

func (y *yieldingReader) Read(p []byte) (int, error) {
	if y.since >= 128<<10 {
		y.since = 0
		time.Sleep(4 * time.Millisecond)
	}
	n, err := y.r.Read(p[:min(len(p), 16<<10)])
	y.since += n
	return n, err
}
