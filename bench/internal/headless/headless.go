// Package headless starts the headless Chromium the browser benchmarks
// run in, set up the same way for each: no sandbox (root in CI), no GPU,
// nothing that reaches the network on its own, and tabs without the
// DevTools domains that would slow what is measured.
package headless

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Start launches the browser at path and returns its context, with the
// user agent it reports; cancel closes it.
func Start(path string) (browser context.Context, userAgent string, cancel func(), err error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true), chromedp.Flag("window-size", "1280,900"))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	cancel = func() { cancelBrowser(); cancelAlloc() }
	if err := chromedp.Do(browser); err != nil {
		cancel()
		return nil, "", nil, err
	}
	userAgent, _ = chromedp.Run(browser, chromedp.Evaluate[string](`navigator.userAgent`))
	return browser, userAgent, cancel, nil
}

// Quiet turns off, in the tab of ctx, the Network domain chromedp enables:
// with it DevTools keeps a copy of every response body and hears of every
// Server-Sent Event, a cost no user's browser pays and that slows the
// downloads and the events being measured.
func Quiet(ctx context.Context) error {
	return chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, network.Disable, cdp.Empty{})
		return err
	}))
}
