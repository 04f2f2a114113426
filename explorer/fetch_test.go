//go:build !js

package explorer_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/validator"
)

func get(t *testing.T, f explorer.Fetcher, url string) (*explorer.Response, []byte, error) {
	t.Helper()
	resp, err := f.Fetch(context.Background(), &explorer.Request{URL: url})
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

func TestHTTPFetcher(t *testing.T) {
	const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://a.example/</loc></url></urlset>`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(xml))
	zw.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/target", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/missing", http.NotFound)
	// Content-Encoding: gzip: the transport decodes it, once.
	mux.HandleFunc("/encoded.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gz.Bytes())
	})
	// A .xml.gz file: the body stays compressed, for Validate to sniff.
	mux.HandleFunc("/sitemap.xml.gz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/gzip")
		w.Write(gz.Bytes())
	})
	// A misconfigured server that declares the encoding of a .gz file:
	// decoded by the transport, then plain XML for Validate.
	mux.HandleFunc("/both.xml.gz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/gzip")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gz.Bytes())
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	f := &explorer.HTTPFetcher{}

	resp, _, err := get(t, f, srv.URL+"/redirect")
	if err != nil || resp.StatusCode != 301 || resp.Header.Get("Location") != "/target" {
		t.Errorf("redirect: got %v, %v; want the 301 itself", resp, err)
	}
	resp, _, err = get(t, f, srv.URL+"/missing")
	if err != nil || resp.StatusCode != 404 {
		t.Errorf("404: got %v, %v; want a response with a nil error", resp, err)
	}
	if _, err := f.Fetch(context.Background(), &explorer.Request{URL: "ftp://a.example/x"}); !errors.Is(err, explorer.ErrScheme) {
		t.Errorf("ftp: err = %v, want ErrScheme", err)
	}
	for _, path := range []string{"/encoded.xml", "/sitemap.xml.gz", "/both.xml.gz"} {
		resp, body, err := get(t, f, srv.URL+path)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := validator.Validate(context.Background(), bytes.NewReader(body), &validator.Options{NoSchema: true})
		if err != nil || rep.Kind != validator.Sitemap || rep.Entries != 1 {
			t.Errorf("%s (decoded=%v): Validate = %+v, %v; want a Sitemap with one entry", path, resp.Decoded, rep, err)
		}
		if wantDecoded := path != "/sitemap.xml.gz"; resp.Decoded != wantDecoded {
			t.Errorf("%s: Decoded = %v, want %v", path, resp.Decoded, wantDecoded)
		}
	}
}

func TestFollowRedirects(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/a", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/b", 301) })
	mux.HandleFunc("/b", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/c#frag", 302) })
	mux.HandleFunc("/c", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, r.Method) })
	mux.HandleFunc("/loop1", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop2", 302) })
	mux.HandleFunc("/loop2", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop1", 302) })
	mux.HandleFunc("/ftp", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "ftp://a.example/x", 302) })
	mux.HandleFunc("/see-other", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/c", 303) })
	mux.HandleFunc("/nolocation", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(302) })
	mux.HandleFunc("/chain/", func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(r.URL.Path, "/chain/%d", &n)
		http.Redirect(w, r, fmt.Sprintf("/chain/%d", n+1), 307)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	f := explorer.FollowRedirects(&explorer.HTTPFetcher{}, 10)

	resp, body, err := get(t, f, srv.URL+"/a")
	if err != nil || string(body) != "GET" || resp.URL != srv.URL+"/c" || len(resp.Redirects) != 2 ||
		resp.Redirects[0].Status != 301 || resp.Redirects[1].To != srv.URL+"/c" {
		t.Errorf("chain: %+v %q %v", resp, body, err)
	}
	for path, want := range map[string]string{"/loop1": "redirect loop", "/ftp": "only http and https", "/chain/0": "too many redirects", "/nolocation": "without a Location"} {
		if _, _, err := get(t, f, srv.URL+path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", path, err, want)
		}
	}
	if _, _, err := get(t, f, srv.URL+"/ftp"); !errors.Is(err, explorer.ErrScheme) {
		t.Errorf("ftp redirect: err = %v, want ErrScheme", err)
	}
	resp, err = f.Fetch(context.Background(), &explorer.Request{Method: "HEAD", URL: srv.URL + "/see-other"})
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("HEAD after 303: %v, %v", resp, err)
	} else {
		resp.Body.Close()
	}
}

func TestPolitely(t *testing.T) {
	checkNoLeaks(t)
	var inflight, peak atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inflight.Add(1)
		defer inflight.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		fmt.Fprint(w, "ok")
	}))
	defer srv.Close()
	f := explorer.Politely(&explorer.HTTPFetcher{}, 2, 0)
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := get(t, f, fmt.Sprintf("%s/%d", srv.URL, i)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > 2 || p < 1 {
		t.Errorf("peak concurrency %d, want at most 2", p)
	}
	// The delay separates the starts of requests to one host: timed where
	// Politely hands each request on, not where the server sees it, which
	// a new connection's set-up can delay by a few milliseconds.
	var mu sync.Mutex
	var starts []time.Time
	var hf explorer.HTTPFetcher
	f = explorer.Politely(explorer.FetcherFunc(func(ctx context.Context, r *explorer.Request) (*explorer.Response, error) {
		mu.Lock()
		starts = append(starts, time.Now())
		mu.Unlock()
		return hf.Fetch(ctx, r)
	}), 4, 30*time.Millisecond)
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			get(t, f, fmt.Sprintf("%s/%d", srv.URL, i))
		}()
	}
	wg.Wait()
	if len(starts) != 4 {
		t.Fatalf("%d requests started, want 4", len(starts))
	}
	for i := 1; i < len(starts); i++ {
		if d := starts[i].Sub(starts[i-1]); d < 25*time.Millisecond {
			t.Errorf("requests %d and %d started %v apart, want at least 30ms", i-1, i, d)
		}
	}
	// A waiting request gives up when its context is cancelled.
	f = explorer.Politely(&explorer.HTTPFetcher{}, 1, 0)
	resp, err := f.Fetch(context.Background(), &explorer.Request{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := f.Fetch(ctx, &explorer.Request{URL: srv.URL}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting for a slot: err = %v, want the context's", err)
	}
	resp.Body.Close()
}

func TestTimeoutAndLimit(t *testing.T) {
	checkNoLeaks(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow-header":
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		case "/slow-body":
			w.Write([]byte("start"))
			w.(http.Flusher).Flush()
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		case "/big":
			w.Header().Set("Content-Length", "1000")
			w.Write(make([]byte, 1000))
		case "/chunked":
			for range 10 {
				w.Write(make([]byte, 100))
				w.(http.Flusher).Flush()
			}
		case "/exact":
			w.Write(make([]byte, 100))
		}
	}))
	defer srv.Close()
	f := explorer.Timeout(&explorer.HTTPFetcher{}, 100*time.Millisecond)
	start := time.Now()
	_, _, err := get(t, f, srv.URL+"/slow-header")
	var te *explorer.TimeoutError
	if !errors.As(err, &te) || time.Since(start) > 2*time.Second {
		t.Errorf("slow header: err = %v after %v, want a TimeoutError soon", err, time.Since(start))
	}
	_, _, err = get(t, f, srv.URL+"/slow-body")
	if !errors.As(err, &te) {
		t.Errorf("slow body: err = %v, want a TimeoutError", err)
	}

	l := explorer.LimitBytes(&explorer.HTTPFetcher{}, 100)
	if _, _, err := get(t, l, srv.URL+"/big"); !errors.Is(err, explorer.ErrTooLarge) {
		t.Errorf("Content-Length over the limit: err = %v", err)
	}
	if _, _, err := get(t, l, srv.URL+"/chunked"); !errors.Is(err, explorer.ErrTooLarge) {
		t.Errorf("chunked body over the limit: err = %v", err)
	}
	if _, b, err := get(t, l, srv.URL+"/exact"); err != nil || len(b) != 100 {
		t.Errorf("body of exactly the limit: %d bytes, %v", len(b), err)
	}
}

func TestMemoize(t *testing.T) {
	checkNoLeaks(t)
	var hits sync.Map
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := hits.LoadOrStore(r.Method+r.URL.Path, new(atomic.Int32))
		n.(*atomic.Int32).Add(1)
		if r.URL.Path == "/big" {
			w.Write(make([]byte, 2000))
			return
		}
		w.Header().Set("X-Test", "yes")
		fmt.Fprint(w, "small body")
	}))
	defer srv.Close()
	count := func(key string) int32 {
		n, ok := hits.Load(key)
		if !ok {
			return 0
		}
		return n.(*atomic.Int32).Load()
	}
	f := explorer.Memoize(&explorer.HTTPFetcher{}, 1000)
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, b, err := get(t, f, srv.URL+"/small")
			if err != nil || string(b) != "small body" || resp.Header.Get("X-Test") != "yes" {
				t.Errorf("replay: %q %v", b, err)
			}
		}()
	}
	wg.Wait()
	if n := count("GET/small"); n != 1 {
		t.Errorf("small body fetched %d times, want once", n)
	}
	for range 2 {
		resp, err := f.Fetch(context.Background(), &explorer.Request{Method: "HEAD", URL: srv.URL + "/small"})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if n := count("HEAD/small"); n != 1 {
		t.Errorf("HEAD fetched %d times, want once", n)
	}
	for range 2 {
		if _, b, err := get(t, f, srv.URL+"/big"); err != nil || len(b) != 2000 {
			t.Errorf("big: %d bytes, %v", len(b), err)
		}
	}
	if n := count("GET/big"); n != 2 {
		t.Errorf("a body over the memo's size fetched %d times, want each time (2)", n)
	}
	// Errors are remembered too.
	for range 2 {
		if _, _, err := get(t, f, "http://127.0.0.1:1/unreachable"); err == nil {
			t.Error("want an error")
		}
	}
}
