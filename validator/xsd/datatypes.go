package xsd

import (
	"strings"
	"unicode/utf8"
)

// value is a parsed value of a built-in type, as far as facets and
// enumerations need it.
type value struct {
	b   builtin // the built-in type that parsed it
	s   string  // string types, anyURI, hex (upper case), base64 (filtered), QName local name
	ns  string  // QName namespace name
	d   decimal
	f   float64
	dt  dateTime
	dur duration
	t   bool // boolean
	n   int  // octets of hexBinary and base64Binary
}

// nsContext resolves QName prefixes in the scope of the current element.
type nsContext interface {
	lookupPrefix(prefix string) (string, bool)
}

// parseBuiltin checks s against the lexical space of the built-in type b
// exactly as libxml2's schema validator does (xmlSchemaValAtomicType with
// normalisation "on the fly"), and returns the value. detail explains a
// failure that is not plainly lexical.
func parseBuiltin(b builtin, s string, nsc nsContext, v *value) (ok bool, detail string) {
	v.b = b
	switch b {
	case bAnyType, bAnySimpleType, bString, bNormalizedString, bToken:
		// Accepted as they are; the caller normalises for facets.
		v.s = s
		return true, ""
	case bLanguage:
		v.s = collapse(s)
		return checkLanguageID(v.s), ""
	case bName:
		v.s = trimBlanks(s)
		return validName(v.s, true), ""
	case bNCName, bID, bIDREF:
		v.s = trimBlanks(s)
		return validName(v.s, false), ""
	case bENTITY:
		// libxml2 wants an unparsed entity declared in the document's DTD;
		// the Scanner does not read DTDs, so no value can name one.
		v.s = trimBlanks(s)
		return false, "no unparsed entity of that name is declared"
	case bNMTOKEN:
		v.s = trimBlanks(s)
		return validNmtoken(v.s), ""
	case bQName, bNOTATION:
		return parseQName(s, nsc, v)
	case bAnyURI:
		v.s = collapse(s)
		return validAnyURI(v.s), ""
	case bBoolean:
		t := trimBlanks(s)
		switch t {
		case "true", "1":
			v.t = true
		case "false", "0":
		default:
			return false, ""
		}
		return true, ""
	case bDecimal:
		v.d, ok = parseDecimal(s)
		return ok, ""
	case bInteger, bNonPositiveInteger, bNegativeInteger, bNonNegativeInteger, bPositiveInteger,
		bLong, bInt, bShort, bByte, bUnsignedLong, bUnsignedInt, bUnsignedShort, bUnsignedByte:
		v.d, ok = parseInteger(s, b)
		return ok, ""
	case bFloat:
		v.f, ok = parseFloat(s, 32)
		return ok, ""
	case bDouble:
		v.f, ok = parseFloat(s, 64)
		return ok, ""
	case bDuration:
		v.dur, ok = parseDuration(s)
		return ok, ""
	case bDateTime, bDate, bTime, bGYear, bGYearMonth, bGMonth, bGMonthDay, bGDay:
		v.dt, ok = parseDateTime(s, b)
		return ok, ""
	case bHexBinary:
		t := trimBlanks(s)
		for i := 0; i < len(t); i++ {
			if !isHex(t[i]) {
				return false, ""
			}
		}
		if len(t)%2 != 0 {
			return false, ""
		}
		v.s = strings.ToUpper(t)
		v.n = len(t) / 2
		return true, ""
	case bBase64Binary:
		v.s, v.n, ok = parseBase64(s)
		return ok, ""
	}
	return false, "unsupported type"
}

// collapse applies whiteSpace="collapse": blanks become spaces, runs of
// them one space, and leading and trailing ones go.
func collapse(s string) string {
	clean := true
	i := 0
	for i+8 <= len(s) && !hasBlankOrLess(load64(s, i)) {
		i += 8
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c == '\t' || c == '\n' || c == '\r' || c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' ') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		if isBlank(s[i]) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// replaceWS applies whiteSpace="replace": each tab, newline and carriage
// return becomes a space.
func replaceWS(s string) string {
	if strings.IndexAny(s, "\t\n\r") < 0 {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if c == '\t' || c == '\n' || c == '\r' {
			b[i] = ' '
		}
	}
	return string(b)
}

func trimBlanks(s string) string { return strings.Trim(s, " \t\n\r") }

func normalizeWS(s string, ws whitespace) string {
	switch ws {
	case wsReplace:
		return replaceWS(s)
	case wsCollapse:
		return collapse(s)
	}
	return s
}

// normLen is libxml2's xmlSchemaNormLen: the length in characters of the
// collapsed value, counted in one pass without building it.
func normLen(s string) int {
	n, blanks := 0, false
	for i := 0; i < len(s); {
		if i+8 <= len(s) && printable8(load64(s, i)) {
			// Eight characters, none blank.
			if blanks && n > 0 {
				n++
			}
			blanks = false
			n += 8
			i += 8
			continue
		}
		c := s[i]
		if isBlank(c) {
			blanks = true
			i++
			continue
		}
		if blanks && n > 0 {
			n++ // the single space a run of blanks collapses to
		}
		blanks = false
		if c < utf8.RuneSelf {
			i++
		} else {
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
		}
		n++
	}
	return n
}

// validName checks an XML 1.0 (4th edition) Name, or an NCName.
func validName(s string, colon bool) bool {
	for i, r := range s {
		if i == 0 {
			if !isXMLLetter(r) && r != '_' && (r != ':' || !colon) {
				return false
			}
			continue
		}
		if !isNameChar(r) || r == ':' && !colon {
			return false
		}
	}
	return s != ""
}

func validNmtoken(s string) bool {
	for _, r := range s {
		if !isNameChar(r) {
			return false
		}
	}
	return s != ""
}

// parseQName is libxml2's QName handling in the validator: the lexical
// check trims blanks, but the prefix and local name are split from the
// raw value, so " p:x" looks up the prefix " p" and fails.
func parseQName(s string, nsc nsContext, v *value) (ok bool, detail string) {
	v.b = bQName
	t := trimBlanks(s)
	prefix, local, found := strings.Cut(t, ":")
	if !found {
		local, prefix = t, ""
	}
	if found && !validName(prefix, false) || !validName(local, false) {
		return false, ""
	}
	rawPrefix, rawLocal, rawFound := strings.Cut(s, ":")
	if !rawFound {
		rawLocal, rawPrefix = s, ""
	}
	v.s = rawLocal
	if nsc == nil {
		return true, ""
	}
	uri, bound := nsc.lookupPrefix(rawPrefix)
	if rawFound && !bound {
		return false, "the prefix " + quoteValue(rawPrefix) + " is not bound to a namespace"
	}
	v.ns = uri
	return true, ""
}

// parseBase64 is libxml2's lax base64 check: characters outside the
// alphabet are ignored, then the count and padding must work out.
func parseBase64(s string) (filtered string, octets int, ok bool) {
	dec := func(c byte) int {
		switch {
		case 'A' <= c && c <= 'Z':
			return int(c - 'A')
		case 'a' <= c && c <= 'z':
			return int(c-'a') + 26
		case '0' <= c && c <= '9':
			return int(c-'0') + 52
		case c == '+':
			return 62
		case c == '/':
			return 63
		case c == '=':
			return 64
		}
		return -1
	}
	i, pad, cur := 0, 0, 0
	for ; cur < len(s); cur++ {
		d := dec(s[cur])
		if d < 0 {
			continue
		}
		if d == 64 {
			break
		}
		i++
	}
	for ; cur < len(s); cur++ {
		d := dec(s[cur])
		if d >= 0 && d < 64 {
			return "", 0, false
		}
		if d == 64 {
			pad++
		}
	}
	total := 3 * (i / 4)
	lastData := func() int {
		for k := len(s) - 1; k >= 0; k-- {
			if d := dec(s[k]); d >= 0 && d < 64 {
				return d
			}
		}
		return 0
	}
	switch pad {
	case 0:
		if i%4 != 0 {
			return "", 0, false
		}
	case 1:
		if i%4 != 3 || lastData()&^0x3c != 0 {
			return "", 0, false
		}
		total += 2
	case 2:
		if i%4 != 2 || lastData()&^0x30 != 0 {
			return "", 0, false
		}
		total++
	default:
		return "", 0, false
	}
	var b strings.Builder
	for k := 0; k < len(s); k++ {
		if dec(s[k]) >= 0 {
			b.WriteByte(s[k])
		}
	}
	return b.String(), total, true
}

// checkLanguageID is libxml2's xmlSchemaCheckLanguageType, applied to
// the collapsed value: the XML Schema pattern
// [a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*.
func checkLanguageID(s string) bool {
	first, n := true, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '-':
			if n < 1 || n > 8 {
				return false
			}
			n, first = 0, false
		case isAlpha(c) || !first && isDigit(c):
			n++
		default:
			return false
		}
	}
	return n >= 1 && n <= 8
}
