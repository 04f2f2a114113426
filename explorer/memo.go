package explorer

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"sync"
)

// Memoize returns a Fetcher that performs each request (method and URL)
// once and answers repeated requests from memory: the status, headers and
// redirects, the error if the request failed, and the body if it was read
// to the end and is at most maxBody bytes. A repeated request for a larger
// body, or one the first caller did not read to the end, is performed
// again. A repeated request made while the first is under way waits for
// the first caller to close its body. Requests with headers of their own
// are not memoized.
//
// A memo belongs to one crawl: the explorer makes a new one per Explore,
// so that a Source is seen as it is now, not as it was.
func Memoize(f Fetcher, maxBody int) Fetcher {
	return &memo{next: f, max: maxBody, entries: map[string]*memoEntry{}}
}

type memo struct {
	next    Fetcher
	max     int
	mu      sync.Mutex
	entries map[string]*memoEntry
}

type memoEntry struct {
	done chan struct{} // closed once the first response is complete
	err  error
	resp Response // without Body
	body []byte
	ok   bool // body holds the whole body
}

func (m *memo) Fetch(ctx context.Context, req *Request) (*Response, error) {
	if len(req.Header) > 0 {
		return m.next.Fetch(ctx, req)
	}
	key := req.method() + " " + req.URL
	m.mu.Lock()
	e, found := m.entries[key]
	if !found {
		e = &memoEntry{done: make(chan struct{})}
		m.entries[key] = e
	}
	m.mu.Unlock()
	if found {
		select {
		case <-e.done:
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
		if e.err != nil {
			return nil, e.err
		}
		if !e.ok {
			return m.next.Fetch(ctx, req)
		}
		r := e.resp
		r.Header = r.Header.Clone()
		r.Redirects = append([]Redirect(nil), r.Redirects...)
		r.Body = io.NopCloser(bytes.NewReader(e.body))
		return &r, nil
	}
	resp, err := m.next.Fetch(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			// A cancelled caller tells nothing about the URL: forget it.
			m.mu.Lock()
			delete(m.entries, key)
			m.mu.Unlock()
		}
		e.err = err
		close(e.done)
		return nil, err
	}
	e.resp = *resp
	e.resp.Header = resp.Header.Clone()
	e.resp.Body = nil
	if req.method() == methodHead {
		e.ok = true // no body to keep
		onClose(resp, func() { close(e.done) })
		return resp, nil
	}
	if resp.ContentLength > int64(m.max) {
		onClose(resp, func() { close(e.done) })
		return resp, nil
	}
	resp.Body = &teeBody{ReadCloser: resp.Body, e: e, max: m.max}
	return resp, nil
}

// teeBody keeps a copy of the body as the first caller reads it.
type teeBody struct {
	io.ReadCloser
	e      *memoEntry
	max    int
	over   bool
	eof    bool
	closed bool
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	if n > 0 && !t.over {
		if len(t.e.body)+n > t.max {
			t.over, t.e.body = true, nil
		} else {
			t.e.body = append(t.e.body, p[:n]...)
		}
	}
	if err == io.EOF {
		t.eof = true
	}
	return n, err
}

func (t *teeBody) Close() error {
	err := t.ReadCloser.Close()
	if !t.closed {
		t.closed = true
		t.e.ok = t.eof && !t.over
		if !t.e.ok {
			t.e.body = nil
		}
		close(t.e.done)
	}
	return err
}

// statusText is the status code with its reason phrase, for messages.
func statusText(code int) string {
	if t := statusTexts[code]; t != "" {
		return strconv.Itoa(code) + " " + t
	}
	return strconv.Itoa(code)
}
