package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// testApp is a small app with a module big enough to be compressed.
func testApp() fstest.MapFS {
	wasm := bytes.Repeat([]byte("\x00asm\x01\x00\x00\x00 module bytes "), 4096)
	return fstest.MapFS{
		"index.html":       {Data: []byte("<!doctype html><title>t</title>")},
		"app.js":           {Data: []byte(strings.Repeat("export const x = 1;\n", 200))},
		"style.css":        {Data: []byte("body{}")},
		"rscheck.wasm":     {Data: wasm},
		"favicon.svg":      {Data: []byte("<svg/>")},
		"data.bin":         {Data: []byte{1, 2, 3}},
		"pre.js":           {Data: []byte(strings.Repeat("let y = 2;\n", 200))},
		"pre.js.br":        {Data: []byte("pretend brotli")},
		"sub/nested.json":  {Data: []byte(`{}`)},
		"wasm_exec.js":     {Data: []byte("globalThis.Go = class {};")},
		"bookmarklet.js":   {Data: []byte("(function(){})();")},
		"worker.js":        {Data: []byte("import './wasm_exec.js';")},
		"sourceview.js":    {Data: []byte("")},
		"notes/readme.txt": {Data: []byte("hello")},
	}
}

func get(t *testing.T, h http.Handler, path string, header ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w.Result()
}

func TestMediaTypes(t *testing.T) {
	h := NewHandler(Options{FS: testApp()})
	for path, want := range map[string]string{
		"/":                 "text/html; charset=utf-8",
		"/index.html":       "text/html; charset=utf-8",
		"/app.js":           "text/javascript; charset=utf-8",
		"/style.css":        "text/css; charset=utf-8",
		"/rscheck.wasm":     "application/wasm",
		"/favicon.svg":      "image/svg+xml",
		"/sub/nested.json":  "application/json",
		"/notes/readme.txt": "text/plain; charset=utf-8",
		"/data.bin":         "application/octet-stream",
	} {
		resp := get(t, h, path)
		if resp.StatusCode != 200 {
			t.Errorf("%s: status %d", path, resp.StatusCode)
		}
		if got := resp.Header.Get("Content-Type"); got != want {
			t.Errorf("%s: Content-Type %q, want %q", path, got, want)
		}
	}
	for _, path := range []string{"/missing.js", "/sub", "/sub/", "/pre.js.br", "/etc/passwd"} {
		if resp := get(t, h, path); resp.StatusCode != 404 {
			t.Errorf("%s: status %d, want 404", path, resp.StatusCode)
		}
	}
	// The mux redirects a path with dot segments to its clean form.
	if resp := get(t, h, "/../../etc/passwd"); resp.StatusCode == 200 {
		t.Error("/../../etc/passwd: 200")
	}
	req := httptest.NewRequest("POST", "/app.js", nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d, want 405", w.Code)
	}
}

func TestCompression(t *testing.T) {
	app := testApp()
	h := NewHandler(Options{FS: app})
	if err := h.Prepare(); err != nil {
		t.Fatal(err)
	}
	resp := get(t, h, "/rscheck.wasm", "Accept-Encoding", "br;q=0, gzip, deflate")
	if resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("wasm with gzip accepted: Content-Encoding %q, Vary %q", resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"))
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(body, app["rscheck.wasm"].Data) {
		t.Fatalf("the gzipped module does not decompress to the module (%v)", err)
	}
	if n := resp.ContentLength; n <= 0 || n >= int64(len(body)) {
		t.Errorf("Content-Length %d of a %d-byte module", n, len(body))
	}

	resp = get(t, h, "/rscheck.wasm")
	if resp.Header.Get("Content-Encoding") != "" {
		t.Error("gzip sent to a client that does not accept it")
	}
	if resp = get(t, h, "/rscheck.wasm", "Accept-Encoding", "gzip;q=0"); resp.Header.Get("Content-Encoding") != "" {
		t.Error("gzip sent to a client that refuses it (q=0)")
	}
	if resp = get(t, h, "/style.css", "Accept-Encoding", "gzip"); resp.Header.Get("Content-Encoding") != "" {
		t.Error("a tiny file was compressed")
	}
	resp = get(t, h, "/pre.js", "Accept-Encoding", "gzip, br")
	if resp.Header.Get("Content-Encoding") != "br" {
		t.Fatalf("precompressed Brotli: Content-Encoding %q", resp.Header.Get("Content-Encoding"))
	}
	if b, _ := io.ReadAll(resp.Body); string(b) != "pretend brotli" {
		t.Errorf("br body %q", b)
	}
	if resp = get(t, h, "/pre.js", "Accept-Encoding", "gzip"); resp.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("without br: Content-Encoding %q", resp.Header.Get("Content-Encoding"))
	}
}

func TestValidators(t *testing.T) {
	h := NewHandler(Options{FS: testApp()})
	seen := map[string]string{}
	for _, enc := range []string{"", "gzip"} {
		resp := get(t, h, "/rscheck.wasm", "Accept-Encoding", enc)
		etag := resp.Header.Get("ETag")
		if !regexp.MustCompile(`^"[A-Za-z0-9_-]+"$`).MatchString(etag) {
			t.Fatalf("ETag %q", etag)
		}
		if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("Cache-Control %q, want no-cache", cc)
		}
		if other, dup := seen[etag]; dup {
			t.Errorf("encodings %q and %q share the ETag %s", other, enc, etag)
		}
		seen[etag] = enc
		again := get(t, h, "/rscheck.wasm", "Accept-Encoding", enc, "If-None-Match", etag)
		if again.StatusCode != http.StatusNotModified {
			t.Errorf("If-None-Match %s: status %d, want 304", etag, again.StatusCode)
		}
	}
}

func TestSecurityHeaders(t *testing.T) {
	h := NewHandler(Options{FS: testApp()})
	for _, path := range []string{"/", "/app.js", "/rscheck.wasm", "/missing", "/proxy/status", "/proxy"} {
		resp := get(t, h, path)
		hd := resp.Header
		if hd.Get("Content-Security-Policy") != ContentSecurityPolicy {
			t.Errorf("%s: CSP %q", path, hd.Get("Content-Security-Policy"))
		}
		if hd.Get("X-Content-Type-Options") != "nosniff" || hd.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: nosniff %q, Referrer-Policy %q", path, hd.Get("X-Content-Type-Options"), hd.Get("Referrer-Policy"))
		}
		if hd.Get("Cross-Origin-Opener-Policy") != "" {
			t.Errorf("%s: a Cross-Origin-Opener-Policy would cut the bookmarklet's window.opener", path)
		}
	}
	for _, want := range []string{"script-src 'self' 'wasm-unsafe-eval'", "worker-src 'self'", "connect-src 'self' http: https:",
		"object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"} {
		if !strings.Contains(ContentSecurityPolicy, want) {
			t.Errorf("the CSP lacks %s", want)
		}
	}
	if strings.Contains(ContentSecurityPolicy, "unsafe-inline") || strings.Contains(ContentSecurityPolicy, "'unsafe-eval'") {
		t.Error("the CSP allows inline script or eval")
	}
}

func TestProxyOff(t *testing.T) {
	h := NewHandler(Options{FS: testApp()})
	if resp := get(t, h, "/proxy?url=http://127.0.0.1/"); resp.StatusCode != 404 {
		t.Errorf("/proxy without --proxy: status %d, want 404", resp.StatusCode)
	}
	resp := get(t, h, "/proxy/status")
	if b, _ := io.ReadAll(resp.Body); string(b) != `{"enabled":false}` {
		t.Errorf("/proxy/status: %s", b)
	}
}

// TestStatic checks the embedded app: every file the page refers to is
// there, with a known media type.
func TestStatic(t *testing.T) {
	app := Static()
	index, err := fs.ReadFile(app, "index.html")
	if err != nil {
		t.Fatal(err)
	}
	refs := regexp.MustCompile(`(?:src|href)="([a-z][a-z0-9_.-]*\.(?:js|css|svg))"`).FindAllSubmatch(index, -1)
	if len(refs) < 3 {
		t.Fatalf("index.html refers to %d local files", len(refs))
	}
	for _, r := range refs {
		if _, err := fs.Stat(app, string(r[1])); err != nil {
			t.Errorf("index.html refers to %s: %v", r[1], err)
		}
	}
	imports := regexp.MustCompile(`(?m)^import [^'"]*['"]\./([^'"]+)['"]`)
	fs.WalkDir(app, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if mediaTypes[pathExt(p)] == "" && pathExt(p) != ".br" {
			t.Errorf("%s has no media type", p)
		}
		if strings.HasSuffix(p, ".js") {
			src, _ := fs.ReadFile(app, p)
			for _, m := range imports.FindAllSubmatch(src, -1) {
				if _, err := fs.Stat(app, string(m[1])); err != nil && string(m[1]) != "wasm_exec.js" {
					t.Errorf("%s imports %s: %v", p, m[1], err)
				}
			}
		}
		return nil
	})
}

func pathExt(p string) string {
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return p[i:]
	}
	return ""
}
