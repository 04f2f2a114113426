package validator

import "github.com/rscheck/rscheck/validator/xmlscan"

// Pass is a rule's view of one document being validated. The driver
// creates one Pass per rule and document, after the header is read.
type Pass struct {
	// Doc describes the document: root, kind, document-level metadata.
	Doc *Doc

	rule    *Rule
	run     *run
	onEntry []func(*Entry)
	onEnd   []func(Stats)
}

// Rule returns the rule the pass runs.
func (p *Pass) Rule() *Rule { return p.rule }

// OnEntry registers fn to be called for every <url> (or <sitemap>) entry,
// in document order, once the entry's end tag has been read. A rule may
// register several handlers; they run in registration order.
func (p *Pass) OnEntry(fn func(e *Entry)) { p.onEntry = append(p.onEntry, fn) }

// OnLink registers fn to be called for every <rs:ln> of every entry, with
// its trimmed rel value. Entries without links cost these rules nothing.
func (p *Pass) OnLink(fn func(e *Entry, l *Element, rel string)) {
	p.run.onLink = append(p.run.onLink, fn)
}

// OnAttr registers fn to be called for every unprefixed attribute named
// one of names on the rs:md and rs:ln elements of the document: the
// document-level ones once the rules have started, then each entry's. The
// driver reads each element's attributes once for all rules, which
// matters in 50,000-entry documents (notably in WebAssembly, where loops
// and calls are dear).
func (p *Pass) OnAttr(fn func(el *Element, a *xmlscan.Attr), names ...string) {
	for _, n := range names {
		i := attrIndex(n)
		if i < 0 {
			panic("validator: OnAttr: no dispatch for attribute " + n)
		}
		p.run.onAttr[i] = append(p.run.onAttr[i], fn)
		p.run.anyAttr = true
	}
}

// isEntryMD reports whether el is the rs:md of an entry (not of the
// document), for OnAttr handlers.
func (p *Pass) isEntryMD(el *Element) bool {
	return el.Name.Local == "md" && el.parent != &p.Doc.Root
}

// attrNames are the attributes OnAttr can dispatch on: those of rs:md and
// rs:ln.
var attrNames = [...]string{"at", "completed", "from", "until", "datetime", "modified", "hash",
	"length", "type", "path", "rel", "href", "encoding", "capability", "change", "pri", "profile"}

// attrIndex returns the index of name in attrNames, or -1. A switch, not
// a map: no string hashing per attribute.
func attrIndex(name string) int {
	switch name {
	case "at":
		return 0
	case "completed":
		return 1
	case "from":
		return 2
	case "until":
		return 3
	case "datetime":
		return 4
	case "modified":
		return 5
	case "hash":
		return 6
	case "length":
		return 7
	case "type":
		return 8
	case "path":
		return 9
	case "rel":
		return 10
	case "href":
		return 11
	case "encoding":
		return 12
	case "capability":
		return 13
	case "change":
		return 14
	case "pri":
		return 15
	case "profile":
		return 16
	}
	return -1
}

// OnEnd registers fn to be called once the whole document has been read.
// It is not called when the document is not well-formed.
func (p *Pass) OnEnd(fn func(s Stats)) { p.onEnd = append(p.onEnd, fn) }

// Reportf reports a finding located at element el (the document as a whole
// when el is nil).
func (p *Pass) Reportf(el *Element, format string, args ...any) {
	f := p.finding(format, args)
	if el != nil {
		f.Line, f.Column, f.Path = el.Pos.Line, el.Pos.Col, el.Path()
	}
	p.run.add(f)
}

// ReportAttrf reports a finding located at attribute a of element el.
func (p *Pass) ReportAttrf(el *Element, a *xmlscan.Attr, format string, args ...any) {
	f := p.finding(format, args)
	f.Line, f.Column, f.Path = a.Pos.Line, a.Pos.Col, el.AttrPath(a)
	p.run.add(f)
}

// ReportTextf reports a finding located at the text content of el.
func (p *Pass) ReportTextf(el *Element, format string, args ...any) {
	f := p.finding(format, args)
	f.Line, f.Column, f.Path = el.TextPos.Line, el.TextPos.Col, el.Path()
	p.run.add(f)
}

func (p *Pass) finding(format string, args []any) Finding {
	return p.rule.Finding(0, 0, "", format, args...)
}

// Values are often checked by two rules in a row (an error rule and its
// warning twin). These one-entry memos, kept per run, parse each value
// once; the values are the same strings, so the comparison is cheap.

// datetime is ParseDatetime, memoised.
func (p *Pass) datetime(v string) (Datetime, error) {
	m := &p.run.memo
	if !m.dtOK || m.dtKey != v {
		m.dtKey, m.dtOK = v, true
		m.dtVal, m.dtErr = ParseDatetime(v)
	}
	return m.dtVal, m.dtErr
}

// uri is CheckURI, memoised.
func (p *Pass) uri(v string) (URIProblem, string) {
	m := &p.run.memo
	if !m.uriOK || m.uriKey != v {
		m.uriKey, m.uriOK = v, true
		m.uriProb, m.uriMsg = CheckURI(v)
	}
	return m.uriProb, m.uriMsg
}

// hashProblems returns the problems of a hash attribute value, memoised.
func (p *Pass) hashProblems(v string) []HashProblem {
	m := &p.run.memo
	if !m.hashOK || m.hashKey != v {
		m.hashKey, m.hashOK = v, true
		m.hashProbs = HashProblems(v)
	}
	return m.hashProbs
}

// mediaType is CheckMediaType, cached: documents use a handful of media
// types, in turns, so the last few answers are kept.
func (p *Pass) mediaType(v string) (string, bool) {
	m := &p.run.memo
	for i := range m.types {
		if e := &m.types[i]; e.ok && e.key == v {
			return e.prob, e.unknown
		}
	}
	e := &m.types[m.nextType%len(m.types)]
	m.nextType++
	e.key, e.ok = v, true
	e.prob, e.unknown = CheckMediaType(v)
	return e.prob, e.unknown
}

// memo holds the one-entry memos of a run.
type memo struct {
	dtKey     string
	dtOK      bool
	dtVal     Datetime
	dtErr     error
	uriKey    string
	uriOK     bool
	uriProb   URIProblem
	uriMsg    string
	hashKey   string
	hashOK    bool
	hashProbs []HashProblem

	types [8]struct {
		key     string
		ok      bool
		prob    string
		unknown bool
	}
	nextType int
}
