package parity

// The parity corpus: every document the parity tests and the fuzz seeds
// use, generated deterministically from the specification's examples.
//
// Two mutation techniques are used on purpose:
//   - Values (attribute values, element text, prolog, line ends) are edited
//     at the byte level in the original text, so that multi-line start tags
//     keep their shape: libxml2 reports an attribute error on the line where
//     the start tag ends, and the engine must do the same.
//   - Structure (dropping, duplicating and moving elements, inserting
//     foreign elements, attributes, text and namespace changes) is edited
//     on an xmlquery tree and serialised by xmlquery. Raw markup that
//     xmlquery would escape (character references) is inserted through
//     placeholders replaced after serialisation.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/antchfx/xmlquery"
)

// corpusDoc is one document of the parity corpus.
type corpusDoc struct {
	// Name is stable and unique, "<base>/<mutation>" for generated
	// documents, e.g. "ex14/url-md-length=-1".
	Name string
	// Category groups documents by how they were made, for summaries.
	Category string
	// Data is the document.
	Data []byte
}

// Corpus categories.
const (
	catSpec      = "spec"      // examples of the specifications, unmodified
	catXmllint   = "xmllint"   // the libxml2 experiments kept with the schemas
	catSynthetic = "synthetic" // our base documents, unmodified
	catValue     = "value"     // datatype edge values in attributes and text
	catStructure = "structure" // elements dropped, duplicated, moved
	catInsert    = "insert"    // foreign and misplaced elements inserted
	catAttr      = "attribute" // foreign, unknown and xsi: attributes added
	catNamespace = "namespace" // namespace URIs and prefixes changed
	catText      = "text"      // text, CDATA, comments, PIs where they do (not) belong
	catEmpty     = "empty"     // roots without entries
	catProlog    = "prolog"    // XML declaration, BOM, DOCTYPE, line ends, misc
	catWF        = "wf"        // well-formedness and namespace-well-formedness errors
	catLines     = "lines"     // line-number stress
	catRegress   = "regress"   // testdata/regress: every disagreement ever found
)

// Namespaces used by the generator.
const (
	nsSitemap = "http://www.sitemaps.org/schemas/sitemap/0.9"
	nsRS      = "http://www.openarchives.org/rs/terms/"
	nsXSI     = "http://www.w3.org/2001/XMLSchema-instance"
	nsXS      = "http://www.w3.org/2001/XMLSchema"
	nsExt     = "http://example.org/ext"
)

// referenceDir returns the directory of the official schemas,
// ../shared/reference/schemas relative to the repository root, and whether
// it exists.
func referenceDir() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
	ref := filepath.Join(filepath.Dir(dir), "shared", "reference", "schemas")
	if _, err := os.Stat(filepath.Join(ref, "sitemap.xsd")); err != nil {
		return ref, false
	}
	return ref, true
}

// requireReference skips the test when the official schemas and the
// specification examples are not next to the repository.
func requireReference(tb testing.TB) string {
	tb.Helper()
	ref, ok := referenceDir()
	if !ok {
		tb.Skipf("official schemas not found at %s (expected ../shared/reference/schemas from the repository root); parity tests need them", ref)
	}
	return ref
}

var (
	corpusOnce sync.Once
	corpusDocs []corpusDoc
	corpusErr  error
)

// loadCorpus returns the generated corpus followed by testdata/regress,
// building it once per test binary.
func loadCorpus(tb testing.TB) []corpusDoc {
	tb.Helper()
	ref := requireReference(tb)
	corpusOnce.Do(func() {
		corpusDocs, corpusErr = buildCorpus(filepath.Join(ref, "xmllint-tests"))
		if corpusErr != nil {
			return
		}
		var reg []corpusDoc
		reg, corpusErr = regressionDocs()
		corpusDocs = append(corpusDocs, reg...)
	})
	if corpusErr != nil {
		tb.Fatalf("building the corpus: %v", corpusErr)
	}
	return corpusDocs
}

// regressionDocs reads testdata/regress/*.xml, in name order.
func regressionDocs() ([]corpusDoc, error) {
	files, err := filepath.Glob(filepath.Join("testdata", "regress", "*.xml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var docs []corpusDoc
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		name := "regress/" + strings.TrimSuffix(filepath.Base(f), ".xml")
		docs = append(docs, corpusDoc{Name: name, Category: catRegress, Data: data})
	}
	return docs, nil
}

// corpusBuilder collects documents, enforcing unique names and dropping
// byte-identical duplicates (a mutation that changes nothing).
type corpusBuilder struct {
	docs  []corpusDoc
	names map[string]bool
	seen  map[string]bool
}

func newCorpusBuilder() *corpusBuilder {
	return &corpusBuilder{names: map[string]bool{}, seen: map[string]bool{}}
}

func (b *corpusBuilder) add(category, name string, data []byte) {
	if b.names[name] {
		panic("parity: duplicate corpus document name " + name)
	}
	b.names[name] = true
	if b.seen[string(data)] {
		return
	}
	b.seen[string(data)] = true
	b.docs = append(b.docs, corpusDoc{Name: name, Category: category, Data: data})
}

// baseDoc is a document mutations start from.
type baseDoc struct {
	name string
	data []byte
}

// buildCorpus generates the corpus from the experiments directory
// (reference/schemas/xmllint-tests).
func buildCorpus(xmllintDir string) ([]corpusDoc, error) {
	b := newCorpusBuilder()
	var bases []baseDoc // documents mutated by every generator
	byName := map[string][]byte{}

	read := func(sub, category, prefix string, mutate bool) error {
		files, err := filepath.Glob(filepath.Join(xmllintDir, sub, "*.xml"))
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return fmt.Errorf("no documents in %s", filepath.Join(xmllintDir, sub))
		}
		sort.Strings(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			stem := strings.TrimSuffix(filepath.Base(f), ".xml")
			b.add(category, prefix+"/"+stem, data)
			byName[stem] = data
			// The Table 2 skeletons contain "..." and are not documents
			// worth mutating.
			if mutate && !strings.HasPrefix(stem, "table2-") {
				bases = append(bases, baseDoc{stem, data})
			}
		}
		return nil
	}
	if err := read("spec-1.1-inline", catSpec, "spec", true); err != nil {
		return nil, err
	}
	if err := read("notification-1.0.1-inline", catSpec, "notification", true); err != nil {
		return nil, err
	}
	if err := read(".", catXmllint, "xmllint", false); err != nil {
		return nil, err
	}
	for _, s := range synthetic {
		b.add(catSynthetic, "synthetic/"+s.name, []byte(s.text))
		byName[s.name] = []byte(s.text)
		bases = append(bases, baseDoc{s.name, []byte(s.text)})
	}
	// The two good experiments are small, clean bases for structure.
	for _, n := range []string{"rl-good", "ri-good"} {
		bases = append(bases, baseDoc{n, byName[n]})
	}

	genSyntheticValues(b, byName)
	for _, base := range bases {
		if !isSynthetic(base.name) {
			genExampleValues(b, base)
		}
	}
	for _, base := range bases {
		genStructure(b, base)
	}
	// The heavier generators run on a handful of bases that between them
	// have every kind of document: both roots, document-level and entry
	// level rs:md and rs:ln, lastmod, changefreq and priority.
	for _, n := range richBases {
		base := baseDoc{n, byName[n]}
		if base.data == nil {
			return nil, fmt.Errorf("rich base %s missing", n)
		}
		genInsertions(b, base)
		genAttributes(b, base)
		genNamespaces(b, base)
		genText(b, base)
		genEmpty(b, base)
	}
	for _, n := range []string{"ex14", "ex08", "urlset-full"} {
		genProlog(b, baseDoc{n, byName[n]})
	}
	genWellFormedness(b, byName["urlset-full"])
	genLines(b, byName["urlset-full"])
	return b.docs, nil
}

func isSynthetic(name string) bool {
	for _, s := range synthetic {
		if s.name == name {
			return true
		}
	}
	return false
}

// richBases are the bases the heavier generators use.
var richBases = []string{"ex01", "ex08", "ex14", "ex19", "ex24", "notification_ex1", "urlset-full", "sitemapindex-full"}

// synthetic are base documents written for the corpus: they use nearly
// every element and attribute of the schemas, with start tags spread over
// lines as the specification's examples do. They are valid under every
// version (no datetime, no profile: the value generators add those), so
// that a mutation's verdict depends on the mutation alone.
var synthetic = []struct{ name, text string }{
	{"urlset-full", `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up"
         href="http://example.com/dataset1/capabilitylist.xml"/>
  <rs:md capability="changedump-manifest"
         from="2013-01-02T00:00:00Z"
         until="2013-01-03T00:00:00Z"/>
  <url>
      <loc>http://example.com/res1</loc>
      <lastmod>2013-01-02T13:00:00Z</lastmod>
      <changefreq>daily</changefreq>
      <priority>0.5</priority>
      <rs:md change="updated"
             hash="md5:1584abdf8ebdc9802ac0c6a7402c03b6"
             length="8876"
             type="text/html"
             path="/changes/res1"/>
      <rs:ln rel="duplicate"
             href="http://mirror.example.com/res1"
             modified="2013-01-02T13:00:00Z"
             hash="md5:1584abdf8ebdc9802ac0c6a7402c03b6"
             length="8876"
             type="text/html"
             pri="1"/>
  </url>
  <url>
      <loc>http://example.com/res2</loc>
      <rs:md change="deleted"
             length="0"/>
  </url>
</urlset>
`},
	{"sitemapindex-full", `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
              xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up"
         href="http://example.com/dataset1/capabilitylist.xml"/>
  <rs:md capability="resourcelist"
         at="2013-01-03T09:00:00Z"
         completed="2013-01-03T09:10:00Z"/>
  <sitemap>
      <loc>http://example.com/resourcelist-part1.xml</loc>
      <lastmod>2013-01-03T09:00:00Z</lastmod>
      <rs:md at="2013-01-03T09:00:00Z"
             completed="2013-01-03T09:05:00Z"/>
      <rs:ln rel="alternate"
             href="http://mirror.example.com/resourcelist-part1.xml"/>
  </sitemap>
  <sitemap>
      <loc>http://example.com/resourcelist-part2.xml</loc>
  </sitemap>
</sitemapindex>
`},
}

// ---------------------------------------------------------------------------
// Edge values. Values are raw attribute-value or element-content text: they
// are inserted as they are, so they may hold character references, CDATA
// sections and comments.

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
}

var changeValues = []string{
	"created", "updated", "deleted", "modified", "Created", " created", "created ",
	"", "created updated", "deleted&#10;",
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

// ---------------------------------------------------------------------------
// Byte-level editing.

// startTag locates the n-th (0-based) start tag of qname in doc and returns
// the offsets of its "<" and of the end of its closing ">".
func startTag(doc []byte, qname string, n int) (start, end int, ok bool) {
	open := []byte("<" + qname)
	from := 0
	for {
		i := bytes.Index(doc[from:], open)
		if i < 0 {
			return 0, 0, false
		}
		i += from
		from = i + len(open)
		if from >= len(doc) || !strings.ContainsRune(" \t\r\n/>", rune(doc[from])) {
			continue
		}
		if n > 0 {
			n--
			continue
		}
		quote := byte(0)
		for j := from; j < len(doc); j++ {
			switch c := doc[j]; {
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'':
				quote = c
			case c == '>':
				return i, j + 1, true
			}
		}
		return 0, 0, false
	}
}

// countTags counts the start tags of qname in doc.
func countTags(doc []byte, qname string) int {
	n := 0
	for {
		if _, _, ok := startTag(doc, qname, n); !ok {
			return n
		}
		n++
	}
}

// setAttr sets attribute attr of the n-th qname start tag to the raw value,
// adding the attribute before the end of the tag if it is absent.
func setAttr(doc []byte, qname string, n int, attr, raw string) ([]byte, bool) {
	start, end, ok := startTag(doc, qname, n)
	if !ok {
		return nil, false
	}
	tag := string(doc[start:end])
	re := regexp.MustCompile(`(\s` + regexp.QuoteMeta(attr) + `\s*=\s*)("[^"]*"|'[^']*')`)
	if loc := re.FindStringSubmatchIndex(tag); loc != nil {
		tag = tag[:loc[4]] + `"` + raw + `"` + tag[loc[5]:]
	} else {
		cut := len(tag) - 1
		if strings.HasSuffix(tag, "/>") {
			cut--
		}
		tag = tag[:cut] + " " + attr + `="` + raw + `"` + tag[cut:]
	}
	return splice(doc, start, end, tag), true
}

// attrValue returns the raw value of attr in the n-th qname start tag.
func attrValue(doc []byte, qname string, n int, attr string) (string, bool) {
	start, end, ok := startTag(doc, qname, n)
	if !ok {
		return "", false
	}
	re := regexp.MustCompile(`\s` + regexp.QuoteMeta(attr) + `\s*=\s*"([^"]*)"`)
	m := re.FindSubmatch(doc[start:end])
	if m == nil {
		return "", false
	}
	return string(m[1]), true
}

// attrNames lists the attributes of the n-th qname start tag, in order.
func attrNames(doc []byte, qname string, n int) []string {
	start, end, ok := startTag(doc, qname, n)
	if !ok {
		return nil
	}
	var names []string
	for _, m := range attrNameRE.FindAllSubmatch(doc[start:end], -1) {
		names = append(names, string(m[1]))
	}
	return names
}

var attrNameRE = regexp.MustCompile(`\s([A-Za-z_][\w.:-]*)\s*=\s*["']`)

// setText replaces the content of the n-th qname element (which must not be
// empty-tagged or nested) with raw.
func setText(doc []byte, qname string, n int, raw string) ([]byte, bool) {
	_, end, ok := startTag(doc, qname, n)
	if !ok || doc[end-2] == '/' {
		return nil, false
	}
	closeAt := bytes.Index(doc[end:], []byte("</"+qname+">"))
	if closeAt < 0 {
		return nil, false
	}
	return splice(doc, end, end+closeAt, raw), true
}

func splice(doc []byte, start, end int, with string) []byte {
	out := make([]byte, 0, len(doc)-(end-start)+len(with))
	out = append(out, doc[:start]...)
	out = append(out, with...)
	return append(out, doc[end:]...)
}

// label turns a value into a readable, stable part of a document name.
func label(v string) string {
	if len(v) > 40 {
		sum := sha256.Sum256([]byte(v))
		return fmt.Sprintf("len%d-%s", len(v), hex.EncodeToString(sum[:4]))
	}
	plain := v != ""
	for _, r := range v {
		if r > '~' || r <= ' ' || r == '"' || r == '\\' {
			plain = false
			break
		}
	}
	if plain {
		return v
	}
	return strconv.QuoteToASCII(v)
}

// ---------------------------------------------------------------------------
// Value generators.

// valueSlot is a place in a base document that takes values of one type.
type valueSlot struct {
	name   string // e.g. "url-md-length"
	qname  string // element holding the value
	occ    int    // which occurrence of qname
	attr   string // attribute; "" for element content
	values [][]string
}

// genSyntheticValues puts every edge value into every slot of the synthetic
// bases.
func genSyntheticValues(b *corpusBuilder, byName map[string][]byte) {
	dt := [][]string{dateTimeValues}
	lastmod := [][]string{dateTimeValues, dateOnlyValues}
	uri := [][]string{uriValues}
	plan := map[string][]valueSlot{
		"urlset-full": {
			{"doc-md-capability", "rs:md", 0, "capability", [][]string{stringValues}},
			{"doc-md-from", "rs:md", 0, "from", dt},
			{"url-md-at", "rs:md", 1, "at", dt},
			{"url-md-completed", "rs:md", 1, "completed", dt},
			{"url-md-datetime", "rs:md", 1, "datetime", dt},
			{"url-md-from", "rs:md", 1, "from", dt},
			{"url-md-until", "rs:md", 1, "until", dt},
			{"url-md-modified", "rs:md", 1, "modified", dt},
			{"url-md-length", "rs:md", 1, "length", [][]string{integerValues}},
			{"url-md-change", "rs:md", 1, "change", [][]string{changeValues}},
			{"url-md-hash", "rs:md", 1, "hash", [][]string{hashValues}},
			{"url-md-encoding", "rs:md", 1, "encoding", [][]string{stringValues}},
			{"url-md-path", "rs:md", 1, "path", [][]string{pathValues}},
			{"url-md-type", "rs:md", 1, "type", [][]string{contentTypeValues}},
			{"url-ln-modified", "rs:ln", 1, "modified", dt},
			{"url-ln-length", "rs:ln", 1, "length", [][]string{integerValues}},
			{"url-ln-pri", "rs:ln", 1, "pri", [][]string{integerValues}},
			{"url-ln-href", "rs:ln", 1, "href", uri},
			{"url-ln-profile", "rs:ln", 1, "profile", uri},
			{"url-ln-rel", "rs:ln", 1, "rel", [][]string{relValues, uriValues}},
			{"url-ln-path", "rs:ln", 1, "path", [][]string{pathValues}},
			{"url-ln-type", "rs:ln", 1, "type", [][]string{contentTypeValues}},
			{"url-ln-hash", "rs:ln", 1, "hash", [][]string{hashValues}},
			{"url-ln-encoding", "rs:ln", 1, "encoding", [][]string{stringValues}},
			{"url-loc", "loc", 0, "", [][]string{uriValues, locLengthValues}},
			{"url-lastmod", "lastmod", 0, "", lastmod},
			{"url-changefreq", "changefreq", 0, "", [][]string{changefreqValues}},
			{"url-priority", "priority", 0, "", [][]string{decimalValues}},
		},
		"sitemapindex-full": {
			{"doc-md-at", "rs:md", 0, "at", dt},
			{"sitemap-loc", "loc", 0, "", [][]string{uriValues, locLengthValues}},
			{"sitemap-lastmod", "lastmod", 0, "", lastmod},
		},
	}
	for _, base := range []string{"urlset-full", "sitemapindex-full"} {
		doc := byName[base]
		for _, slot := range plan[base] {
			done := map[string]bool{}
			for _, list := range slot.values {
				for _, v := range list {
					if done[v] {
						continue
					}
					done[v] = true
					var out []byte
					var ok bool
					if slot.attr != "" {
						if strings.ContainsAny(v, "<\n") {
							continue // not an attribute value
						}
						out, ok = setAttr(doc, slot.qname, slot.occ, slot.attr, v)
					} else {
						out, ok = setText(doc, slot.qname, slot.occ, v)
					}
					if !ok {
						panic("parity: cannot place value in " + base + "/" + slot.name)
					}
					b.add(catValue, base+"/"+slot.name+"="+label(v), out)
				}
			}
		}
	}
}

// shortValues are the few edge values tried on every attribute of the
// specification's examples, by attribute name.
var shortValues = map[string][]string{
	"at":         {"2013-01-03T09:00Z", "2013-01-03T24:00:00Z", "2013-02-29T00:00:00Z", "2013-01-03T09:00:00+14:01", "2013-01-03 09:00:00Z", "2013-01-03T09:00:00"},
	"length":     {"-1", "+5", " 7 ", "1e3", ""},
	"pri":        {"0", "999999", "1000000"},
	"capability": {""},
	"hash":       {"md5:zzz"},
	"encoding":   {""},
	"change":     {"modified", " created"},
	"path":       {"/", "a/b", "//a"},
	"type":       {"text/html;charset=utf-8", "application/atom+xml", "t\u00ebxt/html"},
	"rel":        {"Up", "up link", "%zz"},
	"href":       {"not a uri?", "http://[::1", ""},
	"profile":    {"http://[::1"},
}

func init() {
	for _, a := range []string{"completed", "datetime", "from", "until", "modified"} {
		shortValues[a] = shortValues["at"]
	}
}

// genExampleValues tries shortValues on every attribute of the first
// document-level and first entry-level rs:md and rs:ln of a base, and a few
// loc values, keeping the example's layout.
func genExampleValues(b *corpusBuilder, base baseDoc) {
	doc := base.data
	firstEntry := bytes.Index(doc, []byte("<url>"))
	if i := bytes.Index(doc, []byte("<sitemap>")); firstEntry < 0 || (i >= 0 && i < firstEntry) {
		firstEntry = i
	}
	for _, qname := range []string{"rs:md", "rs:ln"} {
		short := qname[3:]
		picked := map[string]bool{}
		for n := 0; n < countTags(doc, qname); n++ {
			start, _, _ := startTag(doc, qname, n)
			where := "doc"
			if firstEntry >= 0 && start > firstEntry {
				where = "entry"
			}
			if picked[where] {
				continue
			}
			picked[where] = true
			for _, attr := range attrNames(doc, qname, n) {
				for _, v := range shortValues[attr] {
					out, ok := setAttr(doc, qname, n, attr, v)
					if !ok {
						panic("parity: setAttr failed on " + base.name)
					}
					b.add(catValue, fmt.Sprintf("%s/%s-%s-%s=%s", base.name, where, short, attr, label(v)), out)
				}
			}
		}
	}
	if countTags(doc, "loc") > 0 {
		orig := ""
		if start, end, ok := startTag(doc, "loc", 0); ok {
			_ = start
			if c := bytes.Index(doc[end:], []byte("</loc>")); c >= 0 {
				orig = string(doc[end : end+c])
			}
		}
		for _, v := range []string{" " + orig + "\n  ", "http://a.bc"} {
			if out, ok := setText(doc, "loc", 0, v); ok {
				b.add(catValue, base.name+"/loc="+label(v), out)
			}
		}
	}
}

// ---------------------------------------------------------------------------
// Tree editing with xmlquery.

// parseTree parses a base document; bases are known to parse.
func parseTree(data []byte) *xmlquery.Node {
	doc, err := xmlquery.Parse(bytes.NewReader(data))
	if err != nil {
		panic("parity: xmlquery cannot parse a base document: " + err.Error())
	}
	return doc
}

// rawText is a placeholder text node replaced, after serialisation, by raw
// markup that xmlquery would otherwise escape.
type rawText struct {
	marks map[string]string
}

func (r *rawText) node(raw string) *xmlquery.Node {
	if r.marks == nil {
		r.marks = map[string]string{}
	}
	mark := fmt.Sprintf("\x00RAW%d\x00", len(r.marks))
	r.marks[mark] = raw
	return &xmlquery.Node{Type: xmlquery.TextNode, Data: mark}
}

// serialize writes the tree back to bytes, keeping whitespace and writing
// empty elements as empty-element tags.
func serialize(doc *xmlquery.Node, raws *rawText) []byte {
	s := doc.OutputXMLWithOptions(xmlquery.WithEmptyTagSupport(), xmlquery.WithPreserveSpace())
	if raws != nil {
		for mark, raw := range raws.marks {
			s = strings.Replace(s, mark, raw, 1)
		}
	}
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return []byte(s)
}

func rootElement(doc *xmlquery.Node) *xmlquery.Node {
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xmlquery.ElementNode {
			return c
		}
	}
	panic("parity: document without root element")
}

func qnameOf(n *xmlquery.Node) string {
	if n.Prefix != "" {
		return n.Prefix + ":" + n.Data
	}
	return n.Data
}

func elementChildren(n *xmlquery.Node) []*xmlquery.Node {
	var out []*xmlquery.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xmlquery.ElementNode {
			out = append(out, c)
		}
	}
	return out
}

func allChildren(n *xmlquery.Node) []*xmlquery.Node {
	var out []*xmlquery.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		out = append(out, c)
	}
	return out
}

// setChildren relinks the children of parent in the given order.
func setChildren(parent *xmlquery.Node, kids []*xmlquery.Node) {
	parent.FirstChild, parent.LastChild = nil, nil
	for _, k := range kids {
		k.Parent, k.PrevSibling, k.NextSibling = nil, nil, nil
		xmlquery.AddChild(parent, k)
	}
}

// insertBefore inserts n before ref among the children of parent; a nil
// ref appends.
func insertBefore(parent, ref, n *xmlquery.Node) {
	var kids []*xmlquery.Node
	for _, k := range allChildren(parent) {
		if k == ref {
			kids = append(kids, n)
		}
		kids = append(kids, k)
	}
	if ref == nil {
		kids = append(kids, n)
	}
	setChildren(parent, kids)
}

func clone(n *xmlquery.Node) *xmlquery.Node {
	c := &xmlquery.Node{Type: n.Type, Data: n.Data, Prefix: n.Prefix, NamespaceURI: n.NamespaceURI, ProcInst: n.ProcInst}
	c.Attr = append([]xmlquery.Attr(nil), n.Attr...)
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		xmlquery.AddChild(c, clone(k))
	}
	return c
}

// indexedElement is an element found by walking a tree, with the signature
// "parent>child" used to pick one element of each kind.
type indexedElement struct {
	sig  string
	node *xmlquery.Node
}

// elementsByKind returns the first element of each kind below the root, in
// document order.
func elementsByKind(root *xmlquery.Node) []indexedElement {
	var out []indexedElement
	seen := map[string]bool{}
	var walk func(n *xmlquery.Node)
	walk = func(n *xmlquery.Node) {
		for _, c := range elementChildren(n) {
			sig := qnameOf(n) + ">" + qnameOf(c)
			if !seen[sig] {
				seen[sig] = true
				out = append(out, indexedElement{sig, c})
			}
			walk(c)
		}
	}
	walk(root)
	return out
}

// treeEdit parses base, finds the element of kind sig (or the root when sig
// is empty), applies edit and serialises; ok is false when edit declines.
func treeEdit(base []byte, edit func(doc, root *xmlquery.Node, raws *rawText) bool) ([]byte, bool) {
	doc := parseTree(base)
	raws := &rawText{}
	if !edit(doc, rootElement(doc), raws) {
		return nil, false
	}
	return serialize(doc, raws), true
}

func findKind(root *xmlquery.Node, sig string) *xmlquery.Node {
	for _, e := range elementsByKind(root) {
		if e.sig == sig {
			return e.node
		}
	}
	return nil
}

// genStructure drops, duplicates and moves one element of each kind.
func genStructure(b *corpusBuilder, base baseDoc) {
	root := rootElement(parseTree(base.data))
	type op struct {
		name string
		fn   func(el *xmlquery.Node) bool
	}
	ops := []op{
		{"drop", func(el *xmlquery.Node) bool { xmlquery.RemoveFromTree(el); return true }},
		{"dup", func(el *xmlquery.Node) bool {
			xmlquery.AddImmediateSibling(el, clone(el))
			return true
		}},
		{"swap-next", func(el *xmlquery.Node) bool {
			sibs := elementChildren(el.Parent)
			for i, s := range sibs {
				if s == el && i+1 < len(sibs) {
					kids := allChildren(el.Parent)
					for j, k := range kids {
						switch k {
						case el:
							kids[j] = sibs[i+1]
						case sibs[i+1]:
							kids[j] = el
						}
					}
					setChildren(el.Parent, kids)
					return true
				}
			}
			return false
		}},
		{"to-first", func(el *xmlquery.Node) bool {
			first := elementChildren(el.Parent)[0]
			if first == el {
				return false
			}
			parent := el.Parent
			xmlquery.RemoveFromTree(el)
			insertBefore(parent, first, el)
			return true
		}},
		{"to-last", func(el *xmlquery.Node) bool {
			parent := el.Parent
			xmlquery.RemoveFromTree(el)
			insertBefore(parent, nil, el)
			return true
		}},
	}
	for _, kind := range elementsByKind(root) {
		for _, o := range ops {
			out, ok := treeEdit(base.data, func(doc, root *xmlquery.Node, _ *rawText) bool {
				return o.fn(findKind(root, kind.sig))
			})
			if ok {
				b.add(catStructure, base.name+"/"+o.name+":"+kind.sig, out)
			}
		}
	}
}

// entryName is the entry element of a root: url or sitemap.
func entryName(root *xmlquery.Node) string {
	if root.Data == "sitemapindex" {
		return "sitemap"
	}
	return "url"
}

// firstOf returns the first element child of n with the given qname.
func firstOf(n *xmlquery.Node, qname string) *xmlquery.Node {
	for _, c := range elementChildren(n) {
		if qnameOf(c) == qname {
			return c
		}
	}
	return nil
}

// snippet parses a fragment into a detached element, declaring the
// prefixes the fragments use.
func snippet(fragment string) *xmlquery.Node {
	wrapped := `<w xmlns="` + nsSitemap + `" xmlns:rs="` + nsRS + `">` + fragment + `</w>`
	doc := parseTree([]byte(wrapped))
	el := elementChildren(rootElement(doc))[0]
	xmlquery.RemoveFromTree(el)
	return el
}

// genInsertions inserts foreign and misplaced elements at the places where
// the content models of the schemas differ.
func genInsertions(b *corpusBuilder, base baseDoc) {
	items := []struct{ name, fragment string }{
		{"ext", `<ext:x xmlns:ext="` + nsExt + `"/>`},
		{"no-ns", `<x xmlns=""/>`},
		{"sitemap-ns", `<x/>`},
		{"rs-unknown", `<rs:x/>`},
		{"rs-md", `<rs:md/>`},
		{"rs-ln", `<rs:ln rel="alternate" href="http://example.com/x"/>`},
		{"xhtml", `<xhtml:link xmlns:xhtml="http://www.w3.org/1999/xhtml" rel="alternate" hreflang="de" href="http://example.com/de"/>`},
		{"xs-element", `<xs:element xmlns:xs="` + nsXS + `" name="x"/>`},
		{"xsi-element", `<xsi:x xmlns:xsi="` + nsXSI + `"/>`},
		{"loc", `<loc>http://example.com/x</loc>`},
		{"url", `<url><loc>http://example.com/x</loc></url>`},
		{"sitemap", `<sitemap><loc>http://example.com/x</loc></sitemap>`},
	}
	// positions return (parent, ref): the fragment goes before ref.
	positions := []struct {
		name string
		at   func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node)
	}{
		{"root-first", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			return root, elementChildren(root)[0]
		}},
		{"root-before-entries", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			return root, firstOf(root, entryName(root))
		}},
		{"root-between-entries", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			first := firstOf(root, entryName(root))
			if first == nil {
				return nil, nil
			}
			return root, first.NextSibling
		}},
		{"root-last", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			return root, nil
		}},
		{"entry-first", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			e := firstOf(root, entryName(root))
			if e == nil {
				return nil, nil
			}
			return e, e.FirstChild
		}},
		{"entry-after-loc", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			e := firstOf(root, entryName(root))
			if e == nil || firstOf(e, "loc") == nil {
				return nil, nil
			}
			return e, firstOf(e, "loc").NextSibling
		}},
		{"entry-last", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			e := firstOf(root, entryName(root))
			if e == nil {
				return nil, nil
			}
			return e, nil
		}},
		{"in-md", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			if e := firstOf(root, entryName(root)); e != nil {
				if md := firstOf(e, "rs:md"); md != nil {
					return md, nil
				}
			}
			if md := firstOf(root, "rs:md"); md != nil {
				return md, nil
			}
			return nil, nil
		}},
		{"in-loc", func(root *xmlquery.Node) (*xmlquery.Node, *xmlquery.Node) {
			e := firstOf(root, entryName(root))
			if e == nil || firstOf(e, "loc") == nil {
				return nil, nil
			}
			return firstOf(e, "loc"), nil
		}},
	}
	for _, pos := range positions {
		for _, it := range items {
			out, ok := treeEdit(base.data, func(doc, root *xmlquery.Node, _ *rawText) bool {
				parent, ref := pos.at(root)
				if parent == nil {
					return false
				}
				insertBefore(parent, ref, snippet(it.fragment))
				return true
			})
			if ok {
				b.add(catInsert, base.name+"/insert-"+it.name+"@"+pos.name, out)
			}
		}
	}
}

// genAttributes adds foreign, unknown and xsi: attributes to each kind of
// element.
func genAttributes(b *corpusBuilder, base baseDoc) {
	type target struct {
		name string
		find func(root *xmlquery.Node) *xmlquery.Node
	}
	entry := func(root *xmlquery.Node) *xmlquery.Node { return firstOf(root, entryName(root)) }
	child := func(qname string) func(root *xmlquery.Node) *xmlquery.Node {
		return func(root *xmlquery.Node) *xmlquery.Node {
			if e := entry(root); e != nil {
				return firstOf(e, qname)
			}
			return nil
		}
	}
	targets := []target{
		{"root", func(root *xmlquery.Node) *xmlquery.Node { return root }},
		{"entry", entry},
		{"loc", child("loc")},
		{"lastmod", child("lastmod")},
		{"priority", child("priority")},
		{"doc-md", func(root *xmlquery.Node) *xmlquery.Node { return firstOf(root, "rs:md") }},
		{"doc-ln", func(root *xmlquery.Node) *xmlquery.Node { return firstOf(root, "rs:ln") }},
		{"entry-md", child("rs:md")},
		{"entry-ln", child("rs:ln")},
	}
	common := [][2]string{
		{"ext:a", "1"}, {"a", "1"}, {"rs:a", "1"}, {"rs:length", "1"}, {"sm:a", "1"},
		{"xml:lang", "en"}, {"xml:space", "preserve"}, {"xml:space", "bogus"}, {"xml:foo", "1"},
		{"xml:base", "http://example.com/"}, {"xsi:nil", "true"}, {"xsi:nil", "false"},
		{"xsi:nil", "maybe"}, {"xsi:foo", "1"}, {"xsi:type", "xs:anyType"},
		{"xsi:type", "nope:x"}, {"xmlns:unused", "http://example.org/unused"},
	}
	specific := map[string][][2]string{
		"root": {
			{"xsi:schemaLocation", nsSitemap + " sitemap.xsd " + nsRS + " resourcesync.xsd"},
			{"xsi:schemaLocation", nsSitemap + " sitemap.xsd " + nsRS},
			{"xsi:schemaLocation", ""},
			{"xsi:noNamespaceSchemaLocation", "sitemap.xsd"},
			{"xsi:type", "sm:tUrl"},
		},
		"entry":    {{"xsi:type", "sm:tUrl"}, {"xsi:type", "sm:tSitemap"}, {"xsi:type", "tUrl"}},
		"loc":      {{"xsi:type", "sm:tLoc"}, {"xsi:type", "sm:tLocSitemap"}, {"xsi:type", "tLoc"}, {"xsi:type", "xs:anyURI"}, {"xsi:type", "xs:string"}, {"xsi:type", "sm:nope"}},
		"lastmod":  {{"xsi:type", "xs:date"}, {"xsi:type", "xs:dateTime"}, {"xsi:type", "sm:tLastmod"}, {"xsi:type", "sm:tLastmodSitemap"}},
		"priority": {{"xsi:type", "xs:decimal"}, {"xsi:type", "sm:tPriority"}},
		"doc-md":   {{"xsi:type", "rs:changeType"}, {"rs:capability", "resourcelist"}},
		"entry-ln": {{"xsi:type", "xs:string"}},
	}
	for _, tg := range targets {
		attrs := append(append([][2]string(nil), common...), specific[tg.name]...)
		for _, a := range attrs {
			out, ok := treeEdit(base.data, func(doc, root *xmlquery.Node, _ *rawText) bool {
				el := tg.find(root)
				if el == nil {
					return false
				}
				declare(root, "ext", nsExt)
				declare(root, "sm", nsSitemap)
				declare(root, "xsi", nsXSI)
				declare(root, "xs", nsXS)
				xmlquery.AddAttr(el, a[0], a[1])
				return true
			})
			if ok {
				b.add(catAttr, base.name+"/attr-"+tg.name+"-"+a[0]+"="+label(a[1]), out)
			}
		}
	}
}

// declare adds a namespace declaration to the root unless the prefix is
// declared there already.
func declare(root *xmlquery.Node, prefix, uri string) {
	xmlquery.AddAttr(root, "xmlns:"+prefix, uri)
}

// setNamespaceDecl changes the value of a namespace declaration on the root
// ("" prefix for the default namespace).
func setNamespaceDecl(root *xmlquery.Node, prefix, uri string) bool {
	for i, a := range root.Attr {
		if (prefix == "" && a.Name.Space == "" && a.Name.Local == "xmlns") ||
			(prefix != "" && a.Name.Space == "xmlns" && a.Name.Local == prefix) {
			root.Attr[i].Value = uri
			return true
		}
	}
	return false
}

func removeNamespaceDecl(root *xmlquery.Node, prefix string) bool {
	for i, a := range root.Attr {
		if (prefix == "" && a.Name.Space == "" && a.Name.Local == "xmlns") ||
			(prefix != "" && a.Name.Space == "xmlns" && a.Name.Local == prefix) {
			root.Attr = append(root.Attr[:i], root.Attr[i+1:]...)
			return true
		}
	}
	return false
}

// genNamespaces changes namespace URIs and prefixes.
func genNamespaces(b *corpusBuilder, base baseDoc) {
	edits := []struct {
		name string
		fn   func(root *xmlquery.Node) bool
	}{
		{"rs-no-trailing-slash", func(r *xmlquery.Node) bool {
			return setNamespaceDecl(r, "rs", strings.TrimSuffix(nsRS, "/"))
		}},
		{"rs-https", func(r *xmlquery.Node) bool {
			return setNamespaceDecl(r, "rs", "https://www.openarchives.org/rs/terms/")
		}},
		{"rs-is-sitemap", func(r *xmlquery.Node) bool { return setNamespaceDecl(r, "rs", nsSitemap) }},
		{"rs-undeclared", func(r *xmlquery.Node) bool { return removeNamespaceDecl(r, "rs") }},
		{"rs-empty", func(r *xmlquery.Node) bool { return setNamespaceDecl(r, "rs", "") }},
		{"sitemap-0.84", func(r *xmlquery.Node) bool {
			return setNamespaceDecl(r, "", "http://www.google.com/schemas/sitemap/0.84")
		}},
		{"sitemap-https", func(r *xmlquery.Node) bool {
			return setNamespaceDecl(r, "", "https://www.sitemaps.org/schemas/sitemap/0.9")
		}},
		{"sitemap-trailing-slash", func(r *xmlquery.Node) bool { return setNamespaceDecl(r, "", nsSitemap+"/") }},
		{"sitemap-uppercase", func(r *xmlquery.Node) bool {
			return setNamespaceDecl(r, "", "http://www.SITEMAPS.org/schemas/sitemap/0.9")
		}},
		{"no-default-ns", func(r *xmlquery.Node) bool { return removeNamespaceDecl(r, "") }},
		{"default-ns-empty", func(r *xmlquery.Node) bool { return setNamespaceDecl(r, "", "") }},
		{"sitemap-prefixed", func(r *xmlquery.Node) bool {
			if !removeNamespaceDecl(r, "") {
				return false
			}
			xmlquery.AddAttr(r, "xmlns:sm", nsSitemap)
			var walk func(n *xmlquery.Node)
			walk = func(n *xmlquery.Node) {
				if n.Prefix == "" {
					n.Prefix = "sm"
				}
				for _, c := range elementChildren(n) {
					walk(c)
				}
			}
			walk(r)
			return true
		}},
		{"rs-prefix-renamed", func(r *xmlquery.Node) bool {
			if !removeNamespaceDecl(r, "rs") {
				return false
			}
			xmlquery.AddAttr(r, "xmlns:resync", nsRS)
			var walk func(n *xmlquery.Node)
			walk = func(n *xmlquery.Node) {
				if n.Prefix == "rs" {
					n.Prefix = "resync"
				}
				for _, c := range elementChildren(n) {
					walk(c)
				}
			}
			walk(r)
			return true
		}},
		{"rs-default-on-md", func(r *xmlquery.Node) bool {
			// <md xmlns="rs-namespace"/>: same element, no prefix.
			md := firstOf(r, "rs:md")
			if md == nil {
				return false
			}
			md.Prefix = ""
			xmlquery.AddAttr(md, "xmlns", nsRS)
			return true
		}},
		{"rs-redeclared-on-entry", func(r *xmlquery.Node) bool {
			e := firstOf(r, entryName(r))
			if e == nil {
				return false
			}
			xmlquery.AddAttr(e, "xmlns:rs", "http://example.org/not-rs")
			return true
		}},
		{"default-redeclared-on-entry", func(r *xmlquery.Node) bool {
			e := firstOf(r, entryName(r))
			if e == nil {
				return false
			}
			xmlquery.AddAttr(e, "xmlns", "http://example.org/not-sitemap")
			return true
		}},
	}
	for _, e := range edits {
		out, ok := treeEdit(base.data, func(doc, root *xmlquery.Node, _ *rawText) bool { return e.fn(root) })
		if ok {
			b.add(catNamespace, base.name+"/ns-"+e.name, out)
		}
	}
}

// genText puts text, CDATA, comments and PIs into elements whose content
// is empty, element-only or simple.
func genText(b *corpusBuilder, base baseDoc) {
	items := []struct {
		name string
		node func(r *rawText) *xmlquery.Node
	}{
		{"text", func(*rawText) *xmlquery.Node { return &xmlquery.Node{Type: xmlquery.TextNode, Data: "text"} }},
		{"space", func(*rawText) *xmlquery.Node { return &xmlquery.Node{Type: xmlquery.TextNode, Data: " "} }},
		{"newline", func(*rawText) *xmlquery.Node { return &xmlquery.Node{Type: xmlquery.TextNode, Data: "\n  \t"} }},
		{"nbsp-ref", func(r *rawText) *xmlquery.Node { return r.node("&#160;") }},
		{"space-ref", func(r *rawText) *xmlquery.Node { return r.node("&#32;") }},
		{"amp", func(r *rawText) *xmlquery.Node { return r.node("&amp;") }},
		{"cdata-empty", func(*rawText) *xmlquery.Node { return &xmlquery.Node{Type: xmlquery.CharDataNode, Data: ""} }},
		{"cdata-space", func(*rawText) *xmlquery.Node { return &xmlquery.Node{Type: xmlquery.CharDataNode, Data: " \n "} }},
		{"cdata-text", func(*rawText) *xmlquery.Node { return &xmlquery.Node{Type: xmlquery.CharDataNode, Data: "x"} }},
		{"comment", func(*rawText) *xmlquery.Node { return &xmlquery.Node{Type: xmlquery.CommentNode, Data: " c "} }},
		{"pi", func(*rawText) *xmlquery.Node {
			return &xmlquery.Node{Type: xmlquery.ProcessingInstruction, Data: "pi", ProcInst: &xmlquery.ProcInstData{Target: "pi", Inst: "x"}}
		}},
	}
	entry := func(root *xmlquery.Node) *xmlquery.Node { return firstOf(root, entryName(root)) }
	targets := []struct {
		name string
		find func(root *xmlquery.Node) *xmlquery.Node
	}{
		{"root", func(root *xmlquery.Node) *xmlquery.Node { return root }},
		{"entry", entry},
		{"doc-md", func(root *xmlquery.Node) *xmlquery.Node { return firstOf(root, "rs:md") }},
		{"doc-ln", func(root *xmlquery.Node) *xmlquery.Node { return firstOf(root, "rs:ln") }},
		{"entry-md", func(root *xmlquery.Node) *xmlquery.Node {
			if e := entry(root); e != nil {
				return firstOf(e, "rs:md")
			}
			return nil
		}},
		{"loc-end", func(root *xmlquery.Node) *xmlquery.Node {
			if e := entry(root); e != nil {
				return firstOf(e, "loc")
			}
			return nil
		}},
	}
	for _, tg := range targets {
		for _, it := range items {
			out, ok := treeEdit(base.data, func(doc, root *xmlquery.Node, raws *rawText) bool {
				el := tg.find(root)
				if el == nil {
					return false
				}
				// Into the middle of the children, so that text lands
				// between elements where there are any.
				kids := elementChildren(el)
				var ref *xmlquery.Node
				if len(kids) > 1 {
					ref = kids[1]
				}
				insertBefore(el, ref, it.node(raws))
				return true
			})
			if ok {
				b.add(catText, base.name+"/text-"+it.name+"@"+tg.name, out)
			}
		}
	}
}

// genEmpty removes the entries, or everything, from the root.
func genEmpty(b *corpusBuilder, base baseDoc) {
	edits := []struct {
		name string
		fn   func(root *xmlquery.Node)
	}{
		{"no-entries", func(root *xmlquery.Node) {
			for _, c := range elementChildren(root) {
				if c.Data == entryName(root) {
					xmlquery.RemoveFromTree(c)
				}
			}
		}},
		{"bare-root", func(root *xmlquery.Node) { setChildren(root, nil) }},
		{"only-entries", func(root *xmlquery.Node) {
			for _, c := range elementChildren(root) {
				if c.Prefix == "rs" {
					xmlquery.RemoveFromTree(c)
				}
			}
		}},
		{"entries-without-loc", func(root *xmlquery.Node) {
			for _, e := range elementChildren(root) {
				if l := firstOf(e, "loc"); l != nil {
					xmlquery.RemoveFromTree(l)
				}
			}
		}},
		{"empty-loc", func(root *xmlquery.Node) {
			if e := firstOf(root, entryName(root)); e != nil {
				setChildren(firstOf(e, "loc"), nil)
			}
		}},
	}
	for _, e := range edits {
		out, _ := treeEdit(base.data, func(doc, root *xmlquery.Node, _ *rawText) bool { e.fn(root); return true })
		b.add(catEmpty, base.name+"/empty-"+e.name, out)
	}
}

// genProlog varies what surrounds the root element, and the line ends.
func genProlog(b *corpusBuilder, base baseDoc) {
	doc := string(base.data)
	decl := `<?xml version="1.0" encoding="UTF-8"?>`
	if !strings.HasPrefix(doc, decl) {
		panic("parity: prolog base without the usual declaration: " + base.name)
	}
	body := strings.TrimPrefix(doc, decl)
	rootStart := strings.Index(body, "<"+rootName(doc))
	edits := map[string]string{
		"bom":                 "\ufeff" + doc,
		"no-decl":             strings.TrimPrefix(body, "\n"),
		"decl-standalone":     `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + body,
		"decl-lowercase-utf8": `<?xml version="1.0" encoding="utf-8"?>` + body,
		"decl-no-encoding":    `<?xml version="1.0"?>` + body,
		"decl-single-quotes":  `<?xml version='1.0' encoding='UTF-8'?>` + body,
		"decl-latin1":         `<?xml version="1.0" encoding="ISO-8859-1"?>` + body,
		"decl-ascii":          `<?xml version="1.0" encoding="US-ASCII"?>` + body,
		"decl-1.1":            `<?xml version="1.1" encoding="UTF-8"?>` + body,
		"space-before-decl":   " " + doc,
		"comment-before-root": decl + body[:rootStart] + "<!-- before -->\n" + body[rootStart:],
		"comment-after-root":  doc + "<!-- after -->\n",
		"pi-before-root":      decl + body[:rootStart] + "<?pi before?>\n" + body[rootStart:],
		"pi-after-root":       doc + "<?pi after?>\n",
		"stylesheet":          decl + "\n" + `<?xml-stylesheet type="text/xsl" href="sitemap.xsl"?>` + body,
		"doctype":             decl + "\n<!DOCTYPE " + rootName(doc) + ">" + body,
		"doctype-subset":      decl + "\n<!DOCTYPE " + rootName(doc) + " [\n  <!ELEMENT " + rootName(doc) + " ANY>\n]>" + body,
		"crlf":                strings.ReplaceAll(doc, "\n", "\r\n"),
		"cr":                  strings.ReplaceAll(doc, "\n", "\r"),
		"tabs":                strings.ReplaceAll(doc, "  ", "\t"),
		"no-newlines":         strings.ReplaceAll(doc, "\n", " "),
		"trailing-space":      doc + "   \n\n",
		"blank-lines":         decl + "\n\n\n" + body,
	}
	names := make([]string, 0, len(edits))
	for n := range edits {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b.add(catProlog, base.name+"/prolog-"+n, []byte(edits[n]))
	}
	// Line ends combined with an error on a multi-line start tag.
	if countTags(base.data, "rs:md") > 0 {
		bad, _ := setAttr(base.data, "rs:md", 0, "bogus", "1")
		for _, le := range []struct{ name, with string }{{"crlf", "\r\n"}, {"cr", "\r"}, {"lf", "\n"}} {
			b.add(catProlog, base.name+"/prolog-"+le.name+"-with-error", []byte(strings.ReplaceAll(string(bad), "\n", le.with)))
		}
	}
	// ISO-8859-1 with a non-ASCII byte in a URI.
	latin := `<?xml version="1.0" encoding="ISO-8859-1"?>` + body
	if out, ok := setText([]byte(latin), "loc", 0, "http://example.com/caf\xe9"); ok {
		b.add(catProlog, base.name+"/prolog-latin1-nonascii", out)
	}
}

func rootName(doc string) string {
	if strings.Contains(doc, "<sitemapindex") {
		return "sitemapindex"
	}
	return "urlset"
}

// genWellFormedness produces documents that are not well-formed, or not
// namespace-well-formed, which libxml2 treats differently: it rejects the
// former and only reports the latter.
func genWellFormedness(b *corpusBuilder, base []byte) {
	doc := string(base)
	sub := func(old, new string) string {
		if !strings.Contains(doc, old) {
			panic("parity: wf edit does not apply: " + old)
		}
		return strings.Replace(doc, old, new, 1)
	}
	edits := map[string]string{
		"unclosed-root":             strings.TrimSuffix(strings.TrimSpace(doc), "</urlset>"),
		"mismatched-end":            sub("</loc>", "</lastmod>"),
		"duplicate-attribute":       sub(`change="updated"`, `change="updated" change="created"`),
		"lt-in-attribute":           sub(`change="updated"`, `change="up<dated"`),
		"raw-ampersand":             sub("/res1</loc>", "/res1?a&b</loc>"),
		"undefined-entity":          sub("/res1</loc>", "/res1&nbsp;</loc>"),
		"nul-char-ref":              sub("/res1</loc>", "/res1&#0;</loc>"),
		"bad-utf8":                  sub("/res1</loc>", "/res1\xff</loc>"),
		"two-roots":                 doc + "<urlset/>\n",
		"text-after-root":           doc + "text\n",
		"decl-not-first":            "\n" + doc,
		"empty-document":            "",
		"no-root":                   `<?xml version="1.0"?>` + "\n",
		"undeclared-prefix-element": sub("<url>", "<url><foo:x/>"),
		"undeclared-prefix-attribute": sub(`change="updated"`,
			`change="updated" foo:x="1"`),
		"empty-prefix-binding": sub(`xmlns:rs=`, `xmlns:e="" xmlns:rs=`),
		"relative-namespace":   sub(`xmlns:rs=`, `xmlns:e="relative/ns" xmlns:rs=`),
		"xml-prefix-rebound":   sub(`xmlns:rs=`, `xmlns:xml="http://example.org/xml" xmlns:rs=`),
		"xmlns-prefix-declared": sub(`xmlns:rs=`,
			`xmlns:xmlns="http://example.org/x" xmlns:rs=`),
		"duplicate-expanded-attribute": sub(`change="updated"`,
			`change="updated" xmlns:a="`+nsExt+`" xmlns:b="`+nsExt+`" a:x="1" b:x="2"`),
		"internal-entity": strings.Replace(sub("/res1</loc>", "/res1&e;</loc>"),
			"<urlset", "<!DOCTYPE urlset [<!ENTITY e \"x\">]>\n<urlset", 1),
		"colon-local-name": sub("<url>", `<url><rs:a:b xmlns:a="`+nsExt+`"/>`),
	}
	names := make([]string, 0, len(edits))
	for n := range edits {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b.add(catWF, "wf/"+n, []byte(edits[n]))
	}
}

// genLines stresses line numbers: errors after many lines (libxml2 keeps
// line numbers in 16 bits unless asked otherwise), after multi-line
// comments, CDATA and attribute values.
func genLines(b *corpusBuilder, base []byte) {
	bad, _ := setAttr(base, "rs:md", 1, "length", "x")
	for _, n := range []int{65530, 65534, 65535, 65536, 70000} {
		pad := strings.Repeat("\n", n)
		out := bytes.Replace(bad, []byte("<url>"), []byte("<url>"+pad), 1)
		b.add(catLines, fmt.Sprintf("lines/error-after-%d-newlines", n), out)
	}
	big := bytes.Replace(base, []byte("<url>"), []byte("<url>"+strings.Repeat("\n", 70000)), 1)
	b.add(catLines, "lines/valid-after-70000-newlines", big)
	tooLong := bytes.Replace(bad, []byte("<url>"), []byte("<url>"+strings.Repeat("\n", 70000)+"<bogus/>"), 1)
	b.add(catLines, "lines/two-errors-after-70000-newlines", tooLong)
	multi := map[string]string{
		"comment":    "<!--\n\n\n-->",
		"cdata":      "<![CDATA[\n\n\n]]>",
		"pi":         "<?pi\n\n\n?>",
		"char-refs":  "&#10;&#10;&#10;",
		"attr-value": `<rs:ln rel="alternate" href="http://example.com/x` + "\n\n\n" + `"/>`,
	}
	names := make([]string, 0, len(multi))
	for n := range multi {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out := bytes.Replace(bad, []byte("<url>"), []byte("<url>"+multi[n]), 1)
		b.add(catLines, "lines/multiline-"+n+"-before-error", out)
	}
	// An error whose start tag spans lines, with the bad attribute on the
	// first line of the tag.
	first := bytes.Replace(base, []byte(`<rs:md change="updated"`), []byte(`<rs:md change="bogus"`), 1)
	b.add(catLines, "lines/error-on-first-line-of-tag", first)
}

// TestCorpus checks the generator: enough documents, unique names,
// determinism, every category present.
func TestCorpus(t *testing.T) {
	ref := requireReference(t)
	docs := loadCorpus(t)
	again, err := buildCorpus(filepath.Join(ref, "xmllint-tests"))
	if err != nil {
		t.Fatal(err)
	}
	generated := 0
	counts := map[string]int{}
	names := map[string]bool{}
	for _, d := range docs {
		if names[d.Name] {
			t.Errorf("duplicate name %s", d.Name)
		}
		names[d.Name] = true
		counts[d.Category]++
		if d.Category != catRegress {
			generated++
		}
	}
	if generated != len(again) {
		t.Fatalf("corpus not deterministic: %d then %d documents", generated, len(again))
	}
	for i := range again {
		if again[i].Name != docs[i].Name || !bytes.Equal(again[i].Data, docs[i].Data) {
			t.Fatalf("corpus not deterministic at %d: %s vs %s", i, docs[i].Name, again[i].Name)
		}
	}
	if generated < 2000 {
		t.Errorf("corpus has %d generated documents, want at least 2000", generated)
	}
	for _, c := range []string{catSpec, catXmllint, catSynthetic, catValue, catStructure, catInsert, catAttr, catNamespace, catText, catEmpty, catProlog, catWF, catLines} {
		if counts[c] == 0 {
			t.Errorf("no documents in category %s", c)
		}
	}
	t.Logf("corpus: %d documents (%d generated); by category: %v", len(docs), generated, counts)

	// PARITY_DUMP_CORPUS=dir writes every document to dir, for inspection
	// or for other tools.
	if dir := os.Getenv("PARITY_DUMP_CORPUS"); dir != "" {
		for _, d := range docs {
			if err := writeDoc(dir, d); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("corpus written to %s", dir)
	}
}

// fileName maps a document name to a file name that is safe everywhere
// and still unique.
func fileName(name string) string {
	var sb strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '=', r == '@', r == '+':
			sb.WriteRune(r)
		default:
			sb.WriteByte('_')
		}
	}
	s := sb.String()
	if len(s) > 100 {
		s = s[:100]
	}
	sum := sha256.Sum256([]byte(name))
	return s + "~" + hex.EncodeToString(sum[:3]) + ".xml"
}

// writeDoc writes a corpus document under dir.
func writeDoc(dir string, d corpusDoc) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, fileName(d.Name)), d.Data, 0o644)
}
