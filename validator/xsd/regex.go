package xsd

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// XSD regular expressions (XML Schema Part 2, Appendix F) are translated to
// Go's RE2 syntax, so matching is linear in the input (no ReDoS), and every
// character class is expanded to explicit code point ranges computed from
// libxml2's own character tables. The parser follows libxml2's
// (xmlregexp.c) where it departs from the specification, because verdicts
// must match libxml2's:
//
//   - the whole value must match (implicit anchoring); ^ and $ are
//     ordinary characters;
//   - { and } are ordinary characters unless they follow an atom, where
//     they start a quantifier; {n,m} with m < n matches nothing;
//   - inside a character class, a '-' that is neither first nor last is
//     ignored ([a-c-e] is {a,b,c,e}), \P{X} means the same as \p{X}, and a
//     negated group inside a subtraction adds instead of subtracting
//     ([a-z-[^b]] is [a-z]);
//   - \w is every character outside categories P, Z and C of Unicode
//     4.0.1 as libxml2 tabulates them (unassigned and private-use code
//     points are \w), \d is category Nd, \i and \c are XML 1.0 (4th
//     edition) name characters;
//   - an unknown block name (\p{IsFoo}) compiles in libxml2 but fails every
//     value with an internal error; it is a compile error here.
//
// Repetition counts above 1000 are refused (RE2's limit).

// pattern is a compiled pattern facet.
type pattern struct {
	src string // the XSD regular expression, for messages
	re  *regexp.Regexp
}

func (p *pattern) match(s string) bool { return p.re.MatchString(s) }

// compilePattern translates and compiles an XSD regular expression.
func compilePattern(src string) (*pattern, error) {
	goSrc, err := translateRegex(src)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(goSrc)
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %v", src, err)
	}
	return &pattern{src: src, re: re}, nil
}

// translateRegex returns the Go regexp equivalent to the XSD regular
// expression src, anchored at both ends.
func translateRegex(src string) (string, error) {
	p := &reParser{s: src}
	var b strings.Builder
	b.WriteString(`\A(?:`)
	if err := p.regExp(&b); err != nil {
		return "", fmt.Errorf("pattern %q: %v (at offset %d)", src, err, p.i)
	}
	if p.i < len(p.s) {
		return "", fmt.Errorf("pattern %q: unexpected %q at offset %d", src, p.s[p.i], p.i)
	}
	b.WriteString(`)\z`)
	return b.String(), nil
}

type reParser struct {
	s string
	i int
}

func (p *reParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *reParser) peekAt(k int) byte {
	if p.i+k < len(p.s) && p.i+k >= 0 {
		return p.s[p.i+k]
	}
	return 0
}

// regExp ::= branch ( '|' branch )*
func (p *reParser) regExp(b *strings.Builder) error {
	for {
		if err := p.branch(b); err != nil {
			return err
		}
		if p.peek() != '|' {
			return nil
		}
		p.i++
		b.WriteByte('|')
	}
}

// branch ::= piece*
func (p *reParser) branch(b *strings.Builder) error {
	for p.i < len(p.s) {
		switch p.peek() {
		case '|', ')':
			return nil
		}
		if err := p.piece(b); err != nil {
			return err
		}
	}
	return nil
}

// piece ::= atom quantifier?
func (p *reParser) piece(b *strings.Builder) error {
	var atom strings.Builder
	if err := p.atom(&atom); err != nil {
		return err
	}
	switch c := p.peek(); c {
	case '?', '*', '+':
		p.i++
		b.WriteString(atom.String())
		b.WriteByte(c)
		return nil
	case '{':
		p.i++
		min, ok := p.number()
		if !ok {
			return fmt.Errorf("improper quantifier")
		}
		max := min
		unbounded := false
		if p.peek() == ',' {
			p.i++
			if p.peek() == '}' {
				unbounded = true
			} else if max, ok = p.number(); !ok {
				return fmt.Errorf("improper quantifier")
			}
		}
		if p.peek() != '}' {
			return fmt.Errorf("unterminated quantifier")
		}
		p.i++
		if min > 1000 || (!unbounded && max > 1000) {
			return fmt.Errorf("repetition count above 1000 is not supported")
		}
		switch {
		case unbounded:
			fmt.Fprintf(b, "%s{%d,}", atom.String(), min)
		case max < min:
			b.WriteString(emptyClass) // libxml2: such a piece never matches
		default:
			fmt.Fprintf(b, "%s{%d,%d}", atom.String(), min, max)
		}
		return nil
	}
	b.WriteString(atom.String())
	return nil
}

func (p *reParser) number() (int, bool) {
	start := p.i
	n := 0
	for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
		if n < 1e8 {
			n = n*10 + int(p.s[p.i]-'0')
		}
		p.i++
	}
	return n, p.i > start
}

// emptyClass matches no character.
const emptyClass = `[^\x00-\x{10FFFF}]`

// atom ::= Char | charClass | '(' regExp ')'
func (p *reParser) atom(b *strings.Builder) error {
	c := p.peek()
	switch c {
	case '(':
		p.i++
		b.WriteString("(?:")
		if err := p.regExp(b); err != nil {
			return err
		}
		if p.peek() != ')' {
			return fmt.Errorf("expecting ')'")
		}
		p.i++
		b.WriteByte(')')
		return nil
	case '[':
		p.i++
		set, err := p.charGroup()
		if err != nil {
			return err
		}
		if p.peek() != ']' {
			return fmt.Errorf("expecting ']'")
		}
		p.i++
		writeSet(b, set)
		return nil
	case '.':
		p.i++
		writeSet(b, complementSet(rset{'\n', '\n', '\r', '\r'}))
		return nil
	case '\\':
		set, lit, err := p.escape(false)
		if err != nil {
			return err
		}
		if set != nil {
			writeSet(b, set)
		} else {
			b.WriteString(regexp.QuoteMeta(string(lit)))
		}
		return nil
	case '?', '*', '+', ')', ']', '|':
		return fmt.Errorf("unexpected %q", c)
	}
	r, n := utf8.DecodeRuneInString(p.s[p.i:])
	p.i += n
	b.WriteString(regexp.QuoteMeta(string(r)))
	return nil
}

// escape parses a backslash escape. It returns either a set (multi-char,
// category and block escapes) or a literal rune (single-char escapes).
// inClass selects libxml2's treatment of \P{..} inside a class.
func (p *reParser) escape(inClass bool) (rset, rune, error) {
	p.i++ // the backslash
	c := p.peek()
	p.i++
	switch c {
	case 'n':
		return nil, '\n', nil
	case 'r':
		return nil, '\r', nil
	case 't':
		return nil, '\t', nil
	case '\\', '|', '.', '?', '*', '+', '(', ')', '{', '}', '-', '[', ']', '^':
		return nil, rune(c), nil
	case 's', 'S', 'i', 'I', 'c', 'C', 'd', 'D', 'w', 'W':
		return multiCharSet(c), 0, nil
	case 'p', 'P':
		if p.peek() != '{' {
			return nil, 0, fmt.Errorf("expecting '{' after \\%c", c)
		}
		p.i++
		end := strings.IndexByte(p.s[p.i:], '}')
		if end < 0 {
			return nil, 0, fmt.Errorf("expecting '}'")
		}
		name := p.s[p.i : p.i+end]
		set, err := propertySet(name)
		if err != nil {
			return nil, 0, err
		}
		p.i += end + 1
		if c == 'P' && !inClass {
			set = complementSet(set)
		}
		return set, 0, nil
	}
	p.i--
	return nil, 0, fmt.Errorf("invalid escape \\%c", c)
}

// propertySet resolves the name inside \p{...}: a category as libxml2
// parses it ('L' [ultmo]? and so on) or Is followed by a block name.
func propertySet(name string) (rset, error) {
	if strings.HasPrefix(name, "Is") {
		t, ok := blockRanges(name[2:])
		if !ok {
			return nil, fmt.Errorf("unknown Unicode block %q", name)
		}
		return normalizeRanges(append([]uint32(nil), t...)), nil
	}
	subcats := map[byte]string{'L': "ultmo", 'M': "nce", 'N': "dlo", 'P': "cdseifo", 'Z': "slp", 'S': "mcko", 'C': "cfon"}
	if len(name) == 0 || len(name) > 2 {
		return nil, fmt.Errorf("unknown character property %q", name)
	}
	sub, ok := subcats[name[0]]
	if !ok || len(name) == 2 && strings.IndexByte(sub, name[1]) < 0 {
		return nil, fmt.Errorf("unknown character property %q", name)
	}
	t, _ := catRanges(name)
	return rset(t), nil
}

// multiCharSet returns the set of a multi-character escape letter.
func multiCharSet(c byte) rset {
	switch c {
	case 's':
		return rset{'\t', '\n', '\r', '\r', ' ', ' '}
	case 'S':
		return complementSet(multiCharSet('s'))
	case 'i':
		return nameStartSet()
	case 'I':
		return complementSet(nameStartSet())
	case 'c':
		return nameCharSet()
	case 'C':
		return complementSet(nameCharSet())
	case 'd':
		t, _ := catRanges("Nd")
		return rset(t)
	case 'D':
		return complementSet(multiCharSet('d'))
	case 'w':
		return complementSet(multiCharSet('W'))
	case 'W':
		var t []uint32
		for _, g := range []string{"P", "Z", "C"} {
			r, _ := catRanges(g)
			t = append(t, r...)
		}
		return rset(normalizeRanges(t))
	}
	panic("unreachable")
}

func nameStartSet() rset {
	t := append([]uint32{':', ':', '_', '_'}, xmlLetter...)
	return rset(normalizeRanges(t))
}

func nameCharSet() rset {
	t := []uint32{'-', '.', ':', ':', '_', '_'}
	t = append(t, xmlLetter...)
	t = append(t, xmlDigit...)
	t = append(t, xmlCombining...)
	t = append(t, xmlExtender...)
	return rset(normalizeRanges(t))
}

// classItem is one member of a character class, with libxml2's "neg"
// marker: 0 adds, 1 is a negated member, 2 is subtracted.
type classItem struct {
	set rset
	neg int
}

// charGroup parses the inside of [...] up to (not including) the closing
// bracket, the way xmlFAParseCharGroup does, and evaluates it the way
// xmlRegCheckCharacter does.
func (p *reParser) charGroup() (rset, error) {
	var items []classItem
	if err := p.groupItems(&items, 0); err != nil {
		return nil, err
	}
	var pos, negs, excl []uint32
	hasNeg := false
	for _, it := range items {
		switch it.neg {
		case 0:
			pos = append(pos, it.set...)
		case 1:
			hasNeg = true
			negs = append(negs, it.set...)
		default:
			excl = append(excl, it.set...)
		}
	}
	// A character is in the class if it is in no negated or subtracted
	// member, and either in a positive member or the class has a negated
	// member.
	var in rset
	if hasNeg {
		in = rset{0, maxRune}
	} else {
		in = rset(normalizeRanges(pos))
	}
	in = subtractSet(in, rset(normalizeRanges(negs)))
	return subtractSet(in, rset(normalizeRanges(excl))), nil
}

const maxRune = 0x10FFFF

// groupItems parses charGroup ::= posCharGroup | negCharGroup |
// charClassSub with libxml2's marker propagation.
func (p *reParser) groupItems(items *[]classItem, neg int) error {
	first := true
	for p.i < len(p.s) && p.peek() != ']' {
		switch {
		case p.peek() == '^' && first:
			p.i++
			n := 0
			if neg == 0 {
				n = 1
			}
			if err := p.posGroup(items, n); err != nil {
				return err
			}
		case p.peek() == '-' && p.peekAt(1) == '[':
			p.i += 2
			if err := p.groupItems(items, 2); err != nil {
				return err
			}
			if p.peek() != ']' {
				return fmt.Errorf("expecting ']' after a class subtraction")
			}
			p.i++
			if p.peek() != ']' {
				return fmt.Errorf("a class subtraction must end its class")
			}
			return nil
		default:
			if err := p.posGroup(items, neg); err != nil {
				return err
			}
		}
		first = false
	}
	if p.i >= len(p.s) {
		return fmt.Errorf("expecting ']'")
	}
	return nil
}

// posGroup ::= ( charRange | charClassEsc )+, stopping before ']' or before
// a '-' that starts a subtraction.
func (p *reParser) posGroup(items *[]classItem, neg int) error {
	for {
		if p.i >= len(p.s) {
			return fmt.Errorf("expecting ']'")
		}
		if p.peek() == '\\' {
			set, lit, err := p.escape(true)
			if err != nil {
				return err
			}
			if set == nil {
				// libxml2 never starts a range at an escaped character.
				set = rset{uint32(lit), uint32(lit)}
			}
			*items = append(*items, classItem{set, neg})
		} else if err := p.charRange(items, neg); err != nil {
			return err
		}
		c := p.peek()
		if c == ']' || c == 0 || c == '-' && p.peekAt(1) == '[' {
			return nil
		}
	}
}

// charRange parses seRange | XmlCharIncDash starting at an unescaped
// character.
func (p *reParser) charRange(items *[]classItem, neg int) error {
	c := p.peek()
	if c == '[' || c == ']' {
		return fmt.Errorf("unexpected %q in a character class", c)
	}
	r, n := utf8.DecodeRuneInString(p.s[p.i:])
	if r == '-' {
		prev := p.peekAt(-1)
		next := p.peekAt(1)
		if next != ']' && prev != '[' && prev != '^' {
			// libxml2 ignores a '-' in the middle of a group.
			p.i++
			return nil
		}
	}
	p.i += n
	return p.rangeFrom(items, neg, r)
}

// rangeFrom completes a range whose first character (already consumed) is
// start: "start-end" or just start.
func (p *reParser) rangeFrom(items *[]classItem, neg int, start rune) error {
	if p.peek() != '-' || p.peekAt(1) == ']' || p.peekAt(1) == '[' {
		*items = append(*items, classItem{rset{uint32(start), uint32(start)}, neg})
		return nil
	}
	p.i++ // the '-'
	var end rune
	switch c := p.peek(); {
	case c == '\\':
		p.i++
		e := p.peek()
		p.i++
		switch e {
		case 'n':
			end = '\n'
		case 'r':
			end = '\r'
		case 't':
			end = '\t'
		case '\\', '|', '.', '-', '^', '?', '*', '+', '{', '}', '(', ')', '[', ']':
			end = rune(e)
		default:
			return fmt.Errorf("invalid escape in a character range")
		}
	case c == '[' || c == ']' || c == 0:
		return fmt.Errorf("expecting the end of a character range")
	default:
		var n int
		end, n = utf8.DecodeRuneInString(p.s[p.i:])
		p.i += n
	}
	if end < start {
		return fmt.Errorf("range end %q is before range start %q", end, start)
	}
	*items = append(*items, classItem{rset{uint32(start), uint32(end)}, neg})
	return nil
}

// rset is a set of code points as sorted, non-overlapping, non-adjacent
// inclusive ranges (lo, hi pairs).
type rset []uint32

func complementSet(s rset) rset {
	var out rset
	next := uint32(0)
	for i := 0; i < len(s); i += 2 {
		if s[i] > next {
			out = append(out, next, s[i]-1)
		}
		next = s[i+1] + 1
	}
	if next <= maxRune {
		out = append(out, next, maxRune)
	}
	return out
}

func subtractSet(a, b rset) rset {
	if len(b) == 0 {
		return a
	}
	// a − b = a ∩ ¬b
	return intersectSet(a, complementSet(b))
}

func intersectSet(a, b rset) rset {
	var out rset
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		lo := max(a[i], b[j])
		hi := min(a[i+1], b[j+1])
		if lo <= hi {
			out = append(out, lo, hi)
		}
		if a[i+1] < b[j+1] {
			i += 2
		} else {
			j += 2
		}
	}
	return out
}

// writeSet writes s as a Go character class.
func writeSet(b *strings.Builder, s rset) {
	if len(s) == 0 {
		b.WriteString(emptyClass)
		return
	}
	b.WriteByte('[')
	for i := 0; i < len(s); i += 2 {
		writeClassRune(b, s[i])
		if s[i+1] != s[i] {
			b.WriteByte('-')
			writeClassRune(b, s[i+1])
		}
	}
	b.WriteByte(']')
}

func writeClassRune(b *strings.Builder, r uint32) {
	if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
		b.WriteByte(byte(r))
		return
	}
	b.WriteString(`\x{`)
	b.WriteString(strconv.FormatUint(uint64(r), 16))
	b.WriteByte('}')
}
