package parity

// Edge values for the value mutations of the corpus. Values are raw
// attribute-value or element-content text: they are inserted as they are,
// so they may hold character references, CDATA sections and comments.

import "strings"

// dateTimeValues exercise xs:dateTime (and, in lastmod, xs:date).
var dateTimeValues = []string{
	"2013-01-03T09:00:00Z",
	"2013-01-03T09:00:00",               // no timezone: valid
	"2013-01-03T09:00:00.5Z",            // fractional seconds
	"2013-01-03T09:00:00.123456789012Z", // many fraction digits
	"2013-01-03T09:00:00.000000000000000000000001Z",
	"2013-01-03T09:00:00.Z",  // dot without digits
	"2013-01-03T09:00:00,5Z", // comma decimal
	"2013-01-03T24:00:00Z",   // end of day
	"2013-01-03T24:00:00.0Z",
	"2013-01-03T24:00:00.000001Z",
	"2013-01-03T24:00:01Z",
	"2013-01-03T24:01:00Z",
	"2013-02-28T24:00:00Z",
	"2013-12-31T24:00:00Z",
	"2013-01-03T23:59:60Z", // leap second
	"2013-01-03T23:59:59.999Z",
	"2013-01-03T09:00:00+14:00", // timezone bounds
	"2013-01-03T09:00:00-14:00",
	"2013-01-03T09:00:00+14:01",
	"2013-01-03T09:00:00-14:01",
	"2013-01-03T09:00:00+13:59",
	"2013-01-03T09:00:00+00:00",
	"2013-01-03T09:00:00-00:00",
	"2013-01-03T09:00:00+01:60",
	"2013-01-03T09:00:00+1:00",
	"2013-01-03T09:00:00+0100",
	"2013-01-03T09:00:00+01",
	"2013-01-03T09:00:00+15:00",
	"2013-01-03T09:00:00z",
	"2013-01-03t09:00:00Z",
	"2013-01-03T09:00Z", // no seconds
	"2013-01-03T09Z",
	"2013-01-03 09:00:00Z", // space separator
	"2013-01-03T09:00:00 Z",
	"2013-01-03T09:00:00ZZ",
	"2013-01-03T09:00:00+14:00Z",
	"2013-01-03",
	"2013-01-03T",
	"2013-01",
	"2013",
	"T09:00:00Z",
	"2013-02-29T00:00:00Z", // not a leap year
	"2012-02-29T00:00:00Z", // leap years
	"2000-02-29T00:00:00Z",
	"1900-02-29T00:00:00Z",
	"2100-02-29T00:00:00Z",
	"2400-02-29T00:00:00Z",
	"2013-04-31T00:00:00Z",
	"2013-04-30T00:00:00Z",
	"2013-13-01T00:00:00Z",
	"2013-00-01T00:00:00Z",
	"2013-01-00T00:00:00Z",
	"2013-01-32T00:00:00Z",
	"2013-1-03T00:00:00Z",
	"2013-01-3T00:00:00Z",
	"2013-01-03T9:00:00Z",
	"2013-01-03T09:0:00Z",
	"2013-01-03T09:00:0Z",
	"2013-01-03T25:00:00Z",
	"2013-01-03T09:60:00Z",
	"-2013-01-03T09:00:00Z", // negative years
	"+2013-01-03T09:00:00Z",
	"-0001-02-29T00:00:00Z",
	"-0004-02-29T00:00:00Z",
	"-0000-01-01T00:00:00Z",
	"0000-01-01T00:00:00Z",
	"0001-01-01T00:00:00Z",
	"12013-01-03T09:00:00Z", // more than four year digits
	"02013-01-03T09:00:00Z",
	"013-01-03T09:00:00Z",
	"99999999999-01-01T00:00:00Z",
	" 2013-01-03T09:00:00Z ", // whitespace is collapsed
	"&#9;2013-01-03T09:00:00Z&#10;",
	"2013-01-03T09:00:00Z&#10;x",
	"2013-01-03&#10;T09:00:00Z",
	"2013-01-03T09:00:00Z\n  ", // a raw line end, normalised to a space
	"2013-01-03\nT09:00:00Z",
	"",
	" ",
	"2013\u201001\u201003T09:00:00Z",           // Unicode hyphens
	"\uff12\uff10\uff11\uff13-01-03T09:00:00Z", // full-width digits
}

// dateOnlyValues exercise the xs:date member of the lastmod union, and
// markup inside element content.
var dateOnlyValues = []string{
	"2013-01-03Z",
	"2013-01-03+01:00",
	"2013-01-03-14:00",
	"2013-01-03+14:01",
	"2012-02-29",
	"-2013-01-03",
	"20130103",
	"2013-1-3",
	"2013-01-03 ",
	"<![CDATA[2013-01-03]]>",
	"2013-01<!--x-->-03",
	"2013-01-03<?pi x?>",
	"\n      2013-01-03\n      ",
	"2013-01-03<x/>",
}

// integerValues exercise xs:integer, xs:nonNegativeInteger and priType.
var integerValues = []string{
	"0", "1", "-1", "+5", " 7 ", "&#9;5&#10;", "1e3", "1.0", "1.", "007", "-0", "+0",
	"", " ", "+", "-", "--1", "+-1", "1 2", "0x10", "1_000",
	"\u0661\u0662", // Arabic-Indic digits
	"999999", "1000000", "999999.0", "0999999",
	"9223372036854775807", "9223372036854775808", "18446744073709551616",
	"123456789012345678901234", "1234567890123456789012345",
	"-123456789012345678901234", "-1234567890123456789012345",
	"000000000000000000000000000001",
	"99999999999999999999999999999999999999999",
}

// decimalValues exercise the priority element (xs:decimal 0.0..1.0).
var decimalValues = []string{
	"0.0", "1.0", "0.5", "1", "0", "1.01", "1.0000000001", "-0.0", "-0", "+0.5",
	".5", "5.", "0.", "-.0", "+.5", ".", "1.00000000000000000000000",
	"0.123456789012345678901234", "0.1234567890123456789012345",
	"00000000000000000000000000.5", "1e0", "  0.5  ", "", "0,5", "NaN", "INF",
	"-0.00001", "00.50", "+1.0", "1.0.0", "0.5 0.5", "<![CDATA[0.5]]>", "0.<!---->5",
	"\n      0.5\n      ",
}

// uriValues exercise xs:anyURI as libxml2 checks it (it replaces
// characters that may not appear in a URI and parses what remains).
var uriValues = []string{
	"http://example.com/",
	"http://example.com/a b",
	"http://exa mple.com/",
	"http://example.com/%zz",
	"http://example.com/%2",
	"http://example.com/%",
	"http://example.com/%41",
	"%41%42%43%44%45%46%47%48",
	"http://example.com/a#b#c",
	"http://example.com/a#b",
	"http://e.com/#%zz",
	"http://e.com/?%zz=1",
	"http://[::1]/abc",
	"http://[::1/abc",
	"http://ex[ample.com/",
	"http://[v1.x]/",
	"http://[::ffff:1.2.3.4]/",
	"http://example.com:80a/",
	"http://example.com:/",
	"http://example.com:65536/",
	"http://user:pw@example.com/",
	"mailto:someone@example.com",
	"urn:isbn:0451450523",
	"not a uri?",
	"http://example.com/\u00fc",
	"http://\u4f8b\u3048.jp/path",
	"http://example.com/?a=1&amp;b=2",
	"http://example.com/&lt;x&gt;",
	"http://example.com/{x}",
	"http://example.com/\\x",
	"http://example.com/|^`",
	":", "::", "a:", "http:", "http://",
	"1http://example.com/",
	"-http://example.com/",
	"x://example.com/",
	"X+Y.Z-1://example.com/",
	"h_t://example.com/",
	"//example.com/path",
	"/relative/path/x",
	"?query=only12",
	"#fragmentonly",
	" http://example.com/ ",
	"&#9;http://example.com/&#10;",
	"http://example.com/&#x7F;",
	"http://example.com/a&#xA0;b",
	"http://example.com/path?q#f",
	"",
	" ",
}

// locLengthValues probe the 12..2048 length facets of loc, in characters.
var locLengthValues = []string{
	"http://a.bc",       // 11
	"http://ab.cd",      // 12
	"http://\u00e9.cd",  // 11 characters, 12 bytes
	"http://\u00e9a.cd", // 12 characters
	" http://a.bc ",     // 11 after collapsing
	"http://a.b c",      // 12 with an inner space
	"http://a.b  c",     // 13, or 12 after collapsing
	"http://example.com/" + strings.Repeat("a", 2048-19), // 2048
	"http://example.com/" + strings.Repeat("a", 2049-19), // 2049
	"http://example.com/" + strings.Repeat("\u00e9", 2048-19),
	"http://example.com/" + strings.Repeat("\u00e9", 2049-19),
	"  http://example.com/" + strings.Repeat("a", 2048-19) + "  ",
	"http://example.com/" + strings.Repeat("&#x61;", 2048-19),
	"<![CDATA[http://example.com/]]>",
	"http://example.com/<!-- split -->res1",
	"http://example.com/<?pi?>res1",
}

// relValues exercise relType: a lowercase token or any URI.
var relValues = []string{
	"up", "Up", "UP%", "up link", "describedby", "describedBy",
	"http://www.openarchives.org/rs/terms/patch", "1up", "a.b-c", "a_b", "up-",
	"u", " up", "up ", "up#a#b", "%zz", "http://[::1", "&#10;up",
}

// pathValues exercise pathType, pattern "/.*[^/]".
var pathValues = []string{
	"/", "/a", "/a/", "a/b", " /a", "//a", "/a b", "/a/b", "&#9;/a", "/a&#9;",
	"/a&#10;", "/&#10;a", "/a&#13;b", "/a&#10;b", "/\u00e9", "", "/a ", "/ ", "//",
	"///a", "/resources/res1", "\\a", "/a/b/", "/./a",
	"/a\n", "/\na", "/a\tb",
}

// contentTypeValues exercise contentType, pattern "[\w-]+/[\w-]+" with the
// Unicode-category definition of \w, including characters whose category
// changed after the Unicode version libxml2's tables come from.
var contentTypeValues = []string{
	"text/html", "application/atom+xml", "application/ld+json", "t\u00ebxt/html",
	"a~/b", "application/vnd.ms-excel", "text/html;charset=utf-8",
	"text/plain; charset=utf-8", "application/x_y", "TEXT/HTML", "text/", "/html",
	"text", "text/html/x", "a-b/c-d", "-/-", "$/\u20ac", "a^/b", "a`/b", "a|/b",
	"a&lt;/b", "a=/b", "a1/2b", "\u0661/\u0662", "\u01c5/x", "a\u0301/b",
	"a\u00a0/b", "a\u200b/b", "\U0001d538/b", "a\U0001f600/b", "a b/c", "a'/b",
	"a&quot;/b", "a(/b", "a#/b", "a%/b", "a&amp;/b", "a*/b", "a@/b", "a!/b",
	"a?/b", "a\\/b", "a{/b", "a\u00ac/b", "a\u00b2/b", "a\u216b/b",
	"a\u0378/b", // unassigned
	"a\u2e30/b", // punctuation since Unicode 5.1
	"a\u061c/b", // format character since Unicode 6.3
	"a\u2e3a/b", // punctuation since Unicode 6.1
	"a\u20bd/b", // currency symbol since Unicode 7.0
	"a\ua8f8/b", // punctuation since Unicode 5.2
	"a\U0001f92f/b",
	"text/html&#10;", "&#9;text/html", "",
	"text/html\t", "text/\nhtml",
}

var changeValues = []string{
	"created", "updated", "deleted", "modified", "Created", " created", "created ",
	"", "created updated", "deleted&#10;",
	"created\n", // raw line end: normalised to a space, kept by xs:string
}

var hashValues = []string{
	"md5:1e0d5cb8ef6ba40c99b14c0237be735e", "md5:zzz", "sha-256:xyz md5:abc", "",
	" ", "md5:1e0d&#10;sha-256:aa", "MD5:ABC", "md5=abc",
}

var stringValues = []string{"resourcelist", "", "no-such-thing", " resourcelist ", "x&#10;y"}

var changefreqValues = []string{
	"always", "hourly", "daily", "weekly", "monthly", "yearly", "never", "Daily",
	" daily ", "daily\n", "", "sometimes", "<![CDATA[daily]]>", "da<!---->ily",
	"&#100;aily", " ", "\n      daily\n      ",
}
