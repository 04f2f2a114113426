// Package e2e holds rscheck's end-to-end tests: the browser app, served by
// the real handler of cmd/serve, driven in headless Chromium with chromedp.
//
// One browser serves the whole test binary and each test has its own tab.
// An uncaught exception, a console error or a JavaScript dialog fails the
// test that caused it, and a failing test leaves a screenshot in
// testdata/failures. The tests build the WebAssembly module themselves
// when web/static/rscheck.wasm is missing or stale, so "go test ./e2e"
// works alone.
//
// Without Chromium the tests fail, unless RSCHECK_E2E_OPTIONAL is set:
// they are then skipped. RSCHECK_CHROMIUM names another browser binary and
// CHROMEDP_NO_HEADLESS shows the window.
package e2e
