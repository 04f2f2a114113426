//go:build !js

// Natively only: these tests crawl real HTTP servers on 127.0.0.1.

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
	"github.com/rscheck/rscheck/validator/report"
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
	wantsMatch(t, res, src.Wants)
}

// wantsMatch compares the findings of an exploration with the wants of a
// fixture: every want is reported, and nothing else of severity warning or
// error.
func wantsMatch(t *testing.T, res *explorer.Result, wants []explorertest.Want) {
	t.Helper()
	type key struct {
		url  string
		line int
		rule string
	}
	want := map[key]int{}
	for _, w := range wants {
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

// TestDiscoveryEntryPoints explores the complete Source from each way in:
// every one reaches the well-known Source Description, all methods agree,
// the whole hierarchy is read, and each document is fetched once.
func TestDiscoveryEntryPoints(t *testing.T) {
	src := explorertest.NewSource(t, nil)
	for _, tc := range []struct {
		name, start, method string
	}{
		{"site root", src.Root, explorer.MethodHTMLLink},
		{"well-known", src.WellKnown, explorer.MethodStartURL},
		{"deep resource list", src.DeepResourceList, explorer.MethodStartURL},
		{"html page", src.HTMLPage, explorer.MethodHTMLLink},
		{"robots.txt", src.RobotsTxt, explorer.MethodRobots},
		{"link header", src.LinkHeaderResource, explorer.MethodLinkHeader},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkNoLeaks(t)
			before := map[string]int{}
			for _, p := range []string{"/.well-known/resourcesync", "/dataset1/capabilitylist.xml", "/dataset1/resourcelist-2.xml", "/dataset1/rd-1.zip"} {
				before[p] = src.Hits(p)
			}
			res := explore(t, tc.start, nil)
			if len(res.Roots) != 1 || res.Roots[0].URL != src.WellKnown {
				t.Fatalf("roots = %v, want the well-known Source Description", res.Roots)
			}
			found := false
			for _, d := range res.Discovery {
				if d.Description != "" && d.Description != src.WellKnown {
					t.Errorf("discovery %s leads to %s", d, d.Description)
				}
				if d.Method == tc.method && d.Description == src.WellKnown {
					found = true
				}
			}
			if !found {
				t.Errorf("method %s did not reach the Source Description: %v", tc.method, res.Discovery)
			}
			for _, f := range res.Findings() {
				if f.Severity == validator.Error {
					t.Errorf("unexpected error: %s", f)
				}
			}
			for p, n := range before {
				if got := src.Hits(p) - n; got != 1 {
					t.Errorf("%s fetched %d times, want once", p, got)
				}
			}
			if len(res.Documents) < 19 {
				t.Errorf("only %d documents read", len(res.Documents))
			}
		})
	}
}

// TestDisagreeingDiscovery serves an HTML link to a Capability List whose
// up link leads to another Source Description than the well-known one.
func TestDisagreeingDiscovery(t *testing.T) {
	src := explorertest.NewSource(t, &explorertest.Options{OtherDescription: true})
	res := explore(t, src.Root, nil)
	wantsMatch(t, res, src.Wants)
	if len(res.Roots) != 2 {
		for _, r := range res.Roots {
			t.Logf("root %s", r.URL)
		}
		t.Errorf("roots = %d, want the two Source Descriptions", len(res.Roots))
	}
}

func TestCompleteSourceDetails(t *testing.T) {
	src := explorertest.NewSource(t, nil)
	var events int
	res := explore(t, src.Root, &explorer.Options{Progress: func(p explorer.Progress) { events++ }})
	if events == 0 {
		t.Error("no progress events")
	}
	if len(res.Channels) != 2 {
		t.Fatalf("channels = %d, want 2", len(res.Channels))
	}
	for _, ch := range res.Channels {
		if !ch.OK || ch.Hub != src.Base+"/hub" || ch.Status != 200 {
			t.Errorf("channel %+v", ch)
		}
	}
	// Parents come before children, and the tree matches Parent.
	at := map[*explorer.Document]int{}
	for i, d := range res.Documents {
		at[d] = i
		if d.Parent != nil {
			if _, ok := at[d.Parent]; !ok {
				t.Errorf("%s comes before its parent %s", d.URL, d.Parent.URL)
			}
		}
	}
	rep := res.Report()
	if rep.Tree == nil || rep.Tree.URL != src.WellKnown || len(rep.Tree.Children) != 2 {
		t.Fatalf("report tree = %+v", rep.Tree)
	}
	if rep.Summary.Errors != 0 || len(rep.Documents) != len(res.Documents) || len(rep.Discovery) != len(res.Discovery) {
		t.Errorf("report summary %+v, %d documents (want %d)", rep.Summary, len(rep.Documents), len(res.Documents))
	}
	for i, d := range rep.Documents {
		if d.Source != res.Documents[i].URL {
			t.Errorf("report document %d is %s, want %s", i, d.Source, res.Documents[i].URL)
		}
	}
	var walk func(n *report.Node)
	walk = func(n *report.Node) {
		if n.Document == 0 || rep.Documents[n.Document-1].Source != n.URL {
			t.Errorf("node %s points to document %d", n.URL, n.Document)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(rep.Tree)
}

func TestAudit(t *testing.T) {
	src := explorertest.NewSource(t, nil)
	res := explore(t, src.Root, &explorer.Options{Audit: -1})
	wantsMatch(t, res, nil)
	if a := res.Audit; a == nil || a.Sampled != 9 || a.Checked != a.Sampled || a.Mismatches != 0 {
		t.Errorf("audit stats %+v, want the 9 distinct resources checked, no mismatch", res.Audit)
	}
	res = explore(t, src.Root, &explorer.Options{Audit: 3})
	if a := res.Audit; a == nil || a.Sampled != 3 {
		t.Errorf("audit of 3: %+v", a)
	}

	bad := explorertest.NewSource(t, &explorertest.Options{AuditDefects: true})
	res = explore(t, bad.Root, &explorer.Options{Audit: -1})
	wantsMatch(t, res, bad.Wants)
}
