package monitor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/validator"
)

// A Channel is a notification channel to monitor: a WebSub topic and the
// hub that relays it (CN §4, FN §4).
type Channel struct {
	// Topic is the topic URI subscribed to (hub.topic); Hub the hub URI
	// the subscription is sent to.
	Topic string `json:"topic"`
	Hub   string `json:"hub"`
	// Capability is "change-notification" or "framework-notification",
	// as the Capability List advertises the channel; "" for a topic that
	// no Capability List advertises.
	Capability string `json:"capability,omitempty"`
	// CapabilityList is the Capability List that advertises the channel,
	// Description the Source Description above it ("" when unknown).
	CapabilityList string `json:"capabilityList,omitempty"`
	Description    string `json:"description,omitempty"`
	// ChangeList is the Change List (or Change List Index) the
	// Capability List lists, which Options.Follow polls; "" when none.
	ChangeList string `json:"changeList,omitempty"`
	// Findings are what discovery found wrong with the channel: its topic
	// URI's answer (the explorer's RX120, RX121), a missing hub (RN106),
	// a topic no Capability List advertises (RM106).
	Findings []validator.Finding `json:"findings,omitempty"`
}

// A Source is what discovery found: the channels to monitor and what the
// checks need to know of the Source's hierarchy.
type Source struct {
	// Start is the URL discovery started from.
	Start string `json:"start"`
	// Channels are the channels to monitor. A caller may remove some
	// before Monitor.Run.
	Channels []*Channel `json:"channels"`
	// Exploration is the exploration of the Source, nil when there was
	// none (NewSource without one).
	Exploration *explorer.Result `json:"-"`

	// under maps the normalized URL of every document listed in an index
	// to that index's URL.
	under map[string]string
}

// ErrNoChannel is returned by Discover when neither the exploration nor
// the start URL's Link headers give a channel to subscribe to.
var ErrNoChannel = errors.New("no notification channel found")

// DefaultExplorerOptions are the exploration limits Discover uses when
// given none: deep enough for the parts of indexes (depth 3 below the
// Source Description), without reading dump packages, which the checks
// of notifications do not need.
func DefaultExplorerOptions() *explorer.Options {
	return &explorer.Options{MaxDepth: 3, MaxPackageBytes: 1 << 20, MaxDuration: 5 * time.Minute}
}

// Discover finds the channels to monitor from start, which is either a
// topic URI or any URL the explorer starts from (a site, a Source
// Description, a Capability List, …).
//
// The start URL is first asked, as a WebSub subscriber does (WebSub §4),
// for Link headers with rel="hub" and rel="self". Then the Source is
// explored (explorer.Explore with opts, DefaultExplorerOptions when nil):
// every change-notification and framework-notification entry of its
// Capability Lists is a channel, with the explorer's checks of its topic
// URI (RX120, RX121) as findings, and the hierarchy tells which documents
// are listed in an index (RM116). When start has a hub and is one of
// these channels, or answers as a topic does (application/xml or no
// content, CN §4.1), it is a topic and the Source holds that one channel;
// a topic that no Capability List advertises is monitored all the same,
// with an RM106 finding. Otherwise the Source holds every channel found.
//
// The error is ErrNoChannel, with the Source as explored, when there is
// nothing to subscribe to; or the explorer's when it could not start or
// ctx ended.
func Discover(ctx context.Context, start string, opts *explorer.Options) (*Source, error) {
	if opts == nil {
		opts = DefaultExplorerOptions()
	}
	topic := probeTopic(ctx, start, opts)
	res, err := explorer.Explore(ctx, start, opts)
	if res == nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	src := NewSource(start, res)
	// A page may have a hub of its own (a blog's WebSub feed, say): start
	// is taken for a topic when it answers as a notification topic does
	// (application/xml or no content, CN §4.1) or nothing else is there
	// to monitor.
	if topic.hub != "" && !topic.xmlOrEmpty && len(src.Channels) > 0 && !anyTopic(src.Channels, start, topic.self) {
		topic.hub = ""
	}
	if topic.hub == "" {
		if len(src.Channels) == 0 {
			return src, fmt.Errorf("%w: %s is not a topic URI (its answer has no Link rel=\"hub\") and the Source's Capability Lists advertise no change-notification or framework-notification channel", ErrNoChannel, start)
		}
		return src, nil
	}
	// A topic: keep its channel only.
	self := topic.self
	if self == "" {
		self = start
	}
	for _, ch := range src.Channels {
		if anyTopic([]*Channel{ch}, start, self) {
			if ch.Hub == "" {
				ch.Hub = topic.hub
			}
			src.Channels = []*Channel{ch}
			return src, nil
		}
	}
	ch := &Channel{Topic: self, Hub: topic.hub}
	ch.Findings = append(ch.Findings, RuleChannelAdvertised.Finding(0, 0, "",
		"no Capability List of the Source found from %s advertises the topic %s; a channel is advertised by a change-notification or framework-notification entry, with its hub, in the Capability List of its set of resources", start, self))
	if topic.self == "" {
		ch.Findings = append(ch.Findings, explorer.RuleTopicLinks.Finding(0, 0, "",
			"the Link header of %s has no rel=\"self\" link giving the topic URI; the topic URI's response must link to itself (self) and to its hub (hub)", start))
	}
	src.Channels = []*Channel{ch}
	return src, nil
}

// NewSource makes a Source from an exploration made elsewhere: its
// channels are those res lists, and the hierarchy tells which documents
// are listed in an index. start names the start URL; res may be nil, for
// a Source whose channels the caller lists itself.
func NewSource(start string, res *explorer.Result) *Source {
	src := &Source{Start: start, Exploration: res, under: map[string]string{}}
	if res == nil {
		return src
	}
	byURL := map[string]*explorer.Document{}
	for _, d := range res.Documents {
		byURL[explorer.NormalizeURL(d.URL)] = d
		if d.Parent != nil && d.Parent.Kind.IsIndex() {
			src.under[explorer.NormalizeURL(d.URL)] = d.Parent.URL
		}
	}
	for _, c := range res.Channels {
		ch := &Channel{Topic: c.Topic, Hub: c.Hub, Capability: c.Capability, CapabilityList: c.CapabilityList}
		if cl := byURL[explorer.NormalizeURL(c.CapabilityList)]; cl != nil {
			if cl.Parent != nil && cl.Parent.Kind == validator.Description {
				ch.Description = cl.Parent.URL
			}
			for _, child := range cl.Children {
				if child.Kind == validator.ChangeList || child.Kind == validator.ChangeListIndex {
					ch.ChangeList = child.URL
					break
				}
			}
			ch.Findings = channelFindings(cl, c.Topic)
		}
		src.Channels = append(src.Channels, ch)
	}
	return src
}

// IndexOf returns the URL of the index that lists the document at u, or
// "" when the exploration saw it in no index.
func (s *Source) IndexOf(u string) string { return s.under[explorer.NormalizeURL(u)] }

// channelFindings picks, from the report of the Capability List that
// advertises a channel, the findings about the channel: the explorer's
// checks of the topic URI and a missing hub. Their messages name the
// topic; the explorer has no other key for them.
func channelFindings(cl *explorer.Document, topic string) []validator.Finding {
	if cl.Report == nil {
		return nil
	}
	var fs []validator.Finding
	for _, f := range cl.Report.Findings {
		switch f.Rule {
		case explorer.RuleTopicResponse.ID, explorer.RuleTopicLinks.ID, "RN106":
			if strings.Contains(f.Message, topic+" ") {
				fs = append(fs, f)
			}
		}
	}
	return fs
}

// anyTopic reports whether one of the channels has one of the URLs
// (empty ones aside) for topic.
func anyTopic(chs []*Channel, urls ...string) bool {
	for _, ch := range chs {
		for _, u := range urls {
			if u != "" && sameURL(ch.Topic, u) {
				return true
			}
		}
	}
	return false
}

// topicLinks is what a topic URI's answer says: its Link headers, and
// whether it answers as a notification topic does (CN §4.1).
type topicLinks struct {
	self, hub  string
	xmlOrEmpty bool
}

// probeTopic asks start for its Link headers, HEAD first and GET when
// HEAD does not give a hub (some servers answer HEAD badly), as a WebSub
// subscriber discovers a topic's hub and canonical URL (WebSub §4).
// Failures mean "not a topic": the exploration reports them.
func probeTopic(ctx context.Context, start string, opts *explorer.Options) topicLinks {
	f := opts.Fetcher
	if f == nil {
		f = explorer.DefaultFetcher(opts.UserAgent)
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = explorer.DefaultTimeout
	}
	f = explorer.Timeout(explorer.LimitBytes(explorer.FollowRedirects(f, explorer.DefaultMaxRedirects), 1<<20), timeout)
	var tl topicLinks
	for _, method := range []string{"HEAD", "GET"} {
		resp, err := f.Fetch(ctx, &explorer.Request{Method: method, URL: start})
		if err != nil {
			continue
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if mediaType(resp.Header.Get("Content-Type")) == "application/xml" || (method == "GET" && n == 0) || resp.Header.Get("Content-Length") == "0" {
			tl.xmlOrEmpty = true
		}
		links, _ := explorer.ParseLinkHeader(parseURL(resp.URL), resp.Header.Values("Link"))
		for _, l := range links {
			if l.HasRel("self") && tl.self == "" {
				tl.self = l.Target
			}
			if l.HasRel("hub") && tl.hub == "" {
				tl.hub = l.Target
			}
		}
		if tl.hub != "" {
			break
		}
	}
	return tl
}
