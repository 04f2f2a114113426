package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rscheck/rscheck/explorer/monitor"
	"github.com/rscheck/rscheck/explorer/monitor/monitortest"
)

// A monitorFixture is a MonitorServer behind a real HTTP server on
// 127.0.0.1, with a fixture hub and Source.
type monitorFixture struct {
	t   *testing.T
	ms  *MonitorServer
	srv *httptest.Server
	hub *monitortest.Hub
	src *monitortest.Source
}

func newMonitorFixture(t *testing.T, o MonitorOptions, hub *monitortest.HubOptions) *monitorFixture {
	t.Helper()
	f := &monitorFixture{t: t}
	f.hub = monitortest.NewHub(t, hub)
	f.src = monitortest.NewSource(t, f.hub, nil)
	f.srv = httptest.NewServer(nil)
	o.PublicURL = f.srv.URL + "/"
	if o.Monitor.UnsubscribeTimeout == 0 {
		o.Monitor.UnsubscribeTimeout = 5 * time.Second
	}
	ms, err := NewMonitorServer(o)
	if err != nil {
		t.Fatal(err)
	}
	f.ms = ms
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "the app") })
	f.srv.Config.Handler = WithMonitor(app, ms)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := ms.Close(ctx); err != nil {
			t.Errorf("Close: %v", err)
		}
		f.srv.Close()
	})
	return f
}

// call sends a request to the API and decodes the JSON answer into v (if
// not nil); it returns the status.
func (f *monitorFixture) call(method, path string, body any, v any) int {
	f.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, f.srv.URL+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if v != nil && len(b) > 0 {
		if err := json.Unmarshal(b, v); err != nil {
			f.t.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, b, err)
		}
	}
	return resp.StatusCode
}

// create starts a session on the fixture Source.
func (f *monitorFixture) create() sessionInfo {
	f.t.Helper()
	var in sessionInfo
	if st := f.call("POST", "/monitor/sessions", map[string]string{"url": f.src.WellKnown}, &in); st != http.StatusCreated {
		f.t.Fatalf("POST /monitor/sessions: %d", st)
	}
	return in
}

// subscribe subscribes a session to topics (all when none) and waits
// until the hub has activated them.
func (f *monitorFixture) subscribe(id string, topics ...string) {
	f.t.Helper()
	var in sessionInfo
	if st := f.call("POST", "/monitor/sessions/"+id+"/subscribe", map[string]any{"topics": topics}, &in); st != http.StatusAccepted {
		f.t.Fatalf("subscribe: %d", st)
	}
	if len(topics) == 0 {
		topics = []string{f.src.ChangeTopic, f.src.FrameworkTopic}
	}
	waitUntil(f.t, "the hub activates the subscriptions", func() bool {
		return !slices.ContainsFunc(topics, func(t string) bool { return f.hub.Active(t) == 0 })
	})
}

// noneActive waits until the hub has no subscription left (it ends one
// once it has read the answer to its verification).
func (f *monitorFixture) noneActive() {
	f.t.Helper()
	waitUntil(f.t, "the hub has no subscription left", func() bool {
		return f.hub.Active(f.src.ChangeTopic)+f.hub.Active(f.src.FrameworkTopic) == 0
	})
}

func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// An sse is one item of an event stream: an event, or a comment.
type sse struct {
	ID, Event, Data, Comment string
	Retry                    int
}

// A streamReader reads an event stream in the background.
type streamReader struct {
	t    *testing.T
	resp *http.Response
	mu   sync.Mutex
	got  []sse
	eof  chan struct{}
}

// events connects to a session's event stream, resuming after lastID
// when it is not empty.
func (f *monitorFixture) events(id, lastID string) *streamReader {
	f.t.Helper()
	req, _ := http.NewRequest("GET", f.srv.URL+"/monitor/sessions/"+id+"/events", nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		f.t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &streamReader{t: f.t, resp: resp, eof: make(chan struct{})}
	f.t.Cleanup(func() { resp.Body.Close() })
	go s.read()
	return s
}

func (s *streamReader) read() {
	defer close(s.eof)
	sc := bufio.NewScanner(s.resp.Body)
	sc.Buffer(nil, 16<<20)
	var cur sse
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			s.mu.Lock()
			s.got = append(s.got, cur)
			s.mu.Unlock()
			cur = sse{}
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "":
			cur.Comment = value
		case "id":
			cur.ID = value
		case "event":
			cur.Event = value
		case "data":
			if cur.Data != "" {
				s.t.Errorf("an event with more than one data line: %q", line)
			}
			cur.Data = value
		case "retry":
			cur.Retry, _ = strconv.Atoi(value)
		default:
			s.t.Errorf("unknown field in the stream: %q", line)
		}
	}
}

func (s *streamReader) snapshot() []sse {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.got)
}

// waitFor waits until n events match ok, and returns them.
func (s *streamReader) waitFor(what string, n int, ok func(sse) bool) []sse {
	s.t.Helper()
	var match []sse
	waitUntil(s.t, what, func() bool {
		match = nil
		for _, e := range s.snapshot() {
			if ok(e) {
				match = append(match, e)
			}
		}
		return len(match) >= n
	})
	return match
}

func kind(k string) func(sse) bool { return func(e sse) bool { return e.Event == k } }

// TestMonitorSession goes through a session as the page does: discover,
// subscribe, a good and a defective notification on the stream, a
// reconnection that replays what it missed, stop, the report.
func TestMonitorSession(t *testing.T) {
	f := newMonitorFixture(t, MonitorOptions{}, nil)
	var st map[string]any
	if f.call("GET", "/monitor/status.json", nil, &st); st["enabled"] != true || st["allowed"] != true || st["callbackURL"] != f.srv.URL+"/websub/" {
		t.Errorf("status %v", st)
	}
	in := f.create()
	if in.State != stateDiscovered || len(in.Channels) != 2 || in.Exploration == nil || in.Exploration.Documents == 0 {
		t.Fatalf("session %+v", in)
	}
	caps := map[string]string{}
	for _, ch := range in.Channels {
		caps[ch.Topic] = ch.Capability
		if ch.Hub != f.hub.URL || ch.CapabilityList != f.src.CapabilityList || ch.Subscribed {
			t.Errorf("channel %+v", ch)
		}
	}
	if caps[f.src.ChangeTopic] != "change-notification" || caps[f.src.FrameworkTopic] != "framework-notification" {
		t.Errorf("channels %v", caps)
	}
	if !strings.HasPrefix(in.Callback, f.srv.URL+"/websub/") || strings.Contains(in.Callback, in.ID) {
		t.Errorf("callback %q: not under /websub/, or it tells the session's ID to the hubs", in.Callback)
	}

	stream := f.events(in.ID, "")
	f.subscribe(in.ID)
	ctx := context.Background()
	if _, err := f.src.Publish(ctx, monitortest.Good); err != nil {
		t.Fatal(err)
	}
	bad := monitortest.WrongUpLink
	if _, err := f.src.Publish(ctx, bad); err != nil {
		t.Fatal(err)
	}
	notes := stream.waitFor("two notifications", 2, kind("notification"))
	var evs []monitor.Event
	for _, e := range notes {
		var ev monitor.Event
		if err := json.Unmarshal([]byte(e.Data), &ev); err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	if evs[0].Notification.Report.Errors+evs[0].Notification.Report.Warnings != 0 {
		t.Errorf("the good notification has findings: %+v", evs[0].Notification.Report.Findings)
	}
	var rules []string
	for _, fd := range evs[1].Notification.Report.Findings {
		rules = append(rules, fd.Rule)
	}
	for _, r := range bad.Rules() {
		if !slices.Contains(rules, r) {
			t.Errorf("the %v notification's findings %v lack %s", bad, rules, r)
		}
	}

	// The stream's form: retry first, then events with increasing IDs.
	all := stream.snapshot()
	if all[0].Retry != int(streamRetry.Milliseconds()) {
		t.Errorf("the stream does not begin with retry: %+v", all[0])
	}
	var ids []int
	for _, e := range all[1:] {
		id, err := strconv.Atoi(e.ID)
		if err != nil || e.Event == "" || !json.Valid([]byte(e.Data)) {
			t.Fatalf("malformed event %+v", e)
		}
		ids = append(ids, id)
	}
	for i := range ids {
		if ids[i] != i+1 {
			t.Fatalf("event IDs %v, want 1, 2, …", ids)
		}
	}
	kinds := map[string]int{}
	for _, e := range all {
		kinds[e.Event]++
	}
	if kinds["subscribed"] != 2 || kinds["verified"] != 2 {
		t.Errorf("events %v: want 2 subscribed and 2 verified", kinds)
	}

	// A page that reconnects after event 3 gets 4… and nothing before.
	again := f.events(in.ID, "3")
	replay := again.waitFor("the replay", len(ids)-3, func(e sse) bool { return e.ID != "" })
	if replay[0].ID != "4" || replay[len(replay)-1].ID != strconv.Itoa(len(ids)) {
		t.Errorf("replay after 3: IDs %s…%s, want 4…%d", replay[0].ID, replay[len(replay)-1].ID, len(ids))
	}
	if r := again.snapshot(); r[1].ID != "4" {
		t.Errorf("the replay after 3 begins with %+v", r[1])
	}

	// The report so far, in two formats.
	for _, format := range []string{"json", "html"} {
		resp, err := http.Get(f.srv.URL + "/monitor/sessions/" + in.ID + "/report?format=" + format)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") ||
			!strings.Contains(string(b), "RM111") {
			t.Errorf("report %s: %d %s, %d bytes without RM111", format, resp.StatusCode, resp.Header.Get("Content-Disposition"), len(b))
		}
		if format == "json" {
			var res struct{ Documents []json.RawMessage }
			if json.Unmarshal(b, &res) != nil || len(res.Documents) != 4 {
				t.Errorf("JSON report: %d documents, want 2 channels and 2 notifications", len(res.Documents))
			}
		}
	}
	if st := f.call("GET", "/monitor/sessions/"+in.ID+"/report?format=pdf", nil, nil); st != http.StatusBadRequest {
		t.Errorf("report in an unknown format: %d", st)
	}

	// Stop: the hub verifies both unsubscriptions before the answer.
	var stopped sessionInfo
	if st := f.call("POST", "/monitor/sessions/"+in.ID+"/stop", nil, &stopped); st != 200 || stopped.State != stateEnded {
		t.Fatalf("stop: %d %+v", st, stopped)
	}
	if f.hub.Stats().Unsubscribes != 2 {
		t.Errorf("after stop: hub %+v", f.hub.Stats())
	}
	f.noneActive()
	stream.waitFor("unsubscribed", 2, kind("unsubscribed"))
	end := stream.waitFor("ended", 1, kind("ended"))
	if !strings.Contains(end[0].Data, "stopped from the page") {
		t.Errorf("ended: %s", end[0].Data)
	}
	// The session and its report stay while a page watches.
	if st := f.call("GET", "/monitor/sessions/"+in.ID+"/report", nil, nil); st != 200 {
		t.Errorf("report after stop: %d", st)
	}
	if st := f.call("POST", "/monitor/sessions/"+in.ID+"/subscribe", map[string]any{}, nil); st != http.StatusConflict {
		t.Errorf("subscribing an ended session: %d", st)
	}
}

// TestMonitorSubscribeSome subscribes to one channel of two.
func TestMonitorSubscribeSome(t *testing.T) {
	f := newMonitorFixture(t, MonitorOptions{}, nil)
	in := f.create()
	if st := f.call("POST", "/monitor/sessions/"+in.ID+"/subscribe", map[string]any{"topics": []string{"http://elsewhere.example/"}}, nil); st != http.StatusBadRequest {
		t.Errorf("subscribing to a topic not found: %d", st)
	}
	f.subscribe(in.ID, f.src.FrameworkTopic)
	var got sessionInfo
	f.call("GET", "/monitor/sessions/"+in.ID, nil, &got)
	for _, ch := range got.Channels {
		if ch.Subscribed != (ch.Topic == f.src.FrameworkTopic) {
			t.Errorf("channel %s subscribed: %v", ch.Topic, ch.Subscribed)
		}
	}
	if f.hub.Active(f.src.ChangeTopic) != 0 || got.State != stateRunning {
		t.Errorf("state %s; the change channel has %d subscriptions", got.State, f.hub.Active(f.src.ChangeTopic))
	}
}

// TestMonitorDenied: the hub's denial and the end of a session in which
// nothing became active reach the page.
func TestMonitorDenied(t *testing.T) {
	f := newMonitorFixture(t, MonitorOptions{}, &monitortest.HubOptions{Deny: "not today"})
	in := f.create()
	stream := f.events(in.ID, "")
	if st := f.call("POST", "/monitor/sessions/"+in.ID+"/subscribe", map[string]any{}, nil); st != http.StatusAccepted {
		t.Fatalf("subscribe: %d", st)
	}
	denied := stream.waitFor("denials", 2, kind("denied"))
	if !strings.Contains(denied[0].Data, "not today") {
		t.Errorf("denied: %s", denied[0].Data)
	}
	end := stream.waitFor("ended", 1, kind("ended"))
	if !strings.Contains(end[0].Data, "no subscription became active") {
		t.Errorf("ended: %s", end[0].Data)
	}
}

// TestMonitorLocalOnly: only this machine's pages drive the monitor, but
// the hubs reach the callbacks from anywhere.
func TestMonitorLocalOnly(t *testing.T) {
	f := newMonitorFixture(t, MonitorOptions{}, nil)
	in := f.create()
	h := f.srv.Config.Handler
	serve := func(method, target, remote, host string, hdr map[string]string) *httptest.ResponseRecorder {
		var body io.Reader
		if method == "POST" {
			body = strings.NewReader(`{"url":"` + f.src.WellKnown + `"}`)
		}
		r := httptest.NewRequest(method, target, body)
		r.RemoteAddr, r.Host = remote, host
		r.Header.Set("Content-Type", "application/json")
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	const here, there = "127.0.0.1:5555", "192.0.2.7:5555"
	for _, target := range []string{
		"/monitor/rules", "/monitor/sessions", "/monitor/sessions/" + in.ID, "/monitor/sessions/" + in.ID + "/events",
		"/monitor/sessions/" + in.ID + "/subscribe", "/monitor/sessions/" + in.ID + "/stop", "/monitor/sessions/" + in.ID + "/report",
	} {
		method := "GET"
		if strings.HasSuffix(target, "sessions") || strings.HasSuffix(target, "subscribe") || strings.HasSuffix(target, "stop") {
			method = "POST"
		}
		for _, c := range []struct {
			name, remote, host string
			hdr                map[string]string
		}{
			{"another machine", there, "127.0.0.1:8080", nil},
			{"another host name", here, "rebound.example:8080", nil},
			{"another site", here, "localhost:8080", map[string]string{"Sec-Fetch-Site": "cross-site"}},
			{"a sibling site", here, "localhost:8080", map[string]string{"Sec-Fetch-Site": "same-site"}},
		} {
			if w := serve(method, target, c.remote, c.host, c.hdr); w.Code != http.StatusForbidden {
				t.Errorf("%s %s from %s: %d, want 403", method, target, c.name, w.Code)
			}
		}
	}
	if w := serve("GET", "/monitor/status.json", there, "192.0.2.1:8080", nil); !strings.Contains(w.Body.String(), `"allowed":false`) ||
		strings.Contains(w.Body.String(), "callbackURL") {
		t.Errorf("status for another machine: %s", w.Body)
	}
	w := serve("POST", "/monitor/sessions", here, "localhost:8080", map[string]string{"Content-Type": "text/plain", "Sec-Fetch-Site": "same-origin"})
	if w.Code != http.StatusUnsupportedMediaType {
		t.Errorf("a form's POST: %d, want 415", w.Code)
	}

	// The callbacks answer another machine: a verification for no
	// subscription gets the monitor's 404, and the page hears of it.
	stream := f.events(in.ID, "")
	f.subscribe(in.ID)
	var sub sessionInfo
	f.call("GET", "/monitor/sessions/"+in.ID, nil, &sub)
	path := strings.TrimPrefix(sub.Callback, f.srv.URL) + "no-such-subscription?hub.mode=subscribe&hub.challenge=x"
	if w := serve("GET", path, there, "rscheck.example.net", nil); w.Code != http.StatusNotFound {
		t.Errorf("a hub's request from another machine: %d, want the monitor's 404", w.Code)
	}
	stream.waitFor("the refused request", 1, kind("refused"))
	if w := serve("GET", "/websub/unknown/x", there, "rscheck.example.net", nil); w.Code != http.StatusNotFound {
		t.Errorf("an unknown callback: %d", w.Code)
	}
}

// TestMonitorOff: without a MonitorServer, the app's files say that
// monitoring is off.
func TestMonitorOff(t *testing.T) {
	h := WithMonitor(NewHandler(Options{}), nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/monitor/status.json", nil))
	var st map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &st); w.Code != 200 || err != nil || st["enabled"] != false {
		t.Errorf("status: %d %s", w.Code, w.Body)
	}
}

// TestMonitorHeartbeat: a quiet stream carries comments.
func TestMonitorHeartbeat(t *testing.T) {
	f := newMonitorFixture(t, MonitorOptions{Heartbeat: 20 * time.Millisecond}, nil)
	in := f.create()
	s := f.events(in.ID, "")
	s.waitFor("heartbeats", 2, func(e sse) bool { return e.Comment == "heartbeat" })
}

// TestMonitorSessionLimit: at the limit, a new session takes the place of
// an ended one, or is refused.
func TestMonitorSessionLimit(t *testing.T) {
	f := newMonitorFixture(t, MonitorOptions{MaxSessions: 2}, nil)
	a, _ := f.create(), f.create()
	var e map[string]string
	if st := f.call("POST", "/monitor/sessions", map[string]string{"url": f.src.WellKnown}, &e); st != http.StatusTooManyRequests || e["error"] == "" {
		t.Errorf("a third session: %d %v", st, e)
	}
	if st := f.call("POST", "/monitor/sessions/"+a.ID+"/stop", nil, nil); st != 200 {
		t.Fatalf("stop: %d", st)
	}
	f.create()
	if st := f.call("GET", "/monitor/sessions/"+a.ID, nil, nil); st != http.StatusNotFound {
		t.Errorf("the ended session is still there: %d", st)
	}
}

// TestMonitorIdle: a session no page watches is unsubscribed and
// forgotten.
func TestMonitorIdle(t *testing.T) {
	f := newMonitorFixture(t, MonitorOptions{IdleTimeout: 300 * time.Millisecond}, nil)
	in := f.create()
	f.subscribe(in.ID)
	f.noneActive()
	// Asking the API would keep it alive.
	waitUntil(t, "the session is forgotten", func() bool {
		f.ms.mu.Lock()
		defer f.ms.mu.Unlock()
		return f.ms.sessions[in.ID] == nil
	})
	if f.hub.Stats().Unsubscribes != 2 {
		t.Errorf("hub %+v, want 2 unsubscriptions", f.hub.Stats())
	}
}

// TestMonitorClose: closing the server unsubscribes every session and
// ends the streams.
func TestMonitorClose(t *testing.T) {
	f := newMonitorFixture(t, MonitorOptions{}, nil)
	in := f.create()
	s := f.events(in.ID, "")
	f.subscribe(in.ID)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := f.ms.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if st := f.hub.Stats(); st.Unsubscribes != 2 {
		t.Errorf("after Close: %+v", st)
	}
	f.noneActive()
	select {
	case <-s.eof:
	case <-time.After(5 * time.Second):
		t.Fatal("the stream is still open after Close")
	}
	end := s.waitFor("ended", 1, kind("ended"))
	if !strings.Contains(end[0].Data, "shutting down") {
		t.Errorf("ended: %s", end[0].Data)
	}
	if st := f.call("POST", "/monitor/sessions", map[string]string{"url": f.src.WellKnown}, nil); st != http.StatusServiceUnavailable {
		t.Errorf("a session after Close: %d", st)
	}
}

// TestStreamBounds: a page that falls behind is dropped, not waited for;
// the replay keeps the latest events within its bounds and says how many
// it lost.
func TestStreamBounds(t *testing.T) {
	ms := &MonitorServer{o: MonitorOptions{ClientBuffer: 2, ReplayEvents: 3, ReplayBytes: 1 << 20}}
	ss := &session{srv: ms}
	ss.clients = map[*streamClient]struct{}{}
	slow, _, _ := ss.watch(0)
	for i := range 5 {
		ss.publish("notification", map[string]int{"n": i})
	}
	select {
	case <-slow.kicked:
	default:
		t.Fatal("the page that read nothing was not dropped")
	}
	if ss.dropped != 1 || len(ss.clients) != 0 || len(slow.ch) != 2 {
		t.Errorf("dropped %d, clients %d, queued %d", ss.dropped, len(ss.clients), len(slow.ch))
	}
	// It reconnects after the last event it got, 2, and gets the rest.
	_, replay, missed := ss.watch(2)
	var ids []int64
	for _, ev := range replay {
		ids = append(ids, ev.id)
	}
	if missed != 0 || fmt.Sprint(ids) != "[3 4 5]" {
		t.Errorf("after 2: missed %d, replayed %v", missed, ids)
	}
	_, replay, missed = ss.watch(0)
	if missed != 2 || len(replay) != 3 {
		t.Errorf("from the start: missed %d, replayed %d", missed, len(replay))
	}
	// The byte bound keeps at least the latest event.
	ms.o.ReplayBytes = 1
	ss.publish("notification", map[string]int{"n": 6})
	if len(ss.ring) != 1 || ss.ring[0].id != 6 {
		t.Errorf("ring of %d events", len(ss.ring))
	}
}

// TestMonitorReplayGap: a page that connects after the replay's bound
// was passed is told how many events it cannot have.
func TestMonitorReplayGap(t *testing.T) {
	f := newMonitorFixture(t, MonitorOptions{ReplayEvents: 2}, nil)
	in := f.create()
	f.subscribe(in.ID)
	waitUntil(t, "four events", func() bool {
		var got sessionInfo
		f.call("GET", "/monitor/sessions/"+in.ID, nil, &got)
		return got.Events >= 4
	})
	s := f.events(in.ID, "")
	gap := s.waitFor("the gap", 1, kind("gap"))
	var g struct{ Missed int }
	if err := json.Unmarshal([]byte(gap[0].Data), &g); err != nil || g.Missed < 2 {
		t.Errorf("gap %q", gap[0].Data)
	}
	if evs := s.waitFor("the events kept", 2, func(e sse) bool { return e.ID != "" }); len(evs) != 2 {
		t.Errorf("%d events replayed, want the 2 kept", len(evs))
	}
}

func TestLastEventID(t *testing.T) {
	for _, c := range []struct {
		header, query string
		want          int64
	}{{"", "", 0}, {"7", "", 7}, {"", "after=9", 9}, {"7", "after=9", 7}, {"x", "", 0}} {
		r := httptest.NewRequest("GET", "/monitor/sessions/s/events?"+c.query, nil)
		if c.header != "" {
			r.Header.Set("Last-Event-ID", c.header)
		}
		if got := lastEventID(r); got != c.want {
			t.Errorf("Last-Event-ID %q, %q: %d, want %d", c.header, c.query, got, c.want)
		}
	}
}
