package validator

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/rscheck/rscheck/validator/xmlscan"
)

// Options configure Validate. The zero value validates against the
// ResourceSync 1.1 schemas and runs every rule.
type Options struct {
	// Source names the document in the report (a file name or URL).
	Source string
	// RSVersion selects the ResourceSync schema: "1.1" (default), "1.0"
	// or "0.9.1".
	RSVersion string
	// ExtraSchemas are additional XSD documents, for foreign namespaces
	// such as xhtml:link or the image and video sitemap extensions. Each
	// is a location (for messages and relative imports) and its bytes.
	ExtraSchemas []SchemaFile
	// NoSchema skips the XSD step.
	NoSchema bool
	// SchemaOnly reports only XML and XSD findings, no ResourceSync rules.
	SchemaOnly bool
	// Rules to run; nil means all of Rules().
	Rules []*Rule
	// MaxFindingsPerRule caps the findings kept per rule, so that a
	// systematic defect in a 50,000-entry document yields a readable
	// report; the rest are counted in Report.Suppressed. Zero means 1000;
	// a negative value means no cap.
	MaxFindingsPerRule int
	// MaxBytes bounds the (decompressed) bytes read. Zero means 1 GiB.
	MaxBytes int64
	// Observer, if set, sees the document model as the rules do: the
	// explorer collects the facts of its cross-document checks with it,
	// in the same single pass.
	Observer Observer
}

// Observer receives the document model while a document is validated.
// Header is called once the root's rs:md and rs:ln children are read,
// Entry for every entry, End at the end of a well-formed document (not
// after a well-formedness error). The *Doc stays valid after Validate
// returns; an *Entry is valid only during the call (it is reused): copy
// what you keep.
type Observer interface {
	Header(d *Doc)
	Entry(e *Entry)
	End(s Stats)
}

// SchemaFile is an XSD document given by the user.
type SchemaFile struct {
	Location string
	Data     []byte
}

// Report is the result of validating one document.
type Report struct {
	// Source names the document (file name or URL), as given by the caller.
	Source string `json:"source"`
	// Kind is the detected document kind.
	Kind Kind `json:"kind"`
	// Capability is the document-level capability value, if any.
	Capability string `json:"capability,omitempty"`
	// RSVersion is the ResourceSync schema version validated against.
	RSVersion string `json:"rsVersion"`
	// Entries is the number of <url>/<sitemap> entries.
	Entries int `json:"entries"`
	// Bytes is the uncompressed size read.
	Bytes int64 `json:"bytes"`
	// Findings, sorted by position.
	Findings []Finding `json:"findings"`
	// Suppressed counts, per rule ID, findings beyond MaxFindingsPerRule.
	Suppressed map[string]int `json:"suppressed,omitempty"`
	// Counts by severity, suppressed findings included.
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

// Valid reports whether the document has no error finding.
func (r *Report) Valid() bool { return r.Errors == 0 }

// Validate reads one document from r and returns its report. Problems with
// the document itself, including not being XML at all, are findings. The
// error is non-nil only when reading fails, ctx is cancelled or the
// options are invalid. A gzip-compressed input is decompressed.
func Validate(ctx context.Context, r io.Reader, opts *Options) (*Report, error) {
	if opts == nil {
		opts = &Options{}
	}
	ver := opts.RSVersion
	if ver == "" {
		ver = DefaultRSVersion
	}
	rn := &run{
		ctx:      ctx,
		opts:     opts,
		maxPer:   opts.MaxFindingsPerRule,
		perRule:  map[string]int{},
		report:   &Report{Source: opts.Source, RSVersion: ver, Kind: Unknown},
		rules:    opts.Rules,
		maxBytes: opts.MaxBytes,
	}
	if rn.maxPer == 0 {
		rn.maxPer = 1000
	}
	if rn.maxBytes == 0 {
		rn.maxBytes = 1 << 30
	}
	if rn.rules == nil {
		rn.rules = Rules()
	}
	if opts.SchemaOnly {
		rn.rules = nil
	}
	var schema schemaStep
	if !opts.NoSchema {
		var err error
		if schema, err = schemaFor(ver, opts.ExtraSchemas); err != nil {
			return nil, err
		}
	}
	if err := rn.read(r, schema); err != nil {
		return nil, err
	}
	return rn.finish(), nil
}

// schemaStep builds the XSD checker of one document.
type schemaStep func(sc *xmlscan.Scanner, report func(Finding)) tokenChecker

// tokenChecker sees every token of a document (the XSD step).
type tokenChecker interface {
	Token(t *xmlscan.Token)
	Close()
}

// run is the state of one validation.
type run struct {
	ctx      context.Context
	opts     *Options
	rules    []*Rule
	maxPer   int
	maxBytes int64
	perRule  map[string]int
	report   *Report
	findings []Finding

	mu sync.Mutex // guards report counts, perRule and findings: both goroutines add

	// The reading goroutine's state: the document model being built.
	doc        Doc
	headerSent bool     // the header is complete and handed to the rules
	cur        *Entry   // the entry being read, nil between entries
	entries    int      // entries started
	capture    *Element // leaf element whose text is being collected
	text       []byte
	lastTok    xmlscan.Pos
	batch      *batch // what the rules goroutine gets next
	work       chan *batch
	spare      chan []*Entry // entries the rules goroutine is done with
	recycled   []*Entry      // entries back from the rules, to reuse
	done       chan struct{}

	// The rules goroutine's state.
	headerDone bool
	passes     []*Pass
	onAttr     [len(attrNames)][]func(*Element, *xmlscan.Attr)
	onLink     []func(*Entry, *Element, string)
	anyAttr    bool
	memo       memo
}

// batch is what the reading goroutine hands the rules goroutine: the
// header once complete, then finished entries, then the end. Entries are
// handed over in batches so that the two goroutines rarely wait for each
// other.
type batch struct {
	header  bool
	entries []*Entry
	// late are document-level misnamespaced elements read after the
	// header, for RS103.
	late []*Element
	end  *Stats // set when the document ended well-formed
}

// batchSize is the number of entries handed over at once.
const batchSize = 64

// add records a finding, honouring the per-rule cap. Both goroutines
// report: the reader XML and XSD findings, the rules goroutine the rest.
func (rn *run) add(f Finding) {
	rn.mu.Lock()
	if rn.report.count(f, rn.perRule, rn.maxPer) {
		rn.findings = append(rn.findings, f)
	}
	rn.mu.Unlock()
}

// count counts f in the report's totals and reports whether it is kept:
// beyond max findings of its rule (per holds the counts kept so far; max
// <= 0 is no cap), it is only counted in Suppressed.
func (r *Report) count(f Finding, per map[string]int, max int) bool {
	switch f.Severity {
	case Error:
		r.Errors++
	case Warning:
		r.Warnings++
	case Info:
		r.Infos++
	}
	if max > 0 && per[f.Rule] >= max {
		if r.Suppressed == nil {
			r.Suppressed = map[string]int{}
		}
		r.Suppressed[f.Rule]++
		return false
	}
	per[f.Rule]++
	return true
}

// Add adds findings to a report made by Validate, as the explorer does
// with the cross-document findings about a document: the counts follow,
// at most max findings per rule are kept (0 means 1000, as in Options;
// negative means no cap), and the findings stay sorted by position.
func (r *Report) Add(max int, fs ...Finding) {
	if len(fs) == 0 {
		return
	}
	if max == 0 {
		max = 1000
	}
	per := map[string]int{}
	for _, f := range r.Findings {
		per[f.Rule]++
	}
	for _, f := range fs {
		if r.count(f, per, max) {
			r.Findings = append(r.Findings, f)
		}
	}
	sortFindings(r.Findings)
}

// sortFindings orders findings by position, keeping the order of those at
// the same position.
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// Observers combines observers into one that calls each in turn; nil
// observers are left out.
func Observers(obs ...Observer) Observer {
	var list multiObserver
	for _, o := range obs {
		if o != nil {
			list = append(list, o)
		}
	}
	if len(list) == 1 {
		return list[0]
	}
	return list
}

type multiObserver []Observer

func (m multiObserver) Header(d *Doc) {
	for _, o := range m {
		o.Header(d)
	}
}

func (m multiObserver) Entry(e *Entry) {
	for _, o := range m {
		o.Entry(e)
	}
}

func (m multiObserver) End(s Stats) {
	for _, o := range m {
		o.End(s)
	}
}

// read scans the document once, feeding every token to the XSD step and
// to the document model that drives the rules.
func (rn *run) read(r io.Reader, schema schemaStep) error {
	counter := &countingReader{r: r, max: rn.maxBytes}
	br := bufio.NewReaderSize(counter, 64<<10)
	head, _ := br.Peek(512)
	var in io.Reader = br
	var gz *gzipReader
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			if counter.err != nil && !errors.Is(counter.err, io.EOF) {
				return counter.err
			}
			rn.add(xmlFinding(ruleNotXML, 0, 0, "the input looks gzip-compressed but cannot be decompressed: "+err.Error()))
			return nil
		}
		gz = &gzipReader{zr: zr, under: counter}
		dc := &countingReader{r: gz, max: rn.maxBytes}
		counter = dc
		br = bufio.NewReaderSize(dc, 64<<10)
		head, _ = br.Peek(512)
		in = br
	}
	if gz != nil && gz.corrupt != nil {
		rn.add(xmlFinding(ruleNotXML, 0, 0, "the gzip-compressed input is corrupt: "+gz.corrupt.Error()))
		return nil
	}
	if msg := sniffNotXML(head); msg != "" {
		if err := counter.err; err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		rn.add(xmlFinding(ruleNotXML, 1, 1, msg))
		return nil
	}
	sc := xmlscan.NewScanner(in)
	var xsdc tokenChecker
	if schema != nil {
		xsdc = schema(sc, rn.add)
	}
	rn.startRules()
	defer rn.stopRules() // whatever happens, the rules goroutine ends
	for n := 0; ; n++ {
		if n&4095 == 0 {
			if err := rn.ctx.Err(); err != nil {
				return err
			}
		}
		tok, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil && gz != nil && gz.corrupt != nil {
			rn.add(xmlFinding(ruleNotXML, rn.lastTok.Line, rn.lastTok.Col, "the gzip-compressed input is corrupt: "+gz.corrupt.Error()))
			rn.report.Bytes = counter.n
			return nil
		}
		if err != nil {
			if counter.err != nil && !errors.Is(counter.err, io.EOF) {
				if errors.Is(counter.err, errTooLarge) {
					rn.add(xmlFinding(ruleNotXML, rn.lastTok.Line, rn.lastTok.Col, fmt.Sprintf("the document is larger than %d bytes; validation stopped there", rn.maxBytes)))
					rn.report.Bytes = counter.n
					return nil
				}
				return counter.err
			}
			var se *xmlscan.SyntaxError
			if errors.As(err, &se) && strings.HasPrefix(se.Msg, "unsupported encoding") {
				// Not a well-formedness problem: an encoding rscheck cannot
				// read is, for a Sitemap, an encoding other than UTF-8.
				rn.add(xmlFinding(ruleUTF8, se.Pos.Line, se.Pos.Col, "the document declares an encoding rscheck does not read ("+strings.TrimPrefix(se.Msg, "unsupported encoding ")+"); the Sitemap protocol requires UTF-8"))
				rn.report.Bytes = counter.n
				return nil
			}
			if errors.As(err, &se) {
				rn.add(xmlFinding(ruleWellFormed, se.Pos.Line, se.Pos.Col, se.Msg))
				rn.report.Bytes = counter.n
				return nil
			}
			return err
		}
		rn.lastTok = tok.Pos
		if xsdc != nil {
			xsdc.Token(tok)
		}
		rn.token(sc, tok)
	}
	if xsdc != nil {
		xsdc.Close()
	}
	rn.report.Bytes = counter.n
	rn.sendHeader()
	rn.batch.end = &Stats{Entries: rn.entries, Bytes: counter.n}
	return nil
}

// startRules starts the goroutine that runs the rules on what the reader
// hands it: on two cores, reading and checking overlap.
func (rn *run) startRules() {
	if inline {
		rn.batch = &batch{}
		rn.spare = make(chan []*Entry, 8)
		return
	}
	rn.work = make(chan *batch, 4)
	rn.spare = make(chan []*Entry, 8)
	rn.done = make(chan struct{})
	rn.batch = &batch{}
	go func() {
		defer close(rn.done)
		for b := range rn.work {
			rn.rulesBatch(b)
		}
	}()
}

// stopRules hands over what is left and waits for the rules goroutine.
func (rn *run) stopRules() {
	rn.flush()
	if inline {
		return
	}
	close(rn.work)
	<-rn.done
}

const inline = runtime.GOARCH == "wasm"

// flush hands the current batch to the rules goroutine.
func (rn *run) flush() {
	b := rn.batch
	if !b.header && len(b.entries) == 0 && b.end == nil && len(b.late) == 0 {
		return
	}
	if inline {
		rn.rulesBatch(b)
	} else {
		rn.work <- b
	}
	rn.batch = &batch{}
}

// sendHeader marks the header complete: the rules start with the next
// batch. It happens once, at the first entry or at the root's end.
func (rn *run) sendHeader() {
	if !rn.headerSent {
		rn.headerSent = true
		rn.batch.header = true
	}
}

// newEntry returns an entry to fill, reusing those the rules are done with.
func (rn *run) newEntry() *Entry {
	if len(rn.recycled) == 0 {
		select {
		case rn.recycled = <-rn.spare:
		default:
		}
	}
	if n := len(rn.recycled); n > 0 {
		e := rn.recycled[n-1]
		rn.recycled = rn.recycled[:n-1]
		e.reset()
		return e
	}
	return &Entry{}
}

// entryDone hands a finished entry over, in batches.
func (rn *run) entryDone(e *Entry) {
	if rn.batch.entries == nil {
		rn.batch.entries = make([]*Entry, 0, batchSize)
	}
	rn.batch.entries = append(rn.batch.entries, e)
	if len(rn.batch.entries) >= batchSize {
		rn.flush()
	}
}

// rulesBatch runs the rules on a batch, on the rules goroutine.
func (rn *run) rulesBatch(b *batch) {
	if b.header {
		rn.header()
	}
	for _, e := range b.entries {
		rn.attrs(e.MD)
		for _, l := range e.Links {
			rn.attrs(l)
			if len(rn.onLink) > 0 {
				rel := strings.TrimSpace(l.Value("rel"))
				for _, fn := range rn.onLink {
					fn(e, l, rel)
				}
			}
		}
		for _, p := range rn.passes {
			for _, fn := range p.onEntry {
				fn(e)
			}
		}
		if o := rn.opts.Observer; o != nil {
			o.Entry(e)
		}
	}
	rn.doc.ForeignRS = append(rn.doc.ForeignRS, b.late...)
	if b.end != nil {
		rn.endDocument(*b.end)
	}
	if len(b.entries) > 0 {
		select {
		case rn.spare <- b.entries:
		default: // the reader has enough: let these go
		}
	}
}

// token updates the document model with one token.
func (rn *run) token(sc *xmlscan.Scanner, t *xmlscan.Token) {
	switch t.Kind {
	case xmlscan.StartElement:
		rn.start(sc, t)
	case xmlscan.EndElement:
		rn.end(t)
	case xmlscan.Text:
		if rn.capture != nil {
			if len(rn.text) == 0 && rn.capture.Text == "" {
				rn.capture.TextPos = t.Pos
			}
			rn.text = append(rn.text, t.Data...)
		}
	case xmlscan.Doctype:
		rn.doc.Doctype = &Element{Name: xmlscan.Name{Local: "!DOCTYPE"}, Pos: t.Pos}
	}
}

func (rn *run) start(sc *xmlscan.Scanner, t *xmlscan.Token) {
	switch t.Depth {
	case 1:
		rn.doc.Root = Element{Name: t.Name, Pos: t.Pos, Attrs: append([]xmlscan.Attr(nil), t.Attrs...)}
		rn.doc.Encoding = sc.Encoding()
		rn.doc.IsIndex = t.Name.Local == "sitemapindex"
	case 2:
		switch {
		case isEntry(t.Name):
			rn.sendHeader()
			rn.entries++
			e := rn.newEntry()
			e.N = rn.entries
			e.Element = Element{Name: t.Name, Pos: t.Pos, parent: &rn.doc.Root, index: e.N}
			rn.cur = e
		case t.Name.Space == RSNS && (t.Name.Local == "md" || t.Name.Local == "ln"):
			if rn.headerSent {
				return // after the entries: the XSD step reports the misplacement
			}
			el := &Element{Name: t.Name, Pos: t.Pos, Attrs: append([]xmlscan.Attr(nil), t.Attrs...), parent: &rn.doc.Root}
			if t.Name.Local == "md" {
				rn.doc.MDs++
				el.index = rn.doc.MDs
				if rn.doc.MD == nil {
					rn.doc.MD = el
				} else {
					rn.doc.ExtraMDs = append(rn.doc.ExtraMDs, el)
				}
			} else {
				el.index = len(rn.doc.Links) + 1
				rn.doc.Links = append(rn.doc.Links, el)
			}
		case looksLikeRS(t.Name):
			el := &Element{Name: t.Name, Pos: t.Pos, parent: &rn.doc.Root, index: 1}
			if rn.headerSent {
				rn.batch.late = append(rn.batch.late, el)
			} else {
				rn.doc.ForeignRS = append(rn.doc.ForeignRS, el)
			}
		}
	case 3:
		e := rn.cur
		if e == nil {
			return
		}
		switch {
		case t.Name.Space == SitemapNS:
			var slot **Element
			switch t.Name.Local {
			case "loc":
				slot = &e.Loc
			case "lastmod":
				slot = &e.Lastmod
			case "changefreq":
				slot = &e.Changefreq
			case "priority":
				slot = &e.Priority
			default:
				return
			}
			if *slot != nil {
				return // a duplicate: the XSD step reports it
			}
			el := e.child()
			el.Name, el.Pos, el.parent = t.Name, t.Pos, &e.Element
			el.TextPos = t.End
			*slot = el
			rn.capture = el
			rn.text = rn.text[:0]
		case t.Name.Space == RSNS && t.Name.Local == "md":
			e.MDs++
			el := e.child()
			el.Name, el.Pos, el.parent, el.index = t.Name, t.Pos, &e.Element, e.MDs
			el.Attrs = append(el.Attrs, t.Attrs...)
			if e.MD == nil {
				e.MD = el
			}
		case t.Name.Space == RSNS && t.Name.Local == "ln":
			el := e.child()
			el.Name, el.Pos, el.parent, el.index = t.Name, t.Pos, &e.Element, len(e.Links)+1
			el.Attrs = append(el.Attrs, t.Attrs...)
			e.Links = append(e.Links, el)
		case looksLikeRS(t.Name):
			el := e.child()
			el.Name, el.Pos, el.parent, el.index = t.Name, t.Pos, &e.Element, 1
			e.ForeignRS = append(e.ForeignRS, el)
		}
	}
}

func (rn *run) end(t *xmlscan.Token) {
	switch t.Depth {
	case 1:
		rn.sendHeader()
	case 2:
		if rn.cur != nil && isEntry(t.Name) {
			rn.entryDone(rn.cur)
			rn.cur = nil
		}
	case 3:
		if rn.capture != nil {
			rn.capture.Text = string(rn.text)
			rn.capture = nil
		}
	}
}

// isEntry reports whether an element at depth 2 is a Sitemap entry.
func isEntry(n xmlscan.Name) bool {
	return n.Space == SitemapNS && (n.Local == "url" || n.Local == "sitemap")
}

// looksLikeRS reports whether n is an md or ln element in a namespace that
// resembles, but is not, the ResourceSync namespace.
func looksLikeRS(n xmlscan.Name) bool {
	return (n.Local == "md" || n.Local == "ln") && n.Space != RSNS && strings.Contains(n.Space, "openarchives.org/rs")
}

// header completes the document model's header, detects the kind and
// starts the rules, on the rules goroutine.
func (rn *run) header() {
	if rn.headerDone {
		return
	}
	rn.headerDone = true
	d := &rn.doc
	d.Kind = detectKind(d)
	rn.report.Kind = d.Kind
	rn.report.Capability = d.Capability
	if o := rn.opts.Observer; o != nil {
		o.Header(d)
	}
	for _, r := range rn.rules {
		if r.Run == nil {
			continue
		}
		p := &Pass{Doc: d, rule: r, run: rn}
		r.Run(p)
		if len(p.onEntry) > 0 || len(p.onEnd) > 0 {
			rn.passes = append(rn.passes, p)
		}
	}
	rn.attrs(d.MD)
	for _, l := range d.Links {
		rn.attrs(l)
	}
}

// attrs calls the OnAttr handlers for the attributes of el.
func (rn *run) attrs(el *Element) {
	if el == nil || !rn.anyAttr {
		return
	}
	for i := range el.Attrs {
		a := &el.Attrs[i]
		if a.Name.Space != "" {
			continue
		}
		if k := attrIndex(a.Name.Local); k >= 0 {
			for _, fn := range rn.onAttr[k] {
				fn(el, a)
			}
		}
	}
}

// detectKind classifies the document from its root and document-level rs:md.
func detectKind(d *Doc) Kind {
	if d.Root.Name.Space != SitemapNS || (d.Root.Name.Local != "urlset" && d.Root.Name.Local != "sitemapindex") {
		return Unknown
	}
	if d.MD == nil {
		if d.IsIndex {
			return SitemapIndex
		}
		return Sitemap
	}
	d.Capability = strings.TrimSpace(d.MD.Value("capability"))
	c := Capabilities[d.Capability]
	if c == nil {
		return UnknownCapability
	}
	d.Cap = c
	if d.IsIndex && c.Index != "" {
		return c.Index
	}
	return c.List
}

// endDocument runs the end handlers, on the rules goroutine.
func (rn *run) endDocument(st Stats) {
	rn.header()
	rn.report.Entries = st.Entries
	for _, p := range rn.passes {
		for _, fn := range p.onEnd {
			fn(st)
		}
	}
	if o := rn.opts.Observer; o != nil {
		o.End(st)
	}
}

// finish sorts the findings and completes the report.
func (rn *run) finish() *Report {
	r := rn.report
	if rn.entries > r.Entries {
		r.Entries = rn.entries // also when the document ended early
	}
	sortFindings(rn.findings)
	r.Findings = rn.findings
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	return r
}

// sniffNotXML recognises inputs that are clearly not XML documents, so that
// the finding says what they are instead of a parser error.
func sniffNotXML(head []byte) string {
	trimmed := bytes.TrimLeft(head, " \t\r\n\ufeff")
	lower := bytes.ToLower(trimmed)
	switch {
	case len(head) == 0:
		return "the document is empty; a ResourceSync document is an XML Sitemap starting with <?xml … ?> and <urlset> or <sitemapindex>"
	case len(trimmed) == 0:
		return "the document contains only whitespace"
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return "this is a ZIP archive, not an XML document; dump packages are checked as packages (rscheck validate handles .zip files)"
	case bytes.HasPrefix(lower, []byte("<!doctype html")) || bytes.HasPrefix(lower, []byte("<html")):
		return "this is an HTML page, not an XML Sitemap; if it advertises ResourceSync, explore it instead to follow its <link rel=\"resourcesync\">"
	case bytes.HasPrefix(head, []byte("\xfe\xff")) || bytes.HasPrefix(head, []byte("\xff\xfe")):
		return "" // UTF-16 with a byte order mark: let the scanner decode it
	case bytes.IndexByte(head, 0) >= 0:
		return "the input is binary data, not an XML document"
	case trimmed[0] != '<':
		return fmt.Sprintf("the input is not XML: it starts with %q instead of \"<\"", firstLine(trimmed))
	}
	return ""
}

func firstLine(b []byte) string {
	if i := bytes.IndexAny(b, "\r\n"); i >= 0 {
		b = b[:i]
	}
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

var errTooLarge = errors.New("input too large")

// gzipReader tells corrupt compressed data (a finding about the document)
// from a failure of the underlying reader (an I/O error).
type gzipReader struct {
	zr      *gzip.Reader
	under   *countingReader
	corrupt error
}

func (g *gzipReader) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	if err != nil && err != io.EOF && (g.under.err == nil || errors.Is(g.under.err, io.EOF)) {
		g.corrupt = err
	}
	return n, err
}

// countingReader counts the bytes read and enforces a maximum.
type countingReader struct {
	r   io.Reader
	n   int64
	max int64
	err error
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.n >= c.max {
		c.err = errTooLarge
		return 0, errTooLarge
	}
	if int64(len(p)) > c.max-c.n {
		p = p[:c.max-c.n]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil {
		c.err = err
	}
	return n, err
}

// xmlFinding makes a finding of one of the XML-level rules.
func xmlFinding(r *Rule, line, col int, msg string) Finding {
	return r.Finding(line, col, "", "%s", msg)
}
