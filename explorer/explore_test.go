package explorer_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/explorer/explorertest"
	"github.com/rscheck/rscheck/validator"
)

func explore(t *testing.T, start string, opts *explorer.Options) *explorer.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := explorer.Explore(ctx, start, opts)
	if err != nil {
		t.Fatalf("Explore(%s): %v", start, err)
	}
	return res
}

func dumpFindings(t *testing.T, res *explorer.Result) {
	t.Helper()
	for _, f := range res.Findings() {
		t.Logf("  %s", f)
	}
}

// TestCompleteSource explores the complete fixture Source from its root:
// every document and package is read and no finding is an error.
func TestCompleteSource(t *testing.T) {
	src := explorertest.NewSource(t, nil)
	res := explore(t, src.Root, nil)
	bad := false
	for _, f := range res.Findings() {
		if f.Severity == validator.Error {
			bad = true
		}
	}
	if bad || res.Stopped != "" {
		t.Errorf("exploring the complete Source reported errors (stopped: %q):", res.Stopped)
		dumpFindings(t, res)
	}
	for _, d := range res.Documents {
		t.Logf("%-14s %3d %s (%s) %s", d.Kind, d.Status, d.URL, d.Via, d.Error)
	}
	for _, d := range res.Discovery {
		t.Logf("discovery: %s", d)
	}
	if testing.Verbose() {
		dumpFindings(t, res)
	}
}

// TestDefectiveSource explores the defective twin: every planted defect
// is reported with its rule, at its document and line, and nothing else
// of severity warning or error.
func TestDefectiveSource(t *testing.T) {
	src := explorertest.NewSource(t, &explorertest.Options{Defective: true})
	res := explore(t, src.Root, nil)
	type key struct {
		url  string
		line int
		rule string
	}
	want := map[key]int{}
	for _, w := range src.Wants {
		want[key{w.URL, w.Line, w.Rule}]++
	}
	got := map[key]int{}
	var unexpected []string
	for _, f := range res.Findings() {
		k := key{f.URL, f.Line, f.Rule}
		got[k]++
		if got[k] > want[k] && f.Severity != validator.Info {
			unexpected = append(unexpected, f.String())
		}
	}
	var missing []string
	for k, n := range want {
		if got[k] < n {
			missing = append(missing, fmt.Sprintf("%s:%d: %s (want %d, got %d)", k.url, k.line, k.rule, n, got[k]))
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 || len(unexpected) > 0 {
		t.Errorf("missing findings:\n\t%s\nunexpected findings:\n\t%s", strings.Join(missing, "\n\t"), strings.Join(unexpected, "\n\t"))
		dumpFindings(t, res)
	}
}
