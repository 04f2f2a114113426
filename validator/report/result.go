package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rscheck/rscheck/validator"
)

// Tool is the name of the tool in every view.
const Tool = "rscheck"

// InformationURI is the tool's home page (SARIF tool.driver.informationUri).
const InformationURI = "https://github.com/rscheck/rscheck"

// DefaultDocBase is prefixed to [validator.Rule.DocURL] to link a rule to
// its documentation when Options.DocBase is empty.
const DefaultDocBase = "https://github.com/rscheck/rscheck/blob/main/"

// Result is what a run of rscheck produced: one Report per document, in
// input order.
type Result struct {
	// Tool is "rscheck"; Version is its version.
	Tool    string `json:"tool"`
	Version string `json:"version"`
	// Documents are the reports, in input (or crawl) order.
	Documents []*validator.Report `json:"documents"`
	// Summary counts the findings of all Documents.
	Summary Summary `json:"summary"`
	// Tree is the hierarchy of documents an exploration went through,
	// from the starting point down (explore results only).
	Tree *Node `json:"tree,omitempty"`
	// Discovery says how an exploration looked for the Source
	// Description and what each method found (explore results only).
	Discovery []Discovery `json:"discovery,omitempty"`
	// Excerpts holds, per index in Documents, the source lines the
	// findings point at. See AddExcerpts. They are a presentation aid for
	// the text and HTML views and are not part of the JSON form.
	Excerpts map[int]Excerpts `json:"-"`
}

// Summary counts the findings of all documents, suppressed findings
// included.
type Summary struct {
	// Errors, Warnings and Infos count findings by severity.
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
	// Documents is the number of documents reported.
	Documents int `json:"documents"`
}

// Node is one document of an explored hierarchy.
type Node struct {
	// URL of the document, as linked from its parent.
	URL string `json:"url"`
	// Kind is the detected kind, empty when the document was not read.
	Kind validator.Kind `json:"kind,omitempty"`
	// Status sums the node up; see the Status constants.
	Status Status `json:"status"`
	// Errors and Warnings count the document's findings.
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	// Document is the 1-based index of the document's report in
	// Result.Documents, 0 when it has none (not fetched, unreachable).
	Document int `json:"document,omitempty"`
	// Children are the documents this one links down to, in document order.
	Children []*Node `json:"children,omitempty"`
	// Note explains the status for a person: "HTTP 404 Not Found",
	// "already visited", "not followed: outside the Source".
	Note string `json:"note,omitempty"`
}

// Status sums up a node of an explored hierarchy. Views show values they
// do not know as they are.
type Status string

// Statuses of a Node.
const (
	StatusOK          Status = "ok"          // read, no error or warning
	StatusError       Status = "error"       // read, at least one error
	StatusWarning     Status = "warning"     // read, warnings but no error
	StatusUnreachable Status = "unreachable" // could not be fetched
	StatusSkipped     Status = "skipped"     // not fetched: limit, scope or already visited
)

// Discovery is what one discovery method found when looking for a
// ResourceSync Source Description or Capability List.
type Discovery struct {
	// Method is one of the Method constants.
	Method string `json:"method"`
	// Found lists the URLs the method led to, in the order found.
	Found []string `json:"found,omitempty"`
	// Note explains the outcome: "robots.txt has no Sitemap line".
	Note string `json:"note,omitempty"`
}

// Discovery methods (ResourceSync §6.3 and Appendix B).
const (
	MethodWellKnown  = "well-known"  // /.well-known/resourcesync
	MethodRobotsTxt  = "robots.txt"  // Sitemap: lines of robots.txt
	MethodHTMLLink   = "html-link"   // <link rel="resourcesync"> in an HTML page
	MethodLinkHeader = "link-header" // HTTP Link header
	MethodUpLinks    = "up-links"    // rel="up" links from the starting document
	MethodStartURL   = "start-url"   // the starting URL itself
)

// NewResult returns the result of validating docs, with its summary. Tool
// is set; the caller sets Version.
func NewResult(docs []*validator.Report) *Result {
	if docs == nil {
		docs = []*validator.Report{}
	}
	r := &Result{Tool: Tool, Documents: docs}
	r.Summary = summarize(docs)
	return r
}

func summarize(docs []*validator.Report) Summary {
	s := Summary{Documents: len(docs)}
	for _, d := range docs {
		s.Errors += d.Errors
		s.Warnings += d.Warnings
		s.Infos += d.Infos
	}
	return s
}

// Options configure the views.
type Options struct {
	// Color enables ANSI colours in the text view.
	Color bool
	// Rules is the catalogue: SARIF lists it as tool.driver.rules and the
	// HTML view documents the rules of its findings from it. Nil means
	// validator.Rules().
	Rules []*validator.Rule
	// DocBase is prefixed to a rule's DocURL to link to its
	// documentation; empty means DefaultDocBase.
	DocBase string
}

func (o *Options) rules() []*validator.Rule {
	if o.Rules == nil {
		return validator.Rules()
	}
	return o.Rules
}

func (o *Options) docURL(r *validator.Rule) string {
	base := o.DocBase
	if base == "" {
		base = DefaultDocBase
	}
	return base + r.DocURL()
}

// ruleIndex maps rule IDs to rules.
func ruleIndex(rules []*validator.Rule) map[string]*validator.Rule {
	m := make(map[string]*validator.Rule, len(rules))
	for _, r := range rules {
		m[r.ID] = r
	}
	return m
}

// A Writer renders a Result in one format.
type Writer func(w io.Writer, r *Result, opts Options) error

var writers = map[string]Writer{
	"text":  WriteText,
	"json":  WriteJSON,
	"html":  WriteHTML,
	"junit": WriteJUnit,
	"sarif": WriteSARIF,
}

// Formats returns the names of the formats Write knows, default first.
func Formats() []string { return []string{"text", "json", "html", "junit", "sarif"} }

// Write renders r in the named format.
func Write(format string, w io.Writer, r *Result, opts Options) error {
	wr, ok := writers[format]
	if !ok {
		return fmt.Errorf("unknown format %q (want one of %v)", format, Formats())
	}
	return wr(w, r, opts)
}

// suppressedRules returns the IDs of a report's suppressed rules, sorted.
func suppressedRules(rep *validator.Report) []string {
	ids := make([]string, 0, len(rep.Suppressed))
	for id := range rep.Suppressed {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// plural formats a count and a noun: "1 error", "2 errors", "3 entries".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if s, ok := strings.CutSuffix(noun, "y"); ok {
		return fmt.Sprintf("%d %sies", n, s)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// notShown says how many findings of a rule the per-rule cap left out:
// "1234 more RS404 findings not shown".
func notShown(n int, rule string) string {
	return plural(n, "more "+rule+" finding") + " not shown"
}

// RuleInfo is what the browser app shows of a rule: the JSON shape of the
// catalogue that the page's worker and cmd/serve --monitor give it, so
// that it can name and link the rule of each finding.
type RuleInfo struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	Spec     string `json:"spec"`
	SpecURL  string `json:"specURL"`
	Doc      string `json:"doc"`
	DocURL   string `json:"docURL"`
}

// RuleInfos describes rules, their documentation under DefaultDocBase.
func RuleInfos(rules []*validator.Rule) []RuleInfo {
	out := make([]RuleInfo, 0, len(rules))
	for _, r := range rules {
		out = append(out, RuleInfo{r.ID, r.Name, r.Severity.String(), r.Spec.Label(), r.Spec.URL(), r.Doc, DefaultDocBase + r.DocURL()})
	}
	return out
}
