package xsd

import "strings"

// libxml2 accepts an xs:anyURI value when, after whitespace collapsing and
// after replacing every character that RFC 3986 forbids outright (controls,
// space, non-ASCII, and <>"{}|\^`') with '_', its URI parser
// (xmlParse3986URIReference) accepts it as a URI or a relative reference.
// So "not a uri?" is valid, and what fails is mostly structure: a '%' not
// followed by two hex digits, a second '#', '[' or ']' outside an IP
// literal or the fragment, a port that is not a number, an '@' too many in
// an authority, or a colon in the first segment of a relative path
// ("1a:b").

// validAnyURI reports whether libxml2 accepts s (already collapsed) as an
// xs:anyURI.
func validAnyURI(s string) bool {
	if s == "" || fastURI(s) {
		return true
	}
	u := uriParser{s: s}
	if u.uri() {
		return true
	}
	u.i = 0
	return u.relativeRef()
}

// uriPlain marks the bytes that are valid anywhere in a URI after
// libxml2's replacements: unreserved characters, sub-delimiters, and the
// characters libxml2 turns into '_'.
var uriPlain = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		t[c] = isUnreserved(b) || isSubDelim(b) || b < 32 || b >= 127 ||
			strings.IndexByte(" <>\"{}|\\^`'", b) >= 0
	}
	return t
}()

// uriPlainT is uriPlain for run; uriPathT adds what fastURI allows in a
// path, query or fragment: ':', '@', '/' and '?'.
var uriPlainT, uriPathT = func() (p, q [256]uint8) {
	for c := 0; c < 256; c++ {
		if uriPlain[c] {
			p[c], q[c] = 1, 1
		}
	}
	for _, c := range ":@/?" {
		q[c] = 1
	}
	return p, q
}()

// fastURI accepts, in one pass, the common shape
// scheme://host[:port][/path][?query][#fragment]. It returns false for
// anything else, which the full parser then decides; it never accepts
// what the full parser rejects.
func fastURI(s string) bool {
	if !isAlpha(s[0]) {
		return false
	}
	i := 1
	for i < len(s) && (isAlpha(s[i]) || isDigit(s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.') {
		i++
	}
	if !strings.HasPrefix(s[i:], "://") {
		return false
	}
	i += 3
	pct := func(i int) bool { return i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) }
	for {
		i = run(s, i, &uriPlainT)
		if i < len(s) && s[i] == '%' && pct(i) {
			i += 3
			continue
		}
		break
	}
	if i < len(s) && s[i] == ':' {
		i++
		if i >= len(s) || !isDigit(s[i]) {
			return false
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && s[i] != '/' && s[i] != '?' && s[i] != '#' {
		return false
	}
	fragment := false
	for i < len(s) {
		if i = run(s, i, &uriPathT); i >= len(s) {
			break
		}
		c := s[i]
		switch {
		case c == '%':
			if !pct(i) {
				return false
			}
			i += 3
		case c == '#':
			if fragment {
				return false
			}
			fragment = true
			i++
		case (c == '[' || c == ']') && fragment:
			i++
		default:
			return false
		}
	}
	return true
}

type uriParser struct {
	s string
	i int
}

// c returns the byte at offset k from the cursor, with the characters
// libxml2 replaces by '_' before parsing already replaced (so no copy of
// the value is needed), and 0 past the end.
func (u *uriParser) c(k int) byte {
	c := at(u.s, u.i+k)
	if u.i+k >= len(u.s) {
		return 0
	}
	if c < 32 || c >= 127 || c == ' ' || c == '<' || c == '>' || c == '"' ||
		c == '{' || c == '}' || c == '|' || c == '\\' || c == '^' || c == '`' || c == '\'' {
		return '_'
	}
	return c
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isHex(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func isUnreserved(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}

func isSubDelim(c byte) bool {
	switch c {
	case '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=':
		return true
	}
	return false
}

// pctAt reports a percent-encoded octet at the cursor.
func (u *uriParser) pctAt() bool { return u.c(0) == '%' && isHex(u.c(1)) && isHex(u.c(2)) }

// pchar consumes one pchar; noColon excludes ':' (segment-nz-nc).
func (u *uriParser) pchar(noColon bool) bool {
	c := u.c(0)
	switch {
	case u.pctAt():
		u.i += 3
		return true
	case isUnreserved(c) || isSubDelim(c) || c == '@' || c == ':' && !noColon:
		u.i++
		return true
	}
	return false
}

func (u *uriParser) segment() {
	for u.pchar(false) {
	}
}

// uri parses scheme ":" hier-part [ "?" query ] [ "#" fragment ] to the
// end of the string.
func (u *uriParser) uri() bool {
	if !isAlpha(u.c(0)) {
		return false
	}
	u.i++
	for c := u.c(0); isAlpha(c) || isDigit(c) || c == '+' || c == '-' || c == '.'; c = u.c(0) {
		u.i++
	}
	if u.c(0) != ':' {
		return false
	}
	u.i++
	switch {
	case u.c(0) == '/' && u.c(1) == '/':
		u.i += 2
		if !u.authority() {
			return false
		}
		u.pathAbempty()
	case u.c(0) == '/':
		u.pathAbsolute()
	default:
		if u.pchar(false) {
			u.segment()
			u.pathAbempty()
		}
	}
	return u.tail()
}

// relativeRef parses relative-part [ "?" query ] [ "#" fragment ] to the
// end of the string.
func (u *uriParser) relativeRef() bool {
	switch {
	case u.c(0) == '/' && u.c(1) == '/':
		u.i += 2
		if !u.authority() {
			return false
		}
		u.pathAbempty()
	case u.c(0) == '/':
		u.pathAbsolute()
	default:
		if u.pchar(true) {
			for u.pchar(true) {
			}
			u.pathAbempty()
		}
	}
	return u.tail()
}

// tail parses the optional query and fragment and requires the end.
func (u *uriParser) tail() bool {
	if u.c(0) == '?' {
		u.i++
		for u.pchar(false) || u.c(0) == '/' || u.c(0) == '?' {
			if u.c(0) == '/' || u.c(0) == '?' {
				u.i++
			}
		}
	}
	if u.c(0) == '#' {
		u.i++
		for u.pchar(false) || u.c(0) == '/' || u.c(0) == '?' || u.c(0) == '[' || u.c(0) == ']' {
			if c := u.c(0); c == '/' || c == '?' || c == '[' || c == ']' {
				u.i++
			}
		}
	}
	return u.i == len(u.s)
}

func (u *uriParser) pathAbempty() {
	for u.c(0) == '/' {
		u.i++
		u.segment()
	}
}

func (u *uriParser) pathAbsolute() {
	u.i++ // '/'
	if u.pchar(false) {
		u.segment()
		u.pathAbempty()
	}
}

// authority parses [ userinfo "@" ] host [ ":" port ].
func (u *uriParser) authority() bool {
	start := u.i
	for u.pctAt() || isUnreserved(u.c(0)) || isSubDelim(u.c(0)) || u.c(0) == ':' {
		if u.pctAt() {
			u.i += 3
		} else {
			u.i++
		}
	}
	if u.c(0) == '@' {
		u.i++
	} else {
		u.i = start
	}
	if u.c(0) == '[' {
		for u.i < len(u.s) && u.c(0) != ']' {
			u.i++
		}
		if u.c(0) != ']' {
			return false
		}
		u.i++
	} else {
		for u.pctAt() || isUnreserved(u.c(0)) || isSubDelim(u.c(0)) {
			if u.pctAt() {
				u.i += 3
			} else {
				u.i++
			}
		}
	}
	if u.c(0) == ':' {
		u.i++
		if !isDigit(u.c(0)) {
			return false
		}
		for isDigit(u.c(0)) {
			u.i++
		}
	}
	return true
}
