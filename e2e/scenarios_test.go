package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/rscheck/rscheck/explorer/dump"
	"github.com/rscheck/rscheck/explorer/explorertest"
)

// Timeouts of the waits on the page: bounds, not delays. They are
// generous because a loaded 2-core machine compiles the 18 MB module
// slowly; unloaded, a check takes well under a second.
const (
	quick = 45 * time.Second
	crawl = 90 * time.Second
)

// The task builders: one per step a person takes on the page.

// openChecker opens the app, with an optional fragment, and waits until
// the WebAssembly module has answered.
func openChecker(fragment string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.Navigate(checker.URL+"/"+fragment),
		waitFor(`document.body.dataset.state && document.body.dataset.state !== 'loading'`, crawl),
		waitFor(`document.body.dataset.state !== 'error' || (() => { throw new Error(document.getElementById('engine').textContent) })()`, quick),
	)
}

// checked waits until n checks have completed, and fails at once when
// the page reports an error instead.
func checked(n int, timeout time.Duration) chromedp.Action[chromedp.Void] {
	return waitFor(fmt.Sprintf(`document.body.dataset.state === 'error'
		? (() => { throw new Error('the page says: ' + document.getElementById('notice').textContent) })()
		: Number(document.body.dataset.checks || 0) >= %d && document.body.dataset.state !== 'running'`, n), timeout)
}

// pasteAndCheck pastes a document and checks it.
func pasteAndCheck(text string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.SetValue(chromedp.ID("paste"), text),
		chromedp.Click(chromedp.ID("check-paste")),
		checked(1, quick),
	)
}

// uploadAndCheck chooses files with the file input.
func uploadAndCheck(paths ...string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.SetUploadFiles(chromedp.ID("files"), paths),
		checked(1, quick),
	)
}

// exploreSource explores a URL, through the local proxy or not.
func exploreSource(u string, viaProxy bool) chromedp.Action[chromedp.Void] {
	steps := []chromedp.Action[chromedp.Void]{
		waitFor(`!document.getElementById('proxy-line').hidden`, quick),
	}
	if viaProxy {
		steps = append(steps, chromedp.Click(chromedp.ID("use-proxy")))
	}
	return chromedp.Steps(append(steps,
		chromedp.SetValue(chromedp.ID("url"), u),
		chromedp.Click(chromedp.ID("explore")),
	)...)
}

// counts reads the summary's counts.
type counts struct{ Errors, Warnings, Infos int }

func pageCounts(t *testing.T, ctx context.Context) counts {
	t.Helper()
	return eval[counts](t, ctx, `(() => { const c = document.querySelector('#results .counts').dataset;
		return {Errors: +c.errors, Warnings: +c.warnings, Infos: +c.infos}; })()`)
}

// finding is a row of a findings table.
type finding struct {
	Doc, Rule, Severity string
	Line                int
}

func pageFindings(t *testing.T, ctx context.Context) []finding {
	t.Helper()
	return eval[[]finding](t, ctx, `[...document.querySelectorAll('#results article.doc')].flatMap(a =>
		[...a.querySelectorAll('tr.finding')].map(r => ({Doc: a.querySelector('.doc-name').textContent,
			Rule: r.dataset.rule, Severity: r.dataset.severity, Line: +r.dataset.line})))`)
}

// specExample reads one of the specification's examples.
func specExample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "..", "shared", "reference", "schemas", "xmllint-tests", "spec-1.1-inline", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// 1. A specification example, pasted, has no error.
func TestPasteSpecExample(t *testing.T) {
	ctx := newTab(t)
	do(t, ctx, openChecker(""), pasteAndCheck(specExample(t, "ex14.xml")))
	if c := pageCounts(t, ctx); c.Errors != 0 {
		t.Errorf("Example 14: %d errors shown, want none: %+v", c.Errors, pageFindings(t, ctx))
	}
	if !eval[bool](t, ctx, `!!document.querySelector('#results .clean') && document.querySelector('.doc .kind').textContent === 'Resource List'`) {
		t.Error("the page does not say that the Resource List has no problem")
	}
	link := eval[string](t, ctx, `location.href`)
	if !strings.Contains(link, "#validate=") {
		t.Fatalf("link %q, want a #validate= fragment", link)
	}
	// The link reproduces the check.
	again := newTab(t)
	do(t, again, chromedp.Navigate(link), checked(1, crawl))
	if c := pageCounts(t, again); c.Errors != 0 {
		t.Errorf("the link's check shows %d errors", c.Errors)
	}
	if eval[string](t, again, `document.getElementById('paste').value`) != specExample(t, "ex14.xml") {
		t.Error("the link does not restore the pasted document")
	}
}

// defective is a Change List with one error: an unknown change value on
// line 12, column 12.
const defective = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up" href="http://example.com/dataset1/capabilitylist.xml"/>
  <rs:md capability="changelist" from="2013-01-03T00:00:00Z"/>
  <url>
    <loc>http://example.com/res1.html</loc>
    <rs:md change="updated" datetime="2013-01-03T11:00:00Z"/>
  </url>
  <url>
    <loc>http://example.com/res2.pdf</loc>
    <rs:md change="modified" datetime="2013-01-03T13:00:00Z"/>
  </url>
</urlset>
`

// 2. An uploaded defective document: the finding and its line; clicking
// it (or Enter on it) highlights the line in the source view.
func TestUploadDefective(t *testing.T) {
	ctx := newTab(t)
	path := filepath.Join(t.TempDir(), "changelist.xml")
	if err := os.WriteFile(path, []byte(defective), 0o644); err != nil {
		t.Fatal(err)
	}
	// Several files at once: a gzip-compressed spec example and a dump
	// package with a bitstream whose digest is wrong.
	gz := filepath.Join(t.TempDir(), "ex14.xml.gz")
	writeGzip(t, gz, specExample(t, "ex14.xml"))
	zipPath := filepath.Join(t.TempDir(), "dump.zip")
	if err := os.WriteFile(zipPath, dumpPackage(), 0o644); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, openChecker(""), uploadAndCheck(path, gz, zipPath))
	docs := eval[[]string](t, ctx, `[...document.querySelectorAll('#results .doc-name')].map(n => n.textContent)`)
	if strings.Join(docs, " ") != "changelist.xml ex14.xml.gz dump.zip" {
		t.Errorf("documents %q, want the three files in order", docs)
	}
	want := []finding{
		{Doc: "changelist.xml", Rule: "XSD105", Severity: "error", Line: 12},
		{Doc: "dump.zip", Rule: "RD105", Severity: "error", Line: 5},
	}
	if fs := pageFindings(t, ctx); fmt.Sprint(fs) != fmt.Sprint(want) {
		t.Fatalf("findings %+v, want %+v", fs, want)
	}
	// The worker's catalogue names each finding's rule and links it to its
	// documentation.
	rule := eval[[]string](t, ctx, `(c => [c.querySelector('.rule-name')?.textContent ?? '', c.querySelector('a')?.getAttribute('href') ?? ''])(document.querySelector('tr.finding[data-rule="RD105"] td.rule'))`)
	if rule[0] != dump.RuleBitstreamHash.Name || !strings.HasSuffix(rule[1], "docs/rules.md#rd105") {
		t.Errorf("rule cell of RD105: name %q, link %q; want %q and the catalogue entry", rule[0], rule[1], dump.RuleBitstreamHash.Name)
	}
	// The filters: by severity, then by rule.
	visible := func() int { return eval[int](t, ctx, `document.querySelectorAll('tr.finding:not([hidden])').length`) }
	toggleErrors := chromedp.Evaluate[chromedp.Void](`document.querySelector('.filters input[data-severity="error"]').click()`)
	do(t, ctx, toggleErrors)
	if n := visible(); n != 0 {
		t.Errorf("errors hidden: %d rows shown", n)
	}
	do(t, ctx, toggleErrors,
		chromedp.Evaluate[chromedp.Void](`(s => { s.value = 'RD105'; s.dispatchEvent(new Event('change')); })(document.getElementById('rule-filter'))`))
	if n := visible(); n != 1 {
		t.Errorf("rule RD105 chosen: %d rows shown, want 1", n)
	}
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`(s => { s.value = ''; s.dispatchEvent(new Event('change')); })(document.getElementById('rule-filter'))`))
	row := chromedp.CSS(`tr.finding[data-rule="XSD105"]`)
	do(t, ctx,
		chromedp.Click(row),
		waitFor(`document.querySelector('.source .line.hl')?.dataset.line === '12'`, quick),
	)
	if got := eval[string](t, ctx, `document.querySelector('.source .line.hl mark.col').textContent`); got != "c" {
		t.Errorf("highlighted column %q, want the c of change", got)
	}
	// The keyboard does the same: scroll away, then Enter on the row.
	do(t, ctx,
		chromedp.Evaluate[chromedp.Void](`document.querySelector('.source .viewport').scrollTop = 0; document.querySelector('.source .line.hl').classList.remove('hl')`),
		chromedp.Focus(row),
		chromedp.KeyEvent("\r"),
		waitFor(`document.querySelector('.source .line.hl')?.dataset.line === '12'`, quick),
	)
}

// writeGzip writes text gzip-compressed.
func writeGzip(t *testing.T, path, text string) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(text))
	zw.Close()
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// dumpPackage is a Resource Dump package whose Manifest gives a wrong
// digest (line 5) for its one bitstream.
func dumpPackage() []byte {
	body := []byte("resource one\n")
	manifest := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up" href="http://example.com/dataset1/capabilitylist.xml"/>
  <rs:md capability="resourcedump-manifest" at="2024-01-02T00:00:00Z"/>
  <url><loc>http://example.com/res1</loc><lastmod>2024-01-01T00:00:00Z</lastmod><rs:md hash="sha-256:` +
		explorertest.SHA256([]byte("another body")) + `" length="` + strconv.Itoa(len(body)) + `" type="text/plain" path="/resources/res1"/></url>
</urlset>
`
	return explorertest.Zip(
		explorertest.File{Name: "manifest.xml", Data: []byte(manifest)},
		explorertest.File{Name: "resources/res1", Data: body},
	)
}

// TestLargeDocument checks that the source view of a long document keeps
// only the lines in sight in the page.
func TestLargeDocument(t *testing.T) {
	const entries = 30000
	badLine := 4 + 5*(entries-1) + 3
	path := filepath.Join(t.TempDir(), "large.xml")
	if err := os.WriteFile(path, largeList(entries), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := newTab(t)
	do(t, ctx, openChecker(""), chromedp.SetUploadFiles(chromedp.ID("files"), []string{path}), checked(1, crawl))
	row := fmt.Sprintf(`tr.finding[data-line="%d"]`, badLine)
	do(t, ctx, chromedp.Click(chromedp.CSS(row)),
		waitFor(fmt.Sprintf(`document.querySelector('.source .line.hl')?.dataset.line === '%d'`, badLine), quick))
	if n := eval[int](t, ctx, `document.querySelectorAll('.source .line').length`); n == 0 || n > 200 {
		t.Errorf("%d lines of %d in the page", n, badLine+3)
	}
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector('.source .viewport').scrollTop = 0`),
		waitFor(`document.querySelector('.source .line')?.dataset.line === '1'`, quick))
}

// largeList is a Resource List of n entries, five lines each, whose last
// lastmod is not a date.
func largeList(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up" href="http://example.com/dataset1/capabilitylist.xml"/>
  <rs:md capability="resourcelist" at="2024-01-02T00:00:00Z"/>
`)
	for i := range n {
		lastmod := "2024-01-01T00:00:00Z"
		if i == n-1 {
			lastmod = "yesterday"
		}
		fmt.Fprintf(&b, "  <url>\n    <loc>http://example.com/res/%d</loc>\n    <lastmod>%s</lastmod>\n    <rs:md length=\"%d\" type=\"text/plain\"/>\n  </url>\n", i, lastmod, i)
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

// TestStopValidation stops the validation of a large file: the worker
// honours the cancel within a moment, not at the end of the document.
func TestStopValidation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "larger.xml")
	if err := os.WriteFile(path, largeList(100000), 0o644); err != nil { // 14 MB
		t.Fatal(err)
	}
	ctx := newTab(t)
	do(t, ctx, openChecker(""), chromedp.SetUploadFiles(chromedp.ID("files"), []string{path}),
		waitFor(`document.getElementById('progress').value > 0`, quick))
	start := time.Now()
	do(t, ctx, chromedp.Click(chromedp.ID("stop")), waitFor(`document.body.dataset.state !== 'running'`, quick))
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the validation stopped %v after Stop", d)
	}
	if got := eval[string](t, ctx, `document.getElementById('notice').textContent`); got != "Stopped." {
		t.Errorf("notice %q, want Stopped.", got)
	}
}

// 3. Exploring the defective fixture Source lists every document and
// flags every planted defect; Stop cancels a slow crawl; without the
// proxy, the browser's CORS refusal is explained.
func TestExplore(t *testing.T) {
	t.Run("Defective", func(t *testing.T) {
		src := explorertest.NewSource(t, &explorertest.Options{Defective: true})
		ctx := newTab(t)
		do(t, ctx, openChecker(""), exploreSource(src.Root, true), checked(1, crawl))
		nodes := eval[[]string](t, ctx, `[...document.querySelectorAll('.tree .node')].map(n => n.dataset.url)`)
		inTree := map[string]bool{}
		for _, n := range nodes {
			inTree[n] = true
		}
		docs := eval[[]string](t, ctx, `[...document.querySelectorAll('#results .doc-name')].map(n => n.textContent)`)
		for _, d := range docs {
			if !inTree[d] && strings.HasPrefix(d, src.Base) && !strings.Contains(d, "robots.txt") && d != src.Root {
				t.Errorf("document %s is not in the tree", d)
			}
		}
		have := map[string]bool{}
		for _, f := range pageFindings(t, ctx) {
			have[fmt.Sprintf("%s:%d: %s", f.Doc, f.Line, f.Rule)] = true
		}
		for _, w := range src.Wants {
			if !inTree[w.URL] {
				t.Errorf("%s is not in the tree", w.URL)
			}
			if !have[w.String()] {
				t.Errorf("missing finding %s", w)
			}
		}
		if t.Failed() {
			t.Logf("tree: %v", nodes)
		}
		if c := pageCounts(t, ctx); c.Errors == 0 {
			t.Error("the defective Source shows no error")
		}
		// The link reproduces the exploration, through the proxy again.
		link := eval[string](t, ctx, `location.href`)
		if !strings.HasSuffix(link, "#explore="+url.QueryEscape(src.Root)+"&via=proxy") &&
			!strings.HasSuffix(link, "#explore="+strings.ReplaceAll(url.QueryEscape(src.Root), "+", "%20")+"&via=proxy") {
			t.Errorf("link %q does not name the exploration", link)
		}
		again := newTab(t)
		do(t, again, chromedp.Navigate(link), checked(1, crawl))
		if a, b := pageCounts(t, again), pageCounts(t, ctx); a != b {
			t.Errorf("the link's exploration counts %+v, the first %+v", a, b)
		}
	})
	t.Run("Stop", func(t *testing.T) {
		src := explorertest.NewSource(t, &explorertest.Options{Slow: 2 * time.Second})
		ctx := newTab(t)
		do(t, ctx, openChecker(""), exploreSource(src.WellKnown, true),
			waitFor(`document.body.dataset.state === 'running' && !document.getElementById('status').hidden`, quick),
		)
		start := time.Now()
		do(t, ctx, chromedp.Click(chromedp.ID("stop")), checked(1, quick))
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("Stop took %v", d)
		}
		if !eval[bool](t, ctx, `[...document.querySelectorAll('.warn-line')].some(p => p.textContent.includes('partial'))`) {
			t.Error("the page does not say that the results are partial")
		}
	})
	t.Run("CORS", func(t *testing.T) {
		src := explorertest.NewSource(t, nil)
		// The worker's fetches fail as the browser refuses them: Chromium
		// says so on the console.
		ctx := newTab(t, `CORS policy|ERR_FAILED|Failed to load resource`)
		do(t, ctx, openChecker(""), exploreSource(src.WellKnown, false), checked(1, crawl),
			waitFor(`!document.getElementById('notice').hidden`, quick))
		text := eval[string](t, ctx, `document.getElementById('notice').textContent`)
		for _, want := range []string{"could not read", "bookmarklet", "--proxy", "Retry through the proxy"} {
			if !strings.Contains(text, want) {
				t.Errorf("the CORS notice does not mention %q: %s", want, text)
			}
		}
	})
}

// 4. The bookmarklet, clicked on a page of a fixture Source (another
// origin than the checker), opens the checker, which checks the site
// through it.
func TestBookmarklet(t *testing.T) {
	src := explorertest.NewSource(t, nil)
	ctx := newTab(t)
	do(t, ctx, openChecker(""), waitFor(`document.getElementById('bookmarklet').href.startsWith('javascript:')`, quick))
	href := eval[string](t, ctx, `document.getElementById('bookmarklet').href`)
	code, err := url.PathUnescape(strings.TrimPrefix(href, "javascript:"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(code, "\n") || strings.Contains(code, "<script") || strings.Contains(code, "src=") {
		t.Errorf("the bookmarklet should be one line that loads no script: %s", code)
	}

	// click runs the bookmarklet on the page of the tab, as a click on a
	// bookmark does (with a user gesture), and attaches to the window it opens.
	click := func(t *testing.T, page string) context.Context {
		t.Helper()
		// The fixture's pages refer to a style sheet it does not serve.
		ctx := newTab(t, `Refused to apply style|Failed to load resource`)
		do(t, ctx, chromedp.Navigate(page))
		opened := chromedp.WaitNewTarget(ctx, func(i *target.Info) bool { return strings.HasPrefix(i.URL, checker.URL) })
		do(t, ctx, chromedp.Evaluate[chromedp.Void](code, func(p *runtime.EvaluateParams) { gesture := true; p.UserGesture = &gesture }))
		var id target.ID
		select {
		case id = <-opened:
		case <-time.After(quick):
			t.Fatal("the bookmarklet opened no checker window")
		}
		return attachTab(t, ctx, id)
	}

	t.Run("Explore", func(t *testing.T) {
		win := click(t, src.HTMLPage)
		do(t, win, checked(1, crawl))
		if c := pageCounts(t, win); c.Errors != 0 {
			t.Errorf("the complete Source shows %d errors: %+v", c.Errors, pageFindings(t, win))
		}
		nodes := eval[int](t, win, `document.querySelectorAll('.tree .node').length`)
		if nodes < 10 {
			t.Errorf("the tree has %d nodes, want the whole Source", nodes)
		}
		if title := eval[string](t, win, `document.title`); !strings.Contains(title, src.Base) {
			t.Errorf("title %q does not name the site", title)
		}
		// The relay reads only its own site, whoever asks.
		other := eval[string](t, win, `new Promise(r => {
			addEventListener('message', e => { if (e.data?.fid === 999) r(String(e.data.error)); });
			opener.postMessage({type: 'rscheck-fetch', fid: 999, url: '`+checker.URL+`/index.html', method: 'GET'}, '*');
			setTimeout(() => r('no answer'), 5000);
		})`)
		if !strings.Contains(other, "fetches only URLs of "+src.Base) {
			t.Errorf("a request for another origin: %q, want a refusal", other)
		}
	})
	t.Run("Document", func(t *testing.T) {
		win := click(t, src.WellKnown) // an XML document: validated, not explored
		do(t, win, checked(1, quick))
		kind := eval[string](t, win, `document.querySelector('#results article.doc').dataset.kind`)
		docs := eval[int](t, win, `document.querySelectorAll('#results article.doc').length`)
		if kind != "description" || docs != 1 {
			t.Errorf("checked %d documents, the first a %q; want the Source Description alone", docs, kind)
		}
	})
}

// hostile is a document whose values try to run script in the page that
// shows them.
const hostile = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up" href="javascript:window.__rscheckPwned=1;alert(1)"/>
  <rs:md capability="resourcelist" at="2024-01-01T00:00:00Z"/>
  <url><loc>&lt;script&gt;window.__rscheckPwned=1;alert(1)&lt;/script&gt;</loc></url>
  <url><loc>http://example.com/"&gt;&lt;img src=x onerror=window.__rscheckPwned=1;alert(1)&gt;</loc><rs:md type="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"/></url>
  <url><loc>javascript:alert(1)</loc><rs:ln rel="&lt;script&gt;alert(1)&lt;/script&gt;" href="javascript:alert(1)"/></url>
  <url><loc>http://example.com/b</loc><rs:md hash="md5:&lt;img src=x onerror=alert(1)&gt;"/></url>
</urlset>
`

// inert checks that nothing in the results ran or navigated.
func inert(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	if v := eval[string](t, ctx, `String(window.__rscheckPwned)`); v != "undefined" {
		t.Errorf("the sentinel global is %s: a script ran", v)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#results img, #results script, #results iframe, #results [onerror]').length`); n != 0 {
		t.Errorf("%d elements from the document's values are in the page", n)
	}
	if bad := eval[[]string](t, ctx, `[...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))
		.filter(h => !/^(https?:|blob:|#)/.test(h) && !(h.startsWith('javascript:') && document.getElementById('bookmarklet').getAttribute('href') === h))`); len(bad) > 0 {
		t.Errorf("links that are not http(s): %q", bad)
	}
	if loc := eval[string](t, ctx, `location.origin + location.pathname`); loc != page {
		t.Errorf("the page navigated to %s", loc)
	}
}

// 5. Hostile values are shown as text: no dialog, no script, no
// navigation; in the findings, the source view and the hierarchy.
func TestHostileContent(t *testing.T) {
	t.Run("Document", func(t *testing.T) {
		ctx := newTab(t)
		do(t, ctx, openChecker(""), pasteAndCheck(hostile))
		// Show every finding's line: the source view renders the values too.
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`for (const r of document.querySelectorAll('tr.finding[tabindex="0"]')) r.click()`),
			waitFor(`!!document.querySelector('.source .line.hl')`, quick))
		inert(t, ctx, checker.URL+"/")
		text := eval[string](t, ctx, `document.getElementById('results').textContent`)
		for _, s := range []string{"<script>window.__rscheckPwned=1;alert(1)</script>", `"><img src=x onerror=`, "javascript:"} {
			if !strings.Contains(text, s) {
				t.Errorf("the results do not show %q as text", s)
			}
		}
	})
	t.Run("Explore", func(t *testing.T) {
		var base string
		site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/.well-known/resourcesync" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:md capability="description"/>
  <url><loc>javascript:alert(1)</loc><rs:md capability="capabilitylist"/></url>
  <url><loc>%s/"&gt;&lt;img src=x onerror=window.__rscheckPwned=1;alert(1)&gt;</loc><rs:md capability="capabilitylist"/></url>
  <url><loc>%s/&lt;script&gt;alert(1)&lt;/script&gt;.xml</loc><rs:md capability="capabilitylist"/></url>
</urlset>
`, base, base)
		}))
		defer site.Close()
		base = site.URL
		ctx := newTab(t)
		do(t, ctx, openChecker(""), exploreSource(site.URL+"/.well-known/resourcesync", true), checked(1, crawl))
		inert(t, ctx, checker.URL+"/")
		if n := eval[int](t, ctx, `document.querySelectorAll('.tree .node').length`); n < 3 {
			t.Errorf("the tree shows %d nodes, want the hostile ones too", n)
		}
	})
}

// 6. The downloaded HTML report opens in the browser and shows the
// counts the page shows.
func TestDownloadReport(t *testing.T) {
	ctx := newTab(t)
	dir := t.TempDir()
	do(t, ctx, openChecker(""), pasteAndCheck(hostile))
	want := pageCounts(t, ctx)
	progress := chromedp.Events(ctx, cdpbrowser.DownloadProgress)
	do(t, ctx,
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			events := true
			_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
				Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &events,
			})
			return err
		}),
		chromedp.Click(chromedp.ID("dl-html")),
	)
	var saved string
	for ev, err := range progress {
		if err != nil {
			t.Fatal(err)
		}
		if ev.State == cdpbrowser.DownloadProgressStateCanceled {
			t.Fatal("the download was cancelled")
		}
		if ev.State == cdpbrowser.DownloadProgressStateCompleted {
			saved = filepath.Join(dir, ev.GUID)
			break
		}
	}
	// AllowAndName names the file by its GUID: give it its extension back.
	file := saved + ".html"
	if err := os.Rename(saved, file); err != nil {
		t.Fatal(err)
	}
	report := newTab(t)
	do(t, report, chromedp.Navigate("file://"+file))
	got := eval[[]string](t, report, `[...document.querySelectorAll('ul.counts li b')].map(b => b.textContent)`)
	if len(got) != 3 || got[0] != strconv.Itoa(want.Errors) || got[1] != strconv.Itoa(want.Warnings) || got[2] != strconv.Itoa(want.Infos) {
		t.Errorf("the report counts %v, the page %+v", got, want)
	}
	inertReport := eval[string](t, report, `String(window.__rscheckPwned)`)
	if inertReport != "undefined" {
		t.Error("a script ran in the report")
	}
}
