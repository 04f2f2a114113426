package xmlscan

import (
	"bytes"
	"io"
	"unicode/utf8"
)

// doctype parses a document type declaration at s.r (production [28]):
//
//	'<!DOCTYPE' S Name (S ExternalID)? S? ('[' intSubset ']' S?)? '>'
//
// The internal subset is checked for its overall structure (declarations,
// quoted literals, comments, PIs, parameter-entity references) and the names
// of general entities are recorded; content models and attribute-list
// declarations are only scanned, and nothing is ever expanded.
func (s *Scanner) doctype() error {
	const what = "DOCTYPE"
	switch {
	case s.seenDTD:
		return s.errAt(s.r, "second DOCTYPE declaration")
	case s.seenRoot:
		return s.errAt(s.r, "DOCTYPE declaration inside or after the root element")
	}
	b := s.buf[:s.w]
	i := s.r + 9
	if i >= len(b) {
		return s.short(i, what)
	}
	if !isSpace(b[i]) {
		return s.errAt(i, "missing whitespace after <!DOCTYPE")
	}
	i = skipSpace(b, i)
	end, more := scanName(b, i)
	if more && s.rerr != io.EOF {
		return errShort
	}
	if end == i {
		return s.charErr(i, "DOCTYPE (expected the root element name)")
	}
	i = end
	ws := i
	i = skipSpace(b, i)
	if i >= len(b) {
		return s.short(i, what)
	}
	hasExt := false
	if b[i] == 'S' || b[i] == 'P' {
		hasExt = true
		if ws == i {
			return s.errAt(i, "missing whitespace before the external ID in DOCTYPE")
		}
		var err error
		if i, err = s.externalID(b, i, false); err != nil {
			return err
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return s.short(i, what)
		}
	}
	var ents []string
	if b[i] == '[' {
		var err error
		if i, ents, err = s.intSubset(b, i+1, hasExt); err != nil {
			return err
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return s.short(i, what)
		}
	}
	if b[i] != '>' {
		return s.charErr(i, what)
	}
	data, err := s.chars(s.r+9, i, what)
	if err != nil {
		return err
	}
	s.seenDTD = true
	if len(ents) > 0 {
		s.entities = make(map[string]bool, len(ents))
		for _, e := range ents {
			s.entities[e] = true
		}
	}
	s.tok.Kind = Doctype
	s.tok.Data = data
	s.finish(i + 1)
	return nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// keyword reports whether b[i:] starts with kw; short is set when b ends
// before it can tell.
func keyword(b []byte, i int, kw string) (ok, short bool) {
	n := min(len(b)-i, len(kw))
	if string(b[i:i+n]) != kw[:n] {
		return false, false
	}
	return n == len(kw), n < len(kw)
}

// externalID parses 'SYSTEM' S SystemLiteral | 'PUBLIC' S PubidLiteral
// (S SystemLiteral)? at b[i]. The system literal is optional only in a
// NOTATION declaration (optSystem).
func (s *Scanner) externalID(b []byte, i int, optSystem bool) (int, error) {
	const what = "external ID"
	pub := false
	if ok, sh := keyword(b, i, "SYSTEM"); sh {
		return 0, s.short(len(b), what)
	} else if !ok {
		ok, sh = keyword(b, i, "PUBLIC")
		if sh {
			return 0, s.short(len(b), what)
		}
		if !ok {
			return 0, s.errAt(i, "expected SYSTEM or PUBLIC")
		}
		pub = true
	}
	i += 6
	if i >= len(b) {
		return 0, s.short(i, what)
	}
	if !isSpace(b[i]) {
		return 0, s.errAt(i, "missing whitespace after %s", b[i-6:i])
	}
	i = skipSpace(b, i)
	if pub {
		end, err := s.literal(b, i, true)
		if err != nil {
			return 0, err
		}
		ws := end
		i = skipSpace(b, end)
		if i >= len(b) {
			return 0, s.short(i, what)
		}
		if b[i] != '"' && b[i] != '\'' {
			if optSystem {
				return ws, nil
			}
			return 0, s.errAt(i, "expected the system literal after the public ID")
		}
		if ws == i {
			return 0, s.errAt(i, "missing whitespace before the system literal")
		}
	}
	return s.literal(b, i, false)
}

// literal parses a quoted SystemLiteral or PubidLiteral at b[i].
func (s *Scanner) literal(b []byte, i int, pubid bool) (int, error) {
	if i >= len(b) {
		return 0, s.short(i, "literal")
	}
	q := b[i]
	if q != '"' && q != '\'' {
		return 0, s.errAt(i, "expected a quoted literal")
	}
	j := bytes.IndexByte(b[i+1:], q)
	if j < 0 {
		return 0, s.short(len(b), "literal")
	}
	end := i + 1 + j
	if pubid {
		for k := i + 1; k < end; k++ {
			if !isPubidChar(b[k]) {
				return 0, s.charErr(k, "public ID")
			}
		}
	}
	return end + 1, nil
}

// isPubidChar implements production [13].
func isPubidChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	switch c {
	case ' ', '\r', '\n', '-', '\'', '(', ')', '+', ',', '.', '/', ':', '=', '?', ';', '!', '*', '#', '@', '$', '_', '%':
		return true
	}
	return false
}

// intSubset parses the internal subset starting at b[i] up to and including
// its closing ']'. It returns the names of declared general entities.
// Without an external subset (hasExt), a parameter-entity reference must
// follow the entity's declaration, as libxml2 requires; such references are
// never expanded.
func (s *Scanner) intSubset(b []byte, i int, hasExt bool) (int, []string, error) {
	const what = "DOCTYPE internal subset"
	var ents []string
	pes := map[string]bool{}
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, nil, s.short(i, what)
		}
		switch b[i] {
		case ']':
			return i + 1, ents, nil
		case '%':
			end, err := s.entityRef(b, i, what, false)
			if err != nil {
				return 0, nil, err
			}
			if name := string(b[i+1 : end-1]); !hasExt && !pes[name] {
				return 0, nil, s.errAt(i, "undefined parameter entity %q", name)
			}
			i = end
			continue
		case '<':
		default:
			return 0, nil, s.charErr(i, what)
		}
		if i+1 >= len(b) {
			return 0, nil, s.short(i+1, what)
		}
		if b[i+1] == '?' {
			_, _, end, err := s.scanPI(s.r, i)
			if err != nil {
				return 0, nil, err
			}
			i = end
			continue
		}
		if ok, sh := keyword(b, i, "<!--"); sh {
			return 0, nil, s.short(len(b), what)
		} else if ok {
			end, err := s.scanComment(s.r, i)
			if err != nil {
				return 0, nil, err
			}
			i = end
			continue
		}
		kind := ""
		for _, kw := range [...]string{"<!ENTITY", "<!ELEMENT", "<!ATTLIST", "<!NOTATION"} {
			ok, sh := keyword(b, i, kw)
			if sh {
				return 0, nil, s.short(len(b), what)
			}
			if ok {
				kind = kw[2:]
				break
			}
		}
		if kind == "" {
			return 0, nil, s.errAt(i, "unexpected markup in the DOCTYPE internal subset")
		}
		i += 2 + len(kind)
		if i >= len(b) {
			return 0, nil, s.short(i, what)
		}
		if !isSpace(b[i]) {
			return 0, nil, s.errAt(i, "missing whitespace after <!%s", kind)
		}
		i = skipSpace(b, i)
		if kind == "ENTITY" {
			end, name, pe, err := s.entityDecl(b, i)
			if err != nil {
				return 0, nil, err
			}
			if pe {
				pes[name] = true
			} else {
				ents = append(ents, name)
			}
			i = end
			continue
		}
		end, more := scanName(b, i)
		if more && s.rerr != io.EOF {
			return 0, nil, errShort
		}
		if end == i {
			return 0, nil, s.charErr(i, kind+" declaration (expected a name)")
		}
		i = end
		if kind == "NOTATION" {
			ws := i
			i = skipSpace(b, i)
			if ws == i {
				if i >= len(b) {
					return 0, nil, s.short(i, what)
				}
				return 0, nil, s.errAt(i, "missing whitespace in NOTATION declaration")
			}
			end, err := s.externalID(b, i, true)
			if err != nil {
				return 0, nil, err
			}
			i = skipSpace(b, end)
			if i >= len(b) {
				return 0, nil, s.short(i, what)
			}
			if b[i] != '>' {
				return 0, nil, s.charErr(i, "NOTATION declaration")
			}
			i++
			continue
		}
		var err error
		if kind == "ELEMENT" {
			i, err = s.elementDecl(b, i)
		} else {
			i, err = s.attlistDecl(b, i)
		}
		if err != nil {
			return 0, nil, err
		}
	}
}

// entityRef parses a reference "&name;" or "%name;" at b[i].
// b ends where the input ends, or where a complete literal ends (complete).
func (s *Scanner) entityRef(b []byte, i int, what string, complete bool) (int, error) {
	end, more := scanName(b, i+1)
	if more && !complete && s.rerr != io.EOF {
		return 0, errShort
	}
	if end == i+1 {
		return 0, s.charErr(i+1, what+" (expected a name after '"+string(b[i])+"')")
	}
	if end >= len(b) && !complete {
		return 0, s.short(end, what)
	}
	if end >= len(b) || b[end] != ';' {
		return 0, s.errAt(i, "reference %q is not terminated by ';'", b[i:end])
	}
	return end + 1, nil
}

// entityDecl parses an entity declaration after "<!ENTITY" S (productions
// [70]-[76]) and returns the entity's name and whether it is a parameter
// entity.
func (s *Scanner) entityDecl(b []byte, i int) (int, string, bool, error) {
	const what = "ENTITY declaration"
	pe := false
	if i >= len(b) {
		return 0, "", false, s.short(i, what)
	}
	if b[i] == '%' {
		pe = true
		i++
		if i >= len(b) {
			return 0, "", false, s.short(i, what)
		}
		if !isSpace(b[i]) {
			return 0, "", false, s.errAt(i, "missing whitespace after '%%' in ENTITY declaration")
		}
		i = skipSpace(b, i)
	}
	end, more := scanName(b, i)
	if more && s.rerr != io.EOF {
		return 0, "", false, errShort
	}
	if end == i {
		return 0, "", false, s.charErr(i, what+" (expected a name)")
	}
	name := string(b[i:end])
	i = end
	if i >= len(b) {
		return 0, "", false, s.short(i, what)
	}
	if !isSpace(b[i]) {
		return 0, "", false, s.charErr(i, what)
	}
	i = skipSpace(b, i)
	if i >= len(b) {
		return 0, "", false, s.short(i, what)
	}
	if q := b[i]; q == '"' || q == '\'' {
		// EntityValue: references must be well-formed; parameter-entity
		// references are not allowed in the internal subset.
		j := bytes.IndexByte(b[i+1:], q)
		if j < 0 {
			return 0, "", false, s.short(len(b), what)
		}
		vEnd := i + 1 + j
		for k := i + 1; k < vEnd; k++ {
			switch b[k] {
			case '%':
				return 0, "", false, s.errAt(k, "parameter-entity reference in an entity value in the internal subset")
			case '&':
				if k+1 < vEnd && b[k+1] == '#' {
					if _, n, err := s.reference(b[:vEnd], k, 0); err != nil {
						return 0, "", false, err
					} else {
						k += n - 1
					}
					continue
				}
				e, err := s.entityRef(b[:vEnd], k, what, true)
				if err != nil {
					return 0, "", false, err
				}
				k = e - 1
			}
		}
		i = vEnd + 1
	} else {
		end, err := s.externalID(b, i, false)
		if err != nil {
			return 0, "", false, err
		}
		i = end
		ws := i
		i = skipSpace(b, i)
		if ok, sh := keyword(b, i, "NDATA"); sh {
			return 0, "", false, s.short(len(b), what)
		} else if ok {
			if pe {
				return 0, "", false, s.errAt(i, "NDATA in a parameter entity declaration")
			}
			if ws == i {
				return 0, "", false, s.errAt(i, "missing whitespace before NDATA")
			}
			i += 5
			ws = i
			i = skipSpace(b, i)
			if ws == i {
				if i >= len(b) {
					return 0, "", false, s.short(i, what)
				}
				return 0, "", false, s.errAt(i, "missing whitespace after NDATA")
			}
			end, more := scanName(b, i)
			if more && s.rerr != io.EOF {
				return 0, "", false, errShort
			}
			if end == i {
				return 0, "", false, s.charErr(i, what+" (expected a notation name)")
			}
			i = end
		}
	}
	i = skipSpace(b, i)
	if i >= len(b) {
		return 0, "", false, s.short(i, what)
	}
	if b[i] != '>' {
		return 0, "", false, s.charErr(i, what)
	}
	return i + 1, name, pe, nil
}

// maxModelDepth bounds the nesting of content-model groups, which are
// parsed recursively.
const maxModelDepth = 256

// elementDecl parses the rest of an element type declaration after its
// name (production [45]): S contentspec S? '>'.
func (s *Scanner) elementDecl(b []byte, i int) (int, error) {
	const what = "ELEMENT declaration"
	if i >= len(b) {
		return 0, s.short(i, what)
	}
	if !isSpace(b[i]) {
		return 0, s.charErr(i, what)
	}
	i = skipSpace(b, i)
	if i >= len(b) {
		return 0, s.short(i, what)
	}
	var err error
	switch b[i] {
	case '(':
		i, err = s.contentGroup(b, i, 0)
		if err != nil {
			return 0, err
		}
	default:
		end, more := scanName(b, i)
		if more && s.rerr != io.EOF {
			return 0, errShort
		}
		if kw := string(b[i:end]); kw != "EMPTY" && kw != "ANY" {
			return 0, s.errAt(i, "expected EMPTY, ANY or '(' in ELEMENT declaration")
		}
		i = end
	}
	i = skipSpace(b, i)
	if i >= len(b) {
		return 0, s.short(i, what)
	}
	if b[i] != '>' {
		return 0, s.charErr(i, what)
	}
	return i + 1, nil
}

// contentGroup parses a parenthesised content model at b[i] == '('
// (productions [47]-[51]) with its occurrence indicator.
func (s *Scanner) contentGroup(b []byte, i, depth int) (int, error) {
	const what = "content model"
	if depth >= maxModelDepth {
		return 0, s.errAt(i, "content model nested deeper than %d levels", maxModelDepth)
	}
	i = skipSpace(b, i+1)
	if ok, sh := keyword(b, i, "#PCDATA"); sh {
		return 0, s.short(len(b), what)
	} else if ok && depth == 0 {
		// Mixed: '(' S? '#PCDATA' (S? '|' S? Name)* S? ')*' | '(' S? '#PCDATA' S? ')'
		i += 7
		names := 0
		for {
			i = skipSpace(b, i)
			if i >= len(b) {
				return 0, s.short(i, what)
			}
			if b[i] == ')' {
				i++
				if i >= len(b) {
					return 0, s.short(i, what)
				}
				if b[i] == '*' {
					return i + 1, nil
				}
				if names > 0 {
					return 0, s.errAt(i, "mixed content with element names must end with `)*`")
				}
				return i, nil
			}
			if b[i] != '|' {
				return 0, s.charErr(i, what)
			}
			i = skipSpace(b, i+1)
			end, more := scanName(b, i)
			if more && s.rerr != io.EOF {
				return 0, errShort
			}
			if end == i {
				return 0, s.charErr(i, what+" (expected a name)")
			}
			i = end
			names++
		}
	}
	sep := byte(0)
	for {
		// cp ::= (Name | choice | seq) ('?' | '*' | '+')?
		if i >= len(b) {
			return 0, s.short(i, what)
		}
		if b[i] == '(' {
			var err error
			if i, err = s.contentGroup(b, i, depth+1); err != nil {
				return 0, err
			}
		} else {
			end, more := scanName(b, i)
			if more && s.rerr != io.EOF {
				return 0, errShort
			}
			if end == i {
				return 0, s.charErr(i, what+" (expected a name or '(')")
			}
			i = end
			if i < len(b) && (b[i] == '?' || b[i] == '*' || b[i] == '+') {
				i++
			}
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, s.short(i, what)
		}
		c := b[i]
		if c == ')' {
			i++
			if i < len(b) && (b[i] == '?' || b[i] == '*' || b[i] == '+') {
				i++
			} else if i >= len(b) && s.rerr != io.EOF {
				return 0, errShort
			}
			return i, nil
		}
		if c != '|' && c != ',' || sep != 0 && c != sep {
			return 0, s.charErr(i, what)
		}
		sep = c
		i = skipSpace(b, i+1)
	}
}

// attlistDecl parses the attribute definitions of an attribute-list
// declaration after the element name (productions [52]-[60]).
func (s *Scanner) attlistDecl(b []byte, i int) (int, error) {
	const what = "ATTLIST declaration"
	for {
		ws := i
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, s.short(i, what)
		}
		if b[i] == '>' {
			return i + 1, nil
		}
		if ws == i {
			return 0, s.charErr(i, what)
		}
		// AttDef ::= S Name S AttType S DefaultDecl
		end, more := scanName(b, i)
		if more && s.rerr != io.EOF {
			return 0, errShort
		}
		if end == i {
			return 0, s.charErr(i, what+" (expected an attribute name)")
		}
		var err error
		if i, err = s.requireSpace(b, end, what); err != nil {
			return 0, err
		}
		if i >= len(b) {
			return 0, s.short(i, what)
		}
		if b[i] == '(' {
			if i, err = s.enumeration(b, i, true); err != nil {
				return 0, err
			}
		} else {
			end, more := scanName(b, i)
			if more && s.rerr != io.EOF {
				return 0, errShort
			}
			switch string(b[i:end]) {
			case "CDATA", "ID", "IDREF", "IDREFS", "ENTITY", "ENTITIES", "NMTOKEN", "NMTOKENS":
				i = end
			case "NOTATION":
				if i, err = s.requireSpace(b, end, what); err != nil {
					return 0, err
				}
				if i >= len(b) {
					return 0, s.short(i, what)
				}
				if b[i] != '(' {
					return 0, s.charErr(i, what+" (expected '(' after NOTATION)")
				}
				if i, err = s.enumeration(b, i, false); err != nil {
					return 0, err
				}
			default:
				return 0, s.errAt(i, "unknown attribute type in ATTLIST declaration")
			}
		}
		if i, err = s.requireSpace(b, i, what); err != nil {
			return 0, err
		}
		if i >= len(b) {
			return 0, s.short(i, what)
		}
		// DefaultDecl ::= '#REQUIRED' | '#IMPLIED' | (('#FIXED' S)? AttValue)
		if b[i] == '#' {
			end, more := scanName(b, i+1)
			if more && s.rerr != io.EOF {
				return 0, errShort
			}
			switch string(b[i+1 : end]) {
			case "REQUIRED", "IMPLIED":
				i = end
				continue
			case "FIXED":
				if i, err = s.requireSpace(b, end, what); err != nil {
					return 0, err
				}
			default:
				return 0, s.errAt(i, "expected #REQUIRED, #IMPLIED or #FIXED")
			}
		}
		if i >= len(b) {
			return 0, s.short(i, what)
		}
		q := b[i]
		if q != '"' && q != '\'' {
			return 0, s.charErr(i, what+" (expected a quoted default value)")
		}
		j := bytes.IndexByte(b[i+1:], q)
		if j < 0 {
			return 0, s.short(len(b), what)
		}
		vEnd := i + 1 + j
		for k := i + 1; k < vEnd; k++ {
			switch b[k] {
			case '<':
				return 0, s.errAt(k, "'<' is not allowed in an attribute default value")
			case '&':
				if k+1 < vEnd && b[k+1] == '#' {
					_, n, err := s.reference(b[:vEnd], k, 0)
					if err != nil {
						return 0, err
					}
					k += n - 1
					continue
				}
				e, err := s.entityRef(b[:vEnd], k, what, true)
				if err != nil {
					return 0, err
				}
				k = e - 1
			}
		}
		i = vEnd + 1
	}
}

// requireSpace skips the whitespace that must follow b[:i].
func (s *Scanner) requireSpace(b []byte, i int, what string) (int, error) {
	if i >= len(b) {
		return 0, s.short(i, what)
	}
	if !isSpace(b[i]) {
		return 0, s.charErr(i, what+" (expected whitespace)")
	}
	return skipSpace(b, i), nil
}

// enumeration parses '(' S? Nmtoken (S? '|' S? Nmtoken)* S? ')' (names when
// !nmtokens, for NOTATION types).
func (s *Scanner) enumeration(b []byte, i int, nmtokens bool) (int, error) {
	const what = "attribute type enumeration"
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, s.short(i, what)
		}
		end, more := i, false
		if nmtokens {
			end, more = scanNmtoken(b, i)
		} else {
			end, more = scanName(b, i)
		}
		if more && s.rerr != io.EOF {
			return 0, errShort
		}
		if end == i {
			return 0, s.charErr(i, what)
		}
		i = skipSpace(b, end)
		if i >= len(b) {
			return 0, s.short(i, what)
		}
		switch b[i] {
		case ')':
			return i + 1, nil
		case '|':
			i++
		default:
			return 0, s.charErr(i, what)
		}
	}
}

// scanNmtoken is scanName for production [7] Nmtoken (any NameChar first).
func scanNmtoken(b []byte, i int) (int, bool) {
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if class[c]&clName == 0 {
				return i, false
			}
			i++
			continue
		}
		if !utf8.FullRune(b[i:]) {
			return i, true
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 || !isNameRune(r) {
			return i, false
		}
		i += n
	}
	return i, true
}
