package main

// The validate command's HTTP client, kept in this one file: the
// explorer's shared Fetcher (rate limits, robots.txt, caching) will
// replace it.

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Limits of fetching.
const (
	maxRedirects = 10
	maxBodyBytes = 1 << 30 // as received, before any decoding
)

// fetcher gets documents over http and https.
type fetcher struct {
	client    *http.Client
	userAgent string
	timeout   time.Duration
}

func newFetcher(timeout time.Duration, userAgent string) *fetcher {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	// We ask for gzip ourselves and decode the content coding once; a
	// .xml.gz document inside is then decompressed by Validate. Left to
	// net/http, a Content-Encoding would be undone silently and
	// Accept-Encoding could not be set.
	tr.DisableCompression = true
	return &fetcher{
		client: &http.Client{
			Transport:     tr,
			Timeout:       timeout,
			CheckRedirect: checkRedirect,
		},
		userAgent: userAgent,
		timeout:   timeout,
	}
}

func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	if s := req.URL.Scheme; s != "http" && s != "https" {
		return fmt.Errorf("redirected to a %s: URL; only http and https are fetched", s)
	}
	return nil
}

// open fetches rawURL and returns its body, content coding removed. The
// error says why there is no document: a network failure, a timeout, an
// HTTP status other than 2xx.
func (f *fetcher) open(ctx context.Context, rawURL string) (io.ReadCloser, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("unsupported URL scheme %q: only http and https are fetched", u.Scheme)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", f.userAgent)
	req.Header.Set("Accept", "application/xml, text/xml;q=0.9, */*;q=0.1")
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, f.explain(err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		resp.Body.Close()
		return nil, fmt.Errorf("HTTP %s", resp.Status)
	}
	body := &limitedBody{r: io.LimitReader(resp.Body, maxBodyBytes+1), closer: resp.Body, f: f}
	switch enc := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
		return body, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(body)
		if err != nil {
			resp.Body.Close()
			return nil, fmt.Errorf("Content-Encoding gzip, but the body is not gzip: %w", err)
		}
		return &decodedBody{Reader: zr, Closer: resp.Body}, nil
	default:
		resp.Body.Close()
		return nil, fmt.Errorf("unsupported Content-Encoding %q", enc)
	}
}

// explain turns a client error into a short message.
func (f *fetcher) explain(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return fmt.Errorf("no response within %v", f.timeout)
		}
		return ue.Err
	}
	return err
}

// limitedBody enforces maxBodyBytes and shortens read errors.
type limitedBody struct {
	r      io.Reader
	closer io.Closer
	n      int64
	f      *fetcher
}

func (b *limitedBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.n > maxBodyBytes {
		return n, fmt.Errorf("response larger than %d bytes", int64(maxBodyBytes))
	}
	if err != nil && err != io.EOF {
		var ne interface{ Timeout() bool }
		if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("response not complete within %v", b.f.timeout)
		}
	}
	return n, err
}

func (b *limitedBody) Close() error { return b.closer.Close() }

// decodedBody joins a decoding reader and the body it reads.
type decodedBody struct {
	io.Reader
	io.Closer
}
