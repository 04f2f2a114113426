package monitor

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/validator"
	"github.com/rscheck/rscheck/validator/xmlscan"
)

// A Delivery is a content distribution request the callback accepted:
// the hub's POST of a notification (CN §4.3).
type Delivery struct {
	Header   http.Header // the request's headers
	Body     []byte      // the payload, as received
	Received time.Time   // when the body had been read
}

// A Change is one entry of a change notification.
type Change struct {
	URL    string `json:"url"`
	Change string `json:"change"` // created, updated or deleted
	// Datetime is the entry's datetime, zero when it has none.
	Datetime time.Time `json:"datetime,omitzero"`
}

// A Notification is a delivery once checked.
type Notification struct {
	// Topic is the channel's topic URI; Seq numbers the deliveries of the
	// channel from 1, in order of receipt.
	Topic string `json:"topic"`
	Seq   int    `json:"seq"`
	// Received is when the delivery was read; Checked when its checks
	// were done.
	Received time.Time `json:"received"`
	Checked  time.Time `json:"checked"`
	// Latency is the time from the end of the period the notification
	// covers (its until, or else its latest datetime) to its receipt: how
	// long the Source and the hub took to tell. It is measured with the
	// Source's clock against the monitor's, and is 0 when the payload
	// gives no time.
	Latency time.Duration `json:"latency"`
	// Capability is the payload's capability; From and Until its period
	// (zero when absent).
	Capability string    `json:"capability,omitempty"`
	From       time.Time `json:"from,omitzero"`
	Until      time.Time `json:"until,omitzero"`
	// Changes are the entries of a change notification.
	Changes []Change `json:"changes,omitempty"`
	// Ignored is set when the delivery was not taken as a notification
	// of the channel (not a notification payload, bad signature); the
	// reason is among the findings.
	Ignored bool `json:"ignored,omitempty"`
	// Report is the payload's validation report with the monitor's
	// findings; its Source is "TOPIC#SEQ (received TIME)".
	Report *validator.Report `json:"report"`
	// Follow is what Options.Follow found, once known.
	Follow *FollowResult `json:"follow,omitempty"`
}

// FollowResult is the comparison of a change notification with the
// Source's Change List (Options.Follow).
type FollowResult struct {
	// Complete is set when every change appeared in the Change List;
	// Delay is then the time from the notification's receipt to the poll
	// that found the last of them.
	Complete bool          `json:"complete"`
	Delay    time.Duration `json:"delay"`
	// Missing are the changes not seen in the Change List when the grace
	// period ended or the monitor stopped.
	Missing []Change `json:"missing,omitempty"`
	// Stopped is set when the monitor stopped before the grace period
	// ended.
	Stopped bool `json:"stopped,omitempty"`
}

// clone returns a copy of n whose report can be read while the monitor
// keeps adding to its own.
func (n *Notification) clone() *Notification {
	c := *n
	c.Report = cloneReport(n.Report)
	if n.Follow != nil {
		f := *n.Follow
		c.Follow = &f
	}
	return &c
}

// cloneReport copies a report's findings and counts.
func cloneReport(r *validator.Report) *validator.Report {
	if r == nil {
		return nil
	}
	c := *r
	c.Findings = append([]validator.Finding(nil), r.Findings...)
	if r.Suppressed != nil {
		c.Suppressed = make(map[string]int, len(r.Suppressed))
		for k, v := range r.Suppressed {
			c.Suppressed[k] = v
		}
	}
	return &c
}

// SourceName is how reports name a delivery: "TOPIC#SEQ (received TIME)".
func SourceName(topic string, seq int, received time.Time) string {
	return fmt.Sprintf("%s#%d (received %s)", topic, seq, received.UTC().Format("2006-01-02T15:04:05.000Z"))
}

// A Checker checks the deliveries of the channels of a Source: each
// payload with validator.Validate (every document rule applies, the
// notification payload rules RN1xx among them), then what only the
// monitor can know: the delivery's headers, the channel the payload came
// on, the periods of the notifications before it and the Source's
// hierarchy. It needs no network and runs on every platform, the browser
// included.
//
// A Checker keeps, per channel, the periods already received; Check is
// safe for concurrent use but the order of calls is the order of receipt.
type Checker struct {
	src   *Source
	vopts validator.Options

	mu   sync.Mutex
	seqs map[string]*sequence // by normalized topic
}

// NewChecker returns a Checker for the channels of src. vopts, nil for
// the defaults, are the options payloads are validated with (schema
// version, extra schemas, finding caps); their Source and Observer are
// the Checker's own.
func NewChecker(src *Source, vopts *validator.Options) *Checker {
	c := &Checker{src: src, seqs: map[string]*sequence{}}
	if src == nil {
		c.src = NewSource("", nil)
	}
	if vopts != nil {
		c.vopts = *vopts
	}
	return c
}

// Check checks delivery seq of channel ch. The error is non-nil only
// when the payload could not be validated at all: ctx ended, or the
// validator options are invalid.
func (c *Checker) Check(ctx context.Context, ch *Channel, seq int, d *Delivery) (*Notification, error) {
	n := &Notification{Topic: ch.Topic, Seq: seq, Received: d.Received}
	opts := c.vopts
	opts.Source = SourceName(ch.Topic, seq, d.Received)
	pl := &payload{}
	opts.Observer = pl
	rep, err := validator.Validate(ctx, bytes.NewReader(d.Body), &opts)
	if err != nil {
		return nil, err
	}
	n.Report = rep
	n.Capability = rep.Capability
	var fs []validator.Finding
	fs = append(fs, deliveryHeaders(ch, d.Header)...)
	if rep.Kind == validator.Unknown || pl.doc == nil || pl.doc.Root.Name.Local != "urlset" {
		n.Ignored = true
		fs = append(fs, RuleDeliveryPayload.Finding(0, 0, "",
			"the delivery's body is not a notification payload (%s); a notification is an XML <urlset> document, and this delivery is ignored", describeBody(rep, pl, d.Body)))
		rep.Add(opts.MaxFindingsPerRule, fs...)
		n.Checked = time.Now()
		return n, nil
	}
	n.From, n.Until = pl.from, pl.until
	if n.Capability == "change-notification" {
		n.Changes = pl.changes
	}
	fs = append(fs, c.checkPayload(ch, pl, n)...)
	if n.Capability == "change-notification" && (ch.Capability == "" || ch.Capability == "change-notification") {
		fs = append(fs, c.checkSequence(ch, pl, n)...)
	}
	rep.Add(opts.MaxFindingsPerRule, fs...)
	switch {
	case !n.Until.IsZero():
		n.Latency = d.Received.Sub(n.Until)
	case !pl.latest.IsZero():
		n.Latency = d.Received.Sub(pl.latest)
	}
	n.Checked = time.Now()
	return n, nil
}

// deliveryHeaders checks the headers of a delivery (CN §4.3): the
// Content-Type and the Link header's self and hub links.
func deliveryHeaders(ch *Channel, h http.Header) []validator.Finding {
	var fs []validator.Finding
	switch ct := h.Get("Content-Type"); {
	case ct == "":
		fs = append(fs, RuleDeliveryContentType.Finding(0, 0, "", "the delivery has no Content-Type; a hub delivers a notification with Content-Type application/xml"))
	case mediaType(ct) != "application/xml":
		fs = append(fs, RuleDeliveryContentType.Finding(0, 0, "", "the delivery's Content-Type is %q; a hub delivers a notification with Content-Type application/xml", clip(ct, 100)))
	}
	links, _ := explorer.ParseLinkHeader(parseURL(ch.Topic), h.Values("Link"))
	self, hub := explorer.LinkTargets(links, "self"), explorer.LinkTargets(links, "hub")
	switch {
	case len(self) == 0:
		fs = append(fs, RuleDeliverySelf.Finding(0, 0, "", "the delivery has no Link rel=\"self\"; a hub's delivery links to the topic URI (%s) with rel=\"self\"", ch.Topic))
	case !anySame(self, ch.Topic):
		fs = append(fs, RuleDeliverySelf.Finding(0, 0, "", "the delivery's Link rel=\"self\" is %s, not the topic subscribed to (%s)", clip(self[0], 200), ch.Topic))
	}
	switch {
	case len(hub) == 0:
		fs = append(fs, RuleDeliveryHub.Finding(0, 0, "", "the delivery has no Link rel=\"hub\"; a hub's delivery links to the hub (%s) with rel=\"hub\"", ch.Hub))
	case ch.Hub != "" && !anySame(hub, ch.Hub):
		fs = append(fs, RuleDeliveryHub.Finding(0, 0, "", "the delivery's Link rel=\"hub\" is %s, not the hub subscribed to (%s)", clip(hub[0], 200), ch.Hub))
	}
	return fs
}

func anySame(list []string, u string) bool {
	for _, v := range list {
		if sameURL(v, u) {
			return true
		}
	}
	return false
}

// describeBody says what a body that is not a notification payload is.
func describeBody(rep *validator.Report, pl *payload, body []byte) string {
	switch {
	case len(bytes.TrimSpace(body)) == 0:
		return "it is empty"
	case pl.doc != nil:
		return fmt.Sprintf("its root element is <%s>", pl.doc.Root.Name.Local)
	case rep.Kind == validator.Unknown:
		return "it is not XML"
	}
	return "it is not a Sitemap"
}

// checkPayload checks what holds between a payload and its channel: the
// capability, the up link and, for framework notifications, index links.
func (c *Checker) checkPayload(ch *Channel, pl *payload, n *Notification) []validator.Finding {
	var fs []validator.Finding
	doc := pl.doc
	md := doc.MD
	if ch.Capability != "" && n.Capability != ch.Capability {
		line, col, path := at(md)
		got := "no capability"
		if n.Capability != "" {
			got = fmt.Sprintf("capability %q", n.Capability)
		}
		fs = append(fs, RuleChannelCapability.Finding(line, col, path,
			"the payload has %s but came on the %s channel %s; change notifications and framework notifications are sent on different channels, each on its own", got, ch.Capability, ch.Topic))
	}
	if ch.CapabilityList != "" {
		for _, up := range doc.LinksRel("up") {
			href := explorer.ResolveReference(ch.Topic, up.Value("href"))
			line, col, path := at(up)
			switch n.Capability {
			case "change-notification":
				if !sameURL(href, ch.CapabilityList) {
					fs = append(fs, RuleChangeUpLink.Finding(line, col, path,
						"rel=\"up\" points to %s; a change notification's up link points to the Capability List that advertises its channel, %s", clip(href, 200), ch.CapabilityList))
				}
			case "framework-notification":
				if !sameURL(href, ch.CapabilityList) && (ch.Description == "" || !sameURL(href, ch.Description)) {
					want := ch.CapabilityList
					if ch.Description != "" {
						want += " (or, for a change to the Capability List, the Source Description " + ch.Description + ")"
					}
					fs = append(fs, RuleFrameworkUpLink.Finding(line, col, path,
						"rel=\"up\" points to %s; a framework notification's up link points to the Capability List of its channel, %s", clip(href, 200), want))
				}
			}
		}
	}
	if n.Capability == "framework-notification" {
		for _, e := range pl.entries {
			idx := c.src.IndexOf(explorer.ResolveReference(ch.Topic, e.loc))
			if idx == "" {
				continue
			}
			switch {
			case len(e.index) == 0:
				fs = append(fs, RuleFrameworkIndexLink.Finding(e.line, e.col, e.path,
					"%s is listed in the index %s, so the notification about it must have <rs:ln rel=\"index\" href=\"%s\"/>", e.loc, idx, idx))
			case !anySameResolved(e.index, ch.Topic, idx):
				fs = append(fs, RuleFrameworkIndexLink.Finding(e.line, e.col, e.path,
					"the rel=\"index\" link of %s points to %s, but the index that lists it is %s", e.loc, clip(e.index[0], 200), idx))
			}
		}
	}
	return fs
}

func anySameResolved(hrefs []string, base, u string) bool {
	for _, h := range hrefs {
		if sameURL(explorer.ResolveReference(base, h), u) {
			return true
		}
	}
	return false
}

// checkSequence checks a change notification's period against those
// received before on its channel (CN §3).
func (c *Checker) checkSequence(ch *Channel, pl *payload, n *Notification) []validator.Finding {
	if pl.fromAttr == nil || pl.untilAttr == nil || n.From.IsZero() || n.Until.IsZero() {
		return nil // RN101 and the time rules report what is missing or malformed
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	key := explorer.NormalizeURL(ch.Topic)
	s := c.seqs[key]
	if s == nil {
		s = &sequence{}
		c.seqs[key] = s
	}
	r := s.add(period{from: n.From, until: n.Until, seq: n.Seq})
	var fs []validator.Finding
	md := pl.doc.MD
	if r.overlap != nil {
		what := "overlaps the period"
		if r.overlap.from.Equal(n.From) && r.overlap.until.Equal(n.Until) {
			what = "is the period" // a repeated delivery, or a repeated notification
		}
		by := fmt.Sprintf("notification #%d", r.overlap.firstSeq)
		if r.overlap.firstSeq != r.overlap.lastSeq {
			by = fmt.Sprintf("notifications #%d to #%d", r.overlap.firstSeq, r.overlap.lastSeq)
		}
		fs = append(fs, RuleNotificationOverlap.Finding(pl.fromAttr.Pos.Line, pl.fromAttr.Pos.Col, md.AttrPath(pl.fromAttr),
			"this notification's period %s–%s %s %s–%s that %s covered; consecutive change notifications cover consecutive, non-overlapping periods",
			fmtTime(n.From), fmtTime(n.Until), what, fmtTime(r.overlap.from), fmtTime(r.overlap.until), by))
		return fs
	}
	if r.reordered != nil {
		fs = append(fs, RuleNotificationReordered.Finding(pl.untilAttr.Pos.Line, pl.untilAttr.Pos.Col, md.AttrPath(pl.untilAttr),
			"this notification (%s–%s) arrived after notification #%d, which covers a later period (from %s)", fmtTime(n.From), fmtTime(n.Until), r.reordered.firstSeq, fmtTime(r.reordered.from)))
	}
	if r.gapAfter != nil {
		fs = append(fs, RuleNotificationGap.Finding(pl.fromAttr.Pos.Line, pl.fromAttr.Pos.Col, md.AttrPath(pl.fromAttr),
			"from=%q but notification #%d ended at %s: no notification was received for %s–%s (%s); consecutive change notifications cover consecutive periods",
			pl.fromAttr.Value, r.gapAfter.lastSeq, fmtTime(r.gapAfter.until), fmtTime(r.gapAfter.until), fmtTime(n.From), n.From.Sub(r.gapAfter.until)))
	}
	return fs
}

func fmtTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.999999999Z07:00") }

// at returns the position and path of an element for a finding; the
// document as a whole when el is nil.
func at(el *validator.Element) (line, col int, path string) {
	if el == nil {
		return 0, 0, ""
	}
	return el.Pos.Line, el.Pos.Col, el.Path()
}

// payload is a validator.Observer that keeps what the monitor's checks
// need of a payload, in the validator's single pass.
type payload struct {
	doc                 *validator.Doc
	fromAttr, untilAttr *xmlscan.Attr
	entries             []entryFacts
	changes             []Change
	latest              time.Time
	from, until         time.Time
}

// entryFacts are the facts of one entry (entries are reused by the
// validator: the observer copies them).
type entryFacts struct {
	loc             string
	line, col       int
	path            string
	index           []string
	change          string
	datetime        time.Time
	hasDatetime     bool
	entryCapability string
}

func (p *payload) Header(d *validator.Doc) {
	p.doc = d
	if d.MD == nil {
		return
	}
	if a := d.MD.Attr("from"); a != nil {
		p.fromAttr = a
		if t, err := validator.ParseDatetime(a.Value); err == nil {
			p.from = t.Time
		}
	}
	if a := d.MD.Attr("until"); a != nil {
		p.untilAttr = a
		if t, err := validator.ParseDatetime(a.Value); err == nil {
			p.until = t.Time
		}
	}
}

func (p *payload) Entry(e *validator.Entry) {
	f := entryFacts{loc: e.LocText(), line: e.Pos.Line, col: e.Pos.Col, path: e.Path()}
	for _, l := range e.LinksRel("index") {
		f.index = append(f.index, l.Value("href"))
	}
	if e.MD != nil {
		f.change = strings.TrimSpace(e.MD.Value("change"))
		f.entryCapability = strings.TrimSpace(e.MD.Value("capability"))
		if a := e.MD.Attr("datetime"); a != nil {
			if t, err := validator.ParseDatetime(a.Value); err == nil {
				f.datetime, f.hasDatetime = t.Time, true
				if t.Time.After(p.latest) {
					p.latest = t.Time
				}
			}
		}
	}
	if f.loc != "" && f.change != "" {
		p.changes = append(p.changes, Change{URL: f.loc, Change: f.change, Datetime: f.datetime})
	}
	p.entries = append(p.entries, f)
}

func (p *payload) End(validator.Stats) {}
