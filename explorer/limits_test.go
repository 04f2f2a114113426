//go:build !js

// Natively only: these tests crawl real HTTP servers on 127.0.0.1.

package explorer_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/explorer/explorertest"
)

// TestCancel cancels an exploration of a slow Source: Explore returns
// promptly with the context's error and a partial result, and leaves no
// goroutine behind.
func TestCancel(t *testing.T) {
	checkNoLeaks(t)
	src := explorertest.NewSource(t, &explorertest.Options{Slow: 200 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(500*time.Millisecond, cancel)
	start := time.Now()
	res, err := explorer.Explore(ctx, src.Root, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Explore returned %v after the cancellation", d-500*time.Millisecond)
	}
	if res == nil || len(res.Documents) == 0 {
		t.Fatalf("no partial result: %+v", res)
	}
	for _, f := range res.Findings() {
		if f.Rule == "RF104" || f.Rule == "RF106" {
			t.Errorf("cancellation reported as a finding: %s", f)
		}
	}
}

// TestLimits checks that every limit stops the exploration cleanly and
// promptly, says so in Result.Stopped, and reports the links not followed.
func TestLimits(t *testing.T) {
	src := explorertest.NewSource(t, nil)
	slow := explorertest.NewSource(t, &explorertest.Options{Slow: 100 * time.Millisecond})
	for _, tc := range []struct {
		name    string
		start   string
		opts    explorer.Options
		stopped string
		rule    string
	}{
		{"documents", src.Root, explorer.Options{MaxDocuments: 5}, "5 documents", "RF106"},
		{"depth", src.Root, explorer.Options{MaxDepth: 1}, "depth limit of 1", "RF106"},
		{"bytes", src.Root, explorer.Options{MaxBytes: 6000, Concurrency: 1}, "bytes read", "RF106"},
		{"time", slow.Root, explorer.Options{MaxDuration: 600 * time.Millisecond}, "time limit", ""},
		{"per-request timeout", slow.WellKnown, explorer.Options{Timeout: 30 * time.Millisecond}, "", "RF104"},
		{"package size", src.Root, explorer.Options{MaxPackageBytes: 500}, "", "RF105"},
		{"document size", src.Root, explorer.Options{MaxDocumentBytes: 700}, "", "XML002"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkNoLeaks(t)
			start := time.Now()
			res, err := explorer.Explore(context.Background(), tc.start, &tc.opts)
			if err != nil {
				t.Fatalf("Explore: %v", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
			if !strings.Contains(res.Stopped, tc.stopped) || (tc.stopped == "") != (res.Stopped == "") {
				t.Errorf("Stopped = %q, want %q", res.Stopped, tc.stopped)
			}
			if tc.rule == "" {
				return
			}
			for _, f := range res.Findings() {
				if f.Rule == tc.rule {
					t.Logf("%s", f)
					return
				}
			}
			t.Errorf("no %s finding", tc.rule)
			dumpFindings(t, res)
		})
	}
}
