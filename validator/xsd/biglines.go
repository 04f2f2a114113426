package xsd

import "github.com/rscheck/rscheck/validator/xmlscan"

// libxml2 stores an element's line in 16 bits: from line 65535 on, it
// stores 65535, and when reporting an error it looks for a line elsewhere
// (xmlGetLineNo): the line of the element's first child (a text node keeps
// its real line), else of its next sibling, else of its previous sibling,
// else 65535. A text node's line is where its first chunk ends: at the
// first '<' in plain ASCII text. Comments and processing instructions have
// no real line. So libxml2 reports an attribute error on line 200000 of
// `<rs:md length="x"/>` followed by a line break as line 200001.
//
// This file reproduces that for Error.Line, in streaming: an error on such
// an element waits (with every later error, to keep the order) until the
// first child or the next sibling is seen.

// lineCap is the line libxml2 stores for every line from 65535 on.
const lineCap = 65535

// lineRef is the line libxml2 reports for an element whose own line
// overflowed, known once a child or a sibling is seen.
type lineRef struct {
	line int        // 0 while unknown
	deps []*lineRef // refs that take their line from this one
}

func (r *lineRef) resolve(line int) {
	if r.line != 0 {
		return
	}
	r.line = line
	for _, d := range r.deps {
		d.resolve(line)
	}
	r.deps = nil
}

// nodeLine is what a node contributes to a lookup: a known line, or the
// lineRef of an element whose line is not known yet.
type nodeLine struct {
	line int
	ref  *lineRef
}

// resolveFrom makes r take the line of n.
func (r *lineRef) resolveFrom(n nodeLine) {
	switch {
	case n.ref == nil:
		r.resolve(n.line)
	case n.ref.line != 0:
		r.resolve(n.ref.line)
	default:
		n.ref.deps = append(n.ref.deps, r)
	}
}

// bigFrame is the per-element state of the tracker (kept in frame).
type bigFrame struct {
	ref      *lineRef // nil when the element's line is below lineCap
	hadChild bool
	prev     nodeLine // the previous child node of this element
	hasPrev  bool
	// waiting is the last child element, ended without children, which
	// takes its line from its next sibling, or else from waitPrev.
	waiting     *lineRef
	waitPrev    nodeLine
	waitHasPrev bool
}

// childNode records a child node n of f.
func (f *bigFrame) childNode(n nodeLine) {
	if f.ref != nil && !f.hadChild {
		f.ref.resolveFrom(n)
	}
	if f.waiting != nil {
		f.waiting.resolveFrom(n)
		f.waiting = nil
	}
	f.hadChild = true
	f.prev, f.hasPrev = n, true
}

// ended is called when child c of f ends.
func (f *bigFrame) ended(c *bigFrame, cPrev nodeLine, cHasPrev bool) {
	if c.ref != nil && c.ref.line == 0 && !c.hadChild {
		f.waiting, f.waitPrev, f.waitHasPrev = c.ref, cPrev, cHasPrev
	}
}

// closing is called when f itself ends: a waiting last child falls back
// on its previous sibling, or on lineCap.
func (f *bigFrame) closing() {
	if f.waiting != nil {
		if f.waitHasPrev {
			f.waiting.resolveFrom(f.waitPrev)
		} else {
			f.waiting.resolve(lineCap)
		}
		f.waiting = nil
	}
}

// textLine is the line libxml2 gives a text node: where its first chunk
// ends, which for ASCII text is at its end, or at the first non-ASCII
// character (character references and CR, which also end a chunk, are not
// visible in the token and are ignored).
func textLine(t *xmlscan.Token) int {
	if t.End.Line == t.Pos.Line {
		return t.End.Line
	}
	line := t.Pos.Line
	for _, c := range t.Data {
		if c >= 0x80 {
			return line
		}
		if c == '\n' {
			line++
		}
	}
	return t.End.Line
}
