package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Proxy limits and the headers of its answers.
const (
	DefaultProxyMaxBytes = 256 << 20
	DefaultProxyTimeout  = time.Minute
	proxyMaxRedirects    = 10

	// ProxyURLHeader carries the URL a proxied answer came from, after
	// redirects.
	ProxyURLHeader = "X-Rscheck-Url"
	// ProxyTypeHeader carries the target's Content-Type: the answer
	// itself is application/octet-stream, so that nothing the target sends
	// is ever rendered as a page of the app's origin.
	ProxyTypeHeader = "X-Rscheck-Content-Type"
	// ProxyErrorHeader says, on a 502, why the target could not be fetched.
	ProxyErrorHeader = "X-Rscheck-Proxy-Error"
)

// proxyHeaders are the target's response headers passed on: those the
// explorer looks at. Cookies and anything else stay behind.
var proxyHeaders = []string{"Last-Modified", "ETag", "Link", "Content-Language", "Content-Disposition"}

// proxy fetches http and https URLs for the page (GET /proxy?url=…), so
// that the page can check Sources that do not send CORS headers. It
// answers loopback clients only, on a loopback Host, and never forwards
// the client's cookies or credentials.
type proxy struct {
	client   *http.Client
	maxBytes int64
	timeout  time.Duration
}

func newProxy(o Options) *proxy {
	p := &proxy{maxBytes: o.ProxyMaxBytes, timeout: o.ProxyTimeout}
	if p.maxBytes <= 0 {
		p.maxBytes = DefaultProxyMaxBytes
	}
	if p.timeout <= 0 {
		p.timeout = DefaultProxyTimeout
	}
	tr := o.ProxyTransport
	if tr == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.Proxy = nil // the user's proxy settings are for the user's traffic
		tr = t
	}
	p.client = &http.Client{
		Transport: tr,
		Jar:       nil, // no cookies, ever
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > proxyMaxRedirects {
				return fmt.Errorf("stopped after %d redirects", proxyMaxRedirects)
			}
			if err := checkTarget(req.URL); err != nil {
				return fmt.Errorf("redirected to %s: %w", req.URL.Redacted(), err)
			}
			return nil
		},
	}
	return p
}

// checkTarget accepts absolute http and https URLs without credentials.
func checkTarget(u *url.URL) error {
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("only http and https URLs are fetched, not %q", u.Scheme+":")
	case u.Host == "":
		return errors.New("the URL has no host")
	case u.User != nil:
		return errors.New("URLs with credentials are not fetched")
	}
	return nil
}

// isLoopback reports whether a host (host:port, a name or an IP) is the
// loopback interface.
func isLoopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	fail := func(status int, msg string) {
		w.Header().Set(ProxyErrorHeader, msg)
		http.Error(w, msg, status)
	}
	// The client's address, never a header: headers are the client's to
	// choose. The Host check stops DNS rebinding (a site whose name
	// resolves to 127.0.0.1 reading the proxy as its own origin), the
	// Sec-Fetch-Site check other sites making the user's browser use it.
	switch {
	case !isLoopback(r.RemoteAddr):
		fail(http.StatusForbidden, "the proxy answers only this machine")
		return
	case !isLoopback(r.Host):
		fail(http.StatusForbidden, "the proxy answers only requests for a loopback host name")
		return
	case r.Header.Get("Sec-Fetch-Site") != "" && r.Header.Get("Sec-Fetch-Site") != "same-origin" && r.Header.Get("Sec-Fetch-Site") != "none":
		fail(http.StatusForbidden, "the proxy answers only the app's own pages")
		return
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		w.Header().Set("Allow", "GET, HEAD")
		fail(http.StatusMethodNotAllowed, "the proxy only GETs and HEADs")
		return
	}
	target, err := url.Parse(r.URL.Query().Get("url"))
	if err == nil {
		err = checkTarget(target)
	}
	if err != nil {
		fail(http.StatusBadRequest, "url: "+err.Error())
		return
	}

	ctx, cancel := context.WithTimeout(r.Context(), p.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, r.Method, target.String(), nil)
	if err != nil {
		fail(http.StatusBadRequest, "url: "+err.Error())
		return
	}
	req.Header.Set("User-Agent", "rscheck-proxy")
	resp, err := p.client.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("no answer within %v", p.timeout)
		}
		fail(http.StatusBadGateway, err.Error())
		return
	}
	defer resp.Body.Close()
	if resp.ContentLength > p.maxBytes {
		fail(http.StatusBadGateway, fmt.Sprintf("the body is larger than the proxy's limit of %d bytes", p.maxBytes))
		return
	}

	hd := w.Header()
	for _, k := range proxyHeaders {
		if v := resp.Header.Values(k); len(v) > 0 {
			hd[k] = v
		}
	}
	hd.Set(ProxyURLHeader, resp.Request.URL.String())
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		hd.Set(ProxyTypeHeader, ct)
	}
	// Whatever the target is, it is not a page of this origin.
	hd.Set("Content-Type", "application/octet-stream")
	hd.Set("Content-Security-Policy", "sandbox; default-src 'none'")
	hd.Set("Cache-Control", "no-store")
	if resp.ContentLength >= 0 && !resp.Uncompressed {
		hd.Set("Content-Length", strconv.FormatInt(resp.ContentLength, 10))
	}
	w.WriteHeader(resp.StatusCode)
	n, err := io.Copy(w, io.LimitReader(resp.Body, p.maxBytes+1))
	if n > p.maxBytes || err != nil {
		// The status is sent: cut the connection, so that the client sees
		// a failed transfer rather than a body that looks complete.
		panic(http.ErrAbortHandler)
	}
}
