package xmlscan

import "unicode/utf8"

// Byte classes for the ASCII range. Everything at or above 0x80 has class 0
// and is decoded as UTF-8 by the callers.
const (
	clNameStart = 1 << iota // NameStartChar (XML 1.0 5th ed. production [4])
	clName                  // NameChar (production [4a])
	clSpace                 // S (production [3])
	clText                  // needs attention in character data
	clAttr                  // needs attention in an attribute value
	clChar                  // needs attention in comments, PIs, CDATA, DOCTYPE
	clTextL                 // clText, or a line feed: text counts line ends as it reads
)

var class [256]uint8

func init() {
	for c := 0; c < 256; c++ {
		var k uint8
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == ':':
			k |= clNameStart | clName
		case c >= '0' && c <= '9', c == '-', c == '.':
			k |= clName
		case c == ' ', c == '\t', c == '\n', c == '\r':
			k |= clSpace
		}
		if c >= 0x80 {
			k |= clText | clAttr | clChar
		}
		if c < 0x20 {
			// Control characters: all need a look in attribute values
			// (whitespace is normalised), all but tab and LF elsewhere
			// (CR is normalised, the rest are not XML characters).
			k |= clAttr
			if c != '\t' && c != '\n' {
				k |= clText | clChar
			}
		}
		switch c {
		case '&', '<', ']':
			k |= clText
		}
		switch c {
		case '&', '<':
			k |= clAttr
		}
		if k&clText != 0 || c == '\n' {
			k |= clTextL
		}
		class[c] = k
	}
}

// Eight bytes at a time: the loops over character data and attribute
// values skip a word of plain characters at once. The tests below tell
// whether any byte of the word needs a look (they may say so of a word
// that only holds a tab, never the reverse); which one, the byte loop
// finds. In WebAssembly, where every byte costs a bounds check and a
// table load, this is most of the reading time of long values.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// zeroByte is non-zero when a byte of x is zero.
func zeroByte(x uint64) uint64 { return (x - ones) & ^x & highs }

// plainText8 reports that none of the eight bytes of x needs attention
// in character data: no control character (line ends included), no byte
// of a multi-byte character, no '&', '<' or ']'.
func plainText8(x uint64) bool {
	return (x|(x-0x20*ones))&highs|zeroByte(x^'&'*ones)|zeroByte(x^'<'*ones)|zeroByte(x^']'*ones) == 0
}

// nonZero8 has the high bit of each byte of y that is not zero set, and
// no other bit: exact byte by byte, unlike zeroByte.
func nonZero8(y uint64) uint64 { return ((y & 0x7F7F7F7F7F7F7F7F) + 0x7F7F7F7F7F7F7F7F | y) & highs }

// plainAttr8 is plainText8 for attribute values, where ']' is plain.
func plainAttr8(x uint64) bool {
	return (x|(x-0x20*ones))&highs|zeroByte(x^'&'*ones)|zeroByte(x^'<'*ones) == 0
}

func isSpace(c byte) bool { return class[c]&clSpace != 0 }

// isNameStartRune reports whether r (>= 0x80) is a NameStartChar.
func isNameStartRune(r rune) bool {
	switch {
	case r < 0x80:
		return class[r]&clNameStart != 0
	case r >= 0xC0 && r <= 0xD6, r >= 0xD8 && r <= 0xF6, r >= 0xF8 && r <= 0x2FF,
		r >= 0x370 && r <= 0x37D, r >= 0x37F && r <= 0x1FFF, r >= 0x200C && r <= 0x200D,
		r >= 0x2070 && r <= 0x218F, r >= 0x2C00 && r <= 0x2FEF, r >= 0x3001 && r <= 0xD7FF,
		r >= 0xF900 && r <= 0xFDCF, r >= 0xFDF0 && r <= 0xFFFD, r >= 0x10000 && r <= 0xEFFFF:
		return true
	}
	return false
}

// isNameRune reports whether r is a NameChar.
func isNameRune(r rune) bool {
	if r < 0x80 {
		return class[r]&clName != 0
	}
	return isNameStartRune(r) || r == 0xB7 || r >= 0x300 && r <= 0x36F || r >= 0x203F && r <= 0x2040
}

// isChar reports whether r is allowed by the Char production [2].
func isChar(r rune) bool {
	switch {
	case r >= 0x20 && r <= 0xD7FF:
		return true
	case r == '\t', r == '\n', r == '\r':
		return true
	case r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

// scanName returns the end of the Name starting at b[i] (i itself when no
// name starts there). more reports that the name runs to the end of b, so
// that more input could extend it.
func scanName(b []byte, i int) (end int, more bool) {
	start := i
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if class[c]&clName == 0 || i == start && class[c]&clNameStart == 0 {
				return i, false
			}
			i++
			continue
		}
		if !utf8.FullRune(b[i:]) {
			return i, true
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 || i == start && !isNameStartRune(r) || !isNameRune(r) {
			return i, false
		}
		i += n
	}
	return i, true
}

// qname is an interned qualified name as written in the document.
type qname struct {
	full   string // "rs:md"
	prefix string // "rs"
	local  string // "md"
	// The namespace the prefix was bound to when the bindings were
	// nsGen (Scanner.nsGen): resolving it again is a comparison then.
	nsGen uint64
	space string
	bound bool
	// Names come in the same order again and again in big documents:
	// nextStart is the element name whose start tag followed this one's
	// last time, nextAttr the attribute name that came next in the tag
	// (the first attribute, for an element name). The tag parsers try
	// the prediction with one comparison before scanning and hashing.
	nextStart, nextAttr *qname
	decl                bool // xmlns or xmlns:*, a namespace declaration
	interned            bool // in Scanner.qnames: no other qname has this name
}

// predicted reports whether the name at b[i] is p's, whole: followed by
// a byte that cannot continue a name.
func predicted(p *qname, b []byte, i int) bool {
	if p == nil {
		return false
	}
	e := i + len(p.full)
	return e < len(b) && b[e] < utf8.RuneSelf && class[b[e]]&clName == 0 && string(b[i:e]) == p.full
}

// maxInterned bounds the intern tables so that a hostile document with
// millions of distinct names cannot grow them without limit; names past the
// bound are still correct, just allocated each time.
const maxInterned = 1 << 15

// internQName returns the interned qname for a syntactically valid Name b,
// or a non-empty problem when b is not a valid QName (Namespaces in XML 1.0
// production [7]).
func (s *Scanner) internQName(b []byte) (*qname, string) {
	// A small direct-mapped cache in front of the map: documents repeat a
	// few names, and comparing bytes is cheaper than hashing them.
	h := (len(b)*31 + int(b[0])*7 + int(b[len(b)-1])) & (len(s.recent) - 1)
	if q := s.recent[h]; q != nil && q.full == string(b) {
		return q, ""
	}
	if q, ok := s.qnames[string(b)]; ok {
		s.recent[h] = q
		return q, ""
	}
	full := string(b)
	q := &qname{full: full, local: full}
	colon := -1
	for i := 0; i < len(b); i++ {
		if b[i] == ':' {
			if colon >= 0 {
				return nil, "name \"" + full + "\" has more than one colon"
			}
			colon = i
		}
	}
	if colon >= 0 {
		switch {
		case colon == 0:
			return nil, "name \"" + full + "\" has an empty namespace prefix"
		case colon == len(b)-1:
			return nil, "name \"" + full + "\" has an empty local part"
		}
		r, _ := utf8.DecodeRune(b[colon+1:])
		if !isNameStartRune(r) {
			return nil, "local part of \"" + full + "\" does not start with a name character"
		}
		q.prefix = s.intern(b[:colon])
		q.local = full[colon+1:]
	}
	q.decl = q.prefix == "xmlns" || full == "xmlns"
	if len(s.qnames) < maxInterned {
		q.interned = true
		s.qnames[full] = q
	}
	s.recent[h] = q
	return q, ""
}

// intern returns b as a string, shared between equal values.
func (s *Scanner) intern(b []byte) string {
	if v, ok := s.strs[string(b)]; ok {
		return v
	}
	v := string(b)
	if len(s.strs) < maxInterned {
		s.strs[v] = v
	}
	return v
}
