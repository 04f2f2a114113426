package explorer

import (
	"context"
	"sync"
)

// pool runs tasks on a fixed number of goroutines. Tasks may add tasks;
// wait returns once every task added has run. The queue is a slice, so
// that a Source listing thousands of documents costs a closure each, not
// a goroutine each. Once ctx is done, queued tasks still run, but each
// sees ctx done and returns at once, so wait returns promptly.
type pool struct {
	ctx     context.Context
	mu      sync.Mutex
	cond    *sync.Cond
	queue   []func()
	pending int // tasks added and not finished
	closed  bool
	wg      sync.WaitGroup
}

func newPool(ctx context.Context, workers int) *pool {
	p := &pool{ctx: ctx}
	p.cond = sync.NewCond(&p.mu)
	p.wg.Add(workers)
	for range workers {
		go p.worker()
	}
	return p
}

func (p *pool) worker() {
	defer p.wg.Done()
	p.mu.Lock()
	for {
		for len(p.queue) == 0 && !p.closed {
			p.cond.Wait()
		}
		if len(p.queue) == 0 {
			p.mu.Unlock()
			return
		}
		t := p.queue[0]
		p.queue[0] = nil
		p.queue = p.queue[1:]
		p.mu.Unlock()
		t()
		p.mu.Lock()
		p.pending--
		if p.pending == 0 {
			p.cond.Broadcast()
		}
	}
}

// add queues a task.
func (p *pool) add(t func()) {
	p.mu.Lock()
	p.pending++
	p.queue = append(p.queue, t)
	p.mu.Unlock()
	p.cond.Broadcast() // one cond serves workers and wait: wake them all
}

// wait blocks until every task added has run.
func (p *pool) wait() {
	p.mu.Lock()
	for p.pending > 0 {
		p.cond.Wait()
	}
	p.mu.Unlock()
}

// close stops the workers once the queue is empty and waits for them.
func (p *pool) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.cond.Broadcast()
	p.wg.Wait()
}
