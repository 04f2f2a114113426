//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"

	"github.com/hack-pad/safejs"
	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/validator"
	"github.com/rscheck/rscheck/validator/report"
)

func main() {
	s := newServer()
	onmessage, err := safejs.FuncOf(s.onMessage)
	if err == nil {
		err = self.Set("onmessage", onmessage)
	}
	if err != nil {
		post(obj{"type": "fatal", "message": "rscheck: cannot listen for messages: " + err.Error()})
		return
	}
	post(obj{"type": "ready", "version": version(), "go": runtime.Version()})
	select {} // serve messages for the worker's lifetime
}

// server dispatches the page's requests.
type server struct {
	mu      sync.Mutex
	running map[string]context.CancelFunc // by request key
	results *resultCache
	relay   *relay
	// warm is the warm-up's context; the first request cancels it.
	warm     context.Context
	stopWarm context.CancelFunc
	warmOnce sync.Once
}

func newServer() *server {
	warm, stopWarm := context.WithCancel(context.Background())
	return &server{
		warm:     warm,
		stopWarm: stopWarm,
		running:  map[string]context.CancelFunc{},
		results:  newResultCache(8),
		relay:    newRelay(),
	}
}

// onMessage is the worker's onmessage handler. It never blocks: replies
// from the page are handed to the goroutine waiting for them, and every
// request runs in a goroutine of its own.
func (s *server) onMessage(_ safejs.Value, args []safejs.Value) any {
	defer func() {
		if r := recover(); r != nil {
			post(obj{"type": "error", "code": "internal", "message": fmt.Sprint("rscheck: ", r)})
		}
	}()
	if len(args) == 0 {
		return nil
	}
	data := get(args[0], "data")
	typ := str(data, "type")
	if typ == "warmup" {
		// The page asks when it is idle; the warm-up gives way to the
		// first request that follows.
		s.warmOnce.Do(func() { go warmUp(s.warm) })
		return nil
	}
	s.stopWarm() // a request: the warm-up has had its turn
	switch typ {
	case "fetch-result":
		s.relay.deliver(data)
		return nil
	case "cancel":
		s.cancel(key(get(data, "id")))
		return nil
	}
	id := get(data, "id")
	k := key(id)
	ctx, cancel := context.WithCancel(context.Background())
	s.mu.Lock()
	if k != "" {
		s.running[k] = cancel
	}
	s.mu.Unlock()
	go s.serve(ctx, cancel, typ, id, k, data)
	return nil
}

// serve answers one request. A panic ends the request with an error
// message, never the worker.
func (s *server) serve(ctx context.Context, cancel context.CancelFunc, typ string, id safejs.Value, k string, data safejs.Value) {
	var msg obj
	var transfer []safejs.Value
	defer func() {
		if r := recover(); r != nil {
			msg, transfer = errorMessage(fmt.Errorf("internal error: %v", r)), nil
		}
		cancel()
		s.mu.Lock()
		delete(s.running, k)
		s.mu.Unlock()
		if msg == nil {
			msg = errorMessage(errors.New("no answer"))
		}
		msg["id"] = id
		if err := post(msg, transfer...); err != nil {
			post(obj{"type": "error", "id": id, "code": "internal", "message": err.Error()})
		}
	}()
	var err error
	switch typ {
	case "version":
		msg = obj{"type": "version", "version": version(), "go": runtime.Version()}
	case "rules":
		msg, err = rulesMessage()
	case "validate":
		msg, err = s.validate(ctx, id, k, data)
	case "explore":
		msg, err = s.explore(ctx, id, k, data)
	case "render":
		msg, err = s.render(data)
	default:
		err = inputErrorf("unknown request type %q", typ)
	}
	if err != nil {
		msg = errorMessage(err)
	}
}

// cancel cancels the request with key k, if it is under way.
func (s *server) cancel(k string) {
	s.mu.Lock()
	c := s.running[k]
	s.mu.Unlock()
	if c != nil {
		c()
	}
}

// key makes a map key of a request id: a string or a number.
func key(id safejs.Value) string {
	switch id.Type() {
	case safejs.TypeString:
		s, _ := id.String()
		return "s" + s
	case safejs.TypeNumber:
		f, _ := id.Float()
		return "n" + strconv.FormatFloat(f, 'g', -1, 64)
	}
	return ""
}

// inputError is a request the bridge cannot carry out as given.
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

func inputErrorf(format string, args ...any) error {
	return &inputError{fmt.Sprintf(format, args...)}
}

// errorMessage is the message that ends a failed request.
func errorMessage(err error) obj {
	code := "internal"
	var ie *inputError
	var ne *networkError
	switch {
	case errors.Is(err, context.Canceled):
		code = "cancelled"
	case errors.As(err, &ie):
		code = "input"
	case errors.As(err, &ne):
		code = "network"
	}
	return obj{"type": "error", "code": code, "message": err.Error()}
}

// catalogue is every rule a finding can name, for the views' rule
// documentation.
func catalogue() []*validator.Rule {
	// explorer.Rules includes the dump package's rules.
	return append(validator.Rules(), explorer.Rules()...)
}

// rulesMessage lists the catalogue, so that the page can name and link
// the rule of each finding: as JSON, one string for the page to parse
// rather than an object per rule built through the JS bridge.
func rulesMessage() (obj, error) {
	b, err := json.Marshal(report.RuleInfos(catalogue()))
	if err != nil {
		return nil, err
	}
	return obj{"type": "rules", "json": string(b)}, nil
}

// resultCache keeps the latest results, so that the page can have them
// rendered in another format (render) without checking again.
type resultCache struct {
	mu    sync.Mutex
	max   int
	order []string
	byKey map[string]*report.Result
}

func newResultCache(max int) *resultCache {
	return &resultCache{max: max, byKey: map[string]*report.Result{}}
}

func (c *resultCache) put(k string, r *report.Result) {
	if k == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[k]; !ok {
		c.order = append(c.order, k)
	}
	c.byKey[k] = r
	for len(c.order) > c.max {
		delete(c.byKey, c.order[0])
		c.order = c.order[1:]
	}
}

func (c *resultCache) get(k string) *report.Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byKey[k]
}
