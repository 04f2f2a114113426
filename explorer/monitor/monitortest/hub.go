// Package monitortest serves, on 127.0.0.1, a WebSub hub and a
// ResourceSync Source that publishes notifications through it, for the
// tests of the notification monitor, of the command line and of the
// browser, and for latency measurements.
//
// The Hub follows the WebSub Recommendation as CN §4 uses it: it accepts
// subscription and unsubscription requests (202), verifies intent with a
// random single-use challenge, grants leases (configurable, short in
// tests) and expires them, denies on demand, and relays what a Source
// POSTs to it (CN §4.1) to each subscriber, in order, with Link headers
// (self, hub) and an X-Hub-Signature when the subscriber gave a secret.
//
// The Source serves a Source Description, a Capability List advertising a
// change and a framework channel (with hub links), topic URIs that answer
// as CN §4.1 says, a Resource List Index with two parts and an open
// Change List that grows as the Source publishes. Its Publish methods
// send good notifications, or notifications with one planted Defect each;
// Defect.Rules names the rules the monitor must report for it.
package monitortest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rscheck/rscheck/explorer/monitor"
)

// DefectHeader is the header of a publication that asks the Hub to plant
// a delivery defect (see Defect): a test-only extension, so that the
// defects travel the real path, Source to hub to subscriber.
const DefectHeader = "Monitortest-Defect"

// HubOptions choose how a Hub behaves.
type HubOptions struct {
	// Lease is the lease granted to every subscription; zero grants the
	// lease requested, or 10 days when none was.
	Lease time.Duration
	// Deny, when set, denies every subscription with this reason
	// (hub.mode=denied) instead of verifying it.
	Deny string
	// Method is the X-Hub-Signature method; "" means sha256.
	Method string
	// Status, when non-zero, is the answer to every subscription and
	// unsubscription request instead of 202, and nothing is verified.
	Status int
	// NoVerify accepts requests (202) but never verifies them.
	NoVerify bool
	// RenewStatus, when non-zero, is the answer to every subscription
	// request for an active subscription (a renewal) instead of 202.
	RenewStatus int
}

// HubStats count what a Hub did.
type HubStats struct {
	Subscribes, Unsubscribes int // requests accepted
	Verified                 int // verifications of intent the subscriber confirmed
	Refused                  int // verifications the subscriber refused
	Denied                   int // denials sent
	Expired                  int // subscriptions whose lease ran out
	Published                int // notifications the Source posted
	Delivered, Failed        int // deliveries answered 2xx, and the others
}

// A Hub is a WebSub hub served by an httptest.Server.
type Hub struct {
	*httptest.Server
	// URL is the hub URI.
	URL string

	o      HubOptions
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	client *http.Client

	mu    sync.Mutex
	subs  map[string]*hubSub // by topic + " " + callback
	stats HubStats
}

// hubSub is a subscription of the hub.
type hubSub struct {
	topic, callback, secret string
	expires                 time.Time
	queue                   chan hubDelivery
	done                    chan struct{}
}

// hubDelivery is one notification to relay to one subscriber.
type hubDelivery struct {
	body   []byte
	defect Defect
}

// NewHub starts a Hub; it is closed when the test ends.
func NewHub(t testing.TB, opts *HubOptions) *Hub {
	t.Helper()
	h := StartHub(opts)
	t.Cleanup(h.Close)
	return h
}

// StartHub starts a Hub; the caller closes it.
func StartHub(opts *HubOptions) *Hub {
	h := &Hub{subs: map[string]*hubSub{}}
	if opts != nil {
		h.o = *opts
	}
	if h.o.Method == "" {
		h.o.Method = "sha256"
	}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.client = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	h.Server = httptest.NewServer(http.HandlerFunc(h.serve))
	h.URL = h.Server.URL + "/hub"
	return h
}

// Close stops the server, then the deliveries and verifications under
// way.
func (h *Hub) Close() {
	h.cancel()
	// No request starts a goroutine once the server is closed.
	h.Server.Close()
	h.mu.Lock()
	for k, s := range h.subs {
		close(s.done)
		delete(h.subs, k)
	}
	h.mu.Unlock()
	h.wg.Wait()
	h.client.CloseIdleConnections()
}

// Stats returns what the hub did so far.
func (h *Hub) Stats() HubStats {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.expireLocked()
	return h.stats
}

// Active returns the number of active subscriptions to topic.
func (h *Hub) Active(topic string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.expireLocked()
	n := 0
	for _, s := range h.subs {
		if s.topic == topic {
			n++
		}
	}
	return n
}

// Callbacks returns the callbacks subscribed to topic.
func (h *Hub) Callbacks(topic string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.expireLocked()
	var cbs []string
	for _, s := range h.subs {
		if s.topic == topic {
			cbs = append(cbs, s.callback)
		}
	}
	return cbs
}

func (h *Hub) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/hub" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	ct := strings.ToLower(r.Header.Get("Content-Type"))
	switch {
	case strings.HasPrefix(ct, "application/x-www-form-urlencoded"):
		h.subscription(w, r)
	default:
		h.publish(w, r)
	}
}

// subscription handles a subscription or unsubscription request (WebSub
// §5.1): 202, then the verification of intent, asynchronously.
func (h *Hub) subscription(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "malformed form: "+err.Error(), http.StatusBadRequest)
		return
	}
	mode, topic, callback := r.PostForm.Get("hub.mode"), r.PostForm.Get("hub.topic"), r.PostForm.Get("hub.callback")
	cb, err := url.Parse(callback)
	switch {
	case mode != "subscribe" && mode != "unsubscribe":
		http.Error(w, "hub.mode must be subscribe or unsubscribe", http.StatusBadRequest)
		return
	case topic == "":
		http.Error(w, "hub.topic is missing", http.StatusBadRequest)
		return
	case err != nil || (cb.Scheme != "http" && cb.Scheme != "https") || cb.Host == "":
		http.Error(w, "hub.callback must be an absolute http(s) URL", http.StatusBadRequest)
		return
	case len(r.PostForm.Get("hub.secret")) >= 200:
		http.Error(w, "hub.secret must be less than 200 bytes", http.StatusBadRequest)
		return
	}
	if h.o.Status != 0 {
		http.Error(w, "subscriptions are closed", h.o.Status)
		return
	}
	if h.o.RenewStatus != 0 && mode == "subscribe" && h.Active(topic) > 0 {
		http.Error(w, "renewals are closed", h.o.RenewStatus)
		return
	}
	lease := h.o.Lease
	if lease == 0 {
		lease = 10 * 24 * time.Hour
		if s, err := strconv.Atoi(r.PostForm.Get("hub.lease_seconds")); err == nil && s > 0 {
			lease = time.Duration(s) * time.Second
		}
	}
	secret := r.PostForm.Get("hub.secret")
	h.mu.Lock()
	if mode == "subscribe" {
		h.stats.Subscribes++
	} else {
		h.stats.Unsubscribes++
	}
	h.mu.Unlock()
	w.WriteHeader(http.StatusAccepted)
	if h.o.NoVerify {
		return
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		h.verify(mode, topic, callback, secret, lease)
	}()
}

// verify verifies the intent of a request (WebSub §5.3) or denies it
// (§5.2), and applies it once confirmed.
func (h *Hub) verify(mode, topic, callback, secret string, lease time.Duration) {
	q := url.Values{"hub.topic": {topic}}
	challenge := randomHex(16)
	if h.o.Deny != "" && mode == "subscribe" {
		q.Set("hub.mode", "denied")
		q.Set("hub.reason", h.o.Deny)
	} else {
		q.Set("hub.mode", mode)
		q.Set("hub.challenge", challenge)
		if mode == "subscribe" {
			q.Set("hub.lease_seconds", strconv.Itoa(int(lease/time.Second)))
		}
	}
	sep := "?"
	if strings.Contains(callback, "?") {
		sep = "&"
	}
	req, err := http.NewRequestWithContext(h.ctx, http.MethodGet, callback+sep+q.Encode(), nil)
	if err != nil {
		return
	}
	resp, err := h.client.Do(req)
	if err != nil {
		h.count(func(s *HubStats) { s.Refused++ })
		return
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
	resp.Body.Close()
	if q.Get("hub.mode") == "denied" {
		h.count(func(s *HubStats) { s.Denied++ })
		return
	}
	if resp.StatusCode/100 != 2 || string(body) != challenge {
		h.count(func(s *HubStats) { s.Refused++ })
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stats.Verified++
	key := topic + " " + callback
	s := h.subs[key]
	if mode == "unsubscribe" {
		if s != nil {
			close(s.done)
			delete(h.subs, key)
		}
		return
	}
	if s == nil {
		s = &hubSub{topic: topic, callback: callback, queue: make(chan hubDelivery, 4096), done: make(chan struct{})}
		h.subs[key] = s
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			h.deliver(s)
		}()
	}
	// WebSub §5.3: the lease runs from the verification request.
	s.expires = time.Now().Add(lease)
	s.secret = secret
}

// expireLocked removes the subscriptions whose lease ran out (WebSub
// §5.3.1: hubs enforce lease expirations).
func (h *Hub) expireLocked() {
	now := time.Now()
	for k, s := range h.subs {
		if now.After(s.expires) {
			close(s.done)
			delete(h.subs, k)
			h.stats.Expired++
		}
	}
}

func (h *Hub) count(f func(*HubStats)) {
	h.mu.Lock()
	f(&h.stats)
	h.mu.Unlock()
}

// publish receives a notification from a Source (CN §4.1): a POST with
// Content-Type application/xml and Link headers self (the topic) and hub.
// It answers 200 and relays the payload to the topic's subscribers.
func (h *Hub) publish(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	topic := ""
	for _, l := range parseLinks(r.Header.Values("Link")) {
		if l.rel == "self" {
			topic = l.href
		}
	}
	if topic == "" {
		http.Error(w, "a notification is published with a Link rel=\"self\" naming its topic", http.StatusBadRequest)
		return
	}
	defect := Defect(0)
	if v := r.Header.Get(DefectHeader); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			http.Error(w, "bad "+DefectHeader, http.StatusBadRequest)
			return
		}
		defect = Defect(n)
	}
	h.mu.Lock()
	h.expireLocked()
	h.stats.Published++
	for _, s := range h.subs {
		if s.topic == topic {
			select {
			case s.queue <- hubDelivery{body: body, defect: defect}:
			default:
				h.stats.Failed++
			}
		}
	}
	h.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

// deliver relays a subscription's notifications one at a time, in order
// (WebSub §7), retrying a failed delivery a few times.
func (h *Hub) deliver(s *hubSub) {
	for {
		select {
		case <-s.done:
			return
		case <-h.ctx.Done():
			return
		case d := <-s.queue:
			h.mu.Lock()
			secret := s.secret
			h.mu.Unlock()
			ok := false
			for attempt := 0; attempt < 3 && !ok; attempt++ {
				if attempt > 0 {
					select {
					case <-time.After(time.Duration(attempt) * 20 * time.Millisecond):
					case <-h.ctx.Done():
						return
					}
				}
				ok = h.post(s, secret, d)
			}
			h.count(func(st *HubStats) {
				if ok {
					st.Delivered++
				} else {
					st.Failed++
				}
			})
		}
	}
}

// post sends one delivery (CN §4.3), with the defect asked for.
func (h *Hub) post(s *hubSub, secret string, d hubDelivery) bool {
	body := d.body
	if d.defect == NotXML {
		body = []byte("this is not XML\n")
	}
	req, err := http.NewRequestWithContext(h.ctx, http.MethodPost, s.callback, bytes.NewReader(body))
	if err != nil {
		return false
	}
	ct := "application/xml"
	if d.defect == WrongContentType {
		ct = "text/plain"
	}
	req.Header.Set("Content-Type", ct)
	self := "<" + s.topic + `>; rel="self"`
	switch d.defect {
	case NoSelfLink:
		self = ""
	case OtherSelfLink:
		self = "<" + s.topic + `other>; rel="self"`
	}
	hub := "<" + h.URL + `>; rel="hub"`
	if d.defect == NoHubLink {
		hub = ""
	}
	if link := strings.Trim(self+", "+hub, ", "); link != "" {
		req.Header.Set("Link", link)
	}
	if secret != "" && d.defect != NoSignature {
		sig, _ := monitor.Sign(h.o.Method, secret, body)
		if d.defect == BadSignature {
			sig, _ = monitor.Sign(h.o.Method, secret+"x", body)
		}
		req.Header.Set(monitor.SignatureHeader, sig)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return false
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return resp.StatusCode/100 == 2
}

// link is one link of a Link header, as the fixture reads it.
type link struct{ href, rel string }

// parseLinks reads simple Link headers (<href>; rel="x", …): enough for
// what the fixtures send each other.
func parseLinks(values []string) []link {
	var ls []link
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			part = strings.TrimSpace(part)
			href, params, ok := strings.Cut(part, ";")
			href = strings.TrimSpace(href)
			if !ok || !strings.HasPrefix(href, "<") || !strings.HasSuffix(href, ">") {
				continue
			}
			for _, p := range strings.Split(params, ";") {
				k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
				if strings.EqualFold(strings.TrimSpace(k), "rel") {
					ls = append(ls, link{href: href[1 : len(href)-1], rel: strings.Trim(strings.TrimSpace(v), `"`)})
				}
			}
		}
	}
	return ls
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
