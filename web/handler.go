package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ContentSecurityPolicy is the policy of every page and script the
// handler serves. Scripts come only from the app itself (and WebAssembly
// may be compiled), workers too; connect-src allows http: and https:
// because exploring a Source fetches other origins from the worker.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; " +
	"connect-src 'self' http: https:; img-src 'self' data:; style-src 'self'; object-src 'none'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Options configure NewHandler.
type Options struct {
	// FS holds the app's files; nil means Static().
	FS fs.FS
	// Proxy enables the /proxy endpoint, with which the page fetches
	// documents that CORS keeps it from reading. It answers loopback
	// clients only.
	Proxy bool
	// ProxyMaxBytes bounds a proxied body; zero means 256 MiB.
	ProxyMaxBytes int64
	// ProxyTimeout bounds a proxied request, body included; zero means
	// one minute.
	ProxyTimeout time.Duration
	// ProxyTransport performs the proxy's requests; nil means a
	// transport of its own (never http.DefaultTransport's connections).
	ProxyTransport http.RoundTripper
}

// A Handler serves the app: the files with their media types, validators
// (ETag, no-cache) and gzip or precompressed Brotli encodings, security
// headers on every answer, and optionally the proxy.
type Handler struct {
	fsys  fs.FS
	proxy *proxy
	mux   *http.ServeMux

	mu    sync.Mutex
	files map[string]*file
}

// NewHandler returns a handler for the app.
func NewHandler(o Options) *Handler {
	h := &Handler{fsys: o.FS, files: map[string]*file{}, mux: http.NewServeMux()}
	if h.fsys == nil {
		h.fsys = Static()
	}
	h.mux.HandleFunc("GET /proxy/status", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if o.Proxy {
			io.WriteString(w, `{"enabled":true,"endpoint":"/proxy"}`)
		} else {
			io.WriteString(w, `{"enabled":false}`)
		}
	})
	if o.Proxy {
		h.proxy = newProxy(o)
		h.mux.Handle("/proxy", h.proxy)
	}
	h.mux.HandleFunc("/", h.serveFile)
	return h
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", ContentSecurityPolicy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	// No Cross-Origin-Opener-Policy: the bookmarklet's relay talks to
	// the checker window through window.opener, which same-origin would
	// sever.
	h.mux.ServeHTTP(w, r)
}

// Prepare reads and compresses every file ahead of the first request, so
// that the first page load does not wait for the WebAssembly module to be
// compressed. Serving works without it.
func (h *Handler) Prepare() error {
	return fs.WalkDir(h.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := h.file(p)
		if err == nil && f != nil {
			f.gzipped()
		}
		return err
	})
}

// mediaTypes are the types of the app's files. Anything else is served as
// application/octet-stream: nosniff forbids guessing.
var mediaTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".wasm": "application/wasm",
	".json": "application/json",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
	".xml":  "application/xml",
	".md":   "text/markdown; charset=utf-8",
}

// compressible lists the extensions worth compressing.
var compressible = map[string]bool{
	".html": true, ".js": true, ".mjs": true, ".css": true, ".wasm": true,
	".json": true, ".svg": true, ".txt": true, ".xml": true, ".md": true,
}

// A file is one file of the app, read once, with its ETag and, when
// worth it, its gzip encoding (made on first use) and a precompressed
// Brotli encoding (name.br, when the directory has one).
type file struct {
	name    string
	modTime time.Time
	size    int64
	data    []byte
	etag    string
	br      []byte

	gzOnce sync.Once
	gz     []byte
}

// gzipped returns the gzip encoding of a compressible file, or nil.
func (f *file) gzipped() []byte {
	if !compressible[path.Ext(f.name)] || len(f.data) < 1024 {
		return nil
	}
	f.gzOnce.Do(func() {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(f.data)
		zw.Close()
		if b.Len() < len(f.data) {
			f.gz = b.Bytes()
		}
	})
	return f.gz
}

// file returns the named file, reading it when it is new or changed (a
// directory on disk may be rebuilt under a running server), or nil when
// there is no such file.
func (h *Handler) file(name string) (*file, error) {
	st, err := fs.Stat(h.fsys, name)
	if err != nil || st.IsDir() {
		return nil, nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if f := h.files[name]; f != nil && f.modTime.Equal(st.ModTime()) && f.size == st.Size() {
		return f, nil
	}
	data, err := fs.ReadFile(h.fsys, name)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	f := &file{name: name, modTime: st.ModTime(), size: st.Size(), data: data,
		etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`}
	if br, err := fs.ReadFile(h.fsys, name+".br"); err == nil {
		f.br = br
	}
	h.files[name] = f
	return f, nil
}

// serveFile serves one file of the app; "/" is index.html.
func (h *Handler) serveFile(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" {
		name = "index.html"
	}
	f, err := h.file(name)
	if err != nil {
		http.Error(w, "cannot read "+name, http.StatusInternalServerError)
		return
	}
	if f == nil || strings.HasSuffix(name, ".br") {
		http.NotFound(w, r)
		return
	}
	hd := w.Header()
	ct := mediaTypes[path.Ext(name)]
	if ct == "" {
		ct = "application/octet-stream"
	}
	hd.Set("Content-Type", ct)
	// Revalidate every time: after a rebuild, a reload gets the new
	// module, and an unchanged one costs a 304.
	hd.Set("Cache-Control", "no-cache")
	body, etag := f.data, f.etag
	if compressible[path.Ext(name)] {
		hd.Add("Vary", "Accept-Encoding")
		switch {
		case f.br != nil && accepts(r, "br"):
			body, etag = f.br, f.etag[:len(f.etag)-1]+`-br"`
			hd.Set("Content-Encoding", "br")
		case accepts(r, "gzip") && f.gzipped() != nil:
			body, etag = f.gzipped(), f.etag[:len(f.etag)-1]+`-gz"`
			hd.Set("Content-Encoding", "gzip")
		}
	}
	hd.Set("ETag", etag)
	if hd.Get("Content-Encoding") == "" {
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
		return
	}
	// ServeContent leaves out Content-Length for an encoded body; the
	// browser shows the module's download progress with it. Ranges of an
	// encoding are not offered.
	if noneMatch(r.Header.Get("If-None-Match"), etag) {
		hd.Del("Content-Encoding")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hd.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// noneMatch reports whether an If-None-Match header matches etag (weak
// comparison, as RFC 9110 §13.1.2 wants for it).
func noneMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// accepts reports whether the request's Accept-Encoding allows coding.
func accepts(r *http.Request, coding string) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), coding) {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}
