package e2e

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/rscheck/rscheck/explorer/monitor/monitortest"
	"github.com/rscheck/rscheck/web"
)

// monitorState waits until the monitor panel is in one of the states.
func monitorState(timeout time.Duration, states ...string) chromedp.Action[chromedp.Void] {
	return waitFor(fmt.Sprintf(`(s => s === 'ended' && !%[1]q.includes('ended')
		? (() => { throw new Error('the monitoring ended: ' + document.getElementById('monitor-status').textContent) })()
		: %[1]q.split(' ').includes(s))(document.getElementById('monitor').dataset.state)`, strings.Join(states, " ")), timeout)
}

// feedCount is a predicate: the feed has n rows of an event kind.
func feedCount(kind string, n int) string {
	return fmt.Sprintf(`document.querySelectorAll('#monitor-feed > li[data-kind=%q]').length >= %d`, kind, n)
}

// startMonitoring serves the app with the monitor on, as cmd/serve
// --monitor does, on 127.0.0.1, with the callbacks at its own address.
func startMonitoring(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(nil)
	t.Cleanup(srv.Close)
	ms, err := web.NewMonitorServer(web.MonitorOptions{PublicURL: srv.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // before srv.Close: the hubs verify the unsubscriptions
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		ms.Close(ctx)
	})
	srv.Config.Handler = web.WithMonitor(checker.Config.Handler, ms)
	return srv
}

// TestMonitor follows a Source's notifications on the page: find the
// channels, subscribe, see a good and a defective notification arrive
// with the defect's rules, stop.
func TestMonitor(t *testing.T) {
	// The search of a URL without channels fails: the browser logs the
	// API's answer.
	ctx := newTab(t, `Failed to load resource: the server responded with a status of (422|502)`)
	srv := startMonitoring(t)
	hub := monitortest.NewHub(t, nil)
	src := monitortest.NewSource(t, hub, nil)

	do(t, ctx,
		chromedp.Navigate(srv.URL+"/"),
		monitorState(quick, "idle"),
	)
	note := eval[string](t, ctx, `document.getElementById('monitor-callback').textContent`)
	if !strings.Contains(note, "cannot receive") || !strings.Contains(note, srv.URL+"/websub/") {
		t.Errorf("the page does not say who holds the callback: %q", note)
	}
	do(t, ctx,
		chromedp.SetValue(chromedp.ID("monitor-url"), hub.URL),
		chromedp.Click(chromedp.ID("monitor-find")),
		monitorState(quick, "idle"),
		waitFor(`document.getElementById('monitor-status').textContent.startsWith('Cannot find channels: ')`, quick),
		chromedp.SetValue(chromedp.ID("monitor-url"), src.WellKnown),
		chromedp.Click(chromedp.ID("monitor-find")),
		monitorState(quick, "discovered"),
	)
	topics := eval[[]string](t, ctx, `[...document.querySelectorAll('#monitor-channels input[name="topic"]:checked')].map(b => b.value)`)
	slices.Sort(topics)
	if want := []string{src.ChangeTopic, src.FrameworkTopic}; !slices.Equal(topics, want) && !slices.Equal(topics, []string{want[1], want[0]}) {
		t.Fatalf("channels offered %v, want %v", topics, want)
	}
	do(t, ctx,
		chromedp.Click(chromedp.ID("monitor-subscribe")),
		monitorState(quick, "running"),
		waitFor(feedCount("verified", 2), quick),
	)
	// The hub activates a subscription once it has read the answer to its
	// verification, a moment after the page hears of it.
	deadline := time.Now().Add(quick)
	for hub.Active(src.ChangeTopic) == 0 || hub.Active(src.FrameworkTopic) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the hub did not activate the subscriptions")
		}
		time.Sleep(5 * time.Millisecond)
	}

	bad := monitortest.WrongUpLink
	for _, d := range []monitortest.Defect{monitortest.Good, bad} {
		if _, err := src.Publish(context.Background(), d); err != nil {
			t.Fatal(err)
		}
	}
	do(t, ctx, waitFor(feedCount("notification", 2), quick))
	type row struct {
		Seq, Errors  int
		Topic, Rules string
	}
	rows := eval[[]row](t, ctx, `[...document.querySelectorAll('#monitor-feed > li[data-kind="notification"]')].reverse().map(li =>
		({Seq: +li.dataset.seq, Errors: +li.dataset.errors, Topic: li.dataset.topic, Rules: li.dataset.rules}))`)
	if rows[0].Rules != "" || rows[0].Topic != src.ChangeTopic {
		t.Errorf("the good notification: %+v", rows[0])
	}
	for _, r := range bad.Rules() {
		if !slices.Contains(strings.Fields(rows[1].Rules), r) {
			t.Errorf("the %v notification's row %+v lacks rule %s", bad, rows[1], r)
		}
	}
	// Opened, the row shows the finding, its rule named and linked.
	do(t, ctx,
		chromedp.Click(chromedp.CSS(`#monitor-feed > li[data-kind="notification"][data-seq="2"] summary`)),
		waitFor(fmt.Sprintf(`!!document.querySelector('#monitor-feed li[data-seq="2"] details[open] tr.finding[data-rule=%q]')`, bad.Rules()[0]), quick),
	)
	cell := eval[string](t, ctx, fmt.Sprintf(`document.querySelector('#monitor-feed li[data-seq="2"] tr.finding[data-rule=%q] td.rule').textContent`, bad.Rules()[0]))
	if !strings.HasPrefix(cell, bad.Rules()[0]) || len(cell) == len(bad.Rules()[0]) {
		t.Errorf("rule cell %q: want the ID and the rule's name", cell)
	}
	if latency := eval[string](t, ctx, `document.querySelector('#monitor-feed li[data-seq="2"] .feed-latency').textContent`); !strings.HasPrefix(latency, "latency ") {
		t.Errorf("latency %q", latency)
	}
	shots(t, ctx, "monitor-feed")

	// A reloaded page finds its session again, and the server replays
	// the feed.
	do(t, ctx,
		chromedp.Reload(),
		monitorState(quick, "running"),
		waitFor(feedCount("notification", 2)+" && "+feedCount("verified", 2), quick),
	)
	if got := eval[string](t, ctx, `document.getElementById('monitor-url').value`); got != src.WellKnown {
		t.Errorf("after a reload the URL field holds %q", got)
	}

	do(t, ctx,
		chromedp.Click(chromedp.ID("monitor-stop")),
		monitorState(quick, "ended"),
		waitFor(feedCount("unsubscribed", 2), quick),
	)
	if st := hub.Stats(); st.Unsubscribes != 2 {
		t.Errorf("after Stop the hub counts %d unsubscriptions, want 2", st.Unsubscribes)
	}
	if !eval[bool](t, ctx, `document.getElementById('monitor-stop').disabled`) {
		t.Error("Stop is still enabled after the monitoring ended")
	}

	// The report stays while the page is open: it has the defect.
	dir := t.TempDir()
	progress := chromedp.Events(ctx, cdpbrowser.DownloadProgress)
	do(t, ctx,
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			events := true
			_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
				Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &events,
			})
			return err
		}),
		chromedp.Click(chromedp.ID("monitor-dl-html")),
	)
	for ev, err := range progress {
		if err != nil {
			t.Fatal(err)
		}
		if ev.State == cdpbrowser.DownloadProgressStateCanceled {
			t.Fatal("the download was cancelled")
		}
		if ev.State == cdpbrowser.DownloadProgressStateCompleted {
			b, err := os.ReadFile(filepath.Join(dir, ev.GUID))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), "<html") || !strings.Contains(string(b), bad.Rules()[0]) {
				t.Errorf("the downloaded report (%d bytes) is not HTML with %s", len(b), bad.Rules()[0])
			}
			break
		}
	}
}

// TestMonitorOff: without --monitor, the panel says how to turn it on.
func TestMonitorOff(t *testing.T) {
	ctx := newTab(t)
	do(t, ctx, chromedp.Navigate(checker.URL+"/"), monitorState(quick, "off"))
	text := eval[string](t, ctx, `document.getElementById('monitor-off').textContent`)
	for _, want := range []string{"cannot receive", "make serve", "--monitor --public-url"} {
		if !strings.Contains(text, want) {
			t.Errorf("the explanation does not mention %q: %s", want, text)
		}
	}
	shots(t, ctx, "monitor-off")
}

// shots saves the monitor panel at desktop and phone widths, light and
// dark, in the RSCHECK_SCREENSHOTS directory, when it is set.
func shots(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv(envScreenshots)
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, size := range []struct {
		name          string
		width, height int64
	}{{"desktop", 1280, 900}, {"phone", 375, 780}} {
		for _, scheme := range []string{"light", "dark"} {
			do(t, ctx,
				chromedp.EmulateViewport(size.width, size.height),
				chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
					_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
						Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}, {Name: "prefers-reduced-motion", Value: "reduce"}},
					})
					return err
				}),
			)
			// The whole panel, and the screenful a reader sees at the feed.
			whole, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID("monitor")))
			if err != nil {
				t.Fatal(err)
			}
			do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById('monitor-live').scrollIntoView()`))
			view, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			for suffix, png := range map[string][]byte{"": whole, "-view": view} {
				path := filepath.Join(dir, size.name+"-"+scheme+"-"+name+suffix+".png")
				if err := os.WriteFile(path, png, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("saved %s", path)
			}
		}
	}
	do(t, ctx, chromedp.EmulateViewport(1280, 900))
}
