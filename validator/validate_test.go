package validator_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rscheck/rscheck/validator"
)

// findingsOf returns "RULE@line" for each finding, for compact assertions.
func findingsOf(r *validator.Report) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, fmt.Sprintf("%s@%d", f.Rule, f.Line))
	}
	return out
}

func validate(t *testing.T, r io.Reader, opts *validator.Options) *validator.Report {
	t.Helper()
	rep, err := validator.Validate(context.Background(), r, opts)
	if err != nil {
		t.Fatalf("Validate: %v", err)
	}
	return rep
}

// TestBadInput: inputs that are not ResourceSync documents get one clear
// finding, never a crash or an error return.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name, input string
		rule        string
		message     string // substring
	}{
		{"empty", "", "XML002", "empty"},
		{"whitespace", " \n\t ", "XML002", "only whitespace"},
		{"html", "<!DOCTYPE html>\n<html><head><title>x</title></head><body><p>hi</body></html>", "XML002", "HTML page"},
		{"html-no-doctype", "<html lang=en><body>", "XML002", "HTML page"},
		{"binary", "\x00\x01\x02\x03garbage\xff\xfe", "XML002", "binary"},
		{"zip", "PK\x03\x04rest-of-zip", "XML002", "ZIP archive"},
		{"text", "Sitemap: http://example.com/x.xml\n", "XML002", "not XML"},
		{"json", `{"urlset": []}`, "XML002", "not XML"},
		{"truncated", `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://ex`, "XML001", ""},
		{"entity", "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [<!ENTITY x \"boom\">]>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>&x;</loc></url></urlset>", "XML001", "not expanded"},
		{"gzip-garbage", "\x1f\x8b\x08\x00garbage", "XML00", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := validate(t, strings.NewReader(tt.input), nil)
			var hit *validator.Finding
			for i := range rep.Findings {
				if strings.HasPrefix(rep.Findings[i].Rule, tt.rule) {
					hit = &rep.Findings[i]
				}
			}
			if hit == nil {
				t.Fatalf("no %s finding; got %v", tt.rule, findingsOf(rep))
			}
			if !strings.Contains(hit.Message, tt.message) {
				t.Errorf("message %q does not mention %q", hit.Message, tt.message)
			}
			if rep.Valid() {
				t.Error("report is valid")
			}
		})
	}
}

// TestDoctypeFlagged: a DOCTYPE whose entities are not used is read, and flagged.
func TestDoctypeFlagged(t *testing.T) {
	doc := `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE urlset [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://example.com/a</loc></url></urlset>`
	rep := validate(t, strings.NewReader(doc), &validator.Options{NoSchema: true})
	got := strings.Join(findingsOf(rep), " ")
	if !strings.Contains(got, "XML003@2") {
		t.Errorf("want XML003 at line 2, got %s", got)
	}
}

// TestDeepNesting: 100,000 levels fail fast, with bounded memory.
func TestDeepNesting(t *testing.T) {
	const depth = 100000
	doc := `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
		strings.Repeat("<a>", depth) + strings.Repeat("</a>", depth) + `</urlset>`
	start := time.Now()
	rep := validate(t, strings.NewReader(doc), nil)
	if len(rep.Findings) == 0 || rep.Findings[len(rep.Findings)-1].Rule != "XML001" {
		t.Fatalf("want a final XML001 finding, got %v", findingsOf(rep))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// bigResourceList streams a Resource List of n entries without holding it.
func bigResourceList(n int) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		w := bufioWriter(pw)
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up" href="http://example.com/capabilitylist.xml"/>
  <rs:md capability="resourcelist" at="2013-01-03T09:00:00Z"/>
`)
		for i := 0; i < n; i++ {
			fmt.Fprintf(w, "  <url>\n    <loc>http://example.com/resources/%08d/some/longer/path/to/make/the/entries/realistic.html</loc>\n    <lastmod>2013-01-02T13:00:00Z</lastmod>\n    <rs:md hash=\"md5:1584abdf8ebdc9802ac0c6a7402c03b6 sha-256:854f61290e2e197a11bc91063afce22e43f8ccc655237050ace766adc68dc784\" length=\"%d\" type=\"text/html\"/>\n  </url>\n", i, 1000+i)
		}
		fmt.Fprintf(w, "</urlset>\n")
		pw.CloseWithError(w.Flush())
	}()
	return pr
}

type flusher interface {
	io.Writer
	Flush() error
}

func bufioWriter(w io.Writer) flusher { return &bufWriter{w: w} }

// bufWriter is a minimal buffered writer (bufio would do; this keeps the
// generator's allocations out of the measurement).
type bufWriter struct {
	w   io.Writer
	buf []byte
}

func (b *bufWriter) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	if len(b.buf) >= 64<<10 {
		return len(p), b.Flush()
	}
	return len(p), nil
}

func (b *bufWriter) Flush() error {
	_, err := b.w.Write(b.buf)
	b.buf = b.buf[:0]
	return err
}

// TestLargeDocumentMemory: a 60 MB document (over the 50 MB limit) is
// read in bounded memory and gets the size and entry-count findings.
func TestLargeDocumentMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("large document")
	}
	const n = 290000 // about 60 MB
	done := make(chan struct{})
	peakc := make(chan uint64)
	go func() {
		var ms runtime.MemStats
		var peak uint64
		for {
			select {
			case <-done:
				peakc <- peak
				return
			case <-time.After(20 * time.Millisecond):
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
		}
	}()
	rep := validate(t, bigResourceList(n), nil)
	close(done)
	peak := <-peakc
	if rep.Entries != n {
		t.Errorf("entries = %d, want %d", rep.Entries, n)
	}
	if rep.Bytes < 55<<20 {
		t.Errorf("bytes = %d, want about 60 MB", rep.Bytes)
	}
	got := strings.Join(findingsOf(rep), " ")
	for _, want := range []string{"SM101@0", "SM102@0"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in %s", want, got)
		}
	}
	// The duplicate-loc set holds every loc (about 100 bytes each): the
	// only state that grows with the document.
	t.Logf("60 MB, %d entries: peak heap in use %.1f MB", n, float64(peak)/(1<<20))
	if peak > 120<<20 {
		t.Errorf("peak heap %d MB: memory is not bounded", peak>>20)
	}
}

// TestGzipInput: gzip-compressed documents are read transparently.
func TestGzipInput(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	io.Copy(zw, bigResourceList(10))
	zw.Close()
	rep := validate(t, &buf, nil)
	if rep.Kind != validator.ResourceList || rep.Entries != 10 || !rep.Valid() {
		t.Errorf("kind %s, %d entries, findings %v", rep.Kind, rep.Entries, findingsOf(rep))
	}
}

// TestFindingsCap: a systematic defect is reported up to the cap and counted beyond.
func TestFindingsCap(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/"><rs:ln rel="up" href="http://example.com/c.xml"/><rs:md capability="resourcelist" at="2013-01-03T09:00:00Z"/>`)
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "\n<url><loc>http://example.com/%d</loc><rs:md hash=\"md5:zz\"/></url>", i)
	}
	b.WriteString("</urlset>")
	rep := validate(t, strings.NewReader(b.String()), &validator.Options{MaxFindingsPerRule: 10})
	n := 0
	for _, f := range rep.Findings {
		if f.Rule == "RS203" {
			n++
		}
	}
	if n != 10 || rep.Suppressed["RS203"] != 40 || rep.Errors < 50 {
		t.Errorf("kept %d, suppressed %d, errors %d", n, rep.Suppressed["RS203"], rep.Errors)
	}
}

// TestCancel: a cancelled context stops validation with ctx.Err().
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := validator.Validate(ctx, bigResourceList(100000), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// TestReadError: an I/O error from the reader is returned, not reported.
func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`), &errReader{boom})
	if _, err := validator.Validate(context.Background(), r, nil); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
}

type errReader struct{ err error }

func (e *errReader) Read([]byte) (int, error) { return 0, e.err }

// FuzzValidate: Validate never panics, never hangs, and always returns a
// report or an error.
func FuzzValidate(f *testing.F) {
	seeds, _ := filepath.Glob("../../shared/reference/schemas/xmllint-tests/*/*.xml")
	more, _ := filepath.Glob("testdata/rules/*.xml")
	for _, s := range append(seeds, more...) {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		rep, err := validator.Validate(ctx, bytes.NewReader(data), nil)
		if err != nil {
			t.Fatalf("Validate returned an error on in-memory input: %v", err)
		}
		if rep == nil || rep.Findings == nil {
			t.Fatal("no report")
		}
		for _, fd := range rep.Findings {
			if fd.Rule == "" || fd.Message == "" || fd.Severity == 0 {
				t.Fatalf("incomplete finding %+v", fd)
			}
		}
	})
}
