package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rscheck/rscheck/explorer/monitor/monitortest"
)

// monitorRun runs rscheck monitor in the background; publish is called
// once the hub has a subscription to each of topics.
func monitorRun(t *testing.T, hub *monitortest.Hub, topics []string, publish func(), args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		status      int
		out, errout string
	}
	done := make(chan result, 1)
	go func() {
		var out, errs bytes.Buffer
		status := run(append([]string{"monitor", "--listen", "127.0.0.1:0"}, args...), strings.NewReader(""), &out, &errs)
		done <- result{status, out.String(), errs.String()}
	}()
	if publish != nil {
		deadline := time.Now().Add(10 * time.Second)
		for slices.ContainsFunc(topics, func(topic string) bool { return hub.Active(topic) == 0 }) {
			if time.Now().After(deadline) {
				r := <-done
				t.Fatalf("no subscription at the hub; status %d\nstdout: %s\nstderr: %s", r.status, r.out, r.errout)
			}
			time.Sleep(5 * time.Millisecond)
		}
		publish()
	}
	select {
	case r := <-done:
		return r.status, r.out, r.errout
	case <-time.After(30 * time.Second):
		t.Fatal("rscheck monitor did not end")
	}
	return 0, "", ""
}

// TestMonitor monitors the fixture Source for a while: good notifications
// and one planted defect are received, printed as they arrive and
// reported at the end in the format asked for.
func TestMonitor(t *testing.T) {
	hub := monitortest.NewHub(t, nil)
	src := monitortest.NewSource(t, hub, nil)
	ctx := context.Background()
	report := filepath.Join(t.TempDir(), "report.json")
	status, out, errs := monitorRun(t, hub, []string{src.ChangeTopic, src.FrameworkTopic}, func() {
		for _, d := range []monitortest.Defect{monitortest.Good, monitortest.Good, monitortest.Overlap} {
			if _, err := src.PublishChange(ctx, d); err != nil {
				t.Error(err)
			}
		}
		if _, err := src.PublishFramework(ctx, monitortest.Good); err != nil {
			t.Error(err)
		}
	}, "--duration", "2s", "--format", "json", "-o", report, "--no-color", src.WellKnown)
	if status != exitFindings {
		t.Errorf("status %d, want 1 (an error finding)\nstdout: %s\nstderr: %s", status, out, errs)
	}
	// With -o, the live output is on standard output.
	for _, want := range []string{"channel change-notification " + src.ChangeTopic, "verified", "#1", "#3", "RM113", "unsubscribed"} {
		if !strings.Contains(out, want) {
			t.Errorf("live output lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var res jsonResult
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Documents) != 2+4 {
		t.Fatalf("documents %v, want 2 channels and 4 notifications", sources(res))
	}
	for _, d := range res.Documents[2:] {
		if !strings.Contains(d.Source, "#") || !strings.Contains(d.Source, "(received ") {
			t.Errorf("document %q is not named TOPIC#N (received TIME)", d.Source)
		}
	}
	found := 0
	for i := range res.Documents {
		if hasRule(res, i, "RM113") {
			found++
		}
	}
	if found != 1 || res.Summary.Errors != 1 {
		t.Errorf("RM113 in %d documents, %d errors in all:\n%s", found, res.Summary.Errors, data)
	}
}

// TestMonitorText: without -o the report (text) is on standard output and
// the live output on standard error; a clean stream exits 0.
func TestMonitorText(t *testing.T) {
	hub := monitortest.NewHub(t, nil)
	src := monitortest.NewSource(t, hub, nil)
	status, out, errs := monitorRun(t, hub, []string{src.ChangeTopic}, func() {
		if _, err := src.PublishChange(context.Background(), monitortest.Good); err != nil {
			t.Error(err)
		}
	}, "--duration", "1s", "--no-color", src.ChangeTopic)
	if status != exitOK {
		t.Errorf("status %d\nstdout: %s\nstderr: %s", status, out, errs)
	}
	if !strings.Contains(out, src.ChangeTopic+"#1 (received ") || strings.Contains(out, "subscribed") {
		t.Errorf("report on standard output:\n%s", out)
	}
	if !strings.Contains(errs, "#1") || !strings.Contains(errs, "subscribed") {
		t.Errorf("live output on standard error:\n%s", errs)
	}
}

// TestMonitorDenied: nothing could be monitored, which is status 2; the
// report says why.
func TestMonitorDenied(t *testing.T) {
	hub := monitortest.NewHub(t, &monitortest.HubOptions{Deny: "no subscriptions today"})
	src := monitortest.NewSource(t, hub, nil)
	status, out, errs := monitorRun(t, hub, nil, nil, "--duration", "10s", "--format", "json", src.WellKnown)
	if status != exitTrouble || !strings.Contains(errs, "nothing was monitored") {
		t.Errorf("status %d, stderr %s", status, errs)
	}
	if !strings.Contains(out, "RM105") || !strings.Contains(out, "no subscriptions today") {
		t.Errorf("report: %s", out)
	}
}

// TestMonitorUsage: usage problems exit 2 with a message.
func TestMonitorUsage(t *testing.T) {
	for _, args := range [][]string{
		{"monitor"},
		{"monitor", "https://example.org/"},
		{"monitor", "--listen", "127.0.0.1:0", "file.xml"},
		{"monitor", "--listen", "127.0.0.1:0", "--public-url", "ftp://x/", "https://example.org/"},
		{"monitor", "--listen", "127.0.0.1:0", "--format", "pdf", "https://example.org/"},
		{"monitor", "--listen", "127.0.0.1:0", "--lease", "10ms", "https://example.org/"},
		{"monitor", "--listen", "not an address", "https://example.org/"},
	} {
		status, _, errs := rscheck(t, "", args...)
		if status != exitTrouble || !strings.Contains(errs, "rscheck monitor:") {
			t.Errorf("%v: status %d, stderr %q", args, status, errs)
		}
	}
	status, out, _ := rscheck(t, "", "help", "monitor")
	if status != exitOK || !strings.Contains(out, "--public-url") || !strings.Contains(out, "--follow") {
		t.Errorf("help monitor: %d\n%s", status, out)
	}
}
