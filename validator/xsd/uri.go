package xsd

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
	if s == "" {
		return true
	}
	b := []byte(s)
	for i, c := range b {
		if c < 32 || c >= 127 || c == ' ' || c == '<' || c == '>' || c == '"' ||
			c == '{' || c == '}' || c == '|' || c == '\\' || c == '^' || c == '`' || c == '\'' {
			b[i] = '_'
		}
	}
	u := uriParser{s: string(b)}
	if u.uri() {
		return true
	}
	u.i = 0
	return u.relativeRef()
}

type uriParser struct {
	s string
	i int
}

func (u *uriParser) c(k int) byte { return at(u.s, u.i+k) }

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
		for u.i < len(u.s) && u.s[u.i] != ']' {
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
