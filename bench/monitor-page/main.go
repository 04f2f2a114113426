// Command monitor-page measures the notification monitor's latency to the
// page, on loopback: the time from a Source's publication (its POST to the
// hub) to the page showing the notification, a row in its feed. The path
// is the whole of cmd/serve --monitor's: the hub relays the notification
// to the server's WebSub callback, the server checks it, streams it to the
// page (Server-Sent Events), and the page's monitor panel renders it.
// bench/monitor measures the first half, to the checked notification.
//
// It runs, in one process, the fixture hub and Source of package
// monitortest and the app's handler with the monitor on, made as cmd/serve
// --monitor makes them, and drives headless Chromium: it opens the page,
// finds the Source's channels, keeps the change channel and subscribes, as
// a person would. A MutationObserver on the feed then records, for each
// notification row added, the wall-clock time (performance.timeOrigin +
// performance.now(), in ms; Chromium coarsens it to 0.1 ms) keyed by the
// first change's URL, which the row lists. Go records the publication
// time (time.Now() when the Source posts: the same system clock, both run
// on this machine, which the two compare at the start and the end of each
// run), and latency is the difference. Three times are reported:
//
//   - row in the feed: the row is in the DOM (the observer's callback,
//     right after the task that added it);
//   - next frame starts: the next animation frame's callback, before its
//     style, layout and paint;
//   - that frame rendered: the first task after that frame's, once its
//     style, layout and paint are done and handed to the compositor:
//     about when the row can appear on screen.
//
// Two modes, each with a fresh page and session after a few unmeasured
// notifications (the server compiles the schemas on the first):
//
//   - paced: one notification at a time, the next once the page has
//     rendered the previous and started another frame: the latency of one
//     notification;
//   - burst: all at once, as fast as the Source can post them: the latency
//     under load, queueing included, and the throughput.
//
// Usage:
//
//	go run ./bench/monitor-page [-n 1000] [-mode paced|burst|both] [-warmup 20] [-timeout 10s]
//	                            [-csv times.csv] [-chromium /usr/bin/chromium]
//
// (make bench-monitor runs it with -n 1000.) It exits with status 1
// if a notification does not show within the timeout.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/rscheck/rscheck/bench/internal/headless"
	"github.com/rscheck/rscheck/explorer/monitor/monitortest"
	"github.com/rscheck/rscheck/web"
)

// step bounds each step of the page's set-up.
const step = 60 * time.Second

func main() {
	n := flag.Int("n", 1000, "notifications to publish per mode")
	mode := flag.String("mode", "both", "paced, burst or both")
	warmup := flag.Int("warmup", 20, "unmeasured notifications before each mode's")
	timeout := flag.Duration("timeout", 10*time.Second, "how long a notification may take to show")
	chromium := flag.String("chromium", "/usr/bin/chromium", "browser binary")
	csvPath := flag.String("csv", "", "also write each notification's times to this `file` (CSV)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("bench/monitor-page: ")
	if *n < 1 || (*mode != "paced" && *mode != "burst" && *mode != "both") {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*n, *mode, *warmup, *timeout, *chromium, *csvPath); err != nil {
		log.Print(err)
		os.Exit(1)
	}
}

// run serves the app, starts the fixtures and the browser, and measures
// the modes asked for.
func run(n int, mode string, warmup int, timeout time.Duration, chromium, csvPath string) error {
	hub := monitortest.StartHub(nil)
	defer hub.Close()
	src := monitortest.StartSource(hub, nil)
	defer src.Close()

	// The app with the monitor on, as cmd/serve --monitor serves it, its
	// callbacks at its own loopback address.
	srv := httptest.NewServer(nil)
	defer srv.Close()
	app := web.NewHandler(web.Options{})
	if err := app.Prepare(); err != nil {
		return err
	}
	ms, err := web.NewMonitorServer(web.MonitorOptions{PublicURL: srv.URL + "/"})
	if err != nil {
		return err
	}
	defer func() { // before srv.Close and hub.Close: the hub verifies the unsubscriptions
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		ms.Close(ctx)
	}()
	srv.Config.Handler = web.WithMonitor(app, ms)

	browser, ua, closeBrowser, err := headless.Start(chromium)
	if err != nil {
		return fmt.Errorf("starting %s: %w", chromium, err)
	}
	defer closeBrowser()

	fmt.Printf("%s, %d CPU (nproc), %s %s/%s\n", time.Now().Format(time.DateTime), runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Printf("uptime: %s\n", uptime())
	fmt.Printf("browser: %s\n", ua)
	fmt.Println("latency: from the Source's POST to the hub (Go's time.Now()) to the page's feed (a MutationObserver's")
	fmt.Println("  performance.timeOrigin + performance.now()): both this machine's wall clock, all on loopback")
	var csv strings.Builder
	csv.WriteString("mode,i,published_unix_ms,dom_ms,frame_ms,rendered_ms,next_frame_ms\n")
	for _, md := range []string{"paced", "burst"} {
		if mode != "both" && mode != md {
			continue
		}
		if err := measure(browser, srv.URL, hub, src, md, n, warmup, timeout, &csv); err != nil {
			return fmt.Errorf("%s: %w", md, err)
		}
	}
	fmt.Printf("\nuptime: %s\n", uptime())
	if csvPath != "" {
		return os.WriteFile(csvPath, []byte(csv.String()), 0o644)
	}
	return nil
}

// observer is installed in the page (DevTools evaluation, which the page's
// CSP does not bind): it records when each notification row is added to
// the feed, by the first change's URL, when the next frame starts, when
// that frame is rendered, and when the frame after it starts (which the
// paced mode waits for, so that one notification's rendering does not
// delay the next's).
const observer = `(() => {
  const now = () => performance.timeOrigin + performance.now();
  const shown = new Map(); // key → {dom, frame, rendered, next}, wall-clock ms
  const waiters = new Set();
  const check = () => { for (const w of waiters) w(); };
  new MutationObserver((records) => {
    const t = now();
    const added = [];
    for (const r of records) {
      for (const li of r.addedNodes) {
        if (li.nodeType !== 1 || li.dataset.kind !== 'notification') continue;
        const a = li.querySelector('.feed-changes a[href]');
        const key = a ? a.getAttribute('href') : 'seq ' + li.dataset.seq;
        if (shown.has(key)) continue; // replayed after a reconnection
        const rec = { dom: t, frame: 0, rendered: 0, next: 0 };
        shown.set(key, rec);
        added.push(rec);
      }
    }
    if (!added.length) return;
    requestAnimationFrame(() => {
      const f = now();
      for (const rec of added) rec.frame = f;
      // The first task after the frame's: its style, layout and paint
      // are done, handed to the compositor.
      setTimeout(() => {
        const r = now();
        for (const rec of added) rec.rendered = r;
      });
      // The next frame starts once the compositor has taken this one.
      requestAnimationFrame(() => {
        const x = now();
        for (const rec of added) rec.next = x;
        check();
      });
    });
  }).observe(document.getElementById('monitor-feed'), { childList: true });
  window.__bench = {
    // Resolves, once every key has been shown (and the frame after
    // its frame has started) or after ms, with the keys not shown.
    waitAll(keys, ms) {
      const missing = () => keys.filter((k) => !shown.get(k)?.next);
      return new Promise((resolve) => {
        const w = () => {
          const m = missing();
          if (m.length) return;
          waiters.delete(w);
          clearTimeout(timer);
          resolve([]);
        };
        const timer = setTimeout(() => { waiters.delete(w); resolve(missing()); }, ms);
        waiters.add(w);
        w();
      });
    },
    times(keys) { return keys.map((k) => shown.get(k) ?? { dom: 0, frame: 0, rendered: 0, next: 0 }); },
  };
})()`

// shown is when the page showed one notification, in wall-clock ms (see
// observer).
type shown struct {
	DOM      float64 `json:"dom"`
	Frame    float64 `json:"frame"`
	Rendered float64 `json:"rendered"`
	Next     float64 `json:"next"`
}

// measure runs one mode in a fresh tab and session and prints its
// figures; each notification's times go to csv.
func measure(browser context.Context, base string, hub *monitortest.Hub, src *monitortest.Source, mode string, n, warmup int, timeout time.Duration, csv *strings.Builder) error {
	ctx, cancel := chromedp.NewContext(browser)
	defer cancel()
	defer chromedp.Cancel(ctx)
	if err := headless.Quiet(ctx); err != nil {
		return err
	}
	go func() { // the page's own troubles, if any
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == "error" {
				fmt.Fprintf(os.Stderr, "page: %s: %s\n", m.Type, m)
			}
		}
	}()
	wait := func(expr string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(25*time.Millisecond), chromedp.WithPollingTimeout(step))
	}
	state := func(s string) chromedp.Action[chromedp.Void] {
		return wait(fmt.Sprintf(`document.getElementById('monitor').dataset.state === %q`, s))
	}
	// Open the page, let the checker's module load (it warms up in a
	// worker once the page is idle, which would compete for the CPU),
	// find the channels, keep the change channel and subscribe.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/"),
		state("idle"),
		wait(`document.body.dataset.state && document.body.dataset.state !== 'loading'`),
		chromedp.Sleep(time.Second),
		chromedp.SetValue(chromedp.ID("monitor-url"), src.WellKnown),
		chromedp.Click(chromedp.ID("monitor-find")),
		state("discovered"),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#monitor-channels input[name="topic"][value=%q]`, src.FrameworkTopic))),
		chromedp.Click(chromedp.ID("monitor-subscribe")),
		state("running"),
		wait(`!!document.querySelector('#monitor-feed > li[data-kind="verified"]')`),
		chromedp.Evaluate[chromedp.Void](observer),
	); err != nil {
		return fmt.Errorf("setting the page up: %w", err)
	}
	if hub.Active(src.FrameworkTopic) != 0 {
		return fmt.Errorf("subscribed to the framework channel too")
	}
	for deadline := time.Now().Add(step); hub.Active(src.ChangeTopic) == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("the hub did not activate the subscription")
		}
	}

	// The server compiles the schemas on the first notification.
	for range warmup {
		if _, err := publishShow(ctx, src, timeout); err != nil {
			return fmt.Errorf("warming up: %w", err)
		}
	}
	off0, rtt0 := clockOffset(ctx)

	pubs := make([]*monitortest.Publication, 0, n)
	var published time.Duration // how long the burst's publishing took
	switch mode {
	case "paced":
		for range n {
			p, err := publishShow(ctx, src, timeout)
			if err != nil {
				return err
			}
			pubs = append(pubs, p)
		}
	case "burst":
		start := time.Now()
		for range n {
			p, err := src.PublishChange(ctx, monitortest.Good)
			if err != nil {
				return err
			}
			pubs = append(pubs, p)
		}
		published = time.Since(start)
		if err := waitShown(ctx, pubs, timeout); err != nil {
			return err
		}
	}
	keys := make([]string, len(pubs))
	for i, p := range pubs {
		keys[i] = p.Changes[0]
	}
	b, _ := json.Marshal(keys)
	times, err := chromedp.Run(ctx, chromedp.Evaluate[[]shown](`__bench.times(`+string(b)+`)`))
	if err != nil {
		return err
	}
	off1, rtt1 := clockOffset(ctx)

	dom := make([]float64, n)
	frame := make([]float64, n)
	rendered := make([]float64, n)
	first, last := math.Inf(1), math.Inf(-1)
	for i, p := range pubs {
		at := float64(p.Published.UnixMicro()) / 1000
		dom[i], frame[i], rendered[i] = times[i].DOM-at, times[i].Frame-at, times[i].Rendered-at
		fmt.Fprintf(csv, "%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f\n", mode, i, at, dom[i], frame[i], rendered[i], times[i].Next-at)
		first, last = min(first, at), max(last, times[i].DOM)
	}
	fmt.Printf("\n%s: n=%d (after %d unmeasured), latency in ms\n", mode, n, warmup)
	row("  row in the feed (DOM)", dom)
	row("  next frame starts", frame)
	row("  that frame rendered", rendered)
	if mode == "burst" {
		fmt.Printf("  publishing took %s; first publication → last row shown %.0f ms: %.0f notifications/s\n",
			round(published), last-first, float64(n)/((last-first)/1000))
	}
	fmt.Printf("  clocks, page − Go: %+.3f ms (±%.3f) before, %+.3f ms (±%.3f) after\n", off0, rtt0/2, off1, rtt1/2)

	// Stop as a person would: the server unsubscribes.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("monitor-stop")), state("ended")); err != nil {
		return fmt.Errorf("stopping: %w", err)
	}
	return nil
}

// publishShow publishes a good change notification and waits until the
// page shows it.
func publishShow(ctx context.Context, src *monitortest.Source, timeout time.Duration) (*monitortest.Publication, error) {
	p, err := src.PublishChange(ctx, monitortest.Good)
	if err != nil {
		return nil, err
	}
	return p, waitShown(ctx, []*monitortest.Publication{p}, timeout)
}

// waitShown waits until the page shows every publication, for at most
// timeout after the call.
func waitShown(ctx context.Context, pubs []*monitortest.Publication, timeout time.Duration) error {
	keys := make([]string, len(pubs))
	for i, p := range pubs {
		keys[i] = p.Changes[0]
	}
	b, _ := json.Marshal(keys)
	missing, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](fmt.Sprintf(`__bench.waitAll(%s, %d)`, b, timeout.Milliseconds()), chromedp.EvalAwaitPromise))
	if err != nil {
		return err
	}
	if len(missing) == 0 {
		return nil
	}
	at := ""
	for _, p := range pubs {
		if p.Changes[0] == missing[0] {
			at = ", published at " + p.Published.Format(time.StampMicro)
		}
	}
	return fmt.Errorf("%d of %d notifications not shown on the page within %s; the first is about %s%s",
		len(missing), len(pubs), timeout, missing[0], at)
}

// clockOffset compares the page's wall clock with Go's: the offset at
// the middle of the round trip, and the round trip, in ms, of the
// shortest of a few round trips.
func clockOffset(ctx context.Context) (offset, rtt float64) {
	offset, rtt = math.NaN(), math.Inf(1)
	for range 10 {
		before := time.Now()
		page, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`performance.timeOrigin + performance.now()`))
		after := time.Now()
		if err != nil {
			return math.NaN(), math.NaN()
		}
		if r := float64(after.Sub(before).Microseconds()) / 1000; r < rtt {
			offset, rtt = page-float64(before.UnixMicro()+after.UnixMicro())/2000, r
		}
	}
	return offset, rtt
}

// row prints the median, p95, p99 and maximum of xs.
func row(name string, xs []float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	q := func(p int) float64 { return s[(len(s)*p+99)/100-1] }
	fmt.Printf("%-26s median %7.2f  p95 %7.2f  p99 %7.2f  max %7.2f  (min %.2f)\n", name, q(50), q(95), q(99), s[len(s)-1], s[0])
}

func round(d time.Duration) time.Duration { return d.Round(time.Millisecond) }

// uptime is uptime(1)'s line, or the load averages.
func uptime() string {
	if out, err := exec.Command("uptime").Output(); err == nil {
		return strings.TrimSpace(string(out))
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		return "load averages " + strings.TrimSpace(string(b))
	}
	return "unknown"
}
