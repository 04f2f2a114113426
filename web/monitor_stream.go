package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The events of a session go to its pages as Server-Sent Events (HTML
// Living Standard §9.2): "id: N", "event: KIND" (a monitor.EventKind, or
// the server's own "stopping", "ended" and "gap") and "data: JSON", one
// line each. The session keeps the latest events, within bounds, so that a
// page that reconnects with Last-Event-ID gets what it missed; a page
// that connects without it gets every event kept.

// streamRetry is the reconnection delay the pages are asked to use.
const streamRetry = 2 * time.Second

// stream holds a session's events and the pages watching them; the
// session's mutex guards it.
type stream struct {
	nextID    int64          // the ID of the latest event (IDs start at 1)
	ring      []*streamEvent // the events kept, oldest first
	ringBytes int64
	clients   map[*streamClient]struct{}
	dropped   int // clients disconnected for falling behind
}

// A streamEvent is one event, encoded once for every page.
type streamEvent struct {
	id   int64
	wire []byte // "id: …\nevent: …\ndata: …\n\n"
}

// A streamClient is one page's connection to the event stream.
type streamClient struct {
	ch     chan *streamEvent
	kicked chan struct{} // closed when the page fell behind and was dropped
}

// publish encodes an event and hands it to every page: it never waits for
// them, so that the monitor never waits for a page.
func (ss *session) publish(kind string, v any) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.publishLocked(kind, v)
}

func (ss *session) publishLocked(kind string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		data, _ = json.Marshal(map[string]string{"error": "the event could not be encoded: " + err.Error()})
		kind = "error"
	}
	ss.nextID++
	var b bytes.Buffer
	fmt.Fprintf(&b, "id: %d\nevent: %s\ndata: %s\n\n", ss.nextID, kind, data)
	ev := &streamEvent{id: ss.nextID, wire: b.Bytes()}

	ss.ring = append(ss.ring, ev)
	ss.ringBytes += int64(len(ev.wire))
	o := &ss.srv.o
	drop := 0
	for len(ss.ring)-drop > 1 && (len(ss.ring)-drop > o.ReplayEvents || ss.ringBytes > o.ReplayBytes) {
		ss.ringBytes -= int64(len(ss.ring[drop].wire))
		ss.ring[drop] = nil
		drop++
	}
	if drop > 0 {
		ss.ring = ss.ring[drop:]
	}

	for c := range ss.clients {
		select {
		case c.ch <- ev:
		default:
			// The page is too far behind: drop it. It reconnects with the
			// ID of the last event it got and replays from there.
			close(c.kicked)
			delete(ss.clients, c)
			ss.dropped++
		}
	}
}

// watch registers a page that has seen the events up to after, and
// returns those it has not seen that are kept, and how many it missed
// because they are no longer kept.
func (ss *session) watch(after int64) (*streamClient, []*streamEvent, int64) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	c := &streamClient{ch: make(chan *streamEvent, ss.srv.o.ClientBuffer), kicked: make(chan struct{})}
	ss.clients[c] = struct{}{}
	if after < 0 || after > ss.nextID {
		after = 0 // an ID of another session, or of this server's previous run
	}
	var replay []*streamEvent
	var missed int64
	if len(ss.ring) > 0 {
		if first := ss.ring[0].id; first > after+1 {
			missed = first - after - 1
		}
		for _, ev := range ss.ring {
			if ev.id > after {
				replay = append(replay, ev)
			}
		}
	}
	return c, replay, missed
}

// leave unregisters a page.
func (ss *session) leave(c *streamClient) {
	ss.mu.Lock()
	delete(ss.clients, c)
	ss.lastSeen = time.Now()
	ss.mu.Unlock()
}

// lastEventID is where a page's stream resumes: the Last-Event-ID header
// of a reconnection, or ?after= for a page that reloaded and remembers.
func lastEventID(r *http.Request) int64 {
	v := r.Header.Get("Last-Event-ID")
	if v == "" {
		v = r.URL.Query().Get("after")
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// serveEvents streams a session's events until the page leaves or the
// server closes. The stream outlives the monitoring: while a page
// watches, the session and its report are kept.
func (s *MonitorServer) serveEvents(w http.ResponseWriter, r *http.Request, ss *session) {
	rc := http.NewResponseController(w)
	c, replay, missed := ss.watch(lastEventID(r))
	defer ss.leave(c)

	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("X-Accel-Buffering", "no") // nginx: do not hold the events back
	w.WriteHeader(http.StatusOK)
	fmt.Fprintf(w, "retry: %d\n\n", streamRetry.Milliseconds())
	if missed > 0 {
		fmt.Fprintf(w, "event: gap\ndata: {\"missed\":%d}\n\n", missed)
	}
	for _, ev := range replay {
		if _, err := w.Write(ev.wire); err != nil {
			return
		}
	}
	if rc.Flush() != nil {
		return
	}

	// send writes an event and whatever else is waiting, then flushes.
	send := func(ev *streamEvent) bool {
		if _, err := w.Write(ev.wire); err != nil {
			return false
		}
		for {
			select {
			case ev := <-c.ch:
				if _, err := w.Write(ev.wire); err != nil {
					return false
				}
			default:
				return rc.Flush() == nil
			}
		}
	}
	// drain sends what is waiting, before the stream ends.
	drain := func() {
		select {
		case ev := <-c.ch:
			send(ev)
		default:
		}
	}
	beat := time.NewTicker(s.o.Heartbeat)
	defer beat.Stop()
	for {
		select {
		case ev := <-c.ch:
			if !send(ev) {
				return
			}
		case <-beat.C:
			if _, err := fmt.Fprint(w, ": heartbeat\n\n"); err != nil || rc.Flush() != nil {
				return
			}
		case <-c.kicked:
			drain()
			return
		case <-s.done:
			drain()
			return
		case <-r.Context().Done():
			return
		}
	}
}
