package xsd

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

// The eight-bytes-at-a-time paths must decide as the byte loops they
// stand in front of: the reference implementations below are the loops
// as they were.

func fastURIRef(s string) bool {
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
	for i < len(s) {
		if uriPlain[s[i]] {
			i++
		} else if s[i] == '%' && pct(i) {
			i += 3
		} else {
			break
		}
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
		c := s[i]
		switch {
		case uriPlain[c] || c == ':' || c == '@' || c == '/' || c == '?':
			i++
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

func collapseRef(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
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
func normLenRef(s string) int {
	n, blanks := 0, false
	for i := 0; i < len(s); {
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

func hasWhitespaceRef(s string) bool {
	for i := 0; i < len(s); i++ {
		if isBlank(s[i]) {
			return true
		}
	}
	return false
}

// randomValue draws a string from an alphabet that hits the classes the
// fast paths test: blanks, controls, URI delimiters, non-ASCII, digits.
func randomValue(r *rand.Rand) string {
	const alpha = "aZ09:/?#[]@%!$&'()*+,;=-._~ \t\n\r\x00\x1f\x7f<>\"{}|\\^`\xc3\xa9\xe2\x82\xacT+-Z"
	b := make([]byte, r.Intn(40))
	for i := range b {
		if r.Intn(3) == 0 {
			b[i] = alpha[r.Intn(len(alpha))]
		} else {
			b[i] = "abcdefgh0123456789"[r.Intn(18)]
		}
	}
	if r.Intn(2) == 0 {
		return "http://example.com/" + string(b)
	}
	return string(b)
}

func TestSWARMatchesByteLoops(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 300000; n++ {
		s := randomValue(r)
		if s == "" {
			continue
		}
		if got, want := fastURI(s), fastURIRef(s); got != want {
			t.Fatalf("fastURI(%q) = %v, want %v", s, got, want)
		}
		if got, want := collapse(s), collapseRef(s); got != want {
			t.Fatalf("collapse(%q) = %q, want %q", s, got, want)
		}
		if got, want := normLen(s), normLenRef(s); got != want {
			t.Fatalf("normLen(%q) = %d, want %d", s, got, want)
		}
		if got, want := hasWhitespace(s), hasWhitespaceRef(s); got != want {
			t.Fatalf("hasWhitespace(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestFastDateTime compares the fast path with the full parser on values
// of the shape it decides, mutated one byte at a time.
func TestFastDateTime(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	bases := []string{"2013-01-02T00:00:00Z", "2013-01-02T13:59:59", "2013-12-31T23:59:59+14:00", "2012-02-29T24:00:00-14:01",
		"0000-01-01T00:00:00Z", "0999-02-29T12:00:00+05:30", "2013-01-02T00:00:00.5Z", "2013-01-02T00:00:00Z ", "9999-13-40T25:61:61-99:99"}
	const alpha = "0123456789-:TZ+. \t\x00a"
	for n := 0; n < 400000; n++ {
		b := []byte(bases[r.Intn(len(bases))])
		for k := r.Intn(4); k > 0; k-- {
			b[r.Intn(len(b))] = alpha[r.Intn(len(alpha))]
		}
		s := string(b)
		for _, want := range []builtin{bDate, bDateTime} {
			gdt, gok := parseDateTime(s, want)
			wdt, wok := parseDates(s, want)
			if gok != wok || gdt != wdt {
				t.Fatalf("parseDateTime(%q, %v) = %+v %v, want %+v %v", s, want, gdt, gok, wdt, wok)
			}
		}
	}
}

func TestAllBlank(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	buf := make([]byte, 64)
	for n := 0; n < 200000; n++ {
		for i := range buf {
			buf[i] = " \t\n\rax\x00\x80\xa0 \n"[r.Intn(11)]
			if r.Intn(2) == 0 {
				buf[i] = " \t\n\r"[r.Intn(4)]
			}
		}
		i := r.Intn(len(buf))
		j := i + r.Intn(len(buf)-i+1)
		for _, b := range [][]byte{buf[i:j], buf[i:j:j], append([]byte(nil), buf[i:j]...)} {
			want := true
			for _, c := range b {
				if !isBlank(c) {
					want = false
				}
			}
			if got := allBlank(b); got != want {
				t.Fatalf("allBlank(%q) = %v", b, got)
			}
		}
	}
}
