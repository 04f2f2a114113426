package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rscheck/rscheck/validator"
	"github.com/rscheck/rscheck/validator/report"
)

// rscheck runs the command as main would and returns its exit status and
// output.
func rscheck(t *testing.T, stdin string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errs bytes.Buffer
	status = run(args, strings.NewReader(stdin), &out, &errs)
	return status, out.String(), errs.String()
}

// jsonResult is the part of the JSON report the tests look at.
type jsonResult struct {
	Tool      string `json:"tool"`
	Documents []struct {
		Source     string         `json:"source"`
		Kind       string         `json:"kind"`
		Suppressed map[string]int `json:"suppressed"`
		Findings   []struct {
			Rule     string `json:"rule"`
			Severity string `json:"severity"`
			Line     int    `json:"line"`
		} `json:"findings"`
	} `json:"documents"`
	Summary struct{ Errors, Warnings, Infos, Documents int } `json:"summary"`
}

func validateJSON(t *testing.T, stdin string, args ...string) (int, jsonResult, string) {
	t.Helper()
	status, out, errs := rscheck(t, stdin, append([]string{"validate", "--format", "json"}, args...)...)
	var res jsonResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("validate %v: %v\nstdout: %s\nstderr: %s", args, err, out, errs)
	}
	return status, res, errs
}

func sources(r jsonResult) []string {
	var s []string
	for _, d := range r.Documents {
		s = append(s, d.Source)
	}
	return s
}

func hasRule(r jsonResult, doc int, rule string) bool {
	for _, f := range r.Documents[doc].Findings {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

// TestValidateFormats validates a good and a bad document in every format
// and checks the exit status and that the output is what the format says.
func TestValidateFormats(t *testing.T) {
	for _, format := range []string{"text", "json", "html", "junit", "sarif"} {
		for file, wantStatus := range map[string]int{"testdata/good.xml": exitOK, "testdata/bad.xml": exitFindings} {
			t.Run(format+"/"+filepath.Base(file), func(t *testing.T) {
				status, out, errs := rscheck(t, "", "validate", "--format", format, file)
				if status != wantStatus || errs != "" {
					t.Fatalf("status %d, want %d; stderr: %s", status, wantStatus, errs)
				}
				bad := wantStatus == exitFindings
				switch format {
				case "text":
					if bad != strings.Contains(out, "testdata/bad.xml:12:29: error RS404 ") {
						t.Errorf("text report:\n%s", out)
					}
					if bad && !strings.Contains(out, `| <rs:md change="deleted"`) {
						t.Errorf("no excerpt in the text report:\n%s", out)
					}
					if strings.Contains(out, "\x1b[") {
						t.Error("colour when stdout is not a terminal")
					}
				case "json":
					var res jsonResult
					if err := json.Unmarshal([]byte(out), &res); err != nil {
						t.Fatal(err)
					}
					if res.Tool != "rscheck" || len(res.Documents) != 1 || res.Documents[0].Source != file ||
						res.Documents[0].Kind != "changelist" || bad != hasRule(res, 0, "RS404") {
						t.Errorf("JSON report: %+v", res)
					}
				case "html":
					if !strings.HasPrefix(out, "<!DOCTYPE html>") || bad != strings.Contains(out, "<code>RS404</code>") {
						t.Errorf("HTML report:\n%s", out)
					}
				case "junit":
					var suites struct {
						Tests    int `xml:"tests,attr"`
						Failures int `xml:"failures,attr"`
					}
					if err := xml.Unmarshal([]byte(out), &suites); err != nil {
						t.Fatal(err)
					}
					if bad != (suites.Failures > 0) || suites.Tests == 0 {
						t.Errorf("JUnit report: %+v\n%s", suites, out)
					}
				case "sarif":
					var log struct {
						Version string
						Runs    []struct {
							Results []struct{ RuleID string }
						}
					}
					if err := json.Unmarshal([]byte(out), &log); err != nil {
						t.Fatal(err)
					}
					if log.Version != "2.1.0" || len(log.Runs) != 1 || bad != (len(log.Runs[0].Results) > 0) {
						t.Errorf("SARIF report: %+v", log)
					}
				}
			})
		}
	}
}

func TestExitStatus(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
		err  string // expected on stderr
	}{
		{[]string{}, exitTrouble, "Usage:"},
		{[]string{"frobnicate"}, exitTrouble, `unknown command "frobnicate"`},
		{[]string{"validate"}, exitTrouble, "no input"},
		{[]string{"validate", "--format", "yaml", "testdata/good.xml"}, exitTrouble, `unknown format "yaml"`},
		{[]string{"validate", "--rs-version", "2.0", "testdata/good.xml"}, exitTrouble, "unknown ResourceSync version"},
		{[]string{"validate", "--max-per-rule", "-1", "testdata/good.xml"}, exitTrouble, "must not be negative"},
		{[]string{"validate", "--bogus", "testdata/good.xml"}, exitTrouble, "flag provided but not defined: -bogus"},
		{[]string{"validate", "-", "-"}, exitTrouble, "only once"},
		{[]string{"validate", "--schema", "testdata/none.xsd", "testdata/good.xml"}, exitTrouble, "none.xsd"},
		{[]string{"validate", "testdata/none.xml"}, exitTrouble, "testdata/none.xml: no such file"},
		{[]string{"validate", "testdata"}, exitTrouble, "is a directory"},
		{[]string{"validate", "ftp://example.org/a.xml"}, exitTrouble, "only http and https"},
		{[]string{"validate", "testdata/good.xml"}, exitOK, ""},
		{[]string{"validate", "testdata/bad.xml"}, exitFindings, ""},
		{[]string{"validate", "testdata/good.xml", "testdata/bad.xml"}, exitFindings, ""},
		{[]string{"validate", "testdata/bad.xml", "testdata/none.xml"}, exitTrouble, "no such file"}, // 2 wins over 1
		{[]string{"validate", "--schema", "testdata/extra.xsd", "testdata/good.xml"}, exitOK, ""},
		{[]string{"validate", "-o", filepath.Join("no", "such", "dir", "r.txt"), "testdata/good.xml"}, exitTrouble, "no such file or directory"},
		{[]string{"explain", "XX999"}, exitTrouble, `no rule "XX999"`},
		{[]string{"explain"}, exitTrouble, "give one rule ID"},
		{[]string{"rules", "--format", "csv"}, exitTrouble, "unknown format"},
		{[]string{"version", "extra"}, exitTrouble, "unexpected argument"},
		{[]string{"help", "frobnicate"}, exitTrouble, "unknown command"},
	} {
		status, _, errs := rscheck(t, "", c.args...)
		if status != c.want || !strings.Contains(errs, c.err) || (c.err == "" && errs != "") {
			t.Errorf("rscheck %s: status %d, stderr %q; want %d and %q", strings.Join(c.args, " "), status, errs, c.want, c.err)
		}
	}
}

// TestInputsInOrder validates several inputs, one missing: the others are
// reported in order and the status is 2.
func TestInputsInOrder(t *testing.T) {
	status, res, errs := validateJSON(t, "", "testdata/bad.xml", "testdata/missing.xml", "testdata/good.xml", "testdata/malformed.xml")
	if status != exitTrouble || !strings.Contains(errs, "testdata/missing.xml") {
		t.Errorf("status %d, stderr %q", status, errs)
	}
	want := []string{"testdata/bad.xml", "testdata/good.xml", "testdata/malformed.xml"}
	if got := sources(res); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("documents %v, want %v", got, want)
	}
	if res.Summary.Documents != 3 || res.Summary.Errors < 3 || !hasRule(res, 2, "XML001") {
		t.Errorf("summary %+v", res.Summary)
	}
}

// TestFlagsAfterInputs checks that flags may follow the inputs, and that
// "--" ends the flags.
func TestFlagsAfterInputs(t *testing.T) {
	status, out, _ := rscheck(t, "", "validate", "testdata/bad.xml", "--format", "json")
	if status != exitFindings || !strings.HasPrefix(out, "{") {
		t.Errorf("flags after the input were not applied: %d\n%s", status, out)
	}
	status, _, errs := rscheck(t, "", "validate", "--", "--format")
	if status != exitTrouble || !strings.Contains(errs, "--format: no such file") {
		t.Errorf("-- did not end the flags: %d %s", status, errs)
	}
}

func TestStdin(t *testing.T) {
	bad, err := os.ReadFile("testdata/bad.xml")
	if err != nil {
		t.Fatal(err)
	}
	status, out, errs := rscheck(t, string(bad), "validate", "-")
	if status != exitFindings || errs != "" {
		t.Fatalf("status %d, stderr %s", status, errs)
	}
	if !strings.Contains(out, "<stdin>:12:29: error RS404") || !strings.Contains(out, `| <rs:md change="deleted"`) {
		t.Errorf("stdin report without source name or excerpt:\n%s", out)
	}
}

func gzipped(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

func TestGzipFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "bad.xml.gz")
	if err := os.WriteFile(name, gzipped(t, "testdata/bad.xml"), 0o644); err != nil {
		t.Fatal(err)
	}
	status, out, _ := rscheck(t, "", "validate", name)
	if status != exitFindings || !strings.Contains(out, name+":12:29: error RS404") || !strings.Contains(out, `| <rs:md change="deleted"`) {
		t.Errorf("status %d\n%s", status, out)
	}
}

// TestURL fetches documents from a local server: success, HTTP errors,
// gzip content coding, a gzip file, redirects and a slow server.
func TestURL(t *testing.T) {
	good, err := os.ReadFile("testdata/good.xml")
	if err != nil {
		t.Fatal(err)
	}
	badGz := gzipped(t, "testdata/bad.xml")
	var gotUA, gotAE string
	mux := http.NewServeMux()
	mux.HandleFunc("/good.xml", func(w http.ResponseWriter, r *http.Request) {
		gotUA, gotAE = r.UserAgent(), r.Header.Get("Accept-Encoding")
		w.Write(good)
	})
	mux.HandleFunc("/coded.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(badGz)
	})
	mux.HandleFunc("/file.xml.gz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/gzip")
		w.Write(badGz)
	})
	mux.HandleFunc("/twice.xml.gz", func(w http.ResponseWriter, r *http.Request) {
		// A gzip file sent with a gzip content coding: two layers.
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		zw.Write(badGz)
		zw.Close()
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/good.xml", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/elsewhere", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	})
	mux.HandleFunc("/broken-gzip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(good)
	})
	slow := make(chan struct{})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-slow:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	defer close(slow)

	for _, c := range []struct {
		path   string
		status int
		rule   string // a rule the document must have
		err    string // expected on stderr
	}{
		{"/good.xml", exitOK, "", ""},
		{"/moved", exitOK, "", ""},
		{"/coded.xml", exitFindings, "RS404", ""},
		{"/file.xml.gz", exitFindings, "RS404", ""},
		{"/twice.xml.gz", exitFindings, "RS404", ""},
		{"/missing", exitTrouble, "", "HTTP 404 Not Found"},
		{"/loop", exitTrouble, "", "redirect loop"},
		{"/elsewhere", exitTrouble, "", "only http and https"},
		{"/broken-gzip", exitTrouble, "", "not gzip"},
		{"/slow", exitTrouble, "", "no response within 200ms"},
	} {
		t.Run(c.path, func(t *testing.T) {
			u := srv.URL + c.path
			start := time.Now()
			status, res, errs := validateJSON(t, "", "--timeout", "200ms", u)
			if status != c.status || !strings.Contains(errs, c.err) || (c.err == "" && errs != "") {
				t.Fatalf("status %d, stderr %q; want %d and %q", status, errs, c.status, c.err)
			}
			if time.Since(start) > 10*time.Second {
				t.Errorf("took %v", time.Since(start))
			}
			if c.err != "" {
				if len(res.Documents) != 0 {
					t.Errorf("an unreadable input is in the report: %v", sources(res))
				}
				return
			}
			if len(res.Documents) != 1 || res.Documents[0].Source != u || res.Documents[0].Kind != "changelist" {
				t.Fatalf("report %+v", res)
			}
			if c.rule != "" && !hasRule(res, 0, c.rule) {
				t.Errorf("no %s finding: %+v", c.rule, res)
			}
		})
	}
	if !strings.HasPrefix(gotUA, "rscheck/") || gotAE != "gzip" {
		t.Errorf("User-Agent %q, Accept-Encoding %q", gotUA, gotAE)
	}

	// Excerpts come from the bytes kept while validating.
	_, out, _ := rscheck(t, "", "validate", srv.URL+"/coded.xml")
	if !strings.Contains(out, `| <rs:md change="deleted"`) {
		t.Errorf("no excerpt for a URL:\n%s", out)
	}
}

func TestSchemaOnly(t *testing.T) {
	// The ResourceSync rules are off: only XML and XSD findings remain.
	status, res, _ := validateJSON(t, "", "--schema-only", "testdata/bad.xml", "testdata/malformed.xml")
	for i, d := range res.Documents {
		for _, f := range d.Findings {
			if !strings.HasPrefix(f.Rule, "XML") && !strings.HasPrefix(f.Rule, "XSD") {
				t.Errorf("document %d: %s finding with --schema-only", i, f.Rule)
			}
		}
	}
	if status != exitFindings || !hasRule(res, 1, "XML001") {
		t.Errorf("status %d, report %+v", status, res)
	}
	if _, res, _ := validateJSON(t, "", "testdata/bad.xml"); !hasRule(res, 0, "RS404") {
		t.Error("RS404 not reported without --schema-only")
	}
}

func TestMaxPerRule(t *testing.T) {
	for _, c := range []struct {
		max        string
		kept, more int
	}{{"1", 1, 1}, {"0", 2, 0}, {"1000", 2, 0}} {
		_, res, _ := validateJSON(t, "", "--max-per-rule", c.max, "testdata/bad.xml")
		kept := 0
		for _, f := range res.Documents[0].Findings {
			if f.Rule == "RS404" {
				kept++
			}
		}
		if kept != c.kept || res.Documents[0].Suppressed["RS404"] != c.more || res.Summary.Errors < 2 {
			t.Errorf("--max-per-rule %s: %d kept, %d suppressed, summary %+v", c.max, kept, res.Documents[0].Suppressed["RS404"], res.Summary)
		}
	}
}

func TestOutputFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "report.html")
	status, out, errs := rscheck(t, "", "validate", "--format", "html", "-o", name, "testdata/bad.xml")
	if status != exitFindings || out != "" || errs != "" {
		t.Fatalf("status %d, stdout %q, stderr %q", status, out, errs)
	}
	data, err := os.ReadFile(name)
	if err != nil || !bytes.Contains(data, []byte("RS404")) {
		t.Errorf("report file: %v\n%s", err, data)
	}
}

// TestDocBase checks that --doc-base moves the rules' documentation links
// of the reports, and that they default to the project's catalogue.
func TestDocBase(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, report.DefaultDocBase + "docs/rules.md#rs404"},
		{[]string{"--doc-base", "https://docs.example.org/rscheck/"}, "https://docs.example.org/rscheck/docs/rules.md#rs404"},
	} {
		args := append([]string{"validate", "--format", "html"}, c.args...)
		_, out, _ := rscheck(t, "", append(args, "testdata/bad.xml")...)
		if !strings.Contains(out, `href="`+c.want+`"`) {
			t.Errorf("%v: no link to %s in the HTML report", c.args, c.want)
		}
	}
}

func TestColor(t *testing.T) {
	for _, c := range []struct {
		format, output string
		noColor        bool
		env            string
		terminal, want bool
	}{
		{"text", "", false, "", true, true},
		{"text", "-", false, "", true, true},
		{"text", "", false, "", false, false},
		{"text", "", true, "", true, false},
		{"text", "", false, "1", true, false},
		{"text", "r.txt", false, "", true, false},
		{"json", "", false, "", true, false},
	} {
		if got := useColor(c.format, c.output, c.noColor, c.env, c.terminal); got != c.want {
			t.Errorf("useColor(%+v) = %v", c, got)
		}
	}
	var buf bytes.Buffer
	if isTerminal(&buf) {
		t.Error("a buffer is a terminal")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a regular file is a terminal")
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !isTerminal(tty) {
			t.Error("/dev/tty is not a terminal")
		}
	}
}

func TestRules(t *testing.T) {
	rules := catalogue()
	_, text, _ := rscheck(t, "", "rules")
	for _, r := range rules {
		if !strings.Contains(text, r.ID+" ") {
			t.Errorf("rules: %s missing", r.ID)
		}
	}
	status, out, _ := rscheck(t, "", "rules", "--format", "json")
	var list []ruleJSON
	if err := json.Unmarshal([]byte(out), &list); err != nil || status != exitOK {
		t.Fatal(status, err)
	}
	if len(list) != len(rules) || list[0].ID != rules[0].ID || list[0].SpecURL == "" || list[0].DocURL == "" {
		t.Errorf("rules --format json: %d rules, first %+v", len(list), list[0])
	}
	_, md, _ := rscheck(t, "", "rules", "--format", "md")
	for _, r := range rules {
		if !strings.Contains(md, fmt.Sprintf("<a id=%q></a>\n\n### %s %s\n", strings.ToLower(r.ID), r.ID, r.Name)) {
			t.Errorf("rules.md: no section for %s", r.ID)
		}
		if !strings.Contains(md, "](#"+strings.ToLower(r.ID)+")") {
			t.Errorf("rules.md: %s not in the contents", r.ID)
		}
	}
	if strings.Contains(md, " <rs:") {
		t.Error("rules.md: an element name is not in code and would vanish as an HTML tag")
	}
}

func TestExplain(t *testing.T) {
	r := validator.Lookup("RS404")
	status, out, _ := rscheck(t, "", "explain", "rs404")
	if status != exitOK {
		t.Fatal(status)
	}
	for _, want := range []string{"RS404 chronological-order (error)", r.Doc, r.Spec.URL(), "docs/rules.md#rs404"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain: no %q in\n%s", want, out)
		}
	}
}

// TestRulesMarkdownUpToDate fails when docs/rules.md is not what the
// catalogue generates: run go generate ./cmd/rscheck.
func TestRulesMarkdownUpToDate(t *testing.T) {
	var buf bytes.Buffer
	if err := writeRulesMarkdown(&buf, catalogue()); err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatalf("%v (run go generate ./cmd/rscheck)", err)
	}
	if !bytes.Equal(have, buf.Bytes()) {
		t.Error("docs/rules.md is stale: run go generate ./cmd/rscheck")
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"help", "validate"}, {"validate", "-h"},
		{"rules", "--help"}, {"explain", "-h"}, {"help", "version"}} {
		status, out, errs := rscheck(t, "", args...)
		if status != exitOK || !strings.Contains(out, "Usage") || errs != "" {
			t.Errorf("rscheck %v: status %d, stdout %q, stderr %q", args, status, out, errs)
		}
	}
	_, out, _ := rscheck(t, "", "help", "validate")
	for _, flag := range []string{"--format", "-o FILE", "--schema-only", "--rs-version", "--schema FILE", "--max-per-rule", "--no-color", "--timeout", "Examples:", "Exit status"} {
		if !strings.Contains(out, flag) {
			t.Errorf("validate usage lacks %q", flag)
		}
	}
}

func TestVersion(t *testing.T) {
	status, out, _ := rscheck(t, "", "version")
	if status != exitOK || !strings.HasPrefix(out, "rscheck ") {
		t.Errorf("version: %d %q", status, out)
	}
}

// TestExtraSchema checks that --schema reaches the validator: with the
// schema of its foreign namespace loaded, a document has fewer errors.
func TestExtraSchema(t *testing.T) {
	_, without, _ := validateJSON(t, "", "testdata/extension.xml")
	status, with, errs := validateJSON(t, "", "--schema", "testdata/extra.xsd", "testdata/extension.xml")
	if errs != "" || with.Summary.Errors >= without.Summary.Errors {
		t.Errorf("--schema: status %d, %d errors with the schema and %d without; stderr %q",
			status, with.Summary.Errors, without.Summary.Errors, errs)
	}
}
