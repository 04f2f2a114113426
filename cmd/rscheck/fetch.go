package main

// Fetching documents for the validate command, with the explorer's
// Fetcher stack (redirects, size cap, timeouts), so that a URL given to
// validate is fetched exactly as explore fetches it.

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/rscheck/rscheck/explorer"
)

// maxBodyBytes bounds a document fetched by validate.
const maxBodyBytes = 1 << 30

// fetcher gets single documents over http and https.
type fetcher struct {
	f       explorer.Fetcher
	timeout time.Duration
}

func newFetcher(timeout time.Duration, userAgent string) *fetcher {
	base := &explorer.HTTPFetcher{UserAgent: userAgent}
	return &fetcher{
		f: explorer.NewFetcher(base, &explorer.Options{
			Concurrency:      1,
			Timeout:          timeout,
			MaxDocumentBytes: maxBodyBytes,
			MaxPackageBytes:  maxBodyBytes,
		}),
		timeout: timeout,
	}
}

// open fetches rawURL and returns its body (content coding removed). The
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
	resp, err := f.f.Fetch(ctx, &explorer.Request{URL: rawURL, Header: explorer.Header{
		"Accept": {"application/xml, text/xml;q=0.9, */*;q=0.1"},
	}})
	if err != nil {
		return nil, f.explain(err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		resp.Body.Close()
		return nil, fmt.Errorf("HTTP %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	return &timedBody{ReadCloser: resp.Body, f: f}, nil
}

// explain shortens the errors people read most often.
func (f *fetcher) explain(err error) error {
	if errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) {
		return fmt.Errorf("Content-Encoding gzip, but the body is not gzip (%v)", err)
	}
	var ne interface{ Timeout() bool }
	if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("no response within %v", f.timeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// timedBody says what a timeout while reading the body means.
type timedBody struct {
	io.ReadCloser
	f *fetcher
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		var ne interface{ Timeout() bool }
		if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("response not complete within %v", b.f.timeout)
		} else {
			err = b.f.explain(err)
		}
	}
	return n, err
}
