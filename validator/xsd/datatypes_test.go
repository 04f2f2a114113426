package xsd

import (
	"fmt"
	"strings"
	"testing"
)

// datatypeCases record what xmllint 2.9.14 accepts as element content of
// each built-in type (TestDatatypesAgainstXmllint, behind the libxml2
// build tag, re-checks every expectation). Where libxml2 departs from XML
// Schema the observed behaviour is the expectation, with a comment.
var datatypeCases = []struct {
	typ            string
	valid, invalid []string
}{
	{"string", []string{"", " daily ", "a\tb", "<&>"}, nil},
	{"normalizedString", []string{"a\tb", " a ", "a\nb"}, nil},
	{"token", []string{"a\tb", "a  b", " a "}, nil},
	// libxml2 checks the XML Schema pattern [a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*.
	{"language", []string{"en", "en-US", " en ", "x-klingon", "i-navajo", "zh-Hant-TW", "de-1996", "sl-rozaj-biske", "es-419", "abcd", "abcdefgh", "e", "en-US-1", "a-12345678"},
		[]string{"", "abcdefghi", "en_US", "en--US", "1en", "en-123456789", "en-", "-en", "en US"}},
	{"Name", []string{"a:b", ":a", " a ", "é", "_x", "a-b.c"}, []string{"a b", "1a", "-a", ""}},
	{"NCName", []string{" a ", "a-b", "_"}, []string{"a:b", "1a", ""}},
	{"NMTOKEN", []string{"1a", " a ", ":", "-"}, []string{"a b", ""}},
	// libxml2 does not enforce NMTOKENS's minLength 1.
	{"NMTOKENS", []string{"a b", "", "  ", " x\ty\n"}, []string{"a,b"}},
	{"ID", []string{"a", "a", " b "}, []string{"1x", "a:b"}}, // elements: no uniqueness
	{"IDREF", []string{"zzz"}, []string{"1"}},
	{"IDREFS", []string{"a b"}, []string{"1 a"}},
	// libxml2 accepts almost any string as anyURI (space, '?', non-ASCII
	// become '_' before RFC 3986 parsing).
	{"anyURI", []string{"", "not a uri?", "http://example.com/a b", "a:b", "http://[::1]/", "#", "a#[b]", "http://é/", " http://example.com/ ", "%20", "a/b:c", "mailto:a@b", "http://1.2.3.4a/", "//", "http:"},
		[]string{"http://host:/", "1a:b", "%zz", "%2", "a#b#c", "a[b", "http://[::1/", "http://a@b@c/", ":", ":a", "_:x", "http://h:1:2/", "a?b[c"}},
	{"QName", []string{"foo", " foo "}, []string{":foo", "a:b:c", "undeclared:foo"}},
	{"boolean", []string{"true", "false", "1", "0", " true ", " 0"}, []string{"TRUE", "01", "yes", ""}},
	// libxml2 keeps 24 significant digits at most.
	{"decimal", []string{"1.5", " 1.5 ", "-.5", ".5", "5.", "00.", "+1", "-0", "123456789012345678901234", "1.23456789012345678901234", "000000000000000000000000000000.5"},
		[]string{".", "", "+-1", "1e5", "1,5", "1234567890123456789012345", "1.234567890123456789012345", "0.000000000000000000000000001", "1.5000000000000000000000000000", "- 1"}},
	{"integer", []string{"0", "-0", "+5", " 15 ", "\t15\t", "123456789012345678901234", "0000000000000000000000000000001"},
		[]string{"", "+", "-", "1.0", "1234567890123456789012345", "1 2"}},
	{"nonNegativeInteger", []string{"0", "-0", "5"}, []string{"-1"}},
	{"positiveInteger", []string{"1", "+1"}, []string{"0", "-0", "-1"}},
	{"nonPositiveInteger", []string{"0", "-1", "-0"}, []string{"1"}},
	{"negativeInteger", []string{"-1"}, []string{"0", "-0", "1"}},
	// The bounded integer types allow no whitespace at all in libxml2.
	{"long", []string{"9223372036854775807", "-9223372036854775808", "+5", "007"}, []string{"9223372036854775808", " 5", "5 "}},
	{"int", []string{"2147483647", "-2147483648", "-0"}, []string{"2147483648", "-2147483649", " 5", "5 "}},
	{"short", []string{"32767", "-32768"}, []string{"32768", "-32769"}},
	{"byte", []string{"127", "-128"}, []string{"128", "-129"}},
	{"unsignedLong", []string{"18446744073709551615", "0"}, []string{"18446744073709551616", "-0", "+5"}},
	{"unsignedInt", []string{"4294967295"}, []string{"4294967296"}},
	{"unsignedShort", []string{"65535"}, []string{"65536"}},
	{"unsignedByte", []string{"255", "0"}, []string{"256", " 5", "-0", "+5"}},
	// libxml2 accepts an exponent marker without digits.
	{"float", []string{"1e", "1e+", "1E5", ".5e-3", "-INF", "INF", "NaN", " NaN", " INF", "1.", "1e99999", " 1.5 "},
		[]string{"+INF", "-NaN", "NaN ", ".", "e5", "1e5.5", "1x", "0x10", "inf", ""}},
	{"double", []string{"1e", "1E+", " 1.5 ", "-0"}, []string{"inf", "1d", "INF "}},
	{"duration", []string{"P1Y", "-P1D", "PT1.5S", "PT1H1M1S", " P1D", "P0Y", "PT0.S", "P1Y2M3DT4H5M6.7S", "PT1.S", "PT.5S", "P1Y1M", "P1DT1H", "PT01H", "P00001D",
		"P768614336404564650Y", "P9223372036854775807M", "P9223372036854775807D", "PT9223372036854775807H", "PT9223372036854775807.5S", "P9223372036854775807DT1H"},
		[]string{"P1Y1Y", "PT", "P", "P1.5Y", "P1DT", "P1M1Y", "P1D ", "P 1D", "+P1D", "P1W", "P1H", "P1.D", "PT1M1H", "P-1D", "P1D1D", "PT.S", "P0.5S", "-P", "--P1D",
			"P768614336404564651Y", "P9223372036854775808M", "P9223372036854775808D", "PT9223372036854775808H", "PT9223372036854775808S", "P1Y9223372036854775807M"}},
	// dateTime: timezone optional, 24:00:00 and negative years allowed;
	// leading whitespace never, trailing whitespace only after a timezone.
	{"dateTime", []string{"2013-01-03T09:00:00Z", "2013-01-03T09:00:00", "2013-01-03T24:00:00", "2013-01-03T24:00:00.0", "-2013-01-03T09:00:00Z", "12013-01-03T09:00:00Z",
		"2013-01-03T09:00:00+14:00", "2013-01-03T09:00:00-14:00", "2012-02-29T09:00:00", "2013-01-03T09:00:59.999999999999", "2013-01-03T09:00:00.5Z",
		"2013-01-03T09:00:00Z\n", "2013-01-03T09:00:00Z ", "-0004-02-29T00:00:00", "2000-02-29T00:00:00", "2013-01-03T09:00:00.123+05:30", "2013-01-03T09:00:00-00:00"},
		[]string{"2013-01-03T24:00:01", "+2013-01-03T09:00:00Z", "0000-01-03T09:00:00Z", "02013-01-03T09:00:00Z", "2013-01-03T09:00Z", "2013-01-03 09:00:00Z",
			"2013-01-03T09:00:00+14:01", "2013-01-03T09:00:00+23:59", "2013-02-29T09:00:00", "2013-01-03T09:00:60", "2013-01-03T09:00:00.", " 2013-01-03T09:00:00Z",
			"2013-01-03T09:00:00z", "2013-1-03T09:00:00", "2013-01-03T9:00:00", "2013-01-03T09:00:00+0100", "2013-01-03T09:00:00+01", "2013-01-03T09:00:00+24:00",
			"2013-13-03T09:00:00", "2013-00-03T09:00:00", "2013-01-00T09:00:00", "2013-01-32T09:00:00", "-0001-02-29T00:00:00", "1900-02-29T00:00:00",
			"2013-01-03T09:00:00\t", "2013-01-03T09:00:00\n", "2013-01-03T23:60:00", "99999999999999999999-01-01T00:00:00", "2013-01-03T09:00:00Z+01:00", "", "2013-01-03"}},
	{"date", []string{"2013-01-03", "2013-01-03Z", "2013-01-03+01:00", "-0001-01-01"}, []string{" 2013-01-03", "2013-01-03 ", "2013-01-03\n", "2013-01-03Z ", "2013-01", "2013", "2013-01-03T00:00:00", "2013-02-30"}},
	{"time", []string{"09:00:00", " 09:00:00", "24:00:00", "09:00:00.5Z", "09:00:00-05:00"}, []string{"09:00", "09:00:00 ", "25:00:00", "9:00:00", "24:00:01"}},
	{"gYear", []string{"2013", "-2013", "2013Z", "12013"}, []string{" 2013", "13", "02013", "0000", "2013-01"}},
	{"gYearMonth", []string{"2013-01", "2013-12Z"}, []string{"2013-13", "2013-1", "2013"}},
	{"gMonth", []string{"--05", " --05", "--05Z", "--05-10:00"}, []string{"--13", "--5", "---05", "--05--"}},
	{"gDay", []string{"---05", "---31", " ---05"}, []string{"---32", "---00", "--05"}},
	{"gMonthDay", []string{"--02-29", "--12-31", "--01-01Z"}, []string{"--02-30", "--04-31", "--13-01"}},
	{"hexBinary", []string{"", " 0a ", "AbCd"}, []string{"0", "zz", "0 a"}},
	// libxml2 ignores characters outside the base64 alphabet.
	{"base64Binary", []string{"a b c d", "!!!!", "", "YQ==", "Y Q = =", "YWJj"}, []string{"YR==", "YQ=", "YQ", "YQ==YQ==", "YWJ=", "YW=="}},
}

// datatypeDoc builds a schema with one element per type and a document
// with one value per line, for our engine and for xmllint alike. lines
// maps a document line to its case.
func datatypeDoc() (schema, doc string, lines map[int]string) {
	var s, d strings.Builder
	s.WriteString(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
<xs:element name="r"><xs:complexType><xs:choice maxOccurs="unbounded">
`)
	for _, c := range datatypeCases {
		fmt.Fprintf(&s, "<xs:element name=\"%s\" type=\"xs:%s\"/>\n", c.typ, c.typ)
	}
	s.WriteString("</xs:choice></xs:complexType></xs:element>\n</xs:schema>\n")
	d.WriteString("<r>\n")
	lines = map[int]string{}
	line := 2
	for _, c := range datatypeCases {
		for k, vals := range [][]string{c.valid, c.invalid} {
			for _, v := range vals {
				fmt.Fprintf(&d, "<%s>%s</%s>\n", c.typ, xmlEscape(v), c.typ)
				lines[line] = fmt.Sprintf("%s %q valid=%v", c.typ, v, k == 0)
				line++
			}
		}
	}
	d.WriteString("</r>\n")
	return s.String(), d.String(), lines
}

// xmlEscape escapes a value as element content, with whitespace other
// than spaces as character references so that each value stays on its
// line.
func xmlEscape(v string) string {
	var b strings.Builder
	for _, r := range v {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '&':
			b.WriteString("&amp;")
		case '\t', '\n', '\r':
			fmt.Fprintf(&b, "&#%d;", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func compileString(t testing.TB, schema string) *Schema {
	t.Helper()
	c := NewCompiler()
	c.AddResource("test.xsd", []byte(schema))
	s, err := c.Compile("test.xsd")
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return s
}

// errorLines validates doc and returns the set of lines with errors.
func errorLines(t testing.TB, s *Schema, doc string) map[int][]*Error {
	t.Helper()
	errs, err := s.Validate(strings.NewReader(doc))
	if err != nil {
		t.Fatalf("not well-formed: %v", err)
	}
	m := map[int][]*Error{}
	for _, e := range errs {
		m[e.Line] = append(m[e.Line], e)
	}
	return m
}

func TestDatatypes(t *testing.T) {
	schema, doc, lines := datatypeDoc()
	bad := errorLines(t, compileString(t, schema), doc)
	for line, c := range lines {
		wantValid := strings.HasSuffix(c, "valid=true")
		if _, invalid := bad[line]; invalid == wantValid {
			t.Errorf("%s: engine says valid=%v", c, !invalid)
		}
	}
}

// TestIDUniqueness: libxml2 rejects a repeated ID in attributes (not in
// element content), comparing values with surrounding blanks stripped.
func TestIDUniqueness(t *testing.T) {
	s := compileString(t, `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="e" maxOccurs="unbounded">
<xs:complexType><xs:attribute name="id" type="xs:ID"/></xs:complexType></xs:element></xs:sequence></xs:complexType></xs:element>
</xs:schema>`)
	bad := errorLines(t, s, "<r>\n<e id=\"a\"/>\n<e id=\" b\"/>\n<e id=\"a\"/>\n<e id=\"b\"/>\n<e id=\"c\"/>\n</r>")
	for line, want := range map[int]bool{2: false, 3: false, 4: true, 5: true, 6: false} {
		if _, got := bad[line]; got != want {
			t.Errorf("line %d: error %v, want %v", line, got, want)
		}
	}
}

// newRand is a small deterministic generator for test data.
type testRand struct{ s uint64 }

func newRand(seed uint64) *testRand { return &testRand{seed*2654435761 + 1} }

func (r *testRand) Intn(n int) int {
	r.s ^= r.s << 13
	r.s ^= r.s >> 7
	r.s ^= r.s << 17
	return int(r.s % uint64(n))
}

func TestNormLen(t *testing.T) {
	for _, s := range []string{"", " ", "a", " a ", "a  b", "\ta\nb\r", "été", "  é  è  ", "a b c"} {
		if got, want := normLen(s), len([]rune(collapse(s))); got != want {
			t.Errorf("normLen(%q) = %d, want %d", s, got, want)
		}
	}
}
