package web

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/explorer/monitor"
	"github.com/rscheck/rscheck/validator"
	"github.com/rscheck/rscheck/validator/report"
)

// Defaults of MonitorOptions.
const (
	DefaultMonitorSessions    = 4
	DefaultMonitorMaxDuration = 24 * time.Hour
	DefaultMonitorIdle        = 2 * time.Minute
	DefaultMonitorHeartbeat   = 15 * time.Second
	DefaultMonitorDiscovery   = 2 * time.Minute
	DefaultReplayEvents       = 2000
	DefaultReplayBytes        = 16 << 20
	DefaultClientBuffer       = 256
)

// MonitorOptions configure NewMonitorServer.
type MonitorOptions struct {
	// PublicURL is the URL at which the hubs reach this server's root
	// (required). The callbacks are under PublicURL + "websub/", so a
	// reverse proxy in front of the server must pass that path on
	// unchanged.
	PublicURL string
	// MaxSessions bounds the sessions kept at once, running or ended;
	// an ended session makes room for a new one.
	MaxSessions int
	// MaxDuration bounds the monitoring of one session: it is stopped
	// (unsubscribed) when it has run that long.
	MaxDuration time.Duration
	// IdleTimeout is how long a session lives without a page watching
	// its events: then it is stopped and forgotten.
	IdleTimeout time.Duration
	// Heartbeat is the interval of the comments that keep an event
	// stream open through proxies that close quiet connections.
	Heartbeat time.Duration
	// DiscoveryTimeout bounds the discovery of a Source's channels.
	DiscoveryTimeout time.Duration
	// ReplayEvents and ReplayBytes bound the events a session keeps for
	// pages that reconnect (Last-Event-ID); the oldest go first.
	ReplayEvents int
	ReplayBytes  int64
	// ClientBuffer is the number of events that may wait for one page;
	// a page further behind is disconnected, and replays on reconnecting.
	ClientBuffer int
	// Monitor is the template of every session's monitor options;
	// PublicURL, OnEvent and Follow are the session's own.
	Monitor monitor.Options
	// Explorer is the template of the exploration options of discovery;
	// nil means monitor.DefaultExplorerOptions with an HTTP fetcher.
	Explorer *explorer.Options
	// Version is the tool's version, written in the reports.
	Version string
	// Log, if set, is told of the sessions' starts and ends.
	Log func(format string, args ...any)
}

// A MonitorServer lets the page monitor a Source's notifications: the
// browser cannot receive the hubs' requests, so the server holds the
// WebSub callbacks, checks what arrives with package monitor and streams
// the events to the page (Server-Sent Events).
//
// Under /monitor/ it serves the page's API, to loopback clients only
// (the client's address and the Host are loopback, Sec-Fetch-Site, when
// sent, is same-origin or none; POST bodies are application/json);
// under /websub/ the callbacks, to anyone: they are protected by their
// unguessable paths and the deliveries' signatures. Mount it with
// WithMonitor. Errors are answered as {"error": "…"}.
//
//	GET    /monitor/status.json            {enabled, allowed, callbackURL, loopbackCallback, maxSessions, …}
//	GET    /monitor/rules                  the rule catalogue: [{id, name, severity, spec, specURL, doc, docURL}]
//	POST   /monitor/sessions               {url} → 201 the session, its channels discovered
//	                                       (422 none, 429 too many sessions, 502 the Source failed)
//	GET    /monitor/sessions/{id}          the session: {id, state, start, channels, exploration, summary, …}
//	POST   /monitor/sessions/{id}/subscribe {topics, follow} (no topics: all) → 202 the session
//	GET    /monitor/sessions/{id}/events   Server-Sent Events; Last-Event-ID (or ?after=N) resumes
//	POST   /monitor/sessions/{id}/stop     unsubscribes → 200 the ended session (202 if the hubs are slow)
//	GET    /monitor/sessions/{id}/report   ?format=json|html|text|junit|sarif: the report so far
//	DELETE /monitor/sessions/{id}          stops and forgets the session → 204
//	GET, POST /websub/{token}/{subscription} the hubs' verifications, denials and deliveries
//
// A session is discovering, discovered, running, stopping or ended. It
// lives while a page watches its events, and IdleTimeout after the last
// has left; the monitoring itself stops after MaxDuration.
type MonitorServer struct {
	o        MonitorOptions
	public   *url.URL
	mux      *http.ServeMux
	rules    []*validator.Rule
	rulesDoc []byte

	// base ends when the server closes: the monitoring and discoveries
	// run under it, not under the requests that started them.
	base      context.Context
	cancel    context.CancelFunc
	done      chan struct{} // closed once the sessions have ended, at Close
	closeOnce sync.Once
	janitor   chan struct{}

	mu       sync.Mutex
	closed   bool
	sessions map[string]*session // by ID
	tokens   map[string]*session // by callback path segment
}

// NewMonitorServer returns a MonitorServer. Its sessions run until Close.
func NewMonitorServer(o MonitorOptions) (*MonitorServer, error) {
	u, err := url.Parse(o.PublicURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil, fmt.Errorf("monitor: the public URL %q is not an absolute http or https URL", o.PublicURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/"
	u.RawPath, u.RawQuery, u.Fragment, u.RawFragment = "", "", "", ""
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.MaxDuration, DefaultMonitorMaxDuration)
	def(&o.IdleTimeout, DefaultMonitorIdle)
	def(&o.Heartbeat, DefaultMonitorHeartbeat)
	def(&o.DiscoveryTimeout, DefaultMonitorDiscovery)
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMonitorSessions
	}
	if o.ReplayEvents <= 0 {
		o.ReplayEvents = DefaultReplayEvents
	}
	if o.ReplayBytes <= 0 {
		o.ReplayBytes = DefaultReplayBytes
	}
	if o.ClientBuffer <= 0 {
		o.ClientBuffer = DefaultClientBuffer
	}
	if o.Version == "" {
		o.Version = "devel"
	}
	s := &MonitorServer{
		o: o, public: u,
		sessions: map[string]*session{}, tokens: map[string]*session{},
		done: make(chan struct{}), janitor: make(chan struct{}),
	}
	s.base, s.cancel = context.WithCancel(context.Background())
	s.rules = monitor.Catalogue()
	s.rulesDoc = rulesJSON(s.rules)

	mux := http.NewServeMux()
	mux.HandleFunc("GET /monitor/status.json", s.serveStatus)
	mux.HandleFunc("GET /monitor/rules", s.local(s.serveRules))
	mux.HandleFunc("POST /monitor/sessions", s.local(s.serveCreate))
	mux.HandleFunc("GET /monitor/sessions/{id}", s.local(s.withSession(s.serveSession)))
	mux.HandleFunc("DELETE /monitor/sessions/{id}", s.local(s.withSession(s.serveDelete)))
	mux.HandleFunc("POST /monitor/sessions/{id}/subscribe", s.local(s.withSession(s.serveSubscribe)))
	mux.HandleFunc("POST /monitor/sessions/{id}/stop", s.local(s.withSession(s.serveStop)))
	mux.HandleFunc("GET /monitor/sessions/{id}/events", s.local(s.withSession(s.serveEvents)))
	mux.HandleFunc("GET /monitor/sessions/{id}/report", s.local(s.withSession(s.serveReport)))
	mux.HandleFunc("/monitor/", s.local(func(w http.ResponseWriter, r *http.Request) {
		apiError(w, http.StatusNotFound, "no such endpoint (or method) of the monitor")
	}))
	mux.HandleFunc("/websub/", s.serveCallback)
	s.mux = mux
	go s.sweep()
	return s, nil
}

// CallbackURL is the URL under which the hubs call back.
func (s *MonitorServer) CallbackURL() string { return s.public.String() + "websub/" }

// ServeHTTP serves the API under /monitor/ and the callbacks under
// /websub/.
func (s *MonitorServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cache-Control", "no-store")
	// Nothing here is a page: not even the HTML report may run anything.
	hd.Set("Content-Security-Policy", "sandbox; default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	s.mux.ServeHTTP(w, r)
}

// WithMonitor serves app, and the monitor's paths (/monitor/, /websub/)
// with ms. With ms nil it is app, whose static/monitor/status.json says
// that monitoring is off, so that the page explains how to turn it on;
// so does any other server of the app's files.
func WithMonitor(app http.Handler, ms *MonitorServer) http.Handler {
	if ms == nil {
		return app
	}
	mux := http.NewServeMux()
	mux.Handle("/", app)
	mux.Handle("/monitor/", ms)
	mux.Handle("/websub/", ms)
	return mux
}

// Close stops every session, unsubscribing from every channel (the
// callbacks must still be served meanwhile: call Close before shutting the
// HTTP server down), ends the event streams and forgets the sessions.
// It returns when they have ended, or with ctx's error.
func (s *MonitorServer) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	all := make([]*session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		all = append(all, ss)
	}
	s.mu.Unlock()
	for _, ss := range all {
		ss.stop("the server is shutting down")
	}
	var err error
	for _, ss := range all {
		select {
		case <-ss.ended:
		case <-ctx.Done():
			err = ctx.Err()
		}
		if err != nil {
			break
		}
	}
	s.closeOnce.Do(func() {
		s.cancel() // whatever is left: discoveries, unsubscriptions past ctx
		close(s.done)
		close(s.janitor)
	})
	return err
}

// ---- access ----

// local admits loopback clients only, on a loopback Host (DNS rebinding),
// from the app's own pages (Sec-Fetch-Site), as the proxy does: sessions
// subscribe, on this machine's behalf, to what the client names.
func (s *MonitorServer) local(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if why := refuseRemote(r); why != "" {
			apiError(w, http.StatusForbidden, why)
			return
		}
		h(w, r)
	}
}

// refuseRemote says why a request may not drive the monitor, or "".
func refuseRemote(r *http.Request) string {
	site := r.Header.Get("Sec-Fetch-Site")
	switch {
	case !isLoopback(r.RemoteAddr):
		return "the monitor answers only this machine: open the page at a localhost address"
	case !isLoopback(r.Host):
		return "the monitor answers only requests for a loopback host name (localhost, 127.0.0.1, [::1])"
	case site != "" && site != "same-origin" && site != "none":
		return "the monitor answers only the app's own pages"
	}
	return ""
}

// withSession finds the session the path names, and notes that a page
// uses it.
func (s *MonitorServer) withSession(h func(http.ResponseWriter, *http.Request, *session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		ss := s.sessions[r.PathValue("id")]
		s.mu.Unlock()
		if ss == nil {
			apiError(w, http.StatusNotFound, "no such session: it ended and was forgotten, or the server restarted")
			return
		}
		ss.touch()
		h(w, r, ss)
	}
}

// ---- the API ----

func (s *MonitorServer) serveStatus(w http.ResponseWriter, r *http.Request) {
	if why := refuseRemote(r); why != "" {
		writeJSON(w, http.StatusOK, map[string]any{"enabled": true, "allowed": false, "reason": why})
		return
	}
	s.mu.Lock()
	n := len(s.sessions)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{
		"enabled":          true,
		"allowed":          true,
		"publicURL":        s.public.String(),
		"callbackURL":      s.CallbackURL(),
		"loopbackCallback": isLoopback(s.public.Host),
		"maxSessions":      s.o.MaxSessions,
		"sessions":         n,
		"maxDurationSec":   int64(s.o.MaxDuration / time.Second),
		"idleTimeoutSec":   int64(s.o.IdleTimeout / time.Second),
	})
}

func (s *MonitorServer) serveRules(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(s.rulesDoc)
}

// serveCreate discovers the channels of a Source (POST {url}) and answers
// the new session, 201.
func (s *MonitorServer) serveCreate(w http.ResponseWriter, r *http.Request) {
	var req struct {
		URL string `json:"url"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	u, err := url.Parse(strings.TrimSpace(req.URL))
	if err == nil {
		err = checkTarget(u)
	}
	if err != nil {
		apiError(w, http.StatusBadRequest, "url: "+err.Error())
		return
	}
	ss, status, msg := s.newSession(u.String())
	if ss == nil {
		apiError(w, status, msg)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.o.DiscoveryTimeout)
	defer cancel()
	stop := context.AfterFunc(s.base, cancel)
	defer stop()
	src, err := monitor.Discover(ctx, ss.start, s.explorerOptions())
	if err != nil {
		s.remove(ss)
		switch {
		case errors.Is(err, monitor.ErrNoChannel):
			apiError(w, http.StatusUnprocessableEntity, "no notification channel found: none of the Source's Capability Lists advertises a change-notification or framework-notification channel, and the URL is not a topic with a hub")
		case r.Context().Err() != nil:
			apiError(w, http.StatusRequestTimeout, "the discovery was cancelled")
		case ctx.Err() != nil:
			apiError(w, http.StatusGatewayTimeout, fmt.Sprintf("the discovery took longer than %v", s.o.DiscoveryTimeout))
		default:
			apiError(w, http.StatusBadGateway, err.Error())
		}
		return
	}
	ss.discovered(src)
	s.logf("monitor: session %s: %d channels found at %s", ss.id, len(src.Channels), ss.start)
	writeJSON(w, http.StatusCreated, ss.info())
}

func (s *MonitorServer) serveSession(w http.ResponseWriter, r *http.Request, ss *session) {
	writeJSON(w, http.StatusOK, ss.info())
}

// serveDelete stops a session and forgets it.
func (s *MonitorServer) serveDelete(w http.ResponseWriter, r *http.Request, ss *session) {
	ss.stop("the page closed the session")
	go func() {
		<-ss.ended
		s.remove(ss)
	}()
	w.WriteHeader(http.StatusNoContent)
}

// serveSubscribe starts the monitoring of the chosen channels (POST
// {topics, follow}; no topics means all).
func (s *MonitorServer) serveSubscribe(w http.ResponseWriter, r *http.Request, ss *session) {
	var req struct {
		Topics []string `json:"topics"`
		Follow bool     `json:"follow"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		apiError(w, http.StatusServiceUnavailable, "the server is shutting down")
		return
	}
	if status, msg := ss.subscribe(req.Topics, req.Follow); status != 0 {
		apiError(w, status, msg)
		return
	}
	writeJSON(w, http.StatusAccepted, ss.info())
}

// stopWait is how long a stop request waits for the unsubscriptions.
const stopWait = 30 * time.Second

// serveStop unsubscribes and ends the monitoring; it answers once the
// hubs have verified the unsubscriptions (200), or 202 when that takes
// longer than stopWait.
func (s *MonitorServer) serveStop(w http.ResponseWriter, r *http.Request, ss *session) {
	ss.stop("stopped from the page")
	t := time.NewTimer(stopWait)
	defer t.Stop()
	select {
	case <-ss.ended:
		writeJSON(w, http.StatusOK, ss.info())
	case <-t.C:
		writeJSON(w, http.StatusAccepted, ss.info())
	case <-r.Context().Done():
	}
}

// reportTypes are the media types and file extensions of the report
// formats.
var reportTypes = map[string][2]string{
	"text":  {"text/plain; charset=utf-8", "txt"},
	"json":  {"application/json", "json"},
	"html":  {"text/html; charset=utf-8", "html"},
	"junit": {"application/xml", "xml"},
	"sarif": {"application/sarif+json", "sarif"},
}

// serveReport writes the report so far (?format=, json by default).
func (s *MonitorServer) serveReport(w http.ResponseWriter, r *http.Request, ss *session) {
	format := r.URL.Query().Get("format")
	if format == "" {
		format = "json"
	}
	if !slices.Contains(report.Formats(), format) {
		apiError(w, http.StatusBadRequest, fmt.Sprintf("unknown format %q (want %s)", format, strings.Join(report.Formats(), ", ")))
		return
	}
	res := ss.result()
	if res == nil {
		apiError(w, http.StatusConflict, "nothing is monitored yet: subscribe first")
		return
	}
	res.Version = s.o.Version
	// The report is rendered whole before anything is sent, so that a
	// failure is an error answer and not a truncated file.
	var b bytes.Buffer
	if err := report.Write(format, &b, res, report.Options{Rules: s.rules}); err != nil {
		apiError(w, http.StatusInternalServerError, err.Error())
		return
	}
	ct := reportTypes[format]
	if ct[0] == "" {
		ct = [2]string{"application/octet-stream", format}
	}
	w.Header().Set("Content-Type", ct[0])
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="rscheck-monitor-%s.%s"`, fileName(ss.start), ct[1]))
	w.Write(b.Bytes())
}

// serveCallback passes a hub's request to the monitor of the session
// its path names (/websub/TOKEN/SUBSCRIPTION), from wherever it comes.
func (s *MonitorServer) serveCallback(w http.ResponseWriter, r *http.Request) {
	token, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/websub/"), "/")
	s.mu.Lock()
	ss := s.tokens[token]
	s.mu.Unlock()
	var m *monitor.Monitor
	if ss != nil {
		ss.mu.Lock()
		m = ss.m
		ss.mu.Unlock()
	}
	if m == nil {
		http.NotFound(w, r)
		return
	}
	m.ServeHTTP(w, r)
}

// ---- sessions ----

// newSession makes room for a session and registers it; on failure it
// returns the status and message of the answer.
func (s *MonitorServer) newSession(start string) (*session, int, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, http.StatusServiceUnavailable, "the server is shutting down"
	}
	if len(s.sessions) >= s.o.MaxSessions {
		// An ended session, the oldest, gives its place.
		var oldest *session
		for _, ss := range s.sessions {
			if ss.isEnded() && (oldest == nil || ss.created.Before(oldest.created)) {
				oldest = ss
			}
		}
		if oldest == nil {
			return nil, http.StatusTooManyRequests, fmt.Sprintf("%d monitoring sessions are under way, as many as this server allows: stop one first", len(s.sessions))
		}
		delete(s.sessions, oldest.id)
		delete(s.tokens, oldest.token)
	}
	ss := &session{
		srv: s, id: randomID(), token: randomID(), start: start,
		created: time.Now(), state: stateDiscovering,
		ended: make(chan struct{}),
	}
	ss.clients = map[*streamClient]struct{}{}
	ss.lastSeen = ss.created
	s.sessions[ss.id] = ss
	s.tokens[ss.token] = ss
	return ss, 0, ""
}

// remove forgets a session.
func (s *MonitorServer) remove(ss *session) {
	s.mu.Lock()
	if s.sessions[ss.id] == ss {
		delete(s.sessions, ss.id)
		delete(s.tokens, ss.token)
	}
	s.mu.Unlock()
	ss.mu.Lock()
	if ss.state == stateDiscovering || ss.state == stateDiscovered {
		ss.state = stateEnded
		ss.endTime = time.Now()
		close(ss.ended)
	}
	ss.mu.Unlock()
}

// sweep stops the sessions no page watches, and forgets them once ended.
func (s *MonitorServer) sweep() {
	every := min(max(s.o.IdleTimeout/4, 10*time.Millisecond), 30*time.Second)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.janitor:
			return
		case <-t.C:
		}
		s.mu.Lock()
		var idle []*session
		for _, ss := range s.sessions {
			if ss.idleFor() > s.o.IdleTimeout {
				idle = append(idle, ss)
			}
		}
		s.mu.Unlock()
		for _, ss := range idle {
			if ss.isEnded() {
				s.logf("monitor: session %s forgotten: no page has watched it for %v", ss.id, s.o.IdleTimeout)
				s.remove(ss)
				continue
			}
			ss.mu.Lock()
			discovering := ss.state == stateDiscovering
			ss.mu.Unlock()
			if !discovering { // a discovery's request is under way: it is watched
				ss.stop(fmt.Sprintf("no page has watched the session for %v", s.o.IdleTimeout))
			}
		}
	}
}

func (s *MonitorServer) explorerOptions() *explorer.Options {
	var eo explorer.Options
	if s.o.Explorer != nil {
		eo = *s.o.Explorer
	} else {
		eo = *monitor.DefaultExplorerOptions()
		ua := "rscheck-serve/" + s.o.Version
		eo.Fetcher = &explorer.HTTPFetcher{UserAgent: ua}
		eo.UserAgent = ua
	}
	return &eo
}

func (s *MonitorServer) logf(format string, args ...any) {
	if s.o.Log != nil {
		s.o.Log(format, args...)
	}
}

// Session states.
const (
	stateDiscovering = "discovering"
	stateDiscovered  = "discovered" // channels found, not subscribed
	stateRunning     = "running"
	stateStopping    = "stopping"
	stateEnded       = "ended"
)

// A session is one page's monitoring of one Source: its channels, its
// Monitor once subscribed, and the events kept for its pages.
type session struct {
	srv     *MonitorServer
	id      string // names the session in the API
	token   string // names it in the callbacks' paths, which hubs see
	start   string
	created time.Time
	ended   chan struct{} // closed when the session has ended

	mu         sync.Mutex
	state      string
	src        *monitor.Source
	explored   *exploration
	m          *monitor.Monitor
	follow     bool
	subscribed []string
	cancel     context.CancelFunc
	expires    time.Time
	stopWhy    string
	endTime    time.Time
	endWhy     string
	lastSeen   time.Time
	stream     // the events and the pages watching them
}

// exploration sums up what discovery's exploration found.
type exploration struct {
	Documents int    `json:"documents"`
	Errors    int    `json:"errors"`
	Warnings  int    `json:"warnings"`
	Infos     int    `json:"infos"`
	Stopped   string `json:"stopped,omitempty"`
}

// sessionInfo is a session as the API answers it.
type sessionInfo struct {
	ID          string          `json:"id"`
	State       string          `json:"state"`
	Start       string          `json:"start"`
	Created     time.Time       `json:"created"`
	Channels    []channelInfo   `json:"channels"`
	Exploration *exploration    `json:"exploration,omitempty"`
	Follow      bool            `json:"follow,omitempty"`
	Expires     time.Time       `json:"expires,omitzero"`
	Ended       time.Time       `json:"ended,omitzero"`
	EndReason   string          `json:"endReason,omitempty"`
	Summary     *report.Summary `json:"summary,omitempty"`
	Events      int64           `json:"events"`
	Dropped     int             `json:"droppedClients,omitempty"`
	Callback    string          `json:"callbackURL"`
}

// channelInfo is a channel as the API answers it.
type channelInfo struct {
	*monitor.Channel
	Subscribed bool `json:"subscribed"`
}

func (ss *session) info() sessionInfo {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	in := sessionInfo{
		ID: ss.id, State: ss.state, Start: ss.start, Created: ss.created,
		Exploration: ss.explored, Follow: ss.follow,
		Expires: ss.expires, Ended: ss.endTime, EndReason: ss.endWhy,
		Events: ss.nextID, Dropped: ss.dropped,
		Callback: ss.srv.CallbackURL() + ss.token + "/",
		Channels: []channelInfo{},
	}
	if ss.src != nil {
		for _, ch := range ss.src.Channels {
			in.Channels = append(in.Channels, channelInfo{Channel: ch, Subscribed: slices.Contains(ss.subscribed, ch.Topic)})
		}
	}
	if ss.m != nil {
		sum := ss.m.Result().Summary
		in.Summary = &sum
	}
	return in
}

func (ss *session) touch() {
	ss.mu.Lock()
	ss.lastSeen = time.Now()
	ss.mu.Unlock()
}

// idleFor is how long no page has watched the session.
func (ss *session) idleFor() time.Duration {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if len(ss.clients) > 0 {
		return 0
	}
	return time.Since(ss.lastSeen)
}

func (ss *session) isEnded() bool {
	select {
	case <-ss.ended:
		return true
	default:
		return false
	}
}

// discovered records what discovery found.
func (ss *session) discovered(src *monitor.Source) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.src = src
	if res := src.Exploration; res != nil {
		sum := res.Report().Summary
		ss.explored = &exploration{Documents: sum.Documents, Errors: sum.Errors, Warnings: sum.Warnings, Infos: sum.Infos, Stopped: res.Stopped}
	}
	if ss.state == stateDiscovering {
		ss.state = stateDiscovered
	}
}

// subscribe starts monitoring the channels of topics (all when none);
// it returns the status and message of a refusal, or 0.
func (ss *session) subscribe(topics []string, follow bool) (int, string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.state != stateDiscovered {
		return http.StatusConflict, fmt.Sprintf("the session is %s: it can subscribe once, after discovery", ss.state)
	}
	var chans []*monitor.Channel
	for _, ch := range ss.src.Channels {
		if len(topics) == 0 || slices.Contains(topics, ch.Topic) {
			chans = append(chans, ch)
		}
	}
	for _, t := range topics {
		if !slices.ContainsFunc(ss.src.Channels, func(ch *monitor.Channel) bool { return ch.Topic == t }) {
			return http.StatusBadRequest, fmt.Sprintf("%q is not one of the channels found", t)
		}
	}
	if !slices.ContainsFunc(chans, func(ch *monitor.Channel) bool { return ch.Hub != "" }) {
		return http.StatusBadRequest, "none of the chosen channels has a hub to subscribe to"
	}
	o := ss.srv.o.Monitor
	o.PublicURL = ss.srv.CallbackURL() + ss.token + "/"
	o.Follow = follow
	o.OnEvent = ss.onEvent
	m, err := monitor.New(&o)
	if err != nil {
		return http.StatusInternalServerError, err.Error()
	}
	// The Source keeps every channel for the page; Run gets the chosen.
	src := *ss.src
	src.Channels = chans
	ctx, cancel := context.WithTimeout(ss.srv.base, ss.srv.o.MaxDuration)
	ss.m, ss.cancel, ss.follow = m, cancel, follow
	ss.state = stateRunning
	ss.expires = time.Now().Add(ss.srv.o.MaxDuration)
	for _, ch := range chans {
		ss.subscribed = append(ss.subscribed, ch.Topic)
	}
	ss.srv.logf("monitor: session %s: subscribing to %d channels of %s", ss.id, len(chans), ss.start)
	go ss.run(ctx, m, &src)
	return 0, ""
}

// run monitors until ctx ends or nothing could be monitored.
func (ss *session) run(ctx context.Context, m *monitor.Monitor, src *monitor.Source) {
	err := m.Run(ctx, src)
	ss.mu.Lock()
	why := ss.stopWhy
	switch {
	case errors.Is(err, monitor.ErrNotMonitored):
		why = "no subscription became active: every hub refused, denied or did not verify it (the events and the report say why)"
	case err != nil:
		why = err.Error()
	case why == "" && errors.Is(ctx.Err(), context.DeadlineExceeded):
		why = fmt.Sprintf("the session reached its longest duration, %v", ss.srv.o.MaxDuration)
	case why == "":
		why = "stopped"
	}
	ss.state, ss.endTime, ss.endWhy = stateEnded, time.Now(), why
	ss.cancel()
	ss.mu.Unlock()
	ss.publish("ended", map[string]any{"time": time.Now(), "reason": why})
	ss.srv.logf("monitor: session %s ended: %s", ss.id, why)
	close(ss.ended)
}

// stop ends the monitoring: Run unsubscribes, then the session ends.
func (ss *session) stop(why string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	switch ss.state {
	case stateRunning:
		ss.state, ss.stopWhy = stateStopping, why
		ss.publishLocked("stopping", map[string]any{"time": time.Now(), "reason": why})
		ss.cancel()
	case stateDiscovering, stateDiscovered:
		ss.state, ss.endTime, ss.endWhy = stateEnded, time.Now(), why
		ss.publishLocked("ended", map[string]any{"time": time.Now(), "reason": why})
		close(ss.ended)
	}
}

// result is the report so far, nil before subscribing.
func (ss *session) result() *report.Result {
	ss.mu.Lock()
	m := ss.m
	ss.mu.Unlock()
	if m == nil {
		return nil
	}
	return m.Result()
}

// onEvent is the monitor's OnEvent: it must return at once, and does.
func (ss *session) onEvent(ev monitor.Event) {
	ss.publish(string(ev.Kind), ev)
}

// ---- helpers ----

// rulesJSON lists the catalogue as the page's worker does, so that the
// page names and links the rule of each finding.
func rulesJSON(rules []*validator.Rule) []byte {
	b, _ := json.Marshal(report.RuleInfos(rules))
	return b
}

func randomID() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// fileName makes a file name part of a URL's host.
func fileName(u string) string {
	host := "source"
	if p, err := url.Parse(u); err == nil && p.Hostname() != "" {
		host = p.Hostname()
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, host)
}

// readJSON decodes a small JSON request body; on failure it answers and
// returns false. The media type must be JSON, which a cross-site form
// cannot send without the browser asking first (CORS preflight).
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		apiError(w, http.StatusUnsupportedMediaType, "send the request as application/json")
		return false
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10))
	if err := dec.Decode(v); err != nil {
		apiError(w, http.StatusBadRequest, "the request is not the JSON expected: "+err.Error())
		return false
	}
	return true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		apiError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// apiError answers {"error": msg}.
func apiError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(map[string]string{"error": msg})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}
