package monitor_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/explorer/monitor"
	"github.com/rscheck/rscheck/explorer/monitor/monitortest"
	"github.com/rscheck/rscheck/validator"
)

// TestRules checks the catalogue: well-formed, unique IDs and names (also
// against the validator's and the explorer's), in ID order, in the RM1xx
// range, and every anchor in the published specification.
func TestRules(t *testing.T) {
	rules := monitor.Rules()
	all := monitor.Catalogue()
	if n := len(validator.Rules()) + len(explorer.Rules()) + len(rules); len(all) != n {
		t.Errorf("the catalogue has %d rules, want %d", len(all), n)
	}
	if err := validator.CheckRegistry(all); err != nil {
		t.Error(err)
	}
	for i, r := range rules {
		if r.Run != nil {
			t.Errorf("%s has a Run: the monitor reports its findings itself", r.ID)
		}
		if i > 0 && rules[i-1].ID >= r.ID {
			t.Errorf("rules out of order: %s before %s", rules[i-1].ID, r.ID)
		}
		if !regexp.MustCompile(`^RM1\d\d$`).MatchString(r.ID) {
			t.Errorf("%s is outside the monitor's range", r.ID)
		}
	}
	files := map[validator.SpecDoc]string{
		validator.SpecChangeNotification:    "notification_1.0.1_notification.html",
		validator.SpecFrameworkNotification: "notification_1.0.1_framework_notification.html",
	}
	// The WebSub Recommendation (https://www.w3.org/TR/websub/) is not in
	// ../shared/spec; these are its section ids.
	websub := map[string]string{
		"subscription-validation": "5.2", "hub-verifies-intent": "5.3",
		"verification-details": "5.3.1", "signature-validation": "7.1.2",
	}
	for _, r := range rules {
		if r.Spec.Doc == validator.SpecWebSub {
			if websub[r.Spec.Anchor] != r.Spec.Section {
				t.Errorf("%s: WebSub §%s #%s is not a section the monitor knows", r.ID, r.Spec.Section, r.Spec.Anchor)
			}
			continue
		}
		file, ok := files[r.Spec.Doc]
		if !ok || r.Spec.Anchor == "" {
			t.Errorf("%s: no anchor in a known specification", r.ID)
			continue
		}
		data, err := os.ReadFile("../../../shared/spec/" + file)
		if err != nil {
			t.Skipf("specification not available: %v", err)
		}
		if !strings.Contains(string(data), `<a name="`+r.Spec.Anchor+`"`) {
			t.Errorf("%s: anchor %q is not in %s", r.ID, r.Spec.Anchor, file)
		}
	}
}

// Check a delivery without any network, as a browser could: the
// payload's own rules (the validator's) and the monitor's.
func ExampleChecker() {
	ch := &monitor.Channel{
		Topic:          "https://example.org/dataset1/change",
		Hub:            "https://hub.example.net/",
		Capability:     "change-notification",
		CapabilityList: "https://example.org/dataset1/capabilitylist.xml",
	}
	c := monitor.NewChecker(monitor.NewSource("", nil), nil)
	deliver := func(seq int, from, until, datetime string) {
		n, err := c.Check(context.Background(), ch, seq, &monitor.Delivery{
			Header: http.Header{
				"Content-Type": {"application/xml"},
				"Link":         {`<https://example.org/dataset1/change>; rel="self", <https://hub.example.net/>; rel="hub"`},
			},
			Body: []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up" href="https://example.org/dataset1/capabilitylist.xml"/>
  <rs:md capability="change-notification" from="` + from + `" until="` + until + `"/>
  <url><loc>https://example.org/res1</loc><rs:md change="updated" datetime="` + datetime + `"/></url>
</urlset>
`),
			Received: time.Date(2024, 1, 3, 0, 20, 0, 0, time.UTC),
		})
		if err != nil {
			panic(err)
		}
		fmt.Printf("#%d %s latency %s: %d finding(s)\n", n.Seq, n.Capability, n.Latency, len(n.Report.Findings))
		for _, f := range n.Report.Findings {
			fmt.Printf("  %s %s §%s\n", f.Rule, f.Severity, f.Spec)
		}
	}
	deliver(1, "2024-01-03T00:00:00Z", "2024-01-03T00:10:00Z", "2024-01-03T00:07:22Z")
	deliver(2, "2024-01-03T00:05:00Z", "2024-01-03T00:15:00Z", "2024-01-03T00:12:00Z")
	// Output:
	// #1 change-notification latency 10m0s: 0 finding(s)
	// #2 change-notification latency 5m0s: 1 finding(s)
	//   RM113 error §CN 3
}

// TestFixtureSource: the fixture Source is clean for the explorer too, so
// that whatever the monitor reports about it comes from what it publishes.
func TestFixtureSource(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("js/wasm cannot listen")
	}
	hub := monitortest.NewHub(t, nil)
	src := monitortest.NewSource(t, hub, nil)
	res, err := explorer.Explore(context.Background(), src.WellKnown, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings() {
		if f.Severity >= validator.Warning {
			t.Errorf("%s", f)
		}
	}
	if len(res.Channels) != 2 || !res.Channels[0].OK || !res.Channels[1].OK {
		t.Errorf("channels %+v", res.Channels)
	}
}
