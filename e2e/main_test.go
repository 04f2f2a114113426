package e2e

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/rscheck/rscheck/web"
)

// Environment switches.
const (
	// envOptional makes a missing Chromium skip the tests instead of
	// failing them.
	envOptional = "RSCHECK_E2E_OPTIONAL"
	// envChromium names the browser binary; the default is
	// /usr/bin/chromium, else chromium on PATH.
	envChromium = "RSCHECK_CHROMIUM"
	// envVisible shows the browser window (CHROMEDP_NO_HEADLESS, as in
	// chromedp's own tests).
	envVisible = "CHROMEDP_NO_HEADLESS"
)

var (
	// skipReason, if set, skips every test (no browser, and allowed).
	skipReason string
	// browserCtx is the one browser of the test binary; tests open tabs.
	browserCtx context.Context
	// checker serves the app with the real handler, proxy on.
	checker *httptest.Server
	// repoRoot is the module's root directory.
	repoRoot string
)

func TestMain(m *testing.M) { os.Exit(testMain(m)) }

func testMain(m *testing.M) int {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	repoRoot = filepath.Dir(wd)

	exe := findChromium()
	if exe == "" {
		msg := "no Chromium at /usr/bin/chromium or on PATH (install it: make deps-browser, or apt-get install chromium; or set " + envChromium + ")"
		if os.Getenv(envOptional) == "" {
			fmt.Fprintln(os.Stderr, "e2e: "+msg+"; set "+envOptional+"=1 to skip these tests instead")
			return 1
		}
		skipReason = msg
		return m.Run()
	}

	app, cleanup, err := appFS()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building the WebAssembly module:", err)
		return 1
	}
	defer cleanup()
	h := web.NewHandler(web.Options{FS: app, Proxy: true})
	if err := h.Prepare(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	checker = httptest.NewServer(h)
	defer checker.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // as root in containers
		chromedp.DisableGPU,
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("window-size", "1280,900"),
	)
	if os.Getenv(envVisible) != "" {
		opts = append(opts, chromedp.VisibleWindow)
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	var cancelBrowser context.CancelFunc
	browserCtx, cancelBrowser = chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	// The first action starts the browser, bound to the context it runs
	// in: run it in browserCtx itself, not in a shorter-lived child.
	if err := chromedp.Do(browserCtx); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: starting", exe+":", err)
		return 1
	}
	return m.Run()
}

// findChromium returns the browser to test with, or "".
func findChromium() string {
	if p := os.Getenv(envChromium); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// appFS returns the app's files: the embedded ones, with rscheck.wasm and
// wasm_exec.js from web/static when they are up to date, else from a
// fresh build in a temporary directory (so that "go test ./e2e" works
// alone and never tests a stale module).
func appFS() (fs.FS, func(), error) {
	static := filepath.Join(repoRoot, "web", "static")
	wasm := filepath.Join(static, "rscheck.wasm")
	execJS := filepath.Join(static, "wasm_exec.js")
	if fresh(wasm) && exists(execJS) {
		return overlay{base: web.Static(), files: map[string]string{"rscheck.wasm": wasm, "wasm_exec.js": execJS}}, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "rscheck-e2e-wasm")
	if err != nil {
		return nil, nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	fmt.Fprintln(os.Stderr, "e2e: web/static/rscheck.wasm is missing or older than the sources: building it")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "rscheck.wasm"), "./wasm")
	build.Dir = repoRoot
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("%v\n%s", err, out)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	execJS = filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
	return overlay{base: web.Static(), files: map[string]string{
		"rscheck.wasm": filepath.Join(dir, "rscheck.wasm"),
		"wasm_exec.js": execJS,
	}}, cleanup, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// fresh reports whether a built file is newer than every Go source file
// (tests aside), go.mod, go.sum and the embedded schemas it is built from.
func fresh(built string) bool {
	st, err := os.Stat(built)
	if err != nil {
		return false
	}
	stale := errors.New("stale")
	err = filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != repoRoot && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata" || name == "e2e") {
				return filepath.SkipDir
			}
			return nil
		}
		src := (strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")) ||
			name == "go.mod" || name == "go.sum" || strings.HasSuffix(name, ".xsd")
		if !src {
			return nil
		}
		if info, err := d.Info(); err == nil && info.ModTime().After(st.ModTime()) {
			return stale
		}
		return nil
	})
	return err == nil
}

// overlay serves some files from disk over an fs.FS.
type overlay struct {
	base  fs.FS
	files map[string]string // name in the FS → path on disk
}

func (o overlay) Open(name string) (fs.File, error) {
	if p, ok := o.files[name]; ok {
		return os.Open(p)
	}
	return o.base.Open(name)
}
