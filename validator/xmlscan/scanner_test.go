package xmlscan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

var tokenTests = []struct {
	name string
	doc  string
	want string
}{
	{
		name: "declaration and empty root",
		doc:  `<?xml version="1.0" encoding="UTF-8"?><a/>`,
		want: `S 1:39-1:43 d1 a /
E 1:39-1:43 d1 a
EOF`,
	},
	{
		name: "multi-line start tag, attributes on several lines",
		doc:  "<urlset xmlns=\"http://s\"\n        xmlns:rs=\"http://rs\"\n   a='1'\n\tb = \"x&lt;y\" >\n<rs:md at=\"t\"/></urlset>",
		want: `S 1:1-4:16 d1 {http://s}urlset ns:=http://s(1:9) ns:rs=http://rs(2:9) @a="1"(3:4) @b="x<y"(4:2)
T 4:16-5:1 d1 "\n"
S 5:1-5:16 d2 {http://rs}rs:md / @at="t"(5:8)
E 5:1-5:16 d2 {http://rs}rs:md
E 5:16-5:25 d1 {http://s}urlset
EOF`,
	},
	{
		name: "CRLF and lone CR",
		doc:  "<a\r\n b='x\r\ny'>\r\nt\ru\r\n</a>",
		want: `S 1:1-3:4 d1 a @b="x y"(2:2)
T 3:4-6:1 d1 "\nt\nu\n"
E 6:1-6:5 d1 a
EOF`,
	},
	{
		name: "CDATA comment PI",
		doc:  "<a>x<![CDATA[<&]>\r\n]]>\n<!-- c\n --><?pi  data ?>y</a>",
		want: `S 1:1-1:4 d1 a
T 1:4-1:5 d1 "x"
T 1:5-2:4 d1 "<&]>\n"
T 2:4-3:1 d1 "\n"
C 3:1-4:5 d1 " c\n "
P 4:5-4:18 d1 pi "data "
T 4:18-4:19 d1 "y"
E 4:19-4:23 d1 a
EOF`,
	},
	{
		name: "references",
		doc:  `<a x="&#9;&#10;&#13;&#x20;&amp;&quot;&apos;" y="a	b` + "\n" + `c">&lt;&gt;&amp;&#65;&#x1F600;&#xe9;</a>`,
		want: "S 1:1-2:4 d1 a @x=\"\\t\\n\\r &\\\"'\"(1:4) @y=\"a b c\"(1:46)\nT 2:4-2:37 d1 \"<>&A\U0001F600é\"\nE 2:37-2:41 d1 a\nEOF",
	},
	{
		name: "DOCTYPE with internal subset",
		doc: `<?xml version="1.0"?>
<!DOCTYPE a SYSTEM "a.dtd" [
  <!ELEMENT a (#PCDATA|b)*>
  <!ATTLIST a x CDATA "]>">
  <!ENTITY e "v&#60;">
  <!ENTITY % p SYSTEM "p.ent">
  %p;
  <!-- ] > -->
  <?pi ]>?>
  <!NOTATION n PUBLIC "-//x">
]>
<a/>`,
		want: `T 1:22-2:1 d0 "\n"
D 2:1-11:3 " a SYSTEM \"a.dtd\" [\n  <!ELEMENT a (#PCDATA|b)*>\n  <!ATTLIST a x CDATA \"]>\">\n  <!ENTITY e \"v&#60;\">\n  <!ENTITY % p SYSTEM \"p.ent\">\n  %p;\n  <!-- ] > -->\n  <?pi ]>?>\n  <!NOTATION n PUBLIC \"-//x\">\n]"
T 11:3-12:1 d0 "\n"
S 12:1-12:5 d1 a /
E 12:1-12:5 d1 a
EOF`,
	},
	{
		name: "namespaces: default, undeclare, xml prefix, no namespace for unprefixed attributes",
		doc:  `<a xmlns="u" xmlns:p="v" p:x="1" y="2" xml:lang="en"><b xmlns=""><p:c/></b></a>`,
		want: `S 1:1-1:54 d1 {u}a ns:=u(1:4) ns:p=v(1:14) @{v}p:x="1"(1:26) @y="2"(1:34) @{http://www.w3.org/XML/1998/namespace}xml:lang="en"(1:40)
S 1:54-1:66 d2 b ns:=(1:57)
S 1:66-1:72 d3 {v}p:c /
E 1:66-1:72 d3 {v}p:c
E 1:72-1:76 d2 b
E 1:76-1:80 d1 {u}a
EOF`,
	},
	{
		name: "misc around the root, whitespace text",
		doc:  "\n<!--a--><?p?>\n<r> </r >\n<!--b-->\n",
		want: `T 1:1-2:1 d0 "\n"
C 2:1-2:9 d0 "a"
P 2:9-2:14 d0 p ""
T 2:14-3:1 d0 "\n"
S 3:1-3:4 d1 r
T 3:4-3:5 d1 " "
E 3:5-3:10 d1 r
T 3:10-4:1 d0 "\n"
C 4:1-4:9 d0 "b"
T 4:9-5:1 d0 "\n"
EOF`,
	},
	{
		name: "UTF-8 BOM and non-ASCII names",
		doc:  "\xEF\xBB\xBF<été 𝔘='ü'>€</été>",
		want: `S 1:1-1:18 d1 été @𝔘="ü"(1:8)
T 1:18-1:21 d1 "€"
E 1:21-1:29 d1 été
EOF`,
	},
	{
		name: "latin1",
		doc:  "<?xml version='1.0' encoding='ISO-8859-1'?>\n<a b='\xe9'>\xe0\xff</a>",
		want: `T 1:44-2:1 d0 "\n"
S 2:1-2:11 d1 a @b="é"(2:4)
T 2:11-2:15 d1 "àÿ"
E 2:15-2:19 d1 a
EOF`,
	},
	{
		name: "US-ASCII",
		doc:  "<?xml version='1.0' encoding='us-ascii'?><a>x</a>",
		want: `S 1:42-1:45 d1 a
T 1:45-1:46 d1 "x"
E 1:46-1:50 d1 a
EOF`,
	},
	{
		name: "UTF-16LE with BOM",
		doc:  utf16Doc("\uFEFF<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<a b='é'>\U0001F600</a>", false),
		want: `T 1:40-2:1 d0 "\n"
S 2:1-2:11 d1 a @b="é"(2:4)
T 2:11-2:15 d1 "😀"
E 2:15-2:19 d1 a
EOF`,
	},
	{
		name: "UTF-16BE with BOM",
		doc:  utf16Doc("\uFEFF<a>é</a>", true),
		want: `S 1:1-1:4 d1 a
T 1:4-1:6 d1 "é"
E 1:6-1:10 d1 a
EOF`,
	},
	{
		name: "UTF-16LE without BOM",
		doc:  utf16Doc("<?xml version=\"1.0\" encoding=\"utf-16\"?><a/>", false),
		want: `S 1:40-1:44 d1 a /
E 1:40-1:44 d1 a
EOF`,
	},
}

// utf16Doc encodes s as UTF-16.
func utf16Doc(s string, bigEndian bool) string {
	var b []byte
	for _, r := range s {
		var units []uint16
		if r >= 0x10000 {
			r -= 0x10000
			units = []uint16{uint16(0xD800 + r>>10), uint16(0xDC00 + r&0x3FF)}
		} else {
			units = []uint16{uint16(r)}
		}
		for _, u := range units {
			if bigEndian {
				b = append(b, byte(u>>8), byte(u))
			} else {
				b = append(b, byte(u), byte(u>>8))
			}
		}
	}
	return string(b)
}

func TestTokens(t *testing.T) {
	for _, tt := range tokenTests {
		t.Run(tt.name, func(t *testing.T) {
			got := dump(strings.NewReader(tt.doc), Limits{})
			if got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
			// The same tokens whatever the read sizes: this drives the
			// re-parse of tokens cut by the buffer end.
			for _, r := range []io.Reader{
				iotest.OneByteReader(strings.NewReader(tt.doc)),
				iotest.HalfReader(strings.NewReader(tt.doc)),
				iotest.DataErrReader(strings.NewReader(tt.doc)),
			} {
				if got := dump(r, Limits{}); got != tt.want {
					t.Errorf("with %T got:\n%s\nwant:\n%s", r, got, tt.want)
				}
			}
		})
	}
}

var errorTests = []struct {
	doc       string
	line, col int
	msg       string
}{
	// Structure.
	{"", 1, 1, "no root element"},
	{"  \n <!-- c -->", 2, 12, "no root element"},
	{"<a></b>", 1, 4, "element <a> closed by </b>"},
	{"<urlset>\n<url>\n</urlset>", 3, 1, "element <url> closed by </urlset>"},
	{"<a>\n<url>", 2, 6, "unexpected end of input: <url> not closed"},
	{"<a/></a>", 1, 5, "end tag </a> without a matching start tag"},
	{"<a/><b/>", 1, 5, "element after the end of the root element"},
	{"<a/>\nx", 2, 1, "text after the root element"},
	{"x<a/>", 1, 1, "text before the root element"},
	{"\xEF\xBB\xBF\xEF\xBB\xBF<a/>", 1, 1, "text before the root element"}, // a second BOM is U+FEFF text
	{"<a/>&amp;", 1, 5, "text after the root element"},
	{"<a/ >", 1, 3, `expected "/>"`},
	{"</ a>", 1, 3, "end tag lacks a valid element name"},
	{"<a></a x>", 1, 8, "unexpected character 'x' in end tag"},
	{"<a>", 1, 4, "unexpected end of input: <a> not closed"},
	{"<a", 1, 3, "unexpected end of input in start tag"},
	{"<a b='1", 1, 8, "unexpected end of input in value of attribute"},
	{"<a><!-- x", 1, 10, "unexpected end of input in comment"},
	{"<a><?p x", 1, 9, "unexpected end of input in processing instruction"},
	{"<a><![CDATA[x", 1, 14, "unexpected end of input in CDATA section"},
	{"<a><![CDAT", 1, 11, "unexpected end of input"},
	{"<a><!ELEMENT a></a>", 1, 4, "unexpected \"<!ELEMENT\""},
	// Names.
	{"<1a/>", 1, 2, "invalid element name"},
	{"<a 1b='x'/>", 1, 4, "unexpected character '1' in start tag <a>"},
	{"<a b='1'c='2'/>", 1, 9, "missing whitespace before attribute"},
	{"<a b/>", 1, 5, `attribute "b" has no value`},
	{"<a b=c/>", 1, 6, `value of attribute "b" is not quoted`},
	{"<a\u00D7/>", 1, 3, "unexpected character '×'"},
	// Attributes.
	{"<a at='1'\n at=\"2\"/>", 2, 2, `attribute "at" appears twice`},
	{`<a xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/>`, 1, 36, `attributes "p:x" and "q:x" have the same expanded name {u}x`},
	{`<a b="x<y"/>`, 1, 8, "'<' is not allowed in an attribute value"},
	{`<a b="x<y`, 1, 8, "'<' is not allowed in an attribute value"},
	{`<a b="&e;"/>`, 1, 7, `undefined entity "e"`},
	{`<a b="&#1;"/>`, 1, 7, "character reference &#1; does not denote a character XML allows"},
	{`<a b="a&b"/>`, 1, 8, `reference "&b" is not terminated by ';'`},
	// References and characters.
	{"<a>&#0;</a>", 1, 4, "character reference &#0;"},
	{"<a>&#xD800;</a>", 1, 4, "character reference &#xD800;"},
	{"<a>&#xFFFE;</a>", 1, 4, "character reference &#xFFFE;"},
	{"<a>&#x110000;</a>", 1, 4, "character reference &#x110000;"},
	{"<a>&#12</a>", 1, 4, "malformed character reference"},
	{"<a>&#;</a>", 1, 4, "malformed character reference"},
	{"<a>&#x;</a>", 1, 4, "malformed character reference"},
	{"<a>\n &e;</a>", 2, 2, `undefined entity "e"`},
	{"<a>a & b</a>", 1, 6, "'&' must start a reference"},
	{"<!DOCTYPE a [<!ENTITY e \"x\">]>\n<a>&e;</a>", 2, 4, `entity "e" is declared in the DOCTYPE but not expanded (entities are never expanded)`},
	{"<a>]]></a>", 1, 4, `"]]>" is not allowed in character data`},
	{"<a>\x01</a>", 1, 4, "character U+0001 is not allowed in XML"},
	{"<a>x\x0c</a>", 1, 5, "character U+000C is not allowed in XML"},
	{"<a>\xEF\xBF\xBE</a>", 1, 4, "character U+FFFE is not allowed in XML"},
	{"<a>\xEF\xBF\xBF</a>", 1, 4, "character U+FFFF is not allowed in XML"},
	{"<a>\xff</a>", 1, 4, "invalid UTF-8 byte 0xFF"},
	{"<a>\xed\xa0\x80</a>", 1, 4, "invalid UTF-8 byte 0xED"},
	{"<a>\xc3</a>", 1, 4, "invalid UTF-8 byte 0xC3"},
	{"<a b='\x01'/>", 1, 7, "character U+0001 is not allowed in XML"},
	{"<a><!--\x02--></a>", 1, 8, "character U+0002 is not allowed in XML"},
	{"<a><?p \x02?></a>", 1, 8, "character U+0002 is not allowed in XML"},
	{"<a><![CDATA[\x02]]></a>", 1, 13, "character U+0002 is not allowed in XML"},
	{"<a>\r\n\r\n</b>", 3, 1, "element <a> closed by </b>"},
	{"<a>\r\r</b>", 3, 1, "element <a> closed by </b>"},
	{"<a>\n\r\n\r</b>", 4, 1, "element <a> closed by </b>"},
	// Comments and PIs.
	{"<a><!-- a -- b --></a>", 1, 11, `"--" is not allowed inside a comment`},
	{"<a><!-- a ---></a>", 1, 11, `"--" is not allowed inside a comment`},
	{"<a><!----></a>", 1, 4, ""}, // placeholder replaced below: empty comment is fine
	{"<?xml version='1.0'?><?xml version='1.0'?><a/>", 1, 22, "XML declaration allowed only at the start of the document"},
	{" <?xml version='1.0'?><a/>", 1, 2, "XML declaration allowed only at the start of the document"},
	{"<a/><?XmL x?>", 1, 7, `processing instruction target "XmL" is reserved`},
	{"<a/><?a:b x?>", 1, 7, `processing instruction target "a:b" contains a colon`},
	{"<a/><? x?>", 1, 7, "processing instruction lacks a valid target name"},
	{"<a/><?x-x?>", 1, 10, ""}, // fine
	{"<a/><?x\x01?>", 1, 8, "character U+0001 is not allowed in XML"},
	// XML declaration and encodings.
	{"<?xml version='2.0'?><a/>", 1, 16, `unsupported XML version "2.0"`},
	{"<?xml encoding='UTF-8'?><a/>", 1, 7, "XML declaration must start with version"},
	{"<?xml version='1.0'encoding='UTF-8'?><a/>", 1, 20, "missing whitespace in XML declaration"},
	{"<?xml version='1.0' standalone='maybe'?><a/>", 1, 33, `standalone must be "yes" or "no"`},
	{"<?xml version='1.0' standalone='yes' encoding='UTF-8'?><a/>", 1, 38, `unexpected "encoding" in XML declaration`},
	{"<?xml version='1.0' encoding='EBCDIC-US'?><a/>", 1, 31, `unsupported encoding "EBCDIC-US"`},
	{"<?xml version='1.0' encoding='UTF-16'?><a/>", 1, 31, `encoding "UTF-16" declared but the document is not UTF-16`},
	{"<?xml version='1.0' encoding='1x'?><a/>", 1, 31, `invalid encoding name "1x"`},
	{"<?xml version='1.0' encoding='ascii'?><a>\xc3\xa9</a>", 1, 42, "byte 0xC3 is not allowed in a document declared US-ASCII"},
	{"<?xml version='1.0' ?><a/>", 1, 1, ""}, // fine
	{"<?xml version=\"1.0\"", 1, 20, "unexpected end of input in XML declaration"},
	{"<?xml version='1.0' x='1'?><a/>", 1, 21, `unexpected "x" in XML declaration`},
	// CDATA and DOCTYPE placement.
	{"<![CDATA[x]]><a/>", 1, 1, "CDATA section outside the root element"},
	{"<!DOCTYPE a><!DOCTYPE a><a/>", 1, 13, "second DOCTYPE declaration"},
	{"<a/><!DOCTYPE a>", 1, 5, "DOCTYPE declaration inside or after the root element"},
	{"<!DOCTYPEa><a/>", 1, 10, "missing whitespace after <!DOCTYPE"},
	{"<!DOCTYPE a [<!FOO>]><a/>", 1, 14, "unexpected markup in the DOCTYPE internal subset"},
	{"<!DOCTYPE a [<!ENTITY e 'a%b'>]><a/>", 1, 27, "parameter-entity reference in an entity value"},
	{"<!DOCTYPE a [<!ENTITY e 'a&b'>]><a/>", 1, 27, `reference "&b" is not terminated by ';'`},
	{"<!DOCTYPE a PUBLIC 'a\"b' 'x'><a/>", 1, 22, "unexpected character '\"' in public ID"},
	{"<!DOCTYPE a [<!ENTITY e 'x'>", 1, 29, "unexpected end of input in DOCTYPE internal subset"},
	// Namespaces.
	{"<rs:md/>", 1, 2, `undeclared namespace prefix "rs"`},
	{"<a\n  p:b='1'/>", 2, 3, `undeclared namespace prefix "p"`},
	{`<a xmlns:p=""/>`, 1, 13, `namespace prefix "p" cannot be undeclared`},
	{`<a xmlns:xmlns="u"/>`, 1, 4, "the prefix xmlns must not be declared"},
	{`<a xmlns:xml="u"/>`, 1, 15, "the prefix xml must be bound to http://www.w3.org/XML/1998/namespace"},
	{`<a xmlns:p="http://www.w3.org/XML/1998/namespace"/>`, 1, 13, "the XML namespace can be bound only to the prefix xml"},
	{`<a xmlns="http://www.w3.org/XML/1998/namespace"/>`, 1, 11, "the XML namespace cannot be the default namespace"},
	{`<a xmlns:p="http://www.w3.org/2000/xmlns/"/>`, 1, 13, "the xmlns namespace"},
	{`<xmlns:a/>`, 1, 2, "reserved prefix xmlns"},
	{"<a:b:c/>", 1, 2, `name "a:b:c" has more than one colon`},
	{"<:a/>", 1, 2, `name ":a" has an empty namespace prefix`},
	{"<a:/>", 1, 2, `name "a:" has an empty local part`},
	{"<a x:1='2' xmlns:x='u'/>", 1, 4, `local part of "x:1" does not start with a name character`},
	{"<a xmlns:p='u'><p:b/></a><!-- --><p:c/>", 1, 34, "element after the end of the root element"},
	{"<a><b xmlns:p='u'/><p:c/></a>", 1, 21, `undeclared namespace prefix "p"`},
}

func TestErrors(t *testing.T) {
	for _, tt := range errorTests {
		if tt.msg == "" {
			if err := scanAll([]byte(tt.doc)); err != nil {
				t.Errorf("%q: unexpected error %v", tt.doc, err)
			}
			continue
		}
		for _, r := range []io.Reader{strings.NewReader(tt.doc), iotest.OneByteReader(strings.NewReader(tt.doc))} {
			s := NewScanner(r)
			var err error
			for err == nil {
				_, err = s.Next()
			}
			if err == io.EOF {
				t.Errorf("%q: no error, want %d:%d %s", tt.doc, tt.line, tt.col, tt.msg)
				break
			}
			se := syntaxErr(t, err)
			if se.Pos.Line != tt.line || se.Pos.Col != tt.col || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("%q (%T):\n got %d:%d %s\nwant %d:%d %s", tt.doc, r, se.Pos.Line, se.Pos.Col, se.Msg, tt.line, tt.col, tt.msg)
				break
			}
			// The error is sticky.
			if _, err2 := s.Next(); err2 != err {
				t.Errorf("%q: second Next returned %v, want the same error", tt.doc, err2)
			}
		}
	}
}

func TestDepthLimit(t *testing.T) {
	ok := strings.Repeat("<a>", 256) + strings.Repeat("</a>", 256)
	if err := scanAll([]byte(ok)); err != nil {
		t.Fatalf("256 levels: %v", err)
	}
	// 100,000 levels: fails at level 257 without reading further.
	deep := strings.Repeat("<a>", 100000)
	s := NewScanner(strings.NewReader(deep))
	n := 0
	var err error
	for {
		if _, err = s.Next(); err != nil {
			break
		}
		n++
	}
	se := syntaxErr(t, err)
	if n != 256 || se.Pos.Col != 3*256+1 || se.Msg != "elements nested deeper than 256 levels" {
		t.Fatalf("after %d tokens: %v", n, err)
	}
	if off := s.InputOffset(); off > 64<<10 {
		t.Errorf("read %d bytes", off)
	}
	// A custom limit.
	if err := scanAll([]byte("<a><b><c/></b></a>")); err != nil {
		t.Fatal(err)
	}
	s = NewScannerLimits(strings.NewReader("<a><b><c/></b></a>"), Limits{MaxDepth: 2})
	for err = nil; err == nil; _, err = s.Next() {
	}
	if se := syntaxErr(t, err); se.Pos.Col != 7 {
		t.Errorf("MaxDepth 2: %v", err)
	}
}

func TestTokenLimit(t *testing.T) {
	lim := Limits{MaxTokenBytes: 1000}
	for _, tt := range []struct{ doc, msg string }{
		{"<a>" + strings.Repeat("x", 1001) + "</a>", "text larger than 1000 bytes"},
		{"<a b='" + strings.Repeat("x", 1001) + "'/>", "markup larger than 1000 bytes"},
		{"<!--" + strings.Repeat("x", 2000), "markup larger than 1000 bytes"},
	} {
		s := NewScannerLimits(strings.NewReader(tt.doc), lim)
		var err error
		for err == nil {
			_, err = s.Next()
		}
		if se := syntaxErr(t, err); !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("%.20q: %v, want %s", tt.doc, err, tt.msg)
		}
	}
	// At the limit is fine.
	doc := "<a>" + strings.Repeat("x", 1000) + "</a>"
	if got := dump(strings.NewReader(doc), lim); !strings.HasSuffix(got, "EOF") {
		t.Errorf("text of 1000 bytes: %s", got[len(got)-60:])
	}
}

// endlessReader returns the same bytes forever after a prefix.
type endlessReader struct {
	prefix []byte
	fill   byte
}

func (r *endlessReader) Read(p []byte) (int, error) {
	if len(r.prefix) > 0 {
		n := copy(p, r.prefix)
		r.prefix = r.prefix[n:]
		return n, nil
	}
	for i := range p {
		p[i] = r.fill
	}
	return len(p), nil
}

func TestUnterminatedCommentHugeInput(t *testing.T) {
	s := NewScanner(&endlessReader{prefix: []byte("<!--"), fill: 'x'})
	_, err := s.Next()
	se := syntaxErr(t, err)
	if se.Pos.Offset != 0 || !strings.Contains(se.Msg, "larger than 10000000 bytes") {
		t.Fatal(err)
	}
	if off := s.InputOffset(); off != 0 {
		t.Errorf("InputOffset %d", off)
	}
}

func TestReaderError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("<a><b>text</b>"), iotest.ErrReader(boom))
	s := NewScanner(r)
	var kinds []Kind
	var err error
	for {
		var tok *Token
		if tok, err = s.Next(); err != nil {
			break
		}
		kinds = append(kinds, tok.Kind)
	}
	if !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	if len(kinds) != 4 {
		t.Errorf("tokens before the error: %v", kinds)
	}
	if _, err2 := s.Next(); err2 != err {
		t.Errorf("error not sticky: %v", err2)
	}
}

func TestXMLDeclAndLookup(t *testing.T) {
	s := NewScanner(strings.NewReader(`<?xml version="1.0" encoding="utf-8" standalone='yes'?><a xmlns="d" xmlns:p="u"><b xmlns:p="v"/><c/></a>`))
	var got []string
	for {
		tok, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		p, ok1 := s.LookupPrefix("p")
		d, ok2 := s.LookupPrefix("")
		x, _ := s.LookupPrefix("xml")
		_, ok3 := s.LookupPrefix("q")
		if x != xmlNS || ok3 || !ok1 || !ok2 {
			t.Errorf("%s: lookups %v %v %q %v", tokString(tok), ok1, ok2, x, ok3)
		}
		got = append(got, tok.Name.Local+"="+p+","+d)
	}
	want := "a=u,d b=v,d b=v,d c=u,d c=u,d a=u,d"
	if strings.Join(got, " ") != want {
		t.Errorf("got %s", strings.Join(got, " "))
	}
	v, e, sa, ok := s.XMLDecl()
	if v != "1.0" || e != "utf-8" || sa != "yes" || !ok {
		t.Errorf("XMLDecl: %q %q %q %v", v, e, sa, ok)
	}
	s = NewScanner(strings.NewReader("<a/>"))
	s.Next()
	if _, _, _, ok := s.XMLDecl(); ok {
		t.Error("XMLDecl without a declaration")
	}
	if _, ok := s.LookupPrefix(""); ok {
		t.Error("default namespace bound without a declaration")
	}
}

func TestInputOffset(t *testing.T) {
	doc := "\xEF\xBB\xBF<a>xy</a>"
	s := NewScanner(strings.NewReader(doc))
	var offs []int64
	for {
		if _, err := s.Next(); err != nil {
			break
		}
		offs = append(offs, s.InputOffset())
	}
	if want := []int64{6, 8, 12}; !equalInts(offs, want) {
		t.Errorf("got %v want %v", offs, want)
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestUTF16Errors(t *testing.T) {
	for _, tt := range []struct {
		doc string
		msg string
	}{
		{"\xFF\xFE<\x00a\x00>\x00\x00\xD8<\x00/\x00a\x00>\x00", "invalid UTF-16"},
		{"\xFF\xFE<\x00a\x00/\x00>\x00 ", "invalid UTF-16"},
		{utf16Doc("\uFEFF<?xml version='1.0' encoding='ISO-8859-1'?><a/>", false), `encoding "ISO-8859-1" declared but the document is UTF-16`},
	} {
		err := scanAll([]byte(tt.doc))
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%q: %v, want %s", tt.doc, err, tt.msg)
		}
	}
}

// TestTokenReuse checks that the strings of a token outlive it while Data
// is reused.
func TestTokenReuse(t *testing.T) {
	s := NewScanner(strings.NewReader(`<a x="1"><b y="2&amp;"/>t&amp;</a>`))
	var vals []string
	for {
		tok, err := s.Next()
		if err != nil {
			break
		}
		for _, a := range tok.Attrs {
			vals = append(vals, a.Name.Local+"="+a.Value)
		}
	}
	if got := strings.Join(vals, " "); got != "x=1 y=2&" {
		t.Errorf("got %s", got)
	}
}

func TestInterning(t *testing.T) {
	var doc bytes.Buffer
	doc.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := 0; i < 1000; i++ {
		doc.WriteString("<url><loc>x</loc></url>")
	}
	doc.WriteString("</urlset>")
	s := NewScanner(bytes.NewReader(doc.Bytes()))
	s.Next()
	allocs := testing.AllocsPerRun(1, func() {
		for {
			if _, err := s.Next(); err != nil {
				break
			}
		}
	})
	if allocs > 20 {
		t.Errorf("%v allocations for 1000 entries without attributes", allocs)
	}
}

// TestHostileCosts checks that inputs built to hit quadratic paths stay
// linear: many namespace declarations in scope, many attributes, many
// parameter entities. Each is timed (in CPU time) against an ordinary
// document of the same size: at these sizes a quadratic algorithm would be
// hundreds of times slower, the linear ones are a few times slower.
func TestHostileCosts(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	var b strings.Builder
	b.WriteString("<a")
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&b, " xmlns:p%d='u%d'", i, i)
	}
	b.WriteString(">")
	for i := 0; i < 50000; i++ {
		b.WriteString("<b p7:x='1'/>")
	}
	b.WriteString("</a>")
	var c strings.Builder
	c.WriteString("<a")
	for i := 0; i < 200000; i++ {
		fmt.Fprintf(&c, " a%d='%d'", i, i)
	}
	c.WriteString("/>")
	var d strings.Builder
	d.WriteString("<!DOCTYPE a [")
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&d, "<!ENTITY %% e%d 'x'>", i)
	}
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&d, "%%e%d;", i)
	}
	d.WriteString("]><a/>")
	timeScan := func(doc []byte) time.Duration {
		start := cpuTime()
		if err := scanAll(doc); err != nil {
			t.Fatal(err)
		}
		return cpuTime() - start
	}
	for _, doc := range []string{b.String(), c.String(), d.String()} {
		base := timeScan(resourceList(len(doc) / 200))
		el := timeScan([]byte(doc))
		t.Logf("%.20q... (%d bytes): %v, ordinary document: %v", doc, len(doc), el, base)
		if el > 50*base+200*time.Millisecond {
			t.Errorf("%.30q... (%d bytes) took %v, %.0f times an ordinary document", doc, len(doc), el, float64(el)/float64(base))
		}
	}
}

// TestBufferShrinks checks that the buffer grows for a huge token and
// gives the memory back once the token is consumed.
func TestBufferShrinks(t *testing.T) {
	doc := "<a>" + strings.Repeat("x", 2<<20) + "<b/>" + strings.Repeat("<c/>", 100000) + "</a>"
	s := NewScanner(strings.NewReader(doc))
	grown := 0
	for {
		_, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		grown = max(grown, len(s.buf))
	}
	if grown < 2<<20 || len(s.buf) > initialBufSize {
		t.Errorf("buffer grew to %d, ended at %d", grown, len(s.buf))
	}
}

func TestEncoding(t *testing.T) {
	for _, tt := range []struct{ doc, want string }{
		{"<a/>", "UTF-8"},
		{"\xEF\xBB\xBF<a/>", "UTF-8"},
		{"<?xml version='1.0' encoding='latin1'?><a/>", "ISO-8859-1"},
		{"<?xml version='1.0' encoding='ASCII'?><a/>", "US-ASCII"},
		{utf16Doc("\uFEFF<a/>", false), "UTF-16LE"},
		{utf16Doc("\uFEFF<a/>", true), "UTF-16BE"},
	} {
		s := NewScanner(strings.NewReader(tt.doc))
		if _, err := s.Next(); err != nil {
			t.Fatal(err)
		}
		if got := s.Encoding(); got != tt.want {
			t.Errorf("%q: %s, want %s", tt.doc, got, tt.want)
		}
	}
}
