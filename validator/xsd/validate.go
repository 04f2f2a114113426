package xsd

import (
	"strings"
	"unsafe"

	"github.com/rscheck/rscheck/validator/xmlscan"
)

// Validator is the validation state of one document. Push every token the
// Scanner produces, in order, then call Close after io.EOF. Errors are
// reported through the callback as soon as libxml2 would report them:
// attribute errors when the start tag is seen, an unexpected child when it
// is seen, missing children and simple-content value errors when the
// element ends.
//
// A Validator is not safe for concurrent use; create one per document.
type Validator struct {
	s       *Schema
	sc      *xmlscan.Scanner
	report  func(*Error)
	levels  []siblings // levels[d]: the children seen of the element of frames[d-1]
	frames  []frame
	ns      []xmlscan.NSDecl // in-scope declarations, for display prefixes
	text    []byte           // character content of the current simple-content element
	ctx     valCtx
	cache   map[cacheKey][]valueErr
	recent  [64]recentValue // in front of cache
	uses    [64]useHit      // see attrUse
	edges   [64]edgeHit     // see next
	globals [16]elemHit     // see globalElement
	src     *SourceTracker
	queue   []pendingError // errors waiting for a line beyond 65535
	refs    []lineRef      // a slab of lineRefs, allocated 1024 at a time
	// unexpected lists the attributes of the current start tag that are
	// not allowed, by index (-1-i: a strict wildcard found no declaration),
	// reported after the attribute values as libxml2 does.
	unexpected []int
}

type frameMode uint8

const (
	modeValidate frameMode = iota
	modeSkip               // the element and its content are not validated
)

type frame struct {
	mode     frameMode
	decl     *elementDecl
	typ      *typeDef
	state    uint64
	name     xmlscan.Name
	index    int // among the preceding siblings of the same name, from 1
	pos      xmlscan.Pos
	line     int   // line of the end of the start tag
	lineOff  int64 // its offset, for libxml2's line numbering
	nsMark   int
	skipRest bool // an error ended validation of the rest of the content
	badModel bool // do not check the content model at the end
	nilled   bool
	empty    bool   // no character data and no child element so far
	mixed    []byte // character data of a mixed element with a fixed value
	inText   bool   // the previous token was character data
	textNode bool   // an error was reported for the current run of text
	// libxml2's line lookup beyond line 65535 (biglines.go).
	big        bigFrame
	sibling    nodeLine // the previous sibling node, when there is one
	hasSibling bool
}

// valCtx is what value validation needs from its surroundings.
type valCtx struct {
	lookup      func(prefix string) (string, bool)
	inAttribute bool
	ids         map[string]struct{}
}

func (c *valCtx) lookupPrefix(prefix string) (string, bool) {
	if c == nil || c.lookup == nil {
		return "", prefix == ""
	}
	return c.lookup(prefix)
}

// addID registers an ID and reports whether it was new.
func (c *valCtx) addID(id string) bool {
	if c.ids == nil {
		c.ids = map[string]struct{}{}
	}
	if _, dup := c.ids[id]; dup {
		return false
	}
	c.ids[id] = struct{}{}
	return true
}

// pendingError is an error whose libxml2 line is not known yet.
type pendingError struct {
	err *Error
	ref *lineRef
}

type cacheKey struct {
	t    *simpleType
	s    string
	norm bool
}

const cacheMax = 4096

// recentValue is an entry of Validator.recent.
type recentValue struct {
	cacheKey
	errs []valueErr
}

// NewValidator returns a Validator for one document read by sc (used to
// resolve QName values) that reports errors to report.
func (s *Schema) NewValidator(sc *xmlscan.Scanner, report func(*Error)) *Validator {
	v := &Validator{s: s, sc: sc, report: report}
	v.ctx.lookup = v.lookupPrefix
	return v
}

func (v *Validator) lookupPrefix(prefix string) (string, bool) {
	if v.sc != nil {
		return v.sc.LookupPrefix(prefix)
	}
	for i := len(v.ns) - 1; i >= 0; i-- {
		if v.ns[i].Prefix == prefix {
			return v.ns[i].URI, true
		}
	}
	if prefix == "xml" {
		return xmlNS, true
	}
	return "", prefix == ""
}

// prefixOf returns a display function mapping namespace names to the
// prefixes in scope now.
func (v *Validator) prefixOf() func(string) (string, bool) {
	bindings := append([]xmlscan.NSDecl(nil), v.ns...)
	return func(ns string) (string, bool) {
		for i := len(bindings) - 1; i >= 0; i-- {
			b := bindings[i]
			if b.URI != ns {
				continue
			}
			shadowed := false
			for _, c := range bindings[i+1:] {
				if c.Prefix == b.Prefix {
					shadowed = true
					break
				}
			}
			if !shadowed {
				return b.Prefix, true
			}
		}
		return "", false
	}
}

// Token validates the next token of the document.
func (v *Validator) Token(t *xmlscan.Token) {
	switch t.Kind {
	case xmlscan.StartElement:
		v.startElement(t)
	case xmlscan.EndElement:
		v.endElement()
	case xmlscan.Text:
		if f := v.top(); f != nil && !f.inText {
			line := t.End.Line
			if t.Pos.Line != line && !allBlank(t.Data) {
				line = textLine(t) // blanks are ASCII: textLine gives End.Line
			}
			n := nodeLine{line: v.src.libxmlLine(line, t.End.Offset)}
			if b := &f.big; b.hadChild && !b.waiting {
				// childNode's common case, without the call.
				b.prev, b.hasPrev, b.prevWaiting = n, true, false
			} else {
				b.childNode(v, n)
			}
		}
		v.charData(t.Data, t.CDATA)
	case xmlscan.Comment, xmlscan.ProcInst:
		if f := v.top(); f != nil {
			f.big.childNode(v, nodeLine{line: min(v.src.libxmlLine(t.End.Line, t.End.Offset), lineCap)})
		}
	}
	if t.Kind != xmlscan.Text {
		if f := v.top(); f != nil {
			f.inText = false
		}
	}
	if len(v.queue) > 0 {
		v.flush(false)
	}
}

// newLineRef allocates a lineRef from the slab: a big document has one
// per element beyond line 65535.
func (v *Validator) newLineRef() *lineRef {
	if len(v.refs) == 0 {
		v.refs = make([]lineRef, 1024)
	}
	r := &v.refs[0]
	v.refs = v.refs[1:]
	return r
}

// flush reports the queued errors whose line is known; final gives the
// others libxml2's last resort, lineCap.
func (v *Validator) flush(final bool) {
	i := 0
	for ; i < len(v.queue); i++ {
		p := v.queue[i]
		if p.ref != nil {
			if p.ref.line == 0 && !final {
				break
			}
			if p.ref.line == 0 {
				p.ref.resolve(lineCap)
			}
			p.err.Line = p.ref.line
		}
		if v.report != nil {
			v.report(p.err)
		}
	}
	v.queue = v.queue[:copy(v.queue, v.queue[i:])]
}

// Close ends the document. With a well-formed document every element is
// closed by then and Close only releases memory; it is safe to call twice.
func (v *Validator) Close() {
	v.flush(true)
	v.frames = v.frames[:0]
	v.cache = nil
	v.recent = [len(v.recent)]recentValue{}
	v.ctx.ids = nil
}

func (v *Validator) top() *frame {
	if len(v.frames) == 0 {
		return nil
	}
	return &v.frames[len(v.frames)-1]
}

func (v *Validator) startElement(t *xmlscan.Token) {
	// The frame is built in place: frames are large and elements many.
	v.frames = append(v.frames, frame{})
	n := len(v.frames)
	f := &v.frames[n-1]
	var parent *frame
	if n > 1 {
		parent = &v.frames[n-2]
		parent.inText = false
	}
	// The index among same-named siblings (path.go); here the usual case,
	// the name where it is expected, without calls.
	if d := n - 1; d+1 < len(v.levels) {
		c := &v.levels[d]
		if k := c.next; c.big == nil && k < len(c.names) &&
			sameBytes(c.names[k].local, t.Name.Local) && sameBytes(c.names[k].space, t.Name.Space) {
			f.index = c.hit(k)
		} else {
			f.index = c.inc(t.Name.Space, t.Name.Local)
		}
		v.levels[d+1].reset()
	} else {
		v.countSibling(f, t.Name)
	}
	f.name, f.pos, f.line, f.lineOff, f.nsMark, f.empty = t.Name, t.Pos, t.End.Line, t.End.Offset, len(v.ns), true
	if ll := v.src.libxmlLine(f.line, f.lineOff); ll >= lineCap {
		f.big.over = true
	} else {
		f.big.line = ll
	}
	if parent != nil {
		f.sibling, f.hasSibling = parent.big.prevNode(v)
		if pb := &parent.big; (pb.hadChild || pb.known()) && !(pb.waiting && pb.waitRef != nil) {
			// childElement's common case, without the call.
			pb.waiting, pb.hadChild = false, true
			pb.prev, pb.hasPrev, pb.prevWaiting = nodeLine{}, true, false
		} else {
			pb.childElement(v, &f.big)
		}
	}
	if len(t.NSDecls) > 0 {
		v.ns = append(v.ns, t.NSDecls...)
	}
	q := qname{t.Name.Space, t.Name.Local}
	if parent != nil && (parent.mode == modeSkip || parent.skipRest) {
		f.mode = modeSkip
		return
	}
	var tm term
	if parent == nil {
		tm.decl = v.globalElement(q)
		if tm.decl == nil {
			v.elemError(f, &NoRootDeclaration{elementKind: v.ek(t.Name)}, "")
			f.mode = modeSkip
			return
		}
	} else {
		parent.empty = false
		pt := parent.typ
		switch {
		case parent.nilled:
			v.parentError(parent, v.pathOf(n-1), &NilError{elementKind: v.ek(parent.name),
				Reason: "the element is nilled (xsi:nil=\"true\"), so it may have no content, but contains <" + displayName(t.Name, v.prefixOf()) + ">"})
			f.mode, parent.skipRest = modeSkip, true
		case pt.urType:
			// anyType: children are assessed laxly.
			tm.decl = v.globalElement(q)
			if tm.decl == nil {
				tm.wild = pt.wildcard
			}
		case pt.content == contentEmpty:
			v.parentError(parent, v.pathOf(n-1), &NotEmpty{elementKind: v.ek(parent.name), Child: t.Name})
			f.mode, parent.skipRest = modeSkip, true
		case pt.content == contentSimple:
			v.parentError(parent, v.pathOf(n-1), &ElementInSimpleContent{elementKind: v.ek(parent.name), Child: t.Name})
			f.mode, parent.skipRest = modeSkip, true
		default:
			var st uint64
			var matched term
			var ok bool
			// v.next's cache hit, without the call.
			a, ps := pt.model, parent.state
			if e := &v.edges[(nameHash(unsafe.Pointer(a), q)^uint(ps)*0x9e37)&uint(len(v.edges)-1)]; e.filled && e.a == a && e.st == ps &&
				sameBytes(e.q.local, q.local) && sameBytes(e.q.ns, q.ns) && q.local != "" {
				st, matched, ok = e.next, e.t, e.ok
			} else {
				st, matched, ok = v.next(a, ps, q)
			}
			if !ok {
				v.elemError(f, &UnexpectedElement{elementKind: v.ek(t.Name), Expected: pt.model.expected(parent.state)}, pt.desc)
				f.mode, parent.skipRest, parent.badModel = modeSkip, true, true
			} else {
				parent.state = st
				tm = matched
			}
		}
		if f.mode == modeSkip {
			return
		}
	}
	// The xsi attributes libxml2 handles itself, found in one pass.
	var xsiType, xsiNil *xmlscan.Attr
	for i := range t.Attrs {
		if a := &t.Attrs[i]; a.Name.Space == xsiNS {
			switch a.Name.Local {
			case "type":
				xsiType = a
			case "nil":
				xsiNil = a
			}
		}
	}
	if tm.wild != nil {
		if tm.wild.process == processSkip {
			f.mode = modeSkip
			return
		}
		tm.decl = v.globalElement(q)
		if tm.decl == nil {
			if tm.wild.process == processStrict {
				v.elemError(f, &NoStrictDeclaration{elementKind: v.ek(t.Name)}, tm.wild.desc)
				f.mode = modeSkip
				return
			}
			// Lax: xsi:type if given, else anyType.
			f.typ = v.s.anyType
			if xsiType != nil {
				if td, good := v.xsiType(f, t, xsiType, v.s.anyType, 0); good {
					f.typ = td
				}
			}
			v.elementBody(f, t)
			return
		}
	}
	d := tm.decl
	f.decl = d
	f.typ = d.typ
	if d.abstract {
		v.elemError(f, &AbstractError{elementKind: v.ek(t.Name)}, d.desc)
		f.mode = modeSkip
		return
	}
	if xsiNil != nil {
		val, errs := v.s.boolType().validate(xsiNil.Value, false, false, &v.ctx)
		if errs != nil {
			v.attrValueError(f, t, xsiNil, errs, "")
		} else if !d.nillable {
			v.elemError(f, &NilError{elementKind: v.ek(t.Name), Reason: "xsi:nil is used but the element is not nillable"}, d.desc)
		} else if val.t {
			if d.hasFixed {
				v.elemError(f, &NilError{elementKind: v.ek(t.Name), Reason: "the element cannot be nilled because it has a fixed value"}, d.desc)
			} else {
				f.nilled = true
			}
		}
	}
	if xsiType != nil {
		// On an xsi:type error libxml2 goes on with the declared type.
		if td, good := v.xsiType(f, t, xsiType, d.typ, d.block); good {
			f.typ = td
		}
	}
	v.elementBody(f, t)
}

// elementBody checks the type and the attributes of an element.
func (v *Validator) elementBody(f *frame, t *xmlscan.Token) {
	if f.typ.abstract {
		v.elemError(f, &AbstractError{elementKind: v.ek(t.Name), Type: f.typ.desc}, f.typ.desc)
		f.mode = modeSkip
		return
	}
	if f.typ.simple {
		v.simpleAttributes(f, t)
	} else {
		v.complexAttributes(f, t)
	}
	if f.typ.simple || f.typ.content == contentSimple {
		v.text = v.text[:0]
	}
}

func findAttr(attrs []xmlscan.Attr, space, local string) (*xmlscan.Attr, bool) {
	for i := range attrs {
		if attrs[i].Name.Local == local && attrs[i].Name.Space == space {
			return &attrs[i], true
		}
	}
	return nil, false
}

// isMeta reports the xsi attributes libxml2 always allows and handles
// itself.
func isMeta(n xmlscan.Name) bool {
	if n.Space != xsiNS {
		return false
	}
	switch n.Local {
	case "type", "nil", "schemaLocation", "noNamespaceSchemaLocation":
		return true
	}
	return false
}

// xsiType resolves and checks an xsi:type attribute against the declared
// type. It reports errors itself and returns false when the declared type
// stays.
func (v *Validator) xsiType(f *frame, t *xmlscan.Token, a *xmlscan.Attr, declared *typeDef, block derivSet) (*typeDef, bool) {
	qv, errs := v.s.qnameType().validate(a.Value, false, false, &v.ctx)
	if errs != nil {
		v.attrValueError(f, t, a, errs, "")
		return nil, false
	}
	td := v.s.types[qname{qv.ns, trimBlanks(qv.s)}]
	if td == nil {
		v.elemError(f, &XsiTypeError{elementKind: v.ek(t.Name), Value: a.Value, Reason: "no type definition of that name"}, "")
		return nil, false
	}
	if !derivedOK(td, declared, block|declared.block) {
		v.elemError(f, &XsiTypeError{elementKind: v.ek(t.Name), Value: a.Value,
			Reason: "the type is not validly derived from " + declared.desc + " (or the derivation is blocked)"}, declared.desc)
		return nil, false
	}
	return td, true
}

// complexAttributes validates the attributes of an element with a complex
// type, in libxml2's order: values first (document order), then the
// attributes not allowed, then the required ones missing.
func (v *Validator) complexAttributes(f *frame, t *xmlscan.Token) {
	td := f.typ
	v.unexpected = v.unexpected[:0]
	for i := range t.Attrs {
		a := &t.Attrs[i]
		if isMeta(a.Name) {
			continue
		}
		q := qname{a.Name.Space, a.Name.Local}
		var u *attributeUse
		// v.attrUse's cache hit, without the call.
		if e := &v.uses[nameHash(unsafe.Pointer(td), q)&uint(len(v.uses)-1)]; e.td == td &&
			sameBytes(e.q.local, q.local) && sameBytes(e.q.ns, q.ns) && q.local != "" {
			u = e.u
		} else {
			u = v.attrUse(td, q)
		}
		if u != nil {
			v.checkAttr(f, t, a, u.decl, u)
			continue
		}
		w := td.wildcard
		if w == nil || !w.allows(q.ns) {
			v.unexpected = append(v.unexpected, i)
			continue
		}
		if w.process == processSkip {
			continue
		}
		if d := v.s.attributes[q]; d != nil {
			v.checkAttr(f, t, a, d, nil)
		} else if w.process == processStrict {
			v.unexpected = append(v.unexpected, -1-i)
		}
	}
	for _, i := range v.unexpected {
		strict := i < 0
		if strict {
			i = -1 - i
		}
		a := &t.Attrs[i]
		k := &UnexpectedAttribute{elementKind: v.ek(t.Name), Attribute: a.Name}
		for _, u := range td.attrs {
			k.Declared = append(k.Declared, u.decl.name.name())
		}
		comp := td.desc
		if strict {
			comp = td.desc + ", xs:anyAttribute (strict: the attribute needs a global declaration)"
		}
		v.attrError(f, a, k, comp)
	}
	for _, u := range td.attrs {
		if !u.required {
			continue
		}
		if _, ok := findAttr(t.Attrs, u.decl.name.ns, u.decl.name.local); !ok {
			v.elemError(f, &MissingAttribute{elementKind: v.ek(t.Name), Attribute: u.decl.name.name()}, u.decl.desc)
		}
	}
}

// attrUse finds the attribute use for q: by a linear scan for the usual
// handful of attributes (names are interned, so most comparisons stop at
// the length or the pointer), by the map beyond.
func (td *typeDef) attrUse(q qname) *attributeUse {
	if len(td.attrs) > 16 {
		return td.attrMap[q]
	}
	for _, u := range td.attrs {
		if u.decl.name.local == q.local && u.decl.name.ns == q.ns {
			return u
		}
	}
	return nil
}

// simpleAttributes handles an element of simple type: only the xsi
// attributes are allowed.
func (v *Validator) simpleAttributes(f *frame, t *xmlscan.Token) {
	for i := range t.Attrs {
		a := &t.Attrs[i]
		if isMeta(a.Name) {
			continue
		}
		v.attrError(f, a, &UnexpectedAttribute{elementKind: v.ek(t.Name), Attribute: a.Name}, f.typ.desc)
	}
}

// checkAttr validates an attribute value against its declaration (and
// the use's value constraint).
func (v *Validator) checkAttr(f *frame, t *xmlscan.Token, a *xmlscan.Attr, d *attributeDecl, u *attributeUse) {
	normalize := d.hasDefault || d.hasFixed || u != nil && u.hasConstraint()
	v.ctx.inAttribute = true
	var val value
	errs := v.validateValue(d.typ, a.Value, normalize, normalize, &val)
	v.ctx.inAttribute = false
	if errs != nil {
		v.attrValueError(f, t, a, errs, d.desc)
		return
	}
	// The fixed value, by pointer: a value is large to copy.
	var fixed string
	var fv *value
	switch {
	case u != nil && u.hasFixed:
		fixed, fv = u.constraint, &u.fixedValue
	case u != nil && u.decl.hasFixed:
		fixed, fv = u.decl.constraint, &u.decl.fixedValue
	case u == nil && d.hasFixed:
		fixed, fv = d.constraint, &d.fixedValue
	}
	if fv != nil && !valuesEqual(d.typ, val, *fv) {
		v.attrError(f, a, &FixedValueMismatch{elementKind: v.ek(t.Name), Attribute: a.Name, Value: a.Value, Fixed: fixed}, d.desc)
	}
}

// valuesEqual compares a value with a fixed value of the same type.
func valuesEqual(t *simpleType, x, y value) bool {
	if x.b.stringFamily() || x.b == bAnySimpleType || x.b == bNone {
		return x.s == y.s || normalizeWS(x.s, t.effectiveWS()) == normalizeWS(y.s, t.effectiveWS())
	}
	return compareValues(x, y) == 0
}

// validateValue validates a value, through the per-document cache for
// the types that deserve it. needValue asks for the parsed value (for a
// fixed-value comparison), which the cache does not keep. s may alias a
// reused buffer: it is copied before being kept.
func (v *Validator) validateValue(t *simpleType, s string, normalize, needValue bool, out *value) []valueErr {
	if !needValue && t.variety == atomic && t.facets == nil && t.builtin <= bToken && t.builtin >= bAnySimpleType {
		// xs:string and its kin without facets accept every value, and
		// the value itself is not wanted: three calls saved per value.
		return nil
	}
	if !t.memo || t.idLike || len(s) > 256 || needValue {
		return t.check(s, normalize, false, false, &v.ctx, out)
	}
	// A direct-mapped cache in front of the map: hashing the string for
	// the map is the dearest part of a lookup in WebAssembly, and the
	// values that repeat (media types) repeat often.
	h := (uint(uintptr(unsafe.Pointer(t)))>>4 + uint(len(s))*31) & uint(len(v.recent)-1)
	if len(s) > 0 {
		h = (h + uint(s[0])*7 + uint(s[len(s)-1])*13 + uint(s[len(s)/2])) & uint(len(v.recent)-1)
	}
	if e := &v.recent[h]; e.t == t && e.norm == normalize && e.s == s {
		return e.errs
	}
	k := cacheKey{t, s, normalize}
	if errs, ok := v.cache[k]; ok {
		v.recent[h] = recentValue{k, errs}
		return errs
	}
	errs := t.check(s, normalize, false, false, &v.ctx, out)
	if v.cache == nil || len(v.cache) >= cacheMax {
		v.cache = make(map[cacheKey][]valueErr, 64)
		v.recent = [len(v.recent)]recentValue{}
	}
	k.s = strings.Clone(s)
	v.cache[k] = errs
	v.recent[h] = recentValue{k, errs}
	return errs
}

func (v *Validator) charData(data []byte, cdata bool) {
	f := v.top()
	if f == nil {
		return
	}
	run := f.inText
	f.inText = true
	if f.mode == modeSkip || f.skipRest {
		return
	}
	if f.nilled {
		f.empty = false
		if !run {
			v.elemError(f, &NilError{elementKind: v.ek(f.name), Reason: "the element is nilled (xsi:nil=\"true\"), so it may have no content, but contains text"}, "")
		}
		return
	}
	td := f.typ
	switch {
	case td.urType || td.content == contentMixed:
		f.empty = false
		if f.decl != nil && f.decl.hasFixed && !td.urType {
			f.mixed = append(f.mixed, data...)
		}
	case td.simple || td.content == contentSimple:
		f.empty = false
		v.text = append(v.text, data...)
	case td.content == contentEmpty:
		f.empty = false
		if !run {
			v.elemError(f, &NotEmpty{elementKind: v.ek(f.name)}, td.desc)
		}
	default:
		f.empty = false
		if run && f.textNode {
			return
		}
		// libxml2 rejects any CDATA section here, even an empty one.
		blank := !cdata && allBlank(data)
		if !blank {
			f.textNode = true
			v.elemError(f, &TextNotAllowed{elementKind: v.ek(f.name)}, td.desc)
			return
		}
		if !run {
			f.textNode = false
		}
	}
}

func (v *Validator) endElement() {
	n := len(v.frames)
	if n == 0 {
		return
	}
	f := &v.frames[n-1]
	if f.mode == modeValidate {
		v.finish(f)
	}
	if f.big.waiting || f.big.waitRef != nil {
		f.big.closing() // which otherwise changes nothing
	}
	if n > 1 {
		if f.big.known() {
			// ended's common case, without the call.
			v.frames[n-2].big.prev = nodeLine{line: f.big.line}
		} else {
			v.frames[n-2].big.ended(v, &f.big, f.sibling, f.hasSibling)
		}
	} else if !f.big.known() && !f.big.hadChild {
		f.big.setLine(lineCap) // an empty root element
	}
	v.ns = v.ns[:f.nsMark]
	v.frames = v.frames[:n-1]
	if p := v.top(); p != nil {
		p.inText = false
	}
}

// finish runs the end-of-element checks: the content model, then the
// value of simple content.
func (v *Validator) finish(f *frame) {
	td := f.typ
	if td.urType || f.nilled {
		return
	}
	if !td.simple && (td.content == contentElements || td.content == contentMixed) {
		if !f.badModel && !td.model.final(f.state) {
			v.elemError(f, &MissingElements{elementKind: v.ek(f.name), Expected: td.model.expected(f.state)}, td.desc)
		}
		// Mixed content with a fixed value: the character data, if any,
		// must be the fixed value.
		if td.content == contentMixed && f.decl != nil && f.decl.hasFixed && !f.empty && string(f.mixed) != f.decl.constraint {
			v.elemError(f, &FixedValueMismatch{elementKind: v.ek(f.name), Value: string(f.mixed), Fixed: f.decl.constraint}, f.decl.desc)
		}
		return
	}
	if !td.simple && td.content != contentSimple {
		return
	}
	d := f.decl
	if d != nil && (d.hasDefault || d.hasFixed) && f.empty {
		return // the default or fixed value applies, and it is valid
	}
	// The text buffer is reused: validate without copying it, and copy
	// only what an error keeps.
	s := unsafe.String(unsafe.SliceData(v.text), len(v.text))
	// libxml2 does not normalise element content before checking it, even
	// with a value constraint (attributes it does normalise then).
	constrained := d != nil && d.hasFixed
	var val value
	errs := v.validateValue(td.st, s, false, constrained, &val)
	if errs != nil {
		v.valueError(f, strings.Clone(s), errs, td.desc)
		return
	}
	if d != nil && d.hasFixed && !valuesEqual(td.st, val, d.fixedValue) {
		v.elemError(f, &FixedValueMismatch{elementKind: v.ek(f.name), Value: strings.Clone(s), Fixed: d.constraint}, d.desc)
	}
}

// ek builds the common part of element-level kinds.
func (v *Validator) ek(n xmlscan.Name) elementKind {
	return elementKind{Element: n, prefixOf: v.prefixOf()}
}

// emit reports an error on the element of frame f, or queues it while the
// line libxml2 would give is not known.
func (v *Validator) emit(e *Error, f *frame) {
	if !f.big.known() {
		v.queue = append(v.queue, pendingError{e, f.big.getRef(v)})
		return
	}
	e.Line = f.big.line
	if len(v.queue) > 0 {
		v.queue = append(v.queue, pendingError{e, nil})
		return
	}
	if v.report != nil {
		v.report(e)
	}
}

// elemError reports an error on the element of frame f.
func (v *Validator) elemError(f *frame, k ErrorKind, comp string) {
	v.emit(&Error{Kind: k, Pos: f.pos, Path: v.pathOf(len(v.frames)), Component: comp, Message: k.String()}, f)
}

// parentError reports an error on the parent of the element just pushed
// onto the path (libxml2 reports content errors on the parent).
func (v *Validator) parentError(parent *frame, path string, k ErrorKind) {
	comp := ""
	if parent.typ != nil {
		comp = parent.typ.desc
	}
	v.emit(&Error{Kind: k, Pos: parent.pos, Path: path, Component: comp, Message: k.String()}, parent)
}

func (v *Validator) attrError(f *frame, a *xmlscan.Attr, k ErrorKind, comp string) {
	v.emit(&Error{Kind: k, Pos: a.Pos, Path: v.attrPath(a.Name), Component: comp, Message: k.String()}, f)
}

func (v *Validator) attrValueError(f *frame, t *xmlscan.Token, a *xmlscan.Attr, errs []valueErr, comp string) {
	for _, e := range errs {
		k := &InvalidAttributeValue{elementKind: v.ek(t.Name), Attribute: a.Name, valueKind: e.kind(a.Value)}
		v.attrError(f, a, k, e.component(comp))
	}
}

func (v *Validator) valueError(f *frame, s string, errs []valueErr, comp string) {
	for _, e := range errs {
		k := &InvalidElementValue{elementKind: v.ek(f.name), valueKind: e.kind(s)}
		v.elemError(f, k, e.component(comp))
	}
}

func (e valueErr) kind(s string) valueKind {
	return valueKind{Value: s, Type: e.typ.label, Facet: e.facet, FacetValue: e.facetValue, Detail: e.detail}
}

// component names the violated component: a user-defined named type with
// the facet; else the declaration, with the built-in type or facet.
func (e valueErr) component(decl string) string {
	c := e.typ.desc
	switch {
	case e.typ.name.local == "" && decl != "":
		c = decl
	case e.typ.name.ns == xsdNS && decl != "":
		c = decl + " (" + e.typ.desc + ")"
	}
	if e.facet != "" {
		c += " (" + e.facet + " \"" + e.facetValue + "\")"
	}
	return c
}

// boolType and qnameType return built-in simple types the validator uses
// for xsi attributes.
func (s *Schema) boolType() *simpleType  { return s.types[qname{xsdNS, "boolean"}].st }
func (s *Schema) qnameType() *simpleType { return s.types[qname{xsdNS, "QName"}].st }
