package monitor_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/explorer/monitor"
	"github.com/rscheck/rscheck/explorer/monitor/monitortest"
	"github.com/rscheck/rscheck/validator"
	"github.com/rscheck/rscheck/validator/report"
)

// TestGoodStream subscribes to both channels of the fixture Source,
// receives good notifications on each and unsubscribes: every step is an
// event, and nothing at all is reported, not even an info.
func TestGoodStream(t *testing.T) {
	h := newHarness(t, config{}, true)
	ctx := context.Background()
	const n = 5
	for i := 0; i < n; i++ {
		if _, err := h.src.PublishChange(ctx, monitortest.Good); err != nil {
			t.Fatal(err)
		}
		if _, err := h.src.PublishFramework(ctx, monitortest.Good); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i <= n; i++ {
		for _, topic := range []string{h.src.ChangeTopic, h.src.FrameworkTopic} {
			nt := h.received(topic, i)
			if nt.Ignored || len(nt.Report.Findings) > 0 {
				t.Errorf("%s: %v", nt.Report.Source, nt.Report.Findings)
			}
			if nt.Received.IsZero() || nt.Checked.Before(nt.Received) {
				t.Errorf("%s: received %v, checked %v", nt.Report.Source, nt.Received, nt.Checked)
			}
		}
	}
	if err := h.stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	for _, topic := range []string{h.src.ChangeTopic, h.src.FrameworkTopic} {
		var kinds []monitor.EventKind
		for _, ev := range h.snapshot() {
			if ev.Topic == topic && ev.Kind != monitor.EventNotification {
				kinds = append(kinds, ev.Kind)
			}
		}
		want := []monitor.EventKind{monitor.EventSubscribed, monitor.EventVerified, monitor.EventUnsubscribed}
		if !slices.Equal(kinds, want) {
			t.Errorf("%s: events %v, want %v", topic, kinds, want)
		}
		// The hub removes the subscription once it has read the answer to
		// its verification, a moment after the monitor gave it.
		deadline := time.Now().Add(2 * time.Second)
		for h.hub.Active(topic) != 0 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if a := h.hub.Active(topic); a != 0 {
			t.Errorf("%s: %d subscriptions still active at the hub after the monitor stopped", topic, a)
		}
	}
	res := h.m.Result()
	if res.Summary.Errors+res.Summary.Warnings+res.Summary.Infos != 0 {
		t.Errorf("summary %+v; documents:", res.Summary)
		for _, d := range res.Documents {
			for _, f := range d.Findings {
				t.Errorf("\t%s: %s", d.Source, f)
			}
		}
	}
	if len(res.Documents) != 2+2*n {
		t.Errorf("%d documents, want %d (2 channels, %d notifications)", len(res.Documents), 2+2*n, 2*n)
	}
	for i, d := range res.Documents[2:] {
		if !strings.Contains(d.Source, "#") || !strings.Contains(d.Source, "(received ") {
			t.Errorf("document %d is named %q, not TOPIC#N (received TIME)", i+2, d.Source)
		}
	}
}

// TestDefects publishes each planted defect between good notifications:
// the notification that carries it is reported with the defect's rules,
// under the catalogue's severity and section, and nothing else; the good
// notifications around it have no finding.
func TestDefects(t *testing.T) {
	h := newHarness(t, config{}, true)
	ctx := context.Background()
	catalogue := map[string]*validator.Rule{}
	for _, r := range append(append(validator.Rules(), explorer.Rules()...), monitor.Rules()...) {
		catalogue[r.ID] = r
	}
	seq := map[string]int{}
	next := func(topic string) int { seq[topic]++; return seq[topic] }
	for _, d := range monitortest.Defects() {
		if d == monitortest.NotInChangeList {
			continue // reported with Follow: TestFollow
		}
		t.Run(d.String(), func(t *testing.T) {
			p, err := h.src.Publish(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			nt := h.received(p.Topic, next(p.Topic))
			got := rulesOf(nt.Report.Findings, validator.Info)
			// A body that is not XML is also the validator's XML002.
			got = slices.DeleteFunc(got, func(id string) bool { return d == monitortest.NotXML && id == "XML002" })
			if !slices.Equal(got, d.Rules()) {
				t.Errorf("%s: rules %v, want %v\n%v", nt.Report.Source, got, d.Rules(), nt.Report.Findings)
			}
			if nt.Ignored != d.Ignored() {
				t.Errorf("ignored = %v, want %v", nt.Ignored, d.Ignored())
			}
			for _, f := range nt.Report.Findings {
				r := catalogue[f.Rule]
				if r == nil || f.Severity != r.Severity || f.Spec != r.Spec.Label() || f.SpecURL != r.Spec.URL() || f.Message == "" {
					t.Errorf("%s: not as the catalogue says (%v)", f, r)
				}
			}
			// The stream goes on: a good notification after it is clean.
			p, err = h.src.Publish(ctx, monitortest.Good)
			if err != nil {
				t.Fatal(err)
			}
			if nt := h.received(p.Topic, next(p.Topic)); len(nt.Report.Findings) > 0 {
				t.Errorf("good notification after %s: %v", d, nt.Report.Findings)
			}
		})
	}
	if err := h.stop(); err != nil {
		t.Fatal(err)
	}
	res := h.m.Result()
	for _, d := range res.Documents[:2] {
		if len(d.Findings) > 0 {
			t.Errorf("channel %s: %v", d.Source, d.Findings)
		}
	}
	// Every view of package report renders the monitor's documents.
	for _, format := range report.Formats() {
		var b bytes.Buffer
		if err := report.Write(format, &b, res, report.Options{Rules: append(validator.Rules(), monitor.Rules()...)}); err != nil || b.Len() == 0 {
			t.Errorf("%s: %v", format, err)
		}
		if !strings.Contains(b.String(), "RM123") {
			t.Errorf("%s: RM123 is not in the report", format)
		}
	}
}

// TestRenewal: with a short lease the subscriptions are renewed before
// they expire, the hub never expires them, and a notification published
// after the first lease would have ended still arrives. The short lease
// is reported (RM104) once per channel.
func TestRenewal(t *testing.T) {
	const lease = 2 * time.Second
	h := newHarness(t, config{hub: &monitortest.HubOptions{Lease: lease}, mon: monitor.Options{RenewAt: 0.3}}, true)
	renewed := func(ev monitor.Event) bool {
		return ev.Kind == monitor.EventRenewed && ev.Topic == h.src.ChangeTopic
	}
	h.waitFor("a renewal", 3*lease, renewed)
	time.Sleep(lease + lease/2)
	if n := h.count(renewed); n < 3 {
		t.Errorf("%d renewals in %s of %s leases renewed at 30%%", n, 2*lease, lease)
	}
	if st := h.hub.Stats(); st.Expired != 0 {
		t.Errorf("the hub expired %d subscriptions", st.Expired)
	}
	p, err := h.src.PublishChange(context.Background(), monitortest.Good)
	if err != nil {
		t.Fatal(err)
	}
	if nt := h.received(p.Topic, 1); len(nt.Report.Findings) > 0 {
		t.Errorf("%v", nt.Report.Findings)
	}
	ev := h.waitFor("verified", time.Second, func(ev monitor.Event) bool { return ev.Kind == monitor.EventVerified })
	if ev.Lease != lease || ev.Expires.IsZero() {
		t.Errorf("verified: lease %s, expires %v", ev.Lease, ev.Expires)
	}
	if err := h.stop(); err != nil {
		t.Fatal(err)
	}
	for _, d := range h.m.Result().Documents[:2] {
		if got := rulesOf(d.Findings, validator.Info); !slices.Equal(got, []string{"RM104"}) {
			t.Errorf("%s: %v, want one RM104 (lease of 2 s)", d.Source, d.Findings)
		}
	}
}

// TestExpiry: a hub that refuses renewals; the monitor retries while the
// lease lasts, reports each refusal (RM101) and the expiry, and stops
// monitoring the channel when the lease has run out.
func TestExpiry(t *testing.T) {
	const lease = time.Second
	h := newHarness(t, config{
		hub: &monitortest.HubOptions{Lease: lease, RenewStatus: 503},
		mon: monitor.Options{RenewAt: 0.3},
	}, true)
	select {
	case err := <-h.done:
		h.ended, h.err = true, err
	case <-time.After(5 * lease):
		t.Fatal("Run did not end when every lease expired")
	}
	if h.err != nil {
		t.Errorf("Run: %v (the subscriptions were active for a while)", h.err)
	}
	for _, topic := range []string{h.src.ChangeTopic, h.src.FrameworkTopic} {
		if n := h.count(func(ev monitor.Event) bool {
			return ev.Kind == monitor.EventError && ev.Topic == topic && strings.Contains(ev.Reason, "lease expired")
		}); n != 1 {
			t.Errorf("%s: %d expiry events, want 1:\n%s", topic, n, describe(h.snapshot()))
		}
	}
	for _, d := range h.m.Result().Documents {
		ids := rulesOf(d.Findings, validator.Info)
		if !slices.Contains(ids, "RM101") || !slices.Contains(ids, "RM104") || slices.ContainsFunc(ids, func(id string) bool { return id != "RM101" && id != "RM104" }) {
			t.Errorf("%s: %v, want RM101 for each refused renewal and RM104 for the short lease", d.Source, d.Findings)
		}
	}
}

// TestDenied: a hub that denies every subscription; the denial and its
// reason are reported and Run ends at once.
func TestDenied(t *testing.T) {
	h := newHarness(t, config{hub: &monitortest.HubOptions{Deny: "closed for maintenance"}}, false)
	select {
	case err := <-h.done:
		h.ended, h.err = true, err
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not end when every subscription was denied")
	}
	if !errors.Is(h.err, monitor.ErrNotMonitored) {
		t.Errorf("Run: %v, want ErrNotMonitored", h.err)
	}
	if n := h.count(func(ev monitor.Event) bool {
		return ev.Kind == monitor.EventDenied && ev.Reason == "closed for maintenance"
	}); n != 2 {
		t.Errorf("%d denied events with the hub's reason, want 2:\n%s", n, describe(h.snapshot()))
	}
	for _, d := range h.m.Result().Documents {
		if got := rulesOf(d.Findings, validator.Info); !slices.Equal(got, []string{"RM105"}) || !strings.Contains(d.Findings[0].Message, "closed for maintenance") {
			t.Errorf("%s: %v", d.Source, d.Findings)
		}
	}
}

// TestHubFailures: a hub that refuses requests (RM101) or accepts them
// and never verifies them (RM102).
func TestHubFailures(t *testing.T) {
	for _, tc := range []struct {
		name string
		hub  monitortest.HubOptions
		rule string
	}{
		{"refuses", monitortest.HubOptions{Status: 403}, "RM101"},
		{"never-verifies", monitortest.HubOptions{NoVerify: true}, "RM102"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, config{hub: &tc.hub, mon: monitor.Options{VerifyTimeout: 300 * time.Millisecond}}, false)
			select {
			case err := <-h.done:
				h.ended, h.err = true, err
			case <-time.After(5 * time.Second):
				t.Fatal("Run did not end")
			}
			if !errors.Is(h.err, monitor.ErrNotMonitored) {
				t.Errorf("Run: %v", h.err)
			}
			for _, d := range h.m.Result().Documents {
				if got := rulesOf(d.Findings, validator.Info); !slices.Equal(got, []string{tc.rule}) {
					t.Errorf("%s: %v, want %s", d.Source, d.Findings, tc.rule)
				}
			}
			if n := h.count(func(ev monitor.Event) bool { return ev.Kind == monitor.EventError }); n != 2 {
				t.Errorf("%d error events, want 2", n)
			}
		})
	}
}

// TestFollow compares change notifications with the Change List: changes
// that appear after a delay are reported with the delay (RM131, info),
// changes that never appear are reported after the grace period (RM130).
func TestFollow(t *testing.T) {
	const delay = 150 * time.Millisecond
	h := newHarness(t, config{
		source: &monitortest.SourceOptions{ChangeListDelay: delay},
		mon:    monitor.Options{Follow: true, FollowInterval: 20 * time.Millisecond, FollowGrace: 800 * time.Millisecond},
	}, true)
	ctx := context.Background()
	if _, err := h.src.PublishChange(ctx, monitortest.Good); err != nil {
		t.Fatal(err)
	}
	if _, err := h.src.PublishChange(ctx, monitortest.NotInChangeList); err != nil {
		t.Fatal(err)
	}
	followed := func(seq int) monitor.Event {
		return h.waitFor("followed #"+itoa(seq), 3*time.Second, func(ev monitor.Event) bool {
			return ev.Kind == monitor.EventFollowed && ev.Notification.Seq == seq
		})
	}
	good := followed(1).Notification
	// The Source makes its changes visible delay after publishing; the
	// monitor measures from the receipt, a little later.
	if f := good.Follow; f == nil || !f.Complete || f.Delay < delay/2 || f.Delay > delay+500*time.Millisecond {
		t.Errorf("good notification: follow %+v, want complete after about %s", f, delay)
	}
	if got := rulesOf(good.Report.Findings, validator.Info); !slices.Equal(got, []string{"RM131"}) {
		t.Errorf("good notification: %v", good.Report.Findings)
	}
	missing := followed(2).Notification
	if f := missing.Follow; f == nil || f.Complete || len(f.Missing) != 2 || f.Stopped {
		t.Errorf("missing changes: follow %+v", f)
	}
	if got := rulesOf(missing.Report.Findings, validator.Info); !slices.Equal(got, []string{"RM130"}) {
		t.Errorf("missing changes: %v", missing.Report.Findings)
	}
	if err := h.stop(); err != nil {
		t.Fatal(err)
	}
	// The report has the follow findings too.
	res := h.m.Result()
	var ids []string
	for _, d := range res.Documents[2:] {
		ids = append(ids, rulesOf(d.Findings, validator.Info)...)
	}
	if !slices.Equal(ids, []string{"RM131", "RM130"}) {
		t.Errorf("report: %v", ids)
	}
}

// TestTopicURI starts from a topic URI instead of the Source: discovery
// finds its hub in its Link headers and the channel in the Capability
// List the exploration reaches from it.
func TestTopicURI(t *testing.T) {
	h := newHarness(t, config{start: func(h *harness) string { return h.src.ChangeTopic }}, true)
	if len(h.s.Channels) != 1 {
		t.Fatalf("%d channels, want the topic's", len(h.s.Channels))
	}
	ch := h.s.Channels[0]
	if ch.Topic != h.src.ChangeTopic || ch.Hub != h.hub.URL || ch.Capability != "change-notification" || ch.CapabilityList != h.src.CapabilityList || len(ch.Findings) > 0 {
		t.Errorf("channel %+v", ch)
	}
	p, err := h.src.PublishChange(context.Background(), monitortest.Good)
	if err != nil {
		t.Fatal(err)
	}
	if nt := h.received(p.Topic, 1); len(nt.Report.Findings) > 0 {
		t.Errorf("%v", nt.Report.Findings)
	}
}

// TestNoHub: channels advertised without a hub cannot be subscribed to;
// the Capability List's RN106 is reported on each channel.
func TestNoHub(t *testing.T) {
	h := newHarness(t, config{source: &monitortest.SourceOptions{NoHubInCapabilityList: true}}, false)
	if err := h.stop(); !errors.Is(err, monitor.ErrNotMonitored) {
		t.Errorf("Run: %v", err)
	}
	for _, d := range h.m.Result().Documents {
		if got := rulesOf(d.Findings, validator.Info); !slices.Equal(got, []string{"RN106"}) {
			t.Errorf("%s: %v", d.Source, d.Findings)
		}
	}
}

// TestUnadvertisedTopic monitors a topic URI that no Capability List
// advertises: its hub comes from its Link header, the channel is
// reported (RM106) and monitored all the same.
func TestUnadvertisedTopic(t *testing.T) {
	var topic string
	h := newHarness(t, config{start: func(h *harness) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/topic" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Link", "<"+topic+`>; rel="self", <`+h.hub.URL+`>; rel="hub"`)
			w.Header().Set("Content-Type", "application/xml")
			w.Header().Set("Content-Length", "0")
		}))
		t.Cleanup(srv.Close)
		topic = srv.URL + "/topic"
		return topic
	}}, true)
	if len(h.s.Channels) != 1 {
		t.Fatalf("channels %v", h.s.Channels)
	}
	ch := h.s.Channels[0]
	if ch.Topic != topic || ch.Hub != h.hub.URL || ch.Capability != "" || len(ch.Findings) != 1 || ch.Findings[0].Rule != "RM106" {
		t.Errorf("channel %+v", ch)
	}
	// A Source would publish to its hub this way (CN §4.1).
	now := time.Now()
	req, _ := http.NewRequest(http.MethodPost, h.hub.URL, bytes.NewReader(payload(h.src, now, now.Add(time.Millisecond))))
	req.Header.Set("Content-Type", "application/xml")
	req.Header.Set("Link", "<"+topic+`>; rel="self", <`+h.hub.URL+`>; rel="hub"`)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if nt := h.received(topic, 1); len(nt.Report.Findings) > 0 {
		t.Errorf("%v", nt.Report.Findings)
	}
}
