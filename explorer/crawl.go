package explorer

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rscheck/rscheck/explorer/dump"
	"github.com/rscheck/rscheck/validator"
)

// Kinds of fetched things that are not ResourceSync documents.
const (
	KindPackage validator.Kind = "package"    // a dump package (ZIP)
	KindHTML    validator.Kind = "html"       // an HTML page examined for discovery links
	KindRobots  validator.Kind = "robots.txt" // a robots.txt examined for Sitemap directives
	KindPage    validator.Kind = "page"       // another resource, examined for Link headers
)

// A Document is one document, package or page the exploration fetched.
type Document struct {
	// URL is the URL the document was fetched from (as listed).
	URL string
	// Kind is the document's kind, KindPackage for a dump package.
	Kind validator.Kind
	// Report is the validation report with the explorer's findings
	// merged in; nil when the document could not be read.
	Report *validator.Report
	// Status is the HTTP status code; 0 when no response was obtained.
	Status int
	// ContentType is the Content-Type of the response.
	ContentType string
	// Bytes is the number of bytes read from the response.
	Bytes int64
	// Redirects are the redirects followed to fetch it.
	Redirects []Redirect
	// Error says why the document could not be read, "" when it was.
	Error string
	// Via says how the document was reached: "discovery: well-known",
	// "up link", "listed", "index part", "package", "contents link", …
	Via string
	// Parent is the document that lists it (nil for a root); Children are
	// the documents it lists, in the order it lists them.
	Parent   *Document
	Children []*Document
	// Depth is the distance from the root of its hierarchy.
	Depth int

	id           int
	role         role
	facts        facts
	refs         []*ref // the links that point to the document
	extra        []validator.Finding
	perRule      map[string]int // findings in extra, per rule
	suppressed   map[string]int
	ordinal      int          // entry number in the parent's listing
	specs        []*childSpec // what it lists, scheduled once it has a place in the tree
	root         bool
	done         bool // processed: fetched, validated or failed
	fail         failKind
	err          error
	scope        *scope
	inRL         bool // in the Resource List branch of its Capability List
	inRD         bool // in the Resource Dump branch
	fp           *dump.Fingerprint
	pkg          *pkgFacts
	channels     []*Channel
	disc         []discLink // discovery links found in it (HTML, Link header, robots)
	linkProblems []string   // malformed Link header values
	probe        bool       // a discovery probe (well-known, robots.txt): not part of the Source if it fails
	gzip         bool       // the body was gzip-compressed (a .xml.gz document)
}

// failKind classifies why a document could not be read.
type failKind uint8

const (
	failNone     failKind = iota
	failStatus            // a response other than 200
	failNetwork           // no response
	failTooLarge          // over a size limit
	failRead              // the body could not be read
	failStopped           // the crawl stopped first
)

// role is how a document was reached, which says what it must be.
type role uint8

const (
	roleStart     role = iota // the start URL
	roleDiscovery             // found by a discovery method
	roleUp                    // an up link followed while climbing
	roleCapList               // an entry of a Source Description
	roleCapDoc                // an entry of a Capability List
	rolePart                  // an entry of an index
	rolePackage               // an entry of a dump
	roleContents              // the contents link of a dump entry
	roleProbe                 // an index-like entry of a list, fetched to see what it is
)

var roleVia = map[role]string{
	roleStart: "start", roleDiscovery: "discovery", roleUp: "up link", roleCapList: "listed by the Source Description",
	roleCapDoc: "listed by the Capability List", rolePart: "index part", rolePackage: "package",
	roleContents: "contents link", roleProbe: "listed (looks like a list)",
}

// tree reports whether the role makes the referrer the document's parent.
func (r role) tree() bool { return r >= roleCapList }

// Time attributes, in Appendix A order.
const (
	tAt = iota
	tCompleted
	tFrom
	tUntil
)

var timeNames = [4]string{"at", "completed", "from", "until"}

// times are the at, completed, from and until attributes of an <rs:md>.
type times struct {
	val [4]string
	has [4]bool
	at  [4]pos
}

func readTimes(md *validator.Element) times {
	var t times
	if md == nil {
		return t
	}
	for i, n := range timeNames {
		if a := md.Attr(n); a != nil {
			t.val[i], t.has[i] = strings.TrimSpace(a.Value), true
			t.at[i] = pos{a.Pos.Line, a.Pos.Col, md.AttrPath(a)}
		}
	}
	return t
}

// facts are what the cross-document checks need of a document's header.
type facts struct {
	read       bool // the header was read
	kind       validator.Kind
	capability string
	isIndex    bool
	md         pos
	times      times
	up, index  []linkAt
	entries    int
}

// linkAt is a document-level link: its resolved target and position.
type linkAt struct {
	href string
	at   pos
}

// ref is one link to a document: an entry's <loc>, an up link, a contents
// link or a discovery link, with what the referrer says about the target.
type ref struct {
	from  *Document // nil for the start URL
	at    pos       // the <loc>, href or line that points
	role  role
	n     int    // entry number in the referrer
	cap   string // capability announced by the entry's <rs:md>
	capAt pos
	times times
	// dump entries
	length, typ, hash       string
	lengthAt, typAt, hashAt pos
	contents                string
	contentsAt              pos
}

// childSpec is a document a document lists, to schedule once the lister
// has its place in the tree.
type childSpec struct {
	url string
	ref *ref
}

// pkgFacts describe a downloaded package.
type pkgFacts struct {
	size    int64
	zip     bool
	digests map[string]string // alg → hex, for the algorithms the dump entry lists
}

// crawler is the state of one exploration.
type crawler struct {
	o      Options
	vo     validator.Options
	f      Fetcher
	ctx    context.Context
	cancel context.CancelCauseFunc
	pool   *pool

	mu        sync.Mutex
	docs      map[string]*Document // by normalized URL
	byID      []*Document
	roots     []*Document
	discovery []Discovery
	channels  []*Channel
	stopped   string // a limit that stopped part of the crawl
	sample    sample
	prog      Progress
	progMu    sync.Mutex
	bytes     atomic.Int64
	resources atomic.Int64
	auditStat *AuditStats
}

func newCrawler(o Options) *crawler {
	c := &crawler{o: o, docs: map[string]*Document{}}
	if o.Validator != nil {
		c.vo = *o.Validator
	}
	c.vo.MaxBytes = o.MaxDocumentBytes
	c.f = NewFetcher(o.Fetcher, &o)
	c.sample.k = o.Audit
	return c
}

// progress updates the counters with fn and reports them.
func (c *crawler) progress(fn func(p *Progress)) {
	if c.o.Progress == nil {
		return
	}
	c.progMu.Lock()
	defer c.progMu.Unlock()
	fn(&c.prog)
	c.prog.Bytes = c.bytes.Load()
	c.prog.Resources = c.resources.Load()
	c.o.Progress(c.prog)
}

// addFinding records a finding of the explorer on a document.
func (c *crawler) addFinding(d *Document, f validator.Finding) {
	c.mu.Lock()
	c.addFindingLocked(d, f)
	c.mu.Unlock()
}

// addFindingLocked records a finding, keeping at most the validator's
// MaxFindingsPerRule per rule and document (a systematic defect in a
// 50,000-entry list is counted, not kept); c.mu must be held.
func (c *crawler) addFindingLocked(d *Document, f validator.Finding) {
	max := c.vo.MaxFindingsPerRule
	if max == 0 {
		max = 1000
	}
	if d.perRule == nil {
		d.perRule = map[string]int{}
	}
	if max > 0 && d.perRule[f.Rule] >= max {
		if d.suppressed == nil {
			d.suppressed = map[string]int{}
		}
		d.suppressed[f.Rule]++
		return
	}
	d.perRule[f.Rule]++
	d.extra = append(d.extra, f)
}

// NormalizeURL returns the key under which the explorer knows a URL, and
// compares URLs by: scheme and host in lower case, default port and
// fragment removed, empty path as "/". A URL that does not parse is its
// own key.
func NormalizeURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return raw
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	if (u.Scheme == "http" && strings.HasSuffix(u.Host, ":80")) || (u.Scheme == "https" && strings.HasSuffix(u.Host, ":443")) {
		u.Host = u.Host[:strings.LastIndexByte(u.Host, ':')]
	}
	if u.Path == "" && u.Opaque == "" {
		u.Path = "/"
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// sameURL compares two URLs as NormalizeURL does.
func sameURL(a, b string) bool { return NormalizeURL(a) == NormalizeURL(b) }

// ResolveReference resolves a reference found in the document at base,
// surrounding white space ignored; it returns ref as written when either
// does not parse.
func ResolveReference(base, ref string) string {
	ref = strings.TrimSpace(ref)
	b, err := url.Parse(base)
	if err != nil {
		return ref
	}
	u, err := b.Parse(ref)
	if err != nil {
		return ref
	}
	return u.String()
}

// newDoc registers a document; c.mu must be held. It returns nil when a
// limit forbids it (and records why on the referrer).
func (c *crawler) newDocLocked(rawURL string, r *ref, parent *Document) *Document {
	if len(c.byID) >= c.o.MaxDocuments {
		c.limitLocked(fmt.Sprintf("the limit of %d documents was reached", c.o.MaxDocuments))
		if r != nil && r.from != nil {
			c.addFindingLocked(r.from, finding(RuleNotExplored, r.at, "%s was not fetched: the exploration is limited to %d documents (Options.MaxDocuments)", rawURL, c.o.MaxDocuments))
		}
		return nil
	}
	depth := 0
	if parent != nil {
		depth = parent.Depth + 1
	}
	if depth > c.o.MaxDepth {
		c.limitLocked(fmt.Sprintf("the depth limit of %d was reached", c.o.MaxDepth))
		if r != nil && r.from != nil {
			c.addFindingLocked(r.from, finding(RuleNotExplored, r.at, "%s was not fetched: it is %d levels below the root, deeper than the limit of %d (Options.MaxDepth)", rawURL, depth, c.o.MaxDepth))
		}
		return nil
	}
	d := &Document{URL: rawURL, id: len(c.byID), Depth: depth, Kind: validator.Unknown}
	if r != nil {
		d.role = r.role
		d.Via = roleVia[r.role]
		d.refs = append(d.refs, r)
	}
	c.byID = append(c.byID, d)
	c.docs[NormalizeURL(rawURL)] = d
	return d
}

func (c *crawler) limitLocked(msg string) {
	if c.stopped == "" {
		c.stopped = msg
	}
}

// fetchDocument fetches and validates d (or, for the start URL and
// discovery targets, examines HTML pages and robots.txt files).
func (c *crawler) fetchDocument(d *Document) {
	defer func() { d.done = true }()
	ctx := c.ctx
	if ctx.Err() != nil {
		d.fail, d.err = failStopped, context.Cause(ctx)
		return
	}
	c.progress(func(p *Progress) { p.URL = d.URL })
	resp, err := c.f.Fetch(ctx, &Request{URL: d.URL})
	if err != nil {
		c.failed(d, err)
		return
	}
	defer resp.Body.Close()
	c.response(d, resp)
	c.progress(func(p *Progress) { p.Fetched++; p.URL = d.URL })
	if d.role == roleStart {
		c.linkHeader(d, resp)
	}
	if resp.StatusCode != 200 {
		d.fail, d.Error = failStatus, statusText(resp.StatusCode)
		return
	}
	body := &countingBody{r: resp.Body, c: c, n: &d.Bytes}
	br := bufio.NewReaderSize(body, 16<<10)
	head, _ := br.Peek(512)
	d.gzip = bytes.HasPrefix(head, []byte{0x1f, 0x8b})
	if d.role == roleStart || d.role == roleDiscovery {
		switch {
		case looksHTML(head, d.ContentType):
			c.examineHTML(d, br, resp.URL)
			return
		case isRobots(resp.URL):
			c.examineRobots(d, br, resp.URL)
			return
		case d.role == roleStart && !looksXML(head):
			d.Kind = KindPage
			d.Report = emptyReport(d.URL, KindPage)
			return
		}
	}
	c.validate(d, br)
}

// response records what a response says of d.
func (c *crawler) response(d *Document, resp *Response) {
	d.Status = resp.StatusCode
	d.ContentType = resp.Header.Get("Content-Type")
	d.Redirects = resp.Redirects
}

func (c *crawler) failed(d *Document, err error) {
	d.err = err
	d.Error = err.Error()
	switch {
	case c.ctx.Err() != nil:
		d.fail = failStopped
	case errors.Is(err, ErrTooLarge):
		d.fail = failTooLarge
	default:
		d.fail = failNetwork
	}
}

// validate validates d's body.
func (c *crawler) validate(d *Document, r io.Reader) {
	vo := c.vo
	obs := &observer{c: c, d: d}
	var fp *dump.Fingerprint
	if d.role == roleContents {
		fp = dump.NewFingerprint() // to compare with the packaged manifest.xml
		d.fp = fp
	}
	vo.Observer = validator.Observers(obs, fpObserver(fp), c.vo.Observer)
	rep, err := validator.Validate(c.ctx, r, &vo)
	if err != nil {
		c.failed(d, err)
		if d.fail == failNetwork {
			d.fail = failRead
		}
		return
	}
	rep.Source = d.URL
	d.Report = rep
	d.Kind = rep.Kind
	c.progress(func(p *Progress) { p.Validated++; p.URL = d.URL })
}

func fpObserver(fp *dump.Fingerprint) validator.Observer {
	if fp == nil {
		return nil
	}
	return fp
}

func emptyReport(source string, kind validator.Kind) *validator.Report {
	return &validator.Report{Source: source, Kind: kind, Findings: []validator.Finding{}}
}

// countingBody counts the bytes read into the document and the crawl's
// total, and stops the crawl at the byte limit.
type countingBody struct {
	r io.Reader
	c *crawler
	n *int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if n > 0 {
		*b.n += int64(n)
		if t := b.c.bytes.Add(int64(n)); t > b.c.o.MaxBytes {
			b.c.cancel(errByteLimit)
			return n, errByteLimit
		}
	}
	return n, err
}

func looksXML(head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	return bytes.HasPrefix(t, []byte("<")) || bytes.HasPrefix(head, []byte{0x1f, 0x8b}) ||
		bytes.HasPrefix(head, []byte{0xfe, 0xff}) || bytes.HasPrefix(head, []byte{0xff, 0xfe})
}

func looksHTML(head []byte, contentType string) bool {
	mt := mediaType(contentType)
	if mt == "text/html" || mt == "application/xhtml+xml" {
		return true
	}
	t := bytes.ToLower(bytes.TrimLeft(head, " \t\r\n\ufeff"))
	return bytes.HasPrefix(t, []byte("<!doctype html")) || bytes.HasPrefix(t, []byte("<html"))
}

func isRobots(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.Path == "/robots.txt"
}

// mediaType returns the media type of a Content-Type, lower case, without
// parameters.
func mediaType(ct string) string {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}
