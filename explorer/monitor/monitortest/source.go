package monitortest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// SourceOptions choose how a Source behaves.
type SourceOptions struct {
	// ChangeListDelay delays the appearance of published changes in the
	// Change List, to measure what Follow reports.
	ChangeListDelay time.Duration
	// NoHubInCapabilityList advertises the channels without their hub.
	NoHubInCapabilityList bool
}

// A Source is a fixture ResourceSync Source that publishes notifications
// through a Hub.
type Source struct {
	*httptest.Server
	// Base is the server's URL, without a trailing slash.
	Base string
	// Entry points and documents.
	WellKnown, CapabilityList, ChangeList, ResourceListIndex string
	// ResourceLists are the parts of the Resource List Index.
	ResourceLists []string
	// ChangeTopic and FrameworkTopic are the topic URIs of the channels.
	ChangeTopic, FrameworkTopic string
	// Hub is the hub the channels use.
	Hub *Hub

	o      SourceOptions
	start  time.Time
	client *http.Client

	pubMu     sync.Mutex // one publication at a time, in order
	lastUntil time.Time
	nextRes   int

	mu      sync.Mutex
	changes []clChange // the Change List's entries
	docs    map[string]string
}

// clChange is an entry of the Change List.
type clChange struct {
	loc, change string
	datetime    time.Time
	visible     time.Time
}

// A Publication is one notification a Source published.
type Publication struct {
	Topic   string
	Defect  Defect
	Payload []byte
	// Published is when the Source sent it to the hub.
	Published time.Time
	// From and Until are the period of a change notification.
	From, Until time.Time
	// Changes are the resources it is about.
	Changes []string
}

// NewSource starts a Source publishing through hub; it is closed when the
// test ends.
func NewSource(t testing.TB, hub *Hub, opts *SourceOptions) *Source {
	t.Helper()
	s := StartSource(hub, opts)
	t.Cleanup(s.Close)
	return s
}

// StartSource starts a Source publishing through hub; the caller closes
// it.
func StartSource(hub *Hub, opts *SourceOptions) *Source {
	s := &Source{Hub: hub, docs: map[string]string{}, client: &http.Client{Timeout: 10 * time.Second}}
	if opts != nil {
		s.o = *opts
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	s.Base = s.Server.URL
	s.WellKnown = s.Base + "/.well-known/resourcesync"
	s.CapabilityList = s.Base + "/dataset1/capabilitylist.xml"
	s.ChangeList = s.Base + "/dataset1/changelist.xml"
	s.ResourceListIndex = s.Base + "/dataset1/resourcelist-index.xml"
	s.ResourceLists = []string{s.Base + "/dataset1/resourcelist-1.xml", s.Base + "/dataset1/resourcelist-2.xml"}
	s.ChangeTopic = s.Base + "/dataset1/notifications/change"
	s.FrameworkTopic = s.Base + "/dataset1/notifications/framework"
	s.start = time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
	s.lastUntil = time.Now().UTC().Truncate(time.Millisecond)
	s.changes = []clChange{{loc: s.Base + "/dataset1/res/r0", change: "created", datetime: s.start}}
	s.build()
	return s
}

// Close closes the server.
func (s *Source) Close() {
	s.client.CloseIdleConnections()
	s.Server.Close()
}

const (
	head         = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
	urlsetOpen   = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">` + "\n"
	sitemapIndex = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">` + "\n"
)

// w3c formats a time as ResourceSync documents give it.
func w3c(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func (s *Source) build() {
	b, at := s.Base, w3c(s.start)
	hub := `<rs:ln rel="hub" href="` + s.Hub.URL + `"/>`
	if s.o.NoHubInCapabilityList {
		hub = ""
	}
	s.docs["/.well-known/resourcesync"] = head + urlsetOpen + `  <rs:ln rel="describedby" href="` + b + `/about.html"/>
  <rs:md capability="description"/>
  <url><loc>` + s.CapabilityList + `</loc><rs:md capability="capabilitylist"/><rs:ln rel="describedby" href="` + b + `/dataset1/about.html"/></url>
</urlset>
`
	s.docs["/dataset1/capabilitylist.xml"] = head + urlsetOpen + `  <rs:ln rel="up" href="` + s.WellKnown + `"/>
  <rs:ln rel="describedby" href="` + b + `/dataset1/about.html"/>
  <rs:md capability="capabilitylist"/>
  <url><loc>` + s.ResourceListIndex + `</loc><rs:md capability="resourcelist"/></url>
  <url><loc>` + s.ChangeList + `</loc><rs:md capability="changelist"/></url>
  <url><loc>` + s.ChangeTopic + `</loc><rs:md capability="change-notification"/>` + hub + `</url>
  <url><loc>` + s.FrameworkTopic + `</loc><rs:md capability="framework-notification"/>` + hub + `</url>
</urlset>
`
	s.docs["/dataset1/resourcelist-index.xml"] = head + sitemapIndex + `  <rs:ln rel="up" href="` + s.CapabilityList + `"/>
  <rs:md capability="resourcelist" at="` + at + `"/>
  <sitemap><loc>` + s.ResourceLists[0] + `</loc><rs:md at="` + at + `"/></sitemap>
  <sitemap><loc>` + s.ResourceLists[1] + `</loc><rs:md at="` + at + `"/></sitemap>
</sitemapindex>
`
	for i, rl := range s.ResourceLists {
		s.docs[strings.TrimPrefix(rl, b)] = head + urlsetOpen + `  <rs:ln rel="up" href="` + s.CapabilityList + `"/>
  <rs:ln rel="index" href="` + s.ResourceListIndex + `"/>
  <rs:md capability="resourcelist" at="` + at + `"/>
  <url><loc>` + b + `/dataset1/res/r` + strconv.Itoa(i) + `</loc></url>
</urlset>
`
	}
}

func (s *Source) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.Path
	switch {
	case p == "/dataset1/changelist.xml":
		s.write(w, r, "application/xml", s.changeListXML())
	case s.Base+p == s.ChangeTopic || s.Base+p == s.FrameworkTopic:
		// CN §4.1: 200, application/xml, no content, Link self and hub.
		w.Header().Set("Link", "<"+s.Base+p+`>; rel="self", <`+s.Hub.URL+`>; rel="hub"`)
		s.write(w, r, "application/xml", "")
	case strings.HasSuffix(p, "/about.html"):
		s.write(w, r, "text/html; charset=utf-8", "<!DOCTYPE html><title>About</title><p>A fixture Source of rscheck.</p>\n")
	case strings.HasPrefix(p, "/dataset1/res/"):
		s.write(w, r, "text/plain; charset=utf-8", "Resource "+p+".\n")
	default:
		s.mu.Lock()
		doc, ok := s.docs[p]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		s.write(w, r, "application/xml", doc)
	}
}

func (s *Source) write(w http.ResponseWriter, r *http.Request, ctype, body string) {
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodGet {
		io.WriteString(w, body)
	}
}

// changeListXML is the open Change List, with the changes visible now.
func (s *Source) changeListXML() string {
	var b strings.Builder
	b.WriteString(head + urlsetOpen + `  <rs:ln rel="up" href="` + s.CapabilityList + `"/>
  <rs:md capability="changelist" from="` + w3c(s.start) + `"/>
`)
	now := time.Now()
	s.mu.Lock()
	for _, c := range s.changes {
		if c.visible.After(now) {
			continue
		}
		fmt.Fprintf(&b, "  <url><loc>%s</loc><rs:md change=%q datetime=%q/></url>\n", c.loc, c.change, w3c(c.datetime))
	}
	s.mu.Unlock()
	b.WriteString("</urlset>\n")
	return b.String()
}

// Publish publishes a notification with the defect d (Good for none) on
// the channel the defect belongs to.
func (s *Source) Publish(ctx context.Context, d Defect) (*Publication, error) {
	if d.Framework() {
		return s.PublishFramework(ctx, d)
	}
	return s.PublishChange(ctx, d)
}

// PublishChange publishes a change notification about two new resources
// covering the time since the previous one, after adding the changes to
// the Change List (CN §3), with the defect d.
func (s *Source) PublishChange(ctx context.Context, d Defect) (*Publication, error) {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	from := s.lastUntil
	until := time.Now().UTC().Truncate(time.Millisecond)
	switch d {
	case Overlap:
		from = from.Add(-time.Second)
	case Gap:
		from = from.Add(time.Second)
	}
	if !until.After(from) {
		until = from.Add(time.Millisecond)
	}
	n1, n2 := s.nextRes+1, s.nextRes+2
	locs := []string{fmt.Sprintf("%s/dataset1/res/r%d", s.Base, n1), fmt.Sprintf("%s/dataset1/res/r%d", s.Base, n2)}
	span := until.Sub(from)
	t1 := from.Add(span / 3).Truncate(time.Millisecond)
	t2 := from.Add(2 * span / 3).Truncate(time.Millisecond)
	if !t2.After(t1) {
		t1, t2 = from, until
	}
	times := []time.Time{t1, t2}
	if d == Disorder {
		times[0], times[1] = times[1], times[0]
	}
	up := s.CapabilityList
	if d == WrongUpLink {
		up = s.WellKnown
	}
	var body string
	if d == WrongChannel {
		body = s.frameworkPayload(false)
	} else {
		var b strings.Builder
		b.WriteString(head + urlsetOpen + `  <rs:ln rel="up" href="` + up + `"/>
  <rs:md capability="change-notification" from="` + w3c(from) + `" until="` + w3c(until) + `"/>
`)
		for i, loc := range locs {
			fmt.Fprintf(&b, "  <url><loc>%s</loc><rs:md change=\"created\" datetime=%q/></url>\n", loc, w3c(times[i]))
		}
		b.WriteString("</urlset>\n")
		body = b.String()
	}
	p := &Publication{Topic: s.ChangeTopic, Defect: d, Payload: []byte(body), From: from, Until: until, Changes: locs}
	commit := !d.Ignored() && d != WrongChannel
	if commit && d != NotInChangeList {
		visible := time.Now().Add(s.o.ChangeListDelay)
		s.mu.Lock()
		for i, loc := range locs {
			s.changes = append(s.changes, clChange{loc: loc, change: "created", datetime: times[i], visible: visible})
		}
		s.mu.Unlock()
	}
	if err := s.post(ctx, p); err != nil {
		return nil, err
	}
	if commit {
		s.lastUntil, s.nextRes = until, n2
	}
	return p, nil
}

// PublishFramework publishes a framework notification that the Change
// List and the first Resource List of the index were updated, with the
// defect d.
func (s *Source) PublishFramework(ctx context.Context, d Defect) (*Publication, error) {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	p := &Publication{Topic: s.FrameworkTopic, Defect: d, Payload: []byte(s.frameworkPayload(d == NoIndexLink)),
		Changes: []string{s.ChangeList, s.ResourceLists[0]}}
	return p, s.post(ctx, p)
}

// frameworkPayload is a framework notification about an updated Change
// List and an updated Resource List of the index.
func (s *Source) frameworkPayload(noIndexLink bool) string {
	now := time.Now().UTC().Truncate(time.Millisecond)
	index := `<rs:ln rel="index" href="` + s.ResourceListIndex + `"/>`
	if noIndexLink {
		index = ""
	}
	return head + urlsetOpen + `  <rs:ln rel="up" href="` + s.CapabilityList + `"/>
  <rs:md capability="framework-notification"/>
  <url><loc>` + s.ChangeList + `</loc><rs:md change="updated" capability="changelist" datetime="` + w3c(now) + `"/></url>
  <url><loc>` + s.ResourceLists[0] + `</loc><rs:md change="updated" capability="resourcelist" datetime="` + w3c(now) + `"/>` + index + `</url>
</urlset>
`
}

// post submits a payload to the hub (CN §4.1): a POST with Content-Type
// application/xml and Link headers self (the topic) and hub.
func (s *Source) post(ctx context.Context, p *Publication) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.Hub.URL, bytes.NewReader(p.Payload))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/xml")
	req.Header.Set("Link", "<"+p.Topic+`>; rel="self", <`+s.Hub.URL+`>; rel="hub", <`+s.CapabilityList+`>; rel="resourcesync"`)
	if p.Defect.delivery() {
		req.Header.Set(DefectHeader, strconv.Itoa(int(p.Defect)))
	}
	p.Published = time.Now()
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the hub answered the publication with %s", resp.Status)
	}
	return nil
}
