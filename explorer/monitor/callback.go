package monitor

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"time"

	"github.com/rscheck/rscheck/validator"
)

// ServeHTTP is the callback of every subscription (WebSub §5.3, §7): the
// hubs' verifications of intent and denials (GET) and their deliveries
// (POST). The subscription is identified by the last segment of the
// path, never by the request's Link headers (WebSub §7); anything that
// matches no subscription the Monitor asked for is refused with 404 and
// reported (RM126).
//
// A delivery is read within Options.BodyTimeout and Options.MaxBodyBytes
// (413 beyond), its signature verified when the subscription has a
// secret, and queued; the hub gets 202 at once and the checks run
// behind (WebSub: a success answer acknowledges receipt, not
// processing). A delivery whose signature is wrong or missing is
// acknowledged all the same, as WebSub §7.1.2 allows, so that a forger
// learns nothing, and ignored. When the queue or the deliveries being
// read are at their bounds the answer is 503, which hubs retry.
func (m *Monitor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := path.Base(r.URL.Path)
	m.mu.Lock()
	s := m.subs[id]
	m.mu.Unlock()
	switch r.Method {
	case http.MethodGet:
		m.serveGet(w, r, s)
	case http.MethodPost:
		m.servePost(w, r, s)
	default:
		w.Header().Set("Allow", "GET, POST")
		m.refuse(w, r, s, http.StatusMethodNotAllowed, true, "%s is not a request a hub makes to a callback (GET verifies intent or denies, POST delivers)", r.Method)
	}
}

// serveGet answers a verification of intent or a denial.
func (m *Monitor) serveGet(w http.ResponseWriter, r *http.Request, s *subscription) {
	q := r.URL.Query()
	mode, topic := q.Get("hub.mode"), q.Get("hub.topic")
	if s == nil {
		m.refuse(w, r, nil, http.StatusNotFound, true, "a GET with hub.mode=%q to a callback URL the monitor never gave a hub", clip(mode, 40))
		return
	}
	switch mode {
	case "subscribe", "unsubscribe":
		m.verify(w, r, s, mode, topic, q.Get("hub.challenge"), q.Get("hub.lease_seconds"))
	case "denied":
		m.deny(w, r, s, topic, q.Get("hub.reason"))
	default:
		m.refuse(w, r, s, http.StatusNotFound, true, "a GET with hub.mode=%q, which is neither subscribe, unsubscribe nor denied", clip(mode, 40))
	}
}

// verify answers a verification of intent: the challenge, only for the
// pending intent of the same mode and topic (WebSub §5.3.1).
func (m *Monitor) verify(w http.ResponseWriter, r *http.Request, s *subscription, mode, topic, challenge, lease string) {
	now := time.Now()
	m.mu.Lock()
	in := s.pending
	var why string
	switch {
	case in == nil:
		why = fmt.Sprintf("a verification of intent (hub.mode=%s) while no %s request for this callback is pending", mode, mode)
	case in.mode != mode:
		why = fmt.Sprintf("a verification of intent with hub.mode=%s while the pending request is a %s", mode, in.mode)
	case !sameURL(topic, in.topic):
		why = fmt.Sprintf("a verification of intent for the topic %q while the pending %s is for %s", clip(topic, 200), in.mode, in.topic)
	case challenge == "":
		why = fmt.Sprintf("a verification of intent for %s without hub.challenge", in.topic)
	}
	if why != "" {
		m.mu.Unlock()
		m.refuse(w, r, s, http.StatusNotFound, true, "%s", why)
		return
	}
	s.pending = nil
	v := s.verifiedLocked(mode, lease, now)
	m.mu.Unlock()
	in.done <- v

	// The challenge is the hub's text, echoed: plain text, never sniffed.
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	io.WriteString(w, challenge)
}

// deny records the hub's denial of a subscription (WebSub §5.2).
func (m *Monitor) deny(w http.ResponseWriter, r *http.Request, s *subscription, topic, reason string) {
	m.mu.Lock()
	ok := sameURL(topic, s.ch.Topic) && (s.state == statePending || s.state == stateActive)
	if ok {
		s.state, s.pending, s.denyReason = stateDenied, nil, reason
	}
	m.mu.Unlock()
	if !ok {
		m.refuse(w, r, s, http.StatusNotFound, true, "a denial (hub.mode=denied) for the topic %q, which this callback has no subscription or request for", clip(topic, 200))
		return
	}
	said := "without a reason"
	if reason != "" {
		said = fmt.Sprintf("with the reason %q", clip(reason, 300))
	}
	f := RuleSubscriptionDenied.Finding(0, 0, "", "the hub %s denied the subscription to %s %s", s.ch.Hub, s.ch.Topic, said)
	m.addChannelFindings(s.doc, f)
	// The event comes before the subscription learns of the denial, so
	// that it precedes the end of Run.
	m.emit(Event{Kind: EventDenied, Topic: s.ch.Topic, Hub: s.ch.Hub, Reason: reason, Findings: []validator.Finding{f}})
	s.denyOnce.Do(func() { close(s.denied) })
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, "denial received\n")
}

// servePost receives a delivery.
func (m *Monitor) servePost(w http.ResponseWriter, r *http.Request, s *subscription) {
	if s == nil {
		m.refuse(w, r, nil, http.StatusNotFound, true, "a delivery to a callback URL the monitor never gave a hub")
		return
	}
	m.mu.Lock()
	st := s.state
	m.mu.Unlock()
	switch st {
	case stateActive:
	case statePending, stateFailed:
		m.refuse(w, r, s, http.StatusNotFound, true, "a delivery for %s before the subscription was verified", s.ch.Topic)
		return
	default:
		// 410 tells the hub the subscription is gone (WebSub §7); a
		// delivery in flight when it ended is no fault.
		m.refuse(w, r, s, http.StatusGone, false, "a delivery for %s after the subscription ended", s.ch.Topic)
		return
	}
	if r.ContentLength > m.o.MaxBodyBytes {
		m.refuseSize(w, r, s, fmt.Sprintf("announces %d bytes", r.ContentLength))
		return
	}
	select {
	case m.inflight <- struct{}{}:
		defer func() { <-m.inflight }()
	default:
		w.Header().Set("Retry-After", "1")
		m.refuse(w, r, s, http.StatusServiceUnavailable, false, "a delivery for %s while %d others were being read", s.ch.Topic, cap(m.inflight))
		return
	}
	// A slow sender holds its own request only, and not for long.
	http.NewResponseController(w).SetReadDeadline(time.Now().Add(m.o.BodyTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, m.o.MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			m.refuseSize(w, r, s, fmt.Sprintf("has more than %d bytes", m.o.MaxBodyBytes))
			return
		}
		m.refuse(w, r, s, http.StatusBadRequest, false, "a delivery for %s whose body could not be read: %v", s.ch.Topic, err)
		return
	}
	received := time.Now() // the whole body is in

	m.mu.Lock()
	s.seq++
	seq := s.seq
	m.mu.Unlock()
	d := &delivery{sub: s, seq: seq, Delivery: Delivery{Header: r.Header.Clone(), Body: body, Received: received}}
	if s.secret != "" {
		if err := VerifySignature(r.Header.Get(SignatureHeader), s.secret, body); err != nil {
			m.ignoreForged(w, r, d, err)
			return
		}
	}
	m.qmu.RLock()
	queued := false
	if !m.qclosed {
		select {
		case m.queue <- d:
			queued = true
		default:
		}
	}
	m.qmu.RUnlock()
	if !queued {
		w.Header().Set("Retry-After", "1")
		m.refuse(w, r, s, http.StatusServiceUnavailable, false, "delivery #%d for %s could not be queued: %d deliveries are waiting for their checks", seq, s.ch.Topic, cap(m.queue))
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// ignoreForged acknowledges a delivery whose signature does not verify
// and ignores it (WebSub §7.1.2: the subscriber must locally ignore it,
// and may acknowledge it to give a forger nothing to learn).
func (m *Monitor) ignoreForged(w http.ResponseWriter, r *http.Request, d *delivery, err error) {
	s := d.sub
	reason := err.Error()
	if errors.Is(err, ErrNoSignature) {
		reason = "it has no " + SignatureHeader + " header although the subscription gave the hub a secret"
	}
	f := RuleDeliverySignature.Finding(0, 0, "", "delivery #%d is ignored: %s", d.seq, reason)
	rep := &validator.Report{Source: SourceName(s.ch.Topic, d.seq, d.Received), Kind: KindRefused, Bytes: int64(len(d.Body))}
	rep.Add(-1, f)
	n := &Notification{Topic: s.ch.Topic, Seq: d.seq, Received: d.Received, Checked: time.Now(), Ignored: true, Report: rep}
	m.mu.Lock()
	m.records = append(m.records, record{received: d.Received, n: n, rep: rep})
	ev := Event{Kind: EventRefused, Topic: s.ch.Topic, Hub: s.ch.Hub, Reason: f.Message, Notification: n.clone(),
		Request: &Request{Method: r.Method, Path: r.URL.RequestURI(), Remote: r.RemoteAddr, Status: http.StatusAccepted}, Findings: []validator.Finding{f}}
	m.mu.Unlock()
	w.WriteHeader(http.StatusAccepted)
	m.emitNoWait(ev)
}

// refuseSize refuses a delivery over the size limit (RM124).
func (m *Monitor) refuseSize(w http.ResponseWriter, r *http.Request, s *subscription, what string) {
	f := RuleDeliverySize.Finding(0, 0, "", "a delivery for %s %s, over the monitor's limit of %d bytes; it is refused (very many changes are split into a sequence of notifications)", s.ch.Topic, what, m.o.MaxBodyBytes)
	m.reject(w, r, s, http.StatusRequestEntityTooLarge, f.Message, &f)
}

// refuse answers a request with status and reports it. With finding set
// the report gets an RM126 finding: the request matched nothing the
// monitor asked for.
func (m *Monitor) refuse(w http.ResponseWriter, r *http.Request, s *subscription, status int, finding bool, format string, args ...any) {
	reason := fmt.Sprintf(format, args...)
	var f *validator.Finding
	if finding {
		ff := RuleCallbackUnexpected.Finding(0, 0, "", "the callback refused %s with %d", reason, status)
		f = &ff
	}
	m.reject(w, r, s, status, reason, f)
}

// reject answers status, records the refused request (at most
// Options.MaxRefused of them) and emits an EventRefused.
func (m *Monitor) reject(w http.ResponseWriter, r *http.Request, s *subscription, status int, reason string, f *validator.Finding) {
	// What was sent is not read: closing the connection is cheaper than
	// draining what a hostile sender may keep sending.
	if r.Method == http.MethodPost {
		w.Header().Set("Connection", "close")
	}
	http.Error(w, http.StatusText(status), status)

	now := time.Now()
	ev := Event{Kind: EventRefused, Time: now, Reason: reason,
		Request: &Request{Method: r.Method, Path: clip(r.URL.RequestURI(), 500), Remote: r.RemoteAddr, Status: status}}
	source := "callback " + clip(r.URL.Path, 200)
	if s != nil {
		ev.Topic, ev.Hub = s.ch.Topic, s.ch.Hub
		source = s.ch.Topic
	}
	if f != nil {
		ev.Findings = []validator.Finding{*f}
	}
	m.mu.Lock()
	m.refused++
	if m.refused <= m.o.MaxRefused && f != nil {
		rep := &validator.Report{Source: fmt.Sprintf("%s: refused %s (received %s)", source, r.Method, now.UTC().Format("2006-01-02T15:04:05.000Z")), Kind: KindRefused}
		rep.Add(-1, *f)
		m.records = append(m.records, record{received: now, rep: rep})
	}
	m.mu.Unlock()
	m.emitNoWait(ev)
}
