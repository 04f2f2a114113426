// Command browser benchmarks rscheck's browser app against xmllint-wasm
// (libxml2 compiled to WebAssembly) in one headless Chromium:
//
//   - page ready: from navigation to a checker ready to validate (our page:
//     the worker has loaded the module and answered; the peer: its module
//     loaded and a first tiny validation done);
//   - validating a large Resource List: rscheck's worker (XML Schema and
//     every rule) against xmllint-wasm's validateXML with the official
//     schemas, and the whole page flow (file chosen → results shown);
//   - the page's responsiveness meanwhile: the longest gap between two
//     animation frames, and the long tasks of the main thread.
//
// Everything is served from one local httptest server on 127.0.0.1: the app
// (the real handler of cmd/serve), xmllint-wasm from node_modules, the
// official schemas and the document. Run it with bench/browser/run.sh,
// which prepares the document, the module and the npm package.
package main

import (
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/rscheck/rscheck/bench/internal/headless"
	"github.com/rscheck/rscheck/web"
)

func main() {
	list := flag.String("list", "bench/out/resourcelist-50k.xml", "the document to validate")
	runs := flag.Int("runs", 3, "measured runs of each validation (after a first, reported apart)")
	loads := flag.Int("loads", 5, "page loads measured for readiness")
	schemas := flag.String("schemas", "../shared/reference/schemas", "directory of the official schemas (wrapper-all.xsd and what it includes)")
	peer := flag.String("peer", "bench/browser/node_modules/xmllint-wasm", "the xmllint-wasm package")
	static := flag.String("static", "web/static", "directory with the built rscheck.wasm and wasm_exec.js")
	chromium := flag.String("chromium", "/usr/bin/chromium", "browser binary")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("bench/browser: ")

	for _, p := range []string{*list, filepath.Join(*schemas, "wrapper-all.xsd"), filepath.Join(*peer, "index-browser.mjs"),
		filepath.Join(*static, "rscheck.wasm"), filepath.Join(*static, "wasm_exec.js")} {
		if _, err := os.Stat(p); err != nil {
			log.Fatalf("%v (run bench/browser/run.sh, which prepares it)", err)
		}
	}
	list = abs(*list)

	srv := server(*static, *schemas, *peer, *list)
	defer srv.Close()

	browser, ver, closeBrowser, err := headless.Start(*chromium)
	if err != nil {
		log.Fatal(err)
	}
	defer closeBrowser()
	st, _ := os.Stat(*list)
	fmt.Printf("browser: %s\ndocument: %s (%.1f MB)\n\n", ver, *list, float64(st.Size())/1e6)

	b := &bench{browser: browser, base: srv.URL}

	// (a) Ready to validate.
	// Where the page's time goes: the module fetched and compiled
	// (compileStreaming), then the worker started and Go initialised.
	var compileStart, compiled []float64
	ours := b.samples(*loads, func(ctx context.Context) float64 {
		must(chromedp.Do(ctx, chromedp.Navigate(b.base+"/"),
			chromedp.Poll[chromedp.Void](`performance.getEntriesByName('rscheck-ready').length > 0`, chromedp.WithPollingTimeout(time.Minute))))
		m := must1(chromedp.Run(ctx, chromedp.Evaluate[[]float64](`['rscheck-compile-start', 'rscheck-compiled', 'rscheck-ready'].map(n => performance.getEntriesByName(n)[0].startTime)`)))
		compileStart, compiled = append(compileStart, m[0]), append(compiled, m[1])
		return m[2]
	})
	theirs := b.samples(*loads, func(ctx context.Context) float64 {
		must(chromedp.Do(ctx, chromedp.Navigate(b.base+"/bench/bench.html"),
			chromedp.Poll[chromedp.Void](`document.body.dataset.ready === 'true'`)))
		return must1(chromedp.Run(ctx, chromedp.Evaluate[float64](`bench.xmllintReady()`, chromedp.EvalAwaitPromise)))
	})
	fmt.Println("(a) page ready to validate, ms from navigation start (first load; median of the others)")
	row("rscheck page: compile started", compileStart)
	row("rscheck page: module compiled", compiled)
	row("rscheck page (worker answered)", ours)
	row("xmllint-wasm (module + first run)", theirs)
	ratio("rscheck / xmllint-wasm", ours, theirs)
	fmt.Println()

	// (b) and (c) Validating the document, watching the main thread.
	tab, cancel := chromedp.NewContext(browser)
	defer cancel()
	must(headless.Quiet(tab))
	must(chromedp.Do(tab, chromedp.Navigate(b.base+"/bench/bench.html"),
		chromedp.Poll[chromedp.Void](`document.body.dataset.ready === 'true'`)))
	must1(chromedp.Run(tab, chromedp.Evaluate[float64](`bench.rscheckWorker()`, chromedp.EvalAwaitPromise)))
	must1(chromedp.Run(tab, chromedp.Evaluate[float64](`bench.xmllintReady()`, chromedp.EvalAwaitPromise)))
	page, closePage := b.openPage()
	defer closePage()
	// Runs alternate, one of each in turn, so that each of rscheck's runs
	// has a run of the peer beside it: the paired ratios below cancel the
	// machine's drifts in speed.
	var ourRuns, peerRuns, pageRuns []watch
	for i := 0; i <= *runs; i++ {
		ourRuns = append(ourRuns, must1(chromedp.Run(tab, chromedp.Evaluate[watch](`bench.rscheckValidate('/data/list.xml')`, chromedp.EvalAwaitPromise))))
		peerRuns = append(peerRuns, must1(chromedp.Run(tab, chromedp.Evaluate[watch](`bench.xmllintValidate('/data/list.xml')`, chromedp.EvalAwaitPromise))))
		pageRuns = append(pageRuns, b.pageCheck(page, i+1, *list))
	}

	fmt.Println("(b) validating the document, ms (first run; median of the others)")
	row("rscheck worker: XSD + all rules", ms(ourRuns))
	row("rscheck page: file chosen → results", ms(pageRuns))
	row("xmllint-wasm validateXML, official XSDs", ms(peerRuns))
	ratio("rscheck worker / xmllint-wasm", ms(ourRuns), ms(peerRuns))
	ratio("rscheck page / xmllint-wasm", ms(pageRuns), ms(peerRuns))
	paired("rscheck worker / xmllint-wasm, paired", ms(ourRuns), ms(peerRuns))
	paired("rscheck page / xmllint-wasm, paired", ms(pageRuns), ms(peerRuns))
	fmt.Printf("  verdicts: rscheck %d errors, %d warnings; xmllint-wasm valid=%v\n\n",
		ourRuns[0].Value.Errors, ourRuns[0].Value.Warnings, peerRuns[0].Value.Valid)

	fmt.Println("(c) main thread meanwhile: longest gap between frames, ms; long tasks (count, total ms); worst run")
	resp("rscheck worker", ourRuns)
	resp("rscheck page", pageRuns)
	resp("xmllint-wasm", peerRuns)

	wasmGz := gzipSize(filepath.Join(*static, "rscheck.wasm"))
	peerGz := gzipSize(filepath.Join(*peer, "xmllint.wasm"))
	fmt.Printf("\nmodules, gzipped: rscheck.wasm %.2f MB, xmllint.wasm %.2f MB (ratio %.1f)\n", wasmGz/1048576, peerGz/1048576, wasmGz/peerGz)
}

// watch is what bench.watched returns.
type watch struct {
	Value struct {
		Valid            bool
		Errors, Warnings int
	}
	MS, MaxFrameGap, LongTasks, LongTaskMS float64
}

type bench struct {
	browser context.Context
	base    string
}

// samples runs f n times, each in a fresh tab.
func (b *bench) samples(n int, f func(ctx context.Context) float64) []float64 {
	var out []float64
	for range n {
		ctx, cancel := chromedp.NewContext(b.browser)
		ctx, cancelT := context.WithTimeout(ctx, 2*time.Minute)
		must(headless.Quiet(ctx))
		out = append(out, f(ctx))
		cancelT()
		chromedp.Cancel(ctx)
		cancel()
	}
	return out
}

// openPage opens the app in a tab of its own, ready to check.
func (b *bench) openPage() (context.Context, context.CancelFunc) {
	ctx, cancel := chromedp.NewContext(b.browser)
	must(headless.Quiet(ctx))
	must(chromedp.Do(ctx, chromedp.Navigate(b.base+"/"),
		chromedp.Poll[chromedp.Void](`document.body.dataset.state === 'ready'`, chromedp.WithPollingTimeout(time.Minute))))
	return ctx, cancel
}

// pageCheck chooses the document in the app's file input, for the page's
// i-th check, and reads the page's own measure of it, watching the main
// thread.
func (b *bench) pageCheck(ctx context.Context, i int, list string) watch {
	// DevTools evaluation is not bound by the page's CSP: install the
	// same watcher as bench.js.
	must(chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`(() => {
		const w = window.__watch = {maxGap: 0, last: performance.now(), longTasks: 0, longTaskMs: 0, running: true};
		const frame = (t) => { w.maxGap = Math.max(w.maxGap, t - w.last); w.last = t; if (w.running) requestAnimationFrame(frame); };
		requestAnimationFrame(frame);
		w.obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) { w.longTasks++; w.longTaskMs += e.duration; } });
		w.obs.observe({type: 'longtask'});
	})()`),
		chromedp.SetUploadFiles(chromedp.ID("files"), []string{list}),
		chromedp.Poll[chromedp.Void](fmt.Sprintf(`Number(document.body.dataset.checks || 0) >= %d && document.body.dataset.state === 'done'`, i),
			chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(2*time.Minute)),
	))
	return must1(chromedp.Run(ctx, chromedp.Evaluate[watch](`new Promise(r => requestAnimationFrame(() => {
			const w = window.__watch; w.running = false; w.obs.disconnect();
			const m = performance.getEntriesByName('rscheck-check').at(-1);
			const c = document.querySelector('#results .counts').dataset;
			r({MS: m.duration, MaxFrameGap: w.maxGap, LongTasks: w.longTasks, LongTaskMS: w.longTaskMs,
			   Value: {Valid: +c.errors === 0, Errors: +c.errors, Warnings: +c.warnings}});
		}))`, chromedp.EvalAwaitPromise)))
}

func ms(ws []watch) []float64 {
	out := make([]float64, len(ws))
	for i, w := range ws {
		out[i] = w.MS
	}
	return out
}

// median of the samples after the first.
func median(xs []float64) float64 {
	rest := slices.Clone(xs)
	if len(rest) > 1 {
		rest = rest[1:]
	}
	slices.Sort(rest)
	return rest[len(rest)/2]
}

func row(name string, xs []float64) {
	fmt.Printf("  %-42s %8.0f  %8.0f\n", name, xs[0], median(xs))
}

// paired prints the median of the ratios of runs made side by side, the
// first excepted.
func paired(name string, a, b []float64) {
	var rs []float64
	for i := 1; i < len(a) && i < len(b); i++ {
		rs = append(rs, a[i]/b[i])
	}
	if len(rs) == 0 {
		return
	}
	slices.Sort(rs)
	fmt.Printf("  %-42s %8s  %8.2f  (%.2f–%.2f)\n", name, "", rs[len(rs)/2], rs[0], rs[len(rs)-1])
}

func ratio(name string, a, b []float64) {
	fmt.Printf("  %-42s %8.2f  %8.2f\n", name, a[0]/b[0], median(a)/median(b))
}

func resp(name string, ws []watch) {
	var worst watch
	for _, w := range ws {
		if w.MaxFrameGap > worst.MaxFrameGap {
			worst = w
		}
	}
	fmt.Printf("  %-42s gap %6.0f   long tasks %2.0f, %6.0f ms\n", name, worst.MaxFrameGap, worst.LongTasks, worst.LongTaskMS)
}

// server serves the app, the benchmark page, the peer, the schemas and the
// document on 127.0.0.1.
func server(static, schemas, peer, list string) *httptest.Server {
	app := overlay{base: web.Static(), dir: static, names: []string{"rscheck.wasm", "wasm_exec.js"}}
	h := web.NewHandler(web.Options{FS: app})
	if err := h.Prepare(); err != nil {
		log.Fatal(err)
	}
	mime.AddExtensionType(".mjs", "text/javascript")
	mime.AddExtensionType(".wasm", "application/wasm")
	mux := http.NewServeMux()
	mux.Handle("/", h)
	mux.Handle("/bench/", http.StripPrefix("/bench/", http.FileServer(http.Dir("bench/browser/page"))))
	mux.Handle("/peer/", http.StripPrefix("/peer/", http.FileServer(http.Dir(peer))))
	mux.Handle("/schemas/", http.StripPrefix("/schemas/", http.FileServer(http.Dir(schemas))))
	mux.HandleFunc("/data/list.xml", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, list) })
	return httptest.NewServer(mux)
}

// overlay serves some files from a directory over an fs.FS.
type overlay struct {
	base  fs.FS
	dir   string
	names []string
}

func (o overlay) Open(name string) (fs.File, error) {
	if slices.Contains(o.names, name) {
		return os.Open(filepath.Join(o.dir, name))
	}
	return o.base.Open(name)
}

// gzipSize is the size of a file compressed as the server sends it.
func gzipSize(path string) float64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	var n countWriter
	zw, _ := gzip.NewWriterLevel(&n, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return float64(n)
}

type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

func abs(p string) *string {
	a, err := filepath.Abs(p)
	if err != nil {
		log.Fatal(err)
	}
	return &a
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

func must1[T any](v T, err error) T {
	must(err)
	return v
}
