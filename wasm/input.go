//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/hack-pad/safejs"
)

// An input is one document the page gave to validate: text or bytes,
// copied into Go memory, or a Blob (a File), which is streamed and read
// again when needed rather than copied whole.
type input struct {
	name string
	data []byte       // text, ArrayBuffer or typed array
	blob safejs.Value // a Blob, when data is nil
	size int64
}

// readInput converts one input value: a string, an ArrayBuffer, a typed
// array or a Blob.
func readInput(v safejs.Value, name string) (*input, error) {
	switch {
	case v.Type() == safejs.TypeString:
		s, err := v.String()
		if err != nil {
			return nil, err
		}
		return &input{name: name, data: []byte(s), size: int64(len(s))}, nil
	case instanceOf(v, "Blob"):
		size, _ := num(v, "size")
		if name == "" {
			name = str(v, "name")
		}
		return &input{name: name, blob: v, size: int64(size)}, nil
	default:
		b, err := bytesOf(v)
		if err != nil {
			return nil, inputErrorf("input %q: want a string, an ArrayBuffer, a typed array or a Blob", name)
		}
		return &input{name: name, data: b, size: int64(len(b))}, nil
	}
}

// open returns a reader of the whole input.
func (in *input) open(ctx context.Context) (io.ReadCloser, error) {
	if in.data != nil || in.blob.IsUndefined() {
		return io.NopCloser(bytes.NewReader(in.data)), nil
	}
	return &blobReader{ctx: ctx, blob: in.blob, size: in.size}, nil
}

// head returns up to n bytes from the start of the input.
func (in *input) head(ctx context.Context, n int) ([]byte, error) {
	if in.data != nil || in.blob.IsUndefined() {
		return in.data[:min(n, len(in.data))], nil
	}
	b := make([]byte, min(int64(n), in.size))
	k, err := in.readerAt(ctx).ReadAt(b, 0)
	if err == io.EOF {
		err = nil
	}
	return b[:k], err
}

// readerAt returns random access to the input, for ZIP packages.
func (in *input) readerAt(ctx context.Context) io.ReaderAt {
	if in.data != nil || in.blob.IsUndefined() {
		return bytes.NewReader(in.data)
	}
	return &blobReaderAt{ctx: ctx, blob: in.blob, size: in.size, cache: map[int64][]byte{}}
}

// blobChunk is how much a blobReader asks of the Blob at a time. Every
// read is a promise the Go side awaits, a round trip through the event
// loop: Blob.stream()'s chunks of about 64 KiB made two hundred of them for
// a 13 MB document, several times the cost of reading it. Larger slices
// keep that small and memory bounded.
const blobChunk = 4 << 20

// blobReader reads a Blob from start to end, a slice at a time.
type blobReader struct {
	ctx  context.Context
	blob safejs.Value
	size int64
	off  int64
	buf  []byte // unread part of the last slice
}

func (r *blobReader) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		if r.off >= r.size {
			return 0, io.EOF
		}
		end := min(r.off+blobChunk, r.size)
		b, err := readBlob(r.ctx, r.blob, r.off, end)
		if err != nil {
			return 0, err
		}
		r.off, r.buf = end, b
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

func (r *blobReader) Close() error { return nil }

// readBlob returns the bytes [start, end) of a Blob.
func readBlob(ctx context.Context, blob safejs.Value, start, end int64) ([]byte, error) {
	part, err := blob.Call("slice", float64(start), float64(end))
	if err != nil {
		return nil, err
	}
	promise, err := part.Call("arrayBuffer")
	if err != nil {
		return nil, err
	}
	buf, err := await(ctx, promise)
	if err != nil {
		return nil, err
	}
	return bytesOf(buf)
}

// blobBlock is the unit in which a blobReaderAt reads: ZIP reading makes
// many small reads, and each read of a Blob is a promise.
const blobBlock = 1 << 20

// blobReaderAt reads a Blob at random through Blob.slice, a block at a
// time, keeping the last few blocks.
type blobReaderAt struct {
	ctx   context.Context
	blob  safejs.Value
	size  int64
	mu    sync.Mutex
	cache map[int64][]byte
	order []int64
}

func (r *blobReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	n := 0
	for n < len(p) {
		if off >= r.size {
			return n, io.EOF
		}
		b, err := r.block(off / blobBlock)
		if err != nil {
			return n, err
		}
		k := copy(p[n:], b[off%blobBlock:])
		n += k
		off += int64(k)
	}
	return n, nil
}

func (r *blobReaderAt) block(i int64) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if b, ok := r.cache[i]; ok {
		return b, nil
	}
	b, err := readBlob(r.ctx, r.blob, i*blobBlock, min((i+1)*blobBlock, r.size))
	if err != nil {
		return nil, fmt.Errorf("reading the file: %w", err)
	}
	if len(r.order) >= 4 {
		delete(r.cache, r.order[0])
		r.order = r.order[1:]
	}
	r.cache[i] = b
	r.order = append(r.order, i)
	return b, nil
}

// yieldEvery is how much a progressReader reads between two pauses, and
// yieldPause how long a pause is: 4 ms is the browsers' clamp of nested
// timers; with 1 ms, Chromium runs the timer before a message already
// queued (measured: a cancel then waits for the end of the document).
// Every 4 MiB: a Stop is honoured within a few tenths of a second.
const (
	yieldEvery = 4 << 20
	yieldPause = 4 * time.Millisecond
)

// progressReader reports how much of an input was read and, every
// yieldEvery bytes, pauses briefly: Go's WebAssembly runtime gives the
// event loop a turn only when every goroutine waits, and without these
// pauses a long validation of bytes already in memory would hold back
// the page's cancel message until its end.
type progressReader struct {
	ctx      context.Context
	r        io.Reader
	n, since int64
	report   func(n int64)
}

func (p *progressReader) Read(b []byte) (int, error) {
	if err := p.ctx.Err(); err != nil {
		return 0, err
	}
	if p.since >= yieldEvery {
		p.since = 0
		p.report(p.n)
		time.Sleep(yieldPause)
		if err := p.ctx.Err(); err != nil {
			return 0, err
		}
	}
	n, err := p.r.Read(b)
	p.n += int64(n)
	p.since += int64(n)
	return n, err
}
