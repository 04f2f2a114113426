//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hack-pad/safejs"
	"github.com/rscheck/rscheck/explorer/dump"
	"github.com/rscheck/rscheck/validator"
	"github.com/rscheck/rscheck/validator/report"
)

// maxInputs bounds the documents of one validate request.
const maxInputs = 1000

// validate answers a validate request: each input is validated (a ZIP is
// checked as a dump package) and the reports make one result, as
// "rscheck validate --format json" gives it.
func (s *server) validate(ctx context.Context, id safejs.Value, k string, data safejs.Value) (obj, error) {
	opts, err := validatorOptions(get(data, "options"))
	if err != nil {
		return nil, err
	}
	ins, err := inputs(data)
	if err != nil {
		return nil, err
	}
	var total int64
	for _, in := range ins {
		total += in.size
	}
	prog := newThrottle(func(p obj) { post(obj{"type": "progress", "id": id, "progress": p}) })
	defer prog.stop()
	var done int64

	reps := make([]*validator.Report, len(ins))
	meta := make([]any, len(ins))
	pkgs := make([]bool, len(ins))
	for i, in := range ins {
		head, err := in.head(ctx, 4)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.name, err)
		}
		pkg := bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06"))
		pkgs[i] = pkg
		if pkg {
			res, err := dump.Check(ctx, in.readerAt(ctx), in.size, &dump.Options{Name: in.name, Validator: opts})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", in.name, err)
			}
			reps[i] = res.Report
		} else {
			src, err := in.open(ctx)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", in.name, err)
			}
			base := done
			pr := &progressReader{ctx: ctx, r: src, report: func(n int64) {
				prog.update(obj{"phase": "validate", "document": i + 1, "documents": len(ins),
					"bytes": float64(base + n), "total": float64(total), "name": in.name})
			}}
			reps[i], err = validator.Validate(ctx, pr, opts)
			src.Close()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", in.name, err)
			}
		}
		done += in.size
		reps[i].Source = in.name
		meta[i] = obj{"name": in.name, "size": float64(in.size), "package": pkg}
	}

	res := report.NewResult(reps)
	res.Version = version()
	for i, in := range ins {
		if len(reps[i].Findings) == 0 || pkgs[i] {
			continue
		}
		// Excerpts make the HTML report readable offline. They are a
		// convenience: a source that cannot be read again goes without.
		if src, err := in.open(ctx); err == nil {
			_ = res.AddExcerpts(i, src)
			src.Close()
		}
	}
	s.results.put(k, res)

	msg, err := resultMessage(res, data)
	if err != nil {
		return nil, err
	}
	msg["documents"] = meta
	return msg, nil
}

// resultMessage is the reply to a check: the result as JSON, and as the
// HTML report too when the request asks for it ("html": true).
func resultMessage(res *report.Result, data safejs.Value) (obj, error) {
	var js strings.Builder
	if err := report.WriteJSON(&js, res, report.Options{}); err != nil {
		return nil, err
	}
	msg := obj{"type": "result", "json": js.String()}
	if flag(data, "html") {
		var html strings.Builder
		if err := report.WriteHTML(&html, res, report.Options{Rules: catalogue()}); err != nil {
			return nil, err
		}
		msg["html"] = html.String()
	}
	return msg, nil
}

// inputs reads the documents of a validate request: inputs, a list of
// {input, name}, or one input and its name.
func inputs(data safejs.Value) ([]*input, error) {
	list := get(data, "inputs")
	if list.IsUndefined() || list.IsNull() {
		in, err := readInput(get(data, "input"), nameOr(str(data, "name"), 1))
		if err != nil {
			return nil, err
		}
		return []*input{in}, nil
	}
	n, err := list.Length()
	if err != nil {
		return nil, inputErrorf("inputs: want an array")
	}
	if n == 0 || n > maxInputs {
		return nil, inputErrorf("inputs: want 1 to %d documents, have %d", maxInputs, n)
	}
	ins := make([]*input, n)
	for i := range n {
		item, err := list.Index(i)
		if err != nil {
			return nil, err
		}
		if ins[i], err = readInput(get(item, "input"), nameOr(str(item, "name"), i+1)); err != nil {
			return nil, err
		}
		if ins[i].name == "" {
			ins[i].name = nameOr("", i+1)
		}
	}
	return ins, nil
}

func nameOr(name string, i int) string {
	if name != "" {
		return name
	}
	return fmt.Sprintf("document %d", i)
}

// validatorOptions reads the options of a validate or explore request:
// rsVersion, schemas ([{name, text}]), schemaOnly and maxPerRule (absent:
// the default cap; 0: no cap, as rscheck --max-per-rule 0).
func validatorOptions(o safejs.Value) (*validator.Options, error) {
	opts := &validator.Options{RSVersion: validator.DefaultRSVersion}
	if v := str(o, "rsVersion"); v != "" {
		switch v {
		case "1.1", "1.0", "0.9.1":
			opts.RSVersion = v
		default:
			return nil, inputErrorf("unknown ResourceSync version %q (want 1.1, 1.0 or 0.9.1)", v)
		}
	}
	opts.SchemaOnly = flag(o, "schemaOnly")
	if n, ok := num(o, "maxPerRule"); ok {
		switch {
		case n < 0:
			return nil, inputErrorf("maxPerRule must not be negative")
		case n == 0:
			opts.MaxFindingsPerRule = -1
		default:
			opts.MaxFindingsPerRule = int(n)
		}
	}
	schemas := get(o, "schemas")
	if !schemas.IsUndefined() && !schemas.IsNull() {
		n, err := schemas.Length()
		if err != nil {
			return nil, inputErrorf("schemas: want an array of {name, text}")
		}
		for i := range n {
			sc, err := schemas.Index(i)
			if err != nil {
				return nil, err
			}
			name := nameOr(str(sc, "name"), i+1)
			in, err := readInput(get(sc, "text"), name)
			if err != nil || in.data == nil {
				return nil, inputErrorf("schema %q: want its text", name)
			}
			opts.ExtraSchemas = append(opts.ExtraSchemas, validator.SchemaFile{Location: name, Data: in.data})
		}
	}
	return opts, nil
}

// progressInterval spaces progress messages: about ten a second is as
// fast as a person reads, and a message per document or resource would
// flood the page on a large crawl.
const progressInterval = 100 * time.Millisecond

// throttle sends the latest of a stream of updates at most once per
// progressInterval.
type throttle struct {
	mu      sync.Mutex
	send    func(obj)
	last    time.Time
	pending obj
	timer   *time.Timer
	stopped bool
}

func newThrottle(send func(obj)) *throttle { return &throttle{send: send} }

// update records the latest state and sends it now or at the next slot.
func (t *throttle) update(p obj) {
	t.mu.Lock()
	if t.stopped {
		t.mu.Unlock()
		return
	}
	if wait := progressInterval - time.Since(t.last); wait > 0 {
		t.pending = p
		if t.timer == nil {
			t.timer = time.AfterFunc(wait, t.flush)
		}
		t.mu.Unlock()
		return
	}
	t.last = time.Now()
	t.mu.Unlock()
	t.send(p) // postMessage does not block
}

func (t *throttle) flush() {
	t.mu.Lock()
	p := t.pending
	t.pending, t.timer, t.last = nil, nil, time.Now()
	stopped := t.stopped
	t.mu.Unlock()
	if p != nil && !stopped {
		t.send(p)
	}
}

// stop drops any pending update: the result follows.
func (t *throttle) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped = true
	if t.timer != nil {
		t.timer.Stop()
	}
}
