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
// first child or the next sibling is seen. In a pretty-printed document
// that is the very next token, and nothing is allocated: a lineRef, which
// carries a line to whoever waits for it, is made only when someone must
// wait.

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

// bigFrame is the per-element state of the lookup (kept in frame).
type bigFrame struct {
	over     bool     // the element's own line is at least lineCap
	line     int      // its line: its own, or once known the borrowed one
	ref      *lineRef // made when something must wait for line
	hadChild bool
	// prev is the previous child node of this element; when prevWaiting
	// it is the waiting child below, whose lineRef is made only if needed.
	prev        nodeLine
	hasPrev     bool
	prevWaiting bool
	// The last child element, ended without children and without a known
	// line, takes its line from its next sibling, or else from waitPrev.
	waiting     bool
	waitRef     *lineRef // nil while nothing waits for that line
	waitPrev    nodeLine
	waitHasPrev bool
}

// known reports whether the element's libxml2 line is known.
func (f *bigFrame) known() bool { return !f.over || f.line != 0 }

// setLine records the borrowed line.
func (f *bigFrame) setLine(line int) {
	if f.line != 0 {
		return
	}
	f.line = line
	if f.ref != nil {
		f.ref.resolve(line)
	}
}

// getRef returns the element's lineRef, making it (from the validator's
// slab) if needed.
func (f *bigFrame) getRef(v *Validator) *lineRef {
	if f.ref == nil {
		f.ref = v.newLineRef()
		f.ref.line = f.line
	}
	return f.ref
}

// node is what the element contributes to a lookup.
func (f *bigFrame) node(v *Validator) nodeLine {
	if f.known() {
		return nodeLine{line: f.line}
	}
	return nodeLine{ref: f.getRef(v)}
}

// prevNode returns the previous child node, making the waiting child's
// lineRef if that is it.
func (f *bigFrame) prevNode(v *Validator) (nodeLine, bool) {
	if f.prevWaiting {
		if f.waitRef == nil {
			f.waitRef = v.newLineRef()
		}
		f.prev, f.prevWaiting = nodeLine{ref: f.waitRef}, false
	}
	return f.prev, f.hasPrev
}

// childNode records a child node n of f: the first child gives f its line,
// a node after a waiting element gives it its line.
func (f *bigFrame) childNode(v *Validator, n nodeLine) {
	if !f.hadChild && !f.known() {
		if n.ref == nil {
			f.setLine(n.line)
		} else if n.ref.line != 0 {
			f.setLine(n.ref.line)
		} else {
			f.getRef(v).resolveFrom(n)
		}
	}
	if f.waiting {
		if f.waitRef != nil {
			f.waitRef.resolveFrom(n)
		}
		f.waiting, f.waitRef = false, nil
	}
	f.hadChild = true
	f.prev, f.hasPrev, f.prevWaiting = n, true, false
}

// childElement records the start of child element c of f. The child's
// line is usually not known yet; it is only needed now if f, or a waiting
// child, takes its line from it.
func (f *bigFrame) childElement(v *Validator, c *bigFrame) {
	if !f.hadChild && !f.known() || f.waiting && f.waitRef != nil {
		f.childNode(v, c.node(v))
		return
	}
	f.waiting = false
	f.hadChild = true
	// The node recorded as previous is completed when the child ends.
	f.prev, f.hasPrev, f.prevWaiting = nodeLine{}, true, false
}

// ended is called when child c of f ends; cPrev is the node before c.
func (f *bigFrame) ended(v *Validator, c *bigFrame, cPrev nodeLine, cHasPrev bool) {
	if !c.known() && !c.hadChild {
		f.waiting, f.waitRef, f.waitPrev, f.waitHasPrev = true, c.ref, cPrev, cHasPrev
		f.prevWaiting = true
		return
	}
	f.prev = c.node(v)
}

// closing is called when f itself ends: a waiting last child falls back
// on its previous sibling, or on lineCap.
func (f *bigFrame) closing() {
	if f.waiting && f.waitRef != nil {
		if f.waitHasPrev {
			f.waitRef.resolveFrom(f.waitPrev)
		} else {
			f.waitRef.resolve(lineCap)
		}
	}
	f.waiting, f.waitRef = false, nil
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
