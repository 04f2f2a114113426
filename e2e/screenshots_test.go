package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/rscheck/rscheck/explorer/explorertest"
)

// envScreenshots names a directory: TestScreenshots then saves the page
// at desktop and phone widths, in light and dark mode, for people to look
// at. Without it the test is skipped.
const envScreenshots = "RSCHECK_SCREENSHOTS"

func TestScreenshots(t *testing.T) {
	dir := os.Getenv(envScreenshots)
	if dir == "" {
		t.Skip("set " + envScreenshots + "=dir to save screenshots of the page")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := explorertest.NewSource(t, &explorertest.Options{Defective: true})
	for _, size := range []struct {
		name          string
		width, height int64
	}{{"desktop", 1280, 900}, {"phone", 375, 780}} {
		for _, scheme := range []string{"light", "dark"} {
			t.Run(size.name+"-"+scheme, func(t *testing.T) {
				ctx := newTab(t)
				setup := chromedp.Steps(
					chromedp.EmulateViewport(size.width, size.height),
					chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
						_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
							Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}, {Name: "prefers-reduced-motion", Value: "reduce"}},
						})
						return err
					}),
				)
				shot := func(name string, full bool) {
					t.Helper()
					var png []byte
					var err error
					if full {
						png, err = chromedp.Run(ctx, chromedp.FullScreenshot(100))
					} else {
						png, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
					}
					if err != nil {
						t.Fatal(err)
					}
					path := filepath.Join(dir, size.name+"-"+scheme+"-"+name+".png")
					if err := os.WriteFile(path, png, 0o644); err != nil {
						t.Fatal(err)
					}
					t.Logf("saved %s", path)
				}
				do(t, ctx, setup, openChecker(""))
				shot("1-start", false)
				do(t, ctx, chromedp.Click(chromedp.ID("example")), checked(1, quick),
					chromedp.Click(chromedp.CSS(`tr.finding[tabindex="0"]`)),
					waitFor(`!!document.querySelector('.source .line.hl')`, quick))
				shot("2-findings", true)
				do(t, ctx, exploreSource(src.Root, true), checked(2, crawl))
				shot("3-explore", true)
			})
		}
	}
}
