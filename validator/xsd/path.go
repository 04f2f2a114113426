package xsd

import (
	"strconv"
	"strings"
	"unsafe"

	"github.com/rscheck/rscheck/validator/xmlscan"
)

// Element paths, such as "/urlset/url[17]/rs:md/@hash", as xmlscan.Path
// writes them, built only when an error is reported: the frames hold the
// names, and each frame its index among the preceding siblings of the
// same expanded name, counted as elements start. Counting is all the
// validation of a valid document pays for paths.

// siblings counts the children of one element by expanded name: a slice
// searched from where the next name is expected (big lists repeat one
// name, or a few in the same order), a map past siblingsMapAt names so
// that hostile documents stay linear. The slice is kept from one parent
// to the next at the same depth: reset starts a generation, and counts of
// an older one read as zero, so that the names of the previous parent's
// children, which are likely this one's, are found where they were.
type siblings struct {
	names []nameCount
	next  int    // where the next child's name is looked for first
	gen   uint32 // the generation of the current parent
	big   map[qname]int
}

type nameCount struct {
	space, local string
	count        int
	gen          uint32 // count is of this generation, else 0
}

const siblingsMapAt = 32

// sameString is a == b, deciding at once for the strings the Scanner
// interns (equal names share their bytes).
func sameString(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}

// reset starts counting the children of a new parent.
func (c *siblings) reset() {
	c.gen++
	c.next = 0
	if len(c.names) >= siblingsMapAt || c.big != nil {
		c.names = c.names[:0]
		c.big = nil
	}
}

// hit counts one more child of the name of names[k].
func (c *siblings) hit(k int) int {
	e := &c.names[k]
	if e.gen != c.gen {
		e.gen, e.count = c.gen, 0
	}
	e.count++
	if k+1 < len(c.names) {
		c.next = k + 1
	} else {
		c.next = k
	}
	return e.count
}

// inc counts one more child named {space}local and returns its index.
func (c *siblings) inc(space, local string) int {
	if c.big != nil {
		k := qname{space, local}
		c.big[k]++
		return c.big[k]
	}
	if k := c.next; k < len(c.names) && sameString(c.names[k].local, local) && sameString(c.names[k].space, space) {
		return c.hit(k)
	}
	for i := range c.names {
		if e := &c.names[i]; sameString(e.local, local) && sameString(e.space, space) {
			return c.hit(i)
		}
	}
	if len(c.names) < siblingsMapAt {
		c.names = append(c.names, nameCount{space, local, 0, c.gen})
		return c.hit(len(c.names) - 1)
	}
	c.big = make(map[qname]int, 2*siblingsMapAt)
	for _, nc := range c.names {
		if nc.gen == c.gen {
			c.big[qname{nc.space, nc.local}] = nc.count
		}
	}
	c.big[qname{space, local}] = 1
	return 1
}

// countSibling gives the element of the top frame its index among its
// siblings.
func (v *Validator) countSibling(f *frame, n xmlscan.Name) {
	d := len(v.frames) - 1
	for len(v.levels) <= d+1 {
		v.levels = append(v.levels, siblings{})
	}
	f.index = v.levels[d].inc(n.Space, n.Local)
	v.levels[d+1].reset()
}

// pathOf returns the path of the element of frame depth-1, "/" for 0.
func (v *Validator) pathOf(depth int) string {
	if depth == 0 {
		return "/"
	}
	var b strings.Builder
	v.writePath(&b, depth)
	return b.String()
}

// attrPath returns the path of attribute n of the element of the top
// frame.
func (v *Validator) attrPath(n xmlscan.Name) string {
	var b strings.Builder
	v.writePath(&b, len(v.frames))
	b.WriteString("/@")
	writeQName(&b, n)
	return b.String()
}

func (v *Validator) writePath(b *strings.Builder, depth int) {
	for i := range depth {
		f := &v.frames[i]
		b.WriteByte('/')
		writeQName(b, f.name)
		if i > 0 && (f.index > 1 || repeatable(f.name.Local)) {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(f.index))
			b.WriteByte(']')
		}
	}
}

func writeQName(b *strings.Builder, n xmlscan.Name) {
	if n.Prefix != "" {
		b.WriteString(n.Prefix)
		b.WriteByte(':')
	}
	b.WriteString(n.Local)
}

// repeatable reports the ResourceSync elements that always get an index.
func repeatable(local string) bool {
	return local == "url" || local == "sitemap" || local == "ln"
}

// Lookups by name, remembered by the identity of the name's bytes: the
// Scanner interns names, so a name that comes again has the same bytes,
// and a hit costs no string comparison (the schema's own strings are
// others, so the lookups behind compare every byte of each candidate).

// sameBytes reports that a and b are the same bytes, not just equal ones.
func sameBytes(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

func nameHash(p unsafe.Pointer, q qname) uint {
	return uint(uintptr(p))>>4 ^ uint(uintptr(unsafe.Pointer(unsafe.StringData(q.local))))>>1 ^ uint(len(q.local))
}

// useHit is an entry of Validator.uses.
type useHit struct {
	td *typeDef
	q  qname
	u  *attributeUse
}

// attrUse is td.attrUse(q), remembered.
func (v *Validator) attrUse(td *typeDef, q qname) *attributeUse {
	e := &v.uses[nameHash(unsafe.Pointer(td), q)&uint(len(v.uses)-1)]
	if e.td == td && sameBytes(e.q.local, q.local) && sameBytes(e.q.ns, q.ns) && q.local != "" {
		return e.u
	}
	u := td.attrUse(q)
	*e = useHit{td, q, u}
	return u
}

// edgeHit is an entry of Validator.edges.
type edgeHit struct {
	a      *automaton
	st     uint64
	q      qname
	next   uint64
	t      term
	ok     bool
	filled bool
}

// next is a.next(st, q), remembered.
func (v *Validator) next(a *automaton, st uint64, q qname) (uint64, term, bool) {
	e := &v.edges[(nameHash(unsafe.Pointer(a), q)^uint(st)*0x9e37)&uint(len(v.edges)-1)]
	if e.filled && e.a == a && e.st == st && sameBytes(e.q.local, q.local) && sameBytes(e.q.ns, q.ns) && q.local != "" {
		return e.next, e.t, e.ok
	}
	next, t, ok := a.next(st, q)
	*e = edgeHit{a, st, q, next, t, ok, true}
	return next, t, ok
}

// elemHit is an entry of Validator.globals.
type elemHit struct {
	q qname
	d *elementDecl
}

// globalElement is v.s.elements[q], remembered.
func (v *Validator) globalElement(q qname) *elementDecl {
	e := &v.globals[nameHash(nil, q)&uint(len(v.globals)-1)]
	if sameBytes(e.q.local, q.local) && sameBytes(e.q.ns, q.ns) && q.local != "" {
		return e.d
	}
	d := v.s.elements[q]
	*e = elemHit{q, d}
	return d
}
