package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// tabTimeout bounds one test's use of its tab.
const tabTimeout = 3 * time.Minute

// A watch collects what a tab must not do: uncaught exceptions, console
// errors (except those a test expects) and dialogs.
type watch struct {
	t     *testing.T
	allow []*regexp.Regexp
	mu    sync.Mutex
	bad   []string
}

func (w *watch) record(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, re := range w.allow {
		if re.MatchString(msg) {
			w.t.Logf("console (expected): %s", msg)
			return
		}
	}
	w.mu.Lock()
	w.bad = append(w.bad, msg)
	w.mu.Unlock()
}

// newTab opens a tab in the test browser. Console messages go to the test
// log; an uncaught exception, a console error that matches none of the
// allow patterns, or a JavaScript dialog fails the test. On failure, a
// screenshot is saved under testdata/failures.
func newTab(t *testing.T, allow ...string) context.Context {
	t.Helper()
	if skipReason != "" {
		t.Skip(skipReason)
	}
	ctx, cancel := chromedp.NewContext(browserCtx)
	return watchTab(t, ctx, cancel, allow...)
}

// attachTab attaches to a target another tab opened (window.open).
func attachTab(t *testing.T, parent context.Context, id target.ID, allow ...string) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(parent, chromedp.WithTargetID(id))
	return watchTab(t, ctx, cancel, allow...)
}

func watchTab(t *testing.T, ctx context.Context, cancel context.CancelFunc, allow ...string) context.Context {
	t.Helper()
	w := &watch{t: t}
	for _, a := range allow {
		w.allow = append(w.allow, regexp.MustCompile(a))
	}
	ctx, cancelTimeout := context.WithTimeout(ctx, tabTimeout)
	t.Cleanup(func() {
		cancelTimeout()
		if err := chromedp.Cancel(ctx); err != nil && ctx.Err() == nil {
			t.Logf("closing the tab: %v", err)
		}
		cancel()
	})
	// No smooth scrolling: a click must land where the element is.
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	}); err != nil {
		t.Fatalf("emulating reduced motion: %v", err)
	}
	console := chromedp.Console(ctx)
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for m, err := range console {
			if err != nil {
				return
			}
			switch {
			case m.IsException():
				w.record("uncaught exception: %s", m)
			case m.Type == "error":
				w.record("console error: %s", m)
			default:
				t.Logf("console %s: %s", m.Type, m.Text)
			}
		}
	}()
	go func() {
		defer wg.Done()
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			w.record("a %s dialog opened: %q", ev.Type, ev.Message)
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}()
	t.Cleanup(func() {
		w.mu.Lock()
		for _, b := range w.bad {
			t.Error(b)
		}
		w.mu.Unlock()
		if t.Failed() && ctx.Err() == nil {
			screenshot(t, ctx)
		}
	})
	return ctx
}

// screenshot saves the tab's page under testdata/failures and logs where.
func screenshot(t *testing.T, ctx context.Context) {
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(sctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("no screenshot: %v", err)
		return
	}
	dir := filepath.Join("testdata", "failures")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("no screenshot: %v", err)
		return
	}
	name := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Logf("no screenshot: %v", err)
		return
	}
	abs, _ := filepath.Abs(path)
	t.Logf("screenshot of the failure: %s", abs)
}

// do runs actions in the tab and fails the test on error.
func do(t *testing.T, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression in the tab.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript predicate until it holds.
func waitFor(expr string, timeout time.Duration) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(25*time.Millisecond), chromedp.WithPollingTimeout(timeout))
}
