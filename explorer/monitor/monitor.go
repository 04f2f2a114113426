package monitor

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/validator"
	"github.com/rscheck/rscheck/validator/report"
)

// Defaults of Options.
const (
	DefaultRenewAt            = 0.8
	DefaultVerifyTimeout      = 30 * time.Second
	DefaultUnsubscribeTimeout = 10 * time.Second
	DefaultRequestTimeout     = 30 * time.Second
	DefaultMaxBodyBytes       = 16 << 20
	DefaultBodyTimeout        = 30 * time.Second
	DefaultQueueSize          = 256
	DefaultMaxInFlight        = 64
	DefaultMaxRefused         = 1000
	DefaultFollowInterval     = 2 * time.Second
	DefaultFollowGrace        = 60 * time.Second
	// EventBuffer is the number of events that may wait for OnEvent.
	EventBuffer = 1024
)

// Kinds of the reports that are not payloads.
const (
	// KindChannel is the report of a channel: what discovery found and
	// what happened to its subscription.
	KindChannel validator.Kind = "channel"
	// KindRefused is the report of a request the callback refused, or of
	// a delivery it ignored without checking its payload (its signature
	// did not verify).
	KindRefused validator.Kind = "refused"
)

// Options configure a Monitor. PublicURL is required; the zero value of
// every other field means its default.
type Options struct {
	// PublicURL is the URL at which the hubs reach the Monitor's handler,
	// wherever it is mounted and whatever proxies stand in between. Each
	// subscription's callback is PublicURL followed by an unguessable
	// path segment (a capability URL, WebSub §5.1.1).
	PublicURL string
	// Client sends the subscription requests to the hubs; nil means a
	// client with a DefaultRequestTimeout timeout.
	Client *http.Client
	// Fetcher reads the Change Lists Follow polls; nil means an
	// explorer.HTTPFetcher. It is wrapped to follow redirects, time out
	// and cap sizes.
	Fetcher explorer.Fetcher
	// Validator holds the options payloads are validated with; nil means
	// the defaults.
	Validator *validator.Options
	// Lease is the lease requested (hub.lease_seconds, in whole seconds);
	// zero leaves it to the hub.
	Lease time.Duration
	// RenewAt is the fraction of a granted lease after which the
	// subscription is renewed; zero means DefaultRenewAt.
	RenewAt float64
	// NoSecret subscribes without hub.secret, so that deliveries are not
	// signed. By default each subscription has its own random secret.
	NoSecret bool
	// VerifyTimeout bounds the wait for the hub's verification of intent
	// after it accepted a request.
	VerifyTimeout time.Duration
	// UnsubscribeTimeout bounds the unsubscription of each channel when
	// the monitoring ends (request and verification).
	UnsubscribeTimeout time.Duration
	// MaxBodyBytes bounds a delivery's body; a larger one is refused
	// with 413.
	MaxBodyBytes int64
	// BodyTimeout bounds the time a delivery's body takes to arrive.
	BodyTimeout time.Duration
	// QueueSize bounds the deliveries received and not yet checked;
	// beyond it deliveries are refused with 503, which hubs retry.
	QueueSize int
	// MaxInFlight bounds the deliveries being read at once; beyond it
	// deliveries are refused with 503.
	MaxInFlight int
	// MaxRefused bounds the refused requests kept in the report (a flood
	// of forged requests must not grow it without end); the others are
	// reported as events only.
	MaxRefused int
	// Follow compares every change notification with the Source's
	// Change List: it is polled every FollowInterval until its changes
	// appear or FollowGrace has passed (RM130, RM131).
	Follow         bool
	FollowInterval time.Duration
	FollowGrace    time.Duration
	// OnEvent, if set, receives the events, one at a time and in order,
	// from a goroutine of Run's: every event from the start of Run until
	// it returns, and those about requests refused before it started.
	// The callback handler never waits for it: up to EventBuffer events
	// wait for OnEvent, beyond which events about refused requests are
	// dropped (and counted in a final EventError), while the checks wait,
	// so that a slow OnEvent fills the delivery queue and hubs are asked
	// to retry rather than memory growing.
	OnEvent func(Event)
}

// A Monitor subscribes to the channels of a Source, receives their
// notifications on its callback and checks each. It is an http.Handler:
// mount it where Options.PublicURL leads, before calling Run.
type Monitor struct {
	o      Options
	public *url.URL
	client *http.Client

	events   chan Event
	evMu     sync.RWMutex // guards sending on events against its closing
	evClosed bool
	dropped  int // events about refused requests dropped; guarded by evMu's write lock or mu

	mu       sync.Mutex
	subs     map[string]*subscription // by callback path segment
	chanDocs []*validator.Report
	records  []record // deliveries and refused requests
	refused  int      // refused requests seen
	started  bool

	checker  *Checker
	queue    chan *delivery
	qmu      sync.RWMutex // guards sending on queue against its closing
	qclosed  bool
	inflight chan struct{}
	follow   *follower
}

// A record is a report of a delivery or of a refused request, with what
// orders it in the result.
type record struct {
	received time.Time
	n        *Notification // nil for a refused request
	rep      *validator.Report
}

// delivery is a delivery waiting in the queue for its checks.
type delivery struct {
	sub *subscription
	seq int
	Delivery
}

// New returns a Monitor. It checks the options; the monitoring starts
// with Run.
func New(opts *Options) (*Monitor, error) {
	if opts == nil || opts.PublicURL == "" {
		return nil, errors.New("monitor: Options.PublicURL is required: the URL at which hubs reach the callback")
	}
	o := *opts
	u, err := url.Parse(o.PublicURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("monitor: public URL %q is not an absolute http or https URL", o.PublicURL)
	}
	u.Fragment, u.RawFragment = "", ""
	if o.RenewAt <= 0 || o.RenewAt >= 1 {
		o.RenewAt = DefaultRenewAt
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.VerifyTimeout, DefaultVerifyTimeout)
	def(&o.UnsubscribeTimeout, DefaultUnsubscribeTimeout)
	def(&o.BodyTimeout, DefaultBodyTimeout)
	def(&o.FollowInterval, DefaultFollowInterval)
	def(&o.FollowGrace, DefaultFollowGrace)
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.QueueSize <= 0 {
		o.QueueSize = DefaultQueueSize
	}
	if o.MaxInFlight <= 0 {
		o.MaxInFlight = DefaultMaxInFlight
	}
	if o.MaxRefused <= 0 {
		o.MaxRefused = DefaultMaxRefused
	}
	if o.Lease < 0 {
		o.Lease = 0
	}
	m := &Monitor{
		o: o, public: u, client: o.Client,
		subs:     map[string]*subscription{},
		queue:    make(chan *delivery, o.QueueSize),
		inflight: make(chan struct{}, o.MaxInFlight),
		events:   make(chan Event, EventBuffer),
	}
	if m.client == nil {
		m.client = &http.Client{Timeout: DefaultRequestTimeout}
	}
	return m, nil
}

// ErrNotMonitored is returned by Run when no subscription could be made
// active: every hub refused, denied or never verified it. The report
// says why.
var ErrNotMonitored = errors.New("no subscription became active")

// Run monitors the channels of src until ctx ends: it subscribes to each
// (with a callback under Options.PublicURL), answers the hubs'
// verifications, renews the subscriptions before their leases expire,
// and checks every notification delivered. When ctx ends it unsubscribes
// from every channel (within Options.UnsubscribeTimeout), checks the
// deliveries still queued and returns; Result then has the whole report.
//
// Run returns early, with ErrNotMonitored, when no subscription became
// active; the report says why. Run may be called once.
func (m *Monitor) Run(ctx context.Context, src *Source) error {
	m.mu.Lock()
	if m.started {
		m.mu.Unlock()
		return errors.New("monitor: Run called twice")
	}
	m.started = true
	m.checker = NewChecker(src, m.o.Validator)
	var subs []*subscription
	for _, ch := range src.Channels {
		doc := &validator.Report{Source: ch.Topic, Kind: KindChannel, Capability: ch.Capability}
		doc.Add(-1, ch.Findings...)
		m.chanDocs = append(m.chanDocs, doc)
		if ch.Hub == "" {
			continue
		}
		s := m.newSubscription(ch, doc)
		m.subs[s.id] = s
		subs = append(subs, s)
	}
	m.mu.Unlock()

	dispatchDone := make(chan struct{})
	go func() {
		defer close(dispatchDone)
		m.dispatch()
	}()
	for _, ch := range src.Channels {
		if ch.Hub == "" {
			m.emit(Event{Kind: EventError, Topic: ch.Topic, Reason: "the channel has no hub to subscribe to"})
		}
	}
	followCtx, stopFollow := context.WithCancel(context.WithoutCancel(ctx))
	followDone := make(chan struct{})
	if m.o.Follow {
		m.follow = newFollower(m)
		go func() {
			defer close(followDone)
			m.follow.run(followCtx)
		}()
	} else {
		close(followDone)
	}
	workerDone := make(chan struct{})
	go func() {
		defer close(workerDone)
		m.work()
	}()

	var wg sync.WaitGroup
	for _, s := range subs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.run(ctx)
		}()
	}
	wg.Wait()

	// No subscription is left: refuse new deliveries, check those queued,
	// then give the follower its last poll.
	m.qmu.Lock()
	m.qclosed = true
	close(m.queue)
	m.qmu.Unlock()
	<-workerDone
	stopFollow()
	<-followDone

	m.mu.Lock()
	dropped := m.dropped
	m.mu.Unlock()
	if dropped > 0 {
		m.emit(Event{Kind: EventError, Reason: fmt.Sprintf("%d events about refused requests were dropped: OnEvent did not keep up", dropped)})
	}
	m.evMu.Lock()
	m.evClosed = true
	close(m.events)
	m.evMu.Unlock()
	<-dispatchDone

	m.mu.Lock()
	active := false
	for _, s := range subs {
		active = active || s.everActive
	}
	m.mu.Unlock()
	if !active {
		return ErrNotMonitored
	}
	return nil
}

// work checks the queued deliveries, in order of receipt.
func (m *Monitor) work() {
	for d := range m.queue {
		// The checks finish even when the monitoring is ending: the
		// delivery was acknowledged.
		n, err := m.checker.Check(context.Background(), d.sub.ch, d.seq, &d.Delivery)
		if err != nil {
			m.emit(Event{Kind: EventError, Topic: d.sub.ch.Topic, Hub: d.sub.ch.Hub, Reason: fmt.Sprintf("delivery #%d could not be checked: %v", d.seq, err)})
			continue
		}
		m.mu.Lock()
		m.records = append(m.records, record{received: d.Received, n: n, rep: n.Report})
		ev := Event{Kind: EventNotification, Topic: d.sub.ch.Topic, Hub: d.sub.ch.Hub, Notification: n.clone()}
		m.mu.Unlock()
		if n.Ignored {
			ev.Kind = EventRefused
			ev.Reason = "the delivery's body is not a notification payload; it is ignored"
			ev.Request = &Request{Method: http.MethodPost, Path: d.sub.path(), Status: http.StatusAccepted}
		}
		m.emit(ev)
		if m.follow != nil && !n.Ignored && n.Capability == "change-notification" && len(n.Changes) > 0 && d.sub.ch.ChangeList != "" {
			m.follow.add(d.sub.ch, n)
		}
	}
}

// emit queues an event for Options.OnEvent, waiting for room: the
// subscriptions, the checks and the follower call it. It must not be
// called with m.mu held.
func (m *Monitor) emit(ev Event) {
	if m.o.OnEvent == nil {
		return
	}
	if ev.Time.IsZero() {
		ev.Time = time.Now()
	}
	m.evMu.RLock()
	defer m.evMu.RUnlock()
	if !m.evClosed {
		m.events <- ev
	}
}

// emitNoWait queues an event for Options.OnEvent if there is room: the
// callback handler calls it, and never waits for OnEvent.
func (m *Monitor) emitNoWait(ev Event) {
	if m.o.OnEvent == nil {
		return
	}
	if ev.Time.IsZero() {
		ev.Time = time.Now()
	}
	m.evMu.RLock()
	sent := false
	if !m.evClosed {
		select {
		case m.events <- ev:
			sent = true
		default:
		}
	}
	m.evMu.RUnlock()
	if !sent && !m.closedEvents() {
		m.mu.Lock()
		m.dropped++
		m.mu.Unlock()
	}
}

func (m *Monitor) closedEvents() bool {
	m.evMu.RLock()
	defer m.evMu.RUnlock()
	return m.evClosed
}

// dispatch calls OnEvent for each event, in order, until the events are
// closed.
func (m *Monitor) dispatch() {
	for ev := range m.events {
		if m.o.OnEvent != nil {
			m.o.OnEvent(ev)
		}
	}
}

// addChannelFindings adds findings to a channel's report.
func (m *Monitor) addChannelFindings(doc *validator.Report, fs ...validator.Finding) {
	m.mu.Lock()
	doc.Add(-1, fs...)
	m.mu.Unlock()
}

// Result returns the report of the monitoring so far: one document per
// channel (what discovery found and what happened to the subscription),
// then one per delivery received and per request refused, in order of
// receipt. Deliveries are named "TOPIC#SEQ (received TIME)". It may be
// called at any time, also while Run runs; the result is a copy.
func (m *Monitor) Result() *report.Result {
	m.mu.Lock()
	defer m.mu.Unlock()
	docs := make([]*validator.Report, 0, len(m.chanDocs)+len(m.records))
	for _, d := range m.chanDocs {
		docs = append(docs, cloneReport(d))
	}
	recs := append([]record(nil), m.records...)
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].received.Before(recs[j].received) })
	for _, r := range recs {
		docs = append(docs, cloneReport(r.rep))
	}
	return report.NewResult(docs)
}

// Notifications returns the notifications checked so far, in order of
// receipt (copies).
func (m *Monitor) Notifications() []*Notification {
	m.mu.Lock()
	defer m.mu.Unlock()
	var ns []*Notification
	for _, r := range m.records {
		if r.n != nil {
			ns = append(ns, r.n.clone())
		}
	}
	sort.SliceStable(ns, func(i, j int) bool { return ns[i].Received.Before(ns[j].Received) })
	return ns
}

// callbackURL returns the callback of a subscription: the public URL
// followed by its path segment.
func (m *Monitor) callbackURL(id string) string {
	u := *m.public
	u.Path = strings.TrimSuffix(u.Path, "/") + "/" + id
	u.RawPath = ""
	return u.String()
}
