package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/rscheck/rscheck/validator"
)

// The JUnit XML subset CI systems read (GitLab, Jenkins, the GitHub
// Actions test reporters).
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string          `xml:"name,attr"`
		Tests      int             `xml:"tests,attr"`
		Failures   int             `xml:"failures,attr"`
		Errors     int             `xml:"errors,attr"`
		Skipped    int             `xml:"skipped,attr"`
		Properties []junitProperty `xml:"properties>property,omitempty"`
		Cases      []junitCase     `xml:"testcase"`
		SystemOut  *junitText      `xml:"system-out"`
	}
	// junitText is character data that keeps its line breaks (encoding/xml
	// would write them as &#xA;, which some CI viewers show as is).
	junitText struct {
		Inner string `xml:",innerxml"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		ClassName string        `xml:"classname,attr"`
		File      string        `xml:"file,attr,omitempty"`
		Line      int           `xml:"line,attr,omitempty"`
		Failure   *junitFailure `xml:"failure"`
	}
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

// WriteJUnit writes r as JUnit XML: one <testsuite> per document, named
// by its source, with one failing <testcase> per error finding (and one
// per rule whose errors were cut by the per-rule cap), or a single passing
// "conformance" test case when the document has no error. Warnings and
// infos are listed in the suite's <system-out>.
func WriteJUnit(w io.Writer, r *Result, opts Options) error {
	idx := ruleIndex(opts.rules())
	all := junitSuites{Name: Tool}
	for _, rep := range r.Documents {
		s := junitSuite{Name: rep.Source, Properties: []junitProperty{
			{"kind", string(rep.Kind)},
			{"entries", fmt.Sprint(rep.Entries)},
			{"errors", fmt.Sprint(rep.Errors)},
			{"warnings", fmt.Sprint(rep.Warnings)},
			{"infos", fmt.Sprint(rep.Infos)},
		}}
		var out strings.Builder
		for k := range rep.Findings {
			f := &rep.Findings[k]
			if f.Severity != validator.Error {
				fmt.Fprintf(&out, "%s\n", findingLine(f))
				continue
			}
			name := f.Rule
			if f.Line > 0 {
				name += fmt.Sprintf(" at %d:%d", f.Line, f.Column)
			}
			s.Cases = append(s.Cases, junitCase{
				Name: name, ClassName: rep.Source, File: rep.Source, Line: f.Line,
				Failure: &junitFailure{Message: f.Message, Type: f.Rule, Text: findingLine(f)},
			})
		}
		for _, id := range suppressedRules(rep) {
			msg := notShown(rep.Suppressed[id], id)
			if suppressedSeverity(rep, id, idx) != validator.Error {
				fmt.Fprintf(&out, "%s\n", msg)
				continue
			}
			s.Cases = append(s.Cases, junitCase{
				Name: id + " (more)", ClassName: rep.Source, File: rep.Source,
				Failure: &junitFailure{Message: msg, Type: id, Text: msg},
			})
		}
		s.Failures = len(s.Cases)
		if len(s.Cases) == 0 {
			s.Cases = []junitCase{{Name: "conformance", ClassName: rep.Source, File: rep.Source}}
		}
		s.Tests = len(s.Cases)
		if out.Len() > 0 {
			s.SystemOut = &junitText{escapeKeepingNewlines(out.String())}
		}
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Suites = append(all.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// findingLine is a finding on one line, for plain-text contexts.
func findingLine(f *validator.Finding) string {
	s := fmt.Sprintf("%d:%d: %s %s %s [§%s]", f.Line, f.Column, f.Severity, f.Rule, f.Message, f.Spec)
	if f.Path != "" {
		s += " at " + f.Path
	}
	return s
}

// suppressedSeverity is the severity of a rule whose findings were
// suppressed: that of its kept findings, or of the catalogue's rule.
func suppressedSeverity(rep *validator.Report, id string, idx map[string]*validator.Rule) validator.Severity {
	for _, f := range rep.Findings {
		if f.Rule == id {
			return f.Severity
		}
	}
	if r := idx[id]; r != nil {
		return r.Severity
	}
	return validator.Error
}

// escapeKeepingNewlines escapes s as XML character data, as xml.EscapeText
// does (characters XML cannot hold become U+FFFD), but keeps line feeds.
func escapeKeepingNewlines(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		text, nl := strings.CutSuffix(line, "\n")
		xml.EscapeText(&b, []byte(text))
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
