//go:build !js

package explorer

import (
	"context"
	"net/http"
)

// HTTPFetcher is a Fetcher on net/http. It exists only natively: in the
// browser the page provides the Fetcher (fetch, the bookmarklet's relay or
// the proxy), and net/http would cost the WebAssembly module megabytes.
//
// HTTPFetcher leaves content decoding to the transport: a body sent with
// Content-Encoding: gzip is decoded (and Response.Decoded set), while a
// gzip file sent as such (a .xml.gz Sitemap, Content-Type
// application/gzip) is returned as is, for validator.Validate to detect.
// Nothing is ever decompressed twice.
type HTTPFetcher struct {
	// Client sends the requests; nil means http.DefaultClient's transport.
	// Its CheckRedirect is not used: HTTPFetcher does not follow redirects.
	// Set timeouts with Timeout rather than Client.Timeout, which also
	// bounds the time to read the body.
	Client *http.Client
	// UserAgent, if set, is sent as the User-Agent header (browsers ignore it).
	UserAgent string
}

// Fetch implements Fetcher.
func (f *HTTPFetcher) Fetch(ctx context.Context, r *Request) (*Response, error) {
	if err := checkScheme(r.URL); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, r.method(), r.URL, nil)
	if err != nil {
		return nil, err
	}
	for k, vs := range r.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	if f.UserAgent != "" && req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", f.UserAgent)
	}
	var c http.Client
	if f.Client != nil {
		c = *f.Client
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	if err != nil {
		return nil, unwrapURLError(err)
	}
	final := r.URL
	if resp.Request != nil && resp.Request.URL != nil {
		final = resp.Request.URL.String()
	}
	return &Response{
		URL:           final,
		StatusCode:    resp.StatusCode,
		Header:        Header(resp.Header),
		ContentLength: resp.ContentLength,
		Body:          resp.Body,
		Decoded:       resp.Uncompressed,
	}, nil
}

// DefaultFetcher returns the Fetcher of an Options without one: natively
// an HTTPFetcher; in a browser, where the page must provide the Fetcher,
// one that says so.
func DefaultFetcher(userAgent string) Fetcher { return &HTTPFetcher{UserAgent: userAgent} }
