//go:build js && wasm

package main

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/hack-pad/safejs"
)

// obj is a message or a JavaScript object under construction. Its values
// are what safejs.ValueOf accepts: strings, numbers, booleans, nil,
// []any, obj and safejs values.
type obj = map[string]any

// self is the worker's global scope.
var self = safejs.Global()

// post sends msg to the page, transferring the listed ArrayBuffers
// (ownership moves to the page: no copy). The message goes through
// Value.Call, which converts nested safejs values; safejs.ValueOf (v0.1.0)
// does not, and fails on them.
func post(msg obj, transfer ...safejs.Value) error {
	args := []any{msg}
	if len(transfer) > 0 {
		list := make([]any, len(transfer))
		for i, t := range transfer {
			list[i] = t
		}
		args = append(args, list)
	}
	if _, err := self.Call("postMessage", args...); err != nil {
		return fmt.Errorf("postMessage: %w", err)
	}
	return nil
}

// get returns property p of v, or undefined when v is not an object or
// reading the property throws.
func get(v safejs.Value, p string) safejs.Value {
	switch v.Type() {
	case safejs.TypeObject, safejs.TypeFunction:
	default:
		return safejs.Undefined()
	}
	r, err := v.Get(p)
	if err != nil {
		return safejs.Undefined()
	}
	return r
}

// str returns v.p if it is a string, else "".
func str(v safejs.Value, p string) string {
	r := get(v, p)
	if r.Type() != safejs.TypeString {
		return ""
	}
	s, _ := r.String()
	return s
}

// num returns v.p if it is a number, and whether it is.
func num(v safejs.Value, p string) (float64, bool) {
	r := get(v, p)
	if r.Type() != safejs.TypeNumber {
		return 0, false
	}
	f, err := r.Float()
	return f, err == nil && f == f // NaN is not a number here
}

// flag returns whether v.p is true.
func flag(v safejs.Value, p string) bool {
	r := get(v, p)
	if r.Type() != safejs.TypeBoolean {
		return false
	}
	b, _ := r.Bool()
	return b
}

// instanceOf reports whether v is an instance of the global constructor name.
func instanceOf(v safejs.Value, name string) bool {
	if v.Type() != safejs.TypeObject {
		return false
	}
	c := get(self, name)
	if c.Type() != safejs.TypeFunction {
		return false
	}
	ok, err := v.InstanceOf(c)
	return err == nil && ok
}

// await waits for a promise to settle and returns its value, or the
// rejection as an error, or ctx's error if ctx ends first (the promise
// then settles unobserved).
func await(ctx context.Context, promise safejs.Value) (safejs.Value, error) {
	type settled struct {
		v   safejs.Value
		err error
	}
	ch := make(chan settled, 1) // buffered: the callbacks never block
	var then, catch safejs.Func
	release := func() { then.Release(); catch.Release() }
	var err error
	then, err = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		v := safejs.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		ch <- settled{v: v}
		return nil
	})
	if err != nil {
		return safejs.Undefined(), err
	}
	catch, err = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		msg := "promise rejected"
		if len(args) > 0 {
			msg = jsErrorText(args[0])
		}
		ch <- settled{err: errors.New(msg)}
		return nil
	})
	if err != nil {
		then.Release()
		return safejs.Undefined(), err
	}
	if _, err := promise.Call("then", then, catch); err != nil {
		release()
		return safejs.Undefined(), err
	}
	select {
	case s := <-ch:
		release()
		return s.v, s.err
	case <-ctx.Done():
		// The callbacks stay registered until the promise settles; they
		// only write to the buffered channel.
		go func() { <-ch; release() }()
		return safejs.Undefined(), ctx.Err()
	}
}

// jsErrorText describes a thrown JavaScript value ("TypeError: Failed to fetch").
func jsErrorText(v safejs.Value) string {
	if v.Type() == safejs.TypeObject {
		if s, err := v.Call("toString"); err == nil {
			if t, err := s.String(); err == nil {
				return t
			}
		}
	}
	s, err := v.String()
	if err != nil {
		return "unknown JavaScript error"
	}
	return s
}

// bytesOf copies an ArrayBuffer, a typed array or a DataView into Go
// memory.
func bytesOf(v safejs.Value) ([]byte, error) {
	u8 := get(self, "Uint8Array")
	var view safejs.Value
	var err error
	switch {
	case instanceOf(v, "Uint8Array"):
		view = v
	case instanceOf(v, "ArrayBuffer"):
		view, err = u8.New(v)
	default:
		isView, _ := get(self, "ArrayBuffer").Call("isView", v)
		if ok, _ := isView.Bool(); !ok {
			return nil, errors.New("not an ArrayBuffer or a typed array")
		}
		off, _ := num(v, "byteOffset")
		n, _ := num(v, "byteLength")
		view, err = u8.New(get(v, "buffer"), int(off), int(n))
	}
	if err != nil {
		return nil, err
	}
	n, err := view.Length()
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	if _, err := safejs.CopyBytesToGo(b, view); err != nil {
		return nil, err
	}
	return b, nil
}

// arrayBuffer copies b into a new ArrayBuffer, to be transferred.
func arrayBuffer(b []byte) (safejs.Value, error) {
	view, err := get(self, "Uint8Array").New(len(b))
	if err != nil {
		return safejs.Undefined(), err
	}
	if _, err := safejs.CopyBytesToJS(view, b); err != nil {
		return safejs.Undefined(), err
	}
	return get(view, "buffer"), nil
}

// version is the version of rscheck this module was built from.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
