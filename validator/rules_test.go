package validator_test

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/rscheck/rscheck/validator"
)

// A want is an expected finding, written in the test document itself as an
// XML comment on the line the finding must point at:
//
//	<rs:md change="updated" datetime="2013-01-02T10:00:00Z"/> <!-- want "RS404" -->
//
// Several findings on a line: <!-- want "RS404" "RS403: before the document" -->
// (the text after the colon is a regular expression the message must match).
// A finding about the document as a whole (line 0) or on a line that cannot
// hold a comment (inside a multi-line start tag) uses an explicit line:
// <!-- want@0 "SM101" --> or <!-- want@7 "RS201" -->.
type want struct {
	line int
	rule string
	re   *regexp.Regexp
	text string
}

var wantComment = regexp.MustCompile(`<!--\s*want(?:@(\d+))?((?:\s+"[^"]*")+)\s*-->`)
var wantItem = regexp.MustCompile(`"([^"]*)"`)

// parseWants extracts the expectations of a test document.
func parseWants(t *testing.T, data []byte) []want {
	t.Helper()
	data = utf8Text(data)
	var ws []want
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for line := 1; sc.Scan(); line++ {
		for _, m := range wantComment.FindAllStringSubmatch(sc.Text(), -1) {
			at := line
			if m[1] != "" {
				at, _ = strconv.Atoi(m[1])
			}
			for _, item := range wantItem.FindAllStringSubmatch(m[2], -1) {
				id, pattern, _ := strings.Cut(item[1], ":")
				w := want{line: at, rule: strings.TrimSpace(id), text: item[1]}
				if p := strings.TrimSpace(pattern); p != "" {
					w.re = regexp.MustCompile(p)
				}
				ws = append(ws, w)
			}
		}
	}
	return ws
}

// utf8Text decodes a UTF-16 document (with a byte order mark) so that its
// want comments can be read.
func utf8Text(data []byte) []byte {
	if len(data) < 2 || !(data[0] == 0xff && data[1] == 0xfe || data[0] == 0xfe && data[1] == 0xff) {
		return data
	}
	be := data[0] == 0xfe
	u := make([]uint16, 0, len(data)/2)
	for i := 2; i+1 < len(data); i += 2 {
		if be {
			u = append(u, uint16(data[i])<<8|uint16(data[i+1]))
		} else {
			u = append(u, uint16(data[i+1])<<8|uint16(data[i]))
		}
	}
	return []byte(string(utf16.Decode(u)))
}

// checkWants matches findings against wants, one to one, and reports every
// unexpected finding and every unmatched want.
func checkWants(t *testing.T, name string, rep *validator.Report, ws []want) {
	t.Helper()
	used := make([]bool, len(ws))
	for _, f := range rep.Findings {
		matched := false
		for i, w := range ws {
			if !used[i] && w.line == f.Line && w.rule == f.Rule && (w.re == nil || w.re.MatchString(f.Message)) {
				used[i], matched = true, true
				break
			}
		}
		if !matched {
			t.Errorf("%s:%d:%d: unexpected finding %s: %s (%s)", name, f.Line, f.Column, f.Rule, f.Message, f.Path)
		}
	}
	for i, w := range ws {
		if !used[i] {
			t.Errorf("%s:%d: no finding matched want %q", name, w.line, w.text)
		}
	}
}

var schemaDirective = regexp.MustCompile(`<!--\s*rscheck-schema:\s*(\S+)\s*-->`)

// optionsOf reads the options a test document asks for: an extension
// schema to load, <!-- rscheck-schema: ext.xsd --> (relative to
// testdata/rules), for the XSD rules that only extension schemas trigger.
func optionsOf(t *testing.T, data []byte) *validator.Options {
	t.Helper()
	opts := &validator.Options{}
	for _, m := range schemaDirective.FindAllSubmatch(data, -1) {
		name := string(m[1])
		xsd, err := os.ReadFile(filepath.Join("testdata", "rules", name))
		if err != nil {
			t.Fatal(err)
		}
		opts.ExtraSchemas = append(opts.ExtraSchemas, validator.SchemaFile{Location: name, Data: xsd})
	}
	return opts
}

// TestRules runs every document in testdata/rules and checks that its
// findings are exactly the ones its want comments announce.
func TestRules(t *testing.T) {
	files, err := filepath.Glob("testdata/rules/*.xml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule test documents: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := validator.Validate(context.Background(), bytes.NewReader(data), optionsOf(t, data))
			if err != nil {
				t.Fatal(err)
			}
			checkWants(t, file, rep, parseWants(t, data))
		})
	}
}

// TestEveryRuleTested requires, for every rule of the catalogue, a document
// that triggers it (testdata/rules/ID.xml, with a want for ID) and one
// that does not (testdata/rules/ID-ok.xml, without).
func TestEveryRuleTested(t *testing.T) {
	for _, r := range validator.Rules() {
		for _, suffix := range []string{"", "-ok"} {
			file := filepath.Join("testdata", "rules", r.ID+suffix+".xml")
			data, err := os.ReadFile(file)
			if err != nil {
				t.Errorf("rule %s (%s): missing test document %s", r.ID, r.Name, file)
				continue
			}
			has := false
			for _, w := range parseWants(t, data) {
				has = has || w.rule == r.ID
			}
			if suffix == "" && !has {
				t.Errorf("%s must trigger %s: it has no want for it", file, r.ID)
			}
			if suffix == "-ok" && has {
				t.Errorf("%s must not trigger %s, but wants it", file, r.ID)
			}
		}
	}
}

// TestRegistry validates the catalogue: unique IDs and names, docs,
// severities and specification sections.
func TestRegistry(t *testing.T) {
	if err := validator.CheckRegistry(validator.Rules()); err != nil {
		t.Fatal(err)
	}
}
