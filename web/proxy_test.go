package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// upstream is a target site for the proxy.
func upstream(t *testing.T) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/doc.xml":
			if r.Header.Get("Cookie") != "" || r.Header.Get("Authorization") != "" {
				http.Error(w, "credentials were forwarded", http.StatusTeapot)
				return
			}
			w.Header().Set("Content-Type", "application/xml")
			w.Header().Set("Link", `</cl.xml>; rel="resourcesync"`)
			w.Header().Set("Last-Modified", "Tue, 15 Nov 1994 08:12:31 GMT")
			w.Header().Set("Set-Cookie", "session=secret")
			w.Header().Set("X-Other", "dropped")
			io.WriteString(w, "<urlset/>")
		case "/redirect":
			http.Redirect(w, r, "/doc.xml", http.StatusFound)
		case "/to-ftp":
			http.Redirect(w, r, "ftp://127.0.0.1/file", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/big":
			w.Header().Set("Content-Length", "2048")
			w.Write(make([]byte, 2048))
		case "/big-chunked":
			for range 4 {
				w.Write(make([]byte, 512))
				w.(http.Flusher).Flush()
			}
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		case "/page.html":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<script>alert(1)</script>")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func proxyServer(t *testing.T) *httptest.Server {
	t.Helper()
	h := NewHandler(Options{FS: testApp(), Proxy: true, ProxyMaxBytes: 1024, ProxyTimeout: 300 * time.Millisecond})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func proxyGet(t *testing.T, p *httptest.Server, target string, header ...string) (*http.Response, string, error) {
	t.Helper()
	req, _ := http.NewRequest("GET", p.URL+"/proxy?url="+url.QueryEscape(target), nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := p.Client().Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, string(b), err
}

func TestProxyFetches(t *testing.T) {
	up, p := upstream(t), proxyServer(t)
	resp, body, err := proxyGet(t, p, up.URL+"/redirect", "Cookie", "mine=1", "Authorization", "Basic eDp5")
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || body != "<urlset/>" {
		t.Fatalf("status %d, body %q", resp.StatusCode, body)
	}
	hd := resp.Header
	for k, want := range map[string]string{
		ProxyURLHeader:            up.URL + "/doc.xml",
		ProxyTypeHeader:           "application/xml",
		"Content-Type":            "application/octet-stream",
		"Link":                    `</cl.xml>; rel="resourcesync"`,
		"Last-Modified":           "Tue, 15 Nov 1994 08:12:31 GMT",
		"Content-Security-Policy": "sandbox; default-src 'none'",
		"Set-Cookie":              "",
		"X-Other":                 "",
	} {
		if got := hd.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	resp, _, _ = proxyGet(t, p, up.URL+"/missing")
	if resp.StatusCode != 404 {
		t.Errorf("a 404 of the target: status %d", resp.StatusCode)
	}
	// A page of the target is never a page of the app's origin.
	resp, _, _ = proxyGet(t, p, up.URL+"/page.html")
	if ct := resp.Header.Get("Content-Type"); ct != "application/octet-stream" {
		t.Errorf("an HTML target is served as %q", ct)
	}
	status, err := http.Get(p.URL + "/proxy/status")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(status.Body); string(b) != `{"enabled":true,"endpoint":"/proxy"}` {
		t.Errorf("/proxy/status: %s", b)
	}
}

func TestProxyRefuses(t *testing.T) {
	up, p := upstream(t), proxyServer(t)
	for _, tc := range []struct {
		name, target string
		status       int
		msg          string
	}{
		{"file scheme", "file:///etc/passwd", 400, "only http and https"},
		{"javascript scheme", "javascript:alert(1)", 400, "only http and https"},
		{"no URL", "", 400, "only http and https"},
		{"relative", "/doc.xml", 400, "only http and https"},
		{"credentials", strings.Replace(up.URL, "http://", "http://user:pw@", 1) + "/doc.xml", 400, "credentials"},
		{"redirect to ftp", up.URL + "/to-ftp", 502, "only http and https"},
		{"redirect loop", up.URL + "/loop", 502, "redirects"},
		{"too large", up.URL + "/big", 502, "larger than"},
		{"timeout", up.URL + "/slow", 502, "no answer within"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, _, err := proxyGet(t, p, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.status || !strings.Contains(resp.Header.Get(ProxyErrorHeader), tc.msg) {
				t.Errorf("status %d, error %q; want %d, %q", resp.StatusCode, resp.Header.Get(ProxyErrorHeader), tc.status, tc.msg)
			}
		})
	}
	t.Run("too large without Content-Length", func(t *testing.T) {
		_, body, err := proxyGet(t, p, up.URL+"/big-chunked")
		if err == nil {
			t.Errorf("a %d-byte body over the limit came through whole", len(body))
		}
	})
}

// TestProxyClients checks who may use the proxy: loopback clients, on a
// loopback Host, from the app's own pages.
func TestProxyClients(t *testing.T) {
	up := upstream(t)
	h := NewHandler(Options{FS: testApp(), Proxy: true})
	for _, tc := range []struct {
		name, remote, host, site string
		status                   int
	}{
		{"loopback v4", "127.0.0.1:5000", "127.0.0.1:8080", "", 200},
		{"loopback v6", "[::1]:5000", "[::1]:8080", "same-origin", 200},
		{"localhost", "127.0.0.1:5000", "localhost:8080", "none", 200},
		{"other machine", "203.0.113.7:5000", "127.0.0.1:8080", "", 403},
		{"other machine, forged header", "192.168.1.20:5000", "127.0.0.1:8080", "", 403},
		{"DNS rebinding", "127.0.0.1:5000", "evil.example:8080", "", 403},
		{"another site", "127.0.0.1:5000", "127.0.0.1:8080", "cross-site", 403},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/proxy?url="+url.QueryEscape(up.URL+"/doc.xml"), nil)
			req.RemoteAddr = tc.remote
			req.Host = tc.host
			req.Header.Set("X-Forwarded-For", "127.0.0.1")
			if tc.site != "" {
				req.Header.Set("Sec-Fetch-Site", tc.site)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != tc.status {
				t.Errorf("status %d, want %d (%s)", w.Code, tc.status, w.Header().Get(ProxyErrorHeader))
			}
		})
	}
	req := httptest.NewRequest("POST", "/proxy?url="+url.QueryEscape(up.URL+"/doc.xml"), nil)
	req.RemoteAddr = "127.0.0.1:5000"
	req.Host = "127.0.0.1"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d, want 405", w.Code)
	}
}
