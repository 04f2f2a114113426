package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/rscheck/rscheck/validator"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// testRules is a fixed catalogue, so that the golden files do not change
// whenever the product's catalogue does.
var testRules = []*validator.Rule{
	{ID: "RS202", Name: "datetime-utc", Severity: validator.Warning, Doc: "Datetimes should be complete and in UTC.",
		Spec: validator.Spec{Doc: validator.SpecCore, Section: "7", Anchor: "DocumentFormats"}},
	{ID: "RS331", Name: "change-datetime", Severity: validator.Info, Doc: "A datetime on every change helps Destinations.",
		Spec: validator.Spec{Doc: validator.SpecCore, Section: "12.1", Anchor: "ChangeList"}},
	{ID: "RS404", Name: "chronological-order", Severity: validator.Error, Doc: "Change List entries are in forward chronological order.",
		Spec: validator.Spec{Doc: validator.SpecCore, Section: "12.1", Anchor: "ChangeList"}},
	{ID: "SM103", Name: "loc-uri", Severity: validator.Error, Doc: "<loc> must hold an absolute http or https URI.",
		Spec: validator.Spec{Doc: validator.SpecSitemaps, Section: "protocol", Anchor: "xmlTagDefinitions"}},
	{ID: "XML002", Name: "not-xml", Severity: validator.Error, Doc: "The input must be an XML document.",
		Spec: validator.Spec{Doc: validator.SpecXML, Section: "2", Anchor: "sec-documents"}},
}

func finding(rule string, line, col int, path, msg string) validator.Finding {
	for _, r := range testRules {
		if r.ID == rule {
			return validator.Finding{Rule: rule, Severity: r.Severity, Message: msg, Line: line, Column: col,
				Path: path, Spec: r.Spec.Label(), SpecURL: r.Spec.URL()}
		}
	}
	panic("no rule " + rule)
}

// report makes a Report with its counts, as Validate would.
func report(source string, kind validator.Kind, entries int, suppressed map[string]int, fs ...validator.Finding) *validator.Report {
	rep := &validator.Report{Source: source, Kind: kind, RSVersion: "1.1", Entries: entries, Bytes: int64(100 * entries),
		Findings: fs, Suppressed: suppressed}
	if rep.Findings == nil {
		rep.Findings = []validator.Finding{}
	}
	count := func(sev validator.Severity, n int) {
		switch sev {
		case validator.Error:
			rep.Errors += n
		case validator.Warning:
			rep.Warnings += n
		case validator.Info:
			rep.Infos += n
		}
	}
	for _, f := range fs {
		count(f.Severity, 1)
	}
	for id, n := range suppressed {
		for _, r := range testRules {
			if r.ID == id {
				count(r.Severity, n)
			}
		}
	}
	return rep
}

// Hostile values, as a document or a server could supply them.
const (
	hostileURL    = `https://example.org/a?x="><script>alert(1)</script>`
	hostileScheme = `javascript:alert(document.cookie)//sitemap.xml`
	hostileText   = `"><img src=x onerror=alert(1)><script>alert(2)</script>`
)

// validateResult is the result of validating three documents: one with
// findings of each severity and suppressed findings, two with hostile
// sources, messages and paths.
func validateResult(t *testing.T) *Result {
	t.Helper()
	r := NewResult([]*validator.Report{
		report("testdata/changelist.xml", validator.ChangeList, 2, map[string]int{"RS202": 1234},
			finding("RS331", 5, 3, "/urlset/rs:md", "the Change List has no until: it is open"),
			finding("RS202", 8, 2, "/urlset/url[1]/rs:md/@datetime", `datetime "2013-01-02T13:00:00+01:00" should be in UTC`),
			finding("RS404", 12, 5, "/urlset/url[2]/rs:md", "entry 2's datetime 2013-01-02T12:00:00Z is earlier than that of entry 1 (2013-01-02T12:00:00Z)"),
		),
		report(hostileURL, validator.Sitemap, 2, nil,
			finding("SM103", 2, 71, "/urlset/url[1]/loc", `<loc> "javascript:alert(1)" is not an http or https URI`),
			finding("SM103", 2, 112, "/urlset/url[2]/loc"+hostileText, `<loc> "`+hostileText+`" is not an http or https URI`),
		),
		report(hostileScheme, validator.Unknown, 0, nil,
			finding("XML002", 0, 0, "", "the input is not XML: it starts with \"\x1b[31mred\x1b]0;title\a\u202eevil\""),
		),
	})
	r.Version = "test"
	for i, name := range []string{"changelist.xml", "hostile.xml"} {
		f, err := os.Open(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := r.AddExcerpts(i, f); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	return r
}

// exploreResult is the result of an exploration, with its hierarchy and
// discovery summary.
func exploreResult(t *testing.T) *Result {
	t.Helper()
	r := NewResult([]*validator.Report{
		report("https://example.org/.well-known/resourcesync", validator.Description, 1, nil),
		report("https://example.org/dataset1/changelist.xml", validator.ChangeList, 2, nil,
			finding("RS404", 12, 5, "/urlset/url[2]/rs:md", "entry 2's datetime is earlier than that of entry 1"),
		),
	})
	r.Version = "test"
	r.Discovery = []Discovery{
		{Method: MethodWellKnown, Found: []string{"https://example.org/.well-known/resourcesync"}},
		{Method: MethodRobotsTxt, Note: "robots.txt has no Sitemap line"},
		{Method: MethodHTMLLink, Found: []string{"https://example.org/capabilitylist.xml", hostileScheme},
			Note: "2 <link rel=\"resourcesync\"> in https://example.org/"},
	}
	r.Tree = &Node{URL: "https://example.org/.well-known/resourcesync", Kind: validator.Description, Status: StatusOK, Document: 1,
		Children: []*Node{
			{URL: "https://example.org/dataset1/capabilitylist.xml", Kind: validator.CapabilityList, Status: StatusWarning, Warnings: 1,
				Children: []*Node{
					{URL: "https://example.org/dataset1/changelist.xml", Kind: validator.ChangeList, Status: StatusError, Errors: 1, Document: 2},
					{URL: "https://example.org/dataset1/resourcelist.xml", Status: StatusUnreachable, Note: "HTTP 404 Not Found"},
				}},
			{URL: hostileScheme, Status: StatusSkipped, Note: "not followed: " + hostileText},
		}}
	return r
}

var goldenCases = []struct {
	name   string
	result func(*testing.T) *Result
}{
	{"validate", validateResult},
	{"explore", exploreResult},
}

var goldenFormats = []struct {
	format, ext string
	opts        Options
}{
	{"text", "txt", Options{}},
	{"text", "color.txt", Options{Color: true}},
	{"json", "json", Options{}},
	{"html", "html", Options{}},
	{"junit", "junit.xml", Options{}},
	{"sarif", "sarif", Options{}},
}

// TestGolden renders fixed results in every format and compares them with
// testdata/*.golden; go test -update rewrites those.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		for _, f := range goldenFormats {
			t.Run(c.name+"."+f.ext, func(t *testing.T) {
				opts := f.opts
				opts.Rules = testRules
				var buf bytes.Buffer
				if err := Write(f.format, &buf, c.result(t), opts); err != nil {
					t.Fatal(err)
				}
				golden := filepath.Join("testdata", c.name+"."+f.ext+".golden")
				if *update {
					if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test -update to create it)", err)
				}
				if got := buf.String(); got != string(want) {
					t.Errorf("%s differs from %s (go test -update rewrites it); got:\n%s", f.format, golden, diffHint(got, string(want)))
				}
			})
		}
	}
}

// diffHint shows the first differing line.
func diffHint(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + itoa(i+1) + ":\n got: " + gl + "\nwant: " + wl
		}
	}
	return ""
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestWriteUnknownFormat(t *testing.T) {
	if err := Write("yaml", new(bytes.Buffer), NewResult(nil), Options{}); err == nil {
		t.Error("Write accepted an unknown format")
	}
	for _, f := range Formats() {
		if writers[f] == nil {
			t.Errorf("format %q has no writer", f)
		}
	}
	if len(writers) != len(Formats()) {
		t.Error("Formats and writers disagree")
	}
}

func TestNewResultSummary(t *testing.T) {
	r := validateResult(t)
	want := Summary{Errors: 4, Warnings: 1235, Infos: 1, Documents: 3}
	if r.Summary != want {
		t.Errorf("Summary = %+v, want %+v", r.Summary, want)
	}
	if got := NewResult(nil); got.Documents == nil || got.Summary != (Summary{}) || got.Tool != "rscheck" {
		t.Errorf("NewResult(nil) = %+v", got)
	}
}

// TestJSONShape checks the documented shape and that the JSON decodes
// back to the same result.
func TestJSONShape(t *testing.T) {
	r := validateResult(t)
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r, Options{}); err != nil {
		t.Fatal(err)
	}
	var shape struct {
		Documents []struct {
			Source   *string `json:"source"`
			Kind     *string `json:"kind"`
			Findings []map[string]any
		} `json:"documents"`
		Summary map[string]int `json:"summary"`
	}
	dec := json.NewDecoder(bytes.NewReader(buf.Bytes()))
	if err := dec.Decode(&shape); err != nil {
		t.Fatal(err)
	}
	if len(shape.Documents) != 3 || *shape.Documents[0].Source != "testdata/changelist.xml" || *shape.Documents[0].Kind != "changelist" {
		t.Fatalf("documents = %+v", shape.Documents)
	}
	f := shape.Documents[0].Findings[2]
	for key, want := range map[string]any{"rule": "RS404", "severity": "error", "line": 12.0, "column": 5.0,
		"path": "/urlset/url[2]/rs:md", "spec": "12.1"} {
		if f[key] != want {
			t.Errorf("finding[%q] = %v, want %v", key, f[key], want)
		}
	}
	if _, ok := f["message"].(string); !ok {
		t.Errorf("finding has no message: %v", f)
	}
	for key, want := range map[string]int{"errors": 4, "warnings": 1235, "infos": 1, "documents": 3} {
		if got, ok := shape.Summary[key]; !ok || got != want {
			t.Errorf("summary[%q] = %d, want %d", key, got, want)
		}
	}
	var back Result
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	r.Excerpts = nil
	if !reflect.DeepEqual(&back, r) {
		t.Errorf("JSON round trip changed the result:\n got %+v\nwant %+v", back, *r)
	}
}

// TestJUnitCounts parses the JUnit output and checks its counts against
// the test cases and the findings.
func TestJUnitCounts(t *testing.T) {
	r := validateResult(t)
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, r, Options{Rules: testRules}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
			SystemOut string `xml:"system-out"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Suites) != len(r.Documents) {
		t.Fatalf("%d suites for %d documents", len(doc.Suites), len(r.Documents))
	}
	tests, failures := 0, 0
	for i, s := range doc.Suites {
		rep := r.Documents[i]
		if s.Name != rep.Source {
			t.Errorf("suite %d named %q, want %q", i, s.Name, rep.Source)
		}
		n := 0
		for _, c := range s.Cases {
			if c.Failure != nil {
				n++
			}
		}
		if s.Tests != len(s.Cases) || s.Failures != n {
			t.Errorf("suite %q: tests=%d failures=%d, but %d cases and %d failures", s.Name, s.Tests, s.Failures, len(s.Cases), n)
		}
		errs := 0
		for _, f := range rep.Findings {
			if f.Severity == validator.Error {
				errs++
			}
		}
		if n != errs {
			t.Errorf("suite %q: %d failures for %d error findings", s.Name, n, errs)
		}
		if errs == 0 && (len(s.Cases) != 1 || s.Cases[0].Name != "conformance") {
			t.Errorf("suite %q: a document without error has one passing case, got %+v", s.Name, s.Cases)
		}
		tests += s.Tests
		failures += s.Failures
	}
	if doc.Tests != tests || doc.Failures != failures {
		t.Errorf("testsuites: tests=%d failures=%d, want %d and %d", doc.Tests, doc.Failures, tests, failures)
	}
	if s := doc.Suites[0].SystemOut; !strings.Contains(s, "RS202") || !strings.Contains(s, "1234 more RS202") {
		t.Errorf("warnings are not in system-out: %q", s)
	}
	if s := doc.Suites[2]; s.Cases[0].Failure == nil || strings.ContainsRune(s.Cases[0].Failure.Message, 0x1b) {
		t.Errorf("a control character reached the XML: %+v", s.Cases[0])
	}
}

// TestSARIF checks the properties SARIF 2.1.0 requires and the links
// between results and rules.
func TestSARIF(t *testing.T) {
	r := validateResult(t)
	// A finding of a rule outside the catalogue still gets a descriptor.
	r.Documents[0].Findings = append(r.Documents[0].Findings, validator.Finding{Rule: "XX999", Severity: validator.Warning, Message: "m", Line: 1, Column: 1})
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, r, Options{Rules: testRules}); err != nil {
		t.Fatal(err)
	}
	type message struct {
		Text *string `json:"text"`
	}
	var log struct {
		Schema  string  `json:"$schema"`
		Version *string `json:"version"`
		Runs    []struct {
			Tool *struct {
				Driver *struct {
					Name           *string `json:"name"`
					InformationURI string  `json:"informationUri"`
					Rules          []struct {
						ID                   *string `json:"id"`
						Name                 string  `json:"name"`
						ShortDescription     *message
						HelpURI              string `json:"helpUri"`
						DefaultConfiguration *struct{ Level string }
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string   `json:"ruleId"`
				RuleIndex *int     `json:"ruleIndex"`
				Level     string   `json:"level"`
				Message   *message `json:"message"`
				Locations []struct {
					PhysicalLocation *struct {
						ArtifactLocation struct{ URI string }
						Region           *struct{ StartLine, StartColumn int }
					}
					LogicalLocations []struct{ FullyQualifiedName string }
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Schema != "https://json.schemastore.org/sarif-2.1.0.json" || log.Version == nil || *log.Version != "2.1.0" {
		t.Errorf("$schema %q, version %v", log.Schema, log.Version)
	}
	if len(log.Runs) != 1 || log.Runs[0].Tool == nil || log.Runs[0].Tool.Driver == nil || log.Runs[0].Tool.Driver.Name == nil {
		t.Fatalf("a run needs tool.driver.name: %s", buf.String())
	}
	run := log.Runs[0]
	drv := run.Tool.Driver
	if *drv.Name != "rscheck" || drv.InformationURI == "" {
		t.Errorf("driver %q %q", *drv.Name, drv.InformationURI)
	}
	if len(drv.Rules) != len(testRules)+1 {
		t.Errorf("%d rules, want the %d of the catalogue and XX999", len(drv.Rules), len(testRules))
	}
	for i, rule := range drv.Rules[:len(testRules)] {
		want := testRules[i]
		if rule.ID == nil || *rule.ID != want.ID || rule.Name != want.Name || rule.ShortDescription == nil ||
			*rule.ShortDescription.Text != want.Doc || rule.HelpURI != want.Spec.URL() || rule.DefaultConfiguration == nil ||
			rule.DefaultConfiguration.Level != sarifLevel(want.Severity) {
			t.Errorf("rule %d = %+v, want %s", i, rule, want.ID)
		}
	}
	total := 0
	for _, d := range r.Documents {
		total += len(d.Findings)
	}
	if len(run.Results) != total {
		t.Fatalf("%d results for %d findings", len(run.Results), total)
	}
	levels := map[string]bool{"none": true, "note": true, "warning": true, "error": true}
	k := 0
	for _, d := range r.Documents {
		for _, f := range d.Findings {
			res := run.Results[k]
			k++
			if res.Message == nil || res.Message.Text == nil || *res.Message.Text != f.Message {
				t.Errorf("result %d: message.text is required", k)
			}
			if res.RuleIndex == nil || *res.RuleIndex >= len(drv.Rules) || *drv.Rules[*res.RuleIndex].ID != res.RuleID || res.RuleID != f.Rule {
				t.Errorf("result %d: ruleId %q and ruleIndex %v disagree", k, res.RuleID, res.RuleIndex)
			}
			if !levels[res.Level] || res.Level != sarifLevel(f.Severity) {
				t.Errorf("result %d: level %q", k, res.Level)
			}
			if len(res.Locations) != 1 || res.Locations[0].PhysicalLocation == nil || res.Locations[0].PhysicalLocation.ArtifactLocation.URI == "" {
				t.Fatalf("result %d: no artifact location", k)
			}
			loc := res.Locations[0]
			switch reg := loc.PhysicalLocation.Region; {
			case f.Line == 0 && reg != nil:
				t.Errorf("result %d: region for a document-level finding", k)
			case f.Line > 0 && (reg == nil || reg.StartLine != f.Line || reg.StartColumn != f.Column):
				t.Errorf("result %d: region %+v, want %d:%d", k, reg, f.Line, f.Column)
			}
			if f.Path != "" && (len(loc.LogicalLocations) != 1 || loc.LogicalLocations[0].FullyQualifiedName != f.Path) {
				t.Errorf("result %d: logical location %+v, want %q", k, loc.LogicalLocations, f.Path)
			}
		}
	}
}

func TestArtifactURI(t *testing.T) {
	for in, want := range map[string]string{
		"testdata/changelist.xml":         "testdata/changelist.xml",
		"dir with space/a.xml":            "dir%20with%20space/a.xml",
		"/abs/path.xml":                   "file:///abs/path.xml",
		"https://example.org/a.xml?x=1#f": "https://example.org/a.xml?x=1#f",
		"a:b.xml":                         "./a:b.xml",
	} {
		if got := artifactURI(in); got != want {
			t.Errorf("artifactURI(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHTMLHostile renders documents whose source, messages, paths,
// excerpts and tree hold markup and script URLs, and checks that the page
// contains only the elements and links the template writes.
func TestHTMLHostile(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteHTML(&buf, c.result(t), Options{Rules: testRules}); err != nil {
				t.Fatal(err)
			}
			page := buf.String()
			allowed := map[string]bool{"html": true, "head": true, "meta": true, "title": true, "style": true, "body": true,
				"header": true, "h1": true, "h2": true, "p": true, "ul": true, "ol": true, "li": true, "b": true, "form": true,
				"label": true, "input": true, "main": true, "section": true, "table": true, "thead": true, "tbody": true,
				"tr": true, "th": true, "td": true, "div": true, "span": true, "a": true, "details": true, "summary": true,
				"code": true, "br": true, "pre": true, "mark": true}
			for _, m := range regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9-]*)`).FindAllStringSubmatch(page, -1) {
				if !allowed[strings.ToLower(m[2])] {
					t.Errorf("unexpected element <%s%s> in the page", m[1], m[2])
				}
			}
			for _, m := range regexp.MustCompile(`\s(on[a-z]+|src|srcdoc|formaction)\s*=`).FindAllStringSubmatch(page, -1) {
				if !insideText(page, m[0]) {
					t.Errorf("attribute %s in the page", m[1])
				}
			}
			for _, m := range regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(page, -1) {
				if !strings.HasPrefix(m[1], "https://") && !strings.HasPrefix(m[1], "http://") && !strings.HasPrefix(m[1], "#") {
					t.Errorf("link to %q", m[1])
				}
				if strings.ContainsAny(m[1], `<>"`) {
					t.Errorf("unescaped link %q", m[1])
				}
			}
			if strings.Contains(page, "javascript:") && regexp.MustCompile(`href="[^"]*javascript:`).MatchString(page) {
				t.Error("a javascript: URL is a link")
			}
			if !strings.Contains(page, "javascript:alert(document.cookie)//sitemap.xml") {
				t.Error("the non-http source is not shown as text")
			}
			if strings.Contains(page, "<script") || strings.Contains(page, "<img") {
				t.Error("markup from a document reached the page")
			}
		})
	}
}

// insideText reports whether every occurrence of s in page is in text,
// that is, after a '>' and before any '<' (so not inside a tag).
func insideText(page, s string) bool {
	for i := 0; ; {
		j := strings.Index(page[i:], s)
		if j < 0 {
			return true
		}
		j += i
		if lt, gt := strings.LastIndex(page[:j], "<"), strings.LastIndex(page[:j], ">"); lt > gt {
			return false
		}
		i = j + len(s)
	}
}

// TestTextSafe checks that control characters from a document cannot
// reach the terminal.
func TestTextSafe(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteText(&buf, validateResult(t), Options{Rules: testRules}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.ContainsAny(out, "\x1b\a\u202e") {
		t.Errorf("control characters in the text view:\n%q", out)
	}
	if !strings.Contains(out, `\x1b[31mred`) {
		t.Errorf("the escape is not shown visibly:\n%s", out)
	}
}
