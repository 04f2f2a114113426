package monitor

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/validator"
)

// A follower compares change notifications with the Source's Change
// List (Options.Follow): it polls the Change List of each channel with
// pending notifications every FollowInterval, until all their changes
// appear or FollowGrace has passed.
type follower struct {
	m     *Monitor
	fetch explorer.Fetcher

	mu      sync.Mutex
	pending map[*Channel][]*followed
}

// followed is a notification whose changes are awaited. The follower
// keeps its own result: the Notification, which the Monitor's reports
// share, is written under the Monitor's lock once settled.
type followed struct {
	n        *Notification
	deadline time.Time
	result   *FollowResult
}

func newFollower(m *Monitor) *follower {
	f := m.o.Fetcher
	if f == nil {
		f = explorer.DefaultFetcher("")
	}
	// A fresh GET every time: no memo, unlike the exploration's fetcher.
	f = explorer.Timeout(explorer.LimitBytes(explorer.FollowRedirects(f, explorer.DefaultMaxRedirects), explorer.DefaultMaxDocumentBytes), explorer.DefaultTimeout)
	return &follower{m: m, fetch: f, pending: map[*Channel][]*followed{}}
}

// add awaits the changes of n in ch's Change List.
func (f *follower) add(ch *Channel, n *Notification) {
	f.mu.Lock()
	f.pending[ch] = append(f.pending[ch], &followed{n: n, deadline: n.Received.Add(f.m.o.FollowGrace)})
	f.mu.Unlock()
}

// run polls until ctx ends, then polls once more and settles what is
// still pending as unfinished.
func (f *follower) run(ctx context.Context) {
	t := time.NewTicker(f.m.o.FollowInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			f.poll(ctx, false)
		case <-ctx.Done():
			f.poll(context.Background(), true)
			return
		}
	}
}

// poll fetches the Change List of every channel with pending
// notifications and settles those whose changes all appeared, or whose
// grace period is over (or, with final, all of them).
func (f *follower) poll(ctx context.Context, final bool) {
	f.mu.Lock()
	chans := make([]*Channel, 0, len(f.pending))
	for ch, list := range f.pending {
		if len(list) > 0 {
			chans = append(chans, ch)
		}
	}
	f.mu.Unlock()
	for _, ch := range chans {
		pctx, cancel := ctx, context.CancelFunc(func() {})
		if final {
			// The last poll must not keep a stopping monitor waiting long.
			pctx, cancel = context.WithTimeout(ctx, 5*time.Second)
		}
		seen, err := f.changeList(pctx, ch.ChangeList)
		cancel()
		now := time.Now()
		f.mu.Lock()
		list := f.pending[ch]
		var keep []*followed
		var done []*followed
		for _, p := range list {
			if err == nil {
				p.result = match(p.n, seen)
			}
			switch {
			case p.result != nil && p.result.Complete:
				p.result.Delay = now.Sub(p.n.Received)
				done = append(done, p)
			case final || now.After(p.deadline):
				if p.result == nil {
					p.result = &FollowResult{Missing: p.n.Changes}
				}
				p.result.Stopped = final && !now.After(p.deadline)
				done = append(done, p)
			default:
				keep = append(keep, p)
			}
		}
		f.pending[ch] = keep
		f.mu.Unlock()
		for _, p := range done {
			f.settle(ch, p, err)
		}
	}
}

// settle reports what following a notification found.
func (f *follower) settle(ch *Channel, p *followed, pollErr error) {
	n, r := p.n, p.result
	var fd validator.Finding
	switch {
	case r.Complete:
		fd = RuleChangeListDelay.Finding(0, 0, "", "the %d change(s) of this notification appeared in the Change List %s %s after it was received", len(n.Changes), ch.ChangeList, r.Delay.Round(time.Millisecond))
	case r.Stopped:
		fd = RuleChangeListDelay.Finding(0, 0, "", "%d of the %d change(s) of this notification were not yet in the Change List %s when the monitor stopped, %s after it was received (the grace period is %s)",
			len(r.Missing), len(n.Changes), ch.ChangeList, time.Since(n.Received).Round(time.Millisecond), f.m.o.FollowGrace)
	default:
		why := ""
		if pollErr != nil {
			why = fmt.Sprintf(" (the last poll failed: %v)", pollErr)
		}
		fd = RuleChangeListFollows.Finding(0, 0, "", "%d of the %d change(s) of this notification never appeared in the Change List %s within %s%s: %s",
			len(r.Missing), len(n.Changes), ch.ChangeList, f.m.o.FollowGrace, why, describeChanges(r.Missing, 5))
	}
	f.m.mu.Lock()
	n.Follow = r
	n.Report.Add(-1, fd)
	ev := Event{Kind: EventFollowed, Topic: ch.Topic, Hub: ch.Hub, Notification: n.clone(), Findings: []validator.Finding{fd}}
	f.m.mu.Unlock()
	f.m.emit(ev)
}

func describeChanges(cs []Change, max int) string {
	var parts []string
	for i, c := range cs {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(cs)-max))
			break
		}
		s := c.Change + " " + c.URL
		if !c.Datetime.IsZero() {
			s += " at " + fmtTime(c.Datetime)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// match compares a notification's changes with what a Change List holds.
func match(n *Notification, seen map[string]bool) *FollowResult {
	r := &FollowResult{}
	for _, c := range n.Changes {
		if !seen[changeKey(c, !c.Datetime.IsZero())] {
			r.Missing = append(r.Missing, c)
		}
	}
	r.Complete = len(r.Missing) == 0
	return r
}

// changeKey identifies a change: its resource, its type and, when
// withTime, its datetime.
func changeKey(c Change, withTime bool) string {
	k := explorer.NormalizeURL(c.URL) + " " + c.Change
	if withTime {
		k += " " + c.Datetime.UTC().Format(time.RFC3339Nano)
	}
	return k
}

// changeList reads the changes a Change List holds, keyed by changeKey
// with and without time. For a Change List Index it reads the open
// Change List: the last part without until.
func (f *follower) changeList(ctx context.Context, u string) (map[string]bool, error) {
	doc, entries, err := f.read(ctx, u)
	if err != nil {
		return nil, err
	}
	if doc.IsIndex {
		open := ""
		for _, e := range entries {
			if !e.closed {
				open = e.loc
			}
		}
		if open == "" && len(entries) > 0 {
			open = entries[len(entries)-1].loc
		}
		if open == "" {
			return nil, fmt.Errorf("the Change List Index %s lists no Change List", u)
		}
		if doc, entries, err = f.read(ctx, explorer.ResolveReference(u, open)); err != nil {
			return nil, err
		}
		if doc.IsIndex {
			return nil, fmt.Errorf("%s, a part of the Change List Index %s, is an index", open, u)
		}
	}
	seen := make(map[string]bool, 2*len(entries))
	for _, e := range entries {
		c := Change{URL: explorer.ResolveReference(u, e.loc), Change: e.change, Datetime: e.datetime}
		seen[changeKey(c, false)] = true
		if !e.datetime.IsZero() {
			seen[changeKey(c, true)] = true
		}
	}
	return seen, nil
}

// clEntry is what the follower keeps of a Change List entry.
type clEntry struct {
	loc, change string
	datetime    time.Time
	closed      bool // an index entry with until
}

// clObserver collects the entries of a Change List or its index.
type clObserver struct {
	doc     *validator.Doc
	entries []clEntry
}

func (o *clObserver) Header(d *validator.Doc) { o.doc = d }
func (o *clObserver) End(validator.Stats)     {}
func (o *clObserver) Entry(e *validator.Entry) {
	c := clEntry{loc: e.LocText()}
	if e.MD != nil {
		c.change = strings.TrimSpace(e.MD.Value("change"))
		c.closed = e.MD.Has("until")
		if d, err := validator.ParseDatetime(e.MD.Value("datetime")); err == nil {
			c.datetime = d.Time
		}
	}
	o.entries = append(o.entries, c)
}

// read fetches a document and collects its entries in one pass of the
// validator with no rules: the payload is not validated here (the
// exploration did), only read.
func (f *follower) read(ctx context.Context, u string) (*validator.Doc, []clEntry, error) {
	if _, err := url.Parse(u); err != nil {
		return nil, nil, err
	}
	resp, err := f.fetch.Fetch(ctx, &explorer.Request{URL: u})
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, nil, fmt.Errorf("%s answered %d", u, resp.StatusCode)
	}
	o := &clObserver{}
	if _, err := validator.Validate(ctx, resp.Body, &validator.Options{NoSchema: true, SchemaOnly: true, Observer: o}); err != nil {
		return nil, nil, err
	}
	if o.doc == nil {
		return nil, nil, fmt.Errorf("%s is not a Change List", u)
	}
	return o.doc, o.entries, nil
}
