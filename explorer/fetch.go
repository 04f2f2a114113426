package explorer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"
	"time"
)

// A Request is one HTTP request made by a crawl.
type Request struct {
	// Method is "GET" (also when empty) or "HEAD".
	Method string
	// URL is the absolute http or https URL to fetch.
	URL string
	// Header holds extra request headers; nil for none.
	Header Header
}

func (r *Request) method() string {
	if r.Method == "" {
		return methodGet
	}
	return r.Method
}

// A Response is the answer to a Request.
type Response struct {
	// URL is the URL the response came from: the request's URL, or the
	// last one reached when redirects were followed.
	URL string
	// StatusCode is the HTTP status code, such as 200 or 404.
	StatusCode int
	// Header holds the response headers.
	Header Header
	// ContentLength is the Content-Length of the body as received, or -1
	// when unknown (also when the transport decoded a content coding).
	ContentLength int64
	// Body is the response body. It is never nil when Fetch returns a nil
	// error (it is empty for HEAD), and the caller must close it.
	Body io.ReadCloser
	// Redirects are the redirects followed to reach URL, in order.
	Redirects []Redirect
	// Decoded is true when the transport removed a Content-Encoding (such
	// as gzip) from the body: the bytes read are not the bytes sent.
	Decoded bool
}

// A Redirect is one redirect followed on the way to a response.
type Redirect struct {
	From   string // the URL that answered with a redirect
	Status int    // 301, 302, 303, 307 or 308
	To     string // the absolute URL of its Location
}

// A Fetcher performs HTTP requests for a crawl. It is the only way the
// explorer reaches the network, so that the same crawl runs natively, in a
// browser and against test servers.
//
// Fetch must be safe for concurrent use by multiple goroutines.
//
// Fetch performs the request and returns its response. A Fetcher does not
// follow redirects: a 3xx answer is returned like any other response, its
// Location in Header (wrap a Fetcher with FollowRedirects to follow them).
// A platform that follows redirects by itself, as the browser's fetch does,
// returns the final response instead, with URL naming where it came from
// when the platform tells.
//
// The error is nil if and only if a response was obtained, whatever its
// status code: a 404 is a response, not an error. A non-nil error means
// there is no response (the host is unreachable, the request timed out,
// a wrapper refused it, ctx was cancelled); the Response is then nil.
//
// When the error is nil the caller must close Body, whether or not it
// read it; closing it before the end abandons the transfer.
//
// Fetch must honour ctx: it returns promptly once ctx is done, both while
// waiting for the response and, through Body's Read returning an error,
// while the body is transferred.
//
// Fetch must not modify the Request.
type Fetcher interface {
	Fetch(ctx context.Context, req *Request) (*Response, error)
}

// FetcherFunc adapts a function to the Fetcher interface.
type FetcherFunc func(ctx context.Context, req *Request) (*Response, error)

// Fetch calls f(ctx, req).
func (f FetcherFunc) Fetch(ctx context.Context, req *Request) (*Response, error) { return f(ctx, req) }

// ErrScheme is returned for a URL, or a redirect target, that is not http
// or https.
var ErrScheme = errors.New("only http and https URLs are fetched")

// ErrTooLarge is returned, by Fetch or by Body's Read, when a response body
// is larger than a LimitBytes limit.
var ErrTooLarge = errors.New("response body too large")

// ErrTooManyRedirects is returned by FollowRedirects after its limit.
var ErrTooManyRedirects = errors.New("too many redirects")

// unwrapURLError drops the *url.Error wrapper, whose message repeats the
// method and URL that findings already give.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}

func checkScheme(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("invalid URL: %w", unwrapURLError(err))
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return fmt.Errorf("invalid URL %q: no host", raw)
		}
		return nil
	}
	return fmt.Errorf("%w: %q", ErrScheme, raw)
}

// bodyCloser runs a function once when a body is closed.
type bodyCloser struct {
	io.Reader
	body    io.Closer
	once    sync.Once
	onClose func()
}

func (b *bodyCloser) Close() error {
	err := b.body.Close()
	b.once.Do(b.onClose)
	return err
}

// onClose wraps resp.Body so that fn runs once when it is closed.
func onClose(resp *Response, fn func()) {
	resp.Body = &bodyCloser{Reader: resp.Body, body: resp.Body, onClose: fn}
}

// Timeout returns a Fetcher that gives up on a request when the network
// keeps it waiting longer than d: for the response, or for any read of the
// body. Time the caller spends between reads (validating what it read)
// does not count, so that a slow consumer is not taken for a slow server;
// bound the total time with the context. Zero or negative d means no
// timeout.
func Timeout(f Fetcher, d time.Duration) Fetcher {
	if d <= 0 {
		return f
	}
	return FetcherFunc(func(ctx context.Context, req *Request) (*Response, error) {
		ctx, cancel := context.WithCancelCause(ctx)
		t := time.AfterFunc(d, func() { cancel(errTimedOut) })
		resp, err := f.Fetch(ctx, req)
		t.Stop()
		if err != nil {
			cancel(nil)
			return nil, timeoutErr(ctx, d, err)
		}
		resp.Body = &timeoutBody{ReadCloser: resp.Body, ctx: ctx, cancel: cancel, d: d}
		onClose(resp, func() { cancel(nil) })
		return resp, nil
	})
}

var errTimedOut = errors.New("timed out")

// TimeoutError reports a request on which the network kept the explorer
// waiting longer than its timeout.
type TimeoutError struct {
	After time.Duration
}

// Error says how long the explorer waited.
func (e *TimeoutError) Error() string {
	return fmt.Sprintf("no response within %v", e.After)
}

// Timeout reports true, as net.Error does.
func (e *TimeoutError) Timeout() bool { return true }

func timeoutErr(ctx context.Context, d time.Duration, err error) error {
	if context.Cause(ctx) == errTimedOut {
		return &TimeoutError{After: d}
	}
	return err
}

type timeoutBody struct {
	io.ReadCloser
	ctx    context.Context
	cancel context.CancelCauseFunc
	d      time.Duration
}

func (b *timeoutBody) Read(p []byte) (int, error) {
	t := time.AfterFunc(b.d, func() { b.cancel(errTimedOut) })
	n, err := b.ReadCloser.Read(p)
	t.Stop()
	if err != nil && err != io.EOF {
		err = timeoutErr(b.ctx, b.d, err)
	}
	return n, err
}

// LimitBytes returns a Fetcher whose response bodies end with ErrTooLarge
// after n bytes. A response whose Content-Length announces more than n is
// refused at once (Fetch returns an error wrapping ErrTooLarge).
func LimitBytes(f Fetcher, n int64) Fetcher {
	if n <= 0 {
		return f
	}
	return FetcherFunc(func(ctx context.Context, req *Request) (*Response, error) {
		resp, err := f.Fetch(ctx, req)
		if err != nil {
			return nil, err
		}
		if resp.ContentLength > n {
			resp.Body.Close()
			return nil, fmt.Errorf("%w: Content-Length is %d bytes, the limit %d", ErrTooLarge, resp.ContentLength, n)
		}
		resp.Body = &limitedBody{ReadCloser: resp.Body, left: n, limit: n}
		return resp, nil
	})
}

type limitedBody struct {
	io.ReadCloser
	left, limit int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One more byte tells a body of exactly the limit from a longer one.
		var one [1]byte
		for {
			n, err := b.ReadCloser.Read(one[:])
			if n > 0 {
				return 0, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, b.limit)
			}
			if err != nil {
				return 0, err
			}
		}
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}

// FollowRedirects returns a Fetcher that follows at most max redirects
// (301, 302, 303, 307, 308), only to http and https URLs, and records them
// in Response.Redirects. A loop, a redirect past max or to another scheme,
// and a redirect without a usable Location are errors. A 303 turns the
// request into a GET; other redirects keep the method.
func FollowRedirects(f Fetcher, max int) Fetcher {
	return FetcherFunc(func(ctx context.Context, req *Request) (*Response, error) {
		cur := *req
		var hops []Redirect
		seen := map[string]bool{req.URL: true}
		for {
			resp, err := f.Fetch(ctx, &cur)
			if err != nil {
				return nil, err
			}
			switch resp.StatusCode {
			case 301, 302, 303, 307, 308:
			default:
				if resp.URL == "" {
					resp.URL = cur.URL
				}
				resp.Redirects = append(hops, resp.Redirects...)
				return resp, nil
			}
			resp.Body.Close()
			loc := resp.Header.Get("Location")
			if loc == "" {
				return nil, fmt.Errorf("%s answered %d without a Location header", cur.URL, resp.StatusCode)
			}
			base, err := url.Parse(cur.URL)
			if err != nil {
				return nil, err
			}
			next, err := base.Parse(loc)
			if err != nil {
				return nil, fmt.Errorf("%s answered %d with an invalid Location %q", cur.URL, resp.StatusCode, loc)
			}
			next.Fragment = ""
			to := next.String()
			hops = append(hops, Redirect{From: cur.URL, Status: resp.StatusCode, To: to})
			if err := checkScheme(to); err != nil {
				return nil, fmt.Errorf("%s redirects to %s: %w", cur.URL, to, ErrScheme)
			}
			if seen[to] {
				return nil, fmt.Errorf("redirect loop: %s", chain(hops))
			}
			if len(hops) > max {
				return nil, fmt.Errorf("%w (more than %d): %s", ErrTooManyRedirects, max, chain(hops))
			}
			seen[to] = true
			cur.URL = to
			if resp.StatusCode == 303 && cur.Method != methodHead {
				cur.Method = methodGet
			}
		}
	})
}

func chain(hops []Redirect) string {
	var b strings.Builder
	for i, h := range hops {
		if i == 0 {
			b.WriteString(h.From)
		}
		fmt.Fprintf(&b, " →%d %s", h.Status, h.To)
	}
	return b.String()
}

// Politely returns a Fetcher that has at most inflight requests under way
// at once (a request is under way until its body is closed) and, when
// delay is positive, starts requests to the same host at least delay
// apart. inflight <= 0 means 4.
func Politely(f Fetcher, inflight int, delay time.Duration) Fetcher {
	if inflight <= 0 {
		inflight = 4
	}
	p := &polite{next: f, slots: make(chan struct{}, inflight), delay: delay, last: map[string]time.Time{}}
	return p
}

type polite struct {
	next  Fetcher
	slots chan struct{}
	delay time.Duration
	mu    sync.Mutex
	last  map[string]time.Time // host → time of the latest (reserved) request start
}

func (p *polite) Fetch(ctx context.Context, req *Request) (*Response, error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	release := func() { <-p.slots }
	if p.delay > 0 {
		if err := p.wait(ctx, req.URL); err != nil {
			release()
			return nil, err
		}
	}
	resp, err := p.next.Fetch(ctx, req)
	if err != nil {
		release()
		return nil, err
	}
	onClose(resp, release)
	return resp, nil
}

// wait reserves the next start time for the request's host and sleeps
// until then.
func (p *polite) wait(ctx context.Context, raw string) error {
	host := raw
	if u, err := url.Parse(raw); err == nil {
		host = strings.ToLower(u.Host)
	}
	p.mu.Lock()
	now := time.Now()
	at := now
	if last, ok := p.last[host]; ok && last.Add(p.delay).After(now) {
		at = last.Add(p.delay)
	}
	p.last[host] = at
	p.mu.Unlock()
	if d := at.Sub(now); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
	return nil
}
