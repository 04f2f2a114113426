package monitor_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rscheck/rscheck/explorer/monitor"
	"github.com/rscheck/rscheck/explorer/monitor/monitortest"
)

// get sends a GET to the callback with the query q and returns the status
// and body.
func get(t *testing.T, callback string, q url.Values) (int, string) {
	t.Helper()
	u := callback
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// post sends a POST to the callback and returns the status.
func post(t *testing.T, callback string, header http.Header, body io.Reader) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, callback, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// payload is a good change notification for the fixture Source.
func payload(src *monitortest.Source, from, until time.Time) []byte {
	return []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up" href="` + src.CapabilityList + `"/>
  <rs:md capability="change-notification" from="` + from.UTC().Format(time.RFC3339Nano) + `" until="` + until.UTC().Format(time.RFC3339Nano) + `"/>
  <url><loc>` + src.Base + `/dataset1/res/x</loc><rs:md change="updated" datetime="` + until.UTC().Format(time.RFC3339Nano) + `"/></url>
</urlset>
`)
}

// deliveryHeader is what a hub sends with a delivery for the topic.
func deliveryHeader(h *harness, topic string) http.Header {
	return http.Header{"Content-Type": {"application/xml"}, "Link": {"<" + topic + `>; rel="self", <` + h.hub.URL + `>; rel="hub"`}}
}

// TestForgedCallbacks sends the callback what no hub of a subscription
// the monitor asked for would send: each is refused (404, 405, 413, or a
// signed delivery acknowledged and ignored) and reported, and the
// monitoring goes on untroubled.
func TestForgedCallbacks(t *testing.T) {
	h := newHarness(t, config{mon: monitor.Options{MaxBodyBytes: 4096, BodyTimeout: 300 * time.Millisecond}}, true)
	topic := h.src.ChangeTopic
	cbs := h.hub.Callbacks(topic)
	if len(cbs) != 1 {
		t.Fatalf("callbacks %v", cbs)
	}
	cb := cbs[0]
	unknown := h.cb.URL + "/websub/0123456789abcdef0123456789abcdef"
	q := func(kv ...string) url.Values {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	for _, tc := range []struct {
		name string
		url  string
		q    url.Values
	}{
		{"unknown callback", unknown, q("hub.mode", "subscribe", "hub.topic", topic, "hub.challenge", "c1", "hub.lease_seconds", "600")},
		{"challenge never requested", cb, q("hub.mode", "subscribe", "hub.topic", topic, "hub.challenge", "c2", "hub.lease_seconds", "600")},
		{"wrong mode", cb, q("hub.mode", "unsubscribe", "hub.topic", topic, "hub.challenge", "c3")},
		{"unknown topic", cb, q("hub.mode", "subscribe", "hub.topic", topic+"/other", "hub.challenge", "c4", "hub.lease_seconds", "600")},
		{"denial of an unknown topic", cb, q("hub.mode", "denied", "hub.topic", topic+"/other", "hub.reason", "forged")},
		{"unknown mode", cb, q("hub.mode", "publish", "hub.topic", topic)},
		{"no parameters", cb, nil},
	} {
		status, body := get(t, tc.url, tc.q)
		if status != http.StatusNotFound || strings.Contains(body, "c1") || strings.Contains(body, "c2") || strings.Contains(body, "c3") || strings.Contains(body, "c4") {
			t.Errorf("%s: %d %q, want 404 without the challenge", tc.name, status, body)
		}
	}
	req, _ := http.NewRequest(http.MethodPut, cb, strings.NewReader("x"))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("PUT: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	now := time.Now()
	good := payload(h.src, now.Add(-time.Hour), now.Add(-time.Hour+time.Second))
	hdr := deliveryHeader(h, topic)
	if s := post(t, unknown, hdr, bytes.NewReader(good)); s != http.StatusNotFound {
		t.Errorf("delivery to an unknown callback: %d", s)
	}
	bad := hdr.Clone()
	bad.Set(monitor.SignatureHeader, "sha256=00ff")
	if s := post(t, cb, bad, bytes.NewReader(good)); s != http.StatusAccepted {
		t.Errorf("bad signature: %d, want 202 (acknowledged, ignored)", s)
	}
	md5 := hdr.Clone()
	md5.Set(monitor.SignatureHeader, "md5=d41d8cd98f00b204e9800998ecf8427e")
	if s := post(t, cb, md5, bytes.NewReader(good)); s != http.StatusAccepted {
		t.Errorf("unknown method: %d", s)
	}
	if s := post(t, cb, hdr, bytes.NewReader(good)); s != http.StatusAccepted {
		t.Errorf("no signature: %d", s)
	}
	big := bytes.Repeat([]byte("<!-- padding -->"), 1000)
	if s := post(t, cb, bad, bytes.NewReader(big)); s != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized, with Content-Length: %d", s)
	}
	if s := post(t, cb, bad, io.MultiReader(bytes.NewReader(big))); s != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized, chunked: %d", s)
	}

	// A sender that never finishes its body holds its own request only.
	pr, pw := io.Pipe()
	slow := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, cb, pr)
		req.Header = hdr.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			slow <- 0
			return
		}
		resp.Body.Close()
		slow <- resp.StatusCode
	}()
	pw.Write([]byte("<?xml"))

	// A flood of requests to unknown callbacks.
	var wg sync.WaitGroup
	var floodMu sync.Mutex
	statuses := map[int]int{}
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Get(fmt.Sprintf("%s/websub/%032x?hub.mode=subscribe&hub.challenge=x", h.cb.URL, i))
			if err != nil {
				return
			}
			resp.Body.Close()
			floodMu.Lock()
			statuses[resp.StatusCode]++
			floodMu.Unlock()
		}()
	}

	// Meanwhile the monitoring goes on.
	p, err := h.src.PublishChange(context.Background(), monitortest.Good)
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if statuses[http.StatusNotFound] != 200 {
		t.Errorf("flood: %v", statuses)
	}
	nt := h.waitFor("the good notification", 5*time.Second, func(ev monitor.Event) bool {
		return ev.Kind == monitor.EventNotification && ev.Topic == p.Topic
	}).Notification
	if len(nt.Report.Findings) > 0 || nt.Ignored {
		t.Errorf("the good notification: %v", nt.Report.Findings)
	}
	select {
	case s := <-slow:
		if s == http.StatusAccepted {
			t.Errorf("an unfinished body was accepted")
		}
	case <-time.After(5 * time.Second):
		t.Errorf("a sender that never finishes its body held its request for 5 s (BodyTimeout is 300 ms)")
	}
	pw.Close()

	if err := h.stop(); err != nil {
		t.Fatal(err)
	}
	// Every forged request is in the report, with its rule.
	res := h.m.Result()
	count := map[string]int{}
	for _, d := range res.Documents {
		for _, f := range d.Findings {
			count[f.Rule]++
		}
	}
	want := map[string]int{
		"RM126": 7 + 1 + 1 + 200, // the GETs, the PUT, the delivery to an unknown callback, the flood
		"RM123": 3,               // bad signature, unknown method, none
		"RM124": 2,
	}
	for id, n := range want {
		if count[id] != n {
			t.Errorf("%s reported %d times, want %d", id, count[id], n)
		}
	}
	for id := range count {
		if want[id] == 0 {
			t.Errorf("%s reported %d times, unexpected", id, count[id])
		}
	}
}

// TestVerificationOfIntent forges verifications while a subscription is
// pending: only the pending mode and topic, with a challenge, is
// confirmed, once.
func TestVerificationOfIntent(t *testing.T) {
	h := newHarness(t, config{hub: &monitortest.HubOptions{NoVerify: true}, mon: monitor.Options{VerifyTimeout: 10 * time.Second, UnsubscribeTimeout: 200 * time.Millisecond}}, false)
	topic := h.src.ChangeTopic
	cb := h.waitFor("subscribed", 5*time.Second, func(ev monitor.Event) bool {
		return ev.Kind == monitor.EventSubscribed && ev.Topic == topic
	}).Callback
	q := func(mode, topic, challenge string) url.Values {
		v := url.Values{"hub.mode": {mode}, "hub.topic": {topic}, "hub.lease_seconds": {"3600"}}
		if challenge != "" {
			v.Set("hub.challenge", challenge)
		}
		return v
	}
	for _, v := range []url.Values{q("subscribe", topic+"x", "a"), q("unsubscribe", topic, "b"), q("subscribe", topic, "")} {
		if status, body := get(t, cb, v); status != http.StatusNotFound || body == "a" || body == "b" {
			t.Errorf("%v: %d %q", v, status, body)
		}
	}
	if status, body := get(t, cb, q("subscribe", topic, "the-challenge")); status != http.StatusOK || body != "the-challenge" {
		t.Errorf("the pending subscription: %d %q", status, body)
	}
	ev := h.waitFor("verified", 5*time.Second, func(ev monitor.Event) bool { return ev.Kind == monitor.EventVerified && ev.Topic == topic })
	if ev.Lease != time.Hour {
		t.Errorf("lease %s, want 1h", ev.Lease)
	}
	if status, _ := get(t, cb, q("subscribe", topic, "again")); status != http.StatusNotFound {
		t.Errorf("a second verification: %d, want 404", status)
	}
}

// TestQueueBounded: when the checks cannot keep up (here OnEvent stops),
// deliveries beyond the queue are refused with 503 and Retry-After, which
// hubs retry, instead of piling up.
func TestQueueBounded(t *testing.T) {
	blocked, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	h := newHarness(t, config{
		mon: monitor.Options{NoSecret: true, QueueSize: 2},
		onEv: func(ev monitor.Event) {
			if ev.Kind == monitor.EventNotification {
				once.Do(func() {
					close(blocked)
					<-release
				})
			}
		},
	}, true)
	var relOnce sync.Once
	unblock := func() { relOnce.Do(func() { close(release) }) }
	t.Cleanup(unblock) // before the harness stops, should the test fail
	topic := h.src.ChangeTopic
	cb := h.hub.Callbacks(topic)[0]
	hdr := deliveryHeader(h, topic)
	now := time.Now()
	// The first delivery's event blocks OnEvent; refused requests fill
	// the events waiting for it, then the checks wait, then the queue
	// fills.
	post(t, cb, hdr, bytes.NewReader(payload(h.src, now, now.Add(time.Millisecond))))
	<-blocked
	for i := 0; i < monitor.EventBuffer+10; i++ {
		get(t, h.cb.URL+"/websub/none", nil)
	}
	statuses := map[int]int{}
	for i := 1; i <= 6; i++ {
		from := now.Add(time.Duration(i) * time.Millisecond)
		statuses[post(t, cb, hdr, bytes.NewReader(payload(h.src, from, from.Add(time.Millisecond))))]++
	}
	unblock()
	if statuses[http.StatusServiceUnavailable] == 0 || statuses[http.StatusAccepted] < 2 {
		t.Errorf("statuses %v: want some 202 (queued) and some 503 (queue full)", statuses)
	}
	if err := h.stop(); err != nil {
		t.Fatal(err)
	}
	dropped := h.waitFor("dropped events", time.Second, func(ev monitor.Event) bool {
		return ev.Kind == monitor.EventError && strings.Contains(ev.Reason, "dropped")
	})
	t.Log(dropped.Reason)
}
