package monitor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rscheck/rscheck/validator"
)

// The states of a subscription.
type subState uint8

const (
	statePending subState = iota // requested, never verified yet
	stateActive                  // verified; deliveries are accepted
	stateEnded                   // unsubscribed, or the monitoring ended
	stateDenied                  // the hub denied it
	stateExpired                 // the lease ran out before a renewal was verified
	stateFailed                  // the first request or verification failed
)

// Lease bounds CN §4.2 recommends.
const (
	minLease = 300 * time.Second
	maxLease = 2678400 * time.Second
)

// An intent is a request to the hub awaiting its verification of intent:
// the callback confirms only a pending intent of the same mode and topic
// (WebSub §5.3.1).
type intent struct {
	mode, topic string
	done        chan verification // buffered: the handler never waits
}

// verification is what the hub's verification of intent said.
type verification struct {
	lease    time.Duration       // granted lease, 0 for an unsubscription
	findings []validator.Finding // about the lease granted
}

// A subscription is one channel's subscription, from its first request
// to its unsubscription. The fields after mu's comment are guarded by the
// Monitor's mu.
type subscription struct {
	m        *Monitor
	ch       *Channel
	doc      *validator.Report // the channel's report
	id       string            // the callback's last path segment
	callback string
	secret   string
	denied   chan struct{} // closed when the hub denies the subscription
	denyOnce sync.Once

	// guarded by m.mu
	state      subState
	pending    *intent
	everActive bool
	lease      time.Duration
	expires    time.Time
	seq        int           // deliveries numbered so far
	lastLease  time.Duration // the lease last checked against RM104
	denyReason string
}

func (m *Monitor) newSubscription(ch *Channel, doc *validator.Report) *subscription {
	s := &subscription{m: m, ch: ch, doc: doc, id: randomHex(16), denied: make(chan struct{})}
	s.callback = m.callbackURL(s.id)
	if !m.o.NoSecret {
		s.secret = newSecret()
	}
	return s
}

// path is the callback's path, for the reports of refused requests.
func (s *subscription) path() string {
	if u := parseURL(s.callback); u != nil {
		return u.Path
	}
	return s.callback
}

var errDenied = errors.New("the hub denied the subscription")

// run keeps the subscription until ctx ends, then unsubscribes. It
// returns early when the subscription cannot be had: the first request or
// verification failed, the hub denied it, or its lease expired.
func (s *subscription) run(ctx context.Context) {
	renewal := false
	for {
		lease, err := s.subscribe(ctx, renewal)
		if ctx.Err() != nil {
			break
		}
		if err != nil {
			if errors.Is(err, errDenied) {
				return
			}
			if !renewal {
				s.setState(stateFailed)
				return
			}
			// Try again while the lease lasts.
			s.m.mu.Lock()
			left := time.Until(s.expires)
			s.m.mu.Unlock()
			if left <= 0 {
				s.expire()
				return
			}
			// Half the time left, so that a few attempts fit in it, but
			// not so often that a short lease makes a storm of them.
			wait := min(left/2, 30*time.Second)
			if wait < time.Second {
				wait = min(left, time.Second)
			}
			if !s.sleep(ctx, wait) {
				if ctx.Err() != nil {
					break
				}
				return // denied
			}
			if time.Until(s.expiresAt()) <= 0 {
				s.expire()
				return
			}
			continue
		}
		renewal = true
		if !s.sleep(ctx, time.Duration(float64(lease)*s.m.o.RenewAt)) {
			if ctx.Err() != nil {
				break
			}
			return // denied
		}
	}
	s.unsubscribe(ctx)
}

// sleep waits for d; it returns false when ctx ended or the hub denied
// the subscription first.
func (s *subscription) sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
	case <-s.denied:
	}
	return false
}

func (s *subscription) setState(st subState) {
	s.m.mu.Lock()
	s.state = st
	s.pending = nil
	s.m.mu.Unlock()
}

func (s *subscription) expiresAt() time.Time {
	s.m.mu.Lock()
	defer s.m.mu.Unlock()
	return s.expires
}

// expire ends a subscription whose lease ran out unrenewed.
func (s *subscription) expire() {
	s.setState(stateExpired)
	s.m.emit(Event{Kind: EventError, Topic: s.ch.Topic, Hub: s.ch.Hub,
		Reason: "the lease expired before a renewal was verified; the subscription is lost"})
}

// subscribe sends a subscription request and waits for its verification;
// it returns the lease granted.
func (s *subscription) subscribe(ctx context.Context, renewal bool) (time.Duration, error) {
	in := &intent{mode: "subscribe", topic: s.ch.Topic, done: make(chan verification, 1)}
	// The intent is pending before the request leaves: a hub may verify
	// before it answers.
	s.m.mu.Lock()
	s.pending = in
	s.m.mu.Unlock()
	if err := s.request(ctx, in.mode); err != nil {
		s.clearPending(in)
		return 0, err
	}
	s.m.emit(Event{Kind: EventSubscribed, Topic: s.ch.Topic, Hub: s.ch.Hub, Lease: s.m.o.Lease, Renewal: renewal, Callback: s.callback})
	v, err := s.await(ctx, in)
	if err != nil {
		return 0, err
	}
	kind := EventVerified
	if renewal {
		kind = EventRenewed
	}
	s.m.emit(Event{Kind: kind, Topic: s.ch.Topic, Hub: s.ch.Hub, Lease: v.lease, Expires: s.expiresAt(), Callback: s.callback, Findings: v.findings})
	return v.lease, nil
}

// unsubscribe ends an active subscription: an unsubscription request and
// its verification, within Options.UnsubscribeTimeout of ctx's end.
func (s *subscription) unsubscribe(ctx context.Context) {
	s.m.mu.Lock()
	active := s.state == stateActive
	if !active {
		if s.state == statePending {
			s.state = stateEnded
		}
		s.pending = nil
		s.m.mu.Unlock()
		return
	}
	in := &intent{mode: "unsubscribe", topic: s.ch.Topic, done: make(chan verification, 1)}
	s.pending = in
	s.m.mu.Unlock()
	defer s.setState(stateEnded)

	uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.m.o.UnsubscribeTimeout)
	defer cancel()
	if err := s.request(uctx, in.mode); err != nil {
		return
	}
	if _, err := s.await(uctx, in); err != nil {
		return
	}
	s.m.emit(Event{Kind: EventUnsubscribed, Topic: s.ch.Topic, Hub: s.ch.Hub})
}

// await waits for the verification of a pending intent.
func (s *subscription) await(ctx context.Context, in *intent) (verification, error) {
	t := time.NewTimer(s.m.o.VerifyTimeout)
	defer t.Stop()
	select {
	case v := <-in.done:
		return v, nil
	case <-s.denied:
		s.clearPending(in)
		return verification{}, errDenied
	case <-ctx.Done():
		s.clearPending(in)
		if in.mode == "unsubscribe" {
			s.fail(RuleIntentVerified, "the hub accepted the unsubscription of %s but did not verify it within %s", s.ch.Topic, s.m.o.UnsubscribeTimeout)
		}
		return verification{}, ctx.Err()
	case <-t.C:
		s.clearPending(in)
		s.fail(RuleIntentVerified, "the hub accepted the %s request for %s but sent no verification of intent (a GET to the callback with hub.mode=%s and hub.challenge) within %s",
			in.mode, s.ch.Topic, in.mode, s.m.o.VerifyTimeout)
		return verification{}, errors.New("no verification of intent")
	}
}

func (s *subscription) clearPending(in *intent) {
	s.m.mu.Lock()
	if s.pending == in {
		s.pending = nil
	}
	s.m.mu.Unlock()
}

// fail reports a failure of the subscription: a finding in the channel's
// report and an error event.
func (s *subscription) fail(r *validator.Rule, format string, args ...any) {
	f := r.Finding(0, 0, "", format, args...)
	s.m.addChannelFindings(s.doc, f)
	s.m.emit(Event{Kind: EventError, Topic: s.ch.Topic, Hub: s.ch.Hub, Reason: f.Message, Findings: []validator.Finding{f}})
}

// request sends a subscription or unsubscription request to the hub
// (WebSub §5.1): a form POST that the hub must answer with 202.
func (s *subscription) request(ctx context.Context, mode string) error {
	form := url.Values{"hub.callback": {s.callback}, "hub.mode": {mode}, "hub.topic": {s.ch.Topic}}
	if mode == "subscribe" {
		if secs := int64(s.m.o.Lease / time.Second); secs > 0 {
			form.Set("hub.lease_seconds", strconv.FormatInt(secs, 10))
		}
		if s.secret != "" {
			form.Set("hub.secret", s.secret)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.ch.Hub, strings.NewReader(form.Encode()))
	if err != nil {
		s.fail(RuleSubscriptionAccepted, "the hub URI %q cannot be used: %v", s.ch.Hub, err)
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.m.client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			s.fail(RuleSubscriptionAccepted, "the %s request to the hub %s failed: %v", mode, s.ch.Hub, err)
		}
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 2048))
	if resp.StatusCode != http.StatusAccepted {
		msg := strings.TrimSpace(string(body))
		if msg != "" {
			msg = fmt.Sprintf(" (%q)", clip(strings.ToValidUTF8(msg, "?"), 200))
		}
		s.fail(RuleSubscriptionAccepted, "the hub %s answered the %s request for %s with %s%s; a hub answers 202 Accepted and then verifies the intent",
			s.ch.Hub, mode, s.ch.Topic, resp.Status, msg)
		return fmt.Errorf("hub answered %s", resp.Status)
	}
	return nil
}

// verifiedLocked records the verification of a pending intent, with
// the findings the granted lease deserves; m.mu is held.
func (s *subscription) verifiedLocked(mode, leaseParam string, now time.Time) verification {
	var v verification
	if mode == "unsubscribe" {
		s.state = stateEnded
		return v
	}
	var fs []validator.Finding
	secs, err := strconv.ParseInt(strings.TrimSpace(leaseParam), 10, 64)
	switch {
	case leaseParam == "":
		fs = append(fs, RuleLeaseSeconds.Finding(0, 0, "", "the hub's verification of the subscription to %s has no hub.lease_seconds; a hub says which lease it grants", s.ch.Topic))
	case err != nil || secs <= 0:
		fs = append(fs, RuleLeaseSeconds.Finding(0, 0, "", "the hub's verification of the subscription to %s has hub.lease_seconds=%q, not a positive number of seconds", s.ch.Topic, clip(leaseParam, 40)))
	default:
		v.lease = time.Duration(secs) * time.Second
	}
	if v.lease == 0 {
		// Assume the shortest lease the specification recommends, or the
		// one requested when shorter, and renew in time for it.
		v.lease = minLease
		if l := s.m.o.Lease; l > 0 && l < v.lease {
			v.lease = l
		}
	} else if (v.lease < minLease || v.lease > maxLease) && v.lease != s.lastLease {
		fs = append(fs, RuleLeaseRange.Finding(0, 0, "", "the hub granted a lease of %d seconds for %s; the lease should be between 300 seconds (5 minutes) and 2,678,400 seconds (1 month)", secs, s.ch.Topic))
	}
	s.lastLease = v.lease
	s.state = stateActive
	s.everActive = true
	s.lease = v.lease
	s.expires = now.Add(v.lease)
	v.findings = fs
	s.doc.Add(-1, fs...)
	return v
}
