//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"

	"github.com/hack-pad/safejs"
	"github.com/rscheck/rscheck/explorer"
)

// networkError is a fetch the browser refused without saying why: to a
// script, a cross-origin response without CORS headers and an unreachable
// host look the same ("TypeError: Failed to fetch").
type networkError struct {
	url string
	err error
}

func (e *networkError) Error() string {
	return "probable CORS or network error: the browser could not read " + e.url +
		" (the server does not allow other sites to read it, with Access-Control-Allow-Origin, or it cannot be reached);" +
		" check it with the bookmarklet or through rscheck's local proxy (serve --proxy) [" + e.err.Error() + "]"
}

func (e *networkError) Unwrap() error { return e.err }

// opaqueFailures are how browsers word a fetch that failed for CORS or
// for the network: Chromium, Firefox, Safari.
var opaqueFailures = []string{"Failed to fetch", "NetworkError when attempting to fetch", "Load failed"}

// classify turns the browser's opaque fetch failures into networkErrors.
func classify(rawURL string, err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	for _, s := range opaqueFailures {
		if strings.Contains(err.Error(), s) {
			return &networkError{url: rawURL, err: err}
		}
	}
	return err
}

// corsWatch wraps a Fetcher and counts the requests that failed as a
// probable CORS or network error, so that the page can offer its two ways
// out (the bookmarklet and the proxy).
type corsWatch struct {
	f     explorer.Fetcher
	mu    sync.Mutex
	n     int
	first string
}

func (c *corsWatch) Fetch(ctx context.Context, req *explorer.Request) (*explorer.Response, error) {
	resp, err := c.f.Fetch(ctx, req)
	err = classify(req.URL, err)
	var ne *networkError
	if errors.As(err, &ne) {
		c.mu.Lock()
		if c.n == 0 {
			c.first = req.URL
		}
		c.n++
		c.mu.Unlock()
	}
	return resp, err
}

// summary describes the suspected CORS failures for the result message.
func (c *corsWatch) summary() obj {
	c.mu.Lock()
	defer c.mu.Unlock()
	return obj{"failures": c.n, "first": c.first}
}

// jsFetcher is an explorer.Fetcher on the browser's fetch, called
// directly: under GOOS=js, net/http also ends in fetch, but its client
// brings the native transport along (HTTP/2, TLS, certificates), which a
// browser never uses and which weighs about 1 MB of the gzipped module once
// nothing else refers to it (see README.md). The browser follows redirects
// and decodes content codings itself; the response's URL says where it
// ended.
type jsFetcher struct{}

func (jsFetcher) Fetch(ctx context.Context, req *explorer.Request) (*explorer.Response, error) {
	method := req.Method
	if method == "" {
		method = "GET"
	}
	ac, err := get(self, "AbortController").New()
	if err != nil {
		return nil, err
	}
	headers := obj{}
	for k, vs := range req.Header {
		headers[k] = strings.Join(vs, ", ")
	}
	// No cookies: a crawl sees a Source as any Destination does.
	init := obj{"method": method, "credentials": "omit", "redirect": "follow", "cache": "no-store",
		"headers": headers, "signal": get(ac, "signal")}
	promise, err := self.Call("fetch", req.URL, init)
	if err != nil {
		return nil, classify(req.URL, fmt.Errorf("fetch: %w", err))
	}
	res, err := await(ctx, promise)
	if err != nil {
		ac.Call("abort")
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, classify(req.URL, fmt.Errorf("fetch: %w", err))
	}
	pairs, _ := get(self, "Array").Call("from", get(res, "headers"))
	resp := startResponse(req.URL, res, pairs)
	if ce := resp.Header.Get("Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
		resp.Header.Del("Content-Encoding")
		resp.Header.Del("Content-Length")
		resp.Decoded = true
	} else if cl := resp.Header.Get("Content-Length"); cl != "" {
		fmt.Sscan(cl, &resp.ContentLength)
	}
	body := get(res, "body")
	if body.IsNull() || body.IsUndefined() || method == "HEAD" {
		resp.Body = &abortBody{ReadCloser: io.NopCloser(bytes.NewReader(nil)), ac: ac}
		return resp, nil
	}
	reader, err := body.Call("getReader")
	if err != nil {
		ac.Call("abort")
		return nil, err
	}
	resp.Body = &abortBody{ReadCloser: &streamReader{ctx: ctx, reader: reader}, ac: ac}
	return resp, nil
}

// streamReader reads a ReadableStream through its default reader: a
// response body, whose chunks arrive from the network as they come.
type streamReader struct {
	ctx    context.Context
	reader safejs.Value
	buf    []byte // unread part of the last chunk
	done   bool
}

func (r *streamReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.done {
			return 0, io.EOF
		}
		promise, err := r.reader.Call("read")
		if err != nil {
			return 0, err
		}
		res, err := await(r.ctx, promise)
		if err != nil {
			return 0, err
		}
		if flag(res, "done") {
			r.done = true
			continue
		}
		if r.buf, err = bytesOf(get(res, "value")); err != nil {
			return 0, err
		}
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

func (r *streamReader) Close() error {
	if !r.done {
		r.done = true
		r.reader.Call("cancel") // the stream may already be closed: ignore
	}
	return nil
}

// abortBody aborts its fetch when closed, so that a body left unread
// does not keep downloading.
type abortBody struct {
	io.ReadCloser
	ac safejs.Value
}

func (b *abortBody) Close() error {
	err := b.ReadCloser.Close()
	b.ac.Call("abort")
	return err
}

// Headers the proxy (cmd/serve --proxy) adds to its answers.
const (
	proxyURLHeader   = "X-Rscheck-Url"          // the URL the answer came from, after redirects
	proxyTypeHeader  = "X-Rscheck-Content-Type" // the target's Content-Type
	proxyErrorHeader = "X-Rscheck-Proxy-Error"  // why the proxy could not fetch, on a 502
)

// proxyFetcher fetches through the local proxy of cmd/serve: the page's
// own origin fetches the target for it, so CORS does not apply.
type proxyFetcher struct {
	endpoint string // absolute URL of /proxy
	f        explorer.Fetcher
}

func (p *proxyFetcher) Fetch(ctx context.Context, req *explorer.Request) (*explorer.Response, error) {
	r := *req
	r.URL = p.endpoint + "?url=" + url.QueryEscape(req.URL)
	resp, err := p.f.Fetch(ctx, &r)
	if err != nil {
		return nil, fmt.Errorf("local proxy: %w", err)
	}
	if msg := resp.Header.Get(proxyErrorHeader); msg != "" {
		resp.Body.Close()
		return nil, errors.New(msg)
	}
	resp.URL = req.URL
	if u := resp.Header.Get(proxyURLHeader); u != "" {
		resp.URL = u
	}
	resp.Header.Del(proxyURLHeader)
	// The proxy serves everything as application/octet-stream, so that
	// no target is ever a page of the app's origin; the target's own
	// type is what the explorer checks.
	resp.Header.Del("Content-Type")
	if ct := resp.Header.Get(proxyTypeHeader); ct != "" {
		resp.Header.Set("Content-Type", ct)
	}
	resp.Header.Del(proxyTypeHeader)
	return resp, nil
}

// maxRelayBody bounds a body the relay passes on; the relay enforces the
// same limit on its side.
const maxRelayBody = 256 << 20

// relay is the Fetcher of bookmarklet mode: every request goes to the
// page, which has the bookmarklet's code fetch it in the checked site's
// own window (same origin, so CORS does not apply) and posts the answer
// back. See web/static/bookmarklet.js.
type relay struct {
	mu      sync.Mutex
	next    int
	pending map[int]chan safejs.Value
}

func newRelay() *relay { return &relay{pending: map[int]chan safejs.Value{}} }

// deliver hands a fetch-result message to the request waiting for it. It
// is called by the message handler and never blocks.
func (r *relay) deliver(data safejs.Value) {
	fid, _ := num(data, "fid")
	r.mu.Lock()
	ch := r.pending[int(fid)]
	delete(r.pending, int(fid))
	r.mu.Unlock()
	if ch != nil {
		ch <- data // buffered, and delivered once
	}
}

func (r *relay) Fetch(ctx context.Context, req *explorer.Request) (*explorer.Response, error) {
	method := req.Method
	if method == "" {
		method = "GET"
	}
	ch := make(chan safejs.Value, 1)
	r.mu.Lock()
	r.next++
	fid := r.next
	r.pending[fid] = ch
	r.mu.Unlock()
	if err := post(obj{"type": "fetch", "fid": fid, "url": req.URL, "method": method}); err != nil {
		return nil, err
	}
	var data safejs.Value
	select {
	case data = <-ch:
	case <-ctx.Done():
		r.mu.Lock()
		delete(r.pending, fid)
		r.mu.Unlock()
		post(obj{"type": "fetch-abort", "fid": fid})
		return nil, ctx.Err()
	}
	if msg := str(data, "error"); msg != "" {
		return nil, classify(req.URL, errors.New(msg))
	}
	resp := startResponse(req.URL, data, get(data, "headers"))
	var body []byte
	if b := get(data, "body"); !b.IsUndefined() && !b.IsNull() {
		var err error
		if body, err = bytesOf(b); err != nil {
			return nil, fmt.Errorf("relay: body: %w", err)
		}
	}
	if len(body) > maxRelayBody {
		return nil, explorer.ErrTooLarge
	}
	// The site's fetch decoded any content coding, as the browser's
	// fetch does for the explorer's HTTPFetcher.
	if ce := resp.Header.Get("Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
		resp.Header.Del("Content-Encoding")
		resp.Header.Del("Content-Length")
		resp.Decoded = true
	} else if cl := resp.Header.Get("Content-Length"); cl != "" {
		fmt.Sscan(cl, &resp.ContentLength)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// startResponse begins the Response to a request for reqURL from a reply
// with a status, a final url and headers as [name, value] pairs: a Fetch
// Response (its headers through Array.from) or a relay's reply. Headers
// that cannot be read are left out.
func startResponse(reqURL string, reply, pairs safejs.Value) *explorer.Response {
	status, _ := num(reply, "status")
	resp := &explorer.Response{URL: reqURL, StatusCode: int(status), Header: explorer.Header{}, ContentLength: -1}
	if u := str(reply, "url"); u != "" {
		resp.URL = u
	}
	n, err := pairs.Length()
	if err != nil {
		return resp
	}
	for i := range n {
		pair, _ := pairs.Index(i)
		k, _ := pair.Index(0)
		v, _ := pair.Index(1)
		ks, _ := k.String()
		vs, _ := v.String()
		resp.Header.Add(ks, vs)
	}
	return resp
}
