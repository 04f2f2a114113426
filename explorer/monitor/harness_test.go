package monitor_test

import (
	"context"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rscheck/rscheck/explorer/monitor"
	"github.com/rscheck/rscheck/explorer/monitor/monitortest"
	"github.com/rscheck/rscheck/validator"
)

// A harness runs a Monitor against a fixture hub and Source, all on
// 127.0.0.1, and records its events.
type harness struct {
	t   *testing.T
	hub *monitortest.Hub
	src *monitortest.Source
	cb  *httptest.Server // serves the Monitor: the callback
	m   *monitor.Monitor
	s   *monitor.Source

	mu     sync.Mutex
	events []monitor.Event

	cancel context.CancelFunc
	done   chan error
	err    error
	ended  bool
}

// config holds a harness's options.
type config struct {
	hub    *monitortest.HubOptions
	source *monitortest.SourceOptions
	mon    monitor.Options
	start  func(h *harness) string // the URL to discover from; the Source's well-known URI by default
	onEv   func(monitor.Event)
}

// newHarness starts the fixtures, discovers the Source and starts the
// Monitor; it waits until every subscription is active unless the test
// says otherwise (wait false).
func newHarness(t *testing.T, c config, wait bool) *harness {
	t.Helper()
	if runtime.GOOS == "js" {
		t.Skip("js/wasm cannot listen: the fixtures need 127.0.0.1")
	}
	noLeaks(t)
	h := &harness{t: t, done: make(chan error, 1)}
	h.hub = monitortest.NewHub(t, c.hub)
	h.src = monitortest.NewSource(t, h.hub, c.source)
	h.cb = httptest.NewServer(nil)
	t.Cleanup(h.cb.Close)
	opts := c.mon
	opts.PublicURL = h.cb.URL + "/websub/"
	opts.OnEvent = func(ev monitor.Event) {
		h.mu.Lock()
		h.events = append(h.events, ev)
		h.mu.Unlock()
		if c.onEv != nil {
			c.onEv(ev)
		}
	}
	m, err := monitor.New(&opts)
	if err != nil {
		t.Fatal(err)
	}
	h.m = m
	h.cb.Config.Handler = m
	start := h.src.WellKnown
	if c.start != nil {
		start = c.start(h)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	h.s, err = monitor.Discover(ctx, start, nil)
	if err != nil {
		cancel()
		t.Fatalf("Discover(%s): %v", start, err)
	}
	go func() { h.done <- m.Run(ctx, h.s) }()
	t.Cleanup(func() { h.stop() })
	if wait {
		for _, ch := range h.s.Channels {
			h.waitFor("verified "+ch.Topic, 5*time.Second, func(ev monitor.Event) bool {
				return ev.Kind == monitor.EventVerified && ev.Topic == ch.Topic
			})
			// The hub activates the subscription once it has read the
			// answer to its verification, a moment after the monitor
			// gave it; a publication before that reaches no one.
			deadline := time.Now().Add(5 * time.Second)
			for h.hub.Active(ch.Topic) == 0 {
				if time.Now().After(deadline) {
					t.Fatalf("the hub did not activate the subscription to %s", ch.Topic)
				}
				time.Sleep(2 * time.Millisecond)
			}
		}
	}
	return h
}

// stop ends the monitoring and returns Run's error.
func (h *harness) stop() error {
	if !h.ended {
		h.ended = true
		h.cancel()
		select {
		case h.err = <-h.done:
		case <-time.After(20 * time.Second):
			h.t.Fatal("Run did not return after its context ended")
		}
	}
	return h.err
}

// snapshot returns the events so far.
func (h *harness) snapshot() []monitor.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]monitor.Event(nil), h.events...)
}

// waitFor waits for an event matching ok and returns the first one.
func (h *harness) waitFor(what string, timeout time.Duration, ok func(monitor.Event) bool) monitor.Event {
	h.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		for _, ev := range h.snapshot() {
			if ok(ev) {
				return ev
			}
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("no event %s within %s; events:\n%s", what, timeout, describe(h.snapshot()))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// count returns the number of events matching ok.
func (h *harness) count(ok func(monitor.Event) bool) int {
	n := 0
	for _, ev := range h.snapshot() {
		if ok(ev) {
			n++
		}
	}
	return n
}

// received waits for the n-th delivery (notification or ignored) checked
// on topic and returns it.
func (h *harness) received(topic string, seq int) *monitor.Notification {
	h.t.Helper()
	ev := h.waitFor("delivery #"+itoa(seq)+" on "+topic, 5*time.Second, func(ev monitor.Event) bool {
		return ev.Notification != nil && ev.Topic == topic && ev.Notification.Seq == seq &&
			(ev.Kind == monitor.EventNotification || ev.Kind == monitor.EventRefused)
	})
	return ev.Notification
}

func describe(evs []monitor.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		b.WriteString("\t" + string(ev.Kind) + " " + ev.Topic + " " + ev.Reason)
		if n := ev.Notification; n != nil {
			b.WriteString(" #" + itoa(n.Seq))
			for _, f := range n.Report.Findings {
				b.WriteString("\n\t\t" + f.String())
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func itoa(n int) string { return strconv.Itoa(n) }

// rulesOf returns the rule IDs of findings of at least the given
// severity.
func rulesOf(fs []validator.Finding, min validator.Severity) []string {
	var ids []string
	for _, f := range fs {
		if f.Severity >= min {
			ids = append(ids, f.Rule)
		}
	}
	return ids
}

// noLeaks fails the test when goroutines of the monitor or its fixtures
// outlive it (checked after every other cleanup).
func noLeaks(t *testing.T) {
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for {
			leaked := ours()
			if len(leaked) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("%d goroutines leaked:\n%s", len(leaked), strings.Join(leaked, "\n\n"))
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// ours lists the goroutines, other than the caller's, running code of
// the monitor or its fixtures.
func ours() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	stacks := strings.Split(string(buf), "\n\n")
	var list []string
	for _, s := range stacks[1:] { // the first is the caller's
		if strings.Contains(s, "rscheck/explorer/monitor.") || strings.Contains(s, "rscheck/explorer/monitor/monitortest.") {
			list = append(list, s)
		}
	}
	return list
}
