//go:build libxml2

package xsd

// These tests prove that the expectations recorded in the test tables are
// still libxml2's: they run xmllint (libxml2-utils) over the same schemas
// and documents. Run them with
//
//	go test -tags libxml2 ./validator/xsd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// xmllintErrorLines validates doc against schema with xmllint and returns
// the lines of its validity errors, and whether the schema compiled.
func xmllintErrorLines(t *testing.T, schema, doc string) (map[int][]string, bool) {
	t.Helper()
	if _, err := exec.LookPath("xmllint"); err != nil {
		t.Skip("xmllint not installed")
	}
	dir := t.TempDir()
	sf, df := filepath.Join(dir, "s.xsd"), filepath.Join(dir, "d.xml")
	if err := os.WriteFile(sf, []byte(schema), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(df, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command("xmllint", "--noout", "--schema", sf, df).CombinedOutput()
	lines := map[int][]string{}
	compiled := true
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "failed to compile") {
			compiled = false
		}
		if !strings.Contains(l, "Schemas validity error") {
			continue
		}
		m := xmllintLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		lines[n] = append(lines[n], l)
	}
	return lines, compiled
}

func TestDatatypesAgainstXmllint(t *testing.T) {
	schema, doc, lines := datatypeDoc()
	bad, ok := xmllintErrorLines(t, schema, doc)
	if !ok {
		t.Fatal("xmllint could not compile the datatype schema")
	}
	for line, c := range lines {
		wantValid := strings.HasSuffix(c, "valid=true")
		if _, invalid := bad[line]; invalid == wantValid {
			t.Errorf("%s: xmllint says valid=%v", c, !invalid)
		}
	}
}

// TestExperimentVerdictsAgainstXmllint re-records the verdicts of the
// xmllint experiments with wrapper-all.xsd.
func TestExperimentVerdictsAgainstXmllint(t *testing.T) {
	dir := referenceDir(t)
	for rel, want := range readVerdicts(t) {
		got := xmllintFirstLine(t, filepath.Join(dir, "wrapper-all.xsd"), filepath.Join(dir, "xmllint-tests", rel))
		if got != want {
			t.Errorf("%s: xmllint first error line %d, recorded %d", rel, got, want)
		}
	}
}

// TestDatatypesRandomAgainstXmllint compares our lexical checks with
// libxml2's on random strings built from each type's alphabet.
func TestDatatypesRandomAgainstXmllint(t *testing.T) {
	alphabets := map[string][]string{
		"dateTime":     {"2013", "-", "01", "12", "29", "30", "T", ":", "00", "59", "60", "24", ".", "5", "Z", "+", "14", " ", "0000", "-0004"},
		"date":         {"2013", "-", "01", "02", "29", "Z", "+", "01:00", " ", "T"},
		"time":         {"09", ":", "00", "24", ".", "5", "Z", "+", "-", " "},
		"gMonthDay":    {"--", "-", "02", "29", "30", "12", "Z", "+", "10", ":", "00"},
		"gMonth":       {"--", "-", "05", "13", "Z", "+", "10", ":", "00"},
		"duration":     {"P", "T", "1", "0", ".", "5", "Y", "M", "D", "H", "S", "-", " "},
		"decimal":      {"1", "0", ".", "-", "+", " ", "9", "e"},
		"integer":      {"1", "0", "-", "+", " ", "9", "."},
		"int":          {"2147483648", "1", "0", "-", "+", " "},
		"float":        {"1", ".", "e", "E", "-", "+", "INF", "NaN", " ", "0"},
		"boolean":      {"true", "false", "1", "0", " ", "t"},
		"hexBinary":    {"0", "a", "F", "g", " "},
		"base64Binary": {"Y", "Q", "=", " ", "!", "A", "w"},
		"language":     {"en", "-", "US", "1", "abcdefgh", "_"},
		"NCName":       {"a", ":", "1", "-", "_", " ", "é", "·"},
		"anyURI":       {"http:", "//", "a", ":", "1", "%", "%4", "%41", "#", "[", "]", "@", "?", "/", " "},
	}
	r := newRand(7)
	for typ, alpha := range alphabets {
		var vals []string
		for i := 0; i < 400; i++ {
			var b strings.Builder
			for n := r.Intn(7); n > 0; n-- {
				b.WriteString(alpha[r.Intn(len(alpha))])
			}
			vals = append(vals, b.String())
		}
		schema := `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="r"><xs:complexType><xs:sequence><xs:element name="v" type="xs:` + typ + `" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element></xs:schema>`
		var d strings.Builder
		d.WriteString("<r>\n")
		for _, v := range vals {
			d.WriteString("<v>" + xmlEscape(v) + "</v>\n")
		}
		d.WriteString("</r>\n")
		theirs, ok := xmllintErrorLines(t, schema, d.String())
		if !ok {
			t.Fatalf("%s: schema did not compile", typ)
		}
		ours := errorLines(t, compileString(t, schema), d.String())
		for i, v := range vals {
			_, a := theirs[i+2]
			_, b := ours[i+2]
			if a != b {
				t.Errorf("xs:%s %q: libxml2 invalid=%v, ours invalid=%v", typ, v, a, b)
			}
		}
	}
}

func TestPatternsAgainstXmllint(t *testing.T) {
	schema, doc, lines := patternDoc()
	bad, ok := xmllintErrorLines(t, schema, doc)
	if !ok {
		t.Fatal("xmllint could not compile the pattern schema")
	}
	for line, c := range lines {
		want := strings.HasSuffix(c, "match=true")
		if _, invalid := bad[line]; invalid == want {
			t.Errorf("%s: xmllint says match=%v", c, !invalid)
		}
	}
	// Refused patterns: xmllint refuses the schema.
	for _, src := range patternCompileErrors {
		s := `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="r"><xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="` +
			strings.NewReplacer("&", "&amp;", "<", "&lt;", `"`, "&quot;").Replace(src) + `"/></xs:restriction></xs:simpleType></xs:element></xs:schema>`
		if _, ok := xmllintErrorLines(t, s, "<r/>"); ok {
			t.Errorf("xmllint compiles the pattern %q", src)
		}
	}
}

func TestStructuresAgainstXmllint(t *testing.T) {
	for _, c := range structureCases {
		t.Run(c.name, func(t *testing.T) {
			bad, ok := xmllintErrorLines(t, c.fullSchema(), c.doc)
			if !ok {
				t.Fatal("xmllint could not compile the schema")
			}
			first, n := 0, 0
			for l, msgs := range bad {
				if first == 0 || l < first {
					first = l
				}
				n += len(msgs)
			}
			if first != c.line || n != c.count {
				t.Errorf("xmllint: first line %d, %d errors; recorded line %d, %d errors", first, n, c.line, c.count)
				for _, msgs := range bad {
					for _, m := range msgs {
						t.Log(m)
					}
				}
			}
		})
	}
}

func TestBigLinesAgainstXmllint(t *testing.T) {
	dir := referenceDir(t)
	doc := filepath.Join(t.TempDir(), "big.xml")
	if err := os.WriteFile(doc, []byte(bigLinesDoc()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command("xmllint", "--noout", "--schema", filepath.Join(dir, "wrapper-all.xsd"), doc).CombinedOutput()
	var got []int
	for _, l := range strings.Split(string(out), "\n") {
		if m := xmllintLine.FindStringSubmatch(l); m != nil && strings.Contains(l, "validity error") {
			n, _ := strconv.Atoi(m[1])
			got = append(got, n)
		}
	}
	if len(got) != len(bigLinesWant) {
		t.Fatalf("xmllint reports %d errors, recorded %d:\n%s", len(got), len(bigLinesWant), out)
	}
	for i, w := range bigLinesWant {
		if got[i] != w.libxml2 {
			t.Errorf("error %d: xmllint line %d, recorded %d", i, got[i], w.libxml2)
		}
	}
}
