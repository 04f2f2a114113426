package xmlscan

import (
	"bytes"
	"encoding/binary"
	"io"
	"unicode/utf8"
)

const (
	xmlNS   = "http://www.w3.org/XML/1998/namespace"
	xmlnsNS = "http://www.w3.org/2000/xmlns/"
)

// rawAttr is an attribute as parsed, before namespace processing.
type rawAttr struct {
	q        *qname
	i        int // buffer index of the name
	vs, ve   int // value in Scanner.vals
	valIndex int // buffer index of the value's first character
}

// startTag parses a start tag or empty-element tag at s.r (production
// [40]/[44]), then checks attributes and namespaces.
func (s *Scanner) startTag() error {
	const what = "start tag"
	if s.rootDone {
		return s.errAt(s.r, "element after the end of the root element (a document has one root)")
	}
	if s.depth >= s.lim.MaxDepth {
		return s.errAt(s.r, "elements nested deeper than %d levels", s.lim.MaxDepth)
	}
	b := s.buf[s.r:s.w]
	var q *qname
	var i int
	var err error
	if last := s.lastStart; last != nil && predicted(last.nextStart, b, 1) {
		q = last.nextStart
		i = 1 + len(q.full)
	} else {
		q, i, err = s.qnameAt(b, 1, "element")
		if err != nil {
			return err
		}
		if last != nil {
			last.nextStart = q
		}
	}
	s.lastStart = q
	prev := q // the name before the next attribute's, see qname.nextAttr
	s.rawAttrs = s.rawAttrs[:0]
	s.vals = s.vals[:0]
	s.tagNL = false
	self := false
	for {
		ws := i
		for i < len(b) && isSpace(b[i]) {
			if b[i] == '\n' || b[i] == '\r' {
				s.tagNL = true
			}
			i++
		}
		if i >= len(b) {
			return s.short(s.r+i, what+" <"+q.full+">")
		}
		c := b[i]
		if c == '>' {
			i++
			break
		}
		if c == '/' {
			if i+1 >= len(b) {
				return s.short(s.r+i+1, what+" <"+q.full+">")
			}
			if b[i+1] != '>' {
				return s.errAt(s.r+i, "expected \"/>\" in start tag <%s>", q.full)
			}
			i += 2
			self = true
			break
		}
		a := rawAttr{i: s.r + i}
		if p := prev.nextAttr; predicted(p, b, i) {
			if ws == i {
				return s.errAt(s.r+i, "missing whitespace before attribute in <%s>", q.full)
			}
			a.q = p
			i += len(p.full)
		} else {
			if end, more := scanName(b, i); end == i {
				if more && s.rerr != io.EOF {
					return errShort
				}
				return s.charErr(s.r+i, "start tag <"+q.full+">")
			}
			if ws == i {
				return s.errAt(s.r+i, "missing whitespace before attribute in <%s>", q.full)
			}
			a.q, i, err = s.qnameAt(b, i, "attribute")
			if err != nil {
				return err
			}
			prev.nextAttr = a.q
		}
		prev = a.q
		for i < len(b) && isSpace(b[i]) {
			if b[i] == '\n' || b[i] == '\r' {
				s.tagNL = true
			}
			i++
		}
		if i >= len(b) {
			return s.short(s.r+i, what+" <"+q.full+">")
		}
		if b[i] != '=' {
			return s.errAt(s.r+i, "attribute %q has no value (expected '=')", a.q.full)
		}
		i++
		for i < len(b) && isSpace(b[i]) {
			if b[i] == '\n' || b[i] == '\r' {
				s.tagNL = true
			}
			i++
		}
		if i >= len(b) {
			return s.short(s.r+i, what+" <"+q.full+">")
		}
		quote := b[i]
		if quote != '"' && quote != '\'' {
			return s.errAt(s.r+i, "value of attribute %q is not quoted", a.q.full)
		}
		i++
		a.valIndex = s.r + i
		// The usual value holds nothing to replace or check: found with
		// its closing quote in one pass, eight bytes at a time, and
		// copied as it is. Anything else takes the way below.
		k := i
		for k+8 <= len(b) {
			if x := binary.LittleEndian.Uint64(b[k:]); !plainAttr8(x) || zeroByte(x^uint64(quote)*ones) != 0 {
				break
			}
			k += 8
		}
		for k < len(b) && class[b[k]]&clAttr == 0 && b[k] != quote {
			k++
		}
		if k < len(b) && b[k] == quote {
			a.vs = len(s.vals)
			s.vals = append(s.vals, b[i:k]...)
			a.ve = len(s.vals)
			s.rawAttrs = append(s.rawAttrs, a)
			i = k + 1
			continue
		}
		j := bytes.IndexByte(b[i:], quote)
		if j < 0 {
			// The value continues past the buffer. Errors inside it come
			// first; then read more, or report the end of the input.
			if k := bytes.IndexByte(b[i:], '<'); k >= 0 {
				// Report the first error in document order, as when the
				// whole value is buffered.
				if err := s.attrValue(s.r+i, s.r+i+k, a.q); err != nil {
					return err
				}
				return s.errAt(s.r+i+k, "'<' is not allowed in an attribute value (attribute %q)", a.q.full)
			}
			if s.rerr != io.EOF {
				return errShort
			}
			if err := s.attrValue(s.r+i, s.w, a.q); err != nil {
				return err
			}
			return s.short(s.w, "value of attribute \""+a.q.full+"\"")
		}
		a.vs = len(s.vals)
		if err := s.attrValue(s.r+i, s.r+i+j, a.q); err != nil {
			return err
		}
		a.ve = len(s.vals)
		s.rawAttrs = append(s.rawAttrs, a)
		i += j + 1
	}
	return s.element(q, s.r+i, self)
}

// qnameAt scans the name at b[i] (b starts at s.r) and interns it.
func (s *Scanner) qnameAt(b []byte, i int, what string) (*qname, int, error) {
	end, more := scanName(b, i)
	if more && s.rerr != io.EOF {
		return nil, 0, errShort
	}
	if end == i {
		if i >= len(b) {
			return nil, 0, s.short(s.r+i, what+" name")
		}
		if what == "element" {
			if err := s.badChar(s.r + i); err != nil {
				return nil, 0, err
			}
			return nil, 0, s.errAt(s.r+i, "invalid element name: '<' is followed by %q", charAt(b, i))
		}
		return nil, 0, s.charErr(s.r+i, what+" name")
	}
	q, problem := s.internQName(b[i:end])
	if problem != "" {
		return nil, 0, s.errAt(s.r+i, "%s", problem)
	}
	return q, end, nil
}

// charAt returns the character at b[i], for messages.
func charAt(b []byte, i int) string {
	r, _ := utf8.DecodeRune(b[i:])
	return string(r)
}

// attrValue appends the normalised value of buf[i:j] to s.vals (XML 1.0
// §3.3.3 for CDATA attributes: each whitespace character becomes a space
// after line-end normalisation, references are replaced, and a character
// reference to a whitespace character keeps that character).
func (s *Scanner) attrValue(i, j int, q *qname) error {
	b := s.buf[i:j]
	flushed := 0
	for k := 0; k < len(b); {
		for k+8 <= len(b) && plainAttr8(binary.LittleEndian.Uint64(b[k:])) {
			k += 8
		}
		for k < len(b) && class[b[k]]&clAttr == 0 {
			k++
		}
		if k >= len(b) {
			break
		}
		c := b[k]
		switch {
		case c >= 0x80:
			n, err := s.checkRune(b, k, i)
			if err != nil {
				return err
			}
			k += n
		case c == '\t' || c == '\n':
			s.tagNL = s.tagNL || c == '\n'
			s.vals = append(s.vals, b[flushed:k]...)
			s.vals = append(s.vals, ' ')
			k++
			flushed = k
		case c == '\r':
			s.tagNL = true
			s.vals = append(s.vals, b[flushed:k]...)
			s.vals = append(s.vals, ' ')
			k++
			if k < len(b) && b[k] == '\n' {
				k++
			}
			flushed = k
		case c == '&':
			r, n, err := s.reference(b, k, i)
			if err != nil {
				return err
			}
			s.vals = append(s.vals, b[flushed:k]...)
			s.vals = appendRune(s.vals, r)
			k += n
			flushed = k
		case c == '<':
			return s.errAt(i+k, "'<' is not allowed in an attribute value (attribute %q)", q.full)
		default:
			return s.charErr(i+k, "attribute value")
		}
	}
	s.vals = append(s.vals, b[flushed:]...)
	return nil
}

// reference decodes the reference at b[k] (b is complete and starts at
// buffer index base): a character reference (production [66]) or one of
// the five predefined entities. Other entities are never expanded, so a
// reference to one is an error. It returns the character and the length of
// the reference.
func (s *Scanner) reference(b []byte, k, base int) (rune, int, error) {
	at := base + k
	j := k + 1
	if j < len(b) && b[j] == '#' {
		j++
		hex := j < len(b) && b[j] == 'x'
		if hex {
			j++
		}
		start := j
		v := 0
		for ; j < len(b); j++ {
			c := b[j]
			var d int
			switch {
			case c >= '0' && c <= '9':
				d = int(c - '0')
			case hex && c >= 'a' && c <= 'f':
				d = int(c-'a') + 10
			case hex && c >= 'A' && c <= 'F':
				d = int(c-'A') + 10
			default:
				goto done
			}
			if hex {
				v = v*16 + d
			} else {
				v = v*10 + d
			}
			if v > 0x10FFFF {
				v = 0x110000
			}
		}
	done:
		if j == start || j >= len(b) || b[j] != ';' {
			return 0, 0, s.errAt(at, "malformed character reference %q", b[k:min(j+1, len(b))])
		}
		if !isChar(rune(v)) {
			return 0, 0, s.errAt(at, "character reference %s does not denote a character XML allows", b[k:j+1])
		}
		return rune(v), j + 1 - k, nil
	}
	end, _ := scanName(b, j)
	if end == j {
		return 0, 0, s.errAt(at, "'&' must start a reference (write a literal '&' as \"&amp;\")")
	}
	if end >= len(b) || b[end] != ';' {
		return 0, 0, s.errAt(at, "reference %q is not terminated by ';'", b[k:end])
	}
	name := b[j:end]
	switch string(name) {
	case "lt":
		return '<', end + 1 - k, nil
	case "gt":
		return '>', end + 1 - k, nil
	case "amp":
		return '&', end + 1 - k, nil
	case "apos":
		return '\'', end + 1 - k, nil
	case "quot":
		return '"', end + 1 - k, nil
	}
	if s.entities[string(name)] {
		return 0, 0, s.errAt(at, "entity %q is declared in the DOCTYPE but not expanded (entities are never expanded)", name)
	}
	return 0, 0, s.errAt(at, "undefined entity %q", name)
}

// element completes a start tag that ends at buffer index end: duplicate
// attributes, namespace declarations and name resolution, then the token.
func (s *Scanner) element(q *qname, end int, self bool) error {
	t := &s.tok
	ras := s.rawAttrs
	// Duplicates by qualified name (XML 1.0 WFC: Unique Att Spec).
	if n := len(ras); n > 16 {
		if _, dup := s.duplicate(len(ras), func(k int) string { return ras[k].q.full }); dup >= 0 {
			return s.errAt(ras[dup].i, "attribute %q appears twice", ras[dup].q.full)
		}
	} else {
		// Pairwise, as duplicate does it, without its calls: names are
		// interned, so equal ones are the same qname, and two interned
		// ones that are not the same have different names.
		for j := 1; j < n; j++ {
			qj := ras[j].q
			for i := 0; i < j; i++ {
				if qi := ras[i].q; qi == qj || !(qi.interned && qj.interned) && qi.full == qj.full {
					return s.errAt(ras[j].i, "attribute %q appears twice", qj.full)
				}
			}
		}
	}
	// Namespace declarations come first: they apply to the element's own
	// name and attributes wherever they appear in the tag.
	// Positions are computed in document order so that the line cursor
	// only moves on; on the cursor's line when the tag holds no line end,
	// which most tags do not, and then as the attributes are built.
	oneLine := !s.tagNL && s.ci == s.r
	mark := len(s.ns)
	decls := s.nsDecls[:0]
	nattr := 0
	for k := range ras {
		a := &ras[k]
		if !a.q.decl {
			nattr++
			continue
		}
		var prefix string
		if a.q.prefix == "xmlns" {
			prefix = a.q.local
		}
		uri := s.intern(s.vals[a.vs:a.ve])
		if err := s.checkDecl(a, prefix, uri); err != nil {
			return err
		}
		s.pushNS(prefix, uri)
		d := NSDecl{Prefix: prefix, URI: uri}
		if oneLine {
			d.Pos = s.sameLine(a.i)
		}
		decls = append(decls, d)
	}
	s.nsDecls = decls
	name := Name{Local: q.local, Prefix: q.prefix}
	switch q.prefix {
	case "":
		name.Space, _ = s.resolve(q)
	case "xmlns":
		return s.errAt(s.r+1, "element name %q uses the reserved prefix xmlns", q.full)
	default:
		uri, ok := s.resolve(q)
		if !ok {
			return s.errAt(s.r+1, "undeclared namespace prefix %q", q.prefix)
		}
		name.Space = uri
	}
	attrs := s.attrs[:0]
	if nattr > 0 {
		all := string(s.vals) // one allocation for all values of the tag
		prefixed := 0
		for k := range ras {
			a := &ras[k]
			if a.q.decl {
				continue
			}
			an := Name{Local: a.q.local, Prefix: a.q.prefix}
			if a.q.prefix != "" {
				uri, ok := s.resolve(a.q)
				if !ok {
					return s.errAt(a.i, "undeclared namespace prefix %q", a.q.prefix)
				}
				an.Space = uri
				prefixed++
			}
			at := Attr{Name: an, Value: all[a.vs:a.ve]}
			if oneLine {
				at.Pos = s.sameLine(a.i)
			}
			attrs = append(attrs, at)
		}
		// Duplicates by expanded name (Namespaces in XML 1.0 §6.3): only
		// prefixed attributes can collide, unprefixed ones are in no
		// namespace.
		if prefixed > 1 {
			first, dup := s.duplicate(len(attrs), func(k int) string {
				if attrs[k].Name.Prefix == "" {
					return ""
				}
				return attrs[k].Name.Space + " " + attrs[k].Name.Local
			})
			if dup >= 0 {
				a, f := attrs[dup].Name, attrs[first].Name
				return s.errAt(ras[s.rawIndex(dup)].i, "attributes %q and %q have the same expanded name {%s}%s",
					f.Prefix+":"+f.Local, a.Prefix+":"+a.Local, a.Space, a.Local)
			}
		}
	}
	if !oneLine {
		ai, di := 0, 0
		for k := range ras {
			a := &ras[k]
			p := s.posAt(a.i)
			if a.q.decl {
				decls[di].Pos = p
				di++
			} else {
				attrs[ai].Pos = p
				ai++
			}
		}
	}
	s.attrs = attrs
	t.Kind = StartElement
	t.Name = name
	t.Attrs = attrs
	t.NSDecls = decls
	t.SelfClosing = self
	s.depth++
	t.Depth = s.depth
	s.seenRoot = true
	s.stack = append(s.stack, elem{q: q, name: name, ns: mark})
	if oneLine {
		// No line end in the tag: the end is on the cursor's line.
		t.End = s.sameLine(end)
		s.ci, s.lastCR, s.r = end, false, end
	} else {
		s.finish(end)
	}
	s.pendingEnd = self
	return nil
}

// rawIndex maps the index of an attribute in s.attrs to its index in
// s.rawAttrs (which also holds the namespace declarations).
func (s *Scanner) rawIndex(k int) int {
	for i := range s.rawAttrs {
		a := &s.rawAttrs[i]
		if a.q.decl {
			continue
		}
		if k == 0 {
			return i
		}
		k--
	}
	return 0
}

// duplicate finds the first repeated non-empty key among n keys and
// returns the indexes of its first and second occurrence (-1, -1 if none).
// Small tags are checked pairwise; large ones with a map, so that a hostile
// tag with many attributes costs linear time.
func (s *Scanner) duplicate(n int, key func(int) string) (int, int) {
	if n <= 16 {
		for j := 1; j < n; j++ {
			kj := key(j)
			if kj == "" {
				continue
			}
			for i := 0; i < j; i++ {
				if key(i) == kj {
					return i, j
				}
			}
		}
		return -1, -1
	}
	if s.seen == nil {
		s.seen = make(map[string]int)
	}
	clear(s.seen)
	for j := 0; j < n; j++ {
		kj := key(j)
		if kj == "" {
			continue
		}
		if i, ok := s.seen[kj]; ok {
			return i, j
		}
		s.seen[kj] = j
	}
	return -1, -1
}

// checkDecl enforces the constraints of Namespaces in XML 1.0 §3 on a
// declaration of prefix ("" for the default namespace) as uri.
func (s *Scanner) checkDecl(a *rawAttr, prefix, uri string) error {
	switch {
	case prefix == "xmlns":
		return s.errAt(a.i, "the prefix xmlns must not be declared")
	case prefix == "xml":
		if uri != xmlNS {
			return s.errAt(a.valIndex, "the prefix xml must be bound to %s, not %q", xmlNS, uri)
		}
	case uri == xmlNS:
		if prefix == "" {
			return s.errAt(a.valIndex, "the XML namespace cannot be the default namespace")
		}
		return s.errAt(a.valIndex, "the XML namespace can be bound only to the prefix xml, not %q", prefix)
	case uri == xmlnsNS:
		return s.errAt(a.valIndex, "the xmlns namespace %s must not be declared", xmlnsNS)
	case prefix != "" && uri == "":
		return s.errAt(a.valIndex, "namespace prefix %q cannot be undeclared (xmlns:%s=\"\")", prefix, prefix)
	}
	return nil
}
